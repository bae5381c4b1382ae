/* series_report.c: series frames grouped into rows (series_report.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fnv.h"
#include "core/grow.h"
#include "core/numparse.h"
#include "core/spill.h"
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

/* A group row, held in a slot. Its number is its place among the rows
 * made (since the last flush), and where the spill file keeps it. */
struct row {
	uint32_t source;
	uint32_t key;           /* its names: a text of keys; NO_KEY in a free
	                           slot */
	int64_t period;         /* a period start, 0 (total), a frame number */
	int64_t first, last;    /* the span of its values */
	uint32_t input;         /* where it first appeared: a text of inputs, */
	uint64_t seq;           /* and the rows made before it in that run */
	uint64_t n;             /* its number */
	uint32_t group;         /* its source and period's */
	uint32_t next;          /* its group's next row held, or the next free
	                           slot; NONE for none */
};

/* The rows of a source and period: held in slots together, or given up
 * to the spill file together (the file keeps each row at its number). */
struct group {
	int64_t period;
	uint64_t used;          /* the clock when a frame or a merged row last
	                           needed it: not given up then */
	uint32_t *index;        /* its rows held by key: slot + 1, 0 empty */
	size_t index_cap;
	uint32_t source;
	uint32_t head, tail;    /* its rows held, by number */
	uint32_t nheld;
	uint32_t newer;         /* the group held after it */
	uint32_t runs, last_run;  /* its rows' numbers: the first and last run
	                             held, NONE when given up */
	uint64_t runs_at;       /* given up: its runs in the runs' file, */
	uint32_t runs_out;      /* that many from runs_at on */
	bool held;
};

/* Consecutive row numbers of one group, and its next run (or the next
 * free entry). */
struct run {
	uint64_t start;
	uint32_t count;
	uint32_t next;
};
/* A run in the runs' file: start and count */
#define RUN_WORDS 2

#define NONE UINT32_MAX      /* no slot, group or run */
#define NO_KEY UINT32_MAX    /* the key of a free slot */
/* A row in the spill file, in words: its number (checked when read
 * back), source and key, period, first, last, input, seq; then each stat:
 * typed, ranged and type, tb, lo_v, hi_v, the accumulator, lo, hi. */
#define ROW_WORDS 7
#define STAT_WORDS (4 + COUNTER_ACC_WORDS + 12)
#define SPILL_BUFFER ((size_t)128 << 10)   /* bytes read or written at once */
_Static_assert(sizeof(struct counter_window) == 6 * sizeof(uint64_t),
               "a window is six words, without padding");

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
	uint32_t last_input;    /* the last frame's */
	uint64_t seq;           /* rows made */
	uint64_t seq_base;      /* rows of the partials merged: a partial's
	                           rows are made after theirs */
	/* rows of partials are written in order of (input name, seq), as one
	 * run over the inputs in name order writes them: by number, unless
	 * they were made out of that order (a merge of partials not given in
	 * input order), then sorted */
	bool out_of_order;
	uint32_t made_input;    /* the row of partials made last: its input */
	uint64_t made_seq;      /* and seq */
	/* rows: their groups by (source, period) and the runs of their
	 * numbers; at most held_max of them in slots, their stats by slot */
	struct group *groups;
	size_t ngroups, groups_cap;
	uint32_t *group_index;  /* group + 1; 0 is empty */
	size_t group_index_cap;
	uint32_t oldest, newest;  /* the groups held, in the order they came */
	uint64_t clock;         /* a frame's, or a merged row's */
	struct run *runs;
	size_t nruns, runs_cap;
	uint32_t free_run;      /* a free entry of runs, chained by next */
	/* the runs of the groups given up, in a file of their own, a
	 * group's one after another (the rows of an hourly snapshot go to
	 * two periods in turn: a run of numbers a few rows long) */
	struct spill run_spill;
	uint64_t runs_spilled;  /* the file's end, in runs */
	size_t nrows;           /* rows made since the last flush */
	struct row *rows;
	struct stat *stats;
	size_t nslots, slots_cap, held, held_max;
	uint32_t free_slot;
	/* the rows given up, in words: put from out, read into in, a row
	 * read back into loaded */
	struct spill spill;
	size_t words;           /* a row's */
	size_t buffered;        /* rows in a buffer */
	uint64_t *out, *in;
	uint64_t spilled;       /* the file's end, in rows */
	struct row loaded;
	struct stat *loaded_stats;
	bool unreadable;        /* a read of the file failed (said once) */
	uint32_t *order;        /* the slots held, by number, for a walk */
	size_t order_cap;
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


/* An empty index for need entries in place of *index (*cap entries): a
 * power of two from least on, under half full, for the entries to be put
 * back; false out of memory, the old one kept. */
static bool
index_renew(uint32_t **index, size_t *cap, size_t need, size_t least)
{
	size_t n = *cap ? *cap : least;
	uint32_t *t;

	while (2 * need > n)
		n *= 2;
	if (!(t = calloc(n, sizeof *t)))
		return false;
	free(*index);
	*index = t;
	*cap = n;
	return true;
}

