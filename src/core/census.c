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
	for (size_t i = 0; i < c->nnames; i++)
		free(c->names[i]);
	free(c->names);
	for (size_t i = 0; i < CENSUS_GROUPS; i++)
		free(c->groups[i].entries);
	free(c->systems);
	free(c->entries);
	free(c->slots);
	census_init(c);
}


/* The index of an input's name, added when new (inputs are a few per
 * run; a merge adds each partial's). */
static bool
name_index(struct census *c, const char *name, uint32_t *at)
{
	size_t n = strlen(name) + 1;

	for (size_t i = c->nnames; i-- > 0;)
		if (strcmp(c->names[i], name) == 0) {
			*at = (uint32_t)i;
			return true;
		}
	if (c->nnames >= UINT32_MAX ||
	    !grow_table((void **)&c->names, &c->names_cap, c->nnames + 1, sizeof *c->names) ||
	    !(c->names[c->nnames] = malloc(n)))
		return false;
	memcpy(c->names[c->nnames], name, n);
	*at = (uint32_t)c->nnames++;
	return true;
}

bool
census_input(struct census *c, const char *name)
{
	return name_index(c, name ? name : "-", &c->input);
}

/* Whether (input a, seq x) comes before (b, y): by the inputs' names. */
static bool
earlier(const struct census *c, uint32_t a, uint64_t x, uint32_t b, uint64_t y)
{
	int order = a == b ? 0 : strcmp(c->names[a], c->names[b]);

	return order < 0 || (order == 0 && x < y);
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
	if (!c->nnames && !census_input(c, NULL))
		return PM_E_NOMEM;
	return census_add_from(c, source, snapshots, first, last, c->names[c->input], c->seq);
}

pm_status
census_add_from(struct census *c, uint32_t source, uint64_t snapshots, int64_t first,
                int64_t last, const char *input, uint64_t seq)
{
	struct census_system *s;
	uint32_t in;
	size_t i = 0;

	if (!name_index(c, input, &in))
		return PM_E_NOMEM;
	while (i < c->nsystems && c->systems[i].source != source)
		i++;
	if (i == c->nsystems) {
		if (!grow_table((void **)&c->systems, &c->systems_cap, i + 1, sizeof *c->systems))
			return PM_E_NOMEM;
		c->systems[c->nsystems++] = (struct census_system){ source, 0, first, last, in,
		                                                    seq };
		c->seq = seq >= c->seq ? seq + 1 : c->seq;
	}
	s = &c->systems[i];
	if (earlier(c, in, seq, s->input, s->seq))
		s->input = in, s->seq = seq;
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

/* The entry of (object, counter, type) through the hash, made when new
 * as first seen in input in at seq; NULL out of memory. */
static struct census_entry *
entry_find(struct census *c, uint32_t object, uint32_t counter, uint32_t type, uint32_t in,
           uint64_t seq)
{
	size_t i;

	if ((c->nentries + 1) * 2 > c->nslots && !rehash(c))
		return NULL;
	i = slot_of(c, object, counter, type);
	if (!c->slots[i]) {
		if (c->nentries >= UINT32_MAX - 1 ||
		    !grow_table((void **)&c->entries, &c->entries_cap, c->nentries + 1,
		                sizeof *c->entries))
			return NULL;
		c->entries[c->nentries] = (struct census_entry){ object, counter, type, 0, in, seq };
		c->slots[i] = (uint32_t)++c->nentries;
		c->seq = seq >= c->seq ? seq + 1 : c->seq;
	}
	return &c->entries[c->slots[i] - 1];
}

/* Entry e seen times more, in input in at seq. */
static inline void
count(struct census *c, struct census_entry *e, uint64_t seen, uint32_t in, uint64_t seq)
{
	e->seen += seen;
	if (earlier(c, in, seq, e->input, e->seq))
		e->input = in, e->seq = seq;
}

/* An entry seen in input in (an index of names) at seq: the one after the
 * entry last counted, when it is that one, else found through the hash
 * (apart, so that the first costs a snapshot's every counter little). */
static inline pm_status
entry_add(struct census *c, uint32_t object, uint32_t counter, uint32_t type,
          uint64_t seen, uint32_t in, uint64_t seq)
{
	struct census_entry *e = c->next < c->nentries ? &c->entries[c->next] : NULL;

	if ((!e || e->object != object || e->counter != counter || e->type != type) &&
	    !(e = entry_find(c, object, counter, type, in, seq)))
		return PM_E_NOMEM;
	c->next = (size_t)(e - c->entries) + 1;
	count(c, e, seen, in, seq);
	if (c->listing) {
		struct census_group *g = c->listing;
		if (!grow_table((void **)&g->entries, &g->cap, g->n + 1, sizeof *g->entries))
			c->listing = NULL;  /* not remembered */
		else
			g->entries[g->n++] = (uint32_t)(e - c->entries);
	}
	return PM_OK;
}

/* The current input is an index already: no name is looked up (entries
 * are counted for every counter of every snapshot). */
pm_status
census_entry(struct census *c, uint32_t object, uint32_t counter, uint32_t type)
{
	if (!c->nnames && !census_input(c, NULL))
		return PM_E_NOMEM;
	return entry_add(c, object, counter, type, 1, c->input, c->seq);
}

bool
census_group(struct census *c, uint64_t key)
{
	struct census_group *g = &c->groups[key % CENSUS_GROUPS];
	bool again = g->key == key && key != 0;

	c->listing = NULL;
	if (again) {
		/* as census_entry would count each: the group's entries are */
		for (size_t i = 0; i < g->n; i++)
			count(c, &c->entries[g->entries[i]], 1, c->input, c->seq);
		if (g->n)
			c->next = (size_t)g->entries[g->n - 1] + 1;
	} else if (key != 0) {
		*g = (struct census_group){ .counting = key, .entries = g->entries, .cap = g->cap };
		c->listing = g;
	}
	return again;
}

void
census_group_end(struct census *c, bool whole)
{
	if (c->listing && whole)
		c->listing->key = c->listing->counting;
	c->listing = NULL;
}

pm_status
census_entry_add(struct census *c, uint32_t object, uint32_t counter, uint32_t type,
                 uint64_t seen, const char *input, uint64_t seq)
{
	uint32_t in;

	if (!name_index(c, input, &in))
		return PM_E_NOMEM;
	return entry_add(c, object, counter, type, seen, in, seq);
}

static const struct census *sorting;

static int
system_order(const void *a, const void *b)
{
	const struct census_system *x = a, *y = b;

	return earlier(sorting, x->input, x->seq, y->input, y->seq) ? -1
	       : earlier(sorting, y->input, y->seq, x->input, x->seq);
}

static int
entry_order(const void *a, const void *b)
{
	const struct census_entry *x = a, *y = b;

	return earlier(sorting, x->input, x->seq, y->input, y->seq) ? -1
	       : earlier(sorting, y->input, y->seq, x->input, x->seq);
}

void
census_order(struct census *c)
{
	sorting = c;
	if (c->nsystems)
		qsort(c->systems, c->nsystems, sizeof *c->systems, system_order);
	for (size_t i = 0; i < CENSUS_GROUPS; i++)
		c->groups[i].key = 0;  /* their entries move */
	if (!c->nentries)
		return;
	qsort(c->entries, c->nentries, sizeof *c->entries, entry_order);
	memset(c->slots, 0, c->nslots * sizeof *c->slots);
	for (size_t i = 0; i < c->nentries; i++) {
		const struct census_entry *e = &c->entries[i];
		c->slots[slot_of(c, e->object, e->counter, e->type)] = (uint32_t)(i + 1);
	}
}
