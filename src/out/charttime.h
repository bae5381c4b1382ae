/* charttime.h: a chart's time axis: ticks at whole local hours, days or
 * weeks (Mondays), the step chosen from the span, labelled in the
 * report's time convention (tzone.h: local times of its zone, or as
 * recorded). */
#ifndef CHARTTIME_H
#define CHARTTIME_H

#include <stddef.h>
#include <stdint.h>

#include "core/tzone.h"

#define CHART_TICKS_MAX 64

struct chart_tick {
	int64_t at;         /* UTC stamp */
	char time[8];       /* "06:00"; "" for day steps */
	char date[12];      /* "2025-03-03"; "" when the day is the tick before's */
};

/* The ticks in [from, to], at most max of them (and CHART_TICKS_MAX), into
 * out; returns how many. */
size_t chart_time_ticks(const struct tzone *zone, int64_t from, int64_t to,
                        size_t max, struct chart_tick out[CHART_TICKS_MAX]);

/* A stamp as the axis and the title show it, "2025-03-03 06:00" (with
 * its offset in a zone, "2025-03-03 06:00+01:00"). */
void chart_time_text(const struct tzone *zone, int64_t at, char out[TZONE_TEXT]);

#endif
