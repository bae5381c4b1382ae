/* detect.c: what an input is, from its first bytes. See detect.h. */
#include <config.h>

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "smf/detect.h"
#include "core/diag.h"
#include "core/text.h"
#include "smf/walk.h"

#define VOTE_UNITS 16       /* records looked at to tell SMF from PM */
#define DAMAGED_START_UNITS 2 /* more evidence when the first units are
                                 damaged */
#define TEXT_SAMPLE 4096

/* Tried in this order (see detect_framing): a BDW file can walk as RDWs,
 * an RDW file hardly ever as BDW blocks. */
static const enum framing detect_order[] = {
	FRAMING_BDW, FRAMING_RDW, FRAMING_PM
};

/* gzip and zstd input is decoded as it is read (io/decompress.h), unless
 * the library is not built in: what is still compressed here was either
 * compressed twice, or needs the library. */
#define TWICE " once decoded too: compressed twice? decompress it once first"
#ifdef HAVE_ZLIB
#define GZIP_CAUSE "looks gzip-compressed" TWICE
#else
#define GZIP_CAUSE "looks gzip-compressed, and this pmimrpt was built without " \
	"zlib: use zcat file | pmimrpt -"
#endif
#ifdef HAVE_ZSTD
#define ZSTD_CAUSE "looks zstd-compressed" TWICE
#else
#define ZSTD_CAUSE "looks zstd-compressed, and this pmimrpt was built without " \
	"libzstd: use zstdcat file | pmimrpt -"
#endif

static const struct magic {
	const char *bytes;
	size_t len;
	const char *cause;
} magics[] = {
	{ "\x1f\x8b", 2, GZIP_CAUSE },
	{ "BZh", 3, "looks bzip2-compressed: use bzcat file | pmimrpt -" },
	{ "\xfd" "7zXZ", 5, "looks xz-compressed: use xzcat file | pmimrpt -" },
	{ "\x28\xb5\x2f\xfd", 4, ZSTD_CAUSE },
	{ "PK\x03\x04", 4,
	  "looks like a zip archive: use unzip -p file | pmimrpt -" },
};

/* The header AMATERSE/TRSMAIN writes, checked as
 * openmainframeproject/tersedecompress (TerseHeader.java) checks it. Host
 * mode, 12 bytes: x'02' (PACK) or x'05' (SPACK); record format 0 (F) or 1
 * (V); record length as a halfword at 2 and a fullword at 8, not both zero
 * and equal when both are set; flags at 4; ratio at 5 and block size at
 * 6-7, both zero unless the MVS flag (x'04') is set. Native mode: x'01' or
 * x'07', then x'8969A5'. */
static bool
looks_tersed(struct span s)
{
	uint8_t mode, recfm, flags, ratio;
	uint16_t len1, blksize;
	uint32_t len2;

	if (!be_u8(s, 0, &mode))
		return false;
	if (mode == 0x01 || mode == 0x07) {
		uint32_t check;
		return be_u32(s, 0, &check) && (check & 0xffffff) == 0x8969a5;
	}
	if ((mode != 0x02 && mode != 0x05) || !be_u8(s, 1, &recfm) ||
	    !be_u16(s, 2, &len1) || !be_u8(s, 4, &flags) ||
	    !be_u8(s, 5, &ratio) || !be_u16(s, 6, &blksize) ||
	    !be_u32(s, 8, &len2))
		return false;
	if (recfm > 1 || (len2 & 0x80000000u) || (len1 == 0 && len2 == 0))
		return false;
	if (len1 != 0 && len2 != 0 && len1 != len2)
		return false;
	return (flags & 0x04) || (flags == 0 && ratio == 0 && blksize == 0);
}

/* Mostly printable ASCII and line ends, as a text-mode transfer leaves. */
static bool
looks_like_text(struct span s)
{
	size_t n = s.len < TEXT_SAMPLE ? s.len : TEXT_SAMPLE, printable = 0;

	for (size_t i = 0; i < n; i++) {
		uint8_t c = s.p[i];
		if ((c >= 0x20 && c < 0x7f) || c == '\n' || c == '\r' || c == '\t')
			printable++;
	}
	return n > 0 && printable * 10 >= n * 9;
}

