/* check_totals.c: feeds added through totals (engine/totals.c) leave
 * every accumulator exactly as the same windows added one by one to each
 * accumulator (counter_acc_add, whose values check_counter.c checks by
 * hand): the packed words compared, for windows with zero divisors and
 * sums that pass 2^64, from two vectors. Some expected states are also
 * worked out by hand. */
#include "check_main.h"
#include <stdlib.h>
#include <string.h>

#include "engine/counter.h"
#include "engine/totals.h"

#define SPLIT 6        /* slots 0-5 from the first vector, 6-9 the second */
#define SLOTS 10
#define NFEEDS 12

static struct counter_feed feeds[NFEEDS];

static void
feed(size_t i, const char *type, uint16_t n, uint16_t d, uint16_t b, uint64_t tb)
{
	counter_feed_init(&feeds[i], counter_type_by_name(type), (uint32_t)i, tb);
	feeds[i].n = n;
	feeds[i].d = d;
	feeds[i].b = b;
	feeds[i].need = 1;
}

/* Slot 9 reads as 0 for feeds without D or B. */
static void
setup_feeds(void)
{
	feed(0, "PERF_COUNTER_DELTA", 0, 9, 9, 0);
	feed(1, "PERF_COUNTER_LARGE_DELTA", 7, 9, 9, 0);   /* from the second vector */
	feed(2, "MAX", 1, 9, 9, 0);
	feed(3, "MAX", 8, 9, 9, 0);
	feed(4, "PERF_COUNTER_COUNTER", 0, 6, 9, 10000000);   /* D: a duration */
	feed(5, "PERF_AVERAGE_TIMER", 2, 9, 3, 10000);        /* B: a count */
	feed(6, "PERF_SAMPLE_FRACTION", 2, 9, 4, 0);
	feed(7, "PERF_SAMPLE_FRACTION", 0, 9, 3, 0);          /* a second N over B 3 */
	feed(8, "PERF_AVERAGE_TIMER", 2, 9, 3, 0);            /* TB 0: never a value */
	feed(9, "PERF_RAW_FRACTION", 2, 9, 3, 0);             /* not the plan's */
	feed(10, "PERF_COUNTER_TIMER", 1, 6, 9, 10000000);    /* RATIO: N over D */
	feed(11, "PERF_COUNTER_TIMER_INV", 1, 6, 9, 10000000); /* inverse: not the plan's */
}

static uint64_t
next_random(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Window k: small figures, zeros now and then, and near 2^64 on big. */
static void
window(uint64_t *seed, uint64_t x[SLOTS], bool big)
{
	for (size_t s = 0; s < SLOTS; s++) {
		uint64_t r = next_random(seed);
		x[s] = r % 5 == 0 ? 0 : big ? UINT64_MAX - r % 1000 : r % 100000;
	}
	x[9] = 0;
}

static void
compare_n(const struct counter_acc *want, const struct counter_acc *got, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t a[COUNTER_ACC_WORDS], b[COUNTER_ACC_WORDS];
		counter_acc_pack(&want[i], a);
		counter_acc_pack(&got[i], b);
		for (size_t k = 0; k < COUNTER_ACC_WORDS; k++)
			ck_assert_msg(a[k] == b[k], "feed %zu word %zu: %llu, want %llu", i, k,
			              (unsigned long long)b[k], (unsigned long long)a[k]);
	}
}

