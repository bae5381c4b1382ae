/* check_out.c: the writers, fed typed cells by hand: each kind of cell
 * (text, integer, exact fraction, double, stamp, empty) comes out as the
 * bytes written below, in CSV, the text format and JSON lines; JSON
 * strings of every kind of byte, escaped as Python's json.dumps(s,
 * ensure_ascii=False) writes the text Python decodes from the bytes with
 * errors='replace' (worked out with Python, and by hand from Unicode's
 * Table 3-7); --columns picking and refusing columns; figures worked
 * out by the CSV writer from a frame's words (row_x), their digits worked
 * out by hand; CSV text fields quoted where RFC 4180 wants it. */
#include "check_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out/cell.h"
#include "out/csvw.h"
#include "out/columns.h"
#include "out/csvout.h"
#include "out/jsonout.h"
#include "out/jsonstr.h"
#include "out/textout.h"

/* 2025-03-03 10:00:00 UTC in stamps (10**-4 s from 1970): 20150 days */
#define STAMP_2025_03_03_10 ((20150LL * 86400 + 10 * 3600) * 10000)

static struct sink_cell
text(const char *s)
{
	return (struct sink_cell){ .kind = SINK_TEXT, .v.text = { s, strlen(s) } };
}

static struct sink_cell
integer(uint64_t v)
{
	return (struct sink_cell){ .kind = SINK_INTEGER, .v.integer = v };
}

static struct sink_cell
fraction(uint64_t num, uint64_t den, unsigned decimals)
{
	return (struct sink_cell){ .kind = SINK_FRACTION, .decimals = (uint8_t)decimals,
	                           .v.fraction = { num, den } };
}

static struct sink_cell
real(double v, unsigned decimals)
{
	return (struct sink_cell){ .kind = SINK_REAL, .decimals = (uint8_t)decimals,
	                           .v.real = v };
}

static struct sink_cell
stamp(int64_t at)
{
	return (struct sink_cell){ .kind = SINK_STAMP, .v.stamp = { at, NULL } };
}

static const struct sink_cell empty = { .kind = SINK_EMPTY };

static const struct sink_column cols[] = {
	{ .name = "source", .heading = "source", .numeric = false, .key = true },
	{ .name = "start", .heading = "start", .numeric = false, .key = true },
	{ .name = "waits", .heading = "waits", .numeric = true, .key = false },
	{ .name = "avg_ms", .heading = "avg ms", .numeric = true, .key = false },
	{ .name = "label", .heading = "label", .numeric = false, .key = false },
};
#define NCOLS (sizeof cols / sizeof cols[0])

/* The text format of run()'s rows, worked out by hand: widths are the
 * widest of heading and cells, two blanks between columns, numbers to the
 * right; a short table's page is 80 wide, "Page 1" at its right end. */
#define EXPECTED_TEXT \
	"pmimrpt t: Test                                                           Page 1\n" \
	"Two rows\n" \
	"Input:  in.smf\n" \
	"Period: 2025-03-03 10:00:00 to 2025-03-03 10:30:00; 2 intervals (1 incomplete); rows: total\n" \
	"Run:    2025-03-04 08:00:00\n" \
	"\n" \
	"source  start                waits  avg ms  label\n" \
	"------  -------------------  -----  ------  -------\n" \
	"SYSA    2025-03-03 10:00:00     42   0.667  a,b\n" \
	"SYSB    2025-03-03 10:15:00           1.50  say \"x\" *\n" \
	"\n" \
	"* the row includes incomplete intervals (parts missing)\n"

static char *buf;
static size_t len;

/* Two rows through sink, and what it wrote, NUL-terminated in buf. */
static void
run(struct rowsink *sink, FILE *fp, const struct report_meta *m)
{
	struct sink_cell a[NCOLS] = { text("SYSA"), stamp(STAMP_2025_03_03_10),
	                              integer(42), fraction(2, 3, 3), text("a,b") };
	struct sink_cell b[NCOLS] = { text("SYSB"), stamp(STAMP_2025_03_03_10 + 9000000),
	                              empty, real(1.5, 2), text("say \"x\"") };

	ck_assert_int_eq(sink->begin(sink, cols, NCOLS, false), PM_OK);
	sink->row(sink, a, false);
	sink->row(sink, b, true);
	ck_assert_int_eq(sink->end(sink, m), PM_OK);
	sink->close(sink);
	ck_assert_int_eq(fclose(fp), 0);
}

