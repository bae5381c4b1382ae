/* metric.c: the counter engine applied to PMIM. See metric.h. */
#include <stdlib.h>
#include <string.h>

#include "core/fmtnum.h"
#include "core/gcd.h"
#include "report/metric.h"
#include "pmim/pmtime.h"

typedef unsigned __int128 u128;

enum counter_type
metric_acc_type(const struct rpt_column *c)
{
	if (c->text == TEXT_FIRST_START || c->text == TEXT_LAST_END)
		return counter_type_by_name("PERF_ELAPSED_TIME");
	return c->text == TEXT_NONE ? c->type : CT_UNKNOWN;
}

/* The slot a term reads; b is the row's bucket. */
static uint16_t
term_slot(const struct rpt_term *t, const struct cb_bucket *b)
{
	switch (t->kind) {
	case TERM_FIELD: return (uint16_t)t->field;
	case TERM_BUCKET_SUM: return (uint16_t)b->sum;
	case TERM_BUCKET_HIGH: return (uint16_t)b->high;
	case TERM_BUCKET_COUNT: return (uint16_t)b->count;
	default: return (uint16_t)(CB_MAX_FIELDS + t->kind);
	}
}

/* N (k 0), D (1) or B (2): the virtual fields it reads, its slot when it
 * is one term read as it is, and whether it is (or absent). */
static bool
bind_ref(const struct cb_bucket *bucket, uint16_t *slot, const struct rpt_ref *r,
         bool present, unsigned *uses)
{
	*slot = METRIC_ZERO;
	if (!present)
		return true;
	for (unsigned i = 0; i < r->nterms; i++)
		if (term_slot(&r->terms[i], bucket) >= CB_MAX_FIELDS)
			*uses |= 1u << r->terms[i].kind;
	if (r->nterms == 1 && r->terms[0].factor == 1)
		*slot = term_slot(&r->terms[0], bucket);
	return r->nterms == 0 || *slot != METRIC_ZERO;
}

void
metric_bind(struct metric_cell *cell, const struct rpt_column *c,
            const struct layout *lay, int bucket, size_t acc, unsigned *uses)
{
	struct counter_feed *f = &cell->feed;
	bool n, d, b;

	memset(cell, 0, sizeof *cell);
	cell->type = metric_acc_type(c);
	cell->col = c;
	counter_feed_init(f, cell->type, (uint32_t)acc,
	                  c->text == TEXT_NONE ? c->tb : PM_UNITS_PER_SECOND);
	if (c->text == TEXT_FIRST_START || c->text == TEXT_LAST_END) {
		cell->simple = true;
		f->n = CB_MAX_FIELDS + TERM_START;
		f->d = CB_MAX_FIELDS + TERM_END;
		f->b = METRIC_ZERO;
		return;
	}
	f->need = (uint8_t)(c->parts | METRIC_VALID);
	if (c->bucket >= 0)
		bucket = c->bucket;
	if (c->uses_bucket && bucket >= 0) {
		cell->bucket = &lay->buckets[bucket];
		f->need |= (uint8_t)(1u << cell->bucket->part);
	}
	n = bind_ref(cell->bucket, &f->n, &c->n, true, uses);
	d = bind_ref(cell->bucket, &f->d, &c->d, c->has_d, uses);
	b = bind_ref(cell->bucket, &f->b, &c->b, c->has_b, uses);
	cell->simple = n && d && b;
}

/* Every part of the layout: bits 1..nparts. */
static unsigned
all_parts(const struct layout *lay)
{
	return ((1u << lay->nparts) - 1) & ~1u;
}

void
metric_frame_set(struct metric_frame *f, const struct layout *lay,
                 const struct interval *iv, unsigned uses)
{
	uint64_t *virt = f->x + CB_MAX_FIELDS;
	unsigned all = all_parts(lay);
	bool valid = iv->start >= 0 && iv->end >= iv->start;

	memcpy(f->x, iv->v, lay->nfields * sizeof f->x[0]);
	f->have = (iv->parts & ~METRIC_VALID) | (valid ? METRIC_VALID : 0);
	f->end = (uint64_t)iv->end;
	virt[TERM_FIELD] = 0;
	/* @duration is read only of a valid interval */
	virt[TERM_DURATION] = valid ? (uint64_t)(iv->end - iv->start) : 0;
	virt[TERM_INTERVAL] = 1;
	virt[TERM_COMPLETE] = (iv->parts & all) == all;
	virt[TERM_INCOMPLETE] = (iv->parts & all) != all;
	virt[TERM_START] = (uint64_t)iv->start;
	virt[TERM_END] = (uint64_t)iv->end;
	/* fullwords: 48 of them cannot pass 2**64 */
	if (uses & (1u << TERM_WAIT_TIME)) {
		virt[TERM_WAIT_TIME] = 0;
		for (size_t i = 0; i < lay->nbuckets; i++)
			virt[TERM_WAIT_TIME] += iv->v[lay->buckets[i].sum];
	}
	if (uses & (1u << TERM_WAITS)) {
		virt[TERM_WAITS] = 0;
		for (size_t i = 0; i < lay->nbuckets; i++)
			virt[TERM_WAITS] += iv->v[lay->buckets[i].count];
	}
}

