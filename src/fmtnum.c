/* fmtnum.c: hand-written number formatting. See fmtnum.h. */
#include <math.h>
#include <string.h>

#include "fmtnum.h"

typedef unsigned __int128 u128;

static size_t
fmt_u128(char *out, u128 v)
{
	char tmp[48];
	size_t n = 0;
	do {
		tmp[n++] = (char)('0' + (unsigned)(v % 10));
		v /= 10;
	} while (v);
	for (size_t i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	return n;
}

size_t
fmt_u64(char *out, uint64_t v)
{
	return fmt_u128(out, v);
}

size_t
fmt_i64(char *out, int64_t v)
{
	if (v < 0) {
		out[0] = '-';
		return 1 + fmt_u128(out + 1, (u128)(-(v + 1)) + 1);
	}
	return fmt_u128(out, (u128)v);
}

/* scaled is the value times 10**decimals: write it with the point. */
static size_t
put_scaled(char *out, u128 scaled, unsigned decimals)
{
	u128 pow = 1;
	size_t n;

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

size_t
fmt_ratio(char *out, uint64_t num, uint64_t den, unsigned decimals)
{
	u128 pow = 1;
	for (unsigned i = 0; i < decimals; i++)
		pow *= 10;
	/* round half up: (num * pow + den / 2) / den, exact in 128 bits */
	u128 scaled = ((u128)num * pow + den / 2) / den;
	return put_scaled(out, scaled, decimals);
}

size_t
fmt_fixed(char *out, double v, unsigned decimals)
{
	static const double pow10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9 };
	size_t n = 0;
	double scaled;

	if (isnan(v) || isinf(v) || decimals >= sizeof pow10 / sizeof pow10[0])
		return 0;
	scaled = fabs(v) * pow10[decimals];
	if (scaled >= 1.8e19) /* beyond 64 bits: rare enough for the slow way */
		scaled = 1.8e19;
	uint64_t rounded = (uint64_t)(scaled + 0.5);
	if (v < 0 && rounded != 0)
		out[n++] = '-';
	return n + put_scaled(out + n, rounded, decimals);
}
