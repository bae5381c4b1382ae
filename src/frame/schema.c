/* schema.c: a reader's figures, by name. See schema.h. */
#include <stdlib.h>
#include <string.h>

#include "frame/schema.h"

pm_status
schema_open(struct schema **out, size_t nfigures, size_t nrows)
{
	struct schema *s;

	*out = NULL;
	if (nfigures > SCHEMA_MAX_FIGURES)
		return PM_E_LAYOUT;
	if (!(s = calloc(1, sizeof *s)))
		return PM_E_NOMEM;
	s->figures = calloc(nfigures + 1, sizeof *s->figures);
	s->family.rows = calloc(nrows + 1, sizeof *s->family.rows);
	if (!s->figures || !s->family.rows) {
		schema_close(s);
		return PM_E_NOMEM;
	}
	*out = s;
	return PM_OK;
}

void
schema_close(struct schema *s)
{
	if (!s)
		return;
	free(s->figures);
	free(s->family.rows);
	free(s);
}

int
schema_figure_index(const struct schema *s, const char *name)
{
	for (size_t i = 0; i < s->nfigures; i++)
		if (strcmp(s->figures[i].name, name) == 0)
			return (int)i;
	return -1;
}

int
schema_member_index(const struct schema *s, const char *name)
{
	for (unsigned i = 0; i < s->family.nmembers; i++)
		if (strcmp(s->family.members[i].name, name) == 0)
			return (int)i;
	return -1;
}

int
schema_sum_index(const struct schema *s, const char *name)
{
	for (size_t i = 0; i < s->nsums; i++)
		if (strcmp(s->sums[i].name, name) == 0)
			return (int)i;
	return -1;
}

unsigned
schema_family_groups(const struct schema *s)
{
	unsigned m = 0;

	for (size_t i = 0; i < s->family.nrows; i++)
		m |= 1u << s->family.rows[i].group;
	return m;
}
