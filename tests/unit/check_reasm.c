/* check_reasm.c: interval reassembly. Every record is built here through
 * the #PMINTDS layout, so each expected value is known from the input the
 * test itself constructed. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "check_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "pmim/coverage.h"
#include "core/diag.h"
#include "pmim/pmint.h"
#include "pmim/pmtime.h"
#include "pmim/reasm.h"
#include "core/tally.h"

#define REC_MAX 512
#define BASE_OFFSET 4096 /* file offset of the first record fed */
#define REC_STRIDE 256   /* each record fed sits this far after the last */
#define QUARTER_HOUR 9000000u /* 15 minutes in 10**-4 s */

static struct pmint pm;
/* The fields each part carries a distinctive value in: two per part, the
 * first and the last of parts 1 and 2, and both 8-byte ends of part 3. */
static int f_tstr, f_dbirt, f_dbkyt, f_xli, f_syti, f_enti;

/* What the callback saw of one emitted interval. */
struct seen {
	uint32_t source, sdate, stime, edate, etime;
	int64_t start, end;
	unsigned parts;
	uint64_t offset;
	uint64_t tstr, dbirt, dbkyt, xli, syti, enti;
};

struct harness {
	struct diag diag;
	struct tally tally;
	FILE *out;
	char *msg;
	size_t msglen;
	struct reasm *r;
	struct coverage *cov;    /* NULL unless h_open_covered */
	struct sources names;
	uint64_t next_offset;
	struct seen *seen;
	size_t nseen, cap;
};

static void
on_interval(const struct interval *iv, void *ctx)
{
	struct harness *t = ctx;
	struct seen *s;

	ck_assert_uint_lt(t->nseen, t->cap);
	s = &t->seen[t->nseen++];
	s->source = iv->source;
	s->sdate = iv->sdate;
	s->stime = iv->stime;
	s->edate = iv->edate;
	s->etime = iv->etime;
	s->start = iv->start;
	s->end = iv->end;
	s->parts = iv->parts;
	s->offset = iv->offset;
	s->tstr = iv->v[f_tstr];
	s->dbirt = iv->v[f_dbirt];
	s->dbkyt = iv->v[f_dbkyt];
	s->xli = iv->v[f_xli];
	s->syti = iv->v[f_syti];
	s->enti = iv->v[f_enti];
}

static void
h_open(struct harness *t, size_t max_pending, uint64_t horizon, size_t cap)
{
	struct reasm_opts o = { max_pending, horizon, NULL, NULL };
	pm_status st;

	memset(t, 0, sizeof *t);
	t->out = open_memstream(&t->msg, &t->msglen);
	ck_assert_ptr_nonnull(t->out);
	diag_init(&t->diag, "pmimrpt", t->out);
	t->diag.file = "test.dat";
	t->diag.max_per_status = 0;
	t->seen = calloc(cap, sizeof *t->seen);
	ck_assert_ptr_nonnull(t->seen);
	t->cap = cap;
	t->next_offset = BASE_OFFSET;
	st = reasm_open(&t->r, &pm, &o, on_interval, t, &t->diag, &t->tally);
	ck_assert_ptr_nonnull(t->r);
	ck_assert_int_eq(st, PM_OK);
}

static const char *
h_messages(struct harness *t)
{
	fflush(t->out);
	return t->msg;
}

/* h_open, with a coverage asked before each interval is emitted. */
static void
h_open_covered(struct harness *t, size_t max_pending, uint64_t horizon, size_t cap)
{
	struct coverage_opts co = { 100, NULL };
	struct reasm_opts o = { max_pending, horizon, NULL, NULL };
	pm_status st;

	h_open(t, max_pending, horizon, cap);
	reasm_close(t->r);
	ck_assert_int_eq(sources_init(&t->names, 16), PM_OK);
	ck_assert_int_eq(coverage_open(&t->cov, &co, &t->names, &t->diag, &t->tally),
	                 PM_OK);
	o.coverage = t->cov;
	ck_assert_ptr_nonnull(t->cov);
	st = reasm_open(&t->r, &pm, &o, on_interval, t, &t->diag, &t->tally);
	ck_assert_int_eq(st, PM_OK);
}

static void
h_close(struct harness *t)
{
	reasm_close(t->r);
	coverage_close(t->cov);
	sources_free(&t->names);
	fclose(t->out);
	free(t->msg);
	free(t->seen);
}

static void
put_field(uint8_t *buf, const char *name, uint64_t value)
{
	const struct cb_field *f = layout_field(&pm.lay, name);

	ck_assert_msg(f != NULL, "no field %s", name);
	put_be(buf + f->offset, (unsigned)f->length, value);
}

/* Interval number n is the n-th quarter hour from 2024-04-09 (day 100)
 * 00:00, so interval 40 is 10:00:00 to 10:15:00. */
static uint32_t
iv_sdate(unsigned n)
{
	return pmtime_pdate_encode(2024, 100 + (int)(n / 96));
}

