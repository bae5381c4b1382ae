/* fmtnum.h: number formatting for reports, by hand: no printf and no locale
 * on the per-field path, '.' as the decimal point always. Each function
 * writes into out (FMTNUM_MAX bytes suffice) and returns the length; no NUL
 * is written. Bytes of out past the length may be overwritten: out must
 * always have room for FMTNUM_MAX. */
#ifndef FMTNUM_H
#define FMTNUM_H

#include <stddef.h>
#include <stdint.h>

#define FMTNUM_MAX 48

size_t fmt_u64(char *out, uint64_t v);
size_t fmt_i64(char *out, int64_t v);

/* num / den with `decimals` digits after the point, rounded half up, exact
 * (in 64-bit arithmetic while it suffices, else 128-bit). den must not be
 * 0. */
size_t fmt_ratio(char *out, uint64_t num, uint64_t den, unsigned decimals);

/* v with `decimals` digits after the point, rounded half away from zero.
 * NaN and infinities are written as an empty field (length 0). */
size_t fmt_fixed(char *out, double v, unsigned decimals);

#endif
