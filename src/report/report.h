/* report.h: a report definition run over intervals: selection, groups,
 * and rows for a writer (rowsink.h).
 *
 * Selection keeps an interval when its source is one of opts.sources (all
 * when none are given), its start is within [from, to), and, with
 * complete_only, it has every part. Groups are keyed by source and period;
 * the period is the hour or day the interval starts in (an interval that
 * crosses a boundary counts whole in the period it starts in), the
 * interval itself, or the whole input. Each group keeps one counter_acc
 * per column and row (and per bucket for a "top" block): sums, counts and
 * maxima only, so groups merge exactly. Groups are written sorted by source
 * name, then period; with BY_INTERVAL, and for "rows interval" reports,
 * rows are written as the intervals come, in input order, and no group is
 * kept. Nothing is allocated per interval except when a new group is made. */
#ifndef REPORT_H
#define REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/diag.h"
#include "pmim/pmint.h"
#include "pmim/reasm.h"
#include "report/rowsink.h"
#include "report/rptdef.h"
#include "core/sources.h"
#include "core/tzone.h"

enum report_by { BY_TOTAL, BY_DAY, BY_HOUR, BY_INTERVAL };

struct report_opts {
	enum report_by by;
	int64_t from, to;            /* stamps; INT64_MIN / INT64_MAX: open */
	const char *const *sources;  /* names to keep; none: every source */
	size_t nsources;
	bool complete_only;
	size_t max_groups;           /* rows held: groups x buckets */
	size_t max_sources;          /* sizes the selection cache */
	const struct tzone *zone;    /* stamps are UTC, periods and times
	                                local to it; NULL: as recorded */
};

struct report;

/* The name of a grouping ("total", "day", "hour", "interval"). */
const char *report_by_name(enum report_by by);

struct report *report_open(const struct rpt_def *def, const struct pmint *pm,
                           const struct sources *src, const struct report_opts *o,
                           struct rowsink *sink, struct diag *d, pm_status *st);

/* An interval_fn: ctx is the report. */
void report_interval(const struct interval *iv, void *ctx);

/* When intervals came and none was reported, which selection (--source,
 * --from and --to, --complete-only) matched nothing, in out (cap bytes):
 * the one that kept no interval on its own, else all of those given, as
 * "no interval of source SYSX". False when an interval was reported, none
 * came, or the selections kept some (then a limit left them out). */
bool report_what_matched_nothing(const struct report *r, char *out, size_t cap);

/* Write the groups and end the output; fills m's counts and period.
 * PM_E_WRITE when a write failed. */
pm_status report_finish(struct report *r, struct report_meta *m);

void report_close(struct report *r);

#endif
