/* grow.h: a table that only grows, doubling, so that filling it again and
 * again allocates nothing once it is big enough. */
#ifndef GROW_H
#define GROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* Room for need elements of size bytes at *p (*cap of them now); false,
 * with the table untouched, when there is no memory. */
static inline bool
grow_table(void **p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 16;
	void *q;

	if (need <= *cap)
		return true;
	while (n < need) {
		if (n > SIZE_MAX / 2 / size)
			return false;
		n *= 2;
	}
	if (!(q = realloc(*p, n * size)))
		return false;
	*p = q;
	*cap = n;
	return true;
}

#endif
