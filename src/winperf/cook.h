/* cook.h: Windows snapshots paired into the engine's windows (COUNTERS.md
 * §2): each system's snapshot against that system's previous one, every
 * counter with a value type as a series (frame/series.h).
 *
 * The time bases: the block's PerfTime and PerfFreq for tick types,
 * PerfTime100nSec (10^7 a second) for 100 ns types, the object's PerfTime
 * and PerfFreq for object-timer types and PERF_ELAPSED_TIME; PRECISION
 * timers read their time from the timestamp counter after them. B is the
 * base counter paired with the counter (fractions, averages, MULTI).
 * Two-sample types give a window only when the series was in the system's
 * previous snapshot; one whose system time, PerfTime or PerfTime100nSec
 * went back (a reboot), or whose 64-bit counter or base decreased (a
 * reset), is a window without a value, counted in resets. A 4-byte
 * counter that wrapped is taken modulo 2^32 (the engine's rule).
 *
 * Nothing is allocated per snapshot once every series has been seen: a
 * new series, system or larger snapshot grows the tables.
 *
 * A cook takes the snapshots of one walker (block.h), whose numbers of
 * an object's definitions and of a snapshot's names it trusts: what has
 * the number of what its system had before is taken to be the same. */
#ifndef WINPERF_COOK_H
#define WINPERF_COOK_H

#include <stdint.h>

#include "core/sources.h"
#include "core/status.h"
#include "frame/series.h"
#include "winperf/block.h"
#include "winperf/names.h"

struct wp_cook;

/* A cook handing frames to emit; names (may be NULL) names objects and
 * counters, else their decimal indexes. src interns the systems. */
pm_status wp_cook_open(struct wp_cook **out, struct sources *src,
                       const struct wp_names *names, series_fn emit, void *ctx);
void wp_cook_close(struct wp_cook *c);

/* Pair snapshot s, read from input (its name), with its system's previous
 * one and hand on the frame
 * (one for every snapshot, with or without values).
 * PM_E_SOURCE_LIMIT past the sources' maximum, PM_E_NOMEM. */
pm_status wp_cook_add(struct wp_cook *c, const struct wp_snapshot *s, const char *input);

/* Snapshot s cooked as its system's previous one, and nothing handed on
 * or counted: the snapshots before a range of a file cut for --jobs
 * (split.h), which the range's first ones are paired with as one reading
 * of the file pairs them. */
pm_status wp_cook_prime(struct wp_cook *c, const struct wp_snapshot *s);

/* Counter windows without a value because time or a counter went back. */
uint64_t wp_cook_resets(const struct wp_cook *c);

#endif
