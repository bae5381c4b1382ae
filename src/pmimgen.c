/* pmimgen.c: the generator program. Parses the command line, then runs the
 * stream: sources take turns in the order their intervals end; the parts of
 * each interval (some dropped, duplicated or shuffled, when asked) and other
 * PM records go into the source's current SMF record, or straight out in
 * the PM framings; records of other SMF types are mixed in to reach the
 * asked share of bytes. An interval's truth row is written when its first
 * part is, so the truth lists intervals in the order a reader meets them. */
#define _POSIX_C_SOURCE 200809L
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/cli.h"
#include "core/diag.h"
#include "core/exitcode.h"
#include "core/numparse.h"
#include "gen/gen_model.h"
#include "gen/gen_perf.h"
#include "gen/gen_write.h"
#include "pmim/pmint.h"
#include "pmim/pmtime.h"

#define PROGNAME "pmimgen"
#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "(unknown version)"
#endif

#define MAX_SOURCES 256
#define MAX_PM_PER_SMF 1000
#define MAX_WINDOW 4096
#define PM_RECORD_MAX 512     /* room for any PM record pmimgen writes */
#define NO_SLOT UINT32_MAX
/* Random streams apart from the sources' own (which are 1, 2, ...). */
#define STREAM_LAYOUT 0x4c41594f5554u /* "LAYOUT" */
#define STREAM_FAULTS 0x4641554c5453u /* "FAULTS" */

struct options {
	const char *output, *truth, *inventory, *source_label, *sources;
	const char *perf_names; /* --perf-names: the title table, perf only */
	enum gen_framing framing;
	uint64_t seed;
	int64_t start, startup_delay_e4, interval_e4;
	uint64_t intervals, size;
	uint32_t extreme_ppm, other_pm_ppm, other_smf_ppm, drop_ppm, dup_ppm;
	bool full_range;          /* --full-range */
	unsigned smf_type;
	size_t ph_min, ph_max, pm_min, pm_max, shuffle, block_size;
	enum gen_xbdw xbdw;
	bool dump_records, verbose;
	const char *timezone;  /* --timezone: the local clock's zone */
	struct tzone *zone;    /* its rules; NULL: stamps are written as they are */
	const char *smf_only; /* an option given that needs SMF framings */
	struct copybook_list copybooks;
	bool intervals_given, label_given, startup_given;
	size_t cv_offset;      /* where CV names are, for --help */
};

/* An interval whose parts are still being written. */
struct slot {
	struct gen_interval iv;
	unsigned parts;  /* parts that are written: bit p for part p */
	unsigned copies; /* copies of its parts still to write */
	bool told;       /* its truth row is out */
};

/* A PM record waiting to be written: an interval part, or (slot NO_SLOT)
 * a record of another type. */
struct item {
	uint32_t slot;
	unsigned part;
};

/* The PM records packed into an SMF record so far. */
struct packed {
	struct item item;
	unsigned type;
	size_t len;
};

struct stream {
	struct item *window;     /* --shuffle: records waiting, any order */
	size_t nwindow;
	uint8_t *smf;            /* the SMF record being filled */
	size_t smf_len;
	struct packed *packed;
	size_t npacked, target;  /* PM records in it, and how many it gets */
	int64_t clock;           /* when the source last wrote */
	uint64_t records;        /* its SMF records so far */
};

struct run {
	const struct options *o;
	struct pmint pm;
	struct smfhdr smf;
	struct gen_model model;
	struct gen_writer w;
	struct gen_rng rng, faults;
	struct gen_filler filler;
	struct stream *streams;
	struct slot *slots;
	uint32_t *free_slots;
	uint32_t nslots, nfree, slot_cap;
	uint64_t *figures;       /* the slots' figures: slot_cap x nfields */
	uint8_t *scratch;        /* one record of another SMF type */
	uint64_t other_bytes;    /* their bytes, descriptors included */
	uint64_t truth_rows;
	int64_t clock;           /* latest time written */
	FILE *truth;
	pm_status error;
	struct diag diag;
	FILE *out;               /* the output: stdout, or o->output opened */
	const char *out_name;
};

/* ---- the names options take */

static const struct {
	const char *name;
	enum gen_framing framing;
} framings[] = {
	{ "rdw", GEN_RDW }, { "bdw", GEN_BDW },
	{ "pm", GEN_PM }, { "rdw-pm", GEN_RDW_PM }, { "perf", GEN_PERF },
};

static const char *
framing_names(size_t i)
{
	return i < sizeof framings / sizeof framings[0] ? framings[i].name : NULL;
}

/* In the order of enum gen_xbdw, after GEN_XBDW_NONE. */
static const char *
xbdw_names(size_t i)
{
	static const char *const names[] = { "large", "all" };
	return i < sizeof names / sizeof names[0] ? names[i] : NULL;
}

static bool
smf_framing(enum gen_framing f)
{
	return f == GEN_RDW || f == GEN_BDW;
}

/* ---- parsing option arguments */

/* Bytes, with K, M, G or T for powers of 1024. */
static bool
parse_bytes(const char *s, uint64_t *out)
{
	return numparse_bytes(s, "KMGT", UINT64_MAX, out);
}

/* A fraction (0.05) or a percentage (5%) as parts per million, exactly:
 * no floating point decides anything pmimgen writes. */
static bool
parse_rate(const char *s, uint32_t *ppm)
{
	const uint64_t one = 100000000; /* units of 10**-8 */
	uint64_t v = 0;
	int digits = 0;

	for (; isdigit((unsigned char)*s); s++, digits++)
		if ((v = v * 10 + (uint64_t)(*s - '0')) > 100)
			return false;
	v *= one;
	if (*s == '.')
		for (uint64_t place = one / 10; isdigit((unsigned char)*++s); place /= 10, digits++)
			v += (uint64_t)(*s - '0') * place;
	if (digits == 0)
		return false;
	if (*s == '%') {
		s++;
		v /= 100;
	}
	v /= one / GEN_PPM;
	if (*s != '\0' || v > GEN_PPM)
		return false;
	*ppm = (uint32_t)v;
	return true;
}

