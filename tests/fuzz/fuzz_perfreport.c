/* fuzz_perfreport.c: libFuzzer harness for the cook and the series
 * reports: the bytes after the first as a stream of PERF_DATA_BLOCKs
 * through the real pipeline (--framing=perf), every snapshot paired with
 * its system's previous one into series frames, and the frames into a
 * built-in series report written to /dev/null, as pmimrpt writes it. The
 * first byte chooses the report (perf, win-cpu, win-disk), the grouping,
 * the format (CSV or text) and the read size; every byte is accounted for
 * (fuzz_pipeline.h) and the report must end without a write error. */
#include <stdio.h>

#include "fuzz_pipeline.h"
#include "out/csvout.h"
#include "out/textout.h"
#include "pmim/binding.h"
#include "report/rptload.h"
#include "report/series_report.h"
#include "winperf/names.h"

static const char *const reports[] = { "perf", "win-cpu", "win-disk" };
#define NREPORTS (sizeof reports / sizeof reports[0])

static struct rpt_def defs[NREPORTS];
static const struct rpt_def *def;
static enum report_by by;
static bool text;
static FILE *devnull;
static struct diag report_diag;

/* The report, made once fuzz_run has the run's sources, and the frames
 * handed to it through this. */
static struct run {
	struct rowsink *sink;
	struct series_report *rep;
} run;

static void
to_report(const struct series_frame *f, void *ctx)
{
	struct run *r = ctx;
	series_report_frame(f, r->rep);
}

static void
ignore(const struct interval *iv, void *ctx)
{
	(void)iv;
	(void)ctx;
}

static bool
title_is(const char *name, uint32_t index, const void *ctx)
{
	return wp_names_is(ctx, name, index);
}

static void *
open_report(const struct sources *src)
{
	static const struct textout_opts to = { 60, false, NULL };
	struct report_opts o = { .by = by, .from = INT64_MIN, .to = INT64_MAX,
	                         .max_groups = 4096, .max_sources = 16,
	                         .name_is = title_is };

	diag_init(&report_diag, "fuzz", NULL);
	if ((text ? textout_open(&run.sink, devnull, &to)
	          : csvout_open(&run.sink, devnull)) != PM_OK ||
	    series_report_open(&run.rep, def, src, &o, run.sink, &report_diag) != PM_OK)
		abort();
	return NULL;
}

static void
finish_report(void *ctx)
{
	static const char *const input = "fuzz";
	struct report_meta m = { .name = def->name, .title = def->title,
	                         .description = def->description, .inputs = &input,
	                         .ninputs = 1, .run_time = "2026-01-01 00:00:00" };

	(void)ctx;
	if (series_report_finish(run.rep, &m) != PM_OK)
		abort();
	series_report_close(run.rep);
	run.sink->close(run.sink);
	run.rep = NULL;
	run.sink = NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool loaded;
	static const size_t chunks[] = { 0, 1, 7, 4096 };
	struct pipeline_opts o;
	char err[256];

	if (size < 1)
		return 0;
	if (!loaded) {
		static struct schema *schema;
		if (pmint_load(&fuzz_pm, err, sizeof err) != PM_OK ||
		    binding_schema_open(&schema, &fuzz_pm, err, sizeof err) != PM_OK ||
		    !(devnull = fopen("/dev/null", "w")))
			abort();
		for (size_t i = 0; i < NREPORTS; i++)
			if (rptload_find(&defs[i], reports[i], NULL, schema, err,
			                 sizeof err) != PM_OK || !rpt_is_series(&defs[i]))
				abort();
		loaded = true;
	}
	def = &defs[data[0] % NREPORTS];
	by = (enum report_by)(data[0] / NREPORTS % 4);
	text = data[0] / (NREPORTS * 4) % 2;
	pipeline_defaults(&o);
	o.framing = FRAMING_PERF;
	o.reads = READS_PERF;
	o.max_record = 1 << 16;
	o.max_sources = 16;
	o.series = to_report;
	o.series_ctx = &run;
	fuzz_run(&o, data + 1, size - 1, chunks[data[0] / (NREPORTS * 8) % 4],
	         &(struct fuzz_hooks){ ignore, open_report, finish_report });
	return 0;
}
