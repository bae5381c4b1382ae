/* check_series_report.c: series reports (series_report.h) fed with series
 * frames made here by hand: the average function of a group, min, max and
 * samples, resets counted out, rows in first-appearance order, by interval
 * and by hour, --source, --from and --to, and rows per instance with
 * counters named by index and by the reader's names. Definitions are read
 * without a schema (a series report needs none). Every expected figure is
 * worked out by hand in the comment beside it. */
#include "check_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "core/diag.h"
#include "core/sources.h"
#include "frame/series.h"
#include "out/cell.h"
#include "pmim/pmtime.h"
#include "report/report.h"
#include "report/report_text.h"
#include "report/rptdef.h"
#include "report/series_report.h"

static struct sources src;
static struct rpt_def def;
static struct diag diag;

/* ---------------------------------------------------------------------- */
/* Reports */

static struct report_opts
opts(enum report_by by)
{
	return (struct report_opts){ .by = by, .from = INT64_MIN, .to = INT64_MAX,
	                             .max_groups = 100000, .max_sources = 16 };
}

static struct series_report *
open_with(const char *text, const struct report_opts *o)
{
	char err[256];
	struct series_report *r;
	pm_status st;

	/* no schema: a series definition names no figure */
	st = rptdef_parse(&def, "test", text, "test.rpt", NULL, err, sizeof err);
	ck_assert_msg(st == PM_OK, "%s", err);
	ck_assert(rpt_is_series(&def));
	st = series_report_open(&r, &def, &src, o, capture_sink(), &diag);
	ck_assert_msg(r != NULL, "series_report_open: %s", pm_status_name(st));
	return r;
}

static struct series_report *
open_by(const char *text, enum report_by by)
{
	struct report_opts o = opts(by);

	return open_with(text, &o);
}

static void
finish(struct series_report *r)
{
	struct report_meta m = { 0 };

	ck_assert(series_report_finish(r, &m) == PM_OK);
	ck_assert(cap.ended);
	ck_assert_uint_eq(cap.total, cap.nrows);  /* every row kept */
	series_report_close(r);
}

static int64_t
at(const char *when)
{
	int64_t s;

	ck_assert(pmtime_parse(when, &s) == PM_OK);
	return s;
}

static uint32_t
source_id(const char *name)
{
	uint32_t id;

	ck_assert(sources_intern(&src, name, strlen(name), &id) == PM_OK);
	return id;
}

/* ---------------------------------------------------------------------- */
/* Series and frames */

#define MAX_SERIES 16
static struct series cat[MAX_SERIES];

static void
series_at(uint32_t i, const char *system, uint32_t object, const char *object_name,
          uint32_t counter, const char *counter_name, const char *instance,
          enum counter_type type)
{
	ck_assert_uint_lt(i, MAX_SERIES);
	cat[i] = (struct series){ .source = source_id(system), .object = object,
	                          .counter = counter, .object_name = object_name,
	                          .counter_name = counter_name, .instance = instance,
	                          .type = type };
}

/* A window of a two-sample type: dN, dD, TB. */
static struct series_value
two(uint32_t series, uint64_t n, uint64_t d, uint64_t tb)
{
	return (struct series_value){ .series = series, .two = true,
	                              .w = { .n = n, .d = d, .tb = tb } };
}

/* A reset window: garbage figures, which must not count. */
static struct series_value
reset(uint32_t series)
{
	return (struct series_value){ .series = series, .two = true, .reset = true,
	                              .w = { .n = 999999, .d = 1, .tb = 1000 } };
}

/* A sample of a one-sample type: N. */
static struct series_value
one(uint32_t series, uint64_t n)
{
	return (struct series_value){ .series = series, .w = { .n = n } };
}

static void
feed(struct series_report *r, const char *system, const char *start, const char *end,
     const struct series_value *v, size_t n)
{
	struct series_frame f = { .source = source_id(system), .start = at(start),
	                          .end = at(end), .v = v, .n = n, .catalogue = cat };

	series_report_frame(&f, r);
}

#define FEED(r, sys, start, end, ...)                                                  \
	do {                                                                           \
		const struct series_value v_[] = { __VA_ARGS__ };                      \
		feed(r, sys, start, end, v_, sizeof v_ / sizeof v_[0]);                \
	} while (0)

