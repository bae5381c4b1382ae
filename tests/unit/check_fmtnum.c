/* check_fmtnum.c: hand-written number formatting; expected strings are
 * worked out by hand. */
#include "check_main.h"
#include <stdlib.h>
#include <string.h>

#include "core/fmtnum.h"

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

/* The digit count is worked out before the digits: every length. */
START_TEST(digit_counts)
{
	ck_assert_str_eq(z(fmt_u64(buf, 9)), "9");
	ck_assert_str_eq(z(fmt_u64(buf, 10)), "10");
	ck_assert_str_eq(z(fmt_u64(buf, 99)), "99");
	ck_assert_str_eq(z(fmt_u64(buf, 100)), "100");
	ck_assert_str_eq(z(fmt_u64(buf, 1023)), "1023");
	ck_assert_str_eq(z(fmt_u64(buf, 1024)), "1024");
	ck_assert_str_eq(z(fmt_u64(buf, 999999999999999999ULL)), "999999999999999999");
	ck_assert_str_eq(z(fmt_u64(buf, 1000000000000000000ULL)), "1000000000000000000");
	ck_assert_str_eq(z(fmt_u64(buf, 9999999999999999999ULL)), "9999999999999999999");
	ck_assert_str_eq(z(fmt_u64(buf, 10000000000000000000ULL)), "10000000000000000000");
	/* 2**63 */
	ck_assert_str_eq(z(fmt_u64(buf, 9223372036854775808ULL)), "9223372036854775808");
	ck_assert_str_eq(z(fmt_i64(buf, -1)), "-1");
	ck_assert_str_eq(z(fmt_i64(buf, 0)), "0");
}
END_TEST

/* Digits are made eight (or four) at a time: every length, with digits
 * that all differ, so that a lane out of order shows; each is its own
 * text read back by the C library. */
START_TEST(digit_lanes)
{
	static const char digits[] = "12345678901234567890";
	char want[24];

	for (size_t n = 1; n <= 20; n++) {
		memcpy(want, digits, n);
		want[n] = '\0';
		ck_assert_str_eq(z(fmt_u64(buf, strtoull(want, NULL, 10))), want);
	}
	/* the point among them, its place counted by hand */
	ck_assert_str_eq(z(fmt_ratio(buf, 1234567890123ULL, 1000, 3)), "1234567890.123");
	ck_assert_str_eq(z(fmt_ratio(buf, 1234567890123ULL, 10000, 6)), "123456789.012300");
	ck_assert_str_eq(z(fmt_ratio(buf, 1234567890123ULL, 100000000, 8)), "12345.67890123");
	ck_assert_str_eq(z(fmt_ratio(buf, 1234567890123ULL, 1000000000, 9)), "1234.567890123");
	ck_assert_str_eq(z(fmt_ratio(buf, 1234567890123ULL, 10, 1)), "123456789012.3");
	ck_assert_str_eq(z(fmt_ratio(buf, 12345678901234567ULL, 1000000000, 9)),
	                 "12345678.901234567");
	ck_assert_str_eq(z(fmt_ratio(buf, 42, 1, 8)), "42.00000000");
	/* past 8 decimals, of a figure of more digits than the fraction */
	ck_assert_str_eq(z(fmt_ratio(buf, 1000, 1, 9)), "1000.000000000");
	ck_assert_str_eq(z(fmt_ratio(buf, 123456, 1, 10)), "123456.0000000000");
	ck_assert_str_eq(z(fmt_ratio(buf, 98765432109ULL, 100, 9)), "987654321.090000000");
	ck_assert_str_eq(z(fmt_ratio(buf, 7, 1000, 6)), "0.007000");
	/* a power of ten above the decimals is divided and rounded */
	ck_assert_str_eq(z(fmt_ratio(buf, 1234567, 10000, 3)), "123.457");
	ck_assert_str_eq(z(fmt_ratio(buf, 5, 10, 0)), "1");
	/* trailing zero bits of a power of ten, but not one */
	ck_assert_str_eq(z(fmt_ratio(buf, 999, 20, 1)), "50.0");
	ck_assert_str_eq(z(fmt_ratio(buf, 12345, 1000 * 1024, 6)), "0.012056");
}
END_TEST

/* fmt_ratio works in 64 bits while the remainder times 10**decimals fits,
 * in 128 bits past that; both round exactly half up. */
