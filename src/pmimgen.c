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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/cli.h"
#include "core/exitcode.h"
#include "gen/gen_model.h"
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
	enum gen_framing framing;
	uint64_t seed;
	int64_t start, startup_delay_e4, interval_e4;
	uint64_t intervals, size;
	uint32_t extreme_ppm, other_pm_ppm, other_smf_ppm, drop_ppm, dup_ppm;
	unsigned smf_type;
	size_t ph_min, ph_max, pm_min, pm_max, shuffle, block_size;
	enum gen_xbdw xbdw;
	bool dump_records, verbose;
	const char *timezone;  /* --timezone: the local clock's zone */
	struct tzone *zone;    /* its rules; NULL: stamps are written as they are */
	const char *smf_only; /* an option given that needs SMF framings */
	const char *copybooks[CB_MAX_COPYBOOKS]; /* every --copybook, in order */
	size_t ncopybooks;
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
	uint8_t *scratch;        /* one record of another SMF type */
	uint64_t other_bytes;    /* their bytes, descriptors included */
	uint64_t truth_rows;
	int64_t clock;           /* latest time written */
	FILE *truth;
	pm_status error;
};

enum long_only {
	OPT_FRAMING = 256, OPT_BLOCK_SIZE, OPT_EXTENDED_BDW, OPT_TRUTH,
	OPT_INVENTORY, OPT_SEED, OPT_SOURCES, OPT_SOURCE_LABEL, OPT_START, OPT_TIMEZONE,
	OPT_STARTUP_DELAY, OPT_INTERVAL, OPT_INTERVALS, OPT_SIZE, OPT_EXTREME,
	OPT_SMF_TYPE, OPT_PRODUCT_HEADER, OPT_PM_PER_SMF, OPT_OTHER_SMF,
	OPT_SPARSE, OPT_NO_DUMP, OPT_OTHER_PM, OPT_DROP, OPT_DUPLICATE,
	OPT_SHUFFLE, OPT_HELP, OPT_VERSION, OPT_COPYBOOK
};

static const struct option long_options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "framing", required_argument, NULL, OPT_FRAMING },
	{ "block-size", required_argument, NULL, OPT_BLOCK_SIZE },
	{ "extended-bdw", optional_argument, NULL, OPT_EXTENDED_BDW },
	{ "truth", required_argument, NULL, OPT_TRUTH },
	{ "truth-inventory", required_argument, NULL, OPT_INVENTORY },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "sources", required_argument, NULL, OPT_SOURCES },
	{ "source-label", required_argument, NULL, OPT_SOURCE_LABEL },
	{ "start", required_argument, NULL, OPT_START },
	{ "timezone", required_argument, NULL, OPT_TIMEZONE },
	{ "startup-delay", required_argument, NULL, OPT_STARTUP_DELAY },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "intervals", required_argument, NULL, OPT_INTERVALS },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "extreme", required_argument, NULL, OPT_EXTREME },
	{ "smf-type", required_argument, NULL, OPT_SMF_TYPE },
	{ "product-header", required_argument, NULL, OPT_PRODUCT_HEADER },
	{ "pm-per-smf", required_argument, NULL, OPT_PM_PER_SMF },
	{ "other-smf", required_argument, NULL, OPT_OTHER_SMF },
	{ "sparse", no_argument, NULL, OPT_SPARSE },
	{ "no-dump-records", no_argument, NULL, OPT_NO_DUMP },
	{ "other-pm", required_argument, NULL, OPT_OTHER_PM },
	{ "drop-parts", required_argument, NULL, OPT_DROP },
	{ "duplicate-parts", required_argument, NULL, OPT_DUPLICATE },
	{ "shuffle", optional_argument, NULL, OPT_SHUFFLE },
	{ "verbose", no_argument, NULL, 'v' },
	{ "copybook", required_argument, NULL, OPT_COPYBOOK },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

