/* textout.c: the fixed-width writer of reports. See textout.h. */
#include <stdlib.h>
#include <string.h>

#include "core/ebcdic.h"
#include "out/cell.h"
#include "out/textout.h"
#include "core/tzone.h"

#define GAP 2          /* blanks between columns */
#define TITLE_LINES 6  /* title, description, input, period, run, blank */
#define MARK " *"
#define MARK_NOTE "* the row includes incomplete intervals (parts missing)"

struct held_cell {
	size_t off, n;
};

struct textout {
	struct rowsink sink;  /* first: the sink is the writer */
	FILE *fp;
	struct textout_opts o;
	struct conv *conv;
	const struct sink_column *cols;
	size_t ncols;
	bool form;
	/* the rows, held */
	char *data;
	size_t len, cap;
	struct held_cell *cells;
	size_t ncells, cells_cap;
	bool *marks;
	size_t nrows, rows_cap;
	bool any_mark;
	bool failed;          /* out of memory while holding rows */
	unsigned *width;
	/* the page being written */
	const struct report_meta *meta;
	unsigned page, on_page;
	unsigned panel_no, npanels;
	size_t *pcols;        /* columns of the current panel */
	size_t npcols;
	unsigned line_width;  /* for the page number */
	char *line;
	size_t line_len, line_cap;
	char *conv_buf;
	size_t conv_cap;
	bool write_failed;
};

/* ---------------------------------------------------------------------- */
/* Holding rows */

static bool
reserve(void **p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return true;
	while (n < need)
		n *= 2;
	if (!(q = realloc(*p, n * size)))
		return false;
	*p = q;
	*cap = n;
	return true;
}

static pm_status
begin(struct rowsink *s, const struct sink_column *cols, size_t ncols, bool form)
{
	struct textout *t = (struct textout *)s;

	t->cols = cols;
	t->ncols = ncols;
	t->form = form;
	t->width = calloc(ncols + 1, sizeof *t->width);
	t->pcols = calloc(ncols + 1, sizeof *t->pcols);
	return t->width && t->pcols ? PM_OK : PM_E_NOMEM;
}

/* The row's cells as text, held: widths and the period are known only
 * at the end. */
static void
row(struct rowsink *s, const struct sink_cell *cells, bool marked)
{
	struct textout *t = (struct textout *)s;
	size_t bytes = 0;

	for (size_t i = 0; i < t->ncols; i++)
		bytes += cells[i].kind == SINK_TEXT ? cells[i].v.text.n : CELL_FORMAT_MAX;
	if (!reserve((void **)&t->data, &t->cap, t->len + bytes, 1) ||
	    !reserve((void **)&t->cells, &t->cells_cap, t->ncells + t->ncols, sizeof *t->cells) ||
	    !reserve((void **)&t->marks, &t->rows_cap, t->nrows + 1, sizeof *t->marks)) {
		t->failed = true;
		return;
	}
	for (size_t i = 0; i < t->ncols; i++) {
		size_t n;

		if (cells[i].kind == SINK_TEXT) {
			n = cells[i].v.text.n;
			memcpy(t->data + t->len, cells[i].v.text.s, n);
		} else {
			n = cell_format(&cells[i], t->data + t->len);
		}
		t->cells[t->ncells++] = (struct held_cell){ t->len, n };
		t->len += n;
	}
	t->marks[t->nrows++] = marked;
	t->any_mark = t->any_mark || marked;
}

static const char *
cell_text(const struct textout *t, size_t row, size_t col, size_t *n)
{
	const struct held_cell *c = &t->cells[row * t->ncols + col];

	*n = c->n;
	return t->data + c->off;
}

/* ---------------------------------------------------------------------- */
/* Lines */

static void
put(struct textout *t, const char *s, size_t n)
{
	if (!reserve((void **)&t->line, &t->line_cap, t->line_len + n + 1, 1)) {
		t->write_failed = true;
		return;
	}
	memcpy(t->line + t->line_len, s, n);
	t->line_len += n;
}

static void
put_str(struct textout *t, const char *s)
{
	put(t, s, strlen(s));
}

static void
pad_to(struct textout *t, size_t col)
{
	while (t->line_len < col)
		put(t, " ", 1);
}