START_TEST(cells_format)
{
	char out[CELL_FORMAT_MAX + 1];
	struct sink_cell c = fraction(1, 8, 2);   /* 0.125: half up */
	size_t n;

	ck_assert_uint_eq(cell_format(&c, out), 4);
	ck_assert(memcmp(out, "0.13", 4) == 0);
	c = integer(18446744073709551615u);
	ck_assert_uint_eq(cell_format(&c, out), 20);
	ck_assert(memcmp(out, "18446744073709551615", 20) == 0);
	c = stamp(STAMP_2025_03_03_10);
	ck_assert_uint_eq(cell_format(&c, out), 19);
	ck_assert(memcmp(out, "2025-03-03 10:00:00", 19) == 0);
	ck_assert_uint_eq(cell_format(&empty, out), 0);
	c = text("abc");
	ck_assert(cell_bytes(&c, out, &n) == c.v.text.s);
	ck_assert_uint_eq(n, 3);
}
END_TEST

/* A column's figure in 10**-4 s, shown in s to 6 decimals (10**2 folded
 * into mul); one in TOD units (4096 a microsecond), in s; an average
 * in ms of a sum in 10**-4 s over a count, to 3 decimals; a cell. */
static const struct sink_formula figures_plan[4] = {
	{ .from = SINK_FROM_X, .mul = 100, .den = 1, .n = 0, .need = 2, .decimals = 6 },
	{ .from = SINK_FROM_X, .mul = 1000000, .den = 4096000000, .n = 1, .need = 1, .decimals = 6 },
	{ .from = SINK_FROM_RATIO, .mul = 1000, .den = 10, .n = 2, .b = 3, .need = 1, .decimals = 3 },
	{ .from = SINK_FROM_CELL },
};

static const char *
joined(const uint64_t *x, unsigned have)
{
	static char out[4 * (CELL_FORMAT_MAX + 1)];
	struct sink_cell c[4] = { empty, empty, empty, integer(7) };
	char *end = cell_join_x(out, c, figures_plan, 4, x, have, ',', false);

	if (!end)
		return NULL;
	*end = '\0';
	return out;
}

START_TEST(formulas_join)
{
	/* 12345.6789 s; 3 s and half a microsecond, rounded up; 20 / 30 ms */
	uint64_t x[4] = { 123456789, 4096000000ULL * 3 + 2048, 20, 3 };

	ck_assert_str_eq(joined(x, 3), "12345.678900,3.000001,0.667,7");
	ck_assert_str_eq(joined(x, 1), ",3.000001,0.667,7");   /* group 2 missing */
	x[3] = 0;                                             /* no waits: no average */
	ck_assert_str_eq(joined(x, 3), "12345.678900,3.000001,,7");
	x[0] = UINT64_MAX / 50;                               /* times 100: past 64 bits */
	ck_assert_ptr_null(joined(x, 3));
	ck_assert_str_eq(joined(x, 1), ",3.000001,,7");        /* empty: no product tried */
	x[0] = 0;
	x[3] = UINT64_MAX / 5;                                /* its count times 10 */
	ck_assert_ptr_null(joined(x, 3));
}
END_TEST

/* row_x: the row from the words, or, when a figure does not fit, nothing
 * (the caller then gives the cells to row). */
