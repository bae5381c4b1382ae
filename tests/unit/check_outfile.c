/* check_outfile.c: report output. A report replaces the previous file only
 * at commit, keeps its mode, and leaves no name behind while it is written
 * where the file system has O_TMPFILE (the test asks the file system
 * itself), else a named temporary beside it that a signal removes; giving
 * up, or a write that fails, leaves the previous file as it was; a name
 * without a folder is written in the current one; an output that is an
 * input, under any name, is recognised. */
#define _GNU_SOURCE /* O_TMPFILE */
#include "check_main.h"
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/outfile.h"

static char dir[64], path[128];

static void
setup(void)
{
	snprintf(dir, sizeof dir, "%s/outfile.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/report.csv", dir);
}

static void
teardown(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char name[512];

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(name, sizeof name, "%s/%s", dir, e->d_name);
			unlink(name);
		}
	if (d)
		closedir(d);
	rmdir(dir);
}

/* The names in dir, "." and ".." left out, one after the other. */
static void
names_in_dir(char *out, size_t cap)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	out[0] = '\0';
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && n < cap)
			n += (size_t)snprintf(out + n, cap - n, "%s%s", n ? " " : "", e->d_name);
	if (d)
		closedir(d);
}

static void
write_file(const char *p, const char *text)
{
	FILE *fp = fopen(p, "w");
	ck_assert_ptr_nonnull(fp);
	fputs(text, fp);
	ck_assert_int_eq(fclose(fp), 0);
}

static void
assert_holds(const char *p, const char *text)
{
	char buf[64] = "";
	FILE *fp = fopen(p, "r");
	ck_assert_ptr_nonnull(fp);
	buf[fread(buf, 1, sizeof buf - 1, fp)] = '\0';
	fclose(fp);
	ck_assert_str_eq(buf, text);
}

/* Whether the file system of dir has unnamed files. */
static bool
has_tmpfile(void)
{
#ifdef O_TMPFILE
	int fd = open(dir, O_TMPFILE | O_WRONLY, 0600);
	if (fd >= 0) {
		close(fd);
		return true;
	}
#endif
	return false;
}

START_TEST(replaced_at_commit_only)
{
	struct outfile o;
	char names[256];
	struct stat st;

	write_file(path, "OLD\n");
	ck_assert_int_eq(chmod(path, 0640), 0);
	ck_assert_int_eq(outfile_open(&o, path), PM_OK);
	ck_assert(outfile_replaces(&o));
	fputs("NEW\n", o.fp);
	ck_assert_int_eq(fflush(o.fp), 0);
	assert_holds(path, "OLD\n");
	names_in_dir(names, sizeof names);
	if (has_tmpfile())
		ck_assert_str_eq(names, "report.csv");
	ck_assert_int_eq(outfile_commit(&o), PM_OK);
	assert_holds(path, "NEW\n");
	names_in_dir(names, sizeof names);
	ck_assert_str_eq(names, "report.csv");
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0640);
}
END_TEST

START_TEST(new_file_as_any_new_file)
{
	struct outfile o;
	struct stat st;
	mode_t mask = umask(022);

	ck_assert_int_eq(outfile_open(&o, path), PM_OK);
	fputs("NEW\n", o.fp);
	ck_assert_int_eq(outfile_commit(&o), PM_OK);
	umask(mask);
	assert_holds(path, "NEW\n");
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0644);
}
END_TEST

START_TEST(abort_keeps_the_old_file)
{
	struct outfile o;
	char names[256];

	write_file(path, "OLD\n");
	ck_assert_int_eq(outfile_open(&o, path), PM_OK);
	fputs("NEW\n", o.fp);
	outfile_abort(&o);
	assert_holds(path, "OLD\n");
	names_in_dir(names, sizeof names);
	ck_assert_str_eq(names, "report.csv");
}
END_TEST

START_TEST(standard_output_is_not_replaced)
{
	struct outfile o;

	ck_assert_int_eq(outfile_open(&o, "-"), PM_OK);
	ck_assert_ptr_eq(o.fp, stdout);
	ck_assert(!outfile_replaces(&o));
	ck_assert_int_eq(outfile_commit(&o), PM_OK);
	ck_assert_int_eq(outfile_open(&o, "/dev/null"), PM_OK);
	ck_assert(!outfile_replaces(&o));
	ck_assert_int_eq(outfile_commit(&o), PM_OK);
}
END_TEST