static const char perf_def[] =
	"rows counter\n"
	"column object   text=object\n"
	"column instance text=instance\n"
	"column counter  text=counter\n"
	"column type     text=type\n"
	"column samples  show=samples\n"
	"column value    show=value decimals=3\n"
	"column min      show=min decimals=3\n"
	"column max      show=max decimals=3\n";

static void
setup(void)
{
	ck_assert(sources_init(&src, 16) == PM_OK);
	diag_init(&diag, "check_series_report", NULL);
	memset(cat, 0, sizeof cat);
	/* 0: a rate, 1, 2: raw counts */
	series_at(0, "SYSA", 2, "System", 10, "Context Switches/sec", "",
	          CT_PERF_COUNTER_COUNTER);
	series_at(1, "SYSA", 2, "System", 16, "Processes", "", CT_PERF_COUNTER_RAWCOUNT);
	series_at(2, "SYSA", 2, "System", 18, "Threads", "", CT_PERF_COUNTER_RAWCOUNT);
	series_at(3, "SYSB", 2, "System", 10, "Context Switches/sec", "",
	          CT_PERF_COUNTER_COUNTER);
}

static void
teardown(void)
{
	sources_free(&src);
}

START_TEST(series_defs_parse_without_schema)
{
	const char *texts[] = { perf_rpt, win_cpu_rpt, win_disk_rpt };
	char err[256];

	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		ck_assert_msg(rptdef_parse(&def, "t", texts[i], "t.rpt", NULL, err,
		                           sizeof err) == PM_OK, "%s", err);
		ck_assert(rpt_is_series(&def));
	}
	ck_assert_int_eq(def.rows, ROWS_INSTANCE);
}
END_TEST

START_TEST(total_is_the_average_function)
{
	struct series_report *r = open_by(perf_def, BY_TOTAL);

	/* PerfFreq 1,000: 300 in 1 s, then 100 in 3 s */
	FEED(r, "SYSA", "2025-03-03 10:00:00", "2025-03-03 10:00:01", two(0, 300, 1000, 1000));
	FEED(r, "SYSA", "2025-03-03 10:00:01", "2025-03-03 10:00:04", two(0, 100, 3000, 1000));
	finish(r);
	ck_assert_str_eq(cap.header, "source,period_start,period_end,object,instance,"
	                 "counter,type,samples,value,min,max");
	ck_assert_uint_eq(cap.nrows, 1);
	ck_assert_str_eq(cell(0, "source"), "SYSA");
	/* the span of the values: the first window's start, the last's end */
	ck_assert_str_eq(cell(0, "period_start"), "2025-03-03 10:00:00.000");
	ck_assert_str_eq(cell(0, "period_end"), "2025-03-03 10:00:04.000");
	ck_assert_str_eq(cell(0, "object"), "System");
	ck_assert_str_eq(cell(0, "instance"), "");
	ck_assert_str_eq(cell(0, "counter"), "Context Switches/sec");
	ck_assert_str_eq(cell(0, "type"), "PERF_COUNTER_COUNTER");
	ck_assert_str_eq(cell(0, "samples"), "2");
	/* (300 + 100) / ((1000 + 3000) / 1000) = 400 / 4 s = 100/s, not the
	 * mean of the rates (300 + 33.333) / 2 = 166.667 */
	ck_assert_str_eq(cell(0, "value"), "100.000");
	ck_assert_str_eq(cell(0, "min"), "33.333");   /* 100 / 3 s */
	ck_assert_str_eq(cell(0, "max"), "300.000");  /* 300 / 1 s */
}
END_TEST

START_TEST(reset_window_is_counted_out)
{
	struct series_report *r = open_by(perf_def, BY_TOTAL);

	FEED(r, "SYSA", "2025-03-03 10:00:00", "2025-03-03 10:00:01", two(0, 300, 1000, 1000));
	FEED(r, "SYSA", "2025-03-03 10:00:01", "2025-03-03 10:00:02", reset(0));
	FEED(r, "SYSA", "2025-03-03 10:00:02", "2025-03-03 10:00:05", two(0, 100, 3000, 1000));
	finish(r);
	ck_assert_uint_eq(cap.nrows, 1);
	/* three windows, one without a value: 2 samples, and the reset's
	 * 999999 in 1 ms neither in the value nor in the maximum */
	ck_assert_str_eq(cell(0, "samples"), "2");
	ck_assert_str_eq(cell(0, "value"), "100.000");   /* 400 / 4 s */
	ck_assert_str_eq(cell(0, "max"), "300.000");
	ck_assert_str_eq(cell(0, "min"), "33.333");
}
END_TEST

