/* framing.h: from a byte stream to logical records.
 *
 * Framings (FORMATS.md 1-2):
 *   FRAMING_PM   PM records back to back, each starting with its inclusive
 *                halfword length (INTLEN). Records are handed up as they are.
 *   FRAMING_RDW  records (or segments of spanned records) each behind a
 *                4-byte RDW/SDW, as FTP with SITE RDW leaves them.
 *   FRAMING_BDW  blocks, each behind a BDW (plain or extended), holding
 *                RDW/SDW segments, as a RECFM=U transfer of a VBS dataset.
 *   FRAMING_PERF Windows PERF_DATA_BLOCKs back to back: not framed here but
 *                read by winperf/stream.c, a reader of its own; named here
 *                so that --framing has one list.
 * Content is what the logical records hold: SMF records, or PM records.
 *
 * For RDW and BDW framings a logical record is handed up starting with a
 * 4-byte RDW, so that offsets in the SMF header copybook (which count from
 * the RDW) apply unchanged; rec.len counts those 4 bytes, and the RDW's own
 * length field must not be trusted (a reassembled record can exceed 65,535
 * bytes). Segments of spanned records are joined into one buffer, but only
 * for records the `want` predicate keeps: others are skipped segment by
 * segment without a copy. */
#ifndef FRAMING_H
#define FRAMING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/diag.h"
#include "io/input.h"
#include "core/status.h"
#include "core/tally.h"

enum framing { FRAMING_AUTO, FRAMING_PM, FRAMING_RDW, FRAMING_BDW, FRAMING_PERF };
enum content { CONTENT_AUTO, CONTENT_SMF, CONTENT_PM };

/* What an input is read as: its framing, and what its records hold. */
struct framing_kind {
	enum framing framing;
	enum content content;
};

/* Bytes of a record's beginning always handed up, kept or not. */
#define FR_HEAD_MAX 64

struct fr_record {
	uint64_t offset;       /* file offset of its first descriptor (PM framing:
	                          of its first byte) */
	const uint8_t *data;   /* the logical record; NULL when not kept */
	size_t len;            /* its length, with the leading RDW if any */
	const uint8_t *head;   /* its first head_len bytes, kept or not */
	size_t head_len;       /* min(len, FR_HEAD_MAX), or less if cut short */
	uint64_t input_bytes;  /* input bytes it occupied, all its descriptors
	                          included (BDWs excepted) */
	unsigned segments;     /* 1 unless spanned */
	bool contiguous;       /* byte k of data is at file offset offset + k */
};

/* Decides from the start of a record (from its RDW on, at most FR_HEAD_MAX
 * bytes) whether it is wanted. For a spanned record the RDW is the one put
 * in front of the joined data, its length zero as not yet known. NULL keeps
 * every record; records that hold PM records (CONTENT_PM) are all kept
 * without asking. */
typedef bool (*fr_want_fn)(const uint8_t *head, size_t head_len, void *ctx);

/* What the framer must know of the records inside the descriptor words,
 * from their layouts (copybooks/): the framer itself knows only descriptor
 * words. pmint.c and smfhdr.c provide these. */
struct fr_records {
	/* The length (INTLEN) of the PM record at p, avail bytes there; 0 when
	 * too few bytes hold it. *plausible: whether its header looks like a
	 * PM record's, which needs pm_peek bytes. A PM stream's record is
	 * handed up right after its length is asked (and from where it was
	 * asked, unless the buffer moved), so that ctx may keep the rest of
	 * what pm_length read for the reader. */
	size_t (*pm_length)(const uint8_t *p, size_t avail, bool *plausible,
	                    void *ctx);
	size_t pm_peek;
	void *pm_ctx;
	/* Whether p, avail bytes from an RDW on, starts an SMF header. */
	bool (*smf_header)(const uint8_t *p, size_t avail, void *ctx);
	void *smf_ctx;
};

struct framer_opts {
	const struct fr_records *records;
	enum framing framing;   /* FRAMING_AUTO detects */
	enum content content;   /* CONTENT_AUTO detects */
	size_t max_record;      /* largest logical record kept; 0: 16 MiB */
	size_t buffer_size;     /* read buffer; 0: 4 MiB; at least 512 KiB */
	fr_want_fn want;
	void *want_ctx;
	/* A range of an input cut for threads (split.h), the input's
	 * offsets from its origin: with stop, the framer ends at the first
	 * record boundary at or past stop, a spanned record begun before it
	 * read to its last segment (the next range's); continued, the input
	 * starts inside a stream, and the segments that end a record begun
	 * before it are passed over, the range before's. 0, false: none. */
	uint64_t stop;
	bool continued;
	/* For a range: the framing and content detection found at its
	 * input's start (split.h), taken instead of detecting them again at
	 * the range's, as one reading of the input goes on with them there;
	 * FRAMING_AUTO: none. Found, the framing may still change on. */
	struct framing_kind found;
};

struct framer;

/* Open a framer on in. Detection reads ahead; when the framing cannot be
 * recognised, reports PM_E_NO_FRAMING through d with the likely cause
 * ("no RDWs: was the file sent by FTP without SITE RDW?", gzip, terse, ASCII
 * text) and returns NULL with *st set. An empty input is not an error. */
struct framer *framer_open(struct input *in, const struct framer_opts *opts,
                           struct diag *d, struct tally *t, pm_status *st);

/* The next logical record: 1 with *rec filled (valid until the next call),
 * 0 at end of input, -1 on a read error (reported). Damage is reported
 * through the diag, counted in the tally, and skipped. The framer counts
 * BDW bytes as used and damaged bytes as damaged; the bytes of each record
 * handed up (rec->input_bytes) are for the caller to account. */
int framer_next(struct framer *fr, struct fr_record *rec);

enum framing framer_framing(const struct framer *fr);
enum content framer_content(const struct framer *fr);
const char *framing_name(enum framing f);

/* Bytes of the input consumed so far (for progress); at the end, where
 * the framer stopped. */
uint64_t framer_position(const struct framer *fr);

/* Where a continued input's own records resume: after the segments passed
 * over, or its origin. */
uint64_t framer_resumed_at(const struct framer *fr);

void framer_close(struct framer *fr);

#endif
