/* series_report.c: series frames grouped into rows (series_report.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fnv.h"
#include "core/grow.h"
#include "core/numparse.h"
#include "report/metric.h"
#include "report/rowrec.h"
#include "report/select.h"
#include "report/series_report.h"

#define STAMP_DECIMALS 3     /* Windows times have milliseconds */
#define NO_STAT UINT16_MAX

/* One counter of a group row: the engine's accumulator, and the windows
 * of its least and largest value. An elapsed time's group value is the
 * mean of its snapshots' values, as for every one-sample type (the
 * engine's ELAPSED_TIME average, the latest time since the earliest
 * start, spans reboots): its accumulator is a raw count of D - N, in
 * ticks of tb. */
struct stat {
	/* what every value reads first, then the accumulator: in the first
	 * two cache lines */
	bool typed;             /* acc holds the counter's type */
	bool ranged;            /* lo and hi are set */
	enum counter_type type;     /* the counter's */
	double lo_v, hi_v;
	uint64_t tb;                /* an elapsed time's clock */
	struct counter_acc acc;
	struct counter_window lo, hi;
};

/* A group row. */
struct row {
	uint32_t source;
	uint32_t key;           /* its names: a text of keys */
	int64_t period;         /* a period start, 0 (total), a frame number */
	int64_t first, last;    /* the span of its values */
	size_t slot;            /* its place in the index */
	uint32_t input;         /* where it first appeared: a text of inputs, */
	uint64_t seq;           /* and the rows made before it in that run */
};

/* Texts the report owns, each once, by number. */
struct texts {
	char **t;
	size_t n, cap;
	uint32_t *index;        /* open addressing: number + 1, 0 empty */
	size_t index_cap;
};

/* What the report makes of a series, found once. A row's key is the
 * names that make it, as one text (fields split by KEY_SEP): the series'
 * object, counter, instance and type name (rows counter), or its instance
 * (rows instance); by names, so that rows of partials merge. */
#define KEY_SEP '\x1f'

struct bound {
	bool known, kept;
	uint32_t key;           /* the row key: a text of keys */
	uint16_t stat;          /* its counter among a row's */
	enum counter_type type;
	uint32_t row;           /* the row it last went to, checked before */
};                              /* it is used again: rows are forgotten */

struct series_report {
	const struct rpt_def *def;
	const struct sources *src;
	struct report_opts o;
	struct rowsink *sink;
	struct diag *diag;
	struct source_filter filter;
	struct metric_fmt fmt[RPT_MAX_COLUMNS];
	uint16_t col_stat[RPT_MAX_COLUMNS];  /* by column: its stat, or NO_STAT */
	size_t nstats;                       /* per row */
	struct bound *bound;
	size_t nbound;
	struct texts keys;      /* the rows' keys */
	struct texts inputs;    /* the inputs rows first appeared in */
	uint64_t seq;           /* rows made */
	uint64_t seq_base;      /* rows of the partials merged: a partial's
	                           rows are made after theirs */
	bool merged;            /* rows came from partials: written in order
	                           of (input name, seq), as one run over the
	                           inputs in name order writes them */
	/* rows, their stats and their index by (source, period, key) */
	struct row *rows;
	size_t nrows, rows_cap;
	struct stat *stats;
	size_t stats_cap;
	uint32_t *index;
	size_t index_cap;
	struct rowrec rec;          /* --by=interval rows of partials */
	struct sink_column *cols;   /* the writer's, until the report closes */
	struct sink_cell *cells;
	size_t ncells;
	int64_t frame_no;
	uint64_t values, left_out;
	uint64_t offered, of_sources; /* snapshots, and those of --source */
	uint64_t of_rows;       /* values of the report's rows */
	size_t seen;            /* series of the catalogue bound so far */
	uint64_t series_kept;   /* series of the report's rows, with or
	                           without a value */
	int64_t first, last;
};


static bool
texts_rehash(struct texts *x)
{
	size_t cap = x->index_cap ? x->index_cap * 2 : 256;
	uint32_t *t = calloc(cap, sizeof *t);

	if (!t)
		return false;
	for (size_t i = 0; i < x->n; i++) {
		size_t at = (size_t)fnv_text(FNV_OFFSET, x->t[i]) & (cap - 1);
		while (t[at])
			at = (at + 1) & (cap - 1);
		t[at] = (uint32_t)(i + 1);
	}
	free(x->index);
	x->index = t;
	x->index_cap = cap;
	return true;
}