/* N (k 0), D (1) or B (2) of a column whose references add terms or
 * convert clocks; false when the sum passes 2**64. */
static bool
ref_value(const struct metric_cell *cell, unsigned k,
          const struct metric_frame *f, uint64_t *out)
{
	const struct rpt_ref *r = k == 0 ? &cell->col->n
	                        : k == 1 ? &cell->col->d : &cell->col->b;
	uint64_t sum = 0, v;

	for (unsigned i = 0; i < r->nterms; i++)
		if (__builtin_mul_overflow(f->x[term_slot(&r->terms[i], cell->bucket)],
		                           r->terms[i].factor, &v) ||
		    __builtin_add_overflow(sum, v, &sum))
			return false;
	*out = sum;
	return true;
}

/* The window of the frame's interval for a bound column, all but its
 * time order (w->when, the same for every column); false when it has
 * none (a part it reads is missing, or a sum passes 2**64). */
static inline bool
window_of(const struct metric_cell *cell, const struct metric_frame *f,
          struct counter_window *w)
{
	const struct counter_feed *feed = &cell->feed;

	if ((f->have & feed->need) != feed->need)
		return false;
	w->n = f->x[feed->n];
	w->d = f->x[feed->d];
	w->b = f->x[feed->b];
	if (!cell->simple &&
	    (!ref_value(cell, 0, f, &w->n) ||
	     (cell->col->has_d && !ref_value(cell, 1, f, &w->d)) ||
	     (cell->col->has_b && !ref_value(cell, 2, f, &w->b))))
		return false;
	w->db = w->b;
	w->tb = feed->tb;
	return true;
}

bool
metric_adder_init(struct metric_adder *a, size_t capacity)
{
	a->nfeeds = a->ncells = 0;
	a->feeds = calloc(capacity, sizeof *a->feeds);
	a->cells = calloc(capacity, sizeof *a->cells);
	return a->feeds && a->cells;
}

void
metric_adder_put(struct metric_adder *a, const struct metric_cell *cell)
{
	if (cell->simple)
		a->feeds[a->nfeeds++] = cell->feed;
	else
		a->cells[a->ncells++] = *cell;
}

void
metric_adder_ready(struct metric_adder *a)
{
	counter_feed_sort(a->feeds, a->nfeeds);
}

void
metric_adder_free(struct metric_adder *a)
{
	free(a->feeds);
	free(a->cells);
}

void
metric_restart(struct counter_acc *accs, const struct metric_adder *a)
{
	for (size_t i = 0; i < a->nfeeds; i++)
		counter_acc_init(&accs[a->feeds[i].acc],
		                 (enum counter_type)a->feeds[i].type);
	for (size_t i = 0; i < a->ncells; i++)
		counter_acc_init(&accs[a->cells[i].feed.acc], a->cells[i].type);
}

void
metric_add(struct counter_acc *accs, const struct metric_adder *a,
           const struct metric_frame *f, size_t n)
{
	struct counter_figures win[METRIC_BATCH];

	for (size_t k = 0; k < n; k++)
		win[k] = (struct counter_figures){ f[k].x, f[k].have, f[k].end };
	counter_feed_add(accs, a->feeds, a->nfeeds, win, n);
	for (size_t i = 0; i < a->ncells; i++) {
		const struct metric_cell *cell = &a->cells[i];
		struct counter_acc *acc = &accs[cell->feed.acc];

		for (size_t k = 0; k < n; k++) {
			struct counter_window w = { .when = f[k].end };

			if (!window_of(cell, &f[k], &w))
				counter_acc_add_none(acc);
			else	/* PM_E_NO_VALUE (a zero denominator) is
				 * counted in the accumulator */
				counter_acc_add(acc, &w);
		}
	}
}

