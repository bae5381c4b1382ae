/* check_cook.c: Windows snapshots paired into series windows (cook.h), on
 * snapshots built here as structs (no bytes): one-sample values of a first
 * snapshot, the windows of a second with D and TB from each type's time
 * base, PRECISION timers' D from their timestamp counter, a 4-byte wrap, a
 * 64-bit reset, a clock going back, two systems interleaved, instances
 * coming and going or renamed, names numbered as before trusted, bases
 * and NODATA skipped, the series'
 * names, and a cook primed at a cut of a file (--jobs) pairing as the
 * whole reading does. Every expected figure is worked out by hand beside
 * it from the raw values the test sets. */
#include "check_main.h"
#include <stdlib.h>
#include <string.h>

#include "core/sources.h"
#include "engine/counter.h"
#include "frame/series.h"
#include "winperf/block.h"
#include "winperf/cook.h"

/* winperf CounterType values, written out here (winperf.h) */
#define T_COUNTER_COUNTER    0x10410400u  /* rate, 4 bytes, PerfTime */
#define T_BULK_COUNT         0x10410500u  /* rate, 8 bytes, PerfTime */
#define T_100NSEC_TIMER      0x20510500u  /* %, PerfTime100nSec */
#define T_OBJ_TIME_TIMER     0x20610500u  /* %, the object's clock */
#define T_RAWCOUNT           0x00010000u
#define T_RAW_FRACTION       0x20020400u
#define T_RAW_BASE           0x40030403u
#define T_ELAPSED_TIME       0x30240500u
#define T_PRECISION_100NS    0x20570500u
#define T_PRECISION_STAMP    0x40030500u
#define T_NODATA             0x40000200u
#define T_LARGE_DELTA        0x00400500u

#define S 10000                            /* stamp units a second */

/* ---------------------------------------------------------------------- */
/* What the cook handed on, copied out of its frames */

#define MAX_FRAMES 16
#define MAX_VALUES 64

struct got_value {
	struct series_value v;
	uint32_t source, object, counter;
	char object_name[16], counter_name[16], instance[16];
	enum counter_type type;
};

struct got_frame {
	uint32_t source;
	int64_t start, end;
	size_t n;
	struct got_value v[MAX_VALUES];
};

static struct got_frame got[MAX_FRAMES];
static size_t ngot;
static size_t nempty;      /* frames without values (first snapshots), apart */
static struct sources src;
static struct wp_cook *cook;

static void
capture(const struct series_frame *f, void *ctx)
{
	struct got_frame *g;

	ck_assert_ptr_eq(ctx, got);
	if (f->n == 0) {
		nempty++;
		return;
	}
	ck_assert_uint_lt(ngot, MAX_FRAMES);
	ck_assert_uint_le(f->n, MAX_VALUES);
	g = &got[ngot++];
	*g = (struct got_frame){ .source = f->source, .start = f->start, .end = f->end,
	                         .n = f->n };
	for (size_t i = 0; i < f->n; i++) {
		const struct series *s = &f->catalogue[f->v[i].series];
		struct got_value *x = &g->v[i];
		x->v = f->v[i];
		x->source = s->source;
		x->object = s->object;
		x->counter = s->counter;
		x->type = s->type;
		ck_assert_uint_lt(strlen(s->object_name), sizeof x->object_name);
		ck_assert_uint_lt(strlen(s->counter_name), sizeof x->counter_name);
		ck_assert_uint_lt(strlen(s->instance), sizeof x->instance);
		strcpy(x->object_name, s->object_name);
		strcpy(x->counter_name, s->counter_name);
		strcpy(x->instance, s->instance);
	}
}

/* The value of counter `counter` of instance inst in frame k; NULL: none. */
static const struct got_value *
find(size_t k, uint32_t counter, const char *inst)
{
	ck_assert_uint_lt(k, ngot);
	for (size_t i = 0; i < got[k].n; i++)
		if (got[k].v[i].counter == counter && strcmp(got[k].v[i].instance, inst) == 0)
			return &got[k].v[i];
	return NULL;
}

static const struct got_value *
must(size_t k, uint32_t counter, const char *inst)
{
	const struct got_value *v = find(k, counter, inst);

	ck_assert_msg(v != NULL, "frame %zu: no value of counter %u, instance '%s'",
	              k, (unsigned)counter, inst);
	return v;
}

static void
add_to(struct wp_cook *c, const struct wp_snapshot *s)
{
	ck_assert(wp_cook_add(c, s, "t.perf") == PM_OK);
}

static void
add(const struct wp_snapshot *s)
{
	add_to(cook, s);
}

static uint32_t
source_id(const char *name)
{
	uint32_t id;

	ck_assert(sources_intern(&src, name, strlen(name), &id) == PM_OK);
	return id;
}

static void
setup(void)
{
	ngot = nempty = 0;
	memset(got, 0, sizeof got);
	ck_assert(sources_init(&src, 16) == PM_OK);
	ck_assert(wp_cook_open(&cook, &src, NULL, capture, got) == PM_OK);
}

static void
teardown(void)
{
	wp_cook_close(cook);
	sources_free(&src);
}

/* ---------------------------------------------------------------------- */
/* One object without instances, every time base */