static uint32_t
iv_stime(unsigned n)
{
	return n % 96 * QUARTER_HOUR;
}

/* Feed part seq of interval n from source, len bytes long, carrying mark:
 * part 1 has INT#TSTR = mark + 1 and INTDBIRT = mark + 2, part 2 INTDBKYT =
 * mark + 3 and INTXLI# = mark + 4, part 3 INTSYTI = 0x0123456700000000 +
 * mark and INTENTI = mark + 6. */
static pm_status
h_feed_len(struct harness *t, uint32_t source, unsigned n, unsigned seq,
           uint32_t mark, size_t len)
{
	uint8_t buf[REC_MAX] = { 0 };
	struct span rec = span_make(buf, len);
	struct pm_header h;
	struct pm_part p;
	int64_t start, end;
	uint64_t *v;
	pm_status st;

	ck_assert_uint_le(len, REC_MAX);
	put_field(buf, "INTLEN", len);
	put_field(buf, "INTRTYPE", 5);
	put_field(buf, "INTSEQ#", seq);
	put_field(buf, "INTVER#", 1);
	put_field(buf, "INTSDATE", iv_sdate(n));
	put_field(buf, "INTSTIME", iv_stime(n));
	put_field(buf, "INTEDATE", iv_sdate(n));
	put_field(buf, "INTETIME", iv_stime(n) + QUARTER_HOUR);
	if (seq == 1) {
		put_field(buf, "INT#TSTR", mark + 1);
		put_field(buf, "INTDBIRT", mark + 2);
	} else if (seq == 2) {
		put_field(buf, "INTDBKYT", mark + 3);
		put_field(buf, "INTXLI#", mark + 4);
	} else if (seq == 3) {
		put_field(buf, "INTSYTI", 0x0123456700000000ULL + mark);
		put_field(buf, "INTENTI", mark + 6);
	}
	ck_assert_int_eq(pmint_header_read(&pm, rec, &h), PM_OK);
	ck_assert_int_eq(pmtime_stamp(h.sdate, h.stime, 10000, &start), PM_OK);
	ck_assert_int_eq(pmtime_stamp(h.edate, h.etime, 10000, &end), PM_OK);
	/* decoded where reassembly says, as the PM stage does, then taken */
	p = (struct pm_part){ source, h.sdate, h.stime, h.edate, h.etime, start, end,
	                      h.seq, PM_OK, t->next_offset };
	if ((v = reasm_place(t->r, &p)) != NULL)
		p.decoded = pmint_part_decode(&pm, &h, rec, v, &(bool){ false });
	st = reasm_part(t->r, &p);
	t->next_offset += REC_STRIDE;
	return st;
}

/* Parts 1, 2 and 3 are 240, 244 and 192 bytes (INT1DSLN, INT2DSLN,
 * INT3DSLN in the listing). */
static size_t
part_len(unsigned seq)
{
	static const size_t len[] = { 0, 240, 244, 192 };
	return seq >= 1 && seq <= 3 ? len[seq] : 240;
}

static pm_status
h_feed(struct harness *t, uint32_t source, unsigned n, unsigned seq,
       uint32_t mark)
{
	return h_feed_len(t, source, n, seq, mark, part_len(seq));
}

static void
assert_part_values(const struct seen *s, unsigned seq, uint32_t mark)
{
	if (seq == 1) {
		ck_assert_uint_eq(s->tstr, mark + 1);
		ck_assert_uint_eq(s->dbirt, mark + 2);
	} else if (seq == 2) {
		ck_assert_uint_eq(s->dbkyt, mark + 3);
		ck_assert_uint_eq(s->xli, mark + 4);
	} else {
		ck_assert_uint_eq(s->syti, 0x0123456700000000ULL + mark);
		ck_assert_uint_eq(s->enti, mark + 6);
	}
}

START_TEST(test_layout_as_expected)
{
	/* The sizes this file relies on, straight from the listing. */
	ck_assert_uint_eq(pm.nparts, 3);
	ck_assert_uint_eq(pm.part_len[1], 240);
	ck_assert_uint_eq(pm.part_len[2], 244);
	ck_assert_uint_eq(pm.part_len[3], 192);
}
END_TEST

START_TEST(test_all_parts)
{
	struct harness t;

	h_open(&t, 4, 0, 1);
	ck_assert_uint_eq(pmint_all_parts(&pm), 0x0E);
	h_close(&t);
}
END_TEST

static const unsigned perms[6][3] = {
	{ 1, 2, 3 }, { 1, 3, 2 }, { 2, 1, 3 }, { 2, 3, 1 }, { 3, 1, 2 }, { 3, 2, 1 },
};

/* Any order of the three parts gives one complete interval, with each
 * part's values, the first part's offset and the key of the record. */
