/* select.c: periods and the sources kept (select.h). */
#include <stdlib.h>
#include <string.h>

#include "frame/frame.h"
#include "report/select.h"

enum { SOURCE_UNKNOWN, SOURCE_KEPT, SOURCE_LEFT_OUT };

static int64_t
period_length(enum report_by by)
{
	return by == BY_DAY ? FRAME_STAMPS_PER_DAY : 3600 * FRAME_STAMPS_PER_SECOND;
}

int64_t
period_start(enum report_by by, const struct tzone *zone, int64_t t)
{
	int64_t len = period_length(by), local = tzone_local(zone, t);
	int64_t at = local - ((local % len) + len) % len, utc[2];
	unsigned n;

	if (!zone)
		return at;
	n = tzone_to_utc(zone, at, utc);
	return n == 2 && utc[1] <= t ? utc[1] : utc[0];
}

int64_t
period_end(enum report_by by, const struct tzone *zone, int64_t start)
{
	int64_t utc[2];

	if (!zone || by != BY_DAY)
		return start + period_length(by);
	(void)tzone_to_utc(zone, tzone_local(zone, start) + FRAME_STAMPS_PER_DAY, utc);
	return utc[0];
}

bool
source_filter_init(struct source_filter *f, const struct report_opts *o,
                   const struct sources *src)
{
	*f = (struct source_filter){ .names = o->sources, .nnames = o->nsources,
	                             .src = src, .max = o->max_sources };
	f->state = calloc(f->max ? f->max : 1, 1);
	return f->state != NULL;
}

bool
source_filter_keeps(struct source_filter *f, uint32_t source)
{
	if (f->nnames == 0)
		return true;
	if (source >= f->max)
		return false;
	if (f->state[source] == SOURCE_UNKNOWN) {
		const char *name = sources_name(f->src, source);
		f->state[source] = SOURCE_LEFT_OUT;
		for (size_t i = 0; i < f->nnames; i++)
			if (strcmp(name, f->names[i]) == 0)
				f->state[source] = SOURCE_KEPT;
	}
	return f->state[source] == SOURCE_KEPT;
}

void
source_filter_free(struct source_filter *f)
{
	free(f->state);
	f->state = NULL;
}
