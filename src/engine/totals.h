/* totals.h: feeds added through the totals of the figures they read.
 *
 * A report reads each figure for several columns: a wait bucket's time
 * for its total, its average and its share, its count for the number of
 * waits, the average and the rate. Fed column by column, each window is
 * read and added once a column (counter_feed_add). The formulas that only
 * add (RAW, DELTA, MAX, RATE, RATIO but an inverse one, FRACTION,
 * AVG_TIMER) need no more of a window than the totals of its figures: the
 * sum of each figure, the maximum of each MAX reads, and for the formulas that skip a window whose
 * divisor is 0, how many windows had it 0 and the sum of the figure over
 * them. A plan lists those once for all the feeds; a group keeps them in a
 * vector of words (counter_totals_add, one pass over the figures a window
 * offers), and they are folded into the feeds' accumulators before these
 * are read (counter_totals_fold), with the same sums, counts and overflow
 * as counter_feed_add gives.
 *
 * A window's figures come from two vectors: slots below the plan's split
 * from the first, the others (split and on) from the second. The plan
 * takes only windows that have every flag its feeds need (the caller
 * tests plan.need); others go to counter_feed_add with all the feeds. */
#ifndef TOTALS_H
#define TOTALS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "engine/counter.h"

/* Figures below 2^TOTALS_NARROW_BITS are narrow: their sums need no
 * carry until a group has 2^16 windows or more. */
#define TOTALS_NARROW_BITS 48

/* Slots, each in the first vector (below split) or the second, in four
 * blocks: [at[0], at[1]) the first vector's that lead (narrow sums,
 * divisors of a single pair), [at[1], at[2]) its others, then the second
 * vector's alike to at[4] (== n), rebased to it. */
struct totals_slots {
	uint16_t *slot;
	size_t n, at[5];
};

/* A run of units, each a single divisor's slot C (C, C + step, ... of
 * one vector, rebased to it) with its N at C + unit_dn and a maximum at
 * C + unit_dm: one loop reads each unit's three figures once. Their words
 * follow each other from lo (N's and C's sums, in their slots' order),
 * max, zero and pair. */
struct totals_run {
	size_t lo, max, zero, pair;
	uint16_t c, step, count;
	bool second;
	bool by_four;   /* its units lie so that they can be added four at a
	                   time (counter_plan.runs_by_four) */
};

/* A feed of the plan: where its totals are. */
struct totals_feed {
	struct counter_feed feed;
	uint16_t sum_n, sum_c;  /* of N and of its divisor (D or B) */
	uint16_t max;           /* MAX: of N */
	uint16_t zero;          /* the divisor's zero windows */
	uint16_t pair;          /* N over them */
	uint8_t op;             /* its formula */
};

struct counter_plan {
	struct totals_feed *feeds;
	size_t nfeeds;
	unsigned need;          /* every flag a feed of the plan needs */
	uint16_t split;
	uint64_t fold_at;       /* windows before the narrow sums must be folded;
	                           0: never */
	/* each list's lead blocks start with their units' words */
	struct totals_slots sums, maxes, zeros;
	struct totals_run *runs;
	size_t nruns, units[2];  /* units of the first vector, the second */
	bool runs_by_four;       /* the runs that can be, added four units at a
	                            time with AVX2 (set where the CPU has it; a
	                            test clears it to compare) */
	int unit_dn, unit_dm;
	/* the pairs of each divisor slot zeros.slot[z]: its N slots, pairs
	 * [pair_start[z], pair_start[z + 1]) */
	uint16_t *pair_n;
	size_t *pair_start;
	size_t npairs;
	/* a group's words: windows, then the sums' low words and carries,
	 * the maxima, the zero counts, the pairs' low words and carries */
	size_t words;
};

/* The plan of the feeds of feeds[0..count) that it can add, in the
 * figures' slots (split: where the second vector starts); the others,
 * in their order, to rest (room for count), their number to *nrest.
 * bits[slot] (one for every slot a feed names; NULL: none known): the
 * slot's figures are below 2^bits, or 0 when unknown. */
pm_status counter_plan_init(struct counter_plan *p, const struct counter_feed *feeds,
                            size_t count, uint16_t split, const uint8_t *bits,
                            struct counter_feed *rest, size_t *nrest);
void counter_plan_free(struct counter_plan *p);

/* One window (whose flags include p->need) into a group's words t; true
 * when t must be folded (counter_totals_fold) before the next window. */
bool counter_totals_add(const struct counter_plan *p, uint64_t *t, const uint64_t *first,
                        const uint64_t *second);

/* The group's words t into its accumulators (feeds' acc indexes into
 * accs), and t cleared. */
void counter_totals_fold(const struct counter_plan *p, uint64_t *t, struct counter_acc *accs);

#endif
