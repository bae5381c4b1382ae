/* census.h: a snapshot counted into the reader-neutral census
 * (core/census.h) of the inventory: its system, interned as a source, and
 * the objects and the counters with a value it holds. */
#ifndef WINPERF_CENSUS_H
#define WINPERF_CENSUS_H

#include "core/census.h"
#include "core/sources.h"
#include "winperf/block.h"

/* PM_OK, PM_E_SOURCE_LIMIT or PM_E_NOMEM; the system's source id in
 * *source when it has one. */
pm_status wp_census_add(struct census *c, struct sources *src, const struct wp_snapshot *s,
                        uint32_t *source);

#endif
