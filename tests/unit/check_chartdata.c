/* check_chartdata.c: what a chart is drawn from, before any drawing: the
 * time axis's ticks (whole local hours, days, Mondays) and the rows kept
 * per panel, in time order, with the top series and "other" summed, all
 * against figures worked out by hand. */
#include "check_main.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "out/chartdata.h"
#include "out/charttime.h"

#define HOUR (3600 * 10000LL)
#define DAY (24 * HOUR)
/* 2025-03-03 00:00, a Monday: 20150 days after 1970-01-01 */
#define MAR3 (20150 * DAY)

START_TEST(ticks_at_whole_hours)
{
	struct chart_tick t[CHART_TICKS_MAX];
	/* a day, at most 12 ticks: every 3 hours, 00:00 to 00:00 */
	size_t n = chart_time_ticks(NULL, MAR3, MAR3 + DAY, 12, t);

	ck_assert_uint_eq(n, 9);
	ck_assert_int_eq(t[1].at, MAR3 + 3 * HOUR);
	ck_assert_str_eq(t[0].time, "00:00");
	ck_assert_str_eq(t[0].date, "2025-03-03");
	ck_assert_str_eq(t[1].time, "03:00");
	ck_assert_str_eq(t[1].date, "");   /* the same day as the tick before */
	ck_assert_str_eq(t[8].date, "2025-03-04");
	/* from 00:20, 23 h 40 min: 2-hour steps fit, 02:00 to 00:00 */
	n = chart_time_ticks(NULL, MAR3 + HOUR / 3, MAR3 + DAY, 12, t);
	ck_assert_uint_eq(n, 12);
	ck_assert_str_eq(t[0].time, "02:00");
	ck_assert_str_eq(t[0].date, "2025-03-03");
}
END_TEST

START_TEST(ticks_on_days_and_mondays)
{
	struct chart_tick t[CHART_TICKS_MAX];
	/* Wednesday 2025-03-05 to 2025-04-30, 8 ticks at most: weeks, from
	 * the first Monday (2025-03-10) */
	size_t n = chart_time_ticks(NULL, MAR3 + 2 * DAY, MAR3 + 58 * DAY, 9, t);

	ck_assert_uint_eq(n, 8);
	ck_assert_str_eq(t[0].date, "2025-03-10");
	ck_assert_str_eq(t[1].date, "2025-03-17");
	ck_assert_str_eq(t[0].time, "");
	/* four days: a tick a day */
	n = chart_time_ticks(NULL, MAR3, MAR3 + 4 * DAY, 8, t);
	ck_assert_uint_eq(n, 5);
	ck_assert_str_eq(t[4].date, "2025-03-07");
}
END_TEST

START_TEST(ticks_in_a_zone)
{
	struct chart_tick t[CHART_TICKS_MAX];
	pm_status st;
	struct tzone *z = tzone_open("Europe/Berlin", &st);
	size_t n;

	ck_assert_ptr_nonnull(z);
	/* UTC 2025-03-02 23:00 is 00:00 in Berlin (+01:00) */
	n = chart_time_ticks(z, MAR3 - HOUR, MAR3 + DAY - HOUR, 12, t);
	ck_assert_uint_eq(n, 9);
	ck_assert_int_eq(t[0].at, MAR3 - HOUR);
	ck_assert_str_eq(t[0].time, "00:00");
	ck_assert_str_eq(t[0].date, "2025-03-03");
	tzone_close(z);
}
END_TEST

static struct sink_cell
text(const char *s)
{
	return (struct sink_cell){ .kind = SINK_TEXT, .v.text = { s, strlen(s) } };
}

static struct sink_cell
stamp(int64_t at)
{
	return (struct sink_cell){ .kind = SINK_STAMP, .v.stamp = { at, NULL } };
}

static struct sink_cell
integer(uint64_t v)
{
	return (struct sink_cell){ .kind = SINK_INTEGER, .v.integer = v };
}

static const struct sink_column cols[] = {
	{ .name = "source" }, { .name = "period_start" }, { .name = "period_end" },
	{ .name = "bucket" }, { .name = "wait", .numeric = true },
};

/* A row of source, the hour h of 2025-03-03, bucket and wait. */
static void
add(struct chart_data *d, const char *source, int h, const char *bucket, uint64_t wait,
    bool marked)
{
	struct sink_cell c[] = { text(source), stamp(MAR3 + h * HOUR),
	                         stamp(MAR3 + (h + 1) * HOUR), text(bucket), integer(wait) };
	chart_data_row(d, c, marked);
}

