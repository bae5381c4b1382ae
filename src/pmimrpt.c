/* pmimrpt.c: the program. Parses the command line, wires the stages
 * (input -> framing -> smf -> pm -> reassembly -> report -> output), and
 * turns what the stages reported into the summary line and the exit code.
 * Only this file knows about all the stages. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "exitcode.h"
#include "fmtnum.h"
#include "framing.h"
#include "input.h"
#include "intervals_csv.h"
#include "inventory.h"
#include "outfile.h"
#include "pipeline.h"
#include "pmint.h"
#include "sources.h"

#define PROGNAME "pmimrpt"

struct options {
	const char *report;
	const char *output;
	struct pipeline_opts pipe;
	int describe, quiet;
};

enum long_only {
	OPT_REPORT = 256, OPT_FRAMING, OPT_SMF_TYPE, OPT_PM_OFFSET, OPT_CODEPAGE,
	OPT_CV_FIELD, OPT_SOURCE, OPT_MAX_RECORD, OPT_MAX_PENDING, OPT_MAX_SOURCES,
	OPT_DESCRIBE, OPT_HELP, OPT_VERSION
};

static const struct option long_options[] = {
	{ "report", required_argument, NULL, OPT_REPORT },
	{ "output", required_argument, NULL, 'o' },
	{ "framing", required_argument, NULL, OPT_FRAMING },
	{ "smf-type", required_argument, NULL, OPT_SMF_TYPE },
	{ "pm-offset", required_argument, NULL, OPT_PM_OFFSET },
	{ "codepage", required_argument, NULL, OPT_CODEPAGE },
	{ "cv-field", required_argument, NULL, OPT_CV_FIELD },
	{ "source", required_argument, NULL, OPT_SOURCE },
	{ "max-record", required_argument, NULL, OPT_MAX_RECORD },
	{ "max-pending", required_argument, NULL, OPT_MAX_PENDING },
	{ "max-sources", required_argument, NULL, OPT_MAX_SOURCES },
	{ "describe", no_argument, NULL, OPT_DESCRIBE },
	{ "quiet", no_argument, NULL, 'q' },
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
	      "      --report=NAME      intervals (default) or inventory\n"
	      "  -o, --output=FILE      write the report to FILE (replaced only when\n"
	      "                         complete) instead of standard output\n"
	      "      --describe         print the PMIM field table and exit\n"
	      "\n"
	      "Input:\n"
	      "      --framing=KIND     auto (default), pm, rdw or bdw\n"
	      "      --smf-type=N       SMF record type of PM data (default 230)\n"
	      "      --pm-offset=N      offset of the first PM record in an SMF record,\n"
	      "                         counted from the RDW (default: found)\n"
	      "      --codepage=CP      EBCDIC code page of names (default IBM-037)\n"
	      "      --cv-field=OFF,LEN add a CV name at OFF (from the RDW) of the SMF\n"
	      "                         record to the source: SYSA/IDMSCV01\n"
	      "      --source=NAME      source name for PM streams without SMF headers\n"
	      "\n"
	      "Limits:\n"
	      "      --max-record=BYTES largest logical record (default 16777216)\n"
	      "      --max-pending=N    intervals waiting for parts (default 1024)\n"
	      "      --max-sources=N    distinct sources (default 4096)\n"
	      "\n"
	      "  -q, --quiet            no summary line\n"
	      "      --help             show this help and exit\n"
	      "      --version          show the version and exit\n"
	      "\n"
	      "Exit status: 0 clean; 4 warnings (damaged records skipped, duplicate\n"
	      "parts, incomplete intervals); 8 an input could not be read to its end;\n"
	      "12 usage or configuration error; 16 output could not be written.\n",
	      fp);
}

static int usage_error(const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 1, 2)))
#endif
	;

/* Print a usage error and return the usage exit code. */
static int
usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs(PROGNAME ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry '" PROGNAME " --help' for more information.\n", stderr);
	return EXIT_USAGE;
}

static int
parse_size(const char *s, size_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end != '\0' || s[0] == '-')
		return 0;
	*out = (size_t)v;
	return 1;
}

