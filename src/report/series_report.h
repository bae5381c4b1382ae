/* series_report.h: a series report definition (rows counter, rows
 * instance: rptdef.h) run over series frames (frame/series.h), for data
 * whose counters carry their own types, such as Windows performance data.
 *
 * Each value of a frame belongs to the period of its time: a window (a
 * two-sample type) to the period its earlier sample falls in, a sample
 * (one-sample types) to the period of its own time; --source, --from and
 * --to select by the same times. Groups are keyed by source, period and
 * row: the counter of an instance (rows counter), or the instance of the
 * definition's object (rows instance). Each counter of a group keeps one
 * engine accumulator, so that its value is the type's average function
 * over the group's windows, exact, rounded only by the writer; and the
 * windows of its least and largest per-window value. A window without a
 * value (a reset) is counted and left out. Rows are written in the order
 * the groups first appeared; with BY_INTERVAL, after each frame. The key
 * columns are source, period_start and period_end, with milliseconds: the
 * period for --by=hour and day, else the span of the group's values (a
 * window's two samples, a sample's own time). At most o->group_memory
 * bytes of rows are held in memory (0: all), the rows of a source and
 * period together; the others wait in a temporary file (core/spill.h),
 * read back when they come again and to be written or exported: the same
 * report whatever the limit, a file that cannot be written PM_E_SPILL said
 * once and the rows then held. */
#ifndef SERIES_REPORT_H
#define SERIES_REPORT_H

#include "core/diag.h"
#include "core/partial.h"
#include "core/sources.h"
#include "frame/series.h"
#include "report/report.h"
#include "report/rowsink.h"
#include "report/rptdef.h"

struct series_report;

/* A report of def (rpt_is_series) with rows to sink. PM_E_NOMEM, or the
 * sink's status from its begin. def must outlive the report. */
pm_status series_report_open(struct series_report **out, const struct rpt_def *def,
                             const struct sources *src, const struct report_opts *o,
                             struct rowsink *sink, struct diag *d);

/* A series_fn: ctx is the report. */
void series_report_frame(const struct series_frame *f, void *ctx);

/* When values came and none was reported, why, in out (cap bytes): the
 * systems (--source), the object or counters of the definition, or the
 * times (--from, --to). False when a value was reported or none came. */
bool series_report_what_matched_nothing(const struct series_report *r, char *out,
                                        size_t cap);

/* Partials (core/partial.h): the rows held and the counts, as two
 * sections; a partial's merged in, rows of the same source, period and
 * names together; the merged rows are then written in the order of the
 * inputs they first appeared in (by name) and of their making there, a
 * partial's rows made after those of the partials merged before it (the
 * ranges of one file, --jobs, merged in their order). By
 * interval, the rows themselves (report/rowrec.h), kept instead of written
 * when opts.rows_input is set, each with the input its frame came from.
 * PM_E_PARTIAL or PM_E_PARTIAL_MISMATCH with what in err; PM_E_NOMEM. */
void series_report_export(struct series_report *r, struct pwriter *w);
/* The rows held (what --max-groups bounds). */
size_t series_report_rows(const struct series_report *r);
pm_status series_report_import(struct series_report *r, const struct partial *p,
                               struct sources *src, char *err, size_t cap);

/* Write what is held and end the output; fills m. PM_E_WRITE when a write
 * failed. */
pm_status series_report_finish(struct series_report *r, struct report_meta *m);

void series_report_close(struct series_report *r);

#endif
