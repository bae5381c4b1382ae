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

/* One interval part, decoded once by the PM stage and handed to reassembly:
 * its interval's key and which part it is (its figures are decoded where
 * reassembly says, reasm_place). */
struct pm_part {
	uint32_t source;
	uint32_t sdate, stime, edate, etime; /* as recorded: the interval's key */
	int64_t start, end;       /* stamps (pmtime.h), in UTC with a zone */
	unsigned seq;             /* INTSEQ#, 1..nparts */
	pm_status decoded;        /* PM_OK; PM_E_LONG_PART: longer than its
	                             layout, known figures read; PM_E_SHORT_PART:
	                             shorter, no figures read */
	uint64_t offset;          /* file offset of the record */
};

/* One field to decode for a part: value slot, offset and width. */
struct pm_item {
	uint16_t field;  /* index into layout.fields, also the value slot */
	uint16_t offset;
	uint8_t width;
};

/* Items of a part that lie back to back, decoded in one loop: fullwords
 * or doublewords in consecutive value slots (any other width is a run of
 * one), or wait buckets, each a label and its triple of fullwords (sum,
 * highest, count: 12 bytes, four slots), checked as they are decoded. */
struct pm_run {
	uint16_t field;  /* the first item's value slot (a bucket's sum) */
	uint16_t offset;
	uint16_t count;  /* items, or buckets */
	uint8_t width;   /* 0: buckets */
};

/* The header fields, in pmint.head. */
enum pm_head_field {
	PM_HEAD_LEN, PM_HEAD_TYPE, PM_HEAD_SEQ, PM_HEAD_VER, PM_HEAD_SDATE,
	PM_HEAD_STIME, PM_HEAD_EDATE, PM_HEAD_ETIME, PM_HEAD_FIELDS
};

/* A wait bucket's three fields (layout indices) and the bucket itself
 * (an index into layout.buckets). */
struct pm_bucket_fields {
	uint16_t sum, high, count;
	uint16_t bucket;
};

struct pmint {
	struct layout lay;
	/* the header fields the reader dispatches on, as layout indices and,
	 * read for every record, as places in one small table */
	int f_len, f_type, f_seq, f_ver, f_sdate, f_stime, f_edate, f_etime;
	struct pm_item head[PM_HEAD_FIELDS];
	size_t head_end;          /* where the last of them ends */
	size_t head_wide_end;     /* where eight bytes from the start of the
	                             last of them end: a record that long has
	                             each loaded as a doubleword, shifted */
	uint8_t head_shift[PM_HEAD_FIELDS]; /* right by 64 less its bits */
	bool head_paired;         /* INTLEN (2 bytes), INTRTYPE, INTSEQ#, INTVER#
	                             (1 each) back to back, and the dates and
	                             times (4 each) too: a wide header in three
	                             loads, split by constant shifts */
	size_t peek_end;          /* where the last of INTLEN, INTRTYPE and
	                             INTSEQ# ends */
	unsigned interval_type;   /* INT$TYPE */
	unsigned current_version; /* INT$VER */
	size_t header_len;        /* extent of the common header (INTHDRLN) */
	size_t full_len;          /* the larger of head_end and header_len: a
	                             record that long has its header full */
	size_t max_len;           /* largest part, rounded up to 8 (INTMXLEN) */
	unsigned nparts;          /* parts numbered 1..nparts */
	size_t part_len[CB_MAX_PARTS];
	struct pm_item *items[CB_MAX_PARTS]; /* sized from the layout, in one
	                                       allocation (item_store) */
	size_t nitems[CB_MAX_PARTS];
	struct pm_run *runs[CB_MAX_PARTS];   /* the items as runs (run_store) */
	size_t nruns[CB_MAX_PARTS];
	bool check_always[CB_MAX_PARTS]; /* a bucket of the part lies apart */
	bool buckets_by_four;     /* wait buckets read four at a time with
	                             AVX2 (set at bind where the CPU has it;
	                             a test clears it to compare) */
	/* the layout indices [first, end) of each part's items: what is
	 * cleared of a part that never came, in one block (no field of
	 * another part lies between) */
	size_t items_first[CB_MAX_PARTS], items_end[CB_MAX_PARTS];
	/* the wait buckets of each part, for the per-record plausibility
	 * checks: their fields packed together, as the layout's buckets lie
	 * far apart */
	struct pm_bucket_fields *buckets[CB_MAX_PARTS];
	size_t nbuckets[CB_MAX_PARTS];
	struct pm_item *item_store;
	struct pm_run *run_store;
	struct pm_bucket_fields *bucket_store;
};

/* The name messages give the listing compiled in. */
#define PMINT_BUILTIN_FILE "(built-in)/pmintds.lst"

/* Parse a #PMINTDS listing read from file (copybook.h), apply its
 * conventions (parts from SEQ#= comments, units from comments, wait
 * buckets as label and triple) and resolve the fields the reader needs.
 * PM_E_LAYOUT with "FILE:LINE: what" or "FILE: what" in err. */
pm_status pmint_bind(struct pmint *pm, const char *text, const char *file,
                     char *err, size_t errlen);

/* What a binding allocated (its tables, sized from the layout); pm may be
 * bound again after. pmint_bind frees nothing: bind a zeroed pmint, or one
 * freed. */
void pmint_free(struct pmint *pm);

/* pmint_bind on the listing compiled in. */
pm_status pmint_load(struct pmint *pm, char *err, size_t errlen);

