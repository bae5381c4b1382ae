/* corrupt.c: the corruption catalogue. Takes a valid sample file of one
 * framing and the truth pmimgen wrote for it, damages the file
 * systematically, reads every damaged copy through the whole reading
 * pipeline in memory, and asserts for every case:
 *
 *   - the run ends within a time bound (a sanitizer report aborts it);
 *   - the exit code is the one the damage calls for: 4 for damage the
 *     reader can see, 0 where it cannot (reserved bytes, records of another
 *     type), 8 only for a file cut inside its first unit;
 *   - bytes used + skipped + damaged = the file's size;
 *   - a message names the file and an offset inside the damaged unit (or,
 *     where a damaged length makes the reader overrun, where it leads);
 *     damage that cannot be seen gives no message at all;
 *   - every interval none of whose records the damage touched appears once,
 *     complete, with every figure as the truth has it; figures the damage
 *     made implausible are kept as they are.
 *
 * The damage: truncation at every offset; every descriptor byte and every
 * PM header byte flipped (x'FF', x'01', x'80'); lengths of 0, 1, 3 and 4;
 * lengths past the end of the block, the SMF record or the file; the
 * extended-BDW bit on short blocks; first or last segments left out,
 * segments and records written twice; packed dates with bad digits or
 * signs; end before start; part numbers whose layout is longer or shorter
 * than the record; highest wait above the sum, wait time with no waits, an
 * average wait above the highest, and (plausible: no message) a wait longer
 * than the interval; records of other SMF types that look like
 * type 230.
 *
 * What the damage touches is worked out here, from the test's own walk of
 * the file (descriptor words, SMF header, product header, PM record
 * chain), written from FORMATS.md and pmimgen.1 without the reader's code:
 *
 *   - the unit holding the damaged bytes: a PM record (bare PM framing), an
 *     RDW record, a logical SMF record with all its segments, or a block
 *     with every logical record that has a segment in it;
 *   - damage to a length that still reads as a valid length makes the
 *     reader take that many bytes: every unit the misread span overlaps is
 *     touched too (its start is swallowed, so it cannot be found again);
 *   - damage to a PM record's INTLEN, type, part or version breaks the
 *     chain of its SMF record: every interval in that SMF record is
 *     touched; damage to its dates or times moves the part to another
 *     interval: the one it came from and the one it now claims are touched.
 *
 * Damage no reader can see, documented here and expected as such:
 *
 *   - an interval record whose type becomes another PM record type is a
 *     record of that type: its interval is reported incomplete where it
 *     began, not where the damage is;
 *   - an INTLEN that still chains to the end of its SMF record takes in the
 *     PM records it covers, without a word of their own;
 *   - in an SMF record, damage to the leading PM records looks like a longer
 *     product header (#PMSMHDS is not public). The reader tells them apart
 *     by where the last SMF record's PM records began, and by intact
 *     interval record headers; before the first SMF record of PM data it
 *     has only the latter. The SMF samples have a product header of one
 *     length, as the monitor's is;
 *   - a middle segment written twice only lengthens a record of another
 *     SMF type.
 *
 * usage: corrupt KIND FILE TRUTH [--step=N] [--record-step=N] [--source=LABEL] [-v]
 *   KIND: pm, rdw-pm (PM records, each behind an RDW), smf-rdw, smf-bdw
 *   --step=N: truncate at every Nth offset only (large files)
 *   --record-step=N: damage the header and fields of every Nth PM record
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

#include "pipeline.h"
#include "slurp.h"

#define MAX_UNITS 4096
#define MAX_ROWS 256
#define CASE_SECONDS 10.0   /* one damaged copy, sanitizers and -O0 included */
#define PM_HEADER 28        /* INTLEN ... INTETIME */
#define INTERVAL_TYPE 5
#define PM_TYPE_MAX 63      /* PM record types are small numbers */
#define SMF_HEADER 18
#define SMF_TYPE_AT 5       /* from the RDW */
#define SMF_SID_AT 14
#define KEY_MAX 160         /* source,start,end */

enum kind { K_PM, K_RDW_PM, K_SMF_RDW, K_SMF_BDW };

/* ---- the sample, walked by the test itself ---- */

struct block { size_t off, len; bool extended; };
struct seg { size_t off, len; unsigned code; int block, lrec; };

/* A logical record: its segments' data joined behind a 4-byte RDW (for the
 * PM framing: the whole file, with no RDW). */
struct lrec {
	int first_seg, nsegs;
	size_t off, end;          /* file extent, descriptors included */
	uint8_t *data;
	size_t len;
	unsigned type;            /* SMF type; 0 for PM content */
	int first_pm, npm;
};

struct pmrec {
	int lrec;
	size_t doff, len;         /* in the logical record's data */
	unsigned type, seq;
	uint32_t sdate, stime, edate, etime;
	int row;                  /* truth row, -1 for other types */
};

struct row {
	char key[KEY_MAX];        /* source,start,end */
	uint64_t duration;        /* 10**-4 s */
	uint64_t v[CB_MAX_FIELDS];
};

struct sample {
	enum kind kind;
	const char *name, *label;
	uint8_t *buf;
	size_t len;
	struct block blocks[MAX_UNITS];
	struct seg segs[MAX_UNITS];
	struct lrec lrecs[MAX_UNITS];
	struct pmrec pms[MAX_UNITS];
	int nblocks, nsegs, nlrecs, npms;
	struct row rows[MAX_ROWS];
	int nrows;
	bool field_in_truth[CB_MAX_FIELDS];
};

static struct pmint pm;
static bool verbose;
static int record_step = 1; /* damage every Nth PM record's header only */
static unsigned long passed, failed;
static double slowest;

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
	fputs("corrupt: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static uint32_t
get16(const uint8_t *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

static uint32_t
get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void
set16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void
set32(uint8_t *p, uint32_t v)
{
	set16(p, v >> 16);
	set16(p + 2, v & 0xffff);
}

/* "YYYY-MM-DD HH:MM:SS" of a packed date 0cyydddF and a time in 10**-4 s,
 * computed here independently of pmtime.c. */
static void
format_stamp(uint32_t pdate, uint32_t time, char *out, size_t cap)
{
	static const int mdays[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	unsigned p = 0;
	int year, yday, month = 0;
	uint32_t secs = time / 10000;

	for (int shift = 28; shift >= 4; shift -= 4)
		p = p * 10 + ((pdate >> shift) & 0xf);
	year = 1900 + (int)(p / 1000);
	yday = (int)(p % 1000);
	bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
	while (month < 11 && yday > mdays[month] + (month == 1 && leap)) {
		yday -= mdays[month] + (month == 1 && leap);
		month++;
	}
	snprintf(out, cap, "%04d-%02d-%02d %02u:%02u:%02u", year, month + 1, yday,
	         secs / 3600, secs / 60 % 60, secs % 60);
}

/* The system id, EBCDIC letters and digits only (what pmimgen writes). */
static void
ebcdic_name(const uint8_t *p, size_t n, char *out)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		uint8_t c = p[i];
		if (c >= 0xc1 && c <= 0xc9)
			out[k++] = (char)('A' + c - 0xc1);
		else if (c >= 0xd1 && c <= 0xd9)
			out[k++] = (char)('J' + c - 0xd1);
		else if (c >= 0xe2 && c <= 0xe9)
			out[k++] = (char)('S' + c - 0xe2);
		else if (c >= 0xf0 && c <= 0xf9)
			out[k++] = (char)('0' + c - 0xf0);
		else if (c == 0x7b)
			out[k++] = '#';
		else if (c == 0x7c)
			out[k++] = '@';
		else if (c == 0x5b)
			out[k++] = '$';
	}
	out[k] = '\0';
}

static void
read_truth(struct sample *s, const char *path)
{
	size_t len;
	char *text = (char *)slurp(path, &len), *line, *save = NULL;
	int col_field[CB_MAX_FIELDS + 8], ncols = 0;

	if (!text)
		die("%s: cannot open", path);
	text = realloc(text, len + 1);
	text[len] = '\0';
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *cell, *csave = NULL;
		int c = 0;
		struct row *r = ncols ? &s->rows[s->nrows] : NULL;

		if (r && s->nrows >= MAX_ROWS)
			die("%s: too many rows", path);
		for (cell = strtok_r(line, ",", &csave); cell;
		     cell = strtok_r(NULL, ",", &csave), c++) {
			if (!r) {
				col_field[ncols++] = c < 5 ? -1 : layout_field_index(&pm.lay, cell);
				if (c >= 5 && col_field[c] < 0)
					die("%s: no field %s in the layout", path, cell);
				if (c >= 5)
					s->field_in_truth[col_field[c]] = true;
				continue;
			}
			if (c < 3) {
				if (c)
					strcat(r->key, ",");
				strcat(r->key, cell);
			} else if (c == 3) {
				r->duration = strtoull(cell, NULL, 10);
			} else if (c >= 5 && c < ncols) {
				r->v[col_field[c]] = strtoull(cell, NULL, 10);
			} else if (c == 4 && strcmp(cell, "123") != 0) {
				die("%s: the catalogue wants samples with every part", path);
			}
		}
		if (r)
			s->nrows++;
	}
	free(text);
}

