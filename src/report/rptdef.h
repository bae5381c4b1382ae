/* rptdef.h: report definitions, read from text (reports/README.md has the
 * format). A definition names, for each column, a counter type of the
 * engine (counter.h) by its winperf name and the figures it reads as N, D
 * and B; all names are resolved against the reader's schema
 * (frame/schema.h) when the definition is read, so that an unknown figure
 * or type is an error at that line and the per-frame path never looks a
 * name up. The buckets of "rows bucket", "each bucket" and "top N
 * buckets" are the rows of the schema's family (for PMIM, the wait
 * buckets).
 *
 * Times: every time a column reads (for PMIM 10**-4 s, 10**-2 s or TOD
 * fields) is converted to the column's clock, the finest among them, by an
 * exact integer factor (10**-4 s to TOD is x409,600); the clock's ticks per
 * second are the engine's TB. */
#ifndef RPTDEF_H
#define RPTDEF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "engine/counter.h"
#include "frame/schema.h"

#define RPT_NAME_MAX 48
#define RPT_TEXT_MAX 128
#define RPT_MAX_COLUMNS 400
#define RPT_MAX_TERMS 8
#define RPT_MAX_TOP 48      /* N of "top N buckets" */

/* What a term of a figure reference reads from a frame. */
enum rpt_term_kind {
	TERM_FIGURE,       /* a figure of the schema */
	TERM_MEMBER,       /* %T, %H, %#: a member of the row's family */
	TERM_SUM,          /* @wait_time, @waits: a sum of the schema */
	TERM_DURATION,     /* @duration: end - start, in stamps */
	TERM_INTERVAL,     /* @interval: 1 */
	TERM_COMPLETE,     /* @complete: 1 when the frame has every group */
	TERM_INCOMPLETE,   /* @incomplete: 1 when it lacks one */
	TERM_START,        /* @start: the start stamp */
	TERM_END,          /* @end: the end stamp */
	TERM_KINDS
};

struct rpt_term {
	enum rpt_term_kind kind;
	uint32_t index;     /* of the figure, member or sum */
	uint64_t factor;    /* to the column's clock (1 for counts) */
};

/* N, D or B: one term, or several added ("INTTTTI+INTCPTI"). */
struct rpt_ref {
	unsigned nterms;
	struct rpt_term terms[RPT_MAX_TERMS];
	bool time;          /* a time (all terms are), else a count */
};

/* Text columns: values that are not figures. */
enum rpt_text {
	TEXT_NONE,          /* a counter column */
	TEXT_SOURCE, TEXT_START, TEXT_END, TEXT_PARTS,
	TEXT_BUCKET, TEXT_DESCRIPTION,
	TEXT_FIRST_START,   /* earliest start in the group */
	TEXT_LAST_END,      /* latest end in the group */
	TEXT_PERIOD_START, TEXT_PERIOD_END, /* the group key; added, never read */
	/* series reports: the row's names, and its counter type's name */
	TEXT_OBJECT, TEXT_INSTANCE, TEXT_COUNTER, TEXT_TYPE
};

/* What a series column shows of its counter in the group. */
enum rpt_show {
	SHOW_VALUE,         /* the average function over the group's windows */
	SHOW_SAMPLES,       /* windows (or snapshots) with a value */
	SHOW_MIN,           /* the least and the largest per-window value */
	SHOW_MAX
};

/* What a counter column's value is, for the unit= conversion. */
enum rpt_value_kind {
	VALUE_NUMBER,       /* a count, or a ratio without a unit */
	VALUE_TICKS,        /* a time in the column's clock */
	VALUE_SECONDS,      /* AVERAGE_TIMER, ELAPSED_TIME */
	VALUE_RATE,         /* per second */
	VALUE_PERCENT
};

