/* smf.h: SMF records to PM records.
 *
 * Selects the SMF record type holding PM data (--smf-type, default 230),
 * reads the standard header (18 bytes, 24 with flag x'40'; smfhdr.h), names the source from the system id (EBCDIC, via
 * iconv) and optionally a CV name at a site-given offset, then finds the
 * first PM record after the undocumented product header (#PMSMHDS): the
 * first offset where a chain of inclusive halfword lengths, every one a
 * plausible PM record, ends exactly at the end of the SMF record;
 * --pm-offset forces one. A chain found past where the last record's began,
 * where a PM record starts that does not chain, is damage, and said; in the
 * first SMF record of PM data, the next record's chain tells the same. */
#ifndef SMF_H
#define SMF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/diag.h"
#include "pmim/pm_stage.h"
#include "smf/framing.h"
#include "pmim/pmint.h"
#include "smf/smfhdr.h"
#include "core/sources.h"
#include "core/tally.h"

/* The code page of the system ids when --codepage does not say. */
#define SMF_CODEPAGE_DEFAULT "IBM-037"

struct smf_opts {
	unsigned type;        /* SMF record type of PM data */
	long pm_offset;       /* from the RDW; -1 finds it */
	const char *codepage; /* of the system id and CV name */
	size_t cv_offset;     /* CV name within the SMF record, from the RDW */
	size_t cv_length;     /* 0: no CV name */
};

struct smf_reader;

/* Open the SMF stage into *out; why not (no memory, an unknown code page)
 * otherwise, *out NULL. A code page other than the default is opened (and
 * so checked) here; the default by the first record whose system id is
 * read, as a PM stream never needs it and loading it (iconv's module) cost
 * every run a tenth of its start-up: where the default cannot be had,
 * each such record is damaged, PM_E_CODEPAGE. */
pm_status smf_open(struct smf_reader **out, const struct smf_opts *o,
                   const struct pmint *pm, const struct smfhdr *hdr,
                   struct sources *src, struct diag *d);

/* For the framer: keep only records of the selected type. ctx: smf_reader. */
bool smf_want(const uint8_t *head, size_t head_len, void *ctx);

/* Take one logical SMF record (starting with its RDW): count it in the
 * inventory, account its bytes in pm->tally, and hand its PM records to
 * pm. */
void smf_record(struct smf_reader *r, const struct fr_record *rec,
                struct pm_stage *pm);

/* The input ends at offset end: a dump header (SMF type 2) seen in it
 * with no trailer (type 3) after it is reported, for each input's dump
 * has its own. */
void smf_input_end(struct smf_reader *r, uint64_t end);

/* What one range of an input cut for threads (split.h) read at its edges
 * that a reading of the whole input would judge by the records before
 * it: the dump records, and the first record's chain. The caller holds
 * each range against the ones before it. */
/* Where a record's PM chain may begin, at most: past an extended SMF
 * header and the longest product header (smf.c). */
#define SMF_CHAIN_MAX 1088
struct smf_edges {
	bool dump_seen;           /* a dump header or trailer */
	bool opens_with_header;   /* the first of them a header */
	int64_t dump_open;        /* at the end: the open dump's header, or -1 */
	bool chain_seen;          /* an SMF record of PM data read */
	long last_chain;          /* where the last one's chain began */
	/* bit b: the first one's chain would be said to have lost PM records
	 * after a record whose chain began at b; unsure: b past the bits */
	uint8_t lost_after[SMF_CHAIN_MAX / 8];
	bool unsure;
};

/* The edges of what r read (smf_edges: since it was opened). */
void smf_edges(const struct smf_reader *r, struct smf_edges *e);

/* Whether a record whose chain began at chain, read before the first
 * SMF record of PM data of e, would have its chain said damaged. */
bool smf_edges_lost_after(const struct smf_edges *e, long chain);

void smf_close(struct smf_reader *r);

#endif