/* The number of text s, a copy added when new; false out of memory. */
static bool
texts_intern(struct texts *x, const char *s, uint32_t *id)
{
	size_t at, n = strlen(s) + 1;

	if (2 * (x->n + 1) > x->index_cap && !texts_rehash(x))
		return false;
	at = (size_t)fnv_text(FNV_OFFSET, s) & (x->index_cap - 1);
	for (; x->index[at]; at = (at + 1) & (x->index_cap - 1))
		if (strcmp(x->t[x->index[at] - 1], s) == 0) {
			*id = x->index[at] - 1;
			return true;
		}
	if (x->n >= UINT32_MAX - 1 ||
	    !grow_table((void **)&x->t, &x->cap, x->n + 1, sizeof *x->t) ||
	    !(x->t[x->n] = malloc(n)))
		return false;
	memcpy(x->t[x->n], s, n);
	x->index[at] = (uint32_t)(x->n + 1);
	*id = (uint32_t)x->n++;
	return true;
}

static void
texts_free(struct texts *x)
{
	for (size_t i = 0; i < x->n; i++)
		free(x->t[i]);
	free(x->t);
	free(x->index);
	*x = (struct texts){ 0 };
}

/* Whether a series' object or counter, number and name, is the one a
 * definition names: by a decimal number, the reader's names for it, or
 * its own name. */
static bool
names_match(const struct series_report *r, const char *want, uint32_t number,
            const char *name)
{
	uint64_t v;

	if (numparse_u64(want, UINT32_MAX, &v))
		return v == number;
	return strcmp(want, name) == 0 ||
	       (r->o.name_is && r->o.name_is(want, number, r->o.name_ctx));
}

/* The stats of a row: one per distinct counter its columns show. */
static void
assign_stats(struct series_report *r)
{
	const struct rpt_def *def = r->def;

	for (size_t c = 0; c < def->ncols; c++) {
		const struct rpt_column *col = &def->cols[c];
		r->col_stat[c] = NO_STAT;
		metric_fmt_bind(&r->fmt[c], col);
		if (!col->series)
			continue;
		if (def->rows == ROWS_COUNTER) {
			r->col_stat[c] = 0;
			r->nstats = 1;
			continue;
		}
		for (size_t e = 0; e < c && r->col_stat[c] == NO_STAT; e++)
			if (def->cols[e].series && strcmp(def->cols[e].counter, col->counter) == 0)
				r->col_stat[c] = r->col_stat[e];
		if (r->col_stat[c] == NO_STAT)
			r->col_stat[c] = (uint16_t)r->nstats++;
	}
}

/* Whether a column names the row: the names of its key (the series'
 * object, counter, instance and type, or the instance). */
static bool
names_row(const struct rpt_def *def, enum rpt_text t)
{
	return t == TEXT_INSTANCE || (def->rows == ROWS_COUNTER &&
	       (t == TEXT_OBJECT || t == TEXT_COUNTER || t == TEXT_TYPE));
}

static void
sink_columns(const struct series_report *r, struct sink_column *out, size_t *n)
{
	static const char *const keys[] = { "source", "period_start", "period_end" };
	const struct rpt_def *def = r->def;
	unsigned named = 0, names = def->rows == ROWS_COUNTER ? 4 : 1;
	bool seen[TEXT_TYPE + 1] = { false };

	for (size_t c = 0; c < def->ncols; c++)
		if (names_row(def, def->cols[c].text) && !seen[def->cols[c].text]) {
			seen[def->cols[c].text] = true;
			named++;
		}
	*n = 0;
	/* the row's key is primary when its columns name it all */
	for (size_t k = 0; k < 3; k++)
		out[(*n)++] = (struct sink_column){ .name = keys[k], .heading = keys[k],
		                                    .key = true, .primary = named == names };
	for (size_t c = 0; c < def->ncols; c++)
		out[(*n)++] = (struct sink_column){
			.name = def->cols[c].name, .heading = def->cols[c].heading,
			.numeric = def->cols[c].series, .width = def->cols[c].width,
			.key = def->cols[c].text == TEXT_INSTANCE && def->rows == ROWS_INSTANCE,
			.primary = named == names && names_row(def, def->cols[c].text),
			.decimals = (uint8_t)def->cols[c].decimals,
		};
}

pm_status
series_report_open(struct series_report **out, const struct rpt_def *def,
                   const struct sources *src, const struct report_opts *o,
                   struct rowsink *sink, struct diag *d)
{
	struct series_report *r = calloc(1, sizeof *r);
	size_t ncols;
	pm_status st;

	*out = NULL;
	if (!r)
		return PM_E_NOMEM;
	*r = (struct series_report){ .def = def, .src = src, .o = *o, .sink = sink,
	                             .diag = d, .first = INT64_MAX, .last = INT64_MIN };
	rowrec_init(&r->rec);
	r->ncells = def->ncols + 3;
	r->cols = calloc(r->ncells, sizeof *r->cols);
	r->cells = calloc(r->ncells, sizeof *r->cells);
	if (!r->cols || !r->cells || !source_filter_init(&r->filter, o, src)) {
		series_report_close(r);
		return PM_E_NOMEM;
	}
	assign_stats(r);
	sink_columns(r, r->cols, &ncols);
	st = sink->begin(sink, r->cols, ncols, def->layout == LAYOUT_FORM);
	if (st != PM_OK) {
		series_report_close(r);
		return st;
	}
	*out = r;
	return PM_OK;
}

