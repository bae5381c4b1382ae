/* split.h: where --jobs cuts one large regular file into ranges, a thread
 * each: a PM stream at records that begin an interval, an SMF dump at the
 * first segment of a record (behind a BDW, or an RDW), each cut checked as
 * the framer's resynchronisation checks where records resume; a file of
 * PERF_DATA_BLOCKs at a block from which blocks walk, and up to which
 * the blocks before it walk. A snapshot is paired with its system's
 * previous one: the thread of a range of PERF_DATA_BLOCKs first reads the
 * snapshots just before it, back to a system's second, into its cook
 * alone (pipeline_prime). Whether the threads read their ranges as one
 * run reads the file is judged after they have read them (jobs.c): a cut
 * proposes, the reading confirms. */
#ifndef SPLIT_H
#define SPLIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmim/pmint.h"
#include "smf/framing.h"

/* The least bytes of a range: smaller files are read by one thread. */
#define SPLIT_LEAST ((uint64_t)8 << 20)

/* Cut the file path (its framing asked: FRAMING_AUTO detects it as the
 * framer does; perf: read as PERF_DATA_BLOCKs, for a Windows report) into
 * at most n ranges of at least least bytes each: cut[0] = 0 < cut[1] <
 * ... < cut[k] = its size, with cut holding n + 1; the snapshots range i
 * is primed with from lead[i] to cut[i] (lead holding n; lead[i] = cut[i]:
 * none). Returns k; 1, not cut, for a file that is not regular, is
 * compressed, does not walk as records or blocks, is too small, or has
 * no record or block fit to cut at. *found: what the file's records are
 * read as, found at its start, for the ranges' framers (framer_opts
 * found; FRAMING_AUTO for PERF_DATA_BLOCKs, which no framer reads). */
size_t split_file(const char *path, const struct fr_records *rs, const struct pmint *pm,
                  enum framing asked, bool perf, size_t n, uint64_t least, uint64_t *cut,
                  uint64_t *lead, struct framing_kind *found);

#endif
