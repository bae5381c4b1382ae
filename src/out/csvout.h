/* csvout.h: the CSV writer of reports (RFC 4180 through csvw.h): a header
 * row of column names, then one line per row; numbers unquoted with a '.'
 * decimal point, text quoted only where needed, undefined values empty. */
#ifndef CSVOUT_H
#define CSVOUT_H

#include <stdio.h>

#include "report/rowsink.h"

/* A rowsink writing to fp; NULL when out of memory. */
struct rowsink *csvout_open(FILE *fp);

#endif