START_TEST(csv_formulas)
{
	FILE *fp = open_memstream(&buf, &len);
	struct report_meta m = { .name = "t" };
	struct sink_formula plan[NCOLS] = {
		[2] = { .from = SINK_FROM_X, .mul = 1, .den = 1, .n = 0 },
		[3] = { .from = SINK_FROM_RATIO, .mul = 1000, .den = 3, .n = 1, .b = 2,
		        .decimals = 3 },
	};
	struct sink_cell a[NCOLS] = { text("SYSA"), stamp(STAMP_2025_03_03_10),
	                              empty, empty, text("a,b") };
	uint64_t x[3] = { 42, 2, 1 }, wide[3] = { 42, UINT64_MAX / 2, 1 };
	struct rowsink *sink;

	ck_assert_int_eq(csvout_open(&sink, fp), PM_OK);
	ck_assert_ptr_nonnull(sink->row_x);
	ck_assert_int_eq(sink->begin(sink, cols, NCOLS, false), PM_OK);
	ck_assert(sink->row_x(sink, a, plan, x, 1, false));
	ck_assert(!sink->row_x(sink, a, plan, wide, 1, false));
	ck_assert_int_eq(sink->end(sink, &m), PM_OK);
	sink->close(sink);
	ck_assert_int_eq(fclose(fp), 0);
	ck_assert_str_eq(buf,
	                 "source,start,waits,avg_ms,label\n"
	                 "SYSA,2025-03-03 10:00:00,42,0.667,\"a,b\"\n");
	free(buf);
}
END_TEST

/* A text field quoted where RFC 4180 wants it: a comma, a quote (doubled
 * inside), a line feed or carriage return anywhere, a blank at either
 * end; not otherwise, blanks inside and other punctuation included. */
START_TEST(csv_quotes_where_needed)
{
	static const struct { const char *in, *out; } fields[] = {
		{ "plain", "plain" },
		{ "in side;|\t", "in side;|\t" },
		{ "a,b", "\"a,b\"" },
		{ "say \"x\"", "\"say \"\"x\"\"\"" },
		{ "two\nlines", "\"two\nlines\"" },
		{ "cr\rhere", "\"cr\rhere\"" },
		{ " lead", "\" lead\"" },
		{ "trail ", "\"trail \"" },
	};
	struct csvw w;

	for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
		FILE *fp = open_memstream(&buf, &len);
		ck_assert_int_eq(csvw_init(&w, fp), PM_OK);
		csvw_text(&w, fields[i].in, strlen(fields[i].in));
		csvw_end_row(&w);
		ck_assert_int_eq(csvw_finish(&w), PM_OK);
		csvw_free(&w);
		ck_assert_int_eq(fclose(fp), 0);
		ck_assert_uint_eq(len, strlen(fields[i].out) + 1);
		ck_assert(memcmp(buf, fields[i].out, len - 1) == 0);
		ck_assert_int_eq(buf[len - 1], '\n');
		free(buf);
	}
}
END_TEST

/* The stamps of rows by the hour (each row's start and end, the two
 * again) and by interval (a row's start the end of the one before), and
 * a third stamp: each as cell_format writes it, worked out by hand. */
START_TEST(stamps_through_memo)
{
	static const struct { int64_t at; const char *text; } seq[] = {
		{ STAMP_2025_03_03_10, "2025-03-03 10:00:00" },
		{ STAMP_2025_03_03_10 + 36000000, "2025-03-03 11:00:00" },
		{ STAMP_2025_03_03_10, "2025-03-03 10:00:00" },
		{ STAMP_2025_03_03_10 + 36000000, "2025-03-03 11:00:00" },
		{ STAMP_2025_03_03_10 + 72000000, "2025-03-03 12:00:00" },
		{ STAMP_2025_03_03_10 + 36000000, "2025-03-03 11:00:00" },
		{ STAMP_2025_03_03_10 + 72000000, "2025-03-03 12:00:00" },
		{ STAMP_2025_03_03_10, "2025-03-03 10:00:00" },
		{ STAMP_2025_03_03_10 + 72015, "2025-03-03 10:00:07.201" },
		{ STAMP_2025_03_03_10 + 72015, "2025-03-03 10:00:07" },
	};
	struct cell_stamp_memo memo = { 0 };
	char out[CELL_FORMAT_MAX + 1];

	for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
		struct sink_cell c = stamp(seq[i].at);
		size_t n;
		c.decimals = i == 8 ? 3 : 0;
		n = cell_stamp(&c, out, &memo);
		out[n] = '\0';
		ck_assert_str_eq(out, seq[i].text);
	}
}
END_TEST