static void
usage(FILE *fp, size_t cv_offset)
{
	fputs("Usage: " PROGNAME " [OPTION]...\n"
	      "Write a synthetic dataset of CA IDMS Performance Monitor interval (PMIM)\n"
	      "records, and what it holds, for testing and benchmarking pmimrpt.\n"
	      "\n"
	      "Output:\n"
	      "  -o, --output=FILE          write to FILE instead of standard output\n"
	      "      --framing=KIND         rdw (default): SMF records behind RDW/SDW, as\n"
	      "                             FTP with SITE RDW leaves them; bdw: blocks of\n"
	      "                             RDW/SDW segments behind BDWs; pm: PM records\n"
	      "                             back to back; rdw-pm: PM records behind RDWs\n"
	      "      --block-size=BYTES     largest block, BDW included (default 27998);\n"
	      "                             rdw spans records where blocks would end\n"
	      "      --extended-bdw[=WHICH] allow blocks over 32760 bytes (bdw only), with\n"
	      "                             extended BDWs on those (large, the default,\n"
	      "                             as QSAM writes) or on all blocks (all)\n"
	      "      --truth=FILE           CSV of the intervals written, one row each\n"
	      "      --truth-inventory=FILE CSV of the records, segments and blocks written\n"
	      "\n"
	      "Workload:\n"
	      "      --seed=N               seed of every random choice (default 1)\n"
	      "      --sources=LIST         comma-separated SYSID or SYSID/CVNAME, each of\n"
	      "                             A-Z 0-9 @ # $ (default SYSA); CV names are\n"
	      "                             written when every source has one\n"
	      "      --source-label=NAME    source column of the truth for the pm framings\n"
	      "      --start=TIME           when the run starts, YYYY-MM-DD[ HH:MM[:SS]]\n"
	      "                             (default 2025-03-03 06:00)\n"
	      "      --timezone=ZONE        write interval times as the local clock of ZONE\n"
	      "                             (an IANA name) shows them, --start being one;\n"
	      "                             the truth gives them with their UTC offset\n"
	      "      --startup-delay=SECS   each CV starts up to SECS after --start, so its\n"
	      "                             first interval is short (default 300)\n"
	      "      --interval=SECS        interval length (default 900)\n"
	      "      --intervals=N          intervals per source (default 96; no limit when\n"
	      "                             --size is given alone)\n"
	      "      --size=BYTES           stop once the output reaches BYTES (suffixes\n"
	      "                             K, M, G, T: powers of 1024)\n"
	      "      --extreme=RATE         intervals with one wait bucket near 2**31-1\n"
	      "\n"
	      "SMF records (rdw and bdw framings):\n"
	      "      --smf-type=N           record type of the PM data (default 230)\n"
	      "      --product-header=MIN[-MAX]  bytes between the SMF header and the\n"
	      "                             first PM record (default 20-60)\n"
	      "      --pm-per-smf=MIN[-MAX] PM records in one SMF record (default 2-8)\n"
	      "      --other-smf=SHARE      share of the bytes in other SMF types (30, 70,\n"
	      "                             72, 110, 115, 116) (default 0)\n"
	      "      --sparse               same as --other-smf=0.99\n"
	      "      --no-dump-records      no dump header (type 2) and trailer (type 3)\n"
	      "\n"
	      "PM records and faults:\n"
	      "      --other-pm=RATE        share of PM records of other types (default 0)\n"
	      "      --drop-parts=RATE      leave out this share of interval parts\n"
	      "      --duplicate-parts=RATE write this share of interval parts twice\n"
	      "      --shuffle[=N]          write each source's PM records in random order,\n"
	      "                             N at a time (default 8)\n"
	      "\n"
	      "  -v, --verbose              report what was written, and how fast\n"
	      "      --copybook=FILE        write PM records as the DSECT listing FILE (or\n"
	      "                             the one in folder FILE) lays them out\n"
	      "      --help                 show this help and exit\n"
	      "      --version              show the version and exit\n"
	      "\n"
	      "RATE and SHARE are fractions (0.05) or percentages (5%).\n", fp);
	fprintf(fp, "CV names are at offset %zu, length %d, of each SMF record of PM data\n"
	        "(pmimrpt --cv-field=%zu,%d).\n", cv_offset, GEN_CV_LEN, cv_offset,
	        GEN_CV_LEN);
	fputs("Exit status: 0 written; 8 out of memory; 12 usage error; 16 output\n"
	      "could not be written.\n", fp);
}

