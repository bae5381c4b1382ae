/* check_pmint.c: decoding interval records by the layout. The records are
 * built byte by byte at the offsets printed in the #PMINTDS listing, so a
 * layout that drifted from the listing would fail here. */
#include "check_main.h"
#include <stdlib.h>
#include <string.h>

#include "core/layout_text.h"
#include "pmim/pmint.h"

static struct pmint pm;
static uint64_t values[CB_MAX_FIELDS];
static bool suspect;

static void
setup(void)
{
	char err[128];
	ck_assert_int_eq(pmint_load(&pm, err, sizeof err), PM_OK);
	memset(values, 0, sizeof values);
}

static uint64_t
value_of(const char *name)
{
	int i = layout_field_index(&pm.lay, name);
	ck_assert_int_ge(i, 0);
	return values[i];
}

/* Part 1 as the listing lays it out: header X'00'-X'1B', tasks at X'1C',
 * X'20', CPU at X'24', X'28', INTDBIR triple at X'30'. */
static size_t
part1(uint8_t *r)
{
	memset(r, 0, 0xF0);
	put_be(r + 0x00, 2, 0xF0);        /* INTLEN */
	r[0x02] = 5;                      /* INTRTYPE */
	r[0x03] = 1;                      /* INTSEQ# */
	r[0x04] = 1;                      /* INTVER# */
	put_be(r + 0x0C, 4, 0x0126334F);  /* INTSDATE */
	put_be(r + 0x10, 4, 36000000);    /* INTSTIME 01:00 */
	put_be(r + 0x14, 4, 0x0126334F);  /* INTEDATE */
	put_be(r + 0x18, 4, 45000000);    /* INTETIME 01:15 */
	put_be(r + 0x1C, 4, 1234);        /* INT#TSTR */
	put_be(r + 0x20, 4, 1230);        /* INT#TEND */
	put_be(r + 0x24, 4, 98765);       /* INTTIMSY */
	put_be(r + 0x30, 4, 500000);      /* INTDBIRT */
	put_be(r + 0x34, 4, 2500);        /* INTDBIRH */
	put_be(r + 0x38, 4, 400);         /* INTDBIR# */
	put_be(r + 0xEC, 4, 0x7FFFFFFF);  /* INTQUEW#, the last field */
	return 0xF0;
}

/* The header part1() writes. */
static void
check_part1_header(const struct pm_header *h)
{
	ck_assert_uint_eq(h->length, 0xF0);
	ck_assert_uint_eq(h->type, 5);
	ck_assert_uint_eq(h->seq, 1);
	ck_assert_uint_eq(h->version, 1);
	ck_assert_uint_eq(h->sdate, 0x0126334F);
	ck_assert_uint_eq(h->stime, 36000000);
	ck_assert_uint_eq(h->edate, 0x0126334F);
	ck_assert_uint_eq(h->etime, 45000000);
}

START_TEST(header)
{
	uint8_t r[0xF0];
	struct pm_header h;
	size_t n = part1(r);
	ck_assert_int_eq(pmint_header_read(&pm, span_make(r, n), &h), PM_OK);
	check_part1_header(&h);
	ck_assert_int_eq(pmint_header_read(&pm, span_make(r, 0x1B), &h), PM_E_SHORT_PART);
}
END_TEST

/* A record that ends where its header does: its fields read one by one by
 * their widths, no load past its end (an allocation of its own, which the
 * sanitizer build watches), the same as in a longer record. */
START_TEST(header_only)
{
	uint8_t r[0xF0], *only = malloc(0x1C);
	struct pm_header h;

	ck_assert_ptr_nonnull(only);
	part1(r);
	memcpy(only, r, 0x1C);
	ck_assert_int_eq(pmint_header_read(&pm, span_make(only, 0x1C), &h), PM_OK);
	check_part1_header(&h);
	free(only);
}
END_TEST

