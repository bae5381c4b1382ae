/* check_rptdef.c: the report definition parser: what a definition says
 * ends up in the struct, resolved against the schema, and every kind of
 * mistake gives "file:line: message", with the exact messages below. */
#include "check_main.h"
#include <stdlib.h>
#include <string.h>

#include "pmim/binding.h"
#include "pmim/pmint.h"
#include "report/report_text.h"
#include "report/rptdef.h"

static struct pmint pm;
static struct schema *schema;
static struct rpt_def def;
static char err[512];

static void
setup(void)
{
	char e[160];
	ck_assert(pmint_load(&pm, e, sizeof e) == PM_OK);
	ck_assert(binding_schema_open(&schema, &pm, e, sizeof e) == PM_OK);
}

static void
teardown(void)
{
	schema_close(schema);
}

static pm_status
parse(const char *text)
{
	err[0] = '\0';
	return rptdef_parse(&def, "t", text, "t.rpt", schema, err, sizeof err);
}

START_TEST(builtins_parse)
{
	const char *texts[] = { intervals_rpt, waits_rpt, cpu_rpt, tasks_rpt, summary_rpt };

	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
		ck_assert_msg(parse(texts[i]) == PM_OK, "%s", err);
}
END_TEST

START_TEST(column_resolved)
{
	const struct rpt_column *c;

	ck_assert_msg(parse("title T\n"
	                    "column busy type=PERF_COUNTER_TIMER N=INTSYTI D=@duration decimals=3\n"
	                    "column share type=PERF_SAMPLE_FRACTION N=INTZPTI B=INTTTTI+INTCPTI+INTZPTI\n"
	                    "column sys type=PERF_COUNTER_DELTA aggregate=total N=INTTIMSY unit=ms scale=1/2\n")
	              == PM_OK, "%s", err);
	ck_assert_str_eq(def.title, "T");
	ck_assert_uint_eq(def.ncols, 3);
	c = &def.cols[0];
	/* TOD and 10**-4 s: the clock is TOD, D is scaled by 409,600 */
	ck_assert_uint_eq(c->tb, 4096000000u);
	ck_assert_uint_eq(c->d.terms[0].factor, 409600);
	ck_assert_uint_eq(c->n.terms[0].factor, 1);
	ck_assert_int_eq(c->value, VALUE_PERCENT);
	ck_assert_uint_eq(c->groups, 1u << 3);
	c = &def.cols[1];
	ck_assert_uint_eq(c->b.nterms, 3);
	c = &def.cols[2];
	/* ticks of 10**-4 s to ms, halved: x 1000 / 10000 / 2 = 1/20 */
	ck_assert_uint_eq(c->scale_num, 1);
	ck_assert_uint_eq(c->scale_den, 20);
	ck_assert(c->total);
}
END_TEST

START_TEST(series_builtins_resolved)
{
	const struct rpt_column *c;

	ck_assert_msg(parse(perf_rpt) == PM_OK, "%s", err);
	ck_assert_int_eq(def.rows, ROWS_COUNTER);
	ck_assert_str_eq(def.object, "");
	ck_assert_int_eq(def.cols[0].text, TEXT_OBJECT);
	ck_assert_int_eq(def.cols[3].text, TEXT_TYPE);
	c = &def.cols[4];
	ck_assert_str_eq(c->name, "samples");
	ck_assert(c->series);
	ck_assert_int_eq(c->show, SHOW_SAMPLES);
	ck_assert_msg(parse(win_cpu_rpt) == PM_OK, "%s", err);
	ck_assert_int_eq(def.rows, ROWS_INSTANCE);
	ck_assert_str_eq(def.object, "Processor");
	ck_assert_int_eq(def.cols[0].text, TEXT_INSTANCE);
	c = &def.cols[2];
	ck_assert_str_eq(c->name, "processor_max_pct");
	ck_assert_str_eq(c->counter, "% Processor Time");  /* quoted, blanks kept */
	ck_assert_int_eq(c->show, SHOW_MAX);
	ck_assert_uint_eq(c->decimals, 2);
	ck_assert_str_eq(c->heading, "peak%");
	ck_assert_int_eq(def.cols[1].show, SHOW_VALUE);     /* the default */
	ck_assert_msg(parse(win_disk_rpt) == PM_OK, "%s", err);
}
END_TEST

