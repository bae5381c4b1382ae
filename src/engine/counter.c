/* counter.c: the counter engine. See counter.h.
 *
 * One path computes every value: a pair of samples becomes a window of
 * deltas, windows enter an accumulator, and the accumulator's sums give the
 * value. counter_calc is an accumulator of one window, counter_average one
 * of the series' intervals; so the calculation, the average function and
 * the group aggregates cannot disagree.
 *
 * Tick-based PERF_COUNTER_MULTI_TIMER(_INV) follows the seed page:
 * (N1-N0)/(D1-D0), with N and D in the same ticks, like the 100NSEC
 * variants (then x100 and /B1). The MS type page writes
 * 100*((N1-N0)/((D1-D0)/TB))/B1, and .NET multiplies N by the frequency
 * before calling PDH "to make PDH work like PERFMON"; with N in ticks that
 * is ticks per second, not a percentage (COUNTERS.md §2.4), and Windows
 * installs no counter of this type, so we keep the formula whose units
 * work. */
#include <stdlib.h>
#include <string.h>

#include "engine/counter.h"

#define FIX_BITS 52
#define FIX_ONE (UINT64_C(1) << FIX_BITS)

static const struct counter_type_info types[] = {
#define CT(id, v, sz, f, tbk, fl) { #id, v, sz, f, tbk,			\
		((fl) & CTF_TWO) != 0, ((fl) & CTF_PCT) != 0,		\
		((fl) & CTF_INV) != 0, ((fl) & CTF_MULTI) != 0,		\
		((fl) & CTF_BASE) != 0, ((fl) & CTF_HIDDEN) == 0,	\
		((fl) & CTF_ALIAS) != 0, ((fl) & CTF_EXT) != 0 },
#include "engine/counter_types.h"
#undef CT
};

/* The formula of each type in one byte, or HIDDEN for the types without a
 * displayable value: asked for every window and every value, so that
 * neither needs the whole entry. */
enum { HIDDEN = CF_MAX + 1 };

static const uint8_t formula_of[] = {
#define CT(id, v, sz, f, tbk, fl) ((fl) & CTF_HIDDEN) ? HIDDEN : (f),
#include "engine/counter_types.h"
#undef CT
};

/* The formula of a displayed type, or HIDDEN (also for an unknown type). */
static unsigned
formula(enum counter_type t)
{
	return t < 0 || t >= CT_COUNT ? HIDDEN : formula_of[t];
}

const struct counter_type_info *
counter_type_info(enum counter_type t)
{
	if (t < 0 || t >= CT_COUNT)
		return NULL;
	return &types[t];
}

enum counter_type
counter_type_by_name(const char *name)
{
	for (int t = 0; t < CT_COUNT; t++)
		if (strcmp(types[t].name, name) == 0)
			return (enum counter_type)t;
	return CT_UNKNOWN;
}

/* A switch, which the compiler makes a search tree: asked for every
 * counter definition of every snapshot. An alias's case is moved past
 * every 32-bit value, so that its value finds the canonical entry. */
enum counter_type
counter_type_by_value(uint32_t value)
{
	switch ((uint64_t)value) {
#define CT(id, v, sz, f, tbk, fl) \
	case (uint64_t)(v) | (((fl) & CTF_ALIAS) ? UINT64_C(1) << 32 : 0): return CT_##id;
#include "engine/counter_types.h"
#undef CT
	default: return CT_UNKNOWN;
	}
}

/* n > b * d, without overflowing. */
static bool
exceeds(uint64_t n, uint64_t b, uint64_t d)
{
	if (d != 0 && b > UINT64_MAX / d)
		return false;
	return n > b * d;
}

static bool
uses_tb(unsigned f)
{
	return f == CF_RATE || f == CF_AVG_TIMER || f == CF_ELAPSED;
}

/* *sum += v, modulo 2^64; a carry is remembered. Modular sums are the same
 * in any order, and so is whether the total passed 2^64. */
