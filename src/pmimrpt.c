/* pmimrpt.c: the program. Parses the command line, wires the stages
 * (input -> framing -> smf -> pm -> reassembly -> report -> output), and
 * turns what the stages reported into the summary line and the exit code.
 * Only this file knows about all the stages. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <locale.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <time.h>

#include "out/columns.h"
#include "out/csvout.h"
#include "out/jsonout.h"
#include "core/cli.h"
#include "core/diag.h"
#include "core/exitcode.h"
#include "core/numparse.h"
#include "smf/framing.h"
#include "io/input.h"
#include "out/inventory.h"
#include "io/outfile.h"
#ifdef HAVE_SQLITE
#include "out/sqlitemod.h"
#endif
#include "pipeline.h"
#include "pmim/pmint.h"
#include "pmim/pmtime.h"
#include "report/report.h"
#include "report/rptload.h"
#include "report/series_report.h"
#include "core/fnv.h"
#include "runpart.h"
#include "split.h"
#include "pmim/binding.h"
#include "core/sources.h"
#include "out/textout.h"
#include "definitions.h"
#include "describe.h"
#include "options.h"
#include "run.h"
#include "summary.h"
#include "outputs.h"
#include "partials.h"
#include "runout.h"
#ifdef HAVE_CAIRO
#include "out/chartout.h"
#include "out/htmlout.h"
#endif
#include "core/tzone.h"
#include "engine/counter.h"
#include "winperf/names.h"
#include "winperf/stream.h"

/* Read every input named (or standard input). Returns -1 when one could
 * not be opened or read to its end. */
static int
read_inputs(struct run *r)
{
	int rc = 0;

	for (int i = 0; i < (r->ninputs ? r->ninputs : 1); i++) {
		const char *path = r->ninputs ? r->inputs[i] : "-";
		struct input in;

		if (input_open_path(&in, path) != PM_OK) {
			diag_at(&r->diag, PM_E_OPEN, DIAG_NO_OFFSET, "%s: %s", path, strerror(errno));
			rc = -1;
			continue;
		}
		if (pipeline_read(r->p, &in) < 0)
			rc = -1;
		input_close(&in);
	}
	return rc;
}

