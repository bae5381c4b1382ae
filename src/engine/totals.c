/* totals.c: feeds added through the totals of their figures. See totals.h. */
#include <stdlib.h>
#include <string.h>

#include "engine/totals.h"

/* x86-64 adds runs of units four at a time where the CPU has AVX2
 * (add_run_by_four), other hosts one at a time */
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define RUNS_BY_FOUR 1
#endif

/* The formula of a feed the plan can add, or CF_NONE. */
static unsigned
plan_formula(const struct counter_feed *f)
{
	const struct counter_type_info *ti = counter_type_info((enum counter_type)f->type);

	if (!ti || !ti->displayed)
		return CF_NONE;
	switch (ti->formula) {
	case CF_RAW: case CF_DELTA: case CF_MAX: case CF_RATE: case CF_FRACTION:
	case CF_AVG_TIMER:
		return ti->formula;
	case CF_RATIO:
		/* an inverse one's window has no value where N passes D */
		return ti->inverse ? CF_NONE : CF_RATIO;
	default:
		return CF_NONE;
	}
}

static bool
uses_tb(unsigned op)
{
	return op == CF_RATE || op == CF_AVG_TIMER;
}

/* The divisor of a formula that skips a window whose divisor is 0. */
static bool
divides(unsigned op, const struct counter_feed *f, uint16_t *slot)
{
	if (op == CF_RATE || op == CF_RATIO)
		*slot = f->d;
	else if (op == CF_FRACTION || op == CF_AVG_TIMER)
		*slot = f->b;
	else
		return false;
	return true;
}

/* The marked slots of mark[0..nmark) as a list, ascending within each
 * of four blocks: the first vector's slots that lead (lead[slot]), its
 * others, then the second vector's alike (rebased to it); index[slot]
 * their places in it. A lead block starts with the slots of
 * front[0..nfront) (marked and leading) of its vector, in their order. */
static bool
slot_list(struct totals_slots *l, const bool *mark, const bool *lead, size_t nmark,
          uint16_t split, uint16_t *index, const uint16_t *front, size_t nfront)
{
	size_t n = 0;
	bool *fronted = calloc(nmark, sizeof *fronted);

	for (size_t s = 0; s < nmark; s++)
		n += mark[s];
	if (!fronted || !(l->slot = calloc(n ? n : 1, sizeof *l->slot))) {
		free(fronted);
		return false;
	}
	for (size_t k = 0; k < nfront; k++)
		fronted[front[k]] = true;
	l->n = 0;
	for (unsigned block = 0; block < 4; block++) {
		l->at[block] = l->n;
		for (size_t k = 0; !(block & 1) && k < nfront; k++)
			if ((front[k] >= split) == (block >= 2)) {
				index[front[k]] = (uint16_t)l->n;
				l->slot[l->n++] = (uint16_t)(front[k] < split ? front[k] : front[k] - split);
			}
		for (size_t s = 0; s < nmark; s++)
			if (mark[s] && !fronted[s] && (s >= split) == (block >= 2) &&
			    lead[s] == !(block & 1)) {
				index[s] = (uint16_t)l->n;
				l->slot[l->n++] = (uint16_t)(s < split ? s : s - split);
			}
	}
	l->at[4] = l->n;
	free(fronted);
	return true;
}

/* The pairs (divisor z, N): each zero slot's N slots, once each. The
 * feeds are first gathered by their zero slot, in their order (counted,
 * then placed), so that the work grows with the feeds, not with the feeds
 * times the zero slots (a report's start-up). */