static int
parse_options(int argc, char **argv, struct options *o)
{
	int c;
	size_t v, len;

	while ((c = getopt_long(argc, argv, "o:q", long_options, NULL)) != -1) {
		switch (c) {
		case OPT_REPORT: o->report = optarg; break;
		case 'o': o->output = optarg; break;
		case 'q': o->quiet = 1; break;
		case OPT_FRAMING:
			if (strcmp(optarg, "auto") == 0) o->pipe.framing = FRAMING_AUTO;
			else if (strcmp(optarg, "pm") == 0) o->pipe.framing = FRAMING_PM;
			else if (strcmp(optarg, "rdw") == 0) o->pipe.framing = FRAMING_RDW;
			else if (strcmp(optarg, "bdw") == 0) o->pipe.framing = FRAMING_BDW;
			else return usage_error("unknown framing '%s' (auto, pm, rdw or bdw)", optarg);
			break;
		case OPT_SMF_TYPE:
			if (!parse_size(optarg, &v) || v > 255)
				return usage_error("--smf-type must be 0 to 255, not '%s'", optarg);
			o->pipe.smf.type = (unsigned)v;
			break;
		case OPT_PM_OFFSET:
			if (!parse_size(optarg, &v) || v > 65535)
				return usage_error("--pm-offset must be 0 to 65535, not '%s'", optarg);
			o->pipe.smf.pm_offset = (long)v;
			break;
		case OPT_CODEPAGE: o->pipe.smf.codepage = optarg; break;
		case OPT_CV_FIELD: {
			char *comma = strchr(optarg, ',');
			if (!comma || (*comma = '\0', !parse_size(optarg, &v)) ||
			    !parse_size(comma + 1, &len) || len == 0 || len > 32 || v > 65535)
				return usage_error("--cv-field wants OFFSET,LENGTH (length 1 to 32), not '%s'", optarg);
			o->pipe.smf.cv_offset = v;
			o->pipe.smf.cv_length = len;
			break;
		}
		case OPT_SOURCE: o->pipe.source_label = optarg; break;
		case OPT_MAX_RECORD:
			if (!parse_size(optarg, &o->pipe.max_record) || o->pipe.max_record < 64)
				return usage_error("--max-record must be a number of bytes, at least 64, not '%s'", optarg);
			break;
		case OPT_MAX_PENDING:
			if (!parse_size(optarg, &o->pipe.max_pending) || o->pipe.max_pending == 0)
				return usage_error("--max-pending must be a positive number, not '%s'", optarg);
			break;
		case OPT_MAX_SOURCES:
			if (!parse_size(optarg, &o->pipe.max_sources) || o->pipe.max_sources == 0)
				return usage_error("--max-sources must be a positive number, not '%s'", optarg);
			break;
		case OPT_DESCRIBE: o->describe = 1; break;
		case OPT_HELP: usage(stdout); exit(EXIT_CLEAN);
		case OPT_VERSION: puts(PROGNAME " " PACKAGE_VERSION); exit(EXIT_CLEAN);
		default:
			fprintf(stderr, "Try '" PROGNAME " --help' for more information.\n");
			return EXIT_USAGE;
		}
	}
	if (strcmp(o->report, "intervals") != 0 && strcmp(o->report, "inventory") != 0)
		return usage_error("unknown report '%s' (intervals or inventory)", o->report);
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

static void
print_summary(const struct tally *t, unsigned files)
{
	uint64_t smf_records = 0, pm_records = 0;

	for (int ty = 0; ty < 256; ty++) {
		smf_records += t->records[KIND_SMF][ty];
		pm_records += t->records[KIND_PM][ty];
	}
	fprintf(stderr, PROGNAME ": %u file%s, %llu bytes: %llu used, %llu skipped, "
	        "%llu damaged; %llu SMF records (%llu spanned), %llu PM records; "
	        "%llu intervals (%llu complete, %llu incomplete)\n",
	        files, files == 1 ? "" : "s",
	        (unsigned long long)t->bytes_read, (unsigned long long)t->used,
	        (unsigned long long)t->skipped, (unsigned long long)t->damaged,
	        (unsigned long long)smf_records, (unsigned long long)t->spanned,
	        (unsigned long long)pm_records,
	        (unsigned long long)(t->intervals_complete + t->intervals_incomplete),
	        (unsigned long long)t->intervals_complete,
	        (unsigned long long)t->intervals_incomplete);
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

int
main(int argc, char **argv)
{
	static struct pmint pm;
	struct options o = { .report = "intervals" };
	struct diag diag;
	struct outfile out;
	struct intervals_csv *icsv = NULL;
	struct pipeline *p;
	struct sources sources;
	char err[160];
	pm_status st;
	int rc, read_rc;

	pipeline_defaults(&o.pipe);
	if ((rc = parse_options(argc, argv, &o)) != EXIT_CLEAN)
		return rc;
	if (pmint_load(&pm, err, sizeof err) != PM_OK) {
		fprintf(stderr, PROGNAME ": copybook #PMINTDS: %s\n", err);
		return EXIT_USAGE;
	}
	if (o.describe)
		return describe(&pm);

	diag_init(&diag, PROGNAME, stderr);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	if (outfile_open(&out, o.output) != PM_OK) {
		fprintf(stderr, PROGNAME ": %s: %s\n", o.output, strerror(errno));
		return EXIT_OUTPUT;
	}
	static char outbuf[1 << 20];
	setvbuf(out.fp, outbuf, _IOFBF, sizeof outbuf);

	p = NULL;
	if ((st = sources_init(&sources, o.pipe.max_sources)) == PM_OK &&
	    (strcmp(o.report, "intervals") != 0 ||
	     (icsv = intervals_csv_open(out.fp, &pm, &sources, &st)) != NULL))
		p = pipeline_open(&o.pipe, &pm, &sources, icsv ? intervals_csv_row : NULL,
		                  icsv, &diag, &st);
	if (!p) {
		diag_at(&diag, st, DIAG_NO_OFFSET, st == PM_E_CODEPAGE ?
		        "--codepage=%s" : NULL, o.pipe.smf.codepage);
		outfile_abort(&out);
		if (icsv)
			intervals_csv_close(icsv);
		sources_free(&sources);
		return diag_exit_code(&diag);
	}

	read_rc = read_inputs(p, &diag, argv + optind, argc - optind);
	pipeline_finish(p);

	if (icsv)
		st = intervals_csv_close(icsv);
	else
		st = inventory_write(out.fp, pipeline_tally(p));
	if (st == PM_OK)
		st = outfile_commit(&out);
	else
		outfile_abort(&out);
	if (st != PM_OK)
		diag_at(&diag, PM_E_WRITE, DIAG_NO_OFFSET, "%s: %s",
		        o.output ? o.output : "standard output", strerror(errno));

	diag_print_suppressed(&diag);
	if (!o.quiet)
		print_summary(pipeline_tally(p), (unsigned)(argc > optind ? argc - optind : 1));
	pipeline_close(p);
	sources_free(&sources);
	rc = diag_exit_code(&diag);
	if (read_rc < 0 && rc < EXIT_INPUT)
		rc = EXIT_INPUT;
	return rc;
}
