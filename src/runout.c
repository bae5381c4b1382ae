/* runout.c: a run's outputs opened and finished. See runout.h. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/exitcode.h"
#include "engine/counter.h"
#include "out/columns.h"
#include "out/csvout.h"
#include "out/inventory.h"
#include "out/jsonout.h"
#include "out/textout.h"
#ifdef HAVE_SQLITE
#include "core/module.h"
#include "out/sqlitemod.h"
#endif
#ifdef HAVE_CAIRO
#include "out/chartout.h"
#include "out/htmlout.h"
#endif
#include "partials.h"
#include "report/report.h"
#include "report/series_report.h"
#include "runout.h"
#include "summary.h"
#include "winperf/names.h"
#include "core/text.h"

static const char *
title_name(uint32_t index, char buf[12], const void *ctx)
{
	return wp_name(ctx, index, buf);
}

static const char *
type_name(uint32_t type, char buf[12])
{
	const struct counter_type_info *info = counter_type_info(counter_type_by_value(type));

	if (info)
		return info->name;
	snprintf(buf, 12, "0x%08X", (unsigned)type);
	return buf;
}

/* For series reports: whether a definition's name stands for a title
 * index, by --perf-names or the standard English titles. */
static bool
title_is(const char *name, uint32_t index, const void *ctx)
{
	return wp_names_is(ctx, name, index);
}

/* A report's options: the reports of one read share --group-memory. */
static struct report_opts
report_opts_of(const struct run *r)
{
	struct report_opts o = r->o.sel;

	if (o.group_memory && (o.group_memory /= r->outs.n) == 0)
		o.group_memory = 1;
	return o;
}

struct report_opts
series_opts(const struct run *r)
{
	struct report_opts so = report_opts_of(r);

	so.name_is = title_is;
	so.name_ctx = r->names;
	return so;
}

#ifdef HAVE_SQLITE
int
open_database(struct run *r)
{
	const struct module_head *m = module_load(&r->diag, "--format=sqlite is written by",
	                                          SQLITE_MODULE_FILE, SQLITE_MODULE_ENTRY,
	                                          SQLITE_MODULE_ABI);
	pm_status st;

	if (!m)
		return diag_exit_code(&r->diag);
	r->sql = (const struct sqlite_module *)m;  /* its first member */
	if ((st = r->sql->db_open(&r->db, r->o.output)) == PM_OK)
		return EXIT_CLEAN;
	diag_say(&r->diag, pm_status_class(st), "%s", r->sql->db_error(r->db));
	return diag_exit_code(&r->diag);
}

/* A report's table, told what makes its rows (a Windows report reads no
 * copybook layout). */
static pm_status
open_table(struct run *r, struct output *out)
{
	struct sqlite_table_id id = {
		out->def->fingerprint, rpt_is_series(out->def) ? 0 : layout_fingerprint(&r->pm.lay),
		report_by_name(r->o.sel.by), r->o.timezone ? r->o.timezone : ""
	};

	return r->sql->table_open(&out->sink, r->db, out->def->name, &id);
}
#endif

#ifdef HAVE_CAIRO
/* -o DIR/ of charts: each chart to DIR/NAME, written as -o FILE is. */
static FILE *
chart_file_open(void *ctx, const char *name)
{
	struct run *r = ctx;
	size_t n = strlen(r->chart_dir);
	pm_status st;

	free(r->chart_path);
	if (!(r->chart_path = malloc(n + strlen(name) + 2)))
		return NULL;
	sprintf(r->chart_path, "%s%s%s", r->chart_dir,
	        n && r->chart_dir[n - 1] == '/' ? "" : "/", name);
	if ((st = outfile_open(&r->chart_out, r->chart_path)) != PM_OK)
		diag_say(&r->diag, SC_OUTPUT, "%s: %s", r->chart_path, strerror(errno));
	return st == PM_OK ? r->chart_out.fp : NULL;
}

/* The chart kept when it was drawn (drawn PM_OK) and the run has not
 * failed so far (what run_finish asks of the report's file). */
static pm_status
chart_file_close(void *ctx, pm_status drawn)
{
	struct run *r = ctx;
	pm_status st = drawn;

	if (st == PM_OK && diag_exit_code(&r->diag) < EXIT_INPUT && r->read_all)
		st = outfile_commit(&r->chart_out);
	else
		outfile_abort(&r->chart_out);
	if (st == PM_E_WRITE)
		diag_say(&r->diag, SC_OUTPUT, "%s: %s", r->chart_path, strerror(errno));
	return st;
}
#endif

