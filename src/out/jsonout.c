/* jsonout.c: the JSON lines writer of reports. See jsonout.h. */
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "out/cell.h"
#include "out/jsonout.h"
#include "out/jsonstr.h"

struct jsonout {
	struct rowsink sink;  /* first: the sink is the writer */
	FILE *fp;
	size_t ncols;
	char *keys;           /* each column's "name": , one after the other */
	size_t *key_end;      /* where each column's ends in keys */
	size_t keys_len;
	char *line;
	size_t cap;
	bool failed;
};

static pm_status
begin(struct rowsink *s, const struct sink_column *cols, size_t ncols, bool form)
{
	struct jsonout *j = (struct jsonout *)s;
	size_t room = 0, at = 0;

	(void)form;
	for (size_t i = 0; i < ncols; i++)
		room += JSON_STRING_MAX(strlen(cols[i].name)) + 1;
	free(j->keys);
	free(j->key_end);
	j->keys = malloc(room + 1);
	j->key_end = malloc((ncols + 1) * sizeof *j->key_end);
	if (!j->keys || !j->key_end)
		return PM_E_NOMEM;
	for (size_t i = 0; i < ncols; i++) {
		at += json_string(j->keys + at, cols[i].name, strlen(cols[i].name));
		j->keys[at++] = ':';
		j->key_end[i] = at;
	}
	j->ncols = ncols;
	j->keys_len = at;
	return PM_OK;
}

/* A cell as a JSON value at o; returns its length. */
static size_t
value(char *o, const struct sink_cell *c)
{
	size_t n;

	switch ((enum sink_kind)c->kind) {
	case SINK_TEXT:
		return json_string(o, c->v.text.s, c->v.text.n);
	case SINK_STAMP:
		n = cell_format(c, o + 1);
		o[0] = o[n + 1] = '"';
		return n + 2;
	case SINK_INTEGER:
	case SINK_FRACTION:
	case SINK_REAL:
		if ((n = cell_format(c, o)) != 0)
			return n;
		break;
	case SINK_EMPTY:
		break;
	}
	memcpy(o, "null", 4);
	return 4;
}

static void
row(struct rowsink *s, const struct sink_cell *cells, bool marked)
{
	struct jsonout *j = (struct jsonout *)s;
	size_t need = 3 + j->keys_len, len = 0;   /* {, } and LF, then the keys */

	(void)marked;
	for (size_t i = 0; i < j->ncols; i++)   /* a comma and the value */
		need += 1 + (cells[i].kind == SINK_TEXT ? JSON_STRING_MAX(cells[i].v.text.n)
		                                        : CELL_FORMAT_MAX + 2);
	if (!grow_table((void **)&j->line, &j->cap, need, 1)) {
		j->failed = true;
		return;
	}
	j->line[len++] = '{';
	for (size_t i = 0; i < j->ncols; i++) {
		size_t from = i ? j->key_end[i - 1] : 0;
		if (i)
			j->line[len++] = ',';
		memcpy(j->line + len, j->keys + from, j->key_end[i] - from);
		len += j->key_end[i] - from;
		len += value(j->line + len, &cells[i]);
	}
	j->line[len++] = '}';
	j->line[len++] = '\n';
	if (fwrite(j->line, 1, len, j->fp) != len)
		j->failed = true;
}

static pm_status
end(struct rowsink *s, const struct report_meta *m)
{
	struct jsonout *j = (struct jsonout *)s;

	(void)m;
	return j->failed || ferror(j->fp) ? PM_E_WRITE : PM_OK;
}

static void
close_sink(struct rowsink *s)
{
	struct jsonout *j = (struct jsonout *)s;

	free(j->keys);
	free(j->key_end);
	free(j->line);
	free(j);
}

pm_status
jsonout_open(struct rowsink **out, FILE *fp)
{
	struct jsonout *j = calloc(1, sizeof *j);

	*out = NULL;
	if (!j)
		return PM_E_NOMEM;
	j->fp = fp;
	j->sink = (struct rowsink){ begin, row, end, close_sink, NULL };
	*out = &j->sink;
	return PM_OK;
}
