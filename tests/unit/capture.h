/* capture.h: a row sink for the report tests (capture.c) that keeps the
 * header and the first CAPTURE_ROWS rows as CSV-ish lines (cells joined
 * by commas, as cell_bytes gives them, unquoted), counts every row, and
 * says whether the report ended. */
#ifndef CAPTURE_H
#define CAPTURE_H

#include <config.h>

#include <stdbool.h>
#include <stddef.h>

#include "report/rowsink.h"
#include "report/rptdef.h"

#define CAPTURE_ROWS 256

struct capture {
	struct rowsink sink;
	char names[RPT_MAX_COLUMNS + 64][RPT_NAME_MAX + 8]; /* outlive the report */
	size_t ncols;
	char header[8192];
	char rows[CAPTURE_ROWS][8192];
	bool marked[CAPTURE_ROWS];
	size_t nrows;    /* rows kept */
	size_t total;    /* rows written */
	bool ended;
};

extern struct capture cap;

/* cap emptied, its sink ready to hand a report. */
struct rowsink *capture_sink(void);

/* The value of column name in row r of cap (a test failure where there is
 * no such row or column). */
const char *cell(size_t r, const char *name);

#endif
