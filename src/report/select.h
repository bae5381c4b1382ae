/* select.h: what every report keeps and where a time goes: the hour or
 * day a stamp is in (local to --timezone when given), and the --source
 * names a report keeps, looked up once per source. Shared by the reports
 * of frames (report.h) and of series (series_report.h). */
#ifndef REPORT_SELECT_H
#define REPORT_SELECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/sources.h"
#include "core/tzone.h"
#include "report/report.h"

/* The start of the hour or day (by) that stamp t is in: a local one with a
 * zone (in an hour the clock repeated, the copy t is in). */
int64_t period_start(enum report_by by, const struct tzone *zone, int64_t t);
/* The end of the period that starts at start: a local day may be 23 or 25
 * hours long. */
int64_t period_end(enum report_by by, const struct tzone *zone, int64_t start);

/* The sources a report keeps: every one when no names are given. */
struct source_filter {
	const char *const *names;
	size_t nnames;
	const struct sources *src;
	uint8_t *state;         /* by source id: unknown, kept, left out */
	size_t max;
};

bool source_filter_init(struct source_filter *f, const struct report_opts *o,
                        const struct sources *src);
bool source_filter_keeps(struct source_filter *f, uint32_t source);
void source_filter_free(struct source_filter *f);

#endif
