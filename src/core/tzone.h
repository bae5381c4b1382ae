/* tzone.h: a time zone's rules, through the C library's zone data (TZ and
 * localtime_r), for PMIM times written in an LPAR's local time.
 *
 * Stamps here are those of pmtime.h: a "local" stamp counts from 1970-01-01
 * 00:00 of the local clock, a "UTC" one from 1970-01-01 00:00 UTC. The zone
 * is set for the whole process (TZ): there is one per run. */
#ifndef TZONE_H
#define TZONE_H

#include <stdint.h>

#include "core/status.h"

/* "YYYY-MM-DD HH:MM:SS+HH:MM" and its NUL */
#define TZONE_TEXT 26

struct tzone;

/* The zone of IANA name (e.g. Europe/Berlin), found in $TZDIR or
 * /usr/share/zoneinfo. NULL with *st PM_E_USAGE when there is no such
 * zone, PM_E_NOMEM when there is no memory. */
struct tzone *tzone_open(const char *name, pm_status *st);

/* Another handle on zone z, with a cache of its own: a zone caches the
 * offsets it looked up, so each thread that uses one has its own. NULL
 * when there is no memory. */
struct tzone *tzone_copy(const struct tzone *z);

void tzone_close(struct tzone *z);

/* The zone's offset from UTC at the UTC stamp, in stamp units. */
int64_t tzone_offset(const struct tzone *z, int64_t utc);

/* The local time of the UTC stamp; with no zone (z NULL), the stamp. */
int64_t tzone_local(const struct tzone *z, int64_t utc);

/* The UTC stamps the local stamp stands for, earlier first: two in an
 * hour the clock repeats, else one (in an hour the clock skipped, as if
 * it had not moved forward yet). Returns how many. */
unsigned tzone_to_utc(const struct tzone *z, int64_t local, int64_t utc[2]);

/* The UTC stamp as local time with its offset, "2026-10-25 02:00:00+02:00";
 * with no zone (z NULL), the stamp as it is, "2026-10-25 02:00:00". */
void tzone_format(const struct tzone *z, int64_t stamp, char out[TZONE_TEXT]);

/* "YYYY-MM-DD HH:MM:SS.mmm+HH:MM" and its NUL */
#define TZONE_TEXT_MS 30

/* The same with its milliseconds, "2020-03-18 18:54:13.086", as Windows
 * SYSTEMTIME gives them. */
void tzone_format_ms(const struct tzone *z, int64_t stamp, char out[TZONE_TEXT_MS]);

#endif