START_TEST(ratio_boundaries)
{
	/* whole numbers */
	ck_assert_str_eq(z(fmt_ratio(buf, 18446744073709551615ULL, 1, 0)),
	                 "18446744073709551615");
	ck_assert_str_eq(z(fmt_ratio(buf, 18446744073709551615ULL, 1, 3)),
	                 "18446744073709551615.000");
	ck_assert_str_eq(z(fmt_ratio(buf, 0, 7, 3)), "0.000");
	/* around 2**64 / 10: (2**64 - 1) / 10 = 1844674407370955161.5 */
	ck_assert_str_eq(z(fmt_ratio(buf, 1844674407370955161ULL, 1, 1)),
	                 "1844674407370955161.0");
	ck_assert_str_eq(z(fmt_ratio(buf, 18446744073709551615ULL, 10, 1)),
	                 "1844674407370955161.5");
	ck_assert_str_eq(z(fmt_ratio(buf, 18446744073709551615ULL, 10, 0)),
	                 "1844674407370955162");
	/* 2**64 - 1 = 3 * 6148914691236517205; one less leaves 2/3 */
	ck_assert_str_eq(z(fmt_ratio(buf, 18446744073709551615ULL, 3, 9)),
	                 "6148914691236517205.000000000");
	ck_assert_str_eq(z(fmt_ratio(buf, 18446744073709551614ULL, 3, 9)),
	                 "6148914691236517204.666666667");
	/* half up carries into the whole part: 0.9995, 0.5, 2/3 */
	ck_assert_str_eq(z(fmt_ratio(buf, 9995, 10000, 3)), "1.000");
	ck_assert_str_eq(z(fmt_ratio(buf, 9994, 10000, 3)), "0.999");
	ck_assert_str_eq(z(fmt_ratio(buf, 1, 2, 0)), "1");
	ck_assert_str_eq(z(fmt_ratio(buf, 1, 3, 0)), "0");
	ck_assert_str_eq(z(fmt_ratio(buf, 2, 3, 0)), "1");
	/* the same fraction unreduced rounds the same: 0.5, 0.125 */
	ck_assert_str_eq(z(fmt_ratio(buf, 15, 30, 0)), "1");
	ck_assert_str_eq(z(fmt_ratio(buf, 1, 8, 2)), "0.13");
	ck_assert_str_eq(z(fmt_ratio(buf, 1000, 8000, 2)), "0.13");
	/* den 2**40: the remainder times 10**9 passes 2**64, in 128 bits:
	 * 1 - 2**-40 = 0.99999999999909.. and 0.5 + 2**-40 */
	ck_assert_str_eq(z(fmt_ratio(buf, 1099511627775ULL, 1099511627776ULL, 9)),
	                 "1.000000000");
	ck_assert_str_eq(z(fmt_ratio(buf, 549755813889ULL, 1099511627776ULL, 9)),
	                 "0.500000000");
	/* ... and in 64 bits below it: 2**-40 = 0.00000000000091, 2**39 / 2**40 */
	ck_assert_str_eq(z(fmt_ratio(buf, 1, 1099511627776ULL, 9)), "0.000000000");
	ck_assert_str_eq(z(fmt_ratio(buf, 549755813888ULL, 1099511627776ULL, 0)), "1");
	/* (2**64 - 1) / (2**63 + 1) = 2 - 3 / (2**63 + 1): whole part 1, the
	 * remainder 2**63 - 2 needs 128 bits at 9 decimals, not at 0 */
	ck_assert_str_eq(z(fmt_ratio(buf, 18446744073709551615ULL, 9223372036854775809ULL, 9)),
	                 "2.000000000");
	ck_assert_str_eq(z(fmt_ratio(buf, 18446744073709551615ULL, 9223372036854775809ULL, 0)),
	                 "2");
	/* 2**63 / (2**63 + 1) = 0.99999999999999999989..: 18 decimals carry */
	ck_assert_str_eq(z(fmt_ratio(buf, 9223372036854775808ULL, 9223372036854775809ULL, 18)),
	                 "1.000000000000000000");
	ck_assert_str_eq(z(fmt_ratio(buf, 9223372036854775808ULL, 9223372036854775809ULL, 19)),
	                 "0.9999999999999999999");
}
END_TEST

