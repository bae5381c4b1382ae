/* columns.h: --columns=a,b,c, a row sink in front of a writer (any:
 * CSV, text, JSON, a database) that hands it only the columns named, in
 * the order named. The names are matched against the report's columns
 * (their CSV names) when the report begins, which it does when it is
 * opened, before any input is read: a name the report lacks, one named
 * twice, or an empty one is a usage error said through diag, naming the
 * report's columns. Key columns stay keys (the text format repeats the
 * leading ones on each panel); the "top" block of a form keeps its ranks
 * only when it is named whole, in its order, at the end of the list
 * (otherwise its columns are lines of the form like the others, headed
 * by their names). */
#ifndef COLUMNS_H
#define COLUMNS_H

#include "core/diag.h"
#include "core/status.h"
#include "report/rowsink.h"

/* A sink passing the columns of list (comma-separated names) on to
 * inner, which it owns from now on, even when this fails (PM_E_NOMEM).
 * Its begin() returns PM_E_USAGE when list does not fit the report,
 * said through d. */
pm_status columns_open(struct rowsink **out, struct rowsink *inner, const char *list,
                       struct diag *d);

#endif
