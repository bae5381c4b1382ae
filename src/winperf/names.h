/* names.h: the title table of --perf-names: which name a title index
 * (ObjectNameTitleIndex, CounterNameTitleIndex) stands for. Either the raw
 * `Counter` REG_MULTI_SZ value (UTF-16LE strings, index and name
 * alternating, ending in an empty string) or the same alternating lines as
 * UTF-8 text. Without a table, names are the decimal indexes. */
#ifndef WINPERF_NAMES_H
#define WINPERF_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

struct wp_names;

/* Load the table in path into *out. PM_E_OPEN, PM_E_READ (errno set),
 * PM_E_PERF_NAMES with why in err, PM_E_NOMEM. */
pm_status wp_names_load(struct wp_names **out, const char *path, char *err,
                        size_t cap);

/* The name of title index i: the table's, or i in decimal in buf (12
 * bytes). names may be NULL. */
const char *wp_name(const struct wp_names *names, uint32_t i, char buf[12]);

/* Whether a name a definition gives stands for title index i: by names'
 * own (may be NULL), else by the standard English titles (english.h). A
 * name may stand for several indexes ("% Idle Time" of PhysicalDisk and of
 * Processor). */
bool wp_names_is(const struct wp_names *names, const char *name, uint32_t i);

void wp_names_free(struct wp_names *names);

#endif