static void
add_u64(uint64_t *sum, uint64_t v, bool *overflow)
{
	if (__builtin_add_overflow(*sum, v, sum))
		*overflow = true;
}

/* Add whole + frac * 2^-52 to the RAW_FRACTION sum, carrying the fraction. */
static void
add_fix(struct counter_acc *acc, uint64_t whole, uint64_t frac)
{
	acc->ratio_frac += frac;
	add_u64(&acc->ratio_whole, whole, &acc->overflow);
	add_u64(&acc->ratio_whole, acc->ratio_frac >> FIX_BITS, &acc->overflow);
	acc->ratio_frac &= FIX_ONE - 1;
}

/* Add n/b (b > 0) to the fixed-point sum: the whole part, and the
 * remainder's first FIX_BITS binary digits, floor(r * 2^52 / b), in one
 * division (r < b, so r * 2^52 fits in 128 bits). A digit at a time
 * would cost a branch each that no predictor can guess. */
static void
add_ratio(struct counter_acc *acc, uint64_t n, uint64_t b)
{
	uint64_t r = n % b;

	add_fix(acc, n / b, (uint64_t)(((counter_u128)r << FIX_BITS) / b));
}

static uint64_t
min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static uint64_t
max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static void
take_newest_b(struct counter_acc *acc, uint64_t b, uint64_t when)
{
	if (when > acc->b_when || (when == acc->b_when && b > acc->b)) {
		acc->b = b;
		acc->b_when = when;
	}
}

/* The bodies of counter_acc_init, counter_acc_add and counter_acc_fraction,
 * inline in counter_window_fraction as well: one call there per window, the
 * accumulator a local. They take the formula f of the type, so that a
 * caller that switched on it once has each folded to its one case. */
#define ACC_INLINE static inline __attribute__((always_inline))

/* Field by field: a streamed report starts its accumulators anew for every
 * interval, and plain stores are cheaper than clearing the struct first.
 * The minima start at their greatest value: the earliest start of
 * ELAPSED_TIME, and TB where the formula uses it (else the place is B). */
ACC_INLINE void
acc_init(struct counter_acc *acc, enum counter_type t, const unsigned f)
{
	acc->type = t;
	acc->overflow = false;
	acc->windows = acc->no_value = 0;
	acc->sum_n = f == CF_ELAPSED ? UINT64_MAX : 0;
	acc->sum_d = 0;
	acc->tb_min = uses_tb(f) ? UINT64_MAX : 0;
	acc->tb_max = 0;
}

void
counter_acc_init(struct counter_acc *acc, enum counter_type t)
{
	acc_init(acc, t, formula(t));
}

void
counter_acc_add_none(struct counter_acc *acc)
{
	acc->windows++;
	acc->no_value++;
}

static void
take_tb(struct counter_acc *acc, uint64_t tb)
{
	acc->tb_min = min_u64(acc->tb_min, tb);
	acc->tb_max = max_u64(acc->tb_max, tb);
}

/* With batch, the window is one of a feed's (feed_windows): the caller
 * counts the windows and takes the time base once for all of them. */
ACC_INLINE pm_status
no_value(struct counter_acc *acc, const bool batch)
{
	acc->windows += !batch;
	acc->no_value++;
	return PM_E_NO_VALUE;
}

/* One switch on the formula: whether counter_calc would give w a value (see
 * counter.h), then the sums the formula keeps. */
