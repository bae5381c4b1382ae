/* pmint.h: the #PMINT interval record (CA IDMS Performance Monitor), bound
 * to its layout from copybooks/pmintds.lst. Field positions come from the
 * parsed listing only; this file names fields, never offsets. */
#ifndef PMINT_H
#define PMINT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/bytes.h"
#include "core/copybook.h"
#include "core/status.h"

/* The common header every PM record starts with (INTHDR). Only INTLEN and
 * INTRTYPE are assumed for PM record types other than the interval record. */
struct pm_header {
	size_t length;     /* INTLEN, inclusive */
	unsigned type;     /* INTRTYPE */
	unsigned seq;      /* INTSEQ# */
	unsigned version;  /* INTVER# */
	uint32_t sdate, stime, edate, etime; /* raw INTSDATE/INTSTIME/... */
};

/* One field to decode for a part: value slot, offset and width. */
struct pm_item {
	uint16_t field;  /* index into layout.fields, also the value slot */
	uint16_t offset;
	uint8_t width;
};

struct pmint {
	struct layout lay;
	/* the header fields the reader dispatches on */
	int f_len, f_type, f_seq, f_ver, f_sdate, f_stime, f_edate, f_etime;
	unsigned interval_type;   /* INT$TYPE */
	unsigned current_version; /* INT$VER */
	size_t header_len;        /* extent of the common header (INTHDRLN) */
	size_t max_len;           /* largest part, rounded up to 8 (INTMXLEN) */
	unsigned nparts;          /* parts numbered 1..nparts */
	size_t part_len[CB_MAX_PARTS];
	struct pm_item items[CB_MAX_PARTS][CB_MAX_FIELDS];
	size_t nitems[CB_MAX_PARTS];
	/* the wait buckets of each part, as indices into lay.buckets, for the
	 * per-record plausibility checks */
	uint8_t buckets[CB_MAX_PARTS][CB_MAX_BUCKETS];
	size_t nbuckets[CB_MAX_PARTS];
};

/* Parse the embedded listing and resolve the fields the reader needs. */
pm_status pmint_load(struct pmint *pm, char *err, size_t errlen);

/* Read INTLEN and INTRTYPE of the PM record at the start of rec. Returns
 * PM_E_PM_LENGTH when rec is too short to hold them. */
pm_status pm_peek(const struct pmint *pm, struct span rec, size_t *length,
                  unsigned *type);

/* Read the interval header of an interval record (needs header_len bytes). */
pm_status pm_header_read(const struct pmint *pm, struct span rec,
                         struct pm_header *h);

/* Decode the fields of part h->seq from rec into values[field index].
 * Returns PM_E_BAD_SEQUENCE for an unknown part, PM_E_SHORT_PART when rec is
 * shorter than the part's layout (nothing decoded), PM_E_LONG_PART when it
 * is longer (known fields decoded), otherwise PM_OK. */
pm_status pm_part_decode(const struct pmint *pm, const struct pm_header *h,
                         struct span rec, uint64_t *values);

/* PM record types are small numbers, and so are part numbers: a header
 * beyond these is not taken for a PM record when looking for one. */
#define PM_TYPE_PLAUSIBLE 63
#define PM_SEQ_PLAUSIBLE 15

/* The shortest PM record a chain can hold: up to and including INTSEQ#,
 * the last header byte every PM record type has. */
size_t pm_min_len(const struct pmint *pm);

/* Bytes of a PM record's header needed to judge whether it is one: up to
 * and including INTVER#. */
size_t pm_peek_len(const struct pmint *pm);

/* For the framer (struct fr_records): the INTLEN of the PM record at p, or
 * 0 when avail cannot hold it; *plausible when its header looks like a PM
 * record's (pm_peek_len bytes at hand, a length at least that, a plausible
 * type and part number). ctx: the pmint. */
size_t pm_record_length(const uint8_t *p, size_t avail, bool *plausible,
                        void *ctx);

#endif