START_TEST(csv_bytes)
{
	FILE *fp = open_memstream(&buf, &len);
	struct report_meta m = { .name = "t" };
	struct rowsink *sink;

	ck_assert_int_eq(csvout_open(&sink, fp), PM_OK);
	run(sink, fp, &m);
	ck_assert_str_eq(buf,
	                 "source,start,waits,avg_ms,label\n"
	                 "SYSA,2025-03-03 10:00:00,42,0.667,\"a,b\"\n"
	                 "SYSB,2025-03-03 10:15:00,,1.50,\"say \"\"x\"\"\"\n");
	free(buf);
}
END_TEST

START_TEST(text_bytes)
{
	FILE *fp = open_memstream(&buf, &len);
	const char *inputs[] = { "in.smf" };
	struct report_meta m = { .name = "t", .title = "Test", .description = "Two rows",
	                         .inputs = inputs, .ninputs = 1, .grouping = "total",
	                         .any_interval = true,
	                         .first_start = STAMP_2025_03_03_10,
	                         .last_end = STAMP_2025_03_03_10 + 18000000,
	                         .intervals = 2, .incomplete = 1,
	                         .run_time = "2025-03-04 08:00:00" };
	struct textout_opts o = { .page_length = 60 };
	struct rowsink *sink;

	ck_assert_int_eq(textout_open(&sink, fp, &o), PM_OK);
	run(sink, fp, &m);
	ck_assert_str_eq(buf, EXPECTED_TEXT);
	free(buf);
}
END_TEST

START_TEST(json_bytes)
{
	FILE *fp = open_memstream(&buf, &len);
	struct report_meta m = { .name = "t" };
	struct rowsink *sink;

	ck_assert_int_eq(jsonout_open(&sink, fp), PM_OK);
	run(sink, fp, &m);
	ck_assert_str_eq(buf,
	                 "{\"source\":\"SYSA\",\"start\":\"2025-03-03 10:00:00\",\"waits\":42,"
	                 "\"avg_ms\":0.667,\"label\":\"a,b\"}\n"
	                 "{\"source\":\"SYSB\",\"start\":\"2025-03-03 10:15:00\",\"waits\":null,"
	                 "\"avg_ms\":1.50,\"label\":\"say \\\"x\\\"\"}\n");
	free(buf);
}
END_TEST

/* A double that is not finite, or a figure with no digits, is null, as
 * CSV leaves the field empty. */
START_TEST(json_not_finite)
{
	static const struct sink_column one[] = { { .name = "x", .heading = "x", .numeric = true } };
	FILE *fp = open_memstream(&buf, &len);
	struct sink_cell c[] = { real(1.0 / 0.0, 3), real(-1.0 / 0.0, 3), real(0.0 / 0.0, 3),
	                         real(2.5, 12) };
	struct report_meta m = { .name = "t" };
	struct rowsink *sink;

	ck_assert_int_eq(jsonout_open(&sink, fp), PM_OK);
	ck_assert_int_eq(sink->begin(sink, one, 1, false), PM_OK);
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
		sink->row(sink, &c[i], false);
	ck_assert_int_eq(sink->end(sink, &m), PM_OK);
	sink->close(sink);
	ck_assert_int_eq(fclose(fp), 0);
	ck_assert_str_eq(buf, "{\"x\":null}\n{\"x\":null}\n{\"x\":null}\n{\"x\":null}\n");
	free(buf);
}
END_TEST

/* A form: the single columns as pairs across the line (here both on one:
 * "Source" and "Tasks" are 6 wide, the values 5, so a pair is 13 and four
 * fit 80 with 4 blanks between), then the "each bucket" block as a table
 * of a line per bucket: label, description, then its columns, each as
 * wide as its block heading and widest cell; worked out by hand. */
