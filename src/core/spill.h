/* spill.h: numbered records of one size in a temporary file, for what a
 * report keeps but cannot hold in memory (its groups past --group-memory).
 *
 * The file is made by the first record put, in $TMPDIR (else /tmp),
 * unnamed where the file system allows (O_TMPFILE), else unlinked as soon
 * as it is made: nothing is left behind, whatever ends the run. Record n
 * lies at n times the record size, so a record put again overwrites its
 * last copy and the file holds at most one copy of each.
 *
 * One buffer of SPILL_HOLD bytes makes the calls to the file few and
 * large, which the file system takes for a fraction of the cost of many
 * small ones: records put close together (within the buffer from the
 * first one held) are held and written together; records got one run
 * after another are read ahead a buffer at a time. What is held is read
 * back from memory when it cannot be written, so a failed write loses
 * nothing that was put. */
#ifndef SPILL_H
#define SPILL_H

#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

#define SPILL_HOLD ((size_t)256 << 10)

struct spill {
	int fd;          /* -1 until the first record is put */
	size_t size;     /* bytes a record */
	uint64_t put, got;  /* records put and read back */
	/* the buffer: room for hold records from held_first on. Either
	 * records put, not yet written (nheld of them, each where its bit in
	 * present is set), or records read ahead (nread from held_first on) */
	unsigned char *held;
	uint64_t *present;
	uint64_t held_first;
	size_t hold, nheld, nread;
	uint64_t next_get;  /* the record after the last run got */
};

void spill_init(struct spill *s, size_t size);

/* An unnamed temporary file in $TMPDIR (else /tmp), open for reading and
 * writing; -1 (errno set) when none can be made. What a spill is put in,
 * and what a --jobs thread writes its partial to. */
int spill_file(void);

/* Records n to n + count - 1 from recs, one after another; PM_E_WRITE
 * (errno set) when the file cannot be made or written (the records held
 * before are still held then). */
pm_status spill_put(struct spill *s, uint64_t n, size_t count, const void *recs);

/* Records n to n + count - 1 into recs, which must have been put;
 * PM_E_READ (errno set, or 0 for a record past the file's end) otherwise. */
pm_status spill_get(struct spill *s, uint64_t n, size_t count, void *recs);

/* The file closed, and so gone. */
void spill_close(struct spill *s);

#endif
