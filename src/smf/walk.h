/* walk.h: descriptor words, and walking a window of bytes as units of a
 * framing (PM records, RDW records or BDW blocks) to see whether they hold
 * together. The ground framing.c (reading, resynchronising) and detect.c
 * (finding the framing and what the records hold) stand on; not a stage
 * of its own. */
#ifndef WALK_H
#define WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/bytes.h"
#include "smf/framing.h"

#define DESC_LEN 4          /* BDW, RDW and SDW */
#define SEG_MAX 32760       /* longest RDW/SDW, and plain BDW block */
#define BDW_MIN 8           /* a BDW and one empty segment */
#define BDW_EXTENDED 0x80000000u

enum seg_code { SEG_COMPLETE = 0, SEG_FIRST = 1, SEG_LAST = 2, SEG_MIDDLE = 3 };

/* An RDW or SDW: the length it gives (itself included) and its code. */
struct desc {
	size_t len;
	unsigned code;
};

/* An RDW/SDW read as the word w: NULL when valid, else what is wrong with
 * it. */
static inline const char *
walk_sdw_word(uint32_t w, struct desc *d)
{
	uint32_t len = w >> 16;

	if (len < DESC_LEN)
		return "length below 4";
	if (len > SEG_MAX)
		return "length above 32,760";
	if ((w & 0xfcff) != 0)
		return "reserved bits set";
	d->len = len;
	d->code = (w >> 8) & 0x03;
	return NULL;
}

/* A BDW read as the word w, plain or extended: NULL when valid, else what
 * is wrong. */
static inline const char *
walk_bdw_word(uint32_t w, uint64_t *len)
{
	if (w & BDW_EXTENDED) {
		*len = w & ~BDW_EXTENDED;
		/* BSAM with the large block interface may put the extended form
		 * on a block of any length (DFSMS, "Block Descriptor Word") */
		return *len < BDW_MIN ? "length below 8" : NULL;
	}
	if ((w & 0xffff) != 0)
		return "bytes 2-3 not zero";
	*len = w >> 16;
	if (*len < BDW_MIN)
		return "length below 8";
	if (*len > SEG_MAX)
		return "length above 32,760";
	return NULL;
}

/* An RDW/SDW at off: NULL when valid, else what is wrong with it. Inline,
 * for detection asks it at every offset of a window. */
static inline const char *
walk_sdw_parse(struct span s, size_t off, struct desc *d)
{
	uint32_t w;

	return be_u32(s, off, &w) ? walk_sdw_word(w, d) : "cut short";
}

/* A BDW at off, plain or extended: NULL when valid, else what is wrong. */
static inline const char *
walk_bdw_parse(struct span s, size_t off, uint64_t *len)
{
	uint32_t w;

	return be_u32(s, off, &w) ? walk_bdw_word(w, len) : "cut short";
}

/* Whether a record's first segment (SDW included) can start content c: an
 * SMF header, or a PM record that a complete segment holds whole; for
 * CONTENT_AUTO either. A first segment too short to show a header passes,
 * for a record may be spanned anywhere. Detection and resynchronisation
 * ask this, so that bytes inside a record do not pass for descriptors. */
bool walk_content_fits(const struct fr_records *rs, struct span seg, unsigned code,
                       enum content c);

/* What each framing asks of a walk, and its name. */
struct walk_rule {
	const char *name;
	unsigned detect_units;  /* units that must walk before detection commits */
	unsigned resync_units;  /* units that must walk to resume after damage */
};
extern const struct walk_rule walk_rules[FRAMING_BDW + 1];

/* A walk over the window w from off; set what it needs, leave the rest 0. */
struct walk {
	const struct fr_records *rs;
	struct span w;
	bool at_eof;        /* w ends where the input ends */
	bool exact_end;     /* at the end, units must end where the input does */
	size_t off;
	unsigned units;     /* records (PM, RDW) or blocks (BDW) that held */
	unsigned segs;      /* RDW/SDWs that held */
	bool ordered;       /* segments must come in order (detection) */
	bool in_span;       /* a first segment seen, its last not yet */
	enum content content; /* what records must start with (AUTO: either) */
	unsigned *votes;    /* NULL, or records seen per enum content */
};

/* Whether need units of framing f walk from the walk's start: all of them,
 * or fewer that reach the end of the input. */
bool walk_run(struct walk *k, enum framing f, unsigned need);

/* The segments of a block ending at block_end (window-relative), walked
 * from k->off: they must fill it exactly. WALK_CUT when the window ends
 * first. */
enum walk_check { WALK_OK, WALK_BAD, WALK_CUT };
enum walk_check walk_block(struct walk *k, uint64_t block_end);

/* walk_run from the start of w, with content c, segments in order or not,
 * and votes (NULL or per enum content) counted. */
bool walk_window(const struct fr_records *rs, enum framing f, enum content c,
                 struct span w, bool at_eof, unsigned need, bool ordered,
                 unsigned *votes);

#endif