static bool
pair_list(struct counter_plan *p, struct totals_feed *tf, size_t ntf, const uint16_t *zero_of)
{
	size_t *by_zero = malloc((ntf ? ntf : 1) * sizeof *by_zero);
	size_t *end = calloc(p->zeros.n + 1, sizeof *end);  /* counts, then ends */
	size_t at = 0, k = 0;
	uint16_t c;
	bool ok;

	p->pair_n = calloc(ntf ? ntf : 1, sizeof *p->pair_n);
	p->pair_start = calloc(p->zeros.n + 1, sizeof *p->pair_start);
	ok = by_zero && end && p->pair_n && p->pair_start;
	for (size_t i = 0; ok && i < ntf; i++)
		if (divides(tf[i].op, &tf[i].feed, &c))
			end[zero_of[c] + 1]++;
	for (size_t z = 1; ok && z <= p->zeros.n; z++)
		end[z] += end[z - 1];
	/* end[z] now says where zero z's feeds start, and moves to where
	 * they end as they are placed */
	for (size_t i = 0; ok && i < ntf; i++)
		if (divides(tf[i].op, &tf[i].feed, &c))
			by_zero[end[zero_of[c]]++] = i;
	for (size_t z = 0; ok && z < p->zeros.n; z++) {
		p->pair_start[z] = at;
		for (; k < end[z]; k++) {
			struct totals_feed *f = &tf[by_zero[k]];
			size_t q;

			for (q = p->pair_start[z]; q < at && p->pair_n[q] != f->feed.n; q++)
				;
			if (q == at)
				p->pair_n[at++] = f->feed.n;
			f->zero = (uint16_t)z;
			f->pair = (uint16_t)q;
		}
	}
	if (ok)
		p->pair_start[p->zeros.n] = p->npairs = at;
	free(by_zero);
	free(end);
	return ok;
}

#define TOTALS_NARROW_RUN 8  /* narrow sums of a vector worth their own loop */

/* Whether a slot's figures are narrow: below 2^TOTALS_NARROW_BITS. */
static bool
narrow(const uint8_t *bits, size_t slot)
{
	return bits && bits[slot] >= 1 && bits[slot] <= TOTALS_NARROW_BITS;
}

/* Which divisor slots have a single pair, whose N is narrow and in the
 * same vector: those take a mask instead of a mark. single_n[slot]: its
 * N + 1, 0 for the others. */
static void
mark_singles(uint32_t *single_n, const struct totals_feed *tf, size_t ntf, const bool *is_zero,
             const uint8_t *bits, size_t nmark, uint16_t split)
{
	uint32_t *n_of = calloc(nmark, sizeof *n_of);  /* N + 1, or UINT32_MAX: two */
	uint16_t c;

	if (!n_of)
		return;  /* none single: the same sums, marked */
	for (size_t i = 0; i < ntf; i++)
		if (divides(tf[i].op, &tf[i].feed, &c))
			n_of[c] = n_of[c] == 0 || n_of[c] == tf[i].feed.n + 1u
			          ? tf[i].feed.n + 1u : UINT32_MAX;
	for (size_t s = 0; s < nmark; s++)
		if (is_zero[s] && n_of[s] != 0 && n_of[s] != UINT32_MAX &&
		    narrow(bits, n_of[s] - 1u) && (s < split) == (n_of[s] - 1u < split))
			single_n[s] = n_of[s];
	free(n_of);
}

#define TOTALS_UNIT_NEAR 4  /* how far a unit's maximum may lie from its divisor */
#define TOTALS_UNITS 4      /* units worth loops of their own */

/* The most frequent d of count[0..n), d - off; 0 times: none. */
static int
most(const size_t *count, size_t n, size_t off, size_t *times)
{
	size_t best = 0;

	for (size_t d = 1; d < n; d++)
		best = count[d] > count[best] ? d : best;
	*times = count[best];
	return (int)best - (int)off;
}

/* The units (see struct totals_run): single divisors C with both sums
 * narrow, whose N lies at the distance most of them have, and a maximum
 * at the distance near C most of those have; each figure in one unit at
 * most. Their divisors, ascending, to unit_c, their number to *nunits. */