/* Counters of object 2, titles 10..30; the base and PRECISION pairs point
 * at the counter after them. */
static const struct wp_counter sys_counters[] = {
	/* 0 */ { .title = 10, .type = T_COUNTER_COUNTER, .size = 4, .role = WP_SHOWN, .base = WP_NO_BASE },
	/* 1 */ { .title = 12, .type = T_100NSEC_TIMER, .size = 8, .role = WP_SHOWN, .base = WP_NO_BASE },
	/* 2 */ { .title = 14, .type = T_OBJ_TIME_TIMER, .size = 8, .role = WP_SHOWN, .base = WP_NO_BASE },
	/* 3 */ { .title = 16, .type = T_RAWCOUNT, .size = 4, .role = WP_SHOWN, .base = WP_NO_BASE },
	/* 4 */ { .title = 18, .type = T_RAW_FRACTION, .size = 4, .role = WP_SHOWN, .base = 5 },
	/* 5 */ { .title = 20, .type = T_RAW_BASE, .size = 4, .role = WP_BASE, .base = WP_NO_BASE },
	/* 6 */ { .title = 22, .type = T_ELAPSED_TIME, .size = 8, .role = WP_SHOWN, .base = WP_NO_BASE },
	/* 7 */ { .title = 24, .type = T_PRECISION_100NS, .size = 8, .role = WP_SHOWN, .base = 8 },
	/* 8 */ { .title = 26, .type = T_PRECISION_STAMP, .size = 8, .role = WP_BASE, .base = WP_NO_BASE },
	/* 9 */ { .title = 28, .type = T_NODATA, .size = 0, .role = WP_NODATA, .base = WP_NO_BASE },
};
#define NSYS (sizeof sys_counters / sizeof sys_counters[0])

static const uint64_t sys_v1[NSYS] = {
	1000,        /* COUNTER_COUNTER */
	5000000,     /* 100NSEC_TIMER */
	1200,        /* OBJ_TIME_TIMER */
	42,          /* RAWCOUNT */
	30,          /* RAW_FRACTION, over the base: */
	120,         /* RAW_BASE */
	2000,        /* ELAPSED_TIME: started at object time 2000 */
	100,         /* PRECISION_100NS */
	1000,        /* its timestamp */
	7,           /* NODATA */
};
static const uint64_t sys_v2[NSYS] = {
	1600, 7500000, 1500, 43, 45, 150, 2000, 400, 2000, 8,
};

/* Snapshot of object 2 with values v at system time `at` seconds past
 * 2025-03-03 00:00 (only differences matter); block clock at PerfFreq
 * 3,000,000 and object clock at 1,000 a second. */
static struct wp_object sys_obj;

static struct wp_snapshot
sys_snapshot(const char *system, int64_t at, const uint64_t *v, uint64_t perf_time,
             uint64_t t100, uint64_t obj_time)
{
	sys_obj = (struct wp_object){
		.title = 2, .num_instances = WP_NO_INSTANCES,
		.perf_time = obj_time, .perf_freq = 1000,
		.ncounters = NSYS, .counters = sys_counters, .values = v,
	};
	return (struct wp_snapshot){
		.system = system, .time = at * S, .perf_time = perf_time,
		.perf_freq = 3000000, .perf_time_100ns = t100,
		.nobjects = 1, .objects = &sys_obj, .nodata = 1,
	};
}

START_TEST(first_snapshot_one_sample_values)
{
	struct wp_snapshot s = sys_snapshot("SYSA", 1000, sys_v1, 30000000,
	                                    132289256439880000ULL, 5000);
	const struct got_value *v;

	add(&s);
	ck_assert_uint_eq(ngot, 1);
	/* RAWCOUNT, RAW_FRACTION and ELAPSED_TIME; no two-sample type has a
	 * previous sample, the bases and NODATA none at all */
	ck_assert_uint_eq(got[0].n, 3);
	ck_assert_uint_eq(got[0].source, source_id("SYSA"));
	/* a first snapshot: start = end = its own time */
	ck_assert_int_eq(got[0].start, 1000 * S);
	ck_assert_int_eq(got[0].end, 1000 * S);
	v = must(0, 16, "");                /* RAWCOUNT: N = 42 */
	ck_assert(!v->v.two && !v->v.reset);
	ck_assert_uint_eq(v->v.w.n, 42);
	ck_assert_int_eq(v->type, CT_PERF_COUNTER_RAWCOUNT);
	v = must(0, 18, "");                /* RAW_FRACTION: N = 30, B = its base, 120 */
	ck_assert(!v->v.two);
	ck_assert_uint_eq(v->v.w.n, 30);
	ck_assert_uint_eq(v->v.w.b, 120);
	v = must(0, 22, "");                /* ELAPSED_TIME: N the start, 2000; */
	ck_assert(!v->v.two);
	ck_assert_uint_eq(v->v.w.n, 2000);
	ck_assert_uint_eq(v->v.w.d, 5000);  /* D the object's PerfTime, */
	ck_assert_uint_eq(v->v.w.tb, 1000); /* TB its PerfFreq: (5000-2000)/1000 = 3 s */
	ck_assert_ptr_null(find(0, 10, ""));
	ck_assert_ptr_null(find(0, 12, ""));
	ck_assert_ptr_null(find(0, 14, ""));
	ck_assert_ptr_null(find(0, 24, ""));
	ck_assert_ptr_null(find(0, 20, ""));   /* RAW_BASE */
	ck_assert_ptr_null(find(0, 26, ""));   /* PRECISION_TIMESTAMP */
	ck_assert_ptr_null(find(0, 28, ""));   /* NODATA */
	ck_assert_uint_eq(wp_cook_resets(cook), 0);
}
END_TEST

