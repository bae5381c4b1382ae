/* summary.h: what a run says at its end, as the last line on standard
 * error and in the reports' title blocks: the bytes, records and
 * intervals (or snapshots) of its inputs or its partials, what was left
 * out of the reports and why an exit 4 came; and, when a report held no
 * row, what matched nothing. */
#ifndef SUMMARY_H
#define SUMMARY_H

#include <stdbool.h>

#include "core/diag.h"
#include "core/tally.h"
#include "outputs.h"
#include "pmim/pmint.h"
#include "run.h"

#define SUMMARY_MAX 1024

/* The accounting of the run: its inputs', or its partials'. */
const struct tally *run_tally(const struct run *r);

/* The run's summary line. */
void run_summary(const struct run *r, char line[SUMMARY_MAX]);

/* A run that reported no interval says, in one line, what matched nothing:
 * a report's selection, or else the input, its SMF type or its interval
 * records (unless an input could not be read, read_all false: that said
 * why). The inventory selects nothing; it only says that the input is
 * empty. */
void say_nothing_selected(struct diag *d, const struct tally *t, const struct pmint *pm,
                          const struct outputs *outs, unsigned smf_type, bool read_all);

#endif
