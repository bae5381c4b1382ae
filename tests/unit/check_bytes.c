/* check_bytes.c: the big- and little-endian getters read byte by byte and never past
 * the end of their span; a text copied into a field of fixed size is cut
 * and terminated inside it. */
#include "check_main.h"
#include <stdlib.h>

#include "core/bytes.h"
#include "core/text.h"

static const uint8_t data[] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0xFF };

START_TEST(values)
{
	struct span s = span_make(data, sizeof data);
	uint8_t b;
	uint16_t h;
	uint32_t f;
	uint64_t d;
	ck_assert(be_u8(s, 8, &b) && b == 0xFF);
	ck_assert(be_u16(s, 0, &h) && h == 0x0102);
	ck_assert(be_u32(s, 1, &f) && f == 0x02030405);
	ck_assert(be_u64(s, 0, &d) && d == 0x0102030405060708ULL);
	ck_assert(be_uint(s, 6, 3, &d) && d == 0x0708FF);
	ck_assert(be_u32(s, 5, &f) && f == 0x060708FFu); /* unaligned */
}
END_TEST

START_TEST(bounds)
{
	struct span s = span_make(data, 4);
	uint16_t h = 0xAAAA;
	uint32_t f = 0xAAAAAAAA;
	uint64_t d = 7;
	/* every getter refuses a read that would pass the end, at every offset */
	for (size_t off = 0; off <= 8; off++) {
		ck_assert_int_eq(be_u16(s, off, &h), off + 2 <= 4);
		ck_assert_int_eq(be_u32(s, off, &f), off + 4 <= 4);
		ck_assert_int_eq(be_u64(s, off, &d), 0);
	}
	ck_assert(!be_u32(s, SIZE_MAX - 1, &f)); /* no overflow in off + width */
	ck_assert(!be_uint(s, 0, 0, &d));
	ck_assert(!be_uint(s, 0, 9, &d));
	ck_assert_uint_eq(d, 7); /* untouched on refusal */
	struct span sub = span_sub(s, 3, 2);
	ck_assert_uint_eq(sub.len, 0);
	sub = span_sub(s, 1, 3);
	ck_assert_uint_eq(sub.len, 3);
	ck_assert(be_u16(sub, 1, &h) && h == 0x0304);
}
END_TEST

START_TEST(writer)
{
	uint8_t buf[8];
	uint64_t d;
	put_be(buf, 8, 0x1122334455667788ULL);
	ck_assert_uint_eq(buf[0], 0x11);
	ck_assert_uint_eq(buf[7], 0x88);
	put_be(buf, 2, 0xABCD);
	ck_assert(be_uint(span_make(buf, 2), 0, 2, &d) && d == 0xABCD);
}
END_TEST

/* The unchecked loads give what the getters give, at any alignment. */
START_TEST(loads)
{
	static const uint8_t b[] = { 0x00, 0x81, 0x02, 0xC3, 0x04, 0xF5, 0x06, 0x07, 0x88, 0xFF };

	ck_assert_uint_eq(be_load32(b + 1), 0x8102C304u);
	ck_assert_uint_eq(be_load32(b + 6), 0x060788FFu);
	ck_assert_uint_eq(be_load64(b + 1), UINT64_C(0x8102C304F5060788));
	ck_assert_uint_eq(be_load64(b + 2), UINT64_C(0x02C304F5060788FF));
	for (size_t off = 0; off + 4 <= sizeof b; off++) {
		uint32_t w;
		ck_assert(be_u32(span_make(b, sizeof b), off, &w));
		ck_assert_uint_eq(be_load32(b + off), w);
	}
	ck_assert_uint_eq(be_load(b + 1, 1), 0x81);
	ck_assert_uint_eq(be_load(b + 1, 2), 0x8102);
	ck_assert_uint_eq(be_load(b + 1, 3), 0x8102C3);
	ck_assert_uint_eq(be_load(b + 3, 4), 0xC304F506u);
	ck_assert_uint_eq(be_load(b + 2, 6), UINT64_C(0x02C304F50607));
	ck_assert_uint_eq(be_load(b + 2, 8), UINT64_C(0x02C304F5060788FF));
}
END_TEST

START_TEST(little_endian)
{
	struct span s = span_make(data, sizeof data);
	uint16_t h = 0xAAAA;
	uint32_t f;
	uint64_t d;
	uint8_t buf[8];
	ck_assert(le_u16(s, 0, &h) && h == 0x0201);
	ck_assert(le_u32(s, 5, &f) && f == 0xFF080706u); /* unaligned */
	ck_assert(le_u64(s, 0, &d) && d == 0x0807060504030201ULL);
	ck_assert(!le_u64(s, 2, &d));
	ck_assert(!le_u16(s, 8, &h) && h == 0x0201); /* untouched on refusal */
	ck_assert(!le_u32(s, SIZE_MAX - 1, &f));
	put_le(buf, 8, 0x1122334455667788ULL);
	ck_assert_uint_eq(buf[0], 0x88);
	ck_assert(le_u64(span_make(buf, 8), 0, &d) && d == 0x1122334455667788ULL);
}
END_TEST

/* What snprintf(dst, cap, "%s", src) leaves, byte for byte, the bytes
 * past the terminator untouched. */
START_TEST(text_copy_cuts)
{
	char dst[6];

	memset(dst, '#', sizeof dst);
	text_copy(dst, sizeof dst, "abc");
	ck_assert_mem_eq(dst, "abc\0##", 6);
	text_copy(dst, sizeof dst, "abcde");
	ck_assert_mem_eq(dst, "abcde\0", 6);
	text_copy(dst, sizeof dst, "abcdefgh");
	ck_assert_mem_eq(dst, "abcde\0", 6);
	text_copy(dst, 1, "xyz");
	ck_assert_mem_eq(dst, "\0bcde\0", 6);
	text_copy(dst, 0, "xyz");
	ck_assert_int_eq(dst[0], '\0');
}
END_TEST

Suite *
unit_suite(void)
{
	Suite *s = suite_create("bytes");
	TCase *tc = tcase_create("bytes");
	tcase_add_test(tc, values);
	tcase_add_test(tc, bounds);
	tcase_add_test(tc, writer);
	tcase_add_test(tc, little_endian);
	tcase_add_test(tc, loads);
	tcase_add_test(tc, text_copy_cuts);
	suite_add_tcase(s, tc);
	return s;
}
