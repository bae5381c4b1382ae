/* check_counter.c: the counter engine. Expected values are literal numbers
 * worked out by hand (the arithmetic is in the comment beside each), or the
 * (derived) vectors of COUNTERS.md §4; none comes from the engine. Type
 * values are checked against COUNTERS.md §1.2, written out here. */
#include "check_main.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/counter.h"

#define TOL(want) (fabs(want) * 1e-12 + 1e-300)

#define EXPECT_VALUE(call, got, want) do {				\
		pm_status st_ = (call);					\
		ck_assert_msg(st_ == PM_OK, "status %s",		\
			      pm_status_name(st_));			\
		ck_assert_double_eq_tol((got), (want), TOL(want));	\
	} while (0)

#define EXPECT_STATUS(call, want) do {					\
		pm_status st_ = (call);					\
		ck_assert_msg(st_ == (want), "status %s, want %s",	\
			      pm_status_name(st_), pm_status_name(want)); \
	} while (0)

#define SMP(n, d, b, tb) ((struct counter_sample){ (n), (d), (b), (tb) })

static enum counter_type
type_named(const char *name)
{
	enum counter_type t = counter_type_by_name(name);
	ck_assert_msg(t != CT_UNKNOWN, "no type %s", name);
	return t;
}

static pm_status
calc(const char *name, struct counter_sample s0, struct counter_sample s1,
     double *out)
{
	return counter_calc(type_named(name), &s0, &s1, out);
}

static pm_status
calc1(const char *name, struct counter_sample s, double *out)
{
	return counter_calc(type_named(name), NULL, &s, out);
}

static pm_status
average(const char *name, const struct counter_sample *s, size_t count,
	double *out)
{
	return counter_average(type_named(name), s, count, out);
}

/* ---------------------------------------------------------------------- */
/* The type table against COUNTERS.md §1.2 */

static const struct {
	const char *name;
	uint32_t value;
	unsigned size;
} winperf[] = {
	{ "PERF_COUNTER_COUNTER",                0x10410400, 4 },
	{ "PERF_COUNTER_TIMER",                  0x20410500, 8 },
	{ "PERF_COUNTER_QUEUELEN_TYPE",          0x00450400, 4 },
	{ "PERF_COUNTER_LARGE_QUEUELEN_TYPE",    0x00450500, 8 },
	{ "PERF_COUNTER_100NS_QUEUELEN_TYPE",    0x00550500, 8 },
	{ "PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE", 0x00650500, 8 },
	{ "PERF_COUNTER_BULK_COUNT",             0x10410500, 8 },
	{ "PERF_COUNTER_TEXT",                   0x00000B00, 0 },
	{ "PERF_COUNTER_RAWCOUNT",               0x00010000, 4 },
	{ "PERF_COUNTER_LARGE_RAWCOUNT",         0x00010100, 8 },
	{ "PERF_COUNTER_RAWCOUNT_HEX",           0x00000000, 4 },
	{ "PERF_COUNTER_LARGE_RAWCOUNT_HEX",     0x00000100, 8 },
	{ "PERF_SAMPLE_FRACTION",                0x20C20400, 4 },
	{ "PERF_SAMPLE_COUNTER",                 0x00410400, 4 },
	{ "PERF_COUNTER_NODATA",                 0x40000200, 0 },
	{ "PERF_COUNTER_TIMER_INV",              0x21410500, 8 },
	{ "PERF_SAMPLE_BASE",                    0x40030401, 4 },
	{ "PERF_AVERAGE_TIMER",                  0x30020400, 4 },
	{ "PERF_AVERAGE_BASE",                   0x40030402, 4 },
	{ "PERF_AVERAGE_BULK",                   0x40020500, 8 },
	{ "PERF_OBJ_TIME_TIMER",                 0x20610500, 8 },
	{ "PERF_100NSEC_TIMER",                  0x20510500, 8 },
	{ "PERF_100NSEC_TIMER_INV",              0x21510500, 8 },
	{ "PERF_COUNTER_MULTI_TIMER",            0x22410500, 8 },
	{ "PERF_COUNTER_MULTI_TIMER_INV",        0x23410500, 8 },
	{ "PERF_COUNTER_MULTI_BASE",             0x42030500, 8 },
	{ "PERF_100NSEC_MULTI_TIMER",            0x22510500, 8 },
	{ "PERF_100NSEC_MULTI_TIMER_INV",        0x23510500, 8 },
	{ "PERF_RAW_FRACTION",                   0x20020400, 4 },
	{ "PERF_LARGE_RAW_FRACTION",             0x20020500, 8 },
	{ "PERF_RAW_BASE",                       0x40030403, 4 },
	{ "PERF_LARGE_RAW_BASE",                 0x40030500, 8 },
	{ "PERF_ELAPSED_TIME",                   0x30240500, 8 },
	{ "PERF_COUNTER_HISTOGRAM_TYPE",         0x80000000, 0 },
	{ "PERF_COUNTER_DELTA",                  0x00400400, 4 },
	{ "PERF_COUNTER_LARGE_DELTA",            0x00400500, 8 },
	{ "PERF_PRECISION_SYSTEM_TIMER",         0x20470500, 8 },
	{ "PERF_PRECISION_100NS_TIMER",          0x20570500, 8 },
	{ "PERF_PRECISION_OBJECT_TIMER",         0x20670500, 8 },
	{ "PERF_PRECISION_TIMESTAMP",            0x40030500, 8 },
};
#define N_WINPERF (sizeof winperf / sizeof winperf[0])

/* The types with no displayable value. */
static const char *const hidden[] = {
	"PERF_SAMPLE_BASE", "PERF_AVERAGE_BASE", "PERF_RAW_BASE",
	"PERF_LARGE_RAW_BASE", "PERF_COUNTER_MULTI_BASE",
	"PERF_PRECISION_TIMESTAMP", "PERF_COUNTER_NODATA", "PERF_COUNTER_TEXT",
	"PERF_COUNTER_HISTOGRAM_TYPE",
};
#define N_HIDDEN (sizeof hidden / sizeof hidden[0])

START_TEST(lookup_by_name_every_type)
{
	/* 40 winperf names and the MAX extension: nothing else */
	ck_assert_int_eq(CT_COUNT, 41);
	ck_assert_uint_eq(N_WINPERF, 40);
	for (size_t i = 0; i < N_WINPERF; i++) {
		enum counter_type t = type_named(winperf[i].name);
		const struct counter_type_info *ti = counter_type_info(t);
		ck_assert_ptr_nonnull(ti);
		ck_assert_str_eq(ti->name, winperf[i].name);
		ck_assert_msg(ti->value == winperf[i].value, "%s: 0x%08lX",
			      winperf[i].name, (unsigned long)ti->value);
		ck_assert_uint_eq(ti->size, winperf[i].size);
		ck_assert(!ti->extension);
	}
	ck_assert_int_eq(counter_type_by_name("PERF_COUNTER_TIMER"),
			 CT_PERF_COUNTER_TIMER);
	ck_assert_int_eq(counter_type_by_name("perf_counter_timer"), CT_UNKNOWN);
	ck_assert_int_eq(counter_type_by_name("PERF_COUNTER"), CT_UNKNOWN);
	ck_assert_int_eq(counter_type_by_name(""), CT_UNKNOWN);
	ck_assert_int_eq(counter_type_by_name("PERF_DOUBLE_RAW"), CT_UNKNOWN);
	ck_assert_ptr_null(counter_type_info(CT_UNKNOWN));
	ck_assert_ptr_null(counter_type_info(CT_COUNT));
}
END_TEST

START_TEST(lookup_by_value_is_canonical)
{
	for (size_t i = 0; i < N_WINPERF; i++) {
		enum counter_type t = counter_type_by_value(winperf[i].value);
		const struct counter_type_info *ti = counter_type_info(t);
		ck_assert_ptr_nonnull(ti);
		ck_assert_uint_eq(ti->value, winperf[i].value);
		ck_assert(!ti->alias);
		if (winperf[i].value != 0x40030500)
			ck_assert_str_eq(ti->name, winperf[i].name);
	}
	/* PRECISION_TIMESTAMP is #defined as LARGE_RAW_BASE: by name both,
	 * by value the canonical one */
	ck_assert_int_eq(counter_type_by_value(0x40030500), CT_PERF_LARGE_RAW_BASE);
	ck_assert(counter_type_info(CT_PERF_PRECISION_TIMESTAMP)->alias);
	ck_assert(!counter_type_info(CT_PERF_LARGE_RAW_BASE)->alias);
	ck_assert_uint_eq(counter_type_info(CT_PERF_PRECISION_TIMESTAMP)->value,
			  0x40030500);
	/* windows_exporter's wrong PERF_LARGE_RAW_BASE is no type */
	ck_assert_int_eq(counter_type_by_value(0x40030503), CT_UNKNOWN);
	/* RAWCOUNT_HEX is 0: a zero type is not "missing" */
	ck_assert_int_eq(counter_type_by_value(0), CT_PERF_COUNTER_RAWCOUNT_HEX);
	ck_assert_int_eq(counter_type_by_value(0x12345678), CT_UNKNOWN);
}
END_TEST

START_TEST(max_extension)
{
	enum counter_type t = type_named("MAX");
	const struct counter_type_info *ti = counter_type_info(t);
	ck_assert(ti->extension);
	ck_assert_uint_eq(ti->value, 0x0000F000);
	ck_assert_int_eq(counter_type_by_value(0x0000F000), t);
	ck_assert(!ti->two_samples);
	ck_assert(ti->displayed);
	/* no winperf type sets reserved bits 12-15 */
	for (size_t i = 0; i < N_WINPERF; i++)
		ck_assert_uint_eq(winperf[i].value & 0xF000, 0);
}
END_TEST

