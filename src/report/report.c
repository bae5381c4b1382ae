/* report.c: a report definition run over frames. See report.h. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/spill.h"
#include "engine/totals.h"
#include "report/metric.h"
#include "report/report.h"
#include "report/rowrec.h"
#include "report/select.h"

#define CELL_MAX 80   /* the most of a name a cell shows */
#define INDEX_MIN 1024
#define TOTALS_SLOTS 64  /* groups whose totals are held at once */

struct group {
	uint32_t source;
	int64_t period;
	size_t acc;       /* its first accumulator, or NOT_HELD */
};

/* A group whose accumulators are in the spill file, not in accs. */
#define NOT_HELD SIZE_MAX


struct report {
	const struct rpt_def *def;
	const struct schema *schema;
	const struct sources *src;
	struct report_opts o;
	struct rowsink *sink;
	struct diag *diag;
	bool keyed;            /* source and period columns lead each row */
	bool stream;           /* rows as intervals come, no groups */
	size_t nrows;          /* rows per group: 1, or one per bucket */
	size_t nbuckets;       /* rows of the schema's family */
	size_t top_base;       /* accumulators of a group: rows x columns, */
	size_t hidden;         /* then buckets x top columns, then hidden */
	size_t stride;
	enum counter_type *types;     /* accumulator type of each column */
	enum counter_type *top_types;
	struct rpt_column incomplete; /* the hidden column: @incomplete */
	/* what a frame adds: every accumulator of a group that keeps
	 * figures, bound to its column and row */
	struct metric_adder adder;
	/* a frame with every group: the adder's simple columns of the
	 * formulas that only add through the totals of a plan, one vector
	 * of words (plan.words) for each of the groups last added to, in
	 * TOTALS_SLOTS slots, and the others
	 * (rest, whose cells are the adder's) one by one */
	struct counter_plan plan;
	struct metric_adder rest;
	uint64_t *totals;
	size_t *totals_owner;  /* the first accumulator + 1 of each slot's
	                          group, 0 for none */
	uint64_t *extra;       /* a frame's virtual figures and sums */
	bool batch_rest;       /* the frames held back are for rest */
	/* a streamed row's figures, rows x columns: each the frame alone,
	 * formatted without an accumulator */
	struct metric_cell *direct;
	struct metric_one *one; /* how each is read */
	size_t *direct_run;    /* of each column: direct ones from it on */
	/* a streamed row's cells as the writer's formulas (rowsink.h's
	 * row_x), rows x cells; NULL when the writer takes none. The direct
	 * columns without one, as their accumulators' offsets: those of row
	 * k end at cell_end[k] */
	struct sink_formula *formulas;
	size_t *cell_at, *cell_end;
	unsigned uses;         /* the schema's sums the bound columns read */
	struct metric_slots slots;
	/* frames held back, to be added together to the group whose
	 * first accumulator is batch_acc (an offset: accs may move) */
	struct metric_frame frames[METRIC_BATCH];
	uint64_t *frame_figures; /* theirs: METRIC_BATCH x slots.count */
	size_t nframes, batch_acc;
	/* a "top" block's buckets, ranked, with their values */
	size_t *order;
	double *rank_value;
	struct counter_acc *blank; /* a new group's accumulators */
	/* the columns written */
	struct sink_column *out;
	size_t nout, nkeys;    /* nkeys: the group key's, first */
	char (*top_names)[RPT_NAME_MAX + 8];
	struct sink_cell *cells;  /* a row's */
	char parts_text[8];    /* a text=parts cell's digits */
	struct metric_fmt *fmt, *top_fmt; /* of each column */
	/* groups, and their index by (source, period) */
	struct group *groups;
	size_t ngroups, cap;
	/* the accumulators of the groups held in memory, a slot of stride
	 * each: at most held_max slots (--group-memory), the others' in the
	 * spill file, a group's at its number; the slot given up next is the
	 * one held longest (hand), as intervals come in time order */
	struct counter_acc *accs;
	size_t held, held_cap, held_max, hand;
	uint32_t *held_by;     /* the group + 1 of each slot, 0 for none */
	struct spill spill;
	uint64_t *packed;      /* a group's accumulators as the file has them */
	struct counter_acc *loaded; /* a group read back to be written out */
	uint32_t *index;       /* group + 1; 0 is empty */
	size_t index_size;     /* a power of two */
	size_t last;           /* the group + 1 found last, 0 for none: the
	                          next frame's, nearly always */
	struct counter_acc *scratch;  /* the one group of a streamed row: only
	                                 its bound accumulators are used */
	/* selection */
	struct source_filter filter;
	uint64_t left_out;     /* intervals of groups beyond --max-groups */
	/* frames offered, and those each selection alone would keep: what
	 * matched nothing, when nothing is reported */
	uint64_t offered, of_sources, in_period, complete, passed;
	/* what was reported */
	uint64_t intervals, incomplete_count;
	int64_t first_start, last_end;
	/* a stream's rows kept for a partial (o.rows_input), or merged from
	 * partials, to be written in their order at the finish */
	struct rowrec rec;
};

const char *
report_by_name(enum report_by by)
{
	static const char *const names[] = { "total", "day", "hour", "interval" };
	return names[by];
}

/* A new group's accumulators, made once for every group to copy. */
static void
init_accs(const struct report *r, struct counter_acc *a)
{
	const struct rpt_def *def = r->def;

	for (size_t row = 0; row < r->nrows; row++)
		for (size_t c = 0; c < def->ncols; c++)
			counter_acc_init(&a[row * def->ncols + c], r->types[c]);
	for (size_t b = 0; b < r->nbuckets && def->ntop; b++)
		for (size_t k = 0; k < def->ntop; k++)
			counter_acc_init(&a[r->top_base + b * def->ntop + k], r->top_types[k]);
	counter_acc_init(&a[r->hidden], r->incomplete.type);
}

static void
bind(struct report *r, size_t acc, const struct rpt_column *c, int bucket)
{
	struct metric_cell cell;

	metric_bind(&cell, c, r->schema, &r->slots, bucket, acc, &r->uses);
	metric_adder_put(&r->adder, &cell);
}