void
series_report_close(struct series_report *r)
{
	if (!r)
		return;
	source_filter_free(&r->filter);
	free(r->bound);
	texts_free(&r->keys);
	texts_free(&r->inputs);
	free(r->rows);
	free(r->stats);
	free(r->index);
	rowrec_free(&r->rec);
	free(r->cols);
	free(r->cells);
	free(r);
}

/* ---------------------------------------------------------------------- */
/* Binding series to rows */


/* Field k of a key, n bytes at the pointer returned. */
static const char *
key_field(const char *key, unsigned k, size_t *n)
{
	for (; k > 0; k--) {
		const char *sep = strchr(key, KEY_SEP);
		if (!sep) {
			*n = 0;
			return "";
		}
		key = sep + 1;
	}
	*n = strcspn(key, "\x1f");
	return key;
}

/* The key of series s in this report's rows, interned. */
static bool
key_of(struct series_report *r, const struct series *s, uint32_t *id)
{
	const struct counter_type_info *ti = counter_type_info(s->type);
	const char *type = ti ? ti->name : "";
	size_t n = strlen(s->object_name) + strlen(s->counter_name) + strlen(s->instance) +
	           strlen(type) + 4;
	char *text;
	bool ok;

	if (r->def->rows == ROWS_INSTANCE)
		return texts_intern(&r->keys, s->instance, id);
	if (!(text = malloc(n)))
		return false;
	snprintf(text, n, "%s%c%s%c%s%c%s", s->object_name, KEY_SEP, s->counter_name, KEY_SEP,
	         s->instance, KEY_SEP, type);
	ok = texts_intern(&r->keys, text, id);
	free(text);
	return ok;
}

/* Whether the report keeps series s, and as what. */
static bool
bind_series(struct series_report *r, const struct series *s, uint32_t id, struct bound *b)
{
	const struct rpt_def *def = r->def;

	*b = (struct bound){ .known = true, .type = s->type };
	(void)id;
	if (def->object[0] && !names_match(r, def->object, s->object, s->object_name))
		return true;
	if (def->rows == ROWS_COUNTER) {
		b->kept = true;
		return key_of(r, s, &b->key);
	}
	for (size_t k = 0; k < r->nstats && !b->kept; k++) {
		size_t c = 0;
		while (r->col_stat[c] != k)
			c++;
		if (names_match(r, def->cols[c].counter, s->counter, s->counter_name)) {
			b->kept = true;
			b->stat = (uint16_t)k;
		}
	}
	return !b->kept || key_of(r, s, &b->key);
}

/* Series id bound when first seen. */
static struct bound *
bind_new(struct series_report *r, const struct series_frame *f, uint32_t id)
{
	if (id >= r->nbound) {
		size_t n = r->nbound;
		if (!grow_table((void **)&r->bound, &r->nbound, (size_t)id + 1, sizeof *r->bound))
			return NULL;
		memset(r->bound + n, 0, (r->nbound - n) * sizeof *r->bound);
	}
	if (!r->bound[id].known && !bind_series(r, &f->catalogue[id], id, &r->bound[id]))
		return NULL;
	return &r->bound[id];
}

/* What the report makes of series id (inline: asked for every value). */
static inline struct bound *
bound_of(struct series_report *r, const struct series_frame *f, uint32_t id)
{
	if (id < r->nbound && r->bound[id].known)
		return &r->bound[id];
	return bind_new(r, f, id);
}

/* ---------------------------------------------------------------------- */
/* Rows */

static size_t
slot_of(const struct series_report *r, uint32_t source, int64_t period, uint32_t key)
{
	uint64_t h = ((uint64_t)source * UINT64_C(0x9E3779B97F4A7C15)) ^ (uint64_t)period;

	h = (h ^ key) * UINT64_C(0xBF58476D1CE4E5B9);
	return (size_t)(h ^ (h >> 31)) & (r->index_cap - 1);
}

static void
index_put(struct series_report *r, size_t i)
{
	struct row *w = &r->rows[i];
	size_t s = slot_of(r, w->source, w->period, w->key);

	while (r->index[s])
		s = (s + 1) & (r->index_cap - 1);
	r->index[s] = (uint32_t)(i + 1);
	w->slot = s;
}