/* The flags agree with the bit fields of COUNTERS.md §1.1. */
START_TEST(flags_match_the_bits)
{
	for (size_t i = 0; i < N_WINPERF; i++) {
		uint32_t v = winperf[i].value;
		const struct counter_type_info *ti =
			counter_type_info(type_named(winperf[i].name));
		int is_base = (v & 0xC00) == 0x400 && (v & 0xF0000) == 0x30000;
		/* two samples: the DELTA bit, or AVERAGE_TIMER/BULK */
		int two = (v & 0x400000) != 0 || v == 0x30020400 || v == 0x40020500;

		ck_assert_msg(ti->base == is_base, "%s base", ti->name);
		ck_assert_msg(ti->percent == ((v & 0xF0000000) == 0x20000000),
			      "%s percent", ti->name);
		ck_assert_msg(ti->inverse == ((v & 0x1000000) != 0),
			      "%s inverse", ti->name);
		ck_assert_msg(ti->multi == ((v & 0x2000000) != 0), "%s multi",
			      ti->name);
		if (ti->displayed)
			ck_assert_msg(ti->two_samples == two, "%s two", ti->name);
		/* HISTOGRAM is a literal with DWORD size bits, yet no number */
		if (v != 0x80000000) {
			static const unsigned sizes[] = { 4, 8, 0, 0 };
			ck_assert_msg(ti->size == sizes[(v >> 8) & 3], "%s size",
				      ti->name);
		}
		if (ti->timebase != CTB_NONE) {
			static const uint32_t bits[] = {
				[CTB_SYSTEM] = 0, [CTB_100NS] = 0x100000,
				[CTB_OBJECT] = 0x200000,
			};
			ck_assert_msg((v & 0x300000) == bits[ti->timebase],
				      "%s timebase", ti->name);
		}
	}
	for (size_t i = 0; i < N_HIDDEN; i++) {
		const struct counter_type_info *ti =
			counter_type_info(type_named(hidden[i]));
		ck_assert(!ti->displayed);
		ck_assert_int_eq(ti->formula, CF_NONE);
	}
}
END_TEST

/* ---------------------------------------------------------------------- */
/* COUNTERS.md §4 (derived) vectors */