START_TEST(only_resets_have_no_value)
{
	struct series_report *r = open_by(perf_def, BY_TOTAL);

	FEED(r, "SYSA", "2025-03-03 10:00:00", "2025-03-03 10:00:01", reset(0));
	finish(r);
	ck_assert_uint_eq(cap.nrows, 1);
	ck_assert_str_eq(cell(0, "samples"), "0");
	ck_assert_str_eq(cell(0, "value"), "");
	ck_assert_str_eq(cell(0, "min"), "");
	ck_assert_str_eq(cell(0, "max"), "");
}
END_TEST

START_TEST(rows_in_first_appearance_order)
{
	struct series_report *r = open_by(perf_def, BY_TOTAL);

	/* Threads first, then Processes; SYSB's rate; then SYSA's rate */
	FEED(r, "SYSA", "2025-03-03 10:00:00", "2025-03-03 10:00:00", one(2, 10), one(1, 3));
	FEED(r, "SYSB", "2025-03-03 10:00:00", "2025-03-03 10:00:02", two(3, 50, 2000, 1000));
	FEED(r, "SYSA", "2025-03-03 10:00:00", "2025-03-03 10:00:01",
	     two(0, 300, 1000, 1000), one(1, 5), one(2, 20));
	finish(r);
	ck_assert_uint_eq(cap.nrows, 4);
	ck_assert_str_eq(cell(0, "counter"), "Threads");
	ck_assert_str_eq(cell(0, "source"), "SYSA");
	ck_assert_str_eq(cell(0, "value"), "15.000");      /* (10 + 20) / 2 */
	ck_assert_str_eq(cell(0, "min"), "10.000");
	ck_assert_str_eq(cell(0, "max"), "20.000");
	ck_assert_str_eq(cell(1, "counter"), "Processes");
	ck_assert_str_eq(cell(1, "value"), "4.000");       /* (3 + 5) / 2 */
	ck_assert_str_eq(cell(1, "type"), "PERF_COUNTER_RAWCOUNT");
	ck_assert_str_eq(cell(2, "source"), "SYSB");
	ck_assert_str_eq(cell(2, "value"), "25.000");      /* 50 / 2 s */
	ck_assert_str_eq(cell(3, "source"), "SYSA");
	ck_assert_str_eq(cell(3, "counter"), "Context Switches/sec");
	ck_assert_str_eq(cell(3, "value"), "300.000");     /* 300 / 1 s */
}
END_TEST

START_TEST(by_interval_row_per_value_per_frame)
{
	struct series_report *r = open_by(perf_def, BY_INTERVAL);

	FEED(r, "SYSA", "2025-03-03 10:00:00", "2025-03-03 10:00:01",
	     two(0, 300, 1000, 1000), one(1, 42));
	/* written when the frame is done, not at the end */
	ck_assert_uint_eq(cap.nrows, 2);
	FEED(r, "SYSA", "2025-03-03 10:00:01", "2025-03-03 10:00:04",
	     two(0, 100, 3000, 1000), one(1, 43));
	ck_assert_uint_eq(cap.nrows, 4);
	finish(r);
	ck_assert_uint_eq(cap.nrows, 4);
	/* a window: from the frame's start to its end */
	ck_assert_str_eq(cell(0, "counter"), "Context Switches/sec");
	ck_assert_str_eq(cell(0, "period_start"), "2025-03-03 10:00:00.000");
	ck_assert_str_eq(cell(0, "period_end"), "2025-03-03 10:00:01.000");
	ck_assert_str_eq(cell(0, "value"), "300.000");
	ck_assert_str_eq(cell(0, "samples"), "1");
	/* a sample: its own time, the frame's end, at both */
	ck_assert_str_eq(cell(1, "counter"), "Processes");
	ck_assert_str_eq(cell(1, "period_start"), "2025-03-03 10:00:01.000");
	ck_assert_str_eq(cell(1, "period_end"), "2025-03-03 10:00:01.000");
	ck_assert_str_eq(cell(1, "value"), "42.000");
	ck_assert_str_eq(cell(2, "period_start"), "2025-03-03 10:00:01.000");
	ck_assert_str_eq(cell(2, "period_end"), "2025-03-03 10:00:04.000");
	ck_assert_str_eq(cell(2, "value"), "33.333");      /* 100 / 3 s */
	ck_assert_str_eq(cell(3, "period_start"), "2025-03-03 10:00:04.000");
	ck_assert_str_eq(cell(3, "period_end"), "2025-03-03 10:00:04.000");
	ck_assert_str_eq(cell(3, "value"), "43.000");
}
END_TEST

