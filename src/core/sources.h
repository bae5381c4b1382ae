/* sources.h: interned source names ("SYSA", "SYSA/IDMSCV01"), so that the
 * per-record path carries a small number, not a string. */
#ifndef SOURCES_H
#define SOURCES_H

#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

#define SOURCE_NAME_MAX 64

struct sources {
	char (*names)[SOURCE_NAME_MAX];
	size_t n, max;
	uint32_t last;  /* the last id looked up: most records repeat it */
};

pm_status sources_init(struct sources *s, size_t max);
void sources_free(struct sources *s);

/* The id of name (len bytes), adding it when new. PM_E_SOURCE_LIMIT when
 * max names are known already. */
pm_status sources_intern(struct sources *s, const char *name, size_t len,
                         uint32_t *id);

const char *sources_name(const struct sources *s, uint32_t id);

#endif
