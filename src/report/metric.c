/* metric.c: the counter engine applied to frames. See metric.h. */
#include <stdlib.h>
#include <string.h>

#include "core/fmtnum.h"
#include "core/gcd.h"
#include "core/grow.h"
#include "report/metric.h"

typedef unsigned __int128 u128;

enum counter_type
metric_acc_type(const struct rpt_column *c)
{
	if (c->text == TEXT_FIRST_START || c->text == TEXT_LAST_END)
		return counter_type_by_name("PERF_ELAPSED_TIME");
	return c->text == TEXT_NONE ? c->type : CT_UNKNOWN;
}

pm_status
metric_slots_of(struct metric_slots *sl, const struct schema *s)
{
	*sl = (struct metric_slots){ .virt = s->nfigures };
	sl->sums = sl->virt + TERM_KINDS;
	sl->combos = sl->count = sl->sums + s->nsums;
	return sl->count <= UINT16_MAX ? PM_OK : PM_E_LAYOUT;
}

void
metric_slots_free(struct metric_slots *sl)
{
	free(sl->combo);
	sl->combo = NULL;
	sl->cap = 0;
	sl->count = sl->combos;
}

/* The bits a slot's values are below (metric_slot_bits), 0: unknown. */
static unsigned
slot_bits(const struct schema *s, const struct metric_slots *sl, size_t slot)
{
	unsigned rows = 0, b = 0;
	bool known = s->family.nrows > 0;

	if (slot < sl->virt)
		return s->figures[slot].bits < 64 ? s->figures[slot].bits : 0;
	if (slot < sl->sums) {
		size_t k = slot - sl->virt;

		return k == TERM_FIGURE || k == TERM_INTERVAL || k == TERM_COMPLETE ||
		       k == TERM_INCOMPLETE;
	}
	if (slot >= sl->combos)
		return sl->combo[slot - sl->combos].bits;
	while (rows < 64 && (uint64_t)1 << rows < s->family.nrows)
		rows++;
	/* nrows figures below 2^b are below 2^(b + rows) */
	for (size_t i = 0; i < s->family.nrows; i++) {
		unsigned f = s->figures[s->family.rows[i].figure[s->sums[slot - sl->sums].member]]
		             .bits;

		known = known && f != 0;
		b = f > b ? f : b;
	}
	return known && b + rows < 64 ? b + rows : 0;
}

void
metric_slot_bits(uint8_t *bits, const struct schema *s, const struct metric_slots *sl)
{
	for (size_t i = 0; i < sl->count; i++)
		bits[i] = (uint8_t)slot_bits(s, sl, i);
}

/* The slot a term reads; row is the report row's family row. */
static uint16_t
term_slot(const struct metric_slots *sl, const struct rpt_term *t,
          const struct schema_row *row)
{
	switch (t->kind) {
	case TERM_FIGURE: return (uint16_t)t->index;
	case TERM_MEMBER: return (uint16_t)row->figure[t->index];
	case TERM_SUM: return (uint16_t)(sl->sums + t->index);
	default: return (uint16_t)(sl->virt + t->kind);
	}
}

/* The smallest b with v <= 2^b. */
static unsigned
log2_up(uint64_t v)
{
	return v <= 1 ? 0 : 64u - (unsigned)__builtin_clzll(v - 1);
}

/* Whether formula f gives no value to a window whose N (k 0), D (1) or B
 * (2) is 0, as it gives none to one whose reference passes 2**64. */
static bool
zero_has_none(unsigned f, unsigned k)
{
	switch (f) {
	case CF_RATE: case CF_RATIO: return k == 1;
	case CF_MULTI: return k >= 1;
	case CF_FRACTION: case CF_AVG_TIMER: case CF_RAW_FRACTION: return k == 2;
	default: return false;
	}
}

/* How a reference binds: one slot read as it is, a combination, or
 * neither (read term by term). */
struct ref_bind {
	uint16_t slot;
	bool combo, ok;
	struct metric_combo c;
};

/* N (k 0), D (1) or B (2): the sums it reads, and how it binds (absent:
 * the zero slot). */
