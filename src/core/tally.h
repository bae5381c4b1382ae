/* tally.h: the byte accounting and the record inventory. Every input byte
 * is counted exactly once: used (decoded, or framing that led to decoded
 * data), skipped (records of other types), or damaged. Each stage adds its
 * own share; used + skipped + damaged equals the bytes read. */
#ifndef TALLY_H
#define TALLY_H

#include <stdint.h>

enum rec_kind { KIND_SMF, KIND_PM, KIND_COUNT };

struct tally {
	uint64_t bytes_read;
	uint64_t used, skipped, damaged;
	/* framing */
	uint64_t segments;          /* segments of spanned records */
	uint64_t spanned;           /* logical records made of several segments */
	uint64_t orphans;           /* middle or last segments with no first */
	uint64_t truncated;         /* records cut short at end of input */
	uint64_t damaged_records;   /* records reported as damaged */
	/* inventory: logical records and their input bytes, per kind and type */
	uint64_t records[KIND_COUNT][256];
	uint64_t bytes[KIND_COUNT][256];
	/* intervals: complete and incomplete ones go into the reports; the
	 * others are left out of every report and counted by reason */
	uint64_t intervals_complete, intervals_incomplete, duplicate_parts;
	uint64_t intervals_duplicate;    /* inside time already covered, on a boundary */
	uint64_t intervals_overlapping;  /* overlapping covered time, off its boundaries */
	uint64_t intervals_too_long;     /* interval records longer than
	                                    --max-interval: damaged */
	uint64_t implausible;            /* records with implausible figures (kept) */
	/* compressed inputs (io/decompress.h): their bytes as read, and the
	 * bytes they decoded to (part of bytes_read, which counts those) */
	uint64_t compressed_in, compressed_out;
};

/* Add every figure of from into into. */
void tally_add(struct tally *into, const struct tally *from);

/* used + skipped + damaged */
uint64_t tally_accounted(const struct tally *t);

#endif