START_TEST(part1_fields)
{
	uint8_t r[0xF0];
	struct pm_header h;
	size_t n = part1(r);
	ck_assert_int_eq(pmint_header_read(&pm, span_make(r, n), &h), PM_OK);
	ck_assert_int_eq(pmint_part_decode(&pm, &h, span_make(r, n), values, &suspect), PM_OK);
	ck_assert_uint_eq(value_of("INT#TSTR"), 1234);
	ck_assert_uint_eq(value_of("INT#TEND"), 1230);
	ck_assert_uint_eq(value_of("INTTIMSY"), 98765);
	ck_assert_uint_eq(value_of("INTDBIRT"), 500000);
	ck_assert_uint_eq(value_of("INTDBIRH"), 2500);
	ck_assert_uint_eq(value_of("INTDBIR#"), 400);
	ck_assert_uint_eq(value_of("INTQUEW#"), 0x7FFFFFFF);
}
END_TEST

START_TEST(part3_tod)
{
	uint8_t r[0xC0];
	struct pm_header h = { 0xC0, 5, 3, 1, 0, 0, 0, 0 };
	memset(r, 0, sizeof r);
	put_be(r + 0x20, 8, 0x0000123456789ABCULL); /* INTSYTI */
	put_be(r + 0x30, 8, 4096000000ULL);         /* INTZPTI: one second */
	put_be(r + 0x48, 8, 0xFFFFFFFFFFFFFFFFULL); /* INTENTI */
	ck_assert_int_eq(pmint_part_decode(&pm, &h, span_make(r, sizeof r), values, &suspect), PM_OK);
	ck_assert_uint_eq(value_of("INTSYTI"), 0x0000123456789ABCULL);
	ck_assert_uint_eq(value_of("INTZPTI"), 4096000000ULL);
	ck_assert_uint_eq(value_of("INTENTI"), 0xFFFFFFFFFFFFFFFFULL);
}
END_TEST

START_TEST(lengths)
{
	uint8_t r[0x100];
	struct pm_header h = { 0xF4, 5, 2, 1, 0, 0, 0, 0 };
	memset(r, 0, sizeof r);
	put_be(r + 0xF0, 4, 77);                   /* INTXLI#, part 2's last field */
	ck_assert_int_eq(pmint_part_decode(&pm, &h, span_make(r, 0xF4), values, &suspect), PM_OK);
	ck_assert_uint_eq(value_of("INTXLI#"), 77);
	/* one byte short of X'F4': damaged, nothing decoded */
	memset(values, 0, sizeof values);
	ck_assert_int_eq(pmint_part_decode(&pm, &h, span_make(r, 0xF3), values, &suspect), PM_E_SHORT_PART);
	ck_assert_uint_eq(value_of("INTXLI#"), 0);
	/* longer than the layout: known fields decoded, and said */
	ck_assert_int_eq(pmint_part_decode(&pm, &h, span_make(r, 0x100), values, &suspect), PM_E_LONG_PART);
	ck_assert_uint_eq(value_of("INTXLI#"), 77);
	/* unknown part */
	h.seq = 4;
	ck_assert_int_eq(pmint_part_decode(&pm, &h, span_make(r, 0x100), values, &suspect), PM_E_BAD_SEQUENCE);
	h.seq = 0;
	ck_assert_int_eq(pmint_part_decode(&pm, &h, span_make(r, 0x100), values, &suspect), PM_E_BAD_SEQUENCE);
	/* checked without decoding: the same statuses */
	ck_assert_int_eq(pmint_part_check(&pm, &h, span_make(r, 0x100), &suspect), PM_E_BAD_SEQUENCE);
	h.seq = 2;
	ck_assert_int_eq(pmint_part_check(&pm, &h, span_make(r, 0xF4), &suspect), PM_OK);
	ck_assert_int_eq(pmint_part_check(&pm, &h, span_make(r, 0xF3), &suspect), PM_E_SHORT_PART);
	ck_assert_int_eq(pmint_part_check(&pm, &h, span_make(r, 0x100), &suspect), PM_E_LONG_PART);
}
END_TEST

/* Every bucket of every part, each put in turn against the plausibility
 * rules (highest above the sum; wait time with no waits; the sum above
 * highest x count) among buckets that keep them: the part is suspect
 * exactly when one bucket breaks one, and the figures are decoded. */