static const struct sink_column form_cols[] = {
	{ .name = "source", .heading = "Source", .key = true },
	{ .name = "n", .heading = "Tasks", .numeric = true },
	{ .name = "A_waits", .heading = "A waits", .numeric = true, .row_label = "A",
	  .row_desc = "alpha wait", .block_heading = "waits" },
	{ .name = "A_ms", .heading = "A ms", .numeric = true, .row_label = "A",
	  .row_desc = "alpha wait", .block_heading = "ms" },
	{ .name = "BB_waits", .heading = "BB waits", .numeric = true, .row_label = "BB",
	  .row_desc = "beta", .block_heading = "waits" },
	{ .name = "BB_ms", .heading = "BB ms", .numeric = true, .row_label = "BB",
	  .row_desc = "beta", .block_heading = "ms" },
};
#define FORM_NCOLS (sizeof form_cols / sizeof form_cols[0])

START_TEST(text_form)
{
	FILE *fp = open_memstream(&buf, &len);
	const char *inputs[] = { "in.smf" };
	struct report_meta m = { .name = "t", .title = "Test", .description = "Two rows",
	                         .inputs = inputs, .ninputs = 1, .grouping = "interval",
	                         .any_interval = true,
	                         .first_start = STAMP_2025_03_03_10,
	                         .last_end = STAMP_2025_03_03_10 + 18000000,
	                         .intervals = 2, .incomplete = 1,
	                         .run_time = "2025-03-04 08:00:00" };
	struct textout_opts o = { .page_length = 60 };
	struct sink_cell a[FORM_NCOLS] = { text("SYSA"), integer(7), integer(3),
	                                   fraction(1, 2, 1), integer(0), empty };
	struct sink_cell b[FORM_NCOLS] = { text("SYSB"), integer(12345), integer(10),
	                                   fraction(25, 10, 1), integer(1), fraction(1, 1, 1) };
	struct rowsink *sink;

	ck_assert_int_eq(textout_open(&sink, fp, &o), PM_OK);
	ck_assert_int_eq(sink->begin(sink, form_cols, FORM_NCOLS, true), PM_OK);
	sink->row(sink, a, false);
	sink->row(sink, b, true);
	ck_assert_int_eq(sink->end(sink, &m), PM_OK);
	sink->close(sink);
	ck_assert_int_eq(fclose(fp), 0);
	ck_assert_str_eq(buf,
	    "pmimrpt t: Test                                                           Page 1\n"
	    "Two rows\n"
	    "Input:  in.smf\n"
	    "Period: 2025-03-03 10:00:00 to 2025-03-03 10:30:00; 2 intervals (1 incomplete); rows: interval\n"
	    "Run:    2025-03-04 08:00:00\n"
	    "\n"
	    "Source  SYSA     Tasks       7\n"
	    "\n"
	    "                waits   ms\n"
	    "--  ----------  -----  ---\n"
	    "A   alpha wait      3  0.5\n"
	    "BB  beta            0\n"
	    "\n"
	    "Source  SYSB     Tasks   12345\n"
	    "* the row includes incomplete intervals (parts missing)\n"
	    "\n"
	    "                waits   ms\n"
	    "--  ----------  -----  ---\n"
	    "A   alpha wait     10  2.5\n"
	    "BB  beta            1  1.0\n"
	    "\n");
	free(buf);
}
END_TEST

/* Bytes in, the JSON string out. */
static const struct { const char *in; size_t n; const char *out; } strings[] = {
	{ "", 0, "\"\"" },
	{ "plain ASCII ~", 13, "\"plain ASCII ~\"" },
	{ "\"\\/", 3, "\"\\\"\\\\/\"" },
	{ "\b\f\n\r\t", 5, "\"\\b\\f\\n\\r\\t\"" },
	{ "\0\001\037\177", 4, "\"\\u0000\\u0001\\u001f\177\"" },
	/* well-formed: 2, 3 and 4 bytes, the ends of the ranges */
	{ "\302\200\337\277", 4, "\"\302\200\337\277\"" },
	{ "\340\240\200\355\237\277\356\200\200\357\277\277", 12,
	  "\"\340\240\200\355\237\277\356\200\200\357\277\277\"" },
	{ "\360\220\200\200\364\217\277\277", 8, "\"\360\220\200\200\364\217\277\277\"" },
	/* a stray continuation byte, bytes that never lead */
	{ "\200", 1, "\"\357\277\275\"" },
	{ "\300\301\365\377", 4, "\"\357\277\275\357\277\275\357\277\275\357\277\275\"" },
	/* overlong forms: the lead alone is the subpart, each byte one U+FFFD */
	{ "\300\257", 2, "\"\357\277\275\357\277\275\"" },
	{ "\340\200\257", 3, "\"\357\277\275\357\277\275\357\277\275\"" },
	/* a surrogate, past U+10FFFF */
	{ "\355\240\200", 3, "\"\357\277\275\357\277\275\357\277\275\"" },
	{ "\364\220\200\200", 4,
	  "\"\357\277\275\357\277\275\357\277\275\357\277\275\"" },
	/* cut short: what was well-formed so far is one U+FFFD */
	{ "\342\202x", 3, "\"\357\277\275x\"" },
	{ "\360\237\230", 3, "\"\357\277\275\"" },
	{ "\360\237\230\360\237\230\200", 7, "\"\357\277\275\360\237\230\200\"" },
	{ "a\342", 2, "\"a\357\277\275\"" },
};