static bool
find_units(struct counter_plan *p, const uint32_t *single_n, const bool *is_narrow,
           const bool *is_max, size_t nmark, uint16_t split, uint16_t *unit_c, size_t *nunits)
{
	size_t *count = calloc(2 * nmark, sizeof *count), near[2 * TOTALS_UNIT_NEAR + 1] = { 0 };
	bool *used = calloc(nmark, sizeof *used);
	size_t times = 0;
	int dn = 0, dm = 0;

	*nunits = 0;
	if (!count || !used) {
		free(count);
		free(used);
		return false;
	}
	for (size_t c = 0; c < nmark; c++)
		if (single_n[c] && is_narrow[c] && is_narrow[single_n[c] - 1])
			count[single_n[c] - 1 + nmark - c]++;
	dn = most(count, 2 * nmark, nmark, &times);
	for (size_t c = 0; times && c < nmark; c++)
		if (single_n[c] && is_narrow[c] && single_n[c] - 1 == c + dn)
			for (int d = -TOTALS_UNIT_NEAR; d <= TOTALS_UNIT_NEAR; d++) {
				size_t m = c + d;
				near[d + TOTALS_UNIT_NEAR] += d != 0 && d != dn && m < nmark &&
				                              is_max[m] && (m < split) == (c < split);
			}
	if (times)
		dm = most(near, 2 * TOTALS_UNIT_NEAR + 1, TOTALS_UNIT_NEAR, &times);
	for (size_t c = 0; times && c < nmark; c++) {
		size_t n = c + dn, m = c + dm;

		if (single_n[c] && is_narrow[c] && single_n[c] - 1 == n && m < nmark && is_max[m] &&
		    (m < split) == (c < split) && !used[c] && !used[n] && !used[m]) {
			used[c] = used[n] = used[m] = true;
			unit_c[(*nunits)++] = (uint16_t)c;
		}
	}
	if (*nunits < TOTALS_UNITS)
		*nunits = 0;
	p->unit_dn = dn;
	p->unit_dm = dm;
	free(count);
	free(used);
	return true;
}

/* The runs of the units unit_c[0..nunits), their words found. */
static bool
run_list(struct counter_plan *p, const uint16_t *unit_c, size_t nunits, const uint16_t *sum_of,
         const uint16_t *max_of, const uint16_t *zero_of)
{
	if (!(p->runs = calloc(nunits ? nunits : 1, sizeof *p->runs)))
		return false;
	for (size_t k = 0; k < nunits; k++) {
		size_t c = unit_c[k], n = c + p->unit_dn;
		bool second = c >= p->split;
		uint16_t at = (uint16_t)(second ? c - p->split : c);
		struct totals_run *r = &p->runs[p->nruns - (p->nruns > 0)];

		p->units[second]++;
		if (p->nruns && r->second == second &&
		    (r->count == 1 || at == r->c + r->count * r->step)) {
			r->step = r->count == 1 ? (uint16_t)(at - r->c) : r->step;
			r->count++;
			continue;
		}
		p->runs[p->nruns++] = (struct totals_run){
			.lo = sum_of[n < c ? n : c], .max = max_of[c + p->unit_dm],
			.zero = zero_of[c], .pair = p->pair_start[zero_of[c]],
			.c = at, .count = 1, .second = second };
	}
	/* add_run_by_four's units: N two words before C, the maximum one
	 * before, four words a unit, all in the first vector, whose length
	 * (split) holds the word after the last C too */
	for (size_t k = 0; k < p->nruns; k++) {
		struct totals_run *r = &p->runs[k];

		r->by_four = p->unit_dn == -2 && p->unit_dm == -1 && r->step == 4 && r->count >= 4 &&
		             !r->second && r->c >= 2 && r->c + 4u * (r->count - 1u) + 1u < p->split;
	}
#ifdef RUNS_BY_FOUR
	p->runs_by_four = __builtin_cpu_supports("avx2");
#endif
	return true;
}

