/* decompress.h: gzip (zlib) and zstd (libzstd) input, decoded as it is
 * read. input.c looks at an input's first bytes and, on a codec's magic,
 * stacks a decoder under its reads, so that every reader sees the decoded
 * bytes and counts them as the input's bytes. Memory is fixed at open: one
 * buffer of compressed bytes and the codec's state (zstd's window is at
 * most its default limit, 128 MiB; a dump made with a larger one is
 * damage). Concatenated gzip members and zstd frames (skippable ones too)
 * are read as one stream; bytes after the last one that do not start
 * another are a warning, and ignored, as gzip ignores them. A stream that
 * is damaged or ends inside a member or frame is said with the offset of
 * the decoded bytes reached, and reads end there: what was decoded before
 * is kept. Built without a codec's library, its input is not decoded, and
 * smf/detect.c says why nothing walks. */
#ifndef DECOMPRESS_H
#define DECOMPRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/status.h"

struct input;
struct decoder;

/* Bytes enough to tell a codec's magic. */
#define DECOMPRESS_MAGIC_LEN 4

/* Stack a decoder on in when the first bytes of its source, head (n of
 * them, DECOMPRESS_MAGIC_LEN unless the input is shorter), are a magic of
 * a codec built in; head is decoded first. false when they are not, or
 * when there is no memory for the decoder (*st says which: PM_OK or
 * PM_E_NOMEM). */
bool decompress_stack(struct input *in, const uint8_t *head, size_t n, pm_status *st);

/* The decoded bytes, as input's read: >0, 0 at the end (or after damage,
 * said through in->diag), -1 on a read error of the source (errno). */
ssize_t decompress_read(struct input *in, uint8_t *buf, size_t cap);

/* The codec's name ("gzip", "zstd"); the compressed bytes read. */
const char *decompress_codec(const struct decoder *d);
uint64_t decompress_consumed(const struct decoder *d);

void decompress_free(struct decoder *d);

#endif