START_TEST(test_any_order)
{
	struct harness t;
	const struct seen *s;

	h_open(&t, 4, 100, 4);
	for (int k = 0; k < 3; k++) {
		ck_assert_uint_eq(t.nseen, 0);
		ck_assert_int_eq(h_feed(&t, 7, 40, perms[_i][k], 100 * perms[_i][k]),
		                 PM_OK);
	}
	ck_assert_uint_eq(t.nseen, 1);
	s = &t.seen[0];
	ck_assert_uint_eq(s->parts, 0x0E);
	ck_assert_uint_eq(s->source, 7);
	ck_assert_uint_eq(s->sdate, 0x0124100F);
	ck_assert_uint_eq(s->stime, 360000000);
	ck_assert_uint_eq(s->edate, 0x0124100F);
	ck_assert_uint_eq(s->etime, 369000000);
	/* 2024-04-09 is day 19822 after 1970-01-01. */
	ck_assert_int_eq(s->start, (19822LL * 86400 + 36000) * 10000);
	ck_assert_int_eq(s->end, (19822LL * 86400 + 36900) * 10000);
	ck_assert_uint_eq(s->offset, BASE_OFFSET);
	assert_part_values(s, 1, 100);
	assert_part_values(s, 2, 200);
	assert_part_values(s, 3, 300);
	reasm_finish(t.r);
	ck_assert_uint_eq(t.nseen, 1);
	ck_assert_uint_eq(t.tally.intervals_complete, 1);
	ck_assert_uint_eq(t.tally.intervals_incomplete, 0);
	ck_assert_str_eq(h_messages(&t), "");
	h_close(&t);
}
END_TEST

START_TEST(test_duplicate_first_kept)
{
	struct harness t;
	const char *msg;

	h_open(&t, 4, 100, 4);
	ck_assert_int_eq(h_feed(&t, 7, 40, 1, 100), PM_OK);       /* 4096 */
	ck_assert_int_eq(h_feed(&t, 7, 40, 2, 200), PM_OK);       /* 4352 */
	ck_assert_int_eq(h_feed(&t, 7, 40, 1, 900),               /* 4608 */
	                 PM_E_DUPLICATE_PART);
	ck_assert_uint_eq(t.nseen, 0);
	ck_assert_int_eq(h_feed(&t, 7, 40, 3, 300), PM_OK);
	ck_assert_uint_eq(t.nseen, 1);
	ck_assert_uint_eq(t.seen[0].parts, 0x0E);
	assert_part_values(&t.seen[0], 1, 100);
	ck_assert_uint_eq(t.tally.duplicate_parts, 1);
	ck_assert_uint_eq(t.tally.intervals_complete, 1);
	ck_assert_uint_eq(t.diag.count[PM_E_DUPLICATE_PART], 1);
	msg = h_messages(&t);
	ck_assert_ptr_nonnull(strstr(msg, "duplicate"));
	ck_assert_ptr_nonnull(strstr(msg, "test.dat: offset 4608 (0x1200): warning:"));
	ck_assert_ptr_nonnull(strstr(msg, "part 1 of interval 2024-04-09 10:00:00 to "
	                                  "2024-04-09 10:15:00"));
	ck_assert_ptr_nonnull(strstr(msg, "first copy at offset 4096"));
	h_close(&t);
}
END_TEST

/* Where a part's figures go: nowhere for a duplicate, which must not
 * overwrite the first copy's; the slot of its interval otherwise, left as
 * it was when the part is not taken. */
START_TEST(test_place_spares_first_copy)
{
	struct harness t;
	struct pm_part p = { 7, iv_sdate(40), iv_stime(40), iv_sdate(40),
	                     iv_stime(40) + QUARTER_HOUR, 0, 0, 1, PM_OK, 9999 };
	uint64_t *v;

	h_open(&t, 4, 0, 4);
	ck_assert_int_eq(h_feed(&t, 7, 40, 1, 100), PM_OK);
	ck_assert_int_eq(h_feed(&t, 7, 40, 2, 200), PM_OK);
	ck_assert_int_eq(pmtime_stamp(p.sdate, p.stime, 10000, &p.start), PM_OK);
	ck_assert_int_eq(pmtime_stamp(p.edate, p.etime, 10000, &p.end), PM_OK);
	ck_assert_ptr_null(reasm_place(t.r, &p));
	ck_assert_int_eq(reasm_part(t.r, &p), PM_E_DUPLICATE_PART);
	p.seq = 3;
	p.decoded = PM_E_SHORT_PART;
	v = reasm_place(t.r, &p);
	ck_assert_ptr_nonnull(v);
	ck_assert_uint_eq(v[f_tstr], 101);
	ck_assert_int_eq(reasm_part(t.r, &p), PM_E_SHORT_PART);
	ck_assert_uint_eq(t.nseen, 0);
	ck_assert_int_eq(h_feed(&t, 7, 40, 3, 300), PM_OK);
	ck_assert_uint_eq(t.nseen, 1);
	ck_assert_uint_eq(t.seen[0].parts, 0x0E);
	assert_part_values(&t.seen[0], 1, 100);
	assert_part_values(&t.seen[0], 2, 200);
	assert_part_values(&t.seen[0], 3, 300);
	ck_assert_uint_eq(t.tally.duplicate_parts, 1);
	h_close(&t);
}
END_TEST