ACC_INLINE pm_status
acc_add(struct counter_acc *acc, unsigned op, const struct counter_window *w,
        const bool batch)
{
	switch (op) {
	case HIDDEN:
		return PM_E_NOT_DISPLAYED;
	case CF_RAW:
	case CF_DELTA:
		break;
	case CF_RATE:
		if (w->d == 0 || w->tb == 0)
			return no_value(acc, batch);
		add_u64(&acc->sum_d, w->d, &acc->overflow);
		if (!batch)
			take_tb(acc, w->tb);
		break;
	case CF_RATIO:
		if (w->d == 0 || (types[acc->type].inverse && w->n > w->d))
			return no_value(acc, batch);
		add_u64(&acc->sum_d, w->d, &acc->overflow);
		break;
	case CF_MULTI:
		if (w->d == 0 || w->b == 0 ||
		    (types[acc->type].inverse && exceeds(w->n, w->b, w->d)))
			return no_value(acc, batch);
		add_u64(&acc->sum_d, w->d, &acc->overflow);
		take_newest_b(acc, w->b, w->when);
		break;
	case CF_FRACTION:
		if (w->db == 0)
			return no_value(acc, batch);
		add_u64(&acc->sum_db, w->db, &acc->overflow);
		break;
	case CF_AVG_TIMER:
		if (w->db == 0 || w->tb == 0)
			return no_value(acc, batch);
		add_u64(&acc->sum_db, w->db, &acc->overflow);
		if (!batch)
			take_tb(acc, w->tb);
		break;
	case CF_RAW_FRACTION:
		if (w->b == 0)
			return no_value(acc, batch);
		acc->windows += !batch;
		add_ratio(acc, w->n, w->b);
		return PM_OK;
	case CF_ELAPSED:
		if (w->n == 0 || w->n > w->d || w->tb == 0)
			return no_value(acc, batch);
		acc->windows += !batch;
		acc->min_n = min_u64(acc->min_n, w->n);
		acc->max_d = max_u64(acc->max_d, w->d);
		if (!batch)
			take_tb(acc, w->tb);
		return PM_OK;
	case CF_MAX:
		acc->windows += !batch;
		acc->max_n = max_u64(acc->max_n, w->n);
		return PM_OK;
	case CF_NONE:
		return no_value(acc, batch);
	}
	acc->windows += !batch;
	add_u64(&acc->sum_n, w->n, &acc->overflow);
	return PM_OK;
}

pm_status
counter_acc_add(struct counter_acc *acc, const struct counter_window *w)
{
	return acc_add(acc, formula(acc->type), w, false);
}

void
counter_feed_init(struct counter_feed *f, enum counter_type t, uint32_t acc,
		  uint64_t tb)
{
	memset(f, 0, sizeof *f);
	f->type = (int16_t)t;
	f->run = 1;
	f->acc = acc;
	f->tb = tb;
}

/* Field by field, so that the compiler keeps each in a register. */
ACC_INLINE void
acc_copy(struct counter_acc *dst, const struct counter_acc *src)
{
	dst->type = src->type;
	dst->overflow = src->overflow;
	dst->windows = src->windows;
	dst->no_value = src->no_value;
	dst->sum_n = src->sum_n;
	dst->sum_d = src->sum_d;
	dst->tb_min = src->tb_min;
	dst->tb_max = src->tb_max;
}

/* The windows of win[0..nwin) into acc, for feed f of formula op; with
 * checked false, every window has what f needs. Every window is counted,
 * with a value or without (HIDDEN's only without), and the feed's time
 * base is taken once if any had a value: not per window. */
ACC_INLINE void
feed_windows(struct counter_acc *acc, const struct counter_feed *f,
	     const struct counter_figures *win, size_t nwin, const unsigned op,
	     const bool checked)
{
	uint64_t none = acc->no_value;

	for (size_t k = 0; k < nwin; k++) {
		const uint64_t *x = win[k].x;
		struct counter_window w;

		if (checked && (win[k].have & f->need) != f->need) {
			acc->no_value++;
			continue;
		}
		w.n = x[f->n];
		w.d = x[f->d];
		w.b = w.db = x[f->b];
		w.tb = f->tb;
		w.when = win[k].when;
		(void)acc_add(acc, op, &w, true);
	}
	acc->windows += op == HIDDEN ? acc->no_value - none : nwin;
	if (uses_tb(op) && acc->no_value - none < nwin)
		take_tb(acc, f->tb);
}