START_TEST(counters_md_vectors)
{
	double v;
	/* N 1000->1500, D 1e7->2e7, F = 1e7: 500 / (1e7/1e7) = 500 /s */
	EXPECT_VALUE(calc("PERF_COUNTER_COUNTER", SMP(1000, 10000000, 0, 10000000),
			  SMP(1500, 20000000, 0, 10000000), &v), v, 500.0);
	/* dN 2.5e6, dD 1e7: 100 * 0.25 = 25 % */
	EXPECT_VALUE(calc("PERF_100NSEC_TIMER", SMP(0, 0, 0, 0),
			  SMP(2500000, 10000000, 0, 0), &v), v, 25.0);
	/* idle dN 7.5e6, dD 1e7: 100 * (1 - 0.75) = 25 % */
	EXPECT_VALUE(calc("PERF_100NSEC_TIMER_INV", SMP(0, 0, 0, 0),
			  SMP(7500000, 10000000, 0, 0), &v), v, 25.0);
	/* dN 3e7, dD 1e7, B1 4: 100 * 3 / 4 = 75 % */
	EXPECT_VALUE(calc("PERF_100NSEC_MULTI_TIMER", SMP(0, 0, 4, 0),
			  SMP(30000000, 10000000, 4, 0), &v), v, 75.0);
	/* same, inverse: 100 * (4 - 3) = 100 % (0..400 scale) */
	EXPECT_VALUE(calc("PERF_100NSEC_MULTI_TIMER_INV", SMP(0, 0, 4, 0),
			  SMP(30000000, 10000000, 4, 0), &v), v, 100.0);
	/* dN 3e6, dD 1.2e7: 100 * 0.25 = 25 % */
	EXPECT_VALUE(calc("PERF_COUNTER_TIMER", SMP(0, 0, 0, 0),
			  SMP(3000000, 12000000, 0, 0), &v), v, 25.0);
	/* N 25, B 200: 100 * 0.125 = 12.5 % */
	EXPECT_VALUE(calc1("PERF_RAW_FRACTION", SMP(25, 0, 200, 0), &v), v, 12.5);
	/* dN 30, dB 120: 100 * 0.25 = 25 % */
	EXPECT_VALUE(calc("PERF_SAMPLE_FRACTION", SMP(0, 0, 0, 0),
			  SMP(30, 0, 120, 0), &v), v, 25.0);
	/* dN 5e6 ticks, F 1e7, dB 10: 0.5 s / 10 = 0.05 s */
	EXPECT_VALUE(calc("PERF_AVERAGE_TIMER", SMP(0, 0, 0, 10000000),
			  SMP(5000000, 0, 10, 10000000), &v), v, 0.05);
	/* dN 40960, dB 10: 4096 */
	EXPECT_VALUE(calc("PERF_AVERAGE_BULK", SMP(0, 0, 0, 0),
			  SMP(40960, 0, 10, 0), &v), v, 4096.0);
	/* dN 2.5e7, dD 1e7: 2.5 */
	EXPECT_VALUE(calc("PERF_COUNTER_100NS_QUEUELEN_TYPE", SMP(0, 0, 0, 0),
			  SMP(25000000, 10000000, 0, 0), &v), v, 2.5);
	/* dN 3e7, dD 2e7 ticks: 1.5 */
	EXPECT_VALUE(calc("PERF_COUNTER_QUEUELEN_TYPE", SMP(0, 0, 0, 0),
			  SMP(30000000, 20000000, 0, 0), &v), v, 1.5);
	/* 7 -> 12: 5 */
	EXPECT_VALUE(calc("PERF_COUNTER_DELTA", SMP(7, 0, 0, 0),
			  SMP(12, 0, 0, 0), &v), v, 5.0);
	/* (133000000000000000 - 132999999000000000) / 1e7 = 1e9 / 1e7 = 100 s */
	EXPECT_VALUE(calc1("PERF_ELAPSED_TIME",
			   SMP(132999999000000000u, 133000000000000000u, 0, 10000000),
			   &v), v, 100.0);
	/* 32-bit wrap 4294967290 -> 10: 6 to reach 2^32, then 10: 16 */
	EXPECT_VALUE(calc("PERF_COUNTER_DELTA", SMP(4294967290u, 0, 0, 0),
			  SMP(10, 0, 0, 0), &v), v, 16.0);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* One hand-computed vector per displayed type */

START_TEST(rates)
{
	double v;
	/* dN 300, dD 6e6 ticks at 3e6/s = 2 s: 150 /s */
	EXPECT_VALUE(calc("PERF_COUNTER_COUNTER", SMP(0, 0, 0, 3000000),
			  SMP(300, 6000000, 0, 3000000), &v), v, 150.0);
	/* dN 50, dD 2e6 at 1e6/s = 2 s: 25 /s */
	EXPECT_VALUE(calc("PERF_SAMPLE_COUNTER", SMP(0, 0, 0, 1000000),
			  SMP(50, 2000000, 0, 1000000), &v), v, 25.0);
	/* dN 1.5e10 - 1e10 = 5e9 (over 32 bits), dD 5e6 at 1e6/s = 5 s:
	 * 1e9 /s */
	EXPECT_VALUE(calc("PERF_COUNTER_BULK_COUNT",
			  SMP(10000000000u, 1000000, 0, 1000000),
			  SMP(15000000000u, 6000000, 0, 1000000), &v), v, 1e9);
}
END_TEST

START_TEST(timers)
{
	double v;
	/* dN 1e6, dD 8e6: 100 * 0.125 = 12.5 % */
	EXPECT_VALUE(calc("PERF_COUNTER_TIMER", SMP(500, 1000, 0, 0),
			  SMP(1000500, 8001000, 0, 0), &v), v, 12.5);
	/* idle dN 2e6, dD 8e6: 100 * (1 - 0.25) = 75 % */
	EXPECT_VALUE(calc("PERF_COUNTER_TIMER_INV", SMP(0, 0, 0, 0),
			  SMP(2000000, 8000000, 0, 0), &v), v, 75.0);
	/* dN 4e5, dD 1.6e6 object ticks: 100 * 0.25 = 25 % */
	EXPECT_VALUE(calc("PERF_OBJ_TIME_TIMER", SMP(0, 0, 0, 0),
			  SMP(400000, 1600000, 0, 0), &v), v, 25.0);
	/* dN 6e6, dD 8e6: 100 * 0.75 = 75 % */
	EXPECT_VALUE(calc("PERF_100NSEC_TIMER", SMP(1000000, 2000000, 0, 0),
			  SMP(7000000, 10000000, 0, 0), &v), v, 75.0);
	/* idle dN 3e6, dD 4e6: 100 * (1 - 0.75) = 25 % */
	EXPECT_VALUE(calc("PERF_100NSEC_TIMER_INV", SMP(0, 0, 0, 0),
			  SMP(3000000, 4000000, 0, 0), &v), v, 25.0);
	/* D is the PRECISION_TIMESTAMP counter. dN 1e6, dD 4e6: 25 % */
	EXPECT_VALUE(calc("PERF_PRECISION_SYSTEM_TIMER", SMP(0, 0, 0, 0),
			  SMP(1000000, 4000000, 0, 0), &v), v, 25.0);
	/* dN 2e6, dD 5e6: 100 * 0.4 = 40 % */
	EXPECT_VALUE(calc("PERF_PRECISION_100NS_TIMER", SMP(0, 0, 0, 0),
			  SMP(2000000, 5000000, 0, 0), &v), v, 40.0);
	/* dN 9, dD 10: 90 % */
	EXPECT_VALUE(calc("PERF_PRECISION_OBJECT_TIMER", SMP(1, 10, 0, 0),
			  SMP(10, 20, 0, 0), &v), v, 90.0);
}
END_TEST

START_TEST(queue_lengths)
{
	double v;
	/* dN 5e9 (over 32 bits), dD 2e9: 2.5 */
	EXPECT_VALUE(calc("PERF_COUNTER_LARGE_QUEUELEN_TYPE", SMP(0, 0, 0, 0),
			  SMP(5000000000u, 2000000000u, 0, 0), &v), v, 2.5);
	/* dN 7e6, dD 2e6: 3.5 */
	EXPECT_VALUE(calc("PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE", SMP(0, 0, 0, 0),
			  SMP(7000000, 2000000, 0, 0), &v), v, 3.5);
	/* dN 9, dD 4: 2.25 */
	EXPECT_VALUE(calc("PERF_COUNTER_QUEUELEN_TYPE", SMP(1, 6, 0, 0),
			  SMP(10, 10, 0, 0), &v), v, 2.25);
	/* dN 1.2e7, dD 1.6e7: 0.75 */
	EXPECT_VALUE(calc("PERF_COUNTER_100NS_QUEUELEN_TYPE", SMP(0, 0, 0, 0),
			  SMP(12000000, 16000000, 0, 0), &v), v, 0.75);
}
END_TEST

START_TEST(multi_timers)
{
	double v;
	/* Tick-based, seed formula (no TB): dN 3e6, dD 1.2e7, B 2:
	 * 100 * 0.25 / 2 = 12.5 % (the MS doc formula would give 3.75e7) */
	EXPECT_VALUE(calc("PERF_COUNTER_MULTI_TIMER", SMP(0, 0, 2, 3000000),
			  SMP(3000000, 12000000, 2, 3000000), &v), v, 12.5);
	/* inverse: 100 * (2 - 0.25) = 175 % */
	EXPECT_VALUE(calc("PERF_COUNTER_MULTI_TIMER_INV", SMP(0, 0, 2, 3000000),
			  SMP(3000000, 12000000, 2, 3000000), &v), v, 175.0);
	/* dN 1.2e7, dD 8e6, B 3: 100 * 1.5 / 3 = 50 % */
	EXPECT_VALUE(calc("PERF_100NSEC_MULTI_TIMER", SMP(0, 0, 3, 0),
			  SMP(12000000, 8000000, 3, 0), &v), v, 50.0);
	/* inverse: 100 * (3 - 1.5) = 150 % */
	EXPECT_VALUE(calc("PERF_100NSEC_MULTI_TIMER_INV", SMP(0, 0, 3, 0),
			  SMP(12000000, 8000000, 3, 0), &v), v, 150.0);
}
END_TEST

START_TEST(multi_uses_newest_base)
{
	double v;
	/* B 2 then 4: B1 = 4 counts, not 2 nor the delta 2.
	 * dN 3e7, dD 1e7: 100 * 3 / 4 = 75 % (B0 would give 150) */
	EXPECT_VALUE(calc("PERF_100NSEC_MULTI_TIMER", SMP(0, 0, 2, 0),
			  SMP(30000000, 10000000, 4, 0), &v), v, 75.0);
	/* inverse: 100 * (4 - 3) = 100 % (B0 would have no value) */
	EXPECT_VALUE(calc("PERF_100NSEC_MULTI_TIMER_INV", SMP(0, 0, 2, 0),
			  SMP(30000000, 10000000, 4, 0), &v), v, 100.0);
	/* B going down is no negative delta: 4 then 1, dN 5e6, dD 1e7:
	 * 100 * 0.5 / 1 = 50 % */
	EXPECT_VALUE(calc("PERF_100NSEC_MULTI_TIMER", SMP(0, 0, 4, 0),
			  SMP(5000000, 10000000, 1, 0), &v), v, 50.0);
}
END_TEST

START_TEST(fractions_and_averages)
{
	double v;
	/* dN 3, dB 8: 100 * 0.375 = 37.5 % */
	EXPECT_VALUE(calc("PERF_SAMPLE_FRACTION", SMP(10, 0, 100, 0),
			  SMP(13, 0, 108, 0), &v), v, 37.5);
	/* dN 3e6 ticks at 2e6/s = 1.5 s over dB 4 operations: 0.375 s */
	EXPECT_VALUE(calc("PERF_AVERAGE_TIMER", SMP(0, 0, 0, 2000000),
			  SMP(3000000, 0, 4, 2000000), &v), v, 0.375);
	/* dN 1000 bytes, dB 8 operations: 125 */
	EXPECT_VALUE(calc("PERF_AVERAGE_BULK", SMP(5000, 0, 2, 0),
			  SMP(6000, 0, 10, 0), &v), v, 125.0);
	/* N 1, B 8: 100 * 0.125 = 12.5 % */
	EXPECT_VALUE(calc1("PERF_RAW_FRACTION", SMP(1, 0, 8, 0), &v), v, 12.5);
	/* N 3e9, B 1.2e10 (over 32 bits): 100 * 0.25 = 25 % */
	EXPECT_VALUE(calc1("PERF_LARGE_RAW_FRACTION",
			   SMP(3000000000u, 0, 12000000000u, 0), &v), v, 25.0);
	/* N 1, B 3: 100 / 3 = 33.333... % */
	EXPECT_VALUE(calc1("PERF_RAW_FRACTION", SMP(1, 0, 3, 0), &v), v,
		     33.333333333333333);
	/* N 5, B 2: 250 %, integer part above 1 */
	EXPECT_VALUE(calc1("PERF_LARGE_RAW_FRACTION", SMP(5, 0, 2, 0), &v), v,
		     250.0);
	/* N 2^64-1, B 2^64-2: just above 1, no overflow: 100.0000...% */
	EXPECT_VALUE(calc1("PERF_LARGE_RAW_FRACTION",
			   SMP(UINT64_MAX, 0, UINT64_MAX - 1, 0), &v), v, 100.0);
}
END_TEST

START_TEST(raw_and_deltas)
{
	double v;
	EXPECT_VALUE(calc1("PERF_COUNTER_RAWCOUNT", SMP(42, 0, 0, 0), &v), v, 42.0);
	/* 2^40 = 1099511627776 */
	EXPECT_VALUE(calc1("PERF_COUNTER_LARGE_RAWCOUNT",
			   SMP(UINT64_C(1) << 40, 0, 0, 0), &v), v, 1099511627776.0);
	EXPECT_VALUE(calc1("PERF_COUNTER_RAWCOUNT_HEX", SMP(0xFF, 0, 0, 0), &v),
		     v, 255.0);
	/* 0x100000001 = 4294967297 */
	EXPECT_VALUE(calc1("PERF_COUNTER_LARGE_RAWCOUNT_HEX",
			   SMP(0x100000001u, 0, 0, 0), &v), v, 4294967297.0);
	/* one-sample types ignore a previous sample */
	EXPECT_VALUE(calc("PERF_COUNTER_RAWCOUNT", SMP(99, 0, 0, 0),
			  SMP(42, 0, 0, 0), &v), v, 42.0);
	/* 1e12 -> 1e12 + 1234: 1234 */
	EXPECT_VALUE(calc("PERF_COUNTER_LARGE_DELTA", SMP(1000000000000u, 0, 0, 0),
			  SMP(1000000001234u, 0, 0, 0), &v), v, 1234.0);
	/* a delta type ignores D and B: garbage there changes nothing */
	EXPECT_VALUE(calc("PERF_COUNTER_DELTA", SMP(7, 99, 99, 0),
			  SMP(12, 1, 1, 0), &v), v, 5.0);
	/* MAX is one sample: N */
	EXPECT_VALUE(calc1("MAX", SMP(17, 0, 0, 0), &v), v, 17.0);
}
END_TEST

START_TEST(elapsed_time)
{
	double v;
	/* start 2e6, object time 9.5e6, 1e6 ticks/s: 7.5 s */
	EXPECT_VALUE(calc1("PERF_ELAPSED_TIME", SMP(2000000, 9500000, 0, 1000000),
			   &v), v, 7.5);
	/* N == D: just started, 0 s */
	EXPECT_VALUE(calc1("PERF_ELAPSED_TIME", SMP(5, 5, 0, 1), &v), v, 0.0);
	/* N = 0: never started */
	EXPECT_STATUS(calc1("PERF_ELAPSED_TIME", SMP(0, 100, 0, 1), &v),
		      PM_E_NO_VALUE);
	/* N > D: starts after the sample */
	EXPECT_STATUS(calc1("PERF_ELAPSED_TIME", SMP(101, 100, 0, 1), &v),
		      PM_E_NO_VALUE);
	/* TB = 0 */
	EXPECT_STATUS(calc1("PERF_ELAPSED_TIME", SMP(1, 100, 0, 0), &v),
		      PM_E_NO_VALUE);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Edge cases */

START_TEST(zero_denominator)
{
	double v = -1;
	/* dD = 0 */
	EXPECT_STATUS(calc("PERF_COUNTER_TIMER", SMP(0, 5, 0, 0),
			   SMP(10, 5, 0, 0), &v), PM_E_NO_VALUE);
	EXPECT_STATUS(calc("PERF_COUNTER_COUNTER", SMP(0, 5, 0, 10),
			   SMP(10, 5, 0, 10), &v), PM_E_NO_VALUE);
	EXPECT_STATUS(calc("PERF_COUNTER_QUEUELEN_TYPE", SMP(0, 5, 0, 0),
			   SMP(0, 5, 0, 0), &v), PM_E_NO_VALUE);
	EXPECT_STATUS(calc("PERF_100NSEC_MULTI_TIMER", SMP(0, 5, 2, 0),
			   SMP(10, 5, 2, 0), &v), PM_E_NO_VALUE);
	/* TB = 0 */
	EXPECT_STATUS(calc("PERF_COUNTER_COUNTER", SMP(0, 0, 0, 0),
			   SMP(10, 5, 0, 0), &v), PM_E_NO_VALUE);
	EXPECT_STATUS(calc("PERF_AVERAGE_TIMER", SMP(0, 0, 0, 0),
			   SMP(10, 0, 5, 0), &v), PM_E_NO_VALUE);
	/* dB = 0 */
	EXPECT_STATUS(calc("PERF_SAMPLE_FRACTION", SMP(0, 0, 7, 0),
			   SMP(0, 0, 7, 0), &v), PM_E_NO_VALUE);
	EXPECT_STATUS(calc("PERF_AVERAGE_TIMER", SMP(0, 0, 7, 10),
			   SMP(10, 0, 7, 10), &v), PM_E_NO_VALUE);
	EXPECT_STATUS(calc("PERF_AVERAGE_BULK", SMP(0, 0, 7, 0),
			   SMP(10, 0, 7, 0), &v), PM_E_NO_VALUE);
	/* B = 0 */
	EXPECT_STATUS(calc1("PERF_RAW_FRACTION", SMP(0, 0, 0, 0), &v),
		      PM_E_NO_VALUE);
	EXPECT_STATUS(calc1("PERF_LARGE_RAW_FRACTION", SMP(5, 0, 0, 0), &v),
		      PM_E_NO_VALUE);
	EXPECT_STATUS(calc("PERF_COUNTER_MULTI_TIMER", SMP(0, 0, 0, 0),
			   SMP(10, 20, 0, 0), &v), PM_E_NO_VALUE);
	EXPECT_STATUS(calc("PERF_100NSEC_MULTI_TIMER_INV", SMP(0, 0, 0, 0),
			   SMP(0, 20, 0, 0), &v), PM_E_NO_VALUE);
	/* an error leaves the output alone */
	ck_assert_double_eq(v, -1.0);
	/* a zero numerator is a value */
	EXPECT_VALUE(calc("PERF_COUNTER_TIMER", SMP(3, 0, 0, 0),
			  SMP(3, 10, 0, 0), &v), v, 0.0);
}
END_TEST

START_TEST(negative_delta)
{
	double v;
	/* N goes back on a 64-bit counter: a reset, no value */
	EXPECT_STATUS(calc("PERF_COUNTER_LARGE_DELTA", SMP(10, 0, 0, 0),
			   SMP(9, 0, 0, 0), &v), PM_E_NO_VALUE);
	EXPECT_STATUS(calc("PERF_100NSEC_TIMER", SMP(10, 0, 0, 0),
			   SMP(9, 100, 0, 0), &v), PM_E_NO_VALUE);
	/* D goes back: negative denominator */
	EXPECT_STATUS(calc("PERF_100NSEC_TIMER", SMP(0, 100, 0, 0),
			   SMP(10, 99, 0, 0), &v), PM_E_NO_VALUE);
	EXPECT_STATUS(calc("PERF_COUNTER_COUNTER", SMP(0, 100, 0, 10),
			   SMP(10, 50, 0, 10), &v), PM_E_NO_VALUE);
	/* B goes back on an 8-byte base */
	EXPECT_STATUS(calc("PERF_AVERAGE_BULK", SMP(0, 0, 10, 0),
			   SMP(10, 0, 9, 0), &v), PM_E_NO_VALUE);
	/* a small decrease of a 4-byte counter is a reset, not a wrap:
	 * 100 -> 50 is modular 2^32 - 50, far above 2^31 */
	EXPECT_STATUS(calc("PERF_COUNTER_DELTA", SMP(100, 0, 0, 0),
			   SMP(50, 0, 0, 0), &v), PM_E_NO_VALUE);
	/* D is a 64-bit time even for a 4-byte counter: it never wraps */
	EXPECT_STATUS(calc("PERF_COUNTER_COUNTER", SMP(0, 4294967290u, 0, 10),
			   SMP(10, 10, 0, 10), &v), PM_E_NO_VALUE);
}
END_TEST

START_TEST(inverse_below_zero)
{
	double v;
	/* idle 1.1e7 in 1e7: 100 * (1 - 1.1) would be -10 % */
	EXPECT_STATUS(calc("PERF_100NSEC_TIMER_INV", SMP(0, 0, 0, 0),
			  SMP(11000000, 10000000, 0, 0), &v), PM_E_NO_VALUE);
	/* idle equal to time: 0 % */
	EXPECT_VALUE(calc("PERF_COUNTER_TIMER_INV", SMP(0, 0, 0, 0),
			  SMP(10000000, 10000000, 0, 0), &v), v, 0.0);
	/* MULTI: dN/dD = 5 > B = 4 would be -100 % */
	EXPECT_STATUS(calc("PERF_100NSEC_MULTI_TIMER_INV", SMP(0, 0, 4, 0),
			  SMP(50000000, 10000000, 4, 0), &v), PM_E_NO_VALUE);
	/* MULTI: dN/dD = B: 0 % */
	EXPECT_VALUE(calc("PERF_COUNTER_MULTI_TIMER_INV", SMP(0, 0, 4, 0),
			  SMP(40000000, 10000000, 4, 0), &v), v, 0.0);
}
END_TEST

START_TEST(first_sample)
{
	double v;
	int two = 0;
	for (int t = 0; t < CT_COUNT; t++) {
		const struct counter_type_info *ti =
			counter_type_info((enum counter_type)t);
		struct counter_sample s = SMP(5, 10, 2, 1);
		pm_status st = counter_calc((enum counter_type)t, NULL, &s, &v);
		if (!ti->displayed)
			continue;
		if (ti->two_samples) {
			ck_assert_msg(st == PM_E_NO_VALUE, "%s", ti->name);
			two++;
		} else {
			ck_assert_msg(st == PM_OK, "%s", ti->name);
		}
	}
	/* the 22 types with the DELTA bit, plus AVERAGE_TIMER and _BULK */
	ck_assert_int_eq(two, 24);
}
END_TEST

START_TEST(wrap_32)
{
	double v;
	/* 4294967000 -> 704: 296 to 2^32, then 704: dN 1000;
	 * dD 1e7 at 1e7/s = 1 s: 1000 /s */
	EXPECT_VALUE(calc("PERF_COUNTER_COUNTER", SMP(4294967000u, 0, 0, 10000000),
			  SMP(704, 10000000, 0, 10000000), &v), v, 1000.0);
	/* largest wrap still taken: 2^31 + 1 -> 0 is modular
	 * 2^32 - (2^31 + 1) = 2147483647 = 2^31 - 1 */
	EXPECT_VALUE(calc("PERF_COUNTER_DELTA", SMP(2147483649u, 0, 0, 0),
			  SMP(0, 0, 0, 0), &v), v, 2147483647.0);
	/* 2^31 -> 0 is modular 2^31: not below 2^31, no value */
	EXPECT_STATUS(calc("PERF_COUNTER_DELTA", SMP(2147483648u, 0, 0, 0),
			   SMP(0, 0, 0, 0), &v), PM_E_NO_VALUE);
	/* 4294967295 -> 2147483647 is modular 2^31: no value */
	EXPECT_STATUS(calc("PERF_COUNTER_DELTA", SMP(4294967295u, 0, 0, 0),
			   SMP(2147483647u, 0, 0, 0), &v), PM_E_NO_VALUE);
	/* an 8-byte counter does not wrap at 2^32 */
	EXPECT_STATUS(calc("PERF_COUNTER_LARGE_DELTA", SMP(4294967290u, 0, 0, 0),
			   SMP(10, 0, 0, 0), &v), PM_E_NO_VALUE);
	/* a 4-byte type holding a value over 32 bits is read as 8 bytes:
	 * 2^32 + 5 -> 10 is a decrease, though 32-bit modular it would be 5 */
	EXPECT_STATUS(calc("PERF_COUNTER_DELTA", SMP(4294967301u, 0, 0, 0),
			   SMP(10, 0, 0, 0), &v), PM_E_NO_VALUE);
	/* a 4-byte base wraps too: dB 96 + 104 = 200, dN 50: 25 % */
	EXPECT_VALUE(calc("PERF_SAMPLE_FRACTION", SMP(0, 0, 4294967200u, 0),
			  SMP(50, 0, 104, 0), &v), v, 25.0);
	/* AVERAGE_TIMER is 4 bytes: N 4294967295 -> 999999 is dN 1e6;
	 * 1e6 / 1e6 s over 4 operations: 0.25 s */
	EXPECT_VALUE(calc("PERF_AVERAGE_TIMER", SMP(4294967295u, 0, 0, 1000000),
			  SMP(999999, 0, 4, 1000000), &v), v, 0.25);
}
END_TEST

START_TEST(hidden_types_refuse)
{
	double v = -1;
	struct counter_sample s[2] = { SMP(1, 1, 1, 1), SMP(2, 2, 2, 2) };
	struct counter_window w = { 1, 1, 1, 1, 1, 1 };
	for (size_t i = 0; i < N_HIDDEN; i++) {
		enum counter_type t = type_named(hidden[i]);
		struct counter_acc acc;
		EXPECT_STATUS(counter_calc(t, &s[0], &s[1], &v), PM_E_NOT_DISPLAYED);
		EXPECT_STATUS(counter_calc(t, NULL, &s[1], &v), PM_E_NOT_DISPLAYED);
		EXPECT_STATUS(counter_average(t, s, 2, &v), PM_E_NOT_DISPLAYED);
		counter_acc_init(&acc, t);
		EXPECT_STATUS(counter_acc_add(&acc, &w), PM_E_NOT_DISPLAYED);
		EXPECT_STATUS(counter_acc_add_samples(&acc, &s[0], &s[1]),
			      PM_E_NOT_DISPLAYED);
		ck_assert_uint_eq(acc.windows, 0);
		EXPECT_STATUS(counter_acc_value(&acc, &v), PM_E_NOT_DISPLAYED);
	}
	EXPECT_STATUS(counter_calc(CT_UNKNOWN, &s[0], &s[1], &v),
		      PM_E_NOT_DISPLAYED);
	ck_assert_double_eq(v, -1.0);
}
END_TEST

START_TEST(percent_not_capped)
{
	double v;
	/* 1.2e7 busy in 1e7: 120 % */
	EXPECT_VALUE(calc("PERF_100NSEC_TIMER", SMP(0, 0, 0, 0),
			  SMP(12000000, 10000000, 0, 0), &v), v, 120.0);
	/* dN 150, dB 100: 150 % */
	EXPECT_VALUE(calc("PERF_SAMPLE_FRACTION", SMP(0, 0, 0, 0),
			  SMP(150, 0, 100, 0), &v), v, 150.0);
	/* N 3, B 2: 150 % */
	EXPECT_VALUE(calc1("PERF_RAW_FRACTION", SMP(3, 0, 2, 0), &v), v, 150.0);
	/* MULTI inverse, 4 instances idle 3.5: 100 * (4 - 0.5) = 350 % */
	EXPECT_VALUE(calc("PERF_100NSEC_MULTI_TIMER_INV", SMP(0, 0, 4, 0),
			  SMP(5000000, 10000000, 4, 0), &v), v, 350.0);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* The average function over a series */

START_TEST(average_series)
{
	double v;
	/* rate: (700 - 0) / ((4e6 - 0) / 1e6) = 700 / 4 = 175 /s */
	struct counter_sample rate[] = {
		SMP(0, 0, 0, 1000000), SMP(100, 1000000, 0, 1000000),
		SMP(400, 2000000, 0, 1000000), SMP(700, 4000000, 0, 1000000),
	};
	EXPECT_VALUE(average("PERF_COUNTER_COUNTER", rate, 4, &v), v, 175.0);
	/* timer: 100 * (5e6 - 0) / (2e7 - 0) = 25 % */
	struct counter_sample timer[] = {
		SMP(0, 0, 0, 0), SMP(1000000, 10000000, 0, 0),
		SMP(5000000, 20000000, 0, 0),
	};
	EXPECT_VALUE(average("PERF_100NSEC_TIMER", timer, 3, &v), v, 25.0);
	/* inverse: 100 * (1 - 3e6 / 1.2e7) = 75 % */
	struct counter_sample inv[] = {
		SMP(0, 0, 0, 0), SMP(2000000, 4000000, 0, 0),
		SMP(3000000, 12000000, 0, 0),
	};
	EXPECT_VALUE(average("PERF_COUNTER_TIMER_INV", inv, 3, &v), v, 75.0);
	/* MULTI, B from the newest sample (4):
	 * 100 * (3e7 / 1e7) / 4 = 75 %; inverse 100 * (4 - 3) = 100 % */
	struct counter_sample multi[] = {
		SMP(0, 0, 2, 0), SMP(10000000, 5000000, 2, 0),
		SMP(30000000, 10000000, 4, 0),
	};
	EXPECT_VALUE(average("PERF_100NSEC_MULTI_TIMER", multi, 3, &v), v, 75.0);
	EXPECT_VALUE(average("PERF_100NSEC_MULTI_TIMER_INV", multi, 3, &v), v,
		     100.0);
	/* fraction: 100 * (30 - 0) / (120 - 0) = 25 % */
	struct counter_sample frac[] = {
		SMP(0, 0, 0, 0), SMP(5, 0, 40, 0), SMP(12, 0, 60, 0),
		SMP(30, 0, 120, 0),
	};
	EXPECT_VALUE(average("PERF_SAMPLE_FRACTION", frac, 4, &v), v, 25.0);
	/* average timer: ((5e6 - 0) / 1e7) / (10 - 0) = 0.05 s */
	struct counter_sample avg[] = {
		SMP(0, 0, 0, 10000000), SMP(1000000, 0, 4, 10000000),
		SMP(5000000, 0, 10, 10000000),
	};
	EXPECT_VALUE(average("PERF_AVERAGE_TIMER", avg, 3, &v), v, 0.05);
	/* raw: (10 + 20 + 60) / 3 = 30 */
	struct counter_sample raw[] = {
		SMP(10, 0, 0, 0), SMP(20, 0, 0, 0), SMP(60, 0, 0, 0),
	};
	EXPECT_VALUE(average("PERF_COUNTER_RAWCOUNT", raw, 3, &v), v, 30.0);
	/* raw fraction, SUM(N/B)/x: 100 * (1/4 + 1/2 + 3/4) / 3 = 50 % */
	struct counter_sample rf[] = {
		SMP(1, 0, 4, 0), SMP(1, 0, 2, 0), SMP(3, 0, 4, 0),
	};
	EXPECT_VALUE(average("PERF_RAW_FRACTION", rf, 3, &v), v, 50.0);
	/* 100 * (1/2 + 1/10) / 2 = 30 %; SUM(N)/SUM(B) would give
	 * 100 * 2 / 12 = 16.67 % */
	struct counter_sample rf2[] = { SMP(1, 0, 2, 0), SMP(1, 0, 10, 0) };
	EXPECT_VALUE(average("PERF_LARGE_RAW_FRACTION", rf2, 2, &v), v, 30.0);
	/* delta: (31 - 7) / 3 intervals = 8 */
	struct counter_sample dl[] = {
		SMP(7, 0, 0, 0), SMP(12, 0, 0, 0), SMP(20, 0, 0, 0),
		SMP(31, 0, 0, 0),
	};
	EXPECT_VALUE(average("PERF_COUNTER_DELTA", dl, 4, &v), v, 8.0);
	/* elapsed: (1.5e9 - 1e9) / 1e7 = 50 s */
	struct counter_sample el[] = {
		SMP(1000000000, 1100000000, 0, 10000000),
		SMP(1000000000, 1200000000, 0, 10000000),
		SMP(1000000000, 1500000000, 0, 10000000),
	};
	EXPECT_VALUE(average("PERF_ELAPSED_TIME", el, 3, &v), v, 50.0);
	/* max: max(3, 9, 4) = 9 */
	struct counter_sample mx[] = {
		SMP(3, 0, 0, 0), SMP(9, 0, 0, 0), SMP(4, 0, 0, 0),
	};
	EXPECT_VALUE(average("MAX", mx, 3, &v), v, 9.0);
}
END_TEST

START_TEST(average_edges)
{
	double v;
	/* a 4-byte wrap inside the series: deltas 5 and 11, (5 + 11) / 2 = 8 */
	struct counter_sample wrap[] = {
		SMP(4294967290u, 0, 0, 0), SMP(4294967295u, 0, 0, 0),
		SMP(10, 0, 0, 0),
	};
	EXPECT_VALUE(average("PERF_COUNTER_DELTA", wrap, 3, &v), v, 8.0);
	/* a reset inside the series: no value */
	struct counter_sample reset[] = {
		SMP(0, 0, 0, 0), SMP(100, 10, 0, 0), SMP(5, 20, 0, 0),
		SMP(50, 30, 0, 0),
	};
	EXPECT_STATUS(average("PERF_100NSEC_TIMER", reset, 4, &v),
		      PM_E_NO_VALUE);
	/* too short */
	EXPECT_STATUS(average("PERF_100NSEC_TIMER", reset, 1, &v), PM_E_NO_VALUE);
	EXPECT_STATUS(average("PERF_100NSEC_TIMER", reset, 0, &v), PM_E_NO_VALUE);
	EXPECT_STATUS(average("PERF_COUNTER_RAWCOUNT", reset, 0, &v),
		      PM_E_NO_VALUE);
	/* one sample of a one-sample type is its calculation */
	EXPECT_VALUE(average("PERF_COUNTER_RAWCOUNT", reset, 1, &v), v, 0.0);
	/* a sample without a value: B = 0 */
	struct counter_sample rf[] = { SMP(1, 0, 2, 0), SMP(1, 0, 0, 0) };
	EXPECT_STATUS(average("PERF_RAW_FRACTION", rf, 2, &v), PM_E_NO_VALUE);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Accumulators */

START_TEST(acc_average_wait_rate_busy)
{
	struct counter_acc acc;
	double v;

	/* average wait: 3e5 + 1e5 + 6e5 = 1e6 us at TB 1e6 = 1 s over
	 * 3 + 1 + 4 = 8 waits: 0.125 s */
	struct counter_window waits[] = {
		{ .n = 300000, .db = 3, .tb = 1000000 },
		{ .n = 100000, .db = 1, .tb = 1000000 },
		{ .n = 600000, .db = 4, .tb = 1000000 },
	};
	counter_acc_init(&acc, CT_PERF_AVERAGE_TIMER);
	for (int i = 0; i < 3; i++)
		EXPECT_STATUS(counter_acc_add(&acc, &waits[i]), PM_OK);
	EXPECT_VALUE(counter_acc_value(&acc, &v), v, 0.125);
	ck_assert_uint_eq(acc.windows, 3);
	ck_assert_uint_eq(acc.no_value, 0);

	/* rate: 600 + 300 = 900 over (6e7 + 3e7) / 1e6 = 90 s: 10 /s; a
	 * window with dD = 0 has no value and is counted */
	struct counter_window rate[] = {
		{ .n = 600, .d = 60000000, .tb = 1000000 },
		{ .n = 5, .d = 0, .tb = 1000000 },
		{ .n = 300, .d = 30000000, .tb = 1000000 },
	};
	counter_acc_init(&acc, CT_PERF_COUNTER_COUNTER);
	EXPECT_STATUS(counter_acc_add(&acc, &rate[0]), PM_OK);
	EXPECT_STATUS(counter_acc_add(&acc, &rate[1]), PM_E_NO_VALUE);
	EXPECT_STATUS(counter_acc_add(&acc, &rate[2]), PM_OK);
	EXPECT_VALUE(counter_acc_value(&acc, &v), v, 10.0);
	ck_assert_uint_eq(acc.windows, 3);
	ck_assert_uint_eq(acc.no_value, 1);
	counter_acc_add_none(&acc);
	ck_assert_uint_eq(acc.windows, 4);
	ck_assert_uint_eq(acc.no_value, 2);
	EXPECT_VALUE(counter_acc_value(&acc, &v), v, 10.0);

	/* busy: windows of 75 % (15/20) and 25 % (45/180) pool to
	 * 100 * (15 + 45) / (20 + 180) = 30 %, not their mean 50 % */
	struct counter_window busy[] = { { .n = 15, .d = 20 }, { .n = 45, .d = 180 } };
	counter_acc_init(&acc, CT_PERF_100NSEC_TIMER);
	for (int i = 0; i < 2; i++)
		EXPECT_STATUS(counter_acc_add(&acc, &busy[i]), PM_OK);
	EXPECT_VALUE(counter_acc_value(&acc, &v), v, 30.0);

	/* peak: max(5, 12, 7) = 12 */
	counter_acc_init(&acc, CT_MAX);
	counter_acc_add(&acc, &(struct counter_window){ .n = 5 });
	counter_acc_add(&acc, &(struct counter_window){ .n = 12 });
	counter_acc_add(&acc, &(struct counter_window){ .n = 7 });
	EXPECT_VALUE(counter_acc_value(&acc, &v), v, 12.0);
	ck_assert_uint_eq(acc.windows, 3);

	/* delta: (4 + 6) / 2 windows = 5 per window */
	counter_acc_init(&acc, CT_PERF_COUNTER_DELTA);
	counter_acc_add(&acc, &(struct counter_window){ .n = 4 });
	counter_acc_add(&acc, &(struct counter_window){ .n = 6 });
	EXPECT_VALUE(counter_acc_value(&acc, &v), v, 5.0);
}
END_TEST

START_TEST(acc_edges)
{
	struct counter_acc acc;
	double v = -1;

	/* empty */
	counter_acc_init(&acc, CT_PERF_COUNTER_COUNTER);
	EXPECT_STATUS(counter_acc_value(&acc, &v), PM_E_NO_VALUE);
	/* only windows without a value */
	counter_acc_add_none(&acc);
	EXPECT_STATUS(counter_acc_value(&acc, &v), PM_E_NO_VALUE);
	/* a sum past 2^64 */
	counter_acc_init(&acc, CT_PERF_COUNTER_LARGE_RAWCOUNT);
	counter_acc_add(&acc, &(struct counter_window){ .n = UINT64_MAX });
	counter_acc_add(&acc, &(struct counter_window){ .n = 2 });
	ck_assert(acc.overflow);
	EXPECT_STATUS(counter_acc_value(&acc, &v), PM_E_NO_VALUE);
	/* windows that disagree on TB */
	counter_acc_init(&acc, CT_PERF_COUNTER_COUNTER);
	counter_acc_add(&acc, &(struct counter_window){ .n = 1, .d = 1, .tb = 10 });
	counter_acc_add(&acc, &(struct counter_window){ .n = 1, .d = 1, .tb = 20 });
	EXPECT_STATUS(counter_acc_value(&acc, &v), PM_E_NO_VALUE);
	/* ... matter only where the formula uses TB: 100 * 2 / 2 = 100 % */
	counter_acc_init(&acc, CT_PERF_COUNTER_TIMER);
	counter_acc_add(&acc, &(struct counter_window){ .n = 1, .d = 1, .tb = 10 });
	counter_acc_add(&acc, &(struct counter_window){ .n = 1, .d = 1, .tb = 20 });
	EXPECT_VALUE(counter_acc_value(&acc, &v), v, 100.0);
	/* MULTI inverse whose newest B drops below the ratio: windows
	 * 35/10 at B 4 and 10/10 at B 2 sum to 45/20 = 2.25 > 2 */
	counter_acc_init(&acc, CT_PERF_100NSEC_MULTI_TIMER_INV);
	EXPECT_STATUS(counter_acc_add(&acc, &(struct counter_window){
			.n = 35, .d = 10, .b = 4, .when = 1 }), PM_OK);
	EXPECT_STATUS(counter_acc_add(&acc, &(struct counter_window){
			.n = 10, .d = 10, .b = 2, .when = 2 }), PM_OK);
	EXPECT_STATUS(counter_acc_value(&acc, &v), PM_E_NO_VALUE);
	/* different types do not merge */
	struct counter_acc other;
	counter_acc_init(&other, CT_PERF_COUNTER_TIMER);
	EXPECT_STATUS(counter_acc_merge(&acc, &other), PM_E_USAGE);
	ck_assert_uint_eq(acc.windows, 2);
	/* first sample and negative delta, from raw samples, are counted */
	counter_acc_init(&acc, CT_PERF_100NSEC_TIMER);
	EXPECT_STATUS(counter_acc_add_samples(&acc, NULL, &SMP(5, 5, 0, 0)),
		      PM_E_NO_VALUE);
	EXPECT_STATUS(counter_acc_add_samples(&acc, &SMP(5, 5, 0, 0),
					      &SMP(4, 10, 0, 0)), PM_E_NO_VALUE);
	/* 100 * 5 / 10 = 50 % */
	EXPECT_STATUS(counter_acc_add_samples(&acc, &SMP(4, 10, 0, 0),
					      &SMP(9, 20, 0, 0)), PM_OK);
	ck_assert_uint_eq(acc.windows, 3);
	ck_assert_uint_eq(acc.no_value, 2);
	EXPECT_VALUE(counter_acc_value(&acc, &v), v, 50.0);
}
END_TEST

static void
ck_acc_equal(const struct counter_acc *a, const struct counter_acc *b)
{
#define SAME(f) ck_assert_msg(a->f == b->f, #f " differs")
	SAME(type);
	SAME(windows);
	SAME(no_value);
	SAME(sum_n);
	SAME(sum_d);
	SAME(sum_db);
	SAME(b);
	SAME(b_when);
	SAME(tb_min);
	SAME(tb_max);
	SAME(max_n);
	SAME(min_n);
	SAME(max_d);
	SAME(ratio_whole);
	SAME(ratio_frac);
	SAME(overflow);
#undef SAME
}

static void
acc_of(struct counter_acc *acc, enum counter_type t,
       const struct counter_window *w, size_t from, size_t to)
{
	counter_acc_init(acc, t);
	for (size_t i = from; i < to; i++)
		counter_acc_add(acc, &w[i]);
}

/* Every split in two, both orders, and a three-way split in every
 * grouping, equal adding all windows to one accumulator. */
static void
check_merges(enum counter_type t, const struct counter_window *w, size_t n,
	     double want)
{
	struct counter_acc all, a, b, c, x, y;
	double v, vx;

	acc_of(&all, t, w, 0, n);
	EXPECT_VALUE(counter_acc_value(&all, &v), v, want);
	for (size_t k = 0; k <= n; k++) {
		acc_of(&a, t, w, 0, k);
		acc_of(&b, t, w, k, n);
		x = a;
		y = b;
		EXPECT_STATUS(counter_acc_merge(&x, &b), PM_OK);
		EXPECT_STATUS(counter_acc_merge(&y, &a), PM_OK);
		ck_acc_equal(&x, &all);
		ck_acc_equal(&y, &all);
		EXPECT_VALUE(counter_acc_value(&x, &vx), vx, v);
		ck_assert(vx == v);
	}
	for (size_t i = 1; i + 1 < n; i++) {
		acc_of(&a, t, w, 0, i);
		acc_of(&b, t, w, i, i + 1);
		acc_of(&c, t, w, i + 1, n);
		/* (a + b) + c */
		x = a;
		counter_acc_merge(&x, &b);
		counter_acc_merge(&x, &c);
		ck_acc_equal(&x, &all);
		/* a + (c + b) */
		y = c;
		counter_acc_merge(&y, &b);
		x = a;
		counter_acc_merge(&x, &y);
		ck_acc_equal(&x, &all);
		/* (c + a) + b */
		x = c;
		counter_acc_merge(&x, &a);
		counter_acc_merge(&x, &b);
		ck_acc_equal(&x, &all);
	}
}

/* RAW_FRACTION sums N/B in fixed point: whole units and the first 52
 * binary digits of each remainder, truncated. 2^52 = 4503599627370496;
 * 1/3 of it is 1501199875790165.33; (2^64 - 2)/(2^64 - 1) of it is
 * 2^52 - 2^52/(2^64 - 1), just below 2^52. */
START_TEST(raw_fraction_digits)
{
	struct counter_acc acc;
	struct counter_window w = { 0 };

	counter_acc_init(&acc, type_named("PERF_RAW_FRACTION"));
	w.n = 1, w.b = 3;
	EXPECT_STATUS(counter_acc_add(&acc, &w), PM_OK);
	ck_assert_uint_eq(acc.ratio_whole, 0);
	ck_assert_uint_eq(acc.ratio_frac, UINT64_C(1501199875790165));
	w.n = 7;   /* 2 and 1/3 */
	EXPECT_STATUS(counter_acc_add(&acc, &w), PM_OK);
	ck_assert_uint_eq(acc.ratio_whole, 2);
	ck_assert_uint_eq(acc.ratio_frac, UINT64_C(3002399751580330));
	counter_acc_init(&acc, type_named("PERF_LARGE_RAW_FRACTION"));
	w.n = UINT64_MAX - 1, w.b = UINT64_MAX;
	EXPECT_STATUS(counter_acc_add(&acc, &w), PM_OK);
	ck_assert_uint_eq(acc.ratio_whole, 0);
	ck_assert_uint_eq(acc.ratio_frac, (UINT64_C(1) << 52) - 1);
	w.n = UINT64_MAX, w.b = UINT64_MAX - 1;   /* 1 and 1/(2^64 - 2): no digit */
	EXPECT_STATUS(counter_acc_add(&acc, &w), PM_OK);
	ck_assert_uint_eq(acc.ratio_whole, 1);
	ck_assert_uint_eq(acc.ratio_frac, (UINT64_C(1) << 52) - 1);
}
END_TEST

START_TEST(acc_merge_any_order)
{
	/* rate: (100 + 200 + 0 + 700) / ((1e6 + 1e6 + 2e6) / 1e6) = 1000 / 4
	 * = 250 /s; the dD = 0 window has no value */
	const struct counter_window rate[] = {
		{ .n = 100, .d = 1000000, .tb = 1000000 },
		{ .n = 200, .d = 1000000, .tb = 1000000 },
		{ .n = 9, .d = 0, .tb = 1000000 },
		{ .n = 700, .d = 2000000, .tb = 1000000 },
	};
	check_merges(CT_PERF_COUNTER_COUNTER, rate, 4, 250.0);
	/* average wait: ((2e5 + 3e5 + 5e5) / 1e6) / (1 + 2 + 5) = 0.125 s */
	const struct counter_window wait[] = {
		{ .n = 200000, .db = 1, .tb = 1000000 },
		{ .n = 300000, .db = 2, .tb = 1000000 },
		{ .n = 500000, .db = 5, .tb = 1000000 },
	};
	check_merges(CT_PERF_AVERAGE_TIMER, wait, 3, 0.125);
	/* MULTI: newest B is 4 (when 9), whatever the order of adding:
	 * 100 * ((1e6 + 2e6 + 3e6) / (1e6 + 1e6 + 1e6)) / 4 = 50 % */
	const struct counter_window multi[] = {
		{ .n = 1000000, .d = 1000000, .b = 2, .when = 3 },
		{ .n = 2000000, .d = 1000000, .b = 4, .when = 9 },
		{ .n = 3000000, .d = 1000000, .b = 8, .when = 5 },
	};
	check_merges(CT_PERF_100NSEC_MULTI_TIMER, multi, 3, 50.0);
	/* raw fraction, thirds do not sum exactly in binary:
	 * 100 * (1/3 + 1/3 + 1/3 + 2/3) / 4 = 100 * (5/3) / 4 = 41.666... % */
	const struct counter_window thirds[] = {
		{ .n = 1, .b = 3 }, { .n = 1, .b = 3 }, { .n = 1, .b = 3 },
		{ .n = 2, .b = 3 },
	};
	check_merges(CT_PERF_RAW_FRACTION, thirds, 4, 41.666666666666667);
	/* elapsed: (latest 3e7 - earliest start 1e7) / 1e6 = 20 s */
	const struct counter_window el[] = {
		{ .n = 10000000, .d = 20000000, .tb = 1000000 },
		{ .n = 10000000, .d = 30000000, .tb = 1000000 },
		{ .n = 10000000, .d = 25000000, .tb = 1000000 },
	};
	check_merges(CT_PERF_ELAPSED_TIME, el, 3, 20.0);
	/* peak: max(3, 11, 7, 2) = 11 */
	const struct counter_window peak[] = {
		{ .n = 3 }, { .n = 11 }, { .n = 7 }, { .n = 2 },
	};
	check_merges(CT_MAX, peak, 4, 11.0);
	/* raw: (3 + 11 + 7 + 2) / 4 = 5.75 */
	check_merges(CT_PERF_COUNTER_RAWCOUNT, peak, 4, 5.75);
	/* busy inverse: 100 * (1 - (1 + 2 + 3) / (4 + 4 + 4)) = 50 % */
	const struct counter_window idle[] = {
		{ .n = 1, .d = 4 }, { .n = 2, .d = 4 }, { .n = 3, .d = 4 },
	};
	check_merges(CT_PERF_COUNTER_TIMER_INV, idle, 3, 50.0);
}
END_TEST

/* Raw samples into an accumulator, one window per pair, agree with the
 * average function and the calculation. */
START_TEST(acc_from_samples)
{
	struct counter_sample s[] = {
		SMP(0, 0, 0, 1000000), SMP(100, 1000000, 0, 1000000),
		SMP(400, 2000000, 0, 1000000), SMP(700, 4000000, 0, 1000000),
	};
	struct counter_acc acc;
	double v;

	counter_acc_init(&acc, CT_PERF_COUNTER_COUNTER);
	for (int i = 1; i < 4; i++)
		EXPECT_STATUS(counter_acc_add_samples(&acc, &s[i - 1], &s[i]),
			      PM_OK);
	/* 700 / 4 s = 175 /s */
	EXPECT_VALUE(counter_acc_value(&acc, &v), v, 175.0);
	/* the last window alone: 300 / 2 s = 150 /s */
	EXPECT_VALUE(counter_calc(CT_PERF_COUNTER_COUNTER, &s[2], &s[3], &v), v,
		     150.0);
}
END_TEST

/* The exact fraction behind a value: cross-multiplied with the hand
 * result, so no rounding can hide an error. */
START_TEST(acc_fraction_exact)
{
	struct counter_acc acc;
	struct counter_window w;
	counter_u128 num, den;

	/* AVERAGE_TIMER: 500,000 ticks of 10**-4 s over 400 operations is
	 * (500000 / 10000) / 400 = 1/8 s exactly */
	counter_acc_init(&acc, counter_type_by_name("PERF_AVERAGE_TIMER"));
	memset(&w, 0, sizeof w);
	w.n = 300000; w.db = 150; w.tb = 10000;
	ck_assert_int_eq(counter_acc_add(&acc, &w), PM_OK);
	w.n = 200000; w.db = 250;
	ck_assert_int_eq(counter_acc_add(&acc, &w), PM_OK);
	ck_assert_int_eq(counter_acc_fraction(&acc, &num, &den), PM_OK);
	ck_assert(num * 8 == den);

	/* 100NSEC_TIMER: 100 * 3e6 / 1.2e7 = 25 percent */
	counter_acc_init(&acc, counter_type_by_name("PERF_100NSEC_TIMER"));
	memset(&w, 0, sizeof w);
	w.n = 3000000; w.d = 12000000;
	ck_assert_int_eq(counter_acc_add(&acc, &w), PM_OK);
	ck_assert_int_eq(counter_acc_fraction(&acc, &num, &den), PM_OK);
	ck_assert(num == den * 25);

	/* no window with a value, or a type with no value: no fraction */
	counter_acc_init(&acc, counter_type_by_name("PERF_100NSEC_TIMER"));
	ck_assert_int_eq(counter_acc_fraction(&acc, &num, &den), PM_E_NO_VALUE);
	counter_acc_init(&acc, counter_type_by_name("PERF_AVERAGE_BASE"));
	ck_assert_int_eq(counter_acc_fraction(&acc, &num, &den), PM_E_NOT_DISPLAYED);
}
END_TEST

/* counter_window_fraction is an accumulator of the one window: for every
 * type and windows at the edges (zeros, N above D, no base, no clock),
 * the same status and fraction as init, add and fraction. */
/* Edge values of a window's figures, and window i of EDGE_WINDOWS: every
 * N, D and B of them, without a clock, with one, and with a PRECISION
 * timer's D base set apart from B. */
static const uint64_t edge_v[] = { 0, 1, 2, 3, 7, 10000, 4294967295ULL,
                                   18446744073709551615ULL };
#define EDGE_NV (sizeof edge_v / sizeof edge_v[0])
#define EDGE_WINDOWS (EDGE_NV * EDGE_NV * EDGE_NV * 3)

static struct counter_window
edge_window(size_t i)
{
	const size_t nv = EDGE_NV, kind = i / nv / nv / nv;
	struct counter_window w = { .n = edge_v[i % nv], .d = edge_v[i / nv % nv],
	                            .b = edge_v[i / nv / nv % nv],
	                            .tb = kind == 0 ? 0 : 10000000, .when = i };

	w.db = kind == 2 ? edge_v[i % nv] : w.b;
	return w;
}

START_TEST(window_fraction_is_one_window)
{
	for (int t = 0; t < CT_COUNT; t++)
		for (size_t i = 0; i < EDGE_WINDOWS; i++) {
			struct counter_window w = edge_window(i);
			struct counter_acc acc;
			counter_u128 n1 = 0, d1 = 0, n2 = 0, d2 = 0;
			pm_status s1, s2;

			counter_acc_init(&acc, (enum counter_type)t);
			(void)counter_acc_add(&acc, &w);
			s1 = counter_acc_fraction(&acc, &n1, &d1);
			s2 = counter_window_fraction((enum counter_type)t, &w, &n2, &d2);
			ck_assert_int_eq(s1, s2);
			ck_assert(n1 == n2 && d1 == d2);
		}
}
END_TEST

/* counter_acc_add_fraction is counter_acc_add, then the window's own
 * fraction when it has a value: for every type and the windows above,
 * added to an accumulator that holds a window already, the same status,
 * accumulator words and fraction as the two calls. */
START_TEST(add_fraction_is_add_then_window)
{
	const struct counter_window first = { .n = 5, .d = 9, .db = 3, .b = 4, .tb = 10000000,
	                                      .when = 1 };

	for (int t = 0; t < CT_COUNT; t++)
		for (size_t i = 0; i < EDGE_WINDOWS; i++) {
			struct counter_window w = edge_window(i);
			struct counter_acc a1, a2;
			uint64_t w1[COUNTER_ACC_WORDS], w2[COUNTER_ACC_WORDS];
			counter_u128 n1 = 0, d1 = 0, n2 = 0, d2 = 0;
			pm_status s1, s2;

			counter_acc_init(&a1, (enum counter_type)t);
			counter_acc_init(&a2, (enum counter_type)t);
			(void)counter_acc_add(&a1, &first);
			(void)counter_acc_add(&a2, &first);
			s1 = counter_acc_add(&a1, &w);
			if (s1 == PM_OK)
				s1 = counter_window_fraction((enum counter_type)t, &w, &n1, &d1);
			s2 = counter_acc_add_fraction(&a2, &w, &n2, &d2);
			ck_assert_int_eq(s1, s2);
			ck_assert(n1 == n2 && d1 == d2);
			counter_acc_pack(&a1, w1);
			counter_acc_pack(&a2, w2);
			ck_assert_mem_eq(w1, w2, sizeof w1);
		}
}
END_TEST

/* Feeds: windows read from vectors of figures, several windows a call.
 * Figures worked out by hand; a feed whose flags are missing counts a
 * window without a value. */
START_TEST(feeds_by_hand)
{
	/* two windows: x = { N of waits, time in 10**-4 s, duration in
	 * 10**-4 s, highest wait }; flag 1 is "has the part" */
	const uint64_t x1[] = { 4, 30000, 600000, 9000 };
	const uint64_t x2[] = { 6, 20000, 600000, 12000 };
	const uint64_t x3[] = { 99, 99, 99, 99 };
	const struct counter_figures win[] = {
		{ x1, 1, 10 }, { x2, 1, 20 }, { x3, 0, 30 },
	};
	struct counter_feed f[4];
	struct counter_acc acc[4];
	double v;

	counter_feed_init(&f[0], CT_PERF_AVERAGE_TIMER, 0, 10000);
	f[0].n = 1; f[0].b = 0; f[0].need = 1;
	counter_feed_init(&f[1], CT_PERF_COUNTER_COUNTER, 1, 10000);
	f[1].n = 0; f[1].d = 2; f[1].need = 1;
	counter_feed_init(&f[2], CT_MAX, 2, 10000);
	f[2].n = 3; f[2].need = 1;
	counter_feed_init(&f[3], CT_PERF_COUNTER_DELTA, 3, 10000);
	f[3].n = 0; f[3].need = 0;	/* needs nothing: x3 counts */
	counter_acc_init(&acc[0], CT_PERF_AVERAGE_TIMER);
	counter_acc_init(&acc[1], CT_PERF_COUNTER_COUNTER);
	counter_acc_init(&acc[2], CT_MAX);
	counter_acc_init(&acc[3], CT_PERF_COUNTER_DELTA);
	counter_feed_sort(f, 4);
	counter_feed_add(acc, f, 4, win, 3);
	/* (50000 / 10000 s) / (4 + 6) waits = 0.5 s */
	EXPECT_VALUE(counter_acc_value(&acc[0], &v), v, 0.5);
	ck_assert_uint_eq(acc[0].windows, 3);
	ck_assert_uint_eq(acc[0].no_value, 1);
	/* 10 waits / (1200000 / 10000 s) = 1/12 per second */
	EXPECT_VALUE(counter_acc_value(&acc[1], &v), v, 1.0 / 12);
	/* max(9000, 12000) */
	EXPECT_VALUE(counter_acc_value(&acc[2], &v), v, 12000.0);
	/* (4 + 6 + 99) / 3 windows */
	EXPECT_VALUE(counter_acc_value(&acc[3], &v), v, 109.0 / 3);
	ck_assert_uint_eq(acc[3].no_value, 0);
	/* the same in two calls, and unsorted (runs of one) */
	counter_feed_init(&f[0], CT_MAX, 0, 1);
	f[0].n = 3; f[0].need = 1;
	counter_acc_init(&acc[0], CT_MAX);
	counter_feed_add(acc, f, 1, &win[1], 1);
	counter_feed_add(acc, f, 1, &win[0], 1);
	EXPECT_VALUE(counter_acc_value(&acc[0], &v), v, 12000.0);
}
END_TEST

/* Sorting makes runs of one formula, and keeps every feed. */
START_TEST(feed_sort_runs)
{
	const enum counter_type t[] = {
		CT_MAX, CT_PERF_COUNTER_DELTA, CT_MAX, CT_PERF_AVERAGE_TIMER,
		CT_PERF_COUNTER_DELTA, CT_MAX,
	};
	struct counter_feed f[6];
	unsigned seen = 0;

	for (uint32_t i = 0; i < 6; i++)
		counter_feed_init(&f[i], t[i], i, 1);
	counter_feed_sort(f, 6);
	for (size_t i = 0; i < 6; i += f[i].run) {
		ck_assert_uint_ge(f[i].run, 1);
		for (size_t k = i; k < i + f[i].run; k++) {
			ck_assert_uint_eq(counter_type_info(f[k].type)->formula,
			                  counter_type_info(f[i].type)->formula);
			ck_assert_uint_eq(f[k].run, f[i].run - (k - i));
			seen |= 1u << f[k].acc;
		}
	}
	ck_assert_uint_eq(seen, 0x3f);
	/* MAX 3, DELTA 2, AVERAGE_TIMER 1, in some order of formulas */
	ck_assert_uint_eq(f[0].run + f[f[0].run].run +
	                  f[f[0].run + f[f[0].run].run].run, 6);
}
END_TEST

/* Feeds of many types, their accumulators out of order within a formula
 * and in order in others: sorted by formula (hidden types last), then by
 * accumulator, each feed once. */
START_TEST(feed_sort_order)
{
	const enum counter_type t[] = {
		CT_MAX, CT_PERF_COUNTER_DELTA, CT_PERF_SAMPLE_BASE, CT_PERF_AVERAGE_TIMER,
		CT_PERF_COUNTER_COUNTER, CT_PERF_RAW_FRACTION, CT_PERF_COUNTER_RAWCOUNT,
	};
	enum { N = 300 };
	struct counter_feed f[N];
	unsigned seen[2 * N] = { 0 }, feeds = 0;

	for (uint32_t i = 0; i < N; i++) {
		enum counter_type ti = t[(i * 7 + i / 5) % (sizeof t / sizeof t[0])];
		/* DELTA's accumulators run backwards; the others forwards */
		uint32_t acc = ti == CT_PERF_COUNTER_DELTA ? 2 * N - 1 - i : i;
		counter_feed_init(&f[i], ti, acc, 1);
	}
	counter_feed_sort(f, N);
	for (size_t i = 0; i < N; i++) {
		const struct counter_type_info *ti = counter_type_info(f[i].type);
		unsigned key = ti->displayed ? (unsigned)ti->formula : 99;

		seen[f[i].acc]++;
		if (i > 0) {
			const struct counter_type_info *tp = counter_type_info(f[i - 1].type);
			unsigned prev = tp->displayed ? (unsigned)tp->formula : 99;
			ck_assert_uint_le(prev, key);
			if (prev == key)
				ck_assert_uint_lt(f[i - 1].acc, f[i].acc);
		}
	}
	for (size_t i = 0; i < 2 * N; i++) {
		ck_assert_uint_le(seen[i], 1);
		feeds += seen[i];
	}
	ck_assert_uint_eq(feeds, N);
}
END_TEST

/* For every type, windows at the edges (zeros, N above D, no base, no
 * clock, missing flags), fed several a call, leave the accumulator as
 * adding them one by one does (the path checked by hand above). */
START_TEST(feed_is_acc_add)
{
	static const uint64_t v[] = { 0, 1, 3, 10000, 4294967295ULL,
	                              18446744073709551615ULL };
	const size_t nv = sizeof v / sizeof v[0];
	uint64_t x[7][4];
	struct counter_figures win[7];

	for (int t = 0; t < CT_COUNT; t++)
		for (size_t i = 0; i < nv * nv * nv; i++) {
			struct counter_feed f;
			struct counter_acc fed[2], one;
			size_t nwin = 1 + i % 7;

			for (size_t k = 0; k < nwin; k++) {
				size_t j = (i + 5 * k) % (nv * nv * nv);
				x[k][0] = v[j % nv];
				x[k][1] = v[j / nv % nv];
				x[k][2] = v[j / nv / nv % nv];
				x[k][3] = 0;
				win[k] = (struct counter_figures){ x[k], (unsigned)(j % 4),
				                                   j * 7 % 11 };
			}
			counter_feed_init(&f, (enum counter_type)t, 1,
			                  i % 2 ? 10000000 : 0);
			f.n = 0; f.d = 1; f.b = 2;
			f.need = (uint8_t)(i % 3);
			counter_acc_init(&fed[1], (enum counter_type)t);
			counter_acc_init(&one, (enum counter_type)t);
			counter_feed_add(fed, &f, 1, win, nwin);
			for (size_t k = 0; k < nwin; k++) {
				struct counter_window w = { x[k][0], x[k][1], x[k][2],
				                            x[k][2], f.tb, win[k].when };
				if ((win[k].have & f.need) != f.need)
					counter_acc_add_none(&one);
				else
					(void)counter_acc_add(&one, &w);
			}
			ck_acc_equal(&fed[1], &one);
		}
}
END_TEST

Suite *
unit_suite(void)
{
	Suite *s = suite_create("counter");
	TCase *tc = tcase_create("counter");
	tcase_add_test(tc, lookup_by_name_every_type);
	tcase_add_test(tc, lookup_by_value_is_canonical);
	tcase_add_test(tc, max_extension);
	tcase_add_test(tc, flags_match_the_bits);
	tcase_add_test(tc, counters_md_vectors);
	tcase_add_test(tc, rates);
	tcase_add_test(tc, timers);
	tcase_add_test(tc, queue_lengths);
	tcase_add_test(tc, multi_timers);
	tcase_add_test(tc, multi_uses_newest_base);
	tcase_add_test(tc, fractions_and_averages);
	tcase_add_test(tc, raw_and_deltas);
	tcase_add_test(tc, elapsed_time);
	tcase_add_test(tc, zero_denominator);
	tcase_add_test(tc, negative_delta);
	tcase_add_test(tc, inverse_below_zero);
	tcase_add_test(tc, first_sample);
	tcase_add_test(tc, wrap_32);
	tcase_add_test(tc, hidden_types_refuse);
	tcase_add_test(tc, percent_not_capped);
	tcase_add_test(tc, average_series);
	tcase_add_test(tc, average_edges);
	tcase_add_test(tc, acc_average_wait_rate_busy);
	tcase_add_test(tc, acc_edges);
	tcase_add_test(tc, raw_fraction_digits);
	tcase_add_test(tc, acc_merge_any_order);
	tcase_add_test(tc, acc_from_samples);
	tcase_add_test(tc, acc_fraction_exact);
	tcase_add_test(tc, window_fraction_is_one_window);
	tcase_add_test(tc, add_fraction_is_add_then_window);
	tcase_add_test(tc, feeds_by_hand);
	tcase_add_test(tc, feed_sort_runs);
	tcase_add_test(tc, feed_sort_order);
	tcase_add_test(tc, feed_is_acc_add);
	suite_add_tcase(s, tc);
	return s;
}