pm_status
counter_plan_init(struct counter_plan *p, const struct counter_feed *feeds, size_t count,
                  uint16_t split, const uint8_t *bits, struct counter_feed *rest,
                  size_t *nrest)
{
	size_t nmark = 1, nnarrow[2] = { 0, 0 };
	unsigned widest = 0;
	size_t nunits = 0;
	bool *is_sum = NULL, *is_max = NULL, *is_zero = NULL, *is_narrow = NULL, *single = NULL;
	uint32_t *single_n = NULL;
	uint16_t *sum_of = NULL, *max_of = NULL, *zero_of = NULL, *unit_c = NULL, *front = NULL;
	bool ok;

	memset(p, 0, sizeof *p);
	p->split = split;
	*nrest = 0;
	for (size_t i = 0; i < count; i++) {
		size_t top = feeds[i].n > feeds[i].d ? feeds[i].n : feeds[i].d;
		top = top > feeds[i].b ? top : feeds[i].b;
		nmark = top + 1 > nmark ? top + 1 : nmark;
	}
	p->feeds = calloc(count ? count : 1, sizeof *p->feeds);
	is_sum = calloc(nmark, sizeof *is_sum);
	is_max = calloc(nmark, sizeof *is_max);
	is_zero = calloc(nmark, sizeof *is_zero);
	is_narrow = calloc(nmark, sizeof *is_narrow);
	single = calloc(nmark, sizeof *single);
	single_n = calloc(nmark, sizeof *single_n);
	unit_c = calloc(nmark, sizeof *unit_c);
	front = calloc(2 * nmark, sizeof *front);
	sum_of = calloc(nmark, sizeof *sum_of);
	max_of = calloc(nmark, sizeof *max_of);
	zero_of = calloc(nmark, sizeof *zero_of);
	ok = p->feeds && is_sum && is_max && is_zero && is_narrow && single && single_n &&
	     unit_c && front && sum_of && max_of && zero_of;
	for (size_t i = 0; ok && i < count; i++) {
		unsigned op = plan_formula(&feeds[i]);
		uint16_t c;

		if (op == CF_NONE) {
			rest[(*nrest)++] = feeds[i];
			continue;
		}
		p->feeds[p->nfeeds++] = (struct totals_feed){ .feed = feeds[i], .op = (uint8_t)op };
		p->need |= feeds[i].need;
		if (op == CF_MAX) {
			is_max[feeds[i].n] = true;
			continue;
		}
		is_sum[feeds[i].n] = true;
		if (divides(op, &feeds[i], &c))
			is_sum[c] = is_zero[c] = true;
	}
	for (size_t s = 0; ok && s < nmark; s++)
		if (is_sum[s] && narrow(bits, s))
			nnarrow[s >= split]++;
	/* a vector's few narrow sums go with its wide ones: a loop of their
	 * own would cost more than the carries */
	for (size_t s = 0; ok && s < nmark; s++)
		if (is_sum[s] && narrow(bits, s)) {
			is_narrow[s] = nnarrow[s >= split] >= TOTALS_NARROW_RUN;
			widest = bits[s] > widest ? bits[s] : widest;
		}
	/* a narrow sum's low word, or a single divisor's pair's, holds
	 * 2^(64 - widest) windows */
	p->fold_at = widest ? (uint64_t)1 << (64 - widest) : 0;
	if (ok)
		mark_singles(single_n, p->feeds, p->nfeeds, is_zero, bits, nmark, split);
	for (size_t s = 0; ok && s < nmark; s++)
		single[s] = single_n[s] != 0;
	ok = ok && find_units(p, single_n, is_narrow, is_max, nmark, split, unit_c, &nunits);
	/* the units' sums, in their slots' order, then their maxima and divisors */
	for (size_t k = 0; ok && k < nunits; k++) {
		uint16_t c = unit_c[k], n = (uint16_t)(c + p->unit_dn);

		front[2 * k] = n < c ? n : c;
		front[2 * k + 1] = n < c ? c : n;
	}
	ok = ok && slot_list(&p->sums, is_sum, is_narrow, nmark, split, sum_of, front, 2 * nunits);
	for (size_t k = 0; ok && k < nunits; k++)
		front[k] = (uint16_t)(unit_c[k] + p->unit_dm);
	ok = ok && slot_list(&p->maxes, is_max, is_max, nmark, split, max_of, front, nunits) &&
	     slot_list(&p->zeros, is_zero, single, nmark, split, zero_of, unit_c, nunits) &&
	     pair_list(p, p->feeds, p->nfeeds, zero_of) &&
	     run_list(p, unit_c, nunits, sum_of, max_of, zero_of);
	for (size_t i = 0; ok && i < p->nfeeds; i++) {
		struct totals_feed *tf = &p->feeds[i];
		uint16_t c;

		tf->sum_n = sum_of[tf->feed.n];
		tf->max = max_of[tf->feed.n];
		if (divides(tf->op, &tf->feed, &c))
			tf->sum_c = sum_of[c];
	}
	p->words = 1 + 2 * p->sums.n + p->maxes.n + p->zeros.n + 2 * p->npairs;
	free(is_sum);
	free(is_max);
	free(is_zero);
	free(is_narrow);
	free(single);
	free(single_n);
	free(unit_c);
	free(front);
	free(sum_of);
	free(max_of);
	free(zero_of);
	if (!ok) {
		counter_plan_free(p);
		return PM_E_NOMEM;
	}
	return PM_OK;
}