/* The feeds [i, end), which share the formula op: the constant makes
 * acc_add one case, which reads only the figures it uses. Each
 * accumulator is a local for all the windows, kept in registers; have is
 * what every window has. */
ACC_INLINE void
feed_run(struct counter_acc *accs, const struct counter_feed *feeds, size_t i,
	 size_t end, const struct counter_figures *win, size_t nwin,
	 unsigned have, const unsigned op)
{
	for (; i < end; i++) {
		const struct counter_feed *f = &feeds[i];
		struct counter_acc acc;

		acc_copy(&acc, &accs[f->acc]);
		if ((have & f->need) == f->need)
			feed_windows(&acc, f, win, nwin, op, false);
		else
			feed_windows(&acc, f, win, nwin, op, true);
		acc_copy(&accs[f->acc], &acc);
	}
}

/* A report adds each interval to hundreds of accumulators: a call and a
 * switch for each would cost more than its sums. */
void
counter_feed_add(struct counter_acc *accs, const struct counter_feed *feeds,
		 size_t count, const struct counter_figures *win, size_t nwin)
{
	unsigned have = ~0u;

	for (size_t k = 0; k < nwin; k++)
		have &= win[k].have;
	for (size_t i = 0, end; i < count; i = end) {
		end = i + feeds[i].run;
#define RUN(op) feed_run(accs, feeds, i, end, win, nwin, have, op)
		switch (formula(feeds[i].type)) {
		case CF_RAW: RUN(CF_RAW); break;
		case CF_DELTA: RUN(CF_DELTA); break;
		case CF_RATE: RUN(CF_RATE); break;
		case CF_RATIO: RUN(CF_RATIO); break;
		case CF_MULTI: RUN(CF_MULTI); break;
		case CF_FRACTION: RUN(CF_FRACTION); break;
		case CF_AVG_TIMER: RUN(CF_AVG_TIMER); break;
		case CF_RAW_FRACTION: RUN(CF_RAW_FRACTION); break;
		case CF_ELAPSED: RUN(CF_ELAPSED); break;
		case CF_MAX: RUN(CF_MAX); break;
		case CF_NONE: RUN(CF_NONE); break;
		case HIDDEN: RUN(HIDDEN); break;
		}
#undef RUN
	}
}

static int
feed_order(const void *a, const void *b)
{
	const struct counter_feed *x = a, *y = b;
	unsigned fx = formula(x->type), fy = formula(y->type);

	if (fx != fy)
		return fx < fy ? -1 : 1;
	return (x->acc > y->acc) - (x->acc < y->acc);
}

/* Whether feeds[0..count) are in the order of their accumulators. */
static bool
by_acc(const struct counter_feed *feeds, size_t count)
{
	for (size_t i = 1; i < count; i++)
		if (feeds[i - 1].acc > feeds[i].acc)
			return false;
	return true;
}

/* In feed_order: counted into the runs of their formulas first, in the
 * order given, which is nearly always that of their accumulators too;
 * else sorted. A report has a thousand feeds or more, sorted at every
 * start: a sort compares each many times. */