static bool
grow_rows(struct series_report *r)
{
	size_t need = r->nrows + 1;

	if (!grow_table((void **)&r->rows, &r->rows_cap, need, sizeof *r->rows) ||
	    !grow_table((void **)&r->stats, &r->stats_cap, need * (r->nstats ? r->nstats : 1),
	                sizeof *r->stats))
		return false;
	if (2 * need > r->index_cap) {
		size_t cap = r->index_cap ? r->index_cap * 2 : 1024;
		uint32_t *t = calloc(cap, sizeof *t);
		if (!t)
			return false;
		free(r->index);
		r->index = t;
		r->index_cap = cap;
		for (size_t i = 0; i < r->nrows; i++)
			index_put(r, i);
	}
	return true;
}

/* The row of (source, period, key), made when new; NULL past --max-groups
 * or out of memory (said once). */
static struct row *
find_row(struct series_report *r, uint32_t source, int64_t period, uint32_t key,
         uint32_t input)
{
	size_t s;

	if (r->index_cap) {
		for (s = slot_of(r, source, period, key); r->index[s];
		     s = (s + 1) & (r->index_cap - 1)) {
			struct row *w = &r->rows[r->index[s] - 1];
			if (w->source == source && w->period == period && w->key == key)
				return w;
		}
	}
	if (r->nrows + 1 > r->o.max_groups || !grow_rows(r)) {
		if (r->left_out++ == 0)
			diag_at(r->diag, r->nrows + 1 > r->o.max_groups ? PM_E_GROUP_LIMIT
			        : PM_E_NOMEM, DIAG_NO_OFFSET,
			        "%zu rows held; values of further rows are left out", r->nrows);
		return NULL;
	}
	r->rows[r->nrows] = (struct row){ .source = source, .key = key, .period = period,
	                                  .first = INT64_MAX, .last = INT64_MIN,
	                                  .input = input, .seq = r->seq++ };
	memset(&r->stats[r->nrows * r->nstats], 0, r->nstats * sizeof *r->stats);
	index_put(r, r->nrows);
	return &r->rows[r->nrows++];
}

/* The row of series b's value in period, the one it last went to when
 * that is still the row; else as find_row. */
static struct row *
row_of(struct series_report *r, struct bound *b, uint32_t source, int64_t period,
       uint32_t input)
{
	struct row *w;

	if (b->row < r->nrows) {
		w = &r->rows[b->row];
		if (w->period == period && w->key == b->key && w->source == source)
			return w;
	}
	if ((w = find_row(r, source, period, b->key, input)))
		b->row = (uint32_t)(w - r->rows);
	return w;
}

/* num / den in doubles, each the nearest double to it: the same numbers
 * as (double)num and (double)den, converted in hardware when both fit 64
 * bits, as nearly every pair does (one test for the two). */
static double
quotient(counter_u128 num, counter_u128 den)
{
	if ((num | den) >> 64)
		return (double)num / (double)den;
	return (double)(uint64_t)num / (double)(uint64_t)den;
}

/* An elapsed time's window into its accumulator (a raw count of D - N),
 * and the window's own value; false when it has none. */
static bool
add_elapsed(struct stat *st, const struct series_value *v, counter_u128 *num,
            counter_u128 *den)
{
	const struct counter_window *w = &v->w;
	struct counter_window x;

	if (st->tb == 0)
		st->tb = w->tb;  /* the clock of the first that has one */
	/* an elapsed time never started, after its sample, or in another
	 * clock has no value */
	if (v->reset || w->n == 0 || w->n > w->d || w->tb == 0 || w->tb != st->tb) {
		counter_acc_add_none(&st->acc);
		return false;
	}
	x = (struct counter_window){ .n = w->d - w->n };
	return counter_acc_add(&st->acc, &x) == PM_OK &&
	       counter_window_fraction(CT_PERF_ELAPSED_TIME, w, num, den) == PM_OK;
}

/* The value of one window, for the least and the largest. */
static void
add_value(struct stat *st, const struct bound *b, const struct series_value *v)
{
	counter_u128 num, den;
	double x;
	bool elapsed = b->type == CT_PERF_ELAPSED_TIME;

	if (!st->typed) {
		st->type = b->type;
		st->tb = v->w.tb;
		counter_acc_init(&st->acc, elapsed ? CT_PERF_COUNTER_LARGE_RAWCOUNT : b->type);
		st->typed = true;
	}
	if (st->type != b->type)
		return;  /* one counter name, two types: the first kept */
	if (elapsed) {
		if (!add_elapsed(st, v, &num, &den))
			return;
	} else if (v->reset) {
		counter_acc_add_none(&st->acc);
		return;
	} else if (counter_acc_add_fraction(&st->acc, &v->w, &num, &den) != PM_OK) {
		return;
	}
	x = quotient(num, den);
	if (!st->ranged || x < st->lo_v)
		st->lo = v->w, st->lo_v = x;
	if (!st->ranged || x > st->hi_v)
		st->hi = v->w, st->hi_v = x;
	st->ranged = true;
}

