/* inventory.c: the `inventory` report. See inventory.h. */
#include <stdio.h>
#include <string.h>

#include "out/csvw.h"
#include "core/fmtnum.h"
#include "core/tzone.h"
#include "out/inventory.h"

static void
row(struct csvw *w, const char *kind, const char *type, const uint64_t *records,
    const uint64_t *bytes)
{
	char num[FMTNUM_MAX];

	csvw_raw(w, kind, strlen(kind));
	csvw_raw(w, type, strlen(type));
	csvw_raw(w, num, records ? fmt_u64(num, *records) : 0);
	csvw_raw(w, num, bytes ? fmt_u64(num, *bytes) : 0);
	csvw_end_row(w);
}

pm_status
inventory_write(FILE *fp, const struct tally *t)
{
	static const char *const kind_names[KIND_COUNT] = { "smf", "pm" };
	struct csvw w;
	char type[FMTNUM_MAX];   /* fmt_u64 may use all of it */
	pm_status st;

	if ((st = csvw_init(&w, fp)) != PM_OK)
		return st;
	static const char *const header[] = { "kind", "type", "records", "bytes" };
	for (size_t i = 0; i < 4; i++)
		csvw_raw(&w, header[i], strlen(header[i]));
	csvw_end_row(&w);
	for (int k = 0; k < KIND_COUNT; k++)
		for (int ty = 0; ty < 256; ty++)
			if (t->records[k][ty]) {
				type[fmt_u64(type, (uint64_t)ty)] = '\0';
				row(&w, kind_names[k], type, &t->records[k][ty], &t->bytes[k][ty]);
			}
	row(&w, "framing", "segments", &t->segments, NULL);
	row(&w, "framing", "spanned_records", &t->spanned, NULL);
	row(&w, "framing", "orphan_segments", &t->orphans, NULL);
	row(&w, "framing", "truncated_records", &t->truncated, NULL);
	row(&w, "framing", "damaged_records", &t->damaged_records, NULL);
	row(&w, "bytes", "used", NULL, &t->used);
	row(&w, "bytes", "skipped", NULL, &t->skipped);
	row(&w, "bytes", "damaged", NULL, &t->damaged);
	row(&w, "bytes", "read", NULL, &t->bytes_read);
	st = csvw_finish(&w);
	csvw_free(&w);
	return st;
}

/* A text field, quoted when it needs to be (names come from the input). */
static void
field(struct csvw *w, const char *s)
{
	csvw_text(w, s, strlen(s));
}

/* A UTC stamp as YYYY-MM-DD HH:MM:SS.mmm */
static void
stamp_field(struct csvw *w, int64_t stamp)
{
	char text[TZONE_TEXT_MS];

	tzone_format_ms(NULL, stamp, text);
	csvw_raw(w, text, strlen(text));
}

static void
count_row(struct csvw *w, const char *kind, const char *name, const char *type, uint64_t n)
{
	char num[FMTNUM_MAX];

	field(w, kind);
	field(w, name);
	field(w, type);
	csvw_raw(w, num, fmt_u64(num, n));
	csvw_raw(w, "", 0);
	csvw_raw(w, "", 0);
	csvw_end_row(w);
}

static void
census_rows(struct csvw *w, const struct census *c, const struct sources *src,
            const struct census_names *names)
{
	char num[FMTNUM_MAX], object[12], counter[12], type[12], path[512];

	for (size_t i = 0; i < c->nsystems; i++) {
		field(w, "system");
		field(w, sources_name(src, c->systems[i].source));
		field(w, "");
		csvw_raw(w, num, fmt_u64(num, c->systems[i].snapshots));
		stamp_field(w, c->systems[i].first);
		stamp_field(w, c->systems[i].last);
		csvw_end_row(w);
	}
	for (size_t i = 0; i < c->nentries; i++) {
		const struct census_entry *e = &c->entries[i];
		const char *o = names->title(e->object, object, names->ctx);
		if (e->counter == CENSUS_OBJECT) {
			count_row(w, "object", o, "", e->seen);
			continue;
		}
		/* OBJECT\COUNTER, as perfmon writes a counter path */
		field(w, "counter");
		snprintf(path, sizeof path, "%s\\%s", o, names->title(e->counter, counter, names->ctx));
		field(w, path);
		field(w, names->type(e->type, type));
		csvw_raw(w, num, fmt_u64(num, e->seen));
		csvw_raw(w, "", 0);
		csvw_raw(w, "", 0);
		csvw_end_row(w);
	}
}

pm_status
inventory_write_perf(FILE *fp, const struct tally *t, const struct census *c,
                     const struct sources *src, const struct census_names *names)
{
	static const char *const header[] = { "kind", "name", "type", "count", "first", "last" };
	struct csvw w;
	pm_status st;

	if ((st = csvw_init(&w, fp)) != PM_OK)
		return st;
	for (size_t i = 0; i < 6; i++)
		field(&w, header[i]);
	csvw_end_row(&w);
	census_rows(&w, c, src, names);
	count_row(&w, "counters", "skipped_nodata", "", c->nodata);
	count_row(&w, "counters", "skipped_unknown", "", c->unknown);
	count_row(&w, "framing", "truncated_records", "", t->truncated);
	count_row(&w, "framing", "damaged_records", "", t->damaged_records);
	count_row(&w, "bytes", "used", "", t->used);
	count_row(&w, "bytes", "skipped", "", t->skipped);
	count_row(&w, "bytes", "damaged", "", t->damaged);
	count_row(&w, "bytes", "read", "", t->bytes_read);
	st = csvw_finish(&w);
	csvw_free(&w);
	return st;
}
