/* columns.c: the columns a user picks. See columns.h. */
#include <stdlib.h>
#include <string.h>

#include "out/columns.h"

struct columns {
	struct rowsink sink;      /* first: the sink is the adapter */
	struct rowsink *inner;
	struct diag *diag;
	char *list;               /* the names, each ended by a NUL */
	size_t nnames;
	size_t *from;             /* of each name: the report's column */
	struct sink_column *cols; /* what inner is told */
	struct sink_cell *cells;  /* a row's cells, in the order named */
};

/* The report's columns, ", " between them, for a message; NULL when out
 * of memory. */
static char *
column_list(const struct sink_column *cols, size_t ncols)
{
	size_t len = 1, at = 0;
	char *s;

	for (size_t i = 0; i < ncols; i++)
		len += strlen(cols[i].name) + 2;
	if (!(s = malloc(len)))
		return NULL;
	for (size_t i = 0; i < ncols; i++) {
		size_t n = strlen(cols[i].name);
		if (i)
			memcpy(s + at, ", ", 2), at += 2;
		memcpy(s + at, cols[i].name, n);
		at += n;
	}
	s[at] = '\0';
	return s;
}

/* The report's column of name, or ncols. */
static size_t
column_of(const struct sink_column *cols, size_t ncols, const char *name)
{
	size_t i = 0;

	while (i < ncols && strcmp(cols[i].name, name) != 0)
		i++;
	return i;
}

/* Each name's column in from[]; PM_E_USAGE, said, when one is empty,
 * unknown or repeated. */
static pm_status
match(struct columns *c, const struct sink_column *cols, size_t ncols)
{
	const char *name = c->list;

	for (size_t k = 0; k < c->nnames; k++, name += strlen(name) + 1) {
		char *known;
		if (!*name) {
			diag_usage(c->diag, "--columns: an empty column name (name %zu of %zu)",
			           k + 1, c->nnames);
			return PM_E_USAGE;
		}
		if ((c->from[k] = column_of(cols, ncols, name)) == ncols) {
			if (!(known = column_list(cols, ncols)))
				return PM_E_NOMEM;
			diag_usage(c->diag, "--columns: the report has no column '%s'; its columns: %s",
			           name, known);
			free(known);
			return PM_E_USAGE;
		}
		for (size_t e = 0; e < k; e++)
			if (c->from[e] == c->from[k]) {
				diag_usage(c->diag, "--columns names '%s' twice", name);
				return PM_E_USAGE;
			}
	}
	return PM_OK;
}

/* Whether the columns of the report's top block (rank > 0, at its end)
 * end the list, all of them and in their order. */
static bool
top_block_whole(const struct columns *c, const struct sink_column *cols, size_t ncols)
{
	size_t first = ncols;

	while (first > 0 && cols[first - 1].rank)
		first--;
	if (ncols - first > c->nnames)
		return false;
	for (size_t i = first; i < ncols; i++)
		if (c->from[c->nnames - (ncols - i)] != i)
			return false;
	return true;
}

static pm_status
begin(struct rowsink *s, const struct sink_column *cols, size_t ncols, bool form)
{
	struct columns *c = (struct columns *)s;
	pm_status st = match(c, cols, ncols);
	bool ranks;

	if (st != PM_OK)
		return st;
	ranks = top_block_whole(c, cols, ncols);
	for (size_t k = 0; k < c->nnames; k++) {
		c->cols[k] = cols[c->from[k]];
		if (!ranks && c->cols[k].rank) {
			/* a line of the form: its heading the rank's, "bucket",
			 * would not say which */
			c->cols[k].rank = 0;
			c->cols[k].heading = c->cols[k].name;
		}
	}
	return c->inner->begin(c->inner, c->cols, c->nnames, form);
}

static void
row(struct rowsink *s, const struct sink_cell *cells, bool marked)
{
	struct columns *c = (struct columns *)s;

	for (size_t k = 0; k < c->nnames; k++)
		c->cells[k] = cells[c->from[k]];
	c->inner->row(c->inner, c->cells, marked);
}

static pm_status
end(struct rowsink *s, const struct report_meta *m)
{
	struct columns *c = (struct columns *)s;

	return c->inner->end(c->inner, m);
}

static void
close_sink(struct rowsink *s)
{
	struct columns *c = (struct columns *)s;

	c->inner->close(c->inner);
	free(c->list);
	free(c->from);
	free(c->cols);
	free(c->cells);
	free(c);
}

pm_status
columns_open(struct rowsink **out, struct rowsink *inner, const char *list,
             struct diag *d)
{
	struct columns *c = calloc(1, sizeof *c);
	size_t n = 1;

	*out = NULL;
	if (!c) {
		inner->close(inner);
		return PM_E_NOMEM;
	}
	for (const char *p = list; *p; p++)
		n += *p == ',';
	c->sink = (struct rowsink){ begin, row, end, close_sink, NULL };
	c->inner = inner;
	c->diag = d;
	c->nnames = n;
	c->list = strdup(list);
	c->from = calloc(n, sizeof *c->from);
	c->cols = calloc(n, sizeof *c->cols);
	c->cells = calloc(n, sizeof *c->cells);
	if (!c->list || !c->from || !c->cols || !c->cells) {
		close_sink(&c->sink);
		return PM_E_NOMEM;
	}
	for (char *p = c->list; *p; p++)
		if (*p == ',')
			*p = '\0';
	*out = &c->sink;
	return PM_OK;
}