static void
bind_ref(struct ref_bind *rb, const struct metric_cell *cell, const struct schema *s,
         const struct rpt_ref *r, bool present, unsigned k, unsigned *uses)
{
	const struct counter_type_info *ti = counter_type_info(cell->type);
	uint16_t zero = (uint16_t)(cell->slots->virt + TERM_FIGURE);
	unsigned widest = 0;

	memset(rb, 0, sizeof *rb);
	rb->slot = zero;
	rb->ok = true;
	if (!present || r->nterms == 0)
		return;
	for (unsigned i = 0; i < r->nterms; i++)
		if (r->terms[i].kind == TERM_SUM)
			*uses |= 1u << r->terms[i].index;
	if (r->nterms == 1 && r->terms[0].factor == 1) {
		rb->slot = term_slot(cell->slots, &r->terms[0], cell->row);
		rb->ok = rb->slot != zero;
		return;
	}
	rb->combo = true;
	rb->c.nterms = r->nterms;
	for (unsigned i = 0; i < r->nterms; i++) {
		uint16_t at = term_slot(cell->slots, &r->terms[i], cell->row);
		unsigned b = slot_bits(s, cell->slots, at), j = i;

		/* in slot order (the frame's figures first): a sum of
		 * terms passes 2**64 in any order or none */
		for (; j > 0 && rb->c.slot[j - 1] > at; j--) {
			rb->c.slot[j] = rb->c.slot[j - 1];
			rb->c.factor[j] = rb->c.factor[j - 1];
		}
		rb->c.slot[j] = at;
		rb->c.factor[j] = r->terms[i].factor;
		rb->c.nfirst += at < cell->slots->virt;
		/* below 2^b times factor: below 2^(b + log2_up(factor)) */
		b = b && r->terms[i].factor ? b + log2_up(r->terms[i].factor) : 64;
		widest = b > widest ? b : widest;
	}
	widest += log2_up(r->nterms);
	rb->c.bits = (uint8_t)(widest < 64 ? widest : 0);
	rb->ok = rb->c.bits != 0 || (ti && zero_has_none(ti->formula, k));
}

/* The slot of combination c, added to sl's when new; false when there is
 * no room. */
static bool
combo_slot(struct metric_slots *sl, const struct metric_combo *c, uint16_t *slot)
{
	size_t n = sl->count - sl->combos, k;

	for (k = 0; k < n; k++)
		if (sl->combo[k].nterms == c->nterms &&
		    !memcmp(sl->combo[k].slot, c->slot, c->nterms * sizeof c->slot[0]) &&
		    !memcmp(sl->combo[k].factor, c->factor, c->nterms * sizeof c->factor[0]))
			break;
	if (k == n) {
		if (sl->count >= UINT16_MAX ||
		    !grow_table((void **)&sl->combo, &sl->cap, n + 1, sizeof *sl->combo))
			return false;
		sl->combo[n] = *c;
		sl->count++;
	}
	*slot = (uint16_t)(sl->combos + k);
	return true;
}

void
metric_bind(struct metric_cell *cell, const struct rpt_column *c,
            const struct schema *s, struct metric_slots *slots, int row,
            size_t acc, unsigned *uses)
{
	struct counter_feed *f = &cell->feed;
	struct ref_bind rb[3];
	uint16_t *at[3] = { &f->n, &f->d, &f->b };

	memset(cell, 0, sizeof *cell);
	cell->type = metric_acc_type(c);
	cell->col = c;
	cell->slots = slots;
	counter_feed_init(f, cell->type, (uint32_t)acc,
	                  c->text == TEXT_NONE ? c->tb : FRAME_STAMPS_PER_SECOND);
	if (c->text == TEXT_FIRST_START || c->text == TEXT_LAST_END) {
		cell->simple = true;
		f->n = (uint16_t)(slots->virt + TERM_START);
		f->d = (uint16_t)(slots->virt + TERM_END);
		f->b = (uint16_t)(slots->virt + TERM_FIGURE);
		return;
	}
	f->need = (uint8_t)(c->groups | METRIC_VALID);
	if (c->row >= 0)
		row = c->row;
	if (c->uses_row && row >= 0) {
		cell->row = &s->family.rows[row];
		f->need |= (uint8_t)(1u << cell->row->group);
	}
	bind_ref(&rb[0], cell, s, &c->n, true, 0, uses);
	bind_ref(&rb[1], cell, s, &c->d, c->has_d, 1, uses);
	bind_ref(&rb[2], cell, s, &c->b, c->has_b, 2, uses);
	cell->simple = rb[0].ok && rb[1].ok && rb[2].ok;
	for (unsigned k = 0; k < 3; k++) {
		*at[k] = rb[k].slot;
		if (cell->simple && rb[k].combo)
			cell->simple = combo_slot(slots, &rb[k].c, at[k]);
	}
}

