/* jsonout.h: the JSON lines writer of reports (NDJSON): one object a row,
 * its keys the CSV header's names in the report's order, each line ending
 * in LF. Numbers are JSON numbers with the CSV's digits (out/cell.h);
 * a figure without a value, and a double that is not finite (which CSV
 * writes as an empty field), is null; stamps are strings, as CSV shows
 * them; text is a string through jsonstr.h (valid UTF-8 always). No
 * header line, and nothing of the title block. */
#ifndef JSONOUT_H
#define JSONOUT_H

#include <stdio.h>

#include "core/status.h"
#include "report/rowsink.h"

/* A rowsink writing to fp; PM_E_NOMEM. */
pm_status jsonout_open(struct rowsink **out, FILE *fp);

#endif