static void
put_bucket(uint8_t *r, const struct cb_bucket *b, uint32_t sum, uint32_t high, uint32_t count)
{
	put_be(r + pm.lay.fields[b->sum].offset, 4, sum);
	put_be(r + pm.lay.fields[b->high].offset, 4, high);
	put_be(r + pm.lay.fields[b->count].offset, 4, count);
}

/* The ways wait buckets are read: four at a time where bound so (AVX2),
 * and one at a time, which every host has. */
static size_t
bucket_paths(bool *path)
{
	size_t n = 0;

	if (pm.buckets_by_four)
		path[n++] = true;
	path[n++] = false;
	return n;
}

START_TEST(suspect_buckets)
{
	static const uint32_t broken[3][3] = { { 100, 200, 20 }, { 100, 10, 0 }, { 300, 10, 20 } };
	uint8_t r[0x200];
	bool path[2];

	ck_assert_uint_ge(pm.lay.nbuckets, 34);
	for (size_t pass = 0, npaths = bucket_paths(path); pass < npaths; pass++)
	for (size_t i = 0; i < pm.lay.nbuckets; i++) {
		const struct cb_bucket *b = &pm.lay.buckets[i];
		struct pm_header h = { (uint32_t)pm.part_len[b->part], 5, b->part, 1, 0, 0, 0, 0 };
		struct span rec = span_make(r, pm.part_len[b->part]);

		pm.buckets_by_four = path[pass];
		memset(r, 0, sizeof r);
		for (size_t j = 0; j < pm.lay.nbuckets; j++)
			if (pm.lay.buckets[j].part == b->part)
				put_bucket(r, &pm.lay.buckets[j], 100, 10, 20);
		ck_assert_int_eq(pmint_part_decode(&pm, &h, rec, values, &suspect), PM_OK);
		ck_assert_msg(!suspect, "bucket %s", b->label);
		ck_assert_int_eq(pmint_part_check(&pm, &h, rec, &suspect), PM_OK);
		ck_assert_msg(!suspect, "bucket %s, checked", b->label);
		for (size_t k = 0; k < 3; k++) {
			put_bucket(r, b, broken[k][0], broken[k][1], broken[k][2]);
			ck_assert_int_eq(pmint_part_check(&pm, &h, rec, &suspect), PM_OK);
			ck_assert_msg(suspect, "bucket %s, rule %zu, checked", b->label, k);
			ck_assert_int_eq(pmint_part_decode(&pm, &h, rec, values, &suspect), PM_OK);
			ck_assert_msg(suspect, "bucket %s, rule %zu", b->label, k);
			ck_assert_uint_eq(values[b->sum], broken[k][0]);
			ck_assert_uint_eq(values[b->high], broken[k][1]);
			ck_assert_uint_eq(values[b->count], broken[k][2]);
		}
	}
}
END_TEST

/* At the edges: a sum of exactly highest x count, and fullwords at their
 * largest (a product near 2**64), pass; one more in the sum does not.
 * In every bucket of the part of the most, the others plausible: each
 * place of a group of four and the buckets after the last group. */