START_TEST(test_missing_part_at_finish)
{
	struct harness t;
	const struct seen *s;
	const char *msg;

	h_open(&t, 4, 100, 4);
	ck_assert_int_eq(h_feed(&t, 7, 40, 1, 100), PM_OK);
	ck_assert_int_eq(h_feed(&t, 7, 40, 3, 300), PM_OK);
	ck_assert_uint_eq(t.nseen, 0);
	reasm_finish(t.r);
	ck_assert_uint_eq(t.nseen, 1);
	s = &t.seen[0];
	ck_assert_uint_eq(s->parts, 0x0A);
	assert_part_values(s, 1, 100);
	assert_part_values(s, 3, 300);
	ck_assert_uint_eq(s->dbkyt, 0);
	ck_assert_uint_eq(s->xli, 0);
	ck_assert_uint_eq(t.tally.intervals_incomplete, 1);
	ck_assert_uint_eq(t.tally.intervals_complete, 0);
	ck_assert_uint_eq(t.diag.count[PM_E_INCOMPLETE], 1);
	msg = h_messages(&t);
	ck_assert_ptr_nonnull(strstr(msg, "test.dat: offset 4096 (0x1000): warning: "
	                                  "interval is missing parts"));
	ck_assert_ptr_nonnull(strstr(msg, "interval 2024-04-09 10:00:00 to "
	                                  "2024-04-09 10:15:00: has parts 1,3, lacks 2"));
	h_close(&t);
}
END_TEST

/* A slot used before must not leak the values of a part that never came. */
START_TEST(test_missing_part_reads_zero_in_reused_slot)
{
	struct harness t;

	h_open(&t, 1, 0, 4);
	for (unsigned n = 0; n < 2; n++)
		for (unsigned p = 1; p <= 3; p++)
			ck_assert_int_eq(h_feed(&t, 7, n, p, 1000 * (n + 1)), PM_OK);
	ck_assert_int_eq(h_feed(&t, 7, 2, 1, 5000), PM_OK);
	ck_assert_int_eq(h_feed(&t, 7, 3, 2, 6000), PM_OK);
	reasm_finish(t.r);
	ck_assert_uint_eq(t.nseen, 4);
	ck_assert_uint_eq(t.seen[2].parts, 0x02);
	assert_part_values(&t.seen[2], 1, 5000);
	ck_assert_uint_eq(t.seen[2].dbkyt, 0);
	ck_assert_uint_eq(t.seen[2].xli, 0);
	ck_assert_uint_eq(t.seen[2].syti, 0);
	ck_assert_uint_eq(t.seen[2].enti, 0);
	ck_assert_uint_eq(t.seen[3].parts, 0x04);
	ck_assert_uint_eq(t.seen[3].tstr, 0);
	ck_assert_uint_eq(t.seen[3].dbirt, 0);
	ck_assert_uint_eq(t.seen[3].syti, 0);
	h_close(&t);
}
END_TEST

START_TEST(test_sources_kept_apart)
{
	struct harness t;

	h_open(&t, 4, 100, 4);
	ck_assert_int_eq(h_feed(&t, 1, 40, 1, 1000), PM_OK);
	ck_assert_int_eq(h_feed(&t, 2, 40, 1, 2000), PM_OK);
	ck_assert_int_eq(h_feed(&t, 2, 40, 2, 2000), PM_OK);
	ck_assert_int_eq(h_feed(&t, 1, 40, 2, 1000), PM_OK);
	ck_assert_int_eq(h_feed(&t, 2, 40, 3, 2000), PM_OK);
	ck_assert_uint_eq(t.nseen, 0); /* source 2 waits behind source 1 */
	ck_assert_int_eq(h_feed(&t, 1, 40, 3, 1000), PM_OK);
	ck_assert_uint_eq(t.nseen, 2);
	ck_assert_uint_eq(t.seen[0].source, 1);
	ck_assert_uint_eq(t.seen[0].offset, BASE_OFFSET);
	ck_assert_uint_eq(t.seen[1].source, 2);
	ck_assert_uint_eq(t.seen[1].offset, BASE_OFFSET + REC_STRIDE);
	for (unsigned p = 1; p <= 3; p++) {
		assert_part_values(&t.seen[0], p, 1000);
		assert_part_values(&t.seen[1], p, 2000);
	}
	ck_assert_uint_eq(t.seen[0].parts, 0x0E);
	ck_assert_uint_eq(t.seen[1].parts, 0x0E);
	ck_assert_uint_eq(t.tally.duplicate_parts, 0);
	h_close(&t);
}
END_TEST

