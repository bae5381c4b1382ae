/* check_pmtime.c: packed dates, times and stamps. Expected days and dates
 * are worked out by hand from the calendar (comments show how). */
#include "check_main.h"
#include <stdlib.h>

#include "pmim/pmtime.h"

START_TEST(packed_dates)
{
	int y, d;
	/* 0cyydddF with c = 1: X'0126334F' is 2026, day 334 (Nov 30) */
	ck_assert_int_eq(pmtime_pdate_decode(0x0126334F, &y, &d), PM_OK);
	ck_assert_int_eq(y, 2026);
	ck_assert_int_eq(d, 334);
	/* c = 0: X'0099365F' is 1999, day 365 */
	ck_assert_int_eq(pmtime_pdate_decode(0x0099365F, &y, &d), PM_OK);
	ck_assert_int_eq(y, 1999);
	ck_assert_int_eq(d, 365);
	/* sign C is accepted as well as F */
	ck_assert_int_eq(pmtime_pdate_decode(0x0124001C, &y, &d), PM_OK);
	ck_assert_int_eq(y, 2024);
	ck_assert_int_eq(d, 1);
	/* 00YYYDDF as the PMIM copybook writes it: YYY = 124 is 2024 */
	ck_assert_int_eq(pmtime_pdate_decode(0x0124366F, &y, &d), PM_OK); /* leap year */
	ck_assert_int_eq(d, 366);
	/* c = 2 is 21xx */
	ck_assert_int_eq(pmtime_pdate_decode(0x0200001F, &y, &d), PM_OK);
	ck_assert_int_eq(y, 2100);
}
END_TEST

START_TEST(bad_dates)
{
	int y = 7, d = 7;
	ck_assert_int_eq(pmtime_pdate_decode(0x0126334D, &y, &d), PM_E_BAD_DATE); /* sign D */
	ck_assert_int_eq(pmtime_pdate_decode(0x0126334A, &y, &d), PM_E_BAD_DATE); /* sign A */
	ck_assert_int_eq(pmtime_pdate_decode(0x012A334F, &y, &d), PM_E_BAD_DATE); /* digit A */
	ck_assert_int_eq(pmtime_pdate_decode(0xF126334F, &y, &d), PM_E_BAD_DATE); /* digit F */
	ck_assert_int_eq(pmtime_pdate_decode(0x0126000F, &y, &d), PM_E_BAD_DATE); /* day 0 */
	ck_assert_int_eq(pmtime_pdate_decode(0x0125366F, &y, &d), PM_E_BAD_DATE); /* 2025 has 365 */
	ck_assert_int_eq(pmtime_pdate_decode(0x00000000, &y, &d), PM_E_BAD_DATE);
	ck_assert_int_eq(pmtime_pdate_decode(0xFFFFFFFF, &y, &d), PM_E_BAD_DATE);
	/* an error leaves the outputs alone: no wrong date */
	ck_assert_int_eq(y, 7);
	ck_assert_int_eq(d, 7);
}
END_TEST

START_TEST(encode_round_trip)
{
	ck_assert_uint_eq(pmtime_pdate_encode(2026, 334), 0x0126334F);
	ck_assert_uint_eq(pmtime_pdate_encode(1999, 1), 0x0099001F);
	for (int year = 1950; year < 2150; year += 7)
		for (int d = 1; d <= 365; d += 13) {
			int y2, d2;
			ck_assert_int_eq(pmtime_pdate_decode(pmtime_pdate_encode(year, d), &y2, &d2), PM_OK);
			ck_assert_int_eq(y2, year);
			ck_assert_int_eq(d2, d);
		}
}
END_TEST

START_TEST(days)
{
	ck_assert_int_eq(pmtime_days_from_civil(1970, 1, 1), 0);
	ck_assert_int_eq(pmtime_days_from_civil(2000, 3, 1), 11017); /* 30 years + 8 leap days + 59 */
	ck_assert_int_eq(pmtime_days_from_civil(1969, 12, 31), -1);
	/* 56 years of 365 days, 14 leap days (1972..2024), 333 days into 2026 */
	ck_assert_int_eq(pmtime_days_from_civil(2026, 11, 30), 56 * 365 + 14 + 333);
}
END_TEST

