/* check_partial.c: the partial file's envelope. A section written as it
 * comes, its length given in advance, is the same bytes as one held to
 * its end, and a length that does not come true fails the writer; a
 * partial file is mapped, not read into memory, checked (its checksum)
 * with its pages given back behind the check, and reads the same after
 * partial_release has given back pages already read; a --jobs thread's
 * file is mapped by its descriptor; a damaged or cut file is refused. The
 * CRC-32 (tables, and carry-less multiplication where the CPU has it) is
 * the bit-by-bit one at every length and alignment, and continues across
 * pieces. */
#define _DEFAULT_SOURCE /* mkstemp */
#include "check_main.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/partial.h"

static const char tag_a[4] = { 'A', 'A', 'A', 'A' };
static const char tag_b[4] = { 'B', 'B', 'B', 'B' };

/* A partial of a small section A, then B of n words 0, 1, 2, ..., sized
 * or held; its bytes in *out (malloc'd), how many in *len. */
static pm_status
write_partial(bool sized, uint64_t claim, size_t n, uint8_t **out, size_t *len)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);
	struct pwriter w;
	pm_status st;

	ck_assert_ptr_nonnull(fp);
	pw_open(&w, fp);
	pw_section(&w, tag_a);
	pw_text(&w, "SYSA");
	pw_i64(&w, -5);
	pw_end_section(&w);
	if (sized)
		pw_section_sized(&w, tag_b, claim);
	else
		pw_section(&w, tag_b);
	for (size_t i = 0; i < n; i++)
		pw_uint(&w, 8, i);
	pw_end_section(&w);
	st = pw_close(&w);
	ck_assert_int_eq(fclose(fp), 0);
	*out = (uint8_t *)buf;
	*len = size;
	return st;
}

/* Section B's words are 0, 1, 2, ... n - 1, and A what was written. */
static void
reads_back(const struct partial *p, size_t n)
{
	struct span a, b;
	struct pcursor c;
	char name[16];
	size_t wrong = 0;

	ck_assert(partial_section(p, tag_a, &a));
	c = pc_make(a);
	pc_text(&c, name, sizeof name);
	ck_assert_str_eq(name, "SYSA");
	ck_assert_int_eq(pc_i64(&c), -5);
	ck_assert(pc_done(&c));
	ck_assert(partial_section(p, tag_b, &b));
	ck_assert_uint_eq(b.len, n * 8);
	c = pc_make(b);
	for (size_t i = 0; i < n; i++)
		wrong += pc_uint(&c, 8) != i;  /* one assertion: each is slow */
	ck_assert_uint_eq(wrong, 0);
	ck_assert(pc_done(&c));
}

/* The bytes in a file of its own in $TMPDIR; its name in path. */
static void
to_file(const uint8_t *data, size_t len, char *path, size_t cap)
{
	const char *t = getenv("TMPDIR");
	int fd;

	snprintf(path, cap, "%s/partial.XXXXXX", t ? t : "/tmp");
	ck_assert_int_ge(fd = mkstemp(path), 0);
	ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
	ck_assert_int_eq(close(fd), 0);
}

/* This process's resident pages. */
static long
resident(void)
{
	FILE *fp = fopen("/proc/self/statm", "r");
	long size = 0, pages = -1;

	if (fp && fscanf(fp, "%ld %ld", &size, &pages) != 2)
		pages = -1;
	if (fp)
		fclose(fp);
	return pages;
}

START_TEST(sized_section_same_bytes)
{
	uint8_t *held, *sized;
	size_t nh, ns;

	ck_assert_int_eq(write_partial(false, 0, 1000, &held, &nh), PM_OK);
	ck_assert_int_eq(write_partial(true, 8000, 1000, &sized, &ns), PM_OK);
	ck_assert_uint_eq(nh, ns);
	ck_assert_mem_eq(held, sized, nh);
	free(held);
	free(sized);
}
END_TEST

START_TEST(sized_section_wrong_length_fails)
{
	uint8_t *data;
	size_t n;

	ck_assert_int_ne(write_partial(true, 7992, 1000, &data, &n), PM_OK);
	free(data);
	ck_assert_int_ne(write_partial(true, 8008, 1000, &data, &n), PM_OK);
	free(data);
}
END_TEST

