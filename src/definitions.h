/* definitions.h: the reports of a run (--report=waits,cpu): each one's
 * definition loaded (the inventory has none) and checked against the
 * options, what the run reads (PMIM or Windows data, never both), the
 * title table of --perf-names, and where each report is written. */
#ifndef DEFINITIONS_H
#define DEFINITIONS_H

#include <stdbool.h>

#include "run.h"

/* Every report's definition, what the run reads (reports of PMIM and of
 * Windows data do not share a run), and where each is written. Returns
 * an exit code (said). */
int load_definitions(struct run *r);

/* Whether -o names a folder (charts: a file each). */
bool output_is_folder(const char *path);

#endif
