/* pmimrpt.c: the program. Parses the command line, wires the stages
 * (input -> framing -> smf -> pm -> reassembly -> report -> output), and
 * turns what the stages reported into the summary line and the exit code.
 * Only this file knows about all the stages. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <time.h>

#include "out/csvout.h"
#include "core/cli.h"
#include "core/diag.h"
#include "core/exitcode.h"
#include "smf/framing.h"
#include "io/input.h"
#include "out/inventory.h"
#include "io/outfile.h"
#include "pipeline.h"
#include "pmim/pmint.h"
#include "pmim/pmtime.h"
#include "report/report.h"
#include "report/rptload.h"
#include "core/sources.h"
#include "out/textout.h"
#include "core/tzone.h"

#define PROGNAME "pmimrpt"

enum format { FORMAT_DEFAULT, FORMAT_CSV, FORMAT_TEXT };

struct options {
	const char *report;
	const char *report_dir;
	const char *output;
	struct pipeline_opts pipe;
	struct report_opts sel;
	bool by_given;
	enum format format;
	struct textout_opts text;
	const char *run_time;
	const char *timezone;     /* --timezone, NULL: none */
	const char **sources;     /* every --source, in order */
	const char *copybooks[CB_MAX_COPYBOOKS]; /* every --copybook, in order */
	size_t ncopybooks;
	int describe, quiet, progress;
};

enum long_only {
	OPT_REPORT = 256, OPT_FRAMING, OPT_SMF_TYPE, OPT_PM_OFFSET, OPT_CODEPAGE,
	OPT_CV_FIELD, OPT_SOURCE, OPT_MAX_RECORD, OPT_MAX_PENDING, OPT_MAX_SOURCES,
	OPT_DESCRIBE, OPT_HELP, OPT_VERSION, OPT_REPORT_DIR, OPT_BY, OPT_FROM,
	OPT_TO, OPT_COMPLETE_ONLY, OPT_FORMAT, OPT_PAGE_LENGTH, OPT_ASA,
	OPT_OUTPUT_ENCODING, OPT_RUN_TIME, OPT_MAX_GROUPS, OPT_PROGRESS,
	OPT_MAX_INTERVAL, OPT_MAX_COVERAGE, OPT_TIMEZONE, OPT_COPYBOOK
};

static const struct option long_options[] = {
	{ "report", required_argument, NULL, OPT_REPORT },
	{ "report-dir", required_argument, NULL, OPT_REPORT_DIR },
	{ "by", required_argument, NULL, OPT_BY },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "to", required_argument, NULL, OPT_TO },
	{ "complete-only", no_argument, NULL, OPT_COMPLETE_ONLY },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "page-length", required_argument, NULL, OPT_PAGE_LENGTH },
	{ "asa", no_argument, NULL, OPT_ASA },
	{ "output-encoding", required_argument, NULL, OPT_OUTPUT_ENCODING },
	{ "run-time", required_argument, NULL, OPT_RUN_TIME },
	{ "max-groups", required_argument, NULL, OPT_MAX_GROUPS },
	{ "output", required_argument, NULL, 'o' },
	{ "framing", required_argument, NULL, OPT_FRAMING },
	{ "smf-type", required_argument, NULL, OPT_SMF_TYPE },
	{ "pm-offset", required_argument, NULL, OPT_PM_OFFSET },
	{ "codepage", required_argument, NULL, OPT_CODEPAGE },
	{ "cv-field", required_argument, NULL, OPT_CV_FIELD },
	{ "source", required_argument, NULL, OPT_SOURCE },
	{ "max-record", required_argument, NULL, OPT_MAX_RECORD },
	{ "max-pending", required_argument, NULL, OPT_MAX_PENDING },
	{ "max-interval", required_argument, NULL, OPT_MAX_INTERVAL },
	{ "max-sources", required_argument, NULL, OPT_MAX_SOURCES },
	{ "max-coverage", required_argument, NULL, OPT_MAX_COVERAGE },
	{ "timezone", required_argument, NULL, OPT_TIMEZONE },
	{ "describe", no_argument, NULL, OPT_DESCRIBE },
	{ "copybook", required_argument, NULL, OPT_COPYBOOK },
	{ "quiet", no_argument, NULL, 'q' },
	{ "progress", no_argument, NULL, OPT_PROGRESS },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

