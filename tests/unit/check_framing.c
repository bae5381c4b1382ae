/* check_framing.c: the framing layer (framing.c). Streams are built here
 * byte by byte, so every expected offset, length and count comes from how
 * the test laid the bytes out, never from the framer's own arithmetic. */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700 /* open_memstream, mkstemp, truncate */
#endif
#include "check_main.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/diag.h"
#include "smf/framing.h"
#include "io/input.h"
#include "unit_input.h"
#include "pmim/pmint.h"
#include "smf/smfhdr.h"
#include "core/tally.h"

#define SMALL_BUFFER 1 /* raised to the framer's minimum */

/* ---- building streams ---- */

struct bytes {
	uint8_t *p;
	size_t len, cap;
};

static void
put(struct bytes *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 64;
		b->p = realloc(b->p, b->cap);
		ck_assert_ptr_nonnull(b->p);
	}
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void
put_word(struct bytes *b, uint32_t w)
{
	uint8_t v[4] = { (uint8_t)(w >> 24), (uint8_t)(w >> 16), (uint8_t)(w >> 8),
	                 (uint8_t)w };
	put(b, v, 4);
}

/* An RDW/SDW: length len (SDW included) and segment code. */
static void
put_sdw(struct bytes *b, size_t len, unsigned code)
{
	put_word(b, (uint32_t)len << 16 | code << 8);
}

/* A plain BDW. */
static void
put_bdw(struct bytes *b, size_t len)
{
	put_word(b, (uint32_t)len << 16);
}

static void
put_segment(struct bytes *b, unsigned code, const uint8_t *data, size_t n)
{
	put_sdw(b, n + 4, code);
	put(b, data, n);
}

/* The data of an SMF record (what follows its RDW), n >= 14 bytes: flag,
 * type, time, date 2024.100 (x'0124100F'), system id "SYSA" in EBCDIC,
 * then a pattern particular to seed. */
static uint8_t *
smf_data(uint8_t type, size_t n, unsigned seed)
{
	static const uint8_t hdr[14] = { 0x1e, 0,    0x00, 0x5c, 0x62, 0xb5, 0x01,
	                                 0x24, 0x10, 0x0f, 0xe2, 0xe8, 0xe2, 0xc1 };
	uint8_t *p = malloc(n);

	ck_assert_ptr_nonnull(p);
	memcpy(p, hdr, n < 14 ? n : 14);
	if (n > 1)
		p[1] = type;
	for (size_t i = 14; i < n; i++)
		p[i] = (uint8_t)(seed * 31 + i * 7);
	return p;
}

/* A PM record of n bytes: INTLEN, type, sequence, version, then a pattern. */
static void
put_pm(struct bytes *b, uint8_t type, uint8_t seq, size_t n)
{
	uint8_t *p = calloc(1, n);

	ck_assert_ptr_nonnull(p);
	p[0] = (uint8_t)(n >> 8);
	p[1] = (uint8_t)n;
	p[2] = type;
	p[3] = seq;
	p[4] = 1;
	for (size_t i = 5; i < n; i++)
		p[i] = (uint8_t)(i * 13 + type);
	put(b, p, n);
	free(p);
}

/* ---- running the framer ---- */

struct got {
	uint64_t offset;
	size_t len;
	uint64_t input_bytes;
	unsigned segments;
	bool kept, contiguous;
	uint8_t *bytes;   /* a copy of data, or of head when not kept */
	size_t nbytes;
};

struct run {
	struct got *rec;
	size_t n, cap;
	struct tally t;
	char *msgs;
	size_t msgs_len;
	pm_status st;
	bool opened;
	int last;          /* last framer_next result */
	enum framing framing;
	enum content content;
	uint64_t handed;   /* input_bytes of the records handed up */
	uint64_t position; /* framer_position at the end */
};

/* What the framer knows of PM and SMF records comes from the copybooks,
 * as in the program. */
static const struct fr_records *
records(void)
{
	static struct pmint pm;
	static struct smfhdr hdr;
	static struct fr_records rs;
	static struct pm_peeked peeked;
	char err[128];

	if (rs.pm_length == NULL) {
		ck_assert_int_eq(pmint_load(&pm, err, sizeof err), PM_OK);
		ck_assert_int_eq(smfhdr_load(&hdr, err, sizeof err), PM_OK);
		rs.pm_length = pmint_record_length;
		rs.pm_peek = pmint_peek_len(&pm);
		peeked.pm = &pm;
		rs.pm_ctx = &peeked;
		rs.smf_header = smfhdr_plausible;
		rs.smf_ctx = &hdr;
	}
	return &rs;
}

static struct framer_opts
opts(enum framing f)
{
	struct framer_opts o = { records(), f, CONTENT_AUTO, 1 << 20, SMALL_BUFFER,
	                         NULL, NULL, 0, false, { FRAMING_AUTO, CONTENT_AUTO } };
	return o;
}

static void
keep_record(struct run *r, const struct fr_record *rec)
{
	struct got *g;
	const uint8_t *src = rec->data ? rec->data : rec->head;
	size_t n = rec->data ? rec->len : rec->head_len;

	if (r->n == r->cap) {
		r->cap = r->cap * 2 + 16;
		r->rec = realloc(r->rec, r->cap * sizeof *r->rec);
		ck_assert_ptr_nonnull(r->rec);
	}
	g = &r->rec[r->n++];
	g->offset = rec->offset;
	g->len = rec->len;
	g->input_bytes = rec->input_bytes;
	g->segments = rec->segments;
	g->kept = rec->data != NULL;
	g->contiguous = rec->contiguous;
	g->nbytes = n;
	g->bytes = malloc(n ? n : 1);
	ck_assert_ptr_nonnull(g->bytes);
	memcpy(g->bytes, src, n);
	ck_assert_uint_le(rec->head_len, FR_HEAD_MAX);
	ck_assert_uint_le(rec->head_len, rec->len);
	ck_assert_int_eq(memcmp(rec->head, src, rec->head_len), 0);
	r->handed += rec->input_bytes;
}

/* Frame the len bytes from origin on, served chunk bytes per read (0: all
 * at once), their offsets from origin: a range of a file. */
static void
run_from(struct run *r, const uint8_t *p, size_t len, uint64_t origin, size_t chunk,
         const struct framer_opts *o)
{
	struct input in;
	struct diag d;
	struct framer *fr;
	struct fr_record rec;
	FILE *f;

	memset(r, 0, sizeof *r);
	f = open_memstream(&r->msgs, &r->msgs_len);
	ck_assert_ptr_nonnull(f);
	diag_init(&d, "pmimrpt", f);
	d.file = "test";
	d.max_per_status = 0;
	input_from_memory(&in, "test", p + origin, len - origin, chunk);
	in.origin = origin;
	fr = framer_open(&in, o, &d, &r->t, &r->st);
	r->opened = fr != NULL;
	if (fr) {
		r->framing = framer_framing(fr);
		r->content = framer_content(fr);
		while ((r->last = framer_next(fr, &rec)) == 1)
			keep_record(r, &rec);
		r->position = framer_position(fr);
		framer_close(fr);
	}
	input_close(&in);
	fclose(f);
	/* every byte read is accounted once: records handed up count as used */
	ck_assert_uint_eq(r->t.used + r->t.skipped + r->t.damaged + r->handed,
	                  r->t.bytes_read);
}

/* Frame len bytes served chunk bytes per read (0: all at once). */
static void
run_stream(struct run *r, const uint8_t *p, size_t len, size_t chunk,
           const struct framer_opts *o)
{
	run_from(r, p, len, 0, chunk, o);
}

static void
run_free(struct run *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->rec[i].bytes);
	free(r->rec);
	free(r->msgs);
}

static void
assert_message(const struct run *r, const char *text)
{
	ck_assert_msg(strstr(r->msgs, text) != NULL, "no \"%s\" in:\n%s", text,
	              r->msgs);
}

static unsigned
message_count(const struct run *r)
{
	unsigned n = 0;
	for (const char *s = r->msgs; (s = strchr(s, '\n')) != NULL; s++)
		n++;
	return n;
}

/* Record i is the logical record data[0, n) (what follows its RDW). */
static void
assert_record(const struct run *r, size_t i, uint64_t offset,
              const uint8_t *data, size_t n, uint64_t input_bytes,
              unsigned segments)
{
	const struct got *g;

	ck_assert_uint_lt(i, r->n);
	g = &r->rec[i];
	ck_assert_uint_eq(g->offset, offset);
	ck_assert_uint_eq(g->len, n + 4);
	ck_assert_uint_eq(g->input_bytes, input_bytes);
	ck_assert_uint_eq(g->segments, segments);
	ck_assert(g->kept);
	ck_assert_int_eq(g->contiguous, segments == 1);
	/* its RDW: the length when a halfword holds it, bytes 2-3 zero */
	ck_assert_uint_eq((unsigned)(g->bytes[0] << 8 | g->bytes[1]),
	                  n + 4 <= 0xffff ? n + 4 : 0);
	ck_assert_uint_eq(g->bytes[2], 0);
	ck_assert_uint_eq(g->bytes[3], 0);
	ck_assert_int_eq(memcmp(g->bytes + 4, data, n), 0);
}

/* ---- Core: RDW streams ---- */

START_TEST(test_rdw_complete)
{
	struct bytes b = { 0 };
	uint8_t *r1 = smf_data(30, 40, 1), *r2 = smf_data(70, 100, 2),
	        *r3 = smf_data(30, 60, 3);
	struct framer_opts o = opts(FRAMING_RDW);
	struct run r;

	put_segment(&b, 0, r1, 40);
	put_segment(&b, 0, r2, 100);
	put_segment(&b, 0, r3, 60);
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert(r.opened);
	ck_assert_uint_eq(r.n, 3);
	assert_record(&r, 0, 0, r1, 40, 44, 1);
	assert_record(&r, 1, 44, r2, 100, 104, 1);
	assert_record(&r, 2, 148, r3, 60, 64, 1);
	ck_assert_int_eq(r.content, CONTENT_SMF);
	ck_assert_uint_eq(r.t.bytes_read, 212);
	ck_assert_uint_eq(r.t.damaged, 0);
	ck_assert_uint_eq(r.t.spanned, 0);
	ck_assert_uint_eq(r.position, 212);
	ck_assert_int_eq(r.last, 0);
	ck_assert_str_eq(r.msgs, "");
	run_free(&r);
	free(r1), free(r2), free(r3), free(b.p);
}
END_TEST

START_TEST(test_rdw_first_last)
{
	struct bytes b = { 0 };
	uint8_t *r1 = smf_data(30, 20, 1), *big = smf_data(115, 300, 2),
	        *r3 = smf_data(30, 16, 3);
	struct framer_opts o = opts(FRAMING_RDW);
	struct run r;

	put_segment(&b, 0, r1, 20);         /* 0, 24 bytes */
	put_segment(&b, 1, big, 120);       /* 24, 124 bytes */
	put_segment(&b, 2, big + 120, 180); /* 148, 184 bytes */
	put_segment(&b, 0, r3, 16);         /* 332, 20 bytes */
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_uint_eq(r.n, 3);
	assert_record(&r, 0, 0, r1, 20, 24, 1);
	assert_record(&r, 1, 24, big, 300, 124 + 184, 2);
	assert_record(&r, 2, 332, r3, 16, 20, 1);
	ck_assert_uint_eq(r.t.spanned, 1);
	ck_assert_uint_eq(r.t.segments, 2);
	ck_assert_uint_eq(r.t.damaged, 0);
	ck_assert_str_eq(r.msgs, "");
	run_free(&r);
	free(r1), free(big), free(r3), free(b.p);
}
END_TEST

/* A file cut into two ranges at 148, the last segment of a spanned
 * record: the first range stops there, but reads the record to its end;
 * the second passes over that segment, its bytes the first's, and resumes
 * where the first stopped. Each byte is read by one range. */