START_TEST(each_bucket_expands)
{
	ck_assert_msg(parse("each bucket\n"
	                    "column %L_avg type=PERF_AVERAGE_TIMER N=%T B=%# unit=ms\n"
	                    "end\n") == PM_OK, "%s", err);
	ck_assert_uint_eq(def.ncols, pm.lay.nbuckets);
	ck_assert_str_eq(def.cols[0].name, "INTDBIR_avg");
	ck_assert_str_eq(def.cols[pm.lay.nbuckets - 1].name, "INTXLI_avg");
	ck_assert_int_eq(def.cols[16].row, 16);
	ck_assert_uint_eq(def.cols[16].groups, 1u << 2);  /* INTDBKY: part 2 */
	/* in a form's table of the block, the heading without the label */
	ck_assert_str_eq(def.cols[0].heading, "INTDBIR_avg");
	ck_assert_str_eq(def.cols[0].block_heading, "avg");
	ck_assert_msg(parse("rows interval\nlayout form\neach bucket\n"
	                    "column %L_t type=MAX N=%T heading=\"%L total (s)\"\n"
	                    "column %L_h type=MAX N=%H heading=\"peak of %L\"\n"
	                    "end\n") == PM_OK, "%s", err);
	ck_assert_str_eq(def.cols[0].heading, "INTDBIR total (s)");
	ck_assert_str_eq(def.cols[0].block_heading, "total (s)");
	ck_assert_str_eq(def.cols[1].block_heading, "peak of");
}
END_TEST

