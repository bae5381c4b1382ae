/* feed_chunks.c: the reader must not care how its input arrives. Feeds one
 * file through the whole reading pipeline once per read size, from 1 byte
 * to the file's length, and checks that every run gives the same intervals
 * (source, times, parts, every field), or for PERF_DATA_BLOCKs the same
 * census of snapshots, the same inventory and byte accounting, and the
 * same diagnostics counts as reading it whole. With --report=NAME, a
 * series report (perf, win-cpu, win-disk) of the PERF_DATA_BLOCKs is
 * written as CSV (--by=interval: a row set per snapshot), and its bytes
 * must be the same too. After 1..N, a few large read sizes are tried
 * (64 KiB, 1 MiB, the file's length less one, and more than its length).
 * Last, the file itself is read, its bytes lent where they lie
 * (io/input.h) in blocks of a page, then of the default size (a
 * compressed file read from the file, decoded, twice).
 *
 * usage: feed_chunks [--max-chunk=N] [--source=LABEL] [--report=NAME]
 *                    [--by=total|interval] FILE...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline.h"
#include "series_run.h"
#include "slurp.h"

static const struct rpt_def *series_def; /* --report */
static enum report_by series_by = BY_TOTAL;
static size_t report_bytes;              /* of the last run's report */
static size_t report_lines;

struct digest {
	uint64_t h;
	unsigned long intervals;
};

static void
mix(struct digest *d, const void *p, size_t n)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		d->h = (d->h ^ b[i]) * 0x100000001b3ULL; /* FNV-1a */
}

static const struct sources *current_sources;

static void
on_interval(const struct interval *iv, void *ctx)
{
	struct digest *d = ctx;
	const char *name = sources_name(current_sources, iv->source);
	mix(d, name, strlen(name) + 1);
	mix(d, &iv->start, sizeof iv->start);
	mix(d, &iv->end, sizeof iv->end);
	mix(d, &iv->parts, sizeof iv->parts);
	mix(d, iv->v, sizeof iv->v);
	d->intervals++;
}

/* As a read size: the file itself, lent in windows of LENT_PAGE bytes or
 * of the default size. */
#define LENT_PAGE ((size_t)-1)
#define LENT_DEFAULT ((size_t)-2)

static uint64_t
run(const struct pmint *pm, const struct pipeline_opts *o, const uint8_t *buf,
    size_t len, size_t chunk, const char *name, unsigned long *intervals)
{
	struct digest d = { 0xcbf29ce484222325ULL, 0 };
	struct diag diag;
	struct sources src;
	struct input in;
	struct pipeline *p;
	struct series_run sr;
	struct pipeline_opts po = *o;
	pm_status st;

	diag_init(&diag, "feed_chunks", NULL);
	if (sources_init(&src, o->max_sources) != PM_OK)
		abort();
	current_sources = &src;
	if (series_def && series_run_open(&sr, series_def, series_by, false, &po, &src,
	                                  &diag) != PM_OK) {
		fprintf(stderr, "feed_chunks: cannot open report %s\n", series_def->name);
		exit(2);
	}
	if ((st = pipeline_open(&p, &po, pm, &src, on_interval, &d, &diag)) != PM_OK) {
		fprintf(stderr, "feed_chunks: pipeline: %s\n", pm_strerror(st));
		exit(2);
	}
	if (chunk == LENT_PAGE || chunk == LENT_DEFAULT) {
		/* a compressed file is read, decoded, not lent */
		if (input_open_path(&in, name) != PM_OK) {
			fprintf(stderr, "feed_chunks: cannot open %s\n", name);
			exit(2);
		}
		in.block_size = chunk == LENT_PAGE ? 4096 : 0;
	} else {
		input_from_memory(&in, name, buf, len, chunk);
	}
	(void)pipeline_read(p, &in);
	input_close(&in);
	pipeline_finish(p);
	if (series_def) {
		/* the report's bytes, then how many (a row set per snapshot) */
		if (series_run_finish(&sr) != PM_OK)
			abort();
		mix(&d, sr.out, sr.len);
		report_bytes = sr.len;
		report_lines = 0;
		for (size_t i = 0; i < sr.len; i++)
			report_lines += sr.out[i] == '\n';
		free(sr.out);
	}
	const struct tally *t = pipeline_tally(p);
	const struct census *c = pipeline_census(p);
	mix(&d, t, sizeof *t);
	/* field by field: the structs have padding */
	for (size_t i = 0; i < c->nsystems; i++) {
		const struct census_system *y = &c->systems[i];
		mix(&d, &y->source, sizeof y->source);
		mix(&d, &y->snapshots, sizeof y->snapshots);
		mix(&d, &y->first, sizeof y->first);
		mix(&d, &y->last, sizeof y->last);
		d.intervals += y->snapshots;
	}
	for (size_t i = 0; i < c->nentries; i++) {
		const struct census_entry *e = &c->entries[i];
		mix(&d, &e->object, 3 * sizeof e->object);
		mix(&d, &e->seen, sizeof e->seen);
	}
	mix(&d, diag.count, sizeof diag.count);
	pipeline_close(p);
	sources_free(&src);
	*intervals = d.intervals;
	return d.h;
}

