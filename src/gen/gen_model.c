/* gen_model.c: the synthetic workload. See gen_model.h.
 *
 * The figures follow a day's shape (quiet nights, a batch bump after
 * midnight, two peaks in office hours, lighter weekends), scaled by each
 * source's size. Waits are driven by the number of tasks: each bucket has a
 * rate of waits per task, a mean wait that grows with CPU load, and a
 * chance of being idle for a whole interval. Buckets are looked up by their
 * copybook label; a label the table does not know gets a modest default. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen_model.h"
#include "pmim/pmtime.h"

/* One TOD unit per 2**-12 microsecond: 10**-4 s is 409,600 units. */
#define TOD_PER_E4 (TOD_UNITS_PER_SECOND / PM_UNITS_PER_SECOND)
#define UNITS_PER_HOUR (3600 * PM_UNITS_PER_SECOND)

/* ---- PRNG: xoshiro256** seeded through splitmix64 (public domain
 * algorithms by Blackman and Vigna). */

static uint64_t
splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static uint64_t
rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void
gen_rng_seed(struct gen_rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ splitmix64(&stream);
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

uint64_t
gen_rng_next(struct gen_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t
gen_rng_below(struct gen_rng *r, uint64_t n)
{
	/* Rejection keeps it unbiased with no 128-bit product. */
	uint64_t threshold, x;

	if (n == 0)
		return 0;
	threshold = (0 - n) % n;
	do
		x = gen_rng_next(r);
	while (x < threshold);
	return x % n;
}

uint64_t
gen_rng_range(struct gen_rng *r, uint64_t lo, uint64_t hi)
{
	return lo + gen_rng_below(r, hi - lo + 1);
}

bool
gen_rng_chance(struct gen_rng *r, uint32_t ppm)
{
	return gen_rng_below(r, GEN_PPM) < ppm;
}

/* ---- the workload */

/* Share of the largest source's CPU load by hour of day, permille. */
static const unsigned hour_load_pm[24] = {
	120, 180, 220, 200, 150, 100, 120, 250, 450, 620, 700, 680,
	520, 600, 680, 650, 540, 380, 250, 200, 180, 160, 150, 130
};

struct gen_bucket_profile {
	const char *label;  /* the bucket's label in #PMINTDS */
	unsigned per_ktask; /* waits per 1,000 tasks */
	unsigned mean_e4;   /* mean wait at no load, 10**-4 s */
	unsigned idle_pm;   /* chance of no wait in an interval, permille */
	bool sharing;       /* only seen in a data-sharing group */
};

static const struct gen_bucket_profile bucket_profiles[] = {
	{ "INTDBIR", 8000, 15, 0, false },   /* database reads: the bulk */
	{ "INTDBIW", 2000, 20, 0, false },
	{ "INTFCBX", 0, 0, 1000, false },    /* DOS only: never on z/OS */
	{ "INTDBFR", 50, 30, 300, false },
	{ "INTJRLR", 5, 100, 700, false },
	{ "INTJRLW", 400, 25, 0, false },
	{ "INTJBFR", 20, 40, 500, false },
	{ "INTLOGR", 1, 20, 900, false },
	{ "INTLOGW", 100, 15, 100, false },
	{ "INTLOGS", 10, 5, 400, false },
	{ "INTLOGF", 1, 500, 950, false },
	{ "INTSCRR", 300, 10, 100, false },
	{ "INTSCRW", 300, 12, 100, false },
	{ "INTSCRS", 20, 3, 300, false },
	{ "INTQUER", 50, 10, 300, false },
	{ "INTQUEW", 50, 12, 300, false },
	{ "INTDBKY", 30, 50, 300, false },
	{ "INTSTGP", 10, 8, 500, false },
	{ "INTPGMP", 5, 20, 600, false },
	{ "INTPGML", 40, 60, 200, false },
	{ "INTLDRS", 5, 10, 500, false },
	{ "INTACCS", 2, 200, 800, false },
	{ "INTERUS", 3000, 120, 100, false }, /* external run units */
	{ "INTDDSW", 10, 300, 700, false },
	{ "INTCKUS", 1, 100, 900, false },
	{ "INTTPIR", 1500, 2000, 50, false }, /* terminal reads: think time */
	{ "INTTPIW", 1500, 30, 50, false },
	{ "INTTCA", 5, 10, 600, false },
	{ "INTDBG", 2, 100, 850, false },
	{ "INTSHC", 100, 5, 100, true },
	{ "INTOTHE", 100, 500, 200, false },
	{ "INTOTHR", 200, 50, 100, false },
	{ "INTXLK", 200, 3, 50, true },
	{ "INTXLI", 50, 4, 100, true },
};

static const struct gen_bucket_profile default_profile = {
	"", 100, 20, 500, false
};

/* A field the generator fills. */
static pm_status
need(const struct pmint *pm, const char *name, int *index, char *err,
     size_t errlen)
{
	return layout_need_field(&pm->lay, name, index, err, errlen);
}

pm_status
gen_model_init(struct gen_model *m, const struct pmint *pm, int64_t interval_e4,
               uint32_t extreme_ppm, char *err, size_t errlen)
{
	pm_status st;

	memset(m, 0, sizeof *m);
	m->pm = pm;
	m->interval_e4 = interval_e4;
	m->extreme_ppm = extreme_ppm;
	if ((st = need(pm, "INT#TSTR", &m->f_tstr, err, errlen)) ||
	    (st = need(pm, "INT#TEND", &m->f_tend, err, errlen)) ||
	    (st = need(pm, "INTTIMSY", &m->f_timsy, err, errlen)) ||
	    (st = need(pm, "INTTIMUS", &m->f_timus, err, errlen)) ||
	    (st = need(pm, "INTSYTI", &m->f_syti, err, errlen)) ||
	    (st = need(pm, "INTCPTI", &m->f_cpti, err, errlen)) ||
	    (st = need(pm, "INTZPTI", &m->f_zpti, err, errlen)) ||
	    (st = need(pm, "INTUSTI", &m->f_usti, err, errlen)) ||
	    (st = need(pm, "INTTTTI", &m->f_ttti, err, errlen)) ||
	    (st = need(pm, "INTENTI", &m->f_enti, err, errlen)))
		return st;
	m->profile = calloc(pm->lay.nbuckets ? pm->lay.nbuckets : 1,
	                    sizeof *m->profile);
	if (!m->profile) {
		snprintf(err, errlen, "no memory for the model's buckets");
		return PM_E_NOMEM;
	}
	for (size_t b = 0; b < pm->lay.nbuckets; b++) {
		m->profile[b] = &default_profile;
		for (size_t k = 0; k < sizeof bucket_profiles / sizeof bucket_profiles[0]; k++)
			if (strcmp(bucket_profiles[k].label, pm->lay.buckets[b].label) == 0)
				m->profile[b] = &bucket_profiles[k];
	}
	return PM_OK;
}

void
gen_model_source(struct gen_model *m, unsigned s, uint64_t seed, int64_t start,
                 int64_t max_delay_e4)
{
	struct gen_source *src = &m->sources[s];
	struct gen_rng *r = &src->rng;

	gen_rng_seed(r, seed, 1 + (uint64_t)s);
	src->size_pm = (unsigned)gen_rng_range(r, 500, 1000);
	src->cpu_per_task_e4 = (unsigned)gen_rng_range(r, 50, 400);
	src->user_pm = (unsigned)gen_rng_range(r, 550, 800);
	src->enclave_pm = (unsigned)gen_rng_range(r, 100, 500);
	src->ziip_pm = (unsigned)gen_rng_range(r, 300, 900);
	src->data_sharing = gen_rng_chance(r, GEN_PPM / 2);
	/* The CV comes up a little after the run's start, so that its first
	 * interval is short, as after a real start-up. */
	src->next_start = start + (max_delay_e4 > 0 ?
	                  (int64_t)gen_rng_range(r, 1, (uint64_t)max_delay_e4) : 0);
	src->intervals = 0;
}

static int64_t
floor_div(int64_t a, int64_t b)
{
	return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

int64_t
gen_model_next_end(const struct gen_model *m, unsigned s)
{
	/* Intervals end at multiples of the interval length counted from the
	 * midnight before they start. */
	int64_t start = m->sources[s].next_start;
	int64_t midnight = floor_div(start, PM_UNITS_PER_DAY) * PM_UNITS_PER_DAY;
	return midnight + ((start - midnight) / m->interval_e4 + 1) * m->interval_e4;
}

/* v scaled by a random factor in [lo_pm, hi_pm] permille. */
static uint64_t
jiggle(struct gen_rng *r, uint64_t v, unsigned lo_pm, unsigned hi_pm)
{
	return v * gen_rng_range(r, lo_pm, hi_pm) / 1000;
}

static uint64_t
clamp_f(uint64_t v)
{
	return v > GEN_F_MAX ? GEN_F_MAX : v;
}

/* CPU load of the interval, permille of one engine: 2% to 80%. */
static unsigned
busy_pm(struct gen_source *src, int64_t start, int64_t end)
{
	int64_t mid = start + (end - start) / 2;
	int64_t day = floor_div(mid, PM_UNITS_PER_DAY);
	unsigned hour = (unsigned)((mid - day * PM_UNITS_PER_DAY) / UNITS_PER_HOUR);
	unsigned weekday = (unsigned)((day % 7 + 11) % 7); /* 0 = Sunday */
	uint64_t load = hour_load_pm[hour] * (uint64_t)src->size_pm / 1000;

	if (weekday == 0 || weekday == 6)
		load = load * 2 / 5;
	load = jiggle(&src->rng, load, 800, 1200);
	return load < 20 ? 20 : load > 800 ? 800 : (unsigned)load;
}

static void
cpu_figures(const struct gen_model *m, struct gen_source *src,
            struct gen_interval *iv, uint64_t cpu_e4)
{
	struct gen_rng *r = &src->rng;
	uint64_t user_e4 = cpu_e4 * src->user_pm / 1000;
	uint64_t *v = iv->v;

	v[m->f_timus] = clamp_f(user_e4);
	v[m->f_timsy] = clamp_f(cpu_e4 - user_e4);
	/* The TOD clock is finer than 10**-4 s: add what the coarse figures
	 * lost, never more for user mode than for all of it. */
	uint64_t fine = gen_rng_below(r, TOD_PER_E4);
	uint64_t syti = cpu_e4 * TOD_PER_E4 + fine;
	uint64_t enclave = jiggle(r, syti * src->enclave_pm / 1000, 900, 1100);
	if (enclave > syti)
		enclave = syti;
	uint64_t ziip = enclave * src->ziip_pm / 1000;
	v[m->f_syti] = syti;
	v[m->f_usti] = user_e4 * TOD_PER_E4 + gen_rng_below(r, fine + 1);
	v[m->f_enti] = enclave;
	v[m->f_zpti] = ziip;
	v[m->f_cpti] = enclave - ziip;
	v[m->f_ttti] = syti - (enclave - ziip);
}

static void
bucket_figures(const struct gen_model *m, struct gen_source *src,
               struct gen_interval *iv, uint64_t tasks, unsigned busy)
{
	struct gen_rng *r = &src->rng;
	const struct layout *lay = &m->pm->lay;

	for (size_t b = 0; b < lay->nbuckets; b++) {
		const struct gen_bucket_profile *p = m->profile[b];
		uint64_t count = jiggle(r, tasks * p->per_ktask / 1000, 700, 1300);
		uint64_t mean = jiggle(r, p->mean_e4, 500, 2000) * (1000 + busy) / 1000;
		uint64_t sum, high;

		if ((p->sharing && !src->data_sharing) || gen_rng_below(r, 1000) < p->idle_pm)
			count = 0;
		count = clamp_f(count);
		sum = clamp_f(count * mean);
		if (count <= 1) {
			high = sum;
		} else {
			uint64_t avg = (sum + count - 1) / count;
			high = avg * gen_rng_range(r, 2, 40);
			if (high > sum)
				high = sum;
		}
		iv->v[lay->buckets[b].sum] = sum;
		iv->v[lay->buckets[b].high] = high;
		iv->v[lay->buckets[b].count] = count;
	}
}

/* One bucket pushed to the edge of a fullword, in one of three shapes:
 * a huge sum over few waits, a huge number of tiny waits, one huge wait. */
static void
extreme_bucket(const struct gen_model *m, struct gen_source *src,
               struct gen_interval *iv)
{
	struct gen_rng *r = &src->rng;
	const struct cb_bucket *b;
	uint64_t sum, high, count;

	if (m->pm->lay.nbuckets == 0)
		return;
	b = &m->pm->lay.buckets[gen_rng_below(r, m->pm->lay.nbuckets)];
	switch (gen_rng_below(r, 3)) {
	case 0:
		sum = GEN_F_MAX - gen_rng_below(r, 100);
		count = gen_rng_range(r, 1, 1000);
		high = gen_rng_range(r, (sum + count - 1) / count, sum);
		break;
	case 1:
		count = GEN_F_MAX - gen_rng_below(r, 10);
		sum = GEN_F_MAX;
		high = gen_rng_range(r, (sum + count - 1) / count, 50);
		break;
	default:
		count = 1;
		sum = high = GEN_F_MAX;
		break;
	}
	iv->v[b->sum] = sum;
	iv->v[b->high] = high;
	iv->v[b->count] = count;
}

/* The most a TOD figure of one interval takes in full range: 2**44 units,
 * about 4,300 s of CPU (an hour on 72 engines): sums over a year of
 * intervals still fit 64 bits. */
#define GEN_TOD_FULL (UINT64_C(1) << 44)

/* Every figure of the parts over its whole range, as a stress of the
 * formatting and arithmetic (not a plausible workload): fullwords up to
 * 2**31-1, TOD figures up to GEN_TOD_FULL; each bucket's highest wait
 * between its average and its sum, so that nothing is implausible. */
static void
full_range_figures(const struct gen_model *m, struct gen_source *src,
                   struct gen_interval *iv)
{
	const struct layout *lay = &m->pm->lay;
	struct gen_rng *r = &src->rng;

	for (size_t i = 0; i < lay->nfields; i++) {
		const struct cb_field *f = &lay->fields[i];
		if (f->part == 0 || f->units == CB_UNITS_NONE || f->units == CB_UNITS_PDATE ||
		    f->units == CB_UNITS_TEXT)
			continue;
		iv->v[i] = f->units == CB_UNITS_TOD ? gen_rng_below(r, GEN_TOD_FULL)
		           : gen_rng_below(r, (uint64_t)GEN_F_MAX + 1);
	}
	for (size_t b = 0; b < lay->nbuckets; b++) {
		uint64_t sum = gen_rng_range(r, 1, GEN_F_MAX);
		uint64_t count = gen_rng_range(r, 1, sum);
		iv->v[lay->buckets[b].sum] = sum;
		iv->v[lay->buckets[b].count] = count;
		iv->v[lay->buckets[b].high] = gen_rng_range(r, (sum + count - 1) / count, sum);
	}
}

void
gen_model_free(struct gen_model *m)
{
	free(m->profile);
	m->profile = NULL;
}

void
gen_model_next(struct gen_model *m, unsigned s, struct gen_interval *iv)
{
	struct gen_source *src = &m->sources[s];
	struct gen_rng *r = &src->rng;
	uint64_t cpu_e4, tasks, drift;
	unsigned busy;

	memset(iv->v, 0, m->pm->lay.nfields * sizeof *iv->v);
	iv->source = s;
	iv->start = src->next_start;
	iv->end = gen_model_next_end(m, s);
	busy = busy_pm(src, iv->start, iv->end);
	cpu_e4 = (uint64_t)(iv->end - iv->start) * busy / 1000;
	tasks = jiggle(r, cpu_e4 / src->cpu_per_task_e4, 850, 1150);
	/* Tasks that span the interval's edges: a few more or fewer end. */
	drift = tasks / 100 + 1;
	iv->v[m->f_tstr] = clamp_f(tasks);
	iv->v[m->f_tend] = clamp_f(tasks - gen_rng_below(r, drift < tasks ? drift : tasks) +
	                           gen_rng_below(r, drift));
	cpu_figures(m, src, iv, cpu_e4);
	bucket_figures(m, src, iv, tasks, busy);
	if (gen_rng_chance(r, m->extreme_ppm))
		extreme_bucket(m, src, iv);
	if (m->full_range)
		full_range_figures(m, src, iv);
	src->next_start = iv->end;
	src->intervals++;
}
