/* pmtime.h: packed dates, times of day and timestamps.
 *
 * A stamp counts 10**-4 second units since 1970-01-01 00:00:00 of the
 * record's own (local) clock: PMIM and SMF times are local time, and
 * pmimrpt prints them as they are, with no time-zone conversion. */
#ifndef PMTIME_H
#define PMTIME_H

#include <stdint.h>

#include "core/status.h"

#define PM_UNITS_PER_SECOND 10000LL
#define PM_UNITS_PER_DAY (86400LL * PM_UNITS_PER_SECOND)
#define TOD_UNITS_PER_SECOND 4096000000ULL

/* Decode a packed date read as a big-endian 32-bit word: seven digits and a
 * sign nibble F or C, P = 0cyyddd, year = 1900 + P / 1000, day of year =
 * P % 1000 (FORMATS.md 5). PM_E_BAD_DATE on a bad digit, sign or day. */
pm_status pmtime_pdate_decode(uint32_t packed, int *year, int *yday);

/* Encode year and day of year as a packed date 0cyydddF (c = century - 19). */
uint32_t pmtime_pdate_encode(int year, int yday);

/* Days from 1970-01-01 to the given civil date (proleptic Gregorian). */
int64_t pmtime_days_from_civil(int year, unsigned month, unsigned day);

/* The stamp of a packed date and a time of day in units of `per_second`
 * (10000 for PMIM times, 100 for the SMF header). A time beyond 24:00:00
 * gives PM_E_BAD_TIME. */
pm_status pmtime_stamp(uint32_t pdate, uint32_t time, int64_t per_second,
                       int64_t *stamp);

/* pmtime_stamp for a stream of records that mostly repeat their dates: the
 * last packed date decoded is remembered. Zero-initialise before use. */
struct date_cache {
	uint32_t packed;
	int64_t midnight;  /* stamp of packed at 00:00 */
	int valid;
};
/* The cache set to the midnight of pdate, decoded. */
pm_status pmtime_midnight_cached(struct date_cache *c, uint32_t pdate);

/* The stamp through the cache. Inline, for it is asked twice a part, and
 * the date is nearly always the one before. */
static inline pm_status
pmtime_stamp_cached(struct date_cache *c, uint32_t pdate, uint32_t time,
                    int64_t per_second, int64_t *stamp)
{
	pm_status st;

	if ((!c->valid || c->packed != pdate) && (st = pmtime_midnight_cached(c, pdate)) != PM_OK)
		return st;
	if ((int64_t)time > 86400 * per_second)
		return PM_E_BAD_TIME;
	*stamp = c->midnight + (int64_t)time * (PM_UNITS_PER_SECOND / per_second);
	return PM_OK;
}

/* v % 100 as two digits at p, no terminator. */
void pmtime_put2(char *p, unsigned v);

/* "YYYY-MM-DD HH:MM:SS" (truncated to the second) into out[20]. */
void pmtime_format(int64_t stamp, char out[20]);

/* Parse "YYYY-MM-DD", "YYYY-MM-DD HH:MM", "YYYY-MM-DDTHH:MM:SS" and the like. */
pm_status pmtime_parse(const char *text, int64_t *stamp);

/* Break a stamp into civil parts. */
void pmtime_civil(int64_t stamp, int *year, unsigned *month, unsigned *day,
                  unsigned *hour, unsigned *minute, unsigned *second);

#endif
