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
#define NFEEDS 11

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
	feed(10, "PERF_COUNTER_TIMER", 5, 6, 9, 10000000);    /* not the plan's */
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
compare(const struct counter_acc *want, const struct counter_acc *got)
{
	for (size_t i = 0; i < NFEEDS; i++) {
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
	ck_assert_int_eq(counter_plan_init(&plan, feeds, NFEEDS, SPLIT, rest, &nrest), PM_OK);
	ck_assert_uint_eq(plan.nfeeds, 9);
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
	compare(want, got);
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
	ck_assert_int_eq(counter_plan_init(&plan, feeds, NFEEDS, SPLIT, rest, &nrest), PM_OK);
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
	/* TB 0: no window has a value */
	ck_assert_uint_eq(acc[8].no_value, 3);
	ck_assert_uint_eq(acc[8].sum_n, 0);
	free(t);
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
	suite_add_tcase(s, tc);
	return s;
}