/* Every accumulator that keeps figures, bound to its column and row. */
static void
bind_all(struct report *r)
{
	const struct rpt_def *def = r->def;

	for (size_t row = 0; row < r->nrows; row++)
		for (size_t c = 0; c < def->ncols; c++) {
			size_t acc = row * def->ncols + c;
			int bucket = def->rows == ROWS_BUCKET ? (int)row : -1;

			if (r->types[c] == CT_UNKNOWN)
				continue;
			if (r->stream && r->fmt[c].figure) {
				metric_bind(&r->direct[acc], &def->cols[c], r->schema,
				            &r->slots, bucket, acc, &r->uses);
				metric_one_bind(&r->one[acc], &r->direct[acc], &r->fmt[c]);
			} else
				bind(r, acc, &def->cols[c], bucket);
		}
	for (size_t b = 0; b < r->nbuckets && def->ntop; b++)
		for (size_t k = 0; k < def->ntop; k++)
			if (r->top_types[k] != CT_UNKNOWN)
				bind(r, r->top_base + b * def->ntop + k, &def->top_cols[k],
				     (int)b);
	bind(r, r->hidden, &r->incomplete, -1);
	metric_adder_ready(&r->adder);
}

/* Add the frames held back to their group. */
static void
flush(struct report *r)
{
	if (r->nframes > 0)
		metric_add(&r->accs[r->batch_acc], r->batch_rest ? &r->rest : &r->adder,
		           r->frames, r->nframes);
	r->nframes = 0;
}

/* The totals of the group whose accumulators start at acc, in the slot
 * of its number: the group that had the slot folded into its
 * accumulators first. Intervals come in time order, so the groups of
 * one period (a source's hour, say) meet again in their slots, and the
 * totals take the same memory whatever the number of groups. */
static uint64_t *
totals_of(struct report *r, size_t acc)
{
	size_t slot = acc / r->stride % TOTALS_SLOTS;
	uint64_t *t = r->totals + slot * r->plan.words;

	if (r->totals_owner[slot] != acc + 1) {
		if (r->totals_owner[slot])
			counter_totals_fold(&r->plan, t, &r->accs[r->totals_owner[slot] - 1]);
		r->totals_owner[slot] = acc + 1;
	}
	return t;
}

/* Everything added so far in the accumulators, before they are read. */
static void
settle(struct report *r)
{
	flush(r);
	for (size_t k = 0; k < TOTALS_SLOTS && r->plan.nfeeds; k++)
		if (r->totals_owner[k])
			counter_totals_fold(&r->plan, r->totals + k * r->plan.words,
			                    &r->accs[r->totals_owner[k] - 1]);
}

/* The figures of fr beside its own, into r->extra; its flags. */
static inline unsigned
frame_extras(struct report *r, const struct frame *fr)
{
	unsigned have = metric_frame_extras(r->extra, r->schema, &r->slots, fr, r->uses);

	if (r->slots.count > r->slots.combos)
		metric_frame_combine(r->extra, &r->slots, fr->x);
	return have;
}

/* Add fr to the group whose accumulators start at acc: a frame with
 * every group the plan needs to its totals, the columns that the plan
 * does not take (or all, for other frames) held back until the batch is
 * full or a frame of another group, or for the other adder, comes. */
static void
add_frame(struct report *r, size_t acc, const struct frame *fr)
{
	unsigned have = frame_extras(r, fr);
	bool rest = r->plan.nfeeds && (have & r->plan.need) == r->plan.need;

	if (rest) {
		uint64_t *t = totals_of(r, acc);

		if (counter_totals_add(&r->plan, t, fr->x, r->extra))
			counter_totals_fold(&r->plan, t, &r->accs[acc]);
		if (r->rest.nfeeds == 0 && r->rest.ncells == 0)
			return;
	}
	if (r->nframes > 0 && (acc != r->batch_acc || rest != r->batch_rest))
		flush(r);
	r->batch_acc = acc;
	r->batch_rest = rest;
	metric_frame_set(&r->frames[r->nframes++], r->schema, &r->slots, fr, r->extra, have);
	if (r->nframes == METRIC_BATCH)
		flush(r);
}

/* ---------------------------------------------------------------------- */
/* Rows */

/* A time, shown by the writer as recorded, or with a zone, local with its
 * UTC offset. */
static void
stamp_cell(const struct report *r, struct sink_cell *out, int64_t stamp)
{
	out->kind = SINK_STAMP;
	out->decimals = 0;
	out->v.stamp.at = stamp;
	out->v.stamp.zone = r->o.zone;
}

static void
text_cell(struct sink_cell *out, const char *s, size_t n)
{
	out->kind = SINK_TEXT;
	out->v.text.s = s;
	out->v.text.n = n;
}

/* A name of the schema or a source, cut at CELL_MAX bytes. */
static void
name_cell(struct sink_cell *out, const char *s)
{
	text_cell(out, s, strnlen(s, CELL_MAX));
}

/* The cell of a text column. */
static void
text_column_cell(struct report *r, const struct rpt_column *c,
                 const struct counter_acc *acc, uint32_t source,
                 const struct frame *fr, int bucket, struct sink_cell *out)
{
	size_t n = 0;
	uint64_t first, last;

	out->kind = SINK_EMPTY;
	switch (c->text) {
	case TEXT_SOURCE: name_cell(out, sources_name(r->src, source)); break;
	case TEXT_START: stamp_cell(r, out, fr->start); break;
	case TEXT_END: stamp_cell(r, out, fr->end); break;
	case TEXT_PARTS:
		for (unsigned g = 1; g < 8; g++)
			if (fr->have & (1u << g))
				r->parts_text[n++] = (char)('0' + g);
		text_cell(out, r->parts_text, n);
		break;
	case TEXT_BUCKET: name_cell(out, r->schema->family.rows[bucket].label); break;
	case TEXT_DESCRIPTION: name_cell(out, r->schema->family.rows[bucket].desc); break;
	case TEXT_FIRST_START:
	case TEXT_LAST_END:
		if (counter_acc_span(acc, &first, &last) == PM_OK)
			stamp_cell(r, out, (int64_t)(c->text == TEXT_FIRST_START
			                             ? first : last));
		break;
	case TEXT_PERIOD_START:
	case TEXT_PERIOD_END:
	case TEXT_OBJECT:    /* series reports only (series_report.h) */
	case TEXT_INSTANCE:
	case TEXT_COUNTER:
	case TEXT_TYPE:
	case TEXT_NONE:
		break;
	}
}