START_TEST(by_hour_window_in_hour_of_earlier_sample)
{
	struct series_report *r = open_by(perf_def, BY_HOUR);

	/* 10:59:50 to 11:00:05: the window is 10:00's, the sample 11:00's */
	FEED(r, "SYSA", "2025-03-03 10:59:50", "2025-03-03 11:00:05",
	     two(0, 1500, 15000, 1000), one(1, 7));
	FEED(r, "SYSA", "2025-03-03 11:00:05", "2025-03-03 11:00:20",
	     two(0, 3000, 15000, 1000), one(1, 9));
	finish(r);
	ck_assert_uint_eq(cap.nrows, 3);
	ck_assert_str_eq(cell(0, "counter"), "Context Switches/sec");
	ck_assert_str_eq(cell(0, "period_start"), "2025-03-03 10:00:00.000");
	ck_assert_str_eq(cell(0, "period_end"), "2025-03-03 11:00:00.000");
	ck_assert_str_eq(cell(0, "value"), "100.000");     /* 1500 / 15 s */
	ck_assert_str_eq(cell(1, "counter"), "Processes");
	ck_assert_str_eq(cell(1, "period_start"), "2025-03-03 11:00:00.000");
	ck_assert_str_eq(cell(1, "period_end"), "2025-03-03 12:00:00.000");
	ck_assert_str_eq(cell(1, "value"), "8.000");       /* (7 + 9) / 2 */
	ck_assert_str_eq(cell(1, "samples"), "2");
	ck_assert_str_eq(cell(2, "counter"), "Context Switches/sec");
	ck_assert_str_eq(cell(2, "period_start"), "2025-03-03 11:00:00.000");
	ck_assert_str_eq(cell(2, "value"), "200.000");     /* 3000 / 15 s */
}
END_TEST

START_TEST(source_selection)
{
	static const char *const keep[] = { "SYSB" };
	struct report_opts o = opts(BY_TOTAL);
	struct series_report *r;

	o.sources = keep;
	o.nsources = 1;
	r = open_with(perf_def, &o);
	FEED(r, "SYSA", "2025-03-03 10:00:00", "2025-03-03 10:00:01", two(0, 300, 1000, 1000));
	FEED(r, "SYSB", "2025-03-03 10:00:00", "2025-03-03 10:00:02", two(3, 50, 2000, 1000));
	FEED(r, "SYSA", "2025-03-03 10:00:01", "2025-03-03 10:00:02", one(1, 4));
	finish(r);
	ck_assert_uint_eq(cap.nrows, 1);
	ck_assert_str_eq(cell(0, "source"), "SYSB");
	ck_assert_str_eq(cell(0, "value"), "25.000");      /* 50 / 2 s */
}
END_TEST

START_TEST(from_to_selection_by_value_time)
{
	struct report_opts o = opts(BY_TOTAL);
	struct series_report *r;

	o.from = at("2025-03-03 10:00:01");
	o.to = at("2025-03-03 10:00:05");
	r = open_with(perf_def, &o);
	/* windows at their start: 10:00:00 out, 10:00:01 and 10:00:04 in;
	 * samples at the frame's end: 10:00:01 and 10:00:04 in, 10:00:05 out
	 * (--to is not included) */
	FEED(r, "SYSA", "2025-03-03 10:00:00", "2025-03-03 10:00:01",
	     two(0, 300, 1000, 1000), one(1, 10));
	FEED(r, "SYSA", "2025-03-03 10:00:01", "2025-03-03 10:00:04",
	     two(0, 100, 3000, 1000), one(1, 20));
	FEED(r, "SYSA", "2025-03-03 10:00:04", "2025-03-03 10:00:05",
	     two(0, 500, 1000, 1000), one(1, 90));
	finish(r);
	ck_assert_uint_eq(cap.nrows, 2);
	/* rows in the order their first kept value came: Processes (at
	 * 10:00:01) in frame 1, the window only from frame 2 */
	ck_assert_str_eq(cell(0, "counter"), "Processes");
	ck_assert_str_eq(cell(0, "samples"), "2");
	ck_assert_str_eq(cell(0, "value"), "15.000");      /* (10 + 20) / 2 */
	ck_assert_str_eq(cell(1, "counter"), "Context Switches/sec");
	ck_assert_str_eq(cell(1, "samples"), "2");
	/* (100 + 500) / ((3000 + 1000) / 1000) = 600 / 4 s */
	ck_assert_str_eq(cell(1, "value"), "150.000");
	ck_assert_str_eq(cell(1, "period_start"), "2025-03-03 10:00:01.000");
	ck_assert_str_eq(cell(1, "period_end"), "2025-03-03 10:00:05.000");
}
END_TEST

