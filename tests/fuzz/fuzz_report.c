/* fuzz_report.c: libFuzzer harness for the counter engine, the metric
 * layer and reports. The first byte chooses a built-in report and its
 * grouping, and whether its groups past the first go to the spill file;
 * the rest is a stream of PM records, read as fuzz_pm reads
 * them, whose intervals go through the report into a sink that checks
 * every row: as many cells as columns, and each numeric cell empty or a
 * plain decimal number, whatever figures the records hold. */
#include <stdio.h>

#include "fuzz_pipeline.h"
#include "out/cell.h"
#include "pmim/binding.h"
#include "report/report.h"
#include "report/rptload.h"

static const char *const reports[] = { "waits", "cpu", "tasks", "intervals", "summary" };
#define NREPORTS (sizeof reports / sizeof reports[0])

static struct rpt_def defs[NREPORTS];
static const struct rpt_def *def;
static enum report_by by;
static bool spill;  /* one group held, the others in the spill file */
static struct diag report_diag;
static struct schema *schema;
static struct binding_framer framer = { report_frame, NULL };

struct checker {
	struct rowsink sink;
	const struct sink_column *cols;
	size_t ncols;
};

static pm_status
check_begin(struct rowsink *s, const struct sink_column *cols, size_t ncols,
            bool form)
{
	struct checker *c = (struct checker *)s;

	(void)form;
	c->cols = cols;
	c->ncols = ncols;
	return PM_OK;
}

/* digits, with at most one point between digits */
static bool
plain_number(const char *p, size_t n)
{
	size_t points = 0;

	for (size_t i = 0; i < n; i++)
		if (p[i] == '.')
			points += i > 0 && i + 1 < n ? 1 : 2;
		else if (p[i] < '0' || p[i] > '9')
			return false;
	return points <= 1;
}

static void
check_row(struct rowsink *s, const struct sink_cell *cells, bool marked)
{
	struct checker *c = (struct checker *)s;

	(void)marked;
	for (size_t i = 0; i < c->ncols; i++) {
		char buf[CELL_FORMAT_MAX];
		size_t n;
		const char *text = cell_bytes(&cells[i], buf, &n);

		if (c->cols[i].numeric && !plain_number(text, n))
			abort();
	}
}

static pm_status
check_end(struct rowsink *s, const struct report_meta *m)
{
	(void)s;
	(void)m;
	return PM_OK;
}

static void
check_close(struct rowsink *s)
{
	(void)s;
}

static struct checker checker = {
	{ check_begin, check_row, check_end, check_close }, NULL, 0
};

static void *
open_report(const struct sources *src)
{
	struct report_opts o = { .by = by, .from = INT64_MIN, .to = INT64_MAX,
	                         .max_groups = 4096, .max_sources = 4,
	                         .group_memory = spill ? 1 : 0 };
	struct report *r;

	diag_init(&report_diag, "fuzz", NULL);
	if (report_open(&r, def, schema, src, &o, &checker.sink, &report_diag) != PM_OK)
		abort();
	framer.ctx = r;
	return &framer;
}

static void
finish_report(void *ctx)
{
	struct report_meta m = { .name = def->name };

	struct report *r = ((struct binding_framer *)ctx)->ctx;

	if (report_finish(r, &m) != PM_OK)
		abort();
	report_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool loaded;
	struct pipeline_opts o;
	char err[256];

	if (size < 1)
		return 0;
	if (!loaded) {
		if (pmint_load(&fuzz_pm, err, sizeof err) != PM_OK ||
		    binding_schema_open(&schema, &fuzz_pm, err, sizeof err) != PM_OK)
			abort();
		for (size_t i = 0; i < NREPORTS; i++)
			if (rptload_find(&defs[i], reports[i], NULL, schema, err,
			                 sizeof err) != PM_OK)
				abort();
		loaded = true;
	}
	def = &defs[data[0] % NREPORTS];
	by = (enum report_by)(data[0] / NREPORTS % 4);
	spill = data[0] & 0x80;
	fuzz_pm_stream(&o);
	fuzz_run(&o, data + 1, size - 1, 0,
	         &(struct fuzz_hooks){ binding_frame_interval, open_report, finish_report });
	return 0;
}