static bool
texts_rehash(struct texts *x)
{
	if (!index_renew(&x->index, &x->index_cap, x->n + 1, 256))
		return false;
	for (size_t i = 0; i < x->n; i++) {
		size_t at = (size_t)fnv_text(FNV_OFFSET, x->t[i]) & (x->index_cap - 1);
		while (x->index[at])
			at = (at + 1) & (x->index_cap - 1);
		x->index[at] = (uint32_t)(i + 1);
	}
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

/* The slots' limit (--group-memory), the spill file's buffers. */
static bool
alloc_rows(struct series_report *r)
{
	size_t slot = sizeof(struct row) + r->nstats * sizeof(struct stat);

	r->free_slot = r->oldest = r->newest = r->free_run = NONE;
	spill_init(&r->run_spill, RUN_WORDS * sizeof(uint64_t));
	r->held_max = r->o.group_memory ? r->o.group_memory / slot : SIZE_MAX;
	if (r->held_max == 0)
		r->held_max = 1;
	r->words = ROW_WORDS + r->nstats * STAT_WORDS;
	spill_init(&r->spill, r->words * sizeof *r->out);
	r->buffered = SPILL_BUFFER / r->spill.size ? SPILL_BUFFER / r->spill.size : 1;
	r->out = malloc(r->buffered * r->spill.size);
	r->in = malloc(r->buffered * r->spill.size);
	r->loaded_stats = calloc(r->nstats ? r->nstats : 1, sizeof *r->loaded_stats);
	return r->out && r->in && r->loaded_stats;
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
	if (!alloc_rows(r)) {
		series_report_close(r);
		return PM_E_NOMEM;
	}
	sink_columns(r, r->cols, &ncols);
	st = sink->begin(sink, r->cols, ncols, def->layout == LAYOUT_FORM);
	if (st != PM_OK) {
		series_report_close(r);
		return st;
	}
	*out = r;
	return PM_OK;
}

/* The groups' indexes freed. */
static void
free_groups(struct series_report *r)
{
	for (size_t g = 0; g < r->ngroups; g++)
		free(r->groups[g].index);
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
	free_groups(r);
	free(r->groups);
	free(r->group_index);
	free(r->runs);
	free(r->rows);
	free(r->stats);
	spill_close(&r->spill);
	spill_close(&r->run_spill);
	free(r->out);
	free(r->in);
	free(r->loaded_stats);
	free(r->order);
	rowrec_free(&r->rec);
	free(r->cols);
	free(r->cells);
	free(r);
}

/* ---------------------------------------------------------------------- */
/* Binding series to rows */

/* A key's four fields (object, counter, instance, type), found in one
 * pass; those past its last field empty. */
struct key_fields {
	const char *s[4];
	size_t n[4];
};

static void
split_key(const char *key, struct key_fields *f)
{
	for (unsigned k = 0; k < 4; k++) {
		const char *sep = key ? strchr(key, KEY_SEP) : NULL;
		f->s[k] = key ? key : "";
		f->n[k] = sep ? (size_t)(sep - key) : key ? strlen(key) : 0;
		key = sep ? sep + 1 : NULL;
	}
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

static uint64_t
hash_of(uint32_t source, int64_t period, uint32_t key)
{
	uint64_t h = ((uint64_t)source * UINT64_C(0x9E3779B97F4A7C15)) ^ (uint64_t)period;

	h = (h ^ key) * UINT64_C(0xBF58476D1CE4E5B9);
	return h ^ (h >> 31);
}

static size_t
key_slot(const struct group *x, uint32_t key)
{
	return (size_t)hash_of(x->source, x->period, key) & (x->index_cap - 1);
}

static void
key_put(const struct series_report *r, struct group *x, uint32_t slot)
{
	size_t s = key_slot(x, r->rows[slot].key);

	while (x->index[s])
		s = (s + 1) & (x->index_cap - 1);
	x->index[s] = slot + 1;
}

/* The slot of group g's row of key, held, or NONE. */
static uint32_t
key_find(const struct series_report *r, uint32_t g, uint32_t key)
{
	const struct group *x = &r->groups[g];

	if (!x->index_cap)
		return NONE;
	for (size_t s = key_slot(x, key); x->index[s]; s = (s + 1) & (x->index_cap - 1))
		if (r->rows[x->index[s] - 1].key == key)
			return x->index[s] - 1;
	return NONE;
}

/* Room for more slots: doubling up to held_max, past it (the groups a
 * frame needs, or rows the file did not take) doubling again. */
static bool
grow_slots(struct series_report *r)
{
	size_t cap = r->slots_cap ? r->slots_cap * 2 : 64;

	if (r->slots_cap < r->held_max && cap > r->held_max)
		cap = r->held_max;
	if (cap >= NONE)
		return false;
	struct row *rows = realloc(r->rows, cap * sizeof *rows);
	if (rows)
		r->rows = rows;
	struct stat *stats = realloc(r->stats, cap * (r->nstats ? r->nstats : 1) * sizeof *stats);
	if (stats)
		r->stats = stats;
	if (!rows || !stats)
		return false;
	r->slots_cap = cap;
	return true;
}

/* The group of (source, period), or NONE. */
static uint32_t
group_find(const struct series_report *r, uint32_t source, int64_t period)
{
	if (!r->group_index_cap)
		return NONE;
	for (size_t s = (size_t)hash_of(source, period, NO_KEY) & (r->group_index_cap - 1);
	     r->group_index[s]; s = (s + 1) & (r->group_index_cap - 1)) {
		const struct group *x = &r->groups[r->group_index[s] - 1];
		if (x->source == source && x->period == period)
			return r->group_index[s] - 1;
	}
	return NONE;
}

static void
group_index_put(struct series_report *r, uint32_t g)
{
	size_t s = (size_t)hash_of(r->groups[g].source, r->groups[g].period, NO_KEY) &
	           (r->group_index_cap - 1);

	while (r->group_index[s])
		s = (s + 1) & (r->group_index_cap - 1);
	r->group_index[s] = g + 1;
}

/* The groups held, in the order they came: g after the others. */
static void
hold_group(struct series_report *r, uint32_t g)
{
	struct group *x = &r->groups[g];

	x->held = true;
	x->head = x->tail = x->newer = NONE;
	if (r->newest == NONE)
		r->oldest = g;
	else
		r->groups[r->newest].newer = g;
	r->newest = g;
}

/* A new group of (source, period), held, without rows; NONE out of
 * memory. */
static uint32_t
group_new(struct series_report *r, uint32_t source, int64_t period)
{
	uint32_t g = (uint32_t)r->ngroups;

	if (r->ngroups + 1 >= NONE ||
	    !grow_table((void **)&r->groups, &r->groups_cap, r->ngroups + 1, sizeof *r->groups))
		return NONE;
	if (2 * (r->ngroups + 1) > r->group_index_cap) {
		if (!index_renew(&r->group_index, &r->group_index_cap, r->ngroups + 1, 64))
			return NONE;
		for (uint32_t i = 0; i < r->ngroups; i++)
			group_index_put(r, i);
	}
	r->groups[g] = (struct group){ .source = source, .period = period, .runs = NONE,
	                               .last_run = NONE };
	r->ngroups++;
	group_index_put(r, g);
	hold_group(r, g);
	return g;
}

/* A run of count numbers from start appended to group x's; false out of
 * memory. x is found again by its number: the table of groups does not
 * move, the runs' may. */
static bool
run_append(struct series_report *r, struct group *x, uint64_t start, uint32_t count)
{
	uint32_t u = r->free_run;

	if (u != NONE) {
		r->free_run = r->runs[u].next;
	} else {
		if (r->nruns + 1 >= NONE ||
		    !grow_table((void **)&r->runs, &r->runs_cap, r->nruns + 1, sizeof *r->runs))
			return false;
		u = (uint32_t)r->nruns++;
	}
	r->runs[u] = (struct run){ .start = start, .count = count, .next = NONE };
	if (x->last_run != NONE)
		r->runs[x->last_run].next = u;
	else
		x->runs = u;
	x->last_run = u;
	return true;
}

/* Row number n in group g's runs; false out of memory. */
static bool
add_number(struct series_report *r, struct group *x, uint64_t n)
{
	struct run *last = x->last_run != NONE ? &r->runs[x->last_run] : NULL;

	if (last && last->start + last->count == n && last->count < UINT32_MAX) {
		last->count++;
		return true;
	}
	return run_append(r, x, n, 1);
}

/* Room in group g's index for one more row held; false out of memory. */
static bool
key_room(struct series_report *r, uint32_t g)
{
	struct group *x = &r->groups[g];

	if (2 * (x->nheld + 1) <= x->index_cap)
		return true;
	if (!index_renew(&x->index, &x->index_cap, x->nheld + 1, 16))
		return false;
	for (uint32_t h = x->head; h != NONE; h = r->rows[h].next)
		key_put(r, x, h);
	return true;
}

/* Slot s held in group g, after its other rows (key_room made room). */
static void
chain(struct series_report *r, uint32_t g, uint32_t s)
{
	struct group *x = &r->groups[g];

	r->rows[s].group = g;
	r->rows[s].next = NONE;
	if (x->tail != NONE)
		r->rows[x->tail].next = s;
	else
		x->head = s;
	x->tail = s;
	x->nheld++;
	key_put(r, x, s);
}

static struct stat *
stats_of(const struct series_report *r, uint32_t slot)
{
	return &r->stats[(size_t)slot * r->nstats];
}

/* A row and its stats in words, as the spill file keeps them, and back
 * (false when the words are not a row numbered n of this report). */
static void
pack_row(const struct series_report *r, const struct row *w, const struct stat *st,
         uint64_t *out)
{
	out[0] = w->n;
	out[1] = w->source | (uint64_t)w->key << 32;
	out[2] = (uint64_t)w->period;
	out[3] = (uint64_t)w->first;
	out[4] = (uint64_t)w->last;
	out[5] = w->input;
	out[6] = w->seq;
	for (size_t k = 0; k < r->nstats; k++, st++) {
		uint64_t *x = &out[ROW_WORDS + k * STAT_WORDS];
		x[0] = (uint64_t)st->typed | (uint64_t)st->ranged << 1 | (uint64_t)st->type << 8;
		x[1] = st->tb;
		memcpy(&x[2], &st->lo_v, sizeof st->lo_v);
		memcpy(&x[3], &st->hi_v, sizeof st->hi_v);
		counter_acc_pack(&st->acc, &x[4]);
		memcpy(&x[4 + COUNTER_ACC_WORDS], &st->lo, sizeof st->lo);
		memcpy(&x[10 + COUNTER_ACC_WORDS], &st->hi, sizeof st->hi);
	}
}

static bool
unpack_row(const struct series_report *r, const uint64_t *in, uint64_t n, struct row *w,
           struct stat *st)
{
	if (in[0] != n || (in[1] >> 32) >= r->keys.n || in[5] >= r->inputs.n)
		return false;
	w->n = n;
	w->source = (uint32_t)in[1];
	w->key = (uint32_t)(in[1] >> 32);
	w->period = (int64_t)in[2];
	w->first = (int64_t)in[3];
	w->last = (int64_t)in[4];
	w->input = (uint32_t)in[5];
	w->seq = in[6];
	for (size_t k = 0; k < r->nstats; k++, st++) {
		const uint64_t *x = &in[ROW_WORDS + k * STAT_WORDS];
		if ((x[0] >> 8) >= CT_COUNT || counter_acc_unpack(&st->acc, &x[4]) != PM_OK)
			return false;
		st->typed = x[0] & 1;
		st->ranged = (x[0] >> 1) & 1;
		st->type = (enum counter_type)(x[0] >> 8);
		st->tb = x[1];
		memcpy(&st->lo_v, &x[2], sizeof st->lo_v);
		memcpy(&st->hi_v, &x[3], sizeof st->hi_v);
		memcpy(&st->lo, &x[4 + COUNTER_ACC_WORDS], sizeof st->lo);
		memcpy(&st->hi, &x[10 + COUNTER_ACC_WORDS], sizeof st->hi);
	}
	return true;
}

/* Group g's slots freed, and g no longer held. */
static void
release(struct series_report *r, uint32_t g)
{
	struct group *x = &r->groups[g];

	for (uint32_t s = x->head, next; s != NONE; s = next) {
		next = r->rows[s].next;
		r->rows[s].key = NO_KEY;
		r->rows[s].next = r->free_slot;
		r->free_slot = s;
		r->held--;
	}
	free(x->index);
	x->index = NULL;
	x->held = false;
	x->head = x->tail = NONE;
	x->nheld = x->index_cap = 0;
	if (r->oldest == g) {
		r->oldest = x->newer;
	} else {
		uint32_t h = r->oldest;
		while (r->groups[h].newer != g)
			h = r->groups[h].newer;
		r->groups[h].newer = x->newer;
		if (r->newest == g)
			r->newest = h;
	}
	if (r->oldest == NONE)
		r->newest = NONE;
}

/* Group x's runs' entries freed, x left without runs in memory. */
static void
runs_free(struct series_report *r, struct group *x)
{
	if (x->runs != NONE) {
		r->runs[x->last_run].next = r->free_run;
		r->free_run = x->runs;
	}
	x->runs = x->last_run = NONE;
}

/* Group g's runs written to the end of the runs' file, a buffer at a
 * time, and their entries freed; false when they cannot be written
 * (errno set; the runs kept). */
static bool
put_runs(struct series_report *r, uint32_t g)
{
	struct group *x = &r->groups[g];
	size_t per = r->buffered * r->words / RUN_WORDS, k = 0;
	uint64_t at = r->runs_spilled, n = 0;

	for (uint32_t u = x->runs; u != NONE; u = r->runs[u].next) {
		r->out[RUN_WORDS * k] = r->runs[u].start;
		r->out[RUN_WORDS * k + 1] = r->runs[u].count;
		if (++k == per || r->runs[u].next == NONE) {
			if (spill_put(&r->run_spill, at + n, k, r->out) != PM_OK)
				return false;
			n += k;
			k = 0;
		}
	}
	r->runs_spilled = at + n;
	x->runs_at = at;
	x->runs_out = (uint32_t)n;
	runs_free(r, x);
	return true;
}

/* Group g's runs read back from the runs' file into entries of their
 * own; false when they cannot be (errno set, 0 for a short file) or out
 * of memory (ENOMEM), the group's runs then still in the file. */
static bool
get_runs(struct series_report *r, uint32_t g)
{
	size_t per = r->buffered * r->words / RUN_WORDS;
	uint64_t at = r->groups[g].runs_at;
	uint32_t left = r->groups[g].runs_out;

	while (left > 0) {
		size_t k = left < per ? left : per;
		if (spill_get(&r->run_spill, at, k, r->in) != PM_OK)
			goto fail;
		for (size_t i = 0; i < k; i++) {
			uint64_t start = r->in[RUN_WORDS * i], count = r->in[RUN_WORDS * i + 1];
			if (count > UINT32_MAX) {
				errno = 0;  /* not what was written */
				goto fail;
			}
			if (!run_append(r, &r->groups[g], start, (uint32_t)count)) {
				errno = ENOMEM;
				goto fail;
			}
		}
		at += k;
		left -= (uint32_t)k;
	}
	r->groups[g].runs_out = 0;
	return true;
fail:
	/* the entries taken freed again: the file still holds them all */
	runs_free(r, &r->groups[g]);
	return false;
}

/* A group's rows or runs could not be written (errno set): said, and
 * from then on every row is held; false. */
static bool
cannot_give_up(struct series_report *r)
{
	diag_at(r->diag, PM_E_SPILL, DIAG_NO_OFFSET, "%s; %zu rows held in memory",
	        strerror(errno), r->held);
	r->held_max = SIZE_MAX;
	return false;
}

/* Group g's rows written to the spill file, each at its number, a run of
 * numbers at a time, and their slots freed, and its runs to theirs;
 * false when they cannot be written (said once: from then on every row
 * is held). */
static bool
give_up(struct series_report *r, uint32_t g)
{
	const struct group *x = &r->groups[g];
	uint32_t s = x->head;

	for (uint32_t u = x->runs; u != NONE; u = r->runs[u].next) {
		uint64_t n = r->runs[u].start;
		for (size_t left = r->runs[u].count, k; left > 0; left -= k, n += k) {
			k = left < r->buffered ? left : r->buffered;
			for (size_t i = 0; i < k; i++, s = r->rows[s].next)
				pack_row(r, &r->rows[s], stats_of(r, s), &r->out[i * r->words]);
			if (spill_put(&r->spill, n, k, r->out) != PM_OK)
				return cannot_give_up(r);
			if (n + k > r->spilled)
				r->spilled = n + k;
		}
	}
	if (!put_runs(r, g))
		return cannot_give_up(r);
	release(r, g);
	return true;
}

/* A free slot: past held_max, the group held longest that no frame or row
 * now needs given up first; NONE out of memory. */
static uint32_t
slot_take(struct series_report *r)
{
	uint32_t s;

	while (r->held >= r->held_max) {
		uint32_t g = r->oldest;
		while (g != NONE && r->groups[g].used == r->clock)
			g = r->groups[g].newer;
		if (g == NONE || !give_up(r, g))
			break;
	}
	if (r->free_slot != NONE) {
		s = r->free_slot;
		r->free_slot = r->rows[s].next;
	} else {
		if (r->nslots == r->slots_cap && !grow_slots(r))
			return NONE;
		s = (uint32_t)r->nslots++;
	}
	r->held++;
	return s;
}

/* A read of the spill file failed: said once. */
static void
unreadable(struct series_report *r)
{
	if (!r->unreadable)
		diag_at(r->diag, PM_E_READ, DIAG_NO_OFFSET, "the report's temporary file: %s",
		        errno ? strerror(errno) : "a row is not what was written");
	r->unreadable = true;
}

/* Rows n to n + count - 1 read from the spill file into in; false when
 * they cannot be (said). */
static bool
read_rows(struct series_report *r, uint64_t n, size_t count)
{
	if (spill_get(&r->spill, n, count, r->in) == PM_OK)
		return true;
	unreadable(r);
	return false;
}

/* Slots taken and not chained to a group, from s on, freed again. */
static void
untake(struct series_report *r, uint32_t s)
{
	for (uint32_t next; s != NONE; s = next) {
		next = r->rows[s].next;
		r->rows[s].key = NO_KEY;
		r->rows[s].next = r->free_slot;
		r->free_slot = s;
		r->held--;
	}
}

/* Group g's rows read back from the spill file into slots, held again;
 * false when they cannot be (said; the group stays in the file). */
static bool
take_back(struct series_report *r, uint32_t g)
{
	uint32_t first = NONE, last = NONE;

	if (!get_runs(r, g)) {
		if (errno == ENOMEM) {
			diag_at(r->diag, PM_E_NOMEM, DIAG_NO_OFFSET, "a group of the report's rows");
		} else {
			unreadable(r);
		}
		return false;
	}
	hold_group(r, g);
	r->groups[g].used = r->clock;
	for (uint32_t u = r->groups[g].runs; u != NONE; u = r->runs[u].next) {
		uint64_t n = r->runs[u].start;
		for (size_t left = r->runs[u].count, k; left > 0; left -= k, n += k) {
			k = left < r->buffered ? left : r->buffered;
			/* the slots first: taking them may give up other rows
			 * through the other buffer */
			first = last = NONE;
			for (size_t i = 0; i < k; i++) {
				uint32_t s = slot_take(r);
				if (s == NONE)
					goto fail;
				r->rows[s] = (struct row){ .key = NO_KEY, .next = NONE };
				if (last != NONE)
					r->rows[last].next = s;
				else
					first = s;
				last = s;
			}
			if (!read_rows(r, n, k))
				goto fail;
			for (size_t i = 0; i < k; i++) {
				uint32_t s = first;
				if (!key_room(r, g))
					goto fail;
				if (!unpack_row(r, &r->in[i * r->words], n + i, &r->rows[s],
				                stats_of(r, s))) {
					errno = 0;
					unreadable(r);
					goto fail;
				}
				first = r->rows[s].next;
				chain(r, g, s);
			}
		}
	}
	return true;
fail:
	untake(r, first);
	release(r, g);
	return false;
}

/* No row past --max-groups or out of memory: said once. */
static struct row *
no_row(struct series_report *r)
{
	if (r->left_out++ == 0)
		diag_at(r->diag, r->nrows + 1 > r->o.max_groups ? PM_E_GROUP_LIMIT : PM_E_NOMEM,
		        DIAG_NO_OFFSET, "%zu rows held; values of further rows are left out",
		        r->nrows);
	return NULL;
}

/* The row of (source, period, key), read back with its group when that
 * was given up, made when new; NULL past --max-groups, out of memory
 * (said once) or when it cannot be read back. */
static struct row *
find_row(struct series_report *r, uint32_t source, int64_t period, uint32_t key,
         uint32_t input)
{
	uint32_t g = group_find(r, source, period), s;

	if (g != NONE && !r->groups[g].held && !take_back(r, g)) {
		r->left_out++;
		return NULL;
	}
	if (g != NONE && (s = key_find(r, g, key)) != NONE)
		return &r->rows[s];
	if (r->nrows + 1 > r->o.max_groups ||
	    (g == NONE && (g = group_new(r, source, period)) == NONE) || !key_room(r, g))
		return no_row(r);
	r->groups[g].used = r->clock;
	if ((s = slot_take(r)) == NONE)
		return no_row(r);
	if (!add_number(r, &r->groups[g], r->nrows)) {
		r->rows[s].next = NONE;
		untake(r, s);
		return no_row(r);
	}
	r->rows[s] = (struct row){ .source = source, .key = key, .period = period,
	                           .first = INT64_MAX, .last = INT64_MIN,
	                           .input = input, .seq = r->seq++, .n = r->nrows++ };
	memset(stats_of(r, s), 0, r->nstats * sizeof *r->stats);
	chain(r, g, s);
	return &r->rows[s];
}

/* The row of series b's value in period, the one it last went to when
 * that is still the row; else as find_row. */
static struct row *
row_of(struct series_report *r, struct bound *b, uint32_t source, int64_t period,
       uint32_t input)
{
	struct row *w;

	if (b->row < r->nslots) {
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
row_text(const struct series_report *r, const struct row *w, const struct key_fields *f,
         enum rpt_text t, struct sink_cell *out)
{
	static const enum rpt_text fields[] = { TEXT_OBJECT, TEXT_COUNTER, TEXT_INSTANCE,
	                                        TEXT_TYPE };

	*out = (struct sink_cell){ .kind = SINK_TEXT };
	out->v.text.s = "";
	if (t == TEXT_SOURCE) {
		text_cell(out, sources_name(r->src, w->source));
	} else if (r->def->rows == ROWS_INSTANCE) {
		if (t == TEXT_INSTANCE)
			text_cell(out, r->keys.t[w->key]);
	} else {
		for (unsigned k = 0; k < 4; k++)
			if (fields[k] == t) {
				out->v.text.s = f->s[k];
				out->v.text.n = f->n[k];
			}
	}
}

static void
emit(struct series_report *r, const struct row *w, const struct stat *stats)
{
	const struct rpt_def *def = r->def;
	struct sink_cell *cells = r->cells;
	bool periodic = r->o.by == BY_HOUR || r->o.by == BY_DAY;
	struct key_fields f;

	if (def->rows != ROWS_INSTANCE)
		split_key(r->keys.t[w->key], &f);
	text_cell(&cells[0], sources_name(r->src, w->source));
	stamp_cell(r, &cells[1], periodic ? w->period : w->first);
	stamp_cell(r, &cells[2], periodic ? period_end(r->o.by, r->o.zone, w->period) : w->last);
	for (size_t c = 0; c < def->ncols; c++) {
		if (def->cols[c].series)
			stat_cell(r, c, &stats[r->col_stat[c]], &cells[3 + c]);
		else
			row_text(r, w, &f, def->cols[c].text, &cells[3 + c]);
	}
	if (!r->o.rows_input)
		r->sink->row(r->sink, cells, false);
	else if (!rowrec_add(&r->rec, r->inputs.t[w->input], cells, r->ncells, false) &&
	         r->left_out++ == 0)
		diag_at(r->diag, PM_E_NOMEM, DIAG_NO_OFFSET,
		        "%zu rows held; further rows are left out", r->rec.nrows);
}

/* What is done with each row: its slot, or NONE for one read back. */
typedef void row_fn(struct series_report *r, const struct row *w, const struct stat *st,
                    uint32_t slot, void *ctx);

static void
emit_row(struct series_report *r, const struct row *w, const struct stat *st, uint32_t slot,
         void *ctx)
{
	(void)slot;
	(void)ctx;
	emit(r, w, st);
}

/* Rows by number: the slots held, ordered before a walk. */
static const struct series_report *sort_report;

static int
by_number(const void *a, const void *b)
{
	uint64_t x = sort_report->rows[*(const uint32_t *)a].n;
	uint64_t y = sort_report->rows[*(const uint32_t *)b].n;

	return x < y ? -1 : x > y;
}

/* Rows first to first + count - 1, given up, read back from the spill
 * file a buffer at a time and handed to fn; from one that cannot be on,
 * left out (said). */
static void
each_spilled(struct series_report *r, uint64_t first, uint64_t count, row_fn *fn, void *ctx)
{
	for (uint64_t n = first, k; n < first + count; n += k) {
		k = first + count - n < r->buffered ? first + count - n : r->buffered;
		if (!read_rows(r, n, (size_t)k))
			return;
		for (size_t i = 0; i < k; i++) {
			if (!unpack_row(r, &r->in[i * r->words], n + i, &r->loaded,
			                r->loaded_stats)) {
				errno = 0;
				unreadable(r);
				return;
			}
			fn(r, &r->loaded, r->loaded_stats, NONE, ctx);
		}
	}
}

/* Every row to fn by number: those held from their slots, the others
 * read back from the spill file (those that cannot be, or every one out
 * of memory, left out and said). */
static void
each_row(struct series_report *r, row_fn *fn, void *ctx)
{
	uint32_t *order;
	size_t n = 0;
	uint64_t next = 0;
	bool sorted = true;

	if (!grow_table((void **)&r->order, &r->order_cap, r->held, sizeof *r->order)) {
		diag_at(r->diag, PM_E_NOMEM, DIAG_NO_OFFSET, "the report's rows are not written");
		return;
	}
	order = r->order;
	for (uint32_t s = 0; s < r->nslots; s++)
		if (r->rows[s].key != NO_KEY) {
			sorted = sorted && (n == 0 || r->rows[order[n - 1]].n < r->rows[s].n);
			order[n++] = s;
		}
	if (!sorted) {
		sort_report = r;
		qsort(order, n, sizeof *order, by_number);
	}
	for (size_t i = 0; i <= n; i++) {
		uint64_t upto = i < n ? r->rows[order[i]].n : r->nrows;
		each_spilled(r, next, upto - next, fn, ctx);
		if (i < n)
			fn(r, &r->rows[order[i]], stats_of(r, order[i]), order[i], ctx);
		next = upto + 1;
	}
}

/* No rows: the report as it was opened (the rows of a frame written). */
static void
forget_rows(struct series_report *r)
{
	free_groups(r);
	if (r->group_index_cap)
		memset(r->group_index, 0, r->group_index_cap * sizeof *r->group_index);
	r->ngroups = r->nruns = r->nrows = r->nslots = r->held = 0;
	r->runs_spilled = 0;
	r->free_slot = r->oldest = r->newest = r->free_run = NONE;
}

/* Write the rows and forget them (the rows of one frame). */
static void
flush(struct series_report *r)
{
	each_row(r, emit_row, NULL);
	forget_rows(r);
}

void
series_report_frame(const struct series_frame *f, void *ctx)
{
	struct series_report *r = ctx;
	const char *name = f->input ? f->input : "-";
	uint32_t input = r->last_input;

	r->offered++;
	if (!source_filter_keeps(&r->filter, f->source))
		return;
	/* most frames come from the input of the frame before: compared,
	 * not hashed */
	if ((!r->inputs.n || strcmp(r->inputs.t[input], name) != 0) &&
	    !texts_intern(&r->inputs, name, &input)) {
		if (r->left_out++ == 0)
			diag_at(r->diag, PM_E_NOMEM, DIAG_NO_OFFSET,
			        "values of further counters are left out");
		return;
	}
	r->last_input = input;
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
	/* the frame's groups are not given up while it adds to them */
	r->clock++;
	for (unsigned two = 0; two < 2; two++) {
		uint32_t g = group_find(r, f->source, period[two]);
		if (g != NONE)
			r->groups[g].used = r->clock;
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
		add_value(&stats_of(r, b->row)[b->stat], b, v);
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

/* What export_row writes of a row: its texts, its numbers, and each
 * counter's flags, type and clock, accumulator and two windows. */
static void
size_row(struct series_report *r, const struct row *x, const struct stat *st,
         uint32_t slot, void *ctx)
{
	uint64_t *len = ctx;

	(void)st;
	(void)slot;
	*len += 4 + strlen(sources_name(r->src, x->source)) + 4 + strlen(r->keys.t[x->key]) +
	        3 * 8 + 4 + strlen(r->inputs.t[x->input]) + 8 +
	        r->nstats * (1 + 1 + 8 + 8 + COUNTER_ACC_WORDS * 8 + 2 * 6 * 8);
}

static void
export_row(struct series_report *r, const struct row *x, const struct stat *st,
           uint32_t slot, void *ctx)
{
	struct pwriter *w = ctx;
	uint64_t words[COUNTER_ACC_WORDS];

	(void)slot;
	pw_text(w, sources_name(r->src, x->source));
	pw_text(w, r->keys.t[x->key]);
	pw_i64(w, x->period);
	pw_i64(w, x->first);
	pw_i64(w, x->last);
	pw_text(w, r->inputs.t[x->input]);
	pw_uint(w, 8, x->seq);
	for (size_t k = 0; k < r->nstats; k++, st++) {
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

void
series_report_export(struct series_report *r, struct pwriter *w)
{
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
	/* the rows section, as large as the rows, written as it comes: its
	 * length first, the rows read back from the spill file twice */
	uint64_t len = 16;
	each_row(r, size_row, &len);
	pw_section_sized(w, rows_tag, len);
	pw_uint(w, 8, r->nstats);
	pw_uint(w, 8, r->nrows);
	each_row(r, export_row, w);
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
		if (w && !merge_stat(&stats_of(r, (uint32_t)(w - r->rows))[k], &st))
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

/* Below 0 when a row first seen in input a as its seq_a-th comes before
 * one first seen in input b as its seq_b-th, above 0 when after. */
static int
appearance_order(const struct series_report *r, uint32_t a, uint64_t seq_a, uint32_t b,
                 uint64_t seq_b)
{
	int order = a == b ? 0 : strcmp(r->inputs.t[a], r->inputs.t[b]);

	if (order)
		return order;
	return seq_a < seq_b ? -1 : seq_a > seq_b;
}

/* A row of a partial merged: new, or found and now first seen earlier.
 * The rows are out of order when a new one comes before the one made
 * last, or one made before is now first seen earlier. */
static void
note_made(struct series_report *r, const struct row *w, bool is_new, bool earlier)
{
	if (!is_new) {
		r->out_of_order |= earlier;
		return;
	}
	if (w->n > 0 && appearance_order(r, w->input, w->seq, r->made_input, r->made_seq) < 0)
		r->out_of_order = true;
	r->made_input = w->input;
	r->made_seq = w->seq;
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
	size_t made;
	pm_status st;

	if (!partial_section(p, counts_tag, &counts) || !partial_section(p, rows_tag, &rows)) {
		snprintf(err, cap, "it holds no rows of a Windows report");
		return PM_E_PARTIAL;
	}
	if (!import_counts(r, counts)) {
		snprintf(err, cap, "its report counts are not whole");
		return PM_E_PARTIAL;
	}
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

		pc_release(&c, p);
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
		r->clock++;  /* the row's group is not given up while it is merged */
		made = r->nrows;
		w = find_row(r, source, period, key_id, input_id);
		if (w) {
			bool earlier = appearance_order(r, input_id, seq, w->input, w->seq) < 0;
			if (earlier)
				w->input = input_id, w->seq = seq;
			note_made(r, w, r->nrows > made, earlier);
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
struct appearance {
	uint32_t input;
	uint32_t slot;          /* where it is held, or NONE */
	uint64_t seq;
	uint64_t n;             /* its number, to read it back */
};

struct appearances {
	struct appearance *a;
	size_t n;
};

static void
note_appearance(struct series_report *r, const struct row *w, const struct stat *st,
                uint32_t slot, void *ctx)
{
	struct appearances *x = ctx;

	(void)r;
	(void)st;
	x->a[x->n++] = (struct appearance){ w->input, slot, w->seq, w->n };
}

static int
by_first_appearance(const void *a, const void *b)
{
	const struct appearance *x = a, *y = b;

	return appearance_order(sort_report, x->input, x->seq, y->input, y->seq);
}

/* The rows of partials merged out of order written in order of first
 * appearance: their keys sorted (24 bytes a row, and as many again for
 * the sort), then each row from its slot, or read back (a buffer at a
 * time from its number on); false out of memory. */
static bool
write_merged(struct series_report *r)
{
	struct appearances x = { malloc(r->nrows * sizeof *x.a), 0 };
	uint64_t from = 0, to = 0;  /* the rows in the buffer */

	if (!x.a)
		return false;
	each_row(r, note_appearance, &x);
	sort_report = r;
	qsort(x.a, x.n, sizeof *x.a, by_first_appearance);
	for (size_t i = 0; i < x.n; i++) {
		uint64_t n = x.a[i].n;
		if (x.a[i].slot != NONE) {
			emit(r, &r->rows[x.a[i].slot], stats_of(r, x.a[i].slot));
			continue;
		}
		if (n < from || n >= to) {
			from = n;
			to = n + (r->spilled - n < r->buffered ? r->spilled - n : r->buffered);
			if (!read_rows(r, from, (size_t)(to - from))) {
				from = to = 0;
				continue;
			}
		}
		if (unpack_row(r, &r->in[(n - from) * r->words], n, &r->loaded, r->loaded_stats)) {
			emit(r, &r->loaded, r->loaded_stats);
		} else {
			errno = 0;
			unreadable(r);
		}
	}
	free(x.a);
	return true;
}

pm_status
series_report_finish(struct series_report *r, struct report_meta *m)
{
	/* rows made in order of first appearance are written by number */
	if (!r->out_of_order || !r->nrows || !write_merged(r)) {
		if (r->out_of_order && r->nrows)
			diag_at(r->diag, PM_E_NOMEM, DIAG_NO_OFFSET, "rows written as they came");
		flush(r);
	}
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
