/* utf16.h: UTF-16LE text (the registry's strings) as UTF-8. */
#ifndef WINPERF_UTF16_H
#define WINPERF_UTF16_H

#include <stddef.h>

#include "core/bytes.h"

/* Bytes of UTF-8 that n bytes of UTF-16LE need at most, the NUL included. */
#define WP_UTF8_CAP(n) ((n) / 2 * 3 + 1)

/* The UTF-16LE text in s, up to its first NUL, into out (cap bytes,
 * NUL-terminated; WP_UTF8_CAP(s.len) always suffices). Unpaired
 * surrogates become '?'. Returns the length written. */
size_t wp_utf16_to_utf8(struct span s, char *out, size_t cap);

#endif