/* s in a field of width w: numbers to the right, text to the left. */
static void
put_field(struct textout *t, const char *s, size_t n, unsigned w, bool right)
{
	size_t at = t->line_len;

	if (right)
		pad_to(t, at + (n < w ? w - n : 0));
	put(t, s, n);
	pad_to(t, at + w);
}

static void
write_bytes(struct textout *t, const char *s, size_t n)
{
	if (t->conv) {
		size_t need = 4 * n + 16, out;
		if (!reserve((void **)&t->conv_buf, &t->conv_cap, need, 1) ||
		    (out = conv_buffer(t->conv, s, n, t->conv_buf, t->conv_cap)) == (size_t)-1) {
			t->write_failed = true;
			return;
		}
		s = t->conv_buf;
		n = out;
	}
	if (fwrite(s, 1, n, t->fp) != n)
		t->write_failed = true;
}

/* Write the line built, as a page's line: ASA records are 133 bytes. */
static void
end_line(struct textout *t)
{
	bool first = t->on_page == 0;

	if (t->o.asa) {
		char cc = first ? '1' : ' ';
		if (t->line_len > TEXTOUT_ASA_WIDTH)
			t->line_len = TEXTOUT_ASA_WIDTH;
		pad_to(t, TEXTOUT_ASA_WIDTH);
		write_bytes(t, &cc, 1);
	} else {
		while (t->line_len && t->line[t->line_len - 1] == ' ')
			t->line_len--;
		if (first && t->page > 1)
			write_bytes(t, "\f", 1);
	}
	put(t, "\n", 1);
	write_bytes(t, t->line, t->line_len);
	t->line_len = 0;
	if (++t->on_page == t->o.page_length)
		t->on_page = 0;
}

static void
put_stamp(struct textout *t, int64_t stamp)
{
	char s[TZONE_TEXT];

	tzone_format(t->meta->zone, stamp, s);
	put_str(t, s);
}

static void
title_block(struct textout *t)
{
	const struct report_meta *m = t->meta;
	char page[48];

	put_str(t, "pmimrpt ");
	put_str(t, m->name);
	put_str(t, ": ");
	put_str(t, m->title);
	if (t->npanels > 1) {
		snprintf(page, sizeof page, " (panel %u of %u)", t->panel_no + 1, t->npanels);
		put_str(t, page);
	}
	snprintf(page, sizeof page, "Page %u", t->page);
	pad_to(t, t->line_width > strlen(page) + t->line_len + GAP
	          ? t->line_width - strlen(page) : t->line_len + GAP);
	put_str(t, page);
	end_line(t);
	put_str(t, m->description);
	end_line(t);
	put_str(t, "Input:  ");
	for (size_t i = 0; i < m->ninputs; i++) {
		put_str(t, i ? ", " : "");
		put_str(t, strcmp(m->inputs[i], "-") ? m->inputs[i] : "(standard input)");
	}
	end_line(t);
	put_str(t, "Period: ");
	if (m->any_interval) {
		char n[96];
		put_stamp(t, m->first_start);
		put_str(t, " to ");
		put_stamp(t, m->last_end);
		if (m->counted)
			snprintf(n, sizeof n, "; %llu %s%s; rows: %s",
			         (unsigned long long)m->intervals, m->counted,
			         m->intervals == 1 ? "" : "s", m->grouping);
		else
			snprintf(n, sizeof n, "; %llu interval%s (%llu incomplete); rows: %s",
			         (unsigned long long)m->intervals, m->intervals == 1 ? "" : "s",
			         (unsigned long long)m->incomplete, m->grouping);
		put_str(t, n);
	} else {
		put_str(t, m->counted ? "no values selected" : "no intervals selected");
	}
	end_line(t);
	put_str(t, "Run:    ");
	put_str(t, m->run_time);
	end_line(t);
	end_line(t);
}

static void
headings(struct textout *t)
{
	for (size_t i = 0; i < t->npcols; i++) {
		const struct sink_column *c = &t->cols[t->pcols[i]];
		if (i)
			pad_to(t, t->line_len + GAP);
		put_field(t, c->heading, strlen(c->heading), t->width[t->pcols[i]], c->numeric);
	}
	end_line(t);
	for (size_t i = 0; i < t->npcols; i++) {
		if (i)
			pad_to(t, t->line_len + GAP);
		for (unsigned w = 0; w < t->width[t->pcols[i]]; w++)
			put(t, "-", 1);
	}
	end_line(t);
}

