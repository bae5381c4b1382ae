/* fmtnum.h: number formatting for reports, by hand: no printf and no locale
 * on the per-field path, '.' as the decimal point always. Each function
 * writes into out (FMTNUM_MAX bytes suffice) and returns the length; no NUL
 * is written. Bytes of out past the length may be overwritten: out must
 * always have room for FMTNUM_MAX. */
#ifndef FMTNUM_H
#define FMTNUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define FMTNUM_MAX 48

size_t fmt_u64(char *out, uint64_t v);
size_t fmt_i64(char *out, int64_t v);

/* num / den with `decimals` digits after the point, rounded half up, exact
 * (in 64-bit arithmetic while it suffices, else 128-bit). den must not be
 * 0. */
size_t fmt_ratio(char *out, uint64_t num, uint64_t den, unsigned decimals);

/* What fmt_ratio_inline (below) leaves to a call. */
size_t fmt_ratio_rest(char *out, uint64_t num, uint64_t den, unsigned decimals);

/* v with `decimals` digits after the point, rounded half away from zero.
 * NaN and infinities are written as an empty field (length 0). */
size_t fmt_fixed(char *out, double v, unsigned decimals);

/* The inline part of fmt_u64 and fmt_ratio, for a writer's loop over the
 * figures of a row (out/cell.c); fmtnum.c has the rest. */

extern const uint64_t fmtnum_pow10[20];

/* Decimal digits of v, at least 1: log2 of v times log10(2) (1233/4096)
 * is the count or one less, which the table of powers settles. */
static inline __attribute__((always_inline)) unsigned
fmtnum_ndigits(uint64_t v)
{
	unsigned t = ((64 - (unsigned)__builtin_clzll(v | 1)) * 1233) >> 12;
	unsigned n = t + 1 - (v < fmtnum_pow10[t]);

	return n ? n : 1;
}

/* The four digits of each v < 10**4 as the four bytes of a number, the
 * first digit lowest (fmtnum.c). */
extern const uint32_t fmtnum_quads[10000];

/* The 8 digits of v < 10**8, zeros in front, as the bytes of a word in
 * little-endian order, first digit lowest: v / 10**4 and v % 10**4 by a
 * multiplication, then four digits at a time from the table. */
static inline __attribute__((always_inline)) uint64_t
fmtnum_digits8(uint32_t v)
{
	return fmtnum_quads[v / 10000] | (uint64_t)fmtnum_quads[v % 10000] << 32;
}

/* fmtnum_digits8 of v < 10**4, but for the four leading zeros. */
static inline __attribute__((always_inline)) uint64_t
fmtnum_digits4(uint32_t v)
{
	return fmtnum_quads[v];
}

/* The word of fmtnum_digits8 at p, in memory order on either byte order. */
static inline void
fmtnum_put_word(char *p, uint64_t w)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	memcpy(p, &w, 8);
}

/* The len (1 to 20) lowest digits of v at out, zeros in front, eight at
 * a time; up to 7 bytes past them are scratch. lo is fmtnum_digits8 of
 * v % 10**8. A word's leading digits are dropped by a shift, so that every
 * store is whole. */
static inline __attribute__((always_inline)) void
fmtnum_put_len(char *out, uint64_t v, unsigned len, uint64_t lo)
{
	uint64_t hi = v / 100000000;

	if (len <= 8) {
		fmtnum_put_word(out, lo >> 8 * (8 - len));
		return;
	}
	if (len <= 12) {
		fmtnum_put_word(out, fmtnum_digits4((uint32_t)hi) >> 8 * (12 - len));
	} else if (len <= 16) {
		fmtnum_put_word(out, fmtnum_digits8((uint32_t)hi) >> 8 * (16 - len));
	} else {
		fmtnum_put_word(out, fmtnum_digits8((uint32_t)(hi / 100000000)) >> 8 * (24 - len));
		fmtnum_put_word(out + len - 16, fmtnum_digits8((uint32_t)(hi % 100000000)));
	}
	fmtnum_put_word(out + len - 8, lo);
}

