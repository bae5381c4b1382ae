/* check_tzone.c: a zone's rules through the C library. The expected UTC
 * times are those the zones' published rules give (2026: Europe/Berlin
 * goes back from 03:00 CEST to 02:00 CET on October 25 and forward from
 * 02:00 CET to 03:00 CEST on March 29). */
#include "check_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmim/pmtime.h"
#include "core/tzone.h"

#define HOUR (3600 * PM_UNITS_PER_SECOND)

static int64_t
at(int y, unsigned mo, unsigned d, unsigned h, unsigned mi)
{
	return pmtime_days_from_civil(y, mo, d) * PM_UNITS_PER_DAY + (int64_t)h * HOUR +
	       (int64_t)mi * 60 * PM_UNITS_PER_SECOND;
}

START_TEST(test_berlin)
{
	pm_status st;
	struct tzone *z = tzone_open("Europe/Berlin", &st);
	int64_t utc[2];
	char text[TZONE_TEXT], ms[TZONE_TEXT_MS];

	ck_assert_ptr_nonnull(z);
	/* 02:30 local on October 25 is 00:30 UTC (CEST) and 01:30 UTC (CET) */
	ck_assert_uint_eq(tzone_to_utc(z, at(2026, 10, 25, 2, 30), utc), 2);
	ck_assert(utc[0] == at(2026, 10, 25, 0, 30));
	ck_assert(utc[1] == at(2026, 10, 25, 1, 30));
	/* 03:00 is CET only: 02:00 UTC */
	ck_assert_uint_eq(tzone_to_utc(z, at(2026, 10, 25, 3, 0), utc), 1);
	ck_assert(utc[0] == at(2026, 10, 25, 2, 0));
	/* 02:30 on March 29 never was: taken as CET, 01:30 UTC */
	ck_assert_uint_eq(tzone_to_utc(z, at(2026, 3, 29, 2, 30), utc), 1);
	ck_assert(utc[0] == at(2026, 3, 29, 1, 30));
	ck_assert(tzone_offset(z, at(2026, 7, 1, 12, 0)) == 2 * HOUR);
	tzone_format(z, at(2026, 10, 25, 0, 0), text);
	ck_assert_str_eq(text, "2026-10-25 02:00:00+02:00");
	tzone_format(z, at(2026, 10, 25, 1, 0), text);
	ck_assert_str_eq(text, "2026-10-25 02:00:00+01:00");
	tzone_format(NULL, at(2026, 10, 25, 1, 0), text);
	ck_assert_str_eq(text, "2026-10-25 01:00:00");
	/* milliseconds: 1239 units of 10**-4 s are 0.1239 s, truncated */
	tzone_format_ms(z, at(2026, 10, 25, 1, 0) + 1239, ms);
	ck_assert_str_eq(ms, "2026-10-25 02:00:00.123+01:00");
	tzone_format_ms(z, at(2026, 7, 1, 12, 0) + 9999, ms);
	ck_assert_str_eq(ms, "2026-07-01 14:00:00.999+02:00");
	tzone_format_ms(NULL, at(2026, 10, 25, 1, 0) + 40, ms);
	ck_assert_str_eq(ms, "2026-10-25 01:00:00.004");
	/* before 1970: a millisecond below the second, not above */
	tzone_format_ms(NULL, -1, ms);
	ck_assert_str_eq(ms, "1969-12-31 23:59:59.999");
	tzone_close(z);
}
END_TEST

START_TEST(test_new_york_and_unknown)
{
	pm_status st;
	struct tzone *z = tzone_open("America/New_York", &st);
	int64_t utc[2];
	char text[TZONE_TEXT], ms[TZONE_TEXT_MS];

	ck_assert_ptr_nonnull(z);
	/* 01:15 on November 1, 2026 is 05:15 UTC (EDT) and 06:15 UTC (EST) */
	ck_assert_uint_eq(tzone_to_utc(z, at(2026, 11, 1, 1, 15), utc), 2);
	ck_assert(utc[0] == at(2026, 11, 1, 5, 15));
	ck_assert(utc[1] == at(2026, 11, 1, 6, 15));
	tzone_format(z, at(2026, 11, 1, 6, 15), text);
	ck_assert_str_eq(text, "2026-11-01 01:15:00-05:00");
	tzone_format_ms(z, at(2026, 11, 1, 6, 15) + 5000, ms);
	ck_assert_str_eq(ms, "2026-11-01 01:15:00.500-05:00");
	tzone_close(z);
	ck_assert_ptr_null(tzone_open("Mars/Olympus_Mons", &st));
	ck_assert_int_eq(st, PM_E_USAGE);
	ck_assert_ptr_null(tzone_open("../zoneinfo/UTC", &st));
	ck_assert_ptr_null(tzone_open("", &st));
}
END_TEST

Suite *
unit_suite(void)
{
	const char *dir = getenv("TZDIR");
	char path[512];
	FILE *fp;
	Suite *s;
	TCase *tc;

	snprintf(path, sizeof path, "%s/Europe/Berlin", dir && *dir ? dir : "/usr/share/zoneinfo");
	if (!(fp = fopen(path, "rb"))) {
		printf("no zone data (tzdata): skipped\n");
		exit(77);
	}
	fclose(fp);
	s = suite_create("tzone");
	tc = tcase_create("tzone");
	tcase_add_test(tc, test_berlin);
	tcase_add_test(tc, test_new_york_and_unknown);
	suite_add_tcase(s, tc);
	return s;
}