/* The cell of a column of a group. */
static void
column_cell(struct report *r, const struct metric_fmt *f,
            const struct counter_acc *acc, uint32_t source,
            const struct frame *fr, int bucket, struct sink_cell *out)
{
	const struct rpt_column *c = f->col;

	if (f->figure)
		metric_figure(f, acc, out);
	else
		text_column_cell(r, c, acc, source, fr, c->row >= 0 ? c->row : bucket, out);
}

/* The buckets of a group by the top block's ranking column, largest
 * first; buckets without a value last; ties in schema order. */
static void
rank_buckets(const struct report *r, const struct counter_acc *a, size_t *order)
{
	const struct rpt_def *def = r->def;
	size_t nb = r->nbuckets;
	double *v = r->rank_value;

	for (size_t b = 0; b < nb; b++) {
		if (metric_value(&def->top_cols[def->top_by],
		                 &a[r->top_base + b * def->ntop + def->top_by], &v[b]) != PM_OK)
			v[b] = -INFINITY;
		order[b] = b;
		/* insertion: stable, and nb is small */
		for (size_t i = b; i > 0 && v[order[i]] > v[order[i - 1]]; i--) {
			size_t t = order[i];
			order[i] = order[i - 1];
			order[i - 1] = t;
		}
	}
}

/* A row to the writer, or, for a stream's partial, kept with the input it
 * came from. */
static void
put_row(struct report *r, bool marked)
{
	if (!r->o.rows_input) {
		r->sink->row(r->sink, r->cells, marked);
		return;
	}
	if (!rowrec_add(&r->rec, *r->o.rows_input, r->cells, r->nout, marked) &&
	    r->left_out++ == 0)
		diag_at(r->diag, PM_E_NOMEM, DIAG_NO_OFFSET,
		        "%zu rows held; further rows are left out", r->rec.nrows);
}

/* The cells of a streamed row's direct columns, cells[c] of column c:
 * all of them, or only those without a formula. */
static void
direct_cells(struct report *r, size_t row, struct sink_cell *cells, bool all)
{
	const struct rpt_def *def = r->def;

	if (!all) {
		for (size_t k = row ? r->cell_end[row - 1] : 0; k < r->cell_end[row]; k++) {
			size_t at = r->cell_at[k], c = at - row * def->ncols;

			metric_frame_figures(&r->one[at], &r->fmt[c], &r->direct[at], 1,
			                     &r->frames[0], &cells[c]);
		}
		return;
	}
	for (size_t c = 0, n; c < def->ncols; c += n) {
		size_t at = row * def->ncols + c;

		if ((n = r->direct_run[c]) == 0)
			n = 1;
		else
			metric_frame_figures(&r->one[at], &r->fmt[c], &r->direct[at], n,
			                     &r->frames[0], &cells[c]);
	}
}

/* Write a group's rows; fr is the frame of a streamed row. */
static void
emit(struct report *r, uint32_t source, int64_t period, const struct frame *fr,
     const struct counter_acc *a)
{
	const struct rpt_def *def = r->def;
	uint64_t incomplete;
	bool marked = counter_acc_sum(&a[r->hidden], &incomplete) == PM_OK &&
	              incomplete > 0;
	size_t *order = r->order;

	if (def->ntop)
		rank_buckets(r, a, order);
	for (size_t row = 0; row < r->nrows; row++) {
		int bucket = def->rows == ROWS_BUCKET ? (int)row : -1;
		size_t i = 0, first;
		struct sink_cell *cells = r->cells;
		const struct sink_formula *plan =
			r->formulas && !r->o.rows_input ? r->formulas + row * r->nout : NULL;

		if (r->keyed) {
			name_cell(&cells[i++], sources_name(r->src, source));
			if (r->o.by != BY_TOTAL) {
				int64_t end = r->o.by == BY_INTERVAL ? fr->end
				              : period_end(r->o.by, r->o.zone, period);
				stamp_cell(r, &cells[i++], period);
				stamp_cell(r, &cells[i++], end);
			}
		}
		first = i;
		for (size_t c = 0, n; c < def->ncols; c += n, i += n)
			if ((n = r->direct_run[c]) == 0) {
				n = 1;
				column_cell(r, &r->fmt[c], &a[row * def->ncols + c],
				            source, fr, bucket, &cells[i]);
			}
		direct_cells(r, row, cells + first, !plan);
		for (unsigned k = 0; k < def->top_n && k < r->nbuckets; k++)
			for (size_t c = 0; c < def->ntop; c++, i++)
				column_cell(r, &r->top_fmt[c],
				            &a[r->top_base + order[k] * def->ntop + c], source,
				            fr, (int)order[k], &cells[i]);
		/* the writer works out the figures with a formula from the
		 * frame; where one does not fit 64 bits, the row as cells */
		if (plan && r->sink->row_x(r->sink, cells, plan, r->frames[0].x,
		                           r->frames[0].have, marked))
			continue;
		if (plan)
			direct_cells(r, row, cells + first, true);
		put_row(r, marked);
	}
}

/* ---------------------------------------------------------------------- */
/* Groups */

static size_t
slot_of(const struct report *r, uint32_t source, int64_t period)
{
	uint64_t h = ((uint64_t)source * UINT64_C(0x9E3779B97F4A7C15)) ^ (uint64_t)period;

	h ^= h >> 31;
	h *= UINT64_C(0xBF58476D1CE4E5B9);
	h ^= h >> 29;
	return (size_t)h & (r->index_size - 1);
}

static void
index_put(struct report *r, size_t g)
{
	size_t s = slot_of(r, r->groups[g].source, r->groups[g].period);

	while (r->index[s])
		s = (s + 1) & (r->index_size - 1);
	r->index[s] = (uint32_t)(g + 1);
}

/* Room for one more group: the table doubles, the index stays under
 * half full. */