START_TEST(test_range_spanned_across_stop)
{
	struct bytes b = { 0 };
	uint8_t *r1 = smf_data(30, 20, 1), *big = smf_data(115, 300, 2),
	        *r3 = smf_data(30, 16, 3);
	struct framer_opts o = opts(FRAMING_RDW);
	struct run r;

	put_segment(&b, 0, r1, 20);         /* 0, 24 bytes */
	put_segment(&b, 1, big, 120);       /* 24, 124 bytes */
	put_segment(&b, 2, big + 120, 180); /* 148, 184 bytes */
	put_segment(&b, 0, r3, 16);         /* 332, 20 bytes */
	o.stop = 148;
	run_from(&r, b.p, b.len, 0, 0, &o);
	ck_assert_uint_eq(r.n, 2);
	assert_record(&r, 1, 24, big, 300, 124 + 184, 2);
	ck_assert_uint_eq(r.position, 332);
	ck_assert_uint_eq(r.t.bytes_read, 332);
	ck_assert_str_eq(r.msgs, "");
	run_free(&r);
	o.stop = 0;
	o.continued = true;
	run_from(&r, b.p, b.len, 148, 0, &o);
	ck_assert_uint_eq(r.n, 1);
	assert_record(&r, 0, 332, r3, 16, 20, 1);
	ck_assert_uint_eq(r.t.bytes_read, 20);
	ck_assert_uint_eq(r.t.orphans, 0);
	ck_assert_str_eq(r.msgs, "");
	run_free(&r);
	free(r1), free(big), free(r3), free(b.p);
}
END_TEST

/* A range that stops between records reads nothing past its stop. */
START_TEST(test_range_stops_between_records)
{
	struct bytes b = { 0 };
	uint8_t *r1 = smf_data(30, 40, 1), *r2 = smf_data(70, 100, 2);
	struct framer_opts o = opts(FRAMING_RDW);
	struct run r;

	put_segment(&b, 0, r1, 40);  /* 0, 44 bytes */
	put_segment(&b, 0, r2, 100); /* 44, 104 bytes */
	o.stop = 44;
	run_from(&r, b.p, b.len, 0, 0, &o);
	ck_assert_uint_eq(r.n, 1);
	ck_assert_uint_eq(r.position, 44);
	ck_assert_uint_eq(r.t.bytes_read, 44);
	run_free(&r);
	free(r1), free(r2), free(b.p);
}
END_TEST

START_TEST(test_rdw_first_middles_last)
{
	struct bytes b = { 0 };
	uint8_t *big = smf_data(116, 700, 9);
	struct framer_opts o = opts(FRAMING_RDW);
	struct run r;

	/* first 100, five middles of 100, last 100: seven segments of 104 */
	put_segment(&b, 1, big, 100);
	for (int k = 1; k <= 5; k++)
		put_segment(&b, 3, big + 100 * k, 100);
	put_segment(&b, 2, big + 600, 100);
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_uint_eq(r.n, 1);
	assert_record(&r, 0, 0, big, 700, 7 * 104, 7);
	ck_assert_uint_eq(r.t.spanned, 1);
	ck_assert_uint_eq(r.t.segments, 7);
	run_free(&r);
	free(big), free(b.p);
}
END_TEST

/* A middle or a last with no first before it. */
static void
check_orphan(unsigned code, const char *kind)
{
	struct bytes b = { 0 };
	uint8_t *r1 = smf_data(30, 20, 1), *o2 = smf_data(30, 50, 2),
	        *r3 = smf_data(30, 20, 3);
	struct framer_opts o = opts(FRAMING_RDW);
	struct run r;
	char text[80];

	put_segment(&b, 0, r1, 20);   /* 0 */
	put_segment(&b, code, o2, 50); /* 24, 54 bytes */
	put_segment(&b, 0, r3, 20);   /* 78 */
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_uint_eq(r.n, 2);
	assert_record(&r, 0, 0, r1, 20, 24, 1);
	assert_record(&r, 1, 78, r3, 20, 24, 1);
	ck_assert_uint_eq(r.t.orphans, 1);
	ck_assert_uint_eq(r.t.damaged, 54);
	ck_assert_uint_eq(r.t.damaged_records, 1);
	assert_message(&r, "offset 24 (0x18): warning: orphan segment");
	snprintf(text, sizeof text, "%s segment of 54 bytes discarded", kind);
	assert_message(&r, text);
	ck_assert_uint_eq(message_count(&r), 1);
	run_free(&r);
	free(r1), free(o2), free(r3), free(b.p);
}

START_TEST(test_orphan_middle)
{
	check_orphan(3, "middle");
}
END_TEST

START_TEST(test_orphan_last)
{
	check_orphan(2, "last");
}
END_TEST

START_TEST(test_first_without_last_at_eof)
{
	struct bytes b = { 0 };
	uint8_t *r1 = smf_data(30, 20, 1), *big = smf_data(30, 200, 2);
	struct framer_opts o = opts(FRAMING_RDW);
	struct run r;

	put_segment(&b, 0, r1, 20);     /* 0 */
	put_segment(&b, 1, big, 100);   /* 24, 104 bytes */
	put_segment(&b, 3, big + 100, 50); /* 128, 54 bytes */
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_uint_eq(r.n, 1);
	ck_assert_uint_eq(r.t.damaged, 158);
	ck_assert_uint_eq(r.t.damaged_records, 1);
	ck_assert_uint_eq(r.t.spanned, 0);
	assert_message(&r, "offset 24 (0x18): warning: spanned record has a "
	                   "first segment but no last: 2 segment(s) of 158 bytes");
	run_free(&r);
	free(r1), free(big), free(b.p);
}
END_TEST

START_TEST(test_first_then_complete)
{
	struct bytes b = { 0 };
	uint8_t *a = smf_data(30, 80, 1), *c = smf_data(30, 20, 2),
	        *d = smf_data(30, 90, 3);
	struct framer_opts o = opts(FRAMING_RDW);
	struct run r;

	put_segment(&b, 1, a, 40);      /* 0, 44 bytes: never ended */
	put_segment(&b, 0, c, 20);      /* 44 */
	put_segment(&b, 1, d, 30);      /* 68, 34 bytes: ended by a first */
	put_segment(&b, 1, d, 30);      /* 102 */
	put_segment(&b, 2, d + 30, 60); /* 136, 64 bytes */
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_uint_eq(r.n, 2);
	assert_record(&r, 0, 44, c, 20, 24, 1);
	assert_record(&r, 1, 102, d, 90, 34 + 64, 2);
	ck_assert_uint_eq(r.t.damaged, 44 + 34);
	ck_assert_uint_eq(r.t.damaged_records, 2);
	assert_message(&r, "offset 0 (0x0): warning: spanned record has a first");
	assert_message(&r, "offset 68 (0x44): warning: spanned record has a first");
	run_free(&r);
	free(a), free(c), free(d), free(b.p);
}
END_TEST

START_TEST(test_bad_descriptor_resync)
{
	struct bytes b = { 0 };
	static const uint8_t junk[7] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	uint8_t *rec[5];
	struct framer_opts o = opts(FRAMING_RDW);
	struct run r;

	for (unsigned i = 0; i < 5; i++)
		rec[i] = smf_data(30, 30 + i, i);
	put_segment(&b, 0, rec[0], 30);   /* 0 */
	put_segment(&b, 0, rec[1], 31);   /* 34 */
	put(&b, junk, sizeof junk);       /* 69 */
	put_segment(&b, 0, rec[2], 32);   /* 76 */
	put_segment(&b, 0, rec[3], 33);   /* 112 */
	put_segment(&b, 0, rec[4], 34);   /* 149 */
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_uint_eq(r.n, 5);
	assert_record(&r, 1, 34, rec[1], 31, 35, 1);
	assert_record(&r, 2, 76, rec[2], 32, 36, 1);
	assert_record(&r, 4, 149, rec[4], 34, 38, 1);
	ck_assert_uint_eq(r.t.damaged, 7);
	ck_assert_uint_eq(r.t.damaged_records, 1);
	assert_message(&r, "offset 69 (0x45): warning: invalid record or block "
	                   "descriptor word: RDW x'ffffffff': length above 32,760");
	assert_message(&r, "offset 69 (0x45): warning: bytes skipped while looking "
	                   "for the next valid record: 7 bytes skipped; records "
	                   "resume at offset 76");
	ck_assert_uint_eq(message_count(&r), 2);
	run_free(&r);
	for (unsigned i = 0; i < 5; i++)
		free(rec[i]);
	free(b.p);
}
END_TEST