START_TEST(second_snapshot_windows_by_time_base)
{
	/* 15 s later: PerfTime +15 x 3,000,000 = 45,000,000, PerfTime100nSec
	 * +15 x 10^7 = 150,000,000, the object's clock +2,000 */
	struct wp_snapshot s1 = sys_snapshot("SYSA", 1000, sys_v1, 30000000,
	                                     132289256439880000ULL, 5000);
	struct wp_snapshot s2;
	const struct got_value *v;

	add(&s1);
	s2 = sys_snapshot("SYSA", 1015, sys_v2, 75000000, 132289256589880000ULL, 7000);
	add(&s2);
	ck_assert_uint_eq(ngot, 2);
	/* 4 two-sample windows and the 3 one-sample values */
	ck_assert_uint_eq(got[1].n, 7);
	ck_assert_int_eq(got[1].start, 1000 * S);
	ck_assert_int_eq(got[1].end, 1015 * S);

	v = must(1, 10, "");   /* COUNTER_COUNTER: block PerfTime and PerfFreq */
	ck_assert(v->v.two && !v->v.reset);
	ck_assert_uint_eq(v->v.w.n, 600);         /* 1600 - 1000 */
	ck_assert_uint_eq(v->v.w.d, 45000000);    /* 75,000,000 - 30,000,000 */
	ck_assert_uint_eq(v->v.w.tb, 3000000);    /* 600 / 15 s = 40/s */

	v = must(1, 12, "");   /* 100NSEC_TIMER: PerfTime100nSec, 10^7 */
	ck_assert(v->v.two && !v->v.reset);
	ck_assert_uint_eq(v->v.w.n, 2500000);     /* 7,500,000 - 5,000,000 */
	ck_assert_uint_eq(v->v.w.d, 150000000);   /* 15 s of 100 ns */
	ck_assert_uint_eq(v->v.w.tb, 10000000);

	v = must(1, 14, "");   /* OBJ_TIME_TIMER: the object's clock */
	ck_assert(v->v.two && !v->v.reset);
	ck_assert_uint_eq(v->v.w.n, 300);         /* 1500 - 1200 */
	ck_assert_uint_eq(v->v.w.d, 2000);        /* 7000 - 5000 */
	ck_assert_uint_eq(v->v.w.tb, 1000);

	v = must(1, 24, "");   /* PRECISION_100NS: D from the timestamp after it */
	ck_assert(v->v.two && !v->v.reset);
	ck_assert_uint_eq(v->v.w.n, 300);         /* 400 - 100 */
	ck_assert_uint_eq(v->v.w.d, 1000);        /* 2000 - 1000, not 150,000,000 */

	v = must(1, 16, "");   /* RAWCOUNT: still one-sample, the new N */
	ck_assert(!v->v.two);
	ck_assert_uint_eq(v->v.w.n, 43);
	v = must(1, 18, "");   /* RAW_FRACTION 45 / 150 */
	ck_assert_uint_eq(v->v.w.n, 45);
	ck_assert_uint_eq(v->v.w.b, 150);
	v = must(1, 22, "");   /* ELAPSED_TIME: (7000 - 2000) / 1000 = 5 s */
	ck_assert_uint_eq(v->v.w.n, 2000);
	ck_assert_uint_eq(v->v.w.d, 7000);
	ck_assert_ptr_null(find(1, 20, ""));
	ck_assert_ptr_null(find(1, 26, ""));
	ck_assert_ptr_null(find(1, 28, ""));
	ck_assert_uint_eq(wp_cook_resets(cook), 0);
}
END_TEST

START_TEST(names_without_table_are_indexes)
{
	struct wp_snapshot s = sys_snapshot("SYSA", 1000, sys_v1, 30000000,
	                                    132289256439880000ULL, 5000);
	const struct got_value *v;

	add(&s);
	v = must(0, 18, "");
	ck_assert_str_eq(v->object_name, "2");
	ck_assert_str_eq(v->counter_name, "18");
	ck_assert_str_eq(v->instance, "");    /* num_instances = WP_NO_INSTANCES */
	ck_assert_uint_eq(v->object, 2);
	ck_assert_uint_eq(v->source, source_id("SYSA"));
	ck_assert_int_eq(v->type, CT_PERF_RAW_FRACTION);
}
END_TEST

