/* census.c: a snapshot counted into the census. See census.h. */
#include <string.h>

#include "winperf/census.h"

pm_status
wp_census_add(struct census *c, struct sources *src, const struct wp_snapshot *s,
              uint32_t *source)
{
	pm_status st = sources_intern(src, s->system, strlen(s->system), source);

	if (st == PM_OK)
		st = census_snapshot(c, *source, s->time);
	/* an object's entries are known by its definitions' number: the
	 * numbers of the one walker that reads this census's snapshots */
	for (size_t i = 0; st == PM_OK && i < s->nobjects; i++) {
		const struct wp_object *o = &s->objects[i];
		if (census_group(c, o->defs))
			continue;
		st = census_entry(c, o->title, CENSUS_OBJECT, 0);
		for (size_t k = 0; st == PM_OK && k < o->ncounters; k++)
			if (o->counters[k].role == WP_SHOWN)
				st = census_entry(c, o->title, o->counters[k].title, o->counters[k].type);
		census_group_end(c, st == PM_OK);
	}
	c->nodata += s->nodata;
	c->unknown += s->unknown;
	return st;
}
