/* check_ebcdic.c: code-page conversion. The EBCDIC bytes are those of the
 * published code pages: letters and digits alike in all four (A = C1,
 * a = 81, 0 = F0, blank = 40), the brackets where they differ (IBM-037 and
 * IBM-1140 BA/BB, IBM-1047 AD/BD, IBM-500 4A/5A), and X'9F', the currency
 * sign in IBM-037 and the euro sign in IBM-1140. */
#include "check_main.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/ebcdic.h"

/* n EBCDIC bytes of code page cp as UTF-8, the way names are read. */
static const char *
to_utf8(const char *cp, const uint8_t *in, size_t n)
{
	static char out[64];
	struct conv *cv;

	ck_assert_int_eq(conv_open(&cv, cp, "UTF-8"), PM_OK);
	conv_text(cv, in, n, out, sizeof out);
	conv_close(cv);
	return out;
}

START_TEST(names_in_every_code_page)
{
	/* "SYSA" padded with blanks and a NUL, as a fixed-width field */
	static const uint8_t sysa[] = { 0xe2, 0xe8, 0xe2, 0xc1, 0x40, 0x40, 0x00 };
	static const uint8_t cv01[] = { 0xc9, 0xc4, 0xd4, 0xe2, 0xc3, 0xe5, 0xf0, 0xf1 };
	static const char *const cps[] = { "IBM-037", "IBM-1047", "IBM-500", "IBM-1140" };

	for (size_t i = 0; i < sizeof cps / sizeof cps[0]; i++) {
		ck_assert_str_eq(to_utf8(cps[i], sysa, sizeof sysa), "SYSA");
		ck_assert_str_eq(to_utf8(cps[i], cv01, sizeof cv01), "IDMSCV01");
		ck_assert_str_eq(to_utf8(cps[i], (const uint8_t *)"\x81\x89\xa9", 3), "aiz");
	}
}
END_TEST

START_TEST(the_code_pages_differ_where_their_tables_do)
{
	ck_assert_str_eq(to_utf8("IBM-037", (const uint8_t *)"\xba\xbb\x5a\x4f", 4), "[]!|");
	ck_assert_str_eq(to_utf8("IBM-1140", (const uint8_t *)"\xba\xbb\x5a\x4f", 4), "[]!|");
	ck_assert_str_eq(to_utf8("IBM-1047", (const uint8_t *)"\xad\xbd\x5a\x4f", 4), "[]!|");
	ck_assert_str_eq(to_utf8("IBM-500", (const uint8_t *)"\x4a\x5a\x4f\xbb", 4), "[]!|");
	ck_assert_str_eq(to_utf8("IBM-037", (const uint8_t *)"\x9f", 1), "\xc2\xa4");
	ck_assert_str_eq(to_utf8("IBM-1140", (const uint8_t *)"\x9f", 1), "\xe2\x82\xac");
}
END_TEST

START_TEST(controls_become_question_marks)
{
	/* X'05' is a tab in IBM-037: not printable in a name */
	ck_assert_str_eq(to_utf8("IBM-037", (const uint8_t *)"\xc1\x05\xc2", 3), "A?B");
}
END_TEST

START_TEST(text_out_in_ebcdic)
{
	struct conv *cv;
	char out[8];

	ck_assert_int_eq(conv_open(&cv, "UTF-8", "IBM-1047"), PM_OK);
	ck_assert_uint_eq(conv_buffer(cv, "1 [a]", 5, out, sizeof out), 5);
	ck_assert_int_eq(memcmp(out, "\xf1\x40\xad\x81\xbd", 5), 0);
	/* too small an output is said, not cut short */
	ck_assert_uint_eq(conv_buffer(cv, "12345", 5, out, 4), (size_t)-1);
	conv_close(cv);
}
END_TEST

START_TEST(code_page_names)
{
	char name[32];

	ebcdic_iconv_name("IBM-1047", name, sizeof name);
	ck_assert_str_eq(name, "IBM1047");
	ebcdic_iconv_name("ibm_500", name, sizeof name);
	ck_assert_str_eq(name, "IBM500");
	ebcdic_iconv_name("CP037", name, sizeof name);
	ck_assert_str_eq(name, "IBM037");
	ebcdic_iconv_name("1140", name, sizeof name);
	ck_assert_str_eq(name, "IBM1140");
	ebcdic_iconv_name("UTF-8", name, sizeof name);
	ck_assert_str_eq(name, "UTF-8");
}
END_TEST

START_TEST(unknown_code_page)
{
	struct conv *cv = NULL;

	ck_assert_int_eq(conv_open(&cv, "IBM-99999", "UTF-8"), PM_E_CODEPAGE);
	ck_assert_int_eq(conv_open(&cv, "UTF-8", "NO-SUCH-CP"), PM_E_CODEPAGE);
	ck_assert_ptr_null(cv);
	conv_close(NULL);
}
END_TEST

Suite *
unit_suite(void)
{
	Suite *s = suite_create("ebcdic");
	TCase *tc = tcase_create("ebcdic");

	tcase_add_test(tc, names_in_every_code_page);
	tcase_add_test(tc, the_code_pages_differ_where_their_tables_do);
	tcase_add_test(tc, controls_become_question_marks);
	tcase_add_test(tc, text_out_in_ebcdic);
	tcase_add_test(tc, code_page_names);
	tcase_add_test(tc, unknown_code_page);
	suite_add_tcase(s, tc);
	return s;
}