struct rpt_column {
	char name[RPT_NAME_MAX];     /* first: core/nameslot.h */
	char heading[RPT_NAME_MAX];  /* for the text format */
	char block_heading[RPT_NAME_MAX]; /* of a column of "each bucket": its
	                              heading in the block's table of a form,
	                              the heading without %L ("waits") */
	enum rpt_text text;
	enum counter_type type;
	bool total;                  /* aggregate=total: SUM(dN), DELTA types */
	bool has_n, has_d, has_b;
	struct rpt_ref n, d, b;
	enum rpt_value_kind value;
	uint64_t tb;                 /* the clock's ticks per second */
	uint64_t scale_num, scale_den; /* unit and scale= together */
	unsigned decimals;
	unsigned width;              /* least width in the text format */
	int row;                     /* of the family; -1: the report row's */
	bool uses_row;               /* reads a member, a row's label or text */
	unsigned groups;             /* groups its figures are in (bit g) */
	/* series reports: the counter a column shows (rows instance; the
	 * row's own in rows counter), and what of it */
	bool series;
	char counter[RPT_NAME_MAX];
	enum rpt_show show;
};

enum rpt_rows {
	ROWS_GROUP,         /* one row per group */
	ROWS_BUCKET,        /* one row per group and row of the family */
	ROWS_INTERVAL,      /* one row per interval, no grouping */
	/* series reports, of self-describing counters (frame/series.h) */
	ROWS_COUNTER,       /* one row per group and counter of an instance */
	ROWS_INSTANCE       /* one row per group and instance of `object` */
};

enum rpt_layout { LAYOUT_TABLE, LAYOUT_FORM };

#define RPT_MAX_CHARTS 4
#define RPT_MAX_SERIES 8

enum rpt_chart_kind { CHART_STACKED_BAR, CHART_LINE };

/* "chart NAME KIND key=value...": what a chart format draws of the
 * report's rows, by column names checked against the definition's
 * columns when it is read (reports/README.md). */
struct rpt_chart {
	char name[RPT_NAME_MAX];
	char title[RPT_TEXT_MAX];
	enum rpt_chart_kind kind;
	char series[RPT_MAX_SERIES][RPT_NAME_MAX]; /* numeric columns */
	size_t nseries;
	char axis2[RPT_NAME_MAX];   /* a line on a second axis; "": none */
	char split[RPT_NAME_MAX];   /* a text column whose values are the
	                               series (then one series column); "" */
	char per[2][RPT_NAME_MAX];  /* text columns: a chart per value */
	size_t nper;
	unsigned top;               /* split: the top N series, 0: all */
	char rank[RPT_NAME_MAX];    /* what top ranks by: its total */
	char labels[RPT_MAX_SERIES][RPT_NAME_MAX]; /* of the series, for
	                               the legend; "": the column's name */
	char label2[RPT_NAME_MAX];  /* of the axis2 line */
	char unit[RPT_NAME_MAX], unit2[RPT_NAME_MAX]; /* the axes' titles */
};

struct rpt_def {
	char name[RPT_NAME_MAX];
	uint64_t fingerprint;        /* FNV-1a of the definition's text */
	char title[RPT_TEXT_MAX];
	char description[RPT_TEXT_MAX];
	enum rpt_rows rows;
	enum rpt_layout layout;
	char object[RPT_NAME_MAX];   /* series reports: the object; "": any */
	size_t ncols;
	/* "top N buckets by COLUMN": columns over the N rows of the family
	 * with the largest value of top_cols[top_by], in each group */
	size_t ntop;
	unsigned top_n;
	size_t top_by;
	size_t ncharts;
	/* the tables last: rptdef_parse zeroes only what comes before them,
	 * and their entries past the counts are never read */
	struct rpt_column cols[RPT_MAX_COLUMNS];
	struct rpt_column top_cols[RPT_MAX_COLUMNS / 8];
	struct rpt_chart charts[RPT_MAX_CHARTS];
};

/* Whether def reports series (frame/series.h) rather than frames. */
static inline bool
rpt_is_series(const struct rpt_def *def)
{
	return def->rows == ROWS_COUNTER || def->rows == ROWS_INSTANCE;
}

/* What column c reads, as a definition would say it ("N=INTSYTI
 * D=@duration", "text=source"), into buf; a member of a bucket column
 * (%T inside "each bucket") by its copybook field. */
void rptdef_reads(const struct rpt_column *c, const struct schema *schema,
                  char *buf, size_t cap);

/* Parse the definition text of report `name` read from `file` (for
 * messages). On error returns PM_E_DEFINITION, or PM_E_NOMEM, with
 * "file:line: message" in err. */
pm_status rptdef_parse(struct rpt_def *def, const char *name, const char *text,
                       const char *file, const struct schema *schema,
                       char *err, size_t errlen);

#endif
