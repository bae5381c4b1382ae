/* fuzz_partial.c: libFuzzer harness for the partial reader: the bytes
 * after the first as a partial file (core/partial.h) without its END
 * section, which the harness appends with the right CRC-32 (so that
 * mutations reach the section readers, not only the checksum), then
 * every reader of its sections run on it whatever the others said (the
 * run's options, inputs, counts and time covered: runpart.c,
 * pmim/coverage.c; the groups of a PMIM report or the rows of a Windows
 * report: report.c, series_report.c), and the report written to
 * /dev/null. The first byte chooses the report (cpu, waits, perf,
 * win-cpu), and with its top bit, one group held in memory and the
 * others in the spill file (--group-memory). A refused partial is fine; a crash, a leak or a read past its
 * bytes is not. */
#include <stdio.h>
#include <string.h>

#include "fuzz_pipeline.h"
#include "out/csvout.h"
#include "pmim/binding.h"
#include "report/report.h"
#include "report/rptload.h"
#include "report/series_report.h"
#include "runpart.h"

static const char *const reports[] = { "cpu", "waits", "perf", "win-cpu" };
#define NREPORTS (sizeof reports / sizeof reports[0])

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rpt_def defs[NREPORTS];
	static struct schema *schema;
	static FILE *devnull;
	static bool loaded;
	struct report_opts ro = { .by = BY_HOUR, .from = INT64_MIN, .to = INT64_MAX,
	                          .max_groups = 4096, .max_sources = 16 };
	struct report_meta m = { .name = "fuzz", .title = "fuzz", .description = "",
	                         .run_time = "2026-01-01 00:00:00" };
	struct runpart_identity id = { .n = 0 };
	struct census census;
	struct runpart_counts counts;
	struct pipeline_opts po;
	struct pipeline *p;
	struct report *rep = NULL;
	struct series_report *srep = NULL;
	struct rowsink *sink;
	struct sources src;
	struct partial part;
	struct tally t = { 0 };
	struct diag d;
	char err[600], **names = NULL;
	size_t nnames = 0;
	const struct rpt_def *def;
	uint8_t *copy;

	if (size < 1)
		return 0;
	if (!loaded) {
		if (pmint_load(&fuzz_pm, err, sizeof err) != PM_OK ||
		    binding_schema_open(&schema, &fuzz_pm, err, sizeof err) != PM_OK ||
		    !(devnull = fopen("/dev/null", "w")))
			abort();
		for (size_t i = 0; i < NREPORTS; i++)
			if (rptload_find(&defs[i], reports[i], NULL, schema, err, sizeof err) != PM_OK)
				abort();
		loaded = true;
	}
	def = &defs[data[0] % NREPORTS];
	ro.group_memory = data[0] & 0x80 ? 1 : 0;  /* every group but one spilled */
	runpart_put(&id, "report", "%s", def->name);
	diag_init(&d, "fuzz", NULL);
	census_init(&census);
	pipeline_defaults(&po);
	po.max_sources = 16;
	if (sources_init(&src, 16) != PM_OK || csvout_open(&sink, devnull) != PM_OK ||
	    pipeline_open(&p, &po, &fuzz_pm, &src, NULL, NULL, &d) != PM_OK ||
	    (rpt_is_series(def) ? series_report_open(&srep, def, &src, &ro, sink, &d)
	                        : report_open(&rep, def, schema, &src, &ro, sink, &d)) != PM_OK)
		abort();
	if (!(copy = malloc(size - 1 + 16)))
		abort();
	memcpy(copy, data + 1, size - 1);
	memcpy(copy + size - 1, "END ", 4);
	put_be(copy + size - 1 + 4, 8, 4);
	put_be(copy + size - 1 + 12, 4, partial_crc32(0, copy, size - 1));
	if (partial_take(&part, copy, size - 1 + 16, err, sizeof err) == PM_OK) {
		counts = (struct runpart_counts){ &census, &src, 0 };
		(void)runpart_check(&part, &id, err, sizeof err);
		(void)runpart_read(&part, &t, &counts, &d, &names, &nnames, err, sizeof err);
		(void)coverage_import(pipeline_coverage(p), &part, &src, "fuzz", err, sizeof err);
		if (srep)
			(void)series_report_import(srep, &part, &src, err, sizeof err);
		else
			(void)report_import(rep, &part, &src, err, sizeof err);
		partial_free(&part);
	}
	if ((srep ? series_report_finish(srep, &m) : report_finish(rep, &m)) != PM_OK)
		abort();
	series_report_close(srep);
	report_close(rep);
	sink->close(sink);
	pipeline_close(p);
	for (size_t i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	census_free(&census);
	sources_free(&src);
	return 0;
}