/* "N" or "N-M" */
static bool
parse_range(const char *s, size_t *lo, size_t *hi)
{
	char buf[48];
	char *dash;
	uint64_t a, b;

	if (strlen(s) >= sizeof buf)
		return false;
	strcpy(buf, s);
	dash = strchr(buf, '-');
	if (dash)
		*dash = '\0';
	if (!numparse_u64(buf, SIZE_MAX, &a) || (dash && !numparse_u64(dash + 1, SIZE_MAX, &b)))
		return false;
	if (!dash)
		b = a;
	if (a > b)
		return false;
	*lo = (size_t)a;
	*hi = (size_t)b;
	return true;
}

static int
rate_option(struct diag *d, const char *name, const char *arg, uint32_t *ppm)
{
	if (!parse_rate(arg, ppm))
		return diag_usage(d, "--%s wants a fraction (0.05) or a percentage (5%%), not '%s'",
		                  name, arg);
	return EXIT_CLEAN;
}

static int
seconds_option(struct diag *d, const char *name, const char *arg, uint64_t max, int64_t *e4)
{
	uint64_t v;

	if (!numparse_u64(arg, max, &v))
		return diag_usage(d, "--%s must be 0 to %" PRIu64 " seconds, not '%s'",
		                  name, max, arg);
	*e4 = (int64_t)v * PM_UNITS_PER_SECOND;
	return EXIT_CLEAN;
}

/* ---- what each option does; target: what the table names */

static int
set_framing(void *target, struct diag *d, const char *arg)
{
	long i = cli_name_index(framing_names, arg);
	char list[64];

	if (i < 0)
		return diag_usage(d, "unknown framing '%s' (%s)", arg,
		                  cli_name_list(framing_names, false, list, sizeof list));
	*(enum gen_framing *)target = framings[i].framing;
	return EXIT_CLEAN;
}

static int
set_block_size(void *target, struct diag *d, const char *arg)
{
	struct options *o = target;
	uint64_t v;

	o->smf_only = "--block-size";
	if (!parse_bytes(arg, &v) || v < 2 * GEN_DESC_LEN + 1 || v > GEN_XBLOCK_MAX)
		return diag_usage(d, "--block-size must be %d to %u bytes, not '%s'",
		                  2 * GEN_DESC_LEN + 1, GEN_XBLOCK_MAX, arg);
	o->block_size = (size_t)v;
	return EXIT_CLEAN;
}

static int
set_extended_bdw(void *target, struct diag *d, const char *arg)
{
	struct options *o = target;
	long i = arg ? cli_name_index(xbdw_names, arg) : 0;
	char list[64];

	o->smf_only = "--extended-bdw";
	if (i < 0)
		return diag_usage(d, "--extended-bdw takes %s, not '%s'",
		                  cli_name_list(xbdw_names, false, list, sizeof list), arg);
	o->xbdw = (enum gen_xbdw)(GEN_XBDW_LARGE + i);
	return EXIT_CLEAN;
}

static int
set_seed(void *target, struct diag *d, const char *arg)
{
	if (!numparse_u64(arg, UINT64_MAX, target))
		return diag_usage(d, "--seed must be a number, not '%s'", arg);
	return EXIT_CLEAN;
}

static int
set_source_label(void *target, struct diag *d, const char *arg)
{
	struct options *o = target;

	(void)d;
	o->source_label = arg;
	o->label_given = true;
	return EXIT_CLEAN;
}

static int
set_start(void *target, struct diag *d, const char *arg)
{
	if (pmtime_parse(arg, target) != PM_OK)
		return diag_usage(d, "--start wants YYYY-MM-DD[ HH:MM[:SS]], not '%s'", arg);
	return EXIT_CLEAN;
}

static int
set_startup_delay(void *target, struct diag *d, const char *arg)
{
	struct options *o = target;

	o->startup_given = true;
	return seconds_option(d, "startup-delay", arg, 86400, &o->startup_delay_e4);
}

static int
set_interval(void *target, struct diag *d, const char *arg)
{
	int rc = seconds_option(d, "interval", arg, 86400, target);

	if (rc == EXIT_CLEAN && *(int64_t *)target == 0)
		rc = diag_usage(d, "--interval must be at least 1 second");
	return rc;
}

static int
set_intervals(void *target, struct diag *d, const char *arg)
{
	struct options *o = target;

	o->intervals_given = true;
	if (!numparse_u64(arg, UINT64_MAX, &o->intervals) || o->intervals == 0)
		return diag_usage(d, "--intervals must be a positive number, not '%s'", arg);
	return EXIT_CLEAN;
}

static int
set_size(void *target, struct diag *d, const char *arg)
{
	uint64_t *size = target;

	if (!parse_bytes(arg, size) || *size == 0)
		return diag_usage(d, "--size must be a positive number of bytes, not '%s'", arg);
	return EXIT_CLEAN;
}

static int
set_extreme(void *target, struct diag *d, const char *arg)
{
	return rate_option(d, "extreme", arg, target);
}

static int
set_smf_type(void *target, struct diag *d, const char *arg)
{
	struct options *o = target;
	uint64_t v;

	o->smf_only = "--smf-type";
	if (!numparse_u64(arg, 255, &v))
		return diag_usage(d, "--smf-type must be 0 to 255, not '%s'", arg);
	o->smf_type = (unsigned)v;
	return EXIT_CLEAN;
}

static int
set_product_header(void *target, struct diag *d, const char *arg)
{
	struct options *o = target;

	o->smf_only = "--product-header";
	if (!parse_range(arg, &o->ph_min, &o->ph_max) || o->ph_min < GEN_PH_MIN ||
	    o->ph_max > GEN_PH_MAX)
		return diag_usage(d, "--product-header wants MIN[-MAX] within %d-%d, not '%s'",
		                  GEN_PH_MIN, GEN_PH_MAX, arg);
	return EXIT_CLEAN;
}

