/* csvw.h: CSV rows (RFC 4180) built in a line buffer and written in one
 * go. Numbers are appended unquoted; text goes through libcsv's quoting
 * only when it holds a comma, quote, or line break. */
#ifndef CSVW_H
#define CSVW_H

#include <stddef.h>
#include <stdio.h>

#include "status.h"

struct csvw {
	FILE *fp;
	char *line;
	size_t len, cap;
	unsigned fields;   /* fields in the current row */
	int failed;        /* a write failed: PM_E_WRITE at the end */
};

pm_status csvw_init(struct csvw *w, FILE *fp);
void csvw_free(struct csvw *w);

/* Append a text field (quoted when needed). */
void csvw_text(struct csvw *w, const char *s, size_t n);
/* Append a field that needs no quoting (numbers, fixed names); n may be 0
 * for an empty field. */
void csvw_raw(struct csvw *w, const char *s, size_t n);
/* End the row with CRLF-free "\n" and write it. */
void csvw_end_row(struct csvw *w);

/* PM_E_WRITE if any write failed. */
pm_status csvw_status(const struct csvw *w);

#endif
