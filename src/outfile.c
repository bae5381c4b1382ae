/* outfile.c: write-then-rename report output. See outfile.h. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

/* The temporary file of the run, for the signal handler to remove. */
static char *volatile pending_tmp;

void
outfile_remove_on_signal(void)
{
	char *tmp = pending_tmp;
	if (tmp)
		unlink(tmp);
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
	size_t n = strlen(path);
	o->path = strdup(path);
	o->tmp_path = malloc(n + 32);
	if (!o->path || !o->tmp_path) {
		free(o->path);
		free(o->tmp_path);
		return PM_E_NOMEM;
	}
	/* Beside the final file, so the rename stays within one file system. */
	const char *slash = strrchr(path, '/');
	size_t dir = slash ? (size_t)(slash - path + 1) : 0;
	snprintf(o->tmp_path, n + 32, "%.*s.%s.tmpXXXXXX", (int)dir, path, path + dir);
	fd = mkstemp(o->tmp_path);
	if (fd < 0 || !(o->fp = fdopen(fd, "w"))) {
		int saved = errno;
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp_path);
		}
		free(o->path);
		free(o->tmp_path);
		memset(o, 0, sizeof *o);
		errno = saved;
		return PM_E_WRITE;
	}
	/* mkstemp makes it 0600; a report is as readable as any new file. */
	mode_t mask = umask(0);
	umask(mask);
	(void)fchmod(fd, 0666 & ~mask);
	if (stat(path, &st) == 0)
		(void)fchmod(fd, st.st_mode & 07777);
	pending_tmp = o->tmp_path;
	return PM_OK;
}

bool
outfile_replaces(const struct outfile *o)
{
	return o->tmp_path != NULL;
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
		if (st != PM_OK)
			unlink(o->tmp_path);
		pending_tmp = NULL;
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
	if (o->tmp_path) {
		unlink(o->tmp_path);
		pending_tmp = NULL;
	}
	free(o->path);
	free(o->tmp_path);
	memset(o, 0, sizeof *o);
}
