/* partials.c: a run's partials written and merged. See partials.h. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/exitcode.h"
#include "core/fnv.h"
#include "partials.h"
#include "pmim/coverage.h"
#include "report/report.h"
#include "report/series_report.h"
#include "summary.h"

uint64_t
layout_fingerprint(const struct layout *lay)
{
	uint64_t h = FNV_OFFSET;
	char buf[CB_NAME_MAX + 64];

	for (size_t i = 0; i < lay->nfields; i++) {
		const struct cb_field *f = &lay->fields[i];
		snprintf(buf, sizeof buf, "%s %u %zu %zu %c;", f->name, f->part, f->offset,
		         f->length, f->type);
		h = fnv_text(h, buf);
	}
	return h;
}

void
build_identity(struct run *r)
{
	const struct options *o = &r->o;
	struct runpart_identity *id = &r->identity;
	char sources[RUNPART_VALUE_MAX] = "";

	for (size_t i = 0; i < o->sel.nsources; i++)
		snprintf(sources + strlen(sources), sizeof sources - strlen(sources), "%s%s",
		         i ? "," : "", o->sel.sources[i]);
	runpart_put(id, "report", "%s", output_name(r->first));
	runpart_put(id, "definition", "%016llx",
	            (unsigned long long)(r->first->def ? r->first->def->fingerprint : 0));
	runpart_put(id, "layout", "%016llx", (unsigned long long)layout_fingerprint(&r->pm.lay));
	runpart_put(id, "by", "%s", report_by_name(o->sel.by));
	runpart_put(id, "from", "%lld", (long long)o->sel.from);
	runpart_put(id, "to", "%lld", (long long)o->sel.to);
	runpart_put(id, "source", "%s", sources);
	runpart_put(id, "complete-only", "%d", o->sel.complete_only);
	runpart_put(id, "timezone", "%s", o->timezone ? o->timezone : "");
	runpart_put(id, "framing", "%s", framing_name(o->pipe.framing));
	runpart_put(id, "smf-type", "%u", o->pipe.smf.type);
	runpart_put(id, "pm-offset", "%ld", (long)o->pipe.smf.pm_offset);
	runpart_put(id, "codepage", "%s", o->pipe.smf.codepage);
	runpart_put(id, "cv-field", "%zu,%zu", o->pipe.smf.cv_offset, o->pipe.smf.cv_length);
	runpart_put(id, "max-interval", "%lld", (long long)o->pipe.max_interval);
	runpart_put(id, "max-groups", "%zu", o->sel.max_groups);
	runpart_put(id, "perf-names", "%s", o->perf_names ? o->perf_names : "");
}

int
check_partial(struct run *r)
{
	const struct options *o = &r->o;

	if (!o->partial && !o->merge)
		return EXIT_CLEAN;
	if (r->outs.n > 1)
		return diag_usage(&r->diag, "--%s takes one report, not %zu", o->merge ? "merge"
		                  : "partial", r->outs.n);
	if (o->format != FORMAT_CSV && o->partial)
		return diag_usage(&r->diag, "--partial writes a partial file, not --format=%s",
		                  format_names(o->format - FORMAT_CSV));
	if (o->columns && o->partial)
		return diag_usage(&r->diag, "--partial keeps every column: give --columns to --merge");
	if (o->partial && !o->merge)
		r->o.sel.rows_input = &r->diag.file;
	build_identity(r);
	return EXIT_CLEAN;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
merge_partial(struct run *r, struct partial *p, pm_status st, const char *path,
              char *err, size_t cap)
{
	struct runpart_counts counts = { &r->merged_census, &r->sources, 0 };

	if (st == PM_OK && (st = runpart_check(p, &r->identity, err, cap)) == PM_OK &&
	    (st = runpart_read(p, &r->merged, &counts, &r->diag, &r->merged_inputs,
	                       &r->nmerged, err, cap)) == PM_OK &&
	    (st = coverage_import(pipeline_coverage(r->p), p, &r->sources, path, err,
	                          cap)) == PM_OK)
		st = r->first->srep ? series_report_import(r->first->srep, p, &r->sources, err, cap)
		     : r->first->rep ? report_import(r->first->rep, p, &r->sources, err, cap)
		     : PM_OK;
	partial_free(p);
	r->merged_resets += counts.resets;
	if (st == PM_OK)
		return 0;
	if (st == PM_E_OPEN || st == PM_E_READ)
		diag_at(&r->diag, st, DIAG_NO_OFFSET, "%s: %s", path, strerror(errno));
	else
		diag_at(&r->diag, st, DIAG_NO_OFFSET, "%s: %s", path,
		        st == PM_E_NOMEM ? "out of memory" : err);
	return -1;
}

int
merge_partials(struct run *r)
{
	char err[600];
	int rc = 0;

	for (int i = 0; i < (r->ninputs ? r->ninputs : 1); i++) {
		const char *path = r->ninputs ? r->inputs[i] : "-";
		struct partial p;
		pm_status st = partial_load(&p, path, err, sizeof err);

		if (merge_partial(r, &p, st, path, err, sizeof err) < 0)
			rc = -1;
	}
	/* one run lists its inputs in the order given; a merge, by name */
	if (r->nmerged)
		qsort(r->merged_inputs, r->nmerged, sizeof *r->merged_inputs, by_name);
	return rc;
}

/* --partial: the report's rows go nowhere; its groups go to the partial. */
static pm_status
null_begin(struct rowsink *s, const struct sink_column *cols, size_t ncols, bool form)
{
	(void)s, (void)cols, (void)ncols, (void)form;
	return PM_OK;
}

static void
null_row(struct rowsink *s, const struct sink_cell *cells, bool marked)
{
	(void)s, (void)cells, (void)marked;
}

static pm_status
null_end(struct rowsink *s, const struct report_meta *m)
{
	(void)s, (void)m;
	return PM_OK;
}

static void
null_close(struct rowsink *s)
{
	(void)s;
}

struct rowsink null_sink = { null_begin, null_row, null_end, null_close, NULL };

pm_status
write_run_partial(FILE *fp, const struct run_partial *rp)
{
	struct pwriter w;

	pw_open(&w, fp);
	runpart_write(&w, rp->id, rp->inputs, rp->ninputs, rp->t, rp->census, rp->src,
	              rp->resets, rp->d);
	coverage_export(rp->cover, &w);
	if (rp->srep)
		series_report_export(rp->srep, &w);
	else if (rp->rep)
		report_export(rp->rep, &w);
	return pw_close(&w);
}

pm_status
write_partial(struct run *r)
{
	static const char *const stdin_name = "-";
	struct output *out = r->first;

	if (r->o.merge)
		return write_run_partial(out->out.fp, &(struct run_partial){
			&r->identity, (const char *const *)r->merged_inputs, r->nmerged,
			&r->merged, &r->merged_census, &r->sources, r->merged_resets,
			pipeline_coverage(r->p), &r->diag, out->rep, out->srep });
	return write_run_partial(out->out.fp, &(struct run_partial){
		&r->identity, r->ninputs ? (const char *const *)r->inputs : &stdin_name,
		r->ninputs ? (size_t)r->ninputs : 1, run_tally(r), pipeline_census(r->p),
		&r->sources, pipeline_resets(r->p), pipeline_coverage(r->p), &r->diag, out->rep,
		out->srep });
}