/* Open a page when the last one is full (or none is open). */
static void
body_line(struct textout *t)
{
	/* the line to come is built already: hold it while the page opens */
	if (t->on_page == 0) {
		char *held = t->line;
		size_t len = t->line_len, cap = t->line_cap;
		t->line = NULL;
		t->line_len = t->line_cap = 0;
		t->page++;
		title_block(t);
		if (!t->form)
			headings(t);
		free(t->line);
		t->line = held;
		t->line_len = len;
		t->line_cap = cap;
	}
	end_line(t);
}

static void
new_page(struct textout *t)
{
	t->on_page = 0;
}

/* ---------------------------------------------------------------------- */
/* Tables */

static void
compute_widths(struct textout *t)
{
	for (size_t c = 0; c < t->ncols; c++) {
		size_t w = strlen(t->cols[c].heading), n;
		if (t->cols[c].width > w)
			w = t->cols[c].width;
		for (size_t r = 0; r < t->nrows; r++) {
			cell_text(t, r, c, &n);
			if (n > w)
				w = n;
		}
		t->width[c] = (unsigned)w;
	}
}

/* The columns of panel p: the keys, then the value columns that fit
 * (at least one). Returns the number of panels when p is past them. */
static unsigned
layout_panel(struct textout *t, unsigned p)
{
	size_t keys = 0, used = 0, limit = t->o.asa ? TEXTOUT_ASA_WIDTH : SIZE_MAX;
	unsigned panel = 0;

	if (t->any_mark && limit != SIZE_MAX)
		limit -= strlen(MARK);
	for (; keys < t->ncols && t->cols[keys].key; keys++)
		used += (keys ? GAP : 0) + t->width[keys];
	t->npcols = 0;
	for (size_t c = keys; c < t->ncols;) {
		size_t w = used, first = c;
		while (c < t->ncols && (c == first || w + GAP + t->width[c] <= limit))
			w += (w ? GAP : 0) + t->width[c++];
		if (panel++ == p)
			for (size_t i = 0; i < keys + (c - first); i++)
				t->pcols[t->npcols++] = i < keys ? i : first + (i - keys);
	}
	if (panel == 0 && p == 0) /* keys only */
		for (size_t i = 0; i < keys; i++)
			t->pcols[t->npcols++] = i;
	return panel ? panel : 1;
}

static void
table(struct textout *t)
{
	t->npanels = layout_panel(t, UINT32_MAX);
	for (t->panel_no = 0; t->panel_no < t->npanels; t->panel_no++) {
		layout_panel(t, t->panel_no);
		t->line_width = 0;
		for (size_t i = 0; i < t->npcols; i++)
			t->line_width += (i ? GAP : 0) + t->width[t->pcols[i]];
		if (t->o.asa || t->line_width < 80)
			t->line_width = t->o.asa ? TEXTOUT_ASA_WIDTH : 80;
		new_page(t);
		for (size_t r = 0; r < t->nrows; r++) {
			for (size_t i = 0; i < t->npcols; i++) {
				size_t c = t->pcols[i], n;
				const char *s = cell_text(t, r, c, &n);
				if (i)
					pad_to(t, t->line_len + GAP);
				put_field(t, s, n, t->width[c], t->cols[c].numeric);
			}
			if (t->marks[r])
				put_str(t, MARK);
			body_line(t);
		}
		if (t->nrows == 0) {
			put_str(t, "(no rows)");
			body_line(t);
		}
		if (t->any_mark) {
			body_line(t);
			put_str(t, MARK_NOTE);
			body_line(t);
		}
	}
}

/* ---------------------------------------------------------------------- */
/* Forms: per row, its single columns as "heading  value" pairs, set down
 * as many columns as the line holds; then each block (the columns of a
 * "top" or an "each bucket" block) as a table of a line per rank or
 * bucket, its columns as wide as their widest row. */

#define FORM_GAP 4     /* blanks between the columns of pairs */

struct block {
	size_t first;      /* its first column */
	size_t per_row;    /* columns a row */
	size_t nrows;
	unsigned label_w, desc_w; /* of the rows' labels; 0: none (a "top") */
};