void
detect_refusal_cause(const struct fr_records *rs, struct span w, char *out,
                     size_t cap)
{
	char hex[2 * 8 + 1];
	/* The SMF header's offsets count from an RDW: give it one to see
	 * whether the file starts with an SMF record stripped of its RDW. */
	uint8_t with_rdw[FR_HEAD_MAX] = { 0 };
	size_t room = sizeof with_rdw - DESC_LEN, n = w.len < room ? w.len : room;

	memcpy(with_rdw + DESC_LEN, w.p, n);

	for (size_t i = 0; i < sizeof magics / sizeof magics[0]; i++)
		if (w.len >= magics[i].len &&
		    memcmp(w.p, magics[i].bytes, magics[i].len) == 0) {
			text_copy(out, cap, magics[i].cause);
			return;
		}
	if (looks_tersed(w))
		snprintf(out, cap, "looks like a tersed file: unpack it with "
		         "AMATERSE or tersedecompress first");
	else if (looks_like_text(w))
		snprintf(out, cap, "looks like ASCII text: a text-mode transfer?");
	else if (rs->smf_header(with_rdw, n + DESC_LEN, rs->smf_ctx))
		snprintf(out, cap, "no RDWs: was the file sent by FTP without "
		         "SITE RDW?");
	else {
		diag_hex(hex, sizeof hex, w.p, w.len < 8 ? w.len : 8);
		snprintf(out, cap, "neither BDW blocks, RDW records nor PM records "
		         "from the start (first bytes x'%s')", hex);
	}
}

/* Whether two or more units of framing f may walk from off: the first
 * unit's descriptor reads as one, and so does the next one's where the
 * window holds it; for a block, also the segment's that a block of 8 bytes
 * or more starts with. These are walk_run's first tests, asked before a
 * walk is set up, for the loops below try every offset of the window, and
 * ask for 2 units or more. One descriptor alone lets too many offsets by:
 * an extended BDW's is any word whose top bit is set, and an RDW's any
 * halfword from 4 followed by two zero bytes. The words are loaded once
 * the window is known to hold them; inlined by force: a call per offset
 * costs more than the tests. */
static inline __attribute__((always_inline)) bool
may_start(struct span w, size_t off, enum framing f)
{
	size_t left = w.len - off;
	struct desc d;
	uint64_t len, next_len;

	switch (f) {
	case FRAMING_BDW:
		if (left < DESC_LEN || walk_bdw_word(be_load32(w.p + off), &len) != NULL)
			return false;
		if (left >= BDW_MIN && walk_sdw_word(be_load32(w.p + off + DESC_LEN), &d) != NULL)
			return false;
		return left < len + DESC_LEN ||
		       walk_bdw_word(be_load32(w.p + off + len), &next_len) == NULL;
	case FRAMING_RDW:
		if (left < DESC_LEN || walk_sdw_word(be_load32(w.p + off), &d) != NULL)
			return false;
		return left < d.len + DESC_LEN ||
		       walk_sdw_word(be_load32(w.p + off + d.len), &d) == NULL;
	case FRAMING_PM:
	case FRAMING_AUTO:
	case FRAMING_PERF:
		break;
	}
	return true;
}

#define LANES_LOW7 0x7f7f7f7f7f7f7f7fULL
#define LANES_HIGH 0x8080808080808080ULL
#define LANES_FIRST5 0x8080808080000000ULL /* bytes 0-4 from the top */

/* The top bit of each byte of v that is zero, exactly: no carry crosses
 * a byte. */
static inline uint64_t
zero_bytes(uint64_t v)
{
	return ~(((v & LANES_LOW7) + LANES_LOW7) | v | LANES_LOW7);
}

/* Of the five words in the eight bytes v (from the top, the bytes of the
 * window in order), those that may be an RDW or SDW: the top bit of byte
 * k for the word from byte k. Its length from 4 to 32,760 (byte 0 below
 * x'80'), bytes 2-3 as the reserved bits allow (byte 3 zero, byte 2 below
 * 4). None that is one is left out; most that are not are. */