int
main(int argc, char **argv)
{
	static struct pmint pm;
	struct pipeline_opts o;
	char err[128];
	size_t max_chunk = 0;
	int failed = 0, files = 0;

	if (pmint_load(&pm, err, sizeof err) != PM_OK) {
		fprintf(stderr, "feed_chunks: %s\n", err);
		return 2;
	}
	pipeline_defaults(&o);
	o.reads = READS_BOTH;
	/* a small read buffer too, so records straddle buffer refills */
	o.buffer_size = 4096;
	for (int i = 1; i < argc; i++) {
		if (strncmp(argv[i], "--max-chunk=", 12) == 0) {
			max_chunk = strtoul(argv[i] + 12, NULL, 10);
			continue;
		}
		if (strncmp(argv[i], "--report=", 9) == 0) {
			if (!(series_def = series_run_load(&pm, argv[i] + 9, err, sizeof err))) {
				fprintf(stderr, "feed_chunks: %s\n", err);
				return 2;
			}
			continue;
		}
		if (strncmp(argv[i], "--by=", 5) == 0) {
			series_by = strcmp(argv[i] + 5, "interval") == 0 ? BY_INTERVAL : BY_TOTAL;
			continue;
		}
		if (strncmp(argv[i], "--source=", 9) == 0) {
			o.source_label = argv[i] + 9;
			continue;
		}
		size_t len;
		uint8_t *buf = slurp(argv[i], &len);
		unsigned long n0, n;
		if (!buf) {
			perror(argv[i]);
			return 2;
		}
		uint64_t whole = run(&pm, &o, buf, len, 0, argv[i], &n0);
		size_t whole_report = report_bytes, report_rows = report_lines;
		size_t last = max_chunk && max_chunk < len ? max_chunk : len;
		size_t large[] = { (size_t)64 << 10, (size_t)1 << 20, len - 1, len + 1,
		                   LENT_PAGE, LENT_DEFAULT };
		size_t tried = 0;
		for (size_t k = 0; k < last + sizeof large / sizeof large[0] && !failed; k++) {
			size_t chunk = k < last ? k + 1 : large[k - last];
			if (k >= last && (chunk <= last || chunk == 0))
				continue; /* tried already */
			tried++;
			if (run(&pm, &o, buf, len, chunk, argv[i], &n) != whole) {
				char how[64];

				if (chunk == LENT_PAGE || chunk == LENT_DEFAULT)
					snprintf(how, sizeof how, "read from the file (%s blocks)",
					         chunk == LENT_PAGE ? "a page's" : "default");
				else
					snprintf(how, sizeof how, "read in chunks of %zu bytes", chunk);
				fprintf(stderr, "FAIL: %s: %s differs from reading it whole "
				        "(%lu vs %lu intervals; report of %zu vs %zu bytes)\n",
				        argv[i], how, n, n0, report_bytes, whole_report);
				failed = 1;
			}
		}
		if (series_def && report_rows <= 1) {
			fprintf(stderr, "FAIL: %s: no report rows: nothing was compared\n", argv[i]);
			failed = 1;
		}
		if (n0 == 0) {
			fprintf(stderr, "FAIL: %s: no intervals or snapshots: nothing was compared\n", argv[i]);
			failed = 1;
		}
		if (series_def)
			printf("%s: report %s of %zu bytes, ", argv[i], series_def->name,
			       whole_report);
		printf("%s: %zu bytes, %lu intervals or snapshots, %zu chunk sizes "
		       "(1..%zu, larger, and the file lent): %s\n", argv[i], len, n0, tried, last,
		       failed ? "DIFFER" : "identical");
		free(buf);
		files++;
	}
	return failed || files == 0;
}