static void
stamp_cell(const struct series_report *r, struct sink_cell *c, int64_t at)
{
	*c = (struct sink_cell){ .kind = SINK_STAMP, .decimals = STAMP_DECIMALS };
	c->v.stamp.at = at;
	c->v.stamp.zone = r->o.zone;
}

static void
text_cell(struct sink_cell *c, const char *s)
{
	*c = (struct sink_cell){ .kind = SINK_TEXT };
	c->v.text.s = s;
	c->v.text.n = strlen(s);
}

/* The cell of a series column. */
static void
stat_cell(const struct series_report *r, size_t c, const struct stat *st,
          struct sink_cell *out)
{
	out->kind = SINK_EMPTY;
	if (!st->typed)
		return;
	switch (r->def->cols[c].show) {
	case SHOW_VALUE:
		if (st->type == CT_PERF_ELAPSED_TIME) {
			struct metric_fmt f = r->fmt[c];
			if (!__builtin_mul_overflow(f.scale_den, st->tb, &f.scale_den))
				metric_figure(&f, &st->acc, out);
		} else {
			metric_figure(&r->fmt[c], &st->acc, out);
		}
		break;
	case SHOW_SAMPLES:
		out->kind = SINK_INTEGER;
		out->v.integer = counter_acc_windows(&st->acc) - counter_acc_no_value(&st->acc);
		break;
	case SHOW_MIN:
	case SHOW_MAX:
		if (st->ranged)
			metric_window_figure(&r->fmt[c], st->type,
			                     r->def->cols[c].show == SHOW_MIN ? &st->lo : &st->hi,
			                     out);
		break;
	}
}

/* The text of a row, from its key: a row per counter has its series'
 * names; a row per instance, only its instance (the definition allows no
 * other). */
static void
row_text(const struct series_report *r, const struct row *w, enum rpt_text t,
         struct sink_cell *out)
{
	static const enum rpt_text fields[] = { TEXT_OBJECT, TEXT_COUNTER, TEXT_INSTANCE,
	                                        TEXT_TYPE };
	const char *key = r->keys.t[w->key];
	size_t n = 0;

	*out = (struct sink_cell){ .kind = SINK_TEXT };
	out->v.text.s = "";
	if (t == TEXT_SOURCE) {
		text_cell(out, sources_name(r->src, w->source));
	} else if (r->def->rows == ROWS_INSTANCE) {
		if (t == TEXT_INSTANCE)
			text_cell(out, key);
	} else {
		for (unsigned k = 0; k < 4; k++)
			if (fields[k] == t)
				out->v.text.s = key_field(key, k, &n);
		out->v.text.n = n;
	}
}

static void
emit(struct series_report *r, const struct row *w)
{
	const struct rpt_def *def = r->def;
	const struct stat *stats = &r->stats[(size_t)(w - r->rows) * r->nstats];
	struct sink_cell *cells = r->cells;
	bool periodic = r->o.by == BY_HOUR || r->o.by == BY_DAY;

	text_cell(&cells[0], sources_name(r->src, w->source));
	stamp_cell(r, &cells[1], periodic ? w->period : w->first);
	stamp_cell(r, &cells[2], periodic ? period_end(r->o.by, r->o.zone, w->period) : w->last);
	for (size_t c = 0; c < def->ncols; c++) {
		if (def->cols[c].series)
			stat_cell(r, c, &stats[r->col_stat[c]], &cells[3 + c]);
		else
			row_text(r, w, def->cols[c].text, &cells[3 + c]);
	}
	if (!r->o.rows_input)
		r->sink->row(r->sink, cells, false);
	else if (!rowrec_add(&r->rec, r->inputs.t[w->input], cells, r->ncells, false) &&
	         r->left_out++ == 0)
		diag_at(r->diag, PM_E_NOMEM, DIAG_NO_OFFSET,
		        "%zu rows held; further rows are left out", r->rec.nrows);
}

/* Write the rows held and forget them (the rows of one frame). */
static void
flush(struct series_report *r)
{
	for (size_t i = 0; i < r->nrows; i++) {
		emit(r, &r->rows[i]);
		r->index[r->rows[i].slot] = 0;
	}
	r->nrows = 0;
}