static void
usage(FILE *fp)
{
	fputs("Usage: " PROGNAME " [OPTION]... [FILE]...\n"
	      "Report CA IDMS Performance Monitor interval (PMIM) records from SMF\n"
	      "dumps or PM record streams. With no FILE, or when FILE is -, read\n"
	      "standard input.\n"
	      "\n"
	      "Reports:\n"
	      "      --report=NAME      intervals (default), waits, cpu, tasks, summary,\n"
	      "                         inventory, or a report definition: NAME.rpt in\n"
	      "                         --report-dir or " PKGDATADIR "/reports\n"
	      "      --report=FILE.rpt  the report definition in FILE.rpt\n"
	      "      --report-dir=DIR   look for report definitions in DIR first\n"
	      "      --by=PERIOD        total (default), day, hour or interval: one row\n"
	      "                         per source and period the intervals start in\n"
	      "      --from=TIME        only intervals starting at TIME or later\n"
	      "      --to=TIME          only intervals starting before TIME\n"
	      "                         (local times, YYYY-MM-DD[ HH:MM[:SS]])\n"
	      "      --timezone=ZONE    the records' times are local times of ZONE (an\n"
	      "                         IANA name such as Europe/Berlin): periods are\n"
	      "                         its hours and days, times show their UTC offset\n"
	      "      --source=NAME      only intervals of source NAME (repeatable); the\n"
	      "                         first NAME also names PM streams, which carry\n"
	      "                         no SMF header\n"
	      "      --complete-only    leave out intervals that lack parts\n"
	      "      --max-groups=N     report rows held in memory (default 100000)\n"
	      "  -o, --output=FILE      write the report to FILE instead of standard\n"
	      "                         output; FILE is replaced only by a run that\n"
	      "                         exits 0 or 4, and may not be an input\n"
	      "      --describe         print the PMIM field table and exit\n"
	      "      --copybook=FILE    read record layouts from FILE, a DSECT listing\n"
	      "                         (or every listing in a folder), instead of\n"
	      "                         " PKGDATADIR "/copybooks or the built-in\n"
	      "                         copies (repeatable; the last wins)\n"
	      "\n"
	      "Output:\n"
	      "      --format=FORMAT    csv (default) or text (fixed-width pages)\n"
	      "      --page-length=N    lines a text page (default 60)\n"
	      "      --asa              text as 133-byte print lines with ASA carriage\n"
	      "                         control\n"
	      "      --output-encoding=CP  write text in code page CP (e.g. IBM-1047)\n"
	      "      --run-time=TIME    the run time the title block shows (default\n"
	      "                         $SOURCE_DATE_EPOCH, else now)\n"
	      "\n"
	      "Input:\n"
	      "      --framing=KIND     auto (default), pm, rdw or bdw\n"
	      "      --smf-type=N       SMF record type of PM data (default 230)\n"
	      "      --pm-offset=N      offset of the first PM record in an SMF record,\n"
	      "                         counted from the RDW (default: found)\n"
	      "      --codepage=CP      EBCDIC code page of names (default IBM-037)\n"
	      "      --cv-field=OFF,LEN add a CV name at OFF (from the RDW) of the SMF\n"
	      "                         record to the source: SYSA/IDMSCV01\n"
	      "\n"
	      "Limits:\n"
	      "      --max-record=BYTES largest logical record (default 16777216)\n"
	      "      --max-pending=N    intervals waiting for parts (default 1024)\n"
	      "      --max-interval=DURATION  longest interval (default 24h); longer\n"
	      "                         ones are damaged: seconds, or N with m, h or d\n"
	      "      --max-sources=N    distinct sources (default 4096)\n"
	      "      --max-coverage=N   separate ranges of time remembered to leave out\n"
	      "                         repeated intervals (default 1000000)\n"
	      "\n"
	      "  -q, --quiet            no summary line and no progress line\n"
	      "      --progress         a progress line on standard error even when it\n"
	      "                         is not a terminal (it is shown on a terminal)\n"
	      "      --help             show this help and exit\n"
	      "      --version          show the version and exit\n"
	      "\n"
	      "An interval whose time an earlier one of its source covered is left\n"
	      "out of every report: as a duplicate when it keeps to the boundaries of\n"
	      "that time, else as overlapping.\n"
	      "\n"
	      "Exit status: 0 clean; 4 warnings (damaged records skipped, duplicate\n"
	      "parts or intervals, incomplete intervals, implausible figures,\n"
	      "intervals too long, nothing selected); 8 an input could not be read\n"
	      "to its end;\n"
	      "12 usage or configuration error, or an error in a report definition;\n"
	      "16 output could not be written.\n",
	      fp);
}

