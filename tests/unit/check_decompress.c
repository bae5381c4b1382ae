/* check_decompress.c: the decoder under an input (io/decompress.c), read
 * through input_from_memory at every read size: gzip members back to back,
 * zstd frames with skippable frames between them, bytes after the last
 * member, a stream cut short; and plain input, however short, read as it
 * is. The compressed bytes are made here by the libraries' own encoders. */
#include <config.h>

#include "check_main.h"
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "io/input.h"
#include "unit_input.h"

#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

struct got {
	uint8_t out[256];
	size_t len;
	bool damaged, compressed;
	unsigned long decompress_errors, trailing;
};

/* Read len bytes at p through a memory input in reads of chunk bytes. */
static struct got
read_all(const uint8_t *p, size_t len, size_t chunk)
{
	struct got g = { .len = 0 };
	struct input in;
	struct diag d;
	ssize_t r;

	diag_init(&d, "check_decompress", NULL);
	input_from_memory(&in, "mem", p, len, chunk);
	in.diag = &d;
	while ((r = in.read(&in, g.out + g.len, sizeof g.out - g.len)) > 0)
		g.len += (size_t)r;
	ck_assert_int_eq(r, 0);
	g.damaged = in.damaged;
	g.compressed = input_compressed(&in);
	g.decompress_errors = d.count[PM_E_DECOMPRESS];
	g.trailing = d.count[PM_E_TRAILING_GARBAGE];
	if (g.compressed && !g.damaged)
		ck_assert_uint_eq(input_compressed_read(&in), len);
	input_close(&in);
	return g;
}

/* The same text, no damage, at every read size. */
static void
assert_reads_as(const uint8_t *p, size_t len, const char *text, bool compressed)
{
	for (size_t chunk = 1; chunk <= len + 1; chunk++) {
		struct got g = read_all(p, len, chunk);
		ck_assert_uint_eq(g.len, strlen(text));
		ck_assert(memcmp(g.out, text, g.len) == 0);
		ck_assert(!g.damaged);
		ck_assert(g.compressed == compressed);
		ck_assert_uint_eq(g.decompress_errors, 0);
	}
}

START_TEST(plain)
{
	/* shorter than a magic, one byte of a gzip magic, and longer */
	assert_reads_as((const uint8_t *)"", 0, "", false);
	assert_reads_as((const uint8_t *)"ab", 2, "ab", false);
	assert_reads_as((const uint8_t *)"\x1f", 1, "\x1f", false);
	assert_reads_as((const uint8_t *)"SMF records", 11, "SMF records", false);
}
END_TEST

#ifdef HAVE_ZLIB
START_TEST(gzip_members)
{
	uint8_t gz[512];
	size_t n = unit_gzip_member(gz, sizeof gz, "interval records, ");

	n += unit_gzip_member(gz + n, sizeof gz - n, "");
	n += unit_gzip_member(gz + n, sizeof gz - n, "three parts each");
	assert_reads_as(gz, n, "interval records, three parts each", true);
}
END_TEST

START_TEST(gzip_trailing)
{
	uint8_t gz[512];
	size_t n = unit_gzip_member(gz, sizeof gz, "a dump");
	struct got g;

	memcpy(gz + n, "\0\0\0\0\x1f", 5);
	for (size_t chunk = 1; chunk <= n + 6; chunk++) {
		g = read_all(gz, n + 5, chunk);
		ck_assert_uint_eq(g.len, 6);
		ck_assert(!g.damaged);
		ck_assert_uint_eq(g.trailing, 1);
	}
}
END_TEST

START_TEST(gzip_cut)
{
	static const char text[] = "PM records back to back, each with its length";
	uint8_t gz[512];
	size_t n = unit_gzip_member(gz, sizeof gz, text);
	struct got g;

	/* into the 8-byte trailer: every byte decoded, the stream damaged */
	for (size_t cut = 2; cut < n; cut++) {
		g = read_all(gz, cut, 3);
		ck_assert(g.damaged);
		ck_assert_uint_eq(g.decompress_errors, 1);
		ck_assert(g.len <= strlen(text));
		ck_assert(memcmp(g.out, text, g.len) == 0);
		if (cut >= n - 8)
			ck_assert_uint_eq(g.len, strlen(text));
	}
}
END_TEST
#endif

#ifdef HAVE_ZSTD
START_TEST(zstd_frames)
{
	/* a skippable frame (magic 0x184D2A53, 3 bytes), two frames, and a
	 * skippable frame of none */
	uint8_t z[512] = { 0x53, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 'x', 'y', 'z' };
	size_t n = 11, r;

	r = ZSTD_compress(z + n, sizeof z - n, "windows of ", 11, 19);
	ck_assert(!ZSTD_isError(r));
	n += r;
	r = ZSTD_compress(z + n, sizeof z - n, "counters", 8, 1);
	ck_assert(!ZSTD_isError(r));
	n += r;
	memcpy(z + n, "\x5f\x2a\x4d\x18\0\0\0\0", 8);
	n += 8;
	assert_reads_as(z, n, "windows of counters", true);
}
END_TEST

START_TEST(zstd_cut)
{
	uint8_t z[512];
	size_t n = ZSTD_compress(z, sizeof z, "one frame", 9, 3);
	struct got g;

	ck_assert(!ZSTD_isError(n));
	for (size_t cut = 4; cut < n; cut++) {
		g = read_all(z, cut, 1);
		ck_assert(g.damaged);
		ck_assert_uint_eq(g.decompress_errors, 1);
		ck_assert(g.len == 0 || memcmp(g.out, "one frame", g.len) == 0);
	}
}
END_TEST
#endif

Suite *
unit_suite(void)
{
	Suite *s = suite_create("decompress");
	TCase *tc = tcase_create("decompress");
	tcase_add_test(tc, plain);
#ifdef HAVE_ZLIB
	tcase_add_test(tc, gzip_members);
	tcase_add_test(tc, gzip_trailing);
	tcase_add_test(tc, gzip_cut);
#endif
#ifdef HAVE_ZSTD
	tcase_add_test(tc, zstd_frames);
	tcase_add_test(tc, zstd_cut);
#endif
	suite_add_tcase(s, tc);
	return s;
}
