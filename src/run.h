/* run.h: what one run of pmimrpt holds, from its command line to its
 * exit: the options, the layout and schema, the reports and their files,
 * the pipeline, and what --merge and --jobs merged. pmimrpt.c runs it;
 * the files that open, read, merge and finish its parts share it. */
#ifndef RUN_H
#define RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/census.h"
#include "core/diag.h"
#include "core/progress.h"
#include "core/sources.h"
#include "core/status.h"
#include "core/tally.h"
#include "io/outfile.h"
#include "options.h"
#include "outputs.h"
#include "pipeline.h"
#include "pmim/binding.h"
#include "pmim/pmint.h"
#include "runpart.h"

/* Everything a run holds, so that main has one way out. */
struct run {
	struct options o;
	struct diag diag;
	struct pmint pm;
	struct tzone *zone;
	struct schema *schema;      /* the figures reports name, from the layout */
	struct binding_framer framer; /* intervals to the reports as frames */
	struct outputs outs;        /* the reports written, and their files */
	struct output *first;       /* the one report of partials and --jobs */
	const struct sqlite_module *sql; /* --format=sqlite: what writes */
	struct sqlite_db *db;       /* the database, a table a report */
	struct html_page *page;     /* --format=html: a section a report, */
	struct outfile page_out;    /* into this file */
	bool page_open;             /* page_out is neither kept nor given up */
	const char *chart_dir;      /* -o DIR/ of charts: a file each */
	struct outfile chart_out;   /* the one being written, */
	char *chart_path;           /* and its name */
	bool read_all;              /* every input was read to its end */
	struct sources sources;
	struct pipeline *p;
	struct progress progress;
	struct wp_names *names;     /* --perf-names */
	struct runpart_identity identity; /* what shapes a partial */
	struct tally merged;        /* --merge: the partials' accounting, */
	struct census merged_census; /* systems and snapshots */
	uint64_t merged_resets;
	char **merged_inputs;       /* --merge: their inputs' names */
	size_t nmerged;
	size_t jobs;                /* threads reading the inputs (--jobs) */
	bool jobs_merged;           /* the inputs were read apart and merged */
	unsigned long shown[PM_STATUS_COUNT + 1]; /* their messages replayed */
	char when[20];              /* the run time of the title block */
	char **inputs;              /* the operands; none: standard input */
	int ninputs;
	char **args;                /* the options before them */
	int nargs;
};


#endif