/* A report's writer of --format. */
static pm_status
open_writer(struct run *r, struct output *out)
{
	const struct options *o = &r->o;

	switch (o->format) {
	case FORMAT_TEXT:
		return textout_open(&out->sink, out->out.fp, &o->text);
	case FORMAT_JSON:
		return jsonout_open(&out->sink, out->out.fp);
#ifdef HAVE_CAIRO
	case FORMAT_SVG:
	case FORMAT_PNG:
	case FORMAT_PDF: {
		struct chart_opts co = { (enum chart_format)(o->format - FORMAT_SVG),
		                         o->chart_size.width, o->chart_size.height };
		struct chart_files files = { chart_file_open, chart_file_close, r };
		return chartout_open(&out->sink, r->chart_dir ? NULL : out->out.fp,
		                     r->chart_dir ? &files : NULL, out->def->charts,
		                     out->def->ncharts, &co, &r->diag);
	}
	case FORMAT_HTML: {  /* charts of a report over time, and its table */
		struct chart_opts co = { CHART_SVG, o->chart_size.width, o->chart_size.height };
		return htmlout_open(&out->sink, r->page, out->def->charts,
		                    o->sel.by == BY_TOTAL ? 0 : out->def->ncharts, &co, &r->diag);
	}
#endif
	default:
		return csvout_open(&out->sink, out->out.fp);
	}
}

pm_status
output_open(struct run *r, struct output *out)
{
	/* standard output's, static: stdio may still flush it at exit */
	static char stdout_buf[1 << 20];
	const struct options *o = &r->o;
	/* one large buffer for one report; several share what it was */
	size_t bufsize = r->outs.n == 1 ? 1 << 20 : 1 << 18;
	pm_status st;

	/* a folder of charts has a file a chart, not a report; a database and
	 * a page, one for them all */
	if (!r->db && !r->chart_dir && !r->page) {
		if (outfile_open(&out->out, out->path) != PM_OK) {
			diag_say(&r->diag, SC_OUTPUT, "%s: %s",
			         out->path ? out->path : "standard output", strerror(errno));
			return PM_E_OPEN;
		}
		out->out_open = true;
		if (out->out.fp == stdout)
			setvbuf(stdout, stdout_buf, _IOFBF, sizeof stdout_buf);
		else if ((out->buf = malloc(bufsize)))
			setvbuf(out->out.fp, out->buf, _IOFBF, bufsize);
	}
	if (!out->def)
		return PM_OK;
	if (o->partial)
		out->sink = &null_sink;
#ifdef HAVE_SQLITE
	else if (r->db && (st = open_table(r, out)) != PM_OK)
		return st;
#endif
	else if (!r->db && (st = open_writer(r, out)) != PM_OK)
		return st;
	if (o->columns && (st = columns_open(&out->sink, out->sink, o->columns,
	                                     &r->diag)) != PM_OK)
		return st;
	if (rpt_is_series(out->def)) {
		struct report_opts so = series_opts(r);
		return series_report_open(&out->srep, out->def, &r->sources, &so, out->sink,
		                          &r->diag);
	}
	struct report_opts ro = report_opts_of(r);
	return report_open(&out->rep, out->def, r->schema, &r->sources, &ro, out->sink,
	                   &r->diag);
}

