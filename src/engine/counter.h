/* counter.h: the counter engine. It cooks generic samples (N, D, B, TB and a
 * counter type) into values with the winperf formulas of the "Calculations
 * for Raw Counter Data" page (see COUNTERS.md §2). It knows nothing of PMIM:
 * a Windows PERF_DATA_BLOCK feed can use it unchanged.
 *
 * Symbols, as on that page:
 *   N   the counter's data
 *   D   the denominator: a time in the clock of the type's time base (for
 *       PRECISION timers, the PRECISION_TIMESTAMP counter that follows them)
 *   B   the base: the base counter's value (fractions, averages), or the
 *       number of instances (MULTI timers)
 *   TB  ticks per second of D's clock (rates, AVERAGE_TIMER, ELAPSED_TIME)
 * All are unsigned 64-bit integers; 4-byte data is zero-extended. Arithmetic
 * stays in uint64 and converts to double only for the final division.
 *
 * Edge cases: each gives a status, never a silent 0.
 *   PM_E_NOT_DISPLAYED  the type has no displayable value: base types
 *       (*_BASE, PRECISION_TIMESTAMP), NODATA, TEXT, HISTOGRAM.
 *   PM_E_NO_VALUE  the sample or window has no value; the caller prints an
 *       empty field and counts a warning. This happens when:
 *     - a two-sample type has no previous sample;
 *     - a delta is negative (the counter went back: a reset, or bad data);
 *       except that a 4-byte counter that wraps past 2^32 gives the modular
 *       delta while it is below 2^31, as netdata does; a larger modular
 *       delta cannot be told from a reset and has no value;
 *     - a denominator is zero: D delta (timers, rates, queue lengths), B
 *       delta (SAMPLE_FRACTION, AVERAGE_*), B (RAW_FRACTION, MULTI), TB
 *       (rates, AVERAGE_TIMER, ELAPSED_TIME);
 *     - an inverse timer would go negative (N delta above D delta, or above
 *       B times D delta for MULTI), as PDH's CALC_NEGATIVE_VALUE;
 *     - ELAPSED_TIME has N = 0 (never started) or N > D (starts after the
 *       sample);
 *     - an accumulator holds no window with a value, a sum passed 2^64, or
 *       its windows disagree on TB where the formula uses TB.
 * Percent types multiply by 100 and are not capped at 100 (PDH NOCAP100):
 * MULTI timers and clock skew legitimately exceed it. DefaultScale is not
 * applied (PDH NOSCALE). */
#ifndef COUNTER_H
#define COUNTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

/* How a type's value is computed. d is a delta between the older and the
 * newer sample; P is 100 for percent types, else 1. */
enum counter_formula {
	CF_NONE,         /* no value: bases, NODATA, TEXT, HISTOGRAM */
	CF_RAW,          /* N1; average SUM(N)/x */
	CF_DELTA,        /* dN; average (Nx-N0)/x, x = intervals */
	CF_RATE,         /* dN / (dD/TB): per second */
	CF_RATIO,        /* P*dN/dD; inverse P*(1 - dN/dD): timers, queue lengths */
	CF_MULTI,        /* P*(dN/dD)/B1; inverse P*(B1 - dN/dD) */
	CF_FRACTION,     /* P*dN/dB: SAMPLE_FRACTION, AVERAGE_BULK */
	CF_AVG_TIMER,    /* (dN/TB)/dB: seconds per operation */
	CF_RAW_FRACTION, /* P*N1/B1; average P*SUM(N/B)/x */
	CF_ELAPSED,      /* (D - N)/TB: seconds since the start time N */
	CF_MAX           /* extension: N1; average MAX(N) */
};

/* The clock D counts in (COUNTERS.md §2.1). */
enum counter_timebase {
	CTB_NONE,        /* D is not a time */
	CTB_SYSTEM,      /* PERF_DATA_BLOCK PerfTime, TB = its PerfFreq */
	CTB_100NS,       /* PerfTime100nSec, TB = 10^7 */
	CTB_OBJECT       /* PERF_OBJECT_TYPE PerfTime, TB = its PerfFreq */
};

enum {
	CTF_TWO = 1 << 0,
	CTF_PCT = 1 << 1,
	CTF_INV = 1 << 2,
	CTF_MULTI = 1 << 3,
	CTF_BASE = 1 << 4,
	CTF_HIDDEN = 1 << 5,
	CTF_ALIAS = 1 << 6,
	CTF_EXT = 1 << 7
};

