/* stream.h: a file or standard input of PERF_DATA_BLOCKs back to back,
 * each starting with its UTF-16LE "PERF" signature and TotalByteLength
 * long; several inputs are one stream. A block is held whole in one buffer
 * that only grows, up to max_block bytes. A block that breaks a rule is
 * reported with its file, offset and the rule, and skipped by its
 * TotalByteLength when that is sane; otherwise the reader resynchronises
 * on the next signature. Bytes are accounted as for SMF dumps: a walked
 * block's bytes used, a refused block's and any bytes between blocks
 * damaged. A range of a file (input_open_range) is read from its start
 * to its stop, its offsets the file's. */
#ifndef WINPERF_STREAM_H
#define WINPERF_STREAM_H

#include "core/diag.h"
#include "core/tally.h"
#include "io/input.h"
#include "winperf/block.h"

/* A snapshot walked from the block at offset of the current input. */
typedef void (*wp_snapshot_fn)(const struct wp_snapshot *s, uint64_t offset, void *ctx);

struct wp_stream;

pm_status wp_stream_open(struct wp_stream **out, size_t max_block,
                         wp_snapshot_fn emit, void *ctx);

/* Whether the first bytes of an input (at least WP_PDB_MIN when it has
 * them) start a stream of blocks: --framing=auto asks this. */
bool wp_stream_detect(struct span head);

/* Read in to its end. 0, or -1 on a read error (reported). */
int wp_stream_read(struct wp_stream *s, struct input *in, struct diag *d,
                   struct tally *t);

void wp_stream_close(struct wp_stream *s);

#endif