START_TEST(test_resync_needs_a_chain)
{
	/* at junk + 1 lies a valid RDW of 8 bytes, but no valid one after it */
	static const uint8_t junk[12] = { 0xff, 0x00, 0x08, 0x00, 0x00, 0xff,
	                                  0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	struct bytes b = { 0 };
	uint8_t *d = smf_data(30, 30, 1);
	struct framer_opts o = opts(FRAMING_RDW);
	struct run r;

	put_segment(&b, 0, d, 30);  /* 0 */
	put(&b, junk, sizeof junk); /* 34 */
	for (unsigned i = 0; i < 3; i++)
		put_segment(&b, 0, d, 30); /* 46, 80, 114 */
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_uint_eq(r.n, 4);
	assert_record(&r, 1, 46, d, 30, 34, 1);
	ck_assert_uint_eq(r.t.damaged, 12);
	assert_message(&r, "offset 34 (0x22): warning: bytes skipped while "
	                   "looking for the next valid record: 12 bytes skipped; "
	                   "records resume at offset 46");
	run_free(&r);
	free(d), free(b.p);
}
END_TEST

START_TEST(test_reserved_bits)
{
	struct bytes b = { 0 };
	uint8_t *r1 = smf_data(30, 30, 1), *r2 = smf_data(30, 30, 2);
	struct framer_opts o = opts(FRAMING_RDW);
	struct run r;

	put_segment(&b, 0, r1, 30);
	put_word(&b, 34u << 16 | 0x0001); /* byte 3 not zero */
	put(&b, r2, 30);
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_uint_eq(r.n, 1);
	ck_assert_uint_eq(r.t.damaged, 34);
	assert_message(&r, "offset 34 (0x22): warning: invalid record or block "
	                   "descriptor word: RDW x'00220001': reserved bits set");
	assert_message(&r, "34 bytes skipped to the end of input");
	run_free(&r);
	free(r1), free(r2), free(b.p);
}
END_TEST

START_TEST(test_truncated_record)
{
	struct bytes b = { 0 };
	uint8_t *r1 = smf_data(30, 40, 1), *r2 = smf_data(30, 96, 2);
	struct framer_opts o = opts(FRAMING_RDW);
	struct run r;

	put_segment(&b, 0, r1, 40); /* 0 */
	put_sdw(&b, 100, 0);        /* 44: claims 100, 30 present */
	put(&b, r2, 26);
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_uint_eq(r.n, 1);
	ck_assert_uint_eq(r.t.truncated, 1);
	ck_assert_uint_eq(r.t.damaged, 30);
	ck_assert_uint_eq(r.t.bytes_read, 74);
	assert_message(&r, "offset 44 (0x2c): warning: record cut short at end "
	                   "of input: record has 30 of its 100 bytes");
	run_free(&r);
	free(r1), free(r2), free(b.p);
}
END_TEST

START_TEST(test_empty_input)
{
	struct framer_opts o = opts(FRAMING_AUTO);
	struct run r;
	static const uint8_t none[1] = { 0 };

	run_stream(&r, none, 0, 0, &o);
	ck_assert(r.opened);
	ck_assert_int_eq(r.st, PM_OK);
	ck_assert_int_eq(r.last, 0);
	ck_assert_uint_eq(r.n, 0);
	ck_assert_uint_eq(r.t.bytes_read, 0);
	ck_assert_str_eq(r.msgs, "");
	run_free(&r);
}
END_TEST

/* Frame len bytes of p through an input failing at unit_fail_at; returns how
 * many records came before framer_next returned -1 (or the open failed). */
static unsigned
run_failing(const uint8_t *p, size_t len, struct run *r)
{
	struct framer_opts o = opts(FRAMING_AUTO);
	struct input in;
	struct diag d;
	struct framer *fr;
	struct fr_record rec;
	FILE *f;
	unsigned n = 0;

	memset(r, 0, sizeof *r);
	f = open_memstream(&r->msgs, &r->msgs_len);
	ck_assert_ptr_nonnull(f);
	diag_init(&d, "pmimrpt", f);
	input_from_memory(&in, "test", p, len, 0);
	in.read = unit_read_then_fail;
	fr = framer_open(&in, &o, &d, &r->t, &r->st);
	r->opened = fr != NULL;
	if (fr) {
		while ((r->last = framer_next(fr, &rec)) == 1) {
			r->handed += rec.input_bytes;
			n++;
		}
		ck_assert_int_eq(r->last, -1);
		ck_assert_int_eq(framer_next(fr, &rec), 0);
		framer_close(fr);
	}
	fclose(f);
	ck_assert_uint_eq(r->t.bytes_read, unit_fail_at);
	ck_assert_uint_eq(r->t.used + r->t.skipped + r->t.damaged + r->handed,
	                  r->t.bytes_read);
	return n;
}

START_TEST(test_read_error)
{
	/* 300 records of 1,000 bytes: more than detection reads ahead */
	struct bytes b = { 0 };
	uint8_t *d = smf_data(30, 996, 1);
	struct run r;
	unsigned n;

	for (unsigned i = 0; i < 300; i++)
		put_segment(&b, 0, d, 996);
	unit_fail_at = 100;             /* while detecting */
	n = run_failing(b.p, b.len, &r);
	ck_assert(!r.opened);
	ck_assert_int_eq(r.st, PM_E_READ);
	ck_assert_uint_eq(n, 0);
	assert_message(&r, "offset 100 (0x64): error: read error: ");
	free(r.msgs);
	unit_fail_at = 290500;          /* in the middle of record 290 */
	n = run_failing(b.p, b.len, &r);
	ck_assert(r.opened);
	ck_assert_uint_eq(n, 290);
	ck_assert_uint_eq(r.t.damaged, 500);
	assert_message(&r, "offset 290500 (0x46ec4): error: read error: ");
	free(r.msgs);
	free(d), free(b.p);
}
END_TEST

/* A file of 300 records of 1,000 bytes, lent, cut to 150,000 bytes by
 * another hand after 100 records: the records before the cut are framed,
 * the pages it took read as zeros, and the read ends with an error where
 * the file now ends. */
START_TEST(test_lent_file_cut_short)
{
	struct framer_opts o = opts(FRAMING_AUTO);
	struct bytes b = { 0 };
	uint8_t *d = smf_data(30, 996, 1);
	char path[64];
	struct input in;
	struct diag dg;
	struct tally t = { 0 };
	struct framer *fr;
	struct fr_record rec;
	char *msgs = NULL;
	size_t msgs_len = 0, handed = 0;
	FILE *f = open_memstream(&msgs, &msgs_len), *out;
	unsigned n = 0;
	int last;
	pm_status st;

	for (unsigned i = 0; i < 300; i++)
		put_segment(&b, 0, d, 996);
	snprintf(path, sizeof path, "%s/cut.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	ck_assert_int_ge(mkstemp(path), 0);
	out = fopen(path, "wb");
	ck_assert_uint_eq(fwrite(b.p, 1, b.len, out), b.len);
	fclose(out);
	diag_init(&dg, "pmimrpt", f);
	ck_assert_int_eq(input_open_path(&in, path), PM_OK);
	in.block_size = 4096;
	fr = framer_open(&in, &o, &dg, &t, &st);
	ck_assert_ptr_nonnull(fr);
	while ((last = framer_next(fr, &rec)) == 1) {
		handed += rec.input_bytes;
		if (++n == 100)
			ck_assert_int_eq(truncate(path, 150000), 0);
	}
	ck_assert_int_eq(last, -1);
	framer_close(fr);
	input_close(&in);
	fclose(f);
	ck_assert_uint_ge(n, 150);
	ck_assert_ptr_nonnull(strstr(msgs, "offset 150000 (0x249f0): error: read error: the file "
	                                   "was cut short here while it was read"));
	ck_assert_uint_eq(t.used + t.skipped + t.damaged + handed, t.bytes_read);
	unlink(path);
	free(msgs), free(d), free(b.p);
}
END_TEST

START_TEST(test_names)
{
	ck_assert_str_eq(framing_name(FRAMING_PM), "pm");
	ck_assert_str_eq(framing_name(FRAMING_RDW), "rdw");
	ck_assert_str_eq(framing_name(FRAMING_BDW), "bdw");
	ck_assert_str_eq(framing_name(FRAMING_AUTO), "auto");
}
END_TEST

/* ---- Limits: want and max_record ---- */

static bool
want_type_30(const uint8_t *head, size_t head_len, void *ctx)
{
	unsigned *calls = ctx;
	(*calls)++;
	return head_len > 5 && head[5] == 30;
}

START_TEST(test_want)
{
	struct bytes b = { 0 };
	uint8_t *a = smf_data(30, 50, 1), *s = smf_data(70, 200, 2),
	        *k = smf_data(30, 150, 3);
	struct framer_opts o = opts(FRAMING_RDW);
	unsigned calls = 0;
	struct run r;

	o.want = want_type_30;
	o.want_ctx = &calls;
	put_segment(&b, 0, a, 50);          /* 0 */
	put_segment(&b, 1, s, 100);         /* 54: spanned, not wanted */
	put_segment(&b, 2, s + 100, 100);   /* 158 */
	put_segment(&b, 1, k, 70);          /* 262: spanned, wanted */
	put_segment(&b, 2, k + 70, 80);     /* 336 */
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_uint_eq(calls, 3);
	ck_assert_uint_eq(r.n, 3);
	assert_record(&r, 0, 0, a, 50, 54, 1);
	/* not kept: no data, but its head is its start, behind an RDW */
	ck_assert(!r.rec[1].kept);
	ck_assert_uint_eq(r.rec[1].offset, 54);
	ck_assert_uint_eq(r.rec[1].len, 204);
	ck_assert_uint_eq(r.rec[1].input_bytes, 208);
	ck_assert_uint_eq(r.rec[1].nbytes, FR_HEAD_MAX);
	ck_assert_uint_eq(r.rec[1].bytes[0] << 8 | r.rec[1].bytes[1], 204);
	ck_assert_int_eq(memcmp(r.rec[1].bytes + 4, s, FR_HEAD_MAX - 4), 0);
	assert_record(&r, 2, 262, k, 150, 74 + 84, 2);
	run_free(&r);
	free(a), free(s), free(k), free(b.p);
}
END_TEST

START_TEST(test_head_across_segments)
{
	struct bytes b = { 0 };
	uint8_t *s = smf_data(70, 100, 2);
	struct framer_opts o = opts(FRAMING_RDW);
	unsigned calls = 0;
	struct run r;

	o.want = want_type_30;
	o.want_ctx = &calls;
	/* a first segment shorter than the head: the head goes on into the next */
	put_segment(&b, 1, s, 10);
	put_segment(&b, 3, s + 10, 10);
	put_segment(&b, 2, s + 20, 80);
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_uint_eq(r.n, 1);
	ck_assert(!r.rec[0].kept);
	ck_assert_uint_eq(r.rec[0].nbytes, FR_HEAD_MAX);
	ck_assert_int_eq(memcmp(r.rec[0].bytes + 4, s, FR_HEAD_MAX - 4), 0);
	run_free(&r);
	free(s), free(b.p);
}
END_TEST

START_TEST(test_want_tiny_first_segment)
{
	/* first segments of one data byte: the type is in the next segment */
	struct bytes b = { 0 };
	uint8_t *k = smf_data(30, 150, 1), *s = smf_data(70, 150, 2),
	        *t = smf_data(30, 20, 3);
	struct framer_opts o = opts(FRAMING_RDW);
	unsigned calls = 0;
	struct run r;

	o.want = want_type_30;
	o.want_ctx = &calls;
	put_segment(&b, 1, k, 1);          /* 0 */
	put_segment(&b, 3, k + 1, 1);      /* 5 */
	put_segment(&b, 3, k + 2, 30);     /* 10 */
	put_segment(&b, 2, k + 32, 118);   /* 44 */
	put_segment(&b, 1, s, 1);          /* 166 */
	put_segment(&b, 2, s + 1, 149);    /* 171 */
	put_segment(&b, 1, t, 2);          /* 324: shorter than a head */
	put_segment(&b, 2, t + 2, 18);     /* 330 */
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_uint_eq(calls, 3);
	ck_assert_uint_eq(r.n, 3);
	assert_record(&r, 0, 0, k, 150, 5 + 5 + 34 + 122, 4);
	ck_assert(!r.rec[1].kept);
	ck_assert_uint_eq(r.rec[1].offset, 166);
	ck_assert_uint_eq(r.rec[1].bytes[5], 70);
	assert_record(&r, 2, 324, t, 20, 6 + 22, 2);
	run_free(&r);
	free(k), free(s), free(t), free(b.p);
}
END_TEST

START_TEST(test_max_record)
{
	struct bytes b = { 0 };
	uint8_t *a = smf_data(30, 96, 1), *big = smf_data(30, 300, 2),
	        *c = smf_data(30, 40, 3), *d = smf_data(30, 200, 4);
	struct framer_opts o = opts(FRAMING_RDW);
	struct run r;

	o.max_record = 100; /* RDW included */
	put_segment(&b, 0, a, 96);        /* 0: exactly 100, accepted */
	put_segment(&b, 1, big, 100);     /* 100 */
	put_segment(&b, 3, big + 100, 100);
	put_segment(&b, 2, big + 200, 100); /* 3 x 104 bytes */
	put_segment(&b, 0, c, 40);        /* 412 */
	put_segment(&b, 0, d, 200);       /* 456: unspanned, too long */
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_uint_eq(r.n, 2);
	assert_record(&r, 0, 0, a, 96, 100, 1);
	assert_record(&r, 1, 412, c, 40, 44, 1);
	ck_assert_uint_eq(r.t.damaged, 312 + 204);
	ck_assert_uint_eq(r.t.damaged_records, 2);
	assert_message(&r, "offset 100 (0x64): warning: logical record longer "
	                   "than --max-record allows: 304 bytes; the limit is 100");
	assert_message(&r, "offset 456 (0x1c8): warning: logical record longer "
	                   "than --max-record allows: 204 bytes");
	run_free(&r);
	free(a), free(big), free(c), free(d), free(b.p);
}
END_TEST

START_TEST(test_long_spanned_record)
{
	/* a reassembled record over 65,535 bytes: lengths are never 16-bit */
	struct bytes b = { 0 };
	size_t n = 100000;
	uint8_t *big = smf_data(30, n, 7);
	struct framer_opts o = opts(FRAMING_RDW);
	struct run r;
	size_t done = 0;

	while (done < n) {
		size_t take = n - done > 30000 ? 30000 : n - done;
		put_segment(&b, done == 0 ? 1 : done + take == n ? 2 : 3,
		            big + done, take);
		done += take;
	}
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_uint_eq(r.n, 1);
	assert_record(&r, 0, 0, big, n, n + 4 * 4, 4);
	run_free(&r);
	free(big), free(b.p);
}
END_TEST

/* ---- Blocks ---- */

START_TEST(test_bdw_blocks)
{
	struct bytes b = { 0 };
	uint8_t *r1 = smf_data(30, 40, 1), *r2 = smf_data(30, 60, 2),
	        *r3 = smf_data(30, 20, 3);
	struct framer_opts o = opts(FRAMING_BDW);
	struct run r;

	put_bdw(&b, 4 + 44 + 64);   /* 0 */
	put_segment(&b, 0, r1, 40); /* 4 */
	put_segment(&b, 0, r2, 60); /* 48 */
	put_bdw(&b, 4 + 24);        /* 112 */
	put_segment(&b, 0, r3, 20); /* 116 */
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_uint_eq(r.n, 3);
	assert_record(&r, 0, 4, r1, 40, 44, 1);
	assert_record(&r, 1, 48, r2, 60, 64, 1);
	assert_record(&r, 2, 116, r3, 20, 24, 1);
	ck_assert_uint_eq(r.t.used, 8);
	ck_assert_uint_eq(r.t.damaged, 0);
	ck_assert_str_eq(r.msgs, "");
	run_free(&r);
	free(r1), free(r2), free(r3), free(b.p);
}
END_TEST

START_TEST(test_bdw_spanning_blocks)
{
	struct bytes b = { 0 };
	uint8_t *a = smf_data(30, 20, 1), *big = smf_data(116, 250, 2);
	struct framer_opts o = opts(FRAMING_BDW);
	struct run r;

	put_bdw(&b, 4 + 24 + 104);       /* 0 */
	put_segment(&b, 0, a, 20);       /* 4 */
	put_segment(&b, 1, big, 100);    /* 28 */
	put_bdw(&b, 4 + 104);            /* 132 */
	put_segment(&b, 3, big + 100, 100); /* 136 */
	put_bdw(&b, 4 + 54);             /* 240 */
	put_segment(&b, 2, big + 200, 50); /* 244 */
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_uint_eq(r.n, 2);
	assert_record(&r, 0, 4, a, 20, 24, 1);
	assert_record(&r, 1, 28, big, 250, 104 + 104 + 54, 3);
	ck_assert_uint_eq(r.t.used, 12);
	ck_assert_uint_eq(r.t.spanned, 1);
	ck_assert_uint_eq(r.t.segments, 3);
	run_free(&r);
	free(a), free(big), free(b.p);
}
END_TEST

START_TEST(test_bdw_extended)
{
	struct bytes b = { 0 };
	uint8_t *x = smf_data(30, 30000, 1), *y = smf_data(30, 20000, 2),
	        *z = smf_data(30, 100, 3);
	struct framer_opts o = opts(FRAMING_AUTO);
	struct run r;

	put_word(&b, 0x80000000u | (4 + 30004 + 20004)); /* 0: 50,012 bytes */
	put_segment(&b, 0, x, 30000);                    /* 4 */
	put_segment(&b, 0, y, 20000);                    /* 30008 */
	put_bdw(&b, 4 + 104);                            /* 50012 */
	put_segment(&b, 0, z, 100);                      /* 50016 */
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_int_eq(r.framing, FRAMING_BDW);
	ck_assert_uint_eq(r.n, 3);
	assert_record(&r, 0, 4, x, 30000, 30004, 1);
	assert_record(&r, 1, 30008, y, 20000, 20004, 1);
	assert_record(&r, 2, 50016, z, 100, 104, 1);
	ck_assert_uint_eq(r.t.used, 8);
	ck_assert_str_eq(r.msgs, "");
	run_free(&r);
	free(x), free(y), free(z), free(b.p);
}
END_TEST

/* BSAM with the large block interface may put the extended form on a
 * block of any length; pmimgen --extended-bdw=all does. */
START_TEST(test_bdw_extended_short_block)
{
	struct bytes b = { 0 };
	uint8_t *r1 = smf_data(30, 40, 1);
	struct framer_opts o = opts(FRAMING_AUTO);
	struct run r;

	put_word(&b, 0x80000000u | 48); /* 0: extended form on 48 bytes */
	put_segment(&b, 0, r1, 40);
	put_word(&b, 0x80000000u | 48); /* 48 */
	put_segment(&b, 0, r1, 40);     /* 52 */
	put_bdw(&b, 48);                /* 96: plain */
	put_segment(&b, 0, r1, 40);     /* 100 */
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_int_eq(r.framing, FRAMING_BDW);
	ck_assert_uint_eq(r.n, 3);
	assert_record(&r, 0, 4, r1, 40, 44, 1);
	assert_record(&r, 1, 52, r1, 40, 44, 1);
	assert_record(&r, 2, 100, r1, 40, 44, 1);
	ck_assert_uint_eq(r.t.damaged, 0);
	ck_assert_uint_eq(r.t.used, 12);
	ck_assert_str_eq(r.msgs, "");
	run_free(&r);
	free(r1), free(b.p);
}
END_TEST

/* An extended BDW shorter than a BDW and an empty segment is damage. */
START_TEST(test_bdw_extended_below_8)
{
	struct bytes b = { 0 };
	uint8_t *r1 = smf_data(30, 40, 1);
	struct framer_opts o = opts(FRAMING_BDW);
	struct run r;

	put_word(&b, 0x80000000u | 4); /* 0 */
	put_segment(&b, 0, r1, 40);
	for (unsigned i = 0; i < 3; i++) {
		put_bdw(&b, 48);        /* 48, 96, 144 */
		put_segment(&b, 0, r1, 40);
	}
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_uint_eq(r.n, 3);
	assert_record(&r, 0, 52, r1, 40, 44, 1);
	ck_assert_uint_eq(r.t.damaged, 48);
	assert_message(&r, "offset 0 (0x0): warning: invalid record or block "
	                   "descriptor word: BDW x'80000004': length below 8");
	assert_message(&r, "48 bytes skipped; records resume at offset 48");
	run_free(&r);
	free(r1), free(b.p);
}
END_TEST

START_TEST(test_bdw_not_filled)
{
	struct bytes b = { 0 };
	uint8_t *r1 = smf_data(30, 40, 1), *r2 = smf_data(30, 24, 2);
	static const uint8_t pad[2] = { 0, 0 };
	struct framer_opts o = opts(FRAMING_BDW);
	struct run r;

	put_bdw(&b, 4 + 44 + 2);     /* 0: two bytes more than its segment */
	put_segment(&b, 0, r1, 40);  /* 4 */
	put(&b, pad, 2);             /* 48 */
	put_bdw(&b, 4 + 28);         /* 50 */
	put_segment(&b, 0, r2, 24);  /* 54 */
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_uint_eq(r.n, 2);
	assert_record(&r, 0, 4, r1, 40, 44, 1);
	assert_record(&r, 1, 54, r2, 24, 28, 1);
	ck_assert_uint_eq(r.t.damaged, 2);
	ck_assert_uint_eq(r.t.used, 8);
	assert_message(&r, "offset 48 (0x30): warning: block contents do not "
	                   "match its descriptor: 2 bytes after the last segment "
	                   "in the block at offset 0; its last 2 bytes skipped");
	run_free(&r);
	free(r1), free(r2), free(b.p);
}
END_TEST

START_TEST(test_bdw_segment_overrun)
{
	struct bytes b = { 0 };
	uint8_t *r1 = smf_data(30, 40, 1), *r2 = smf_data(30, 60, 2);
	struct framer_opts o = opts(FRAMING_BDW);
	struct run r;

	put_bdw(&b, 4 + 44 + 30);      /* 0: 78 bytes */
	put_segment(&b, 0, r1, 40);    /* 4 */
	put_sdw(&b, 64, 0);            /* 48: runs 34 bytes past the block */
	put(&b, r2, 26);
	put_bdw(&b, 4 + 64);           /* 78 */
	put_segment(&b, 0, r2, 60);    /* 82 */
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_uint_eq(r.n, 2);
	assert_record(&r, 0, 4, r1, 40, 44, 1);
	assert_record(&r, 1, 82, r2, 60, 64, 1);
	ck_assert_uint_eq(r.t.damaged, 30);
	assert_message(&r, "offset 48 (0x30): warning: block contents do not "
	                   "match its descriptor: segment of 64 bytes overruns");
	run_free(&r);
	free(r1), free(r2), free(b.p);
}
END_TEST

START_TEST(test_bdw_cut_short)
{
	struct bytes b = { 0 };
	uint8_t *r1 = smf_data(30, 40, 1);
	struct framer_opts o = opts(FRAMING_BDW);
	struct run r;

	put_bdw(&b, 4 + 44 + 100);  /* 0: the file ends after its first segment */
	put_segment(&b, 0, r1, 40);
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_uint_eq(r.n, 1);
	ck_assert_uint_eq(r.t.damaged, 0);
	assert_message(&r, "offset 48 (0x30): warning: record cut short at end "
	                   "of input: the block at offset 0 lacks its last 100 "
	                   "bytes");
	run_free(&r);
	free(r1), free(b.p);
}
END_TEST

/* ---- PM framing ---- */

START_TEST(test_pm_stream)
{
	struct bytes b = { 0 };
	struct framer_opts o = opts(FRAMING_AUTO);
	struct run r;

	put_pm(&b, 5, 1, 240); /* 0 */
	put_pm(&b, 5, 2, 244); /* 240 */
	put_pm(&b, 5, 3, 192); /* 484 */
	put_pm(&b, 9, 1, 100); /* 676 */
	put_pm(&b, 5, 1, 240); /* 776 */
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_int_eq(r.framing, FRAMING_PM);
	ck_assert_int_eq(r.content, CONTENT_PM);
	ck_assert_uint_eq(r.n, 5);
	ck_assert_uint_eq(r.rec[1].offset, 240);
	ck_assert_uint_eq(r.rec[1].len, 244);
	ck_assert_uint_eq(r.rec[3].offset, 676);
	ck_assert_uint_eq(r.rec[3].len, 100);
	ck_assert_uint_eq(r.rec[3].input_bytes, 100);
	ck_assert_int_eq(memcmp(r.rec[3].bytes, b.p + 676, 100), 0);
	ck_assert_uint_eq(r.t.damaged, 0);
	run_free(&r);
	free(b.p);
}
END_TEST

START_TEST(test_pm_damage)
{
	struct bytes b = { 0 };
	static const uint8_t zero[3] = { 0, 0, 0 };
	struct framer_opts o = opts(FRAMING_PM);
	struct run r;

	put_pm(&b, 5, 1, 240); /* 0 */
	put(&b, zero, 3);      /* 240: length 0 */
	put_pm(&b, 5, 2, 244); /* 243 */
	put_pm(&b, 5, 3, 192); /* 487 */
	put_pm(&b, 5, 1, 240); /* 679 */
	put_pm(&b, 5, 2, 244); /* 919: cut after 100 bytes */
	run_stream(&r, b.p, b.len - 144, 0, &o);
	ck_assert_uint_eq(r.n, 4);
	ck_assert_uint_eq(r.rec[1].offset, 243);
	ck_assert_uint_eq(r.rec[3].offset, 679);
	ck_assert_uint_eq(r.t.damaged, 3 + 100);
	ck_assert_uint_eq(r.t.truncated, 1);
	assert_message(&r, "offset 240 (0xf0): warning: invalid record or block "
	                   "descriptor word: PM record length x'0000': below 4");
	assert_message(&r, "3 bytes skipped; records resume at offset 243");
	assert_message(&r, "offset 919 (0x397): warning: record cut short at end "
	                   "of input: PM record has 100 of its 244 bytes");
	run_free(&r);
	free(b.p);
}
END_TEST

/* ---- Detect ---- */

START_TEST(test_detect_rdw_smf)
{
	struct bytes b = { 0 };
	struct framer_opts o = opts(FRAMING_AUTO);
	struct run r;

	for (unsigned i = 0; i < 6; i++) {
		uint8_t *d = smf_data(30, 50 + i * 10, i);
		put_segment(&b, 0, d, 50 + i * 10);
		free(d);
	}
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_int_eq(r.framing, FRAMING_RDW);
	ck_assert_int_eq(r.content, CONTENT_SMF);
	ck_assert_uint_eq(r.n, 6);
	run_free(&r);
	free(b.p);
}
END_TEST

/* Six RDW records, each holding a PM record of 240 bytes, parts 1 to 3
 * twice. */
static void
put_rdw_pm_records(struct bytes *b)
{
	for (unsigned i = 0; i < 6; i++) {
		put_sdw(b, 4 + 240, 0);
		put_pm(b, 5, (uint8_t)(i % 3 + 1), 240);
	}
}

START_TEST(test_detect_rdw_pm)
{
	struct bytes b = { 0 };
	struct framer_opts o = opts(FRAMING_AUTO);
	struct run r;

	put_rdw_pm_records(&b);
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_int_eq(r.framing, FRAMING_RDW);
	ck_assert_int_eq(r.content, CONTENT_PM);
	ck_assert_uint_eq(r.n, 6);
	ck_assert_uint_eq(r.rec[5].offset, 5 * 244);
	run_free(&r);
	free(b.p);
}
END_TEST

/* RDW records that are all spanned: each segment's descriptor, x'0068'
 * and its code 1, 3 or 2 then x'00', reads as a plausible PM header of
 * 104 bytes, so that the whole file walks as PM records too. The RDWs,
 * which walk cleanly, must win. */
START_TEST(test_detect_rdw_all_spanned)
{
	struct bytes b = { 0 };
	struct framer_opts o = opts(FRAMING_AUTO);
	static const unsigned codes[3] = { 1, 3, 2 };
	struct run r;

	for (unsigned i = 0; i < 4; i++) {
		uint8_t *d = smf_data(30, 300, i);
		for (unsigned k = 0; k < 3; k++)
			put_segment(&b, codes[k], d + 100 * k, 100);
		free(d);
	}
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_int_eq(r.framing, FRAMING_RDW);
	ck_assert_uint_eq(r.n, 4);
	ck_assert_uint_eq(r.t.spanned, 4);
	ck_assert_uint_eq(r.t.damaged, 0);
	run_free(&r);
	free(b.p);
}
END_TEST

/* A range's framer takes the kind found at its input's start, which the
 * range's own bytes would be detected otherwise as: RDW records of PM
 * records (test_detect_rdw_pm), found to hold SMF records, are read as
 * SMF records, and none is one. */
START_TEST(test_found_kind_taken)
{
	struct bytes b = { 0 };
	struct framer_opts o = opts(FRAMING_AUTO);
	struct run r;

	put_rdw_pm_records(&b);
	o.found = (struct framing_kind){ FRAMING_RDW, CONTENT_SMF };
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_int_eq(r.framing, FRAMING_RDW);
	ck_assert_int_eq(r.content, CONTENT_SMF);
	ck_assert_uint_eq(r.n, 0);
	ck_assert_uint_eq(r.t.used + r.t.skipped + r.t.damaged, b.len);
	run_free(&r);
	free(b.p);
}
END_TEST

START_TEST(test_detect_bdw)
{
	struct bytes b = { 0 };
	uint8_t *d = smf_data(30, 100, 1);
	struct framer_opts o = opts(FRAMING_AUTO);
	struct run r;

	for (unsigned i = 0; i < 5; i++) {
		put_bdw(&b, 4 + 2 * 104);
		put_segment(&b, 0, d, 100);
		put_segment(&b, 0, d, 100);
	}
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_int_eq(r.framing, FRAMING_BDW);
	ck_assert_int_eq(r.content, CONTENT_SMF);
	ck_assert_uint_eq(r.n, 10);
	ck_assert_uint_eq(r.t.used, 20);
	run_free(&r);
	free(d), free(b.p);
}
END_TEST

START_TEST(test_detect_short_files)
{
	struct bytes b = { 0 };
	uint8_t *d = smf_data(2, 30, 1);
	struct framer_opts o = opts(FRAMING_AUTO);
	struct run r;

	put_segment(&b, 0, d, 30); /* one record */
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_int_eq(r.framing, FRAMING_RDW);
	ck_assert_uint_eq(r.n, 1);
	run_free(&r);
	put_segment(&b, 0, d, 30); /* two */
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_int_eq(r.framing, FRAMING_RDW);
	ck_assert_uint_eq(r.n, 2);
	run_free(&r);
	b.len = 0;
	put_pm(&b, 5, 1, 240);     /* one PM record */
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_int_eq(r.framing, FRAMING_PM);
	ck_assert_uint_eq(r.n, 1);
	run_free(&r);
	free(d), free(b.p);
}
END_TEST

/* A dump of one block, whole or cut anywhere after its first segment:
 * BDW blocks, never RDW records or a PM stream. */
START_TEST(test_detect_single_cut_block)
{
	struct bytes b = { 0 };
	uint8_t *hdr = smf_data(2, 14, 1), *d = smf_data(230, 600, 2);
	struct framer_opts o = opts(FRAMING_AUTO);
	size_t first_end = 4 + 4 + 14, block;
	struct run r;

	put_bdw(&b, 0);
	put_segment(&b, 0, hdr, 14);
	for (unsigned i = 0; i < 6; i++)
		put_segment(&b, 0, d, 600);
	block = b.len;
	b.len = 0;
	put_bdw(&b, block);
	b.len = block;
	for (size_t cut = first_end; cut <= block; cut++) {
		run_stream(&r, b.p, cut, 0, &o);
		ck_assert_msg(r.opened && r.framing == FRAMING_BDW &&
		              r.content == CONTENT_SMF,
		              "cut at %zu of %zu: framing %d, content %d", cut, block,
		              r.framing, r.content);
		ck_assert_uint_eq(r.n, 1 + (cut - first_end) / 604);
		run_free(&r);
	}
	free(hdr), free(d), free(b.p);
}
END_TEST

START_TEST(test_detect_damaged_start)
{
	/* two good records, a bad RDW, then good ones: still RDW framing */
	static const uint8_t junk[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	struct bytes b = { 0 };
	uint8_t *d = smf_data(30, 40, 1);
	struct framer_opts o = opts(FRAMING_AUTO);
	struct run r;

	put_segment(&b, 0, d, 40);     /* 0 */
	put_segment(&b, 0, d, 40);     /* 44 */
	put(&b, junk, sizeof junk);    /* 88 */
	for (unsigned i = 0; i < 5; i++)
		put_segment(&b, 0, d, 40); /* 94, 138, ... */
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_int_eq(r.framing, FRAMING_RDW);
	ck_assert_uint_eq(r.n, 7);
	assert_record(&r, 2, 94, d, 40, 44, 1);
	ck_assert_uint_eq(r.t.damaged, 6);
	assert_message(&r, "offset 88 (0x58): warning: invalid record");
	run_free(&r);
	free(d), free(b.p);
}
END_TEST

START_TEST(test_detect_unended_at_start)
{
	/* a first segment that a complete one ends: damage, still RDW */
	struct bytes b = { 0 };
	uint8_t *d = smf_data(30, 40, 1);
	struct framer_opts o = opts(FRAMING_AUTO);
	struct run r;

	put_segment(&b, 0, d, 40);     /* 0 */
	put_segment(&b, 1, d, 20);     /* 44 */
	for (unsigned i = 0; i < 3; i++)
		put_segment(&b, 0, d, 40); /* 68, 112, 156 */
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_int_eq(r.framing, FRAMING_RDW);
	ck_assert_uint_eq(r.n, 4);
	ck_assert_uint_eq(r.t.damaged, 24);
	assert_message(&r, "offset 44 (0x2c): warning: spanned record has a "
	                   "first segment but no last");
	run_free(&r);
	free(d), free(b.p);
}
END_TEST

/* Auto-detection refuses the stream with a message naming cause. */
static void
check_refusal(const uint8_t *p, size_t len, const char *cause)
{
	struct framer_opts o = opts(FRAMING_AUTO);
	struct run r;

	run_stream(&r, p, len, 0, &o);
	ck_assert(!r.opened);
	ck_assert_int_eq(r.st, PM_E_NO_FRAMING);
	ck_assert_uint_eq(r.n, 0);
	ck_assert_uint_eq(r.t.damaged, r.t.bytes_read);
	assert_message(&r, "test: offset 0 (0x0): error: cannot recognise the "
	                   "input's framing: ");
	assert_message(&r, cause);
	ck_assert_uint_eq(message_count(&r), 1);
	run_free(&r);
}

START_TEST(test_refuse_gzip)
{
	/* gzip inside gzip: the outer one is decoded as it is read where
	 * zlib is built in, and the inner one is refused */
	static const uint8_t gz[] = {
		0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0x93, 0xef,
		0xe6, 0x60, 0x00, 0x01, 0x26, 0x66, 0xee, 0x0f, 0x5f, 0xbf, 0xf0, 0x3a,
		0x1c, 0x62, 0xe8, 0xf4, 0xbd, 0xcd, 0x29, 0x00, 0x14, 0x01, 0x00, 0x8c,
		0x3e, 0xb6, 0xe5, 0x1a, 0x00, 0x00, 0x00
	};
	check_refusal(gz, sizeof gz, "looks gzip-compressed");
}
END_TEST

START_TEST(test_refuse_text)
{
	static const char text[] =
		"SMF DUMP REPORT   2024-04-09 10:15:02\n"
		"RECORD TYPE 30   COUNT 1,234\n"
		"RECORD TYPE 70   COUNT 96\n"
		"RECORD TYPE 230  COUNT 2,880\n";
	check_refusal((const uint8_t *)text, sizeof text - 1,
	              "looks like ASCII text: a text-mode transfer?");
}
END_TEST

START_TEST(test_refuse_bare_smf)
{
	struct bytes b = { 0 };

	/* SMF records as FTP without SITE RDW leaves them: no descriptors */
	for (unsigned i = 0; i < 4; i++) {
		uint8_t *d = smf_data(30, 80 + 8 * i, i);
		put(&b, d, 80 + 8 * i);
		free(d);
	}
	check_refusal(b.p, b.len,
	              "no RDWs: was the file sent by FTP without SITE RDW?");
	free(b.p);
}
END_TEST

START_TEST(test_refuse_terse)
{
	/* host-mode SPACK header: VB, LRECL 32,756 in the fullword, MVS flag
	 * with BLKSIZE 27,998, then packed data */
	static const uint8_t terse[] = { 0x05, 0x01, 0x00, 0x00, 0x04, 0x00, 0x6d,
	                                 0x5e, 0x00, 0x00, 0x7f, 0xf4, 0x3a, 0x91,
	                                 0x07, 0xc4, 0x52, 0x18, 0xe0, 0x0d, 0xb3,
	                                 0x66, 0x81, 0x2f };
	check_refusal(terse, sizeof terse,
	              "looks like a tersed file: unpack it with AMATERSE or "
	              "tersedecompress first");
}
END_TEST

START_TEST(test_refuse_unknown)
{
	static const uint8_t junk[] = { 0x9c, 0x41, 0x07, 0xe3, 0x55, 0x12, 0xc8,
	                                0x3d, 0x90, 0x01, 0xfe, 0x77 };
	check_refusal(junk, sizeof junk, "first bytes x'9c4107e35512c83d'");
}
END_TEST

START_TEST(test_refuse_single_rdw)
{
	/* one valid RDW is not enough to commit to RDW framing */
	static const uint8_t p[] = { 0x00, 0x08, 0x00, 0x00, 0xde, 0xad, 0xbe,
	                             0xef, 0x9c, 0x41, 0x07, 0xe3, 0x55, 0x12,
	                             0xc8, 0x3d, 0x90, 0x01, 0xfe, 0x77 };
	check_refusal(p, sizeof p, "neither BDW blocks, RDW records nor PM "
	                           "records from the start (first bytes "
	                           "x'00080000deadbeef')");
}
END_TEST

/* ---- Chunking ---- */

static uint64_t
fnv(uint64_t h, const void *p, size_t n)
{
	const uint8_t *s = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * 0x100000001b3ull;
	return h;
}

/* Everything a run produced, as one number. */
static uint64_t
run_digest(const struct run *r)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < r->n; i++) {
		const struct got *g = &r->rec[i];
		h = fnv(h, &g->offset, sizeof g->offset);
		h = fnv(h, &g->len, sizeof g->len);
		h = fnv(h, &g->input_bytes, sizeof g->input_bytes);
		h = fnv(h, &g->segments, sizeof g->segments);
		h = fnv(h, &g->kept, sizeof g->kept);
		h = fnv(h, g->bytes, g->nbytes);
	}
	h = fnv(h, &r->t, sizeof r->t);
	h = fnv(h, r->msgs, r->msgs_len);
	h = fnv(h, &r->framing, sizeof r->framing);
	return fnv(h, &r->content, sizeof r->content);
}

/* The same bytes in reads of every size give the same records, tally and
 * messages. */
static void
check_every_chunk(const uint8_t *p, size_t len, const struct framer_opts *o)
{
	struct run r;
	uint64_t whole;

	run_stream(&r, p, len, 0, o);
	whole = run_digest(&r);
	ck_assert_uint_eq(r.t.bytes_read, len);
	run_free(&r);
	for (size_t chunk = 1; chunk <= len; chunk++) {
		run_stream(&r, p, len, chunk, o);
		ck_assert_msg(run_digest(&r) == whole, "chunk size %zu differs", chunk);
		run_free(&r);
	}
}

/* An RDW stream with spanned records and damage of every kind. */
static void
damaged_rdw_stream(struct bytes *b)
{
	static const uint8_t junk[5] = { 0xff, 0xff, 0xfe, 0xfd, 0xfc };
	uint8_t *d = smf_data(30, 300, 5);

	put_segment(b, 0, d, 40);
	put_segment(b, 1, d, 100);
	put_segment(b, 3, d + 100, 100);
	put_segment(b, 2, d + 200, 100);
	put_segment(b, 3, d, 30);          /* orphan middle */
	put_segment(b, 1, d, 50);          /* unended */
	put_segment(b, 0, d, 60);
	put(b, junk, sizeof junk);         /* resync */
	put_segment(b, 0, d, 70);
	put_segment(b, 2, d, 20);          /* orphan last */
	put_segment(b, 0, d, 33);
	put_segment(b, 1, d, 44);
	put_segment(b, 2, d + 44, 55);
	put_segment(b, 0, d, 90);
	put_segment(b, 1, d, 40);          /* cut short at the end */
	put_segment(b, 2, d + 40, 70);
	b->len -= 20;
	free(d);
}

/* A BDW stream with records spanning blocks and a bad block. */
static void
bdw_stream(struct bytes *b)
{
	uint8_t *d = smf_data(116, 400, 6);

	put_bdw(b, 4 + 44 + 104);
	put_segment(b, 0, d, 40);
	put_segment(b, 1, d, 100);
	put_bdw(b, 4 + 154);
	put_segment(b, 3, d + 100, 150);
	put_bdw(b, 4 + 54 + 24);
	put_segment(b, 2, d + 250, 50);
	put_segment(b, 0, d, 20);
	put_bdw(b, 4 + 24 + 3);            /* bad block: 3 bytes too long */
	put_segment(b, 0, d, 20);
	put(b, d, 3);
	put_bdw(b, 4 + 64 + 34);
	put_segment(b, 0, d, 60);
	put_segment(b, 1, d, 30);
	put_bdw(b, 4 + 84);
	put_segment(b, 2, d + 30, 80);
	free(d);
}

START_TEST(test_chunks_rdw)
{
	struct bytes b = { 0 };
	struct framer_opts o = opts(FRAMING_RDW);
	struct run r;

	damaged_rdw_stream(&b);
	/* the stream's figures, from how it was laid out */
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_uint_eq(r.n, 7);
	ck_assert_uint_eq(r.t.orphans, 2);
	ck_assert_uint_eq(r.t.spanned, 2);
	ck_assert_uint_eq(r.t.segments, 5);
	ck_assert_uint_eq(r.t.truncated, 1);
	ck_assert_uint_eq(r.t.damaged, 34 + 54 + 5 + 24 + 44 + 54);
	run_free(&r);
	check_every_chunk(b.p, b.len, &o);
	o.framing = FRAMING_AUTO;
	check_every_chunk(b.p, b.len, &o);
	free(b.p);
}
END_TEST

START_TEST(test_chunks_bdw)
{
	struct bytes b = { 0 };
	struct framer_opts o = opts(FRAMING_AUTO);
	struct run r;

	bdw_stream(&b);
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_int_eq(r.framing, FRAMING_BDW);
	ck_assert_uint_eq(r.n, 6);
	ck_assert_uint_eq(r.t.used, 6 * 4);
	ck_assert_uint_eq(r.t.damaged, 3);
	ck_assert_uint_eq(r.t.spanned, 2);
	ck_assert_uint_eq(r.t.segments, 5);
	run_free(&r);
	check_every_chunk(b.p, b.len, &o);
	free(b.p);
}
END_TEST

START_TEST(test_chunks_pm)
{
	struct bytes b = { 0 };
	static const uint8_t bad[2] = { 0x00, 0x02 };
	struct framer_opts o = opts(FRAMING_PM);

	put_pm(&b, 5, 1, 240);
	put_pm(&b, 5, 2, 244);
	put(&b, bad, 2);
	put_pm(&b, 5, 3, 192);
	put_pm(&b, 7, 1, 64);
	put_pm(&b, 7, 2, 64);
	put_pm(&b, 5, 1, 240);
	b.len -= 7;
	check_every_chunk(b.p, b.len, &o);
	free(b.p);
}
END_TEST

static uint32_t
next_random(uint32_t *state)
{
	uint32_t x = *state;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *state = x;
}

/* Random pieces, valid and not: segments of every code, BDWs, PM records,
 * junk and zeros. */
static void
random_stream(struct bytes *b, uint32_t *state)
{
	uint8_t *d = smf_data(30, 600, 3);
	unsigned pieces = 1 + next_random(state) % 14;

	for (unsigned i = 0; i < pieces; i++) {
		uint32_t r = next_random(state);
		size_t n = r >> 8 & 0x1ff;
		switch (r % 6) {
		case 0:
		case 1:
			put_segment(b, r >> 20 & 3, d, n);
			break;
		case 2:
			put_bdw(b, 4 + (r >> 8 & 0x3ff));
			break;
		case 3:
			put_pm(b, (uint8_t)(1 + (r >> 20) % 9), (uint8_t)(r >> 24 & 3),
			       5 + n);
			break;
		case 4:
			for (size_t k = 0; k < (n & 31) + 1; k++) {
				uint8_t junk = (uint8_t)next_random(state);
				put(b, &junk, 1);
			}
			break;
		default:
			put_word(b, 0);
			break;
		}
	}
	free(d);
}

START_TEST(test_random_streams)
{
	static const enum framing all[] = { FRAMING_AUTO, FRAMING_PM, FRAMING_RDW,
	                                    FRAMING_BDW };
	uint32_t state = 2463534242u;
	unsigned calls = 0;

	for (int iter = 0; iter < 300; iter++) {
		struct bytes b = { 0 };

		random_stream(&b, &state);
		for (size_t f = 0; f < sizeof all / sizeof all[0]; f++) {
			struct framer_opts o = opts(all[f]);
			struct run r;
			uint64_t whole;
			size_t chunk = 1 + next_random(&state) % 23;

			if (iter & 1) {
				o.want = want_type_30;
				o.want_ctx = &calls;
				o.max_record = 200;
			}
			run_stream(&r, b.p, b.len, 0, &o);
			whole = run_digest(&r);
			ck_assert_uint_eq(r.t.bytes_read, b.len);
			run_free(&r);
			run_stream(&r, b.p, b.len, chunk, &o);
			ck_assert_msg(run_digest(&r) == whole,
			              "stream %d, framing %zu, chunk %zu differs", iter,
			              f, chunk);
			run_free(&r);
		}
		free(b.p);
	}
}
END_TEST

/* Cut a valid stream at every offset: no crash, every byte accounted, and
 * what is handed up is a prefix of the records of the whole stream. */
static void
check_every_cut(const uint8_t *p, size_t len, enum framing f)
{
	struct framer_opts o = opts(f);
	struct run whole, r;

	run_stream(&whole, p, len, 0, &o);
	ck_assert_uint_eq(whole.t.damaged, 0);
	for (size_t cut = 0; cut <= len; cut++) {
		run_stream(&r, p, cut, 0, &o);
		ck_assert_uint_eq(r.t.bytes_read, cut);
		ck_assert(r.opened || r.st == PM_E_NO_FRAMING);
		ck_assert_uint_le(r.n, whole.n);
		for (size_t i = 0; i < r.n; i++) {
			ck_assert_uint_eq(r.rec[i].offset, whole.rec[i].offset);
			ck_assert_uint_eq(r.rec[i].nbytes, whole.rec[i].nbytes);
			ck_assert_int_eq(memcmp(r.rec[i].bytes, whole.rec[i].bytes,
			                        r.rec[i].nbytes), 0);
		}
		if (cut == len)
			ck_assert_uint_eq(r.n, whole.n);
		run_free(&r);
	}
	run_free(&whole);
}

START_TEST(test_cut_everywhere)
{
	struct bytes b = { 0 };
	uint8_t *d = smf_data(30, 200, 8);

	put_segment(&b, 0, d, 30);
	put_segment(&b, 1, d, 60);
	put_segment(&b, 3, d + 60, 40);
	put_segment(&b, 2, d + 100, 100);
	put_segment(&b, 0, d, 25);
	check_every_cut(b.p, b.len, FRAMING_RDW);
	check_every_cut(b.p, b.len, FRAMING_AUTO);
	b.len = 0;
	put_bdw(&b, 4 + 34 + 64);
	put_segment(&b, 0, d, 30);
	put_segment(&b, 1, d, 60);
	put_bdw(&b, 4 + 104 + 29);
	put_segment(&b, 2, d + 60, 100);
	put_segment(&b, 0, d, 25);
	check_every_cut(b.p, b.len, FRAMING_BDW);
	check_every_cut(b.p, b.len, FRAMING_AUTO);
	b.len = 0;
	put_pm(&b, 5, 1, 40);
	put_pm(&b, 5, 2, 44);
	put_pm(&b, 5, 3, 32);
	check_every_cut(b.p, b.len, FRAMING_PM);
	check_every_cut(b.p, b.len, FRAMING_AUTO);
	free(d), free(b.p);
}
END_TEST

/* ---- Real data: ../shared/data/real-smf ---- */

static char real_path[4096];

/* The path of SMF_MQ1000.dat, or NULL where the shared data are absent. */
static const char *
real_file(void)
{
	const char *top = getenv("top_srcdir");
	FILE *f;

	snprintf(real_path, sizeof real_path,
	         "%s/../shared/data/real-smf/SMF_MQ1000.dat", top ? top : ".");
	if ((f = fopen(real_path, "rb")) == NULL)
		return NULL;
	fclose(f);
	return real_path;
}

static struct bytes
load(const char *path)
{
	struct bytes b = { 0 };
	uint8_t chunk[65536];
	size_t n;
	FILE *f = fopen(path, "rb");

	ck_assert_ptr_nonnull(f);
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		put(&b, chunk, n);
	fclose(f);
	return b;
}

/* The logical records of a clean SDW stream (the test's own reading: data
 * after the RDW, segments joined), to re-frame in other ways. */
struct logical {
	struct bytes *rec;
	size_t n;
};

static struct logical
split_logical(const struct bytes *file)
{
	struct logical l = { calloc(1000, sizeof(struct bytes)), 0 };
	size_t off = 0;

	ck_assert_ptr_nonnull(l.rec);
	while (off < file->len) {
		size_t len = (size_t)(file->p[off] << 8 | file->p[off + 1]);
		unsigned code = file->p[off + 2] & 3;

		if (code == 0 || code == 1)
			l.n++;
		ck_assert_uint_le(l.n, 1000);
		put(&l.rec[l.n - 1], file->p + off + 4, len - 4);
		off += len;
	}
	return l;
}

static void
logical_free(struct logical *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->rec[i].p);
	free(l->rec);
}