static int
set_pm_per_smf(void *target, struct diag *d, const char *arg)
{
	struct options *o = target;

	o->smf_only = "--pm-per-smf";
	if (!parse_range(arg, &o->pm_min, &o->pm_max) || o->pm_min == 0 ||
	    o->pm_max > MAX_PM_PER_SMF)
		return diag_usage(d, "--pm-per-smf wants MIN[-MAX] within 1-%d, not '%s'",
		                  MAX_PM_PER_SMF, arg);
	return EXIT_CLEAN;
}

static int
set_other_smf(void *target, struct diag *d, const char *arg)
{
	struct options *o = target;

	o->smf_only = "--other-smf";
	return rate_option(d, "other-smf", arg, &o->other_smf_ppm);
}

static int
set_sparse(void *target, struct diag *d, const char *arg)
{
	struct options *o = target;

	(void)d, (void)arg;
	o->other_smf_ppm = GEN_PPM / 100 * 99;
	o->smf_only = "--sparse";
	return EXIT_CLEAN;
}

static int
set_no_dump(void *target, struct diag *d, const char *arg)
{
	struct options *o = target;

	(void)d, (void)arg;
	o->dump_records = false;
	o->smf_only = "--no-dump-records";
	return EXIT_CLEAN;
}

static int
set_other_pm(void *target, struct diag *d, const char *arg)
{
	return rate_option(d, "other-pm", arg, target);
}

static int
set_drop(void *target, struct diag *d, const char *arg)
{
	return rate_option(d, "drop-parts", arg, target);
}

static int
set_duplicate(void *target, struct diag *d, const char *arg)
{
	return rate_option(d, "duplicate-parts", arg, target);
}

static int
set_shuffle(void *target, struct diag *d, const char *arg)
{
	uint64_t v = 8;

	if (arg && (!numparse_u64(arg, MAX_WINDOW, &v) || v == 0))
		return diag_usage(d, "--shuffle window must be 1 to %d, not '%s'", MAX_WINDOW, arg);
	*(size_t *)target = (size_t)v;
	return EXIT_CLEAN;
}

static int show_help(void *target, struct diag *d, const char *arg);

static int
show_version(void *target, struct diag *d, const char *arg)
{
	(void)target, (void)d, (void)arg;
	puts(PROGNAME " (pmimrpt) " PACKAGE_VERSION);
	return CLI_STOP;
}

/* ---- the table: getopt's options, --help and the setters in one */

#define OPT(field) offsetof(struct options, field)

static const struct cli_option options[] = {
	{ .help = "Output:" },
	{ "output", 'o', required_argument, "=FILE", cli_set_string, OPT(output),
	  "write to FILE instead of standard output", NULL },
	{ "framing", 0, required_argument, "=KIND", set_framing, OPT(framing),
	  "rdw (default): SMF records behind RDW/SDW, as\n"
	  "FTP with SITE RDW leaves them; bdw: blocks of\n"
	  "RDW/SDW segments behind BDWs; pm: PM records\n"
	  "back to back; rdw-pm: PM records behind RDWs;\n"
	  "perf: Windows PERF_DATA_BLOCKs, one per\n"
	  "snapshot (--intervals) of each system (--sources)", NULL },
	{ "block-size", 0, required_argument, "=BYTES", set_block_size, 0,
	  "largest block, BDW included (default 27998);\n"
	  "rdw spans records where blocks would end", NULL },
	{ "extended-bdw", 0, optional_argument, "[=WHICH]", set_extended_bdw, 0,
	  "allow blocks over 32760 bytes (bdw only), with\n"
	  "extended BDWs on those (large, the default,\n"
	  "as QSAM writes) or on all blocks (all)", NULL },
	{ "truth", 0, required_argument, "=FILE", cli_set_string, OPT(truth),
	  "CSV of the intervals written, one row each", NULL },
	{ "truth-inventory", 0, required_argument, "=FILE", cli_set_string, OPT(inventory),
	  "CSV of the records, segments and blocks written", NULL },
	{ "perf-names", 0, required_argument, "=FILE", cli_set_string, OPT(perf_names),
	  "perf: the title table used, index and name on\n"
	  "alternate lines (UTF-8)", NULL },
	{ .help = "Workload:" },
	{ "seed", 0, required_argument, "=N", set_seed, OPT(seed),
	  "seed of every random choice (default 1)", NULL },
	{ "sources", 0, required_argument, "=LIST", cli_set_string, OPT(sources),
	  "comma-separated SYSID or SYSID/CVNAME, each of\n"
	  "A-Z 0-9 @ # $ (default SYSA); CV names are\n"
	  "written when every source has one", NULL },
	{ "source-label", 0, required_argument, "=NAME", set_source_label, 0,
	  "source column of the truth for the pm framings", NULL },
	{ "start", 0, required_argument, "=TIME", set_start, OPT(start),
	  "when the run starts, YYYY-MM-DD[ HH:MM[:SS]]\n"
	  "(default 2025-03-03 06:00)", NULL },
	{ "timezone", 0, required_argument, "=ZONE", cli_set_string, OPT(timezone),
	  "write interval times as the local clock of ZONE\n"
	  "(an IANA name) shows them, --start being one;\n"
	  "the truth gives them with their UTC offset", NULL },
	{ "startup-delay", 0, required_argument, "=SECS", set_startup_delay, 0,
	  "each CV starts up to SECS after --start, so its\n"
	  "first interval is short (default 300)", NULL },
	{ "interval", 0, required_argument, "=SECS", set_interval, OPT(interval_e4),
	  "interval length (default 900)", NULL },
	{ "intervals", 0, required_argument, "=N", set_intervals, 0,
	  "intervals per source (default 96; no limit when\n"
	  "--size is given alone)", NULL },
	{ "size", 0, required_argument, "=BYTES", set_size, OPT(size),
	  "stop once the output reaches BYTES (suffixes\n"
	  "K, M, G, T: powers of 1024)", NULL },
	{ "extreme", 0, required_argument, "=RATE", set_extreme, OPT(extreme_ppm),
	  "intervals with one wait bucket near 2**31-1", NULL },
	{ "full-range", 0, no_argument, NULL, cli_set_true, OPT(full_range),
	  "every figure drawn over its whole range (fullwords\n"
	  "up to 2**31-1, TOD times up to 2**44): a stress of\n"
	  "the formatting, not a workload", NULL },
	{ .help = "SMF records (rdw and bdw framings):" },
	{ "smf-type", 0, required_argument, "=N", set_smf_type, 0,
	  "record type of the PM data (default 230)", NULL },
	{ "product-header", 0, required_argument, "=MIN[-MAX]", set_product_header, 0,
	  "bytes between the SMF header and the\n"
	  "first PM record (default 20-60)", NULL },
	{ "pm-per-smf", 0, required_argument, "=MIN[-MAX]", set_pm_per_smf, 0,
	  "PM records in one SMF record (default 2-8)", NULL },
	{ "other-smf", 0, required_argument, "=SHARE", set_other_smf, 0,
	  "share of the bytes in other SMF types (30, 70,\n"
	  "72, 110, 115, 116) (default 0)", NULL },
	{ "sparse", 0, no_argument, NULL, set_sparse, 0,
	  "same as --other-smf=0.99", NULL },
	{ "no-dump-records", 0, no_argument, NULL, set_no_dump, 0,
	  "no dump header (type 2) and trailer (type 3)", NULL },
	{ .help = "PM records and faults:" },
	{ "other-pm", 0, required_argument, "=RATE", set_other_pm, OPT(other_pm_ppm),
	  "share of PM records of other types (default 0)", NULL },
	{ "drop-parts", 0, required_argument, "=RATE", set_drop, OPT(drop_ppm),
	  "leave out this share of interval parts", NULL },
	{ "duplicate-parts", 0, required_argument, "=RATE", set_duplicate, OPT(dup_ppm),
	  "write this share of interval parts twice", NULL },
	{ "shuffle", 0, optional_argument, "[=N]", set_shuffle, OPT(shuffle),
	  "write each source's PM records in random order,\n"
	  "N at a time (default 8)", NULL },
	{ .help = "" },
	{ "verbose", 'v', no_argument, NULL, cli_set_true, OPT(verbose),
	  "report what was written, and how fast", NULL },
	{ "copybook", 0, required_argument, "=FILE", copybook_set_option,
	  OPT(copybooks),
	  "write PM records as the DSECT listing FILE (or\n"
	  "the one in folder FILE) lays them out", NULL },
	{ "help", 0, no_argument, NULL, show_help, 0, "show this help and exit", NULL },
	{ "version", 0, no_argument, NULL, show_version, 0, "show the version and exit", NULL },
};