static bool
in_block(const struct sink_column *c)
{
	return c->rank || c->row_label;
}

static bool
same_block_row(const struct sink_column *a, const struct sink_column *b)
{
	if (a->rank || b->rank)
		return a->rank == b->rank;
	return a->row_label && b->row_label && strcmp(a->row_label, b->row_label) == 0;
}

/* The block that starts at column c: its rows run until a column of its
 * first row comes again (another block over the same buckets) or the
 * block's columns end. */
static struct block
find_block(const struct textout *t, size_t c)
{
	struct block b = { .first = c };
	size_t end = c;

	while (end < t->ncols && same_block_row(&t->cols[c], &t->cols[end]))
		end++;
	b.per_row = end - c;
	while (end < t->ncols && in_block(&t->cols[end]) &&
	       !t->cols[end].rank == !t->cols[c].rank &&
	       !same_block_row(&t->cols[c], &t->cols[end]))
		end++;
	b.nrows = (end - c) / b.per_row;
	return b;
}

/* The widths of a block's table: in width[] at its first row's columns. */
static void
block_widths(struct textout *t, struct block *b)
{
	for (size_t k = 0; k < b->per_row; k++) {
		const struct sink_column *col = &t->cols[b->first + k];
		size_t w = strlen(col->block_heading);
		if (col->width > w)
			w = col->width;
		for (size_t br = 0; br < b->nrows; br++)
			for (size_t r = 0; r < t->nrows; r++) {
				size_t n;
				cell_text(t, r, b->first + br * b->per_row + k, &n);
				if (n > w)
					w = n;
			}
		t->width[b->first + k] = (unsigned)w;
	}
	for (size_t br = 0; br < b->nrows; br++) {
		const struct sink_column *col = &t->cols[b->first + br * b->per_row];
		if (col->row_label && strlen(col->row_label) > b->label_w)
			b->label_w = (unsigned)strlen(col->row_label);
		if (col->row_desc && strlen(col->row_desc) > b->desc_w)
			b->desc_w = (unsigned)strlen(col->row_desc);
	}
}

/* A line of a block's table: its headings, their rules, or row br of data
 * row r. */
enum block_line { BLOCK_HEADINGS, BLOCK_RULES, BLOCK_ROW };

static void
block_line(struct textout *t, const struct block *b, enum block_line what,
           size_t r, size_t br)
{
	const struct sink_column *first = &t->cols[b->first + br * b->per_row];
	unsigned lead[2] = { b->label_w, b->desc_w };
	const char *text[2] = { first->row_label, first->row_desc };

	for (size_t i = 0; i < 2; i++) {
		if (!lead[i])
			continue;
		if (i)
			pad_to(t, t->line_len + GAP);
		if (what == BLOCK_ROW)
			put_field(t, text[i], strlen(text[i]), lead[i], false);
		else
			for (unsigned w = 0; w < lead[i]; w++)
				put(t, what == BLOCK_RULES ? "-" : " ", 1);
	}
	for (size_t k = 0; k < b->per_row; k++) {
		size_t c = b->first + br * b->per_row + k, n;
		unsigned w = t->width[b->first + k];
		const char *s;
		if (k || b->label_w)
			pad_to(t, t->line_len + GAP);
		if (what == BLOCK_HEADINGS) {
			s = t->cols[b->first + k].block_heading;
			put_field(t, s, strlen(s), w, t->cols[c].numeric);
		} else if (what == BLOCK_RULES) {
			for (unsigned i = 0; i < w; i++)
				put(t, "-", 1);
		} else {
			s = cell_text(t, r, c, &n);
			put_field(t, s, n, w, t->cols[c].numeric);
		}
	}
	body_line(t);
}