/* *sum plus the terms [from, to) of c, slot base + i's figure in v[i];
 * true when it passes 2**64. */
static inline bool
add_terms(uint64_t *sum, const struct metric_combo *c, unsigned from, unsigned to,
          const uint64_t *v, size_t base)
{
	bool over = false;
	uint64_t p;

	for (unsigned i = from; i < to; i++) {
		over |= __builtin_mul_overflow(v[c->slot[i] - base], c->factor[i], &p);
		over |= __builtin_add_overflow(*sum, p, sum);
	}
	return over;
}

void
metric_frame_combine(uint64_t *extra, const struct metric_slots *slots, const uint64_t *x)
{
	const struct metric_combo *c = slots->combo;
	uint64_t *out = extra + (slots->combos - slots->virt);
	size_t virt = slots->virt;

	for (size_t k = 0, n = slots->count - slots->combos; k < n; k++) {
		uint64_t sum = 0;
		bool over = add_terms(&sum, &c[k], 0, c[k].nfirst, x, 0) |
		            add_terms(&sum, &c[k], c[k].nfirst, c[k].nterms, extra, virt);

		out[k] = over ? 0 : sum;
	}
}

unsigned
metric_frame_extras(uint64_t *extra, const struct schema *s, const struct metric_slots *slots,
                    const struct frame *fr, unsigned uses)
{
	uint64_t *virt = extra, *sums = extra + (slots->sums - slots->virt);
	bool complete = schema_frame_complete(s, fr);
	bool valid = fr->start >= 0 && fr->end >= fr->start;

	virt[TERM_FIGURE] = 0;
	/* @duration is read only of a valid frame */
	virt[TERM_DURATION] = valid ? (uint64_t)(fr->end - fr->start) : 0;
	virt[TERM_INTERVAL] = 1;
	virt[TERM_COMPLETE] = complete;
	virt[TERM_INCOMPLETE] = !complete;
	virt[TERM_START] = (uint64_t)fr->start;
	virt[TERM_END] = (uint64_t)fr->end;
	/* PMIM's are fullwords: 48 of them cannot pass 2**64. In locals: a
	 * store through sums could change the schema's counts. */
	for (size_t nrows = s->family.nrows; uses; uses &= uses - 1) {
		const struct schema_row *rows = s->family.rows;
		const uint64_t *x = fr->x;
		unsigned k = (unsigned)__builtin_ctz(uses), m = s->sums[k].member;
		uint64_t sum = 0;

#pragma GCC unroll 4
		for (size_t i = 0; i < nrows; i++)
			sum += x[rows[i].figure[m]];
		sums[k] = sum;
	}
	return (fr->have & ~METRIC_VALID) | (valid ? METRIC_VALID : 0);
}

void
metric_frame_set(struct metric_frame *f, const struct schema *s,
                 const struct metric_slots *slots, const struct frame *fr,
                 const uint64_t *extra, unsigned have)
{
	memcpy(f->x, fr->x, s->nfigures * sizeof f->x[0]);
	memcpy(f->x + slots->virt, extra, (slots->count - slots->virt) * sizeof f->x[0]);
	f->have = have;
	f->end = (uint64_t)fr->end;
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
		if (__builtin_mul_overflow(f->x[term_slot(cell->slots, &r->terms[i],
		                                          cell->row)],
		                           r->terms[i].factor, &v) ||
		    __builtin_add_overflow(sum, v, &sum))
			return false;
	*out = sum;
	return true;
}

/* The window of the frame for a bound column, all but its
 * time order (w->when, the same for every column); false when it has
 * none (a group it reads is missing, or a sum passes 2**64). */
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