static const struct cli_program program = {
	"Usage: " PROGNAME " [OPTION]...\n"
	"Write a synthetic dataset of CA IDMS Performance Monitor interval (PMIM)\n"
	"records, and what it holds, for testing and benchmarking pmimrpt.\n",
	options, sizeof options / sizeof options[0], 29
};

static int
show_help(void *target, struct diag *d, const char *arg)
{
	const struct options *o = target;

	(void)d, (void)arg;
	cli_help(&program, stdout);
	printf("\n"
	       "RATE and SHARE are fractions (0.05) or percentages (5%%).\n"
	       "CV names are at offset %zu, length %d, of each SMF record of PM data\n"
	       "(pmimrpt --cv-field=%zu,%d).\n"
	       "Exit status: 0 written; 8 out of memory; 12 usage error; 16 output\n"
	       "could not be written.\n", o->cv_offset, GEN_CV_LEN, o->cv_offset, GEN_CV_LEN);
	return CLI_STOP;
}

/* The option given that the perf framing has no use for, or NULL. */
static const char *
not_for_perf(const struct options *o)
{
	return o->label_given ? "--source-label" : o->inventory ? "--truth-inventory"
	       : o->timezone ? "--timezone" : o->size ? "--size"
	       : o->startup_given ? "--startup-delay"
	       : o->extreme_ppm ? "--extreme" : o->other_pm_ppm ? "--other-pm"
	       : o->drop_ppm ? "--drop-parts" : o->dup_ppm ? "--duplicate-parts"
	       : o->shuffle ? "--shuffle" : o->copybooks.n ? "--copybook" : NULL;
}

/* What the options ask of each other. */
static int
check_options(const struct options *o, struct diag *d)
{
	if (o->framing == GEN_PERF && not_for_perf(o))
		return diag_usage(d, "%s is not for the perf framing", not_for_perf(o));
	if (o->framing == GEN_PERF && strchr(o->sources, '/'))
		return diag_usage(d, "--sources: the perf framing takes system names, without CV names");
	if (o->framing != GEN_PERF && o->perf_names)
		return diag_usage(d, "--perf-names is for the perf framing");
	if (smf_framing(o->framing) && o->label_given)
		return diag_usage(d, "--source-label is for the pm framings; SMF records name their source");
	if (!smf_framing(o->framing) && o->smf_only)
		return diag_usage(d, "%s is for the rdw and bdw framings", o->smf_only);
	if (o->xbdw != GEN_XBDW_NONE && o->framing != GEN_BDW)
		return diag_usage(d, "--extended-bdw is for the bdw framing");
	if (o->framing == GEN_BDW && o->xbdw == GEN_XBDW_NONE && o->block_size > GEN_BLOCK_MAX)
		return diag_usage(d, "--block-size above %d needs --extended-bdw", GEN_BLOCK_MAX);
	if (o->other_pm_ppm >= GEN_PPM || o->other_smf_ppm >= GEN_PPM)
		return diag_usage(d, "--other-pm and --other-smf must be below 1 (100%%)");
	if (o->dump_records && smf_framing(o->framing) && (o->smf_type == 2 || o->smf_type == 3))
		return diag_usage(d, "SMF types 2 and 3 are the dump header and trailer: add --no-dump-records");
	if (o->size && o->intervals == 0 && o->drop_ppm == GEN_PPM)
		return diag_usage(d, "--drop-parts=1 writes nothing: --size would never be reached");
	return EXIT_CLEAN;
}

