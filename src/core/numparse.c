/* numparse.c: strict decimal numbers. See numparse.h. */
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
