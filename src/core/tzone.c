/* tzone.c: a time zone's rules. See tzone.h. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pmim/pmtime.h"
#include "core/tzone.h"

/* The offsets last asked for, by UTC second: the parts of an interval,
 * and an interval and the next, ask for the same seconds, and localtime_r
 * costs more than the rest of a part's reading. Direct-mapped. */
#define OFFSET_CACHE_BITS 6
#define OFFSET_CACHE (1 << OFFSET_CACHE_BITS)

struct offset_entry {
	int64_t second;
	int64_t offset;
	bool used;
};

/* TZ is the process's, so a zone is the value it was given, and the
 * offsets found. */
struct tzone {
	char tz[256];
	struct offset_entry *cache;  /* OFFSET_CACHE entries */
};

/* Whether name is a zone file of the system's zone data: glibc takes an
 * unknown name for UTC without a word, so the file is looked for here. */
static int
zone_exists(const char *name)
{
	const char *dir = getenv("TZDIR");
	char path[4096], magic[4] = { 0 };
	FILE *fp;
	int found;

	if (name[0] == '\0' || name[0] == '/' || strstr(name, "..") ||
	    strlen(name) >= sizeof ((struct tzone *)0)->tz)
		return 0;
	snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : "/usr/share/zoneinfo", name);
	if (!(fp = fopen(path, "rb")))
		return 0;
	found = fread(magic, 1, 4, fp) == 4 && memcmp(magic, "TZif", 4) == 0;
	fclose(fp);
	return found;
}

struct tzone *
tzone_open(const char *name, pm_status *st)
{
	struct tzone *z;

	if (!zone_exists(name)) {
		*st = PM_E_USAGE;
		return NULL;
	}
	if (!(z = calloc(1, sizeof *z)) ||
	    !(z->cache = calloc(OFFSET_CACHE, sizeof *z->cache))) {
		tzone_close(z);
		*st = PM_E_NOMEM;
		return NULL;
	}
	strcpy(z->tz, name);
	if (setenv("TZ", z->tz, 1) != 0) {
		tzone_close(z);
		*st = PM_E_NOMEM;
		return NULL;
	}
	tzset();
	*st = PM_OK;
	return z;
}

struct tzone *
tzone_copy(const struct tzone *z)
{
	struct tzone *c = calloc(1, sizeof *c);

	if (!c || !(c->cache = calloc(OFFSET_CACHE, sizeof *c->cache))) {
		tzone_close(c);
		return NULL;
	}
	memcpy(c->tz, z->tz, sizeof c->tz);
	return c;
}

void
tzone_close(struct tzone *z)
{
	if (!z)
		return;
	free(z->cache);
	free(z);
}

static int64_t
floor_div(int64_t a, int64_t b)
{
	return a / b - (a % b < 0);
}

int64_t
tzone_offset(const struct tzone *z, int64_t utc)
{
	int64_t second = floor_div(utc, PM_UNITS_PER_SECOND), local;
	struct offset_entry *e = &z->cache[((uint64_t)second * 0x9E3779B97F4A7C15u) >> (64 - OFFSET_CACHE_BITS)];
	time_t t = (time_t)second;
	struct tm tm;

	if (e->used && e->second == second)
		return e->offset;
	if (!localtime_r(&t, &tm))
		return 0;
	local = pmtime_days_from_civil(tm.tm_year + 1900, (unsigned)tm.tm_mon + 1,
	                               (unsigned)tm.tm_mday) * 86400 +
	        tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec;
	*e = (struct offset_entry){ second, (local - second) * PM_UNITS_PER_SECOND, true };
	return e->offset;
}

int64_t
tzone_local(const struct tzone *z, int64_t utc)
{
	return z ? utc + tzone_offset(z, utc) : utc;
}

unsigned
tzone_to_utc(const struct tzone *z, int64_t local, int64_t utc[2])
{
	/* the offsets in force a day either side: clocks change at most
	 * once a day */
	int64_t before = tzone_offset(z, local - PM_UNITS_PER_DAY);
	int64_t after = tzone_offset(z, local + PM_UNITS_PER_DAY);
	unsigned n = 0;

	/* the larger offset gives the earlier UTC time */
	if (before < after) {
		int64_t t = before;
		before = after;
		after = t;
	}
	if (tzone_offset(z, local - before) == before)
		utc[n++] = local - before;
	if (after != before && tzone_offset(z, local - after) == after)
		utc[n++] = local - after;
	if (n == 0) /* skipped: the clock had not moved forward yet */
		utc[n++] = local - tzone_offset(z, local - PM_UNITS_PER_DAY);
	return n;
}

void
tzone_format(const struct tzone *z, int64_t stamp, char out[TZONE_TEXT])
{
	int64_t offset, minutes;

	if (!z) {
		pmtime_format(stamp, out);
		return;
	}
	offset = tzone_offset(z, stamp);
	pmtime_format(stamp + offset, out);
	minutes = (offset < 0 ? -offset : offset) / (60 * PM_UNITS_PER_SECOND);
	out[19] = offset < 0 ? '-' : '+';
	pmtime_put2(out + 20, (unsigned)(minutes / 60 % 100));
	out[22] = ':';
	pmtime_put2(out + 23, (unsigned)(minutes % 60));
	out[25] = '\0';
}

void
tzone_format_ms(const struct tzone *z, int64_t stamp, char out[TZONE_TEXT_MS])
{
	int64_t ms = floor_div(stamp, PM_UNITS_PER_SECOND / 1000) % 1000;
	unsigned m = (unsigned)(ms < 0 ? ms + 1000 : ms);
	char t[TZONE_TEXT];

	/* every stamp of a report passes here: no printf */
	tzone_format(z, stamp, t);
	memcpy(out, t, 19);
	out[19] = '.';
	out[20] = (char)('0' + m / 100);
	pmtime_put2(out + 21, m);
	memcpy(out + 23, t + 19, strlen(t + 19) + 1);
}
