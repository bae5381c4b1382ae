/* coverage.h: the time each source's intervals have covered in this run,
 * so that an interval is counted once whatever the inputs.
 *
 * Each source keeps its covered time as a sorted vector of disjoint ranges
 * [start, end), merged as intervals are added: memory grows with the gaps
 * in the time covered (and the changes of input), not with the intervals;
 * complete and incomplete intervals keep ranges apart (see coverage_admit).
 * Beside its bounds a range keeps where its first interval came from (the
 * input and offset, for messages) and the grid of its intervals' boundaries
 * (an anchor and a step, the length its intervals mostly have).
 *
 * An interval inside one range, whose start and end are on the range's
 * boundaries (its ends, or its grid), is a duplicate; one that overlaps
 * covered time otherwise is overlapping. Both are left out, counted in the
 * tally, and said once per run of them: the repeats of one source, of one
 * kind, with no interval admitted between them. The message comes when the
 * run ends (an interval of the source is admitted, or coverage_finish) and
 * gives the count, the time, the place of the first repeat and the place
 * of the covering range's first interval. */
#ifndef COVERAGE_H
#define COVERAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/diag.h"
#include "core/partial.h"
#include "pmim/reasm.h"
#include "core/sources.h"
#include "core/tally.h"
#include "core/tzone.h"

enum coverage_verdict { COVER_NEW, COVER_DUPLICATE, COVER_OVERLAPPING };

struct coverage_opts {
	size_t max_ranges;        /* over all sources; past it, new time is not
	                             remembered (said once) */
	const struct tzone *zone; /* how times are shown; NULL: as recorded,
	                             and a repeated hour in autumn suggests
	                             --timezone */
};

struct coverage;

/* Open a coverage into *out; PM_E_NOMEM (and *out NULL) when it cannot be
 * had. */
pm_status coverage_open(struct coverage **out, const struct coverage_opts *o,
                        const struct sources *src, struct diag *d,
                        struct tally *t);

/* Whether iv, first read from file, goes into the reports: true when its
 * time was not covered (it is now); false when it is a duplicate or
 * overlapping (counted and said here). Only complete intervals, whose
 * parts agree on their time, cover time for complete ones: an incomplete
 * interval's time may come from one damaged record, and covers time only
 * for the incomplete intervals after it. */
bool coverage_admit(struct coverage *c, const struct interval *iv,
                    bool complete, const char *file);

/* The verdict of admitting [start, end) of source, without admitting it. */
enum coverage_verdict coverage_judge(const struct coverage *c, uint32_t source,
                                     bool complete, int64_t start, int64_t end);

/* Whether a run of repeats is waiting to be said (coverage_finish, or the
 * source's next new interval, says it). */
bool coverage_unsaid(const struct coverage *c);

/* The ranges remembered, over all sources; *most, the most ever held. */
size_t coverage_ranges(const struct coverage *c, size_t *most);

/* The time source's intervals have covered, from the start of its first
 * range to the end of its last, complete and incomplete ones together;
 * false when it covered none. */
bool coverage_span(const struct coverage *c, uint32_t source, int64_t *start,
                   int64_t *end);

/* Said once the run of repeats of every source has ended. */
void coverage_finish(struct coverage *c);

void coverage_close(struct coverage *c);

/* Partials (core/partial.h): every range covered, by source name, with
 * its first input; and a partial's ranges read back. A range that meets
 * time an earlier partial covered is said as repeated (its intervals are
 * in the merged report twice: a merge cannot take them out); the others
 * are covered. PM_E_PARTIAL with why in err, PM_E_NOMEM. */
void coverage_export(const struct coverage *c, struct pwriter *w);
pm_status coverage_import(struct coverage *c, const struct partial *p, struct sources *src,
                          const char *partial, char *err, size_t cap);

#endif
