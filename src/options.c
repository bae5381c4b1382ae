/* options.c: pmimrpt's command line. See options.h. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/cli.h"
#include "core/exitcode.h"
#include "core/numparse.h"
#include "options.h"
#include "pmim/pmtime.h"
#include "report/rptload.h"

/* ---- the names options take */

/* The reports: the built-in definitions, then the inventory. */
static const char *
report_names(size_t i)
{
	const char *name = rptload_builtin_name(i);
	size_t n = 0;

	if (name)
		return name;
	while (rptload_builtin_name(n))
		n++;
	return i == n ? "inventory" : NULL;
}

static const char *
by_names(size_t i)
{
	return i <= BY_INTERVAL ? report_by_name((enum report_by)i) : NULL;
}

static const char *
framing_names(size_t i)
{
	return i <= FRAMING_PERF ? framing_name((enum framing)i) : NULL;
}

/* In the order of enum format, less its default. */
const char *
format_names(size_t i)
{
	static const char *const names[] = { "csv", "text", "json", "sqlite", "svg", "png",
	                                     "pdf", "html" };
	return i < sizeof names / sizeof names[0] ? names[i] : NULL;
}

/* ---- parsing option arguments */

/* A size_t from the command line. */
static bool
parse_size(const char *s, size_t *out)
{
	uint64_t v;

	if (!numparse_u64(s, SIZE_MAX, &v))
		return false;
	*out = (size_t)v;
	return true;
}

static int
positive_size(struct diag *d, const char *opt, const char *arg, size_t *out)
{
	if (!parse_size(arg, out) || *out == 0)
		return diag_usage(d, "%s must be a positive number, not '%s'", opt, arg);
	return EXIT_CLEAN;
}

/* A positive duration in stamp units: seconds, or a number ending in m, h
 * or d (minutes, hours, days). */
static bool
parse_duration(const char *s, int64_t *out)
{
	static const char units[] = "smhd";
	static const int64_t seconds[] = { 1, 60, 3600, 86400 };
	char digits[24];
	size_t n = strlen(s);
	const char *unit = n ? strchr(units, s[n - 1]) : NULL;
	int64_t per = unit ? seconds[unit - units] : 1;
	uint64_t v;

	if (unit)
		n--;
	if (n == 0 || n >= sizeof digits)
		return false;
	memcpy(digits, s, n);
	digits[n] = '\0';
	if (!numparse_u64(digits, (uint64_t)(INT64_MAX / PM_UNITS_PER_SECOND / per), &v) ||
	    v == 0)
		return false;
	*out = (int64_t)v * per * PM_UNITS_PER_SECOND;
	return true;
}

static int
parse_stamp(struct diag *d, const char *opt, const char *s, int64_t *out)
{
	if (pmtime_parse(s, out) == PM_OK)
		return EXIT_CLEAN;
	return diag_usage(d, "%s wants a local time YYYY-MM-DD[ HH:MM[:SS]] or "
	                  "YYYY-MM-DDTHH:MM[:SS], not '%s'", opt, s);
}

/* "OFFSET,LENGTH" */
static bool
parse_cv_field(const char *s, size_t *offset, size_t *length)
{
	const char *comma = strchr(s, ',');
	char digits[24];

	if (!comma || (size_t)(comma - s) >= sizeof digits)
		return false;
	memcpy(digits, s, (size_t)(comma - s));
	digits[comma - s] = '\0';
	return parse_size(digits, offset) && parse_size(comma + 1, length) &&
	       *length >= 1 && *length <= 32 && *offset <= 65535;
}

/* ---- what each option does; target: what the table names */

static int
set_by(void *target, struct diag *d, const char *arg)
{
	struct options *o = target;
	long by = cli_name_index(by_names, arg);
	char list[128];

	if (by < 0)
		return diag_usage(d, "--by wants %s, not '%s'",
		                  cli_name_list(by_names, false, list, sizeof list), arg);
	o->sel.by = (enum report_by)by;
	o->by_given = true;
	return EXIT_CLEAN;
}