START_TEST(time_back_resets_every_window)
{
	struct wp_snapshot s1 = sys_snapshot("SYSA", 1000, sys_v1, 30000000,
	                                     132289256439880000ULL, 5000);
	struct wp_snapshot s2 = sys_snapshot("SYSA", 1015, sys_v2, 75000000,
	                                     132289256589880000ULL, 7000);
	static const uint64_t v3[NSYS] = { 1700, 7600000, 1600, 44, 50, 200, 2000, 500, 3000, 9 };
	static const uint64_t v4[NSYS] = { 1900, 7700000, 1700, 45, 50, 200, 2000, 600, 4000, 9 };
	struct wp_snapshot s3, s4;
	const struct got_value *v;

	add(&s1);
	add(&s2);
	/* a reboot: PerfTime 75,000,000 -> 3,000,000, the other clocks on */
	s3 = sys_snapshot("SYSA", 1030, v3, 3000000, 132289256739880000ULL, 9000);
	add(&s3);
	ck_assert_uint_eq(ngot, 3);
	ck_assert_uint_eq(got[2].n, 7);
	/* every two-sample value reset, whatever its own clock */
	ck_assert(must(2, 10, "")->v.reset);
	ck_assert(must(2, 12, "")->v.reset);
	ck_assert(must(2, 14, "")->v.reset);
	ck_assert(must(2, 24, "")->v.reset);
	/* one-sample values are not windows: kept */
	v = must(2, 16, "");
	ck_assert(!v->v.reset);
	ck_assert_uint_eq(v->v.w.n, 44);
	ck_assert(!must(2, 18, "")->v.reset);
	ck_assert_uint_eq(wp_cook_resets(cook), 4);
	/* and the next snapshot pairs with the reset one: 1 s of PerfTime */
	s4 = sys_snapshot("SYSA", 1031, v4, 6000000, 132289256749880000ULL, 10000);
	add(&s4);
	v = must(3, 10, "");
	ck_assert(!v->v.reset);
	ck_assert_uint_eq(v->v.w.n, 200);        /* 1900 - 1700 */
	ck_assert_uint_eq(v->v.w.d, 3000000);    /* 6,000,000 - 3,000,000 */
	ck_assert_uint_eq(wp_cook_resets(cook), 4);
}
END_TEST

START_TEST(system_time_back_resets)
{
	struct wp_snapshot s1 = sys_snapshot("SYSA", 1000, sys_v1, 30000000,
	                                     132289256439880000ULL, 5000);
	struct wp_snapshot s2 = sys_snapshot("SYSA", 990, sys_v2, 75000000,
	                                     132289256589880000ULL, 7000);

	add(&s1);
	add(&s2);   /* SystemTime 10 s back, the counters' clocks on */
	ck_assert(must(1, 10, "")->v.reset);
	ck_assert(must(1, 12, "")->v.reset);
	ck_assert_uint_eq(wp_cook_resets(cook), 4);
}
END_TEST