static int
row_of(const struct sample *s, const char *key)
{
	for (int i = 0; i < s->nrows; i++)
		if (strcmp(s->rows[i].key, key) == 0)
			return i;
	return -1;
}

static void
pm_key(const struct sample *s, const struct lrec *l, const struct pmrec *p,
       char *key, size_t cap)
{
	char source[32], from[48], to[48];

	if (s->kind == K_PM || s->kind == K_RDW_PM)
		snprintf(source, sizeof source, "%s", s->label);
	else
		ebcdic_name(l->data + SMF_SID_AT, 4, source);
	format_stamp(p->sdate, p->stime, from, sizeof from);
	format_stamp(p->edate, p->etime, to, sizeof to);
	snprintf(key, cap, "%s,%s,%s", source, from, to);
}

/* The PM records of logical record li, chained from doff to its end. */
static void
walk_chain(struct sample *s, int li, size_t doff)
{
	struct lrec *l = &s->lrecs[li];

	l->first_pm = s->npms;
	while (doff < l->len) {
		struct pmrec *p = &s->pms[s->npms];
		const uint8_t *d = l->data + doff;
		char key[KEY_MAX];

		if (s->npms >= MAX_UNITS || l->len - doff < 4 || get16(d) < 4 ||
		    get16(d) > l->len - doff)
			die("%s: PM chain of the record at %zu does not walk", s->name, l->off);
		p->lrec = li;
		p->doff = doff;
		p->len = get16(d);
		p->type = d[2];
		p->seq = d[3];
		p->row = -1;
		if (p->type == INTERVAL_TYPE) {
			p->sdate = get32(d + 12);
			p->stime = get32(d + 16);
			p->edate = get32(d + 20);
			p->etime = get32(d + 24);
			pm_key(s, l, p, key, sizeof key);
			if ((p->row = row_of(s, key)) < 0)
				die("%s: interval %s is not in the truth", s->name, key);
		}
		doff += p->len;
		s->npms++;
		l->npm++;
	}
}

static void
add_lrec_from_segs(struct sample *s, int first, int n)
{
	struct lrec *l = &s->lrecs[s->nlrecs];
	size_t len = 4;

	if (s->nlrecs >= MAX_UNITS)
		die("too many records");
	for (int i = first; i < first + n; i++)
		len += s->segs[i].len - 4;
	l->first_seg = first;
	l->nsegs = n;
	l->off = s->segs[first].off;
	l->end = s->segs[first + n - 1].off + s->segs[first + n - 1].len;
	l->data = calloc(1, len);
	l->len = 4;
	for (int i = first; i < first + n; i++) {
		memcpy(l->data + l->len, s->buf + s->segs[i].off + 4, s->segs[i].len - 4);
		l->len += s->segs[i].len - 4;
		s->segs[i].lrec = s->nlrecs;
	}
	set16(l->data, len <= 0xffff ? (uint32_t)len : 0);
	s->nlrecs++;
}

/* Segments from off to end (one block, or the whole file). */
static void
walk_segs(struct sample *s, size_t off, size_t end, int block)
{
	while (off < end) {
		struct seg *g = &s->segs[s->nsegs];

		if (s->nsegs >= MAX_UNITS || end - off < 4 || get16(s->buf + off) < 4 ||
		    get16(s->buf + off) > end - off || s->buf[off + 3] != 0 ||
		    s->buf[off + 2] > 3)
			die("%s: the segment at %zu does not walk", s->name, off);
		g->off = off;
		g->len = get16(s->buf + off);
		g->code = s->buf[off + 2];
		g->block = block;
		g->lrec = -1;
		off += g->len;
		s->nsegs++;
	}
}

static void
walk(struct sample *s)
{
	if (s->kind == K_PM) {
		struct lrec *l = &s->lrecs[s->nlrecs++];
		l->off = 0;
		l->end = s->len;
		l->data = s->buf;
		l->len = s->len;
		walk_chain(s, 0, 0);
		return;
	}
	if (s->kind == K_SMF_BDW) {
		for (size_t off = 0; off < s->len;) {
			struct block *b = &s->blocks[s->nblocks];
			uint32_t w = get32(s->buf + off);
			b->off = off;
			b->extended = (w & 0x80000000u) != 0;
			b->len = b->extended ? w & 0x7fffffffu : w >> 16;
			if (b->len < 8 || b->len > s->len - off)
				die("%s: the block at %zu does not walk", s->name, off);
			walk_segs(s, off + 4, off + b->len, s->nblocks++);
			off += b->len;
		}
	} else {
		walk_segs(s, 0, s->len, -1);
	}
	for (int i = 0; i < s->nsegs;) {
		int n = 1;
		if (s->segs[i].code == 1)
			while (i + n < s->nsegs && s->segs[i + n - 1].code != 2)
				n++;
		add_lrec_from_segs(s, i, n);
		i += n;
	}
	for (int li = 0; li < s->nlrecs; li++) {
		struct lrec *l = &s->lrecs[li];
		size_t at = SMF_HEADER;

		if (s->kind == K_RDW_PM) {
			walk_chain(s, li, 4);
			continue;
		}
		l->type = l->len > SMF_TYPE_AT ? l->data[SMF_TYPE_AT] : 0;
		if (l->type != 230)
			continue;
		/* pmimgen.1: the product header is EBCDIC text, every byte at
		 * least x'40', and PM records are shorter than x'4000' */
		while (at < l->len && l->data[at] >= 0x40)
			at++;
		walk_chain(s, li, at);
	}
}

/* The file offset of byte doff of logical record li's data. */
static size_t
file_pos(const struct sample *s, int li, size_t doff)
{
	const struct lrec *l = &s->lrecs[li];
	size_t at = 4;

	if (s->kind == K_PM)
		return doff;
	if (doff < 4)
		return l->off + doff;
	for (int i = l->first_seg; i < l->first_seg + l->nsegs; i++) {
		size_t n = s->segs[i].len - 4;
		if (doff < at + n)
			return s->segs[i].off + 4 + (doff - at);
		at += n;
	}
	die("offset %zu beyond record %d", doff, li);
	return 0;
}

