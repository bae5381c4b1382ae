/* tzone.c: a time zone's rules. See tzone.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pmtime.h"
#include "tzone.h"

struct tzone {
	char name[256];
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
	    strlen(name) >= sizeof ((struct tzone *)0)->name)
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
	if (!(z = calloc(1, sizeof *z)) || setenv("TZ", name, 1) != 0) {
		free(z);
		*st = PM_E_NOMEM;
		return NULL;
	}
	strcpy(z->name, name);
	tzset();
	*st = PM_OK;
	return z;
}

void
tzone_close(struct tzone *z)
{
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
	time_t t = (time_t)floor_div(utc, PM_UNITS_PER_SECOND);
	struct tm tm;
	int64_t local;

	(void)z;
	if (!localtime_r(&t, &tm))
		return 0;
	local = days_from_civil(tm.tm_year + 1900, (unsigned)tm.tm_mon + 1,
	                        (unsigned)tm.tm_mday) * 86400 +
	        tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec;
	return (local - (int64_t)t) * PM_UNITS_PER_SECOND;
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
		stamp_format(stamp, out);
		return;
	}
	offset = tzone_offset(z, stamp);
	stamp_format(stamp + offset, out);
	minutes = (offset < 0 ? -offset : offset) / (60 * PM_UNITS_PER_SECOND);
	snprintf(out + 19, TZONE_TEXT - 19, "%c%02u:%02u", offset < 0 ? '-' : '+',
	         (unsigned)(minutes / 60 % 100), (unsigned)(minutes % 60));
}