static inline uint64_t
sdw_lanes(uint64_t v)
{
	uint64_t z = zero_bytes(v), below4 = zero_bytes(v & 0xfcfcfcfcfcfcfcfcULL);

	return (z << 24) & (below4 << 16) & ~(z & (below4 << 8)) & ~v & LANES_FIRST5;
}

/* The same for BDWs: a plain one's length from 8 with bytes 2-3 zero, an
 * extended one's top bit set. */
static inline uint64_t
bdw_lanes(uint64_t v)
{
	uint64_t z = zero_bytes(v), below8 = zero_bytes(v & 0xf8f8f8f8f8f8f8f8ULL);

	return ((v & LANES_HIGH) | ((z << 16) & (z << 24) & ~(z & (below8 << 8)))) &
	       LANES_FIRST5;
}

/* next_start for framing f, BDW or RDW: inlined for each, so that f is
 * known in the loop. */
static inline __attribute__((always_inline)) size_t
next_descriptor(struct span w, size_t off, enum framing f)
{
	for (; off + 8 <= w.len; off += 5) {
		uint64_t v = be_load64(w.p + off);
		uint64_t lanes = f == FRAMING_BDW ? bdw_lanes(v) : sdw_lanes(v);
		while (lanes) {
			unsigned k = (unsigned)__builtin_clzll(lanes);
			if (may_start(w, off + k / 8, f))
				return off + k / 8;
			lanes ^= (uint64_t)1 << (63 - k);
		}
	}
	for (; off + DESC_LEN <= w.len; off++)
		if (may_start(w, off, f))
			return off;
	return w.len;
}

/* The first offset from off on where two or more units of framing f may
 * walk (may_start), or w.len. Every offset of a window is tried, so the
 * words are first screened five at a time from one load
 * (sdw_lanes, bdw_lanes), and only those that pass asked the rest. */
static size_t
next_start(struct span w, size_t off, enum framing f)
{
	switch (f) {
	case FRAMING_BDW:
		return next_descriptor(w, off, FRAMING_BDW);
	case FRAMING_RDW:
		return next_descriptor(w, off, FRAMING_RDW);
	case FRAMING_PM:
	case FRAMING_AUTO:
	case FRAMING_PERF:
		break;
	}
	return off;
}

/* From the start, or when the first records are damaged, from the first
 * offset where records walk again. */
enum content
detect_content(const struct fr_records *rs, enum framing f, struct span w,
               bool at_eof)
{
	unsigned votes[3] = { 0, 0, 0 };

	(void)walk_window(rs, f, CONTENT_AUTO, w, at_eof, VOTE_UNITS, true, votes);
	for (size_t off = next_start(w, 1, f);
	     off < w.len && votes[CONTENT_PM] + votes[CONTENT_SMF] == 0;
	     off = next_start(w, off + 1, f)) {
		unsigned later[3] = { 0, 0, 0 };
		if (walk_window(rs, f, CONTENT_AUTO, span_sub(w, off, w.len - off), at_eof,
		                walk_rules[f].resync_units, false, later))
			memcpy(votes, later, sizeof votes);
	}
	/* SMF dumps are the usual input: ties go to SMF */
	return votes[CONTENT_PM] > votes[CONTENT_SMF] ? CONTENT_PM : CONTENT_SMF;
}

/* A start damaged within its first records. Either a unit walks from the
 * start and, past the damage, enough walk again to be sure; or none does,
 * and further on DAMAGED_START_UNITS more units than detection asks for
 * walk whole, the end of the input no excuse: with no good start to go by,
 * chance must not pass for a framing. */
static bool
walks_despite_damage(const struct fr_records *rs, enum framing f, struct span w,
                     bool at_eof)
{
	struct walk k = { .rs = rs, .w = w, .at_eof = at_eof };
	unsigned need = walk_rules[f].detect_units;

	if (walk_run(&k, f, need))
		return true;
	if (k.units == 0) {
		for (size_t off = next_start(w, 1, f); off < w.len;
		     off = next_start(w, off + 1, f)) {
			struct walk later;
			later = (struct walk){ .rs = rs, .at_eof = at_eof,
			                       .w = span_sub(w, off, w.len - off) };
			if (walk_run(&later, f, need + DAMAGED_START_UNITS) &&
			    later.units == need + DAMAGED_START_UNITS)
				return true;
		}
		return false;
	}
	for (size_t off = next_start(w, k.off + 1, f); off < w.len;
	     off = next_start(w, off + 1, f))
		if (walk_window(rs, f, CONTENT_AUTO, span_sub(w, off, w.len - off), at_eof,
		                need, false, NULL))
			return true;
	return false;
}

