/* spill.h: numbered records of one size in a temporary file, for what a
 * report keeps but cannot hold in memory (its groups past --group-memory).
 *
 * The file is made by the first record put, in $TMPDIR (else /tmp),
 * unnamed where the file system allows (O_TMPFILE), else unlinked as soon
 * as it is made: nothing is left behind, whatever ends the run. Record n
 * lies at n times the record size, so a record put again overwrites its
 * last copy and the file holds at most one copy of each. */
#ifndef SPILL_H
#define SPILL_H

#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

struct spill {
	int fd;          /* -1 until the first record is put */
	size_t size;     /* bytes a record */
	uint64_t put, got;  /* records written and read back */
};

void spill_init(struct spill *s, size_t size);

/* An unnamed temporary file in $TMPDIR (else /tmp), open for reading and
 * writing; -1 (errno set) when none can be made. What a spill is put in,
 * and what a --jobs thread writes its partial to. */
int spill_file(void);

/* Records n to n + count - 1 from recs, one after another (one write for
 * a run of them); PM_E_WRITE (errno set) when the file cannot be made or
 * written. */
pm_status spill_put(struct spill *s, uint64_t n, size_t count, const void *recs);

/* Records n to n + count - 1 into recs, which must have been put;
 * PM_E_READ (errno set, or 0 for a record past the file's end) otherwise. */
pm_status spill_get(struct spill *s, uint64_t n, size_t count, void *recs);

/* The file closed, and so gone. */
void spill_close(struct spill *s);

#endif