static void
fraction_cell(struct sink_cell *out, uint64_t num, uint64_t den, unsigned decimals)
{
	out->kind = SINK_FRACTION;
	out->decimals = (uint8_t)decimals;
	out->v.fraction.num = num;
	out->v.fraction.den = den;
}

/* The figure of num/den when, times the scale, it does not fit 64 bits as
 * it is: reduced first, or as a double (metric_value's) as a last resort. */
static void
wide_cell(const struct rpt_column *c, u128 num, u128 den, struct sink_cell *out)
{
	uint64_t n, d;

	if (scaled_fraction(c, num, den, &n, &d)) {
		fraction_cell(out, n, d, c->decimals);
		return;
	}
	out->kind = SINK_REAL;
	out->decimals = (uint8_t)c->decimals;
	out->v.real = (double)num / (double)den * (double)c->scale_num /
	              (double)c->scale_den;
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
static inline void
ratio_cell(const struct metric_fmt *f, u128 num, u128 den, struct sink_cell *out)
{
	uint64_t n, d;

	if (num <= UINT64_MAX && den <= UINT64_MAX &&
	    !__builtin_mul_overflow((uint64_t)num, f->scale_num, &n) &&
	    !__builtin_mul_overflow((uint64_t)den, f->scale_den, &d))
		fraction_cell(out, n, d, f->decimals);
	else
		wide_cell(f->col, num, den, out);
}

/* The figure of SUM(dN), the value of a total column: a count as it is,
 * or scaled. */
static inline void
total_cell(const struct metric_fmt *f, uint64_t sum, struct sink_cell *out)
{
	uint64_t n;

	if (f->scale_num == 1 && f->scale_den == 1 && f->decimals == 0) {
		out->kind = SINK_INTEGER;
		out->v.integer = sum;
	} else if (!__builtin_mul_overflow(sum, f->scale_num, &n)) {
		fraction_cell(out, n, f->scale_den, f->decimals);
	} else {
		wide_cell(f->col, sum, 1, out);
	}
}

void
metric_figure(const struct metric_fmt *f, const struct counter_acc *acc,
              struct sink_cell *out)
{
	u128 num, den;
	uint64_t sum;

	out->kind = SINK_EMPTY;
	if (f->total) {
		if (counter_acc_sum(acc, &sum) == PM_OK)
			total_cell(f, sum, out);
	} else if (counter_acc_fraction(acc, &num, &den) == PM_OK) {
		ratio_cell(f, num, den, out);
	}
}

/* One window: SUM(dN) of a total column (a DELTA type, whose every window
 * has a value) is its dN; other columns take the engine's fraction of the
 * one window. Apart: the usual columns do not come here. */
static __attribute__((noinline)) void
engine_frame_figure(const struct metric_fmt *f, const struct metric_cell *cell,
                    const struct metric_frame *fr, struct sink_cell *out)
{
	struct counter_window w;

	out->kind = SINK_EMPTY;
	w.when = fr->end;
	if (!window_of(cell, fr, &w))
		return;
	if (f->total)
		total_cell(f, w.n, out);
	else
		metric_window_figure(f, cell->type, &w, out);
}

/* The engine's fraction of one window, by formula (counter.c's acc_add
 * then acc_fraction with one window): RAW, DELTA and MAX give P*N/1,
 * FRACTION P*N/dB and AVERAGE_TIMER N/(TB*dB), none when dB is 0.
 * ratio_cell then multiplies by the scale while both products fit 64
 * bits: the factors here are those products' constant parts, so that a
 * product that fits here is one that fits there. */
void
metric_one_bind(struct metric_one *o, const struct metric_cell *cell,
                const struct metric_fmt *f)
{
	const struct counter_type_info *ti = counter_type_info(cell->type);
	uint64_t p = ti && ti->percent ? 100 : 1;

	*o = (struct metric_one){ .n = cell->feed.n, .b = cell->feed.b,
	                          .need = cell->feed.need, .how = ONE_ENGINE,
	                          .decimals = (uint8_t)f->decimals };
	if (!cell->simple || !f->figure)
		return;
	o->num_factor = f->scale_num;
	o->den_factor = f->scale_den;
	if (f->total) {
		o->how = f->scale_num == 1 && f->scale_den == 1 && f->decimals == 0
		         ? ONE_INTEGER : ONE_UNIT;
		return;
	}
	if (!ti || !ti->displayed ||
	    __builtin_mul_overflow(p, f->scale_num, &o->num_factor)) {
		o->how = ONE_ENGINE;
		return;
	}
	switch (ti->formula) {
	case CF_RAW:
	case CF_DELTA:
	case CF_MAX:
		o->how = ONE_UNIT;
		break;
	case CF_FRACTION:
		o->how = ONE_BASE;
		break;
	case CF_AVG_TIMER:
		/* TB 0: no window has a value, the engine says so */
		if (cell->feed.tb != 0 &&
		    !__builtin_mul_overflow(cell->feed.tb, f->scale_den, &o->den_factor))
			o->how = ONE_BASE;
		break;
	default:
		break;
	}
}

/* mul is the scale's numerator times 10**decimals, or, over a power of
 * ten at most that, times their quotient (den 1: no division). A figure
 * whose products fit 64 bits then fits those of frame_figure (below) and
 * of the writer's fmtnum_ratio_scaled, and is their figure; one that does
 * not is the cells' (row_x fails). */
void
metric_one_formula(const struct metric_one *o, struct sink_formula *f)
{
	unsigned d = o->decimals, k = (unsigned)__builtin_ctzll(o->den_factor | 1);

	*f = (struct sink_formula){ .den = o->den_factor, .n = o->n, .b = o->b,
	                            .need = o->need, .decimals = (uint8_t)d };
	if (d >= 8 || o->how == ONE_ENGINE) {
		f->from = SINK_FROM_CELL;
		return;
	}
	f->from = o->how == ONE_BASE ? SINK_FROM_RATIO : SINK_FROM_X;
	if (o->how == ONE_INTEGER) {
		f->mul = f->den = 1;
		return;
	}
	/* a power of ten with k <= decimals: no division (and no rounding) */
	if (o->how == ONE_UNIT && k <= d && o->den_factor == fmtnum_pow10[k]) {
		f->den = 1;
		d -= k;
	}
	if (__builtin_mul_overflow(o->num_factor, fmtnum_pow10[d], &f->mul))
		f->from = SINK_FROM_CELL;
}

/* One column of metric_frame_figures; x and have are the frame's, in
 * locals: a store into the cell's bytes could change them, to the
 * compiler. */
static inline void
frame_figure(const struct metric_one *o, const struct metric_fmt *f,
             const struct metric_cell *cell, const struct metric_frame *fr,
             const uint64_t *x, unsigned have, struct sink_cell *out)
{
	uint64_t n, b = 1, num, den = o->den_factor;

	if (o->how == ONE_ENGINE) {
		engine_frame_figure(f, cell, fr, out);
		return;
	}
	if ((have & o->need) != o->need) {
		out->kind = SINK_EMPTY;
		return;
	}
	n = x[o->n];
	if (o->how == ONE_INTEGER) {
		out->v.integer = n;
		out->kind = SINK_INTEGER;
		return;
	}
	if (o->how == ONE_BASE) {
		b = x[o->b];
		if (b == 0) {
			out->kind = SINK_EMPTY;
			return;
		}
		if (__builtin_mul_overflow(b, o->den_factor, &den)) {
			engine_frame_figure(f, cell, fr, out);
			return;
		}
	}
	if (__builtin_mul_overflow(n, o->num_factor, &num))
		engine_frame_figure(f, cell, fr, out);
	else
		fraction_cell(out, num, den, o->decimals);
}

void
metric_frame_figures(const struct metric_one *o, const struct metric_fmt *f,
                     const struct metric_cell *cell, size_t n,
                     const struct metric_frame *fr, struct sink_cell *out)
{
	const uint64_t *x = fr->x;
	unsigned have = fr->have;

	for (size_t i = 0; i < n; i++)
		frame_figure(&o[i], &f[i], &cell[i], fr, x, have, &out[i]);
}

void
metric_window_figure(const struct metric_fmt *f, enum counter_type t,
                     const struct counter_window *w, struct sink_cell *out)
{
	u128 num, den;

	out->kind = SINK_EMPTY;
	if (counter_window_fraction(t, w, &num, &den) == PM_OK)
		ratio_cell(f, num, den, out);
}
