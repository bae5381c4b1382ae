/* binding.c: PMIM bound to the schema and the frame. See binding.h. */
#include <stdio.h>
#include <string.h>

#include "pmim/binding.h"
#include "pmim/pmtime.h"
#include "core/text.h"

_Static_assert(PM_UNITS_PER_SECOND == FRAME_STAMPS_PER_SECOND,
               "PMIM stamps are frame stamps");

/* A copybook unit as a schema kind and clock. */
static const struct {
	enum cb_units units;
	enum schema_kind kind;
	uint64_t ticks_per_second;
} unit_kinds[] = {
	{ CB_UNITS_COUNT, SCHEMA_COUNT, 0 },
	{ CB_UNITS_TIME_E4, SCHEMA_TIME, PM_UNITS_PER_SECOND },
	{ CB_UNITS_TIME_E2, SCHEMA_TIME, 100 },
	{ CB_UNITS_TOD, SCHEMA_TIME, TOD_UNITS_PER_SECOND },
};

static void
bind_field(struct schema_figure *to, const struct cb_field *f)
{
	text_copy(to->name, sizeof to->name, f->name);
	text_copy(to->desc, sizeof to->desc, f->desc);
	to->units = cb_units_name(f->units);
	to->group = f->part;
	to->kind = SCHEMA_OTHER;
	/* an unsigned binary field of its length, or never stored (0) */
	to->bits = f->length >= 1 && f->length < 8 ? (unsigned)(8 * f->length) : 0;
	if (f->length == 0 || f->part == 0)
		return;
	for (size_t i = 0; i < sizeof unit_kinds / sizeof unit_kinds[0]; i++)
		if (unit_kinds[i].units == f->units) {
			to->kind = unit_kinds[i].kind;
			to->ticks_per_second = unit_kinds[i].ticks_per_second;
		}
}

/* The bucket triples, and what a report names their members and sums. */
static void
bind_buckets(struct schema *s, const struct layout *lay)
{
	static const struct schema_member members[] = {
		{ "%T", SCHEMA_TIME, PM_UNITS_PER_SECOND },
		{ "%H", SCHEMA_TIME, PM_UNITS_PER_SECOND },
		{ "%#", SCHEMA_COUNT, 0 },
	};
	struct schema_family *fam = &s->family;

	snprintf(fam->name, sizeof fam->name, "bucket");
	memcpy(fam->members, members, sizeof members);
	fam->nmembers = sizeof members / sizeof members[0];
	for (size_t i = 0; i < lay->nbuckets; i++) {
		const struct cb_bucket *b = &lay->buckets[i];
		struct schema_row *row = &fam->rows[i];

		text_copy(row->label, sizeof row->label, b->label);
		text_copy(row->desc, sizeof row->desc, b->desc);
		row->group = b->part;
		row->figure[0] = (uint32_t)b->sum;
		row->figure[1] = (uint32_t)b->high;
		row->figure[2] = (uint32_t)b->count;
	}
	fam->nrows = lay->nbuckets;
	s->sums[0] = (struct schema_sum){ "@wait_time", 0 };
	s->sums[1] = (struct schema_sum){ "@waits", 2 };
	s->nsums = 2;
}

pm_status
binding_schema_open(struct schema **out, const struct pmint *pm, char *err,
                    size_t errlen)
{
	const struct layout *lay = &pm->lay;
	struct schema *s;
	pm_status st = schema_open(&s, lay->nfields, lay->nbuckets);

	*out = NULL;
	if (st == PM_E_LAYOUT)
		snprintf(err, errlen, "%zu fields: a schema holds at most %d",
		         lay->nfields, SCHEMA_MAX_FIGURES);
	else if (st != PM_OK)
		snprintf(err, errlen, "out of memory");
	if (st != PM_OK)
		return st;
	text_copy(s->name, sizeof s->name, lay->name);
	for (size_t i = 0; i < lay->nfields; i++)
		bind_field(&s->figures[i], &lay->fields[i]);
	s->nfigures = lay->nfields;
	bind_buckets(s, lay);
	s->groups = pmint_all_parts(pm);
	*out = s;
	return PM_OK;
}

void
binding_frame_of(struct frame *f, const struct interval *iv)
{
	*f = (struct frame){ iv->source, iv->start, iv->end, iv->parts, iv->v };
}

void
binding_frame_interval(const struct interval *iv, void *ctx)
{
	const struct binding_framer *to = ctx;
	struct frame f;

	binding_frame_of(&f, iv);
	to->fn(&f, to->ctx);
}
