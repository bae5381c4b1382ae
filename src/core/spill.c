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

/* pread or pwrite of n bytes at off, through short counts and
 * interruptions: the bytes done, fewer only where a read met the file's
 * end; -1 (errno set) on an error. */
static ssize_t
transfer(int fd, bool write, void *p, size_t n, off_t off)
{
	char *b = p;
	size_t done = 0;

	while (done < n) {
		ssize_t k = write ? pwrite(fd, b + done, n - done, off + (off_t)done)
		                  : pread(fd, b + done, n - done, off + (off_t)done);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (k == 0) {
			if (write) {
				errno = ENOSPC;
				return -1;
			}
			break;
		}
		done += (size_t)k;
	}
	return (ssize_t)done;
}

/* All n bytes at off read or written; false (errno set, 0 for a read
 * past the end) when they cannot be. */
static bool
whole(int fd, bool write, void *p, size_t n, off_t off)
{
	ssize_t k = transfer(fd, write, p, n, off);

	if (k >= 0 && (size_t)k < n)
		errno = 0;
	return k >= 0 && (size_t)k == n;
}

/* Whether records n to n + count - 1 lie within what an off_t reaches. */
static bool
in_reach(const struct spill *s, uint64_t n, size_t count)
{
	return count <= (uint64_t)INT64_MAX / s->size &&
	       n <= (uint64_t)INT64_MAX / s->size - count;
}

/* Whether records n to n + count - 1 fall in the buffer (from held_first
 * on, hold of them). */
static bool
in_buffer(const struct spill *s, uint64_t n, size_t count)
{
	return n >= s->held_first && n - s->held_first <= s->hold &&
	       count <= s->hold - (n - s->held_first);
}

static bool
is_held(const struct spill *s, size_t i)
{
	return s->present[i / 64] >> (i % 64) & 1;
}

/* The records held, written: each run of them at once; false (errno
 * set, all still held) when they cannot be. */
static bool
write_held(struct spill *s)
{
	for (size_t i = 0, j; i < s->hold && s->nheld; i = j) {
		for (; i < s->hold && !is_held(s, i); i++)
			;
		for (j = i; j < s->hold && is_held(s, j); j++)
			;
		if (j > i && !whole(s->fd, true, s->held + i * s->size, (j - i) * s->size,
		                    (off_t)((s->held_first + i) * s->size)))
			return false;
	}
	if (s->nheld)
		memset(s->present, 0, (s->hold + 63) / 64 * sizeof *s->present);
	s->nheld = 0;
	return true;
}

/* The buffer, made at first use; false when there is no memory for it
 * (then each put and get goes to the file at once). */
static bool
buffer(struct spill *s)
{
	if (s->held)
		return true;
	s->hold = SPILL_HOLD / s->size;
	if (s->hold == 0)
		return false;
	s->held = malloc(s->hold * s->size);
	s->present = calloc((s->hold + 63) / 64, sizeof *s->present);
	if (s->held && s->present)
		return true;
	free(s->held);
	free(s->present);
	s->held = NULL;
	s->present = NULL;
	return false;
}

pm_status
spill_put(struct spill *s, uint64_t n, size_t count, const void *recs)
{
	if (s->fd < 0 && (s->fd = spill_file()) < 0)
		return PM_E_WRITE;
	if (!in_reach(s, n, count))
		return PM_E_WRITE;
	s->nread = 0;  /* what was read ahead may be put again */
	if (!buffer(s) || count > s->hold) {
		if (!write_held(s) ||
		    !whole(s->fd, true, (void *)(uintptr_t)recs, count * s->size, (off_t)(n * s->size)))
			return PM_E_WRITE;
		s->put += count;
		return PM_OK;
	}
	if (s->nheld && !in_buffer(s, n, count) && !write_held(s))
		return PM_E_WRITE;
	if (!s->nheld)
		s->held_first = n;
	for (size_t i = (size_t)(n - s->held_first), k = 0; k < count; k++, i++) {
		memcpy(s->held + i * s->size, (const unsigned char *)recs + k * s->size, s->size);
		s->nheld += !is_held(s, i);
		s->present[i / 64] |= UINT64_C(1) << (i % 64);
	}
	s->put += count;
	return PM_OK;
}

/* Whether records n to n + count - 1 are all held, put or read ahead:
 * copied from there. */
static bool
from_buffer(const struct spill *s, uint64_t n, size_t count, void *recs)
{
	size_t at = (size_t)(n - s->held_first);

	if ((!s->nheld && !s->nread) || !in_buffer(s, n, count))
		return false;
	if (s->nread && count > s->nread - (at < s->nread ? at : s->nread))
		return false;
	for (size_t i = at; s->nheld && i < at + count; i++)
		if (!is_held(s, i))
			return false;
	memcpy(recs, s->held + at * s->size, count * s->size);
	return true;
}

/* The buffer filled from record n on, as far as the file goes. */
static bool
read_ahead(struct spill *s, uint64_t n)
{
	uint64_t room = (uint64_t)INT64_MAX / s->size - n;
	size_t want = room < s->hold ? (size_t)room : s->hold;
	ssize_t k = transfer(s->fd, false, s->held, want * s->size, (off_t)(n * s->size));

	if (k < 0)
		return false;
	s->held_first = n;
	s->nread = (size_t)k / s->size;
	return true;
}

/* A run got right after the last one (records read in order, not
 * those picked here and there): the buffer filled from n on and records
 * n to n + count - 1 copied from there; false when they cannot be so. */
static bool
get_ahead(struct spill *s, uint64_t n, size_t count, void *recs)
{
	return n == s->next_get && count < s->hold && buffer(s) && read_ahead(s, n) &&
	       from_buffer(s, n, count, recs);
}

pm_status
spill_get(struct spill *s, uint64_t n, size_t count, void *recs)
{
	if (s->fd < 0 || !in_reach(s, n, count)) {
		errno = 0;
		return PM_E_READ;
	}
	/* what is held goes to the file first, which then has every record
	 * put; held ones that cannot be written are still read */
	if (!write_held(s)) {
		if (!from_buffer(s, n, count, recs))
			return PM_E_READ;
	} else if (!from_buffer(s, n, count, recs) && !get_ahead(s, n, count, recs) &&
	           !whole(s->fd, false, recs, count * s->size, (off_t)(n * s->size))) {
		return PM_E_READ;
	}
	s->next_get = n + count;
	s->got += count;
	return PM_OK;
}

void
spill_close(struct spill *s)
{
	if (s->fd >= 0)
		close(s->fd);
	free(s->held);
	free(s->present);
	*s = (struct spill){ .fd = -1, .size = s->size };
}