/* Append the block being built (its first 4 bytes held for the BDW) to
 * out, and start the next. extended: the extended BDW for blocks over
 * 32,760 bytes. */
static void
flush_block(struct bytes *out, struct bytes *blk, bool extended)
{
	if (blk->len > 4) {
		put_word(out, blk->len > 32760 && extended
		              ? 0x80000000u | (uint32_t)blk->len
		              : (uint32_t)blk->len << 16);
		put(out, blk->p + 4, blk->len - 4);
	}
	blk->len = 4;
}

/* Logical records as a VBS writer blocks them: blocks of at most blksize
 * bytes, a record split into first, middle and last segments where it does
 * not fit the room left in a block. */
static struct bytes
vbs_blocks(const struct logical *l, size_t blksize, bool extended)
{
	struct bytes out = { 0 }, blk = { 0 };

	put_word(&blk, 0);
	for (size_t i = 0; i < l->n; i++) {
		const struct bytes *r = &l->rec[i];
		size_t done = 0;

		do {
			size_t room = blksize - blk.len, take = r->len - done;
			unsigned code;

			if (room < 4 + 1) {
				flush_block(&out, &blk, extended);
				room = blksize - blk.len;
			}
			if (take > room - 4)
				take = room - 4;
			if (take > 32756)
				take = 32756;
			code = done == 0 ? (take == r->len ? 0 : 1)
			                 : (done + take == r->len ? 2 : 3);
			put_segment(&blk, code, r->p + done, take);
			done += take;
		} while (done < r->len);
	}
	flush_block(&out, &blk, extended);
	free(blk.p);
	return out;
}

