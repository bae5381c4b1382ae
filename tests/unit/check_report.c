/* check_report.c: the report layer fed with intervals made here, through
 * the built-in definitions. Every expected figure is worked out by hand in
 * the comment beside it, from the raw values the test sets; none comes
 * from the code under test. */
#include "check_main.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "out/cell.h"
#include "report/metric.h"
#include "pmim/binding.h"
#include "pmim/pmint.h"
#include "pmim/pmtime.h"
#include "report/report.h"
#include "report/report_text.h"
#include "report/rptdef.h"

#define TOD_S UINT64_C(4096000000)   /* TOD units a second */

static struct pmint pm;
static struct schema *schema;
static struct sources src;
static struct rpt_def def;
static struct diag diag;

/* The row of bucket label among rows of a waits report, from row `from`. */
static size_t
bucket_row(size_t from, const char *label)
{
	for (size_t r = from; r < cap.nrows; r++)
		if (strcmp(cell(r, "bucket"), label) == 0)
			return r;
	ck_abort_msg("no row for %s", label);
	return 0;
}

/* ---------------------------------------------------------------------- */
/* Intervals */

static int
field(const char *name)
{
	int f = layout_field_index(&pm.lay, name);
	ck_assert_msg(f >= 0, "no field %s", name);
	return f;
}

static int64_t
at(const char *when)
{
	int64_t s;
	ck_assert(pmtime_parse(when, &s) == PM_OK);
	return s;
}

/* Figures for the intervals make() returns: more than a test holds at
 * once, taken in turn. */
#define FIGURE_SETS 8
static uint64_t figures[FIGURE_SETS][CB_MAX_FIELDS];
static unsigned next_figures;

/* An interval of source name from start to end, with every part, all
 * figures 0. */
static struct interval
make(const char *name, const char *start, const char *end)
{
	struct interval iv;
	uint32_t id;

	memset(&iv, 0, sizeof iv);
	iv.v = figures[next_figures++ % FIGURE_SETS];
	memset(iv.v, 0, sizeof figures[0]);
	ck_assert(sources_intern(&src, name, strlen(name), &id) == PM_OK);
	iv.source = id;
	iv.start = at(start);
	iv.end = at(end);
	iv.parts = 0xE;
	return iv;
}

static void
set(struct interval *iv, const char *name, uint64_t v)
{
	iv->v[field(name)] = v;
}

/* Hand iv to the report as the program does: as its frame. */
static void
add(const struct interval *iv, struct report *r)
{
	struct frame f;

	binding_frame_of(&f, iv);
	report_frame(&f, r);
}

static void
load(const char *text)
{
	char err[256];
	pm_status st = rptdef_parse(&def, "test", text, "test.rpt", schema, err, sizeof err);
	ck_assert_msg(st == PM_OK, "%s", err);
}

static struct report *
open_report(const char *text, enum report_by by)
{
	struct report_opts o = { .by = by, .from = INT64_MIN, .to = INT64_MAX,
	                         .max_groups = 100000, .max_sources = 16 };
	struct report *r;
	pm_status st;

	load(text);
	st = report_open(&r, &def, schema, &src, &o, capture_sink(), &diag);
	ck_assert_msg(r != NULL, "report_open: %s", pm_status_name(st));
	return r;
}

static void
finish(struct report *r)
{
	struct report_meta m = { 0 };
	ck_assert(report_finish(r, &m) == PM_OK);
	report_close(r);
}

static void
setup(void)
{
	char err[160];
	ck_assert(pmint_load(&pm, err, sizeof err) == PM_OK);
	ck_assert(binding_schema_open(&schema, &pm, err, sizeof err) == PM_OK);
	ck_assert(sources_init(&src, 16) == PM_OK);
	diag_init(&diag, "check_report", NULL);
}

static void
teardown(void)
{
	sources_free(&src);
	schema_close(schema);
}

/* ---------------------------------------------------------------------- */
/* waits */