/* Intervals come out in the order of their first parts, whichever
 * completes first. */
START_TEST(test_interleaved_first_part_order)
{
	static const unsigned feed[][2] = {  /* interval, part */
		{ 10, 1 }, { 11, 1 }, { 12, 1 }, { 11, 2 }, { 12, 2 },
		{ 11, 3 }, { 12, 3 }, { 10, 2 },
	};
	struct harness t;

	h_open(&t, 4, 100, 4);
	for (size_t k = 0; k < sizeof feed / sizeof feed[0]; k++)
		ck_assert_int_eq(h_feed(&t, 7, feed[k][0], feed[k][1], 10 * feed[k][0]),
		                 PM_OK);
	ck_assert_uint_eq(t.nseen, 0);
	ck_assert_int_eq(h_feed(&t, 7, 10, 3, 100), PM_OK);
	ck_assert_uint_eq(t.nseen, 3);
	ck_assert_uint_eq(t.seen[0].stime, 10 * QUARTER_HOUR);
	ck_assert_uint_eq(t.seen[0].offset, BASE_OFFSET);
	ck_assert_uint_eq(t.seen[1].stime, 11 * QUARTER_HOUR);
	ck_assert_uint_eq(t.seen[1].offset, BASE_OFFSET + REC_STRIDE);
	ck_assert_uint_eq(t.seen[2].stime, 12 * QUARTER_HOUR);
	ck_assert_uint_eq(t.seen[2].offset, BASE_OFFSET + 2 * REC_STRIDE);
	for (unsigned i = 0; i < 3; i++) {
		ck_assert_uint_eq(t.seen[i].parts, 0x0E);
		assert_part_values(&t.seen[i], 2, 100 + 10 * i);
	}
	ck_assert_uint_eq(t.tally.intervals_complete, 3);
	h_close(&t);
}
END_TEST

/* horizon 6: interval A (missing part 3) goes out incomplete once six more
 * parts have come after its first, before the end of input, and the
 * complete B behind it follows at once. */
START_TEST(test_horizon_evicts_before_finish)
{
	struct harness t;
	const char *msg;

	h_open(&t, 64, 6, 8);
	h_feed(&t, 7, 20, 1, 0);      /* A1 */
	h_feed(&t, 7, 20, 2, 0);      /* A2: 1 after A1 */
	h_feed(&t, 7, 21, 1, 0);      /* B */
	h_feed(&t, 7, 21, 2, 0);
	h_feed(&t, 7, 21, 3, 0);
	h_feed(&t, 7, 22, 1, 0);      /* C1: 5 after A1 */
	ck_assert_uint_eq(t.nseen, 0);
	h_feed(&t, 7, 22, 2, 0);      /* C2: 6 after A1 */
	ck_assert_uint_eq(t.nseen, 2);
	ck_assert_uint_eq(t.seen[0].stime, 20 * QUARTER_HOUR);
	ck_assert_uint_eq(t.seen[0].parts, 0x06);
	ck_assert_uint_eq(t.seen[1].stime, 21 * QUARTER_HOUR);
	ck_assert_uint_eq(t.seen[1].parts, 0x0E);
	ck_assert_uint_eq(t.tally.intervals_incomplete, 1);
	h_feed(&t, 7, 22, 3, 0);
	ck_assert_uint_eq(t.nseen, 3);
	ck_assert_uint_eq(t.seen[2].stime, 22 * QUARTER_HOUR);
	ck_assert_uint_eq(t.seen[2].parts, 0x0E);
	reasm_finish(t.r);
	ck_assert_uint_eq(t.nseen, 3);
	ck_assert_uint_eq(t.tally.intervals_complete, 2);
	ck_assert_uint_eq(t.tally.intervals_incomplete, 1);
	msg = h_messages(&t);
	ck_assert_ptr_nonnull(strstr(msg, "offset 4096 (0x1000): warning: "
	                                  "interval is missing parts: interval "
	                                  "2024-04-09 05:00:00 to 2024-04-09 05:15:00: "
	                                  "has parts 1,2, lacks 3"));
	h_close(&t);
}
END_TEST

/* 10,000 intervals, each missing part 2, with room for 16: the queue never
 * holds more than 16, all come out incomplete and in order. */