enum counter_type {
	CT_UNKNOWN = -1,
#define CT(id, value, size, formula, timebase, flags) CT_##id,
#include "engine/counter_types.h"
#undef CT
	CT_COUNT
};

/* One entry of counter_types.h. */
struct counter_type_info {
	const char *name;             /* "PERF_COUNTER_TIMER", or "MAX" */
	uint32_t value;               /* winperf value */
	unsigned size;                /* 4, 8; 0: not a fixed-width number */
	enum counter_formula formula;
	enum counter_timebase timebase;
	bool two_samples;             /* needs a previous sample */
	bool percent;                 /* multiplied by 100 */
	bool inverse;
	bool multi;
	bool base;                    /* a base counter of another type */
	bool displayed;               /* false: asking a value is an error */
	bool alias;                   /* shares its value with a canonical entry */
	bool extension;               /* pmimrpt's own, not a winperf type */
};

/* The entry of a type; NULL when t is out of range. */
const struct counter_type_info *counter_type_info(enum counter_type t);
/* The type named exactly name (every name, aliases included); CT_UNKNOWN
 * when there is none. */
enum counter_type counter_type_by_name(const char *name);
/* The canonical type of a value: never an alias. CT_UNKNOWN when no type has
 * that value. */
enum counter_type counter_type_by_value(uint32_t value);

/* A raw sample of one counter. */
struct counter_sample {
	uint64_t n;     /* N */
	uint64_t d;     /* D; for MULTI types also the sample's time order */
	uint64_t b;     /* B */
	uint64_t tb;    /* TB */
};

/* The calculation: the value of type t from the previous sample prev (NULL
 * for none) and the current one cur. One-sample types ignore prev. Returns
 * PM_OK with *out set, or PM_E_NO_VALUE / PM_E_NOT_DISPLAYED (see the top of
 * this file) leaving *out untouched. */
pm_status counter_calc(enum counter_type t, const struct counter_sample *prev,
		       const struct counter_sample *cur, double *out);

/* The average function over the series s[0..count-1], oldest first: for
 * two-sample types the newest against the oldest ((Nx-N0)/(Dx-D0) and its
 * kin), with B from the newest sample for MULTI; SUM(N)/count for RAW,
 * SUM(N/B)/count for RAW_FRACTION; (Nx-N0)/(count-1) for DELTA, so that a
 * two-sample series gives the calculation; (Dx-N0)/TB for ELAPSED_TIME
 * (the latest D less the earliest N, so the order of samples is free);
 * MAX(N) for MAX. Deltas are summed interval by interval, so a 4-byte wrap
 * inside the series is handled as in counter_calc. PM_E_NO_VALUE when the
 * series is too short or any interval or sample has no value. */
pm_status counter_average(enum counter_type t, const struct counter_sample *s,
			  size_t count, double *out);

/* One window of a group, as deltas: for records that already hold "waits
 * this interval" and "time this interval". For two-sample types n, d and db
 * are the deltas over the window; for one-sample types n and d are the
 * values at its end (ELAPSED_TIME: start time and sample time). */
struct counter_window {
	uint64_t n;     /* dN, or N */
	uint64_t d;     /* dD, or D */
	uint64_t db;    /* dB (SAMPLE_FRACTION, AVERAGE_*) */
	uint64_t b;     /* B at the window's end (MULTI, RAW_FRACTION) */
	uint64_t tb;    /* TB */
	uint64_t when;  /* larger is newer: picks the newest B for MULTI */
};

/* The aggregate of one group: only integer sums, counts and maxima, so two
 * accumulators of the same group merge exactly in any order. Each window
 * either has a value (counter_calc would give one) and enters the sums, or
 * is counted in no_value. A formula keeps at most four figures, so the
 * formulas share their places (a report holds hundreds of accumulators,
 * and each interval visits every one): only the names of the type's
 * formula are meaningful. */
struct counter_acc {
	enum counter_type type;
	bool overflow;          /* a sum passed 2^64 */
	uint64_t windows;       /* x: windows added, with or without a value */
	uint64_t no_value;      /* windows that had no value */
	union {
		uint64_t sum_n;         /* SUM(dN) or SUM(N) */
		uint64_t max_n;         /* MAX: MAX(N) */
		uint64_t min_n;         /* ELAPSED_TIME: the earliest start */
		/* RAW_FRACTION: SUM(N/B) in fixed point, whole units plus
		 * (ratio_frac) a fraction in units of 2^-52. Integers, not a
		 * double, so that merging stays exact; each term is truncated
		 * by under 2^-52. */
		uint64_t ratio_whole;
	};
	union {
		uint64_t sum_d;         /* SUM(dD) */
		uint64_t sum_db;        /* SUM(dB): fractions and averages */
		uint64_t max_d;         /* ELAPSED_TIME: the latest sample */
		uint64_t ratio_frac;
	};
	union {
		uint64_t tb_min;        /* TB over the windows: they must agree */
		uint64_t b;             /* MULTI: B of the newest window */
	};
	union {
		uint64_t tb_max;
		uint64_t b_when;        /* MULTI: its time (then the greater B) */
	};
};

