/* memo.h: the names of a system's last snapshot, and what they were made
 * from (block.c). A snapshot of that system whose objects have the same
 * titles, code pages and instance counts, and whose instances have the
 * same name bytes and parents, has the same names: they are copied from
 * its memo instead of being converted, joined to their parents' and
 * numbered again, most of a walk's work where snapshots repeat. Whether
 * a memo is used is decided by those bytes alone; the system's name only
 * finds the memo to compare with. The systems walked last are kept, up
 * to MEMO_SLOTS of them, each memo up to MEMO_MAX_BYTES. */
#ifndef WINPERF_MEMO_H
#define WINPERF_MEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/bytes.h"
#include "winperf/block.h"

#define MEMO_SLOTS 8
#define MEMO_MAX_BYTES ((size_t)128 << 10)

/* An instance's names in a walker's text: as given, with its parent's
 * (perfmon's parent/instance), and as shown (#n for a repeat). */
struct name_at {
	size_t raw, full, shown;
	unsigned repeats;    /* of its first occurrence: how many after it */
};

/* What an instance's names are made from: its name's bytes (in the block
 * while it is walked), its object's code page (what room its name's text
 * asks), its parent. */
struct memo_source {
	struct span raw;
	uint32_t codepage, parent_title, parent_instance;
};

/* An instance of the memo (its code page is its object's). */
struct memo_instance {
	size_t raw_at, raw_len;     /* in the memo's bytes */
	uint32_t parent_title, parent_instance;
};

struct memo_object {
	uint32_t title, codepage;
	int32_t num_instances;
};

struct wp_memo {
	bool set;
	uint64_t number;            /* its names' (wp_snapshot.names) */
	uint64_t used;              /* when it was last found or kept */
	size_t block_len;           /* of the block its names were made in */
	struct memo_object *objects;
	struct memo_instance *instances;
	struct name_at *names;
	uint8_t *bytes;             /* the instances' name bytes */
	char *text;                 /* the walker's text, the system's name
	                               at system_at */
	size_t nobjects, ninstances, ntext, system_at;
	size_t cap;                 /* bytes allocated for all of them */
};

struct wp_memos {
	struct wp_memo slot[MEMO_SLOTS];
	uint64_t clock;
	uint64_t numbered;          /* names numbered so far */
};

void memo_free(struct wp_memos *m);

/* The memo of the snapshots of system, if any. */
const struct wp_memo *memo_of(struct wp_memos *m, const char *system);

/* Whether object i of a snapshot, as its head gives it, is object i of
 * the memo. */
bool memo_object_same(const struct wp_memo *m, size_t i, const struct memo_object *o);

/* Whether instance k of a snapshot is made from what instance k of the
 * memo was. */
bool memo_instance_same(const struct wp_memo *m, size_t k, const struct memo_source *s);

/* Whether a snapshot of ninstances instances, its objects and instances
 * all found the same, in a block of block_len bytes, takes the memo's
 * names: all of the memo's instances (objects it lacks after those would
 * hold none, and name no parent), and a block no shorter than the memo's
 * (names are bounded by a block's length), which asks no more room than
 * that one was given. */
bool memo_fits(const struct wp_memo *m, size_t ninstances, size_t block_len);

/* The names of a snapshot just made (text, and names into it, the
 * system's name at system_at), of its objects and instances made from
 * sources, kept as its system's memo, and numbered: their number; none is
 * kept for the system (0) when they pass MEMO_MAX_BYTES or memory runs
 * out. */
uint64_t memo_keep(struct wp_memos *m, size_t block_len, const struct wp_object *objects,
                   size_t nobjects, const struct memo_source *sources, size_t ninstances,
                   const char *text, size_t ntext, size_t system_at,
                   const struct name_at *names);

#endif
