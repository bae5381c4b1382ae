/* intervals_csv.c: the `intervals` report. See intervals_csv.h. */
#include <stdlib.h>
#include <string.h>

#include "csvw.h"
#include "fmtnum.h"
#include "intervals_csv.h"
#include "pmtime.h"

enum col_kind {
	COL_SOURCE, COL_START, COL_END, COL_DURATION, COL_PARTS,
	COL_COUNT,        /* a count field as it is */
	COL_SECONDS_E4,   /* 10**-4 s field in seconds */
	COL_SECONDS_TOD,  /* TOD field in seconds */
	COL_WAITS, COL_TOTAL_S, COL_AVG_MS, COL_PEAK_MS
};

struct column {
	enum col_kind kind;
	const struct cb_bucket *bucket;
	int field;
	unsigned part;
	char name[40];
};

struct intervals_csv {
	const struct pmint *pm;
	const struct sources *src;
	struct csvw w;
	struct column cols[CB_MAX_FIELDS + 8];
	size_t ncols;
};

/* The two counts of part 1 have names users know. */
static const struct { const char *field, *column; } renamed[] = {
	{ "INT#TSTR", "tasks_started" },
	{ "INT#TEND", "tasks_ended" },
};

static void
add(struct intervals_csv *r, enum col_kind kind, int field,
    const struct cb_bucket *b, const char *name, const char *suffix)
{
	struct column *c = &r->cols[r->ncols++];
	c->kind = kind;
	c->field = field;
	c->bucket = b;
	c->part = b ? b->part : field >= 0 ? r->pm->lay.fields[field].part : 0;
	snprintf(c->name, sizeof c->name, "%s%s", name, suffix);
}

static int
in_bucket(const struct layout *lay, size_t field)
{
	for (size_t i = 0; i < lay->nbuckets; i++) {
		const struct cb_bucket *b = &lay->buckets[i];
		if ((int)field == b->sum || (int)field == b->high || (int)field == b->count)
			return 1;
	}
	return 0;
}

static void
build_columns(struct intervals_csv *r)
{
	const struct layout *lay = &r->pm->lay;

	add(r, COL_SOURCE, -1, NULL, "source", "");
	add(r, COL_START, -1, NULL, "start", "");
	add(r, COL_END, -1, NULL, "end", "");
	add(r, COL_DURATION, -1, NULL, "duration_s", "");
	add(r, COL_PARTS, -1, NULL, "parts", "");
	for (size_t i = 0; i < sizeof renamed / sizeof renamed[0]; i++) {
		int f = layout_field_index(lay, renamed[i].field);
		if (f >= 0)
			add(r, COL_COUNT, f, NULL, renamed[i].column, "");
	}
	/* CPU times outside the buckets, in layout order */
	for (size_t i = 0; i < lay->nfields; i++) {
		const struct cb_field *f = &lay->fields[i];
		if (f->part == 0 || f->length == 0 || in_bucket(lay, i))
			continue;
		if (f->units == CB_UNITS_TIME_E4)
			add(r, COL_SECONDS_E4, (int)i, NULL, f->name, "_s");
		else if (f->units == CB_UNITS_TOD)
			add(r, COL_SECONDS_TOD, (int)i, NULL, f->name, "_s");
	}
	for (size_t i = 0; i < lay->nbuckets; i++) {
		const struct cb_bucket *b = &lay->buckets[i];
		add(r, COL_WAITS, -1, b, b->label, "_waits");
		add(r, COL_TOTAL_S, -1, b, b->label, "_total_s");
		add(r, COL_AVG_MS, -1, b, b->label, "_avg_ms");
		add(r, COL_PEAK_MS, -1, b, b->label, "_peak_ms");
	}
}

struct intervals_csv *
intervals_csv_open(FILE *fp, const struct pmint *pm, const struct sources *src,
                   pm_status *st)
{
	struct intervals_csv *r = calloc(1, sizeof *r);

	if (!r || (*st = csvw_init(&r->w, fp)) != PM_OK) {
		free(r);
		*st = PM_E_NOMEM;
		return NULL;
	}
	r->pm = pm;
	r->src = src;
	build_columns(r);
	for (size_t i = 0; i < r->ncols; i++)
		csvw_raw(&r->w, r->cols[i].name, strlen(r->cols[i].name));
	csvw_end_row(&r->w);
	*st = PM_OK;
	return r;
}

static size_t
format_cell(const struct column *c, const struct interval *iv,
            const struct sources *src, char *out)
{
	const uint64_t *v = iv->v;
	size_t n = 0;

	if (c->part && !(iv->parts & (1u << c->part)))
		return 0;
	switch (c->kind) {
	case COL_SOURCE:
		n = strlen(sources_name(src, iv->source));
		memcpy(out, sources_name(src, iv->source), n);
		return n;
	case COL_START:
		stamp_format(iv->start, out);
		return 19;
	case COL_END:
		stamp_format(iv->end, out);
		return 19;
	case COL_DURATION:
		return fmt_ratio(out, (uint64_t)(iv->end - iv->start), PM_UNITS_PER_SECOND, 6);
	case COL_PARTS:
		for (unsigned p = 1; p < 8; p++)
			if (iv->parts & (1u << p))
				out[n++] = (char)('0' + p);
		return n;
	case COL_COUNT:
		return fmt_u64(out, v[c->field]);
	case COL_SECONDS_E4:
		return fmt_ratio(out, v[c->field], PM_UNITS_PER_SECOND, 6);
	case COL_SECONDS_TOD:
		return fmt_ratio(out, v[c->field], TOD_UNITS_PER_SECOND, 6);
	case COL_WAITS:
		return fmt_u64(out, v[c->bucket->count]);
	case COL_TOTAL_S:
		return fmt_ratio(out, v[c->bucket->sum], PM_UNITS_PER_SECOND, 6);
	case COL_AVG_MS:
		/* sum / count in 10**-4 s is sum / (count * 10) in ms */
		if (v[c->bucket->count] == 0)
			return 0;
		return fmt_ratio(out, v[c->bucket->sum], v[c->bucket->count] * 10, 3);
	case COL_PEAK_MS:
		return fmt_ratio(out, v[c->bucket->high], 10, 3);
	}
	return 0;
}

void
intervals_csv_row(const struct interval *iv, void *ctx)
{
	struct intervals_csv *r = ctx;
	char cell[SOURCE_NAME_MAX + FMTNUM_MAX];

	for (size_t i = 0; i < r->ncols; i++) {
		size_t n = format_cell(&r->cols[i], iv, r->src, cell);
		if (r->cols[i].kind == COL_SOURCE)
			csvw_text(&r->w, cell, n);
		else
			csvw_raw(&r->w, cell, n);
	}
	csvw_end_row(&r->w);
}

pm_status
intervals_csv_close(struct intervals_csv *r)
{
	pm_status st = csvw_status(&r->w);
	csvw_free(&r->w);
	free(r);
	return st;
}
