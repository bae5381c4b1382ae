/* walk.c: descriptor words and walks over a window. See walk.h. */
#include "smf/walk.h"

#define PARTIAL_BLOCK_SEGMENTS 8 /* evidence for a block larger than a window */

/* A PM record at off that looks like one (for detection and
 * resynchronisation; reading trusts any length of 4 or more). */
static bool
pm_plausible(const struct fr_records *rs, struct span s, size_t off,
             size_t *len)
{
	bool plausible = false;

	*len = off < s.len ? rs->pm_length(s.p + off, s.len - off, &plausible,
	                                   rs->pm_ctx) : 0;
	return plausible;
}

/* What a record holds, from its first segment (SDW included). */
static enum content
content_of(const struct fr_records *rs, struct span seg)
{
	size_t len;

	if (pm_plausible(rs, seg, DESC_LEN, &len) && len == seg.len - DESC_LEN)
		return CONTENT_PM;
	if (rs->smf_header(seg.p, seg.len, rs->smf_ctx))
		return CONTENT_SMF;
	return CONTENT_AUTO;
}

bool
walk_content_fits(const struct fr_records *rs, struct span seg, unsigned code,
                  enum content c)
{
	size_t len;
	bool smf, pm;

	if (code == SEG_MIDDLE || code == SEG_LAST ||
	    (code == SEG_FIRST && seg.len < FR_HEAD_MAX))
		return true;
	smf = rs->smf_header(seg.p, seg.len, rs->smf_ctx);
	pm = pm_plausible(rs, seg, DESC_LEN, &len) &&
	     (code == SEG_FIRST || len <= seg.len - DESC_LEN);
	return c == CONTENT_SMF ? smf : c == CONTENT_PM ? pm : smf || pm;
}

/* ---- walking a window: detection and resynchronisation ---- */

/* Whether a segment may follow what the walk has seen: after the first,
 * middles and lasts only inside a spanned record, others only outside.
 * Resynchronising does not ask this: damage often leaves orphans behind. */
static bool
walk_in_order(struct walk *k, struct span seg, unsigned code)
{
	bool continues = code == SEG_MIDDLE || code == SEG_LAST;

	if (k->ordered && k->segs > 0 && continues != k->in_span)
		return false;
	if (!walk_content_fits(k->rs, seg, code, k->content))
		return false;
	k->in_span = code == SEG_FIRST || code == SEG_MIDDLE;
	k->segs++;
	if (k->votes && !continues)
		k->votes[content_of(k->rs, seg)]++;
	return true;
}

/* A walk that ran out of window: good only at the end of the input, after
 * at least one unit (a short file, or one cut short); when resynchronising,
 * only if the units end where the input does, for a unit that runs past
 * the end is no evidence. */
static bool
walk_out(const struct walk *k)
{
	return k->at_eof && k->units > 0 && (!k->exact_end || k->off == k->w.len);
}

static bool
walk_pm(struct walk *k, unsigned need)
{
	while (k->units < need) {
		size_t left = k->w.len - k->off, len;

		if (left < k->rs->pm_peek)
			return walk_out(k);
		if (!pm_plausible(k->rs, k->w, k->off, &len))
			return false;
		if (len > left)
			return walk_out(k);
		k->off += len;
		k->units++;
	}
	return true;
}

static bool
walk_rdw(struct walk *k, unsigned need)
{
	while (k->units < need) {
		size_t left = k->w.len - k->off;
		struct desc d;

		if (left < DESC_LEN)
			return walk_out(k);
		if (walk_sdw_parse(k->w, k->off, &d) != NULL)
			return false;
		if (d.len > left)
			return walk_out(k);
		if (!walk_in_order(k, span_sub(k->w, k->off, d.len), d.code))
			return false;
		k->off += d.len;
		k->units++;
	}
	return true;
}

enum walk_check
walk_block(struct walk *k, uint64_t block_end)
{
	size_t lim = block_end < k->w.len ? (size_t)block_end : k->w.len;
	bool cut = block_end > lim;

	while (k->off < lim) {
		struct desc d;

		if (lim - k->off < DESC_LEN)
			return cut ? WALK_CUT : WALK_BAD;
		if (walk_sdw_parse(k->w, k->off, &d) != NULL ||
		    d.len > block_end - k->off)
			return WALK_BAD;
		if (d.len > lim - k->off)
			return WALK_CUT;
		if (!walk_in_order(k, span_sub(k->w, k->off, d.len), d.code))
			return WALK_BAD;
		k->off += d.len;
	}
	return cut ? WALK_CUT : WALK_OK;
}

static bool
walk_bdw(struct walk *k, unsigned need)
{
	while (k->units < need) {
		uint64_t len;

		if (k->w.len - k->off < DESC_LEN)
			return walk_out(k);
		if (walk_bdw_parse(k->w, k->off, &len) != NULL)
			return false;
		k->off += DESC_LEN;
		switch (walk_block(k, k->off - DESC_LEN + len)) {
		case WALK_BAD:
			return false;
		case WALK_CUT:
			/* a block larger than the window holds many segments;
			 * one the input cuts short, a segment at least (a dump
			 * of one block, cut, has no other) */
			return k->at_eof ? k->segs > 0 && !k->exact_end
			                 : k->segs >= PARTIAL_BLOCK_SEGMENTS;
		case WALK_OK:
			k->units++;
			break;
		}
	}
	return true;
}

bool
walk_run(struct walk *k, enum framing f, unsigned need)
{
	switch (f) {
	case FRAMING_PM:
		return walk_pm(k, need);
	case FRAMING_RDW:
		return walk_rdw(k, need);
	case FRAMING_BDW:
		return walk_bdw(k, need);
	case FRAMING_AUTO:
	case FRAMING_PERF: /* winperf/stream.c reads these */
		break;
	}
	return false;
}

bool
walk_window(const struct fr_records *rs, enum framing f, enum content c,
            struct span w, bool at_eof, unsigned need, bool ordered, unsigned *votes)
{
	struct walk k = { .rs = rs, .w = w, .at_eof = at_eof, .ordered = ordered,
	                  .content = c, .votes = votes };
	return walk_run(&k, f, need);
}

/* ---- what each framing asks ---- */

const struct walk_rule walk_rules[FRAMING_BDW + 1] = {
	[FRAMING_AUTO] = { "auto", 0, 0 },
	[FRAMING_PM] = { "pm", 4, 3 },
	[FRAMING_RDW] = { "rdw", 4, 3 },
	[FRAMING_BDW] = { "bdw", 3, 2 },
};
