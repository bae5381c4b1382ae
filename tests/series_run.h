/* series_run.h: what the tests that read PERF_DATA_BLOCKs into a series
 * report share: a built-in series report (perf, win-cpu, win-disk) loaded
 * once, and one run of it written as CSV (or text) into memory, wired to
 * the pipeline's options as pmimrpt wires it. Included by one test per
 * program, so the functions are static. */
#ifndef SERIES_RUN_H
#define SERIES_RUN_H

#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700 /* open_memstream */
#endif
#include <stdio.h>
#include <stdlib.h>

#include "out/csvout.h"
#include "out/textout.h"
#include "pipeline.h"
#include "pmim/binding.h"
#include "report/rptload.h"
#include "report/series_report.h"
#include "winperf/names.h"

/* A series report being written into memory. */
struct series_run {
	FILE *fp;
	char *out;          /* the report's bytes, once ended */
	size_t len;
	struct rowsink *sink;
	struct series_report *rep;
	const struct rpt_def *def;
};

static bool
series_run_title_is(const char *name, uint32_t index, const void *ctx)
{
	return wp_names_is(ctx, name, index);
}

/* The definition of the built-in report `name`; NULL with err said when
 * it cannot be had or is no series report. */
static struct rpt_def *
series_run_load(const struct pmint *pm, const char *name, char *err, size_t errlen)
{
	static struct schema *schema;
	struct rpt_def *def = malloc(sizeof *def);

	if (!def || (!schema && binding_schema_open(&schema, pm, err, errlen) != PM_OK) ||
	    rptload_find(def, name, NULL, schema, err, errlen) != PM_OK) {
		free(def);
		return NULL;
	}
	if (!rpt_is_series(def)) {
		snprintf(err, errlen, "report '%s' is no series report", name);
		free(def);
		return NULL;
	}
	return def;
}

/* Open the report of def into memory and hang it on o (o->reads becomes
 * READS_PERF, as for pmimrpt). text: the text format, else CSV. */
static pm_status
series_run_open(struct series_run *r, const struct rpt_def *def, enum report_by by,
                bool text, struct pipeline_opts *o, const struct sources *src,
                struct diag *d)
{
	static const struct textout_opts to = { 60, false, NULL };
	struct report_opts so = { .by = by, .from = INT64_MIN, .to = INT64_MAX,
	                          .max_groups = 100000, .max_sources = o->max_sources,
	                          .name_is = series_run_title_is };
	pm_status st;

	*r = (struct series_run){ .def = def };
	if (!(r->fp = open_memstream(&r->out, &r->len)))
		return PM_E_NOMEM;
	st = text ? textout_open(&r->sink, r->fp, &to) : csvout_open(&r->sink, r->fp);
	if (st == PM_OK)
		st = series_report_open(&r->rep, def, src, &so, r->sink, d);
	o->reads = READS_PERF;
	o->series = series_report_frame;
	o->series_ctx = r->rep;
	o->perf_names = NULL;
	return st;
}

/* End the report (after pipeline_finish) and take its bytes: r->out,
 * r->len, the caller's to free. */
static pm_status
series_run_finish(struct series_run *r)
{
	static const char *const input = "input";
	struct report_meta m = { .name = r->def->name, .title = r->def->title,
	                         .description = r->def->description, .inputs = &input,
	                         .ninputs = 1, .run_time = "2026-01-01 00:00:00" };
	pm_status st = r->rep ? series_report_finish(r->rep, &m) : PM_OK;

	series_report_close(r->rep);
	if (r->sink)
		r->sink->close(r->sink);
	if (fclose(r->fp) != 0 && st == PM_OK)
		st = PM_E_WRITE;
	r->rep = NULL;
	r->sink = NULL;
	r->fp = NULL;
	return st;
}

#endif