/* Logical records as an SDW stream, every record longer than maxseg bytes
 * (SDW included) split into segments of at most maxseg. */
static struct bytes
sdw_stream(const struct logical *l, size_t maxseg)
{
	struct bytes out = { 0 };

	for (size_t i = 0; i < l->n; i++) {
		const struct bytes *r = &l->rec[i];
		size_t done = 0;

		do {
			size_t take = r->len - done > maxseg - 4 ? maxseg - 4
			                                         : r->len - done;
			unsigned code = done == 0 ? (take == r->len ? 0 : 1)
			                          : (done + take == r->len ? 2 : 3);
			put_segment(&out, code, r->p + done, take);
			done += take;
		} while (done < r->len);
	}
	return out;
}

/* The inventory of SMF_MQ1000.dat (its README): 709 records by type, and
 * each record's data equal to the test's own reading of the file. */
static void
check_inventory(const struct run *r, const struct logical *l)
{
	unsigned by_type[256] = { 0 };

	ck_assert_uint_eq(r->n, 709);
	ck_assert_uint_eq(r->t.damaged, 0);
	ck_assert_str_eq(r->msgs, "");
	ck_assert_int_eq(r->content, CONTENT_SMF);
	for (size_t i = 0; i < r->n; i++) {
		by_type[r->rec[i].bytes[5]]++;
		ck_assert_uint_eq(r->rec[i].len, l->rec[i].len + 4);
		ck_assert_int_eq(memcmp(r->rec[i].bytes + 4, l->rec[i].p,
		                        l->rec[i].len), 0);
	}
	ck_assert_uint_eq(by_type[2], 1);
	ck_assert_uint_eq(by_type[115], 286);
	ck_assert_uint_eq(by_type[116], 421);
	ck_assert_uint_eq(by_type[3], 1);
	ck_assert_uint_eq(r->rec[0].bytes[5], 2);
	ck_assert_uint_eq(r->rec[708].bytes[5], 3);
}