/* A size_t from the command line. */
static int
parse_size(const char *s, size_t *out)
{
	uint64_t v;

	if (!cli_parse_u64(s, &v) || v > SIZE_MAX)
		return 0;
	*out = (size_t)v;
	return 1;
}

/* A positive duration in stamp units: seconds, or a number ending in m, h
 * or d (minutes, hours, days). */
static int
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
		return 0;
	memcpy(digits, s, n);
	digits[n] = '\0';
	if (!cli_parse_u64(digits, &v) || v == 0 ||
	    v > (uint64_t)(INT64_MAX / PM_UNITS_PER_SECOND / per))
		return 0;
	*out = (int64_t)v * per * PM_UNITS_PER_SECOND;
	return 1;
}

static int
parse_stamp(const char *opt, const char *s, int64_t *out)
{
	if (stamp_parse(s, out) == PM_OK)
		return 1;
	cli_usage_error(PROGNAME, "%s wants a local time YYYY-MM-DD[ HH:MM[:SS]], not '%s'", opt, s);
	return 0;
}

static int
parse_options(int argc, char **argv, struct options *o)
{
	static const char *const by_names[] = { "total", "day", "hour", "interval" };
	int c;
	size_t v, len, nsources = 0;

	while ((c = getopt_long(argc, argv, "o:q", long_options, NULL)) != -1) {
		switch (c) {
		case OPT_REPORT: o->report = optarg; break;
		case OPT_REPORT_DIR: o->report_dir = optarg; break;
		case 'o': o->output = optarg; break;
		case 'q': o->quiet = 1; break;
		case OPT_PROGRESS: o->progress = 1; break;
		case OPT_BY:
			for (v = 0; v < 4 && strcmp(optarg, by_names[v]) != 0; v++)
				;
			if (v == 4)
				return cli_usage_error(PROGNAME, "--by wants total, day, hour or interval, not '%s'", optarg);
			o->sel.by = (enum report_by)v;
			o->by_given = true;
			break;
		case OPT_FROM:
			if (!parse_stamp("--from", optarg, &o->sel.from))
				return EXIT_USAGE;
			break;
		case OPT_TO:
			if (!parse_stamp("--to", optarg, &o->sel.to))
				return EXIT_USAGE;
			break;
		case OPT_COMPLETE_ONLY: o->sel.complete_only = true; break;
		case OPT_FORMAT:
			if (strcmp(optarg, "csv") == 0) o->format = FORMAT_CSV;
			else if (strcmp(optarg, "text") == 0) o->format = FORMAT_TEXT;
			else return cli_usage_error(PROGNAME, "--format wants csv or text, not '%s'", optarg);
			break;
		case OPT_PAGE_LENGTH:
			if (!parse_size(optarg, &v) || v < TEXTOUT_MIN_PAGE || v > 100000)
				return cli_usage_error(PROGNAME, "--page-length must be %d to 100000 lines, not '%s'",
				                   TEXTOUT_MIN_PAGE, optarg);
			o->text.page_length = (unsigned)v;
			break;
		case OPT_ASA: o->text.asa = true; break;
		case OPT_OUTPUT_ENCODING: o->text.encoding = optarg; break;
		case OPT_RUN_TIME: o->run_time = optarg; break;
		case OPT_MAX_GROUPS:
			if (!parse_size(optarg, &o->sel.max_groups) || o->sel.max_groups == 0)
				return cli_usage_error(PROGNAME, "--max-groups must be a positive number, not '%s'", optarg);
			break;
		case OPT_FRAMING:
			if (strcmp(optarg, "auto") == 0) o->pipe.framing = FRAMING_AUTO;
			else if (strcmp(optarg, "pm") == 0) o->pipe.framing = FRAMING_PM;
			else if (strcmp(optarg, "rdw") == 0) o->pipe.framing = FRAMING_RDW;
			else if (strcmp(optarg, "bdw") == 0) o->pipe.framing = FRAMING_BDW;
			else return cli_usage_error(PROGNAME, "unknown framing '%s' (auto, pm, rdw or bdw)", optarg);
			break;
		case OPT_SMF_TYPE:
			if (!parse_size(optarg, &v) || v > 255)
				return cli_usage_error(PROGNAME, "--smf-type must be 0 to 255, not '%s'", optarg);
			o->pipe.smf.type = (unsigned)v;
			break;
		case OPT_PM_OFFSET:
			if (!parse_size(optarg, &v) || v > 65535)
				return cli_usage_error(PROGNAME, "--pm-offset must be 0 to 65535, not '%s'", optarg);
			o->pipe.smf.pm_offset = (long)v;
			break;
		case OPT_CODEPAGE: o->pipe.smf.codepage = optarg; break;
		case OPT_CV_FIELD: {
			char *comma = strchr(optarg, ',');
			if (!comma || (*comma = '\0', !parse_size(optarg, &v)) ||
			    !parse_size(comma + 1, &len) || len == 0 || len > 32 || v > 65535)
				return cli_usage_error(PROGNAME, "--cv-field wants OFFSET,LENGTH (length 1 to 32), not '%s'", optarg);
			o->pipe.smf.cv_offset = v;
			o->pipe.smf.cv_length = len;
			break;
		}
		case OPT_SOURCE:
			/* the first also names PM streams without SMF headers */
			if (nsources == 0)
				o->pipe.source_label = optarg;
			o->sources[nsources++] = optarg;
			break;
		case OPT_MAX_RECORD:
			if (!parse_size(optarg, &o->pipe.max_record) || o->pipe.max_record < 64)
				return cli_usage_error(PROGNAME, "--max-record must be a number of bytes, at least 64, not '%s'", optarg);
			break;
		case OPT_MAX_PENDING:
			if (!parse_size(optarg, &o->pipe.max_pending) || o->pipe.max_pending == 0)
				return cli_usage_error(PROGNAME, "--max-pending must be a positive number, not '%s'", optarg);
			break;
		case OPT_MAX_INTERVAL:
			if (!parse_duration(optarg, &o->pipe.max_interval))
				return cli_usage_error(PROGNAME, "--max-interval wants a positive number of seconds, or of minutes, hours or days as 90m, 24h or 2d, not '%s'", optarg);
			break;
		case OPT_MAX_SOURCES:
			if (!parse_size(optarg, &o->pipe.max_sources) || o->pipe.max_sources == 0)
				return cli_usage_error(PROGNAME, "--max-sources must be a positive number, not '%s'", optarg);
			break;
		case OPT_TIMEZONE: o->timezone = optarg; break;
		case OPT_MAX_COVERAGE:
			if (!parse_size(optarg, &o->pipe.max_coverage) || o->pipe.max_coverage == 0)
				return cli_usage_error(PROGNAME, "--max-coverage must be a positive number, not '%s'", optarg);
			break;
		case OPT_DESCRIBE: o->describe = 1; break;
		case OPT_COPYBOOK:
			if (o->ncopybooks == CB_MAX_COPYBOOKS)
				return cli_usage_error(PROGNAME, "at most %d --copybook options", CB_MAX_COPYBOOKS);
			o->copybooks[o->ncopybooks++] = optarg;
			break;
		case OPT_HELP: usage(stdout); exit(EXIT_CLEAN);
		case OPT_VERSION: puts(PROGNAME " " PACKAGE_VERSION); exit(EXIT_CLEAN);
		default:
			fprintf(stderr, "Try '" PROGNAME " --help' for more information.\n");
			return EXIT_USAGE;
		}
	}
	o->sel.sources = o->sources;
	o->sel.nsources = nsources;
	o->sel.max_sources = o->pipe.max_sources;
	if (o->sel.from >= o->sel.to)
		return cli_usage_error(PROGNAME, "--from must be earlier than --to");
	/* --asa and --output-encoding are for the text format */
	if (o->format == FORMAT_DEFAULT)
		o->format = o->text.asa || o->text.encoding ? FORMAT_TEXT : FORMAT_CSV;
	if (o->format == FORMAT_CSV && (o->text.asa || o->text.encoding))
		return cli_usage_error(PROGNAME, "%s needs --format=text", o->text.asa ? "--asa" : "--output-encoding");
	return EXIT_CLEAN;
}