/* ---- running the pipeline ---- */

struct expect {
	int rc[2];                 /* accepted exit codes (rc[1] < 0: one) */
	bool touched[MAX_ROWS];    /* intervals the damage may take */
	size_t msg_lo, msg_hi;     /* a message's offset must fall in here */
	bool silent;               /* no message at all */
	/* figures the damage changed and the reader must keep as they are */
	int over_row, over_field[4];
	uint64_t over_value[4];
	int nover;
};

struct result {
	int rc;
	struct tally t;
	unsigned seen[MAX_ROWS];
	bool wrong[MAX_ROWS];
	unsigned spurious;
	char *msgs;
	size_t msgs_len;
	double secs;
	const struct sample *s;
	const struct expect *e;
	struct sources *src;
};

static void
on_interval(const struct interval *iv, void *ctx)
{
	struct result *r = ctx;
	const struct sample *s = r->s;
	char key[KEY_MAX], from[48], to[48];
	int row;

	format_stamp(iv->sdate, iv->stime, from, sizeof from);
	format_stamp(iv->edate, iv->etime, to, sizeof to);
	snprintf(key, sizeof key, "%s,%s,%s", sources_name(r->src, iv->source), from, to);
	if ((row = row_of(s, key)) < 0) {
		r->spurious++;
		return;
	}
	r->seen[row]++;
	if (iv->parts != 0xe)
		r->wrong[row] = true;
	for (size_t f = 0; f < pm.lay.nfields; f++) {
		uint64_t want = s->rows[row].v[f];
		if (!s->field_in_truth[f])
			continue;
		for (int k = 0; k < r->e->nover; k++)
			if (r->e->over_row == row && r->e->over_field[k] == (int)f)
				want = r->e->over_value[k];
		if (iv->v[f] != want)
			r->wrong[row] = true;
	}
}

static double
now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
run(const struct sample *s, const uint8_t *buf, size_t len,
    const struct expect *e, struct result *r)
{
	struct pipeline_opts o;
	struct pipeline *p;
	struct sources src;
	struct input in;
	struct diag d;
	FILE *log;
	double t0 = now();

	memset(r, 0, sizeof *r);
	r->s = s;
	r->e = e;
	r->src = &src;
	if (!(log = open_memstream(&r->msgs, &r->msgs_len)))
		die("open_memstream");
	diag_init(&d, "corrupt", log);
	d.max_per_status = 0;
	pipeline_defaults(&o);
	o.buffer_size = 1; /* the framer's smallest */
	o.source_label = s->label;
	if (sources_init(&src, o.max_sources) != PM_OK ||
	    pipeline_open(&p, &o, &pm, &src, on_interval, r, &d) != PM_OK)
		die("pipeline_open");
	input_from_memory(&in, s->name, buf, len, 0);
	(void)pipeline_read(p, &in);
	input_close(&in);
	pipeline_finish(p);
	r->t = *pipeline_tally(p);
	r->rc = diag_exit_code(&d);
	pipeline_close(p);
	sources_free(&src);
	fclose(log);
	r->secs = now() - t0;
}