/* Broken definitions and their messages. */
static const struct {
	const char *text;
	const char *message;
} broken[] = {
	{ "column x type=PERF_NO_SUCH N=INTSYTI\n",
	  "t.rpt:1: unknown counter type 'PERF_NO_SUCH'" },
	{ "# comment\ncolumn x type=PERF_COUNTER_DELTA N=INTNOPE\n",
	  "t.rpt:2: unknown field 'INTNOPE'" },
	{ "column x type=PERF_COUNTER_DELTA N=@nope\n",
	  "t.rpt:1: unknown virtual field '@nope'" },
	{ "column x type=PERF_AVERAGE_BASE N=INTSYTI\n",
	  "t.rpt:1: counter type PERF_AVERAGE_BASE has no displayable value" },
	{ "column x type=PERF_COUNTER_TIMER N=INTSYTI\n",
	  "t.rpt:1: column 'x': PERF_COUNTER_TIMER needs D" },
	{ "column x type=MAX N=INTSYTI B=INT#TSTR\n",
	  "t.rpt:1: column 'x': MAX takes no B" },
	{ "column x type=PERF_COUNTER_COUNTER N=INT#TSTR D=INT#TEND\n",
	  "t.rpt:1: column 'x': D of PERF_COUNTER_COUNTER must be a time" },
	{ "column x type=PERF_SAMPLE_FRACTION N=INTSYTI B=INTSYTI+INT#TSTR\n",
	  "t.rpt:1: B adds times and counts: 'INTSYTI+INT#TSTR'" },
	{ "column x type=MAX N=INTSYTI aggregate=total\n",
	  "t.rpt:1: column 'x': aggregate=total needs a PERF_COUNTER_DELTA type" },
	{ "column x type=PERF_COUNTER_COUNTER N=INT#TSTR D=@duration unit=ms\n",
	  "t.rpt:1: column 'x': unit=ms needs a time value" },
	{ "column x type=MAX N=INTSYTI unit=h\n",
	  "t.rpt:1: unknown unit 'h' (s, ms or us)" },
	{ "column x type=MAX N=INTLEN\n",
	  "t.rpt:1: field 'INTLEN' is not a count or a time" },
	{ "column x type=MAX N=%T\n",
	  "t.rpt:1: column 'x' reads a bucket: use it in a 'rows bucket' report, "
	  "or inside 'each bucket' or 'top'" },
	{ "each bucket\ncolumn x type=MAX N=%T\nend\n",
	  "t.rpt:2: column 'x': a name inside 'each bucket' needs %L" },
	{ "each bucket\ncolumn %L type=MAX N=%T\n",
	  "t.rpt:2: missing 'end'" },
	{ "column x type=MAX N=INTSYTI\ncolumn x type=MAX N=INTCPTI\n",
	  "t.rpt:2: duplicate column 'x'" },
	{ "column x type=MAX N=INTSYTI decimals=12\n",
	  "t.rpt:1: decimals must be 0 to 9, not '12'" },
	{ "column x type=MAX N=INTSYTI colour=red\n",
	  "t.rpt:1: unknown key 'colour'" },
	{ "colum x type=MAX N=INTSYTI\n",
	  "t.rpt:1: unknown directive 'colum'" },
	{ "column x type=MAX N=INTSYTI\nrows bucket\n",
	  "t.rpt:2: 'rows' must come before the columns" },
	{ "column x text=start\n",
	  "t.rpt:1: column 'x': text=start needs 'rows interval'" },
	{ "top 5 buckets by y\ncolumn x type=MAX N=%H\nend\n",
	  "t.rpt:3: top: no column 'y' in the block" },
	{ "column x type=MAX N=INTSYTI scale=0\n",
	  "t.rpt:1: bad scale '0'" },
	{ "title only\n",
	  "t.rpt:1: no columns" },
	{ "column x heading=\"open\n",
	  "t.rpt:1: unterminated quote" },
	/* series reports */
	{ "rows instance\ncolumn i text=instance\ncolumn x counter=6\n",
	  "t.rpt:3: 'rows instance' needs 'object NAME'" },
	{ "rows counter\ncolumn x counter=6\n",
	  "t.rpt:2: column 'x': a row per counter shows its own counter: no counter=" },
	{ "rows counter\ncolumn x type=PERF_COUNTER_COUNTER\n",
	  "t.rpt:2: column 'x': a series column takes counter=, show=, scale= and "
	  "decimals=, not type=, N=, D=, B=, aggregate= or unit=" },
	{ "rows counter\ncolumn x show=value unit=ms\n",
	  "t.rpt:2: column 'x': a series column takes counter=, show=, scale= and "
	  "decimals=, not type=, N=, D=, B=, aggregate= or unit=" },
	{ "column x text=object\n",
	  "t.rpt:1: column 'x': text=object is not one of a PMIM report" },
	{ "rows counter\ncolumn x text=bucket\n",
	  "t.rpt:2: column 'x': text=bucket is not one of a series report" },
	{ "rows counter\ncolumn x show=bogus\n",
	  "t.rpt:2: unknown show 'bogus' (value, samples, min or max)" },
	{ "rows counter\neach bucket\ncolumn %L show=value\nend\n",
	  "t.rpt:2: 'each bucket' is not one of a series report" },
	{ "column x counter=6\n",
	  "t.rpt:1: column 'x': counter= and show= are for 'rows counter' and "
	  "'rows instance' reports" },
	{ "object Processor\nrows instance\n",
	  "t.rpt:1: 'object' needs 'rows counter' or 'rows instance' first" },
	{ "rows instance\nobject Processor\ncolumn x text=counter\n",
	  "t.rpt:3: column 'x': a row per instance has no counter of its own" },
	{ "rows instance\nobject Processor\ncolumn x show=max\n",
	  "t.rpt:3: column 'x' needs counter= (a row per instance)" },
	{ "rows counter\nobject\n",
	  "t.rpt:2: object wants one name (quote a name with blanks)" },
	/* charts */
	{ "column x type=MAX N=INTSYTI\nchart c pie series=x\n",
	  "t.rpt:2: chart kind must be stacked-bar or line, not 'pie'" },
	{ "column x type=MAX N=INTSYTI\nchart c\n",
	  "t.rpt:2: chart wants: chart NAME stacked-bar|line series=COL,... [key=value]..." },
	{ "column x type=MAX N=INTSYTI\nchart c line unit=s\n",
	  "t.rpt:2: chart c: no series=" },
	{ "chart c line series=x\ncolumn x type=MAX N=INTSYTI\n",
	  "t.rpt:1: chart series=x: no such column above the chart" },
	{ "rows bucket\ncolumn b text=bucket\ncolumn x type=MAX N=%H\nchart c line series=b\n",
	  "t.rpt:4: chart series=b: a text column, not a figure one" },
	{ "column x type=MAX N=INTSYTI\nchart c line series=x split=x\n",
	  "t.rpt:2: chart split=x: a figure column, not a text one" },
	{ "column x type=MAX N=INTSYTI\nchart c line series=x top=8\n",
	  "t.rpt:2: chart c: top= and rank= need split=" },
	{ "column x type=MAX N=INTSYTI\nchart c line series=x axis2=x\n",
	  "t.rpt:2: chart c: axis2= is a line over stacked bars, without split=" },
	{ "column x type=MAX N=INTSYTI\nchart c line series=x labels=a,b\n",
	  "t.rpt:2: chart c: labels= names each series= column, without split=" },
	{ "column x type=MAX N=INTSYTI\nchart c line series=x top=0\n",
	  "t.rpt:2: chart top must be 1 to 48, not '0'" },
	{ "column x type=MAX N=INTSYTI\nchart c line series=x colour=red\n",
	  "t.rpt:2: unknown chart key 'colour'" },
	{ "column x type=MAX N=INTSYTI\nchart c line series=x\nchart d line series=x\n"
	  "chart e line series=x\nchart f line series=x\nchart g line series=x\n",
	  "t.rpt:6: at most 4 charts" },
};