/* One division while num * 10**decimals + den / 2 fits 64 bits: the
 * quotient's low digits are the fraction, the rest the whole part; a zero
 * fraction is copied. */
START_TEST(ratio_one_division)
{
	/* leading zeros of the fraction, whole part 0 */
	ck_assert_str_eq(z(fmt_ratio(buf, 1, 1000, 6)), "0.001000");
	ck_assert_str_eq(z(fmt_ratio(buf, 1, 3, 1)), "0.3");
	/* the rounding carries through every digit into the whole part */
	ck_assert_str_eq(z(fmt_ratio(buf, 1999999, 2000000, 5)), "1.00000");
	ck_assert_str_eq(z(fmt_ratio(buf, 123999999, 1000000, 5)), "124.00000");
	/* no decimals: the rounded quotient */
	ck_assert_str_eq(z(fmt_ratio(buf, 7, 2, 0)), "4");
	ck_assert_str_eq(z(fmt_ratio(buf, 5, 3, 0)), "2");
	/* num * 10**6 + den / 2 at 2**64 - 1, then just past it (two
	 * divisions): 18446744073709.551615 / 3 */
	ck_assert_str_eq(z(fmt_ratio(buf, 18446744073709ULL, 1, 6)),
	                 "18446744073709.000000");
	ck_assert_str_eq(z(fmt_ratio(buf, 18446744073709ULL, 3, 6)),
	                 "6148914691236.333333");
	ck_assert_str_eq(z(fmt_ratio(buf, 18446744073710ULL, 3, 6)),
	                 "6148914691236.666667");
	ck_assert_str_eq(z(fmt_ratio(buf, 18446744073709551ULL, 2, 3)),
	                 "9223372036854775.500");
	/* zero fractions, up to 19 digits */
	ck_assert_str_eq(z(fmt_ratio(buf, 0, 1, 0)), "0");
	ck_assert_str_eq(z(fmt_ratio(buf, 0, 5, 19)), "0.0000000000000000000");
	ck_assert_str_eq(z(fmt_ratio(buf, 12, 1, 19)), "12.0000000000000000000");
	ck_assert_str_eq(z(fmt_ratio(buf, 18446744073709551615ULL, 1, 19)),
	                 "18446744073709551615.0000000000000000000");
}
END_TEST

/* Below 10**12 with at most 7 decimals a figure is written inline, as a
 * word of 4 digits and a word of 8; the rest by a call: both sides of
 * each edge. */
START_TEST(point_inline_edges)
{
	ck_assert_str_eq(z(fmt_u64(buf, 99999999)), "99999999");
	ck_assert_str_eq(z(fmt_u64(buf, 100000000)), "100000000");
	ck_assert_str_eq(z(fmt_u64(buf, 999999999999ULL)), "999999999999");
	ck_assert_str_eq(z(fmt_u64(buf, 1000000000000ULL)), "1000000000000");
	ck_assert_str_eq(z(fmt_ratio(buf, 999999999999ULL, 10000000, 7)), "99999.9999999");
	ck_assert_str_eq(z(fmt_ratio(buf, 100000, 1, 7)), "100000.0000000");
	ck_assert_str_eq(z(fmt_ratio(buf, 1, 10000000, 7)), "0.0000001");
	ck_assert_str_eq(z(fmt_ratio(buf, 1, 100000000, 8)), "0.00000001");
	ck_assert_str_eq(z(fmt_ratio(buf, 9999, 1000, 7)), "9.9990000");
	ck_assert_str_eq(z(fmt_ratio(buf, 10000, 1000, 3)), "10.000");
	ck_assert_str_eq(z(fmt_ratio(buf, 2, 3, 7)), "0.6666667");
}
END_TEST

Suite *
unit_suite(void)
{
	Suite *s = suite_create("fmtnum");
	TCase *tc = tcase_create("fmtnum");
	tcase_add_test(tc, integers);
	tcase_add_test(tc, ratios);
	tcase_add_test(tc, doubles);
	tcase_add_test(tc, digit_counts);
	tcase_add_test(tc, digit_lanes);
	tcase_add_test(tc, ratio_boundaries);
	tcase_add_test(tc, ratio_one_division);
	tcase_add_test(tc, point_inline_edges);
	suite_add_tcase(s, tc);
	return s;
}
