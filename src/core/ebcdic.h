/* ebcdic.h: code-page conversion through iconv, opened once per run. */
#ifndef EBCDIC_H
#define EBCDIC_H

#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

struct conv;

/* Open a converter from code page `from` to `to`. IBM code pages may be
 * written IBM-037, IBM037, CP037 or 037. PM_E_CODEPAGE when iconv lacks it. */
pm_status conv_open(struct conv **cv, const char *from, const char *to);

/* Convert n bytes into out (cap bytes, NUL-terminated), dropping trailing
 * blanks and NULs. Bytes that do not convert become '?'. Returns the length. */
size_t conv_text(struct conv *cv, const uint8_t *in, size_t n, char *out,
                 size_t cap);

/* Convert a whole buffer (for EBCDIC report output). Returns bytes written
 * to out, or (size_t)-1 if out is too small. Unconvertible bytes become the
 * target's substitute character. */
size_t conv_buffer(struct conv *cv, const char *in, size_t n, char *out,
                   size_t cap);

void conv_close(struct conv *cv);

/* The iconv name for a user's code-page name ("IBM-1047" -> "IBM1047"). */
void ebcdic_iconv_name(const char *user, char *out, size_t cap);

#endif