void counter_acc_init(struct counter_acc *acc, enum counter_type t);
/* Add one window. PM_OK, or PM_E_NO_VALUE when the window has no value
 * (counted in windows and no_value), or PM_E_NOT_DISPLAYED (acc untouched). */
pm_status counter_acc_add(struct counter_acc *acc, const struct counter_window *w);
/* The window between two raw samples of type t, with the deltas and wrap
 * rules of counter_calc: for two-sample types the deltas (dN, dD where the
 * formula has a time, dB where it has a base) and B of cur; for one-sample
 * types cur's values. when is cur's D. PM_E_NO_VALUE when a two-sample
 * type has no prev or a delta is negative (a reset); PM_E_NOT_DISPLAYED
 * for types without a value. */
pm_status counter_window_of(enum counter_type t, const struct counter_sample *prev,
			    const struct counter_sample *cur, struct counter_window *w);

/* a 4-byte counter's modular delta from here on is a reset, not a wrap */
#define COUNTER_WRAP_LIMIT (UINT64_C(1) << 31)

/* v1 - v0. A decrease has no value, unless narrow (a 4-byte counter) and
 * both values fit 32 bits: then the counter wrapped, and the modular delta
 * stands while it is below 2^31. */
static inline pm_status
counter_delta(uint64_t v0, uint64_t v1, bool narrow, uint64_t *out)
{
	uint64_t m;

	if (v1 >= v0) {
		*out = v1 - v0;
		return PM_OK;
	}
	if (!narrow || v0 > UINT32_MAX || v1 > UINT32_MAX)
		return PM_E_NO_VALUE;
	m = (uint32_t)(v1 - v0);
	if (m >= COUNTER_WRAP_LIMIT)
		return PM_E_NO_VALUE;
	*out = m;
	return PM_OK;
}

/* counter_window_of of a displayed type's entry ti, inline: a reader
 * that knows each series' entry makes a window of every value. */
static inline pm_status
counter_window_by(const struct counter_type_info *ti, const struct counter_sample *prev,
                  const struct counter_sample *cur, struct counter_window *w)
{
	bool narrow = ti->size == 4;

	*w = (struct counter_window){
		.n = cur->n, .d = cur->d, .b = cur->b, .tb = cur->tb,
		.when = cur->d,
	};
	if (ti->two_samples) {
		bool timed = ti->formula == CF_RATE || ti->formula == CF_RATIO
			|| ti->formula == CF_MULTI;
		bool base = ti->formula == CF_FRACTION
			|| ti->formula == CF_AVG_TIMER;

		w->d = 0;	/* stays 0 where the formula has no time */
		if (!prev
		    || counter_delta(prev->n, cur->n, narrow, &w->n) != PM_OK
		    || (timed && counter_delta(prev->d, cur->d, false, &w->d) != PM_OK)
		    || (base && counter_delta(prev->b, cur->b, narrow, &w->db) != PM_OK))
			return PM_E_NO_VALUE;
	}
	return PM_OK;
}

/* Add the window between two raw samples, with the deltas and wrap rules of
 * counter_calc; MULTI orders windows by cur->d. A missing prev for a
 * two-sample type, or a negative delta, is a window with no value. */
pm_status counter_acc_add_samples(struct counter_acc *acc,
				  const struct counter_sample *prev,
				  const struct counter_sample *cur);
/* Count a window the caller found without a value (a missing field, a
 * negative delta it computed itself). */
void counter_acc_add_none(struct counter_acc *acc);
/* Merge src into dst; the result is the same in any order, and the same as
 * adding all windows to one accumulator. PM_E_USAGE (dst untouched) when
 * the types differ. */
pm_status counter_acc_merge(struct counter_acc *dst, const struct counter_acc *src);
/* The type's average function over the windows with a value, e.g. rate =
 * SUM(dN)/(SUM(dD)/TB), busy% = 100*SUM(dN)/SUM(dD), average wait =
 * (SUM(dN)/TB)/SUM(dB); MULTI uses the newest B. PM_E_NO_VALUE or
 * PM_E_NOT_DISPLAYED as at the top of this file. */