START_TEST(charts_resolved)
{
	const struct rpt_chart *c;

	ck_assert_msg(parse(cpu_rpt) == PM_OK, "%s", err);
	ck_assert_uint_eq(def.ncharts, 1);
	c = &def.charts[0];
	ck_assert_str_eq(c->name, "cpu");
	ck_assert_int_eq(c->kind, CHART_STACKED_BAR);
	ck_assert_uint_eq(c->nseries, 3);
	ck_assert_str_eq(c->series[2], "srb_ziip_s");
	ck_assert_str_eq(c->labels[1], "SRB on CP");
	ck_assert_str_eq(c->axis2, "cpu_busy_pct");
	ck_assert_str_eq(c->unit2, "CPU busy (%)");
	ck_assert_msg(parse(waits_rpt) == PM_OK, "%s", err);
	ck_assert_uint_eq(def.ncharts, 2);
	c = &def.charts[1];
	ck_assert_int_eq(c->kind, CHART_LINE);
	ck_assert_str_eq(c->split, "bucket");
	ck_assert_uint_eq(c->top, 8);
	ck_assert_str_eq(c->rank, "total_wait_s");
	/* defaults: rank by the series, labels the columns' names, the
	 * report's title */
	ck_assert_msg(parse("title T\nrows bucket\ncolumn b text=bucket\n"
	                    "column w type=PERF_COUNTER_DELTA aggregate=total N=%T\n"
	                    "chart c line series=w split=b\n") == PM_OK, "%s", err);
	c = &def.charts[0];
	ck_assert_str_eq(c->rank, "w");
	ck_assert_str_eq(c->labels[0], "w");
	ck_assert_str_eq(c->title, "T");
	ck_assert_uint_eq(c->top, 0);
	ck_assert_msg(parse(perf_rpt) == PM_OK, "%s", err);
	ck_assert_uint_eq(def.charts[0].nper, 2);
	ck_assert_str_eq(def.charts[0].per[1], "counter");
}
END_TEST

START_TEST(broken_definitions)
{
	ck_assert_msg(parse(broken[_i].text) == PM_E_DEFINITION, "accepted: %s",
	              broken[_i].text);
	ck_assert_str_eq(err, broken[_i].message);
}
END_TEST

Suite *
unit_suite(void)
{
	Suite *s = suite_create("rptdef");
	TCase *core = tcase_create("Core");
	TCase *errors = tcase_create("Errors");

	tcase_add_checked_fixture(core, setup, teardown);
	tcase_add_checked_fixture(errors, setup, teardown);
	tcase_add_test(core, builtins_parse);
	tcase_add_test(core, column_resolved);
	tcase_add_test(core, series_builtins_resolved);
	tcase_add_test(core, each_bucket_expands);
	tcase_add_test(core, charts_resolved);
	tcase_add_loop_test(errors, broken_definitions, 0,
	                    (int)(sizeof broken / sizeof broken[0]));
	suite_add_tcase(s, core);
	suite_add_tcase(s, errors);
	return s;
}