static void
run(size_t nwin, bool big, uint64_t seed)
{
	struct counter_acc want[NFEEDS], got[NFEEDS];
	struct counter_feed rest[NFEEDS];
	struct counter_plan plan;
	size_t nrest;
	uint64_t *t;

	setup_feeds();
	ck_assert_int_eq(counter_plan_init(&plan, feeds, NFEEDS, SPLIT, NULL, rest, &nrest), PM_OK);
	ck_assert_uint_eq(plan.nfeeds, 10);
	ck_assert_uint_eq(nrest, 2);
	ck_assert_uint_eq(plan.need, 1);
	t = calloc(plan.words, sizeof *t);
	ck_assert_ptr_nonnull(t);
	for (size_t i = 0; i < NFEEDS; i++) {
		counter_acc_init(&want[i], (enum counter_type)feeds[i].type);
		counter_acc_init(&got[i], (enum counter_type)feeds[i].type);
	}
	for (size_t k = 0; k < nwin; k++) {
		uint64_t x[SLOTS];
		struct counter_figures win;

		window(&seed, x, big);
		win = (struct counter_figures){ x, 1, k };
		counter_feed_add(want, feeds, NFEEDS, &win, 1);
		counter_totals_add(&plan, t, x, x + SPLIT);
		counter_feed_add(got, rest, nrest, &win, 1);
		if (k % 7 == 6)   /* folded now and then, as a report reads */
			counter_totals_fold(&plan, t, got);
	}
	counter_totals_fold(&plan, t, got);
	compare_n(want, got, NFEEDS);
	for (size_t w = 0; w < plan.words; w++)
		ck_assert_uint_eq(t[w], 0);
	free(t);
	counter_plan_free(&plan);
}

START_TEST(same_as_one_by_one)
{
	run(1, false, 1);
	run(50, false, 2);
	run(1000, false, 3);
}
END_TEST

START_TEST(overflow)
{
	run(3, true, 4);
	run(40, true, 5);
}
END_TEST

/* Three windows worked by hand: the average timer of feed 5 skips the
 * window whose count (B) is 0, and counts it without a value. */
START_TEST(by_hand)
{
	static const uint64_t x[3][SLOTS] = {
		{ 10, 4, 600, 3, 5, 0, 9000000, 70, 2, 0 },
		{ 20, 9, 50, 0, 0, 0, 9000000, 80, 1, 0 },
		{ 30, 2, 400, 2, 1, 0, 0, 90, 3, 0 },
	};
	struct counter_feed rest[NFEEDS];
	struct counter_acc acc[NFEEDS];
	struct counter_plan plan;
	size_t nrest;
	uint64_t *t, sum;

	setup_feeds();
	ck_assert_int_eq(counter_plan_init(&plan, feeds, NFEEDS, SPLIT, NULL, rest, &nrest), PM_OK);
	t = calloc(plan.words, sizeof *t);
	for (size_t i = 0; i < NFEEDS; i++)
		counter_acc_init(&acc[i], (enum counter_type)feeds[i].type);
	for (size_t k = 0; k < 3; k++)
		counter_totals_add(&plan, t, x[k], x[k] + SPLIT);
	counter_totals_fold(&plan, t, acc);
	/* DELTA: 10 + 20 + 30; of slot 7: 70 + 80 + 90 */
	ck_assert_int_eq(counter_acc_sum(&acc[0], &sum), PM_OK);
	ck_assert_uint_eq(sum, 60);
	ck_assert_int_eq(counter_acc_sum(&acc[1], &sum), PM_OK);
	ck_assert_uint_eq(sum, 240);
	/* MAX of 4, 9, 2 and of 2, 1, 3 */
	ck_assert_uint_eq(acc[2].max_n, 9);
	ck_assert_uint_eq(acc[3].max_n, 3);
	/* RATE: the third window's duration is 0: (10 + 20) over 18000000 */
	ck_assert_uint_eq(acc[4].sum_n, 30);
	ck_assert_uint_eq(acc[4].sum_d, 18000000);
	ck_assert_uint_eq(acc[4].no_value, 1);
	/* AVG_TIMER: the second window's count is 0: (600 + 400) / (3 + 2) */
	ck_assert_uint_eq(acc[5].sum_n, 1000);
	ck_assert_uint_eq(acc[5].sum_db, 5);
	ck_assert_uint_eq(acc[5].no_value, 1);
	ck_assert_uint_eq(acc[5].windows, 3);
	/* FRACTION over slot 4: 5, 0, 1: (600 + 400) / 6 */
	ck_assert_uint_eq(acc[6].sum_n, 1000);
	ck_assert_uint_eq(acc[6].sum_db, 6);
	/* RATIO over slot 6: the third window's D is 0: (4 + 9) over 18000000 */
	ck_assert_uint_eq(acc[10].sum_n, 13);
	ck_assert_uint_eq(acc[10].sum_d, 18000000);
	ck_assert_uint_eq(acc[10].no_value, 1);
	ck_assert_uint_eq(acc[10].windows, 3);
	/* TB 0: no window has a value */
	ck_assert_uint_eq(acc[8].no_value, 3);
	ck_assert_uint_eq(acc[8].sum_n, 0);
	free(t);
	counter_plan_free(&plan);
}
END_TEST