START_TEST(test_real_file)
{
	struct framer_opts o = opts(FRAMING_AUTO);
	struct bytes file = load(real_path);
	struct logical l = split_logical(&file);
	struct input in;
	struct diag d;
	struct tally t;
	struct framer *fr;
	struct fr_record rec;
	pm_status st;
	unsigned by_type[256] = { 0 }, n = 0;
	uint64_t handed = 0;

	/* from the file itself, through input_open_path */
	memset(&t, 0, sizeof t);
	diag_init(&d, "pmimrpt", stderr);
	ck_assert_int_eq(input_open_path(&in, real_path), PM_OK);
	o.buffer_size = 0; /* the default */
	fr = framer_open(&in, &o, &d, &t, &st);
	ck_assert_ptr_nonnull(fr);
	ck_assert_str_eq(framing_name(framer_framing(fr)), "rdw");
	ck_assert_int_eq(framer_content(fr), CONTENT_SMF);
	while (framer_next(fr, &rec) == 1) {
		by_type[rec.head[5]]++;
		handed += rec.input_bytes;
		n++;
	}
	ck_assert_uint_eq(framer_position(fr), 1769464);
	framer_close(fr);
	input_close(&in);
	ck_assert_uint_eq(n, 709);
	ck_assert_uint_eq(by_type[2], 1);
	ck_assert_uint_eq(by_type[115], 286);
	ck_assert_uint_eq(by_type[116], 421);
	ck_assert_uint_eq(by_type[3], 1);
	ck_assert_uint_eq(t.spanned, 63);
	ck_assert_uint_eq(t.segments, 126);
	ck_assert_uint_eq(t.damaged, 0);
	ck_assert_uint_eq(t.damaged_records, 0);
	ck_assert_uint_eq(t.bytes_read, 1769464);
	ck_assert_uint_eq(handed + t.used + t.skipped + t.damaged, 1769464);

	/* from memory in odd-sized reads, with every record's data checked */
	{
		struct run r;
		ck_assert_uint_eq(l.n, 709);
		run_stream(&r, file.p, file.len, 4093, &o);
		check_inventory(&r, &l);
		ck_assert_uint_eq(r.handed, 1769464);
		run_free(&r);
	}
	logical_free(&l);
	free(file.p);
}
END_TEST