/* Whether units of framing f walk from the start of w, in order, as many
 * as detection asks. */
static bool
walks_clean(const struct fr_records *rs, enum framing f, struct span w,
            bool at_eof)
{
	return walk_window(rs, f, CONTENT_AUTO, w, at_eof, walk_rules[f].detect_units,
	                   true, NULL);
}

bool
detect_framing_here(const struct fr_records *rs, struct span w, bool at_eof,
                    enum framing *out)
{
	for (size_t i = 0; i < sizeof detect_order / sizeof detect_order[0]; i++)
		if (walks_clean(rs, detect_order[i], w, at_eof)) {
			*out = detect_order[i];
			return true;
		}
	return false;
}

/* Whether units of framing f walk from the start of w to its end, each
 * one whole (the last may run past it), detection's units at least. */
static bool
walks_whole(const struct fr_records *rs, enum framing f, struct span w)
{
	/* the window's end taken as the input's: a unit it cuts ends the walk */
	struct walk k = { .rs = rs, .w = w, .at_eof = true, .ordered = true };

	return walk_run(&k, f, UINT_MAX) && k.units >= walk_rules[f].detect_units;
}

/* Whether a record of the RDW records that walk from the start of w
 * holds what a block starts with: an SDW whose segment it holds. A BDW
 * file walks as RDW records (each block one) that all do. */
static bool
rdw_holds_segment(struct span w)
{
	struct desc d, seg;

	for (size_t off = 0; walk_sdw_parse(w, off, &d) == NULL && d.len <= w.len - off; off += d.len)
		if (d.len >= 2 * DESC_LEN && walk_sdw_parse(w, off + DESC_LEN, &seg) == NULL &&
		    seg.len <= d.len - DESC_LEN)
			return true;
	return false;
}

/* The framing of a window that is RDW or PM records from its first byte
 * to its last, where it cannot be a dump with a damaged start, for which
 * every offset would be searched. RDW records, none holding an SDW, are
 * no BDW blocks; PM records, not RDW records too, are no RDWs or BDWs:
 * those have a type of x'00' where PM records have theirs, unless every
 * one of them is a spanned segment. */
static bool
walks_whole_window(const struct fr_records *rs, struct span w, bool at_eof,
                   enum framing *out)
{
	if (walks_whole(rs, FRAMING_RDW, w) && !rdw_holds_segment(w))
		*out = FRAMING_RDW;
	else if (walks_whole(rs, FRAMING_PM, w) && !walks_clean(rs, FRAMING_RDW, w, at_eof))
		*out = FRAMING_PM;
	else
		return false;
	return true;
}

/* Each framing in turn, clean input first (segments in order, from the
 * start), then input whose first records are damaged: a BDW file whose
 * first block is damaged must not pass for RDW records first, for a BDW
 * and the SDW after it can look like an RDW and a PM record header; and
 * RDWs can walk as PM records. A window whose records walk whole from
 * its first byte (walks_whole_window) is taken without the searches for a
 * damaged start, which try every offset of the window: most of the time
 * it took to read a small file. */
bool
detect_framing(const struct fr_records *rs, struct span w, bool at_eof,
               enum framing *out)
{
	size_t n = sizeof detect_order / sizeof detect_order[0];

	for (size_t i = 0; i < 2 * n; i++) {
		enum framing f = detect_order[i / 2];
		/* before the first search for a damaged start */
		if (i == 1 && walks_whole_window(rs, w, at_eof, out))
			return true;
		if (i % 2 == 0 ? walks_clean(rs, f, w, at_eof)
		               : walks_despite_damage(rs, f, w, at_eof)) {
			*out = f;
			return true;
		}
	}
	return false;
}