START_TEST(suspect_bucket_edges)
{
	static const struct { uint32_t sum, high, count; bool suspect; } c[] = {
		{ 200, 10, 20, false },
		{ 201, 10, 20, true },
		{ 0, 0, 0, false },
		{ 1, 0, 0, true },
		{ 1, 1, 0, true },
		{ 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, false },
		{ 0xFFFFFFFF, 0xFFFFFFFF, 1, false },
		{ 0xFFFFFFFF, 0xFFFFFFFE, 1, true },
		{ 0xFFFFFFFE, 0xFFFFFFFF, 0xFFFFFFFF, true },
	};
	unsigned most = 1;
	uint8_t r[0x200];
	bool path[2];

	for (unsigned p = 2; p <= pm.nparts; p++)
		most = pm.nbuckets[p] > pm.nbuckets[most] ? p : most;
	ck_assert_uint_ge(pm.nbuckets[most], 5);
	for (size_t pass = 0, npaths = bucket_paths(path); pass < npaths; pass++)
	for (size_t i = 0; i < pm.lay.nbuckets; i++) {
		const struct cb_bucket *b = &pm.lay.buckets[i];
		struct pm_header h = { (uint32_t)pm.part_len[most], 5, most, 1, 0, 0, 0, 0 };
		struct span rec = span_make(r, pm.part_len[most]);

		if (b->part != most)
			continue;
		pm.buckets_by_four = path[pass];
		memset(r, 0, sizeof r);
		for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
			put_bucket(r, b, c[k].sum, c[k].high, c[k].count);
			ck_assert_int_eq(pmint_part_check(&pm, &h, rec, &suspect), PM_OK);
			ck_assert_msg(suspect == c[k].suspect, "%s, case %zu, checked", b->label, k);
			ck_assert_int_eq(pmint_part_decode(&pm, &h, rec, values, &suspect), PM_OK);
			ck_assert_msg(suspect == c[k].suspect, "%s, case %zu", b->label, k);
			ck_assert_uint_eq(values[b->sum], c[k].sum);
			ck_assert_uint_eq(values[b->high], c[k].high);
			ck_assert_uint_eq(values[b->count], c[k].count);
		}
	}
}
END_TEST

/* Random parts of random buckets (each figure small, or at its largest,
 * or any fullword), read both ways: the same figures in every slot, the
 * slots of no item untouched, and suspect just when a bucket breaks a
 * rule by the rules' own terms. */
START_TEST(buckets_both_ways)
{
	static const uint64_t untouched = 0x5A5A5A5A5A5A5A5AULL;
	static uint64_t other[CB_MAX_FIELDS];
	uint8_t r[0x200];
	uint64_t seed = 88172645463325252ULL;
	bool path[2];

	if (bucket_paths(path) < 2)
		return;  /* one way only on this CPU: the other tests cover it */
	for (unsigned round = 0; round < 2000; round++) {
		unsigned part = 1 + round % pm.nparts;
		struct pm_header h = { (uint32_t)pm.part_len[part], 5, part, 1, 0, 0, 0, 0 };
		struct span rec = span_make(r, pm.part_len[part]);
		bool want = false, got[2], checked[2];

		for (size_t k = 0; k < sizeof r; k++) {
			seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
			r[k] = (uint8_t)seed;
		}
		for (size_t i = 0; i < pm.lay.nbuckets; i++) {
			const struct cb_bucket *b = &pm.lay.buckets[i];
			uint32_t f[3];  /* sum, highest, count */
			uint64_t most;

			if (b->part != part)
				continue;
			for (size_t k = 0; k < 3; k++) {
				seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
				f[k] = seed % 3 == 0 ? (uint32_t)(seed >> 40) % 8 :
				       seed % 3 == 1 ? 0xFFFFFFFFu - (uint32_t)(seed >> 40) % 2 :
				       (uint32_t)(seed >> 32);
			}
			/* mostly plausible, a sum between the highest and highest x
			 * count, and one bucket in 50 of those made not; a part in
			 * eight any figures */
			seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
			if (round % 8 != 0) {
				f[1] = f[2] ? f[1] : 0;
				most = (uint64_t)f[1] * f[2];
				most = most < 0xFFFFFFFFu ? most : 0xFFFFFFFFu;
				f[0] = (uint32_t)(f[1] + (seed >> 32) % (most - f[1] + 1));
				if (seed % 50 == 0)
					f[seed % 100 < 50 && f[0] < 0xFFFFFFFFu ? 1 : 0] = f[0] + 1;
			}
			put_bucket(r, b, f[0], f[1], f[2]);
			want |= f[1] > f[0] || f[0] > (uint64_t)f[1] * f[2];
		}
		for (size_t pass = 0; pass < 2; pass++) {
			uint64_t *v = pass ? other : values;

			pm.buckets_by_four = path[pass];
			for (size_t k = 0; k < CB_MAX_FIELDS; k++)
				v[k] = untouched;
			ck_assert_int_eq(pmint_part_decode(&pm, &h, rec, v, &got[pass]), PM_OK);
			ck_assert_int_eq(pmint_part_check(&pm, &h, rec, &checked[pass]), PM_OK);
		}
		ck_assert_msg(memcmp(values, other, sizeof values) == 0, "round %u", round);
		ck_assert_msg(got[0] == want && got[1] == want, "round %u", round);
		ck_assert_msg(checked[0] == want && checked[1] == want, "round %u, checked", round);
	}
}
END_TEST

