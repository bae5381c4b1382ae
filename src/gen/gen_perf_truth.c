/* gen_perf_truth.c: the truth of pmimgen --framing=perf: each counter's
 * cooked value, computed from the figures the generator wrote with the
 * formulas of COUNTERS.md §2.2 and the seed page (../shared/seeds/000),
 * written out plainly here and independently of src/engine: the truth is
 * what the reporter's engine is tested against.
 *
 * Every value is an exact fraction num/den of integers, written with
 * TRUTH_DECIMALS places rounded half up (fmt_ratio). Percent types are x100,
 * uncapped; DefaultScale is not applied. 4-byte counters are differenced
 * modulo 2^32 (a wrap); a window whose block PerfTime goes back (a reboot),
 * a 64-bit count or base that goes back, a zero denominator or a negative
 * inverse has no value: an empty field. Tick-based MULTI timers follow the
 * seed page, (N1-N0)/(D1-D0) without the time base, like the 100 ns ones. */
#include <stdlib.h>

#include "core/fmtnum.h"
#include "core/gcd.h"
#include "gen/gen_perf.h"
#include "pmim/pmtime.h"

#define TRUTH_DECIMALS 6

typedef unsigned __int128 u128;

enum calc {
	K_NONE,          /* no value: bases, TEXT, NODATA, HISTOGRAM */
	K_RAW,           /* N */
	K_RAW_FRACTION,  /* P*N/B */
	K_ELAPSED,       /* (D_obj - N)/F_obj */
	K_DELTA,         /* N1-N0 */
	K_RATE,          /* (N1-N0)/((D1-D0)/F) */
	K_RATIO,         /* P*(N1-N0)/(D1-D0); inverse P*(1 - that) */
	K_MULTI,         /* P*((N1-N0)/(D1-D0))/B1; inverse P*(B1 - that) */
	K_FRACTION,      /* P*(N1-N0)/(B1-B0) */
	K_AVG_TIMER      /* ((N1-N0)/F)/(B1-B0) */
};

static const struct {
	uint32_t value;
	const char *name;
	enum calc calc;
	unsigned percent;    /* P: 100 or 1 */
	bool inverse;
} types[] = {
	{ 0x10410400u, "PERF_COUNTER_COUNTER", K_RATE, 1, false },
	{ 0x20410500u, "PERF_COUNTER_TIMER", K_RATIO, 100, false },
	{ 0x00450400u, "PERF_COUNTER_QUEUELEN_TYPE", K_RATIO, 1, false },
	{ 0x00450500u, "PERF_COUNTER_LARGE_QUEUELEN_TYPE", K_RATIO, 1, false },
	{ 0x00550500u, "PERF_COUNTER_100NS_QUEUELEN_TYPE", K_RATIO, 1, false },
	{ 0x00650500u, "PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE", K_RATIO, 1, false },
	{ 0x10410500u, "PERF_COUNTER_BULK_COUNT", K_RATE, 1, false },
	{ 0x00000B00u, "PERF_COUNTER_TEXT", K_NONE, 1, false },
	{ 0x00010000u, "PERF_COUNTER_RAWCOUNT", K_RAW, 1, false },
	{ 0x00010100u, "PERF_COUNTER_LARGE_RAWCOUNT", K_RAW, 1, false },
	{ 0x00000000u, "PERF_COUNTER_RAWCOUNT_HEX", K_RAW, 1, false },
	{ 0x00000100u, "PERF_COUNTER_LARGE_RAWCOUNT_HEX", K_RAW, 1, false },
	{ 0x20C20400u, "PERF_SAMPLE_FRACTION", K_FRACTION, 100, false },
	{ 0x00410400u, "PERF_SAMPLE_COUNTER", K_RATE, 1, false },
	{ 0x40000200u, "PERF_COUNTER_NODATA", K_NONE, 1, false },
	{ 0x21410500u, "PERF_COUNTER_TIMER_INV", K_RATIO, 100, true },
	{ 0x40030401u, "PERF_SAMPLE_BASE", K_NONE, 1, false },
	{ 0x30020400u, "PERF_AVERAGE_TIMER", K_AVG_TIMER, 1, false },
	{ 0x40030402u, "PERF_AVERAGE_BASE", K_NONE, 1, false },
	{ 0x40020500u, "PERF_AVERAGE_BULK", K_FRACTION, 1, false },
	{ 0x20610500u, "PERF_OBJ_TIME_TIMER", K_RATIO, 100, false },
	{ 0x20510500u, "PERF_100NSEC_TIMER", K_RATIO, 100, false },
	{ 0x21510500u, "PERF_100NSEC_TIMER_INV", K_RATIO, 100, true },
	{ 0x22410500u, "PERF_COUNTER_MULTI_TIMER", K_MULTI, 100, false },
	{ 0x23410500u, "PERF_COUNTER_MULTI_TIMER_INV", K_MULTI, 100, true },
	{ 0x42030500u, "PERF_COUNTER_MULTI_BASE", K_NONE, 1, false },
	{ 0x22510500u, "PERF_100NSEC_MULTI_TIMER", K_MULTI, 100, false },
	{ 0x23510500u, "PERF_100NSEC_MULTI_TIMER_INV", K_MULTI, 100, true },
	{ 0x20020400u, "PERF_RAW_FRACTION", K_RAW_FRACTION, 100, false },
	{ 0x20020500u, "PERF_LARGE_RAW_FRACTION", K_RAW_FRACTION, 100, false },
	{ 0x40030403u, "PERF_RAW_BASE", K_NONE, 1, false },
	/* also PERF_PRECISION_TIMESTAMP, which has the same value */
	{ 0x40030500u, "PERF_LARGE_RAW_BASE", K_NONE, 1, false },
	{ 0x30240500u, "PERF_ELAPSED_TIME", K_ELAPSED, 1, false },
	{ 0x80000000u, "PERF_COUNTER_HISTOGRAM_TYPE", K_NONE, 1, false },
	{ 0x00400400u, "PERF_COUNTER_DELTA", K_DELTA, 1, false },
	{ 0x00400500u, "PERF_COUNTER_LARGE_DELTA", K_DELTA, 1, false },
	/* D is the PRECISION_TIMESTAMP counter that follows */
	{ 0x20470500u, "PERF_PRECISION_SYSTEM_TIMER", K_RATIO, 100, false },
	{ 0x20570500u, "PERF_PRECISION_100NS_TIMER", K_RATIO, 100, false },
	{ 0x20670500u, "PERF_PRECISION_OBJECT_TIMER", K_RATIO, 100, false },
};

