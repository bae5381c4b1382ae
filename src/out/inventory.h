/* inventory.h: the `inventory` report: what the input held, record kind by
 * record kind, then the framing counts and the byte accounting. */
#ifndef INVENTORY_H
#define INVENTORY_H

#include <stdio.h>

#include "core/census.h"
#include "core/sources.h"
#include "core/status.h"
#include "core/tally.h"

pm_status inventory_write(FILE *fp, const struct tally *t);

/* The inventory of Windows performance snapshots: columns kind, name,
 * type, count, first, last. A row per system (its snapshots, first and
 * last times, YYYY-MM-DD HH:MM:SS.mmm UTC), per object (snapshots holding
 * it) and per counter (OBJECT\COUNTER, its type), in the order first seen;
 * then the counter definitions skipped, the framing counts and the byte
 * accounting. */
pm_status inventory_write_perf(FILE *fp, const struct tally *t, const struct census *c,
                               const struct sources *src, const struct census_names *names);

#endif