/* A variant of the real file must give the same inventory. */
static void
check_variant(const struct bytes *v, const struct logical *l, enum framing f,
              size_t chunk)
{
	struct framer_opts o = opts(FRAMING_AUTO);
	struct run r;

	run_stream(&r, v->p, v->len, chunk, &o);
	ck_assert_int_eq(r.framing, f);
	check_inventory(&r, l);
	ck_assert_uint_eq(r.t.bytes_read, v->len);
	run_free(&r);
}

START_TEST(test_real_reblocked)
{
	static const size_t blksizes[] = { 8192, 27998, 32760 };
	struct bytes file = load(real_path);
	struct logical l = split_logical(&file);

	for (size_t i = 0; i < sizeof blksizes / sizeof blksizes[0]; i++) {
		struct bytes v = vbs_blocks(&l, blksizes[i], false);
		check_variant(&v, &l, FRAMING_BDW, 0);
		check_variant(&v, &l, FRAMING_BDW, 7001);
		free(v.p);
	}
	logical_free(&l);
	free(file.p);
}
END_TEST

START_TEST(test_real_extended_blocks)
{
	struct bytes file = load(real_path);
	struct logical l = split_logical(&file);
	struct bytes v = vbs_blocks(&l, 200000, true);

	ck_assert_uint_eq(v.p[0] & 0x80, 0x80);
	check_variant(&v, &l, FRAMING_BDW, 0);
	check_variant(&v, &l, FRAMING_BDW, 65537);
	free(v.p);
	logical_free(&l);
	free(file.p);
}
END_TEST

START_TEST(test_real_resegmented)
{
	struct bytes file = load(real_path);
	struct logical l = split_logical(&file);
	struct bytes v = sdw_stream(&l, 1000);

	check_variant(&v, &l, FRAMING_RDW, 0);
	check_variant(&v, &l, FRAMING_RDW, 999);
	free(v.p);
	logical_free(&l);
	free(file.p);
}
END_TEST

/* ---- Damage the corruption catalogue (tests/corrupt.c) found ---- */

/* A PM record whose header is no PM record's is bytes read out of step
 * (after a damaged length): resynchronise, do not trust its length. */
START_TEST(test_pm_header_out_of_step)
{
	struct bytes b = { 0 };
	static const uint8_t junk[3] = { 0xff, 0xff, 0xff };
	struct framer_opts o = opts(FRAMING_PM);
	struct run r;

	put_pm(&b, 5, 1, 240); /* 0 */
	put(&b, junk, 3);      /* 240: length x'FFFF', type x'FF' */
	put_pm(&b, 5, 2, 244); /* 243 */
	put_pm(&b, 5, 3, 192); /* 487 */
	put_pm(&b, 5, 1, 240); /* 679 */
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_uint_eq(r.n, 4);
	ck_assert_uint_eq(r.rec[1].offset, 243);
	ck_assert_uint_eq(r.t.damaged, 3);
	assert_message(&r, "offset 240 (0xf0): warning: invalid record or block "
	                   "descriptor word: PM record header x'ffffff00': not a "
	                   "PM record's");
	assert_message(&r, "3 bytes skipped; records resume at offset 243");
	run_free(&r);
	free(b.p);
}
END_TEST

/* A length one too long takes the next record's first byte; the header
 * read there runs past the end of the input, but records walk inside it:
 * its length was misread, not cut short. */
START_TEST(test_pm_length_misread)
{
	struct bytes b = { 0 };
	struct framer_opts o = opts(FRAMING_PM);
	struct run r;

	put_pm(&b, 5, 1, 240); /* 0: INTLEN made 241 */
	put_pm(&b, 5, 2, 244); /* 240 */
	put_pm(&b, 5, 3, 192); /* 484 */
	put_pm(&b, 5, 1, 240); /* 676 */
	put_pm(&b, 5, 2, 244); /* 916 */
	b.p[1] = 241;
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_uint_eq(r.n, 4);
	ck_assert_uint_eq(r.rec[0].len, 241);
	ck_assert_uint_eq(r.rec[1].offset, 484);
	ck_assert_uint_eq(r.t.truncated, 0);
	ck_assert_uint_eq(r.t.damaged, 243);
	assert_message(&r, "offset 241 (0xf1): warning: invalid record or block "
	                   "descriptor word: PM record x'f405': its length runs "
	                   "past the end of input");
	assert_message(&r, "243 bytes skipped; records resume at offset 484");
	run_free(&r);
	free(b.p);
}
END_TEST

/* An RDW that is valid but not followed by a record: read out of step. */
START_TEST(test_rdw_without_record)
{
	struct bytes b = { 0 };
	uint8_t *d = smf_data(30, 60, 1), junk[12];
	struct framer_opts o = opts(FRAMING_RDW);
	struct run r;

	memset(junk, 0xff, sizeof junk);
	put_segment(&b, 0, d, 60);     /* 0 */
	put_segment(&b, 0, d, 60);     /* 64 */
	put_segment(&b, 0, junk, 12);  /* 128: an RDW of 16 bytes */
	for (unsigned i = 0; i < 4; i++)
		put_segment(&b, 0, d, 60); /* 144, 208, 272, 336 */
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_uint_eq(r.n, 6);
	assert_record(&r, 2, 144, d, 60, 64, 1);
	ck_assert_uint_eq(r.t.damaged, 16);
	assert_message(&r, "offset 128 (0x80): warning: invalid record or block "
	                   "descriptor word: RDW x'00100000': no SMF record header "
	                   "follows");
	assert_message(&r, "16 bytes skipped; records resume at offset 144");
	run_free(&r);
	free(d), free(b.p);
}
END_TEST

/* An RDW whose length runs past the end of the input while records walk
 * inside it was misread: resynchronise instead of losing the rest. */
START_TEST(test_rdw_length_misread)
{
	struct bytes b = { 0 };
	uint8_t *d = smf_data(30, 60, 1);
	struct framer_opts o = opts(FRAMING_RDW);
	struct run r;

	for (unsigned i = 0; i < 6; i++)
		put_segment(&b, 0, d, 60); /* 0, 64, ..., 320 */
	b.p[64] = 0x7f;                /* 64: 32,576 bytes */
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_uint_eq(r.n, 5);
	assert_record(&r, 1, 128, d, 60, 64, 1);
	ck_assert_uint_eq(r.t.truncated, 0);
	ck_assert_uint_eq(r.t.damaged, 64);
	assert_message(&r, "offset 64 (0x40): warning: invalid record or block "
	                   "descriptor word: record x'7f400000': its length runs "
	                   "past the end of input");
	run_free(&r);
	free(d), free(b.p);
}
END_TEST

/* Resynchronising does not resume inside a record whose data happen to
 * walk as RDWs: a record must start with an SMF header. */
START_TEST(test_resync_not_inside_record)
{
	struct bytes b = { 0 };
	uint8_t *d = smf_data(30, 60, 1), fake[64];
	struct framer_opts o = opts(FRAMING_RDW);
	struct run r;

	for (size_t i = 0; i < sizeof fake; i += 8) {
		static const uint8_t rdw8[8] = { 0, 8, 0, 0, 0xff, 0xff, 0xff, 0xff };
		memcpy(fake + i, rdw8, 8);
	}
	put_segment(&b, 0, d, 60);             /* 0 */
	put_segment(&b, 0, fake, sizeof fake); /* 64: damaged below */
	for (unsigned i = 0; i < 4; i++)
		put_segment(&b, 0, d, 60);         /* 132, ... */
	b.p[67] = 1;                           /* reserved byte */
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_uint_eq(r.n, 5);
	assert_record(&r, 1, 132, d, 60, 64, 1);
	assert_message(&r, "68 bytes skipped; records resume at offset 132");
	run_free(&r);
	free(d), free(b.p);
}
END_TEST

/* Near the end of the input, a unit that runs past it is no evidence:
 * a first segment and a record cut short after damage are skipped. */
START_TEST(test_resync_near_end)
{
	struct bytes b = { 0 };
	uint8_t *d = smf_data(30, 60, 1);
	struct framer_opts o = opts(FRAMING_RDW);
	struct run r;

	for (unsigned i = 0; i < 4; i++)
		put_segment(&b, 0, d, 60); /* 0, 64, 128, 192 */
	put_word(&b, 0xffff0000u);     /* 256: damaged */
	put_segment(&b, 1, d, 60);     /* 260: a first segment */
	put_sdw(&b, 200, 0);           /* 324: a record cut short */
	put(&b, d, 10);
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_uint_eq(r.n, 4);
	ck_assert_uint_eq(r.t.damaged, b.len - 256);
	assert_message(&r, "82 bytes skipped to the end of input");
	run_free(&r);
	free(d), free(b.p);
}
END_TEST

/* The first descriptor damaged: the framing is still found, further on. */
START_TEST(test_detect_first_unit_damaged)
{
	struct bytes b = { 0 };
	uint8_t *d = smf_data(30, 40, 1);
	struct framer_opts o = opts(FRAMING_AUTO);
	struct run r;

	for (unsigned i = 0; i < 7; i++) {
		put_bdw(&b, 4 + 44 + 44);  /* 0, 92, ... */
		put_segment(&b, 0, d, 40);
		put_segment(&b, 0, d, 40);
	}
	b.p[2] = 0x12;                 /* BDW bytes 2-3 not zero */
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_int_eq(r.framing, FRAMING_BDW);
	ck_assert_int_eq(r.content, CONTENT_SMF);
	ck_assert_uint_eq(r.n, 12);
	assert_record(&r, 0, 96, d, 40, 44, 1);
	assert_message(&r, "92 bytes skipped; records resume at offset 92");
	run_free(&r);
	free(b.p);

	memset(&b, 0, sizeof b);
	for (unsigned i = 0; i < 8; i++)
		put_segment(&b, 0, d, 40); /* 0, 44, ... */
	b.p[3] = 0x12;                 /* RDW byte 3 not zero */
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_int_eq(r.framing, FRAMING_RDW);
	ck_assert_int_eq(r.content, CONTENT_SMF);
	ck_assert_uint_eq(r.n, 7);
	assert_record(&r, 0, 44, d, 40, 44, 1);
	run_free(&r);
	free(d), free(b.p);
}
END_TEST

/* 1 to 13 zero bytes before the first RDW: the search for where
 * records walk again screens the window's words several at a time, so
 * the records are found wherever they start among them, and in the few
 * last bytes. */
