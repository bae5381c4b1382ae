/* corrupt_perf.c: the corruption catalogue for PERF_DATA_BLOCKs read into
 * a series report. Takes a valid file of blocks (pmimgen --framing=perf,
 * or real ones), damages it systematically, reads every damaged copy
 * through the whole reading pipeline in memory (as --framing=perf) into
 * the report (CSV, a row set per snapshot: --by=interval), and asserts for
 * every case:
 *
 *   - the run ends within a time bound (a sanitizer report aborts it);
 *   - the exit code is 0 (damage no rule can see: a value, a name's
 *     character, a reserved byte) or 4 (damage seen), 8 only for a file cut
 *     inside its first block;
 *   - bytes used + skipped + damaged = bytes read = the file's size;
 *   - with exit code 4, a message names the file and an offset inside the
 *     damaged block or at its end (where a count, NumObjectTypes say, asks
 *     for one structure more than the block holds), or, where a damaged TotalByteLength makes the reader
 *     overrun, up to where it leads); with 0, no message at all;
 *   - every report row that no damaged block's snapshot went into is there,
 *     byte for byte as in the undamaged run, as often. A row of a snapshot
 *     is one whose period starts or ends at the snapshot's SystemTime: its
 *     own one-sample values, and the windows to and from it.
 *
 * The damage: truncation at every offset (or every --step-th); each byte
 * of every block's header (TotalByteLength included), object headers,
 * counter definitions, instance definitions (names included) and the
 * first 8 bytes of each counter block XORed with x'FF', x'01' and x'80'
 * (in every block but the middle one, or --full-block=N (-1: none),
 * every --byte-step-th byte only).
 *
 * What the damage touches is worked out here, from the test's own walk of
 * the blocks by their lengths (COUNTERS.md §3), without the reader's code:
 * the block holding the damaged byte, except for a TotalByteLength that
 * still reads as a length the reader takes (at least 88, at most the
 * largest record): then every block the misread span overlaps and the one
 * it ends in, and all blocks to the end when it runs past the end.
 *
 * usage: corrupt_perf FILE [--report=NAME] [--step=N] [--byte-step=N]
 *                     [--full-block=N] [-v]
 * The last line is "N passed, M failed". */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700 /* open_memstream */
#endif
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "series_run.h"
#include "slurp.h"

#define MAX_BLOCKS 64
#define MAX_REGIONS 8192
#define CASE_SECONDS 10.0
#define PDB_MIN 88
#define TIME_MAX 64

/* What a byte range of a block is. */
enum part { P_HEADER, P_TOTAL, P_OBJECT, P_DEFINITION, P_INSTANCE, P_COUNTERS, P_NPARTS };
static const char *const part_names[P_NPARTS] = {
	"header", "TotalByteLength", "object", "definition", "instance", "counter block"
};

struct block {
	size_t off, len;
	char time[TIME_MAX];  /* its SystemTime as the report writes it */
};

struct region {
	size_t off, len;
	enum part part;
	int block;
};

struct sample {
	const char *name;
	uint8_t *buf;
	size_t len;
	struct block blocks[MAX_BLOCKS];
	int nblocks;
	struct region regions[MAX_REGIONS];
	int nregions;
	/* the undamaged run's report: header and rows, sorted */
	char *clean;
	char **rows;
	size_t nrows;
	char *header;
};

static struct pmint pm;
static const struct rpt_def *def;
static bool verbose;
static unsigned long passed, failed, by_part[P_NPARTS];
static double slowest;
static size_t max_record;
static int full_block = -2; /* every byte flipped in this block; -2: the middle one */

static _Noreturn void die(const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 1, 2)))
#endif
	;