static bool
grow(struct report *r)
{
	if (r->ngroups == r->cap) {
		size_t cap = r->cap * 2;
		struct group *g = realloc(r->groups, cap * sizeof *g);
		if (!g)
			return false;
		r->groups = g;
		r->cap = cap;
	}
	if ((r->ngroups + 1) * 2 > r->index_size) {
		uint32_t *idx = calloc(r->index_size * 2, sizeof *idx);
		if (!idx)
			return false;
		free(r->index);
		r->index = idx;
		r->index_size *= 2;
		for (size_t g = 0; g < r->ngroups; g++)
			index_put(r, g);
	}
	return true;
}

/* Group g's accumulators from acc on, packed as the spill file keeps
 * them, or back. */
static void
pack_group(const struct report *r, const struct counter_acc *acc)
{
	for (size_t k = 0; k < r->stride; k++)
		counter_acc_pack(&acc[k], &r->packed[k * COUNTER_ACC_WORDS]);
}

static bool
unpack_group(const struct report *r, struct counter_acc *acc)
{
	for (size_t k = 0; k < r->stride; k++)
		if (counter_acc_unpack(&acc[k], &r->packed[k * COUNTER_ACC_WORDS]) != PM_OK)
			return false;
	return true;
}

/* The group in slot moved to the spill file, all that was added to it
 * first; false when it cannot be written (said once: from then on every
 * group is held). */
static bool
give_up(struct report *r, size_t slot)
{
	size_t acc = slot * r->stride, g = r->held_by[slot] - 1, t = slot % TOTALS_SLOTS;

	if (r->held_by[slot] == 0)
		return true;  /* a group that could not be read back */
	if (r->nframes > 0 && r->batch_acc == acc)
		flush(r);
	if (r->plan.nfeeds && r->totals_owner[t] == acc + 1) {
		counter_totals_fold(&r->plan, r->totals + t * r->plan.words, &r->accs[acc]);
		r->totals_owner[t] = 0;
	}
	pack_group(r, &r->accs[acc]);
	if (spill_put(&r->spill, g, 1, r->packed) != PM_OK) {
		diag_at(r->diag, PM_E_SPILL, DIAG_NO_OFFSET, "%s; %zu groups held in memory",
		        strerror(errno), r->held);
		r->held_max = SIZE_MAX;
		return false;
	}
	r->groups[g].acc = NOT_HELD;
	r->held_by[slot] = 0;
	if (r->last == g + 1)
		r->last = 0;
	return true;
}

/* A slot for group g, a new one while there are fewer than held_max,
 * else the one held longest, given up; false when out of memory. */
static bool
hold(struct report *r, size_t g)
{
	size_t slot;

	if (r->held == r->held_max && give_up(r, r->hand)) {
		slot = r->hand;
		r->hand = (r->hand + 1) % r->held;
	} else {
		if (r->held == r->held_cap) {
			size_t cap = r->held_cap * 2 < r->held_max ? r->held_cap * 2 : r->held_max;
			if (cap <= r->held)
				cap = r->held + 1;  /* past held_max: the file failed */
			struct counter_acc *a = realloc(r->accs, cap * r->stride * sizeof *a);
			uint32_t *by = realloc(r->held_by, cap * sizeof *by);
			if (a)
				r->accs = a;
			if (by)
				r->held_by = by;
			if (!a || !by)
				return false;
			r->held_cap = cap;
		}
		slot = r->held++;
	}
	r->held_by[slot] = (uint32_t)(g + 1);
	r->groups[g].acc = slot * r->stride;
	return true;
}

/* Group g's accumulators read back from the spill file into acc; false
 * when they cannot be (said). */
static bool
read_back(struct report *r, size_t g, struct counter_acc *acc)
{
	if (spill_get(&r->spill, g, 1, r->packed) == PM_OK && unpack_group(r, acc))
		return true;
	diag_at(r->diag, PM_E_READ, DIAG_NO_OFFSET, "the report's temporary file: %s",
	        errno ? strerror(errno) : "a group is not what was written");
	return false;
}

/* Group g's accumulators read back into a slot; false when they cannot
 * be (said). */
static bool
take_back(struct report *r, size_t g)
{
	if (!hold(r, g))
		return false;
	if (read_back(r, g, &r->accs[r->groups[g].acc]))
		return true;
	r->held_by[r->groups[g].acc / r->stride] = 0;
	r->groups[g].acc = NOT_HELD;
	return false;
}

/* Group g's accumulators, to be read: where they are held, or read back
 * into loaded; NULL when they cannot be (said). */
static const struct counter_acc *
group_accs(struct report *r, size_t g)
{
	if (r->groups[g].acc != NOT_HELD)
		return &r->accs[r->groups[g].acc];
	return read_back(r, g, r->loaded) ? r->loaded : NULL;
}

/* find_group's way when the group is not the last one found: through the
 * index (read back when it was given up), or a new group. Apart, so that
 * the usual way is a few instructions inline. */
static __attribute__((noinline)) bool
find_group_indexed(struct report *r, uint32_t source, int64_t period, size_t *acc)
{
	for (size_t s = slot_of(r, source, period); r->index[s];
	     s = (s + 1) & (r->index_size - 1)) {
		size_t gi = r->index[s] - 1;
		struct group *g = &r->groups[gi];
		if (g->source == source && g->period == period) {
			if (g->acc == NOT_HELD && !take_back(r, gi)) {
				r->left_out++;
				return false;
			}
			r->last = gi + 1;
			*acc = g->acc;
			return true;
		}
	}
	if ((r->ngroups + 1) * r->nrows > r->o.max_groups || !grow(r) || !hold(r, r->ngroups)) {
		if (r->left_out++ == 0)
			diag_at(r->diag, (r->ngroups + 1) * r->nrows > r->o.max_groups
			        ? PM_E_GROUP_LIMIT : PM_E_NOMEM, DIAG_NO_OFFSET,
			        "%zu rows held; intervals of further groups are left out",
			        r->ngroups * r->nrows);
		return false;
	}
	struct group *g = &r->groups[r->ngroups];
	g->source = source;
	g->period = period;
	index_put(r, r->ngroups++);
	r->last = r->ngroups;
	memcpy(&r->accs[g->acc], r->blank, r->stride * sizeof *r->blank);
	*acc = g->acc;
	return true;
}

