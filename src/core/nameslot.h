/* nameslot.h: the entries of a table found by name through open
 * addressing (FNV-1a), for a parser's check of a name defined twice, which
 * a search of the entries before each one made quadratic: a start-up cost
 * in the hundreds of entries. Slots hold an entry's index + 1, 0 when
 * empty; their number is a power of two, kept at least twice the entries.
 * Each entry of the table starts with its name (a NUL-terminated array). */
#ifndef NAMESLOT_H
#define NAMESLOT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/fnv.h"

/* The slot of name among nslots: the one of the entry of that name in
 * table (entries of stride bytes), or the empty one where it would go. */
static inline uint16_t *
nameslot_find(uint16_t *slots, size_t nslots, const char *name, const void *table,
              size_t stride)
{
	size_t i = (size_t)fnv_text(FNV_OFFSET, name) & (nslots - 1);

	while (slots[i] &&
	       strcmp((const char *)table + (size_t)(slots[i] - 1) * stride, name) != 0)
		i = (i + 1) & (nslots - 1);
	return &slots[i];
}

#endif
