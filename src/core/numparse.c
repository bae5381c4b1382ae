/* numparse.c: strict decimal numbers. See numparse.h. */
#include <ctype.h>
#include <string.h>

#include "core/numparse.h"

bool
numparse_u64(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (*s == '\0')
		return false;
	for (; *s; s++) {
		uint64_t digit = (uint64_t)(*s - '0');

		/* v * 10 + digit > max, asked so that nothing wraps */
		if (*s < '0' || *s > '9' || digit > max || v > (max - digit) / 10)
			return false;
		v = v * 10 + digit;
	}
	*out = v;
	return true;
}

bool
numparse_bytes(const char *s, const char *units, uint64_t max, uint64_t *out)
{
	char digits[32];
	size_t n = strlen(s);
	const char *unit;
	unsigned shift = 0;
	uint64_t v;

	if (n == 0 || n >= sizeof digits)
		return false;
	memcpy(digits, s, n + 1);
	unit = strchr(units, toupper((unsigned char)digits[n - 1]));
	if (unit && *unit) {
		shift = 10 * (unsigned)(unit - units + 1);
		digits[n - 1] = '\0';
	}
	if (!numparse_u64(digits, max >> shift, &v))
		return false;
	*out = v << shift;
	return true;
}