START_TEST(test_detect_junk_before_first_record)
{
	uint8_t *d = smf_data(30, 40, 1);
	struct framer_opts o = opts(FRAMING_AUTO);

	for (size_t n = 1; n <= 13; n++) {
		struct bytes b = { 0 };
		struct run r;

		for (size_t i = 0; i < n; i++)
			put(&b, (const uint8_t[]){ 0 }, 1);
		for (unsigned i = 0; i < 8; i++)
			put_segment(&b, 0, d, 40); /* n, n + 44, ... */
		run_stream(&r, b.p, b.len, 0, &o);
		ck_assert_int_eq(r.framing, FRAMING_RDW);
		ck_assert_uint_eq(r.n, 8);
		assert_record(&r, 0, n, d, 40, 44, 1);
		ck_assert_uint_eq(r.t.damaged, n);
		run_free(&r);
		free(b.p);
	}
	free(d);
}
END_TEST

/* A damaged first block, then just the blocks a damaged start asks for
 * (3 and 2 more), the last ending where the input does: the search tries
 * each offset whose next descriptor reads as one, or lies past the input,
 * and so still finds them; one block fewer and it does not. */
START_TEST(test_detect_damage_then_just_enough)
{
	uint8_t *d = smf_data(30, 40, 1);
	struct framer_opts o = opts(FRAMING_AUTO);

	for (unsigned good = 4; good <= 5; good++) {
		struct bytes b = { 0 };
		struct run r;

		for (unsigned i = 0; i < 1 + good; i++) {
			put_bdw(&b, 4 + 44 + 44);  /* 0, 92, ... */
			put_segment(&b, 0, d, 40);
			put_segment(&b, 0, d, 40);
		}
		b.p[2] = 0x12;                 /* BDW bytes 2-3 not zero */
		run_stream(&r, b.p, b.len, 0, &o);
		if (good == 5) {
			ck_assert_int_eq(r.framing, FRAMING_BDW);
			ck_assert_uint_eq(r.n, 10);
			assert_record(&r, 0, 96, d, 40, 44, 1);
		} else {
			ck_assert_int_ne(r.framing, FRAMING_BDW);
		}
		run_free(&r);
		free(b.p);
	}
	free(d);
}
END_TEST

/* A good block, junk, and a last block that ends where the input does:
 * past the damage, one unit that reaches the end is enough, and the
 * search must try it though no descriptor follows it. */
START_TEST(test_detect_damage_then_last_block)
{
	static const uint8_t junk[20] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	};
	uint8_t *d = smf_data(30, 40, 1);
	struct framer_opts o = opts(FRAMING_AUTO);
	struct bytes b = { 0 };
	struct run r;

	put_bdw(&b, 4 + 44 + 44);  /* 0 */
	put_segment(&b, 0, d, 40);
	put_segment(&b, 0, d, 40);
	put(&b, junk, sizeof junk); /* 92 */
	put_bdw(&b, 4 + 44 + 44);  /* 112, to the end */
	put_segment(&b, 0, d, 40);
	put_segment(&b, 0, d, 40);
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_int_eq(r.framing, FRAMING_BDW);
	ck_assert_uint_eq(r.n, 4);
	assert_record(&r, 2, 116, d, 40, 44, 1);
	ck_assert_uint_eq(r.t.damaged, sizeof junk);
	run_free(&r);
	free(d), free(b.p);
}
END_TEST

/* A BDW file whose first segment is damaged is not taken for RDW records
 * of PM data: its BDW and a first SDW of code 1 to 3 look like an RDW and a
 * PM record header. */
START_TEST(test_detect_bdw_before_rdw)
{
	struct bytes b = { 0 };
	uint8_t *d = smf_data(30, 40, 1), *big = smf_data(30, 200, 2);
	struct framer_opts o = opts(FRAMING_AUTO);
	struct run r;

	put_bdw(&b, 4 + 44 + 104);      /* 0 */
	put_segment(&b, 0, d, 40);      /* 4: made a first segment */
	put_segment(&b, 1, big, 100);   /* 48: spanned into the next block */
	for (unsigned i = 0; i < 4; i++) {
		put_bdw(&b, 4 + 104 + (i < 3 ? 104 : 44)); /* 152, 364, 576, 788 */
		put_segment(&b, 2, big + 100, 100);
		put_segment(&b, i < 3 ? 1 : 0, i < 3 ? big : d, i < 3 ? 100 : 40);
	}
	b.p[6] = 1;
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_int_eq(r.framing, FRAMING_BDW);
	ck_assert_int_eq(r.content, CONTENT_SMF);
	ck_assert_uint_eq(r.n, 5);
	run_free(&r);
	free(d), free(big), free(b.p);
}
END_TEST

/* The content is voted on past a damaged first record too. */
START_TEST(test_detect_content_past_damage)
{
	struct bytes b = { 0 };
	struct bytes pmrec = { 0 };
	struct framer_opts o = opts(FRAMING_AUTO);
	struct run r;

	put_pm(&pmrec, 5, 1, 240);
	for (unsigned i = 0; i < 8; i++)
		put_segment(&b, 0, pmrec.p, pmrec.len); /* 0, 244, ... */
	b.p[0] = 0xff;
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_int_eq(r.framing, FRAMING_RDW);
	ck_assert_int_eq(r.content, CONTENT_PM);
	ck_assert_uint_eq(r.n, 7);
	run_free(&r);
	free(pmrec.p), free(b.p);
}
END_TEST

/* A BDW not followed by a valid segment was read out of step: its length
 * must not be trusted to skip by. */
START_TEST(test_bdw_without_segment)
{
	struct bytes b = { 0 };
	uint8_t *d = smf_data(30, 40, 1);
	struct framer_opts o = opts(FRAMING_BDW);
	struct run r;

	put_bdw(&b, 48);            /* 0 */
	put_segment(&b, 0, d, 40);
	put_bdw(&b, 1000);          /* 48: no segment follows */
	put_word(&b, 0xffffffffu);
	for (unsigned i = 0; i < 3; i++) {
		put_bdw(&b, 48);        /* 56, 104, 152 */
		put_segment(&b, 0, d, 40);
	}
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_uint_eq(r.n, 4);
	assert_record(&r, 1, 60, d, 40, 44, 1);
	ck_assert_uint_eq(r.t.damaged, 8);
	assert_message(&r, "offset 48 (0x30): warning: invalid record or block "
	                   "descriptor word: BDW x'03e80000': no valid segment "
	                   "follows");
	run_free(&r);
	free(d), free(b.p);
}
END_TEST

/* The extended bit flipped on a plain BDW: the block is read as plain. */
START_TEST(test_bdw_extended_bit_flipped)
{
	struct bytes b = { 0 };
	uint8_t *d = smf_data(30, 40, 1);
	struct framer_opts o = opts(FRAMING_BDW);
	struct run r;

	for (unsigned i = 0; i < 4; i++) {
		put_bdw(&b, 4 + 44 + 44); /* 0, 92, 184, 276 */
		put_segment(&b, 0, d, 40);
		put_segment(&b, 0, d, 40);
	}
	b.p[92] |= 0x80;
	run_stream(&r, b.p, b.len, 0, &o);
	ck_assert_uint_eq(r.n, 8);
	assert_record(&r, 2, 96, d, 40, 44, 1);
	assert_record(&r, 4, 188, d, 40, 44, 1);
	ck_assert_uint_eq(r.t.damaged, 0);
	assert_message(&r, "offset 92 (0x5c): warning: invalid record or block "
	                   "descriptor word: BDW x'805c0000': extended bit set on "
	                   "a plain block of 92 bytes; read as plain");
	run_free(&r);
	free(d), free(b.p);
}
END_TEST

Suite *
unit_suite(void)
{
	Suite *s = suite_create("framing");
	TCase *core = tcase_create("Core");
	TCase *limits = tcase_create("Limits");
	TCase *blocks = tcase_create("Blocks");
	TCase *pm = tcase_create("PM");
	TCase *detect = tcase_create("Detect");
	TCase *chunks = tcase_create("Chunking");
	TCase *damage = tcase_create("Damage");

	tcase_add_test(core, test_rdw_complete);
	tcase_add_test(core, test_rdw_first_last);
	tcase_add_test(core, test_rdw_first_middles_last);
	tcase_add_test(core, test_range_spanned_across_stop);
	tcase_add_test(core, test_range_stops_between_records);
	tcase_add_test(core, test_orphan_middle);
	tcase_add_test(core, test_orphan_last);
	tcase_add_test(core, test_first_without_last_at_eof);
	tcase_add_test(core, test_first_then_complete);
	tcase_add_test(core, test_bad_descriptor_resync);
	tcase_add_test(core, test_resync_needs_a_chain);
	tcase_add_test(core, test_reserved_bits);
	tcase_add_test(core, test_truncated_record);
	tcase_add_test(core, test_empty_input);
	tcase_add_test(core, test_read_error);
	tcase_add_test(core, test_lent_file_cut_short);
	tcase_add_test(core, test_names);
	suite_add_tcase(s, core);

	tcase_add_test(limits, test_want);
	tcase_add_test(limits, test_head_across_segments);
	tcase_add_test(limits, test_want_tiny_first_segment);
	tcase_add_test(limits, test_max_record);
	tcase_add_test(limits, test_long_spanned_record);
	suite_add_tcase(s, limits);

	tcase_add_test(blocks, test_bdw_blocks);
	tcase_add_test(blocks, test_bdw_spanning_blocks);
	tcase_add_test(blocks, test_bdw_extended);
	tcase_add_test(blocks, test_bdw_extended_short_block);
	tcase_add_test(blocks, test_bdw_extended_below_8);
	tcase_add_test(blocks, test_bdw_not_filled);
	tcase_add_test(blocks, test_bdw_segment_overrun);
	tcase_add_test(blocks, test_bdw_cut_short);
	suite_add_tcase(s, blocks);

	tcase_add_test(pm, test_pm_stream);
	tcase_add_test(pm, test_pm_damage);
	suite_add_tcase(s, pm);

	tcase_add_test(detect, test_detect_rdw_smf);
	tcase_add_test(detect, test_detect_rdw_pm);
	tcase_add_test(detect, test_detect_rdw_all_spanned);
	tcase_add_test(detect, test_found_kind_taken);
	tcase_add_test(detect, test_detect_bdw);
	tcase_add_test(detect, test_detect_short_files);
	tcase_add_test(detect, test_detect_single_cut_block);
	tcase_add_test(detect, test_detect_damaged_start);
	tcase_add_test(detect, test_detect_unended_at_start);
	tcase_add_test(detect, test_refuse_gzip);
	tcase_add_test(detect, test_refuse_text);
	tcase_add_test(detect, test_refuse_bare_smf);
	tcase_add_test(detect, test_refuse_terse);
	tcase_add_test(detect, test_refuse_unknown);
	tcase_add_test(detect, test_refuse_single_rdw);
	suite_add_tcase(s, detect);

	tcase_add_test(damage, test_pm_header_out_of_step);
	tcase_add_test(damage, test_pm_length_misread);
	tcase_add_test(damage, test_rdw_without_record);
	tcase_add_test(damage, test_rdw_length_misread);
	tcase_add_test(damage, test_resync_not_inside_record);
	tcase_add_test(damage, test_resync_near_end);
	tcase_add_test(damage, test_detect_first_unit_damaged);
	tcase_add_test(damage, test_detect_damage_then_just_enough);
	tcase_add_test(damage, test_detect_junk_before_first_record);
	tcase_add_test(damage, test_detect_damage_then_last_block);
	tcase_add_test(damage, test_detect_bdw_before_rdw);
	tcase_add_test(damage, test_detect_content_past_damage);
	tcase_add_test(damage, test_bdw_without_segment);
	tcase_add_test(damage, test_bdw_extended_bit_flipped);
	suite_add_tcase(s, damage);

	tcase_add_test(chunks, test_chunks_rdw);
	tcase_add_test(chunks, test_chunks_bdw);
	tcase_add_test(chunks, test_chunks_pm);
	tcase_add_test(chunks, test_cut_everywhere);
	tcase_add_test(chunks, test_random_streams);
	tcase_set_timeout(chunks, 300);
	suite_add_tcase(s, chunks);

	if (real_file()) {
		TCase *real = tcase_create("RealData");
		tcase_add_test(real, test_real_file);
		tcase_add_test(real, test_real_reblocked);
		tcase_add_test(real, test_real_extended_blocks);
		tcase_add_test(real, test_real_resegmented);
		tcase_set_timeout(real, 300);
		suite_add_tcase(s, real);
	} else {
		printf("real-smf data absent; skipping\n");
	}
	return s;
}