START_TEST(two_systems_keep_their_own_state)
{
	static const uint64_t b1[NSYS] = { 5000, 100, 10, 1, 1, 2, 0, 0, 0, 0 };
	static const uint64_t b2[NSYS] = { 5090, 200, 20, 2, 1, 2, 0, 0, 0, 0 };
	struct wp_snapshot a1 = sys_snapshot("SYSA", 1000, sys_v1, 30000000,
	                                     132289256439880000ULL, 5000);
	struct wp_snapshot b, a2;
	const struct got_value *v;
	uint32_t ida = source_id("SYSA"), idb = source_id("SYSB");

	add(&a1);
	/* SYSB: its own clocks, far from SYSA's */
	b = sys_snapshot("SYSB", 1005, b1, 900, 1000, 50);
	add(&b);
	ck_assert_uint_eq(got[1].source, idb);
	/* SYSB's first snapshot: no windows although SYSA has the same
	 * object and counters */
	ck_assert_ptr_null(find(1, 10, ""));
	ck_assert_uint_eq(got[1].n, 3);   /* RAWCOUNT, RAW_FRACTION, ELAPSED_TIME */
	a2 = sys_snapshot("SYSA", 1015, sys_v2, 75000000, 132289256589880000ULL, 7000);
	add(&a2);
	ck_assert_uint_eq(got[2].source, ida);
	ck_assert_int_eq(got[2].start, 1000 * S);    /* SYSA's previous, not SYSB's */
	v = must(2, 10, "");
	ck_assert_uint_eq(v->source, ida);
	ck_assert(!v->v.reset);
	ck_assert_uint_eq(v->v.w.n, 600);           /* 1600 - 1000, not 1600 - 5000 */
	ck_assert_uint_eq(v->v.w.d, 45000000);
	b = sys_snapshot("SYSB", 1020, b2, 300900, 1500000, 80);
	add(&b);
	ck_assert_uint_eq(got[3].source, idb);
	ck_assert_int_eq(got[3].start, 1005 * S);
	v = must(3, 10, "");
	ck_assert_uint_eq(v->source, idb);
	ck_assert(!v->v.reset);
	ck_assert_uint_eq(v->v.w.n, 90);            /* 5090 - 5000 */
	ck_assert_uint_eq(v->v.w.d, 300000);        /* 300,900 - 900 */
	v = must(3, 14, "");
	ck_assert_uint_eq(v->v.w.n, 10);            /* 20 - 10 */
	ck_assert_uint_eq(v->v.w.d, 30);            /* 80 - 50 */
	ck_assert_uint_eq(wp_cook_resets(cook), 0);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Wraps and resets: object 4, no instances */

static const struct wp_counter wrap_counters[] = {
	{ .title = 40, .type = T_COUNTER_COUNTER, .size = 4, .role = WP_SHOWN, .base = WP_NO_BASE },
	{ .title = 42, .type = T_BULK_COUNT, .size = 8, .role = WP_SHOWN, .base = WP_NO_BASE },
	{ .title = 44, .type = T_LARGE_DELTA, .size = 8, .role = WP_SHOWN, .base = WP_NO_BASE },
};
static struct wp_object wrap_obj;

static struct wp_snapshot
wrap_snapshot(int64_t at, const uint64_t *v)
{
	wrap_obj = (struct wp_object){
		.title = 4, .num_instances = WP_NO_INSTANCES, .perf_freq = 1,
		.ncounters = 3, .counters = wrap_counters, .values = v,
	};
	/* PerfTime at 1,000 a second */
	return (struct wp_snapshot){
		.system = "SYSA", .time = at * S, .perf_time = (uint64_t)at * 1000,
		.perf_freq = 1000, .perf_time_100ns = (uint64_t)at * 10000000,
		.nobjects = 1, .objects = &wrap_obj,
	};
}

START_TEST(four_byte_wrap_and_64_bit_reset)
{
	static const uint64_t v1[] = { 0xFFFFFFF0u, 1000, 50 };
	static const uint64_t v2[] = { 0x10u, 500, 80 };        /* wrap; BULK back */
	static const uint64_t v3[] = { 0x30u, 700, 60 };        /* DELTA back */
	struct wp_snapshot s;
	const struct got_value *v;

	s = wrap_snapshot(100, v1);
	add(&s);
	ck_assert_uint_eq(ngot, 0);    /* nothing but two-sample types: no value */
	ck_assert_uint_eq(nempty, 1);  /* but the snapshot's frame */
	s = wrap_snapshot(110, v2);
	add(&s);
	ck_assert_uint_eq(ngot, 1);
	ck_assert_uint_eq(got[0].n, 3);
	v = must(0, 40, "");
	/* 0x10 - 0xFFFFFFF0 modulo 2^32: 0x10 + 0x10 = 0x20 */
	ck_assert(!v->v.reset);
	ck_assert_uint_eq(v->v.w.n, 0x20);
	ck_assert_uint_eq(v->v.w.d, 10000);        /* 10 s at 1,000 */
	/* an 8-byte counter 1000 -> 500: a reset, not 2^64 - 500 */
	ck_assert(must(0, 42, "")->v.reset);
	v = must(0, 44, "");
	ck_assert(!v->v.reset);
	ck_assert_uint_eq(v->v.w.n, 30);           /* 80 - 50 */
	ck_assert_uint_eq(wp_cook_resets(cook), 1);
	s = wrap_snapshot(120, v3);
	add(&s);
	v = must(1, 40, "");
	ck_assert_uint_eq(v->v.w.n, 0x20);         /* 0x30 - 0x10 */
	v = must(1, 42, "");                       /* from the reset sample: 700 - 500 */
	ck_assert(!v->v.reset);
	ck_assert_uint_eq(v->v.w.n, 200);
	ck_assert(must(1, 44, "")->v.reset);       /* 80 -> 60 */
	ck_assert_uint_eq(wp_cook_resets(cook), 2);
}
END_TEST

START_TEST(four_byte_large_jump_is_no_wrap)
{
	/* 0x10 -> 0x90000000: forward by 0x8FFFFFF0, a plain increase (not a
	 * wrap); 0x90000000 -> 0x10: modular 0x70000010 is below 2^31, a wrap */
	static const uint64_t v1[] = { 0x10u, 1, 1 };
	static const uint64_t v2[] = { 0x90000000u, 1, 1 };
	static const uint64_t v3[] = { 0x10u, 1, 1 };
	struct wp_snapshot s;

	s = wrap_snapshot(100, v1);
	add(&s);
	s = wrap_snapshot(110, v2);
	add(&s);
	ck_assert_uint_eq(must(0, 40, "")->v.w.n, 0x8FFFFFF0u);
	s = wrap_snapshot(120, v3);
	add(&s);
	/* 2^32 - 0x90000000 + 0x10 = 0x70000000 + 0x10 */
	ck_assert(!must(1, 40, "")->v.reset);
	ck_assert_uint_eq(must(1, 40, "")->v.w.n, 0x70000010u);
	ck_assert_uint_eq(wp_cook_resets(cook), 0);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Instances: object 238 */

static const struct wp_counter cpu_counters[] = {
	{ .title = 6, .type = T_100NSEC_TIMER, .size = 8, .role = WP_SHOWN, .base = WP_NO_BASE },
	{ .title = 16, .type = T_RAWCOUNT, .size = 4, .role = WP_SHOWN, .base = WP_NO_BASE },
};
static struct wp_object cpu_obj;

static struct wp_snapshot
cpu_snapshot(int64_t at, const struct wp_instance *inst, size_t ninst, const uint64_t *v)
{
	cpu_obj = (struct wp_object){
		.title = 238, .num_instances = (int32_t)ninst, .perf_freq = 1,
		.ncounters = 2, .counters = cpu_counters,
		.ninstances = ninst, .instances = inst, .values = v,
	};
	return (struct wp_snapshot){
		.system = "SYSA", .time = at * S, .perf_time = (uint64_t)at,
		.perf_freq = 1, .perf_time_100ns = (uint64_t)at * 10000000,
		.nobjects = 1, .objects = &cpu_obj,
	};
}

START_TEST(new_instance_has_no_window)
{
	static const struct wp_instance one[] = { { .name = "0", .unique_id = -1 } };
	static const struct wp_instance two[] = { { .name = "0", .unique_id = -1 },
	                                          { .name = "1", .unique_id = -1 } };
	/* rows: instance by instance, counters 6 then 16 */
	static const uint64_t v1[] = { 1000000, 5 };
	static const uint64_t v2[] = { 6000000, 6,    40000000, 7 };
	static const uint64_t v3[] = { 11000000, 8 };
	static const uint64_t v4[] = { 16000000, 9,   45000000, 10 };
	struct wp_snapshot s;
	const struct got_value *v;

	s = cpu_snapshot(100, one, 1, v1);
	add(&s);
	s = cpu_snapshot(110, two, 2, v2);
	add(&s);
	ck_assert_uint_eq(got[1].n, 3);
	v = must(1, 6, "0");
	ck_assert(v->v.two && !v->v.reset);
	ck_assert_uint_eq(v->v.w.n, 5000000);     /* 6,000,000 - 1,000,000 */
	ck_assert_uint_eq(v->v.w.d, 100000000);   /* 10 s of 100 ns */
	ck_assert_uint_eq(v->object, 238);
	ck_assert_str_eq(v->object_name, "238");
	ck_assert_str_eq(v->counter_name, "6");
	/* instance 1 is new: its RAWCOUNT, but no window */
	ck_assert_ptr_null(find(1, 6, "1"));
	ck_assert_uint_eq(must(1, 16, "1")->v.w.n, 7);
	/* instance 1 away in the third snapshot, back in the fourth: its
	 * previous sample is not the system's previous snapshot, no window */
	s = cpu_snapshot(120, one, 1, v3);
	add(&s);
	ck_assert_uint_eq(got[2].n, 2);
	s = cpu_snapshot(130, two, 2, v4);
	add(&s);
	ck_assert_ptr_null(find(3, 6, "1"));
	v = must(3, 6, "0");
	ck_assert_uint_eq(v->v.w.n, 5000000);     /* 16,000,000 - 11,000,000 */
	ck_assert_uint_eq(wp_cook_resets(cook), 0);
}
END_TEST

/* A new instance listed first moves the others' values to other places:
 * each still pairs with its own previous sample, as the same series. */
START_TEST(moved_instances_keep_their_series)
{
	static const struct wp_instance ab[] = { { .name = "a", .unique_id = -1 },
	                                         { .name = "b", .unique_id = -1 } };
	static const struct wp_instance nab[] = { { .name = "new", .unique_id = -1 },
	                                          { .name = "a", .unique_id = -1 },
	                                          { .name = "b", .unique_id = -1 } };
	static const uint64_t v1[] = { 1000000, 5,   2000000, 6 };
	static const uint64_t v2[] = { 9000000, 1,   4000000, 7,   8000000, 8 };
	static const uint64_t v3[] = { 5000000, 9,   9000000, 10 };
	struct wp_snapshot s;
	uint32_t a6, b6;

	s = cpu_snapshot(100, ab, 2, v1);
	add(&s);
	a6 = must(0, 16, "a")->v.series;
	b6 = must(0, 16, "b")->v.series;
	s = cpu_snapshot(110, nab, 3, v2);
	add(&s);
	ck_assert_uint_eq(got[1].n, 5);  /* new has no window of counter 6 */
	ck_assert_ptr_null(find(1, 6, "new"));
	ck_assert_uint_eq(must(1, 16, "new")->v.w.n, 1);
	ck_assert_uint_eq(must(1, 6, "a")->v.w.n, 3000000);   /* 4,000,000 - 1,000,000 */
	ck_assert_uint_eq(must(1, 6, "b")->v.w.n, 6000000);   /* 8,000,000 - 2,000,000 */
	ck_assert_uint_eq(must(1, 6, "a")->v.w.d, 100000000); /* 10 s of 100 ns */
	ck_assert_uint_eq(must(1, 16, "a")->v.series, a6);
	ck_assert_uint_eq(must(1, 16, "b")->v.series, b6);
	ck_assert_uint_eq(must(1, 16, "b")->v.w.n, 8);
	/* and back to where they were */
	s = cpu_snapshot(120, ab, 2, v3);
	add(&s);
	ck_assert_uint_eq(must(2, 6, "a")->v.w.n, 1000000);   /* 5,000,000 - 4,000,000 */
	ck_assert_uint_eq(must(2, 6, "b")->v.w.n, 1000000);   /* 9,000,000 - 8,000,000 */
	ck_assert_uint_eq(must(2, 16, "a")->v.series, a6);
	ck_assert_uint_eq(wp_cook_resets(cook), 0);
}
END_TEST

/* Instances a and b, then b renamed c; the values of counters 6 and 16
 * of each at three snapshots. */
static const struct wp_instance renamed_ab[] = { { .name = "a", .unique_id = -1 },
                                                 { .name = "b", .unique_id = -1 } };
static const struct wp_instance renamed_ac[] = { { .name = "a", .unique_id = -1 },
                                                 { .name = "c", .unique_id = -1 } };
static const uint64_t renamed_v1[] = { 1000000, 5,   2000000, 6 };
static const uint64_t renamed_v2[] = { 3000000, 7,   9000000, 8 };
static const uint64_t renamed_v3[] = { 4000000, 9,   9500000, 10 };

/* An object of numbered definitions (block.h) at the same place: a row
 * whose instance was renamed is a new series, found through the index,
 * not the one at its place; the old name back is the old series, whose
 * previous sample is not the system's previous snapshot. */
START_TEST(renamed_instance_of_known_definitions)
{
	struct wp_snapshot s;
	uint32_t b16;

	s = cpu_snapshot(100, renamed_ab, 2, renamed_v1);
	cpu_obj.defs = 5;
	add(&s);
	b16 = must(0, 16, "b")->v.series;
	s = cpu_snapshot(110, renamed_ac, 2, renamed_v2);
	cpu_obj.defs = 5;
	add(&s);
	ck_assert_uint_eq(got[1].n, 3);  /* c is new: no window of counter 6 */
	ck_assert_ptr_null(find(1, 6, "c"));
	ck_assert_ptr_null(find(1, 6, "b"));
	ck_assert_uint_ne(must(1, 16, "c")->v.series, b16);
	ck_assert_uint_eq(must(1, 16, "c")->v.w.n, 8);
	ck_assert_uint_eq(must(1, 6, "a")->v.w.n, 2000000);   /* 3,000,000 - 1,000,000 */
	s = cpu_snapshot(120, renamed_ab, 2, renamed_v3);
	cpu_obj.defs = 5;
	add(&s);
	ck_assert_uint_eq(got[2].n, 3);  /* b's previous sample is two back */
	ck_assert_ptr_null(find(2, 6, "b"));
	ck_assert_uint_eq(must(2, 16, "b")->v.series, b16);
	ck_assert_uint_eq(must(2, 16, "b")->v.w.n, 10);
	ck_assert_uint_eq(must(2, 6, "a")->v.w.n, 1000000);   /* 4,000,000 - 3,000,000 */
	ck_assert_uint_eq(wp_cook_resets(cook), 0);
}
END_TEST

/* A snapshot whose names have the number of its system's previous one's
 * (block.h: then they are the same names, in the same order) is paired
 * place by place without comparing names: given other names under that
 * number, which no walk does, the cook trusts the number. Unnumbered
 * names (0) are compared, and so are those after them. */
START_TEST(names_numbered_as_before_are_not_compared)
{
	static const uint64_t v4[] = { 5000000, 11,  9900000, 12 };
	static const struct {
		const struct wp_instance *inst;
		const uint64_t *v;
		uint64_t names;
	} steps[] = { { renamed_ab, renamed_v1, 7 }, { renamed_ac, renamed_v2, 7 }, { renamed_ac, renamed_v3, 0 }, { renamed_ab, v4, 0 } };
	struct wp_snapshot s;

	for (size_t i = 0; i < 4; i++) {
		s = cpu_snapshot(100 + 10 * (int64_t)i, steps[i].inst, 2, steps[i].v);
		cpu_obj.defs = 5;
		s.names = steps[i].names;
		add(&s);
	}
	/* numbered as before: the second row is b's, its window 9,000,000 -
	 * 2,000,000 */
	ck_assert_ptr_null(find(1, 16, "c"));
	ck_assert_uint_eq(must(1, 6, "b")->v.w.n, 7000000);
	/* unnumbered: c is a series of its own, without a previous sample */
	ck_assert_ptr_null(find(2, 6, "c"));
	ck_assert_uint_eq(must(2, 16, "c")->v.w.n, 10);
	/* and b again: its previous sample two back, no window */
	ck_assert_ptr_null(find(3, 16, "c"));
	ck_assert_ptr_null(find(3, 6, "b"));
	ck_assert_uint_eq(must(3, 16, "b")->v.w.n, 12);
	ck_assert_uint_eq(must(3, 6, "a")->v.w.n, 1000000);   /* 5,000,000 - 4,000,000 */
}
END_TEST

START_TEST(object_with_zero_instances_gives_nothing)
{
	static const uint64_t none[1] = { 0 };
	struct wp_snapshot s = cpu_snapshot(100, NULL, 0, none);

	add(&s);
	add(&s);
	ck_assert_uint_eq(ngot, 0);
	ck_assert_uint_eq(nempty, 2);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* A cook from a cut of a file (--jobs), primed with each system's
 * snapshot before the cut */

/* Frames a and b alike, but for their series' numbers (each cook has its
 * own). */
static void
same_frame(size_t a, size_t b)
{
	ck_assert_uint_eq(got[a].source, got[b].source);
	ck_assert_int_eq(got[a].start, got[b].start);
	ck_assert_int_eq(got[a].end, got[b].end);
	ck_assert_uint_eq(got[a].n, got[b].n);
	for (size_t i = 0; i < got[a].n; i++) {
		const struct got_value *x = &got[a].v[i], *y = &got[b].v[i];
		ck_assert(x->v.two == y->v.two && x->v.reset == y->v.reset);
		ck_assert(memcmp(&x->v.w, &y->v.w, sizeof x->v.w) == 0);
		ck_assert_uint_eq(x->counter, y->counter);
		ck_assert_str_eq(x->instance, y->instance);
	}
}

START_TEST(primed_cook_pairs_as_one_reading)
{
	static const uint64_t b1[NSYS] = { 5000, 100, 10, 1, 1, 2, 0, 0, 0, 0 };
	static const uint64_t b2[NSYS] = { 5090, 200, 20, 2, 1, 2, 0, 0, 0, 0 };
	static const uint64_t b3[NSYS] = { 5200, 300, 30, 3, 2, 4, 0, 0, 0, 0 };
	static const uint64_t v3[NSYS] = { 1700, 7600000, 1600, 44, 50, 200, 2000, 500, 3000, 9 };
	struct wp_cook *primed;
	struct wp_snapshot s;
	size_t cut;

	/* one reading: A B A B | A (rebooted: PerfTime back) B */
	s = sys_snapshot("SYSA", 1000, sys_v1, 30000000, 132289256439880000ULL, 5000);
	add(&s);
	s = sys_snapshot("SYSB", 1005, b1, 900, 1000, 50);
	add(&s);
	s = sys_snapshot("SYSA", 1015, sys_v2, 75000000, 132289256589880000ULL, 7000);
	add(&s);
	s = sys_snapshot("SYSB", 1020, b2, 300900, 1500000, 80);
	add(&s);
	cut = ngot;
	s = sys_snapshot("SYSA", 1030, v3, 3000000, 132289256739880000ULL, 9000);
	add(&s);
	s = sys_snapshot("SYSB", 1035, b3, 600900, 2000000, 110);
	add(&s);
	ck_assert_uint_eq(ngot, cut + 2);
	ck_assert_uint_eq(wp_cook_resets(cook), 4);  /* SYSA's four two-sample types */

	/* from the cut: primed with the second A and B, which give nothing */
	ck_assert(wp_cook_open(&primed, &src, NULL, capture, got) == PM_OK);
	s = sys_snapshot("SYSA", 1015, sys_v2, 75000000, 132289256589880000ULL, 7000);
	ck_assert(wp_cook_prime(primed, &s) == PM_OK);
	s = sys_snapshot("SYSB", 1020, b2, 300900, 1500000, 80);
	ck_assert(wp_cook_prime(primed, &s) == PM_OK);
	ck_assert_uint_eq(ngot, cut + 2);
	ck_assert_uint_eq(nempty, 0);
	s = sys_snapshot("SYSA", 1030, v3, 3000000, 132289256739880000ULL, 9000);
	add_to(primed, &s);
	s = sys_snapshot("SYSB", 1035, b3, 600900, 2000000, 110);
	add_to(primed, &s);
	ck_assert_uint_eq(ngot, cut + 4);
	/* paired with the primed ones, as with the reading's */
	ck_assert_int_eq(got[cut + 2].start, 1015 * S);
	ck_assert_int_eq(got[cut + 3].start, 1020 * S);
	ck_assert_uint_eq(must(cut + 3, 10, "")->v.w.n, 110);   /* 5200 - 5090 */
	same_frame(cut, cut + 2);
	same_frame(cut + 1, cut + 3);
	ck_assert_uint_eq(wp_cook_resets(primed), 4);

	/* a primed snapshot whose clock went back counts no reset: its
	 * windows are the range's before */
	s = sys_snapshot("SYSA", 1020, sys_v1, 1000, 132289256439880000ULL, 5000);
	ck_assert(wp_cook_prime(primed, &s) == PM_OK);
	ck_assert_uint_eq(wp_cook_resets(primed), 4);
	ck_assert_uint_eq(ngot, cut + 4);
	wp_cook_close(primed);
}
END_TEST

Suite *
unit_suite(void)
{
	Suite *s = suite_create("cook");
	TCase *tc = tcase_create("Core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, first_snapshot_one_sample_values);
	tcase_add_test(tc, second_snapshot_windows_by_time_base);
	tcase_add_test(tc, names_without_table_are_indexes);
	tcase_add_test(tc, time_back_resets_every_window);
	tcase_add_test(tc, system_time_back_resets);
	tcase_add_test(tc, two_systems_keep_their_own_state);
	tcase_add_test(tc, four_byte_wrap_and_64_bit_reset);
	tcase_add_test(tc, four_byte_large_jump_is_no_wrap);
	tcase_add_test(tc, new_instance_has_no_window);
	tcase_add_test(tc, moved_instances_keep_their_series);
	tcase_add_test(tc, renamed_instance_of_known_definitions);
	tcase_add_test(tc, names_numbered_as_before_are_not_compared);
	tcase_add_test(tc, object_with_zero_instances_gives_nothing);
	tcase_add_test(tc, primed_cook_pairs_as_one_reading);
	suite_add_tcase(s, tc);
	return s;
}