void
series_report_frame(const struct series_frame *f, void *ctx)
{
	struct series_report *r = ctx;
	uint32_t input;

	r->offered++;
	if (!source_filter_keeps(&r->filter, f->source))
		return;
	if (!texts_intern(&r->inputs, f->input ? f->input : "-", &input)) {
		if (r->left_out++ == 0)
			diag_at(r->diag, PM_E_NOMEM, DIAG_NO_OFFSET,
			        "values of further counters are left out");
		return;
	}
	r->of_sources++;
	for (; r->seen < f->nseries; r->seen++) {
		const struct bound *b = bound_of(r, f, (uint32_t)r->seen);
		r->series_kept += b && b->kept && f->catalogue[r->seen].source == f->source;
	}
	/* a frame's values have one of two times, by v->two: whether each is
	 * kept and its period found once, the report's span set once */
	const int64_t when[2] = { f->end, f->start };
	const bool in_range[2] = { f->end >= r->o.from && f->end < r->o.to,
	                           f->start >= r->o.from && f->start < r->o.to };
	bool added[2] = { false, false };
	int64_t period[2] = { 0, 0 };

	if (r->o.by == BY_HOUR || r->o.by == BY_DAY) {
		period[1] = period_start(r->o.by, r->o.zone, f->start);
		period[0] = period_start(r->o.by, r->o.zone, f->end);
	} else if (r->o.by == BY_INTERVAL) {
		period[0] = period[1] = r->frame_no;
	}
	for (size_t i = 0; i < f->n; i++) {
		const struct series_value *v = &f->v[i];
		struct bound *b = bound_of(r, f, v->series);
		unsigned two = v->two;
		int64_t t = when[two];
		struct row *w;

		if (!b) {
			if (r->left_out++ == 0)
				diag_at(r->diag, PM_E_NOMEM, DIAG_NO_OFFSET,
				        "values of further counters are left out");
			continue;
		}
		if (!b->kept)
			continue;
		r->of_rows++;
		if (!in_range[two] || !(w = row_of(r, b, f->source, period[two], input)))
			continue;
		w->first = t < w->first ? t : w->first;
		w->last = f->end > w->last ? f->end : w->last;
		added[two] = true;
		r->values++;
		add_value(&r->stats[(size_t)b->row * r->nstats + b->stat], b, v);
	}
	for (unsigned two = 0; two < 2; two++)
		if (added[two]) {
			r->first = when[two] < r->first ? when[two] : r->first;
			r->last = f->end > r->last ? f->end : r->last;
		}
	if (r->o.by == BY_INTERVAL)
		flush(r);
	r->frame_no++;
}

/* ---------------------------------------------------------------------- */
/* Partials */

static const char counts_tag[4] = { 'S', 'R', 'P', 'C' };
static const char rows_tag[4] = { 'S', 'R', 'P', 'R' };

static void
put_window(struct pwriter *w, const struct counter_window *x)
{
	pw_uint(w, 8, x->n);
	pw_uint(w, 8, x->d);
	pw_uint(w, 8, x->db);
	pw_uint(w, 8, x->b);
	pw_uint(w, 8, x->tb);
	pw_uint(w, 8, x->when);
}

static struct counter_window
get_window(struct pcursor *c)
{
	struct counter_window x;

	x.n = pc_uint(c, 8);
	x.d = pc_uint(c, 8);
	x.db = pc_uint(c, 8);
	x.b = pc_uint(c, 8);
	x.tb = pc_uint(c, 8);
	x.when = pc_uint(c, 8);
	return x;
}

void
series_report_export(const struct series_report *r, struct pwriter *w)
{
	uint64_t words[COUNTER_ACC_WORDS];

	pw_section(w, counts_tag);
	pw_uint(w, 8, r->offered);
	pw_uint(w, 8, r->of_sources);
	pw_uint(w, 8, r->of_rows);
	pw_uint(w, 8, r->series_kept);
	pw_uint(w, 8, r->values);
	pw_uint(w, 8, r->left_out);
	pw_i64(w, r->first);
	pw_i64(w, r->last);
	pw_end_section(w);
	pw_section(w, rows_tag);
	pw_uint(w, 8, r->nstats);
	pw_uint(w, 8, r->nrows);
	for (size_t i = 0; i < r->nrows; i++) {
		const struct row *x = &r->rows[i];
		pw_text(w, sources_name(r->src, x->source));
		pw_text(w, r->keys.t[x->key]);
		pw_i64(w, x->period);
		pw_i64(w, x->first);
		pw_i64(w, x->last);
		pw_text(w, r->inputs.t[x->input]);
		pw_uint(w, 8, x->seq);
		for (size_t k = 0; k < r->nstats; k++) {
			const struct stat *st = &r->stats[i * r->nstats + k];
			pw_uint(w, 1, st->typed);
			pw_uint(w, 1, st->ranged);
			pw_uint(w, 8, st->typed ? (uint64_t)st->type : 0);
			pw_uint(w, 8, st->tb);
			counter_acc_pack(&st->acc, words);
			for (size_t j = 0; j < COUNTER_ACC_WORDS; j++)
				pw_uint(w, 8, st->typed ? words[j] : 0);
			put_window(w, &st->lo);
			put_window(w, &st->hi);
		}
	}
	pw_end_section(w);
	if (r->o.by == BY_INTERVAL)
		rowrec_export(&r->rec, r->ncells, w);
}

