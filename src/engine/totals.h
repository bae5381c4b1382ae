/* totals.h: feeds added through the totals of the figures they read.
 *
 * A report reads each figure for several columns: a wait bucket's time
 * for its total, its average and its share, its count for the number of
 * waits, the average and the rate. Fed column by column, each window is
 * read and added once a column (counter_feed_add). The formulas that only
 * add (RAW, DELTA, MAX, RATE, FRACTION, AVG_TIMER) need no more of a
 * window than the totals of its figures: the sum of each figure, the
 * maximum of each MAX reads, and for the formulas that skip a window whose
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

#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "engine/counter.h"

/* Slots, each in the first vector (below split) or the second. */
struct totals_slots {
	uint16_t *slot;     /* the first nfirst index the first vector, the
	                       rest the second, from split on */
	size_t n, nfirst;
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
	struct totals_slots sums, maxes, zeros;
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
 * in their order, to rest (room for count), their number to *nrest. */
pm_status counter_plan_init(struct counter_plan *p, const struct counter_feed *feeds,
                            size_t count, uint16_t split, struct counter_feed *rest,
                            size_t *nrest);
void counter_plan_free(struct counter_plan *p);

/* One window (whose flags include p->need) into a group's words t. */
void counter_totals_add(const struct counter_plan *p, uint64_t *t, const uint64_t *first,
                        const uint64_t *second);

/* The group's words t into its accumulators (feeds' acc indexes into
 * accs), and t cleared. */
void counter_totals_fold(const struct counter_plan *p, uint64_t *t, struct counter_acc *accs);

#endif
