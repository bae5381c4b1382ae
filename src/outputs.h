/* outputs.h: the reports one run writes (--report=waits,cpu,summary) and
 * where each goes: standard output or -o FILE for one report, DIR/NAME.EXT
 * for each with -o DIR/. Every report is fed from the one read of the
 * input; intervals and series frames are handed to each in list order. */
#ifndef OUTPUTS_H
#define OUTPUTS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/diag.h"
#include "frame/frame.h"
#include "frame/series.h"
#include "io/outfile.h"
#include "report/rowsink.h"

/* At most this many reports a run (one stdio buffer and file each). */
#define OUTPUTS_MAX 32

/* One report the run writes: its definition (NULL: the inventory), the
 * report built from it (a PMIM or a series report), its writer, its file. */
struct output {
	const char *name;           /* as --report gave it */
	struct rpt_def *def;
	struct report *rep;
	struct series_report *srep;
	struct rowsink *sink;
	struct outfile out;
	bool out_open;              /* out is neither committed nor given up */
	char *path;                 /* NULL: standard output */
	char *buf;                  /* out's stdio buffer */
};

struct outputs {
	struct output *o;
	size_t n;
	char *names;                /* the list, split in place */
	const char *dir;            /* -o DIR/; NULL: a file or standard output */
};

/* Split list ("waits,cpu") into outs; a usage error (said) for an empty
 * name, a name given twice, or more than OUTPUTS_MAX. Returns an exit code. */
int outputs_parse(struct outputs *outs, const char *list, struct diag *d);

/* The name a report's file takes in -o DIR/: its definition's name, or
 * "inventory". */
const char *output_name(const struct output *o);

/* Where each report goes, for -o target (NULL or "-": standard output)
 * with ext the format's file name extension: target itself for one report;
 * target/NAME.ext when target ends in '/' or is a directory. Several
 * reports need a directory; two reports of one name in it are refused.
 * Returns an exit code (said). */
int outputs_place(struct outputs *outs, const char *target, const char *ext,
                  struct diag *d);

/* Make the directory of -o DIR/ when it is not there yet (its parent must
 * be), once the run is known to go ahead. Returns an exit code (said). */
int outputs_make_dir(const struct outputs *outs, struct diag *d);

/* Frames to every PMIM report, series frames to every series report: the
 * callbacks the pipeline is given when a run writes several (ctx is the
 * struct outputs). */
void outputs_frame(const struct frame *f, void *ctx);
void outputs_series(const struct series_frame *f, void *ctx);

/* Free what parse and place made (not the reports and writers). */
void outputs_free(struct outputs *outs);

#endif