void
counter_plan_free(struct counter_plan *p)
{
	free(p->feeds);
	free(p->sums.slot);
	free(p->maxes.slot);
	free(p->zeros.slot);
	free(p->pair_n);
	free(p->pair_start);
	free(p->runs);
	memset(p, 0, sizeof *p);
}

/* A group's words, by what they hold. */
struct words {
	uint64_t *windows, *lo, *carry, *max, *zero, *pair_lo, *pair_carry;
};

static struct words
words_of(const struct counter_plan *p, uint64_t *t)
{
	struct words w = { t, t + 1, NULL, NULL, NULL, NULL, NULL };

	w.carry = w.lo + p->sums.n;
	w.max = w.carry + p->sums.n;
	w.zero = w.max + p->maxes.n;
	w.pair_lo = w.zero + p->zeros.n;
	w.pair_carry = w.pair_lo + p->npairs;
	return w;
}

/* x[slot] added to lo and carry for the slots [from, to) of a list. */
static inline void
add_sums(uint64_t *lo, uint64_t *carry, const uint16_t *slot, size_t from, size_t to,
         const uint64_t *x)
{
	/* unrolled: a sum is a few instructions, its loop as many again */
#pragma GCC unroll 4
	for (size_t i = from; i < to; i++) {
		uint64_t v = x[slot[i]], s = lo[i] + v;
		carry[i] += s < v;
		lo[i] = s;
	}
}

/* The same for narrow slots: their low words cannot pass 2^64 before
 * fold_at windows, so they need no carry. Unrolled further than the
 * wide ones: its body is a load and an add. */
static inline void
add_narrow(uint64_t *lo, const uint16_t *slot, size_t from, size_t to, const uint64_t *x)
{
#pragma GCC unroll 8
	for (size_t i = from; i < to; i++)
		lo[i] += x[slot[i]];
}

/* A maximum rises rarely after a group's first windows: a branch taken
 * seldom costs less than a store each time. */
static inline void
take_maxes(uint64_t *max, const uint16_t *slot, size_t from, size_t to, const uint64_t *x)
{
#pragma GCC unroll 8
	for (size_t i = from; i < to; i++) {
		uint64_t v = x[slot[i]];
		if (__builtin_expect(v > max[i], 0))
			max[i] = v;
	}
}

/* The divisor slots [from, to) of a list that have a single narrow pair
 * in the same vector x (base: its first slot): counted and summed under
 * a mask, without a branch. Their pairs are consecutive. */
static inline void
single_zeros(const struct counter_plan *p, const struct words *w, size_t from, size_t to,
             const uint64_t *x, uint16_t base)
{
#pragma GCC unroll 4
	for (size_t z = from, q = p->pair_start[from]; z < to; z++, q++) {
		uint64_t none = x[p->zeros.slot[z]] == 0;

		w->zero[z] += none;
		w->pair_lo[q] += x[p->pair_n[q] - base] & -none;
	}
}

/* The zero windows of the divisor slots [from, to) of a list, read from
 * x, and the sums of their pairs' N. Whether a divisor is 0 changes from
 * window to window (a bucket with waits or none): the zeros are marked in
 * a word without a branch, 64 slots at a time, and only the marked ones
 * visited. */
static inline void
count_zeros(const struct counter_plan *p, const struct words *w, size_t from, size_t to,
            const uint64_t *x, const uint64_t *first, const uint64_t *second)
{
	for (size_t base = from; base < to; base += 64) {
		size_t end = to - base < 64 ? to : base + 64;
		uint64_t marks = 0;

		for (size_t z = base; z < end; z++)
			marks |= (uint64_t)(x[p->zeros.slot[z]] == 0) << (z - base);
		for (; marks; marks &= marks - 1) {
			size_t z = base + (size_t)__builtin_ctzll(marks);

			w->zero[z]++;
			for (size_t q = p->pair_start[z], e = p->pair_start[z + 1]; q < e; q++) {
				uint16_t n = p->pair_n[q];
				uint64_t v = n < p->split ? first[n] : second[n - p->split];
				uint64_t sum = w->pair_lo[q] + v;

				w->pair_carry[q] += sum < v;
				w->pair_lo[q] = sum;
			}
		}
	}
}