static int
describe(const struct pmint *pm)
{
	const struct layout *lay = &pm->lay;

	printf("%-9s %4s %6s %3s %4s %-11s %s\n", "FIELD", "PART", "OFFSET",
	       "LEN", "TYPE", "UNITS", "DESCRIPTION");
	for (size_t i = 0; i < lay->nfields; i++) {
		const struct cb_field *f = &lay->fields[i];
		if (f->length == 0)
			continue;
		printf("%-9s %4u  X'%02zX' %3zu %4c %-11s %s\n", f->name, f->part,
		       f->offset, f->length, f->type, cb_units_name(f->units), f->desc);
	}
	printf("\nWAIT BUCKETS (sum, highest, count)\n");
	for (size_t i = 0; i < lay->nbuckets; i++)
		printf("%-9s %4u  %s\n", lay->buckets[i].label, lay->buckets[i].part,
		       lay->buckets[i].desc);
	printf("\nheader X'%02zX' bytes; parts:", pm->header_len);
	for (unsigned p = 1; p <= pm->nparts; p++)
		printf(" %u = X'%02zX'", p, pm->part_len[p]);
	printf("; largest rounded X'%02zX'\n", pm->max_len);
	return ferror(stdout) ? EXIT_OUTPUT : EXIT_CLEAN;
}