START_TEST(stamps)
{
	int64_t s;
	char buf[20];
	/* 2026 day 334 at 13:45:30.5 (495,305,000 units of 10**-4 s) */
	ck_assert_int_eq(pmtime_stamp(0x0126334F, 495305000, 10000, &s), PM_OK);
	pmtime_format(s, buf);
	ck_assert_str_eq(buf, "2026-11-30 13:45:30");
	ck_assert_int_eq(s, 20787LL * 864000000 + 495305000);
	/* SMF header time in 10**-2 s: 8:00:00 is 2,880,000 */
	ck_assert_int_eq(pmtime_stamp(0x0126334F, 2880000, 100, &s), PM_OK);
	pmtime_format(s, buf);
	ck_assert_str_eq(buf, "2026-11-30 08:00:00");
	/* 24:00:00 is the end of the day; beyond is an error */
	ck_assert_int_eq(pmtime_stamp(0x0126334F, 864000000, 10000, &s), PM_OK);
	pmtime_format(s, buf);
	ck_assert_str_eq(buf, "2026-12-01 00:00:00");
	ck_assert_int_eq(pmtime_stamp(0x0126334F, 864000001, 10000, &s), PM_E_BAD_TIME);
}
END_TEST

START_TEST(durations_across_midnight_and_year_end)
{
	int64_t a, b;
	/* 2025-12-31 23:50 (day 365) to 2026-01-01 00:05: 15 minutes */
	ck_assert_int_eq(pmtime_stamp(0x0125365F, (23 * 3600 + 50 * 60) * 10000u, 10000, &a), PM_OK);
	ck_assert_int_eq(pmtime_stamp(0x0126001F, 5 * 60 * 10000u, 10000, &b), PM_OK);
	ck_assert_int_eq(b - a, 900LL * 10000);
	/* across midnight within a leap year: 2024-02-28 23:55 to 02-29 00:10 */
	ck_assert_int_eq(pmtime_stamp(0x0124059F, (23 * 3600 + 55 * 60) * 10000u, 10000, &a), PM_OK);
	ck_assert_int_eq(pmtime_stamp(0x0124060F, 10 * 60 * 10000u, 10000, &b), PM_OK);
	ck_assert_int_eq(b - a, 900LL * 10000);
}
END_TEST

START_TEST(parsing)
{
	int64_t s;
	char buf[20];
	ck_assert_int_eq(pmtime_parse("2026-11-30 13:45:30", &s), PM_OK);
	pmtime_format(s, buf);
	ck_assert_str_eq(buf, "2026-11-30 13:45:30");
	ck_assert_int_eq(pmtime_parse("2026-11-30T13:45", &s), PM_OK);
	pmtime_format(s, buf);
	ck_assert_str_eq(buf, "2026-11-30 13:45:00");
	ck_assert_int_eq(pmtime_parse("2026-11-30", &s), PM_OK);
	ck_assert_int_eq(s, 20787LL * 864000000);
	ck_assert_int_eq(pmtime_parse("2026-02-29", &s), PM_E_USAGE);
	ck_assert_int_eq(pmtime_parse("2026-13-01", &s), PM_E_USAGE);
	ck_assert_int_eq(pmtime_parse("2026-11-30x", &s), PM_E_USAGE);
	ck_assert_int_eq(pmtime_parse("yesterday", &s), PM_E_USAGE);
}
END_TEST

Suite *
unit_suite(void)
{
	Suite *s = suite_create("pmtime");
	TCase *tc = tcase_create("pmtime");
	tcase_add_test(tc, packed_dates);
	tcase_add_test(tc, bad_dates);
	tcase_add_test(tc, encode_round_trip);
	tcase_add_test(tc, days);
	tcase_add_test(tc, stamps);
	tcase_add_test(tc, durations_across_midnight_and_year_end);
	tcase_add_test(tc, parsing);
	suite_add_tcase(s, tc);
	return s;
}
