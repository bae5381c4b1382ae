/* sources.c: interned source names. See sources.h. */
#include <stdlib.h>
#include <string.h>

#include "core/sources.h"

pm_status
sources_init(struct sources *s, size_t max)
{
	memset(s, 0, sizeof *s);
	s->names = calloc(max ? max : 1, sizeof *s->names);
	if (!s->names)
		return PM_E_NOMEM;
	s->max = max;
	return PM_OK;
}

void
sources_free(struct sources *s)
{
	free(s->names);
	memset(s, 0, sizeof *s);
}

static int
same(const char *stored, const char *name, size_t len)
{
	return strncmp(stored, name, len) == 0 && stored[len] == '\0';
}

pm_status
sources_intern(struct sources *s, const char *name, size_t len, uint32_t *id)
{
	if (len >= SOURCE_NAME_MAX)
		len = SOURCE_NAME_MAX - 1;
	if (s->last < s->n && same(s->names[s->last], name, len)) {
		*id = s->last;
		return PM_OK;
	}
	for (size_t i = 0; i < s->n; i++)
		if (same(s->names[i], name, len)) {
			*id = s->last = (uint32_t)i;
			return PM_OK;
		}
	if (s->n >= s->max)
		return PM_E_SOURCE_LIMIT;
	memcpy(s->names[s->n], name, len);
	s->names[s->n][len] = '\0';
	*id = s->last = (uint32_t)s->n++;
	return PM_OK;
}

const char *
sources_name(const struct sources *s, uint32_t id)
{
	return id < s->n ? s->names[id] : "";
}
