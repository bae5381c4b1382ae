/* split.c: one file cut into ranges for threads. See split.h. */
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/grow.h"
#include "io/input.h"
#include "smf/detect.h"
#include "smf/smf.h"
#include "smf/walk.h"
#include "split.h"
#include "winperf/block.h"
#include "winperf/stream.h"

/* Bytes looked through after a proposed cut for a record to cut at: many
 * intervals of the largest parts. */
#define SPLIT_SCAN ((size_t)1 << 20)
/* Records or blocks that must walk from a cut: more than resynchronisation
 * asks. */
#define SPLIT_WALK 16
/* Bytes looked back from a cut of PERF_DATA_BLOCKs for the snapshots
 * before it, first and at most (the largest block --max-record takes by
 * default) */
#define LEAD_FIRST ((size_t)256 << 10)
#define LEAD_MAX ((size_t)16 << 20)

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

/* What the file is read as: PERF_DATA_BLOCKs, or its framing and what
 * its records hold, as the framer finds them at its start. */
struct kind {
	bool perf;
	enum framing asked;
	struct framing_kind found;
};

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

/* Whether PERF_DATA_BLOCKs walk from at, as the block reader steps from
 * one to the next (wp_head, by TotalByteLength): SPLIT_WALK of them, or
 * up to the end of the file. */
static bool
perf_walks(int fd, uint64_t at, uint64_t size)
{
	uint8_t head[WP_PDB_MIN];
	struct span system;
	uint32_t total;

	for (int i = 0; i < SPLIT_WALK && at < size; i++) {
		if (read_at(fd, head, sizeof head, at) != sizeof head ||
		    !wp_head(span_make(head, sizeof head), &total, &system) || total > size - at)
			return false;
		at += total;
	}
	return true;
}

/* The bytes looked back from a cut, and the blocks found there. */
struct back {
	uint8_t *buf;
	size_t cap;
	struct span *names;     /* the systems' raw names, in buf */
	size_t nnames, names_cap;
};

/* Whether name is one of the systems' found. */
static bool
named(const struct back *l, struct span name)
{
	for (size_t i = 0; i < l->nnames; i++)
		if (l->names[i].len == name.len && memcmp(l->names[i].p, name.p, name.len) == 0)
			return true;
	return false;
}

/* Where the snapshots just before cut begin, looking back len bytes (in
 * l->buf, the file's from cut - len): the blocks that walk by their
 * TotalByteLength up to the cut, back until a system's name repeats
 * (each system's last snapshot before the cut, which the range's first
 * one of it is paired with). *whole: a name repeated, or nothing is
 * before the bytes looked at. */
static uint64_t
lead_in(struct back *l, uint64_t cut, size_t len, bool *whole)
{
	size_t to = len;   /* the earliest block found begins here */
	struct span system;
	uint32_t total;

	l->nnames = 0;
	*whole = len == cut;
	for (size_t at = len >= WP_PDB_MIN ? len - WP_PDB_MIN + 1 : 0; at-- > 0;) {
		if (memcmp(l->buf + at, wp_signature, sizeof wp_signature) != 0 ||
		    !wp_head(span_make(l->buf + at, to - at), &total, &system) || total != to - at)
			continue;
		if (named(l, system)) {
			*whole = true;
			break;
		}
		if (!grow_table((void **)&l->names, &l->names_cap, l->nnames + 1, sizeof *l->names))
			break;
		l->names[l->nnames++] = system;
		to = at;
	}
	return cut - (len - to);
}

/* Where the snapshots before cut that a range from cut is primed with
 * begin (split.h); cut when no block ends there. Looks back further
 * while the bytes looked at hold no system twice, up to LEAD_MAX. */