static int
parse_options(int argc, char **argv, struct options *o, struct diag *d)
{
	int rc = cli_parse(&program, argc, argv, o, d);

	if (rc != EXIT_CLEAN)
		return rc;
	if (optind < argc)
		return diag_usage(d, "unexpected argument '%s'", argv[optind]);
	if (!o->intervals_given)
		o->intervals = o->size ? 0 : 96;
	return check_options(o, d);
}

/* "SYSA,SYSB/IDMSCV01": names into the model's sources. */
static int
parse_sources(const struct options *o, struct gen_model *m, struct diag *d)
{
	char *list = strdup(o->sources), *save = NULL, *tok;
	unsigned n = 0, with_cv = 0;
	int rc = EXIT_CLEAN;

	m->sources = calloc(MAX_SOURCES, sizeof *m->sources);
	if (!list || !m->sources) {
		free(list);
		diag_say(d, SC_INPUT, "out of memory");
		return EXIT_INPUT;
	}
	for (tok = strtok_r(list, ",", &save); tok && rc == EXIT_CLEAN;
	     tok = strtok_r(NULL, ",", &save)) {
		char *slash = strchr(tok, '/');
		struct gen_source *src = &m->sources[n];

		if (slash)
			*slash = '\0';
		if (n == MAX_SOURCES)
			rc = diag_usage(d, "--sources: at most %d sources", MAX_SOURCES);
		else if (!gen_ebcdic_name_ok(tok, GEN_SYSID_LEN) ||
		         (slash && !gen_ebcdic_name_ok(slash + 1, GEN_CV_LEN)))
			rc = diag_usage(d, "--sources: '%s%s%s' is not SYSID[/CVNAME] (1-4 and 1-8 of A-Z 0-9 @ # $)",
			                 tok, slash ? "/" : "", slash ? slash + 1 : "");
		if (rc != EXIT_CLEAN)
			break;
		strcpy(src->sysid, tok);
		strcpy(src->cv, slash ? slash + 1 : "");
		snprintf(src->name, sizeof src->name, "%s%s%s", tok, slash ? "/" : "",
		         src->cv);
		for (unsigned k = 0; k < n; k++)
			if (strcmp(m->sources[k].name, src->name) == 0)
				rc = diag_usage(d, "--sources: '%s' given twice", src->name);
		with_cv += slash != NULL;
		n++;
	}
	free(list);
	if (rc != EXIT_CLEAN)
		return rc;
	if (n == 0)
		return diag_usage(d, "--sources: no source given");
	if (with_cv && with_cv != n)
		return diag_usage(d, "--sources: give a CV name to every source or to none");
	if (!smf_framing(o->framing) && o->framing != GEN_PERF && n > 1)
		return diag_usage(d, "the pm framings carry no source names: give one source");
	m->nsources = n;
	return EXIT_CLEAN;
}

/* ---- the stream */

static void
fail(struct run *r, pm_status st)
{
	if (r->error == PM_OK)
		r->error = st;
}

/* Room for the figures of cap slots, in one block that grows with them:
 * the slots' figures move with it. */
static bool
slot_figures(struct run *r, uint32_t cap)
{
	size_t nfields = r->pm.lay.nfields;
	uint64_t *figures = realloc(r->figures, (size_t)cap * nfields * sizeof *figures);

	if (!figures)
		return false;
	r->figures = figures;
	for (uint32_t i = 0; i < cap; i++)
		r->slots[i].iv.v = figures + (size_t)i * nfields;
	return true;
}

static uint32_t
slot_new(struct run *r)
{
	if (r->nfree)
		return r->free_slots[--r->nfree];
	if (r->nslots == r->slot_cap) {
		uint32_t cap = r->slot_cap ? 2 * r->slot_cap : 64;
		struct slot *slots = realloc(r->slots, cap * sizeof *slots);
		uint32_t *free_slots;

		if (!slots) {
			fail(r, PM_E_NOMEM);
			return NO_SLOT;
		}
		r->slots = slots;
		free_slots = realloc(r->free_slots, cap * sizeof *free_slots);
		if (!free_slots) {
			fail(r, PM_E_NOMEM);
			return NO_SLOT;
		}
		r->free_slots = free_slots;
		if (!slot_figures(r, cap)) {
			fail(r, PM_E_NOMEM);
			return NO_SLOT;
		}
		r->slot_cap = cap;
	}
	return r->nslots++;
}

/* An item is in the output: the first part of an interval brings its
 * truth row; the last copy frees the interval. */
static void
written(struct run *r, struct item it)
{
	struct slot *sl;

	if (it.slot == NO_SLOT)
		return;
	sl = &r->slots[it.slot];
	if (!sl->told) {
		const char *name = smf_framing(r->o->framing) ?
		                   r->model.sources[sl->iv.source].name : r->o->source_label;
		if (r->truth)
			gen_truth_row(r->truth, &r->pm, name, &sl->iv, sl->parts, r->o->zone);
		sl->told = true;
		r->truth_rows++;
	}
	if (--sl->copies == 0)
		r->free_slots[r->nfree++] = it.slot;
}