/* Leading zero digits of a word of fmtnum_digits8 or fmtnum_digits4 that
 * has a digit other than zero: where its first such byte is. */
static inline __attribute__((always_inline)) unsigned
fmtnum_zeros(uint64_t w)
{
	return (unsigned)__builtin_ctzll(w ^ UINT64_C(0x3030303030303030)) >> 3;
}

/* What fmtnum_point (below) leaves to a call: any scaled, decimals below
 * 20. */
size_t fmtnum_point_rest(char *out, uint64_t scaled, unsigned decimals);

/* scaled, the value times 10**decimals (below 20), with the point: all
 * its digits (at least one before the point), then the fraction's again a
 * place further, and the point in the gap, without dividing by
 * 10**decimals. Inline for the usual figure, below 10**12 with at most 7
 * decimals: its 12 digits are a word of 4 and a word of 8, and its length
 * is told by the leading zeros of the first that has a digit other than
 * zero. */
static inline __attribute__((always_inline)) size_t
fmtnum_point(char *out, uint64_t scaled, unsigned decimals)
{
	uint64_t hi, lo;
	unsigned len;

	if (scaled >= UINT64_C(1000000000000) || decimals >= 8)
		return fmtnum_point_rest(out, scaled, decimals);
	hi = scaled / 100000000;
	lo = fmtnum_digits8((uint32_t)(scaled - hi * 100000000));
	if (hi != 0) {
		uint64_t w = fmtnum_digits4((uint32_t)hi);
		unsigned z = fmtnum_zeros(w);

		len = 12 - z;
		fmtnum_put_word(out, w >> 8 * z);
		fmtnum_put_word(out + len - 8, lo);
	} else {
		/* the last digit counts, zero or not */
		len = 8 - fmtnum_zeros(lo | UINT64_C(1) << 56);
		len = len > decimals ? len : decimals + 1;
		fmtnum_put_word(out, lo >> 8 * (8 - len));
	}
	if (decimals == 0)
		return len;
	fmtnum_put_word(out + len - decimals + 1, lo >> 8 * (8 - decimals));
	out[len - decimals] = '.';
	return len + 1;
}

/* num / den times 10**decimals (below 20), rounded half up, into *scaled:
 * the figure fmtnum_point writes, while one division in 64 bits gives it
 * (none when den is a power of ten); false, and *scaled no figure, when it
 * does not. */
static inline __attribute__((always_inline)) bool
fmtnum_ratio_scaled(uint64_t num, uint64_t den, unsigned decimals, uint64_t *scaled)
{
	/* 10**k has k trailing zero bits */
	unsigned k = (unsigned)__builtin_ctzll(den);
	uint64_t t;

	/* den 10**k, k <= decimals (1 among them): exact, without dividing,
	 * which costs more than the rest of a figure */
	if (k <= decimals && den == fmtnum_pow10[k])
		return !__builtin_mul_overflow(num, fmtnum_pow10[decimals - k], scaled);
	if (__builtin_mul_overflow(num, fmtnum_pow10[decimals], &t) ||
	    __builtin_add_overflow(t, den / 2, &t))
		return false;
	*scaled = t / den;
	return true;
}

/* fmt_ratio: one division while num * 10**decimals + den / 2 fits 64
 * bits, whose quotient is the whole part and the rounded fraction at once
 * (none for a power of ten); else fmt_ratio_rest. */
static inline size_t
fmt_ratio_inline(char *out, uint64_t num, uint64_t den, unsigned decimals)
{
	uint64_t scaled;

	if (decimals < 20 && fmtnum_ratio_scaled(num, den, decimals, &scaled))
		return fmtnum_point(out, scaled, decimals);
	return fmt_ratio_rest(out, num, den, decimals);
}

#endif
