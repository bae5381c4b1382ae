/* check_input.c: input_peek (io/input.c): the first bytes looked at and
 * kept, then read again before the rest, at every read size and peek
 * size, of plain input shorter and longer than a magic or a peek, and of
 * gzip input, whose peek sees the decoded bytes; a second peek sees the
 * same first bytes; a read error is said as one. */
#include <config.h>

#include "check_main.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "io/input.h"
#include "unit_input.h"

/* Peek at n bytes of in, then peek again at more, then read it all:
 * what there is, in full, and what the peeks saw is its start. */
static void
assert_peeks(struct input *in, const uint8_t *text, size_t len, size_t n)
{
	uint8_t first[INPUT_PEEK_MAX], again[INPUT_PEEK_MAX], out[512];
	size_t want = n < len ? n : len, got = 0;
	size_t want2 = len < INPUT_PEEK_MAX ? len : INPUT_PEEK_MAX;
	ssize_t r;

	ck_assert_int_eq(input_peek(in, first, n), (ssize_t)want);
	ck_assert(memcmp(first, text, want) == 0);
	ck_assert_int_eq(input_peek(in, again, INPUT_PEEK_MAX), (ssize_t)want2);
	ck_assert(memcmp(again, text, want2) == 0);
	while ((r = in->read(in, out + got, sizeof out - got)) > 0)
		got += (size_t)r;
	ck_assert_int_eq(r, 0);
	ck_assert_uint_eq(got, len);
	ck_assert(memcmp(out, text, len) == 0);
}

/* text, plain, peeked at and read at every read size and peek size. */
static void
assert_plain(const uint8_t *text, size_t len)
{
	for (size_t chunk = 1; chunk <= len + 1; chunk++)
		for (size_t n = 1; n <= INPUT_PEEK_MAX; n += n < 8 ? 1 : 40) {
			struct input in;
			input_from_memory(&in, "mem", text, len, chunk);
			assert_peeks(&in, text, len, n);
			ck_assert(!input_compressed(&in));
			input_close(&in);
		}
}

START_TEST(peek_plain)
{
	uint8_t longer[300];

	for (size_t i = 0; i < sizeof longer; i++)
		longer[i] = (uint8_t)(i * 7 + 1);
	assert_plain((const uint8_t *)"", 0);
	assert_plain((const uint8_t *)"ab", 2);
	assert_plain((const uint8_t *)"\x1f", 1);
	assert_plain((const uint8_t *)"SMF records", 11);
	assert_plain(longer, sizeof longer);
}
END_TEST

START_TEST(peek_read_error)
{
	static const uint8_t text[] = "a stream longer than what fails";
	uint8_t first[INPUT_PEEK_MAX];

	/* in the first bytes looked at for a magic, and after them */
	for (unit_fail_at = 0; unit_fail_at < 10; unit_fail_at++) {
		struct input in;
		input_from_memory(&in, "mem", text, sizeof text, 0);
		in.source = unit_read_then_fail;
		ck_assert_int_eq(input_peek(&in, first, 20), -1);
		ck_assert_int_eq(errno, EIO);
		input_close(&in);
	}
}
END_TEST

#ifdef HAVE_ZLIB
START_TEST(peek_gzip)
{
	static const char text[] = "PM records, a peek's worth of them and more: "
	                           "enough to be longer than INPUT_PEEK_MAX bytes, so that "
	                           "the peek sees only the first of them, decoded.";
	uint8_t gz[512];
	size_t n = unit_gzip_member(gz, sizeof gz, text);

	for (size_t chunk = 1; chunk <= n + 1; chunk += chunk < 8 ? 1 : 17)
		for (size_t peek = 1; peek <= INPUT_PEEK_MAX; peek += peek < 8 ? 1 : 40) {
			struct input in;
			input_from_memory(&in, "mem", gz, n, chunk);
			assert_peeks(&in, (const uint8_t *)text, strlen(text), peek);
			ck_assert(input_compressed(&in));
			input_close(&in);
		}
}
END_TEST
#endif

Suite *
unit_suite(void)
{
	Suite *s = suite_create("input");
	TCase *tc = tcase_create("input");
	tcase_add_test(tc, peek_plain);
	tcase_add_test(tc, peek_read_error);
#ifdef HAVE_ZLIB
	tcase_add_test(tc, peek_gzip);
#endif
	suite_add_tcase(s, tc);
	return s;
}