size_t
series_report_rows(const struct series_report *r)
{
	return r->nrows;
}

/* The value of one window, for the least and the largest. */
static double
window_value(enum counter_type t, const struct counter_window *x)
{
	counter_u128 num, den;

	return counter_window_fraction(t, x, &num, &den) == PM_OK ? quotient(num, den) : 0;
}

/* A partial's stat merged into the row's. */
static bool
merge_stat(struct stat *dst, const struct stat *src)
{
	if (!src->typed)
		return true;
	if (!dst->typed) {
		*dst = *src;
		return true;
	}
	if (dst->type != src->type)
		return true;  /* one counter name, two types: the first kept */
	if (dst->type == CT_PERF_ELAPSED_TIME && dst->tb == 0)
		dst->tb = src->tb;
	if (dst->type == CT_PERF_ELAPSED_TIME && src->tb && dst->tb != src->tb)
		return true;
	if (counter_acc_merge(&dst->acc, &src->acc) != PM_OK)
		return false;
	if (src->ranged && (!dst->ranged || src->lo_v < dst->lo_v))
		dst->lo = src->lo, dst->lo_v = src->lo_v;
	if (src->ranged && (!dst->ranged || src->hi_v > dst->hi_v))
		dst->hi = src->hi, dst->hi_v = src->hi_v;
	dst->ranged = dst->ranged || src->ranged;
	return true;
}

static pm_status
import_stats(struct series_report *r, struct pcursor *c, struct row *w)
{
	uint64_t words[COUNTER_ACC_WORDS], type;
	struct stat st;

	for (size_t k = 0; k < r->nstats; k++) {
		memset(&st, 0, sizeof st);
		st.typed = pc_uint(c, 1) != 0;
		st.ranged = pc_uint(c, 1) != 0;
		type = pc_uint(c, 8);
		st.tb = pc_uint(c, 8);
		for (size_t j = 0; j < COUNTER_ACC_WORDS; j++)
			words[j] = pc_uint(c, 8);
		st.lo = get_window(c);
		st.hi = get_window(c);
		if (c->bad)
			return PM_E_PARTIAL;
		if (!st.typed)
			continue;
		st.type = (enum counter_type)type;
		if (type >= CT_COUNT || counter_acc_unpack(&st.acc, words) != PM_OK ||
		    st.acc.type != (st.type == CT_PERF_ELAPSED_TIME
		                    ? CT_PERF_COUNTER_LARGE_RAWCOUNT : st.type))
			return PM_E_PARTIAL;
		st.lo_v = window_value(st.type, &st.lo);
		st.hi_v = window_value(st.type, &st.hi);
		if (w && !merge_stat(&r->stats[(size_t)(w - r->rows) * r->nstats + k], &st))
			return PM_E_PARTIAL;
	}
	return PM_OK;
}

static bool
import_counts(struct series_report *r, struct span s)
{
	struct pcursor c = pc_make(s);
	int64_t first, last;

	r->offered += pc_uint(&c, 8);
	r->of_sources += pc_uint(&c, 8);
	r->of_rows += pc_uint(&c, 8);
	r->series_kept += pc_uint(&c, 8);
	r->values += pc_uint(&c, 8);
	r->left_out += pc_uint(&c, 8);
	first = pc_i64(&c);
	last = pc_i64(&c);
	r->first = first < r->first ? first : r->first;
	r->last = last > r->last ? last : r->last;
	return pc_done(&c);
}

