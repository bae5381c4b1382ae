/* split.c: one file cut into ranges for threads. See split.h. */
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/input.h"
#include "smf/detect.h"
#include "smf/smf.h"
#include "smf/walk.h"
#include "split.h"

/* Bytes looked through after a proposed cut for a record to cut at: many
 * intervals of the largest parts. */
#define SPLIT_SCAN ((size_t)1 << 20)
/* Records that must walk from a cut: more than resynchronisation asks. */
#define SPLIT_WALK 16

/* Up to cap bytes of fd at off; the bytes had, 0 at the end or on error. */
static size_t
read_at(int fd, uint8_t *buf, size_t cap, uint64_t off)
{
	size_t got = 0;
	ssize_t n;

	while (got < cap && (n = pread(fd, buf + got, cap - got, (off_t)(off + got))) > 0)
		got += (size_t)n;
	return got;
}

/* Whether the PM record at the start of w is part 1 of an interval. */
static bool
part_one_at(const struct pmint *pm, struct span w)
{
	struct pm_header h;
	bool full;

	return pmint_header_at(pm, w, &h, &full) == PM_OK && full &&
	       h.type == pm->interval_type && h.seq == 1;
}

/* Whether the first interval record in the SMF record segment seg (its
 * first: from its SDW on) is part 1: the first interval header after
 * the SMF and product headers, which hold none. -1: it holds none. */
static int
segment_part_one(const struct pmint *pm, struct span seg)
{
	for (size_t at = DESC_LEN; at < seg.len && at < SMF_CHAIN_MAX; at++) {
		struct span rest = span_make(seg.p + at, seg.len - at);
		if (pmint_interval_header_at(pm, rest))
			return part_one_at(pm, rest);
	}
	return -1;
}

/* Whether the first interval record of the records that begin in w (the
 * file's framing f; PM records, or SMF records behind RDWs or in blocks)
 * is part 1: no interval's parts on both sides of a cut at w, in the
 * usual order of parts. A record spanned across the cut is read by the
 * range it begins in. */
static bool
begins_interval(const struct pmint *pm, enum framing f, struct span w)
{
	size_t off = 0, block_end = 0;
	uint64_t len;
	struct desc d;
	int one;

	if (f == FRAMING_PM)
		return part_one_at(pm, w);
	/* no further than detection looks: a dump without PM data nearby is
	 * not cut there */
	if (w.len > DETECT_WINDOW)
		w.len = DETECT_WINDOW;
	while (off + 2 * DESC_LEN <= w.len) {
		if (f == FRAMING_BDW && off == block_end) {
			if (walk_bdw_parse(w, off, &len) != NULL || len < BDW_MIN)
				return false;
			block_end = off + (size_t)len;
			off += DESC_LEN;
		}
		if (walk_sdw_parse(w, off, &d) != NULL || off + d.len > w.len)
			return false;
		if ((d.code == SEG_COMPLETE || d.code == SEG_FIRST) &&
		    (one = segment_part_one(pm, span_make(w.p + off, d.len))) >= 0)
			return one;
		off += d.len;
		if (f == FRAMING_BDW && off > block_end)
			return false;
	}
	return false;
}

/* The length of the unit of framing f that w begins with, one that walks:
 * a PM record's INTLEN, a block's BDW length or a record's RDW length;
 * 0 when it shows none. */
static size_t
unit_length(const struct fr_records *rs, enum framing f, struct span w)
{
	uint64_t len;
	struct desc d;
	bool plausible;

	switch (f) {
	case FRAMING_PM:
		return rs->pm_length(w.p, w.len, &plausible, rs->pm_ctx);
	case FRAMING_BDW:
		return walk_bdw_parse(w, 0, &len) ? 0 : (size_t)len;
	default:
		return walk_sdw_parse(w, 0, &d) ? 0 : d.len;
	}
}

/* Where in w (at_eof: it ends where the file does), from its start and
 * within SPLIT_SCAN, a unit begins from which units of the file's kind
 * walk, in order, and the records from there begin an interval: where one
 * run's reading of the file would be between two blocks or segments, or
 * for a PM stream between two intervals; SIZE_MAX, nowhere. A thread reads
 * from there with the kind found at the file's start, as that reading goes
 * on with it. Byte by byte until units walk, then unit by unit, as the
 * framer reads them: no cut inside a unit that walked, and a dump without
 * PM data nearby passed over a block at a time. */
static size_t
cut_in(const struct fr_records *rs, const struct pmint *pm, const struct framing_kind *k,
       struct span w, bool at_eof)
{
	size_t step;

	for (size_t off = 0; off < w.len && off < SPLIT_SCAN; off += step) {
		struct span rest = span_make(w.p + off, w.len - off);
		step = 1;
		if (!walk_window(rs, k->framing, k->content, rest, at_eof, SPLIT_WALK, true, NULL))
			continue;
		if (begins_interval(pm, k->framing, rest))
			return off;
		if ((step = unit_length(rs, k->framing, rest)) == 0)
			step = 1;
	}
	return SIZE_MAX;
}

/* What path, a plain regular file (not compressed), is read as (asked:
 * its framing asked); false when it is not one, or nothing walks. */
static bool
plain_kind(const char *path, int fd, uint8_t *buf, uint64_t size,
           const struct fr_records *rs, enum framing asked, struct framing_kind *k)
{
	struct input in;
	uint8_t first[1];
	bool plain, at_eof;
	size_t got;

	if (input_open_path(&in, path) != PM_OK)
		return false;
	plain = input_peek(&in, first, sizeof first) == 1 && !input_compressed(&in);
	input_close(&in);
	if (!plain)
		return false;
	got = read_at(fd, buf, DETECT_WINDOW, 0);
	at_eof = got == size;
	k->framing = asked;
	if (asked == FRAMING_AUTO &&
	    !detect_framing(rs, span_make(buf, got), at_eof, &k->framing))
		return false;
	k->content = k->framing == FRAMING_PM ? CONTENT_PM
	             : detect_content(rs, k->framing, span_make(buf, got), at_eof);
	return k->framing == FRAMING_PM || k->framing == FRAMING_RDW ||
	       k->framing == FRAMING_BDW;
}

size_t
split_file(const char *path, const struct fr_records *rs, const struct pmint *pm,
           enum framing asked, size_t n, uint64_t least, uint64_t *cut,
           struct framing_kind *k)
{
	size_t cuts = 1, cap = SPLIT_SCAN + DETECT_WINDOW;
	uint8_t *buf = NULL;
	struct stat sb;
	uint64_t size;
	int fd;

	cut[0] = 0;
	*k = (struct framing_kind){ FRAMING_AUTO, CONTENT_AUTO };
	if ((fd = open(path, O_RDONLY)) < 0)
		return 1;
	size = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) ? (uint64_t)sb.st_size : 0;
	if (least == 0)
		least = 1;
	if (size / least < n)
		n = (size_t)(size / least);
	if (n >= 2 && (buf = malloc(cap)) && plain_kind(path, fd, buf, size, rs, asked, k)) {
		for (size_t i = 1; i < n; i++) {
			uint64_t at = size / n * i + size % n * i / n;
			size_t got = read_at(fd, buf, cap, at);
			size_t off = cut_in(rs, pm, k, span_make(buf, got), at + got == size);

			/* ranges of least bytes at least, the last one too */
			if (off != SIZE_MAX && at + off >= cut[cuts - 1] + least &&
			    size - (at + off) >= least)
				cut[cuts++] = at + off;
		}
	}
	free(buf);
	close(fd);
	cut[cuts] = size;
	return cuts;
}