static int
set_from(void *target, struct diag *d, const char *arg)
{
	return parse_stamp(d, "--from", arg, target);
}

static int
set_to(void *target, struct diag *d, const char *arg)
{
	return parse_stamp(d, "--to", arg, target);
}

static int
add_source(void *target, struct diag *d, const char *arg)
{
	struct options *o = target;

	(void)d;
	/* the first also names PM streams without SMF headers */
	if (o->sel.nsources == 0)
		o->pipe.source_label = arg;
	o->sources[o->sel.nsources++] = arg;
	return EXIT_CLEAN;
}

static int
set_max_groups(void *target, struct diag *d, const char *arg)
{
	return positive_size(d, "--max-groups", arg, target);
}

/* --group-memory=SIZE: bytes, or with K, M or G (powers of 1024); 0 for
 * no limit. */
static int
set_group_memory(void *target, struct diag *d, const char *arg)
{
	uint64_t v;

	if (!numparse_bytes(arg, "KMG", SIZE_MAX, &v))
		return diag_usage(d, "--group-memory must be a number of bytes, with K, M or G "
		                  "for KiB, MiB or GiB, not '%s'", arg);
	*(size_t *)target = (size_t)v;
	return EXIT_CLEAN;
}

static int
set_format(void *target, struct diag *d, const char *arg)
{
	long format = cli_name_index(format_names, arg);
	char list[64];

	if (format < 0)
		return diag_usage(d, "--format wants %s, not '%s'",
		                  cli_name_list(format_names, false, list, sizeof list), arg);
	*(enum format *)target = (enum format)(FORMAT_CSV + format);
	return EXIT_CLEAN;
}

/* --chart-size=WxH, in points, each 100 to 10000. */
static int
set_chart_size(void *target, struct diag *d, const char *arg)
{
	struct chart_size *size = target;
	const char *x = strchr(arg, 'x');
	char w[16];
	uint64_t wv, hv;

	if (!x || (size_t)(x - arg) >= sizeof w)
		return diag_usage(d, "--chart-size wants WxH in points, such as 720x432, not '%s'", arg);
	memcpy(w, arg, (size_t)(x - arg));
	w[x - arg] = '\0';
	if (!numparse_u64(w, 10000, &wv) || !numparse_u64(x + 1, 10000, &hv) || wv < 100 ||
	    hv < 100)
		return diag_usage(d, "--chart-size wants WxH, each 100 to 10000 points, not '%s'", arg);
	*size = (struct chart_size){ (unsigned)wv, (unsigned)hv };
	return EXIT_CLEAN;
}

static int
set_page_length(void *target, struct diag *d, const char *arg)
{
	size_t v;

	if (!parse_size(arg, &v) || v < TEXTOUT_MIN_PAGE || v > 100000)
		return diag_usage(d, "--page-length must be %d to 100000 lines, not '%s'",
		                  TEXTOUT_MIN_PAGE, arg);
	*(unsigned *)target = (unsigned)v;
	return EXIT_CLEAN;
}

static int
set_framing(void *target, struct diag *d, const char *arg)
{
	long framing = cli_name_index(framing_names, arg);
	char list[64];

	if (framing < 0)
		return diag_usage(d, "unknown framing '%s' (%s)", arg,
		                  cli_name_list(framing_names, false, list, sizeof list));
	*(enum framing *)target = (enum framing)framing;
	return EXIT_CLEAN;
}

static int
set_smf_type(void *target, struct diag *d, const char *arg)
{
	size_t v;

	if (!parse_size(arg, &v) || v > 255)
		return diag_usage(d, "--smf-type must be 0 to 255, not '%s'", arg);
	*(unsigned *)target = (unsigned)v;
	return EXIT_CLEAN;
}

static int
set_pm_offset(void *target, struct diag *d, const char *arg)
{
	size_t v;

	if (!parse_size(arg, &v) || v > 65535)
		return diag_usage(d, "--pm-offset must be 0 to 65535, not '%s'", arg);
	*(long *)target = (long)v;
	return EXIT_CLEAN;
}

