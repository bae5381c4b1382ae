/* binding.h: PMIM bound to the reader-neutral schema and frame
 * (frame/schema.h, frame/frame.h), so that reports and the counter engine
 * know nothing of #PMINT.
 *
 * The schema is derived from the copybook layout: every field of it is a
 * figure of the same index (an interval's v[i] is the frame's x[i]), its
 * kind and clock from the units its comment gives (counts, 10**-4 s,
 * 10**-2 s, TOD); header fields (part 0), labels and fields that are not
 * figures are SCHEMA_OTHER. A field's part is its group. The wait buckets
 * are the family "bucket", with members %T (sum of wait times), %H
 * (highest wait) and %# (number of waits), and two sums: @wait_time (every
 * bucket's %T) and @waits (every %#). */
#ifndef PMIM_BINDING_H
#define PMIM_BINDING_H

#include <stddef.h>

#include "frame/frame.h"
#include "frame/schema.h"
#include "pmim/pmint.h"
#include "pmim/reasm.h"

/* The schema of pm's layout; a complete frame has every part. PM_E_LAYOUT
 * (with the reason in err) past the schema's limits, PM_E_NOMEM. */
pm_status binding_schema_open(struct schema **out, const struct pmint *pm,
                              char *err, size_t errlen);

/* The frame of an interval: its figures are the interval's. */
void binding_frame_of(struct frame *f, const struct interval *iv);

/* Where an interval's frame goes. */
struct binding_framer {
	frame_fn fn;
	void *ctx;
};

/* An interval_fn: ctx is a struct binding_framer, which gets iv's frame. */
void binding_frame_interval(const struct interval *iv, void *ctx);

#endif
