/* jobs.c: the inputs of a run read. See jobs.h. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/numparse.h"
#include "core/partial.h"
#include "core/spill.h"
#include "core/text.h"
#include "core/tzone.h"
#include "io/input.h"
#include "jobs.h"
#include "partials.h"
#include "pmim/coverage.h"
#include "report/report.h"
#include "report/series_report.h"
#include "runout.h"
#include "split.h"

int
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

/* ---- --jobs: inputs read by threads, each into a partial in memory */

/* Whether threads may read the inputs (--jobs): the grouped reports,
 * whose threads' partials merge as one run's groups; a series report
 * only for the ranges of one file (a snapshot is paired with its
 * system's previous one, which may be in the input before). */
static bool
jobs_capable(const struct run *r)
{
	const struct rpt_def *def = r->first->def;

	return r->outs.n == 1 && def && def->rows != ROWS_INTERVAL &&
	       r->o.sel.by != BY_INTERVAL && (!rpt_is_series(def) || r->ninputs == 1);
}

/* The time one source's intervals covered in one input. */
struct job_span {
	char name[SOURCE_NAME_MAX];
	int64_t start, end;
	bool repeats;              /* the input had duplicates or overlaps */
};

/* Where a system's snapshots were in a range (pipeline_system). */
struct job_system {
	char name[SOURCE_NAME_MAX];
	uint64_t primed, last;
};

/* One input, or one range of it (split.h), read by a thread on its own. */
struct job {
	const char *path;
	bool range;                /* a range of the input, from start to stop
	                              (0: its end), or the whole input */
	uint64_t start, stop;
	struct framing_kind found; /* a range: what the input is read as */
	uint64_t lead;             /* the snapshots before it its cook is
	                              primed with begin here (start: none) */
	struct job_system *systems; /* its systems of PERF_DATA_BLOCKs */
	size_t nsystems;
	struct pipeline_edges edges; /* how it read at its edges (its
	                              systems copied into systems: the
	                              pipeline's close with it) */
	char *msgs;                /* its messages, tagged (diag_replay) */
	size_t nmsgs;
	int part;                  /* its partial, in a temporary file: -1 for
	                              none */
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
		text_copy(s->name, sizeof s->name, sources_name(src, (uint32_t)id));
		s->repeats = repeats;
		j->nspans++;
	}
	return true;
}

/* Where the systems of j's PERF_DATA_BLOCKs were, by name. */
static bool
note_systems(struct job *j, const struct pipeline_edges *e, const struct sources *src)
{
	if (e->nsystems && !(j->systems = calloc(e->nsystems, sizeof *j->systems)))
		return false;
	for (size_t id = 0; id < e->nsystems; id++) {
		struct job_system *y = &j->systems[j->nsystems];
		if (e->systems[id].last == PIPELINE_NONE)
			continue;  /* primed only: none of its snapshots is the range's */
		text_copy(y->name, sizeof y->name, sources_name(src, (uint32_t)id));
		y->primed = e->systems[id].primed;
		y->last = e->systems[id].last;
		j->nsystems++;
	}
	return true;
}

/* The snapshots before j's range into the pipeline's cook; false when
 * they did not read whole. */
static bool
prime_job(struct pipeline *p, const struct job *j)
{
	struct input in;
	bool ok;

	if (j->lead == j->start)
		return true;
	if (input_open_range(&in, j->path, j->lead, j->start) != PM_OK)
		return false;
	ok = pipeline_prime(p, &in) == 0;
	input_close(&in);
	return ok;
}

/* Read j's input with a pipeline, sources, report and diag of its own:
 * its messages into memory, its partial into a temporary file (as large
 * as its report's groups). */
