/* reasm.h: the three parts of each interval become one interval.
 *
 * Intervals are keyed by (source, start, end). Parts may come in any order,
 * interleaved with other intervals and sources. Intervals are emitted in the
 * order their first part arrived: an interval at the head of that queue is
 * emitted as soon as it is complete, or as incomplete once `horizon` more
 * interval parts have arrived after it (it is far behind the stream and can
 * no longer be completed), or when the queue holds max_pending intervals.
 * Memory is fixed at open, sized from the layout's fields: nothing is
 * allocated per part. */
#ifndef REASM_H
#define REASM_H

#include <stdint.h>

#include "core/bytes.h"
#include "core/copybook.h"
#include "core/diag.h"
#include "pmim/pmint.h"
#include "core/tally.h"

struct interval {
	uint32_t source;
	uint32_t sdate, stime, edate, etime; /* as recorded */
	int64_t start, end;                  /* stamps, see pmtime.h */
	unsigned parts;                      /* bit p set: part p present */
	uint64_t offset;                     /* file offset of its first part */
	uint64_t *v;                         /* field values, by layout index:
	                                        nfields of them, in storage
	                                        reassembly allocates at open */
};

typedef void (*interval_fn)(const struct interval *iv, void *ctx);

struct coverage;
struct tzone;

struct reasm_opts {
	size_t max_pending;  /* intervals waiting for parts, e.g. 1024 */
	uint64_t horizon;    /* parts after which a waiting interval is lost;
	                        0: none, only max_pending bounds the wait */
	struct coverage *coverage; /* asked before an interval is emitted
	                        (coverage.h); NULL: every interval is */
	const struct tzone *zone; /* how messages show times (tzone.h);
	                        NULL: as recorded */
};

/* The most max_pending may be: slot numbers are 32-bit, and the index,
 * twice as large, must be addressable by a 32-bit size_t too. */
#define REASM_MAX_PENDING (UINT32_MAX / 8)

struct reasm;

/* The bytes reasm_open allocates for max_pending intervals of nfields
 * figures. */
uint64_t reasm_memory(size_t max_pending, size_t nfields);

/* Open a reassembler into *out. PM_E_PENDING_MEMORY when the memory
 * max_pending asks for (more than REASM_MAX_PENDING, or what the system
 * refused) cannot be had, PM_E_NOMEM when the rest cannot; *out is then
 * NULL. */
pm_status reasm_open(struct reasm **out, const struct pmint *pm,
                     const struct reasm_opts *o, interval_fn emit, void *ctx,
                     struct diag *d, struct tally *t);

/* Where the figures of part p go, for the PM stage to decode them there
 * (by layout index, as in struct interval): the figures of the interval's
 * slot, or of the spare slot for a new interval or the next copy of a whole
 * one; NULL when the interval has the part already (a duplicate: nothing
 * may be written). Each call must be followed by reasm_part on the same
 * part, before anything else is asked of r. */
uint64_t *reasm_place(struct reasm *r, const struct pm_part *p);

/* Take the part reasm_place was asked about, its figures decoded where
 * that said (p->decoded): only assembled here. A part already present is
 * reported as a duplicate (first copy kept; a part of a waiting interval
 * that has every part starts its next copy). Returns PM_E_DUPLICATE_PART
 * (part dropped; already reported and counted here, the caller must not
 * report it again), else p->decoded: PM_E_SHORT_PART (part not taken, no
 * figures written; the caller reports it; it still counts toward the
 * horizon), PM_E_LONG_PART or PM_OK (part taken). The figures stay where
 * they were decoded until the next part is placed. */
pm_status reasm_part(struct reasm *r, const struct pm_part *p);

/* How many intervals are waiting for parts. */
size_t reasm_pending(const struct reasm *r);

/* Emit every interval still waiting, in order (incomplete ones reported). */
void reasm_finish(struct reasm *r);

void reasm_close(struct reasm *r);

#endif