START_TEST(top_series_and_other)
{
	struct rpt_chart spec = { .name = "w", .kind = CHART_STACKED_BAR, .nseries = 1,
	                          .top = 2 };
	struct chart_data *d;
	struct chart_plot p;

	strcpy(spec.series[0], "wait");
	strcpy(spec.split, "bucket");
	strcpy(spec.rank, "wait");
	ck_assert_int_eq(chart_data_open(&d, &spec), PM_OK);
	ck_assert_int_eq(chart_data_begin(d, cols, 5), PM_OK);
	/* hours 3 and 1 of SYSA, out of order, and one of SYSB; totals over
	 * SYSA's hours: B 12, C 7, A 3, D 2: the top 2 are B and C, and
	 * other is A + D */
	add(d, "SYSA", 3, "A", 1, false);
	add(d, "SYSA", 3, "B", 10, false);
	add(d, "SYSA", 3, "C", 5, true);
	add(d, "SYSA", 3, "D", 2, false);
	add(d, "SYSB", 3, "A", 100, false);
	add(d, "SYSA", 1, "A", 2, false);
	add(d, "SYSA", 1, "B", 2, false);
	add(d, "SYSA", 1, "C", 2, false);
	ck_assert_int_eq(chart_data_status(d), PM_OK);
	ck_assert_uint_eq(chart_data_panels(d), 2);
	ck_assert_int_eq(chart_data_plot(d, 0, &p), PM_OK);
	ck_assert_str_eq(p.label, "SYSA");
	ck_assert_uint_eq(p.nperiods, 2);
	ck_assert_int_eq(p.periods[0].start, MAR3 + HOUR);  /* in time order */
	ck_assert(!p.periods[0].marked);
	ck_assert(p.periods[1].marked);
	ck_assert_uint_eq(p.nseries, 3);
	ck_assert_str_eq(p.names[0], "B");
	ck_assert_str_eq(p.names[1], "C");
	ck_assert_str_eq(p.names[2], "other");
	/* hour 1: B 2, C 2, other A 2; hour 3: B 10, C 5, other 1 + 2 */
	ck_assert(p.values[0] == 2 && p.values[1] == 2 && p.values[2] == 2);
	ck_assert(p.values[3] == 10 && p.values[4] == 5 && p.values[5] == 3);
	ck_assert_ptr_null(p.axis2);
	ck_assert_int_eq(chart_data_plot(d, 1, &p), PM_OK);
	ck_assert_str_eq(p.label, "SYSB");
	ck_assert_uint_eq(p.nseries, 1);
	ck_assert(p.values[0] == 100);
	chart_data_free(d);
}
END_TEST

START_TEST(lines_leave_the_rest_out)
{
	struct rpt_chart spec = { .name = "w", .kind = CHART_LINE, .nseries = 1, .top = 1 };
	struct chart_data *d;
	struct chart_plot p;

	strcpy(spec.series[0], "wait");
	strcpy(spec.split, "bucket");
	strcpy(spec.rank, "wait");
	ck_assert_int_eq(chart_data_open(&d, &spec), PM_OK);
	ck_assert_int_eq(chart_data_begin(d, cols, 5), PM_OK);
	add(d, "SYSA", 0, "A", 1, false);
	add(d, "SYSA", 0, "B", 9, false);
	add(d, "SYSA", 5, "A", 1, false);   /* B has no value in hour 5 */
	ck_assert_int_eq(chart_data_plot(d, 0, &p), PM_OK);
	ck_assert_uint_eq(p.nseries, 1);
	ck_assert_str_eq(p.names[0], "B");
	ck_assert(p.values[0] == 9);
	ck_assert(isnan(p.values[1]));
	chart_data_free(d);
}
END_TEST

START_TEST(not_grouped_by_time)
{
	static const struct sink_column total[] = { { .name = "source" },
	                                            { .name = "wait", .numeric = true } };
	struct rpt_chart spec = { .name = "w", .kind = CHART_LINE, .nseries = 1 };
	struct chart_data *d;

	strcpy(spec.series[0], "wait");
	strcpy(spec.rank, "wait");
	ck_assert_int_eq(chart_data_open(&d, &spec), PM_OK);
	ck_assert_int_eq(chart_data_begin(d, total, 2), PM_E_USAGE);
	chart_data_free(d);
}
END_TEST

Suite *
unit_suite(void)
{
	Suite *s = suite_create("chartdata");
	TCase *tc = tcase_create("Core");

	tcase_add_test(tc, ticks_at_whole_hours);
	tcase_add_test(tc, ticks_on_days_and_mondays);
	tcase_add_test(tc, ticks_in_a_zone);
	tcase_add_test(tc, top_series_and_other);
	tcase_add_test(tc, lines_leave_the_rest_out);
	tcase_add_test(tc, not_grouped_by_time);
	suite_add_tcase(s, tc);
	return s;
}
