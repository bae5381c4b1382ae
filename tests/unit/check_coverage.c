/* check_coverage.c: the time already covered, per source. Intervals are
 * given in minutes here; every expected verdict follows from the ranges
 * the test itself covered. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "check_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmim/coverage.h"
#include "pmim/pmtime.h"

#define MINUTE (60 * PM_UNITS_PER_SECOND)

struct harness {
	struct diag diag;
	struct tally tally;
	struct sources names;
	struct coverage *c;
	FILE *out;
	char *msg;
	size_t msglen;
};

static void
h_open(struct harness *t, size_t max_ranges)
{
	struct coverage_opts o = { max_ranges, NULL };
	uint32_t id;

	memset(t, 0, sizeof *t);
	t->out = open_memstream(&t->msg, &t->msglen);
	ck_assert_ptr_nonnull(t->out);
	diag_init(&t->diag, "pmimrpt", t->out);
	t->diag.max_per_status = 0;
	ck_assert_int_eq(sources_init(&t->names, 4), PM_OK);
	ck_assert_int_eq(sources_intern(&t->names, "SYSA", 4, &id), PM_OK);
	ck_assert_int_eq(sources_intern(&t->names, "SYSB", 4, &id), PM_OK);
	ck_assert_int_eq(coverage_open(&t->c, &o, &t->names, &t->diag, &t->tally), PM_OK);
	ck_assert_ptr_nonnull(t->c);
}

static const char *
h_messages(struct harness *t)
{
	fflush(t->out);
	return t->msg ? t->msg : "";
}

static void
h_close(struct harness *t)
{
	coverage_close(t->c);
	sources_free(&t->names);
	fclose(t->out);
	free(t->msg);
}

/* Admit source's interval from minute `from` to `to` of 2025-03-03, found
 * in file at offset. */
static bool
h_admit_as(struct harness *t, bool complete, uint32_t source, int from, int to,
           const char *file, uint64_t offset)
{
	int64_t day = pmtime_days_from_civil(2025, 3, 3) * PM_UNITS_PER_DAY;
	struct interval iv = { .source = source, .start = day + from * MINUTE,
	                       .end = day + to * MINUTE, .offset = offset };
	return coverage_admit(t->c, &iv, complete, file);
}

/* The same, for a complete interval. */
static bool
h_admit(struct harness *t, uint32_t source, int from, int to, const char *file,
        uint64_t offset)
{
	return h_admit_as(t, true, source, from, to, file, offset);
}

static enum coverage_verdict
h_judge(struct harness *t, uint32_t source, int from, int to)
{
	int64_t day = pmtime_days_from_civil(2025, 3, 3) * PM_UNITS_PER_DAY;
	return coverage_judge(t->c, source, true, day + from * MINUTE, day + to * MINUTE);
}

/* Quarter hours from 06:00 (a short first one from 06:03) merge into one
 * range; a repeat on their boundaries is a duplicate, a repeat off them
 * (or partly outside) is overlapping, time beside them is new. */
START_TEST(test_verdicts)
{
	struct harness t;

	h_open(&t, 10);
	ck_assert(h_admit(&t, 0, 363, 375, "a", 100));
	for (int m = 375; m < 480; m += 15)
		ck_assert(h_admit(&t, 0, m, m + 15, "a", 100 + (uint64_t)m));
	ck_assert(h_admit(&t, 0, 480, 487, "a", 900));  /* a short last one */
	ck_assert_int_eq(h_judge(&t, 0, 363, 375), COVER_DUPLICATE);
	ck_assert_int_eq(h_judge(&t, 0, 420, 435), COVER_DUPLICATE);
	ck_assert_int_eq(h_judge(&t, 0, 480, 487), COVER_DUPLICATE);
	ck_assert_int_eq(h_judge(&t, 0, 420, 450), COVER_DUPLICATE); /* two */
	ck_assert_int_eq(h_judge(&t, 0, 425, 440), COVER_OVERLAPPING);
	ck_assert_int_eq(h_judge(&t, 0, 480, 495), COVER_OVERLAPPING);
	ck_assert_int_eq(h_judge(&t, 0, 350, 365), COVER_OVERLAPPING);
	ck_assert_int_eq(h_judge(&t, 0, 487, 495), COVER_NEW);
	ck_assert_int_eq(h_judge(&t, 0, 345, 363), COVER_NEW);
	ck_assert_int_eq(h_judge(&t, 1, 420, 435), COVER_NEW); /* another source */
	ck_assert_uint_eq(t.tally.intervals_duplicate, 0);
	h_close(&t);
}
END_TEST

/* Repeats in a row are one run, said once when it ends, with its count,
 * its time and both places; an admitted interval ends it. */
START_TEST(test_one_message_per_run)
{
	struct harness t;
	const char *msg;

	h_open(&t, 10);
	for (int m = 0; m < 120; m += 15)
		ck_assert(h_admit(&t, 1, m, m + 15, "first.dat", 4096 + (uint64_t)m));
	for (int m = 0; m < 60; m += 15)
		ck_assert(!h_admit(&t, 1, m, m + 15, "second.dat", 64 + (uint64_t)m));
	ck_assert_uint_eq(t.diag.count[PM_E_DUPLICATE_INTERVAL], 0);
	ck_assert(h_admit(&t, 1, 120, 135, "second.dat", 900));
	ck_assert_uint_eq(t.diag.count[PM_E_DUPLICATE_INTERVAL], 1);
	ck_assert(!h_admit(&t, 1, 5, 20, "second.dat", 1000));
	coverage_finish(t.c);
	ck_assert_uint_eq(t.diag.count[PM_E_OVERLAP_INTERVAL], 1);
	ck_assert_uint_eq(t.tally.intervals_duplicate, 4);
	ck_assert_uint_eq(t.tally.intervals_overlapping, 1);
	msg = h_messages(&t);
	ck_assert_ptr_nonnull(strstr(msg, "pmimrpt: second.dat: offset 64 (0x40): warning: "
	                                  "duplicate interval: time already covered; left out: "
	                                  "4 intervals of SYSB from 2025-03-03 00:00:00 to "
	                                  "2025-03-03 01:00:00; first copy among the intervals "
	                                  "of first.dat from offset 4096\n"));
	ck_assert_ptr_nonnull(strstr(msg, "second.dat: offset 1000 (0x3e8): warning: interval "
	                                  "overlaps"));
	h_close(&t);
}
END_TEST

