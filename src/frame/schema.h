/* schema.h: what a reader's figures are, for the layers that consume them
 * (engine, report, writers) without knowing the reader.
 *
 * A schema names every figure a frame (frame.h) holds, by index: its name,
 * units and description, and its kind, which says what it can feed:
 *   SCHEMA_COUNT  a number of events: N or B of any counter type;
 *   SCHEMA_TIME   a time in a clock of ticks_per_second: N, D or B where
 *                 the type wants a time (timers, rates, elapsed times);
 *   SCHEMA_OTHER  flags, lengths, dates, text: no counter type.
 * Each figure is in one group of a frame (bit g of frame.have, g >= 1): a
 * frame that lacks the group lacks the figure.
 *
 * Figures that come in like sets form a family of rows: each row has one
 * figure per member (PMIM's wait buckets: a sum, a highest and a count of
 * waits; later, a Windows object's instances and their counters). A report
 * of "rows NAME" iterates the rows of the family NAME. A schema sum is a
 * derived figure: one member summed over every row of the family.
 *
 * Readers build their schema once, before the first frame (the PMIM one
 * from the copybook: pmim/binding.h); it does not change during a run. */
#ifndef SCHEMA_H
#define SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "frame/frame.h"

#define SCHEMA_NAME_MAX 64
#define SCHEMA_LABEL_MAX 16    /* a row's label, as a column name holds it */
#define SCHEMA_DESC_MAX 64
/* The most figures a schema may have: a feed names a slot in 16 bits, and
 * the report adds its own virtual figures after the schema's. */
#define SCHEMA_MAX_FIGURES 65000
#define SCHEMA_MAX_MEMBERS 4
#define SCHEMA_MAX_SUMS 8

enum schema_kind { SCHEMA_OTHER, SCHEMA_COUNT, SCHEMA_TIME };

struct schema_figure {
	char name[SCHEMA_NAME_MAX];
	char desc[SCHEMA_DESC_MAX];
	const char *units;          /* for people: "10**-4 s", "count", ... */
	enum schema_kind kind;
	uint64_t ticks_per_second;  /* SCHEMA_TIME: its clock */
	unsigned group;             /* 1..; 0: in no frame's figures */
	unsigned bits;              /* its values are below 2**bits; 0: unknown */
};

/* A member of a family: how a report names it ("%T") and what it is. */
struct schema_member {
	char name[8];
	enum schema_kind kind;
	uint64_t ticks_per_second;
};

struct schema_row {
	char label[SCHEMA_LABEL_MAX];
	char desc[SCHEMA_DESC_MAX];
	unsigned group;                        /* the group of its figures */
	uint32_t figure[SCHEMA_MAX_MEMBERS];   /* by member */
};

struct schema_family {
	char name[SCHEMA_NAME_MAX];            /* "bucket" */
	struct schema_member members[SCHEMA_MAX_MEMBERS];
	unsigned nmembers;
	struct schema_row *rows;
	size_t nrows;
};

/* A derived figure: member `member` of the family added over its rows. */
struct schema_sum {
	char name[SCHEMA_NAME_MAX];            /* "@wait_time" */
	unsigned member;
};

struct schema {
	char name[SCHEMA_NAME_MAX];            /* "#PMINT" */
	struct schema_figure *figures;
	size_t nfigures;
	struct schema_family family;           /* nrows 0: none */
	struct schema_sum sums[SCHEMA_MAX_SUMS];
	size_t nsums;
	unsigned groups;                       /* those of a complete frame */
};

/* A schema with room for nfigures figures and nrows rows, zeroed, for a
 * reader to fill. PM_E_LAYOUT past SCHEMA_MAX_FIGURES, PM_E_NOMEM. */
pm_status schema_open(struct schema **out, size_t nfigures, size_t nrows);
void schema_close(struct schema *s);

/* The index of the figure, member or sum named name; -1 when none. */
int schema_figure_index(const struct schema *s, const char *name);
int schema_member_index(const struct schema *s, const char *name);
int schema_sum_index(const struct schema *s, const char *name);

/* The groups of every row of the family: what a schema sum reads. */
unsigned schema_family_groups(const struct schema *s);

/* Whether f holds every group of s: a complete frame. Inline: asked of
 * every frame. */
static inline bool
schema_frame_complete(const struct schema *s, const struct frame *f)
{
	return (f->have & s->groups) == s->groups;
}

#endif