/* ---- argument parsing */

static int
parse_bytes(const char *s, uint64_t *out)
{
	static const char suffixes[] = "KMGT";
	char digits[32];
	size_t n = strlen(s);
	const char *suffix;
	uint64_t v;
	unsigned shift = 0;

	if (n == 0 || n >= sizeof digits)
		return 0;
	memcpy(digits, s, n + 1);
	suffix = strchr(suffixes, toupper((unsigned char)digits[n - 1]));
	if (suffix && *suffix) {
		shift = 10 * (unsigned)(suffix - suffixes + 1);
		digits[n - 1] = '\0';
	}
	if (!cli_parse_u64(digits, &v) || v > (UINT64_MAX >> shift))
		return 0;
	*out = v << shift;
	return 1;
}

/* A fraction (0.05) or a percentage (5%) as parts per million, exactly:
 * no floating point decides anything pmimgen writes. */
static int
parse_rate(const char *s, uint32_t *ppm)
{
	const uint64_t one = 100000000; /* units of 10**-8 */
	uint64_t v = 0;
	int digits = 0;

	for (; isdigit((unsigned char)*s); s++, digits++)
		if ((v = v * 10 + (uint64_t)(*s - '0')) > 100)
			return 0;
	v *= one;
	if (*s == '.')
		for (uint64_t place = one / 10; isdigit((unsigned char)*++s); place /= 10, digits++)
			v += (uint64_t)(*s - '0') * place;
	if (digits == 0)
		return 0;
	if (*s == '%') {
		s++;
		v /= 100;
	}
	v /= one / GEN_PPM;
	if (*s != '\0' || v > GEN_PPM)
		return 0;
	*ppm = (uint32_t)v;
	return 1;
}

/* "N" or "N-M" */
static int
parse_range(const char *s, size_t *lo, size_t *hi)
{
	char buf[48];
	char *dash;
	uint64_t a, b;

	if (strlen(s) >= sizeof buf)
		return 0;
	strcpy(buf, s);
	dash = strchr(buf, '-');
	if (dash)
		*dash = '\0';
	if (!cli_parse_u64(buf, &a) || (dash && !cli_parse_u64(dash + 1, &b)))
		return 0;
	if (!dash)
		b = a;
	if (a > b || b > SIZE_MAX)
		return 0;
	*lo = (size_t)a;
	*hi = (size_t)b;
	return 1;
}

static int
parse_framing(const char *s, enum gen_framing *f)
{
	static const struct {
		const char *name;
		enum gen_framing framing;
	} names[] = {
		{ "pm", GEN_PM }, { "rdw-pm", GEN_RDW_PM },
		{ "rdw", GEN_RDW }, { "bdw", GEN_BDW },
	};

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(s, names[i].name) == 0) {
			*f = names[i].framing;
			return 1;
		}
	return 0;
}

static bool
smf_framing(enum gen_framing f)
{
	return f == GEN_RDW || f == GEN_BDW;
}

static int
rate_option(const char *name, const char *arg, uint32_t *ppm)
{
	if (!parse_rate(arg, ppm))
		return cli_usage_error(PROGNAME, "--%s wants a fraction (0.05) or a percentage (5%%), not '%s'",
		                   name, arg);
	return EXIT_CLEAN;
}

static int
seconds_option(const char *name, const char *arg, uint64_t max, int64_t *e4)
{
	uint64_t v;

	if (!cli_parse_u64(arg, &v) || v > max)
		return cli_usage_error(PROGNAME, "--%s must be 0 to %" PRIu64 " seconds, not '%s'",
		                   name, max, arg);
	*e4 = (int64_t)v * PM_UNITS_PER_SECOND;
	return EXIT_CLEAN;
}

