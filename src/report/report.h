/* report.h: a report definition run over frames (frame/frame.h; for
 * PMIM, one frame per interval): selection, groups, and rows for a writer
 * (rowsink.h).
 *
 * Selection keeps a frame when its source is one of opts.sources (all
 * when none are given), its start is within [from, to), and, with
 * complete_only, it has every group of the schema. Groups are keyed by
 * source and period; the period is the hour or day the frame starts in (a
 * frame that crosses a boundary counts whole in the period it starts in),
 * the frame itself, or the whole input. Each group keeps one counter_acc
 * per column and row (and per bucket for a "top" block): sums, counts and
 * maxima only, so groups merge exactly. Groups are written sorted by source
 * name, then period; with BY_INTERVAL, and for "rows interval" reports,
 * rows are written as the frames come, in input order, and no group is
 * kept. Nothing is allocated per frame except when a new group is made.
 * The words of messages say "interval", as PMIM users know them. */
#ifndef REPORT_H
#define REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/diag.h"
#include "core/partial.h"
#include "core/sources.h"
#include "core/tzone.h"
#include "frame/frame.h"
#include "frame/schema.h"
#include "report/rowsink.h"
#include "report/rptdef.h"

enum report_by { BY_TOTAL, BY_DAY, BY_HOUR, BY_INTERVAL };

/* --group-memory's default: with the rest of a run, under 16 MiB */
#define GROUP_MEMORY_DEFAULT ((size_t)8 << 20)

struct report_opts {
	enum report_by by;
	int64_t from, to;            /* stamps; INT64_MIN / INT64_MAX: open */
	const char *const *sources;  /* names to keep; none: every source */
	size_t nsources;
	bool complete_only;
	size_t max_groups;           /* rows held: groups x buckets */
	size_t group_memory;         /* bytes of the groups' figures held in
	                                memory, the rest in a temporary file;
	                                0: all held */
	size_t max_sources;          /* sizes the selection cache */
	const struct tzone *zone;    /* stamps are UTC, periods and times
	                                local to it; NULL: as recorded */
	/* series reports: whether an object or counter name a definition
	 * gives stands for the reader's number (for Windows data, a title
	 * index); NULL: names match the series' own names only */
	bool (*name_is)(const char *name, uint32_t number, const void *ctx);
	const void *name_ctx;
	/* --partial of a stream (rowrec.h): its rows are kept, not written,
	 * each with the name *rows_input points to as it is made (the input
	 * its interval came from); NULL: rows are written */
	const char *const *rows_input;
};

struct report;

/* The name of a grouping ("total", "day", "hour", "interval"). */
const char *report_by_name(enum report_by by);

/* A report of def over frames of schema s, its rows to sink. PM_E_NOMEM,
 * PM_E_LAYOUT (the schema passes what a report can bind), or the sink's
 * status from its begin. def and s must outlive the report. */
pm_status report_open(struct report **out, const struct rpt_def *def,
                      const struct schema *s, const struct sources *src,
                      const struct report_opts *o, struct rowsink *sink,
                      struct diag *d);

/* A frame_fn: ctx is the report. */
void report_frame(const struct frame *f, void *ctx);

/* When intervals came and none was reported, which selection (--source,
 * --from and --to, --complete-only) matched nothing, in out (cap bytes):
 * the one that kept no interval on its own, else all of those given, as
 * "no interval of source SYSX". False when an interval was reported, none
 * came, or the selections kept some (then a limit left them out). */
bool report_what_matched_nothing(const struct report *r, char *out, size_t cap);

/* Partials (core/partial.h): whether a partial can hold the report (every
 * PMIM report: its groups, or a stream's rows, rowrec.h); its counts and
 * groups, and a stream's rows, as sections; a partial's merged into it
 * (source names interned into src; a stream's rows kept, to be written in
 * their order by report_finish). PM_E_PARTIAL or PM_E_PARTIAL_MISMATCH
 * (groups for a stream, or rows for groups, among others) with what in
 * err; PM_E_NOMEM. */
bool report_partial_ok(const struct report *r);
/* The rows its groups hold (what --max-groups bounds). */
size_t report_rows(const struct report *r);
void report_export(struct report *r, struct pwriter *w);
pm_status report_import(struct report *r, const struct partial *p, struct sources *src,
                        char *err, size_t cap);

/* Write the groups and end the output; fills m's counts and period.
 * PM_E_WRITE when a write failed. */
pm_status report_finish(struct report *r, struct report_meta *m);

void report_close(struct report *r);

#endif