void
counter_feed_sort(struct counter_feed *feeds, size_t count)
{
	size_t end[HIDDEN + 1] = { 0 };
	struct counter_feed *placed = malloc(count * sizeof *placed);

	if (!placed) {
		qsort(feeds, count, sizeof *feeds, feed_order);
	} else {
		for (size_t i = 0; i < count; i++)
			end[formula((enum counter_type)feeds[i].type)]++;
		for (size_t f = 1; f <= HIDDEN; f++)
			end[f] += end[f - 1];
		for (size_t i = count; i-- > 0;)
			placed[--end[formula((enum counter_type)feeds[i].type)]] = feeds[i];
		memcpy(feeds, placed, count * sizeof *feeds);
		free(placed);
		/* end[f] is now where formula f's run begins */
		for (size_t f = 0; f <= HIDDEN; f++) {
			size_t from = end[f], to = f < HIDDEN ? end[f + 1] : count;
			if (!by_acc(feeds + from, to - from))
				qsort(feeds + from, to - from, sizeof *feeds, feed_order);
		}
	}
	/* a longer run goes on in the next */
	for (size_t i = count; i-- > 0;)
		feeds[i].run = i + 1 < count &&
		               formula(feeds[i + 1].type) == formula(feeds[i].type) &&
		               feeds[i + 1].run < UINT16_MAX
		               ? (uint16_t)(feeds[i + 1].run + 1) : 1;
}

pm_status
counter_window_of(enum counter_type t, const struct counter_sample *prev,
		  const struct counter_sample *cur, struct counter_window *w)
{
	const struct counter_type_info *ti = counter_type_info(t);

	if (!ti || !ti->displayed)
		return PM_E_NOT_DISPLAYED;
	return counter_window_by(ti, prev, cur, w);
}

pm_status
counter_acc_add_samples(struct counter_acc *acc,
			const struct counter_sample *prev,
			const struct counter_sample *cur)
{
	struct counter_window w;
	pm_status st = counter_window_of(acc->type, prev, cur, &w);

	if (st == PM_E_NO_VALUE) {
		counter_acc_add_none(acc);
		return st;
	}
	return st == PM_OK ? counter_acc_add(acc, &w) : st;
}

void
counter_acc_pack(const struct counter_acc *acc, uint64_t w[COUNTER_ACC_WORDS])
{
	w[0] = acc->type == CT_UNKNOWN ? UINT64_MAX : (uint64_t)acc->type;
	w[1] = acc->overflow;
	w[2] = acc->windows;
	w[3] = acc->no_value;
	w[4] = acc->sum_n;
	w[5] = acc->sum_d;
	w[6] = acc->tb_min;
	w[7] = acc->tb_max;
}

pm_status
counter_acc_unpack(struct counter_acc *acc, const uint64_t w[COUNTER_ACC_WORDS])
{
	if ((w[0] >= CT_COUNT && w[0] != UINT64_MAX) || w[1] > 1 || w[3] > w[2])
		return PM_E_USAGE;
	*acc = (struct counter_acc){ .type = w[0] == UINT64_MAX ? CT_UNKNOWN
	                                     : (enum counter_type)w[0],
	                             .overflow = w[1] != 0,
	                             .windows = w[2], .no_value = w[3] };
	acc->sum_n = w[4];
	acc->sum_d = w[5];
	acc->tb_min = w[6];
	acc->tb_max = w[7];
	return PM_OK;
}

pm_status
counter_acc_merge(struct counter_acc *dst, const struct counter_acc *src)
{
	unsigned f = formula(dst->type);

	if (dst->type != src->type)
		return PM_E_USAGE;
	dst->windows += src->windows;
	dst->no_value += src->no_value;
	dst->overflow = dst->overflow || src->overflow;
	switch (f) {
	case CF_RAW:
	case CF_DELTA:
	case CF_RATE:
	case CF_RATIO:
	case CF_MULTI:
	case CF_FRACTION:
	case CF_AVG_TIMER:
		/* SUM(dN), and SUM(dD) or SUM(dB) (0 where unused) */
		add_u64(&dst->sum_n, src->sum_n, &dst->overflow);
		add_u64(&dst->sum_d, src->sum_d, &dst->overflow);
		break;
	case CF_RAW_FRACTION:
		add_fix(dst, src->ratio_whole, src->ratio_frac);
		break;
	case CF_ELAPSED:
		dst->min_n = min_u64(dst->min_n, src->min_n);
		dst->max_d = max_u64(dst->max_d, src->max_d);
		break;
	case CF_MAX:
		dst->max_n = max_u64(dst->max_n, src->max_n);
		break;
	}
	if (f == CF_MULTI)
		take_newest_b(dst, src->b, src->b_when);
	if (uses_tb(f)) {
		dst->tb_min = min_u64(dst->tb_min, src->tb_min);
		dst->tb_max = max_u64(dst->tb_max, src->tb_max);
	}
	return PM_OK;
}