static bool
mul(u128 a, u128 b, u128 *out)
{
	return !__builtin_mul_overflow(a, b, out);
}

/* num/den times the column's factor, reduced; false when it does not fit
 * 64 bits. */
static bool
scaled_fraction(const struct rpt_column *c, u128 num, u128 den, uint64_t *n,
                uint64_t *d)
{
	/* den and the scale's terms are at least 1: so are g1 and g2 */
	u128 g1 = gcd(num, c->scale_den), g2 = gcd(den, c->scale_num), g;

	if (!mul(num / g1, c->scale_num / g2, &num) ||
	    !mul(den / g2, c->scale_den / g1, &den))
		return false;
	g = gcd(num, den);
	if (g > 1) {
		num /= g;
		den /= g;
	}
	if (num > UINT64_MAX || den > UINT64_MAX || den == 0)
		return false;
	*n = (uint64_t)num;
	*d = (uint64_t)den;
	return true;
}

pm_status
metric_value(const struct rpt_column *c, const struct counter_acc *acc,
             double *out)
{
	pm_status st;
	uint64_t sum;

	if (c->total) {
		if ((st = counter_acc_sum(acc, &sum)) != PM_OK)
			return st;
		*out = (double)sum;
	} else if ((st = counter_acc_value(acc, out)) != PM_OK) {
		return st;
	}
	*out = *out * (double)c->scale_num / (double)c->scale_den;
	return PM_OK;
}

/* The figure of num/den when, times the scale, it does not fit 64 bits as
 * it is: reduced first, or as a double (metric_value's) as a last resort. */
static size_t
format_wide(const struct rpt_column *c, u128 num, u128 den, char *out)
{
	uint64_t n, d;

	if (scaled_fraction(c, num, den, &n, &d))
		return fmt_ratio(out, n, d, c->decimals);
	return fmt_fixed(out, (double)num / (double)den * (double)c->scale_num /
	                      (double)c->scale_den, c->decimals);
}

void
metric_fmt_bind(struct metric_fmt *f, const struct rpt_column *c)
{
	f->col = c;
	f->scale_num = c->scale_num;
	f->scale_den = c->scale_den;
	f->decimals = c->decimals;
	f->total = c->total;
	f->figure = c->text == TEXT_NONE;
}

/* Rounding half up is the same for any multiple of a fraction: when num and
 * den times the scale fit 64 bits, so does the reduced fraction, and the
 * product is rounded as it is. */
static inline size_t
format_fraction(const struct metric_fmt *f, u128 num, u128 den, char *out)
{
	uint64_t n, d;

	if (num <= UINT64_MAX && den <= UINT64_MAX &&
	    !__builtin_mul_overflow((uint64_t)num, f->scale_num, &n) &&
	    !__builtin_mul_overflow((uint64_t)den, f->scale_den, &d))
		return fmt_ratio(out, n, d, f->decimals);
	return format_wide(f->col, num, den, out);
}

/* The figure of SUM(dN), the value of a total column. */
static inline size_t
format_total(const struct metric_fmt *f, uint64_t sum, char *out)
{
	uint64_t n;

	if (!__builtin_mul_overflow(sum, f->scale_num, &n))
		return fmt_ratio(out, n, f->scale_den, f->decimals);
	return format_wide(f->col, sum, 1, out);
}

size_t
metric_format(const struct metric_fmt *f, const struct counter_acc *acc,
              char *out)
{
	u128 num, den;
	uint64_t sum;

	if (f->total)
		return counter_acc_sum(acc, &sum) != PM_OK ? 0 :
		       format_total(f, sum, out);
	if (counter_acc_fraction(acc, &num, &den) != PM_OK)
		return 0;
	return format_fraction(f, num, den, out);
}

/* One window: SUM(dN) of a total column (a DELTA type, whose every window
 * has a value) is its dN; other columns take the engine's fraction of the
 * one window. */
size_t
metric_format_frame(const struct metric_fmt *f, const struct metric_cell *cell,
                    const struct metric_frame *fr, char *out)
{
	struct counter_window w;
	u128 num, den;

	w.when = fr->end;
	if (!window_of(cell, fr, &w))
		return 0;
	if (f->total)
		return format_total(f, w.n, out);
	if (counter_window_fraction(cell->type, &w, &num, &den) != PM_OK)
		return 0;
	return format_fraction(f, num, den, out);
}