/* ---------------------------------------------------------------------- */
/* rows instance */

static const char cpu_def[] =
	"rows instance\n"
	"object Processor\n"
	"column instance text=instance\n"
	"column busy     counter=\"% Processor Time\" decimals=2\n"
	"column peak     counter=\"% Processor Time\" show=max decimals=2\n"
	"column user     counter=142 decimals=2\n"
	"column intr     counter=\"Interrupts/sec\" decimals=1\n"
	"column samples  counter=\"% Processor Time\" show=samples\n";

/* The reader's English names, as --perf-names would give them. */
static bool
english(const char *name, uint32_t number, const void *ctx)
{
	ck_assert_ptr_eq(ctx, cat);
	return (strcmp(name, "Processor") == 0 && number == 238) ||
	       (strcmp(name, "% Processor Time") == 0 && number == 6) ||
	       (strcmp(name, "Interrupts/sec") == 0 && number == 148);
}

/* Processor series as a reader without a names table makes them: names
 * are the decimal indexes. */
static void
cpu_series(void)
{
	series_at(4, "SYSA", 238, "238", 6, "6", "1", CT_PERF_100NSEC_TIMER_INV);
	series_at(5, "SYSA", 238, "238", 142, "142", "1", CT_PERF_100NSEC_TIMER);
	series_at(6, "SYSA", 238, "238", 148, "148", "1", CT_PERF_COUNTER_COUNTER);
	series_at(7, "SYSA", 238, "238", 6, "6", "0", CT_PERF_100NSEC_TIMER_INV);
	series_at(8, "SYSA", 238, "238", 142, "142", "0", CT_PERF_100NSEC_TIMER);
	series_at(9, "SYSA", 238, "238", 148, "148", "0", CT_PERF_COUNTER_COUNTER);
	/* another object's counter 6, and a counter no column shows */
	series_at(10, "SYSA", 2, "2", 6, "6", "", CT_PERF_100NSEC_TIMER_INV);
	series_at(11, "SYSA", 238, "238", 999, "999", "0", CT_PERF_COUNTER_RAWCOUNT);
}

static void
cpu_frames(struct series_report *r)
{
	/* instance 1: idle 7e6 of 1e7 (busy 30%), then 29e6 of 3e7 (3.333%);
	 * user 2e6 of 1e7, then 1e6 of 3e7; interrupts 500 in 1 s, 1500 in 3 s.
	 * instance 0: one window, idle 5e6 of 1e7, no user time, 100 in 1 s */
	FEED(r, "SYSA", "2025-03-03 10:00:00", "2025-03-03 10:00:01",
	     two(4, 7000000, 10000000, 10000000), two(5, 2000000, 10000000, 10000000),
	     two(6, 500, 1000, 1000), two(10, 0, 10000000, 10000000),
	     two(7, 5000000, 10000000, 10000000), two(8, 0, 10000000, 10000000),
	     two(9, 100, 1000, 1000), one(11, 77));
	FEED(r, "SYSA", "2025-03-03 10:00:01", "2025-03-03 10:00:04",
	     two(4, 29000000, 30000000, 10000000), two(5, 1000000, 30000000, 10000000),
	     two(6, 1500, 3000, 1000), two(10, 0, 30000000, 10000000));
}