/* One ", N what" item of a summary clause, only when N is not zero. */
static void
summary_item(const char *clause, bool *opened, uint64_t n, const char *what)
{
	if (n == 0)
		return;
	fprintf(stderr, "%s%llu %s", *opened ? ", " : clause, (unsigned long long)n, what);
	*opened = true;
}

/* The summary line. A clean run's line ends at the interval counts; what
 * was left out of the reports, and why an exit 4 came, follow only when
 * there is any. */
static void
print_summary(const struct tally *t, unsigned files)
{
	uint64_t smf_records = 0, pm_records = 0;
	bool left_out = false, warned = false;

	for (int ty = 0; ty < 256; ty++) {
		smf_records += t->records[KIND_SMF][ty];
		pm_records += t->records[KIND_PM][ty];
	}
	fprintf(stderr, PROGNAME ": %u file%s, %llu bytes: %llu used, %llu skipped, "
	        "%llu damaged; %llu SMF records (%llu spanned), %llu PM records; "
	        "%llu intervals (%llu complete, %llu incomplete)",
	        files, files == 1 ? "" : "s",
	        (unsigned long long)t->bytes_read, (unsigned long long)t->used,
	        (unsigned long long)t->skipped, (unsigned long long)t->damaged,
	        (unsigned long long)smf_records, (unsigned long long)t->spanned,
	        (unsigned long long)pm_records,
	        (unsigned long long)(t->intervals_complete + t->intervals_incomplete),
	        (unsigned long long)t->intervals_complete,
	        (unsigned long long)t->intervals_incomplete);
	summary_item("; left out: ", &left_out, t->intervals_duplicate, "duplicate");
	summary_item("; left out: ", &left_out, t->intervals_overlapping, "overlapping");
	summary_item("; left out: ", &left_out, t->intervals_too_long, "interval records too long");
	summary_item("; ", &warned, t->duplicate_parts, "duplicate parts");
	summary_item("; ", &warned, t->implausible, "records with implausible figures");
	fputc('\n', stderr);
}

/* A run that reported no interval says, in one line, what matched nothing:
 * the report's selection, or else the input, its SMF type or its interval
 * records (unless an input could not be read: that said why). The
 * inventory selects nothing; it only says that the input is empty. */