static void
form(struct textout *t)
{
	size_t hw = 0, vw = 0, tw = 0, pair, nsingle = 0, nblocks = 0, grid, lines, down;
	struct block *blocks = calloc(t->ncols + 1, sizeof *blocks);
	size_t *single = calloc(t->ncols + 1, sizeof *single);

	if (!blocks || !single) {
		free(blocks);
		free(single);
		t->write_failed = true;
		return;
	}
	t->npanels = 1;
	t->panel_no = 0;
	t->line_width = t->o.asa ? TEXTOUT_ASA_WIDTH : 80;
	for (size_t c = 0; c < t->ncols;) {
		if (in_block(&t->cols[c])) {
			struct block *b = &blocks[nblocks++];
			*b = find_block(t, c);
			block_widths(t, b);
			c += b->per_row * b->nrows;
			continue;
		}
		/* the values' width: numbers end where the widest value does */
		size_t *w = t->cols[c].numeric ? &vw : &tw;
		if (strlen(t->cols[c].heading) > hw)
			hw = strlen(t->cols[c].heading);
		if (t->cols[c].width > *w)
			*w = t->cols[c].width;
		for (size_t r = 0; r < t->nrows; r++) {
			size_t n;
			cell_text(t, r, c, &n);
			if (n > *w)
				*w = n;
		}
		single[nsingle++] = c++;
	}
	/* the pairs down as many columns as the line holds */
	vw = vw > tw ? vw : tw;
	pair = hw + GAP + vw;
	grid = (t->line_width + FORM_GAP) / (pair + FORM_GAP);
	grid = grid ? grid : 1;
	down = nsingle ? (nsingle + grid - 1) / grid : 0; /* lines of pairs */
	lines = down + 1;
	for (size_t b = 0; b < nblocks; b++)
		lines += 3 + blocks[b].nrows;
	new_page(t);
	for (size_t r = 0; r < t->nrows; r++) {
		if (t->on_page && t->on_page + lines + t->marks[r] > t->o.page_length)
			new_page(t);
		for (size_t l = 0; l < down; l++) {
			for (size_t g = 0; g < grid && g * down + l < nsingle; g++) {
				size_t c = single[g * down + l], n;
				const char *s = cell_text(t, r, c, &n);
				pad_to(t, g * (pair + FORM_GAP));
				put_field(t, t->cols[c].heading, strlen(t->cols[c].heading),
				          (unsigned)hw, false);
				pad_to(t, t->line_len + GAP);
				put_field(t, s, n, t->cols[c].numeric ? (unsigned)vw : 0,
				          t->cols[c].numeric);
			}
			body_line(t);
		}
		if (t->marks[r]) {
			put_str(t, MARK_NOTE);
			body_line(t);
		}
		for (size_t b = 0; b < nblocks; b++) {
			/* a table that fits a page starts on one */
			if (t->on_page && t->on_page + 3 + blocks[b].nrows > t->o.page_length &&
			    TITLE_LINES + 3 + blocks[b].nrows <= t->o.page_length)
				new_page(t);
			else
				body_line(t);
			block_line(t, &blocks[b], BLOCK_HEADINGS, r, 0);
			block_line(t, &blocks[b], BLOCK_RULES, r, 0);
			for (size_t br = 0; br < blocks[b].nrows; br++)
				block_line(t, &blocks[b], BLOCK_ROW, r, br);
		}
		body_line(t);
	}
	if (t->nrows == 0) {
		put_str(t, "(no rows)");
		body_line(t);
	}
	free(blocks);
	free(single);
}

static pm_status
end(struct rowsink *s, const struct report_meta *m)
{
	struct textout *t = (struct textout *)s;

	if (t->failed)
		return PM_E_NOMEM;
	t->meta = m;
	compute_widths(t);
	if (t->form)
		form(t);
	else
		table(t);
	return t->write_failed || ferror(t->fp) ? PM_E_WRITE : PM_OK;
}

static void
close_sink(struct rowsink *s)
{
	struct textout *t = (struct textout *)s;

	conv_close(t->conv);
	free(t->data);
	free(t->cells);
	free(t->marks);
	free(t->width);
	free(t->pcols);
	free(t->line);
	free(t->conv_buf);
	free(t);
}

pm_status
textout_open(struct rowsink **out, FILE *fp, const struct textout_opts *o)
{
	struct textout *t = calloc(1, sizeof *t);
	pm_status st;

	*out = NULL;
	if (!t)
		return PM_E_NOMEM;
	t->fp = fp;
	t->o = *o;
	if (o->encoding && (st = conv_open(&t->conv, "UTF-8", o->encoding)) != PM_OK) {
		free(t);
		return st;
	}
	t->sink = (struct rowsink){ begin, row, end, close_sink, NULL };
	*out = &t->sink;
	return PM_OK;
}