static int
set_cv_field(void *target, struct diag *d, const char *arg)
{
	struct smf_opts *smf = target;

	if (!parse_cv_field(arg, &smf->cv_offset, &smf->cv_length))
		return diag_usage(d, "--cv-field wants OFFSET,LENGTH (length 1 to 32), not '%s'", arg);
	return EXIT_CLEAN;
}

static int
set_max_record(void *target, struct diag *d, const char *arg)
{
	size_t *max = target;

	if (!parse_size(arg, max) || *max < 64)
		return diag_usage(d, "--max-record must be a number of bytes, at least 64, not '%s'", arg);
	return EXIT_CLEAN;
}

static int
set_max_pending(void *target, struct diag *d, const char *arg)
{
	return positive_size(d, "--max-pending", arg, target);
}

static int
set_max_interval(void *target, struct diag *d, const char *arg)
{
	if (!parse_duration(arg, target))
		return diag_usage(d, "--max-interval wants a positive number of seconds, or of minutes, hours or days as 90m, 24h or 2d, not '%s'", arg);
	return EXIT_CLEAN;
}

static int
set_max_sources(void *target, struct diag *d, const char *arg)
{
	return positive_size(d, "--max-sources", arg, target);
}

static int
set_max_coverage(void *target, struct diag *d, const char *arg)
{
	return positive_size(d, "--max-coverage", arg, target);
}

static int
set_jobs(void *target, struct diag *d, const char *arg)
{
	size_t *jobs = target;
	long online;

	if (!parse_size(arg, jobs) || *jobs > 1024)
		return diag_usage(d, "--jobs must be 0 (a thread per online core) to 1024, not '%s'", arg);
	if (*jobs == 0) {
		online = sysconf(_SC_NPROCESSORS_ONLN);
		*jobs = online > 0 ? (size_t)online : 1;
	}
	return EXIT_CLEAN;
}

static int show_help(void *target, struct diag *d, const char *arg);

static int
show_version(void *target, struct diag *d, const char *arg)
{
	(void)target, (void)d, (void)arg;
	puts(PROGNAME " " PACKAGE_VERSION);
	return CLI_STOP;
}

/* ---- the table: getopt's options, --help and the setters in one */

#define OPT(field) offsetof(struct options, field)

