/* intervals_csv.h: the `intervals` report: one CSV row per reassembled
 * interval, in input order, with every figure of the record in user units.
 * Columns come from the layout: source, start, end, duration_s, parts,
 * tasks_started, tasks_ended, <LABEL>_s for each CPU time field, and
 * <LABEL>_waits, _total_s, _avg_ms, _peak_ms for each wait bucket. Fields
 * of a missing part are empty; so is an average over zero waits. */
#ifndef INTERVALS_CSV_H
#define INTERVALS_CSV_H

#include <stdio.h>

#include "pmint.h"
#include "reasm.h"
#include "sources.h"

struct intervals_csv;

struct intervals_csv *intervals_csv_open(FILE *fp, const struct pmint *pm,
                                         const struct sources *src,
                                         pm_status *st);
/* An interval_fn: ctx is the intervals_csv. */
void intervals_csv_row(const struct interval *iv, void *ctx);
/* Finish; PM_E_WRITE when any write failed. Frees r. */
pm_status intervals_csv_close(struct intervals_csv *r);

#endif