START_TEST(waits_total_sums_over_sums)
{
	struct report *r = open_report(waits_rpt, BY_TOTAL);
	struct interval a = make("SYSA", "2025-03-03 10:00", "2025-03-03 10:15");
	struct interval b = make("SYSA", "2025-03-03 10:15", "2025-03-03 10:30");
	size_t row;

	set(&a, "INTDBIRT", 3000);  /* 0.3 s in 10 waits: 30 ms each */
	set(&a, "INTDBIRH", 100);
	set(&a, "INTDBIR#", 10);
	set(&b, "INTDBIRT", 1000);  /* 0.1 s in 30 waits: 3.333 ms each */
	set(&b, "INTDBIRH", 400);
	set(&b, "INTDBIR#", 30);
	set(&b, "INTDBIWT", 1000);  /* 0.1 s in 1 wait */
	set(&b, "INTDBIWH", 1000);
	set(&b, "INTDBIW#", 1);
	add(&a, r);
	add(&b, r);
	finish(r);
	ck_assert_str_eq(cap.header, "source,bucket,description,waits,total_wait_s,"
	                 "avg_wait_ms,peak_wait_ms,waits_per_s,pct_of_wait_time");
	ck_assert_uint_eq(cap.nrows, pm.lay.nbuckets);
	row = bucket_row(0, "INTDBIR");
	ck_assert_str_eq(cell(row, "source"), "SYSA");
	ck_assert_str_eq(cell(row, "description"), "DBIO READ WAIT");
	ck_assert_str_eq(cell(row, "waits"), "40");               /* 10 + 30 */
	ck_assert_str_eq(cell(row, "total_wait_s"), "0.400000");  /* 4000 e-4 s */
	/* 4000 / 40 = 100 e-4 s = 10 ms, not (30 + 3.333) / 2 */
	ck_assert_str_eq(cell(row, "avg_wait_ms"), "10.000");
	ck_assert_str_eq(cell(row, "peak_wait_ms"), "40.000");    /* 400 e-4 s */
	ck_assert_str_eq(cell(row, "waits_per_s"), "0.022");      /* 40 / 1800 s */
	/* 4000 of the 5000 e-4 s of all waits */
	ck_assert_str_eq(cell(row, "pct_of_wait_time"), "80.000");
	row = bucket_row(0, "INTDBIW");
	ck_assert_str_eq(cell(row, "avg_wait_ms"), "100.000");
	ck_assert_str_eq(cell(row, "pct_of_wait_time"), "20.000");
	/* a bucket with no waits: no average, zero elsewhere */
	row = bucket_row(0, "INTFCBX");
	ck_assert_str_eq(cell(row, "waits"), "0");
	ck_assert_str_eq(cell(row, "avg_wait_ms"), "");
	ck_assert_str_eq(cell(row, "pct_of_wait_time"), "0.000");
	ck_assert(!cap.marked[row]);
}
END_TEST

START_TEST(waits_missing_part_is_not_zero)
{
	struct report *r = open_report(waits_rpt, BY_TOTAL);
	struct interval a = make("SYSA", "2025-03-03 10:00", "2025-03-03 10:15");
	struct interval b = make("SYSA", "2025-03-03 10:15", "2025-03-03 10:30");
	size_t row;

	set(&a, "INTDBKYT", 900);   /* part 2: 0.09 s in 9 waits */
	set(&a, "INTDBKYH", 200);
	set(&a, "INTDBKY#", 9);
	b.parts = 0x2;              /* part 1 only */
	add(&a, r);
	add(&b, r);
	finish(r);
	row = bucket_row(0, "INTDBKY");
	/* 9 waits over the 900 s of the one interval that has part 2, not
	 * over 1800 s: 0.01 a second */
	ck_assert_str_eq(cell(row, "waits_per_s"), "0.010");
	ck_assert_str_eq(cell(row, "avg_wait_ms"), "10.000");
	ck_assert(cap.marked[row]);
}
END_TEST

START_TEST(waits_no_part_at_all_is_empty)
{
	struct report *r = open_report(waits_rpt, BY_TOTAL);
	struct interval a = make("SYSA", "2025-03-03 10:00", "2025-03-03 10:15");
	size_t row;

	a.parts = 0x2;
	add(&a, r);
	finish(r);
	row = bucket_row(0, "INTDBKY");
	ck_assert_str_eq(cell(row, "waits"), "");
	ck_assert_str_eq(cell(row, "total_wait_s"), "");
	ck_assert_str_eq(cell(row, "waits_per_s"), "");
	row = bucket_row(0, "INTDBIR");
	ck_assert_str_eq(cell(row, "waits"), "0");
	/* @wait_time needs parts 1 and 2: no share without part 2 */
	ck_assert_str_eq(cell(row, "pct_of_wait_time"), "");
}
END_TEST

START_TEST(rounding_is_exact_half_up)
{
	struct report *r = open_report(waits_rpt, BY_TOTAL);
	struct interval a = make("SYSA", "2025-03-03 10:00", "2025-03-03 10:15");

	set(&a, "INTDBIRT", 1);     /* 1 e-4 s in 8 waits: 0.0125 ms exactly */
	set(&a, "INTDBIR#", 8);
	set(&a, "INTDBIWT", 7);     /* 0.0007 s: 7 / 8 of all wait time */
	add(&a, r);
	finish(r);
	ck_assert_str_eq(cell(bucket_row(0, "INTDBIR"), "avg_wait_ms"), "0.013");
	/* 100 * 1 / 8 = 12.5 exactly; 100 * 7 / 8 = 87.5 */
	ck_assert_str_eq(cell(bucket_row(0, "INTDBIR"), "pct_of_wait_time"), "12.500");
	ck_assert_str_eq(cell(bucket_row(0, "INTDBIW"), "pct_of_wait_time"), "87.500");
}
END_TEST

/* ---------------------------------------------------------------------- */
/* cpu and tasks */

