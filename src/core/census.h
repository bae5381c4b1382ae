/* census.h: what a stream of performance snapshots held, for the
 * inventory: the systems (source ids of sources.h) with their snapshot
 * counts and first and last times, and the objects and counters seen, in
 * the order of first appearance. Reader-neutral: titles and types are
 * numbers, named by the functions the writer is given. */
#ifndef CENSUS_H
#define CENSUS_H

#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

#define CENSUS_OBJECT UINT32_MAX /* the counter of an object's own entry */

struct census_system {
	uint32_t source;
	uint64_t snapshots;
	int64_t first, last;     /* UTC stamps (pmtime.h units) */
};

struct census_entry {
	uint32_t object, counter, type; /* counter CENSUS_OBJECT: the object */
	uint64_t seen;                  /* snapshots that held it */
};

struct census {
	struct census_system *systems;
	size_t nsystems, systems_cap;
	struct census_entry *entries;
	size_t nentries, entries_cap;
	uint32_t *slots;         /* hash of entries: index + 1, 0 free */
	size_t nslots;
	uint64_t nodata, unknown; /* counter definitions skipped, by reason */
	uint64_t inputs;          /* inputs read as streams of snapshots */
};

/* Names for the writer: a title index, a counter type (buf may be used). */
struct census_names {
	const char *(*title)(uint32_t index, char buf[12], const void *ctx);
	const char *(*type)(uint32_t type, char buf[12]);
	const void *ctx;
};

void census_init(struct census *c);
void census_free(struct census *c);

/* A snapshot of source at stamp. */
pm_status census_snapshot(struct census *c, uint32_t source, int64_t stamp);
/* snapshots of source from first to last (a partial's). */
pm_status census_add(struct census *c, uint32_t source, uint64_t snapshots, int64_t first,
                     int64_t last);

/* An object or counter seen in a snapshot. */
pm_status census_entry(struct census *c, uint32_t object, uint32_t counter, uint32_t type);

#endif
