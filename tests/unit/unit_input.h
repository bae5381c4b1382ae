/* unit_input.h: inputs that several unit tests make (unit_input.c): a
 * memory input whose reads fail part way, and gzip bytes made by zlib's
 * own encoder. */
#ifndef UNIT_INPUT_H
#define UNIT_INPUT_H

#include <config.h>

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "io/input.h"

/* As an input's read or source: a memory input (input_from_memory) whose
 * reads fail with EIO once unit_fail_at bytes have been served. */
extern size_t unit_fail_at;
ssize_t unit_read_then_fail(struct input *in, uint8_t *buf, size_t cap);

#ifdef HAVE_ZLIB
/* text as one gzip member at out[cap]; its length. */
size_t unit_gzip_member(uint8_t *out, size_t cap, const char *text);
#endif

#endif