START_TEST(cpu_busy_leaves_out_missing_part_3)
{
	struct report *r = open_report(cpu_rpt, BY_TOTAL);
	struct interval a = make("SYSA", "2025-03-03 10:00", "2025-03-03 10:15");
	struct interval b = make("SYSA", "2025-03-03 10:15", "2025-03-03 10:30");

	set(&a, "INTSYTI", 90 * TOD_S);
	set(&a, "INTTTTI", 60 * TOD_S);
	set(&a, "INTCPTI", 21 * TOD_S);
	set(&a, "INTZPTI", 9 * TOD_S);
	set(&a, "INTENTI", 30 * TOD_S);
	set(&a, "INTUSTI", TOD_S / 2);   /* 0.5 s */
	set(&a, "INTTIMSY", 123456);     /* 12.3456 s */
	set(&a, "INTTIMUS", 1);
	b.parts = 0x6;                   /* no part 3 */
	set(&b, "INTTIMSY", 4);
	add(&a, r);
	add(&b, r);
	finish(r);
	ck_assert_str_eq(cap.header, "source,intervals,elapsed_s,cpu_s,tcb_s,srb_cp_s,"
	                 "srb_ziip_s,enclave_srb_s,part3_user_mode_s,part1_system_mode_s,"
	                 "part1_user_mode_s,cpu_busy_pct,ziip_busy_pct,ziip_share_pct");
	ck_assert_uint_eq(cap.nrows, 1);
	ck_assert_str_eq(cell(0, "intervals"), "2");
	ck_assert_str_eq(cell(0, "elapsed_s"), "1800.000000");
	ck_assert_str_eq(cell(0, "cpu_s"), "90.000000");
	ck_assert_str_eq(cell(0, "tcb_s"), "60.000000");
	ck_assert_str_eq(cell(0, "srb_cp_s"), "21.000000");
	ck_assert_str_eq(cell(0, "srb_ziip_s"), "9.000000");
	ck_assert_str_eq(cell(0, "enclave_srb_s"), "30.000000");
	ck_assert_str_eq(cell(0, "part3_user_mode_s"), "0.500000");
	ck_assert_str_eq(cell(0, "part1_system_mode_s"), "12.346000"); /* 123460 e-4 s */
	ck_assert_str_eq(cell(0, "part1_user_mode_s"), "0.000100");
	/* 90 s over the 900 s of the interval with part 3: 10 %, not 5 % */
	ck_assert_str_eq(cell(0, "cpu_busy_pct"), "10.000");
	ck_assert_str_eq(cell(0, "ziip_busy_pct"), "1.000");          /* 9 / 900 */
	ck_assert_str_eq(cell(0, "ziip_share_pct"), "10.000");        /* 9 / 90 */
	ck_assert(cap.marked[0]);
}
END_TEST

START_TEST(cpu_tod_rounds_exactly)
{
	struct report *r = open_report(cpu_rpt, BY_TOTAL);
	struct interval a = make("SYSA", "2025-03-03 10:00", "2025-03-03 10:15");

	/* 2048 TOD units = 0.5 us exactly: rounds up to 0.000001 */
	set(&a, "INTSYTI", 2048);
	add(&a, r);
	finish(r);
	ck_assert_str_eq(cell(0, "cpu_s"), "0.000001");
}
END_TEST