static void
on_signal(int sig)
{
	outfile_remove_on_signal();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Whether threads may read the inputs (--jobs): the grouped PMIM reports,
 * whose threads' partials merge as one run's groups. */
static bool
jobs_capable(const struct run *r)
{
	const struct rpt_def *def = r->first->def;

	return r->outs.n == 1 && def && !rpt_is_series(def) && def->rows != ROWS_INTERVAL &&
	       r->o.sel.by != BY_INTERVAL;
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

/* ---- --jobs: inputs read by threads, each into a partial in memory */

/* The time one source's intervals covered in one input. */
struct job_span {
	char name[SOURCE_NAME_MAX];
	int64_t start, end;
	bool repeats;              /* the input had duplicates or overlaps */
};

/* One input, or one range of it (split.h), read by a thread on its own. */
struct job {
	const char *path;
	bool range;                /* a range of the input, from start to stop
	                              (0: its end), or the whole input */
	uint64_t start, stop;
	struct pipeline_edges edges; /* how it read at its edges */
	char *msgs;                /* its messages, tagged (diag_replay) */
	size_t nmsgs;
	char *part;                /* its partial */
	size_t npart;
	int rc;                    /* -1: not read to its end */
	bool apart;                /* read apart, it reads as in one run */
	size_t ranges, most;       /* of its coverage (coverage_ranges) */
	size_t rows;               /* its report's rows (report_rows) */
	size_t nsources;
	struct job_span *spans;
	size_t nspans;
};

struct jobs {
	struct run *r;
	struct job *job;
	size_t n;
	atomic_size_t next;        /* the next input to read */
	atomic_bool again;         /* one input did not read apart: they
	                              will all be read again */
};

/* Statuses a run says once, or limits over the run: an input that says
 * one may read otherwise apart. */
static bool
said_run_limit(const struct diag *d)
{
	return d->count[PM_E_PENDING_LIMIT] || d->count[PM_E_COVERAGE_LIMIT] ||
	       d->count[PM_E_SOURCE_LIMIT] || d->count[PM_E_GROUP_LIMIT] ||
	       d->count[PM_E_NOMEM];
}

/* Each source's covered time in j->spans. */
static bool
note_spans(struct job *j, const struct pipeline *p, const struct sources *src)
{
	const struct coverage *c = pipeline_coverage(p);
	bool repeats = pipeline_tally(p)->intervals_duplicate ||
	               pipeline_tally(p)->intervals_overlapping;

	j->ranges = coverage_ranges(c, &j->most);
	j->nsources = src->n;
	if (src->n && !(j->spans = calloc(src->n, sizeof *j->spans)))
		return false;
	for (size_t id = 0; id < src->n; id++) {
		struct job_span *s = &j->spans[j->nspans];
		if (!coverage_span(c, (uint32_t)id, &s->start, &s->end))
			continue;
		snprintf(s->name, sizeof s->name, "%s", sources_name(src, (uint32_t)id));
		s->repeats = repeats;
		j->nspans++;
	}
	return true;
}

/* Read j's input with a pipeline, sources, report and diag of its own:
 * its messages and its partial into memory. */
static void
read_job(struct run *r, struct job *j)
{
	FILE *msgs = open_memstream(&j->msgs, &j->nmsgs);
	FILE *part = open_memstream(&j->part, &j->npart);
	struct pipeline_opts po = r->o.pipe;
	struct report_opts so = r->o.sel;
	/* a zone caches its offsets: a copy of its own for each thread */
	struct tzone *zone = r->zone ? tzone_copy(r->zone) : NULL;
	struct pipeline *p = NULL;
	struct report *rep = NULL;
	struct binding_framer framer;
	struct sources src = { 0 };
	struct diag d;
	struct input in;
	pm_status st = msgs && part && (zone || !r->zone) ? sources_init(&src, po.max_sources)
	               : PM_E_NOMEM;

	diag_init(&d, PROGNAME, msgs);
	d.tagged = true;
	po.progress = NULL;
	po.zone = so.zone = zone;
	if (st == PM_OK)
		st = report_open(&rep, r->first->def, r->schema, &src, &so, &null_sink, &d);
	framer = (struct binding_framer){ report_frame, rep };
	if (st == PM_OK)
		st = pipeline_open(&p, &po, &r->pm, &src, binding_frame_interval, &framer, &d);
	if (st == PM_OK) {
		if ((j->range ? input_open_range(&in, j->path, j->start, j->stop)
		            : input_open_path(&in, j->path)) != PM_OK) {
			diag_at(&d, PM_E_OPEN, DIAG_NO_OFFSET, "%s: %s", j->path, strerror(errno));
			j->rc = -1;
		} else {
			if (pipeline_read(p, &in) < 0)
				j->rc = -1;
			input_close(&in);
		}
		pipeline_edges(p, &j->edges);
		/* what the next input could still change: then it reads
		 * otherwise apart */
		j->apart = pipeline_settled(p) && !said_run_limit(&d) && note_spans(j, p, &src);
		pipeline_finish(p);
		j->rows = report_rows(rep);
		if (write_run_partial(part, &(struct run_partial){
			&r->identity, &j->path, 1, pipeline_tally(p), pipeline_census(p), &src,
			pipeline_resets(p), pipeline_coverage(p), &d, rep, NULL }) != PM_OK)
			j->apart = false;
	}
	pipeline_close(p);
	report_close(rep);
	sources_free(&src);
	tzone_close(zone);
	if (msgs && fclose(msgs) != 0)
		j->apart = false;
	if (part && fclose(part) != 0)
		j->apart = false;
}

static void *
job_thread(void *arg)
{
	struct jobs *js = arg;
	size_t i;

	while (!atomic_load(&js->again) && (i = atomic_fetch_add(&js->next, 1)) < js->n) {
		read_job(js->r, &js->job[i]);
		if (!js->job[i].apart)
			atomic_store(&js->again, true);
	}
	return NULL;
}

static int
by_span(const void *a, const void *b)
{
	const struct job_span *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->start < y->start ? -1 : x->start > y->start;
}

/* Whether the inputs, or the ranges of one, each read by stages of their
 * own, join as one reading reads on from one into the next, where they
 * said nothing: no record's chain would be said to have lost PM records
 * by where the chain of the record before began (one SMF stage goes by it
 * from one input into the next, too); and for ranges, each stopped where
 * the next one's own records resume (no record, or spanned record, read
 * by both or neither), and no dump header would be said to be without its
 * trailer. */
static bool
inputs_join(const struct jobs *js)
{
	bool ranges = js->job[0].range;
	int64_t open = -1;
	long chain = -1;

	for (size_t i = 0; i < js->n; i++) {
		const struct smf_edges *e = &js->job[i].edges.smf;
		if (i > 0 && smf_edges_lost_after(e, chain))
			return false;
		if (ranges && i > 0 &&
		    (js->job[i - 1].edges.stopped_at != js->job[i].edges.resumed_at ||
		     (e->opens_with_header && open >= 0)))
			return false;
		if (e->dump_seen)
			open = e->dump_open;
		if (e->chain_seen)
			chain = e->last_chain;
	}
	/* a dump still open is said at the end of the last range */
	return !ranges || js->job[js->n - 1].edges.smf.dump_seen || open < 0;
}

/* Whether the inputs, read apart, read as one run reads them: each left
 * nothing for the next (no interval waiting for parts, no repeats unsaid,
 * no limit of the run reached), the run's limits of sources, ranges and
 * rows hold for them all (their rows together, as if no two shared one), and no two cover the same time of one source (and
 * an input that shares a source with another has no repeats). Then no
 * input's intervals can change how another's are read. */
static bool
jobs_agree(const struct run *r, const struct jobs *js)
{
	size_t ranges = 0, nspans = 0, names = 0, rows = 0;
	struct job_span *all;
	bool agree = true;

	for (size_t i = 0; i < js->n; i++) {
		const struct job *j = &js->job[i];
		if (!j->apart || ranges + j->most > r->o.pipe.max_coverage)
			return false;
		/* A range read without a word, to its end: it began and ended
		 * between records and intervals, as one run reads there. Any
		 * message (damage, a record cut at the range's end, orphan
		 * parts, a framing that changes) and the file is read whole. */
		if (j->range && (j->nmsgs || j->rc < 0))
			return false;
		ranges += j->ranges;
		nspans += j->nspans;
		/* the merge could say the limit where one run would not */
		if ((rows += j->rows) > r->o.sel.max_groups)
			return false;
	}
	if (!inputs_join(js))
		return false;
	if (!(all = malloc((nspans ? nspans : 1) * sizeof *all)))
		return false;
	nspans = 0;
	for (size_t i = 0; i < js->n; i++) {
		if (js->job[i].nspans)
			memcpy(all + nspans, js->job[i].spans, js->job[i].nspans * sizeof *all);
		nspans += js->job[i].nspans;
	}
	if (nspans)
		qsort(all, nspans, sizeof *all, by_span);
	for (size_t i = 0; i < nspans && agree; i++) {
		if (i == 0 || strcmp(all[i - 1].name, all[i].name) != 0)
			names++;
		else if (all[i - 1].end > all[i].start || all[i - 1].repeats || all[i].repeats)
			agree = false;
	}
	free(all);
	/* sources without covered time count toward the limit too */
	for (size_t i = 0; i < js->n; i++)
		names += js->job[i].nsources - js->job[i].nspans;
	return agree && names <= r->o.pipe.max_sources;
}

/* For the tests: with PMIMRPT_JOBS_LOG=FILE, a line "apart THREADS INPUTS"
 * or "again THREADS INPUTS" appended to FILE says whether the inputs read
 * apart were merged or read again; nothing else shows it. For the ranges
 * of one input, INPUTS is their number, and the offsets where the second
 * and later begin follow. */
static void
note_jobs(bool agree, size_t threads, const struct jobs *js)
{
	const char *path = getenv("PMIMRPT_JOBS_LOG");
	FILE *fp;

	if (!path || !*path || !(fp = fopen(path, "a")))
		return;
	fprintf(fp, "%s %zu %zu", agree ? "apart" : "again", threads, js->n);
	for (size_t i = 1; i < js->n && js->job[i].range; i++)
		fprintf(fp, " %" PRIu64, js->job[i].start);
	fputc('\n', fp);
	fclose(fp);
}

/* The least bytes of a range of one input cut for threads: SPLIT_LEAST,
 * or for the tests PMIMRPT_SPLIT_LEAST=BYTES. */
static uint64_t
split_least(void)
{
	const char *v = getenv("PMIMRPT_SPLIT_LEAST");
	uint64_t least;

	return v && numparse_u64(v, UINT64_MAX, &least) && least > 0 ? least : SPLIT_LEAST;
}

/* The jobs of the run: an input each, or the ranges one input is cut into
 * (split.h); n of them in *n. NULL when memory runs out. */
static struct job *
make_jobs(struct run *r, size_t *n)
{
	uint64_t *cut = NULL;
	struct job *job;

	*n = (size_t)r->ninputs;
	if (r->ninputs == 1 && (cut = calloc(r->jobs + 1, sizeof *cut)))
		*n = split_file(r->inputs[0], pipeline_records(r->p), &r->pm,
		                r->o.pipe.framing, r->jobs, split_least(), cut);
	if ((r->ninputs == 1 && !cut) || !(job = calloc(*n, sizeof *job))) {
		free(cut);
		return NULL;
	}
	for (size_t i = 0; i < *n; i++)
		job[i] = cut ? (struct job){ .path = r->inputs[0], .range = true,
		                             .start = cut[i], .stop = i + 1 < *n ? cut[i + 1] : 0 }
		             : (struct job){ .path = r->inputs[i] };
	free(cut);
	return job;
}

/* --jobs: the inputs, or the ranges of one, read by r->jobs threads;
 * then, in their order, each one's messages printed and its partial
 * merged. When they would not read as one run reads them (jobs_agree),
 * what the threads did is dropped and the inputs are read again, one
 * after the other. Returns -1 when one could not be opened or read to
 * its end. */
static int
read_jobs(struct run *r)
{
	struct jobs js = { r, NULL, 0, 0, false };
	pthread_t *threads = calloc(r->jobs, sizeof *threads);
	size_t started = 0;
	char err[600];
	bool agree;
	int rc = 0;

	if (!threads || !(js.job = make_jobs(r, &js.n)) || js.n < 2) {
		free(threads);
		free(js.job);
		return read_inputs(r);
	}
	(void)partial_crc32(0, NULL, 0); /* its table, before the threads */
	while (started < r->jobs && started < js.n &&
	       pthread_create(&threads[started], NULL, job_thread, &js) == 0)
		started++;
	if (started == 0)
		job_thread(&js);
	for (size_t i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	agree = jobs_agree(r, &js);
	note_jobs(agree, started, &js);
	if (!agree) {
		rc = read_inputs(r);
	} else {
		r->jobs_merged = true;
		for (size_t i = 0; i < js.n; i++) {
			struct job *j = &js.job[i];
			struct partial p;
			pm_status st;
			diag_replay(&r->diag, j->msgs, j->nmsgs, r->shown);
			st = partial_take(&p, (uint8_t *)j->part, j->npart, err, sizeof err);
			j->part = NULL;
			if (merge_partial(r, &p, st, j->path, err, sizeof err) < 0 || j->rc < 0)
				rc = -1;
		}
	}
	for (size_t i = 0; i < js.n; i++) {
		free(js.job[i].msgs);
		free(js.job[i].part);
		free(js.job[i].spans);
	}
	free(js.job);
	free(threads);
	return rc;
}

/* How many threads read the inputs: --jobs for a report a partial holds
 * (only those merge), for two inputs or more, or one that may be cut into
 * ranges (split.h); else one. Not one input with a time zone, whose
 * repeated hour is told apart by the parts before it in the input, nor
 * for --partial, whose time covered would keep the ranges' apart where
 * one run's join. Standard input is read in order, by one. */
static size_t
jobs_for(const struct run *r)
{
	if (r->o.jobs <= 1 || r->ninputs < 1 ||
	    (r->ninputs == 1 && (r->zone || r->o.partial)) || r->o.merge || !jobs_capable(r))
		return 1;
	for (int i = 0; i < r->ninputs; i++)
		if (strcmp(r->inputs[i], "-") == 0)
			return 1;
	return r->o.jobs;
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

	setlocale(LC_ALL, "");
	diag_init(&run.diag, PROGNAME, stderr);
	if ((rc = run_prepare(&run, argc, argv)) == EXIT_CLEAN)
		rc = run.o.describe ? describe(&run.pm, run.schema, run.o.report_dir) : run_report(&run);
	run_close(&run);
	return rc == CLI_STOP ? EXIT_CLEAN : rc;
}
