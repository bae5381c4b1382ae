/* fmtnum.c: hand-written number formatting. See fmtnum.h.
 *
 * Digits are made eight at a time in the lanes of a 64-bit word and
 * stored whole into their final place: the length of a number is known
 * before its first digit is written. Everything that fits 64 bits stays in 64-bit
 * arithmetic; 128 bits only where a figure needs them. */
#include <math.h>
#include <string.h>

#include "core/fmtnum.h"

typedef unsigned __int128 u128;

static const uint64_t pow10[20] = {
	1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
	1000000000, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
	10000000000000ULL, 100000000000000ULL, 1000000000000000ULL,
	10000000000000000ULL, 100000000000000000ULL, 1000000000000000000ULL,
	10000000000000000000ULL
};

/* Decimal digits of v, at least 1: log2 of v times log10(2) (1233/4096)
 * is the count or one less, which the table of powers settles. */
static unsigned
ndigits(uint64_t v)
{
	unsigned t = ((64 - (unsigned)__builtin_clzll(v | 1)) * 1233) >> 12;
	unsigned n = t + 1 - (v < pow10[t]);

	return n ? n : 1;
}

/* The 8 digits of v < 10**8, zeros in front, as the bytes of a word in
 * little-endian order, first digit lowest: all of them at once, in lanes
 * of the word (v / 10**4 and v % 10**4, then / 100 and % 100 in each
 * half, then / 10 and % 10 in each quarter), by multiplications that
 * cannot carry from one lane into the next. */
static inline uint64_t
digits8(uint32_t v)
{
	uint64_t m = v / 10000 | (uint64_t)(v % 10000) << 32;
	uint64_t h = (m * 10486 >> 20) & UINT64_C(0x0000007F0000007F);

	m = (m - 100 * h) << 16 | h;
	h = (m * 103 >> 10) & UINT64_C(0x000F000F000F000F);
	return (m - 10 * h) << 8 | h | UINT64_C(0x3030303030303030);
}

/* The word of digits8 at p, in memory order on either byte order. */
static inline void
put_word(char *p, uint64_t w)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	memcpy(p, &w, 8);
}

/* The len (1 to 20) lowest digits of v at out, zeros in front, eight at
 * a time; up to 7 bytes past them are scratch. lo is digits8 of
 * v % 10**8. A word's leading digits are dropped by a shift, so that every
 * store is whole. */
static inline __attribute__((always_inline)) void
put_len(char *out, uint64_t v, unsigned len, uint64_t lo)
{
	uint64_t hi = v / 100000000;

	if (len <= 8) {
		put_word(out, lo >> 8 * (8 - len));
		return;
	}
	if (len <= 16) {
		put_word(out, digits8((uint32_t)hi) >> 8 * (16 - len));
	} else {
		put_word(out, digits8((uint32_t)(hi / 100000000)) >> 8 * (24 - len));
		put_word(out + len - 16, digits8((uint32_t)(hi % 100000000)));
	}
	put_word(out + len - 8, lo);
}

/* fmt_u64, inline in the figures of fmt_ratio */
static inline size_t
put_u64(char *out, uint64_t v)
{
	unsigned n = ndigits(v);

	put_len(out, v, n, digits8((uint32_t)(v % 100000000)));
	return n;
}

size_t
fmt_u64(char *out, uint64_t v)
{
	return put_u64(out, v);
}