static const struct cli_option options[] = {
	{ .help = "Reports:" },
	{ "report", 0, required_argument, "=NAME", cli_set_string, OPT(report),
	  "{}, or a report definition: NAME.rpt in --report-dir or "
	  PKGDATADIR "/reports;\n"
	  "a list a,b,c: each report from one read\n"
	  "(with -o DIR/)", report_names },
	{ "report", 0, required_argument, "=FILE.rpt", NULL, 0,
	  "the report definition in FILE.rpt: here, else\n"
	  "in --report-dir (a path when it has a /)", NULL },
	{ "report-dir", 0, required_argument, "=DIR", cli_set_string, OPT(report_dir),
	  "look for report definitions in DIR (which must\n"
	  "be there) first", NULL },
	{ "by", 0, required_argument, "=PERIOD", set_by, 0,
	  "{}: one row\n"
	  "per source and period the intervals start in", by_names },
	{ "from", 0, required_argument, "=TIME", set_from, OPT(sel.from),
	  "only intervals starting at TIME or later", NULL },
	{ "to", 0, required_argument, "=TIME", set_to, OPT(sel.to),
	  "only intervals starting before TIME\n"
	  "(local times, YYYY-MM-DD[ HH:MM[:SS]], or with\n"
	  "a T for the blank: 2026-11-30T08:00)", NULL },
	{ "timezone", 0, required_argument, "=ZONE", cli_set_string, OPT(timezone),
	  "the records' times are local times of ZONE (an\n"
	  "IANA name such as Europe/Berlin): periods are\n"
	  "its hours and days, times show their UTC offset", NULL },
	{ "source", 0, required_argument, "=NAME", add_source, 0,
	  "only intervals of source NAME (repeatable); the\n"
	  "first NAME also names PM streams, which carry\n"
	  "no SMF header", NULL },
	{ "complete-only", 0, no_argument, NULL, cli_set_true, OPT(sel.complete_only),
	  "leave out intervals that lack parts", NULL },
	{ "max-groups", 0, required_argument, "=N", set_max_groups, OPT(sel.max_groups),
	  "report rows held in memory (default 100000)", NULL },
	{ "group-memory", 0, required_argument, "=SIZE", set_group_memory, OPT(sel.group_memory),
	  "memory for the report groups' figures (K, M,\n"
	  "G: KiB, MiB, GiB; default 8M; 0: no limit): the\n"
	  "groups past it wait in a file in $TMPDIR", NULL },
	{ "output", 'o', required_argument, "=FILE", cli_set_string, OPT(output),
	  "write the report to FILE instead of standard\n"
	  "output; FILE is replaced only by a run that\n"
	  "exits 0 or 4, and may not be an input; DIR/:\n"
	  "each report to DIR/NAME.csv (or .txt)", NULL },
	{ "describe", 0, no_argument, NULL, cli_set_true, OPT(describe),
	  "print the PMIM field table, and the fields each\n"
	  "report column reads, and exit", NULL },
	{ "copybook", 0, required_argument, "=FILE", copybook_set_option,
	  OPT(copybooks),
	  "read record layouts from FILE, a DSECT listing\n"
	  "(or every listing in a folder), instead of\n"
	  PKGDATADIR "/copybooks or the built-in\n"
	  "copies (repeatable; the last wins)", NULL },
	{ .help = "Partial results (several runs, one report):" },
	{ "partial", 0, no_argument, NULL, cli_set_true, OPT(partial),
	  "write the report's aggregates to a partial file\n"
	  "(-o FILE.part), for --merge, instead of the report", NULL },
	{ "merge", 0, no_argument, NULL, cli_set_true, OPT(merge),
	  "the FILEs are partials: write the report one run\n"
	  "over all their inputs writes (with --partial, a\n"
	  "partial of them all)", NULL },
	{ .help = "Output:" },
	{ "format", 0, required_argument, "=FORMAT", set_format, OPT(format),
	  "{}: text is\n"
	  "fixed-width pages, json a JSON object a line,\n"
	  "sqlite a table of the database -o FILE.db; svg,\n"
	  "png and pdf the charts of a report --by=interval,\n"
	  "hour or day; html one page of the run, the charts\n"
	  "and the table", format_names },
	{ "chart-size", 0, required_argument, "=WxH", set_chart_size, OPT(chart_size),
	  "a chart's size in points (default 720x432; PNG\n"
	  "pixels twice that)", NULL },
	{ "page-length", 0, required_argument, "=N", set_page_length, OPT(text.page_length),
	  "lines a text page (default 60)", NULL },
	{ "asa", 0, no_argument, NULL, cli_set_true, OPT(text.asa),
	  "text as 133-byte print lines with ASA carriage\n"
	  "control", NULL },
	{ "output-encoding", 0, required_argument, "=CP", cli_set_string, OPT(text.encoding),
	  "write text in code page CP (e.g. IBM-1047);\n"
	  "implies --format=text, as --asa does", NULL },
	{ "columns", 0, required_argument, "=A,B,...", cli_set_string, OPT(columns),
	  "only the columns named (by their CSV names),\n"
	  "in the order named", NULL },
	{ "run-time", 0, required_argument, "=TIME", cli_set_string, OPT(run_time),
	  "the run time the title block shows (default\n"
	  "$SOURCE_DATE_EPOCH, else now)", NULL },
	{ .help = "Input:" },
	{ "framing", 0, required_argument, "=KIND", set_framing, OPT(pipe.framing),
	  "{}", framing_names },
	{ "jobs", 'j', required_argument, "=N", set_jobs, OPT(jobs),
	  "read up to N files at once (default 1; 0: as\n"
	  "many as there are online cores): the same report", NULL },
	{ "perf-names", 0, required_argument, "=FILE", cli_set_string, OPT(perf_names),
	  "name PERF_DATA_BLOCK objects and counters by the\n"
	  "title table in FILE (the registry's Counter value,\n"
	  "or its index and name lines as UTF-8 text)", NULL },
	{ "smf-type", 0, required_argument, "=N", set_smf_type, OPT(pipe.smf.type),
	  "SMF record type of PM data (default 230)", NULL },
	{ "pm-offset", 0, required_argument, "=N", set_pm_offset, OPT(pipe.smf.pm_offset),
	  "offset of the first PM record in an SMF record,\n"
	  "counted from the RDW (default: found)", NULL },
	{ "codepage", 0, required_argument, "=CP", cli_set_string, OPT(pipe.smf.codepage),
	  "EBCDIC code page of names (default IBM-037)", NULL },
	{ "cv-field", 0, required_argument, "=OFF,LEN", set_cv_field, OPT(pipe.smf),
	  "add a CV name at OFF (from the RDW) of the SMF\n"
	  "record to the source: SYSA/IDMSCV01", NULL },
	{ .help = "Limits:" },
	{ "max-record", 0, required_argument, "=BYTES", set_max_record, OPT(pipe.max_record),
	  "largest logical record or PERF_DATA_BLOCK\n"
	  "(default 16777216)", NULL },
	{ "max-pending", 0, required_argument, "=N", set_max_pending, OPT(pipe.max_pending),
	  "intervals waiting for parts (default 1024)", NULL },
	{ "max-interval", 0, required_argument, "=DURATION", set_max_interval,
	  OPT(pipe.max_interval),
	  "longest interval (default 24h); longer\n"
	  "ones are damaged: seconds, or N with m, h or d", NULL },
	{ "max-sources", 0, required_argument, "=N", set_max_sources, OPT(pipe.max_sources),
	  "distinct sources (default 4096)", NULL },
	{ "max-coverage", 0, required_argument, "=N", set_max_coverage, OPT(pipe.max_coverage),
	  "separate ranges of time remembered to leave out\n"
	  "repeated intervals (default 1000000)", NULL },
	{ .help = "" },
	{ "quiet", 'q', no_argument, NULL, cli_set_true, OPT(quiet),
	  "no summary line and no progress line", NULL },
	{ "progress", 0, no_argument, NULL, cli_set_true, OPT(progress),
	  "a progress line on standard error even when it\n"
	  "is not a terminal (it is shown on a terminal)", NULL },
	{ "help", 0, no_argument, NULL, show_help, 0, "show this help and exit", NULL },
	{ "version", 0, no_argument, NULL, show_version, 0, "show the version and exit", NULL },
};

