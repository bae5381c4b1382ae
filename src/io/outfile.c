/* outfile.c: write-then-rename report output. See outfile.h. */
#define _GNU_SOURCE /* O_TMPFILE */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/outfile.h"

/* Room beside the final name for ".NAME.tmp" and a unique suffix. */
#define TMP_EXTRA 32

/* The named temporary files of the run (one a report written), for the
 * signal handler to remove. */
#define PENDING_MAX 64
static char *volatile pending_tmp[PENDING_MAX];

static void
pending_add(char *tmp)
{
	for (size_t i = 0; i < PENDING_MAX; i++)
		if (!pending_tmp[i]) {
			pending_tmp[i] = tmp;
			return;
		}
}

static void
pending_drop(const char *tmp)
{
	for (size_t i = 0; i < PENDING_MAX; i++)
		if (pending_tmp[i] == tmp)
			pending_tmp[i] = NULL;
}

void
outfile_remove_on_signal(void)
{
	for (size_t i = 0; i < PENDING_MAX; i++) {
		char *tmp = pending_tmp[i];
		if (tmp)
			unlink(tmp);
	}
}

bool
outfile_is_input(const char *path, const char *input)
{
	bool from_stdin = strcmp(input, "-") == 0;
	struct stat out, in;

	if (path == NULL || strcmp(path, "-") == 0)
		return false;
	if (!from_stdin && strcmp(path, input) == 0)
		return true;
	if (stat(path, &out) != 0 || !S_ISREG(out.st_mode) ||
	    (from_stdin ? fstat(STDIN_FILENO, &in) : stat(input, &in)) != 0)
		return false;
	return out.st_dev == in.st_dev && out.st_ino == in.st_ino;
}

/* The path of the descriptor in /proc, through which linkat names an
 * unnamed file. */
static void
proc_fd_path(int fd, char out[32])
{
	snprintf(out, 32, "/proc/self/fd/%d", fd);
}

/* An unnamed file in dir (of dir_len bytes of path; none: the current
 * directory), which a killed run cannot leave behind; -1 with errno set,
 * EOPNOTSUPP where there is none, or /proc cannot name it at commit. */
static int
open_unnamed(const char *path, size_t dir_len, char *scratch)
{
#ifdef O_TMPFILE
	char proc[32];
	struct stat st;
	int fd;

	snprintf(scratch, dir_len + 2, "%.*s", (int)(dir_len ? dir_len : 1),
	         dir_len ? path : ".");
	fd = open(scratch, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
	if (fd < 0)
		return -1;
	proc_fd_path(fd, proc);
	if (lstat(proc, &st) == 0)
		return fd;
	close(fd);
#else
	(void)path;
	(void)dir_len;
	(void)scratch;
#endif
	errno = EOPNOTSUPP;
	return -1;
}

/* A named temporary beside path, made 0666 less the umask (mkstemp makes
 * it 0600; a report is as readable as any new file). */
static int
open_named(const char *path, size_t dir_len, char *tmp_path)
{
	mode_t mask = umask(0);
	int fd;

	umask(mask);
	snprintf(tmp_path, strlen(path) + TMP_EXTRA, "%.*s.%s.tmpXXXXXX",
	         (int)dir_len, path, path + dir_len);
	fd = mkstemp(tmp_path);
	if (fd >= 0)
		(void)fchmod(fd, 0666 & ~mask);
	return fd;
}

pm_status
outfile_open(struct outfile *o, const char *path)
{
	struct stat st;
	int fd;

	memset(o, 0, sizeof *o);
	if (path == NULL || strcmp(path, "-") == 0) {
		o->fp = stdout;
		return PM_OK;
	}
	/* Not a regular file (/dev/null, a FIFO, a terminal): write to it as
	 * it is; renaming over it would replace a device with a plain file. */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		o->fp = fopen(path, "w");
		if (!o->fp)
			return PM_E_WRITE;
		o->path = strdup(path);
		return o->path ? PM_OK : PM_E_NOMEM;
	}
	o->path = strdup(path);
	o->tmp_path = malloc(strlen(path) + TMP_EXTRA);
	if (!o->path || !o->tmp_path) {
		free(o->path);
		free(o->tmp_path);
		return PM_E_NOMEM;
	}
	/* Beside the final file, so the rename stays within one file system. */
	const char *slash = strrchr(path, '/');
	size_t dir = slash ? (size_t)(slash - path + 1) : 0;
	fd = open_unnamed(path, dir, o->tmp_path);
	o->unnamed = fd >= 0;
	if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL))
		fd = open_named(path, dir, o->tmp_path);
	if (fd < 0 || !(o->fp = fdopen(fd, "w"))) {
		int saved = errno;
		if (fd >= 0) {
			close(fd);
			if (!o->unnamed)
				unlink(o->tmp_path);
		}
		free(o->path);
		free(o->tmp_path);
		memset(o, 0, sizeof *o);
		errno = saved;
		return PM_E_WRITE;
	}
	if (stat(path, &st) == 0)
		(void)fchmod(fd, st.st_mode & 07777);
	if (!o->unnamed)
		pending_add(o->tmp_path);
	return PM_OK;
}