/* Beyond 64 bits, digit by digit: only figures past 2**64 come here. */
static size_t
fmt_u128(char *out, u128 v)
{
	char tmp[48];
	size_t n = 0;

	if (v <= UINT64_MAX)
		return fmt_u64(out, (uint64_t)v);
	do {
		tmp[n++] = (char)('0' + (unsigned)(v % 10));
		v /= 10;
	} while (v);
	for (size_t i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	return n;
}

size_t
fmt_i64(char *out, int64_t v)
{
	if (v < 0) {
		out[0] = '-';
		return 1 + fmt_u64(out + 1, (uint64_t)(-(v + 1)) + 1);
	}
	return fmt_u64(out, (uint64_t)v);
}

/* "." and zeros: a fraction of 0 in up to 19 digits, copied whole. */
static const char point_zeros[20] = ".0000000000000000000";

/* whole, then the point and frac in `decimals` (below 20) digits. A zero
 * fraction, as common as zero figures, is copied: its bytes past the end
 * are scratch (fmtnum.h). */
static inline size_t
put_fixed(char *out, uint64_t whole, uint64_t frac, unsigned decimals)
{
	size_t n = put_u64(out, whole);

	if (decimals) {
		if (frac == 0) {
			memcpy(out + n, point_zeros, sizeof point_zeros);
		} else {
			out[n] = '.';
			put_len(out + n + 1, frac, decimals,
			        digits8((uint32_t)(frac % 100000000)));
		}
		n += 1 + decimals;
	}
	return n;
}

/* scaled, the value times 10**decimals (below 20), with the point: all
 * its digits (at least one before the point), then the fraction's again a
 * place further, and the point in the gap, without dividing by
 * 10**decimals. */
static size_t
put_point(char *out, uint64_t scaled, unsigned decimals)
{
	unsigned nd = ndigits(scaled), len = nd > decimals ? nd : decimals + 1;
	uint64_t lo = digits8((uint32_t)(scaled % 100000000));

	put_len(out, scaled, len, lo);
	if (decimals == 0)
		return len;
	if (decimals <= 8)
		put_word(out + len - decimals + 1, lo >> 8 * (8 - decimals));
	else
		put_len(out + len - decimals + 1, scaled, decimals, lo);
	out[len - decimals] = '.';
	return len + 1;
}

/* scaled is the value times 10**decimals: write it with the point. */
static size_t
put_scaled(char *out, u128 scaled, unsigned decimals)
{
	u128 pow = 1;
	size_t n;

	if (scaled <= UINT64_MAX && decimals < 20)
		return put_point(out, (uint64_t)scaled, decimals);
	for (unsigned i = 0; i < decimals; i++)
		pow *= 10;
	n = fmt_u128(out, scaled / pow);
	if (decimals) {
		u128 frac = scaled % pow;
		out[n++] = '.';
		for (unsigned i = decimals; i-- > 0;) {
			out[n + i] = (char)('0' + (unsigned)(frac % 10));
			frac /= 10;
		}
		n += decimals;
	}
	return n;
}

/* fmt_ratio in 128 bits: (num * 10**decimals + den / 2) / den. Apart, so
 * that the usual path saves no registers for it. */
static __attribute__((noinline)) size_t
ratio_wide(char *out, uint64_t num, uint64_t den, unsigned decimals)
{
	u128 pow = 1;

	for (unsigned i = 0; i < decimals; i++)
		pow *= 10;
	return put_scaled(out, ((u128)num * pow + den / 2) / den, decimals);
}

size_t
fmt_ratio(char *out, uint64_t num, uint64_t den, unsigned decimals)
{
	/* Whole numbers, zero among them, need no division. Else in 64 bits
	 * with one division when num * 10**decimals fits, with two when the
	 * remainder times 10**decimals does: the whole part is num / den, the
	 * fraction (r * 10**decimals + den / 2) / den, which rounding half up
	 * can carry into the whole part (only when den > 1, so that
	 * num / den + 1 fits). */
	if (decimals < 20) {
		uint64_t p = pow10[decimals], whole, r, t;
		if (num == 0 || den == 1)
			return put_fixed(out, num, 0, decimals);
		/* One division when num * 10**decimals + den / 2 fits: its
		 * quotient is the whole part and the rounded fraction at once. */
		if (!__builtin_mul_overflow(num, p, &t) &&
		    !__builtin_add_overflow(t, den / 2, &t))
			return put_point(out, t / den, decimals);
		whole = num / den;
		r = num % den;
		if (!__builtin_mul_overflow(r, p, &t) &&
		    !__builtin_add_overflow(t, den / 2, &t)) {
			uint64_t frac = t / den;
			if (frac == p) {
				whole++;
				frac = 0;
			}
			return put_fixed(out, whole, frac, decimals);
		}
	}
	return ratio_wide(out, num, den, decimals);
}

size_t
fmt_fixed(char *out, double v, unsigned decimals)
{
	static const double pow10d[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9 };
	size_t n = 0;
	double scaled;

	if (isnan(v) || isinf(v) || decimals >= sizeof pow10d / sizeof pow10d[0])
		return 0;
	scaled = fabs(v) * pow10d[decimals];
	if (scaled >= 1.8e19) /* beyond 64 bits: rare enough for the slow way */
		scaled = 1.8e19;
	uint64_t rounded = (uint64_t)(scaled + 0.5);
	if (v < 0 && rounded != 0)
		out[n++] = '-';
	return n + put_scaled(out + n, rounded, decimals);
}