/* Five buckets written by hand, their figures worked out by hand: all
 * plausible, then with a bucket in each place one over highest x count
 * (201 > 10 x 20), or with a highest one over its sum (11 > 10). Five, so
 * that the read four at a time has one bucket after its group. */
START_TEST(buckets_by_hand)
{
	static const uint8_t fine[60] = {
		0x00, 0x00, 0x00, 0xC8, 0x00, 0x00, 0x00, 0x0A, 0x00, 0x00, 0x00, 0x14,
		0x00, 0x01, 0x86, 0xA0, 0x00, 0x00, 0x09, 0xC4, 0x00, 0x00, 0x01, 0x90,
		0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x12, 0x34, 0x56, 0x78, 0x00, 0x00, 0x00, 0x01, 0x9A, 0xBC, 0xDE, 0xF0,
	};
	static const uint64_t want[5][3] = {
		{ 200, 10, 20 },
		{ 100000, 2500, 400 },
		{ 4294967295u, 4294967295u, 4294967295u },
		{ 0, 0, 0 },
		{ 305419896, 1, 2596069104u },
	};
	static const uint8_t broken[2][12] = {
		{ 0x00, 0x00, 0x00, 0xC9, 0x00, 0x00, 0x00, 0x0A, 0x00, 0x00, 0x00, 0x14 },
		{ 0x00, 0x00, 0x00, 0x0A, 0x00, 0x00, 0x00, 0x0B, 0x00, 0x00, 0x00, 0x14 },
	};
	uint8_t b[60];
	uint64_t v[20];
	bool path[2];

	for (size_t pass = 0, npaths = bucket_paths(path); pass < npaths; pass++) {
		memset(v, 0x5A, sizeof v);
		ck_assert_uint_eq(pmint_buckets_read(fine, 5, v, path[pass]), 0);
		ck_assert_uint_eq(pmint_buckets_read(fine, 5, NULL, path[pass]), 0);
		for (size_t k = 0; k < 5; k++) {
			ck_assert_uint_eq(v[4 * k], want[k][0]);
			ck_assert_uint_eq(v[4 * k + 1], want[k][1]);
			ck_assert_uint_eq(v[4 * k + 2], want[k][2]);
			/* the next bucket's label slot made 0; past the last, untouched */
			ck_assert_uint_eq(v[4 * k + 3], k < 4 ? 0 : 0x5A5A5A5A5A5A5A5AULL);
		}
		for (size_t k = 0; k < 5; k++)
			for (size_t j = 0; j < 2; j++) {
				memcpy(b, fine, sizeof b);
				memcpy(b + 12 * k, broken[j], 12);
				ck_assert_msg(pmint_buckets_read(b, 5, v, path[pass]) > 0,
				              "bucket %zu, rule %zu, by four %d", k, j, path[pass]);
				ck_assert_msg(pmint_buckets_read(b, 5, NULL, path[pass]) > 0,
				              "bucket %zu, rule %zu, by four %d, checked", k, j, path[pass]);
				ck_assert_uint_eq(v[4 * k], j ? 10 : 201);
			}
	}
}
END_TEST

/* Runs of 1 to 40 random buckets, so that every length of what follows
 * the groups of four comes: in half the runs one bucket at an edge
 * (highest one over the sum, a sum of exactly highest x count or one
 * over, no waits with a sum of 0 or 1, fullwords at their largest, any
 * figures) among plausible ones, in the others an edge in most buckets.
 * Both ways store the figures written and find a run suspect just when a
 * bucket breaks a rule by the rules' own terms. */