/* Whether a message names the file and an offset in [lo, hi]. */
static bool
message_at(const struct result *r, const char *file, size_t lo, size_t hi)
{
	char prefix[512];
	size_t n = (size_t)snprintf(prefix, sizeof prefix, "corrupt: %s: offset ", file);

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

/* Run one damaged copy and check it; returns whether it passed. */
static bool
check(const struct sample *s, const char *what, const uint8_t *buf, size_t len,
      const struct expect *e)
{
	struct result r;
	char why[256] = "";
	int lost = -1;

	run(s, buf, len, e, &r);
	if (r.secs > slowest)
		slowest = r.secs;
	if (r.secs > CASE_SECONDS)
		snprintf(why, sizeof why, "took %.1f s", r.secs);
	else if (r.rc != e->rc[0] && r.rc != e->rc[1])
		snprintf(why, sizeof why, "exit code %d, wanted %d", r.rc, e->rc[0]);
	else if (r.t.bytes_read != len || tally_accounted(&r.t) != len)
		snprintf(why, sizeof why, "accounting: %zu bytes, %llu read, %llu used + "
		         "%llu skipped + %llu damaged", len,
		         (unsigned long long)r.t.bytes_read, (unsigned long long)r.t.used,
		         (unsigned long long)r.t.skipped, (unsigned long long)r.t.damaged);
	else if (e->silent && r.msgs_len > 0)
		snprintf(why, sizeof why, "a message for undetectable damage");
	else if (!e->silent && !message_at(&r, s->name, e->msg_lo, e->msg_hi))
		snprintf(why, sizeof why, "no message at an offset in [%zu, %zu]",
		         e->msg_lo, e->msg_hi);
	else
		for (int i = 0; i < s->nrows && lost < 0; i++)
			if (!e->touched[i] && (r.seen[i] != 1 || r.wrong[i]))
				lost = i;
	if (!*why && lost >= 0)
		snprintf(why, sizeof why, "untouched interval %s %s", s->rows[lost].key,
		         r.seen[lost] != 1 ? "not emitted once" : "has wrong figures");
	if (*why) {
		failed++;
		printf("FAIL - %s: %s: %s\n", s->name, what, why);
		if (r.msgs_len)
			printf("  messages:\n%.2000s", r.msgs);
	} else {
		passed++;
		if (verbose)
			printf("ok - %s: %s\n", s->name, what);
	}
	free(r.msgs);
	return !*why;
}

/* ---- what damage touches ---- */

static void
expect_init(struct expect *e, int rc)
{
	memset(e, 0, sizeof *e);
	e->rc[0] = rc;
	e->rc[1] = -1;
	e->over_row = -1;
}

static void
touch_lrec(const struct sample *s, struct expect *e, int li)
{
	const struct lrec *l = &s->lrecs[li];
	for (int k = l->first_pm; k < l->first_pm + l->npm; k++)
		if (s->pms[k].row >= 0)
			e->touched[s->pms[k].row] = true;
}

/* The unit of damage at file offset off: the records in it are touched;
 * [*lo, *hi) is where they lie (for a block, with the records spanning
 * into it), *next where the next unit starts. */
static void
touch_unit_at(const struct sample *s, struct expect *e, size_t off, size_t *lo,
              size_t *hi, size_t *next)
{
	*lo = off;
	*hi = *next = off + 1;
	if (s->kind == K_PM) {
		for (int k = 0; k < s->npms; k++)
			if (off >= s->pms[k].doff && off < s->pms[k].doff + s->pms[k].len) {
				*lo = s->pms[k].doff;
				*hi = *next = *lo + s->pms[k].len;
				if (s->pms[k].row >= 0)
					e->touched[s->pms[k].row] = true;
			}
		return;
	}
	if (s->kind == K_SMF_BDW) {
		for (int b = 0; b < s->nblocks; b++)
			if (off >= s->blocks[b].off && off < s->blocks[b].off + s->blocks[b].len) {
				*lo = s->blocks[b].off;
				*hi = *next = *lo + s->blocks[b].len;
				for (int g = 0; g < s->nsegs; g++)
					if (s->segs[g].block == b) {
						const struct lrec *l = &s->lrecs[s->segs[g].lrec];
						touch_lrec(s, e, s->segs[g].lrec);
						if (l->off < *lo)
							*lo = l->off;
						if (l->end > *hi)
							*hi = l->end;
					}
			}
		return;
	}
	for (int li = 0; li < s->nlrecs; li++)
		if (off >= s->lrecs[li].off && off < s->lrecs[li].end) {
			*lo = s->lrecs[li].off;
			*hi = *next = s->lrecs[li].end;
			touch_lrec(s, e, li);
		}
}

/* Every unit overlapping [from, to), clipped to the file; the message
 * window grows to cover it. */
static void
touch_span(const struct sample *s, struct expect *e, size_t from, size_t to)
{
	size_t lo, hi, next;

	if (to > s->len)
		to = s->len;
	for (size_t off = from; off < to; off = next) {
		touch_unit_at(s, e, off, &lo, &hi, &next);
		if (lo < e->msg_lo)
			e->msg_lo = lo;
		if (hi > e->msg_hi)
			e->msg_hi = hi;
	}
}

/* Damage at [off, off + n): its unit is touched, and a message must name
 * an offset in it. */
static void
expect_damage_at(const struct sample *s, struct expect *e, size_t off, size_t n)
{
	size_t lo, hi, next;

	touch_unit_at(s, e, off, &lo, &hi, &next);
	e->msg_lo = lo;
	e->msg_hi = hi;
	touch_span(s, e, off, off + n);
}

/* A length at unit_off now reads as len: the reader takes that many bytes,
 * and finds what follows where they end. */
static void
expect_misread(const struct sample *s, struct expect *e, size_t unit_off,
               size_t len)
{
	size_t end = unit_off + len;

	touch_span(s, e, unit_off, end);
	if (end > e->msg_hi)
		e->msg_hi = end < s->len ? end : s->len;
}

/* ---- the cases ---- */

static void put_bdw(const struct sample *s, uint8_t *p, int block, size_t len);

static uint8_t *
copy(const struct sample *s)
{
	uint8_t *b = malloc(s->len ? s->len : 1);
	if (!b)
		die("out of memory");
	memcpy(b, s->buf, s->len);
	return b;
}

/* Whether a cut at at leaves every unit before it whole: no PM record (bare
 * PM framing), logical record or block straddles it. */
static bool
clean_cut(const struct sample *s, size_t at)
{
	if (s->kind == K_PM) {
		for (int k = 0; k < s->npms; k++)
			if (s->pms[k].doff < at && at < s->pms[k].doff + s->pms[k].len)
				return false;
		return true;
	}
	for (int b = 0; b < s->nblocks; b++)
		if (s->blocks[b].off < at && at < s->blocks[b].off + s->blocks[b].len)
			return false;
	for (int li = 0; li < s->nlrecs; li++)
		if (s->lrecs[li].off < at && at < s->lrecs[li].end)
			return false;
	return true;
}

/* The first unit's end: a cut before it leaves nothing whole to recognise
 * the framing by. In a block, that is its first segment: a block cut
 * after it is still recognised. */
static size_t
first_unit_end(const struct sample *s)
{
	if (s->kind == K_PM)
		return s->pms[0].len;
	if (s->kind == K_SMF_BDW)
		return s->segs[0].off + s->segs[0].len;
	return s->lrecs[0].end;
}

/* Whether a cut at at leaves a dump header (SMF type 2) with no trailer
 * (type 3) after it: the reader warns that the dump may be truncated. */
static bool
dump_left_open(const struct sample *s, size_t at)
{
	bool open = false;

	for (int li = 0; li < s->nlrecs && s->lrecs[li].end <= at; li++)
		if (s->kind == K_SMF_RDW || s->kind == K_SMF_BDW)
			open = s->lrecs[li].type == 2 ||
			       (open && s->lrecs[li].type != 3);
	return open;
}

static void
truncations(const struct sample *s, size_t step)
{
	uint8_t *b = copy(s);
	char what[64];

	for (size_t at = 0; at < s->len; at += step) {
		struct expect e;
		bool clean = clean_cut(s, at);
		size_t next;

		expect_init(&e, clean ? 0 : 4);
		if (at > 0 && at < first_unit_end(s))
			e.rc[1] = 8; /* nothing whole to recognise the framing by */
		touch_span(s, &e, at, s->len);
		if (clean) {
			/* nothing damaged, but intervals cut in two lack parts */
			for (int k = 0; k < s->npms; k++) {
				const struct pmrec *p = &s->pms[k];
				if (p->row >= 0 && file_pos(s, p->lrec, p->doff) < at &&
				    e.touched[p->row])
					e.rc[0] = 4;
			}
			if (dump_left_open(s, at))
				e.rc[0] = 4;
			e.silent = e.rc[0] == 0;
		}
		touch_unit_at(s, &e, at, &e.msg_lo, &e.msg_hi, &next);
		if (!clean)
			e.msg_hi = at;
		else if (!e.silent) {
			/* named where the interval's first part was */
			e.msg_lo = 0;
			e.msg_hi = at;
		}
		snprintf(what, sizeof what, "truncated at %zu", at);
		check(s, what, b, at, &e);
	}
	free(b);
}

/* A PM record's header bytes that the reader does not read. */
static bool
reserved_pm_byte(size_t i)
{
	return i >= 5 && i < 12;
}

/* The row a damaged interval part now claims, or -1. */
static int
claimed_row(const struct sample *s, const struct pmrec *p, const uint8_t *b)
{
	struct pmrec q = *p;
	const struct lrec *l = &s->lrecs[p->lrec];
	uint8_t h[PM_HEADER];
	char key[KEY_MAX];

	for (size_t i = 0; i < PM_HEADER; i++)
		h[i] = b[file_pos(s, p->lrec, p->doff + i)];
	q.sdate = get32(h + 12);
	q.stime = get32(h + 16);
	q.edate = get32(h + 20);
	q.etime = get32(h + 24);
	pm_key(s, l, &q, key, sizeof key);
	return row_of(s, key);
}

/* Whether the reader can tell damage to byte `first` of PM record p's
 * header (INTLEN to INTVER#) from a longer product header. It knows where
 * the last SMF record's PM records began, and takes a PM record there (a
 * PM record's type and part, whatever its length) for damage; and it finds an
 * intact interval record header (type, part, version, dates) wherever one
 * is before the chain it finds. In the first SMF record of PM data, it
 * has the latter, and the next SMF record of PM data in the file: where
 * that one's PM records begin, a PM record's type and part in the first
 * one show that its chain was damaged there. */
static bool
chain_damage_visible(const struct sample *s, const struct pmrec *p, size_t first,
                     const uint8_t *damaged)
{
	const struct lrec *l = &s->lrecs[p->lrec];
	const struct pmrec *head = &s->pms[l->first_pm];
	uint8_t head_type = damaged[file_pos(s, p->lrec, head->doff + 2)],
	        head_seq = damaged[file_pos(s, p->lrec, head->doff + 3)];
	bool earlier = false, later = false;

	for (int li = 0; li < s->nlrecs; li++)
		if (s->lrecs[li].npm > 0 && li != p->lrec)
			*(li < p->lrec ? &earlier : &later) = true;
	if (earlier)
		return true;
	if (later && head_type >= 1 && head_type <= PM_TYPE_MAX && head_seq <= 15)
		return true;
	for (const struct pmrec *q = head; q != p; q++)
		if (q->type == INTERVAL_TYPE)
			return true;
	return p->type == INTERVAL_TYPE && first < 2;
}

/* Whether the PM records of p's SMF record still chain to its end, by
 * their lengths as damaged. */
static bool
chain_still_fits(const struct sample *s, const struct pmrec *p,
                 const uint8_t *damaged)
{
	const struct lrec *l = &s->lrecs[p->lrec];
	size_t pos = s->pms[l->first_pm].doff;

	while (pos < l->len) {
		size_t len;
		unsigned type, seq;

		if (l->len - pos < 5)
			return false;
		len = (size_t)damaged[file_pos(s, p->lrec, pos)] << 8 |
		      damaged[file_pos(s, p->lrec, pos + 1)];
		type = damaged[file_pos(s, p->lrec, pos + 2)];
		seq = damaged[file_pos(s, p->lrec, pos + 3)];
		/* a PM record: a small type, a part number; an interval
		 * record's part 1 to 3 */
		if (len < 5 || len > l->len - pos || type < 1 || type > PM_TYPE_MAX ||
		    seq > 15 || (type == INTERVAL_TYPE && (seq < 1 || seq > 3)))
			return false;
		pos += len;
	}
	return true;
}

static void
expect_pm_damage(const struct sample *s, struct expect *e, const struct pmrec *p,
                 size_t first, const uint8_t *damaged)
{
	size_t at = file_pos(s, p->lrec, p->doff);
	uint8_t type = damaged[file_pos(s, p->lrec, p->doff + 2)];
	int claimed;

	if (p->row >= 0)
		e->touched[p->row] = true;
	if (first == 2 && type != INTERVAL_TYPE && type >= 1 && type <= PM_TYPE_MAX) {
		/* now a record of another PM type, as good as any: its interval
		 * lacks a part, said where the interval began */
		e->msg_lo = 0;
		e->msg_hi = s->len;
		return;
	}
	if (first < 2 && s->kind != K_PM && chain_still_fits(s, p, damaged)) {
		/* a length that still chains to the record's end: the PM records
		 * it takes in are lost without a word of their own; a part among
		 * them leaves its interval incomplete, said where that began */
		const struct lrec *l = &s->lrecs[p->lrec];
		size_t end = p->doff + ((size_t)damaged[at] << 8 |
		                        damaged[file_pos(s, p->lrec, p->doff + 1)]);
		bool part = p->type == INTERVAL_TYPE;

		for (int k = l->first_pm; k < l->first_pm + l->npm; k++)
			if (s->pms[k].doff > p->doff && s->pms[k].doff < end &&
			    s->pms[k].row >= 0) {
				e->touched[s->pms[k].row] = true;
				part = true;
			}
		e->rc[0] = part ? 4 : 0;
		e->silent = !part;
		e->msg_lo = 0;
		e->msg_hi = s->len;
		return;
	}
	if (first < 5 && (s->kind == K_SMF_RDW || s->kind == K_SMF_BDW) &&
	    !chain_damage_visible(s, p, first, damaged)) {
		/* a longer product header, as far as the reader can tell: the PM
		 * records up to the damaged one go without a word; a part among
		 * them leaves its interval incomplete, said where that began */
		e->rc[0] = p->row >= 0 ? 4 : 0;
		e->silent = p->row < 0;
		e->msg_lo = 0;
		e->msg_hi = s->len;
		return;
	}
	if (first < 5) {
		/* the chain, or the bare PM framing, is broken */
		if (s->kind == K_PM) {
			expect_damage_at(s, e, at, 1);
			if (first < 2 && get16(damaged + at) >= 4)
				expect_misread(s, e, at, get16(damaged + at));
		} else {
			touch_lrec(s, e, p->lrec);
			e->msg_lo = s->lrecs[p->lrec].off;
			e->msg_hi = s->lrecs[p->lrec].end;
		}
		return;
	}
	/* a date or time: the part now starts an interval of its own, is
	 * refused, or is another interval's; said where it is */
	e->msg_lo = s->kind == K_PM ? at : s->lrecs[p->lrec].off;
	e->msg_hi = at + p->len;
	if ((claimed = claimed_row(s, p, damaged)) >= 0)
		e->touched[claimed] = true;
}

static void
flip_pm_headers(const struct sample *s)
{
	static const uint8_t masks[] = { 0xff, 0x01, 0x80 };
	uint8_t *b = copy(s);
	char what[96];

	for (int k = 0; k < s->npms; k += record_step) {
		const struct pmrec *p = &s->pms[k];
		size_t n = p->type == INTERVAL_TYPE ? PM_HEADER : 4;

		for (size_t i = 0; i < n; i++)
			for (size_t m = 0; m < sizeof masks; m++) {
				size_t at = file_pos(s, p->lrec, p->doff + i);
				struct expect e;

				expect_init(&e, 4);
				b[at] ^= masks[m];
				if (p->type != INTERVAL_TYPE && i >= 2) {
					/* another type stays another type, or breaks the chain */
					b[at] ^= masks[m];
					continue;
				}
				if (reserved_pm_byte(i)) {
					e.rc[0] = 0;
					e.silent = true;
				} else {
					expect_pm_damage(s, &e, p, i, b);
				}
				snprintf(what, sizeof what, "PM record at %zu (type %u), byte %zu ^ %02x",
				         file_pos(s, p->lrec, p->doff), p->type, i, masks[m]);
				check(s, what, b, s->len, &e);
				b[at] ^= masks[m];
			}
	}
	free(b);
}

/* Descriptor words: every byte of every BDW and RDW/SDW, flipped. */
static void
flip_descriptors(const struct sample *s)
{
	static const uint8_t masks[] = { 0xff, 0x01, 0x80 };
	uint8_t *b = copy(s);
	char what[96];

	for (int u = 0; u < s->nblocks + s->nsegs; u++) {
		bool is_block = u < s->nblocks;
		size_t off = is_block ? s->blocks[u].off : s->segs[u - s->nblocks].off;

		for (size_t i = 0; i < 4; i++)
			for (size_t m = 0; m < sizeof masks; m++) {
				struct expect e;

				expect_init(&e, 4);
				b[off + i] ^= masks[m];
				expect_damage_at(s, &e, off, 4);
				if (is_block) {
					uint32_t w = get32(b + off);
					size_t len = w & 0x80000000u ? w & 0x7fffffffu : w >> 16;
					if (len >= 8 && ((w & 0x80000000u) || ((w & 0xffff) == 0 && len <= 32760)))
						expect_misread(s, &e, off, len);
				} else if (i < 2) {
					const struct seg *g = &s->segs[u - s->nblocks];
					size_t len = get16(b + off), room = g->block < 0 ? s->len - off :
					             s->blocks[g->block].off + s->blocks[g->block].len - off;
					if (len >= 4 && len <= 32760 && len <= room)
						expect_misread(s, &e, off, len);
				}
				snprintf(what, sizeof what, "%s at %zu, byte %zu ^ %02x",
				         is_block ? "BDW" : "RDW/SDW", off, i, masks[m]);
				check(s, what, b, s->len, &e);
				b[off + i] ^= masks[m];
			}
	}
	free(b);
}

/* Some units of n: the first, the second, one in the middle, the last. */
static int
pick(int i, int n)
{
	int at[4] = { 0, 1, n / 2, n - 1 };
	return i < 4 && at[i] < n ? at[i] : -1;
}

/* Lengths of 0, 1, 3 and 4 in descriptors and INTLENs, and lengths past
 * the end of the block or file. */
static void
bad_lengths(const struct sample *s)
{
	static const unsigned lens[] = { 0, 1, 3, 4 };
	uint8_t *b = copy(s);
	char what[128];

	for (int i = 0; i < 4; i++)
		for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
			int u;
			struct expect e;

			if ((u = pick(i, s->nsegs)) >= 0) {
				size_t off = s->segs[u].off;
				expect_init(&e, 4);
				set16(b + off, lens[l]);
				expect_damage_at(s, &e, off, 4);
				if (lens[l] == 4)
					expect_misread(s, &e, off, 4);
				snprintf(what, sizeof what, "RDW/SDW at %zu: length %u", off, lens[l]);
				check(s, what, b, s->len, &e);
				memcpy(b + off, s->buf + off, 2);
			}
			if ((u = pick(i, s->nblocks)) >= 0) {
				size_t off = s->blocks[u].off;
				expect_init(&e, 4);
				set16(b + off, lens[l]);
				expect_damage_at(s, &e, off, 4);
				snprintf(what, sizeof what, "BDW at %zu: length %u", off, lens[l]);
				check(s, what, b, s->len, &e);
				memcpy(b + off, s->buf + off, 2);
			}
			if ((u = pick(i, s->npms)) >= 0) {
				const struct pmrec *p = &s->pms[u];
				size_t at0 = file_pos(s, p->lrec, p->doff), at1 = file_pos(s, p->lrec, p->doff + 1);
				expect_init(&e, 4);
				b[at0] = 0;
				b[at1] = (uint8_t)lens[l];
				expect_pm_damage(s, &e, p, 0, b);
				snprintf(what, sizeof what, "PM record at %zu: INTLEN %u", at0, lens[l]);
				check(s, what, b, s->len, &e);
				b[at0] = s->buf[at0];
				b[at1] = s->buf[at1];
			}
		}

	/* a segment overrunning its block */
	for (int g = 0; g < s->nsegs; g++) {
		const struct seg *sg = &s->segs[g];
		struct expect e;
		size_t end, len;

		if (sg->block < 0 || g + 1 >= s->nsegs || s->segs[g + 1].block != sg->block)
			continue;
		end = s->blocks[sg->block].off + s->blocks[sg->block].len;
		len = end - sg->off + 4;
		if (len > 32760)
			continue;
		expect_init(&e, 4);
		set16(b + sg->off, (uint32_t)len);
		expect_damage_at(s, &e, sg->off, 4);
		snprintf(what, sizeof what, "SDW at %zu: %zu bytes, past its block's end", sg->off, len);
		check(s, what, b, s->len, &e);
		memcpy(b + sg->off, s->buf + sg->off, 2);
	}
	/* the last unit's length past the end of the file */
	{
		struct expect e;
		size_t off;

		expect_init(&e, 4);
		if (s->kind == K_SMF_BDW) {
			off = s->blocks[s->nblocks - 1].off;
			set16(b + off, (uint32_t)(s->blocks[s->nblocks - 1].len + 100));
		} else if (s->kind == K_PM) {
			off = s->pms[s->npms - 1].doff;
			set16(b + off, (uint32_t)(s->pms[s->npms - 1].len + 100));
		} else {
			off = s->segs[s->nsegs - 1].off;
			set16(b + off, (uint32_t)(s->segs[s->nsegs - 1].len + 100));
		}
		expect_damage_at(s, &e, off, 2);
		snprintf(what, sizeof what, "last unit at %zu: length past the end of the file", off);
		check(s, what, b, s->len, &e);
		memcpy(b + off, s->buf + off, 2);
	}
	/* an extended BDW of the largest length: the blocks after it still
	 * walk, so only its own block is lost */
	for (int i = 0; i < 4; i++) {
		int u = pick(i, s->nblocks);
		struct expect e;
		size_t off;

		if (u < 0)
			continue;
		off = s->blocks[u].off;
		expect_init(&e, 4);
		set32(b + off, 0xffffffffu);
		expect_damage_at(s, &e, off, 4);
		snprintf(what, sizeof what, "BDW at %zu: x'FFFFFFFF'", off);
		check(s, what, b, s->len, &e);
		memcpy(b + off, s->buf + off, 4);
	}
	/* a block length ending inside the next block, where no BDW can
	 * follow: only the block itself is lost */
	for (int i = 0; i < 4; i++) {
		int u = pick(i, s->nblocks - 1);
		struct expect e;
		size_t off, len;

		if (u < 0)
			continue;
		off = s->blocks[u].off;
		len = s->blocks[u].len + s->blocks[u + 1].len / 2;
		if (!s->blocks[u].extended && len > 32760)
			continue;
		expect_init(&e, 4);
		put_bdw(s, b + off, u, len);
		expect_damage_at(s, &e, off, 4);
		snprintf(what, sizeof what, "BDW at %zu: length %zu, into the next block",
		         off, len);
		check(s, what, b, s->len, &e);
		memcpy(b + off, s->buf + off, 4);
	}
	/* a PM record's INTLEN past the end of its SMF record */
	for (int li = 0; li < s->nlrecs && s->kind != K_PM; li++) {
		const struct lrec *l = &s->lrecs[li];
		const struct pmrec *p;
		struct expect e;
		size_t at0, at1, len;

		if (l->npm == 0)
			continue;
		p = &s->pms[l->first_pm + l->npm - 1];
		at0 = file_pos(s, p->lrec, p->doff);
		at1 = file_pos(s, p->lrec, p->doff + 1);
		len = p->len + 4;
		expect_init(&e, 4);
		b[at0] = (uint8_t)(len >> 8);
		b[at1] = (uint8_t)len;
		expect_pm_damage(s, &e, p, 0, b);
		snprintf(what, sizeof what, "PM record at %zu: INTLEN past its record's end", at0);
		check(s, what, b, s->len, &e);
		b[at0] = s->buf[at0];
		b[at1] = s->buf[at1];
	}
	/* the extended-BDW bit on a short block */
	for (int i = 0; i < 4; i++) {
		int u = pick(i, s->nblocks);
		struct expect e;
		size_t off;

		if (u < 0 || s->blocks[u].extended)
			continue;
		off = s->blocks[u].off;
		/* read as the plain block it is, and said: nothing lost */
		expect_init(&e, 4);
		b[off] |= 0x80;
		e.msg_lo = off;
		e.msg_hi = off + 4;
		snprintf(what, sizeof what, "BDW at %zu: extended bit on a %zu-byte block", off,
		         s->blocks[u].len);
		check(s, what, b, s->len, &e);
		b[off] = s->buf[off];
	}
	free(b);
}