/* The first accumulator of (source, period), an offset into accs; false
 * when the group would pass --max-groups or memory ran out (reported
 * once). */
static inline bool
find_group(struct report *r, uint32_t source, int64_t period, size_t *acc)
{
	if (r->last) {
		const struct group *g = &r->groups[r->last - 1];

		if (g->source == source && g->period == period) {
			*acc = g->acc;
			return true;
		}
	}
	return find_group_indexed(r, source, period, acc);
}

/* ---------------------------------------------------------------------- */
/* Frames */

void
report_frame(const struct frame *fr, void *ctx)
{
	struct report *r = ctx;
	bool complete = schema_frame_complete(r->schema, fr);
	bool in_period = fr->start >= r->o.from && fr->start < r->o.to;
	bool of_source = source_filter_keeps(&r->filter, fr->source);
	int64_t period = 0;
	size_t acc;

	r->offered++;
	r->of_sources += of_source;
	r->in_period += in_period;
	r->complete += complete;
	if ((r->o.complete_only && !complete) || !in_period || !of_source)
		return;
	r->passed++;
	if (r->stream) {
		/* a row of its own, written now */
		metric_restart(r->scratch, &r->adder);
		metric_frame_set(&r->frames[0], r->schema, &r->slots, fr, r->extra,
		                 frame_extras(r, fr));
		metric_add(r->scratch, &r->adder, r->frames, 1);
	} else {
		if (r->o.by == BY_DAY || r->o.by == BY_HOUR)
			period = period_start(r->o.by, r->o.zone, fr->start);
		if (!find_group(r, fr->source, period, &acc))
			return;
		add_frame(r, acc, fr);
	}
	if (r->intervals == 0 || fr->start < r->first_start)
		r->first_start = fr->start;
	if (r->intervals == 0 || fr->end > r->last_end)
		r->last_end = fr->end;
	r->intervals++;
	r->incomplete_count += !complete;
	if (r->stream)
		emit(r, fr->source, fr->start, fr, r->scratch);
}

/* Add to the n bytes of out (cap in all) what fmt says; n grows by what
 * was added, and stays below cap. */
