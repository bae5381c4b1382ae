/* pmimrpt.c: the program, main and the flow of one run: the command line
 * (options.c), the layout and its schema, the reports' definitions
 * (definitions.c), their outputs opened (runout.c), the stages wired
 * (input -> framing -> smf -> pm -> reassembly -> report -> output), the
 * inputs read (jobs.c) or the partials merged (partials.c), the reports
 * finished and their files kept or given up, the summary line
 * (summary.c), and what the stages reported turned into the exit code. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/cli.h"
#include "core/exitcode.h"
#include "core/tzone.h"
#include "definitions.h"
#include "describe.h"
#include "io/input.h"
#include "jobs.h"
#include "options.h"
#include "partials.h"
#include "pmim/reasm.h"
#include "report/series_report.h"
#include "run.h"
#include "runout.h"
#include "summary.h"
#include "winperf/names.h"
#include "winperf/stream.h"
#ifdef HAVE_SQLITE
#include "out/sqlitemod.h"
#endif
#ifdef HAVE_CAIRO
#include "out/htmlout.h"
#endif

static void
on_signal(int sig)
{
	outfile_remove_on_signal();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* --timezone: the zone, and --from and --to, local times of it, in UTC
 * (the earlier, for a time the clock repeated). */
static int
open_zone(struct run *r)
{
	struct options *o = &r->o;
	int64_t utc[2];
	pm_status st;

	if (!o->timezone)
		return EXIT_CLEAN;
	if (!(r->zone = tzone_open(o->timezone, &st))) {
		if (st == PM_E_NOMEM) {
			diag_say(&r->diag, SC_INPUT, "out of memory");
			return EXIT_INPUT;
		}
		return diag_usage(&r->diag, "--timezone: no time zone '%s' in the system's zone data", o->timezone);
	}
	if (o->sel.from != INT64_MIN) {
		(void)tzone_to_utc(r->zone, o->sel.from, utc);
		o->sel.from = utc[0];
	}
	if (o->sel.to != INT64_MAX) {
		(void)tzone_to_utc(r->zone, o->sel.to, utc);
		o->sel.to = utc[0];
	}
	o->pipe.zone = o->sel.zone = r->zone;
	return EXIT_CLEAN;
}

/* Why the report or the pipeline could not be set up, naming the option
 * that asked for what could not be had. */
static void
report_open_failure(struct diag *d, pm_status st, const struct options *o,
                    const struct pmint *pm, bool output_codepage)
{
	if (st == PM_E_USAGE)
		return;  /* said where it was found: --columns, at the report's begin */
	if (st == PM_E_CODEPAGE)
		diag_at(d, st, DIAG_NO_OFFSET, "%s=%s",
		        output_codepage ? "--output-encoding" : "--codepage",
		        output_codepage ? o->text.encoding : o->pipe.smf.codepage);
	else if (st == PM_E_PENDING_MEMORY)
		diag_at(d, st, DIAG_NO_OFFSET, "--max-pending=%zu needs %llu MiB; "
		        "it may be at most %lu, and as much as memory allows",
		        o->pipe.max_pending,
		        (unsigned long long)(reasm_memory(o->pipe.max_pending,
		                                          pm->lay.nfields) >> 20),
		        (unsigned long)REASM_MAX_PENDING);
	else
		diag_at(d, st, DIAG_NO_OFFSET, NULL);
}

/* The inputs' size for the progress line; -1 when one is not a regular
 * file (a pipe has no size). */
static int64_t
inputs_size(char **paths, int n)
{
	int64_t total = 0;
	struct stat st;

	if (n == 0)
		return -1;
	for (int i = 0; i < n; i++) {
		if (strcmp(paths[i], "-") == 0 || stat(paths[i], &st) != 0 ||
		    !S_ISREG(st.st_mode))
			return -1;
		total += (int64_t)st.st_size;
	}
	return total;
}

/* The command line read, and what it names made ready: the time zone,
 * the run time, the layout. */