/* Write a 32-bit figure of PM record p through the file's layout. */
static void
put_field(const struct sample *s, uint8_t *b, const struct pmrec *p, int field,
          uint32_t v)
{
	size_t off = pm.lay.fields[field].offset;
	for (int i = 0; i < 4; i++)
		b[file_pos(s, p->lrec, p->doff + off + (size_t)i)] = (uint8_t)(v >> (24 - 8 * i));
}

static uint32_t
get_field(const struct sample *s, const struct pmrec *p, int field)
{
	size_t off = pm.lay.fields[field].offset;
	uint32_t v = 0;
	for (int i = 0; i < 4; i++)
		v = v << 8 | s->buf[file_pos(s, p->lrec, p->doff + off + (size_t)i)];
	return v;
}

static void
expect_in_record(const struct sample *s, struct expect *e, const struct pmrec *p)
{
	size_t at = file_pos(s, p->lrec, p->doff);
	e->msg_lo = s->kind == K_PM ? at : s->lrecs[p->lrec].off;
	e->msg_hi = at + p->len;
}

/* Interval records whose fields contradict themselves or the dates: bad
 * packed dates, end before start, a part number that does not fit the
 * length, implausible figures (kept as they are, with a warning). */
static void
bad_fields(const struct sample *s)
{
	uint8_t *b = copy(s);
	char what[256];
	int f_sdate = layout_field_index(&pm.lay, "INTSDATE"),
	    f_edate = layout_field_index(&pm.lay, "INTEDATE"),
	    f_stime = layout_field_index(&pm.lay, "INTSTIME"),
	    f_etime = layout_field_index(&pm.lay, "INTETIME");

	for (int k = 0; k < s->npms; k += record_step) {
		const struct pmrec *p = &s->pms[k];
		struct expect e;

		if (p->row < 0)
			continue;
		/* bad nibbles: a digit, the sign */
		static const struct { int date; uint32_t mask, value; const char *what; } nib[] = {
			{ 0, 0x0000f000, 0x0000b000, "INTSDATE digit x'B'" },
			{ 0, 0x0000000f, 0x00000000, "INTSDATE sign 0" },
			{ 1, 0x000f0000, 0x000e0000, "INTEDATE digit x'E'" },
			{ 1, 0x0000000f, 0x0000000a, "INTEDATE sign x'A'" },
		};
		for (size_t n = 0; n < sizeof nib / sizeof nib[0]; n++) {
			int f = nib[n].date ? f_edate : f_sdate;
			expect_init(&e, 4);
			put_field(s, b, p, f, (get_field(s, p, f) & ~nib[n].mask) | nib[n].value);
			e.touched[p->row] = true;
			expect_in_record(s, &e, p);
			snprintf(what, sizeof what, "PM record at %zu: %s",
			         file_pos(s, p->lrec, p->doff), nib[n].what);
			check(s, what, b, s->len, &e);
			put_field(s, b, p, f, get_field(s, p, f));
		}
		/* end before start: the start and end swapped */
		expect_init(&e, 4);
		put_field(s, b, p, f_sdate, p->edate);
		put_field(s, b, p, f_stime, p->etime);
		put_field(s, b, p, f_edate, p->sdate);
		put_field(s, b, p, f_etime, p->stime);
		e.touched[p->row] = true;
		expect_in_record(s, &e, p);
		snprintf(what, sizeof what, "PM record at %zu: end before start",
		         file_pos(s, p->lrec, p->doff));
		check(s, what, b, s->len, &e);
		put_field(s, b, p, f_sdate, p->sdate);
		put_field(s, b, p, f_stime, p->stime);
		put_field(s, b, p, f_edate, p->edate);
		put_field(s, b, p, f_etime, p->etime);
		/* a part number whose layout is longer (1, 2) or shorter (3) */
		for (unsigned seq = 1; seq <= 3; seq++) {
			size_t at = file_pos(s, p->lrec, p->doff + 3);
			if (seq == p->seq)
				continue;
			expect_init(&e, 4);
			b[at] = (uint8_t)seq;
			e.touched[p->row] = true;
			expect_in_record(s, &e, p);
			snprintf(what, sizeof what, "PM record at %zu: part %u labelled %u (%zu bytes)",
			         file_pos(s, p->lrec, p->doff), p->seq, seq, p->len);
			check(s, what, b, s->len, &e);
			b[at] = s->buf[at];
		}
	}

	/* implausible figures, in the first part 1 of each interval */
	for (int row = 0; row < s->nrows; row++) {
		const struct pmrec *p = NULL;
		int shown = 0;

		for (int k = 0; k < s->npms && !p; k++)
			if (s->pms[k].row == row && s->pms[k].seq == 1)
				p = &s->pms[k];
		for (size_t i = 0; p && i < pm.lay.nbuckets && shown < 4; i++) {
			const struct cb_bucket *bk = &pm.lay.buckets[i];
			uint64_t sum = s->rows[row].v[bk->sum], count = s->rows[row].v[bk->count],
			         dur = s->rows[row].duration;
			struct expect e;

			if (bk->part != 1 || count == 0 || sum == 0 || sum >= 0xfffffffe ||
			    dur + 1 >= 0xffffffff)
				continue;
			expect_init(&e, 4);
			expect_in_record(s, &e, p);
			e.over_row = row;
			if (shown == 0) {
				/* the highest wait above the sum */
				e.over_field[0] = bk->high;
				e.over_value[0] = sum + 1;
				e.nover = 1;
				snprintf(what, sizeof what, "%s: %sH above %sT", s->rows[row].key, bk->label,
				         bk->label);
			} else if (shown == 1) {
				/* a sum of wait times with no waits */
				e.over_field[0] = bk->count;
				e.over_value[0] = 0;
				e.nover = 1;
				snprintf(what, sizeof what, "%s: %sT with %s# zero", s->rows[row].key,
				         bk->label, bk->label);
			} else if (shown == 2) {
				/* an average above the highest: sum > highest x count */
				e.over_field[0] = bk->count;
				e.over_value[0] = 2;
				e.over_field[1] = bk->high;
				e.over_value[1] = (sum - 1) / 2;
				e.nover = 2;
				snprintf(what, sizeof what, "%s: %sT above %sH x 2 waits", s->rows[row].key,
				         bk->label, bk->label);
			} else {
				/* one wait longer than the interval: it began in an
				 * earlier one, so it is plausible and said nothing of */
				expect_init(&e, 0);
				e.silent = true;
				e.over_row = row;
				e.over_field[0] = bk->count;
				e.over_value[0] = 1;
				e.over_field[1] = bk->sum;
				e.over_value[1] = dur + 1;
				e.over_field[2] = bk->high;
				e.over_value[2] = dur + 1;
				e.nover = 3;
				snprintf(what, sizeof what, "%s: one %s wait longer than the interval",
				         s->rows[row].key, bk->label);
			}
			for (int k = 0; k < e.nover; k++)
				put_field(s, b, p, e.over_field[k], (uint32_t)e.over_value[k]);
			check(s, what, b, s->len, &e);
			for (int k = 0; k < e.nover; k++)
				put_field(s, b, p, e.over_field[k], get_field(s, p, e.over_field[k]));
			shown++;
		}
	}
	free(b);
}