static const struct cli_program program = {
	"Usage: " PROGNAME " [OPTION]... [FILE]...\n"
	"Report CA IDMS Performance Monitor interval (PMIM) records from SMF\n"
	"dumps or PM record streams. With no FILE, or when FILE is -, read\n"
	"standard input.\n",
	options, sizeof options / sizeof options[0], 25
};

static int
show_help(void *target, struct diag *d, const char *arg)
{
	(void)target, (void)d, (void)arg;
	cli_help(&program, stdout);
	fputs("\n"
	      "An interval whose time an earlier one of its source covered is left\n"
	      "out of every report: as a duplicate when it keeps to the boundaries of\n"
	      "that time, else as overlapping.\n"
	      "\n"
	      "Exit status: 0 clean; 4 warnings (damaged records skipped, duplicate\n"
	      "parts or intervals, incomplete intervals, implausible figures,\n"
	      "intervals too long, nothing selected); 8 an input could not be read\n"
	      "to its end;\n"
	      "12 usage or configuration error, or an error in a report definition;\n"
	      "16 output could not be written.\n", stdout);
	return CLI_STOP;
}

/* --format=sqlite: a database file to update, of a report's rows. */
static int
check_sqlite(const struct options *o, struct diag *d)
{
#ifndef HAVE_SQLITE
	(void)o;
	return diag_usage(d, "--format=sqlite: this pmimrpt was built without SQLite "
	                  "(install libsqlite3-dev, then configure and build it again)");
#else
	struct stat st;

	if (!o->output || strcmp(o->output, "-") == 0)
		return diag_usage(d, "--format=sqlite writes a database file: it needs "
		                  "-o FILE.db, not standard output");
	if (o->partial)
		return diag_usage(d, "--partial writes a partial file, not --format=sqlite");
	if (o->output[strlen(o->output) - 1] == '/' || (stat(o->output, &st) == 0 &&
	                                                S_ISDIR(st.st_mode)))
		return diag_usage(d, "--format=sqlite writes one database, -o FILE.db, with a "
		                  "table a report: not the directory %s", o->output);
	return EXIT_CLEAN;
#endif
}