static size_t
append(char *out, size_t cap, size_t n, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

static size_t
append(char *out, size_t cap, size_t n, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (n + 1 >= cap)
		return n;
	va_start(ap, fmt);
	k = vsnprintf(out + n, cap - n, fmt, ap);
	va_end(ap);
	return k < 0 ? n : n + (size_t)k < cap ? n + (size_t)k : cap - 1;
}

bool
report_what_matched_nothing(const struct report *r, char *out, size_t cap)
{
	const struct report_opts *o = &r->o;
	bool from = o->from != INT64_MIN, to = o->to != INT64_MAX;
	/* the selections that matched nothing on their own */
	bool source = r->of_sources == 0, period = r->in_period == 0,
	     complete = o->complete_only && r->complete == 0;
	char stamp[TZONE_TEXT];
	size_t n;

	if (r->offered == 0 || r->passed > 0)
		return false;
	if (!source && !period && !complete) {
		/* each kept some: together they matched nothing */
		source = o->nsources > 0;
		period = from || to;
		complete = o->complete_only;
	}
	n = append(out, cap, 0, "no%s interval", complete ? " complete" : "");
	for (size_t i = 0; source && i < o->nsources; i++)
		n = append(out, cap, n, "%s%s", i ? ", " : o->nsources > 1 ?
		           " of sources " : " of source ", o->sources[i]);
	if (period) {
		n = append(out, cap, n, " starting %s", !from ? "before" :
		           to ? "between" : "at or after");
		if (from) {
			tzone_format(NULL, o->from, stamp);
			n = append(out, cap, n, " --from=%s%s", stamp, to ? " and" : "");
		}
		if (to) {
			tzone_format(NULL, o->to, stamp);
			append(out, cap, n, " --to=%s", stamp);
		}
	}
	return true;
}

/* ---------------------------------------------------------------------- */
/* Open and finish */

static void
out_column(struct report *r, const char *name, const char *heading,
           const struct rpt_column *col, bool key, unsigned rank)
{
	r->out[r->nout++] = (struct sink_column){
		name, heading, col && col->text == TEXT_NONE, key, col ? col->width : 0,
		rank, .decimals = col ? (uint8_t)col->decimals : 0,
		.block_heading = rank ? heading : NULL };
}

/* Whether a definition's column is part of the row's key beside the group
 * key: a bucket report's row bucket; an interval report's source and start
 * (repeated intervals are left out, so no two rows share them). */
static bool
row_key_column(const struct rpt_def *def, const struct rpt_column *col)
{
	if (def->rows == ROWS_BUCKET)
		return col->text == TEXT_BUCKET && col->row < 0;
	return def->rows == ROWS_INTERVAL &&
	       (col->text == TEXT_SOURCE || col->text == TEXT_START);
}

/* Mark the row's key primary, when the columns hold all of it (a bucket
 * report without its bucket column, or an interval report without source
 * or start, has none). */
static void
mark_primary(struct report *r, size_t ngroup_key)
{
	const struct rpt_def *def = r->def;
	unsigned found = 0, want = def->rows == ROWS_BUCKET ? 1 : def->rows == ROWS_INTERVAL ? 2 : 0;
	bool seen[TEXT_TYPE + 1] = { false };

	for (size_t c = 0; c < def->ncols; c++)
		if (row_key_column(def, &def->cols[c]) && !seen[def->cols[c].text]) {
			seen[def->cols[c].text] = true;
			found++;
		}
	if (found < want)
		return;
	for (size_t i = 0; i < ngroup_key; i++)
		r->out[i].primary = true;
	for (size_t c = 0; c < def->ncols; c++)
		r->out[ngroup_key + c].primary = row_key_column(def, &def->cols[c]);
}

/* The columns written: the group key, the definition's columns, then the
 * top block's columns for each rank ("top1_bucket", ...). Leading text
 * columns are keys for the text format's panels. */
static void
build_out(struct report *r)
{
	static const char *const key_names[] = { "source", "period_start", "period_end" };
	const struct rpt_def *def = r->def;
	size_t ngroup_key = r->keyed ? (r->o.by == BY_TOTAL ? 1u : 3u) : 0;
	bool leading = true;

	r->nkeys = ngroup_key;
	for (size_t i = 0; i < ngroup_key; i++)
		out_column(r, key_names[i], key_names[i], NULL, true, 0);
	for (size_t c = 0; c < def->ncols; c++) {
		const struct rpt_column *col = &def->cols[c];
		leading = leading && col->text != TEXT_NONE;
		out_column(r, col->name, col->heading, col, leading, 0);
		if (col->block_heading[0]) { /* of an "each bucket" block */
			struct sink_column *o = &r->out[r->nout - 1];
			o->row_label = r->schema->family.rows[col->row].label;
			o->row_desc = r->schema->family.rows[col->row].desc;
			o->block_heading = col->block_heading;
		}
	}
	for (unsigned k = 0; k < def->top_n && k < r->nbuckets; k++)
		for (size_t c = 0; c < def->ntop; c++) {
			char *n = r->top_names[k * def->ntop + c];
			snprintf(n, RPT_NAME_MAX + 8, "top%u_%s", k + 1, def->top_cols[c].name);
			out_column(r, n, def->top_cols[c].heading, &def->top_cols[c], false, k + 1);
		}
	mark_primary(r, ngroup_key);
}

static void
hidden_column(struct report *r)
{
	struct rpt_column *c = &r->incomplete;

	memset(c, 0, sizeof *c);
	strcpy(c->name, "@incomplete");
	c->type = counter_type_by_name("PERF_COUNTER_LARGE_DELTA");
	c->total = c->has_n = true;
	c->n.nterms = 1;
	c->n.terms[0] = (struct rpt_term){ TERM_INCOMPLETE, 0, 1 };
	c->row = -1;
	c->scale_num = c->scale_den = 1;
}

/* The report's tables, sized from its definition and schema; false when
 * out of memory. */
static bool
alloc_tables(struct report *r)
{
	const struct rpt_def *def = r->def;
	size_t top_out = (size_t)def->top_n * def->ntop, nout = 3 + def->ncols + top_out;
	bool adder = metric_adder_init(&r->adder, r->stride);

	r->types = calloc(def->ncols + 1, sizeof *r->types);
	r->top_types = calloc(def->ntop + 1, sizeof *r->top_types);
	r->out = calloc(nout, sizeof *r->out);
	r->top_names = calloc(top_out + 1, sizeof *r->top_names);
	r->cells = calloc(nout, sizeof *r->cells);
	r->fmt = calloc(def->ncols + 1, sizeof *r->fmt);
	r->top_fmt = calloc(def->ntop + 1, sizeof *r->top_fmt);
	r->cap = r->stream ? 1 : 64;
	r->groups = malloc(r->cap * sizeof *r->groups);
	r->held_max = r->o.group_memory ? r->o.group_memory / (r->stride * sizeof *r->accs) : SIZE_MAX;
	if (r->held_max == 0)
		r->held_max = 1;
	r->held_cap = r->cap < r->held_max ? r->cap : r->held_max;
	r->accs = malloc(r->held_cap * r->stride * sizeof *r->accs);
	r->held_by = malloc(r->held_cap * sizeof *r->held_by);
	spill_init(&r->spill, r->stride * COUNTER_ACC_WORDS * sizeof *r->packed);
	r->packed = malloc(r->spill.size);
	r->loaded = malloc(r->stride * sizeof *r->loaded);
	r->index_size = INDEX_MIN;
	r->index = calloc(r->index_size, sizeof *r->index);
	r->direct = calloc(r->top_base + 1, sizeof *r->direct);
	r->one = calloc(r->top_base + 1, sizeof *r->one);
	r->direct_run = calloc(def->ncols + 1, sizeof *r->direct_run);
	if (r->stream && r->sink->row_x &&
	    (!(r->formulas = calloc(r->nrows * nout, sizeof *r->formulas)) ||
	     !(r->cell_at = calloc(r->top_base + 1, sizeof *r->cell_at)) ||
	     !(r->cell_end = calloc(r->nrows, sizeof *r->cell_end))))
		return false;
	r->blank = calloc(r->stride, sizeof *r->blank);
	r->order = calloc(r->nbuckets + 1, sizeof *r->order);
	r->rank_value = calloc(r->nbuckets + 1, sizeof *r->rank_value);
	return r->types && r->top_types && r->out && r->top_names && r->cells &&
	       r->fmt && r->top_fmt && source_filter_init(&r->filter, &r->o, r->src) &&
	       r->groups && r->accs && r->held_by && r->packed && r->loaded && r->index && adder && r->direct && r->one && r->direct_run &&
	       r->blank && r->order && r->rank_value;
}

/* Each column's accumulator type and format, then what a frame adds and
 * the columns written. */
static void
bind_columns(struct report *r)
{
	const struct rpt_def *def = r->def;

	r->scratch = r->accs;
	for (size_t c = 0; c < def->ncols; c++) {
		r->types[c] = metric_acc_type(&def->cols[c]);
		metric_fmt_bind(&r->fmt[c], &def->cols[c]);
	}
	for (size_t c = 0; c < def->ntop; c++) {
		r->top_types[c] = metric_acc_type(&def->top_cols[c]);
		metric_fmt_bind(&r->top_fmt[c], &def->top_cols[c]);
	}
	for (size_t c = def->ncols; c-- > 0;)
		r->direct_run[c] = r->stream && r->fmt[c].figure ? r->direct_run[c + 1] + 1 : 0;
	init_accs(r, r->blank);
	bind_all(r);
	build_out(r);
	for (size_t row = 0, k = 0; r->formulas && row < r->nrows; r->cell_end[row++] = k)
		for (size_t c = 0; c < def->ncols; c++) {
			size_t at = row * def->ncols + c;
			struct sink_formula *f = &r->formulas[row * r->nout + r->nkeys + c];

			if (!r->direct_run[c])
				continue;
			metric_one_formula(&r->one[at], f);
			if (f->from == SINK_FROM_CELL)
				r->cell_at[k++] = at;
		}
}

/* The frames held back, sized now that the columns have bound their
 * combinations; the plan of the grouped reports' columns (a streamed
 * row's are the frame alone), and the slots of the groups' totals. */
static pm_status
plan_columns(struct report *r)
{
	pm_status st;
	uint8_t *bits;

	r->rest = r->adder;
	if (!(r->rest.feeds = calloc(r->stride, sizeof *r->rest.feeds)) ||
	    !(r->extra = calloc(r->slots.count - r->slots.virt + 1, sizeof *r->extra)) ||
	    !(r->frame_figures = calloc(METRIC_BATCH * r->slots.count,
	                                sizeof *r->frame_figures)))
		return PM_E_NOMEM;
	for (size_t k = 0; k < METRIC_BATCH; k++)
		r->frames[k].x = r->frame_figures + k * r->slots.count;
	if (r->stream) {
		r->rest.nfeeds = 0;
		return PM_OK;
	}
	if (!(bits = malloc(r->slots.count)))
		return PM_E_NOMEM;
	metric_slot_bits(bits, r->schema, &r->slots);
	st = counter_plan_init(&r->plan, r->adder.feeds, r->adder.nfeeds, (uint16_t)r->slots.virt,
	                       bits, r->rest.feeds, &r->rest.nfeeds);
	free(bits);
	if (st != PM_OK)
		return st;
	counter_feed_sort(r->rest.feeds, r->rest.nfeeds);
	r->totals = calloc(TOTALS_SLOTS * r->plan.words + 1, sizeof *r->totals);
	r->totals_owner = calloc(TOTALS_SLOTS, sizeof *r->totals_owner);
	return r->totals && r->totals_owner ? PM_OK : PM_E_NOMEM;
}

pm_status
report_open(struct report **out, const struct rpt_def *def,
            const struct schema *s, const struct sources *src,
            const struct report_opts *o, struct rowsink *sink, struct diag *d)
{
	struct report *r = calloc(1, sizeof *r);
	pm_status st;

	*out = NULL;
	if (!r)
		return PM_E_NOMEM;
	r->def = def;
	r->schema = s;
	r->src = src;
	r->o = *o;
	r->sink = sink;
	r->diag = d;
	r->keyed = def->rows != ROWS_INTERVAL;
	r->stream = def->rows == ROWS_INTERVAL || o->by == BY_INTERVAL;
	r->nbuckets = s->family.nrows;
	r->nrows = def->rows == ROWS_BUCKET ? r->nbuckets : 1;
	r->top_base = r->nrows * def->ncols;
	r->hidden = r->top_base + (def->ntop ? r->nbuckets * def->ntop : 0);
	r->stride = r->hidden + 1;
	hidden_column(r);
	if ((st = metric_slots_of(&r->slots, s)) != PM_OK ||
	    (st = alloc_tables(r) ? PM_OK : PM_E_NOMEM) != PM_OK) {
		report_close(r);
		return st;
	}
	bind_columns(r);
	if ((st = plan_columns(r)) != PM_OK) {
		report_close(r);
		return st;
	}
	if ((st = sink->begin(sink, r->out, r->nout, def->layout == LAYOUT_FORM)) != PM_OK) {
		report_close(r);
		return st;
	}
	*out = r;
	return PM_OK;
}

struct sort_key {
	const char *name;
	int64_t period;
	size_t group;
};

static int
by_source_then_period(const void *a, const void *b)
{
	const struct sort_key *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return (x->period > y->period) - (x->period < y->period);
}

/* ---------------------------------------------------------------------- */
/* Partials */

static const char counts_tag[4] = { 'R', 'P', 'T', 'C' };
static const char groups_tag[4] = { 'R', 'P', 'T', 'G' };

size_t
report_rows(const struct report *r)
{
	return r->ngroups * r->nrows;
}

bool
report_partial_ok(const struct report *r)
{
	(void)r;
	return true;  /* groups, or a stream's rows */
}

void
report_export(struct report *r, struct pwriter *w)
{
	uint64_t words[COUNTER_ACC_WORDS];

	settle(r);
	pw_section(w, counts_tag);
	pw_uint(w, 8, r->offered);
	pw_uint(w, 8, r->of_sources);
	pw_uint(w, 8, r->in_period);
	pw_uint(w, 8, r->complete);
	pw_uint(w, 8, r->passed);
	pw_uint(w, 8, r->intervals);
	pw_uint(w, 8, r->incomplete_count);
	pw_i64(w, r->first_start);
	pw_i64(w, r->last_end);
	pw_uint(w, 8, r->left_out);
	pw_end_section(w);
	/* the groups section, as large as the groups (every group's every
	 * accumulator), written as it comes */
	uint64_t len = 16;
	for (size_t g = 0; g < r->ngroups; g++)
		len += 4 + strlen(sources_name(r->src, r->groups[g].source)) + 8 +
		       r->stride * COUNTER_ACC_WORDS * 8;
	pw_section_sized(w, groups_tag, len);
	pw_uint(w, 8, r->stride);
	pw_uint(w, 8, r->ngroups);
	for (size_t g = 0; g < r->ngroups; g++) {
		const struct counter_acc *a = group_accs(r, g);
		pw_text(w, sources_name(r->src, r->groups[g].source));
		pw_i64(w, r->groups[g].period);
		for (size_t k = 0; k < r->stride; k++) {
			counter_acc_pack(a ? &a[k] : &r->blank[k], words);
			for (size_t i = 0; i < COUNTER_ACC_WORDS; i++)
				pw_uint(w, 8, words[i]);
		}
	}
	pw_end_section(w);
	if (r->stream)
		rowrec_export(&r->rec, r->nout, w);
}

/* The counts of a partial added to the report's. */
static bool
import_counts(struct report *r, struct span s)
{
	struct pcursor c = pc_make(s);
	uint64_t intervals;
	int64_t first, last;

	r->offered += pc_uint(&c, 8);
	r->of_sources += pc_uint(&c, 8);
	r->in_period += pc_uint(&c, 8);
	r->complete += pc_uint(&c, 8);
	r->passed += pc_uint(&c, 8);
	intervals = pc_uint(&c, 8);
	r->incomplete_count += pc_uint(&c, 8);
	first = pc_i64(&c);
	last = pc_i64(&c);
	r->left_out += pc_uint(&c, 8);
	if (intervals && (r->intervals == 0 || first < r->first_start))
		r->first_start = first;
	if (intervals && (r->intervals == 0 || last > r->last_end))
		r->last_end = last;
	r->intervals += intervals;
	return pc_done(&c);
}

/* Each group of a partial merged into the report's group of the same
 * source and period. */
static pm_status
import_groups(struct report *r, const struct partial *p, struct span s, struct sources *src,
              char *err, size_t cap)
{
	struct pcursor c = pc_make(s);
	uint64_t words[COUNTER_ACC_WORDS], stride = pc_uint(&c, 8), n = pc_uint(&c, 8);
	char name[SOURCE_NAME_MAX];
	struct counter_acc acc;
	uint32_t source;
	size_t first;
	pm_status st;

	if (stride != r->stride) {
		snprintf(err, cap, "its groups hold %llu figures, this report's %zu",
		         (unsigned long long)stride, r->stride);
		return PM_E_PARTIAL_MISMATCH;
	}
	for (uint64_t g = 0; g < n && !c.bad; g++) {
		pc_release(&c, p);
		pc_text(&c, name, sizeof name);
		int64_t period = pc_i64(&c);
		if (c.bad)
			break;
		if ((st = sources_intern(src, name, strlen(name), &source)) != PM_OK)
			return st;
		if (!find_group(r, source, period, &first))
			return PM_OK;  /* past --max-groups: said, and counted */
		for (size_t k = 0; k < r->stride; k++) {
			for (size_t i = 0; i < COUNTER_ACC_WORDS; i++)
				words[i] = pc_uint(&c, 8);
			if (c.bad || counter_acc_unpack(&acc, words) != PM_OK ||
			    acc.type != r->accs[first + k].type ||
			    (acc.type != CT_UNKNOWN &&
			     counter_acc_merge(&r->accs[first + k], &acc) != PM_OK)) {
				snprintf(err, cap, "group %llu: figure %zu is not one this report "
				         "keeps", (unsigned long long)g, k);
				return PM_E_PARTIAL;
			}
		}
	}
	if (!pc_done(&c)) {
		snprintf(err, cap, "its groups section does not hold what it says");
		return PM_E_PARTIAL;
	}
	return PM_OK;
}

pm_status
report_import(struct report *r, const struct partial *p, struct sources *src, char *err,
              size_t cap)
{
	struct span counts, groups, rows;
	bool has_rows = partial_section(p, ROWREC_TAG, &rows);
	pm_status st;

	if (!partial_section(p, counts_tag, &counts) || !partial_section(p, groups_tag, &groups)) {
		snprintf(err, cap, "it holds no report groups");
		return PM_E_PARTIAL;
	}
	/* the identity says so already; a stream's rows never pass for
	 * groups, nor groups for rows */
	if (has_rows != r->stream) {
		snprintf(err, cap, has_rows ? "it holds a row per interval, this report "
		         "groups them" : "it holds groups, this report has a row per interval");
		return PM_E_PARTIAL_MISMATCH;
	}
	settle(r);
	if (!import_counts(r, counts)) {
		snprintf(err, cap, "its report counts are not whole");
		return PM_E_PARTIAL;
	}
	if ((st = import_groups(r, p, groups, src, err, cap)) != PM_OK || !has_rows)
		return st;
	return rowrec_import(&r->rec, rows, r->nout, err, cap);
}

pm_status
report_finish(struct report *r, struct report_meta *m)
{
	struct sort_key *keys = NULL;

	settle(r);
	if (r->ngroups) {
		keys = malloc(r->ngroups * sizeof *keys);
		if (!keys)
			return PM_E_NOMEM;
		for (size_t g = 0; g < r->ngroups; g++)
			keys[g] = (struct sort_key){ sources_name(r->src, r->groups[g].source),
			                             r->groups[g].period, g };
		qsort(keys, r->ngroups, sizeof *keys, by_source_then_period);
		for (size_t i = 0; i < r->ngroups; i++) {
			const struct group *g = &r->groups[keys[i].group];
			const struct counter_acc *a = group_accs(r, keys[i].group);
			if (a)
				emit(r, g->source, g->period, NULL, a);
		}
		free(keys);
	}
	if (r->rec.nrows && !r->o.rows_input &&
	    rowrec_replay(&r->rec, r->cells, r->nout, r->o.zone, r->sink) != PM_OK)
		return PM_E_NOMEM;
	m->any_interval = r->intervals > 0;
	m->first_start = r->first_start;
	m->zone = r->o.zone;
	m->last_end = r->last_end;
	m->intervals = r->intervals;
	m->incomplete = r->incomplete_count;
	m->grouping = r->def->rows == ROWS_INTERVAL ? "interval" : report_by_name(r->o.by);
	if (r->left_out)
		diag_at(r->diag, PM_E_GROUP_LIMIT, DIAG_NO_OFFSET,
		        "%llu intervals left out of the report",
		        (unsigned long long)r->left_out);
	return r->sink->end(r->sink, m);
}

void
report_close(struct report *r)
{
	if (!r)
		return;
	free(r->types);
	free(r->top_types);
	free(r->out);
	free(r->top_names);
	free(r->cells);
	free(r->fmt);
	free(r->top_fmt);
	source_filter_free(&r->filter);
	free(r->groups);
	free(r->accs);
	free(r->held_by);
	free(r->packed);
	free(r->loaded);
	spill_close(&r->spill);
	free(r->index);
	metric_adder_free(&r->adder);
	free(r->rest.feeds);
	counter_plan_free(&r->plan);
	metric_slots_free(&r->slots);
	free(r->totals);
	free(r->totals_owner);
	free(r->extra);
	free(r->direct);
	free(r->one);
	free(r->formulas);
	free(r->cell_at);
	free(r->cell_end);
	free(r->direct_run);
	free(r->blank);
	free(r->frame_figures);
	free(r->order);
	free(r->rank_value);
	rowrec_free(&r->rec);
	free(r);
}
