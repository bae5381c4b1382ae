/* census.c: what a stream of snapshots held. See census.h. Systems are a
 * few and looked up in order; entries, thousands per snapshot, through an
 * open-addressing hash that only grows. */
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "core/census.h"

void
census_init(struct census *c)
{
	memset(c, 0, sizeof *c);
}

void
census_free(struct census *c)
{
	free(c->systems);
	free(c->entries);
	free(c->slots);
	census_init(c);
}


pm_status
census_snapshot(struct census *c, uint32_t source, int64_t stamp)
{
	return census_add(c, source, 1, stamp, stamp);
}

pm_status
census_add(struct census *c, uint32_t source, uint64_t snapshots, int64_t first,
           int64_t last)
{
	struct census_system *s;
	size_t i = 0;

	while (i < c->nsystems && c->systems[i].source != source)
		i++;
	if (i == c->nsystems) {
		if (!grow_table((void **)&c->systems, &c->systems_cap, i + 1, sizeof *c->systems))
			return PM_E_NOMEM;
		c->systems[c->nsystems++] = (struct census_system){ source, 0, first, last };
	}
	s = &c->systems[i];
	s->snapshots += snapshots;
	if (first < s->first)
		s->first = first;
	if (last > s->last)
		s->last = last;
	return PM_OK;
}

static size_t
slot_of(const struct census *c, uint32_t object, uint32_t counter, uint32_t type)
{
	uint64_t h = ((uint64_t)object * 0x9E3779B1u) ^ ((uint64_t)counter * 0x85EBCA77u) ^
	             ((uint64_t)type * 0xC2B2AE3Du);
	size_t i = (size_t)(h ^ h >> 29) & (c->nslots - 1);

	for (;; i = (i + 1) & (c->nslots - 1)) {
		const struct census_entry *e;
		if (!c->slots[i])
			return i;
		e = &c->entries[c->slots[i] - 1];
		if (e->object == object && e->counter == counter && e->type == type)
			return i;
	}
}

/* Twice the slots, the entries hashed again: kept at most half full. */
static bool
rehash(struct census *c)
{
	size_t n = c->nslots ? c->nslots * 2 : 256;
	uint32_t *old = c->slots;
	size_t nold = c->nslots;

	if (!(c->slots = calloc(n, sizeof *c->slots))) {
		c->slots = old;
		return false;
	}
	c->nslots = n;
	for (size_t i = 0; i < nold; i++)
		if (old[i]) {
			const struct census_entry *e = &c->entries[old[i] - 1];
			c->slots[slot_of(c, e->object, e->counter, e->type)] = old[i];
		}
	free(old);
	return true;
}

pm_status
census_entry(struct census *c, uint32_t object, uint32_t counter, uint32_t type)
{
	size_t i;

	if ((c->nentries + 1) * 2 > c->nslots && !rehash(c))
		return PM_E_NOMEM;
	i = slot_of(c, object, counter, type);
	if (!c->slots[i]) {
		if (c->nentries >= UINT32_MAX - 1 ||
		    !grow_table((void **)&c->entries, &c->entries_cap, c->nentries + 1, sizeof *c->entries))
			return PM_E_NOMEM;
		c->entries[c->nentries] = (struct census_entry){ object, counter, type, 0 };
		c->slots[i] = (uint32_t)++c->nentries;
	}
	c->entries[c->slots[i] - 1].seen++;
	return PM_OK;
}