static int
run_prepare(struct run *r, int argc, char **argv)
{
	struct options *o = &r->o;
	char err[160];
	int rc;

	census_init(&r->merged_census);
	if ((rc = parse_options(argc, argv, o, &r->diag)) != EXIT_CLEAN ||
	    (rc = open_zone(r)) != EXIT_CLEAN ||
	    (rc = run_time(&r->diag, o->run_time, r->when)) != EXIT_CLEAN)
		return rc;
	r->inputs = argv + optind;
	r->ninputs = argc - optind;
	r->args = argv + 1;
	r->nargs = optind - 1;
	if (pmint_find(&r->pm, o->copybooks.paths, o->copybooks.n, err, sizeof err) != PM_OK) {
		diag_say(&r->diag, SC_USAGE, "copybook #PMINTDS: %s", err);
		return EXIT_USAGE;
	}
	if (binding_schema_open(&r->schema, &r->pm, err, sizeof err) != PM_OK) {
		diag_say(&r->diag, SC_USAGE, "copybook #PMINTDS: %s", err);
		return EXIT_USAGE;
	}
	return EXIT_CLEAN;
}

/* The outputs, their writers and reports, and the reading stages, in that
 * order; a failure is said, and its exit code returned. */
static int
run_open(struct run *r)
{
	const struct options *o = &r->o;
	struct output *pmim = NULL, *perf = NULL;
	size_t npmim = 0, nperf = 0;
	pm_status st;

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
#ifdef HAVE_SQLITE
	if (o->format == FORMAT_SQLITE && open_database(r) != EXIT_CLEAN)
		return diag_exit_code(&r->diag);
#endif
	if (format_is_chart(o->format) && output_is_folder(o->output))
		r->chart_dir = o->output;
#ifdef HAVE_CAIRO
	if (o->format == FORMAT_HTML) {
		if (outfile_open(&r->page_out, o->output) != PM_OK) {
			diag_say(&r->diag, SC_OUTPUT, "%s: %s", o->output ? o->output
			         : "standard output", strerror(errno));
			return EXIT_OUTPUT;
		}
		r->page_open = true;
		if (html_page_open(&r->page, r->page_out.fp) != PM_OK) {
			diag_say(&r->diag, SC_INPUT, "out of memory");
			return EXIT_INPUT;
		}
	}
#endif
	/* Progress on a terminal, or when asked; never with --quiet, nor
	 * when threads read the inputs. */
	progress_init(&r->progress, !o->quiet && r->jobs <= 1 &&
	              (o->progress || isatty(STDERR_FILENO)) ? stderr : NULL,
	              inputs_size(r->inputs, r->ninputs));
	r->o.pipe.progress = &r->progress;
	r->diag.before_message = progress_erase;
	r->diag.before_ctx = &r->progress;
	if (outputs_make_dir(&r->outs, &r->diag) != EXIT_CLEAN)
		return EXIT_OUTPUT;
	st = sources_init(&r->sources, o->pipe.max_sources);
	for (size_t i = 0; i < r->outs.n && st == PM_OK; i++) {
		struct output *out = &r->outs.o[i];
		if ((st = output_open(r, out)) == PM_E_OPEN)
			return EXIT_OUTPUT;
		if (out->rep && !npmim++)
			pmim = out;
		if (out->srep && !nperf++)
			perf = out;
	}
	/* one report is handed its frames directly; several, in turn */
	r->framer = npmim == 1 ? (struct binding_framer){ report_frame, pmim->rep }
	            : (struct binding_framer){ outputs_frame, &r->outs };
	if (nperf) {
		r->o.pipe.series = nperf == 1 ? series_report_frame : outputs_series;
		r->o.pipe.series_ctx = nperf == 1 ? (void *)perf->srep : (void *)&r->outs;
		r->o.pipe.perf_names = r->names;
	}
	if (st == PM_OK)
		st = pipeline_open(&r->p, &o->pipe, &r->pm, &r->sources,
		                   npmim ? binding_frame_interval : NULL, &r->framer, &r->diag);
	if (!r->p) {
#ifdef HAVE_SQLITE
		if (r->db && *r->sql->db_error(r->db)) {
			diag_say(&r->diag, pm_status_class(st), "%s", r->sql->db_error(r->db));
			return diag_exit_code(&r->diag);
		}
#endif
		bool writer = false;
		for (size_t i = 0; i < r->outs.n; i++)
			writer = writer || (r->outs.o[i].def && !r->outs.o[i].sink);
		report_open_failure(&r->diag, st, o, &r->pm, st == PM_E_CODEPAGE && writer);
		return diag_exit_code(&r->diag);
	}
	return EXIT_CLEAN;
}