static int
parse_options(int argc, char **argv, struct options *o, size_t cv_offset)
{
	int c, rc = EXIT_CLEAN;
	uint64_t v;
	bool intervals_given = false, label_given = false;

	while (rc == EXIT_CLEAN &&
	       (c = getopt_long(argc, argv, "o:v", long_options, NULL)) != -1) {
		switch (c) {
		case 'o': o->output = optarg; break;
		case 'v': o->verbose = true; break;
		case OPT_COPYBOOK:
			if (o->ncopybooks == CB_MAX_COPYBOOKS)
				return cli_usage_error(PROGNAME, "at most %d --copybook options", CB_MAX_COPYBOOKS);
			o->copybooks[o->ncopybooks++] = optarg;
			break;
		case OPT_FRAMING:
			if (!parse_framing(optarg, &o->framing))
				rc = cli_usage_error(PROGNAME, "unknown framing '%s' (rdw, bdw, pm or rdw-pm)", optarg);
			break;
		case OPT_BLOCK_SIZE:
			if (!parse_bytes(optarg, &v) || v < 2 * GEN_DESC_LEN + 1 || v > GEN_XBLOCK_MAX)
				rc = cli_usage_error(PROGNAME, "--block-size must be %d to %u bytes, not '%s'",
				                 2 * GEN_DESC_LEN + 1, GEN_XBLOCK_MAX, optarg);
			o->block_size = (size_t)v;
			o->smf_only = "--block-size";
			break;
		case OPT_EXTENDED_BDW:
			if (!optarg || strcmp(optarg, "large") == 0)
				o->xbdw = GEN_XBDW_LARGE;
			else if (strcmp(optarg, "all") == 0)
				o->xbdw = GEN_XBDW_ALL;
			else
				rc = cli_usage_error(PROGNAME, "--extended-bdw takes large or all, not '%s'", optarg);
			o->smf_only = "--extended-bdw";
			break;
		case OPT_TRUTH: o->truth = optarg; break;
		case OPT_INVENTORY: o->inventory = optarg; break;
		case OPT_SEED:
			if (!cli_parse_u64(optarg, &o->seed))
				rc = cli_usage_error(PROGNAME, "--seed must be a number, not '%s'", optarg);
			break;
		case OPT_SOURCES: o->sources = optarg; break;
		case OPT_SOURCE_LABEL: o->source_label = optarg; label_given = true; break;
		case OPT_START:
			if (stamp_parse(optarg, &o->start) != PM_OK)
				rc = cli_usage_error(PROGNAME, "--start wants YYYY-MM-DD[ HH:MM[:SS]], not '%s'", optarg);
			break;
		case OPT_TIMEZONE: o->timezone = optarg; break;
		case OPT_STARTUP_DELAY:
			rc = seconds_option("startup-delay", optarg, 86400, &o->startup_delay_e4);
			break;
		case OPT_INTERVAL:
			rc = seconds_option("interval", optarg, 86400, &o->interval_e4);
			if (rc == EXIT_CLEAN && o->interval_e4 == 0)
				rc = cli_usage_error(PROGNAME, "--interval must be at least 1 second");
			break;
		case OPT_INTERVALS:
			if (!cli_parse_u64(optarg, &o->intervals) || o->intervals == 0)
				rc = cli_usage_error(PROGNAME, "--intervals must be a positive number, not '%s'", optarg);
			intervals_given = true;
			break;
		case OPT_SIZE:
			if (!parse_bytes(optarg, &o->size) || o->size == 0)
				rc = cli_usage_error(PROGNAME, "--size must be a positive number of bytes, not '%s'", optarg);
			break;
		case OPT_EXTREME: rc = rate_option("extreme", optarg, &o->extreme_ppm); break;
		case OPT_SMF_TYPE:
			if (!cli_parse_u64(optarg, &v) || v > 255)
				rc = cli_usage_error(PROGNAME, "--smf-type must be 0 to 255, not '%s'", optarg);
			o->smf_type = (unsigned)v;
			o->smf_only = "--smf-type";
			break;
		case OPT_PRODUCT_HEADER:
			if (!parse_range(optarg, &o->ph_min, &o->ph_max) ||
			    o->ph_min < GEN_PH_MIN || o->ph_max > GEN_PH_MAX)
				rc = cli_usage_error(PROGNAME, "--product-header wants MIN[-MAX] within %d-%d, not '%s'",
				                 GEN_PH_MIN, GEN_PH_MAX, optarg);
			o->smf_only = "--product-header";
			break;
		case OPT_PM_PER_SMF:
			if (!parse_range(optarg, &o->pm_min, &o->pm_max) || o->pm_min == 0 ||
			    o->pm_max > MAX_PM_PER_SMF)
				rc = cli_usage_error(PROGNAME, "--pm-per-smf wants MIN[-MAX] within 1-%d, not '%s'",
				                 MAX_PM_PER_SMF, optarg);
			o->smf_only = "--pm-per-smf";
			break;
		case OPT_OTHER_SMF:
			rc = rate_option("other-smf", optarg, &o->other_smf_ppm);
			o->smf_only = "--other-smf";
			break;
		case OPT_SPARSE:
			o->other_smf_ppm = GEN_PPM / 100 * 99;
			o->smf_only = "--sparse";
			break;
		case OPT_NO_DUMP:
			o->dump_records = false;
			o->smf_only = "--no-dump-records";
			break;
		case OPT_OTHER_PM: rc = rate_option("other-pm", optarg, &o->other_pm_ppm); break;
		case OPT_DROP: rc = rate_option("drop-parts", optarg, &o->drop_ppm); break;
		case OPT_DUPLICATE: rc = rate_option("duplicate-parts", optarg, &o->dup_ppm); break;
		case OPT_SHUFFLE:
			o->shuffle = 8;
			if (optarg && (!cli_parse_u64(optarg, &v) || v == 0 || v > MAX_WINDOW))
				rc = cli_usage_error(PROGNAME, "--shuffle window must be 1 to %d, not '%s'",
				                 MAX_WINDOW, optarg);
			else if (optarg)
				o->shuffle = (size_t)v;
			break;
		case OPT_HELP: usage(stdout, cv_offset); exit(EXIT_CLEAN);
		case OPT_VERSION: puts(PROGNAME " (pmimrpt) " PACKAGE_VERSION); exit(EXIT_CLEAN);
		default:
			fputs("Try '" PROGNAME " --help' for more information.\n", stderr);
			return EXIT_USAGE;
		}
	}
	if (rc != EXIT_CLEAN)
		return rc;
	if (optind < argc)
		return cli_usage_error(PROGNAME, "unexpected argument '%s'", argv[optind]);
	if (!intervals_given)
		o->intervals = o->size ? 0 : 96;
	if (smf_framing(o->framing) && label_given)
		return cli_usage_error(PROGNAME, "--source-label is for the pm framings; SMF records name their source");
	if (!smf_framing(o->framing) && o->smf_only)
		return cli_usage_error(PROGNAME, "%s is for the rdw and bdw framings", o->smf_only);
	if (o->xbdw != GEN_XBDW_NONE && o->framing != GEN_BDW)
		return cli_usage_error(PROGNAME, "--extended-bdw is for the bdw framing");
	if (o->framing == GEN_BDW && o->xbdw == GEN_XBDW_NONE && o->block_size > GEN_BLOCK_MAX)
		return cli_usage_error(PROGNAME, "--block-size above %d needs --extended-bdw", GEN_BLOCK_MAX);
	if (o->other_pm_ppm >= GEN_PPM || o->other_smf_ppm >= GEN_PPM)
		return cli_usage_error(PROGNAME, "--other-pm and --other-smf must be below 1 (100%%)");
	if (o->dump_records && smf_framing(o->framing) && (o->smf_type == 2 || o->smf_type == 3))
		return cli_usage_error(PROGNAME, "SMF types 2 and 3 are the dump header and trailer: add --no-dump-records");
	if (o->size && o->intervals == 0 && o->drop_ppm == GEN_PPM)
		return cli_usage_error(PROGNAME, "--drop-parts=1 writes nothing: --size would never be reached");
	return EXIT_CLEAN;
}