#ifdef HAVE_SQLITE
void
finish_database(struct run *r, pm_status st, bool read_all)
{
	int rc = diag_exit_code(&r->diag);
	size_t n = r->o.merge ? r->nmerged : r->ninputs ? (size_t)r->ninputs : 1;
	const char *const *names = r->o.merge ? (const char *const *)r->merged_inputs
	                           : r->ninputs ? (const char *const *)r->inputs
	                           : (const char *const[]){ "-" };
	int64_t *bytes = calloc(n + 1, sizeof *bytes);
	char *argtext = NULL, when[24];
	size_t len = 0;
	FILE *fp = open_memstream(&argtext, &len);
	time_t now = time(NULL);
	struct tm tm;
	struct stat sb;

	for (int i = 0; fp && i < r->nargs; i++)
		fprintf(fp, "%s%s", i ? " " : "", r->args[i]);
	if (fp && fclose(fp) != 0)
		argtext = NULL;
	for (size_t i = 0; bytes && i < n; i++)
		bytes[i] = !r->o.merge && strcmp(names[i], "-") != 0 &&
		           stat(names[i], &sb) == 0 && S_ISREG(sb.st_mode) ? (int64_t)sb.st_size : -1;
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	if (st != PM_OK) {
		if (*r->sql->db_error(r->db))
			diag_say(&r->diag, pm_status_class(st), "%s", r->sql->db_error(r->db));
		else
			diag_at(&r->diag, st, DIAG_NO_OFFSET, NULL);
	} else if (!bytes || !argtext) {
		st = PM_E_NOMEM;
		diag_at(&r->diag, st, DIAG_NO_OFFSET, NULL);
	}
	st = r->sql->db_finish(r->db, &(struct sqlite_run){
		when, PACKAGE_VERSION, argtext, names, bytes, n, run_tally(r),
		diag_warning_count(&r->diag), rc }, st == PM_OK && rc < EXIT_INPUT && read_all);
	if (st != PM_OK)
		diag_say(&r->diag, pm_status_class(st), "%s", r->sql->db_error(r->db));
	free(bytes);
	free(argtext);
}
#endif

pm_status
output_finish(struct run *r, struct output *out)
{
	static const char *const stdin_name = "-";
	const struct tally *t = run_tally(r);
	struct census_names names = { title_name, type_name, r->names };

	if (r->o.partial)
		return write_partial(r);
	if (out->rep || out->srep) {
		char summary[SUMMARY_MAX];
		struct report_meta meta = {
			.name = out->def->name, .title = out->def->title,
			.description = out->def->description,
			.inputs = r->o.merge ? (const char *const *)r->merged_inputs
			          : r->ninputs ? (const char *const *)r->inputs : &stdin_name,
			.ninputs = r->o.merge ? r->nmerged : r->ninputs ? (size_t)r->ninputs : 1,
			.run_time = r->when, .summary = summary, .said = r->diag.count,
		};
		run_summary(r, summary);
		return out->srep ? series_report_finish(out->srep, &meta)
		                 : report_finish(out->rep, &meta);
	}
	if (r->o.merge && r->merged_census.inputs) {
		census_order(&r->merged_census);
		return inventory_write_perf(out->out.fp, t, &r->merged_census, &r->sources, &names);
	}
	if (pipeline_census(r->p)->inputs)
		return inventory_write_perf(out->out.fp, t, pipeline_census(r->p), &r->sources,
		                            &names);
	return inventory_write(out->out.fp, t);
}

#ifdef HAVE_CAIRO
void
finish_page(struct run *r, pm_status st, bool read_all)
{
	static const char *const stdin_name = "-";
	char summary[SUMMARY_MAX], title[256] = "";
	struct report_meta m = {
		.inputs = r->o.merge ? (const char *const *)r->merged_inputs
		          : r->ninputs ? (const char *const *)r->inputs : &stdin_name,
		.ninputs = r->o.merge ? r->nmerged : r->ninputs ? (size_t)r->ninputs : 1,
		.run_time = r->when, .summary = summary, .said = r->diag.count,
	};

	run_summary(r, summary);
	if (r->outs.n == 1)
		text_copy(title, sizeof title, r->first->def->title);
	else
		for (size_t i = 0; i < r->outs.n; i++)
			snprintf(title + strlen(title), sizeof title - strlen(title), "%s%s",
			         i ? ", " : "pmimrpt: ", output_name(&r->outs.o[i]));
	if (st == PM_OK)
		st = html_page_write(r->page, title, &m);
	r->page_open = false;
	if (st == PM_OK && ((diag_exit_code(&r->diag) < EXIT_INPUT && read_all) ||
	                    !outfile_replaces(&r->page_out)))
		st = outfile_commit(&r->page_out);
	else
		outfile_abort(&r->page_out);
	if (st != PM_OK && st != PM_E_USAGE)
		diag_at(&r->diag, st == PM_E_NOMEM ? st : PM_E_WRITE, DIAG_NO_OFFSET, "%s: %s",
		        r->o.output ? r->o.output : "standard output", strerror(errno));
}
#endif