/* Why a write failed, naming the output. */
static void
say_write_failure(struct run *r, const struct output *out, pm_status st)
{
	diag_at(&r->diag, st == PM_E_NOMEM ? st : PM_E_WRITE, DIAG_NO_OFFSET, "%s: %s",
	        out->path ? out->path : "standard output", strerror(errno));
}

/* Every report written; then their files kept, or all given up. A failed
 * run (exit 8 or more) leaves the previous reports as they were; what is
 * written directly, standard output say, stays written. */
static void
run_finish(struct run *r, bool read_all)
{
	pm_status failed = PM_OK;  /* the first report that could not be written */
	bool keep;

	r->read_all = read_all;  /* a folder's charts are kept as they are drawn */
	for (size_t i = 0; i < r->outs.n; i++) {
		struct output *out = &r->outs.o[i];
		pm_status st = output_finish(r, out);
		if (st != PM_OK && failed == PM_OK)
			failed = st;
		if (st == PM_OK || r->db || r->page)
			continue;
		/* a writer says its usage errors, and a folder's charts their own */
		if (st != PM_E_USAGE && !(r->chart_dir && st == PM_E_WRITE))
			say_write_failure(r, out, st);
		if (out->out_open)
			outfile_abort(&out->out);
		out->out_open = false;
	}
	if (!r->o.partial)  /* a partial's parts may hold nothing: the merge says */
		say_nothing_selected(&r->diag, run_tally(r), &r->pm, &r->outs,
		                     r->o.pipe.smf.type, read_all);
#ifdef HAVE_SQLITE
	if (r->db) {
		finish_database(r, failed, read_all);
		return;
	}
#else
	(void)failed;
#endif
#ifdef HAVE_CAIRO
	if (r->page)
		finish_page(r, failed, read_all);
#endif
	keep = diag_exit_code(&r->diag) < EXIT_INPUT && read_all;
	for (size_t i = 0; i < r->outs.n; i++) {
		struct output *out = &r->outs.o[i];
		if (!out->out_open)
			continue;
		out->out_open = false;
		if (keep || !outfile_replaces(&out->out)) {
			pm_status st = outfile_commit(&out->out);
			if (st != PM_OK) {
				say_write_failure(r, out, st);
				keep = false;  /* what is not yet in place stays as it was */
			}
		} else {
			outfile_abort(&out->out);
		}
	}
}

/* An input the report does not read (PERF_DATA_BLOCKs for a PMIM report,
 * anything else for a series report): refused before any output is opened
 * (standard input and pipes are looked at only when they are read, by the
 * pipeline). */
static bool
kind_refused(struct run *r)
{
	enum pipeline_reads reads = r->o.pipe.reads;
	uint8_t head[WP_PDB_MIN];

	if (reads == READS_BOTH)
		return false;
	for (int i = 0; i < r->ninputs; i++) {
		struct input in;
		struct stat sb;
		ssize_t n;
		bool perf = r->o.pipe.framing == FRAMING_PERF, looked = false;
		/* a pipe's bytes would be gone, and a named pipe opened and
		 * closed would end its writer: regular files only */
		if (r->o.pipe.framing == FRAMING_AUTO && strcmp(r->inputs[i], "-") != 0 &&
		    stat(r->inputs[i], &sb) == 0 && S_ISREG(sb.st_mode) &&
		    input_open_path(&in, r->inputs[i]) == PM_OK) {
			looked = in.size >= 0;
			n = looked ? input_peek(&in, head, sizeof head) : 0;
			perf = n > 0 && wp_stream_detect(span_make(head, (size_t)n));
			looked = looked && n > 0;
			input_close(&in);
		}
		if (perf && reads == READS_PMIM) {
			diag_at(&r->diag, PM_E_PERF_REPORT, DIAG_NO_OFFSET,
			        "%s holds PERF_DATA_BLOCKs: report '%s' reads PMIM records "
			        "(--report=perf reads Windows data)", r->inputs[i],
			        output_name(r->first));
			return true;
		}
		if (looked && !perf && reads == READS_PERF) {
			diag_at(&r->diag, PM_E_PERF_REPORT, DIAG_NO_OFFSET,
			        "%s holds no PERF_DATA_BLOCKs: report '%s' reads Windows "
			        "performance data", r->inputs[i], output_name(r->first));
			return true;
		}
	}
	return false;
}

