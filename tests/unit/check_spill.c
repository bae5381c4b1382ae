/* check_spill.c: the temporary file of numbered records a report keeps its
 * groups in past --group-memory. A record reads back as it was put, after
 * others and after being put again; one never put, or past the end, is a
 * read error; a run of records put in one call reads back one by one, and
 * records put one by one read back as a run; a run that reaches past the
 * end is a read error; the file leaves no name in $TMPDIR; a $TMPDIR that
 * cannot hold it is a write error, with errno set. */
#include "check_main.h"
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/spill.h"

#define SIZE 24

static char dir[64];
static char *old_tmpdir;

static void
setup(void)
{
	const char *t = getenv("TMPDIR");

	old_tmpdir = t ? strdup(t) : NULL;
	snprintf(dir, sizeof dir, "%s/spill.XXXXXX", t ? t : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	setenv("TMPDIR", dir, 1);
}

static void
teardown(void)
{
	rmdir(dir);
	if (old_tmpdir)
		setenv("TMPDIR", old_tmpdir, 1);
	else
		unsetenv("TMPDIR");
	free(old_tmpdir);
}

/* A record whose every byte tells its number and version. */
static void
fill(uint8_t *rec, unsigned n, unsigned version)
{
	for (unsigned i = 0; i < SIZE; i++)
		rec[i] = (uint8_t)(n * 31 + version * 7 + i);
}

static unsigned
names_in(const char *d)
{
	DIR *x = opendir(d);
	struct dirent *e;
	unsigned n = 0;

	ck_assert_ptr_nonnull(x);
	while ((e = readdir(x)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(x);
	return n;
}

START_TEST(records_read_back)
{
	struct spill s;
	uint8_t rec[SIZE], want[SIZE];

	spill_init(&s, SIZE);
	ck_assert_int_eq(s.fd, -1);
	/* out of order, with a hole at 3 */
	for (unsigned n = 6; n-- > 0;)
		if (n != 3) {
			fill(rec, n, 1);
			ck_assert_int_eq(spill_put(&s, n, 1, rec), PM_OK);
		}
	ck_assert_int_eq(names_in(dir), 0);
	fill(rec, 2, 2);
	ck_assert_int_eq(spill_put(&s, 2, 1, rec), PM_OK);
	for (unsigned n = 0; n < 6; n++) {
		if (n == 3)
			continue;
		fill(want, n, n == 2 ? 2 : 1);
		memset(rec, 0, sizeof rec);
		ck_assert_int_eq(spill_get(&s, n, 1, rec), PM_OK);
		ck_assert_mem_eq(rec, want, SIZE);
	}
	ck_assert_uint_eq(s.put, 6);
	ck_assert_uint_eq(s.got, 5);
	/* past the end: never put */
	errno = EINVAL;
	ck_assert_int_eq(spill_get(&s, 6, 1, rec), PM_E_READ);
	ck_assert_int_eq(errno, 0);
	ck_assert_int_eq(spill_get(&s, UINT64_MAX, 1, rec), PM_E_READ);
	spill_close(&s);
	ck_assert_int_eq(s.fd, -1);
	ck_assert_int_eq(names_in(dir), 0);
}
END_TEST

START_TEST(runs_of_records)
{
	struct spill s;
	uint8_t run[5 * SIZE], rec[SIZE], want[SIZE];

	spill_init(&s, SIZE);
	for (unsigned i = 0; i < 5; i++)
		fill(run + i * SIZE, 10 + i, 1);
	ck_assert_int_eq(spill_put(&s, 10, 5, run), PM_OK);
	ck_assert_uint_eq(s.put, 5);
	for (unsigned n = 10; n < 15; n++) {
		fill(want, n, 1);
		ck_assert_int_eq(spill_get(&s, n, 1, rec), PM_OK);
		ck_assert_mem_eq(rec, want, SIZE);
	}
	/* three put one by one, read as one run with the two after them */
	for (unsigned n = 7; n < 10; n++) {
		fill(rec, n, 2);
		ck_assert_int_eq(spill_put(&s, n, 1, rec), PM_OK);
	}
	memset(run, 0, sizeof run);
	ck_assert_int_eq(spill_get(&s, 7, 5, run), PM_OK);
	for (unsigned i = 0; i < 5; i++) {
		fill(want, 7 + i, i < 3 ? 2 : 1);
		ck_assert_mem_eq(run + i * SIZE, want, SIZE);
	}
	ck_assert_uint_eq(s.got, 10);
	/* past the end by one */
	errno = EINVAL;
	ck_assert_int_eq(spill_get(&s, 11, 5, run), PM_E_READ);
	ck_assert_int_eq(errno, 0);
	ck_assert_int_eq(spill_get(&s, 1, SIZE_MAX / 2, run), PM_E_READ);
	spill_close(&s);
}
END_TEST

START_TEST(nothing_put_nothing_made)
{
	struct spill s;
	uint8_t rec[SIZE];

	spill_init(&s, SIZE);
	ck_assert_int_eq(spill_get(&s, 0, 1, rec), PM_E_READ);
	ck_assert_int_eq(s.fd, -1);
	spill_close(&s);
}
END_TEST

START_TEST(no_room_is_a_write_error)
{
	struct spill s;
	uint8_t rec[SIZE] = { 0 };
	char gone[128];

	snprintf(gone, sizeof gone, "%s/not-there", dir);
	setenv("TMPDIR", gone, 1);
	spill_init(&s, SIZE);
	errno = 0;
	ck_assert_int_eq(spill_put(&s, 0, 1, rec), PM_E_WRITE);
	ck_assert_int_eq(errno, ENOENT);
	spill_close(&s);
}
END_TEST

Suite *
unit_suite(void)
{
	Suite *s = suite_create("spill");
	TCase *tc = tcase_create("spill");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, records_read_back);
	tcase_add_test(tc, runs_of_records);
	tcase_add_test(tc, nothing_put_nothing_made);
	tcase_add_test(tc, no_room_is_a_write_error);
	suite_add_tcase(s, tc);
	return s;
}
