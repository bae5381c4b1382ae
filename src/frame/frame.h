/* frame.h: one window of figures for one source over one time span, the
 * hand-off from a reader to the report layer. A PMIM interval is one frame
 * (pmim/binding.h); a pair of Windows snapshots will be one.
 *
 * The figures are deltas over the window, by schema index (schema.h);
 * have says which groups of them the frame holds (bit g for group g;
 * bit 0 is never set), so that a report tells a zero from a figure that
 * never came. The frame and its figures are the reader's, valid for the
 * call that hands them on. */
#ifndef FRAME_H
#define FRAME_H

#include <stdint.h>

/* Stamps are those of core/tzone.h: 10**-4 s from 1970-01-01. */
#define FRAME_STAMPS_PER_SECOND 10000LL
#define FRAME_STAMPS_PER_DAY (86400LL * FRAME_STAMPS_PER_SECOND)

struct frame {
	uint32_t source;        /* its source's name, interned (sources.h) */
	int64_t start, end;     /* its time span, UTC stamps */
	unsigned have;          /* its groups of figures */
	const uint64_t *x;      /* its figures; those of a group it lacks
	                           mean nothing: check have */
};

typedef void (*frame_fn)(const struct frame *f, void *ctx);

#endif