pm_status counter_acc_value(const struct counter_acc *acc, double *out);

/* An accumulator as words, for a partial file: its type (canonical
 * counter_types.h order; all ones for CT_UNKNOWN, an accumulator a text
 * column keeps unused), the overflow flag, windows, no_value and its four
 * figures. unpack refuses (PM_E_USAGE) words that no accumulator has: a
 * type out of range, an overflow flag other than 0 or 1, more windows
 * without a value than windows. */
#define COUNTER_ACC_WORDS 8
void counter_acc_pack(const struct counter_acc *acc, uint64_t w[COUNTER_ACC_WORDS]);
pm_status counter_acc_unpack(struct counter_acc *acc, const uint64_t w[COUNTER_ACC_WORDS]);

/* What a report reads of an accumulator, so that only counter.c knows its
 * places. Windows added, and those without a value. */
uint64_t counter_acc_windows(const struct counter_acc *acc);
uint64_t counter_acc_no_value(const struct counter_acc *acc);
/* SUM(dN), exact, of the windows with a value (DELTA and RAW types: the
 * value of an aggregate=total column); PM_E_NO_VALUE when no window has
 * one or the sum passed 2^64. */
pm_status counter_acc_sum(const struct counter_acc *acc, uint64_t *sum);
/* ELAPSED_TIME: the earliest N (a start) and the latest D (a sample time)
 * of the windows with a value; PM_E_NO_VALUE when none has one. */
pm_status counter_acc_span(const struct counter_acc *acc, uint64_t *earliest,
			   uint64_t *latest);

/* Feeding many accumulators from one vector of figures: the batched form
 * of counter_acc_add, for a caller that adds one window to each of many
 * accumulators at a time (a report adds every interval to hundreds). A
 * feed names its accumulator and where its window's figures are in the
 * vector x: N (dN), D (dD) and B, which is also dB; TB is the feed's own.
 * The window has no value, and is counted as such, unless the flags the
 * caller gives it (have) include every flag of the feed's need. */
struct counter_feed {
	uint64_t tb;        /* TB */
	uint32_t acc;       /* its accumulator: an index into accs */
	uint16_t n, d, b;   /* where N, D and B are in x */
	uint8_t need;       /* flags the window must have */
	int16_t type;       /* the type its accumulator holds */
	uint16_t run;       /* the engine's: feeds from this one on of its
	                       type's formula */
};

/* A feed of the accumulator acc, which holds type t, with TB tb; the
 * caller then sets n, d, b and need. */
void counter_feed_init(struct counter_feed *f, enum counter_type t,
		       uint32_t acc, uint64_t tb);
/* Order feeds so that counter_feed_add finds long runs of one formula,
 * which it adds fastest; the sums are the same in any order. Unsorted
 * feeds are added one by one. */
void counter_feed_sort(struct counter_feed *feeds, size_t count);
/* One window as the feeds see it: its figures, its flags, and its time
 * order (larger is newer; it picks the newest B for MULTI types). */
struct counter_figures {
	const uint64_t *x;
	unsigned have;
	uint64_t when;
};

/* Add each of the nwin windows to the accumulator of each of the count
 * feeds, as counter_acc_add would. Each accumulator is read and written
 * once for all the windows: a caller that holds a few windows of the
 * same accumulators back and adds them together saves most of the work. */
void counter_feed_add(struct counter_acc *accs, const struct counter_feed *feeds,
		      size_t count, const struct counter_figures *win,
		      size_t nwin);

/* The same value as an exact fraction num/den (den > 0), for callers that
 * round it exactly: counter_acc_value is num/den as a double. */
typedef unsigned __int128 counter_u128;
pm_status counter_acc_fraction(const struct counter_acc *acc, counter_u128 *num,
			       counter_u128 *den);
/* counter_acc_fraction of a fresh accumulator of type t after adding the
 * one window w, without keeping the accumulator: for a row of one window. */
pm_status counter_window_fraction(enum counter_type t,
				  const struct counter_window *w,
				  counter_u128 *num, counter_u128 *den);
/* counter_acc_add of w, and when it has a value (PM_OK) w's own fraction
 * as counter_window_fraction of acc's type gives it: one dispatch on the
 * type for both, for a caller that wants each window's value as well as
 * the sums (a series report's least and largest). */
pm_status counter_acc_add_fraction(struct counter_acc *acc,
				   const struct counter_window *w,
				   counter_u128 *num, counter_u128 *den);

#endif