START_TEST(file_mapped_and_released)
{
	const size_t n = (size_t)1 << 20;  /* 8 MiB of words */
	struct partial p;
	uint8_t *data;
	size_t len;
	char path[256], err[200];
	long before, touched, after;
	volatile uint8_t sink = 0;

	ck_assert_int_eq(write_partial(true, n * 8, n, &data, &len), PM_OK);
	to_file(data, len, path, sizeof path);
	free(data);
	ck_assert_int_eq(partial_load(&p, path, err, sizeof err), PM_OK);
	ck_assert(p.mapped);
	ck_assert_uint_eq(p.len, len);
	/* the check read every page and gave them back: 8 MiB are not all
	 * resident now; reading them makes them so; release gives them
	 * back, and they read the same again */
	before = resident();
	for (size_t i = 0; i < p.len; i += 4096)
		sink ^= p.data[i];
	touched = resident();
	partial_release(&p, p.data + p.len);
	after = resident();
	if (before >= 0) {
		ck_assert_int_gt(touched - before, 1500);
		ck_assert_int_gt(touched - after, 1500);
	}
	reads_back(&p, n);
	partial_free(&p);
	ck_assert_ptr_null(p.data);
	unlink(path);
}
END_TEST

START_TEST(own_file_by_descriptor)
{
	struct partial p;
	uint8_t *data;
	size_t len;
	char path[256], err[200];
	FILE *fp;

	ck_assert_int_eq(write_partial(true, 800, 100, &data, &len), PM_OK);
	to_file(data, len, path, sizeof path);
	free(data);
	ck_assert_ptr_nonnull(fp = fopen(path, "rb"));
	ck_assert_int_eq(partial_map_own(&p, fileno(fp), err, sizeof err), PM_OK);
	ck_assert(p.mapped);
	reads_back(&p, 100);
	partial_free(&p);
	fclose(fp);
	unlink(path);
}
END_TEST

START_TEST(damaged_file_refused)
{
	struct partial p;
	uint8_t *data;
	size_t len;
	char path[256], err[200];

	ck_assert_int_eq(write_partial(true, 8000, 1000, &data, &len), PM_OK);
	data[100] ^= 1;
	to_file(data, len, path, sizeof path);
	ck_assert_int_eq(partial_load(&p, path, err, sizeof err), PM_E_PARTIAL);
	ck_assert_ptr_nonnull(strstr(err, "checksum does not match"));
	ck_assert_ptr_null(p.data);
	unlink(path);
	data[100] ^= 1;
	to_file(data, len - 3, path, sizeof path);
	ck_assert_int_eq(partial_load(&p, path, err, sizeof err), PM_E_PARTIAL);
	ck_assert_ptr_nonnull(strstr(err, "cut short"));
	unlink(path);
	free(data);
}
END_TEST

/* The CRC-32 of IEEE 802.3 a bit at a time, as its definition reads. */
static uint32_t
crc_bitwise(const uint8_t *p, size_t n)
{
	uint32_t c = 0xFFFFFFFFu;

	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
	}
	return ~c;
}

START_TEST(crc_as_defined)
{
	static uint8_t buf[1200];
	uint32_t x = 12345;
	size_t wrong = 0;

	ck_assert_uint_eq(partial_crc32(0, (const uint8_t *)"123456789", 9), 0xCBF43926u);
	for (size_t i = 0; i < sizeof buf; i++) {
		x = x * 1103515245u + 12345u;
		buf[i] = (uint8_t)(x >> 16);
	}
	for (size_t off = 0; off < 16; off++)
		for (size_t n = 0; n + off <= sizeof buf; n += n < 300 ? 1 : 37)
			wrong += partial_crc32(0, buf + off, n) != crc_bitwise(buf + off, n);
	ck_assert_uint_eq(wrong, 0);
	/* in two pieces, split anywhere */
	for (size_t cut = 0; cut <= 1000; cut += 7)
		wrong += partial_crc32(partial_crc32(0, buf, cut), buf + cut, 1000 - cut) !=
		         crc_bitwise(buf, 1000);
	ck_assert_uint_eq(wrong, 0);
}
END_TEST

Suite *
unit_suite(void)
{
	Suite *s = suite_create("partial");
	TCase *tc = tcase_create("partial");

	tcase_set_timeout(tc, 60);  /* under an emulator too */
	tcase_add_test(tc, crc_as_defined);
	tcase_add_test(tc, sized_section_same_bytes);
	tcase_add_test(tc, sized_section_wrong_length_fails);
	tcase_add_test(tc, file_mapped_and_released);
	tcase_add_test(tc, own_file_by_descriptor);
	tcase_add_test(tc, damaged_file_refused);
	suite_add_tcase(s, tc);
	return s;
}
