/* csvw.h: CSV rows (RFC 4180) built in a line buffer and written in
 * blocks. Numbers are appended unquoted; text goes through libcsv's quoting
 * only when it holds a comma, quote, or line break (libcsv is loaded then,
 * where it can be: a field that needs it, and the library cannot be had,
 * is a failed write, ELIBACC). */
#ifndef CSVW_H
#define CSVW_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/status.h"

struct csvw {
	FILE *fp;
	char *line;
	size_t len, cap;
	unsigned fields;   /* fields in the current row */
	int failed;        /* a write failed: PM_E_WRITE at the end */
	int no_library;    /* and it was libcsv that could not be loaded */
};

pm_status csvw_init(struct csvw *w, FILE *fp);
void csvw_free(struct csvw *w);

/* Room for more bytes past the line's end; 0 when memory ran out (the
 * row is then cut short and csvw_status gives PM_E_WRITE). */
int csvw_reserve(struct csvw *w, size_t more);

/* Append a text field (quoted when needed). */
void csvw_text(struct csvw *w, const char *s, size_t n);

/* csvw_raw when the line must grow first. */
void csvw_raw_growing(struct csvw *w, const char *s, size_t n);

/* n bytes from s to d, for the short fields of a report without a call:
 * two copies of a fixed size that overlap in the middle. */
static inline void
csvw_copy(char *d, const char *s, size_t n)
{
	if (n >= 8 && n <= 16) {
		memcpy(d, s, 8);
		memcpy(d + n - 8, s + n - 8, 8);
	} else if (n >= 4 && n < 8) {
		memcpy(d, s, 4);
		memcpy(d + n - 4, s + n - 4, 4);
	} else if (n > 0 && n < 4) {
		d[0] = s[0];
		d[n / 2] = s[n / 2];
		d[n - 1] = s[n - 1];
	} else if (n > 16) {
		memcpy(d, s, n);
	}
}

/* Append a field that needs no quoting (numbers, fixed names); n may be 0
 * for an empty field. Inline: a report writes every figure through it. */
static inline void
csvw_raw(struct csvw *w, const char *s, size_t n)
{
	char *p;

	if (w->cap - w->len <= n) {
		csvw_raw_growing(w, s, n);
		return;
	}
	p = w->line + w->len;
	if (w->fields++)
		*p++ = ',';
	w->len = (size_t)(p - w->line) + n;
	csvw_copy(p, s, n);
}

/* Rows are held and written a block at a time: a call a row, and the
 * copy into the stream's buffer, cost more than a short row's figures. */
#define CSVW_BLOCK 65536

/* End the row with CRLF-free "\n"; the rows held are written once they
 * fill a block. */
void csvw_end_row(struct csvw *w);

/* Write the rows still held; PM_E_WRITE if any write failed (errno then
 * ELIBACC if libcsv could not be loaded). */
pm_status csvw_finish(struct csvw *w);

#endif