/* "SYSA,SYSB/IDMSCV01": names into the model's sources. */
static int
parse_sources(const struct options *o, struct gen_model *m)
{
	char *list = strdup(o->sources), *save = NULL, *tok;
	unsigned n = 0, with_cv = 0;
	int rc = EXIT_CLEAN;

	if (!list)
		return EXIT_INPUT;
	m->sources = calloc(MAX_SOURCES, sizeof *m->sources);
	if (!m->sources) {
		free(list);
		return EXIT_INPUT;
	}
	for (tok = strtok_r(list, ",", &save); tok && rc == EXIT_CLEAN;
	     tok = strtok_r(NULL, ",", &save)) {
		char *slash = strchr(tok, '/');
		struct gen_source *src = &m->sources[n];

		if (slash)
			*slash = '\0';
		if (n == MAX_SOURCES)
			rc = cli_usage_error(PROGNAME, "--sources: at most %d sources", MAX_SOURCES);
		else if (!ebcdic_name_ok(tok, GEN_SYSID_LEN) ||
		         (slash && !ebcdic_name_ok(slash + 1, GEN_CV_LEN)))
			rc = cli_usage_error(PROGNAME, "--sources: '%s%s%s' is not SYSID[/CVNAME] (1-4 and 1-8 of A-Z 0-9 @ # $)",
			                 tok, slash ? "/" : "", slash ? slash + 1 : "");
		if (rc != EXIT_CLEAN)
			break;
		strcpy(src->sysid, tok);
		strcpy(src->cv, slash ? slash + 1 : "");
		snprintf(src->name, sizeof src->name, "%s%s%s", tok, slash ? "/" : "",
		         src->cv);
		for (unsigned k = 0; k < n; k++)
			if (strcmp(m->sources[k].name, src->name) == 0)
				rc = cli_usage_error(PROGNAME, "--sources: '%s' given twice", src->name);
		with_cv += slash != NULL;
		n++;
	}
	free(list);
	if (rc != EXIT_CLEAN)
		return rc;
	if (n == 0)
		return cli_usage_error(PROGNAME, "--sources: no source given");
	if (with_cv && with_cv != n)
		return cli_usage_error(PROGNAME, "--sources: give a CV name to every source or to none");
	if (!smf_framing(o->framing) && n > 1)
		return cli_usage_error(PROGNAME, "the pm framings carry no source names: give one source");
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
			truth_row(r->truth, &r->pm, name, &sl->iv, sl->parts, r->o->zone);
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
		const char *sysid = r->model.sources[rng_below(&r->rng, r->model.nsources)].sysid;
		unsigned type;
		size_t len = enc_other_smf(&r->smf, r->scratch, o->smf_type, stamp, sysid,
		                           &r->rng, &r->filler, &type);
		uint64_t before = r->w.inv.smf_bytes[type];

		gw_smf_record(&r->w, type, r->scratch, len);
		r->other_bytes += r->w.inv.smf_bytes[type] - before;
	}
}