START_TEST(output_that_is_an_input)
{
	char link_path[160], sym_path[160], other[160], dotted[160];

	snprintf(link_path, sizeof link_path, "%s/link.dat", dir);
	snprintf(sym_path, sizeof sym_path, "%s/sym.dat", dir);
	snprintf(other, sizeof other, "%s/other.dat", dir);
	snprintf(dotted, sizeof dotted, "%s/./report.csv", dir);
	write_file(path, "DUMP\n");
	write_file(other, "DUMP\n");
	ck_assert_int_eq(link(path, link_path), 0);
	ck_assert_int_eq(symlink("report.csv", sym_path), 0);
	ck_assert(outfile_is_input(path, path));
	ck_assert(outfile_is_input(dotted, path));
	ck_assert(outfile_is_input(link_path, path));
	ck_assert(outfile_is_input(sym_path, path));
	ck_assert(outfile_is_input(path, sym_path));
	ck_assert(!outfile_is_input(other, path));
	ck_assert(!outfile_is_input("-", "-"));
	ck_assert(!outfile_is_input(NULL, path));
	/* not there yet: the same name only */
	ck_assert(outfile_is_input("nonesuch.csv", "nonesuch.csv"));
	ck_assert(!outfile_is_input("nonesuch.csv", "nonesuch2.csv"));
}
END_TEST

START_TEST(temporary_unnamed_or_named_beside_the_file)
{
	struct outfile o;
	char names[256];

	write_file(path, "OLD\n");
	ck_assert_int_eq(outfile_open(&o, path), PM_OK);
	names_in_dir(names, sizeof names);
	if (has_tmpfile()) {
		ck_assert(o.unnamed);
		ck_assert_str_eq(names, "report.csv");
	} else {
		ck_assert(!o.unnamed);
		ck_assert_ptr_nonnull(strstr(names, ".report.csv.tmp"));
	}
	/* a signal's handler leaves nothing behind */
	outfile_remove_on_signal();
	names_in_dir(names, sizeof names);
	ck_assert_str_eq(names, "report.csv");
	outfile_abort(&o);
	assert_holds(path, "OLD\n");
}
END_TEST

START_TEST(failed_write_keeps_the_old_file)
{
	struct rlimit was, four_bytes;
	struct outfile o;
	char names[256];
	pm_status st;

	write_file(path, "OLD\n");
	ck_assert_int_eq(outfile_open(&o, path), PM_OK);
	/* files may hold 4 bytes: the report's write fails (EFBIG) */
	signal(SIGXFSZ, SIG_IGN);
	ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &was), 0);
	four_bytes = (struct rlimit){ 4, was.rlim_max };
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &four_bytes), 0);
	fputs("NEW AND LONGER\n", o.fp);
	st = outfile_commit(&o);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &was), 0);
	signal(SIGXFSZ, SIG_DFL);
	ck_assert_int_eq(st, PM_E_WRITE);
	assert_holds(path, "OLD\n");
	names_in_dir(names, sizeof names);
	ck_assert_str_eq(names, "report.csv");
}
END_TEST

START_TEST(name_without_a_folder)
{
	struct outfile o;

	ck_assert_int_eq(chdir(dir), 0);
	ck_assert_int_eq(outfile_open(&o, "here.csv"), PM_OK);
	ck_assert(outfile_replaces(&o));
	fputs("NEW\n", o.fp);
	ck_assert_int_eq(outfile_commit(&o), PM_OK);
	assert_holds("here.csv", "NEW\n");
}
END_TEST

Suite *
unit_suite(void)
{
	Suite *s = suite_create("outfile");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, replaced_at_commit_only);
	tcase_add_test(tc, new_file_as_any_new_file);
	tcase_add_test(tc, abort_keeps_the_old_file);
	tcase_add_test(tc, standard_output_is_not_replaced);
	tcase_add_test(tc, output_that_is_an_input);
	tcase_add_test(tc, temporary_unnamed_or_named_beside_the_file);
	tcase_add_test(tc, failed_write_keeps_the_old_file);
	tcase_add_test(tc, name_without_a_folder);
	suite_add_tcase(s, tc);
	return s;
}