/* Narrow figures (bits from the caller): eight sums of 2^48 - 1, a wide
 * sum of 2^64 - 1, an average timer over a count of 0xFFFFFFFF that is 0
 * every fourth window, and a rate over the second vector; 100000
 * windows, folded when the plan asks (after 2^(64 - 48) = 65536), against
 * the same windows one by one and by hand. */
#define NSLOTS 12
#define NSPLIT 10
#define NNARROW 11
#define NWINDOWS 100000

START_TEST(narrow)
{
	static const uint8_t bits[NSLOTS] = { 48, 48, 48, 48, 48, 48, 48, 48, 0, 32, 0, 0 };
	struct counter_feed nf[NNARROW], rest[NNARROW];
	struct counter_acc want[NNARROW], got[NNARROW];
	struct counter_plan plan;
	uint64_t x[NSLOTS], *t;
	size_t nrest, folds = 0;

	for (uint16_t i = 0; i < 9; i++) {
		counter_feed_init(&nf[i], counter_type_by_name("PERF_COUNTER_LARGE_DELTA"), i, 0);
		nf[i].n = i;
		nf[i].d = nf[i].b = 11;
	}
	counter_feed_init(&nf[9], counter_type_by_name("PERF_AVERAGE_TIMER"), 9, 10000);
	nf[9].n = 0;
	nf[9].d = 11;
	nf[9].b = 9;
	counter_feed_init(&nf[10], counter_type_by_name("PERF_COUNTER_COUNTER"), 10, 10000000);
	nf[10].n = 9;
	nf[10].d = 10;
	nf[10].b = 11;
	for (size_t i = 0; i < NNARROW; i++) {
		nf[i].need = 1;
		counter_acc_init(&want[i], (enum counter_type)nf[i].type);
		counter_acc_init(&got[i], (enum counter_type)nf[i].type);
	}
	ck_assert_int_eq(counter_plan_init(&plan, nf, NNARROW, NSPLIT, bits, rest, &nrest), PM_OK);
	ck_assert_uint_eq(nrest, 0);
	ck_assert_uint_eq(plan.fold_at, 65536);
	/* slots 0-7 and 9 narrow; slot 9's one pair (N 0) under a mask, slot
	 * 10's marked (its N in the other vector) */
	ck_assert_uint_eq(plan.sums.at[1], 9);
	ck_assert_uint_eq(plan.zeros.at[1], 1);
	ck_assert_uint_eq(plan.zeros.at[3], plan.zeros.at[2]);
	t = calloc(plan.words, sizeof *t);
	ck_assert_ptr_nonnull(t);
	for (size_t k = 0; k < NWINDOWS; k++) {
		struct counter_figures win = { x, 1, k };

		for (size_t s = 0; s < 8; s++)
			x[s] = ((uint64_t)1 << 48) - 1;
		x[8] = UINT64_MAX;
		x[9] = k % 4 == 3 ? 0 : 0xFFFFFFFF;
		x[10] = 1;
		x[11] = 0;
		counter_feed_add(want, nf, NNARROW, &win, 1);
		if (counter_totals_add(&plan, t, x, x + NSPLIT)) {
			counter_totals_fold(&plan, t, got);
			folds++;
		}
	}
	counter_totals_fold(&plan, t, got);
	compare_n(want, got, NNARROW);
	ck_assert_uint_eq(folds, 1);
	/* 100000 (2^48 - 1) = 2^64 + 34464 2^48 - 100000 */
	for (size_t i = 0; i < 8; i++) {
		ck_assert_uint_eq(got[i].sum_n, 34464 * ((uint64_t)1 << 48) - 100000);
		ck_assert(got[i].overflow);
	}
	/* 100000 (2^64 - 1) = 99999 2^64 + 2^64 - 100000 */
	ck_assert_uint_eq(got[8].sum_n, UINT64_MAX - 99999);
	ck_assert(got[8].overflow);
	/* 75000 windows with a count: 75000 (2^48 - 1) = 2^64 + 9464 2^48 - 75000
	 * over 75000 0xFFFFFFFF; 25000 without a value */
	ck_assert_uint_eq(got[9].sum_n, 9464 * ((uint64_t)1 << 48) - 75000);
	ck_assert_uint_eq(got[9].sum_db, 322122547125000u);
	ck_assert_uint_eq(got[9].no_value, 25000);
	ck_assert_uint_eq(got[9].windows, NWINDOWS);
	/* the rate: every duration 1 */
	ck_assert_uint_eq(got[10].sum_n, 322122547125000u);
	ck_assert_uint_eq(got[10].sum_d, NWINDOWS);
	ck_assert_uint_eq(got[10].no_value, 0);
	ck_assert(!got[10].overflow);
	free(t);
	counter_plan_free(&plan);
}
END_TEST