static void
top_up_other_smf(struct run *r, int64_t stamp)
{
	const struct options *o = r->o;
	uint64_t pm_bytes = r->w.inv.smf_bytes[o->smf_type];

	while (r->other_bytes * (GEN_PPM - o->other_smf_ppm) < pm_bytes * o->other_smf_ppm) {
		const char *sysid = r->model.sources[gen_rng_below(&r->rng, r->model.nsources)].sysid;
		unsigned type;
		size_t len = gen_enc_other_smf(&r->smf, r->scratch, o->smf_type, stamp, sysid,
		                               &r->rng, &r->filler, &type);
		uint64_t before = r->w.inv.smf_bytes[type];

		gen_write_smf_record(&r->w, type, r->scratch, len);
		r->other_bytes += r->w.inv.smf_bytes[type] - before;
	}
}

static void
begin_smf(struct run *r, unsigned s)
{
	struct stream *st = &r->streams[s];
	size_t ph = (size_t)gen_rng_range(&r->rng, r->o->ph_min, r->o->ph_max);

	gen_enc_product_header(st->smf + r->smf.std_len, ph, r->model.sources[s].cv,
	                       ++st->records, &r->rng);
	st->smf_len = r->smf.std_len + ph;
	st->target = (size_t)gen_rng_range(&r->rng, r->o->pm_min, r->o->pm_max);
}

static void
flush_smf(struct run *r, unsigned s)
{
	struct stream *st = &r->streams[s];

	if (st->npacked == 0)
		return;
	gen_enc_smf_header(&r->smf, st->smf, r->o->smf_type, st->clock,
	                   r->model.sources[s].sysid, NULL, 0);
	gen_write_smf_record(&r->w, r->o->smf_type, st->smf, st->smf_len);
	for (size_t i = 0; i < st->npacked; i++) {
		gen_write_count_pm(&r->w, st->packed[i].type, st->packed[i].len);
		written(r, st->packed[i].item);
	}
	st->npacked = 0;
	if (st->clock > r->clock)
		r->clock = st->clock;
	top_up_other_smf(r, st->clock);
}

/* Write one PM record: out at once, or into the source's SMF record. */
static void
emit(struct run *r, unsigned s, struct item it)
{
	struct stream *st = &r->streams[s];
	uint8_t rec[PM_RECORD_MAX];
	size_t len;
	unsigned type;

	if (it.slot != NO_SLOT) {
		gen_enc_interval_part(&r->pm, &r->slots[it.slot].iv, it.part, rec, r->o->zone);
		len = r->pm.part_len[it.part];
		type = r->pm.interval_type;
	} else {
		len = gen_enc_other_pm(&r->pm, rec, st->clock, &r->rng, &r->filler, &type);
	}
	if (!smf_framing(r->o->framing)) {
		gen_write_pm_record(&r->w, type, rec, len);
		written(r, it);
		return;
	}
	if (st->npacked && st->smf_len + len > GEN_PM_SMF_MAX)
		flush_smf(r, s);
	if (st->npacked == 0)
		begin_smf(r, s);
	memcpy(st->smf + st->smf_len, rec, len);
	st->smf_len += len;
	st->packed[st->npacked].item = it;
	st->packed[st->npacked].type = type;
	st->packed[st->npacked].len = len;
	if (++st->npacked >= st->target)
		flush_smf(r, s);
}

/* Write the window's records in a random order. */
static void
emit_window(struct run *r, unsigned s)
{
	struct stream *st = &r->streams[s];

	while (st->nwindow) {
		size_t k = (size_t)gen_rng_below(&r->faults, st->nwindow);
		struct item it = st->window[k];
		st->window[k] = st->window[--st->nwindow];
		emit(r, s, it);
	}
}

/* --shuffle permutes a source's records N at a time: a record is never
 * more than N - 1 places from where it belongs, so a reader that waits a
 * bounded number of parts for the rest of an interval sees it whole. */
static void
enqueue(struct run *r, unsigned s, struct item it)
{
	struct stream *st = &r->streams[s];

	if (r->o->shuffle == 0) {
		emit(r, s, it);
		return;
	}
	st->window[st->nwindow++] = it;
	if (st->nwindow == r->o->shuffle)
		emit_window(r, s);
}

/* Source s's next interval, through the faults into the stream. */
static void
next_interval(struct run *r, unsigned s)
{
	const struct options *o = r->o;
	unsigned copies[CB_MAX_PARTS] = { 0 };
	uint32_t id = slot_new(r);
	struct slot *sl;
	struct item other = { NO_SLOT, 0 };

	if (id == NO_SLOT)
		return;
	sl = &r->slots[id];
	gen_model_next(&r->model, s, &sl->iv);
	/* The CV writes its records a moment after the interval ends. */
	r->streams[s].clock = sl->iv.end + (int64_t)gen_rng_below(&r->rng, 2 * PM_UNITS_PER_SECOND);
	sl->parts = sl->copies = 0;
	sl->told = false;
	for (unsigned p = 1; p <= r->pm.nparts; p++) {
		if (gen_rng_chance(&r->faults, o->drop_ppm))
			continue;
		copies[p] = 1 + gen_rng_chance(&r->faults, o->dup_ppm);
		sl->parts |= 1u << p;
		sl->copies += copies[p];
	}
	if (sl->copies == 0) {
		r->free_slots[r->nfree++] = id;
		return;
	}
	for (unsigned p = 1; p <= r->pm.nparts; p++) {
		struct item part = { id, p };
		while (gen_rng_chance(&r->rng, o->other_pm_ppm))
			enqueue(r, s, other);
		for (unsigned c = 0; c < copies[p]; c++)
			enqueue(r, s, part);
	}
}

/* The source whose next interval ends first, among those with intervals
 * left; -1 when none has. */
static int
next_source(const struct run *r)
{
	int best = -1;
	int64_t best_end = 0;

	for (unsigned s = 0; s < r->model.nsources; s++) {
		int64_t end;
		if (r->o->intervals && r->model.sources[s].intervals >= r->o->intervals)
			continue;
		end = gen_model_next_end(&r->model, s);
		if (best < 0 || end < best_end) {
			best = (int)s;
			best_end = end;
		}
	}
	return best;
}