static void
begin_smf(struct run *r, unsigned s)
{
	struct stream *st = &r->streams[s];
	size_t ph = (size_t)rng_range(&r->rng, r->o->ph_min, r->o->ph_max);

	enc_product_header(st->smf + r->smf.std_len, ph, r->model.sources[s].cv,
	                   ++st->records, &r->rng);
	st->smf_len = r->smf.std_len + ph;
	st->target = (size_t)rng_range(&r->rng, r->o->pm_min, r->o->pm_max);
}

static void
flush_smf(struct run *r, unsigned s)
{
	struct stream *st = &r->streams[s];

	if (st->npacked == 0)
		return;
	enc_smf_header(&r->smf, st->smf, r->o->smf_type, st->clock,
	               r->model.sources[s].sysid, NULL, 0);
	gw_smf_record(&r->w, r->o->smf_type, st->smf, st->smf_len);
	for (size_t i = 0; i < st->npacked; i++) {
		gw_count_pm(&r->w, st->packed[i].type, st->packed[i].len);
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
		enc_interval_part(&r->pm, &r->slots[it.slot].iv, it.part, rec, r->o->zone);
		len = r->pm.part_len[it.part];
		type = r->pm.interval_type;
	} else {
		len = enc_other_pm(&r->pm, rec, st->clock, &r->rng, &r->filler, &type);
	}
	if (!smf_framing(r->o->framing)) {
		gw_pm_record(&r->w, type, rec, len);
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
		size_t k = (size_t)rng_below(&r->faults, st->nwindow);
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
	r->streams[s].clock = sl->iv.end + (int64_t)rng_below(&r->rng, 2 * PM_UNITS_PER_SECOND);
	sl->parts = sl->copies = 0;
	sl->told = false;
	for (unsigned p = 1; p <= r->pm.nparts; p++) {
		if (rng_chance(&r->faults, o->drop_ppm))
			continue;
		copies[p] = 1 + rng_chance(&r->faults, o->dup_ppm);
		sl->parts |= 1u << p;
		sl->copies += copies[p];
	}
	if (sl->copies == 0) {
		r->free_slots[r->nfree++] = id;
		return;
	}
	for (unsigned p = 1; p <= r->pm.nparts; p++) {
		struct item part = { id, p };
		while (rng_chance(&r->rng, o->other_pm_ppm))
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
	size_t len = enc_smf_header(&r->smf, r->scratch, type, stamp,
	                            r->model.sources[0].sysid, NULL, 0);
	gw_smf_record(&r->w, type, r->scratch, len);
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
	       !(o->size && gw_bytes(&r->w) >= o->size))
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
	rng_seed(&r->rng, o->seed, STREAM_LAYOUT);
	rng_seed(&r->faults, o->seed, STREAM_FAULTS);
	if ((st = filler_init(&r->filler, &r->rng)) != PM_OK)
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
	free(r->free_slots);
	free(r->model.sources);
	filler_free(&r->filler);
}

static FILE *
open_output(const char *path, const char *what)
{
	FILE *fp = fopen(path, "wb");
	if (!fp)
		fprintf(stderr, PROGNAME ": cannot write %s %s: %s\n", what, path,
		        strerror(errno));
	return fp;
}

/* Close an output file, reporting any error it met. */
static int
close_output(FILE *fp, const char *path)
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
		fprintf(stderr, PROGNAME ": error writing %s: %s\n", path,
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
report(const struct run *r, double seconds)
{
	const struct gen_inventory *inv = &r->w.inv;
	uint64_t bytes = r->w.flushed, smf = 0, pm = 0;

	for (unsigned t = 0; t < 256; t++) {
		smf += inv->smf_records[t];
		pm += inv->pm_records[t];
	}
	fprintf(stderr, PROGNAME ": %" PRIu64 " bytes: %" PRIu64 " intervals, %" PRIu64
	        " PM records (%" PRIu64 " interval parts), %" PRIu64 " SMF records (%"
	        PRIu64 " of type %u); %.2f s, %.0f MB/s\n",
	        bytes, r->truth_rows, pm, inv->pm_records[r->pm.interval_type], smf,
	        inv->smf_records[r->o->smf_type], r->o->smf_type, seconds,
	        seconds > 0 ? (double)bytes / seconds / 1e6 : 0.0);
}

static int
write_inventory(const struct run *r, const char *path)
{
	FILE *fp = open_output(path, "inventory");

	if (!fp)
		return EXIT_OUTPUT;
	inventory_csv(fp, &r->w.inv, r->w.flushed);
	return close_output(fp, path);
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
	const char *out_name = "standard output";
	char err[160];
	FILE *out = stdout;
	double t0 = seconds_now();
	int rc;

	if (smfhdr_load(&run.smf, err, sizeof err) != PM_OK ||
	    gen_smf_check(&run.smf, err, sizeof err) != PM_OK) {
		fprintf(stderr, PROGNAME ": %s\n", err);
		return EXIT_USAGE;
	}
	(void)stamp_parse("2025-03-03 06:00", &o.start);
	rc = parse_options(argc, argv, &o, run.smf.std_len + GEN_PH_CV_OFFSET);
	if (rc != EXIT_CLEAN)
		return rc;
	if (pmint_find(&run.pm, o.copybooks, o.ncopybooks, err, sizeof err) != PM_OK) {
		fprintf(stderr, PROGNAME ": %s\n", err);
		return EXIT_USAGE;
	}
	if (run.pm.max_len > PM_RECORD_MAX) {
		fprintf(stderr, PROGNAME ": #PMINTDS: parts of %zu bytes; pmimgen takes up to %d\n",
		        run.pm.max_len, PM_RECORD_MAX);
		return EXIT_USAGE;
	}
	if (o.timezone) {
		int64_t utc[2];
		pm_status st;
		if (!(o.zone = tzone_open(o.timezone, &st)))
			return cli_usage_error(PROGNAME, "--timezone: no time zone '%s'", o.timezone);
		/* the earlier, if the clock shows --start twice */
		(void)tzone_to_utc(o.zone, o.start, utc);
		o.start = utc[0];
	}
	if (gen_model_init(&run.model, &run.pm, o.interval_e4, o.extreme_ppm, err,
	                   sizeof err) != PM_OK) {
		fprintf(stderr, PROGNAME ": %s\n", err);
		return EXIT_USAGE;
	}
	if ((rc = parse_sources(&o, &run.model)) != EXIT_CLEAN)
		goto done;

	if (o.output && strcmp(o.output, "-") != 0) {
		FILE *fp = open_output(o.output, "output");
		if (!fp) {
			rc = EXIT_OUTPUT;
			goto done;
		}
		out = fp;
		out_name = o.output;
	} else if (isatty(STDOUT_FILENO)) {
		rc = cli_usage_error(PROGNAME, "will not write binary data to a terminal: use -o FILE");
		goto done;
	}
	if (o.truth) {
		if (!(run.truth = open_output(o.truth, "truth"))) {
			rc = EXIT_OUTPUT;
			goto done;
		}
		truth_header(run.truth, &run.pm);
	}
	if ((run.error = run_open(&run, &o)) == PM_OK &&
	    (run.error = gw_open(&run.w, out, o.framing, o.block_size,
	                         o.xbdw)) == PM_OK) {
		generate(&run);
		if (gw_close(&run.w) != PM_OK) {
			fprintf(stderr, PROGNAME ": error writing %s: %s\n", out_name,
			        strerror(run.w.error));
			rc = EXIT_OUTPUT;
		}
	}
	if (run.error != PM_OK) {
		fprintf(stderr, PROGNAME ": %s\n", pm_strerror(run.error));
		rc = pm_class_exit_code(pm_status_class(run.error));
	}
	if (out != stdout && close_output(out, out_name) != EXIT_CLEAN)
		rc = EXIT_OUTPUT;
	out = stdout;
	if (run.truth && close_output(run.truth, o.truth) != EXIT_CLEAN)
		rc = EXIT_OUTPUT;
	run.truth = NULL;
	if (rc == EXIT_CLEAN && o.inventory)
		rc = write_inventory(&run, o.inventory);
	if (rc == EXIT_CLEAN && o.verbose)
		report(&run, seconds_now() - t0);
done:
	if (out != stdout)
		fclose(out);
	if (run.truth)
		fclose(run.truth);
	run_close(&run);
	tzone_close(o.zone);
	return rc;
}