int
parse_options(int argc, char **argv, struct options *o, struct diag *d)
{
	int rc;

	*o = (struct options){ .report = "intervals", .jobs = 1 };
	pipeline_defaults(&o->pipe);
	o->sel = (struct report_opts){ .by = BY_TOTAL, .from = INT64_MIN,
	                               .to = INT64_MAX, .max_groups = 100000,
	                               .group_memory = GROUP_MEMORY_DEFAULT };
	o->text.page_length = 60;
	o->chart_size = (struct chart_size){ 720, 432 };
	if (!(o->sources = calloc((size_t)argc + 1, sizeof *o->sources))) {
		diag_say(d, SC_INPUT, "out of memory");
		return EXIT_INPUT;
	}
	if ((rc = cli_parse(&program, argc, argv, o, d)) != EXIT_CLEAN)
		return rc;
	o->sel.sources = o->sources;
	o->sel.max_sources = o->pipe.max_sources;
	if (o->sel.from >= o->sel.to)
		return diag_usage(d, "--from must be earlier than --to");
	/* a folder that is not there would be passed over without a word */
	if (o->report_dir) {
		struct stat sb;
		if (stat(o->report_dir, &sb) != 0)
			return diag_usage(d, "--report-dir=%s: %s", o->report_dir, strerror(errno));
		if (!S_ISDIR(sb.st_mode))
			return diag_usage(d, "--report-dir=%s: not a folder", o->report_dir);
	}
	/* --asa and --output-encoding are for the text format */
	if (o->format == FORMAT_DEFAULT)
		o->format = o->text.asa || o->text.encoding ? FORMAT_TEXT : FORMAT_CSV;
	if (o->format != FORMAT_TEXT && (o->text.asa || o->text.encoding))
		return diag_usage(d, "%s needs --format=text", o->text.asa ? "--asa" : "--output-encoding");
#ifndef HAVE_CAIRO
	if (o->format >= FORMAT_SVG)
		return diag_usage(d, "--format=%s: this pmimrpt was built without Cairo and "
		                  "Pango, which draw the charts", format_names(o->format - FORMAT_CSV));
#endif
	return o->format == FORMAT_SQLITE ? check_sqlite(o, d) : EXIT_CLEAN;
}

int
run_time(struct diag *d, const char *opt, char out[20])
{
	const char *epoch = getenv("SOURCE_DATE_EPOCH");
	int64_t stamp;
	uint64_t secs;

	if (opt) {
		int rc = parse_stamp(d, "--run-time", opt, &stamp);
		if (rc != EXIT_CLEAN)
			return rc;
	} else if (epoch && *epoch) {
		if (!numparse_u64(epoch, (uint64_t)INT64_MAX / PM_UNITS_PER_SECOND, &secs))
			return diag_usage(d, "SOURCE_DATE_EPOCH must be a number of seconds, not '%s'", epoch);
		stamp = (int64_t)secs * PM_UNITS_PER_SECOND;
	} else {
		time_t now = time(NULL);
		struct tm tm;
		localtime_r(&now, &tm);
		stamp = (pmtime_days_from_civil(tm.tm_year + 1900, (unsigned)tm.tm_mon + 1,
		                                (unsigned)tm.tm_mday) * 86400 +
		         tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec) * PM_UNITS_PER_SECOND;
	}
	pmtime_format(stamp, out);
	return EXIT_CLEAN;
}

