/* csvout.c: the CSV writer of reports. See csvout.h. */
#include <stdlib.h>
#include <string.h>

#include "out/cell.h"
#include "out/csvout.h"
#include "out/csvw.h"

struct csvout {
	struct rowsink sink;  /* first: the sink is the writer */
	struct csvw w;
	const struct sink_column *cols;
	size_t ncols;
	size_t *run;   /* of each column: numeric columns from it on, 0 for text */
	struct cell_stamp_memo memo;
};

static pm_status
begin(struct rowsink *s, const struct sink_column *cols, size_t ncols, bool form)
{
	struct csvout *c = (struct csvout *)s;

	(void)form;
	c->cols = cols;
	c->ncols = ncols;
	free(c->run);
	if (!(c->run = malloc((ncols + 1) * sizeof *c->run)))
		return PM_E_NOMEM;
	c->run[ncols] = 0;
	for (size_t i = ncols; i-- > 0;)
		c->run[i] = cols[i].numeric ? c->run[i + 1] + 1 : 0;
	for (size_t i = 0; i < ncols; i++)
		csvw_text(&c->w, cols[i].name, strlen(cols[i].name));
	csvw_end_row(&c->w);
	return PM_OK;
}

/* n numeric cells: they need no quoting, so room for all of them and
 * their commas is made once, and each is formatted in place; those with a
 * formula in plan (when not NULL) worked out from x. false when one does
 * not fit 64 bits. */
static bool
figures(struct csvw *w, const struct sink_cell *cells, size_t n,
        const struct sink_formula *plan, const uint64_t *x, unsigned have)
{
	char *p, *at;

	if (!csvw_reserve(w, n * (CELL_FORMAT_MAX + 1)))
		return true;
	at = w->line + w->len;
	p = plan ? cell_join_x(at, cells, plan, n, x, have, ',', w->fields > 0)
	         : cell_join(at, cells, n, ',', w->fields > 0);
	if (!p)
		return false;
	w->fields += (unsigned)n;
	w->len = (size_t)(p - w->line);
	return true;
}

/* A stamp is never quoted: in place too. */
static void
stamp(struct csvout *c, const struct sink_cell *cell)
{
	struct csvw *w = &c->w;
	char *p;

	if (!csvw_reserve(w, CELL_FORMAT_MAX + 1))
		return;
	p = w->line + w->len;
	if (w->fields++)
		*p++ = ',';
	w->len = (size_t)(p - w->line) + cell_stamp(cell, p, &c->memo);
}

/* The row's fields, the figures with a formula in plan worked out from x;
 * false, with the line as it was, when one does not fit 64 bits. */
static bool
put(struct csvout *c, const struct sink_cell *cells, const struct sink_formula *plan,
    const uint64_t *x, unsigned have)
{
	size_t len = c->w.len;
	unsigned fields = c->w.fields;

	for (size_t i = 0, n; i < c->ncols; i += n) {
		bool formula = plan && plan[i].from != SINK_FROM_CELL;

		n = c->run[i] ? c->run[i] : 1;
		if (c->run[i] || formula ||
		    (cells[i].kind != SINK_STAMP && cells[i].kind != SINK_TEXT)) {
			if (!figures(&c->w, cells + i, n, plan ? plan + i : NULL, x, have)) {
				c->w.len = len;
				c->w.fields = fields;
				return false;
			}
		} else if (cells[i].kind == SINK_STAMP) {
			stamp(c, &cells[i]);
		} else {
			csvw_text(&c->w, cells[i].v.text.s, cells[i].v.text.n);
		}
	}
	csvw_end_row(&c->w);
	return true;
}

static void
row(struct rowsink *s, const struct sink_cell *cells, bool marked)
{
	(void)marked;
	(void)put((struct csvout *)s, cells, NULL, NULL, 0);
}

static bool
row_x(struct rowsink *s, const struct sink_cell *cells, const struct sink_formula *plan,
      const uint64_t *x, unsigned have, bool marked)
{
	(void)marked;
	return put((struct csvout *)s, cells, plan, x, have);
}

static pm_status
end(struct rowsink *s, const struct report_meta *m)
{
	(void)m;
	return csvw_finish(&((struct csvout *)s)->w);
}

static void
close_sink(struct rowsink *s)
{
	struct csvout *c = (struct csvout *)s;

	csvw_free(&c->w);
	free(c->run);
	free(c);
}

pm_status
csvout_open(struct rowsink **out, FILE *fp)
{
	struct csvout *c = calloc(1, sizeof *c);
	pm_status st;

	*out = NULL;
	if (!c)
		return PM_E_NOMEM;
	if ((st = csvw_init(&c->w, fp)) != PM_OK) {
		free(c);
		return st;
	}
	c->sink = (struct rowsink){ begin, row, end, close_sink, row_x };
	*out = &c->sink;
	return PM_OK;
}