#define NTYPES (sizeof types / sizeof types[0])

static int
type_index(uint32_t type)
{
	for (size_t i = 0; i < NTYPES; i++)
		if (types[i].value == type)
			return (int)i;
	return -1;
}

/* One counter of one instance block in a window: the figures the
 * formulas take. */
struct figures {
	uint64_t n0, n1, b0, b1;   /* the counter and the one after it */
	uint64_t d0, d1;           /* its time: the clock of its time base */
	uint64_t f;                /* the block's PerfFreq */
	uint64_t obj_time, obj_freq;
	unsigned size, base_size;
};

/* later - earlier: modulo 2^32 for 4-byte data; false when a 64-bit
 * figure went back. */
static bool
delta(uint64_t earlier, uint64_t later, unsigned size, uint64_t *d)
{
	if (size == 4) {
		*d = (later - earlier) & UINT32_MAX;
		return true;
	}
	if (later < earlier)
		return false;
	*d = later - earlier;
	return true;
}

/* The one-sample values. */
static bool
one_sample(enum calc calc, unsigned p, const struct figures *x, u128 *num, u128 *den)
{
	switch (calc) {
	case K_RAW:
		*num = x->n1, *den = 1;
		return true;
	case K_RAW_FRACTION:
		*num = (u128)p * x->n1, *den = x->b1;
		return true;
	case K_ELAPSED:   /* not started, or started after the sample: none */
		if (x->n1 == 0 || x->n1 > x->obj_time)
			return false;
		*num = x->obj_time - x->n1, *den = x->obj_freq;
		return true;
	default:
		return false;
	}
}

/* The two-sample values. */
static bool
two_samples(int t, const struct figures *x, u128 *num, u128 *den)
{
	uint64_t dn, dd = 0, db = 0;
	unsigned p = types[t].percent;
	enum calc calc = types[t].calc;

	if (!delta(x->n0, x->n1, x->size, &dn) || !delta(x->d0, x->d1, 8, &dd))
		return false;
	if ((calc == K_FRACTION || calc == K_AVG_TIMER) &&
	    !delta(x->b0, x->b1, x->base_size, &db))
		return false;
	switch (calc) {
	case K_DELTA:     *num = dn, *den = 1; return true;
	case K_RATE:      *num = (u128)dn * x->f, *den = dd; return true;
	case K_FRACTION:  *num = (u128)p * dn, *den = db; return true;
	case K_AVG_TIMER: *num = dn, *den = (u128)x->f * db; return true;
	case K_RATIO:
		if (types[t].inverse && dn > dd)
			return false;
		*num = (u128)p * (types[t].inverse ? dd - dn : dn), *den = dd;
		return true;
	case K_MULTI:
		if (types[t].inverse && dn > (u128)x->b1 * dd)
			return false;
		*num = types[t].inverse ? p * ((u128)x->b1 * dd - dn) : (u128)p * dn;
		*den = types[t].inverse ? (u128)dd : (u128)dd * x->b1;
		return true;
	default:
		return false;
	}
}