START_TEST(json_strings)
{
	char out[JSON_STRING_MAX(16)];

	for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
		size_t n = json_string(out, strings[i].in, strings[i].n);
		ck_assert_uint_le(n, JSON_STRING_MAX(strings[i].n));
		ck_assert_uint_eq(n, strlen(strings[i].out));
		ck_assert_msg(memcmp(out, strings[i].out, n) == 0, "string %zu", i);
	}
}
END_TEST

START_TEST(columns_picked)
{
	FILE *fp = open_memstream(&buf, &len);
	struct report_meta m = { .name = "t" };
	struct rowsink *csv, *sink;
	struct diag d;

	diag_init(&d, "t", NULL);
	ck_assert_int_eq(csvout_open(&csv, fp), PM_OK);
	ck_assert_int_eq(columns_open(&sink, csv, "label,waits,source", &d), PM_OK);
	run(sink, fp, &m);
	ck_assert_str_eq(buf, "label,waits,source\n\"a,b\",42,SYSA\n\"say \"\"x\"\"\",,SYSB\n");
	free(buf);
}
END_TEST

START_TEST(columns_refused)
{
	static const char *const lists[] = { "waits,nonesuch", "waits,source,waits", "waits,",
	                                     "", "Waits" };
	struct rowsink *csv, *sink;
	struct diag d;

	for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
		diag_init(&d, "t", NULL);
		ck_assert_int_eq(csvout_open(&csv, stdout), PM_OK);
		ck_assert_int_eq(columns_open(&sink, csv, lists[i], &d), PM_OK);
		ck_assert_int_eq(sink->begin(sink, cols, NCOLS, false), PM_E_USAGE);
		ck_assert_int_eq(diag_exit_code(&d), 12);
		sink->close(sink);
	}
}
END_TEST

START_TEST(text_unknown_encoding)
{
	struct textout_opts o = { .page_length = 60, .encoding = "NO-SUCH-CODEPAGE" };
	struct rowsink *sink = (struct rowsink *)&o;

	ck_assert_int_eq(textout_open(&sink, stdout, &o), PM_E_CODEPAGE);
	ck_assert_ptr_null(sink);
}
END_TEST

Suite *
unit_suite(void)
{
	Suite *s = suite_create("out");
	TCase *tc = tcase_create("writers");
	tcase_add_test(tc, cells_format);
	tcase_add_test(tc, stamps_through_memo);
	tcase_add_test(tc, csv_bytes);
	tcase_add_test(tc, formulas_join);
	tcase_add_test(tc, csv_formulas);
	tcase_add_test(tc, csv_quotes_where_needed);
	tcase_add_test(tc, text_bytes);
	tcase_add_test(tc, text_form);
	tcase_add_test(tc, text_unknown_encoding);
	tcase_add_test(tc, json_bytes);
	tcase_add_test(tc, json_not_finite);
	tcase_add_test(tc, json_strings);
	tcase_add_test(tc, columns_picked);
	tcase_add_test(tc, columns_refused);
	suite_add_tcase(s, tc);
	return s;
}
