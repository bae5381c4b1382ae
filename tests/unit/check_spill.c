/* check_spill.c: the temporary file of numbered records a report keeps its
 * groups in past --group-memory. A record reads back as it was put, after
 * others and after being put again; one never put, or past the end, is a
 * read error; a run of records put in one call reads back one by one, and
 * records put one by one read back as a run; a run that reaches past the
 * end is a read error; the file leaves no name in $TMPDIR; a $TMPDIR that
 * cannot hold it is a write error, with errno set. Records put close
 * together are held and reach the file together, when one is got; held
 * records that cannot be written are still read back, and the put that
 * needed them written is a write error; a record put again after it was
 * read ahead reads back as put again; records larger than the buffer go
 * to the file at once. */
#include "check_main.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* Records from to to - 1 put one by one, at version. */
static void
put_each(struct spill *s, unsigned from, unsigned to, unsigned version)
{
	uint8_t rec[SIZE];

	for (unsigned n = from; n < to; n++) {
		fill(rec, n, version);
		ck_assert_int_eq(spill_put(s, n, 1, rec), PM_OK);
	}
}

static off_t
file_size(int fd)
{
	struct stat st;

	ck_assert_int_eq(fstat(fd, &st), 0);
	return st.st_size;
}

START_TEST(held_then_written_together)
{
	struct spill s;
	uint8_t rec[SIZE], want[SIZE];

	spill_init(&s, SIZE);
	put_each(&s, 0, 100, 1);
	ck_assert_int_ge(s.fd, 0);
	ck_assert_int_eq(file_size(s.fd), 0);
	ck_assert_int_eq(spill_get(&s, 99, 1, rec), PM_OK);
	ck_assert_int_eq(file_size(s.fd), 100 * SIZE);
	fill(want, 99, 1);
	ck_assert_mem_eq(rec, want, SIZE);
	/* one far past the buffer: what was held written first */
	fill(rec, 1000000, 1);
	ck_assert_int_eq(spill_put(&s, 1000000, 1, rec), PM_OK);
	fill(rec, 50, 2);
	ck_assert_int_eq(spill_put(&s, 50, 1, rec), PM_OK);
	ck_assert_int_eq(spill_get(&s, 1000000, 1, rec), PM_OK);
	fill(want, 1000000, 1);
	ck_assert_mem_eq(rec, want, SIZE);
	ck_assert_int_eq(spill_get(&s, 50, 1, rec), PM_OK);
	fill(want, 50, 2);
	ck_assert_mem_eq(rec, want, SIZE);
	spill_close(&s);
}
END_TEST

START_TEST(held_survive_a_failed_write)
{
	struct spill s;
	uint8_t run[10 * SIZE], rec[SIZE], want[SIZE];
	int fd;

	spill_init(&s, SIZE);
	put_each(&s, 0, 10, 1);
	/* the file can no longer be written */
	fd = s.fd;
	s.fd = open("/dev/null", O_RDONLY);
	ck_assert_int_ge(s.fd, 0);
	ck_assert_int_eq(spill_get(&s, 2, 8, run), PM_OK);
	for (unsigned i = 0; i < 8; i++) {
		fill(want, 2 + i, 1);
		ck_assert_mem_eq(run + i * SIZE, want, SIZE);
	}
	ck_assert_int_eq(spill_get(&s, 9, 2, run), PM_E_READ);
	errno = 0;
	fill(rec, 1000000, 1);
	ck_assert_int_eq(spill_put(&s, 1000000, 1, rec), PM_E_WRITE);
	ck_assert_int_eq(errno, EBADF);
	ck_assert_int_eq(spill_get(&s, 0, 1, rec), PM_OK);
	fill(want, 0, 1);
	ck_assert_mem_eq(rec, want, SIZE);
	ck_assert_uint_eq(s.put, 10);
	close(fd);
	spill_close(&s);
}
END_TEST

START_TEST(put_again_after_read_ahead)
{
	struct spill s;
	uint8_t rec[SIZE], want[SIZE];

	spill_init(&s, SIZE);
	put_each(&s, 0, 200, 1);
	/* read in order: the rest read ahead */
	ck_assert_int_eq(spill_get(&s, 0, 1, rec), PM_OK);
	ck_assert_int_eq(spill_get(&s, 1, 1, rec), PM_OK);
	fill(rec, 5, 2);
	ck_assert_int_eq(spill_put(&s, 5, 1, rec), PM_OK);
	/* out of order first, then all in order */
	for (unsigned n = 6; n > 4; n--) {
		fill(want, n, n == 5 ? 2 : 1);
		ck_assert_int_eq(spill_get(&s, n, 1, rec), PM_OK);
		ck_assert_mem_eq(rec, want, SIZE);
	}
	for (unsigned n = 2; n < 200; n++) {
		fill(want, n, n == 5 ? 2 : 1);
		ck_assert_int_eq(spill_get(&s, n, 1, rec), PM_OK);
		ck_assert_mem_eq(rec, want, SIZE);
	}
	errno = EINVAL;
	ck_assert_int_eq(spill_get(&s, 200, 1, rec), PM_E_READ);
	ck_assert_int_eq(errno, 0);
	spill_close(&s);
}
END_TEST

START_TEST(records_past_the_buffer)
{
	struct spill s;
	size_t size = SPILL_HOLD + SIZE;
	uint8_t *rec = malloc(size), *want = malloc(size);

	ck_assert_ptr_nonnull(rec);
	ck_assert_ptr_nonnull(want);
	spill_init(&s, size);
	for (unsigned n = 0; n < 3; n++) {
		memset(rec, (int)n + 1, size);
		ck_assert_int_eq(spill_put(&s, n, 1, rec), PM_OK);
		ck_assert_int_eq(file_size(s.fd), (off_t)((n + 1) * size));
	}
	for (unsigned n = 0; n < 3; n++) {
		memset(want, (int)n + 1, size);
		ck_assert_int_eq(spill_get(&s, n, 1, rec), PM_OK);
		ck_assert_mem_eq(rec, want, size);
	}
	spill_close(&s);
	free(rec);
	free(want);
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
	tcase_add_test(tc, held_then_written_together);
	tcase_add_test(tc, held_survive_a_failed_write);
	tcase_add_test(tc, put_again_after_read_ahead);
	tcase_add_test(tc, records_past_the_buffer);
	suite_add_tcase(s, tc);
	return s;
}