/* The value into out (its length; 0 for none). */
static size_t
format_value(char *out, bool ok, u128 num, u128 den)
{
	u128 g;

	if (!ok || den == 0)
		return 0;
	g = gcd(num, den);
	num /= g, den /= g;
	/* the catalogue's ranges keep every figure below 2^64 */
	if (num > UINT64_MAX || den > UINT64_MAX)
		abort();
	return fmt_ratio(out, (uint64_t)num, (uint64_t)den, TRUTH_DECIMALS);
}

static void
format_time(char *out, int64_t ms)
{
	char sec[20];

	pmtime_format(ms / 1000 * PM_UNITS_PER_SECOND, sec);
	sprintf(out, "%s.%03u", sec, (unsigned)(ms % 1000));
}

/* The clock a counter's D counts in, at snapshot sn: for PRECISION timers
 * the timestamp counter after it, else its time base. */
static uint64_t
time_of(uint32_t type, unsigned o, const struct perf_snapshot *sn, const uint64_t *v,
        unsigned c)
{
	unsigned base = (type >> 20) & 3;

	if ((type & 0xF0000u) == 0x70000u) /* PERF_COUNTER_PRECISION */
		return v[c + 1];
	return base == 0 ? sn->clk.perf_time : base == 1 ? sn->clk.time_100ns
	       : sn->obj_time[o];
}

static struct figures
figures_of(unsigned o, unsigned slot, unsigned c, const struct perf_snapshot *prev,
           const struct perf_snapshot *cur)
{
	const struct perf_object_spec *ob = &perf_objects[o];
	const struct perf_counter_spec *k = &ob->counters[c];
	const uint64_t *v1 = cur->values + slot, *v0 = prev ? prev->values + slot : v1;
	bool based = c + 1 < ob->ncounters;
	struct figures x = {
		.n0 = v0[c], .n1 = v1[c], .b0 = based ? v0[c + 1] : 0,
		.b1 = based ? v1[c + 1] : 0, .f = cur->clk.perf_freq,
		.d1 = time_of(k->type, o, cur, v1, c),
		.d0 = time_of(k->type, o, prev ? prev : cur, v0, c),
		.obj_time = cur->obj_time[o], .obj_freq = cur->obj_freq[o],
		.size = k->size, .base_size = based ? ob->counters[c + 1].size : 0,
	};
	return x;
}

void
perf_truth_header(FILE *fp)
{
	fputs("source,period_start,period_end,object,instance,counter,type,samples,value\n", fp);
}

/* The rows of one instance block. */
static uint64_t
block_rows(FILE *fp, const char *source, unsigned o, unsigned i,
           const struct perf_snapshot *prev, const struct perf_snapshot *cur,
           bool reboot)
{
	const struct perf_object_spec *ob = &perf_objects[o];
	const char *instance = ob->ninstances == PERF_NO_INSTANCES ? "" : ob->instances[i].shown;
	char t0[32], t1[32], value[FMTNUM_MAX];
	uint64_t rows = 0;

	format_time(t0, prev ? prev->clk.ms : 0);
	format_time(t1, cur->clk.ms);
	for (unsigned c = 0; c < ob->ncounters; c++) {
		int t = type_index(ob->counters[c].type);
		struct figures x = figures_of(o, perf_slot(o, i), c, prev, cur);
		bool two = t >= 0 && types[t].calc >= K_DELTA, ok;
		u128 num = 0, den = 1;
		size_t len;

		if (t < 0 || types[t].calc == K_NONE || (two && !prev))
			continue;
		ok = two ? !reboot && two_samples(t, &x, &num, &den)
		         : one_sample(types[t].calc, types[t].percent, &x, &num, &den);
		len = format_value(value, ok, num, den);
		fprintf(fp, "%s,%s,%s,%u,%s,%u,%s,%u,%.*s\n", source, two ? t0 : t1, t1,
		        (unsigned)ob->title, instance, (unsigned)ob->counters[c].title,
		        types[t].name, len ? 1u : 0u, (int)len, value);
		rows++;
	}
	return rows;
}

uint64_t
perf_truth_rows(FILE *fp, const char *source, const struct perf_snapshot *prev,
                const struct perf_snapshot *cur)
{
	bool reboot = prev && cur->clk.perf_time < prev->clk.perf_time;
	uint64_t rows = 0;

	for (unsigned o = 0; o < perf_nobjects; o++)
		for (unsigned i = 0; i < perf_blocks(&perf_objects[o]); i++)
			rows += block_rows(fp, source, o, i, prev, cur, reboot);
	return rows;
}
