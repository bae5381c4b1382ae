/* inventory.h: the `inventory` report: what the input held, record kind by
 * record kind, then the framing counts and the byte accounting. */
#ifndef INVENTORY_H
#define INVENTORY_H

#include <stdio.h>

#include "core/status.h"
#include "core/tally.h"

pm_status inventory_write(FILE *fp, const struct tally *t);

#endif
