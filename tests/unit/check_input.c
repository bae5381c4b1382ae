/* check_input.c: input_peek (io/input.c): the first bytes looked at and
 * kept, then read again before the rest, at every read size and peek
 * size, of plain input shorter and longer than a magic or a peek, and of
 * gzip input, whose peek sees the decoded bytes; a second peek sees the
 * same first bytes; a read error is said as one. input_lend (io/lend.c):
 * a file's bytes lent where they lie, at every offset and size asked, in
 * windows of a page; only a plain regular file's; a file cut short while
 * lent, found by the fault of a page it lost (read as zeros, no crash;
 * where the host lets a load resume after a SIGBUS handler: not under
 * qemu-user) or by its size, said once where it now ends. */
#define _DEFAULT_SOURCE /* mkstemp, ftruncate */
#include <config.h>

#include "check_main.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

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

#define PAGE 4096

/* A temporary file of len bytes of a pattern (kept in bytes when not
 * NULL): its path in path[64]. */
static void
make_file(char *path, const uint8_t *text, size_t len, uint8_t *bytes)
{
	int fd;

	snprintf(path, 64, "%s/lend.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	for (size_t i = 0; i < len; i++) {
		uint8_t b = text ? text[i] : (uint8_t)(i * 131 + 7);

		if (bytes)
			bytes[i] = b;
		ck_assert_int_eq(write(fd, &b, 1), 1);
	}
	close(fd);
}

START_TEST(lend_windows)
{
	enum { LEN = 5 * PAGE + 123 };
	static uint8_t bytes[LEN];
	static const size_t asks[] = { 1, 100, PAGE, PAGE + 904, LEN + 10 };
	char path[64];
	struct input in;

	make_file(path, NULL, LEN, bytes);
	for (size_t a = 0; a < sizeof asks / sizeof asks[0]; a++) {
		size_t n = asks[a];

		ck_assert_int_eq(input_open_path(&in, path), PM_OK);
		ck_assert(input_can_lend(&in));
		in.block_size = PAGE;
		/* forward by steps that fall everywhere in a page */
		for (size_t at = 0; at < LEN; at += PAGE - 13) {
			const uint8_t *p = NULL;
			ssize_t got = input_lend(&in, at, n, &p);
			size_t least = n < LEN - at ? n : LEN - at;

			ck_assert_int_ge(got, (ssize_t)least);
			ck_assert_int_le(got, (ssize_t)(LEN - at));
			ck_assert(memcmp(p, bytes + at, (size_t)got) == 0);
		}
		{
			const uint8_t *p;
			ck_assert_int_eq(input_lend(&in, LEN, n, &p), 0);
		}
		ck_assert(input_lent_whole(&in));
		input_close(&in);
	}
	unlink(path);
}
END_TEST

START_TEST(lend_only_plain_files)
{
	static const uint8_t text[] = "plain";
	struct input in;

	input_from_memory(&in, "mem", text, sizeof text, 0);
	ck_assert(!input_can_lend(&in));
	input_close(&in);
#ifdef HAVE_ZLIB
	{
		static const char said[] = "a gzip member: read decoded, never lent";
		uint8_t gz[512], out[128];
		size_t n = unit_gzip_member(gz, sizeof gz, said);
		char path[64];
		ssize_t got = 0, r;

		make_file(path, gz, n, NULL);
		ck_assert_int_eq(input_open_path(&in, path), PM_OK);
		ck_assert(!input_can_lend(&in));
		while ((r = in.read(&in, out + got, sizeof out - (size_t)got)) > 0)
			got += r;
		ck_assert_int_eq(got, (ssize_t)strlen(said));
		ck_assert(memcmp(out, said, strlen(said)) == 0);
		input_close(&in);
		unlink(path);
	}
#endif
}
END_TEST

/* A file of four pages lent whole, then cut to a page and 100 bytes by
 * another hand; touch: a byte of its third page read first. */
static void
lend_then_cut(bool touch)
{
	char path[64];
	struct input in;
	const uint8_t *p;

	make_file(path, NULL, 4 * PAGE, NULL);
	ck_assert_int_eq(input_open_path(&in, path), PM_OK);
	ck_assert(input_can_lend(&in));
	in.block_size = 4 * PAGE;
	ck_assert_int_eq(input_lend(&in, 0, 1, &p), 4 * PAGE);
	ck_assert_uint_eq(p[PAGE], (uint8_t)(PAGE * 131 + 7));
	ck_assert_int_eq(truncate(path, PAGE + 100), 0);
	if (touch) {
		/* its page is gone: a fault, read as zeros */
		ck_assert_uint_eq(p[2 * PAGE + 5], 0);
		ck_assert_uint_eq(p[2 * PAGE + 6], 0);
	}
	errno = 0;
	ck_assert_int_eq(input_lend(&in, 2 * PAGE + 7, 1, &p), -1);
	ck_assert_int_eq(errno, EIO);
	ck_assert(in.cut_short && in.shrank);
	ck_assert_uint_eq(in.cut_at, PAGE + 100);
	ck_assert(!input_lent_whole(&in));
	ck_assert_int_eq(input_lend(&in, 2 * PAGE + 7, 1, &p), -1);
	input_close(&in);
	unlink(path);
}

/* Whether a SIGBUS from a page a mapped file lost says its address, and
 * the load resumes after the handler maps zeros there, asked of a child
 * with a handler of its own (not io/lend.c's, so that a fault of that is
 * not taken for the host's): not under qemu-user. */
static volatile uint8_t *probe_page;

static void
probe_handler(int sig, siginfo_t *si, void *context)
{
	uintptr_t at = (uintptr_t)si->si_addr, page = (uintptr_t)probe_page;

	(void)sig, (void)context;
	/* the fault's address is the handler's to know */
	if (at < page || at >= page + PAGE)
		_exit(4);
	if (mmap((void *)page, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
	    MAP_FAILED)
		_exit(3);
}

static bool
host_resumes_after_sigbus(void)
{
	int status = 0;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char path[64];
		struct sigaction sa;
		int fd;

		make_file(path, NULL, 2 * PAGE, NULL);
		fd = open(path, O_RDONLY);
		probe_page = mmap(NULL, 2 * PAGE, PROT_READ, MAP_PRIVATE, fd, 0);
		if (truncate(path, 0) != 0 || probe_page == MAP_FAILED)
			_exit(2);
		unlink(path);
		memset(&sa, 0, sizeof sa);
		sa.sa_sigaction = probe_handler;
		sa.sa_flags = SA_SIGINFO;
		sigaction(SIGBUS, &sa, NULL);
		_exit(probe_page[5] == 0 ? 0 : 1);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

START_TEST(lend_cut_short_by_fault)
{
	if (!host_resumes_after_sigbus()) {
		fprintf(stderr, "lend_cut_short_by_fault: not tried: a load does not resume "
		        "after a SIGBUS handler here, or the fault's address is not said (qemu-user)\n");
		return;
	}
	lend_then_cut(true);
}
END_TEST

START_TEST(lend_cut_short_by_size)
{
	lend_then_cut(false);
}
END_TEST

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
	tcase_add_test(tc, lend_windows);
	tcase_add_test(tc, lend_only_plain_files);
	tcase_add_test(tc, lend_cut_short_by_fault);
	tcase_add_test(tc, lend_cut_short_by_size);
	suite_add_tcase(s, tc);
	return s;
}