START_TEST(rows_instance_by_name_is)
{
	struct report_opts o = opts(BY_TOTAL);
	struct series_report *r;

	o.name_is = english;
	o.name_ctx = cat;
	cpu_series();
	r = open_with(cpu_def, &o);
	cpu_frames(r);
	finish(r);
	ck_assert_str_eq(cap.header, "source,period_start,period_end,instance,busy,peak,"
	                 "user,intr,samples");
	/* instance 1 first, as it came; object 2 and counter 999 left out */
	ck_assert_uint_eq(cap.nrows, 2);
	ck_assert_str_eq(cell(0, "source"), "SYSA");
	ck_assert_str_eq(cell(0, "instance"), "1");
	ck_assert_str_eq(cell(0, "period_start"), "2025-03-03 10:00:00.000");
	ck_assert_str_eq(cell(0, "period_end"), "2025-03-03 10:00:04.000");
	/* 100 x (1 - (7e6 + 29e6) / (1e7 + 3e7)) = 100 x (1 - 0.9) */
	ck_assert_str_eq(cell(0, "busy"), "10.00");
	ck_assert_str_eq(cell(0, "peak"), "30.00");       /* 100 x (1 - 0.7) */
	/* counter=142 by its number: 100 x 3e6 / 4e7 */
	ck_assert_str_eq(cell(0, "user"), "7.50");
	ck_assert_str_eq(cell(0, "intr"), "500.0");       /* 2000 / 4 s */
	ck_assert_str_eq(cell(0, "samples"), "2");
	ck_assert_str_eq(cell(1, "instance"), "0");
	ck_assert_str_eq(cell(1, "busy"), "50.00");       /* 100 x (1 - 0.5) */
	ck_assert_str_eq(cell(1, "peak"), "50.00");
	ck_assert_str_eq(cell(1, "user"), "0.00");
	ck_assert_str_eq(cell(1, "intr"), "100.0");       /* 100 / 1 s */
	ck_assert_str_eq(cell(1, "samples"), "1");
	ck_assert_str_eq(cell(1, "period_end"), "2025-03-03 10:00:01.000");
}
END_TEST

START_TEST(rows_instance_without_names_matches_nothing)
{
	struct series_report *r;

	cpu_series();
	r = open_by(cpu_def, BY_TOTAL);   /* "Processor" is not "238" */
	cpu_frames(r);
	finish(r);
	ck_assert_uint_eq(cap.nrows, 0);
}
END_TEST

START_TEST(rows_instance_by_decimal_index)
{
	struct series_report *r;

	cpu_series();
	r = open_by("rows instance\n"
	            "object 238\n"
	            "column instance text=instance\n"
	            "column busy counter=6 decimals=2\n"
	            "column intr counter=148 decimals=1\n", BY_TOTAL);
	cpu_frames(r);
	finish(r);
	ck_assert_uint_eq(cap.nrows, 2);
	ck_assert_str_eq(cell(0, "instance"), "1");
	ck_assert_str_eq(cell(0, "busy"), "10.00");       /* as above */
	ck_assert_str_eq(cell(0, "intr"), "500.0");
	ck_assert_str_eq(cell(1, "instance"), "0");
	ck_assert_str_eq(cell(1, "busy"), "50.00");
}
END_TEST

START_TEST(rows_counter_of_one_object)
{
	struct series_report *r;

	cpu_series();
	r = open_by("rows counter\n"
	            "object 2\n"
	            "column counter text=counter\n"
	            "column instance text=instance\n"
	            "column busy show=value decimals=2\n", BY_TOTAL);
	cpu_frames(r);
	finish(r);
	/* only series 10, object 2's: idle 0 of 4e7, 100% busy */
	ck_assert_uint_eq(cap.nrows, 1);
	ck_assert_str_eq(cell(0, "counter"), "6");
	ck_assert_str_eq(cell(0, "instance"), "");
	ck_assert_str_eq(cell(0, "busy"), "100.00");
}
END_TEST

Suite *
unit_suite(void)
{
	Suite *s = suite_create("series_report");
	TCase *tc = tcase_create("Core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, series_defs_parse_without_schema);
	tcase_add_test(tc, total_is_the_average_function);
	tcase_add_test(tc, reset_window_is_counted_out);
	tcase_add_test(tc, only_resets_have_no_value);
	tcase_add_test(tc, rows_in_first_appearance_order);
	tcase_add_test(tc, by_interval_row_per_value_per_frame);
	tcase_add_test(tc, by_hour_window_in_hour_of_earlier_sample);
	tcase_add_test(tc, source_selection);
	tcase_add_test(tc, from_to_selection_by_value_time);
	tcase_add_test(tc, rows_instance_by_name_is);
	tcase_add_test(tc, rows_instance_without_names_matches_nothing);
	tcase_add_test(tc, rows_instance_by_decimal_index);
	tcase_add_test(tc, rows_counter_of_one_object);
	suite_add_tcase(s, tc);
	return s;
}