static void
say_nothing_selected(struct diag *d, const struct tally *t, const struct pmint *pm,
                     const struct report *rep, unsigned smf_type, bool read_all)
{
	char why[512];
	uint64_t smf_records = 0;

	for (int ty = 0; ty < 256; ty++)
		smf_records += t->records[KIND_SMF][ty];
	if (rep && report_what_matched_nothing(rep, why, sizeof why)) {
		diag_at(d, PM_E_NOTHING_SELECTED, DIAG_NO_OFFSET, "%s", why);
		return;
	}
	if (!read_all)
		return;
	if (t->bytes_read == 0)
		snprintf(why, sizeof why, "the input is empty");
	else if (!rep || t->intervals_complete + t->intervals_incomplete > 0)
		return;
	else if (smf_records > 0 && t->records[KIND_SMF][smf_type] == 0)
		snprintf(why, sizeof why, "no SMF records of type %u in the input", smf_type);
	else if (t->records[KIND_PM][pm->interval_type] == 0)
		snprintf(why, sizeof why, "no interval records in the input");
	else
		snprintf(why, sizeof why, "no interval: every interval record was damaged or left out");
	diag_at(d, PM_E_NOTHING_SELECTED, DIAG_NO_OFFSET, "%s", why);
}

/* Whether the output is one of the inputs (said, as a usage error): the
 * run would replace what it reads. */
static bool
output_is_input(const char *output, char **paths, int n)
{
	for (int i = 0; i < (n ? n : 1); i++) {
		const char *input = n ? paths[i] : "-";
		if (outfile_is_input(output, input)) {
			cli_usage_error(PROGNAME, "the output %s is the input %s: refused, "
			                "it would be replaced", output,
			                strcmp(input, "-") ? input : "standard input");
			return true;
		}
	}
	return false;
}

/* Read every input named (or standard input). Returns -1 when one could
 * not be opened or read to its end. */
static int
read_inputs(struct pipeline *p, struct diag *d, char **paths, int n)
{
	int rc = 0;

	for (int i = 0; i < (n ? n : 1); i++) {
		const char *path = n ? paths[i] : "-";
		struct input in;

		if (input_open_path(&in, path) != PM_OK) {
			diag_at(d, PM_E_OPEN, DIAG_NO_OFFSET, "%s: %s", path, strerror(errno));
			rc = -1;
			continue;
		}
		if (pipeline_read(p, &in) < 0)
			rc = -1;
		input_close(&in);
	}
	return rc;
}

