/* pmtime.c: packed dates, times of day and stamps. See pmtime.h. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "pmim/pmtime.h"

static int
is_leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

pm_status
pmtime_pdate_decode(uint32_t packed, int *year, int *yday)
{
	unsigned sign = packed & 0xF;
	uint32_t p = 0;

	if (sign != 0xF && sign != 0xC)
		return PM_E_BAD_DATE;
	for (int shift = 28; shift >= 4; shift -= 4) {
		unsigned digit = (packed >> shift) & 0xF;
		if (digit > 9)
			return PM_E_BAD_DATE;
		p = p * 10 + digit;
	}
	int y = 1900 + (int)(p / 1000), d = (int)(p % 1000);
	if (d < 1 || d > (is_leap(y) ? 366 : 365))
		return PM_E_BAD_DATE;
	*year = y;
	*yday = d;
	return PM_OK;
}

uint32_t
pmtime_pdate_encode(int year, int yday)
{
	uint32_t p = (uint32_t)(year - 1900) * 1000u + (uint32_t)yday, v = 0xF;
	for (int shift = 4; shift <= 28; shift += 4, p /= 10)
		v |= (p % 10) << shift;
	return v;
}

/* Howard Hinnant's pmtime_days_from_civil: exact for the proleptic Gregorian
 * calendar, no tables, no time-zone database. */
int64_t
pmtime_days_from_civil(int year, unsigned month, unsigned day)
{
	int64_t y = (int64_t)year - (month <= 2);
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	unsigned yoe = (unsigned)(y - era * 400);
	unsigned doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
	unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

pm_status
pmtime_stamp(uint32_t pdate, uint32_t time, int64_t per_second, int64_t *stamp)
{
	int year, yday;
	pm_status st = pmtime_pdate_decode(pdate, &year, &yday);

	if (st != PM_OK)
		return st;
	/* 24:00:00 is allowed: it is how some writers end the last interval
	 * of a day. */
	if ((int64_t)time > 86400 * per_second)
		return PM_E_BAD_TIME;
	int64_t days = pmtime_days_from_civil(year, 1, 1) + yday - 1;
	*stamp = days * PM_UNITS_PER_DAY +
	         (int64_t)time * (PM_UNITS_PER_SECOND / per_second);
	return PM_OK;
}

pm_status
pmtime_midnight_cached(struct date_cache *c, uint32_t pdate)
{
	pm_status st = pmtime_stamp(pdate, 0, PM_UNITS_PER_SECOND, &c->midnight);

	if (st != PM_OK)
		return st;
	c->packed = pdate;
	c->valid = 1;
	return PM_OK;
}

/* civil_from_days, the inverse of pmtime_days_from_civil. */
static void
civil_from_days(int64_t z, int *year, unsigned *month, unsigned *day)
{
	z += 719468;
	int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	unsigned doe = (unsigned)(z - era * 146097);
	unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	unsigned mp = (5 * doy + 2) / 153;
	*day = doy - (153 * mp + 2) / 5 + 1;
	*month = mp < 10 ? mp + 3 : mp - 9;
	*year = (int)((int64_t)yoe + era * 400 + (*month <= 2));
}

void
pmtime_civil(int64_t stamp, int *year, unsigned *month, unsigned *day,
             unsigned *hour, unsigned *minute, unsigned *second)
{
	int64_t days = stamp / PM_UNITS_PER_DAY, rem = stamp % PM_UNITS_PER_DAY;
	if (rem < 0) {
		rem += PM_UNITS_PER_DAY;
		days--;
	}
	civil_from_days(days, year, month, day);
	int64_t secs = rem / PM_UNITS_PER_SECOND;
	*hour = (unsigned)(secs / 3600);
	*minute = (unsigned)(secs / 60 % 60);
	*second = (unsigned)(secs % 60);
}

void
pmtime_put2(char *p, unsigned v)
{
	p[0] = (char)('0' + v / 10 % 10);
	p[1] = (char)('0' + v % 10);
}

void
pmtime_format(int64_t stamp, char out[20])
{
	int year;
	unsigned mo, d, h, mi, s;

	pmtime_civil(stamp, &year, &mo, &d, &h, &mi, &s);
	if (year < 0 || year > 9999)
		year = 0;
	pmtime_put2(out, (unsigned)year / 100);
	pmtime_put2(out + 2, (unsigned)year % 100);
	out[4] = '-';
	pmtime_put2(out + 5, mo);
	out[7] = '-';
	pmtime_put2(out + 8, d);
	out[10] = ' ';
	pmtime_put2(out + 11, h);
	out[13] = ':';
	pmtime_put2(out + 14, mi);
	out[16] = ':';
	pmtime_put2(out + 17, s);
	out[19] = '\0';
}

static int
digits(const char **p, unsigned n, unsigned *out)
{
	unsigned v = 0;
	for (unsigned i = 0; i < n; i++, (*p)++) {
		if (!isdigit((unsigned char)**p))
			return 0;
		v = v * 10 + (unsigned)(**p - '0');
	}
	*out = v;
	return 1;
}

pm_status
pmtime_parse(const char *text, int64_t *stamp)
{
	const char *p = text;
	unsigned y, mo, d, h = 0, mi = 0, s = 0;

	if (!digits(&p, 4, &y) || *p++ != '-' || !digits(&p, 2, &mo) ||
	    *p++ != '-' || !digits(&p, 2, &d))
		return PM_E_USAGE;
	if (*p == 'T' || *p == ' ') {
		p++;
		if (!digits(&p, 2, &h) || *p++ != ':' || !digits(&p, 2, &mi))
			return PM_E_USAGE;
		if (*p == ':') {
			p++;
			if (!digits(&p, 2, &s))
				return PM_E_USAGE;
		}
	}
	if (*p != '\0' || mo < 1 || mo > 12 || d < 1 || d > 31 ||
	    h > 24 || (h == 24 && (mi || s)) || mi > 59 || s > 60)
		return PM_E_USAGE;
	static const unsigned mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	if (d > mdays[mo - 1] || (mo == 2 && d == 29 && !is_leap((int)y)))
		return PM_E_USAGE;
	*stamp = (pmtime_days_from_civil((int)y, mo, d) * 86400 + h * 3600 + mi * 60 + s) *
	         PM_UNITS_PER_SECOND;
	return PM_OK;
}