/* ---- structural damage: segments left out, doubled, records inserted ---- */

struct piece {
	const uint8_t *p;
	size_t len;
	int block;         /* BDW: pieces of one block id share a block */
	size_t new_off;    /* where it lands */
};

/* A BDW for a block of len bytes, extended as the sample's was, or when a
 * halfword cannot hold it. */
static void
put_bdw(const struct sample *s, uint8_t *p, int block, size_t len)
{
	if (s->blocks[block].extended || len > 32760)
		set32(p, 0x80000000u | (uint32_t)len);
	else
		set32(p, (uint32_t)len << 16);
}

/* Lay pieces out as a file of the sample's framing, with fresh BDWs. */
static uint8_t *
lay_out(const struct sample *s, struct piece *pc, int n, size_t *len)
{
	size_t cap = s->len * 2 + 65536, at = 0, bdw = 0;
	uint8_t *out = malloc(cap);
	int block = -1;

	if (!out)
		die("out of memory");
	for (int i = 0; i < n; i++) {
		if (s->kind == K_SMF_BDW && pc[i].block != block) {
			if (block >= 0)
				put_bdw(s, out + bdw, block, at - bdw);
			block = pc[i].block;
			bdw = at;
			at += 4;
		}
		if (at + pc[i].len > cap)
			die("layout too large");
		memcpy(out + at, pc[i].p, pc[i].len);
		pc[i].new_off = at;
		at += pc[i].len;
	}
	if (s->kind == K_SMF_BDW && block >= 0)
		put_bdw(s, out + bdw, block, at - bdw);
	*len = at;
	return out;
}

