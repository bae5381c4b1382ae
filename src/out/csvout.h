/* csvout.h: the CSV writer of reports (RFC 4180 through csvw.h): a header
 * row of column names, then one line per row; numbers unquoted with a '.'
 * decimal point, text quoted only where needed, undefined values empty. */
#ifndef CSVOUT_H
#define CSVOUT_H

#include <stdio.h>

#include "core/status.h"
#include "report/rowsink.h"

/* A rowsink writing to fp; PM_E_NOMEM. */
pm_status csvout_open(struct rowsink **out, FILE *fp);

#endif
