/* fmtnum.c: hand-written number formatting. See fmtnum.h.
 *
 * Digits are taken four at a time from a table (40 KiB: fewer
 * instructions than working them out in the lanes of a word, and faster
 * for all the misses of the data cache), eight to a 64-bit word, and
 * stored whole into their final place (fmtnum.h): the length of a number
 * is known before its first digit is written. Everything that fits 64
 * bits stays in 64-bit arithmetic; 128 bits only where a figure needs
 * them. */
#include <math.h>
#include <string.h>

#include "core/fmtnum.h"

typedef unsigned __int128 u128;

const uint64_t fmtnum_pow10[20] = {
	1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
	1000000000, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
	10000000000000ULL, 100000000000000ULL, 1000000000000000ULL,
	10000000000000000ULL, 100000000000000000ULL, 1000000000000000000ULL,
	10000000000000000000ULL
};

/* Lane values, not bytes: fmtnum_put_word stores them in memory order on
 * either byte order. */
#define Q(i) ((uint32_t)('0' + (i) / 1000) | (uint32_t)('0' + (i) / 100 % 10) << 8 | \
	(uint32_t)('0' + (i) / 10 % 10) << 16 | (uint32_t)('0' + (i) % 10) << 24)
#define Q10(i) Q(i), Q(i + 1), Q(i + 2), Q(i + 3), Q(i + 4), Q(i + 5), Q(i + 6), \
	Q(i + 7), Q(i + 8), Q(i + 9)
#define Q100(i) Q10(i), Q10(i + 10), Q10(i + 20), Q10(i + 30), Q10(i + 40), \
	Q10(i + 50), Q10(i + 60), Q10(i + 70), Q10(i + 80), Q10(i + 90)
#define Q1000(i) Q100(i), Q100(i + 100), Q100(i + 200), Q100(i + 300), Q100(i + 400), \
	Q100(i + 500), Q100(i + 600), Q100(i + 700), Q100(i + 800), Q100(i + 900)
const uint32_t fmtnum_quads[10000] = {
	Q1000(0), Q1000(1000), Q1000(2000), Q1000(3000), Q1000(4000),
	Q1000(5000), Q1000(6000), Q1000(7000), Q1000(8000), Q1000(9000)
};

/* fmtnum_point of any figure: below 10**16 with at most 8 decimals, its
 * length told by the leading zeros of its words; else counted first. */
size_t
fmtnum_point_rest(char *out, uint64_t scaled, unsigned decimals)
{
	uint64_t hi = scaled / 100000000, w;
	uint64_t lo = fmtnum_digits8((uint32_t)(scaled - hi * 100000000));
	unsigned len;

	if (hi == 0 && decimals < 8) {
		/* the last digit counts, zero or not */
		len = 8 - fmtnum_zeros(lo | UINT64_C(1) << 56);
		len = len > decimals ? len : decimals + 1;
		fmtnum_put_word(out, lo >> 8 * (8 - len));
	} else if (hi != 0 && hi < 100000000 && decimals <= 8) {
		if (hi < 10000) {
			w = fmtnum_digits4((uint32_t)hi);
			len = 12 - fmtnum_zeros(w);
			fmtnum_put_word(out, w >> 8 * (12 - len));
		} else {
			w = fmtnum_digits8((uint32_t)hi);
			len = 16 - fmtnum_zeros(w);
			fmtnum_put_word(out, w >> 8 * (16 - len));
		}
		fmtnum_put_word(out + len - 8, lo);
	} else {
		len = fmtnum_ndigits(scaled);
		len = len > decimals ? len : decimals + 1;
		fmtnum_put_len(out, scaled, len, lo);
	}
	if (decimals == 0)
		return len;
	if (decimals <= 8)
		fmtnum_put_word(out + len - decimals + 1, lo >> 8 * (8 - decimals));
	else   /* put_len takes a figure of at most that many digits */
		fmtnum_put_len(out + len - decimals + 1, scaled % fmtnum_pow10[decimals],
		               decimals, lo);
	out[len - decimals] = '.';
	return len + 1;
}

size_t
fmt_u64(char *out, uint64_t v)
{
	return fmtnum_point(out, v, 0);
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
	size_t n = fmtnum_point(out, whole, 0);

	if (decimals) {
		if (frac == 0) {
			memcpy(out + n, point_zeros, sizeof point_zeros);
		} else {
			out[n] = '.';
			fmtnum_put_len(out + n + 1, frac, decimals,
			        fmtnum_digits8((uint32_t)(frac % 100000000)));
		}
		n += 1 + decimals;
	}
	return n;
}

/* scaled is the value times 10**decimals: write it with the point. */
static size_t
put_scaled(char *out, u128 scaled, unsigned decimals)
{
	u128 pow = 1;
	size_t n;

	if (scaled <= UINT64_MAX && decimals < 20)
		return fmtnum_point(out, (uint64_t)scaled, decimals);
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
	return fmt_ratio_inline(out, num, den, decimals);
}

size_t
fmt_ratio_rest(char *out, uint64_t num, uint64_t den, unsigned decimals)
{
	/* Whole numbers need no division. Else in 64 bits with two
	 * divisions when the remainder times 10**decimals fits: the whole
	 * part is num / den, the fraction (r * 10**decimals + den / 2) / den,
	 * which rounding half up can carry into the whole part (only when
	 * den > 1, so that num / den + 1 fits). */
	if (decimals < 20) {
		uint64_t p = fmtnum_pow10[decimals], whole, r, t;
		if (den == 1)
			return put_fixed(out, num, 0, decimals);
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