/* The sample's segments as pieces; returns how many. */
static int
pieces(const struct sample *s, struct piece *pc)
{
	for (int g = 0; g < s->nsegs; g++) {
		pc[g].p = s->buf + s->segs[g].off;
		pc[g].len = s->segs[g].len;
		pc[g].block = s->segs[g].block;
	}
	return s->nsegs;
}

static void
structural(const struct sample *s, const char *what, struct piece *pc, int n,
           struct expect *e, int lo_piece, int hi_piece)
{
	size_t len;
	uint8_t *b = lay_out(s, pc, n, &len);

	if (!e->silent) {
		e->msg_lo = pc[lo_piece].new_off;
		e->msg_hi = pc[hi_piece].new_off + pc[hi_piece].len;
		/* a block's BDW comes first */
		if (s->kind == K_SMF_BDW && e->msg_lo >= 4)
			e->msg_lo -= 4;
	}
	check(s, what, b, len, e);
	free(b);
}

static void
segments_damaged(const struct sample *s)
{
	struct piece *pc = calloc((size_t)s->nsegs * 2 + 8, sizeof *pc);
	uint8_t *alt = malloc(s->len);
	char what[128];

	if (!pc || !alt)
		die("out of memory");
	for (int li = 0; li < s->nlrecs; li++) {
		const struct lrec *l = &s->lrecs[li];
		int f = l->first_seg, n, last = f + l->nsegs - 1;
		struct expect e;

		if (l->nsegs > 1) {
			/* orphans: the first segment left out; unended: the
			 * last */
			for (int end = 0; end < 2; end++) {
				int gone = end ? last : f;

				n = pieces(s, pc);
				memmove(pc + gone, pc + gone + 1,
				        (size_t)(n - gone - 1) * sizeof *pc);
				expect_init(&e, 4);
				touch_lrec(s, &e, li);
				snprintf(what, sizeof what, "record at %zu: %s segment left out",
				         l->off, end ? "last" : "first");
				structural(s, what, pc, n - 1, &e, f, last - 1);
			}
			/* each segment but the last written twice; a middle one
			 * twice only lengthens a record of another type */
			for (int g = f; g < last; g++) {
				n = pieces(s, pc);
				memmove(pc + g + 1, pc + g, (size_t)(n - g) * sizeof *pc);
				expect_init(&e, 4);
				if (g > f && l->type != 230) {
					e.rc[0] = 0;
					e.silent = true;
				}
				touch_lrec(s, &e, li);
				snprintf(what, sizeof what, "record at %zu: segment %d of %d twice",
				         l->off, g - f + 1, l->nsegs);
				structural(s, what, pc, n + 1, &e, f, last + 1);
			}
		}
		if (l->npm > 0 && (s->kind == K_SMF_RDW || s->kind == K_SMF_BDW)) {
			/* the whole record twice: duplicate parts, first copies kept */
			n = pieces(s, pc);
			memmove(pc + last + 1 + l->nsegs, pc + last + 1,
			        (size_t)(n - last - 1) * sizeof *pc);
			memcpy(pc + last + 1, pc + f, (size_t)l->nsegs * sizeof *pc);
			expect_init(&e, 4);
			snprintf(what, sizeof what, "record at %zu written twice", l->off);
			structural(s, what, pc, n + l->nsegs, &e, last + 1, last + l->nsegs);
			/* a copy of another SMF type, that looks like type 230 */
			static const uint8_t types[] = { 231, 30 };
			for (size_t t = 0; t < sizeof types; t++) {
				n = pieces(s, pc);
				memcpy(alt, s->buf + s->segs[f].off, s->segs[f].len);
				alt[SMF_TYPE_AT] = types[t];
				memmove(pc + last + 1 + l->nsegs, pc + last + 1,
				        (size_t)(n - last - 1) * sizeof *pc);
				memcpy(pc + last + 1, pc + f, (size_t)l->nsegs * sizeof *pc);
				pc[last + 1].p = alt;
				expect_init(&e, 0);
				e.silent = true;
				snprintf(what, sizeof what, "record at %zu copied as SMF type %u", l->off,
				         types[t]);
				structural(s, what, pc, n + l->nsegs, &e, 0, 0);
			}
			/* the record itself made another type */
			n = pieces(s, pc);
			memcpy(alt, s->buf + s->segs[f].off, s->segs[f].len);
			alt[SMF_TYPE_AT] = 231;
			pc[f].p = alt;
			expect_init(&e, 0);
			touch_lrec(s, &e, li);
			for (int k = 0; k < s->npms; k++)
				if (s->pms[k].row >= 0 && s->pms[k].lrec != li && e.touched[s->pms[k].row])
					e.rc[0] = 4; /* an interval with parts elsewhere is left incomplete */
			e.silent = e.rc[0] == 0;
			snprintf(what, sizeof what, "record at %zu made SMF type 231", l->off);
			structural(s, what, pc, n, &e, 0, n - 1);
		}
	}
	free(pc);
	free(alt);
}

