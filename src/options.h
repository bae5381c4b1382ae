/* options.h: pmimrpt's command line: the options of a run, parsed through
 * one table (core/cli.h: getopt's options, --help and each option's setter
 * from one entry), what they ask of each other, and the run time of the
 * title block. */
#ifndef OPTIONS_H
#define OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/copybook.h"
#include "core/diag.h"
#include "out/textout.h"
#include "pipeline.h"
#include "report/report.h"

#define PROGNAME "pmimrpt"

enum format { FORMAT_DEFAULT, FORMAT_CSV, FORMAT_TEXT, FORMAT_JSON, FORMAT_SQLITE,
              FORMAT_SVG, FORMAT_PNG, FORMAT_PDF, FORMAT_HTML };

/* SQLite and HTML: every report of the run into the one file of -o (a
 * table of the database, a section of the page) */
static inline bool
format_one_file(enum format f)
{
	return f == FORMAT_SQLITE || f == FORMAT_HTML;
}

/* SVG, PNG and PDF: charts alone */
static inline bool
format_is_chart(enum format f)
{
	return f >= FORMAT_SVG && f <= FORMAT_PDF;
}

struct chart_size { unsigned width, height; };  /* points */

struct options {
	const char *report;
	const char *report_dir;
	const char *output;
	struct pipeline_opts pipe;
	struct report_opts sel;
	bool by_given;
	enum format format;
	struct textout_opts text;
	struct chart_size chart_size;  /* --chart-size */
	const char *run_time;
	const char *columns;      /* --columns, NULL: the report's own */
	const char *timezone;     /* --timezone, NULL: none */
	const char *perf_names;   /* --perf-names, NULL: titles by index */
	const char **sources;     /* every --source, in order */
	struct copybook_list copybooks;
	bool describe, quiet, progress;
	bool partial, merge;      /* --partial, --merge */
	size_t jobs;              /* --jobs: files read at once */
};

/* The names of --format, in the order of enum format less its default
 * (FORMAT_CSV is 0): a list of names as core/cli.h takes them. */
const char *format_names(size_t i);

/* The options at their defaults, then as argv sets them (getopt's optind
 * after the last), and what they ask of each other. Returns an exit code
 * (said), or CLI_STOP after --help or --version. */
int parse_options(int argc, char **argv, struct options *o, struct diag *d);

/* The run time of the title block into out: opt (--run-time), else
 * SOURCE_DATE_EPOCH (seconds since 1970, shown in UTC as reproducible
 * builds want), else now in local time. Returns an exit code (said). */
int run_time(struct diag *d, const char *opt, char out[20]);

#endif