ACC_INLINE pm_status
acc_fraction(const struct counter_acc *acc, const unsigned f, counter_u128 *num,
             counter_u128 *den)
{
	const struct counter_type_info *ti;
	uint64_t x;
	counter_u128 n = 0, d = 1;

	if (f == HIDDEN)
		return PM_E_NOT_DISPLAYED;
	ti = &types[acc->type];
	x = acc->windows - acc->no_value;
	if (x == 0 || acc->overflow)
		return PM_E_NO_VALUE;
	if (uses_tb(f) && acc->tb_min != acc->tb_max)
		return PM_E_NO_VALUE;
	switch (f) {
	case CF_RAW:
	case CF_DELTA:
		n = acc->sum_n;
		d = x;
		break;
	case CF_RATE:
		/* dN / (dD / TB) */
		n = (counter_u128)acc->sum_n * acc->tb_min;
		d = acc->sum_d;
		break;
	case CF_RATIO:
		/* Every window has dN <= dD when inverse, so the sums do too. */
		n = ti->inverse ? acc->sum_d - acc->sum_n : acc->sum_n;
		d = acc->sum_d;
		break;
	case CF_MULTI:
		/* B changes between windows can push the inverse below 0. */
		if (ti->inverse && exceeds(acc->sum_n, acc->b, acc->sum_d))
			return PM_E_NO_VALUE;
		if (ti->inverse) {
			n = (counter_u128)acc->b * acc->sum_d - acc->sum_n;
			d = acc->sum_d;
		} else {
			n = acc->sum_n;
			d = (counter_u128)acc->sum_d * acc->b;
		}
		break;
	case CF_FRACTION:
		n = acc->sum_n;
		d = acc->sum_db;
		break;
	case CF_AVG_TIMER:
		/* (dN / TB) / dB */
		n = acc->sum_n;
		d = (counter_u128)acc->tb_min * acc->sum_db;
		break;
	case CF_RAW_FRACTION:
		/* SUM(N/B) / x, the sum kept in fixed point */
		n = ((counter_u128)acc->ratio_whole << FIX_BITS) + acc->ratio_frac;
		d = (counter_u128)x << FIX_BITS;
		break;
	case CF_ELAPSED:
		n = acc->max_d - acc->min_n;
		d = acc->tb_min;
		break;
	case CF_MAX:
		n = acc->max_n;
		break;
	case CF_NONE:
		return PM_E_NOT_DISPLAYED;
	}
	if (d == 0)
		return PM_E_NO_VALUE;
	/* below 2^64 * 2^64 / 100 for any figure a 64-bit sum can reach */
	*num = ti->percent ? 100 * n : n;
	*den = d;
	return PM_OK;
}

pm_status
counter_acc_fraction(const struct counter_acc *acc, counter_u128 *num,
		     counter_u128 *den)
{
	return acc_fraction(acc, formula(acc->type), num, den);
}

/* An accumulator of the one window of formula f, as counter_calc: the same
 * three steps, inlined, so that with f a constant the local accumulator
 * folds away. */
ACC_INLINE pm_status
window_fraction(enum counter_type t, const unsigned f, const struct counter_window *w,
                counter_u128 *num, counter_u128 *den)
{
	struct counter_acc acc;

	acc_init(&acc, t, f);
	(void)acc_add(&acc, f, w, false);
	return acc_fraction(&acc, f, num, den);
}