/* Too few narrow sums for a loop of their own, but the average timer's
 * count still a single divisor: its pair (N = 2^48 - 1, never carried)
 * folded after 65536 windows all the same; 70000 windows, the count 1. */
START_TEST(narrow_few)
{
	static const uint8_t bits[2] = { 48, 48 };
	struct counter_feed f, rest[1];
	struct counter_acc want, got;
	struct counter_plan plan;
	uint64_t x[2], *t;
	size_t nrest, folds = 0;

	counter_feed_init(&f, counter_type_by_name("PERF_AVERAGE_TIMER"), 0, 10000);
	f.n = 0;
	f.d = f.b = 1;
	f.need = 1;
	counter_acc_init(&want, (enum counter_type)f.type);
	counter_acc_init(&got, (enum counter_type)f.type);
	ck_assert_int_eq(counter_plan_init(&plan, &f, 1, 2, bits, rest, &nrest), PM_OK);
	ck_assert_uint_eq(plan.sums.at[1], 0);    /* both sums carried */
	ck_assert_uint_eq(plan.zeros.at[1], 1);   /* the count single */
	ck_assert_uint_eq(plan.fold_at, 65536);
	t = calloc(plan.words, sizeof *t);
	ck_assert_ptr_nonnull(t);
	for (size_t k = 0; k < 70000; k++) {
		struct counter_figures win = { x, 1, k };

		x[0] = ((uint64_t)1 << 48) - 1;
		x[1] = 1;
		counter_feed_add(&want, &f, 1, &win, 1);
		if (counter_totals_add(&plan, t, x, x + 2)) {
			counter_totals_fold(&plan, t, &got);
			folds++;
		}
	}
	counter_totals_fold(&plan, t, &got);
	compare_n(&want, &got, 1);
	ck_assert_uint_eq(folds, 1);
	/* 70000 (2^48 - 1) = 2^64 + 4464 2^48 - 70000 */
	ck_assert_uint_eq(got.sum_n, 4464 * ((uint64_t)1 << 48) - 70000);
	ck_assert(got.overflow);
	ck_assert_uint_eq(got.sum_db, 70000);
	ck_assert_uint_eq(got.no_value, 0);
	free(t);
	counter_plan_free(&plan);
}
END_TEST

