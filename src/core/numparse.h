/* numparse.h: strict decimal numbers, as the command lines and the report
 * definitions take them. */
#ifndef NUMPARSE_H
#define NUMPARSE_H

#include <stdbool.h>
#include <stdint.h>

/* A decimal number and nothing else, at most max: no sign, no blanks, no
 * empty string, no overflow. *out is set only on success. */
bool numparse_u64(const char *s, uint64_t max, uint64_t *out);

/* A number of bytes: a decimal number, or one with a letter of units
 * after it (either case), each a power of 1024 from K on ("KMG": K, M and
 * G taken); at most max. *out is set only on success. */
bool numparse_bytes(const char *s, const char *units, uint64_t max, uint64_t *out);

#endif
