/* check_progress.c: the progress line. Each test waits a little over the
 * quarter second the line waits between redraws, then reads what was
 * drawn; expected figures are the bytes and records given, worked out by
 * hand, and rates and ETAs bounded by the time the test measured itself. */
#include "check_main.h"
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/progress.h"

static void
wait_redraw(void)
{
	struct timespec t = { 0, 300 * 1000 * 1000 };
	nanosleep(&t, NULL);
}

static double
now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* What the progress has written to f so far, from its start. */
static const char *
drawn(FILE *f, char *buf, size_t cap)
{
	size_t n;

	fflush(f);
	rewind(f);
	n = fread(buf, 1, cap - 1, f);
	buf[n] = '\0';
	return buf;
}

START_TEST(known_size_shows_percent_and_eta)
{
	FILE *f = tmpfile();
	struct progress p;
	char buf[512];
	double mb, of, rate, t0, elapsed;
	int pct, h, m, s;
	unsigned long long recs;

	ck_assert_ptr_nonnull(f);
	t0 = now();
	progress_init(&p, f, 80000000);
	wait_redraw();
	progress_update(&p, 60000000, 1234);
	elapsed = now() - t0;
	drawn(f, buf, sizeof buf);
	ck_assert_msg(sscanf(buf, "\rpmimrpt: %lf MB of %lf MB (%d%%) at %lf MB/s, "
	                     "%llu records, ETA %d:%d:%d", &mb, &of, &pct, &rate,
	                     &recs, &h, &m, &s) == 8, "drawn: %s", buf);
	ck_assert(mb == 60.0 && of == 80.0 && pct == 75 && recs == 1234);
	/* 60 MB in a quarter second or more, at most `elapsed`; a third as
	 * long for the 20 MB left */
	ck_assert(rate >= 60.0 / elapsed - 1 && rate <= 60.0 / 0.25 + 1);
	ck_assert_int_le(h * 3600 + m * 60 + s, (int)(elapsed / 3) + 1);
	ck_assert(strstr(buf, "\033[K") != NULL);
	fclose(f);
}
END_TEST

START_TEST(unknown_size_shows_no_percent)
{
	FILE *f = tmpfile();
	struct progress p;
	char buf[512];
	double mb, rate;
	unsigned long long recs;

	ck_assert_ptr_nonnull(f);
	progress_init(&p, f, -1);
	wait_redraw();
	progress_update(&p, 1500000, 7);
	drawn(f, buf, sizeof buf);
	ck_assert_msg(sscanf(buf, "\rpmimrpt: %lf MB at %lf MB/s, %llu records",
	                     &mb, &rate, &recs) == 3, "drawn: %s", buf);
	ck_assert(mb == 1.5 && recs == 7);
	ck_assert(strstr(buf, " of ") == NULL && strstr(buf, "ETA") == NULL);
	fclose(f);
}
END_TEST

/* At most one line per quarter second; bytes of inputs already read
 * count; erasing clears the line once. */
START_TEST(throttled_and_erased)
{
	FILE *f = tmpfile();
	struct progress p;
	char buf[1024];
	size_t len;

	ck_assert_ptr_nonnull(f);
	progress_init(&p, f, -1);
	progress_update(&p, 1000000, 1);	/* too soon: nothing */
	ck_assert_uint_eq(strlen(drawn(f, buf, sizeof buf)), 0);
	wait_redraw();
	progress_next_input(&p, 2000000);
	progress_update(&p, 500000, 2);
	ck_assert(strncmp(drawn(f, buf, sizeof buf), "\rpmimrpt: 2.5 MB at ", 20) == 0);
	len = strlen(buf);
	progress_update(&p, 600000, 3);		/* too soon again */
	ck_assert_uint_eq(strlen(drawn(f, buf, sizeof buf)), len);
	progress_erase(&p);
	progress_erase(&p);			/* nothing left to erase */
	ck_assert_str_eq(drawn(f, buf, sizeof buf) + len, "\r\033[K");
	fclose(f);
}
END_TEST

START_TEST(off_draws_nothing)
{
	struct progress p;

	progress_init(&p, NULL, 100);
	wait_redraw();
	progress_update(&p, 50, 1);
	progress_erase(&p);
	ck_assert_int_eq(p.drawn, 0);
}
END_TEST

Suite *
unit_suite(void)
{
	Suite *s = suite_create("progress");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, known_size_shows_percent_and_eta);
	tcase_add_test(tc, unknown_size_shows_no_percent);
	tcase_add_test(tc, throttled_and_erased);
	tcase_add_test(tc, off_draws_nothing);
	suite_add_tcase(s, tc);
	return s;
}