START_TEST(test_pending_limit_bounds_queue)
{
	enum { N = 10000, MAX_PENDING = 16 };
	struct harness t;

	h_open(&t, MAX_PENDING, 0, N);
	for (unsigned n = 0; n < N; n++) {
		ck_assert_int_eq(h_feed(&t, 3, n, 1, n), PM_OK);
		ck_assert_int_eq(h_feed(&t, 3, n, 3, n), PM_OK);
		ck_assert_uint_eq(t.nseen, n + 1 > MAX_PENDING ? n + 1 - MAX_PENDING : 0);
	}
	reasm_finish(t.r);
	ck_assert_uint_eq(t.nseen, N);
	for (unsigned n = 0; n < N; n++) {
		const struct seen *s = &t.seen[n];
		ck_assert_uint_eq(s->offset, BASE_OFFSET + 2ULL * REC_STRIDE * n);
		ck_assert_uint_eq(s->parts, 0x0A);
		assert_part_values(s, 1, n);
		assert_part_values(s, 3, n);
		ck_assert_uint_eq(s->dbkyt, 0);
	}
	ck_assert_uint_eq(t.tally.intervals_incomplete, N);
	ck_assert_uint_eq(t.tally.intervals_complete, 0);
	ck_assert_uint_eq(t.diag.count[PM_E_PENDING_LIMIT], 1);
	ck_assert_uint_eq(t.diag.count[PM_E_INCOMPLETE], N);
	/* The limit is reported at the part that first overflowed it: the
	 * first part of interval 16. */
	ck_assert_ptr_nonnull(strstr(h_messages(&t),
	                             "offset 12288 (0x3000): warning: too many "
	                             "pending intervals"));
	h_close(&t);
}
END_TEST

START_TEST(test_short_part_rejected)
{
	struct harness t;

	h_open(&t, 4, 100, 4);
	/* A short first part creates nothing. */
	ck_assert_int_eq(h_feed_len(&t, 7, 40, 2, 200, 100), PM_E_SHORT_PART);
	reasm_finish(t.r);
	ck_assert_uint_eq(t.nseen, 0);
	/* A short later part is not added, so its full copy is no duplicate. */
	ck_assert_int_eq(h_feed(&t, 7, 41, 1, 100), PM_OK);
	ck_assert_int_eq(h_feed_len(&t, 7, 41, 2, 900, 243), PM_E_SHORT_PART);
	ck_assert_int_eq(h_feed(&t, 7, 41, 2, 200), PM_OK);
	ck_assert_int_eq(h_feed(&t, 7, 41, 3, 300), PM_OK);
	ck_assert_uint_eq(t.nseen, 1);
	ck_assert_uint_eq(t.seen[0].parts, 0x0E);
	assert_part_values(&t.seen[0], 2, 200);
	ck_assert_uint_eq(t.tally.duplicate_parts, 0);
	ck_assert_uint_eq(t.tally.intervals_complete, 1);
	ck_assert_uint_eq(t.tally.intervals_incomplete, 0);
	/* The caller reports damage, not the reassembler. */
	ck_assert_str_eq(h_messages(&t), "");
	h_close(&t);
}
END_TEST

START_TEST(test_bad_sequence_rejected)
{
	struct harness t;

	h_open(&t, 4, 100, 4);
	ck_assert_int_eq(h_feed(&t, 7, 40, 4, 0), PM_E_BAD_SEQUENCE);
	ck_assert_int_eq(h_feed(&t, 7, 40, 0, 0), PM_E_BAD_SEQUENCE);
	ck_assert_int_eq(h_feed(&t, 7, 41, 1, 100), PM_OK);
	ck_assert_int_eq(h_feed(&t, 7, 41, 0, 0), PM_E_BAD_SEQUENCE);
	ck_assert_int_eq(h_feed(&t, 7, 41, 255, 0), PM_E_BAD_SEQUENCE);
	reasm_finish(t.r);
	ck_assert_uint_eq(t.nseen, 1);
	ck_assert_uint_eq(t.seen[0].parts, 0x02);
	ck_assert_uint_eq(t.seen[0].offset, BASE_OFFSET + 2 * REC_STRIDE);
	h_close(&t);
}
END_TEST

START_TEST(test_long_part_decoded)
{
	struct harness t;

	h_open(&t, 4, 100, 4);
	ck_assert_int_eq(h_feed_len(&t, 7, 40, 1, 100, 256), PM_E_LONG_PART);
	ck_assert_int_eq(h_feed(&t, 7, 40, 2, 200), PM_OK);
	ck_assert_int_eq(h_feed_len(&t, 7, 40, 3, 300, 200), PM_E_LONG_PART);
	ck_assert_uint_eq(t.nseen, 1);
	ck_assert_uint_eq(t.seen[0].parts, 0x0E);
	assert_part_values(&t.seen[0], 1, 100);
	assert_part_values(&t.seen[0], 3, 300);
	h_close(&t);
}
END_TEST

/* A part of an interval already emitted complete starts a new interval;
 * without a coverage it is emitted, incomplete. */
START_TEST(test_part_after_completion)
{
	struct harness t;

	h_open(&t, 4, 100, 4);
	for (unsigned p = 1; p <= 3; p++)
		ck_assert_int_eq(h_feed(&t, 7, 40, p, 100), PM_OK);
	ck_assert_uint_eq(t.nseen, 1);
	ck_assert_int_eq(h_feed(&t, 7, 40, 2, 900), PM_OK);
	reasm_finish(t.r);
	ck_assert_uint_eq(t.nseen, 2);
	ck_assert_uint_eq(t.seen[1].parts, 0x04);
	ck_assert_uint_eq(t.tally.intervals_complete, 1);
	ck_assert_uint_eq(t.tally.intervals_incomplete, 1);
	ck_assert_uint_eq(t.tally.duplicate_parts, 0);
	h_close(&t);
}
END_TEST