/* Units: 11 buckets, each an average timer of its time (N, slot C - 2)
 * over its count (C), the maximum of its high (C - 1) and the delta of its
 * count, at C = 3, 7, 11, 15, then 20, 24, 28 (a gap: two runs), and 35,
 * 39, 43, 47 in the second vector (from 32); slot 0 wide, a delta and a
 * maximum of its own. Against the same windows one by one, and three
 * windows of the first bucket by hand. */
#define USLOTS 48
#define USPLIT 32
#define UBUCKETS 11
#define UFEEDS (3 * UBUCKETS + 2)

static const uint16_t unit_c[UBUCKETS] = { 3, 7, 11, 15, 20, 24, 28, 35, 39, 43, 47 };

/* A window: small figures, a count 0 one time in three, a high past 2^63
 * one time in five (its slot wide: maxima compare unsigned). */
static void
unit_window(uint64_t *seed, uint64_t x[USLOTS], size_t k)
{
	for (size_t s = 0; s < USLOTS; s++)
		x[s] = next_random(seed) % 100000;
	x[0] = UINT64_MAX - k;
	for (size_t b = 0; b < UBUCKETS; b++) {
		if (next_random(seed) % 3 == 0)
			x[unit_c[b]] = 0;
		if (next_random(seed) % 5 == 0)
			x[unit_c[b] - 1] = ((uint64_t)1 << 63) + next_random(seed) % 100000;
	}
}

static uint8_t unit_bits[USLOTS];

/* The units test's feeds, its slots' bits to unit_bits. */
static void
unit_feeds(struct counter_feed uf[UFEEDS])
{
	for (size_t s = 1; s < USLOTS; s++)
		unit_bits[s] = 32;
	for (size_t b = 0; b < UBUCKETS; b++)
		unit_bits[unit_c[b] - 1] = 64;
	for (size_t b = 0; b < UBUCKETS; b++) {
		struct counter_feed *f = &uf[3 * b];

		counter_feed_init(&f[0], counter_type_by_name("PERF_AVERAGE_TIMER"),
		                  (uint32_t)(3 * b), 10000);
		f[0].n = (uint16_t)(unit_c[b] - 2);
		f[0].d = 0;
		f[0].b = unit_c[b];
		counter_feed_init(&f[1], counter_type_by_name("MAX"), (uint32_t)(3 * b + 1), 0);
		f[1].n = (uint16_t)(unit_c[b] - 1);
		f[1].d = f[1].b = 0;
		counter_feed_init(&f[2], counter_type_by_name("PERF_COUNTER_LARGE_DELTA"),
		                  (uint32_t)(3 * b + 2), 0);
		f[2].n = unit_c[b];
		f[2].d = f[2].b = 0;
	}
	counter_feed_init(&uf[UFEEDS - 2], counter_type_by_name("PERF_COUNTER_LARGE_DELTA"),
	                  UFEEDS - 2, 0);
	counter_feed_init(&uf[UFEEDS - 1], counter_type_by_name("MAX"), UFEEDS - 1, 0);
	uf[UFEEDS - 2].n = uf[UFEEDS - 1].n = 0;
	uf[UFEEDS - 2].d = uf[UFEEDS - 2].b = uf[UFEEDS - 1].d = uf[UFEEDS - 1].b = 0;
	for (size_t i = 0; i < UFEEDS; i++)
		uf[i].need = 1;
}

/* The units test's windows, its runs added four units at a time (where
 * the plan found the CPU could) or one at a time. */
