/* runout.h: a run's outputs opened and finished: each report's file (or
 * table of the database, or section of the page), its writer of --format
 * (the null sink of --partial), its report; at the end each report
 * written, the database's run row and transaction, the page. Keeping or
 * giving up the files is the run's (pmimrpt.c). */
#ifndef RUNOUT_H
#define RUNOUT_H

#include <stdbool.h>

#include "core/status.h"
#include "run.h"

/* The options a series report of the run is opened with: its counters
 * named by --perf-names or the English titles. */
struct report_opts series_opts(const struct run *r);

/* One report's writer and file (or table), and the report itself. */
pm_status output_open(struct run *r, struct output *out);

/* One report written, or the inventory, to its file (not yet kept). */
pm_status output_finish(struct run *r, struct output *out);

#ifdef HAVE_SQLITE
/* --format=sqlite: the module, then the database, its transaction begun;
 * a failure said. */
int open_database(struct run *r);

/* The run's row and COMMIT when it exits 0 or 4 (st is the report's);
 * else ROLLBACK, and the database is as it was. */
void finish_database(struct run *r, pm_status st, bool read_all);
#endif

#ifdef HAVE_CAIRO
/* --format=html: the page, with what the run said, kept when the run
 * exits 0 or 4 (st: the first report that could not be written). */
void finish_page(struct run *r, pm_status st, bool read_all);
#endif

#endif