START_TEST(buckets_any_count)
{
	static uint8_t b[12 * 40];
	static uint32_t f[40][3];  /* sum, highest, count */
	static uint64_t v[2][4 * 40];
	uint64_t seed = 0x9E3779B97F4A7C15ULL;
	bool path[2];

	if (bucket_paths(path) < 2)
		return;  /* one way only on this CPU: the other tests cover it */
	for (size_t count = 1; count <= 40; count++)
	for (unsigned round = 0; round < 200; round++) {
		size_t at = round * 7 % count;
		bool want = false;

		for (size_t k = 0; k < count; k++) {
			uint32_t *t = f[k], x;
			unsigned edge = round % 2 ? round / 2 % 9 : 9;

			seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
			x = (uint32_t)(seed >> 32);
			t[1] = x % 65536, t[2] = 1 + (x >> 16) % 65535;
			t[0] = t[1] + (uint32_t)(seed % ((uint64_t)t[1] * t[2] - t[1] + 1));
			switch (round % 2 && k != at ? 9 : round % 2 ? edge : seed >> 60) {
			case 0: t[1] = t[0] + 1; break;
			case 1: t[0] = t[1] * t[2]; break;
			case 2: t[0] = t[1] * t[2] + 1; break;
			case 3: t[0] = 0, t[1] = 0, t[2] = 0; break;
			case 4: t[0] = 1, t[1] = x % 2, t[2] = 0; break;
			case 5: t[0] = t[1] = t[2] = 0xFFFFFFFF; break;
			case 6: t[0] = t[1] = 0xFFFFFFFF; break;
			case 7: t[0] = 0xFFFFFFFF, t[1] = 0xFFFFFFFE, t[2] = 1; break;
			case 8: t[0] = (uint32_t)seed, t[1] = x, t[2] = x ^ (uint32_t)seed; break;
			default: break;
			}
			for (size_t j = 0; j < 3; j++)
				put_be(b + 12 * k + 4 * j, 4, t[j]);
			want |= t[1] > t[0] || t[0] > (uint64_t)t[1] * t[2];
		}
		for (size_t pass = 0; pass < 2; pass++) {
			memset(v[pass], 0x5A, sizeof v[pass]);
			ck_assert_msg((pmint_buckets_read(b, count, v[pass], path[pass]) > 0) == want,
			              "%zu buckets, round %u, by four %d", count, round, path[pass]);
			ck_assert_msg((pmint_buckets_read(b, count, NULL, path[pass]) > 0) == want,
			              "%zu buckets, round %u, by four %d, checked", count, round, path[pass]);
		}
		ck_assert_msg(memcmp(v[0], v[1], sizeof v[0]) == 0, "%zu buckets, round %u", count, round);
		for (size_t k = 0; k < count; k++) {
			for (size_t j = 0; j < 3; j++)
				ck_assert_uint_eq(v[0][4 * k + j], f[k][j]);
			ck_assert_uint_eq(v[0][4 * k + 3], k + 1 < count ? 0 : 0x5A5A5A5A5A5A5A5AULL);
		}
	}
}
END_TEST

START_TEST(peek)
{
	uint8_t r[3] = { 0x00, 0x40, 0x07 };
	size_t len;
	unsigned type;
	ck_assert_int_eq(pmint_peek(&pm, span_make(r, 3), &len, &type), PM_OK);
	ck_assert_uint_eq(len, 0x40);
	ck_assert_uint_eq(type, 7);
	ck_assert_int_eq(pmint_peek(&pm, span_make(r, 2), &len, &type), PM_E_PM_LENGTH);
}
END_TEST

/* The framer's length: the header kept for the stage when the bytes at
 * hand hold all of it (up to INTETIME's X'18' + 8 = X'20') and INTLEN
 * covers it (X'1C'), else not; the plausibility by INTRTYPE and INTSEQ#. */
