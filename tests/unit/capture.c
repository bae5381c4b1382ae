/* capture.c: the report tests' row sink. See capture.h. */
#include "check_main.h"
#include <string.h>

#include "capture.h"
#include "out/cell.h"

struct capture cap;

static pm_status
cap_begin(struct rowsink *s, const struct sink_column *cols, size_t n, bool form)
{
	struct capture *c = (struct capture *)s;

	(void)form;
	ck_assert_uint_le(n, sizeof c->names / sizeof c->names[0]);
	c->ncols = n;
	c->header[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		strcat(c->header, i ? "," : "");
		strcat(c->header, cols[i].name);
		strcpy(c->names[i], cols[i].name);
	}
	return PM_OK;
}

static void
cap_row(struct rowsink *s, const struct sink_cell *cells, bool marked)
{
	struct capture *c = (struct capture *)s;
	char *r = c->rows[c->nrows];

	c->total++;
	if (c->nrows == CAPTURE_ROWS)
		return;
	r[0] = '\0';
	for (size_t i = 0; i < c->ncols; i++) {
		char buf[CELL_FORMAT_MAX];
		size_t n;
		const char *text = cell_bytes(&cells[i], buf, &n);

		strcat(r, i ? "," : "");
		strncat(r, text, n);
	}
	c->marked[c->nrows++] = marked;
}

static pm_status
cap_end(struct rowsink *s, const struct report_meta *m)
{
	(void)m;
	((struct capture *)s)->ended = true;
	return PM_OK;
}

static void
cap_close(struct rowsink *s)
{
	(void)s;
}

struct rowsink *
capture_sink(void)
{
	memset(&cap, 0, sizeof cap);
	cap.sink = (struct rowsink){ cap_begin, cap_row, cap_end, cap_close, NULL };
	return &cap.sink;
}

const char *
cell(size_t r, const char *name)
{
	static char out[256];
	const char *p = cap.rows[r];

	ck_assert_uint_lt(r, cap.nrows);
	for (size_t i = 0; i < cap.ncols; i++) {
		size_t n = strcspn(p, ",");
		if (strcmp(cap.names[i], name) == 0) {
			ck_assert_uint_lt(n, sizeof out);
			memcpy(out, p, n);
			out[n] = '\0';
			return out;
		}
		p += n + (p[n] == ',');
	}
	ck_abort_msg("no column %s", name);
	return NULL;
}