int
main(int argc, char **argv)
{
	static struct sample s;
	const char *kinds[] = { "pm", "rdw-pm", "smf-rdw", "smf-bdw" };
	size_t step = 1;
	char err[128];
	double t0 = now();

	if (argc < 4)
		die("usage: corrupt KIND FILE TRUTH [--step=N] [--record-step=N] "
		    "[--source=LABEL] [-v]");
	if (pmint_load(&pm, err, sizeof err) != PM_OK)
		die("%s", err);
	s.kind = (enum kind)-1;
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (strcmp(argv[1], kinds[i]) == 0)
			s.kind = (enum kind)i;
	if ((int)s.kind < 0)
		die("unknown kind %s", argv[1]);
	s.name = argv[2];
	s.label = "";
	for (int i = 4; i < argc; i++) {
		if (strncmp(argv[i], "--step=", 7) == 0)
			step = strtoul(argv[i] + 7, NULL, 10);
		else if (strncmp(argv[i], "--record-step=", 14) == 0)
			record_step = atoi(argv[i] + 14) > 0 ? atoi(argv[i] + 14) : 1;
		else if (strncmp(argv[i], "--source=", 9) == 0)
			s.label = argv[i] + 9;
		else if (strcmp(argv[i], "-v") == 0)
			verbose = true;
		else
			die("unknown option %s", argv[i]);
	}
	s.buf = slurp(argv[2], &s.len);
	if (!s.buf)
		die("%s: cannot open", argv[2]);
	read_truth(&s, argv[3]);
	walk(&s);
	if (s.nrows == 0)
		die("%s: no intervals in the truth", argv[3]);

	{
		struct expect e;
		expect_init(&e, 0);
		e.silent = true;
		if (!check(&s, "undamaged", s.buf, s.len, &e))
			die("the undamaged sample does not read as the truth says");
	}
	truncations(&s, step ? step : 1);
	flip_pm_headers(&s);
	flip_descriptors(&s);
	bad_lengths(&s);
	bad_fields(&s);
	if (s.kind != K_PM)
		segments_damaged(&s);

	printf("%s: %d blocks, %d segments, %d records, %d PM records, %d intervals; "
	       "slowest case %.3f s, all %.1f s\n", s.name, s.nblocks, s.nsegs,
	       s.nlrecs, s.npms, s.nrows, slowest, now() - t0);
	printf("%lu passed, %lu failed\n", passed, failed);
	return failed != 0;
}