static void
dump_record(struct run *r, unsigned type, int64_t stamp)
{
	size_t len = gen_enc_smf_header(&r->smf, r->scratch, type, stamp,
	                                r->model.sources[0].sysid, NULL, 0);
	gen_write_smf_record(&r->w, type, r->scratch, len);
}

static void
generate(struct run *r)
{
	const struct options *o = r->o;
	bool smf = smf_framing(o->framing);
	int s;

	if (smf && o->dump_records)
		dump_record(r, 2, o->start);
	while (r->error == PM_OK && !r->w.error && (s = next_source(r)) >= 0 &&
	       !(o->size && gen_write_bytes(&r->w) >= o->size))
		next_interval(r, (unsigned)s);
	for (unsigned k = 0; k < r->model.nsources; k++) {
		emit_window(r, k);
		flush_smf(r, k);
	}
	if (smf && o->dump_records)
		dump_record(r, 3, r->clock);
}

/* ---- setting up and tearing down */

static pm_status
run_open(struct run *r, const struct options *o)
{
	pm_status st;

	r->o = o;
	gen_rng_seed(&r->rng, o->seed, STREAM_LAYOUT);
	gen_rng_seed(&r->faults, o->seed, STREAM_FAULTS);
	if ((st = gen_filler_init(&r->filler, &r->rng)) != PM_OK)
		return st;
	r->streams = calloc(r->model.nsources, sizeof *r->streams);
	r->scratch = malloc(GEN_OTHER_SMF_MAX);
	if (!r->streams || !r->scratch)
		return PM_E_NOMEM;
	for (unsigned s = 0; s < r->model.nsources; s++) {
		struct stream *str = &r->streams[s];
		gen_model_source(&r->model, s, o->seed, o->start, o->startup_delay_e4);
		str->clock = o->start;
		str->window = malloc((o->shuffle ? o->shuffle : 1) * sizeof *str->window);
		str->smf = malloc(GEN_PM_SMF_MAX);
		str->packed = malloc(o->pm_max * sizeof *str->packed);
		if (!str->window || !str->smf || !str->packed)
			return PM_E_NOMEM;
	}
	r->clock = o->start;
	return PM_OK;
}

static void
run_close(struct run *r)
{
	for (unsigned s = 0; r->streams && s < r->model.nsources; s++) {
		free(r->streams[s].window);
		free(r->streams[s].smf);
		free(r->streams[s].packed);
	}
	free(r->streams);
	free(r->scratch);
	free(r->slots);
	free(r->figures);
	free(r->free_slots);
	free(r->model.sources);
	gen_filler_free(&r->filler);
	gen_model_free(&r->model);
	pmint_free(&r->pm);
	smfhdr_free(&r->smf);
}

static FILE *
open_output(struct diag *d, const char *path, const char *what)
{
	FILE *fp = fopen(path, "wb");
	if (!fp)
		diag_say(d, SC_OUTPUT, "cannot write %s %s: %s", what, path, strerror(errno));
	return fp;
}

/* Close an output file, reporting any error it met. */
static int
close_output(struct diag *d, FILE *fp, const char *path)
{
	int failed, saved;

	errno = 0;
	failed = fflush(fp) != 0 || ferror(fp);
	saved = errno;
	if (fclose(fp) != 0 && !failed) {
		failed = 1;
		saved = errno;
	}
	if (failed) {
		diag_say(d, SC_OUTPUT, "error writing %s: %s", path,
		         saved ? strerror(saved) : "write failed");
		return EXIT_OUTPUT;
	}
	return EXIT_CLEAN;
}

static double
seconds_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
report(struct run *r, double seconds)
{
	const struct gen_inventory *inv = &r->w.inv;
	uint64_t bytes = r->w.flushed, smf = 0, pm = 0;

	for (unsigned t = 0; t < 256; t++) {
		smf += inv->smf_records[t];
		pm += inv->pm_records[t];
	}
	diag_say(&r->diag, SC_OK, "%" PRIu64 " bytes: %" PRIu64 " intervals, %" PRIu64
	         " PM records (%" PRIu64 " interval parts), %" PRIu64 " SMF records (%"
	         PRIu64 " of type %u); %.2f s, %.0f MB/s",
	         bytes, r->truth_rows, pm, inv->pm_records[r->pm.interval_type], smf,
	         inv->smf_records[r->o->smf_type], r->o->smf_type, seconds,
	         seconds > 0 ? (double)bytes / seconds / 1e6 : 0.0);
}

static int
write_inventory(struct run *r, const char *path)
{
	FILE *fp = open_output(&r->diag, path, "inventory");

	if (!fp)
		return EXIT_OUTPUT;
	gen_inventory_csv(fp, &r->w.inv, r->w.flushed);
	return close_output(&r->diag, fp, path);
}

/* The layouts, the options, the time zone, the model and its sources. */
static int
setup(struct run *r, struct options *o, int argc, char **argv)
{
	struct diag *d = &r->diag;
	char err[160];
	int rc;

	if (smfhdr_load(&r->smf, err, sizeof err) != PM_OK ||
	    gen_smf_check(&r->smf, err, sizeof err) != PM_OK) {
		diag_say(d, SC_USAGE, "%s", err);
		return EXIT_USAGE;
	}
	(void)pmtime_parse("2025-03-03 06:00", &o->start);
	o->cv_offset = r->smf.std_len + GEN_PH_CV_OFFSET;
	if ((rc = parse_options(argc, argv, o, d)) != EXIT_CLEAN)
		return rc;
	/* the layout after the options: --copybook may name another */
	if (pmint_find(&r->pm, o->copybooks.paths, o->copybooks.n, err, sizeof err) != PM_OK) {
		diag_say(d, SC_USAGE, "%s", err);
		return EXIT_USAGE;
	}
	if (r->pm.max_len > PM_RECORD_MAX) {
		diag_say(d, SC_USAGE, "#PMINTDS: parts of %zu bytes; pmimgen takes up to %d",
		         r->pm.max_len, PM_RECORD_MAX);
		return EXIT_USAGE;
	}
	if (o->timezone) {
		int64_t utc[2];
		pm_status st;
		if (!(o->zone = tzone_open(o->timezone, &st)))
			return diag_usage(d, "--timezone: no time zone '%s'", o->timezone);
		/* the earlier, if the clock shows --start twice */
		(void)tzone_to_utc(o->zone, o->start, utc);
		o->start = utc[0];
	}
	if (gen_model_init(&r->model, &r->pm, o->interval_e4, o->extreme_ppm, err,
	                   sizeof err) != PM_OK) {
		diag_say(d, SC_USAGE, "%s", err);
		return EXIT_USAGE;
	}
	r->model.full_range = o->full_range;
	return parse_sources(o, &r->model, d);
}