static uint64_t
perf_lead(int fd, struct back *l, uint64_t cut)
{
	uint64_t lead = cut;
	bool whole = false;

	for (size_t len = LEAD_FIRST; !whole; len *= 2) {
		uint8_t *p;
		if (len > LEAD_MAX)
			break;
		if (len > cut)
			len = (size_t)cut;
		if (len > l->cap) {
			if (!(p = realloc(l->buf, len)))
				break;
			l->buf = p;
			l->cap = len;
		}
		if (read_at(fd, l->buf, len, cut - len) != len)
			break;
		lead = lead_in(l, cut, len, &whole);
	}
	return lead;
}

/* Where in the got bytes of buf, the file's from at (size bytes), within
 * SPLIT_SCAN, a PERF_DATA_BLOCK begins from which blocks walk, and the
 * ones before walk up to (*from: where they begin, perf_lead); SIZE_MAX,
 * nowhere. */
static size_t
perf_cut_in(int fd, struct back *l, const uint8_t *buf, size_t got, uint64_t at,
            uint64_t size, uint64_t *from)
{
	for (size_t off = 0; off + sizeof wp_signature <= got && off < SPLIT_SCAN; off++)
		if (memcmp(buf + off, wp_signature, sizeof wp_signature) == 0 &&
		    perf_walks(fd, at + off, size) && (*from = perf_lead(fd, l, at + off)) < at + off)
			return off;
	return SIZE_MAX;
}

/* What path, a plain regular file (not compressed), is read as (perf: a
 * Windows report's PERF_DATA_BLOCKs, by --framing=perf or detected as the
 * pipeline detects them); false when it is not one, or nothing walks. */
static bool
plain_kind(const char *path, int fd, uint8_t *buf, uint64_t size,
           const struct fr_records *rs, struct kind *k)
{
	struct framing_kind *f = &k->found;
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
	if (k->perf)
		return k->asked == FRAMING_PERF ||
		       (k->asked == FRAMING_AUTO && wp_stream_detect(span_make(buf, got)));
	f->framing = k->asked;
	if (k->asked == FRAMING_AUTO &&
	    !detect_framing(rs, span_make(buf, got), at_eof, &f->framing))
		return false;
	f->content = f->framing == FRAMING_PM ? CONTENT_PM
	             : detect_content(rs, f->framing, span_make(buf, got), at_eof);
	return f->framing == FRAMING_PM || f->framing == FRAMING_RDW ||
	       f->framing == FRAMING_BDW;
}

size_t
split_file(const char *path, const struct fr_records *rs, const struct pmint *pm,
           enum framing asked, bool perf, size_t n, uint64_t least, uint64_t *cut,
           uint64_t *lead, struct framing_kind *found)
{
	struct kind k = { perf, asked, { FRAMING_AUTO, CONTENT_AUTO } };
	size_t cuts = 1, cap = SPLIT_SCAN + DETECT_WINDOW;
	struct back back = { 0 };
	uint8_t *buf = NULL;
	struct stat sb;
	uint64_t size;
	int fd;

	cut[0] = lead[0] = 0;
	if ((fd = open(path, O_RDONLY)) < 0)
		return 1;
	size = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) ? (uint64_t)sb.st_size : 0;
	if (least == 0)
		least = 1;
	if (size / least < n)
		n = (size_t)(size / least);
	if (n >= 2 && (buf = malloc(cap)) && plain_kind(path, fd, buf, size, rs, &k)) {
		for (size_t i = 1; i < n; i++) {
			uint64_t at = size / n * i + size % n * i / n, from = 0;
			size_t got = read_at(fd, buf, cap, at);
			size_t off = k.perf ? perf_cut_in(fd, &back, buf, got, at, size, &from)
			             : cut_in(rs, pm, &k.found, span_make(buf, got), at + got == size);

			/* ranges of least bytes at least, the last one too */
			if (off != SIZE_MAX && at + off >= cut[cuts - 1] + least &&
			    size - (at + off) >= least) {
				lead[cuts] = k.perf ? from : at + off;
				cut[cuts++] = at + off;
			}
		}
	}
	*found = k.found;
	free(buf);
	free(back.buf);
	free(back.names);
	close(fd);
	cut[cuts] = size;
	return cuts;
}