pm_status
series_report_import(struct series_report *r, const struct partial *p, struct sources *src,
                     char *err, size_t cap)
{
	static char key[4 * 4096], input[4096];
	char name[SOURCE_NAME_MAX];
	struct span counts, rows;
	struct pcursor c;
	uint64_t nstats, n;
	pm_status st;

	if (!partial_section(p, counts_tag, &counts) || !partial_section(p, rows_tag, &rows)) {
		snprintf(err, cap, "it holds no rows of a Windows report");
		return PM_E_PARTIAL;
	}
	if (!import_counts(r, counts)) {
		snprintf(err, cap, "its report counts are not whole");
		return PM_E_PARTIAL;
	}
	r->merged = true;
	c = pc_make(rows);
	nstats = pc_uint(&c, 8);
	n = pc_uint(&c, 8);
	if (!c.bad && nstats != r->nstats) {
		snprintf(err, cap, "its rows hold %llu counters, this report's %zu",
		         (unsigned long long)nstats, r->nstats);
		return PM_E_PARTIAL_MISMATCH;
	}
	for (uint64_t i = 0; i < n && !c.bad; i++) {
		uint32_t source, key_id, input_id;
		int64_t period, first, last;
		uint64_t seq;
		struct row *w;

		pc_text(&c, name, sizeof name);
		pc_text(&c, key, sizeof key);
		period = pc_i64(&c);
		first = pc_i64(&c);
		last = pc_i64(&c);
		pc_text(&c, input, sizeof input);
		seq = r->seq_base + pc_uint(&c, 8);
		if (c.bad)
			break;
		if ((st = sources_intern(src, name, strlen(name), &source)) != PM_OK)
			return st;
		if (!texts_intern(&r->keys, key, &key_id) ||
		    !texts_intern(&r->inputs, input, &input_id))
			return PM_E_NOMEM;
		w = find_row(r, source, period, key_id, input_id);
		if (w) {
			int order = strcmp(input, r->inputs.t[w->input]);
			if (order < 0 || (order == 0 && seq < w->seq))
				w->input = input_id, w->seq = seq;
			w->first = first < w->first ? first : w->first;
			w->last = last > w->last ? last : w->last;
		}
		if ((st = import_stats(r, &c, w)) != PM_OK)
			break;
	}
	if (!pc_done(&c)) {
		snprintf(err, cap, "its rows section does not hold what it says");
		return PM_E_PARTIAL;
	}
	/* its rows' numbers are below its count of rows */
	r->seq_base += n;
	if (r->o.by != BY_INTERVAL)
		return PM_OK;
	if (!partial_section(p, ROWREC_TAG, &rows)) {
		snprintf(err, cap, "it holds no rows of a report by interval");
		return PM_E_PARTIAL;
	}
	return rowrec_import(&r->rec, rows, r->ncells, err, cap);
}

bool
series_report_what_matched_nothing(const struct series_report *r, char *out, size_t cap)
{
	const struct rpt_def *def = r->def;

	if (r->values || !r->offered)
		return false;
	if (!r->of_sources)
		snprintf(out, cap, "no snapshot of the systems given (--source)");
	else if (!r->of_rows && r->series_kept)
		snprintf(out, cap, "no window: report '%s' shows counters of two snapshots "
		         "of a system, and each system has one", def->name);
	else if (!r->of_rows && def->rows == ROWS_INSTANCE)
		snprintf(out, cap, "no counter of report '%s' in object '%s'", def->name,
		         def->object);
	else if (!r->of_rows)
		snprintf(out, cap, "no counter of object '%s'", def->object);
	else
		snprintf(out, cap, "no counter value between --from and --to");
	return true;
}

/* Rows of partials: by the input they first appeared in, by name, then
 * by the order they were made in its run. */
static const struct series_report *sort_report;

static int
by_first_appearance(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int order = strcmp(sort_report->inputs.t[x->input], sort_report->inputs.t[y->input]);

	if (order)
		return order;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Sort rows and their stats together: through an order of indexes. */
static bool
sort_rows(struct series_report *r)
{
	struct row *rows = malloc(r->nrows * sizeof *rows);
	struct stat *stats = malloc(r->nrows * (r->nstats ? r->nstats : 1) * sizeof *stats);

	if (!rows || !stats) {
		free(rows);
		free(stats);
		return false;
	}
	for (size_t i = 0; i < r->nrows; i++)
		r->rows[i].slot = i;   /* its stats, until they move */
	sort_report = r;
	qsort(r->rows, r->nrows, sizeof *r->rows, by_first_appearance);
	for (size_t i = 0; i < r->nrows; i++)
		memcpy(&stats[i * r->nstats], &r->stats[r->rows[i].slot * r->nstats],
		       r->nstats * sizeof *stats);
	memcpy(r->stats, stats, r->nrows * r->nstats * sizeof *stats);
	free(rows);
	free(stats);
	memset(r->index, 0, r->index_cap * sizeof *r->index);
	for (size_t i = 0; i < r->nrows; i++)
		index_put(r, i);
	return true;
}

pm_status
series_report_finish(struct series_report *r, struct report_meta *m)
{
	if (r->merged && r->nrows && !sort_rows(r))
		diag_at(r->diag, PM_E_NOMEM, DIAG_NO_OFFSET, "rows written as they came");
	flush(r);
	if (r->rec.nrows && !r->o.rows_input &&
	    rowrec_replay(&r->rec, r->cells, r->ncells, r->o.zone, r->sink) != PM_OK)
		return PM_E_NOMEM;
	m->any_interval = r->values > 0;
	m->first_start = r->first;
	m->last_end = r->last;
	m->zone = r->o.zone;
	m->intervals = r->values;
	m->incomplete = 0;
	m->counted = "counter value";
	m->grouping = report_by_name(r->o.by);
	if (r->left_out > 1)
		diag_at(r->diag, PM_E_GROUP_LIMIT, DIAG_NO_OFFSET,
		        "%llu values left out of the report", (unsigned long long)r->left_out);
	return r->sink->end(r->sink, m);
}