static void
on_signal(int sig)
{
	outfile_remove_on_signal();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* The run time of the title block: --run-time, else SOURCE_DATE_EPOCH
 * (seconds since 1970, shown in UTC as reproducible builds want), else now
 * in local time. */
static int
run_time(const char *opt, char out[20])
{
	const char *epoch = getenv("SOURCE_DATE_EPOCH");
	int64_t stamp;
	size_t secs;

	if (opt) {
		if (stamp_parse(opt, &stamp) != PM_OK)
			return cli_usage_error(PROGNAME, "--run-time wants a local time YYYY-MM-DD[ HH:MM[:SS]], not '%s'", opt);
	} else if (epoch && *epoch) {
		if (!parse_size(epoch, &secs) || secs > (size_t)INT64_MAX / PM_UNITS_PER_SECOND)
			return cli_usage_error(PROGNAME, "SOURCE_DATE_EPOCH must be a number of seconds, not '%s'", epoch);
		stamp = (int64_t)secs * PM_UNITS_PER_SECOND;
	} else {
		time_t now = time(NULL);
		struct tm tm;
		localtime_r(&now, &tm);
		stamp = (days_from_civil(tm.tm_year + 1900, (unsigned)tm.tm_mon + 1,
		                         (unsigned)tm.tm_mday) * 86400 +
		         tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec) * PM_UNITS_PER_SECOND;
	}
	stamp_format(stamp, out);
	return EXIT_CLEAN;
}

/* The report's definition, or 0 for the inventory, which has none. */
static int
load_definition(const struct options *o, const struct pmint *pm,
                struct rpt_def **def)
{
	char err[512];
	pm_status st;

	*def = NULL;
	if (strcmp(o->report, "inventory") == 0) {
		if (o->format == FORMAT_TEXT)
			return cli_usage_error(PROGNAME, "the inventory report is CSV only");
		return EXIT_CLEAN;
	}
	if (!(*def = malloc(sizeof **def))) {
		fputs(PROGNAME ": out of memory\n", stderr);
		return EXIT_INPUT;
	}
	st = rptload(*def, o->report, o->report_dir, &pm->lay, err, sizeof err);
	if (st == PM_E_DEFINITION) {
		fprintf(stderr, "%s\n", err);
		return EXIT_USAGE;
	}
	if (st != PM_OK)
		return st == PM_E_NOMEM ? EXIT_INPUT : cli_usage_error(PROGNAME, "%s", err);
	if ((*def)->rows == ROWS_INTERVAL && o->by_given)
		return cli_usage_error(PROGNAME, "report '%s' has a row per interval: --by does not apply",
		                   (*def)->name);
	return EXIT_CLEAN;
}

/* --timezone: the zone, and --from and --to, local times of it, in UTC
 * (the earlier, for a time the clock repeated). */
static int
open_zone(struct options *o, struct tzone **zone)
{
	int64_t utc[2];
	pm_status st;

	*zone = NULL;
	if (!o->timezone)
		return EXIT_CLEAN;
	if (!(*zone = tzone_open(o->timezone, &st))) {
		if (st == PM_E_NOMEM) {
			fputs(PROGNAME ": out of memory\n", stderr);
			return EXIT_INPUT;
		}
		return cli_usage_error(PROGNAME, "--timezone: no time zone '%s' in the system's zone data", o->timezone);
	}
	if (o->sel.from != INT64_MIN) {
		(void)tzone_to_utc(*zone, o->sel.from, utc);
		o->sel.from = utc[0];
	}
	if (o->sel.to != INT64_MAX) {
		(void)tzone_to_utc(*zone, o->sel.to, utc);
		o->sel.to = utc[0];
	}
	o->pipe.zone = o->sel.zone = *zone;
	return EXIT_CLEAN;
}

/* Why the report or the pipeline could not be set up, naming the option
 * that asked for what could not be had. */
static void
report_open_failure(struct diag *d, pm_status st, const struct options *o,
                    bool output_codepage)
{
	if (st == PM_E_CODEPAGE)
		diag_at(d, st, DIAG_NO_OFFSET, "%s=%s",
		        output_codepage ? "--output-encoding" : "--codepage",
		        output_codepage ? o->text.encoding : o->pipe.smf.codepage);
	else if (st == PM_E_PENDING_MEMORY)
		diag_at(d, st, DIAG_NO_OFFSET, "--max-pending=%zu needs %llu MiB; "
		        "it may be at most %lu, and as much as memory allows",
		        o->pipe.max_pending,
		        (unsigned long long)(reasm_memory(o->pipe.max_pending) >> 20),
		        (unsigned long)REASM_MAX_PENDING);
	else
		diag_at(d, st, DIAG_NO_OFFSET, NULL);
}

/* The inputs' size for the progress line; -1 when one is not a regular
 * file (a pipe has no size). */
static int64_t
inputs_size(char **paths, int n)
{
	int64_t total = 0;
	struct stat st;

	if (n == 0)
		return -1;
	for (int i = 0; i < n; i++) {
		if (strcmp(paths[i], "-") == 0 || stat(paths[i], &st) != 0 ||
		    !S_ISREG(st.st_mode))
			return -1;
		total += (int64_t)st.st_size;
	}
	return total;
}

int
main(int argc, char **argv)
{
	static struct pmint pm;
	struct options o = { .report = "intervals" };
	struct report_meta meta = { 0 };
	struct rpt_def *def = NULL;
	struct rowsink *sink = NULL;
	struct report *rep = NULL;
	struct diag diag;
	struct outfile out;
	struct pipeline *p = NULL;
	struct sources sources;
	struct progress progress;
	struct tzone *zone = NULL;
	char err[160], when[20];
	const char *stdin_name = "-";
	pm_status st;
	int rc, read_rc;

	setlocale(LC_ALL, "");
	pipeline_defaults(&o.pipe);
	o.sel = (struct report_opts){ .by = BY_TOTAL, .from = INT64_MIN,
	                              .to = INT64_MAX, .max_groups = 100000 };
	o.text.page_length = 60;
	if (!(o.sources = calloc((size_t)argc + 1, sizeof *o.sources))) {
		fputs(PROGNAME ": out of memory\n", stderr);
		return EXIT_INPUT;
	}
	if ((rc = parse_options(argc, argv, &o)) != EXIT_CLEAN ||
	    (rc = open_zone(&o, &zone)) != EXIT_CLEAN ||
	    (rc = run_time(o.run_time, when)) != EXIT_CLEAN)
		goto done;
	if (output_is_input(o.output, argv + optind, argc - optind)) {
		rc = EXIT_USAGE;
		goto done;
	}
	if (pmint_find(&pm, o.copybooks, o.ncopybooks, err, sizeof err) != PM_OK) {
		fprintf(stderr, PROGNAME ": copybook #PMINTDS: %s\n", err);
		rc = EXIT_USAGE;
		goto done;
	}
	if (o.describe) {
		rc = describe(&pm);
		goto done;
	}
	if ((rc = load_definition(&o, &pm, &def)) != EXIT_CLEAN)
		goto done;

	diag_init(&diag, PROGNAME, stderr);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	if (outfile_open(&out, o.output) != PM_OK) {
		fprintf(stderr, PROGNAME ": %s: %s\n", o.output, strerror(errno));
		rc = EXIT_OUTPUT;
		goto done;
	}
	static char outbuf[1 << 20];
	setvbuf(out.fp, outbuf, _IOFBF, sizeof outbuf);

	/* Progress on a terminal, or when asked; never with --quiet. */
	progress_init(&progress, !o.quiet && (o.progress || isatty(STDERR_FILENO)) ?
	              stderr : NULL, inputs_size(argv + optind, argc - optind));
	o.pipe.progress = &progress;
	diag.before_message = progress_erase;
	diag.before_ctx = &progress;
	st = sources_init(&sources, o.pipe.max_sources);
	if (st == PM_OK && def) {
		sink = o.format == FORMAT_TEXT ? textout_open(out.fp, &o.text, &st)
		                               : csvout_open(out.fp);
		if (sink)
			rep = report_open(def, &pm, &sources, &o.sel, sink, &diag, &st);
		else if (st == PM_OK)
			st = PM_E_NOMEM;
	}
	if (st == PM_OK)
		st = pipeline_open(&p, &o.pipe, &pm, &sources,
		                   rep ? report_interval : NULL, rep, &diag);
	if (!p) {
		report_open_failure(&diag, st, &o, st == PM_E_CODEPAGE && def && !sink);
		outfile_abort(&out);
		report_close(rep);
		if (sink)
			sink->close(sink);
		sources_free(&sources);
		rc = diag_exit_code(&diag);
		goto done;
	}

	read_rc = read_inputs(p, &diag, argv + optind, argc - optind);
	pipeline_finish(p);
	progress_erase(&progress);

	if (rep) {
		meta.name = def->name;
		meta.title = def->title;
		meta.description = def->description;
		meta.inputs = argc > optind ? (const char *const *)argv + optind : &stdin_name;
		meta.ninputs = argc > optind ? (size_t)(argc - optind) : 1;
		meta.run_time = when;
		st = report_finish(rep, &meta);
	} else {
		st = inventory_write(out.fp, pipeline_tally(p));
	}
	say_nothing_selected(&diag, pipeline_tally(p), &pm, rep, o.pipe.smf.type, read_rc == 0);
	/* A failed run (exit 8 or more) leaves the previous report as it was;
	 * what is written directly, standard output say, stays written. */
	if (st == PM_OK && ((diag_exit_code(&diag) < EXIT_INPUT && read_rc == 0) ||
	                    !outfile_replaces(&out)))
		st = outfile_commit(&out);
	else
		outfile_abort(&out);
	if (st != PM_OK)
		diag_at(&diag, st == PM_E_NOMEM ? st : PM_E_WRITE, DIAG_NO_OFFSET, "%s: %s",
		        o.output ? o.output : "standard output", strerror(errno));

	diag_print_suppressed(&diag);
	if (!o.quiet)
		print_summary(pipeline_tally(p), (unsigned)(argc > optind ? argc - optind : 1));
	pipeline_close(p);
	report_close(rep);
	if (sink)
		sink->close(sink);
	sources_free(&sources);
	rc = diag_exit_code(&diag);
	if (read_rc < 0 && rc < EXIT_INPUT)
		rc = EXIT_INPUT;
done:
	tzone_close(zone);
	free(def);
	free(o.sources);
	return rc;
}