/* One case a formula: window_fraction of each folded to its few steps. */
#define EACH_FORMULA(DO) \
	DO(CF_RAW) DO(CF_DELTA) DO(CF_RATE) DO(CF_RATIO) DO(CF_MULTI) DO(CF_FRACTION) \
	DO(CF_AVG_TIMER) DO(CF_RAW_FRACTION) DO(CF_ELAPSED) DO(CF_MAX) DO(CF_NONE) DO(HIDDEN)

pm_status
counter_window_fraction(enum counter_type t, const struct counter_window *w,
			counter_u128 *num, counter_u128 *den)
{
	switch (formula(t)) {
#define ONE(f) case f: return window_fraction(t, f, w, num, den);
	EACH_FORMULA(ONE)
#undef ONE
	}
	return PM_E_NOT_DISPLAYED;
}

/* counter_acc_add_fraction of formula f: a function each, reached by a
 * jump, so that each saves only the registers its own case needs. */
#define ONE(f)								\
static __attribute__((noinline)) pm_status				\
add_fraction_##f(struct counter_acc *acc, const struct counter_window *w,	\
                 counter_u128 *num, counter_u128 *den)			\
{									\
	struct counter_window x = *w;  /* acc's stores cannot touch it */	\
	pm_status st = acc_add(acc, f, &x, false);			\
									\
	return st == PM_OK ? window_fraction(acc->type, f, &x, num, den) : st;	\
}
EACH_FORMULA(ONE)
#undef ONE

pm_status
counter_acc_add_fraction(struct counter_acc *acc, const struct counter_window *w,
			 counter_u128 *num, counter_u128 *den)
{
	switch (formula(acc->type)) {
#define ONE(f) case f: return add_fraction_##f(acc, w, num, den);
	EACH_FORMULA(ONE)
#undef ONE
	}
	return PM_E_NOT_DISPLAYED;
}

uint64_t
counter_acc_windows(const struct counter_acc *acc)
{
	return acc->windows;
}

uint64_t
counter_acc_no_value(const struct counter_acc *acc)
{
	return acc->no_value;
}

pm_status
counter_acc_sum(const struct counter_acc *acc, uint64_t *sum)
{
	if (acc->windows == acc->no_value || acc->overflow)
		return PM_E_NO_VALUE;
	*sum = acc->sum_n;
	return PM_OK;
}

pm_status
counter_acc_span(const struct counter_acc *acc, uint64_t *earliest,
		 uint64_t *latest)
{
	if (acc->windows == acc->no_value)
		return PM_E_NO_VALUE;
	*earliest = acc->min_n;
	*latest = acc->max_d;
	return PM_OK;
}

pm_status
counter_acc_value(const struct counter_acc *acc, double *out)
{
	counter_u128 num, den;
	pm_status st = counter_acc_fraction(acc, &num, &den);

	if (st == PM_OK)
		*out = (double)num / (double)den;
	return st;
}

pm_status
counter_calc(enum counter_type t, const struct counter_sample *prev,
	     const struct counter_sample *cur, double *out)
{
	struct counter_acc acc;
	pm_status st;

	counter_acc_init(&acc, t);
	st = counter_acc_add_samples(&acc, prev, cur);
	if (st != PM_OK)
		return st;
	return counter_acc_value(&acc, out);
}

pm_status
counter_average(enum counter_type t, const struct counter_sample *s,
		size_t count, double *out)
{
	const struct counter_type_info *ti = counter_type_info(t);
	struct counter_acc acc;

	if (!ti || !ti->displayed)
		return PM_E_NOT_DISPLAYED;
	counter_acc_init(&acc, t);
	for (size_t i = ti->two_samples ? 1 : 0; i < count; i++)
		if (counter_acc_add_samples(&acc, ti->two_samples ? &s[i - 1]
					    : NULL, &s[i]) != PM_OK)
			return PM_E_NO_VALUE;
	return counter_acc_value(&acc, out);
}