static void
read_job(struct run *r, struct job *j)
{
	FILE *msgs = open_memstream(&j->msgs, &j->nmsgs);
	FILE *part = (j->part = spill_file()) >= 0 ? fdopen(dup(j->part), "w") : NULL;
	struct pipeline_opts po = r->o.pipe;
	struct report_opts so = r->o.sel;
	/* a zone caches its offsets: a copy of its own for each thread */
	struct tzone *zone = r->zone ? tzone_copy(r->zone) : NULL;
	struct pipeline *p = NULL;
	struct report *rep = NULL;
	struct series_report *srep = NULL;
	struct binding_framer framer;
	struct sources src = { 0 };
	struct diag d;
	struct input in;
	bool primed = true;
	pm_status st = msgs && part && (zone || !r->zone) ? sources_init(&src, po.max_sources)
	               : PM_E_NOMEM;

	diag_init(&d, PROGNAME, msgs);
	d.tagged = true;
	po.progress = NULL;
	po.found = j->found;
	po.zone = so.zone = zone;
	if (st == PM_OK && r->first->srep) {
		so = series_opts(r);
		so.zone = zone;
		st = series_report_open(&srep, r->first->def, &src, &so, &null_sink, &d);
		po.series = series_report_frame;
		po.series_ctx = srep;
	} else if (st == PM_OK) {
		st = report_open(&rep, r->first->def, r->schema, &src, &so, &null_sink, &d);
	}
	framer = (struct binding_framer){ report_frame, rep };
	if (st == PM_OK)
		st = pipeline_open(&p, &po, &r->pm, &src, rep ? binding_frame_interval : NULL,
		                   &framer, &d);
	if (st == PM_OK) {
		if (j->range && !(primed = prime_job(p, j))) {
			j->rc = -1;
		} else if ((j->range ? input_open_range(&in, j->path, j->start, j->stop)
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
		j->apart = primed && pipeline_settled(p) && !said_run_limit(&d) &&
		           note_spans(j, p, &src) && note_systems(j, &j->edges, &src);
		pipeline_finish(p);
		j->rows = srep ? series_report_rows(srep) : report_rows(rep);
		if (write_run_partial(part, &(struct run_partial){
			&r->identity, &j->path, 1, pipeline_tally(p), pipeline_census(p), &src,
			pipeline_resets(p), pipeline_coverage(p), &d, rep, srep }) != PM_OK)
			j->apart = false;
	}
	pipeline_close(p);
	report_close(rep);
	series_report_close(srep);
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

/* A system of a range, and the range. */
struct range_system {
	const struct job_system *y;
	size_t job;
};

static int
by_system(const void *a, const void *b)
{
	const struct range_system *x = a, *y = b;
	int c = strcmp(x->y->name, y->y->name);

	return c ? c : x->job < y->job ? -1 : x->job > y->job;
}

/* Whether the ranges of a file of PERF_DATA_BLOCKs paired their systems'
 * first snapshots as one reading of the file pairs them: each with the
 * last snapshot of its system in the ranges before, which its range's
 * cook was primed with (split.h), or, for a system of none of them, with
 * none. */
static bool
snapshots_join(const struct jobs *js)
{
	struct range_system *all;
	size_t n = 0;
	bool join = true;

	for (size_t i = 0; i < js->n; i++)
		n += js->job[i].nsystems;
	if (n == 0)
		return true;
	if (!(all = malloc(n * sizeof *all)))
		return false;
	n = 0;
	for (size_t i = 0; i < js->n; i++)
		for (size_t k = 0; k < js->job[i].nsystems; k++)
			all[n++] = (struct range_system){ &js->job[i].systems[k], i };
	qsort(all, n, sizeof *all, by_system);
	for (size_t i = 0; i < n && join; i++) {
		bool before = i > 0 && strcmp(all[i - 1].y->name, all[i].y->name) == 0;
		join = all[i].y->primed == (before ? all[i - 1].y->last : PIPELINE_NONE);
	}
	free(all);
	return join;
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
	if (!inputs_join(js) || !snapshots_join(js))
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
	struct framing_kind found = { FRAMING_AUTO, CONTENT_AUTO };
	uint64_t *cut = NULL;
	struct job *job;

	*n = (size_t)r->ninputs;
	/* cut[0..jobs], then the leads, lead[0..jobs) */
	if (r->ninputs == 1 && (cut = calloc(2 * r->jobs + 1, sizeof *cut)))
		*n = split_file(r->inputs[0], pipeline_records(r->p), &r->pm, r->o.pipe.framing,
		                r->o.pipe.reads == READS_PERF, r->jobs, split_least(), cut,
		                cut + r->jobs + 1, &found);
	if ((r->ninputs == 1 && !cut) || !(job = calloc(*n, sizeof *job))) {
		free(cut);
		return NULL;
	}
	for (size_t i = 0; i < *n; i++)
		job[i] = cut ? (struct job){ .path = r->inputs[0], .range = true,
		                             .start = cut[i], .stop = i + 1 < *n ? cut[i + 1] : 0,
		                             .found = found, .lead = cut[r->jobs + 1 + i],
		                             .part = -1 }
		             : (struct job){ .path = r->inputs[i], .part = -1 };
	free(cut);
	return job;
}

int
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
			st = partial_map_own(&p, j->part, err, sizeof err);
			if (merge_partial(r, &p, st, j->path, err, sizeof err) < 0 || j->rc < 0)
				rc = -1;
		}
	}
	for (size_t i = 0; i < js.n; i++) {
		free(js.job[i].msgs);
		if (js.job[i].part >= 0)
			close(js.job[i].part);
		free(js.job[i].spans);
		free(js.job[i].systems);
	}
	free(js.job);
	free(threads);
	return rc;
}

size_t
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
