/* charttime.c: a chart's time axis. See charttime.h. */
#include <string.h>

#include "out/charttime.h"

#define SECOND 10000LL          /* stamps count 10**-4 s (tzone.h) */
#define HOUR (3600 * SECOND)
#define DAY (24 * HOUR)

/* The steps, finest first; weeks start on Monday (1970-01-01 was a
 * Thursday, three days after one). */
static const int64_t steps[] = {
	HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 7 * DAY, 14 * DAY,
	28 * DAY, 91 * DAY,
};
#define MONDAY (-3 * DAY)

static int64_t
floor_div(int64_t a, int64_t b)
{
	return a / b - (a % b < 0);
}

static int64_t
local_of(const struct tzone *zone, int64_t utc)
{
	return zone ? tzone_local(zone, utc) : utc;
}

static int64_t
utc_of(const struct tzone *zone, int64_t local)
{
	int64_t utc[2];

	if (!zone)
		return local;
	(void)tzone_to_utc(zone, local, utc);
	return utc[0];
}

void
chart_time_text(const struct tzone *zone, int64_t at, char out[TZONE_TEXT])
{
	tzone_format(zone, at, out);
	/* "2025-03-03 06:00:00+01:00": the seconds left out */
	memmove(out + 16, out + 19, strlen(out + 19) + 1);
}

size_t
chart_time_ticks(const struct tzone *zone, int64_t from, int64_t to, size_t max,
                 struct chart_tick out[CHART_TICKS_MAX])
{
	int64_t lo = local_of(zone, from), hi = local_of(zone, to), step = 0, origin;
	size_t n = 0, k;
	char text[TZONE_TEXT], day[12] = "";

	if (max > CHART_TICKS_MAX)
		max = CHART_TICKS_MAX;
	for (k = 0; k < sizeof steps / sizeof steps[0]; k++) {
		step = steps[k];
		if ((hi - lo) / step + 1 <= (int64_t)max)
			break;
	}
	origin = step >= 7 * DAY ? MONDAY : 0;
	for (int64_t t = (floor_div(lo - origin - 1, step) + 1) * step + origin;
	     t <= hi && n < max; t += step) {
		struct chart_tick *tick = &out[n++];
		tick->at = utc_of(zone, t);
		tzone_format(zone, tick->at, text);
		memcpy(tick->date, text, 10);
		tick->date[10] = '\0';
		if (step < DAY) {
			memcpy(tick->time, text + 11, 5);
			tick->time[5] = '\0';
		} else {
			tick->time[0] = '\0';
		}
		if (strcmp(tick->date, day) == 0)
			tick->date[0] = '\0';
		else
			strcpy(day, tick->date);
	}
	return n;
}