/* With a coverage, that part's interval lies in covered time: it is left
 * out as a duplicate, not reported as incomplete, and said once. */
START_TEST(test_duplicate_after_completion)
{
	struct harness t;

	h_open_covered(&t, 4, 100, 4);
	for (unsigned p = 1; p <= 3; p++)
		ck_assert_int_eq(h_feed(&t, 7, 40, p, 100), PM_OK);
	ck_assert_int_eq(h_feed(&t, 7, 40, 2, 900), PM_OK);    /* 4864 */
	reasm_finish(t.r);
	coverage_finish(t.cov);
	ck_assert_uint_eq(t.nseen, 1);
	assert_part_values(&t.seen[0], 2, 100);
	ck_assert_uint_eq(t.tally.intervals_complete, 1);
	ck_assert_uint_eq(t.tally.intervals_incomplete, 0);
	ck_assert_uint_eq(t.tally.intervals_duplicate, 1);
	ck_assert_uint_eq(t.diag.count[PM_E_INCOMPLETE], 0);
	ck_assert_uint_eq(t.diag.count[PM_E_DUPLICATE_INTERVAL], 1);
	ck_assert_ptr_nonnull(strstr(h_messages(&t), "test.dat: offset 4864 (0x1300): "
	                             "warning: duplicate interval"));
	ck_assert_ptr_nonnull(strstr(h_messages(&t), "1 interval of  from 2024-04-09 "
	                             "10:00:00 to 2024-04-09 10:15:00; first copy among "
	                             "the intervals of test.dat from offset 4096"));
	h_close(&t);
}
END_TEST

/* A whole interval still waiting (behind one that lacks a part) and then
 * fed again: the copy is an interval of its own, not three duplicate
 * parts, and the coverage leaves it out. */
START_TEST(test_whole_copy_while_waiting)
{
	struct harness t;

	h_open_covered(&t, 8, 0, 4);
	ck_assert_int_eq(h_feed(&t, 7, 39, 1, 50), PM_OK);  /* holds the queue */
	for (unsigned p = 1; p <= 3; p++)
		ck_assert_int_eq(h_feed(&t, 7, 40, p, 100), PM_OK);
	for (unsigned p = 1; p <= 3; p++)
		ck_assert_int_eq(h_feed(&t, 7, 40, p, 900), PM_OK);
	ck_assert_uint_eq(t.nseen, 0);
	reasm_finish(t.r);
	coverage_finish(t.cov);
	ck_assert_uint_eq(t.nseen, 2);
	assert_part_values(&t.seen[1], 1, 100);
	assert_part_values(&t.seen[1], 3, 100);
	ck_assert_uint_eq(t.tally.duplicate_parts, 0);
	ck_assert_uint_eq(t.tally.intervals_complete, 1);
	ck_assert_uint_eq(t.tally.intervals_incomplete, 1);
	ck_assert_uint_eq(t.tally.intervals_duplicate, 1);
	h_close(&t);
}
END_TEST

/* A part of an interval already emitted incomplete (here: beyond a horizon
 * of 2 parts) is late: it starts a new interval, incomplete too. */
START_TEST(test_late_part_starts_new_interval)
{
	struct harness t;

	h_open(&t, 4, 2, 4);
	ck_assert_int_eq(h_feed(&t, 7, 40, 1, 100), PM_OK);
	ck_assert_int_eq(h_feed(&t, 7, 41, 1, 200), PM_OK);
	ck_assert_int_eq(h_feed(&t, 7, 42, 1, 300), PM_OK);
	ck_assert_uint_eq(t.nseen, 1); /* interval 40 is past the horizon */
	ck_assert_int_eq(h_feed(&t, 7, 40, 2, 900), PM_OK);
	reasm_finish(t.r);
	ck_assert_uint_eq(t.nseen, 4);
	ck_assert_uint_eq(t.seen[3].parts, 0x04);
	ck_assert_uint_eq(t.seen[3].offset, BASE_OFFSET + 3 * REC_STRIDE);
	assert_part_values(&t.seen[3], 2, 900);
	ck_assert_uint_eq(t.tally.intervals_complete, 0);
	ck_assert_uint_eq(t.tally.intervals_incomplete, 4);
	ck_assert_uint_eq(t.tally.duplicate_parts, 0);
	h_close(&t);
}
END_TEST

/* Many intervals of three sources sharing their times, parts shuffled
 * within blocks of eight intervals: every interval comes out complete, with
 * its own values, in the order its first part was fed. With max_pending 8
 * the index holds up to nine keys in 32 buckets, so insertions and
 * backward-shift deletions cross each other constantly. */
