/* check_fmtnum.c: hand-written number formatting; expected strings are
 * worked out by hand. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "fmtnum.h"

static char buf[FMTNUM_MAX];

static const char *
z(size_t n)
{
	buf[n] = '\0';
	return buf;
}

START_TEST(integers)
{
	ck_assert_str_eq(z(fmt_u64(buf, 0)), "0");
	ck_assert_str_eq(z(fmt_u64(buf, 18446744073709551615ULL)), "18446744073709551615");
	ck_assert_str_eq(z(fmt_i64(buf, -9223372036854775807LL - 1)), "-9223372036854775808");
	ck_assert_str_eq(z(fmt_i64(buf, -42)), "-42");
}
END_TEST

START_TEST(ratios)
{
	/* 12345 units of 10**-4 s = 1.2345 s */
	ck_assert_str_eq(z(fmt_ratio(buf, 12345, 10000, 6)), "1.234500");
	/* 2/3 ms = 0.6666.. rounds up to 0.667 */
	ck_assert_str_eq(z(fmt_ratio(buf, 2, 3, 3)), "0.667");
	/* half rounds up: 5/1000 at 2 decimals = 0.005 -> 0.01 */
	ck_assert_str_eq(z(fmt_ratio(buf, 5, 1000, 2)), "0.01");
	/* one TOD second */
	ck_assert_str_eq(z(fmt_ratio(buf, 4096000000ULL, 4096000000ULL, 6)), "1.000000");
	/* 2048 TOD units = 0.5 us rounds to 0.000001 s */
	ck_assert_str_eq(z(fmt_ratio(buf, 2048, 4096000000ULL, 6)), "0.000001");
	/* no overflow: (2^64-1) * 10^6 needs 128 bits; /4096e6 = 4503599627.370495999 s */
	ck_assert_str_eq(z(fmt_ratio(buf, 18446744073709551615ULL, 4096000000ULL, 6)),
	                 "4503599627.370496");
	ck_assert_str_eq(z(fmt_ratio(buf, 7, 1, 0)), "7");
}
END_TEST

START_TEST(doubles)
{
	ck_assert_str_eq(z(fmt_fixed(buf, 2.5, 3)), "2.500");
	ck_assert_str_eq(z(fmt_fixed(buf, -0.0004, 3)), "0.000");
	ck_assert_str_eq(z(fmt_fixed(buf, -1.25, 1)), "-1.3");
	ck_assert_str_eq(z(fmt_fixed(buf, 123456.789, 0)), "123457");
	ck_assert_uint_eq(fmt_fixed(buf, 0.0 / 0.0, 3), 0);
	ck_assert_uint_eq(fmt_fixed(buf, 1.0 / 0.0, 3), 0);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("fmtnum");
	TCase *tc = tcase_create("fmtnum");
	tcase_add_test(tc, integers);
	tcase_add_test(tc, ratios);
	tcase_add_test(tc, doubles);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
