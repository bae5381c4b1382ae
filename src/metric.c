/* metric.c: the counter engine applied to PMIM. See metric.h. */
#include <string.h>

#include "fmtnum.h"
#include "metric.h"
#include "pmtime.h"

typedef unsigned __int128 u128;

enum counter_type
metric_acc_type(const struct rpt_column *c)
{
	if (c->text == TEXT_FIRST_START || c->text == TEXT_LAST_END)
		return counter_type_by_name("PERF_ELAPSED_TIME");
	return c->text == TEXT_NONE ? c->type : CT_UNKNOWN;
}

/* The value of one term, in the term's own units. */
static uint64_t
term_value(const struct rpt_term *t, const struct layout *lay,
           const struct interval *iv, const struct cb_bucket *b, unsigned all)
{
	uint64_t sum = 0;

	switch (t->kind) {
	case TERM_FIELD: return iv->v[t->field];
	case TERM_BUCKET_SUM: return iv->v[b->sum];
	case TERM_BUCKET_HIGH: return iv->v[b->high];
	case TERM_BUCKET_COUNT: return iv->v[b->count];
	case TERM_DURATION: return (uint64_t)(iv->end - iv->start);
	case TERM_INTERVAL: return 1;
	case TERM_COMPLETE: return (iv->parts & all) == all;
	case TERM_INCOMPLETE: return (iv->parts & all) != all;
	case TERM_WAIT_TIME:
	case TERM_WAITS:
		/* fullwords: 48 of them cannot pass 2**64 */
		for (size_t i = 0; i < lay->nbuckets; i++)
			sum += iv->v[t->kind == TERM_WAITS ? lay->buckets[i].count
			                                    : lay->buckets[i].sum];
		return sum;
	case TERM_START: return (uint64_t)iv->start;
	case TERM_END: return (uint64_t)iv->end;
	}
	return 0;
}

/* N, D or B of an interval in the column's clock; false when the sum
 * passes 2**64. */
static bool
ref_value(const struct rpt_ref *r, const struct layout *lay,
          const struct interval *iv, const struct cb_bucket *b, unsigned all,
          uint64_t *out)
{
	uint64_t sum = 0, v;

	for (unsigned i = 0; i < r->nterms; i++)
		if (__builtin_mul_overflow(term_value(&r->terms[i], lay, iv, b, all),
		                           r->terms[i].factor, &v) ||
		    __builtin_add_overflow(sum, v, &sum))
			return false;
	*out = sum;
	return true;
}

/* Every part of the layout: bits 1..nparts. */
static unsigned
all_parts(const struct layout *lay)
{
	return ((1u << lay->nparts) - 1) & ~1u;
}

void
metric_add(struct counter_acc *acc, const struct rpt_column *c,
           const struct layout *lay, const struct interval *iv, int bucket)
{
	const struct cb_bucket *b = NULL;
	unsigned need = c->parts, all = all_parts(lay);
	struct counter_window w = { .tb = c->tb, .when = (uint64_t)iv->end };

	if (c->text == TEXT_FIRST_START || c->text == TEXT_LAST_END) {
		w.n = (uint64_t)iv->start;
		w.d = (uint64_t)iv->end;
		w.tb = PM_UNITS_PER_SECOND;
		counter_acc_add(acc, &w);
		return;
	}
	if (c->bucket >= 0)
		bucket = c->bucket;
	if (c->uses_bucket && bucket >= 0) {
		b = &lay->buckets[bucket];
		need |= 1u << b->part;
	}
	if ((iv->parts & need) != need || iv->start < 0 || iv->end < iv->start ||
	    !ref_value(&c->n, lay, iv, b, all, &w.n) ||
	    (c->has_d && !ref_value(&c->d, lay, iv, b, all, &w.d)) ||
	    (c->has_b && !ref_value(&c->b, lay, iv, b, all, &w.b))) {
		counter_acc_add_none(acc);
		return;
	}
	w.db = w.b;
	/* PM_E_NO_VALUE (a zero denominator) is counted in the accumulator */
	counter_acc_add(acc, &w);
}

static bool
mul(u128 a, u128 b, u128 *out)
{
	return !__builtin_mul_overflow(a, b, out);
}

static u128
gcd128(u128 a, u128 b)
{
	while (b) {
		u128 t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* num/den times the column's factor, reduced; false when it does not fit
 * 64 bits. */
static bool
scaled_fraction(const struct rpt_column *c, u128 num, u128 den, uint64_t *n,
                uint64_t *d)
{
	/* den and the scale's terms are at least 1: so are g1 and g2 */
	u128 g1 = gcd128(num, c->scale_den), g2 = gcd128(den, c->scale_num), g;

	if (!mul(num / g1, c->scale_num / g2, &num) ||
	    !mul(den / g2, c->scale_den / g1, &den))
		return false;
	g = gcd128(num, den);
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

	if (c->total) {
		if (acc->windows == acc->no_value || acc->overflow)
			return PM_E_NO_VALUE;
		*out = (double)acc->sum_n;
	} else if ((st = counter_acc_value(acc, out)) != PM_OK) {
		return st;
	}
	*out = *out * (double)c->scale_num / (double)c->scale_den;
	return PM_OK;
}

size_t
metric_format(const struct rpt_column *c, const struct counter_acc *acc,
              char *out)
{
	u128 num, den;
	uint64_t n, d;
	double v;

	if (metric_value(c, acc, &v) != PM_OK)
		return 0;
	if (c->total) {
		num = acc->sum_n;
		den = 1;
	} else if (counter_acc_fraction(acc, &num, &den) != PM_OK) {
		return fmt_fixed(out, v, c->decimals);
	}
	if (!scaled_fraction(c, num, den, &n, &d))
		return fmt_fixed(out, v, c->decimals);
	return fmt_ratio(out, n, d, c->decimals);
}