/* Ranges of different inputs stay apart; filling the gap between two of
 * one input merges them; past the limit, new time is not remembered. */
START_TEST(test_ranges_and_limit)
{
	struct harness t;

	h_open(&t, 2);
	ck_assert(h_admit(&t, 0, 0, 15, "a", 0));
	ck_assert(h_admit(&t, 0, 30, 45, "a", 10));
	ck_assert(h_admit(&t, 0, 15, 30, "a", 20));     /* fills the gap */
	ck_assert_int_eq(h_judge(&t, 0, 0, 45), COVER_DUPLICATE);
	ck_assert(h_admit(&t, 0, 45, 60, "b", 30));     /* a second range */
	ck_assert_int_eq(h_judge(&t, 0, 45, 60), COVER_DUPLICATE);
	ck_assert_int_eq(h_judge(&t, 0, 30, 60), COVER_OVERLAPPING); /* spans two */
	ck_assert(h_admit(&t, 1, 0, 15, "a", 40));      /* past the limit */
	ck_assert_uint_eq(t.diag.count[PM_E_COVERAGE_LIMIT], 1);
	ck_assert(h_admit(&t, 1, 0, 15, "a", 50));      /* not remembered */
	ck_assert(h_admit(&t, 1, 30, 45, "a", 60));
	ck_assert_uint_eq(t.diag.count[PM_E_COVERAGE_LIMIT], 1);  /* said once */
	ck_assert_ptr_nonnull(strstr(h_messages(&t), "(see --max-coverage)"));
	h_close(&t);
}
END_TEST

/* An incomplete interval (its time perhaps from one damaged record) covers
 * time for incomplete intervals only; a complete one covers it for all. */
START_TEST(test_incomplete_cover_less)
{
	struct harness t;

	h_open(&t, 10);
	ck_assert(h_admit_as(&t, false, 0, 0, 35, "a", 0));
	ck_assert(h_admit(&t, 0, 15, 30, "a", 10));
	ck_assert(!h_admit_as(&t, false, 0, 0, 15, "a", 20));  /* off its grid */
	ck_assert(!h_admit_as(&t, false, 0, 15, 30, "a", 30)); /* a complete one's */
	ck_assert(!h_admit(&t, 0, 15, 30, "a", 40));
	coverage_finish(t.c);
	ck_assert_uint_eq(t.tally.intervals_overlapping, 1);
	ck_assert_uint_eq(t.tally.intervals_duplicate, 2);
	h_close(&t);
}
END_TEST

/* Intervals each just after the last range of their input, the usual
 * case: taken into that range (an empty one too), keeping its grid; the
 * first such after repeats ends their run; an input's own range else. */
START_TEST(test_after_last_range)
{
	struct harness t;
	size_t most;

	h_open(&t, 10);
	ck_assert(h_admit(&t, 0, 0, 15, "a", 0));
	ck_assert(h_admit(&t, 0, 15, 30, "a", 10));
	ck_assert(h_admit(&t, 0, 30, 30, "a", 20));
	ck_assert(h_admit(&t, 0, 30, 45, "a", 30));
	ck_assert_uint_eq(coverage_ranges(t.c, &most), 1);
	ck_assert_int_eq(h_judge(&t, 0, 15, 30), COVER_DUPLICATE);
	ck_assert_int_eq(h_judge(&t, 0, 20, 35), COVER_OVERLAPPING);
	ck_assert(!h_admit(&t, 0, 0, 15, "a", 40));
	ck_assert(h_admit(&t, 0, 45, 60, "a", 50));
	ck_assert_uint_eq(t.diag.count[PM_E_DUPLICATE_INTERVAL], 1);
	ck_assert_uint_eq(coverage_ranges(t.c, &most), 1);
	ck_assert_int_eq(h_judge(&t, 0, 0, 60), COVER_DUPLICATE);
	ck_assert(h_admit(&t, 0, 60, 75, "b", 60));
	ck_assert_uint_eq(coverage_ranges(t.c, &most), 2);
	ck_assert(h_admit(&t, 0, 75, 90, "b", 70));
	ck_assert_uint_eq(coverage_ranges(t.c, &most), 2);
	ck_assert_int_eq(h_judge(&t, 0, 60, 90), COVER_DUPLICATE);
	ck_assert_int_eq(h_judge(&t, 0, 45, 75), COVER_OVERLAPPING); /* spans two */
	coverage_finish(t.c);
	ck_assert_uint_eq(t.tally.intervals_duplicate, 1);
	h_close(&t);
}
END_TEST

Suite *
unit_suite(void)
{
	Suite *s = suite_create("coverage");
	TCase *core = tcase_create("Core");

	tcase_add_test(core, test_verdicts);
	tcase_add_test(core, test_one_message_per_run);
	tcase_add_test(core, test_ranges_and_limit);
	tcase_add_test(core, test_incomplete_cover_less);
	tcase_add_test(core, test_after_last_range);
	suite_add_tcase(s, core);
	return s;
}