#ifdef RUNS_BY_FOUR
/* The first 4 x groups units of run r (by_four) from x with AVX2: each
 * unit's N, maximum, C and the word after in one load, four units'
 * words sorted into registers of N, C and maxima, their sums, zero
 * counts and pairs added in four words at a time: 10 instructions a
 * unit, where add_run's loop takes 16. */
__attribute__((target("avx2"))) static void
add_run_by_four(const struct totals_run *r, const struct words *w, const uint64_t *x,
                size_t groups)
{
	const uint64_t *y = x + r->c - 2;
	uint64_t *lo = w->lo + r->lo, *max = w->max + r->max, *zero = w->zero + r->zero;
	uint64_t *pair = w->pair_lo + r->pair;
	const __m256i top = _mm256_set1_epi64x(INT64_MIN), none0 = _mm256_setzero_si256();

	for (size_t g = 0; g < groups; g++, y += 16, lo += 8, max += 4, zero += 4, pair += 4) {
		__m256i u0 = _mm256_loadu_si256((const __m256i *)y);
		__m256i u1 = _mm256_loadu_si256((const __m256i *)(y + 4));
		__m256i u2 = _mm256_loadu_si256((const __m256i *)(y + 8));
		__m256i u3 = _mm256_loadu_si256((const __m256i *)(y + 12));
		__m256i nc01 = _mm256_unpacklo_epi64(u0, u1), nc23 = _mm256_unpacklo_epi64(u2, u3);
		__m256i m = _mm256_permute2x128_si256(_mm256_unpackhi_epi64(u0, u1),
		                                      _mm256_unpackhi_epi64(u2, u3), 0x20);
		__m256i n = _mm256_permute2x128_si256(nc01, nc23, 0x20);
		__m256i c = _mm256_permute2x128_si256(nc01, nc23, 0x31);
		/* all ones where C is 0, as in add_run */
		__m256i none = _mm256_cmpeq_epi64(c, none0);
		__m256i old = _mm256_loadu_si256((const __m256i *)max);
		/* unsigned, as signed with the top bits flipped */
		__m256i more = _mm256_cmpgt_epi64(_mm256_xor_si256(m, top), _mm256_xor_si256(old, top));

		/* each unit's pair of sums, N's word first (unit_dn < 0) */
		_mm256_storeu_si256((__m256i *)lo, _mm256_add_epi64(_mm256_loadu_si256((const __m256i *)lo),
		                    _mm256_permute4x64_epi64(nc01, 0xD8)));
		_mm256_storeu_si256((__m256i *)(lo + 4), _mm256_add_epi64(_mm256_loadu_si256((const __m256i *)(lo + 4)),
		                    _mm256_permute4x64_epi64(nc23, 0xD8)));
		_mm256_storeu_si256((__m256i *)zero, _mm256_sub_epi64(_mm256_loadu_si256((const __m256i *)zero), none));
		_mm256_storeu_si256((__m256i *)pair, _mm256_add_epi64(_mm256_loadu_si256((const __m256i *)pair),
		                    _mm256_and_si256(n, none)));
		if (__builtin_expect(!_mm256_testz_si256(more, more), 0))
			_mm256_storeu_si256((__m256i *)max, _mm256_blendv_epi8(old, m, more));
	}
}
#endif

/* A run's units from x: three figures each, read once; four at a time
 * where the run and the plan allow (add_run_by_four), the rest here. */
static inline void
add_run(const struct counter_plan *p, const struct totals_run *r, const struct words *w,
        const uint64_t *x)
{
	size_t done = 0;
	const uint64_t *y;
	uint64_t *lo, *max, *zero, *pair;
	ptrdiff_t dn = p->unit_dn, dm = p->unit_dm;
	size_t on = dn > 0, oc = !on;  /* N's word after C's when its slot is */

#ifdef RUNS_BY_FOUR
	if (r->by_four && p->runs_by_four) {
		done = r->count & ~(size_t)3;
		add_run_by_four(r, w, x, done / 4);
	}
#endif
	y = x + r->c + done * r->step;
	lo = w->lo + r->lo + 2 * done;
	max = w->max + r->max + done;
	zero = w->zero + r->zero + done;
	pair = w->pair_lo + r->pair + done;
#pragma GCC unroll 4
	for (size_t u = 0; u < r->count - done; u++, y += r->step, lo += 2) {
		uint64_t c = y[0], n = y[dn], m = y[dm];
		/* all ones when C is 0: C is narrow, C - 1 has its top bit only then */
		uint64_t none = (uint64_t)((int64_t)(c - 1) >> 63);

		lo[on] += n;
		lo[oc] += c;
		if (__builtin_expect(m > max[u], 0))
			max[u] = m;
		zero[u] -= none;
		pair[u] += n & none;
	}
}