/* Read the inputs into the report; the exit code. */
static int
run_report(struct run *r)
{
	int rc, read_rc;

	if ((rc = load_definitions(r)) != EXIT_CLEAN || (rc = check_partial(r)) != EXIT_CLEAN)
		return rc;
	if (!r->o.merge && kind_refused(r))
		return EXIT_USAGE;
	if ((r->jobs = jobs_for(r)) > 1 && !r->o.partial)
		build_identity(r);
	if ((rc = run_open(r)) != EXIT_CLEAN)
		return rc;
	read_rc = r->o.merge ? merge_partials(r) : r->jobs > 1 ? read_jobs(r) : read_inputs(r);
	pipeline_finish(r->p);
	progress_erase(&r->progress);
	if (r->diag.count[PM_E_PERF_REPORT]) {
		/* a report of PMIM figures on Windows data: none at all */
		if (r->page_open)
			outfile_abort(&r->page_out);
		r->page_open = false;
		for (size_t i = 0; i < r->outs.n; i++) {
			if (r->outs.o[i].out_open)
				outfile_abort(&r->outs.o[i].out);
			r->outs.o[i].out_open = false;
		}
	} else {
		run_finish(r, read_rc == 0);
	}
	diag_print_suppressed(&r->diag);
	if (!r->o.quiet) {
		char line[SUMMARY_MAX];
		run_summary(r, line);
		diag_say(&r->diag, SC_OK, "%s", line);
	}
	rc = diag_exit_code(&r->diag);
	return read_rc < 0 && rc < EXIT_INPUT ? EXIT_INPUT : rc;
}

/* What any run holds, freed whatever it got to. */
static void
run_close(struct run *r)
{
	for (size_t i = 0; i < r->outs.n; i++)
		if (r->outs.o[i].out_open)
			outfile_abort(&r->outs.o[i].out);
	free(r->chart_path);
	if (r->page_open)
		outfile_abort(&r->page_out);
	pipeline_close(r->p);
	for (size_t i = 0; i < r->outs.n; i++) {
		struct output *out = &r->outs.o[i];
		report_close(out->rep);
		series_report_close(out->srep);
		if (out->sink)
			out->sink->close(out->sink);
		free(out->def);
	}
#ifdef HAVE_SQLITE
	if (r->sql)
		r->sql->db_close(r->db);  /* after its tables' sinks */
#endif
#ifdef HAVE_CAIRO
	html_page_free(r->page);
#endif
	outputs_free(&r->outs);
	sources_free(&r->sources);
	tzone_close(r->zone);
	schema_close(r->schema);
	pmint_free(&r->pm);
	wp_names_free(r->names);
	for (size_t i = 0; i < r->nmerged; i++)
		free(r->merged_inputs[i]);
	free(r->merged_inputs);
	census_free(&r->merged_census);
	free(r->o.sources);
}

int
main(int argc, char **argv)
{
	static struct run run; /* the layout's tables: too big for the stack */
	int rc;

	/* Only the categories whose conventions pmimrpt follows: the language
	 * of the C library's messages (strerror) and their character set,
	 * which Pango's default language is also taken from, and the decimal
	 * point of the progress line; no figure of a report depends on any.
	 * Loading every category (LC_ALL) took a sixth of a run on an empty
	 * input. */
	setlocale(LC_CTYPE, "");
	setlocale(LC_MESSAGES, "");
	setlocale(LC_NUMERIC, "");
	diag_init(&run.diag, PROGNAME, stderr);
	if ((rc = run_prepare(&run, argc, argv)) == EXIT_CLEAN)
		rc = run.o.describe ? describe(&run.pm, run.schema, run.o.report_dir) : run_report(&run);
	run_close(&run);
	return rc == CLI_STOP ? EXIT_CLEAN : rc;
}
