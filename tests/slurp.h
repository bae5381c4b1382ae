/* slurp.h: a whole test input in memory, for the test programs that cut,
 * corrupt or re-chunk it (never for pmimrpt, which streams). */
#ifndef SLURP_H
#define SLURP_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The bytes of path, *len of them; NULL when it cannot be opened. Aborts
 * when memory runs out. */
static inline uint8_t *
slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t cap = 0, n;

	if (!fp)
		return NULL;
	*len = 0;
	do {
		if (*len == cap && !(buf = realloc(buf, cap = cap ? 2 * cap : 65536)))
			abort();
		n = fread(buf + *len, 1, cap - *len, fp);
		*len += n;
	} while (n > 0);
	fclose(fp);
	return buf;
}

#endif