START_TEST(tasks_rate)
{
	struct report *r = open_report(tasks_rpt, BY_TOTAL);
	struct interval a = make("SYSA", "2025-03-03 10:00", "2025-03-03 10:15");
	struct interval b = make("SYSA", "2025-03-03 10:15", "2025-03-03 10:20");

	set(&a, "INT#TSTR", 900);
	set(&a, "INT#TEND", 899);
	set(&b, "INT#TSTR", 600);
	set(&b, "INT#TEND", 601);
	add(&a, r);
	add(&b, r);
	finish(r);
	ck_assert_str_eq(cap.header, "source,intervals,elapsed_s,tasks_started,"
	                 "tasks_ended,tasks_started_per_s");
	ck_assert_str_eq(cap.rows[0], "SYSA,2,1200.000000,1500,1500,1.250");
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Grouping and selection */

START_TEST(by_hour_by_start_time)
{
	struct report *r = open_report(tasks_rpt, BY_HOUR);
	struct interval a = make("SYSB", "2025-03-03 10:00", "2025-03-03 10:15");
	struct interval b = make("SYSB", "2025-03-03 10:45", "2025-03-03 11:15");
	struct interval c = make("SYSB", "2025-03-03 11:15", "2025-03-03 11:30");
	struct interval d = make("SYSA", "2025-03-03 23:30", "2025-03-04 00:00");

	set(&a, "INT#TSTR", 10);
	set(&b, "INT#TSTR", 20);
	set(&c, "INT#TSTR", 40);
	add(&c, r);    /* out of order: rows come sorted */
	add(&a, r);
	add(&b, r);
	add(&d, r);
	finish(r);
	ck_assert_uint_eq(cap.nrows, 3);
	/* SYSA sorts first; its hour ends at midnight of the next day */
	ck_assert_str_eq(cap.rows[0], "SYSA,2025-03-03 23:00:00,2025-03-04 00:00:00,"
	                 "1,1800.000000,0,0,0.000");
	/* b crosses 11:00 and counts whole in the hour it starts in:
	 * 900 + 1800 s, 30 tasks in 2700 s */
	ck_assert_str_eq(cap.rows[1], "SYSB,2025-03-03 10:00:00,2025-03-03 11:00:00,"
	                 "2,2700.000000,30,0,0.011");
	ck_assert_str_eq(cap.rows[2], "SYSB,2025-03-03 11:00:00,2025-03-03 12:00:00,"
	                 "1,900.000000,40,0,0.044");
}
END_TEST

START_TEST(by_day_and_interval)
{
	struct report *r = open_report(tasks_rpt, BY_DAY);
	struct interval a = make("SYSA", "2025-03-03 23:45", "2025-03-04 00:00");
	struct interval b = make("SYSA", "2025-03-04 00:00", "2025-03-04 00:15");

	add(&a, r);
	add(&b, r);
	finish(r);
	ck_assert_uint_eq(cap.nrows, 2);
	ck_assert_str_eq(cell(0, "period_start"), "2025-03-03 00:00:00");
	ck_assert_str_eq(cell(0, "period_end"), "2025-03-04 00:00:00");
	ck_assert_str_eq(cell(1, "period_start"), "2025-03-04 00:00:00");

	r = open_report(tasks_rpt, BY_INTERVAL);
	add(&b, r);   /* streamed: rows as they come */
	ck_assert_uint_eq(cap.nrows, 1);
	add(&a, r);
	finish(r);
	ck_assert_str_eq(cell(0, "period_start"), "2025-03-04 00:00:00");
	ck_assert_str_eq(cell(0, "period_end"), "2025-03-04 00:15:00");
	ck_assert_str_eq(cell(1, "period_start"), "2025-03-03 23:45:00");
}
END_TEST

START_TEST(selection)
{
	const char *keep[] = { "SYSB" };
	struct report_opts o = { .by = BY_TOTAL, .from = at("2025-03-03 10:15"),
	                         .to = at("2025-03-03 11:00"), .sources = keep,
	                         .nsources = 1, .complete_only = true,
	                         .max_groups = 100, .max_sources = 16 };
	struct interval iv[] = {
		make("SYSB", "2025-03-03 10:00", "2025-03-03 10:15"), /* before --from */
		make("SYSB", "2025-03-03 10:15", "2025-03-03 10:30"), /* kept */
		make("SYSB", "2025-03-03 10:30", "2025-03-03 10:45"), /* incomplete */
		make("SYSA", "2025-03-03 10:30", "2025-03-03 10:45"), /* other source */
		make("SYSB", "2025-03-03 10:45", "2025-03-03 11:00"), /* kept */
		make("SYSB", "2025-03-03 11:00", "2025-03-03 11:15"), /* at --to */
	};
	struct report_meta m = { 0 };
	struct report *r;

	load(tasks_rpt);
	ck_assert(report_open(&r, &def, schema, &src, &o, capture_sink(), &diag) == PM_OK);
	ck_assert(r != NULL);
	iv[2].parts = 0x6;
	for (size_t i = 0; i < sizeof iv / sizeof iv[0]; i++)
		add(&iv[i], r);
	ck_assert(report_finish(r, &m) == PM_OK);
	report_close(r);
	ck_assert_str_eq(cap.rows[0], "SYSB,2,1800.000000,0,0,0.000");
	ck_assert_uint_eq(m.intervals, 2);
	ck_assert_int_eq(m.first_start, at("2025-03-03 10:15"));
	ck_assert_int_eq(m.last_end, at("2025-03-03 11:00"));
}
END_TEST

/* What matched nothing: opts' selection over the n intervals iv; false,
 * or the line said, in out. */
static bool
matched_nothing(const struct report_opts *opts, const struct interval *iv,
                size_t n, const char *text, char out[256])
{
	struct report_opts o = *opts;
	struct report_meta m = { 0 };
	struct report *r;
	bool said;

	o.max_sources = 16;
	o.max_groups = o.max_groups ? o.max_groups : 100;
	load(text);
	ck_assert(report_open(&r, &def, schema, &src, &o, capture_sink(), &diag) == PM_OK);
	ck_assert(r != NULL);
	for (size_t i = 0; i < n; i++)
		add(&iv[i], r);
	ck_assert(report_finish(r, &m) == PM_OK);
	said = report_what_matched_nothing(r, out, 256);
	report_close(r);
	return said;
}

START_TEST(what_matched_nothing)
{
	const char *sysx[] = { "SYSX" }, *sysb[] = { "SYSB" }, *two[] = { "SYSX", "SYSY" };
	struct interval iv[] = {
		make("SYSA", "2025-03-03 09:00", "2025-03-03 09:15"),
		make("SYSB", "2025-03-03 10:15", "2025-03-03 10:30"),
	};
	struct report_opts o = { .by = BY_TOTAL, .from = INT64_MIN, .to = INT64_MAX };
	char why[256];

	/* nothing came, or something was reported: nothing to say */
	ck_assert(!matched_nothing(&o, iv, 0, tasks_rpt, why));
	ck_assert(!matched_nothing(&o, iv, 2, tasks_rpt, why));
	/* one selection alone keeps nothing: it is named */
	o.sources = sysx;
	o.nsources = 1;
	ck_assert(matched_nothing(&o, iv, 2, tasks_rpt, why));
	ck_assert_str_eq(why, "no interval of source SYSX");
	o.sources = two;
	o.nsources = 2;
	o.from = at("2025-03-04 00:00");
	ck_assert(matched_nothing(&o, iv, 2, tasks_rpt, why));
	ck_assert_str_eq(why, "no interval of sources SYSX, SYSY starting at or after "
	                 "--from=2025-03-04 00:00:00");
	/* each keeps some, together none: all are named */
	o.sources = sysb;
	o.nsources = 1;
	o.from = at("2025-03-03 08:00");
	o.to = at("2025-03-03 10:00");
	ck_assert(matched_nothing(&o, iv, 2, tasks_rpt, why));
	ck_assert_str_eq(why, "no interval of source SYSB starting between "
	                 "--from=2025-03-03 08:00:00 and --to=2025-03-03 10:00:00");
	o = (struct report_opts){ .by = BY_TOTAL, .from = INT64_MIN,
	                          .to = at("2025-03-03 09:00"), .complete_only = true };
	iv[0].parts = iv[1].parts = 0x6;
	ck_assert(matched_nothing(&o, iv, 2, tasks_rpt, why));
	ck_assert_str_eq(why, "no complete interval starting before --to=2025-03-03 09:00:00");
	/* selected, but a limit left them out: the limit says so */
	o = (struct report_opts){ .by = BY_TOTAL, .from = INT64_MIN, .to = INT64_MAX,
	                          .max_groups = 10 };
	ck_assert(!matched_nothing(&o, iv, 2, waits_rpt, why));
}
END_TEST

START_TEST(group_limit)
{
	struct report_opts o = { .by = BY_HOUR, .from = INT64_MIN, .to = INT64_MAX,
	                         .max_groups = 2, .max_sources = 16 };
	struct interval a = make("SYSA", "2025-03-03 10:00", "2025-03-03 10:15");
	struct interval b = make("SYSA", "2025-03-03 11:00", "2025-03-03 11:15");
	struct interval c = make("SYSA", "2025-03-03 12:00", "2025-03-03 12:15");
	struct report_meta m = { 0 };
	struct report *r;

	load(tasks_rpt);
	ck_assert(report_open(&r, &def, schema, &src, &o, capture_sink(), &diag) == PM_OK);
	add(&a, r);
	add(&b, r);
	add(&c, r);   /* a third group: left out, reported */
	add(&a, r);   /* an existing group still counts */
	ck_assert(report_finish(r, &m) == PM_OK);
	report_close(r);
	ck_assert_uint_eq(cap.nrows, 2);
	ck_assert_str_eq(cell(0, "intervals"), "2");
	ck_assert_uint_gt(diag.count[PM_E_GROUP_LIMIT], 0);
	ck_assert_int_eq(diag_exit_code(&diag), 8);
}
END_TEST

START_TEST(interleaved_sources_keep_their_groups)
{
	struct report *r = open_report(tasks_rpt, BY_TOTAL);
	struct interval a = make("SYSA", "2025-03-03 10:00", "2025-03-03 10:15");
	struct interval b = make("SYSB", "2025-03-03 10:00", "2025-03-03 10:15");

	set(&a, "INT#TSTR", 1);
	set(&b, "INT#TSTR", 10);
	/* the group of the frame before, another, then back */
	add(&a, r);
	add(&b, r);
	add(&a, r);
	add(&a, r);
	add(&b, r);
	finish(r);
	ck_assert_uint_eq(cap.nrows, 2);
	ck_assert_str_eq(cell(0, "source"), "SYSA");
	ck_assert_str_eq(cell(0, "intervals"), "3");
	ck_assert_str_eq(cell(0, "tasks_started"), "3");
	ck_assert_str_eq(cell(1, "source"), "SYSB");
	ck_assert_str_eq(cell(1, "intervals"), "2");
	ck_assert_str_eq(cell(1, "tasks_started"), "20");
}
END_TEST

START_TEST(many_groups_grow_the_index)
{
	struct report *r = open_report(tasks_rpt, BY_HOUR);

	for (int64_t h = 0; h < 3000; h++) {
		struct interval iv = make("SYSA", "2025-01-01 00:00", "2025-01-01 00:15");
		iv.start += h * 3600 * PM_UNITS_PER_SECOND;
		iv.end += h * 3600 * PM_UNITS_PER_SECOND;
		iv.v[field("INT#TSTR")] = (uint64_t)h;
		add(&iv, r);
		add(&iv, r);
	}
	finish(r);
	ck_assert_uint_eq(cap.total, 3000);
	/* hour 100 is 4 days and 4 hours on; 2 intervals of 100 tasks */
	ck_assert_str_eq(cell(100, "period_start"), "2025-01-05 04:00:00");
	ck_assert_str_eq(cell(100, "intervals"), "2");
	ck_assert_str_eq(cell(100, "tasks_started"), "200");
}
END_TEST

/* ---------------------------------------------------------------------- */
/* The intervals report, one row per interval */

START_TEST(intervals_row)
{
	struct report *r = open_report(intervals_rpt, BY_TOTAL);
	struct interval a = make("SYSA/IDMSCV01", "2025-03-03 10:00", "2025-03-03 10:15");

	a.parts = 0x6;               /* parts 1 and 2 */
	set(&a, "INT#TSTR", 7);
	set(&a, "INTTIMSY", 12345);  /* 1.2345 s */
	set(&a, "INTDBIRT", 25);     /* 2.5 ms in 2 waits: 1.25 ms each */
	set(&a, "INTDBIRH", 15);
	set(&a, "INTDBIR#", 2);
	add(&a, r);
	finish(r);
	ck_assert_str_eq(cell(0, "source"), "SYSA/IDMSCV01");
	ck_assert_str_eq(cell(0, "start"), "2025-03-03 10:00:00");
	ck_assert_str_eq(cell(0, "duration_s"), "900.000000");
	ck_assert_str_eq(cell(0, "parts"), "12");
	ck_assert_str_eq(cell(0, "tasks_started"), "7");
	ck_assert_str_eq(cell(0, "INTTIMSY_s"), "1.234500");
	ck_assert_str_eq(cell(0, "INTSYTI_s"), "");   /* part 3 missing */
	ck_assert_str_eq(cell(0, "INTDBIR_waits"), "2");
	ck_assert_str_eq(cell(0, "INTDBIR_total_s"), "0.002500");
	ck_assert_str_eq(cell(0, "INTDBIR_avg_ms"), "1.250");
	ck_assert_str_eq(cell(0, "INTDBIR_peak_ms"), "1.500");
	ck_assert_str_eq(cell(0, "INTDBIW_avg_ms"), "");  /* no waits */
	ck_assert_uint_eq(cap.ncols, 15 + 4 * pm.lay.nbuckets);
}
END_TEST

/* A row of one interval reads the usual types straight from the frame,
 * and through the engine where a product passes 64 bits: the figures are
 * the same either way. TOD seconds are N / 4096e6; wide and peak are
 * N / 4096 * 1000 = N * 125 / 512. */
static const char limits_rpt[] =
	"title Limits\n"
	"rows interval\n"
	"column tod_s type=PERF_COUNTER_LARGE_DELTA aggregate=total N=INTSYTI unit=s decimals=6\n"
	"column count type=PERF_COUNTER_DELTA aggregate=total N=INTDBIR#\n"
	"column wide type=PERF_COUNTER_LARGE_DELTA aggregate=total N=INTSYTI unit=us scale=1000 decimals=1\n"
	"column peak type=MAX N=INTSYTI unit=us scale=1000 decimals=1\n"
	"column share type=PERF_SAMPLE_FRACTION N=INTDBIR# B=INTDBIW# decimals=2\n"
	"column avg_us type=PERF_AVERAGE_TIMER N=INTSYTI B=INTDBIR# unit=us decimals=3\n";

START_TEST(interval_rows_at_the_limits)
{
	struct report *r = open_report(limits_rpt, BY_TOTAL);
	struct interval a = make("SYSA", "2025-03-03 10:00", "2025-03-03 10:15");
	struct interval b = make("SYSA", "2025-03-03 10:15", "2025-03-03 10:30");
	struct interval c = make("SYSA", "2025-03-03 10:30", "2025-03-03 10:45");

	set(&a, "INTSYTI", UINT64_MAX);
	set(&a, "INTDBIR#", 3);
	set(&a, "INTDBIW#", 9);
	add(&a, r);
	set(&b, "INTSYTI", UINT64_C(1) << 63);
	/* B 0: no share, no average */
	add(&b, r);
	set(&c, "INTSYTI", 3 * TOD_S);
	set(&c, "INTDBIR#", 8);
	set(&c, "INTDBIW#", 64);
	add(&c, r);
	finish(r);
	/* (2**64 - 1) / 4096e6 = 4503599627.370495999...; 100 * 3 / 9 */
	ck_assert_str_eq(cell(0, "tod_s"), "4503599627.370496");
	ck_assert_str_eq(cell(0, "count"), "3");
	ck_assert_str_eq(cell(0, "share"), "33.33");
	/* N * 10**6 passes 64 bits: (2**64 - 1) * 10**6 / (4096e6 * 3) us =
	 * (2**64 - 1) / 12288 = 1501199875790165.33325... */
	ck_assert_str_eq(cell(0, "avg_us"), "1501199875790165.333");
	/* 2**63 / 4096e6 = 2**51 / 10**6 exactly; 2**63 * 125 passes 64
	 * bits, 2**63 * 125 / 512 = 2**54 * 125 does not */
	ck_assert_str_eq(cell(1, "tod_s"), "2251799813.685248");
	ck_assert_str_eq(cell(1, "count"), "0");
	ck_assert_str_eq(cell(1, "wide"), "2251799813685248000.0");
	ck_assert_str_eq(cell(1, "peak"), "2251799813685248000.0");
	ck_assert_str_eq(cell(1, "share"), "");
	ck_assert_str_eq(cell(1, "avg_us"), "");
	/* 3 s; 3 * 10**6 us * 1000; 100 * 8 / 64; 3 s in 8 = 375000 us */
	ck_assert_str_eq(cell(2, "tod_s"), "3.000000");
	ck_assert_str_eq(cell(2, "count"), "8");
	ck_assert_str_eq(cell(2, "wide"), "3000000000.0");
	ck_assert_str_eq(cell(2, "peak"), "3000000000.0");
	ck_assert_str_eq(cell(2, "share"), "12.50");
	ck_assert_str_eq(cell(2, "avg_us"), "375000.000");
}
END_TEST

/* References that add terms or convert clocks: a combination that cannot
 * pass 2**64 (fullwords: 2 (2**32 - 1); 10**-4 s in TOD units, x409,600),
 * sums of doublewords that may, where the window has no value, and
 * divisors that may, whose window then has none either. Interval b's TOD
 * times pass 2**64 (2**63 + 2**63 + ...); its INTSYTI is 0. */
static const char combos_rpt[] =
	"title Combinations\n"
	"column cnt type=PERF_COUNTER_LARGE_DELTA aggregate=total N=INTDBIR#+INTDBIW#\n"
	"column tod_sum type=PERF_COUNTER_LARGE_DELTA aggregate=total N=INTTTTI+INTCPTI unit=s decimals=6\n"
	"column part1_pct type=PERF_COUNTER_TIMER N=INTTIMSY+INTTIMUS D=INTSYTI decimals=3\n"
	"column share type=PERF_SAMPLE_FRACTION N=INTZPTI B=INTTTTI+INTCPTI+INTZPTI decimals=3\n"
	"column busy type=PERF_COUNTER_TIMER N=INTSYTI D=@duration decimals=3\n";

static void
combos_add(struct report *r)
{
	struct interval a = make("SYSA", "2025-03-03 10:00", "2025-03-03 10:15");
	struct interval b = make("SYSA", "2025-03-03 10:15", "2025-03-03 10:30");
	struct interval c = make("SYSA", "2025-03-03 10:30", "2025-03-03 10:45");

	set(&a, "INTDBIR#", 3);
	set(&a, "INTDBIW#", 4);
	set(&a, "INTTTTI", 60 * TOD_S);
	set(&a, "INTCPTI", 30 * TOD_S);
	set(&a, "INTZPTI", 10 * TOD_S);
	set(&a, "INTTIMSY", 10000);     /* 1 s */
	set(&a, "INTTIMUS", 5000);      /* 0.5 s */
	set(&a, "INTSYTI", 3 * TOD_S);
	set(&b, "INTDBIR#", 0xFFFFFFFF);
	set(&b, "INTDBIW#", 0xFFFFFFFF);
	set(&b, "INTTTTI", UINT64_C(1) << 63);
	set(&b, "INTCPTI", UINT64_C(1) << 63);
	set(&b, "INTZPTI", 5 * TOD_S);
	set(&b, "INTTIMSY", 0xFFFFFFFF);
	set(&b, "INTTIMUS", 0xFFFFFFFF);
	set(&c, "INTTTTI", TOD_S);
	set(&c, "INTZPTI", TOD_S);
	set(&c, "INTTIMSY", 2500);      /* 0.25 s */
	set(&c, "INTSYTI", TOD_S);
	add(&a, r);
	add(&b, r);
	add(&c, r);
	finish(r);
}

START_TEST(combinations_as_their_terms)
{
	struct report *r = open_report(combos_rpt, BY_INTERVAL);

	combos_add(r);
	ck_assert_uint_eq(cap.nrows, 3);
	/* a: 3 + 4; 60 + 30 s; 100 * 1.5 / 3; 100 * 10 / 100; 100 * 3 / 900 */
	ck_assert_str_eq(cell(0, "cnt"), "7");
	ck_assert_str_eq(cell(0, "tod_sum"), "90.000000");
	ck_assert_str_eq(cell(0, "part1_pct"), "50.000");
	ck_assert_str_eq(cell(0, "share"), "10.000");
	ck_assert_str_eq(cell(0, "busy"), "0.333");
	/* b: 2 (2**32 - 1); no sum, no share; D 0; 0 over 900 s */
	ck_assert_str_eq(cell(1, "cnt"), "8589934590");
	ck_assert_str_eq(cell(1, "tod_sum"), "");
	ck_assert_str_eq(cell(1, "part1_pct"), "");
	ck_assert_str_eq(cell(1, "share"), "");
	ck_assert_str_eq(cell(1, "busy"), "0.000");
	/* c: 0; 1 s; 100 * 0.25 / 1; 100 * 1 / 2; 100 * 1 / 900 */
	ck_assert_str_eq(cell(2, "cnt"), "0");
	ck_assert_str_eq(cell(2, "tod_sum"), "1.000000");
	ck_assert_str_eq(cell(2, "part1_pct"), "25.000");
	ck_assert_str_eq(cell(2, "share"), "50.000");
	ck_assert_str_eq(cell(2, "busy"), "0.111");

	r = open_report(combos_rpt, BY_TOTAL);
	combos_add(r);
	ck_assert_uint_eq(cap.nrows, 1);
	/* 7 + 8589934590; 90 + 1 s (b none); 100 * 1.75 / 4 (b none);
	 * 100 * (10 + 1) / (100 + 2) = 10.7843... (b none); 100 * 4 / 2700 */
	ck_assert_str_eq(cell(0, "cnt"), "8589934597");
	ck_assert_str_eq(cell(0, "tod_sum"), "91.000000");
	ck_assert_str_eq(cell(0, "part1_pct"), "43.750");
	ck_assert_str_eq(cell(0, "share"), "10.784");
	ck_assert_str_eq(cell(0, "busy"), "0.148");
}
END_TEST

/* ---------------------------------------------------------------------- */
/* The summary: the top five buckets by total wait time */

START_TEST(summary_top_five)
{
	static const char *const labels[] = { "INTDBIR", "INTDBIW", "INTJRLW",
		"INTTPIR", "INTERUS", "INTDBKY" };
	struct report *r = open_report(summary_rpt, BY_TOTAL);
	struct interval a = make("SYSA", "2025-03-03 10:00", "2025-03-03 10:15");
	char name[64];

	for (size_t i = 0; i < 6; i++) {
		/* totals 100, 200, ... 600 e-4 s; INTDBKY (600) first */
		snprintf(name, sizeof name, "%sT", labels[i]);
		set(&a, name, 100 * (i + 1));
		snprintf(name, sizeof name, "%s#", labels[i]);
		set(&a, name, 1);
	}
	add(&a, r);
	finish(r);
	ck_assert_str_eq(cell(0, "top1_bucket"), "INTDBKY");
	ck_assert_str_eq(cell(0, "top1_total_wait_s"), "0.060000");
	ck_assert_str_eq(cell(0, "top2_bucket"), "INTERUS");
	ck_assert_str_eq(cell(0, "top5_bucket"), "INTDBIW");
	ck_assert_str_eq(cell(0, "top5_avg_wait_ms"), "20.000");
	ck_assert_str_eq(cell(0, "intervals"), "1");
	ck_assert_str_eq(cell(0, "complete_intervals"), "1");
	ck_assert_str_eq(cell(0, "incomplete_intervals"), "0");
	ck_assert_str_eq(cell(0, "first_start"), "2025-03-03 10:00:00");
	ck_assert_str_eq(cell(0, "last_end"), "2025-03-03 10:15:00");
}
END_TEST

Suite *
unit_suite(void)
{
	Suite *s = suite_create("report");
	TCase *core = tcase_create("Core");
	TCase *limits = tcase_create("Limits");

	tcase_add_checked_fixture(core, setup, teardown);
	tcase_add_checked_fixture(limits, setup, teardown);
	tcase_add_test(core, waits_total_sums_over_sums);
	tcase_add_test(core, waits_missing_part_is_not_zero);
	tcase_add_test(core, waits_no_part_at_all_is_empty);
	tcase_add_test(core, rounding_is_exact_half_up);
	tcase_add_test(core, cpu_busy_leaves_out_missing_part_3);
	tcase_add_test(core, cpu_tod_rounds_exactly);
	tcase_add_test(core, tasks_rate);
	tcase_add_test(core, by_hour_by_start_time);
	tcase_add_test(core, by_day_and_interval);
	tcase_add_test(core, selection);
	tcase_add_test(core, intervals_row);
	tcase_add_test(core, interval_rows_at_the_limits);
	tcase_add_test(core, combinations_as_their_terms);
	tcase_add_test(core, summary_top_five);
	tcase_add_test(core, what_matched_nothing);
	tcase_add_test(limits, group_limit);
	tcase_add_test(limits, interleaved_sources_keep_their_groups);
	tcase_add_test(limits, many_groups_grow_the_index);
	suite_add_tcase(s, core);
	suite_add_tcase(s, limits);
	return s;
}
