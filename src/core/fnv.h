/* fnv.h: FNV-1a, the one hash of texts and small keys, for the hash
 * tables of names and the fingerprints of definitions and layouts. */
#ifndef FNV_H
#define FNV_H

#include <stddef.h>
#include <stdint.h>

#define FNV_OFFSET UINT64_C(1469598103934665603)

/* h with v added (a byte, or a whole small number). */
static inline uint64_t
fnv_step(uint64_t h, uint64_t v)
{
	return (h ^ v) * UINT64_C(1099511628211);
}

/* h with the bytes of text s added. */
static inline uint64_t
fnv_text(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = fnv_step(h, (unsigned char)*s);
	return h;
}

/* h with the n bytes at p added. */
static inline uint64_t
fnv_bytes(uint64_t h, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = fnv_step(h, p[i]);
	return h;
}

#endif