bool
outfile_replaces(const struct outfile *o)
{
	return o->tmp_path != NULL;
}

/* Name the unnamed temporary beside the final file, uniquely (linkat
 * cannot replace a file; rename, next, can). The name is removed on a
 * signal from the moment it may exist. */
static bool
link_unnamed(struct outfile *o)
{
	const char *slash = strrchr(o->path, '/');
	int dir = slash ? (int)(slash - o->path + 1) : 0;
	char proc[32];

	proc_fd_path(fileno(o->fp), proc);
	for (unsigned attempt = 0; attempt < 100; attempt++) {
		snprintf(o->tmp_path, strlen(o->path) + TMP_EXTRA, "%.*s.%s.tmp%ld.%u",
		         dir, o->path, o->path + dir, (long)getpid(), attempt);
		pending_add(o->tmp_path);
		if (linkat(AT_FDCWD, proc, AT_FDCWD, o->tmp_path, AT_SYMLINK_FOLLOW) == 0) {
			o->unnamed = false;
			return true;
		}
		pending_drop(o->tmp_path);
		if (errno != EEXIST)
			return false;
	}
	return false;
}

pm_status
outfile_commit(struct outfile *o)
{
	pm_status st = PM_OK;
	int saved = 0;

	if (!o->fp)
		return PM_OK;
	if (fflush(o->fp) != 0 || ferror(o->fp)) {
		st = PM_E_WRITE;
		saved = errno;
	}
	if (o->tmp_path && st == PM_OK && fsync(fileno(o->fp)) != 0 && errno != EINVAL) {
		st = PM_E_WRITE;
		saved = errno;
	}
	if (o->unnamed && st == PM_OK && !link_unnamed(o)) {
		st = PM_E_WRITE;
		saved = errno;
	}
	if (o->fp != stdout) {
		if (fclose(o->fp) != 0 && st == PM_OK) {
			st = PM_E_WRITE;
			saved = errno;
		}
	}
	o->fp = NULL;
	if (o->tmp_path) {
		if (st == PM_OK && rename(o->tmp_path, o->path) != 0) {
			st = PM_E_WRITE;
			saved = errno;
		}
		if (st != PM_OK && !o->unnamed)
			unlink(o->tmp_path);
		pending_drop(o->tmp_path);
	}
	free(o->path);
	free(o->tmp_path);
	o->path = o->tmp_path = NULL;
	errno = saved;
	return st;
}

void
outfile_abort(struct outfile *o)
{
	if (o->fp && o->fp != stdout)
		fclose(o->fp);
	if (o->tmp_path && !o->unnamed) {
		unlink(o->tmp_path);
		pending_drop(o->tmp_path);
	}
	free(o->path);
	free(o->tmp_path);
	memset(o, 0, sizeof *o);
}
