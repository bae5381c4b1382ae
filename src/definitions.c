/* definitions.c: the reports of a run. See definitions.h. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/exitcode.h"
#include "definitions.h"
#include "report/rptload.h"
#include "report/series_report.h"
#include "winperf/names.h"

/* The extension of a report's file in -o DIR/, by enum format. */
static const char *
format_ext(enum format f)
{
	static const char *const ext[] = { "csv", "csv", "txt", "jsonl", "db", "svg", "png", "pdf",
	                                   "html" };
	return ext[f];
}

/* Whether an output is one of the inputs (said, as a usage error): the
 * run would replace what it reads. */
static bool
output_is_input(struct run *r)
{
	for (size_t k = 0; k < r->outs.n; k++) {
		const char *path = format_one_file(r->o.format) ? r->o.output : r->outs.o[k].path;
		for (int i = 0; i < (r->ninputs ? r->ninputs : 1); i++) {
			const char *input = r->ninputs ? r->inputs[i] : "-";
			if (outfile_is_input(path, input)) {
				diag_usage(&r->diag, "the output %s is the input %s: refused, "
				           "it would be replaced", path,
				           strcmp(input, "-") ? input : "standard input");
				return true;
			}
		}
	}
	return false;
}

/* The title table of --perf-names, for the inventory's names. */
static int
load_perf_names(struct run *r)
{
	char err[160] = "";
	pm_status st;

	if (!r->o.perf_names)
		return EXIT_CLEAN;
	st = wp_names_load(&r->names, r->o.perf_names, err, sizeof err);
	if (st == PM_OK)
		return EXIT_CLEAN;
	if (st == PM_E_NOMEM) {
		diag_say(&r->diag, SC_INPUT, "out of memory");
		return EXIT_INPUT;
	}
	return diag_usage(&r->diag, "--perf-names=%s: %s", r->o.perf_names,
	                  st == PM_E_PERF_NAMES ? err : strerror(errno));
}

/* What a report reads: PMIM, Windows data, or either (the inventory). */
static enum pipeline_reads
output_reads(const struct output *out)
{
	return !out->def ? READS_BOTH : rpt_is_series(out->def) ? READS_PERF : READS_PMIM;
}

/* One report's definition; none for the inventory. */
static int
load_definition(struct run *r, struct output *out)
{
	const struct options *o = &r->o;
	char err[512];
	pm_status st;

	if (strcmp(out->name, "inventory") == 0) {
		if (o->format != FORMAT_CSV)
			return diag_usage(&r->diag, "the inventory report is CSV only, not --format=%s",
			                  format_names(o->format - FORMAT_CSV));
		if (o->columns)
			return diag_usage(&r->diag, "the inventory report has its own columns: "
			                  "--columns does not apply");
		return EXIT_CLEAN;
	}
	if (!(out->def = malloc(sizeof *out->def))) {
		diag_say(&r->diag, SC_INPUT, "out of memory");
		return EXIT_INPUT;
	}
	st = rptload_find(out->def, out->name, o->report_dir, r->schema, err, sizeof err);
	if (st == PM_E_DEFINITION) {
		diag_line(&r->diag, SC_USAGE, "%s", err);
		return EXIT_USAGE;
	}
	if (st == PM_E_NOMEM) {
		diag_say(&r->diag, SC_INPUT, "%s", err);
		return EXIT_INPUT;
	}
	if (st != PM_OK)
		return diag_usage(&r->diag, "%s", err);
	if (rpt_is_series(out->def) && o->sel.complete_only)
		return diag_usage(&r->diag, "--complete-only is for PMIM intervals, not "
		                  "report '%s'", out->def->name);
	if (format_is_chart(o->format) && !out->def->ncharts)
		return diag_usage(&r->diag, "report '%s' defines no chart (see 'chart' in "
		                  "reports/README.md)", out->def->name);
	if (format_is_chart(o->format) && o->sel.by == BY_TOTAL)
		return diag_usage(&r->diag, "--format=%s draws a report over time: give "
		                  "--by=interval, hour or day", format_names(o->format - FORMAT_CSV));
	return EXIT_CLEAN;
}

bool
output_is_folder(const char *path)
{
	struct stat sb;
	size_t n = path ? strlen(path) : 0;

	return n && (path[n - 1] == '/' || (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)));
}

int
load_definitions(struct run *r)
{
	const struct options *o = &r->o;
	const struct output *pmim = NULL, *perf = NULL;
	bool by_applies = false;
	int rc;

	if ((rc = outputs_parse(&r->outs, o->report, &r->diag)) != EXIT_CLEAN)
		return rc;
	if (o->columns && r->outs.n > 1)
		return diag_usage(&r->diag, "--columns picks the columns of one report, not of %zu",
		                  r->outs.n);
	r->first = &r->outs.o[0];
	for (size_t i = 0; i < r->outs.n; i++) {
		struct output *out = &r->outs.o[i];
		if ((rc = load_definition(r, out)) != EXIT_CLEAN)
			return rc;
		if (output_reads(out) == READS_PMIM && !pmim)
			pmim = out;
		if (output_reads(out) == READS_PERF && !perf)
			perf = out;
		by_applies = by_applies || !out->def || out->def->rows != ROWS_INTERVAL;
	}
	if (pmim && perf)
		return diag_usage(&r->diag, "report '%s' reads PMIM records and report '%s' "
		                  "Windows performance data: they need runs of their own",
		                  output_name(pmim), output_name(perf));
	/* in a list, --by is for the reports it applies to */
	if (o->by_given && !by_applies)
		return diag_usage(&r->diag, "report '%s' has a row per interval: --by does not apply",
		                  output_name(r->first));
	r->o.pipe.reads = pmim ? READS_PMIM : perf ? READS_PERF : READS_BOTH;
	if (!pmim && (rc = load_perf_names(r)) != EXIT_CLEAN)
		return rc;
	/* one database holds every report's table */
	if (o->format == FORMAT_HTML && output_is_folder(o->output))
		return diag_usage(&r->diag, "--format=html writes one page, -o FILE.html, with a "
		                  "section a report: not the directory %s", o->output);
	if (!format_one_file(o->format) &&
	    (rc = outputs_place(&r->outs, o->output, format_ext(o->format), &r->diag)) !=
	    EXIT_CLEAN)
		return rc;
	return output_is_input(r) ? EXIT_USAGE : EXIT_CLEAN;
}