static void
units_added(bool by_four)
{
	struct counter_feed uf[UFEEDS], rest[UFEEDS];
	struct counter_acc want[UFEEDS], got[UFEEDS];
	struct counter_plan plan;
	uint64_t x[USLOTS], *t, seed = 7;
	size_t nrest;

	unit_feeds(uf);
	for (size_t i = 0; i < UFEEDS; i++) {
		counter_acc_init(&want[i], (enum counter_type)uf[i].type);
		counter_acc_init(&got[i], (enum counter_type)uf[i].type);
	}
	ck_assert_int_eq(counter_plan_init(&plan, uf, UFEEDS, USPLIT, unit_bits, rest, &nrest), PM_OK);
	ck_assert_uint_eq(nrest, 0);
	ck_assert_uint_eq(plan.nruns, 3);
	ck_assert_uint_eq(plan.units[0], 7);
	ck_assert_uint_eq(plan.units[1], 4);
	ck_assert_int_eq(plan.unit_dn, -2);
	ck_assert_int_eq(plan.unit_dm, -1);
	/* four units a step apart in the first vector; then three; then the
	 * second vector's */
	ck_assert(plan.runs[0].by_four);
	ck_assert(!plan.runs[1].by_four);
	ck_assert(!plan.runs[2].by_four);
	if (by_four && !plan.runs_by_four) {
		counter_plan_free(&plan);
		return;  /* not on this CPU */
	}
	plan.runs_by_four = by_four;
	t = calloc(plan.words, sizeof *t);
	ck_assert_ptr_nonnull(t);

	/* bucket 0 by hand: times 10, 20, 30 over counts 1, 0, 2; highs 5, 9, 7 */
	for (size_t k = 0; k < 3; k++) {
		memset(x, 0, sizeof x);
		x[1] = 10 * (k + 1);
		x[2] = k == 0 ? 5 : k == 1 ? 9 : 7;
		x[3] = k == 0 ? 1 : k == 1 ? 0 : 2;
		counter_totals_add(&plan, t, x, x + USPLIT);
	}
	counter_totals_fold(&plan, t, got);
	ck_assert_uint_eq(got[0].sum_n, 40);
	ck_assert_uint_eq(got[0].sum_db, 3);
	ck_assert_uint_eq(got[0].no_value, 1);
	ck_assert_uint_eq(got[1].max_n, 9);
	ck_assert_uint_eq(got[2].sum_n, 3);
	for (size_t i = 0; i < UFEEDS; i++)
		counter_acc_init(&got[i], (enum counter_type)uf[i].type);

	for (size_t k = 0; k < 5000; k++) {
		struct counter_figures win = { x, 1, k };

		unit_window(&seed, x, k);
		counter_feed_add(want, uf, UFEEDS, &win, 1);
		if (counter_totals_add(&plan, t, x, x + USPLIT) || k % 13 == 12)
			counter_totals_fold(&plan, t, got);
	}
	counter_totals_fold(&plan, t, got);
	compare_n(want, got, UFEEDS);
	free(t);
	counter_plan_free(&plan);
}

START_TEST(units)
{
	struct counter_feed uf[UFEEDS], rest[UFEEDS];
	struct counter_plan plan;
	size_t nrest;

	units_added(true);
	units_added(false);
	/* the first vector ending at the first run's last C: the word after
	 * it is not the vector's, and the run is added one unit at a time */
	unit_feeds(uf);
	ck_assert_int_eq(counter_plan_init(&plan, uf, UFEEDS, 16, unit_bits, rest, &nrest), PM_OK);
	ck_assert_uint_eq(plan.runs[0].c, 3);
	ck_assert_uint_eq(plan.runs[0].count, 4);
	ck_assert(!plan.runs[0].second);
	ck_assert(!plan.runs[0].by_four);
	counter_plan_free(&plan);
}
END_TEST

Suite *
unit_suite(void)
{
	Suite *s = suite_create("totals");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, same_as_one_by_one);
	tcase_add_test(tc, overflow);
	tcase_add_test(tc, by_hand);
	tcase_add_test(tc, narrow);
	tcase_add_test(tc, narrow_few);
	tcase_add_test(tc, units);
	suite_add_tcase(s, tc);
	return s;
}