static void
die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("corrupt_perf: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static double
now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint32_t
u32(const struct sample *s, size_t at)
{
	const uint8_t *p = s->buf + at;
	if (at + 4 > s->len)
		die("%s: a length at %zu past the end", s->name, at);
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static unsigned
u16(const struct sample *s, size_t at)
{
	return (unsigned)s->buf[at] | (unsigned)s->buf[at + 1] << 8;
}

static void
add_region(struct sample *s, int b, enum part part, size_t off, size_t len)
{
	struct region *r;

	if (len == 0)
		return;
	if (s->nregions == MAX_REGIONS)
		die("%s: too many structures", s->name);
	if (off < s->blocks[b].off || off + len > s->blocks[b].off + s->blocks[b].len)
		die("%s: a %s at %zu outside its block", s->name, part_names[part], off);
	r = &s->regions[s->nregions++];
	*r = (struct region){ off, len, part, b };
}

/* The blocks, back to back, each walked by its lengths. */
static void
walk(struct sample *s)
{
	for (size_t off = 0; off < s->len;) {
		struct block *bk;
		int b = s->nblocks;
		uint32_t total, hlen, nobj;
		size_t obj;

		if (b == MAX_BLOCKS)
			die("%s: too many blocks", s->name);
		if (s->len - off < PDB_MIN || memcmp(s->buf + off, "P\0E\0R\0F\0", 8) != 0)
			die("%s: no block at %zu", s->name, off);
		total = u32(s, off + 20);
		hlen = u32(s, off + 24);
		nobj = u32(s, off + 28);
		if (total < PDB_MIN || total > s->len - off)
			die("%s: block at %zu: TotalByteLength %u", s->name, off, (unsigned)total);
		bk = &s->blocks[s->nblocks++];
		bk->off = off;
		bk->len = total;
		snprintf(bk->time, sizeof bk->time, "%04u-%02u-%02u %02u:%02u:%02u.%03u",
		         u16(s, off + 36), u16(s, off + 38), u16(s, off + 42), u16(s, off + 44),
		         u16(s, off + 46), u16(s, off + 48), u16(s, off + 50));
		add_region(s, b, P_HEADER, off, 20);
		add_region(s, b, P_TOTAL, off + 20, 4);
		add_region(s, b, P_HEADER, off + 24, hlen - 24);
		obj = off + hlen;
		for (uint32_t i = 0; i < nobj; i++) {
			uint32_t otot = u32(s, obj), odef = u32(s, obj + 4), ohdr = u32(s, obj + 8);
			uint32_t nctr = u32(s, obj + 32);
			int32_t ninst = (int32_t)u32(s, obj + 40);
			size_t d = obj + ohdr, p = obj + odef;

			add_region(s, b, P_OBJECT, obj, ohdr);
			for (uint32_t k = 0; k < nctr; k++) {
				uint32_t dlen = u32(s, d);
				add_region(s, b, P_DEFINITION, d, dlen);
				d += dlen;
			}
			for (int32_t k = 0; k < (ninst < 0 ? 1 : ninst); k++) {
				if (ninst >= 0) {
					uint32_t ilen = u32(s, p);
					add_region(s, b, P_INSTANCE, p, ilen);
					p += ilen;
				}
				uint32_t clen = u32(s, p);
				add_region(s, b, P_COUNTERS, p, clen < 8 ? clen : 8);
				p += clen;
			}
			obj += otot;
		}
		off += total;
	}
}

/* ---- running the pipeline ---- */

struct result {
	int rc;
	struct tally t;
	char *msgs;
	size_t msgs_len;
	char *report;
	size_t report_len;
	double secs;
};

static void
no_interval(const struct interval *iv, void *ctx)
{
	(void)iv;
	(void)ctx;
}

static void
run(const struct sample *s, const uint8_t *buf, size_t len, struct result *r)
{
	struct pipeline_opts o;
	struct pipeline *p;
	struct sources src;
	struct series_run sr;
	struct input in;
	struct diag d;
	FILE *log;
	double t0 = now();

	memset(r, 0, sizeof *r);
	if (!(log = open_memstream(&r->msgs, &r->msgs_len)))
		die("open_memstream");
	diag_init(&d, "corrupt_perf", log);
	d.max_per_status = 0;
	pipeline_defaults(&o);
	o.framing = FRAMING_PERF;
	max_record = o.max_record;
	if (sources_init(&src, o.max_sources) != PM_OK ||
	    series_run_open(&sr, def, BY_INTERVAL, false, &o, &src, &d) != PM_OK ||
	    pipeline_open(&p, &o, &pm, &src, no_interval, NULL, &d) != PM_OK)
		die("pipeline_open");
	input_from_memory(&in, s->name, buf, len, 0);
	if (pipeline_read(p, &in) != 0)
		diag_at(&d, PM_E_READ, DIAG_NO_OFFSET, "pipeline_read failed");
	input_close(&in);
	pipeline_finish(p);
	if (series_run_finish(&sr) != PM_OK)
		die("the report could not be written");
	r->report = sr.out;
	r->report_len = sr.len;
	r->t = *pipeline_tally(p);
	r->rc = diag_exit_code(&d);
	pipeline_close(p);
	sources_free(&src);
	fclose(log);
	r->secs = now() - t0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The report's lines in place, the header apart, the rows sorted. */
static char **
split_rows(char *text, size_t len, char **header, size_t *n)
{
	size_t cap = 1, k = 0;
	char **rows;

	for (size_t i = 0; i < len; i++)
		cap += text[i] == '\n';
	if (!(rows = malloc(cap * sizeof *rows)))
		die("out of memory");
	*header = NULL;
	for (char *line = text; line < text + len && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (!*header)
			*header = line;
		else
			rows[k++] = line;
		if (!nl)
			break;
		line = nl + 1;
	}
	qsort(rows, k, sizeof *rows, cmp_str);
	*n = k;
	return rows;
}

static size_t
count_of(char **rows, size_t n, const char *row)
{
	size_t lo = 0, hi = n, c = 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(rows[mid], row) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo + c < n && strcmp(rows[lo + c], row) == 0)
		c++;
	return c;
}

/* Whether a message names the file and an offset in [lo, hi]. */
static bool
message_at(const struct result *r, const char *file, size_t lo, size_t hi)
{
	char prefix[512];
	size_t n = (size_t)snprintf(prefix, sizeof prefix, "corrupt_perf: %s: offset ", file);

	for (const char *line = r->msgs; line && *line;) {
		const char *nl = strchr(line, '\n');
		if (strncmp(line, prefix, n) == 0) {
			unsigned long long off = strtoull(line + n, NULL, 10);
			if (off >= lo && off <= hi)
				return true;
		}
		line = nl ? nl + 1 : NULL;
	}
	return false;
}

struct expect {
	int rc[2];               /* accepted exit codes besides 0 and 4 */
	bool zero_ok;            /* exit code 0 (silent) may be */
	bool touched[MAX_BLOCKS];
	size_t msg_lo, msg_hi;
};

/* Whether a row (source,period_start,period_end,...) is of a snapshot of a
 * touched block: its period starts or ends at one's time. */
static bool
row_touched(const struct sample *s, const struct expect *e, const char *row)
{
	const char *start = strchr(row, ','), *end;

	if (!start || !(end = strchr(start + 1, ',')))
		return true;
	start++;
	end++;
	for (int b = 0; b < s->nblocks; b++) {
		size_t n = strlen(s->blocks[b].time);
		if (e->touched[b] && (strncmp(start, s->blocks[b].time, n) == 0 ||
		                      strncmp(end, s->blocks[b].time, n) == 0))
			return true;
	}
	return false;
}

static bool
check(struct sample *s, const char *what, const uint8_t *buf, size_t len,
      const struct expect *e)
{
	struct result r;
	char why[320] = "", *header = NULL, **rows = NULL;
	size_t nrows = 0;

	run(s, buf, len, &r);
	if (r.secs > slowest)
		slowest = r.secs;
	if (r.report)
		rows = split_rows(r.report, r.report_len, &header, &nrows);
	if (r.secs > CASE_SECONDS)
		snprintf(why, sizeof why, "took %.1f s", r.secs);
	else if (!(r.rc == 4 || (r.rc == 0 && e->zero_ok) || r.rc == e->rc[0] ||
	           r.rc == e->rc[1]))
		snprintf(why, sizeof why, "exit code %d", r.rc);
	else if (r.t.bytes_read != len || tally_accounted(&r.t) != len)
		snprintf(why, sizeof why, "accounting: %zu bytes, %llu read, %llu used + "
		         "%llu skipped + %llu damaged", len,
		         (unsigned long long)r.t.bytes_read, (unsigned long long)r.t.used,
		         (unsigned long long)r.t.skipped, (unsigned long long)r.t.damaged);
	else if (r.rc == 0 && r.msgs_len > 0)
		snprintf(why, sizeof why, "exit code 0 with a message");
	else if (r.rc != 0 && !message_at(&r, s->name, e->msg_lo, e->msg_hi))
		snprintf(why, sizeof why, "no message at an offset in [%zu, %zu]",
		         e->msg_lo, e->msg_hi);
	else if (s->header && (!header || strcmp(header, s->header) != 0) && s->nrows)
		snprintf(why, sizeof why, "the report's header differs");
	else
		for (size_t i = 0; i < s->nrows && !*why; i++)
			if (!row_touched(s, e, s->rows[i]) &&
			    count_of(rows, nrows, s->rows[i]) != count_of(s->rows, s->nrows, s->rows[i]))
				snprintf(why, sizeof why, "an untouched row differs: %.200s",
				         s->rows[i]);
	if (*why) {
		failed++;
		printf("FAIL - %s: %s: %s\n", s->name, what, why);
		if (r.msgs_len)
			printf("  messages:\n%.2000s", r.msgs);
	} else {
		passed++;
		if (verbose)
			printf("ok - %s: %s (exit %d)\n", s->name, what, r.rc);
	}
	free(rows);
	free(r.report);
	free(r.msgs);
	return !*why;
}

static void
expect_init(struct expect *e)
{
	memset(e, 0, sizeof *e);
	e->rc[0] = e->rc[1] = 4;
}

static int
block_at(const struct sample *s, size_t off)
{
	for (int b = 0; b < s->nblocks; b++)
		if (off >= s->blocks[b].off && off < s->blocks[b].off + s->blocks[b].len)
			return b;
	return s->nblocks - 1;
}

/* ---- the cases ---- */

static void
truncations(struct sample *s, size_t step)
{
	char what[64];

	for (size_t at = 0; at < s->len; at += step) {
		struct expect e;
		int k = block_at(s, at);
		bool boundary = at == s->blocks[k].off;

		expect_init(&e);
		e.zero_ok = boundary;
		for (int b = k; b < s->nblocks; b++)
			e.touched[b] = true;
		if (k == 0 && at > 0)
			e.rc[1] = 8; /* nothing whole to recognise the framing by */
		e.msg_lo = s->blocks[k].off;
		e.msg_hi = at;
		snprintf(what, sizeof what, "truncated at %zu", at);
		if (boundary) {
			/* nothing damaged: the blocks before the cut are whole */
			e.rc[0] = e.rc[1] = 0;
		}
		check(s, what, s->buf, at, &e);
	}
}

/* Byte off XORed with x: which blocks that touches, and where a message
 * must be. */
static void
expect_flip(const struct sample *s, struct expect *e, const struct region *rg,
            size_t off, const uint8_t *b)
{
	const struct block *bk = &s->blocks[rg->block];

	expect_init(e);
	e->zero_ok = true;
	e->touched[rg->block] = true;
	e->msg_lo = bk->off;
	/* a count past what the block holds is named where the structure it
	 * counts would start: at the block's end */
	e->msg_hi = bk->off + bk->len;
	if (rg->part == P_TOTAL) {
		const uint8_t *p = b + bk->off + 20;
		size_t total = (size_t)p[0] | (size_t)p[1] << 8 | (size_t)p[2] << 16 |
		               (size_t)p[3] << 24;
		(void)off;
		if (total >= PDB_MIN && total <= max_record) {
			size_t end = bk->off + total; /* where the reader goes on */
			for (int k = rg->block; k < s->nblocks; k++)
				if (s->blocks[k].off <= end)
					e->touched[k] = true;
			e->msg_hi = end < s->len ? end : s->len;
		}
	}
}

static void
flips(struct sample *s, int byte_step)
{
	static const uint8_t masks[] = { 0xff, 0x01, 0x80 };
	uint8_t *b = malloc(s->len);
	char what[96];
	int middle = full_block == -2 ? s->nblocks / 2 : full_block;

	if (!b)
		die("out of memory");
	memcpy(b, s->buf, s->len);
	for (int i = 0; i < s->nregions; i++) {
		const struct region *rg = &s->regions[i];
		size_t step = rg->block == middle || rg->part == P_TOTAL ? 1 : (size_t)byte_step;
		for (size_t off = rg->off; off < rg->off + rg->len; off += step)
			for (size_t m = 0; m < sizeof masks; m++) {
				struct expect e;
				b[off] ^= masks[m];
				expect_flip(s, &e, rg, off, b);
				snprintf(what, sizeof what, "%s byte at %zu (block %d) ^ x'%02X'",
				         part_names[rg->part], off, rg->block, masks[m]);
				check(s, what, b, s->len, &e);
				b[off] ^= masks[m];
				by_part[rg->part]++;
			}
	}
	free(b);
}

int
main(int argc, char **argv)
{
	static struct sample s;
	const char *report = "perf";
	size_t step = 1;
	int byte_step = 1;
	char err[256];
	double t0 = now();

	if (argc < 2)
		die("usage: corrupt_perf FILE [--report=NAME] [--step=N] [--byte-step=N] "
		    "[--full-block=N] [-v]");
	if (pmint_load(&pm, err, sizeof err) != PM_OK)
		die("%s", err);
	s.name = argv[1];
	for (int i = 2; i < argc; i++) {
		if (strncmp(argv[i], "--report=", 9) == 0)
			report = argv[i] + 9;
		else if (strncmp(argv[i], "--step=", 7) == 0)
			step = strtoul(argv[i] + 7, NULL, 10);
		else if (strncmp(argv[i], "--byte-step=", 12) == 0)
			byte_step = atoi(argv[i] + 12) > 0 ? atoi(argv[i] + 12) : 1;
		else if (strncmp(argv[i], "--full-block=", 13) == 0)
			full_block = atoi(argv[i] + 13);
		else if (strcmp(argv[i], "-v") == 0)
			verbose = true;
		else
			die("unknown option %s", argv[i]);
	}
	if (!(def = series_run_load(&pm, report, err, sizeof err)))
		die("%s", err);
	if (!(s.buf = slurp(s.name, &s.len)))
		die("%s: cannot open", s.name);
	walk(&s);

	{
		struct expect e;
		struct result r;
		run(&s, s.buf, s.len, &r);
		if (r.rc != 0 || r.msgs_len || tally_accounted(&r.t) != s.len ||
		    r.t.used != s.len)
			die("%s: the undamaged file does not read cleanly (exit %d):\n%s",
			    s.name, r.rc, r.msgs ? r.msgs : "");
		s.clean = r.report;
		s.rows = split_rows(s.clean, r.report_len, &s.header, &s.nrows);
		free(r.msgs);
		if (s.nrows == 0)
			die("%s: no report rows", s.name);
		/* every row is of some snapshot, or nothing would be checked */
		expect_init(&e);
		for (int b = 0; b < s.nblocks; b++)
			e.touched[b] = true;
		for (size_t i = 0; i < s.nrows; i++)
			if (!row_touched(&s, &e, s.rows[i]))
				die("%s: a row of no snapshot's time: %s", s.name, s.rows[i]);
	}
	truncations(&s, step ? step : 1);
	flips(&s, byte_step);

	printf("%s: %d blocks, %d structures, %zu report rows; %lu flips (", s.name,
	       s.nblocks, s.nregions, s.nrows,
	       by_part[0] + by_part[1] + by_part[2] + by_part[3] + by_part[4] + by_part[5]);
	for (int p = 0; p < P_NPARTS; p++)
		printf("%s%s %lu", p ? ", " : "", part_names[p], by_part[p]);
	printf("); slowest case %.3f s, all %.1f s\n", slowest, now() - t0);
	printf("%lu passed, %lu failed\n", passed, failed);
	return failed != 0;
}