/* pmint_bind on the #PMINT listing found among copybooks (--copybook,
 * files or folders; copybook_find), else installed, else compiled in. */
pm_status pmint_find(struct pmint *pm, const char *const *copybooks,
                     size_t ncopybooks, char *err, size_t errlen);

/* Read INTLEN and INTRTYPE of the PM record at the start of rec. Returns
 * PM_E_PM_LENGTH when rec is too short to hold them. */
pm_status pmint_peek(const struct pmint *pm, struct span rec, size_t *length,
                     unsigned *type);

/* The header of the PM record at the start of bytes, read once: the whole
 * interval header when bytes hold it and INTLEN covers it (*full true),
 * else INTLEN and INTRTYPE only. PM_E_PM_LENGTH when bytes cannot hold
 * even those. */
pm_status pmint_header_at(const struct pmint *pm, struct span bytes,
                          struct pm_header *h, bool *full);

/* Read the interval header of an interval record (needs header_len bytes). */
pm_status pmint_header_read(const struct pmint *pm, struct span rec,
                            struct pm_header *h);

/* Whether a bucket's figures contradict each other (the checks of
 * pm_stage.c): how many of two tests it fails, without a branch (nearly
 * every bucket passes, and every bucket of every part is asked), added
 * rather than or'ed so that each is a compare and an add with carry. Wait
 * time with no waits is a sum above highest x 0. A bucket's figures are
 * fullwords (bucket_triple), so that product fits 64 bits. */
static inline unsigned
pmint_bucket_suspect(uint64_t sum, uint64_t high, uint64_t count)
{
	unsigned n = high > sum;

	n += sum > high * count;
	return n;
}

/* Decode the fields of part h->seq from rec into values[field index].
 * Returns PM_E_BAD_SEQUENCE for an unknown part, PM_E_SHORT_PART when rec is
 * shorter than the part's layout (nothing decoded), PM_E_LONG_PART when it
 * is longer (known fields decoded), otherwise PM_OK. *suspect: whether a
 * bucket of the part decoded may be implausible (pmint_bucket_suspect). */
pm_status pmint_part_decode(const struct pmint *pm, const struct pm_header *h,
                            struct span rec, uint64_t *values, bool *suspect);

/* What pmint_part_decode returns and says of part h->seq in rec, with no
 * figure stored: for a run whose reports read no figures (the inventory). */
pm_status pmint_part_check(const struct pmint *pm, const struct pm_header *h,
                           struct span rec, bool *suspect);

/* How the reads of parts take count wait-bucket triples lying back to back
 * at b (12 bytes each: sum, highest, count): their figures stored at
 * v[4k], v[4k+1], v[4k+2] unless v is NULL (v[4k+3], the next bucket's
 * label, 0, but past the last bucket), and the buckets that fail
 * pmint_bucket_suspect counted, four at a time where by_four (then only
 * as 0 or more). For the tests, to read both ways any count of buckets;
 * by_four only where pmint_bind set pm->buckets_by_four (the CPU has it). */
unsigned pmint_buckets_read(const uint8_t *b, size_t count, uint64_t *v,
                            bool by_four);

/* The mask of every part, bits 1..nparts: e.g. 0xE for parts 1, 2 and 3. */
unsigned pmint_all_parts(const struct pmint *pm);

/* PM record types are small numbers, and so are part numbers: a header
 * beyond these is not taken for a PM record when looking for one. */
#define PM_TYPE_PLAUSIBLE 63
#define PM_SEQ_PLAUSIBLE 15

/* The shortest PM record a chain can hold: up to and including INTSEQ#,
 * the last header byte every PM record type has. */
size_t pmint_min_len(const struct pmint *pm);

/* Bytes of a PM record's header needed to judge whether it is one: up to
 * and including INTVER#. */
size_t pmint_peek_len(const struct pmint *pm);

/* The framer's ctx for pmint_record_length: the layout, and the header of
 * the record it was last asked of, kept for the PM stage so that a PM
 * stream's header is read once. at: where that record starts, when h holds
 * its whole interval header (as pmint_header_at finds it full); else NULL. */
struct pm_peeked {
	const struct pmint *pm;
	const uint8_t *at;
	struct pm_header h;
};

/* For the framer (struct fr_records): the INTLEN of the PM record at p, or
 * 0 when avail cannot hold it; *plausible when its header looks like a PM
 * record's (pmint_peek_len bytes at hand, a length at least that, a plausible
 * type and part number). ctx: a struct pm_peeked, its header that of p. */
size_t pmint_record_length(const uint8_t *p, size_t avail, bool *plausible,
                           void *ctx);

/* For the SMF stage's chain search: whether bytes start with a PM record
 * that looks like one (a length of at least pmint_min_len that bytes hold, a
 * plausible type; an interval record's part and a version, other types' a
 * plausible part number); *length is its INTLEN. */
bool pmint_record_plausible(const struct pmint *pm, struct span bytes,
                            size_t *length);

/* Whether bytes start with a plausible PM record type and part number,
 * whatever the length says (a PM record whose length alone was damaged). */
bool pmint_type_plausible(const struct pmint *pm, struct span bytes);

/* Whether bytes start with an interval record's header: its type, a part
 * number, the current version and two valid packed dates. */
bool pmint_interval_header_at(const struct pmint *pm, struct span bytes);

#endif