/* The output (never binary data to a terminal) and the truth. */
static int
open_outputs(struct run *r, const struct options *o)
{
	r->out = stdout;
	r->out_name = "standard output";
	if (o->output && strcmp(o->output, "-") != 0) {
		if (!(r->out = open_output(&r->diag, o->output, "output")))
			return EXIT_OUTPUT;
		r->out_name = o->output;
	} else if (isatty(STDOUT_FILENO)) {
		return diag_usage(&r->diag, "will not write binary data to a terminal: use -o FILE");
	}
	if (o->truth) {
		if (!(r->truth = open_output(&r->diag, o->truth, "truth")))
			return EXIT_OUTPUT;
		if (o->framing != GEN_PERF)
			gen_truth_header(r->truth, &r->pm);
	}
	return EXIT_CLEAN;
}

/* The perf framing's blocks, truth and title table. */
static int
write_perf(struct run *r, const struct options *o)
{
	const char *systems[MAX_SOURCES];
	struct gen_perf_config c = {
		systems, r->model.nsources, o->seed, o->start / (PM_UNITS_PER_SECOND / 1000),
		o->interval_e4 / (PM_UNITS_PER_SECOND / 1000), o->intervals, r->out,
		r->truth, NULL
	};
	struct gen_perf_result res;
	pm_status st;
	int rc = EXIT_CLEAN;

	for (unsigned i = 0; i < c.nsystems; i++)
		systems[i] = r->model.sources[i].sysid;
	if (o->perf_names && !(c.names = open_output(&r->diag, o->perf_names, "names")))
		return EXIT_OUTPUT;
	if ((st = gen_perf_run(&c, &res)) != PM_OK) {
		diag_say(&r->diag, pm_status_class(st), "%s", pm_strerror(st));
		rc = pm_class_exit_code(pm_status_class(st));
	}
	if (c.names && close_output(&r->diag, c.names, o->perf_names) != EXIT_CLEAN)
		rc = EXIT_OUTPUT;
	if (rc == EXIT_CLEAN && o->verbose)
		diag_say(&r->diag, SC_OK, "%" PRIu64 " bytes: %" PRIu64 " blocks of %u systems, %"
		         PRIu64 " truth rows", res.bytes, res.blocks, c.nsystems, res.truth_rows);
	return rc;
}

/* The stream written and the outputs closed; then the inventory, and
 * what was written when asked. */
static int
write_all(struct run *r, const struct options *o, double t0)
{
	int rc = EXIT_CLEAN;

	if (o->framing == GEN_PERF)
		rc = write_perf(r, o);
	else if ((r->error = run_open(r, o)) == PM_OK &&
	    (r->error = gen_write_open(&r->w, r->out, o->framing, o->block_size,
	                               o->xbdw)) == PM_OK) {
		generate(r);
		if (gen_write_close(&r->w) != PM_OK) {
			diag_say(&r->diag, SC_OUTPUT, "error writing %s: %s", r->out_name,
			         strerror(r->w.error));
			rc = EXIT_OUTPUT;
		}
	}
	if (r->error != PM_OK) {
		diag_say(&r->diag, pm_status_class(r->error), "%s", pm_strerror(r->error));
		rc = pm_class_exit_code(pm_status_class(r->error));
	}
	if (r->out != stdout && close_output(&r->diag, r->out, r->out_name) != EXIT_CLEAN)
		rc = EXIT_OUTPUT;
	r->out = NULL;
	if (r->truth && close_output(&r->diag, r->truth, o->truth) != EXIT_CLEAN)
		rc = EXIT_OUTPUT;
	r->truth = NULL;
	if (rc == EXIT_CLEAN && o->inventory)
		rc = write_inventory(r, o->inventory);
	if (rc == EXIT_CLEAN && o->verbose && o->framing != GEN_PERF)
		report(r, seconds_now() - t0);
	return rc;
}

int
main(int argc, char **argv)
{
	static struct run run; /* layouts and tables: too big for the stack */
	struct options o = {
		.sources = "SYSA", .source_label = "", .framing = GEN_RDW, .seed = 1,
		.startup_delay_e4 = 300 * PM_UNITS_PER_SECOND,
		.interval_e4 = 900 * PM_UNITS_PER_SECOND, .smf_type = 230,
		.ph_min = 20, .ph_max = 60, .pm_min = 2, .pm_max = 8,
		.block_size = 27998, .dump_records = true,
	};
	double t0 = seconds_now();
	int rc;

	diag_init(&run.diag, PROGNAME, stderr);
	if ((rc = setup(&run, &o, argc, argv)) == EXIT_CLEAN &&
	    (rc = open_outputs(&run, &o)) == EXIT_CLEAN)
		rc = write_all(&run, &o, t0);
	if (run.out && run.out != stdout)
		fclose(run.out);
	if (run.truth)
		fclose(run.truth);
	run_close(&run);
	tzone_close(o.zone);
	return rc == CLI_STOP ? EXIT_CLEAN : rc;
}
