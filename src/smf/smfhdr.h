/* smfhdr.h: the SMF record header, bound to its layout in
 * copybooks/smfhdr.lst (offsets count from the RDW, as in IBM's mapping).
 * This file names fields; their offsets come from the listing. */
#ifndef SMFHDR_H
#define SMFHDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/copybook.h"
#include "core/status.h"

/* The reader and the generator (src/gen/) alike bind it here. */
struct smfhdr {
	struct layout lay;
	const struct cb_field *len, *seg; /* the RDW */
	const struct cb_field *flg, *rty, *tme, *dte, *sid;
	const struct cb_field *ssi, *sty; /* with subtypes */
	size_t std_len;    /* SMFHDRLN: the standard header */
	size_t ext_len;    /* SMFXHDLN: with subtypes, when flg has ext_flag */
	long ext_flag;     /* SMF$STY */
};

/* Parse the embedded listing; PM_E_LAYOUT with err filled on failure
 * (h then holds nothing to free). */
pm_status smfhdr_load(struct smfhdr *h, char *err, size_t errlen);

/* What smfhdr_load allocated: the layout's tables. */
void smfhdr_free(struct smfhdr *h);

/* Whether p (avail bytes, from the RDW on) starts with a plausible SMF
 * header: a time of day below 24:00 and a packed date that decodes to a
 * year 1900-2199. For framing detection: ctx is the smfhdr. */
bool smfhdr_plausible(const uint8_t *p, size_t avail, void *ctx);

#endif
