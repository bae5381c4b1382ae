/* census.h: what a stream of performance snapshots held, for the
 * inventory: the systems (source ids of sources.h) with their snapshot
 * counts and first and last times, and the objects and counters seen, in
 * the order of first appearance. Reader-neutral: titles and types are
 * numbers, named by the functions the writer is given. */
#ifndef CENSUS_H
#define CENSUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

#define CENSUS_OBJECT UINT32_MAX /* the counter of an object's own entry */
#define CENSUS_GROUPS 64         /* groups remembered (census_group) */

struct census_system {
	uint32_t source;
	uint64_t snapshots;
	int64_t first, last;     /* UTC stamps (pmtime.h units) */
	uint32_t input;          /* where it first appeared: of inputs, */
	uint64_t seq;            /* and what the run had seen before it */
};

struct census_entry {
	uint32_t object, counter, type; /* counter CENSUS_OBJECT: the object */
	uint64_t seen;                  /* snapshots that held it */
	uint32_t input;                 /* where it first appeared */
	uint64_t seq;
};

/* The entries a group of the reader's (census_group) counted, by index:
 * counted again by its key, without a lookup. */
struct census_group {
	uint64_t key;            /* 0: none */
	uint64_t counting;       /* the key of the entries being listed */
	uint32_t *entries;
	size_t n, cap;
};

struct census {
	struct census_system *systems;
	size_t nsystems, systems_cap;
	struct census_entry *entries;
	size_t nentries, entries_cap;
	uint32_t *slots;         /* hash of entries: index + 1, 0 free */
	size_t nslots;
	size_t next;             /* the entry after the one last counted, tried
	                            before the hash: snapshots list theirs in
	                            one order */
	uint64_t nodata, unknown; /* counter definitions skipped, by reason */
	uint64_t inputs;          /* inputs read as streams of snapshots */
	/* the names of the inputs things first appeared in, the one being
	 * read, and how many things appeared so far: the order of first
	 * appearance, kept across partials (census_order) */
	char **names;
	size_t nnames, names_cap;
	uint32_t input;
	uint64_t seq;
	struct census_group groups[CENSUS_GROUPS]; /* by key, one a slot */
	struct census_group *listing;  /* the group census_entry lists, or NULL */
};

/* Names for the writer: a title index, a counter type (buf may be used). */
struct census_names {
	const char *(*title)(uint32_t index, char buf[12], const void *ctx);
	const char *(*type)(uint32_t type, char buf[12]);
	const void *ctx;
};

void census_init(struct census *c);
void census_free(struct census *c);

/* The input read from now on (its name); false when out of memory. */
bool census_input(struct census *c, const char *name);

/* A snapshot of source at stamp. */
pm_status census_snapshot(struct census *c, uint32_t source, int64_t stamp);
/* snapshots of source from first to last (a partial's). */
pm_status census_add(struct census *c, uint32_t source, uint64_t snapshots, int64_t first,
                     int64_t last);

/* An object or counter seen in a snapshot. */
pm_status census_entry(struct census *c, uint32_t object, uint32_t counter, uint32_t type);

/* A group of entries the reader knows by key (not 0): a key that names
 * the same entries in the same order for the census's life (until
 * census_order). True: the group was known, and its entries were counted
 * again; else the reader counts them with census_entry, which lists them
 * under key, and ends with census_group_end (whole: all of them were
 * counted). */
bool census_group(struct census *c, uint64_t key);
void census_group_end(struct census *c, bool whole);

/* A partial's: seen times an entry that first appeared in input at seq
 * (the earlier place of the two is kept). */
pm_status census_entry_add(struct census *c, uint32_t object, uint32_t counter,
                           uint32_t type, uint64_t seen, const char *input, uint64_t seq);
/* The same for a system; census_add is one of the current input. */
pm_status census_add_from(struct census *c, uint32_t source, uint64_t snapshots,
                          int64_t first, int64_t last, const char *input, uint64_t seq);

/* Systems and entries in the order of the inputs they first appeared in,
 * by name, then of their appearance there: what one run over the inputs
 * in name order lists (for a merge of partials). */
void census_order(struct census *c);

#endif
