/* pipeline.h: the reading stages wired together: input -> framing -> smf ->
 * pm -> reassembly, ending in an interval callback; or, for an input of
 * Windows PERF_DATA_BLOCKs, input -> winperf stream -> the census of the
 * snapshots and, for a series report, the cook (winperf/cook.h). The program, the chunk
 * tests and the fuzzers all drive this one wiring, each with its own input
 * (a file, a pipe, or memory in chunks). */
#ifndef PIPELINE_H
#define PIPELINE_H

#include "pmim/coverage.h"
#include "core/diag.h"
#include "smf/framing.h"
#include "io/input.h"
#include "pmim/pmint.h"
#include "core/progress.h"
#include "pmim/reasm.h"
#include "smf/smf.h"
#include "core/sources.h"
#include "core/tally.h"
#include "core/census.h"
#include "frame/series.h"
#include "winperf/names.h"

/* What a report reads: PMIM (SMF dumps and PM streams), Windows
 * PERF_DATA_BLOCKs, or either (the inventory). */
enum pipeline_reads { READS_PMIM, READS_PERF, READS_BOTH };

struct pipeline_opts {
	enum framing framing;
	/* a range of one input cut for threads: its framing and content as
	 * split_file found them at the input's start (framer_opts found) */
	struct framing_kind found;
	struct smf_opts smf;
	const char *source_label;  /* source of PM streams without SMF headers */
	size_t max_record;         /* largest logical record */
	size_t max_pending;        /* intervals waiting for parts */
	int64_t max_interval;      /* longest interval, stamp units */
	size_t max_sources;
	size_t max_coverage;       /* ranges of covered time (coverage.h) */
	const struct tzone *zone;  /* the zone of local times; NULL: none */
	size_t buffer_size;        /* read buffer */
	struct progress *progress; /* NULL: none */
	enum pipeline_reads reads; /* what the report reads; an input of the
	                              other kind is refused (a usage error) */
	/* PERF_DATA_BLOCKs cooked for a series report (frame/series.h):
	 * NULL: only counted for the inventory */
	series_fn series;
	void *series_ctx;
	const struct wp_names *perf_names; /* names of the series; NULL: none */
};

/* Defaults: auto framing, SMF type 230, IBM-037, 16 MiB records, 1024
 * pending intervals, intervals of 24 hours at most, 4096 sources,
 * 1,000,000 ranges of covered time, no time zone, 512 KiB reads (the
 * framer's least: reads stay in the L2 cache). */
void pipeline_defaults(struct pipeline_opts *o);

struct pipeline;

/* Open the reading stages into *out; why not otherwise (*out NULL). src
 * holds the source names (the caller's, so that reports can name the
 * sources of the intervals they are handed); max_sources sizes it. */
pm_status pipeline_open(struct pipeline **out, const struct pipeline_opts *o,
                        const struct pmint *pm, struct sources *src,
                        interval_fn emit, void *ctx, struct diag *d);

/* Read one input to its end (its decoded bytes, when it is compressed:
 * damage to its compressed data is said through diag, and what was
 * decoded before is read). Returns 0, or -1 when it could not be opened
 * or read to its end (already reported). Checks that every byte read was
 * accounted for. */
int pipeline_read(struct pipeline *p, struct input *in);

/* Read in, the PERF_DATA_BLOCKs just before a range of a file cut for
 * --jobs (split.h), into the cook as its systems' previous snapshots
 * alone: no frame, count, message or byte of them is the run's (they are
 * the range's before). Returns -1 when they did not read whole and
 * clean. */
int pipeline_prime(struct pipeline *p, struct input *in);

/* Emit the intervals still waiting for parts, and say the repeats not
 * said yet. */
void pipeline_finish(struct pipeline *p);

/* Whether pipeline_finish has nothing left to do: no interval waits for
 * parts and no run of repeats waits to be said. */
bool pipeline_settled(const struct pipeline *p);

const struct tally *pipeline_tally(const struct pipeline *p);

/* The snapshots of the PERF_DATA_BLOCK inputs read; no inputs when none
 * was read as one. */
const struct census *pipeline_census(const struct pipeline *p);

/* Counter windows of the series without a value because a system's time or
 * a counter went back (a reboot, a reset). */
uint64_t pipeline_resets(const struct pipeline *p);

/* The time covered by the intervals read (pmim/coverage.h): for --jobs,
 * and for partials. */
struct coverage *pipeline_coverage(const struct pipeline *p);

/* Where a system's snapshots were, by file offset: the one its first
 * was paired with, read by pipeline_prime, and its last one read; either
 * PIPELINE_NONE. */
#define PIPELINE_NONE UINT64_MAX
struct pipeline_system {
	uint64_t primed, last;
};

/* How the last input read at its edges: for a range of one cut for
 * threads, to be held against the ranges beside it. */
struct pipeline_edges {
	uint64_t resumed_at;    /* its own records or blocks began
	                           (framer_resumed_at) */
	uint64_t stopped_at;    /* the framer or the block reader stopped */
	struct smf_edges smf;   /* the SMF stage's */
	/* the systems of PERF_DATA_BLOCKs read, by source id (valid until
	 * the pipeline closes) */
	const struct pipeline_system *systems;
	size_t nsystems;
};
void pipeline_edges(const struct pipeline *p, struct pipeline_edges *e);

/* What the framer is told of records: for split.h's cuts. */
const struct fr_records *pipeline_records(const struct pipeline *p);

void pipeline_close(struct pipeline *p);

#endif