START_TEST(record_length_peeked)
{
	uint8_t r[0xF0];
	struct pm_peeked k = { &pm, NULL, { 0 } };
	bool plausible;

	part1(r);
	ck_assert_uint_eq(pmint_record_length(r, 0xF0, &plausible, &k), 0xF0);
	ck_assert(plausible);
	ck_assert_ptr_eq(k.at, r);
	check_part1_header(&k.h);
	/* 0x1F bytes at hand: the length alone, no header kept */
	ck_assert_uint_eq(pmint_record_length(r, 0x1F, &plausible, &k), 0xF0);
	ck_assert(plausible);
	ck_assert_ptr_null(k.at);
	/* a record shorter than the header: its length, no header */
	put_be(r, 2, 0x1B);
	ck_assert_uint_eq(pmint_record_length(r, 0xF0, &plausible, &k), 0x1B);
	ck_assert(plausible);
	ck_assert_ptr_null(k.at);
	put_be(r, 2, 0x1C);
	ck_assert_uint_eq(pmint_record_length(r, 0xF0, &plausible, &k), 0x1C);
	ck_assert_ptr_eq(k.at, r);
	/* type 64 or part 16: bytes out of step */
	r[0x02] = 64;
	ck_assert_uint_eq(pmint_record_length(r, 0xF0, &plausible, &k), 0x1C);
	ck_assert(!plausible);
	ck_assert_uint_eq(pmint_record_length(r, 0x1F, &plausible, &k), 0x1C);
	ck_assert(!plausible);
	r[0x02] = 5;
	r[0x03] = 16;
	ck_assert_uint_eq(pmint_record_length(r, 0xF0, &plausible, &k), 0x1C);
	ck_assert(!plausible);
	/* INTLEN cut off */
	ck_assert_uint_eq(pmint_record_length(r, 1, &plausible, &k), 0);
	ck_assert(!plausible);
	ck_assert_ptr_null(k.at);
}
END_TEST

/* The listing's header is paired (INTLEN to INTVER# back to back, the
 * dates and times too): read in three loads. With INTSTIME and INTEDATE
 * swapped it is not, and each field is read by its own offset and width,
 * to the same header. */
START_TEST(header_unpaired)
{
	static struct pmint swapped;
	char err[160], *text = strdup(pmintds_listing), *st, *ed;
	uint8_t r[0xF0];
	struct pm_header h;
	struct pm_peeked k = { &swapped, NULL, { 0 } };
	bool plausible;

	ck_assert(pm.head_paired);
	ck_assert_ptr_nonnull(text);
	st = strstr(text, "000010 INTSTIME");
	ed = strstr(text, "000014 INTEDATE");
	ck_assert_ptr_nonnull(st);
	ck_assert_ptr_nonnull(ed);
	memcpy(st + 7, "INTEDATE", 8);
	memcpy(ed + 7, "INTSTIME", 8);
	ck_assert_int_eq(pmint_bind(&swapped, text, "x.lst", err, sizeof err), PM_OK);
	ck_assert(!swapped.head_paired);
	part1(r);
	put_be(r + 0x10, 4, 0x0126334F);  /* INTEDATE */
	put_be(r + 0x14, 4, 36000000);    /* INTSTIME */
	ck_assert_int_eq(pmint_header_read(&swapped, span_make(r, 0xF0), &h), PM_OK);
	check_part1_header(&h);
	ck_assert_uint_eq(pmint_record_length(r, 0xF0, &plausible, &k), 0xF0);
	ck_assert(plausible);
	ck_assert_ptr_eq(k.at, r);
	check_part1_header(&k.h);
	pmint_free(&swapped);
	free(text);
}
END_TEST

Suite *
unit_suite(void)
{
	Suite *s = suite_create("pmint");
	TCase *tc = tcase_create("decode");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, header);
	tcase_add_test(tc, header_only);
	tcase_add_test(tc, part1_fields);
	tcase_add_test(tc, part3_tod);
	tcase_add_test(tc, lengths);
	tcase_add_test(tc, suspect_buckets);
	tcase_add_test(tc, suspect_bucket_edges);
	tcase_add_test(tc, buckets_both_ways);
	tcase_add_test(tc, buckets_by_hand);
	tcase_add_test(tc, buckets_any_count);
	tcase_add_test(tc, peek);
	tcase_add_test(tc, record_length_peeked);
	tcase_add_test(tc, header_unpaired);
	suite_add_tcase(s, tc);
	return s;
}