bool
counter_totals_add(const struct counter_plan *p, uint64_t *t, const uint64_t *first,
                   const uint64_t *second)
{
	struct words w = words_of(p, t);
	const size_t *s = p->sums.at, *m = p->maxes.at, *z = p->zeros.at, *u = p->units;

	for (size_t r = 0; r < p->nruns; r++)
		add_run(p, &p->runs[r], &w, p->runs[r].second ? second : first);
	add_narrow(w.lo, p->sums.slot, s[0] + 2 * u[0], s[1], first);
	add_sums(w.lo, w.carry, p->sums.slot, s[1], s[2], first);
	add_narrow(w.lo, p->sums.slot, s[2] + 2 * u[1], s[3], second);
	add_sums(w.lo, w.carry, p->sums.slot, s[3], s[4], second);
	/* many reports have no maxima or no divisors: one test for each */
	if (p->maxes.n) {
		take_maxes(w.max, p->maxes.slot, m[0] + u[0], m[2], first);
		take_maxes(w.max, p->maxes.slot, m[2] + u[1], m[4], second);
	}
	if (p->zeros.n) {
		single_zeros(p, &w, z[0] + u[0], z[1], first, 0);
		count_zeros(p, &w, z[1], z[2], first, first, second);
		single_zeros(p, &w, z[2] + u[1], z[3], second, p->split);
		count_zeros(p, &w, z[3], z[4], second, first, second);
	}
	return ++*w.windows == p->fold_at;
}

static counter_u128
total(uint64_t lo, uint64_t carry)
{
	return (counter_u128)carry << 64 | lo;
}

/* *sum += v modulo 2^64, a carry remembered: what adding its terms one
 * by one gives. */
static void
add_total(uint64_t *sum, counter_u128 v, bool *overflow)
{
	counter_u128 r = (counter_u128)*sum + v;

	*sum = (uint64_t)r;
	*overflow |= (r >> 64) != 0;
}

static void
fold_feed(const struct totals_feed *tf, const struct words *w, struct counter_acc *acc)
{
	uint64_t windows = *w->windows, none;

	acc->windows += windows;
	switch (tf->op) {
	case CF_RAW:
	case CF_DELTA:
		add_total(&acc->sum_n, total(w->lo[tf->sum_n], w->carry[tf->sum_n]),
		          &acc->overflow);
		return;
	case CF_MAX:
		acc->max_n = w->max[tf->max] > acc->max_n ? w->max[tf->max] : acc->max_n;
		return;
	}
	if (uses_tb(tf->op) && tf->feed.tb == 0) {
		acc->no_value += windows;
		return;
	}
	none = w->zero[tf->zero];
	acc->no_value += none;
	add_total(&acc->sum_n, total(w->lo[tf->sum_n], w->carry[tf->sum_n]) -
	                       total(w->pair_lo[tf->pair], w->pair_carry[tf->pair]),
	          &acc->overflow);
	add_total(&acc->sum_d, total(w->lo[tf->sum_c], w->carry[tf->sum_c]), &acc->overflow);
	if (uses_tb(tf->op) && none < windows) {
		acc->tb_min = tf->feed.tb < acc->tb_min ? tf->feed.tb : acc->tb_min;
		acc->tb_max = tf->feed.tb > acc->tb_max ? tf->feed.tb : acc->tb_max;
	}
}

void
counter_totals_fold(const struct counter_plan *p, uint64_t *t, struct counter_acc *accs)
{
	struct words w = words_of(p, t);

	if (*w.windows == 0)
		return;
	for (size_t i = 0; i < p->nfeeds; i++)
		fold_feed(&p->feeds[i], &w, &accs[p->feeds[i].feed.acc]);
	memset(t, 0, p->words * sizeof *t);
}
