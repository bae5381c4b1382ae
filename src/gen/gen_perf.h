/* gen_perf.h: pmimgen --framing=perf, Windows performance data: one
 * PERF_DATA_BLOCK per snapshot per system, back to back and interleaved as
 * a collector appending RegQueryValueEx(HKEY_PERFORMANCE_DATA) results
 * writes them (COUNTERS.md §3), and the truth of their cooked values.
 *
 * The objects and counters are a fixed catalogue (gen_perf.c) that holds
 * every winperf counter type the engine knows, each base after its
 * counter; the figures are drawn from each system's own random stream.
 * The truth is the generator's own arithmetic of the documented formulas
 * (gen_perf_truth.c), never the reporter's engine. */
#ifndef GEN_PERF_H
#define GEN_PERF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/status.h"

#define PERF_NO_INSTANCES (-1)

/* The clock an object's PerfTime and PerfFreq give (COUNTERS.md §2.1). */
enum perf_object_clock {
	POC_NONE,       /* PerfTime and PerfFreq 0 */
	POC_FILETIME,   /* the block's PerfTime100nSec, 10^7 per second */
	POC_MICROS      /* microseconds since boot, 10^6 per second */
};

struct perf_counter_spec {
	uint32_t title;       /* CounterNameTitleIndex; help is title + 1 */
	uint32_t type;        /* CounterType */
	uint32_t size;        /* CounterSize */
};

struct perf_instance_spec {
	const char *name;     /* as written */
	const char *shown;    /* as perfmon names it: parent/name, #1 */
	int parent;           /* instance of the previous object; -1 none */
};

struct perf_object_spec {
	uint32_t title;
	const struct perf_counter_spec *counters;
	unsigned ncounters;
	const struct perf_instance_spec *instances;
	int ninstances;       /* PERF_NO_INSTANCES, 0, or the count */
	uint32_t code_page;   /* 0: names in UTF-16LE; else bytes */
	uint32_t parent_title; /* ParentObjectTitleIndex of its instances */
	enum perf_object_clock clock;
};

/* The times of one snapshot of a system. */
struct perf_clocks {
	int64_t ms;             /* SystemTime, ms since 1970 (UTC) */
	uint64_t perf_time, perf_freq, time_100ns;
};

/* What the truth needs of one snapshot: its clocks, the objects' clocks and
 * every counter value written, in catalogue order. */
struct perf_snapshot {
	struct perf_clocks clk;
	uint64_t *obj_time, *obj_freq;  /* per object */
	uint64_t *values;               /* per slot, see perf_slot */
};

/* The catalogue. */
extern const struct perf_object_spec perf_objects[];
extern const unsigned perf_nobjects;

/* The first value slot of object o's instance i (i = 0 without instances);
 * for o = perf_nobjects, the number of slots. */
unsigned perf_slot(unsigned o, unsigned i);
/* Instance blocks of object o: 1 without instances, else NumInstances. */
unsigned perf_blocks(const struct perf_object_spec *o);

/* The truth CSV (see pmimgen.1): its header, and the rows of the snapshot
 * cur of system `source`: one-sample values of cur, and two-sample values
 * of the window from prev (NULL: none). A window whose PerfTime goes back
 * (a reboot) has no two-sample value. Returns the rows written. */
void perf_truth_header(FILE *fp);
uint64_t perf_truth_rows(FILE *fp, const char *source,
                         const struct perf_snapshot *prev,
                         const struct perf_snapshot *cur);

/* The run. */
struct gen_perf_config {
	const char *const *systems;
	unsigned nsystems;
	uint64_t seed;
	int64_t start_ms;       /* first snapshot, ms since 1970 */
	int64_t interval_ms;
	uint64_t snapshots;     /* per system */
	FILE *out, *truth, *names;  /* truth and names may be NULL */
};

struct gen_perf_result {
	uint64_t blocks, bytes, truth_rows;
};

/* Write the blocks (and truth and names when asked). PM_E_NOMEM, or
 * PM_OK; write errors are the callers' to find on the files. */
pm_status gen_perf_run(const struct gen_perf_config *c, struct gen_perf_result *res);

#endif
