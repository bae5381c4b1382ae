/* inventory.c: the `inventory` report. See inventory.h. */
#include <string.h>

#include "out/csvw.h"
#include "core/fmtnum.h"
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
	char type[8];
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
	st = csvw_status(&w);
	csvw_free(&w);
	return st;
}
