/* fuzz_copybook.c: libFuzzer harness for the DSECT listing parser and the
 * #PMINT binding: the input is the text of a listing, as --copybook hands
 * it a file's contents (NUL-terminated). An error must name the file and
 * line, or the file; a listing that binds must be consistent: its fields
 * within its parts, its buckets' fields among its fields, its parts'
 * figures copied as one block. */
#include <stdlib.h>
#include <string.h>

#include "pmim/pmint.h"

#define TEXT_MAX (1u << 16)
#define FILE_NAME "fuzz.lst"

static struct pmint pm;
static char text[TEXT_MAX + 1];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_bound(const struct pmint *p)
{
	const struct layout *lay = &p->lay;

	if (lay->nfields > CB_MAX_FIELDS || lay->nbuckets > CB_MAX_BUCKETS ||
	    p->nparts == 0 || p->nparts >= CB_MAX_PARTS)
		abort();
	for (size_t i = 0; i < lay->nbuckets; i++) {
		const struct cb_bucket *b = &lay->buckets[i];
		if ((size_t)b->sum >= lay->nfields || (size_t)b->high >= lay->nfields ||
		    (size_t)b->count >= lay->nfields || b->part >= CB_MAX_PARTS)
			abort();
	}
	for (unsigned part = 1; part <= p->nparts; part++) {
		if (p->nitems[part] > lay->nfields ||
		    p->items_end[part] > lay->nfields ||
		    (p->nitems[part] && p->items_first[part] >= p->items_end[part]))
			abort();
		for (size_t i = 0; i < p->nitems[part]; i++) {
			const struct pm_item *it = &p->items[part][i];
			if (it->offset + it->width > p->part_len[part])
				abort(); /* decoding reads within the part's length */
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	pm_status st;

	if (size > TEXT_MAX)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	err[0] = '\0';
	st = pmint_bind(&pm, text, FILE_NAME, err, sizeof err);
	if (st != PM_OK) {
		if (st != PM_E_LAYOUT || strncmp(err, FILE_NAME ":", strlen(FILE_NAME ":")) != 0)
			abort(); /* every error names the listing */
		return 0;
	}
	check_bound(&pm);
	pmint_free(&pm);
	return 0;
}
