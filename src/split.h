/* split.h: where --jobs cuts one large regular file into ranges, a thread
 * each: a PM stream at records that begin an interval, an SMF dump at the
 * first segment of a record (behind a BDW, or an RDW), each cut checked as
 * the framer's resynchronisation checks where records resume. Whether the
 * threads read their ranges as one run reads the file is judged after they
 * have read them (jobs.c): a cut proposes, the reading confirms. */
#ifndef SPLIT_H
#define SPLIT_H

#include <stddef.h>
#include <stdint.h>

#include "pmim/pmint.h"
#include "smf/framing.h"

/* The least bytes of a range: smaller files are read by one thread. */
#define SPLIT_LEAST ((uint64_t)8 << 20)

/* Cut the file path (its framing asked: FRAMING_AUTO detects it as the
 * framer does) into at most n ranges of at least least bytes each:
 * cut[0] = 0 < cut[1] < ... < cut[k] = its size, with cut holding n + 1,
 * and *kind what the file is read as (found at its start, for the ranges'
 * framers: framer_opts found). Returns k; 1, not cut, for a file that is
 * not regular, is compressed, does not walk as records, is too small, or
 * has no record fit to cut at. */
size_t split_file(const char *path, const struct fr_records *rs, const struct pmint *pm,
                  enum framing asked, size_t n, uint64_t least, uint64_t *cut,
                  struct framing_kind *kind);

#endif
