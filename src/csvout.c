/* csvout.c: the CSV writer of reports. See csvout.h. */
#include <stdlib.h>
#include <string.h>

#include "csvout.h"
#include "csvw.h"

struct csvout {
	struct rowsink sink;  /* first: the sink is the writer */
	struct csvw w;
	const struct sink_column *cols;
	size_t ncols;
};

static pm_status
begin(struct rowsink *s, const struct sink_column *cols, size_t ncols, bool form)
{
	struct csvout *c = (struct csvout *)s;

	(void)form;
	c->cols = cols;
	c->ncols = ncols;
	for (size_t i = 0; i < ncols; i++)
		csvw_text(&c->w, cols[i].name, strlen(cols[i].name));
	csvw_end_row(&c->w);
	return PM_OK;
}

static void
row(struct rowsink *s, const struct sink_cell *cells, bool marked)
{
	struct csvout *c = (struct csvout *)s;

	(void)marked;
	for (size_t i = 0; i < c->ncols; i++)
		if (c->cols[i].numeric)
			csvw_raw(&c->w, cells[i].s, cells[i].n);
		else
			csvw_text(&c->w, cells[i].s, cells[i].n);
	csvw_end_row(&c->w);
}

static pm_status
end(struct rowsink *s, const struct report_meta *m)
{
	(void)m;
	return csvw_status(&((struct csvout *)s)->w);
}

static void
close_sink(struct rowsink *s)
{
	struct csvout *c = (struct csvout *)s;

	csvw_free(&c->w);
	free(c);
}

struct rowsink *
csvout_open(FILE *fp)
{
	struct csvout *c = calloc(1, sizeof *c);

	if (!c)
		return NULL;
	if (csvw_init(&c->w, fp) != PM_OK) {
		free(c);
		return NULL;
	}
	c->sink = (struct rowsink){ begin, row, end, close_sink };
	return &c->sink;
}
