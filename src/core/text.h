/* text.h: a text copied into a field of fixed size. */
#ifndef TEXT_H
#define TEXT_H

#include <stddef.h>
#include <string.h>

/* src into dst[cap], cut to cap - 1 bytes and terminated, as
 * snprintf(dst, cap, "%s", src) leaves it, without formatting: layouts
 * and definitions copy hundreds of names at every start. */
static inline void
text_copy(char *dst, size_t cap, const char *src)
{
	size_t n;

	if (cap == 0)
		return;
	n = strnlen(src, cap - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

#endif
