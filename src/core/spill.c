/* spill.c: numbered records in a temporary file (spill.h). */
#define _GNU_SOURCE /* O_TMPFILE */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/spill.h"

void
spill_init(struct spill *s, size_t size)
{
	*s = (struct spill){ .fd = -1, .size = size };
}

/* Unnamed from the start, or unlinked at once. */
int
spill_file(void)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
#ifdef O_TMPFILE
	if ((fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600)) >= 0)
		return fd;
#endif
	if ((size_t)snprintf(path, sizeof path, "%s/pmimrpt-groups.XXXXXX", dir) >= sizeof path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if ((fd = mkstemp(path)) >= 0)
		unlink(path);
	return fd;
}

/* pread or pwrite of all n bytes at off, through short counts and
 * interruptions. */
static bool
whole(int fd, bool write, void *p, size_t n, off_t off)
{
	char *b = p;

	while (n > 0) {
		ssize_t k = write ? pwrite(fd, b, n, off) : pread(fd, b, n, off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			if (k == 0)
				errno = write ? ENOSPC : 0;
			return false;
		}
		b += k;
		n -= (size_t)k;
		off += k;
	}
	return true;
}

/* Whether records n to n + count - 1 lie within what an off_t reaches. */
static bool
in_reach(const struct spill *s, uint64_t n, size_t count)
{
	return count <= (uint64_t)INT64_MAX / s->size &&
	       n <= (uint64_t)INT64_MAX / s->size - count;
}

pm_status
spill_put(struct spill *s, uint64_t n, size_t count, const void *recs)
{
	if (s->fd < 0 && (s->fd = spill_file()) < 0)
		return PM_E_WRITE;
	if (!in_reach(s, n, count) ||
	    !whole(s->fd, true, (void *)(uintptr_t)recs, count * s->size, (off_t)(n * s->size)))
		return PM_E_WRITE;
	s->put += count;
	return PM_OK;
}

pm_status
spill_get(struct spill *s, uint64_t n, size_t count, void *recs)
{
	if (s->fd < 0 || !in_reach(s, n, count)) {
		errno = 0;
		return PM_E_READ;
	}
	if (!whole(s->fd, false, recs, count * s->size, (off_t)(n * s->size)))
		return PM_E_READ;
	s->got += count;
	return PM_OK;
}

void
spill_close(struct spill *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}