START_TEST(test_shuffled_blocks)
{
	enum { N = 3000, BLOCK = 8 };
	static const size_t max_pending[] = { 8, 1024 };
	unsigned feed[3 * N][2], order[N], nfirst = 0;
	unsigned char started[N] = { 0 };
	uint32_t lcg = 12345;
	struct harness t;

	for (unsigned k = 0; k < 3 * N; k++) {
		feed[k][0] = k / 3;
		feed[k][1] = k % 3 + 1;
	}
	for (unsigned b = 0; b < 3 * N; b += 3 * BLOCK)
		for (unsigned k = 3 * BLOCK - 1; k > 0; k--) {
			unsigned j, tmp[2];
			lcg = lcg * 1103515245u + 12345u;
			j = (lcg >> 16) % (k + 1);
			memcpy(tmp, feed[b + k], sizeof tmp);
			memcpy(feed[b + k], feed[b + j], sizeof tmp);
			memcpy(feed[b + j], tmp, sizeof tmp);
		}
	for (unsigned k = 0; k < 3 * N; k++)
		if (!started[feed[k][0]]) {
			started[feed[k][0]] = 1;
			order[nfirst++] = feed[k][0];
		}
	ck_assert_uint_eq(nfirst, N);

	h_open(&t, max_pending[_i], 0, N);
	for (unsigned k = 0; k < 3 * N; k++) {
		unsigned i = feed[k][0];
		/* interval i: source i % 3, quarter hour i / 3 */
		ck_assert_int_eq(h_feed(&t, i % 3, i / 3, feed[k][1], 10 * i), PM_OK);
	}
	ck_assert_uint_eq(t.nseen, N);
	reasm_finish(t.r);
	ck_assert_uint_eq(t.nseen, N);
	for (unsigned k = 0; k < N; k++) {
		const struct seen *s = &t.seen[k];
		unsigned i = order[k];
		ck_assert_uint_eq(s->parts, 0x0E);
		ck_assert_uint_eq(s->source, i % 3);
		ck_assert_uint_eq(s->stime, iv_stime(i / 3));
		for (unsigned p = 1; p <= 3; p++)
			assert_part_values(s, p, 10 * i);
	}
	ck_assert_uint_eq(t.tally.intervals_complete, N);
	ck_assert_uint_eq(t.tally.intervals_incomplete, 0);
	ck_assert_uint_eq(t.tally.duplicate_parts, 0);
	ck_assert_str_eq(h_messages(&t), "");
	h_close(&t);
}
END_TEST

/* The layout every test builds its records from, and the fields they
 * check. */
static void
load_layout(void)
{
	char err[160];

	if (pmint_load(&pm, err, sizeof err) != PM_OK) {
		fprintf(stderr, "check_reasm: %s\n", err);
		exit(EXIT_FAILURE);
	}
	f_tstr = layout_field_index(&pm.lay, "INT#TSTR");
	f_dbirt = layout_field_index(&pm.lay, "INTDBIRT");
	f_dbkyt = layout_field_index(&pm.lay, "INTDBKYT");
	f_xli = layout_field_index(&pm.lay, "INTXLI#");
	f_syti = layout_field_index(&pm.lay, "INTSYTI");
	f_enti = layout_field_index(&pm.lay, "INTENTI");
}

Suite *
unit_suite(void)
{
	Suite *s = suite_create("reasm");
	TCase *core = tcase_create("Core");
	TCase *limits = tcase_create("Limits");

	load_layout();
	tcase_add_test(core, test_layout_as_expected);
	tcase_add_test(core, test_all_parts);
	tcase_add_loop_test(core, test_any_order, 0, 6);
	tcase_add_test(core, test_duplicate_first_kept);
	tcase_add_test(core, test_place_spares_first_copy);
	tcase_add_test(core, test_missing_part_at_finish);
	tcase_add_test(core, test_sources_kept_apart);
	tcase_add_test(core, test_interleaved_first_part_order);
	tcase_add_test(core, test_late_part_starts_new_interval);
	tcase_add_test(core, test_part_after_completion);
	tcase_add_test(core, test_duplicate_after_completion);
	tcase_add_test(core, test_whole_copy_while_waiting);
	suite_add_tcase(s, core);

	tcase_add_test(limits, test_missing_part_reads_zero_in_reused_slot);
	tcase_add_test(limits, test_horizon_evicts_before_finish);
	tcase_add_test(limits, test_pending_limit_bounds_queue);
	tcase_add_test(limits, test_short_part_rejected);
	tcase_add_test(limits, test_bad_sequence_rejected);
	tcase_add_test(limits, test_long_part_decoded);
	tcase_add_loop_test(limits, test_shuffled_blocks, 0, 2);
	suite_add_tcase(s, limits);
	return s;
}
