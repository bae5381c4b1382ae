/* framing.c: from a byte stream to logical records. See framing.h.
 *
 * One read buffer; every descriptor is read in place through bytes.h. A
 * record that lies in one segment is handed up where it is in the buffer;
 * only spanned records that `want` keeps are copied, into the assembly
 * buffer. Each decision depends on the bytes and on where the input ends,
 * never on how reads were chunked: fill() reads until the bytes a decision
 * needs are there or the input has ended, and look-ahead windows have fixed
 * sizes. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "smf/detect.h"
#include "smf/framing.h"
#include "smf/walk.h"

#define RDW_LEN_MAX 0xffffu

#define DEFAULT_BUFFER ((size_t)4 << 20)
#define MIN_BUFFER ((size_t)512 << 10)
#define DEFAULT_MAX_RECORD ((size_t)16 << 20)
#define JOIN_START ((size_t)64 << 10)
/* Look-ahead when resynchronising: three PM records of the largest size. */
#define RESYNC_WINDOW ((size_t)192 << 10)

enum step { STEP_MORE, STEP_RECORD, STEP_END, STEP_ERROR };

struct framer;
typedef enum step (*step_fn)(struct framer *fr, struct fr_record *rec);

/* A spanned record being read, segment by segment. */
struct assembly {
	bool active;            /* a first segment seen, its last not yet */
	bool decided;           /* want has been asked */
	bool keep;              /* wanted: its data are being joined */
	pm_status refused;      /* PM_OK, or why it will not be handed up */
	uint64_t offset;        /* of its first SDW */
	uint64_t input_bytes;
	size_t len;             /* logical length so far, RDW included */
	unsigned segments;
	uint8_t *data;          /* the joined record, from its RDW on */
	size_t cap;
	uint8_t head[FR_HEAD_MAX]; /* its start, from its RDW on */
	size_t head_len;
};

struct framer {
	struct input *in;
	const struct fr_records *rs;
	struct diag *diag;
	struct tally *tally;
	fr_want_fn want;
	void *want_ctx;
	size_t max_record;
	enum framing framing;
	enum content content;
	bool detected;          /* the framing was detected, not forced */
	enum content asked;     /* the content asked for (AUTO: detected) */
	step_fn step;
	const uint8_t *buf;
	uint8_t *owned;         /* buf when read into, NULL when lent */
	size_t cap, pos, end;   /* unread bytes are buf[pos, end) */
	uint64_t base;          /* file offset of buf[0] */
	bool eof, done;
	uint64_t records;       /* framed whole, handed up or refused */
	uint64_t block_offset;  /* BDW: the current block */
	uint64_t block_left;    /* BDW: its bytes not yet walked; 0 between */
	struct assembly span;
	/* a range of an input (framer_opts): where it stops, BDWs read past
	 * the stop (the next range's), segments passed over at its start */
	uint64_t stop, past_bdws, passed;
	bool leading;           /* continued, no segment of its own yet */
	uint64_t resumed_at;
};

const char *
framing_name(enum framing f)
{
	if (f == FRAMING_PERF)
		return "perf";
	if ((unsigned)f >= sizeof walk_rules / sizeof walk_rules[0])
		return "unknown";
	return walk_rules[f].name;
}

/* ---- reading ---- */

static uint64_t
here(const struct framer *fr)
{
	return fr->base + fr->pos;
}

static size_t
min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

static void
compact(struct framer *fr)
{
	memmove(fr->owned, fr->buf + fr->pos, fr->end - fr->pos);
	fr->base += fr->pos;
	fr->end -= fr->pos;
	fr->pos = 0;
}

/* fill from a file whose bytes are lent (io/input.h): those from here
 * on, the bytes they reach past those before counted as read; once they
 * held the file's end, what there is. */
static bool
fill_lent(struct framer *fr, size_t n, size_t *avail)
{
	uint64_t at = here(fr), reached = fr->base + fr->end;
	ssize_t got;

	if (fr->eof) {
		*avail = fr->end - fr->pos;
		return true;
	}
	if ((got = input_lend(fr->in, at, n, &fr->buf)) < 0) {
		input_say_lend_failed(fr->in, fr->diag, reached);
		return false;
	}
	fr->base = at;
	fr->pos = 0;
	fr->end = (size_t)got;
	fr->eof = (size_t)got < n;
	if (at + (uint64_t)got > reached)
		fr->tally->bytes_read += at + (uint64_t)got - reached;
	*avail = fr->end;
	return true;
}

/* fill when the bytes are not there yet: lent, or read in large reads,
 * the buffer compacted before its free tail falls under half its size. */
static bool
fill_more(struct framer *fr, size_t n, size_t *avail)
{
	if (fr->owned == NULL)
		return fill_lent(fr, n, avail);
	while (fr->end - fr->pos < n && !fr->eof) {
		ssize_t got;

		if (fr->cap - fr->end < fr->cap / 2 || fr->cap - fr->pos < n)
			compact(fr);
		got = fr->in->read(fr->in, fr->owned + fr->end, fr->cap - fr->end);
		if (got < 0) {
			diag_at(fr->diag, PM_E_READ, (int64_t)(fr->base + fr->end),
			        "%s", strerror(errno));
			return false;
		}
		if (got == 0)
			fr->eof = true;
		fr->end += (size_t)got;
		fr->tally->bytes_read += (uint64_t)got;
	}
	*avail = fr->end - fr->pos;
	return true;
}

/* Make n bytes (n <= cap) available from pos, reading as needed; *avail
 * gets the bytes available, fewer than n only at the end of the input.
 * Returns false after a read error, which it reports. Inline, for the
 * bytes are nearly always there: a record is asked for twice. */
static inline bool
fill(struct framer *fr, size_t n, size_t *avail)
{
	if (fr->end - fr->pos >= n) {
		*avail = fr->end - fr->pos;
		return true;
	}
	return fill_more(fr, n, avail);
}

/* ---- damage ---- */

static void
report(struct framer *fr, pm_status st, uint64_t offset, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

static void
report(struct framer *fr, pm_status st, uint64_t offset, const char *fmt, ...)
{
	char detail[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof detail, fmt, ap);
	va_end(ap);
	diag_at(fr->diag, st, (int64_t)offset, "%s", detail);
}

/* Count bytes of one damaged record or segment as damaged. */
static void
count_damaged(struct framer *fr, uint64_t bytes)
{
	fr->tally->damaged += bytes;
	fr->tally->damaged_records++;
}

/* A pending spanned record that will get no last segment. Called before
 * any damage is skipped, so that no record is joined across lost bytes. */
static void
span_drop_unended(struct framer *fr)
{
	struct assembly *a = &fr->span;

	if (!a->active)
		return;
	report(fr, PM_E_UNENDED_SPAN, a->offset,
	       "%u segment(s) of %" PRIu64 " bytes discarded", a->segments,
	       a->input_bytes);
	count_damaged(fr, a->input_bytes);
	a->active = false;
}

/* The input ends avail bytes into a unit of need bytes. */
static enum step
truncated(struct framer *fr, size_t avail, size_t need, const char *what)
{
	span_drop_unended(fr);
	report(fr, PM_E_TRUNCATED, here(fr), "%s has %zu of its %zu bytes", what,
	       avail, need);
	fr->tally->truncated++;
	count_damaged(fr, avail);
	fr->pos += avail;
	fr->block_left = 0;
	return STEP_MORE;
}

/* Whether the DESC_LEN bytes of a descriptor (named what) are at pos;
 * when not, *step is what the step returns: the end, a read error, or the
 * input cut short inside the descriptor, reported. */
static bool
desc_here(struct framer *fr, const char *what, size_t *avail, enum step *step)
{
	if (!fill(fr, DESC_LEN, avail))
		*step = STEP_ERROR;
	else if (*avail == 0)
		*step = STEP_END;
	else if (*avail < DESC_LEN)
		*step = truncated(fr, *avail, DESC_LEN, what);
	else
		return true;
	return false;
}

/* Consume up to n bytes as damaged, through as many reads as it takes;
 * fewer at the end of the input. False after a read error. */
static bool
skip_damaged(struct framer *fr, uint64_t n)
{
	while (n > 0) {
		size_t avail, take;

		if (!fill(fr, 1, &avail))
			return false;
		if (avail == 0)
			break;
		take = n < avail ? (size_t)n : avail;
		fr->pos += take;
		fr->tally->damaged += take;
		n -= take;
	}
	return true;
}


/* Whether units of the framing walk again from pos + off, avail bytes
 * being there from pos: what resynchronisation looks for. */
static bool
resumes_at(const struct framer *fr, size_t off, size_t avail)
{
	struct walk k = { .rs = fr->rs, .content = fr->content,
	                  .exact_end = true };

	k.w = span_make(fr->buf + fr->pos + off,
	                min_size(avail - off, RESYNC_WINDOW));
	k.at_eof = avail - off <= RESYNC_WINDOW;
	return walk_run(&k, fr->framing, walk_rules[fr->framing].resync_units);
}

/* Skip forward a byte at a time to where units of the framing walk again,
 * and report the bytes skipped once. */
static enum step
resync(struct framer *fr, uint64_t offset)
{
	uint64_t skipped = 0;
	size_t avail;
	bool found = false;

	while (!found) {
		fr->pos++;
		skipped++;
		if (!fill(fr, RESYNC_WINDOW + 1, &avail)) {
			count_damaged(fr, skipped);
			return STEP_ERROR;
		}
		if (avail == 0)
			break;
		found = resumes_at(fr, 0, avail);
	}
	count_damaged(fr, skipped);
	if (found)
		report(fr, PM_E_RESYNC, offset,
		       "%" PRIu64 " bytes skipped; records resume at offset %" PRIu64,
		       skipped, here(fr));
	else
		report(fr, PM_E_RESYNC, offset,
		       "%" PRIu64 " bytes skipped to the end of input", skipped);
	return STEP_MORE;
}

static bool framing_changes(struct framer *fr);

/* An invalid descriptor at pos (shown: its bytes available to print),
 * unless another framing takes over there. */
static enum step
bad_descriptor(struct framer *fr, const char *what, size_t shown,
               const char *why)
{
	char hex[2 * DESC_LEN + 1];

	/* before the look-ahead, whose read may fail: the bytes read before
	 * a failed read may be gone (a lent file's, io/input.h) */
	diag_hex(hex, sizeof hex, fr->buf + fr->pos, min_size(shown, DESC_LEN));
	span_drop_unended(fr);
	if (framing_changes(fr))
		return STEP_MORE;
	report(fr, PM_E_BAD_DESCRIPTOR, here(fr), "%s x'%s': %s", what, hex, why);
	return resync(fr, here(fr));
}

/* Whether whole units walk again from inside the first `inside` bytes
 * from pos, within the avail bytes there: then a length at pos that takes
 * them in was misread. */
static bool
units_walk_inside(const struct framer *fr, size_t inside, size_t avail)
{
	unsigned units = walk_rules[fr->framing].resync_units;

	for (size_t off = 1; off < inside; off++) {
		struct walk k = { .rs = fr->rs, .content = fr->content,
		                  .w = span_make(fr->buf + fr->pos + off, avail - off) };
		if (walk_run(&k, fr->framing, units) && k.units == units)
			return true;
	}
	return false;
}

/* A unit of need bytes whose length runs avail bytes past where the
 * input ends: cut short, unless units walk again inside those bytes, which
 * shows its length was misread (shown: its bytes to print). */
static enum step
cut_short(struct framer *fr, size_t avail, size_t need, const char *what,
          size_t shown)
{
	if (units_walk_inside(fr, avail, avail))
		return bad_descriptor(fr, what, shown,
		                      "its length runs past the end of input");
	return truncated(fr, avail, need, what);
}

/* ---- records ---- */

static bool
wanted(const struct framer *fr, const uint8_t *p, size_t len)
{
	return fr->want == NULL || fr->content == CONTENT_PM ||
	       fr->want(p, min_size(len, FR_HEAD_MAX), fr->want_ctx);
}

static void
too_long(struct framer *fr, pm_status st, uint64_t offset, size_t len,
         uint64_t input_bytes)
{
	if (st == PM_E_NOMEM)
		report(fr, st, offset, "record of %zu bytes skipped", len);
	else
		report(fr, st, offset, "%zu bytes; the limit is %zu", len,
		       fr->max_record);
	count_damaged(fr, input_bytes);
}

/* A record in one piece: a PM record, or a complete segment; keep:
 * whether it is wanted. Inline, for a PM stream's every record is one. */
static inline enum step
whole_record(struct framer *fr, struct span r, uint64_t offset, bool keep,
             struct fr_record *rec)
{
	fr->records++;
	if (keep && r.len > fr->max_record) {
		too_long(fr, PM_E_RECORD_TOO_LONG, offset, r.len, r.len);
		return STEP_MORE;
	}
	rec->offset = offset;
	rec->data = keep ? r.p : NULL;
	rec->len = r.len;
	rec->head = r.p;
	rec->head_len = min_size(r.len, FR_HEAD_MAX);
	rec->input_bytes = r.len;
	rec->segments = 1;
	rec->contiguous = true;
	return STEP_RECORD;
}

/* Room for n bytes of the record being joined, doubling up to max_record. */
static bool
join_reserve(struct framer *fr, size_t n)
{
	struct assembly *a = &fr->span;
	size_t cap = a->cap ? a->cap : JOIN_START;
	uint8_t *p;

	if (n <= a->cap)
		return true;
	while (cap < n)
		cap = cap > SIZE_MAX / 2 ? n : cap * 2;
	if (cap > fr->max_record)
		cap = fr->max_record;
	if ((p = realloc(a->data, cap)) == NULL)
		return false;
	a->data = p;
	a->cap = cap;
	return true;
}

/* Copy the last n bytes counted in the record's length into its joined
 * data, up to max_record. */
static void
join(struct framer *fr, const uint8_t *p, size_t n)
{
	struct assembly *a = &fr->span;

	if (a->refused != PM_OK)
		return;
	if (a->len > fr->max_record)
		a->refused = PM_E_RECORD_TOO_LONG;
	else if (!join_reserve(fr, a->len))
		a->refused = PM_E_NOMEM;
	else
		memcpy(a->data + a->len - n, p, n);
}

/* Ask want once the head is full or the record complete: a first segment
 * can be too short to show even the record type. */
static void
span_decide(struct framer *fr)
{
	struct assembly *a = &fr->span;

	a->decided = true;
	a->keep = wanted(fr, a->head, a->head_len);
	if (a->keep)
		join(fr, a->head, a->head_len);
}

/* Add n bytes to the record: into its head first, then, when kept, into
 * its joined data. */
static void
span_add(struct framer *fr, const uint8_t *p, size_t n)
{
	struct assembly *a = &fr->span;

	if (a->head_len < FR_HEAD_MAX) {
		size_t k = min_size(n, FR_HEAD_MAX - a->head_len);
		memcpy(a->head + a->head_len, p, k);
		a->head_len += k;
		a->len += k;
		p += k;
		n -= k;
		if (a->head_len == FR_HEAD_MAX)
			span_decide(fr);
	}
	a->len += n;
	if (a->keep && n > 0)
		join(fr, p, n);
}

/* A first segment. The joined record gets an RDW of its own in front of the
 * segments' data; want sees it with a length of zero, not yet known. */
static void
span_begin(struct framer *fr, struct span seg, uint64_t offset)
{
	static const uint8_t blank_rdw[DESC_LEN];
	struct assembly *a = &fr->span;

	a->active = true;
	a->decided = false;
	a->keep = false;
	a->refused = PM_OK;
	a->offset = offset;
	a->input_bytes = seg.len;
	a->segments = 1;
	a->len = 0;
	a->head_len = 0;
	span_add(fr, blank_rdw, DESC_LEN);
	span_add(fr, seg.p + DESC_LEN, seg.len - DESC_LEN);
}

static void
span_continue(struct framer *fr, struct span seg)
{
	fr->span.input_bytes += seg.len;
	fr->span.segments++;
	span_add(fr, seg.p + DESC_LEN, seg.len - DESC_LEN);
}

/* The last segment arrived: hand the joined record up. Its RDW carries the
 * length when a halfword holds it, else zero (never to be trusted: rec.len
 * is the length). */
static enum step
span_end(struct framer *fr, struct fr_record *rec)
{
	struct assembly *a = &fr->span;
	uint8_t *rdw;

	a->active = false;
	fr->records++;
	if (!a->decided)
		span_decide(fr);
	rdw = a->keep ? a->data : a->head;
	if (a->refused != PM_OK) {
		too_long(fr, a->refused, a->offset, a->len, a->input_bytes);
		return STEP_MORE;
	}
	put_be(rdw, 2, a->len <= RDW_LEN_MAX ? a->len : 0);
	fr->tally->spanned++;
	fr->tally->segments += a->segments;
	rec->offset = a->offset;
	rec->data = a->keep ? a->data : NULL;
	rec->len = a->len;
	rec->head = rdw;
	rec->head_len = a->keep ? min_size(a->len, FR_HEAD_MAX) : a->head_len;
	rec->input_bytes = a->input_bytes;
	rec->segments = a->segments;
	rec->contiguous = false;
	return STEP_RECORD;
}

/* A segment of len bytes at pos, whole in the buffer: consume it. */
static enum step
segment(struct framer *fr, size_t len, unsigned code, struct fr_record *rec)
{
	struct span seg = span_make(fr->buf + fr->pos, len);
	uint64_t offset = here(fr);

	fr->pos += len;
	if (fr->leading) {
		/* the end of the range before's last record: its bytes */
		fr->leading = code == SEG_MIDDLE;
		if (code == SEG_MIDDLE || code == SEG_LAST) {
			fr->passed += len;
			fr->resumed_at = here(fr);
			return STEP_MORE;
		}
	}
	if (code == SEG_COMPLETE || code == SEG_FIRST) {
		span_drop_unended(fr);
		if (code == SEG_COMPLETE)
			return whole_record(fr, seg, offset, wanted(fr, seg.p, seg.len), rec);
		span_begin(fr, seg, offset);
		return STEP_MORE;
	}
	if (!fr->span.active) {
		report(fr, PM_E_ORPHAN_SEGMENT, offset,
		       "%s segment of %zu bytes discarded",
		       code == SEG_LAST ? "last" : "middle", len);
		fr->tally->orphans++;
		count_damaged(fr, len);
		return STEP_MORE;
	}
	span_continue(fr, seg);
	return code == SEG_LAST ? span_end(fr, rec) : STEP_MORE;
}

/* ---- the framings ---- */

/* The PM record of len bytes at pos, whole in the buffer, handed up. */
static inline enum step
take_pm(struct framer *fr, size_t len, struct fr_record *rec)
{
	struct span r = span_make(fr->buf + fr->pos, len);
	uint64_t offset = here(fr);

	fr->pos += len;
	return whole_record(fr, r, offset, true, rec);
}

/* The PM record at pos, its length len read from avail bytes there, when
 * it is not whole in the buffer or not plausible. */
static enum step
pm_unusual(struct framer *fr, size_t len, size_t avail, bool plausible,
           struct fr_record *rec)
{
	if (len == 0 && avail < fr->rs->pm_peek)
		return truncated(fr, avail, fr->rs->pm_peek, "PM record length");
	if (len < DESC_LEN)
		return bad_descriptor(fr, "PM record length", 2, "below 4");
	/* Nothing but its header tells where the next record starts: one
	 * that does not look like a PM record is bytes read out of step. */
	if (!plausible && avail >= fr->rs->pm_peek)
		return bad_descriptor(fr, "PM record header", fr->rs->pm_peek,
		                      "not a PM record's");
	if (!fill(fr, len, &avail))
		return STEP_ERROR;
	if (avail < len)
		return cut_short(fr, avail, len, "PM record", 2);
	return take_pm(fr, len, rec);
}

/* Every record of a PM stream is kept (its content is PM); nearly every
 * one is plausible and whole in the buffer, the header's bytes with it. */
static enum step
step_pm(struct framer *fr, struct fr_record *rec)
{
	size_t avail, len;
	bool plausible;

	if (!fill(fr, fr->rs->pm_peek, &avail))
		return STEP_ERROR;
	if (avail == 0)
		return STEP_END;
	len = fr->rs->pm_length(fr->buf + fr->pos, avail, &plausible, fr->rs->pm_ctx);
	if (!plausible || len < DESC_LEN || len > avail)
		return pm_unusual(fr, len, avail, plausible, rec);
	return take_pm(fr, len, rec);
}

static enum step
step_rdw(struct framer *fr, struct fr_record *rec)
{
	size_t avail;
	struct desc d;
	const char *why;
	enum step step;

	if (!desc_here(fr, "RDW", &avail, &step))
		return step;
	why = walk_sdw_parse(span_make(fr->buf + fr->pos, avail), 0, &d);
	if (why)
		return bad_descriptor(fr, "RDW", DESC_LEN, why);
	if (!fill(fr, d.len, &avail))
		return STEP_ERROR;
	if (avail < d.len)
		return cut_short(fr, avail, d.len, "record", DESC_LEN);
	/* An RDW is only four bytes: what follows must be a record too, or
	 * the RDW was read out of step (after a damaged length). */
	if (!walk_content_fits(fr->rs, span_make(fr->buf + fr->pos, d.len), d.code,
	                       fr->content))
		return bad_descriptor(fr, "RDW", DESC_LEN,
		                      fr->content == CONTENT_PM
		                      ? "no PM record follows"
		                      : "no SMF record header follows");
	return segment(fr, d.len, d.code, rec);
}

/* A BDW at pos read as extended, of len bytes: when it is a plain BDW with
 * its top bit flipped (the plain length in bytes 0-1, bytes 2-3 zero) and
 * the segments fill that plain block exactly, up to another BDW or the end
 * of the input, the plain length, reported; else len. 0 after a read
 * error. A true extended block rarely has a segment boundary there that
 * also reads as a BDW. */
static uint64_t
plain_despite_extended_bit(struct framer *fr, uint64_t len)
{
	struct walk k = { .rs = fr->rs, .content = fr->content };
	uint64_t plain = len >> 16, next;
	size_t avail;

	if (len <= SEG_MAX || (len & 0xffff) != 0 || plain < BDW_MIN ||
	    plain > SEG_MAX)
		return len;
	if (!fill(fr, (size_t)plain + DESC_LEN, &avail))
		return 0;
	if (avail < plain)
		return len;
	k.w = span_make(fr->buf + fr->pos, (size_t)plain);
	k.off = DESC_LEN;
	if (walk_block(&k, plain) != WALK_OK ||
	    (avail > plain && walk_bdw_parse(span_make(fr->buf + fr->pos, avail),
	                                     (size_t)plain, &next) != NULL))
		return len;
	report(fr, PM_E_BAD_DESCRIPTOR, here(fr),
	       "BDW x'%02x%02x0000': extended bit set on a plain block of %" PRIu64
	       " bytes; read as plain", fr->buf[fr->pos], fr->buf[fr->pos + 1], plain);
	fr->tally->damaged_records++;
	return plain;
}

/* Whether the block of len bytes at pos ends where a block can follow: at
 * the end of the input, or at a BDW and the SDW of a segment that fits
 * its block. avail bytes are there. */
static bool
block_end_fits(const struct framer *fr, uint64_t len, size_t avail)
{
	struct span s = span_make(fr->buf + fr->pos, avail);
	uint64_t next;
	struct desc d;

	if (avail < len + 2 * DESC_LEN)
		return avail == len;
	return walk_bdw_parse(s, (size_t)len, &next) == NULL &&
	       walk_sdw_parse(s, (size_t)len + DESC_LEN, &d) == NULL &&
	       d.len <= next - DESC_LEN;
}

/* A block length is trusted where its end fits. Where it does not (it
 * runs past the input or the read buffer, or no block follows) and blocks
 * walk from inside it, it was misread, and reported: an extended length
 * can take in the rest of the input. A block the input merely cuts short
 * is read up to the cut, and one before a damaged BDW is kept. False when
 * the length is trusted; else *step is what the step returns. */
static bool
block_length_misread(struct framer *fr, uint64_t len, enum step *step)
{
	size_t avail, inside;

	*step = STEP_ERROR;
	if (!fill(fr, len + 2 * DESC_LEN < fr->cap ? (size_t)len + 2 * DESC_LEN
	                                           : fr->cap, &avail))
		return true;
	if (block_end_fits(fr, len, avail))
		return false;
	inside = len < avail ? (size_t)len : avail;
	if (!fill(fr, len + RESYNC_WINDOW < fr->cap ? (size_t)len + RESYNC_WINDOW
	                                            : fr->cap, &avail))
		return true;
	if (!units_walk_inside(fr, inside, avail))
		return false;
	*step = bad_descriptor(fr, "BDW", DESC_LEN, inside < len
	                       ? "its length runs past blocks that walk"
	                       : "no block follows it, and blocks walk inside it");
	return true;
}

static enum step
block_begin(struct framer *fr)
{
	size_t avail;
	uint64_t len;
	struct desc d;
	const char *why;
	enum step step;

	if (!desc_here(fr, "BDW", &avail, &step))
		return step;
	why = walk_bdw_parse(span_make(fr->buf + fr->pos, avail), 0, &len);
	if (why)
		return bad_descriptor(fr, "BDW", DESC_LEN, why);
	if ((len = plain_despite_extended_bit(fr, len)) == 0)
		return STEP_ERROR;
	/* A block starts with a segment: without one the BDW was read out of
	 * step, and its length must not be trusted to skip by. */
	if (!fill(fr, 2 * DESC_LEN, &avail))
		return STEP_ERROR;
	if (avail >= 2 * DESC_LEN &&
	    (walk_sdw_parse(span_make(fr->buf + fr->pos, avail), DESC_LEN, &d) != NULL ||
	     d.len > len - DESC_LEN))
		return bad_descriptor(fr, "BDW", DESC_LEN, "no valid segment follows");
	if (block_length_misread(fr, len, &step))
		return step;
	fr->block_offset = here(fr);
	fr->block_left = len - DESC_LEN;
	fr->pos += DESC_LEN;
	if (fr->stop && fr->block_offset >= fr->stop)
		fr->past_bdws += DESC_LEN;  /* the next range's */
	else
		fr->tally->used += DESC_LEN;
	return STEP_MORE;
}

/* The rest of the current block cannot be walked: skip it. */
static enum step
bad_block(struct framer *fr, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

static enum step
bad_block(struct framer *fr, const char *fmt, ...)
{
	char why[120];
	va_list ap;
	uint64_t rest = fr->block_left;

	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	span_drop_unended(fr);
	report(fr, PM_E_BAD_BLOCK, here(fr),
	       "%s in the block at offset %" PRIu64 "; its last %" PRIu64
	       " bytes skipped", why, fr->block_offset, rest);
	fr->tally->damaged_records++;
	fr->block_left = 0;
	return skip_damaged(fr, rest) ? STEP_MORE : STEP_ERROR;
}

static enum step
block_segment(struct framer *fr, struct fr_record *rec)
{
	size_t avail;
	struct desc d;
	const char *why;
	char hex[2 * DESC_LEN + 1];

	if (fr->block_left < DESC_LEN)
		return bad_block(fr, "%" PRIu64 " bytes after the last segment",
		                 fr->block_left);
	if (!fill(fr, DESC_LEN, &avail))
		return STEP_ERROR;
	if (avail == 0) {
		/* every segment whole: the file ends where a segment does */
		report(fr, PM_E_TRUNCATED, here(fr),
		       "the block at offset %" PRIu64 " lacks its last %" PRIu64
		       " bytes", fr->block_offset, fr->block_left);
		fr->block_left = 0;
		return STEP_MORE;
	}
	if (avail < DESC_LEN)
		return truncated(fr, avail, DESC_LEN, "SDW");
	why = walk_sdw_parse(span_make(fr->buf + fr->pos, avail), 0, &d);
	if (why) {
		diag_hex(hex, sizeof hex, fr->buf + fr->pos, DESC_LEN);
		return bad_block(fr, "SDW x'%s': %s", hex, why);
	}
	if (d.len > fr->block_left)
		return bad_block(fr, "segment of %zu bytes overruns its block",
		                 d.len);
	if (!fill(fr, d.len, &avail))
		return STEP_ERROR;
	if (avail < d.len)
		return truncated(fr, avail, d.len, "segment");
	fr->block_left -= d.len;
	return segment(fr, d.len, d.code, rec);
}

static enum step
step_bdw(struct framer *fr, struct fr_record *rec)
{
	return fr->block_left == 0 ? block_begin(fr) : block_segment(fr, rec);
}

static const step_fn steppers[] = {
	[FRAMING_PM] = step_pm,
	[FRAMING_RDW] = step_rdw,
	[FRAMING_BDW] = step_bdw,
};

/* Whether the framing resumes within a look-ahead window after pos. */
static bool
resumes_nearby(struct framer *fr, bool *error)
{
	size_t avail;

	if (!fill(fr, 2 * RESYNC_WINDOW + 1, &avail)) {
		*error = true;
		return false;
	}
	for (size_t off = 1; off < min_size(avail, RESYNC_WINDOW); off++)
		if (resumes_at(fr, off, avail))
			return true;
	return false;
}

/* Where units of a detected framing stop walking, another framing may
 * take over: a BDW dump and an RDW dump joined in one stream. It must walk
 * from pos undamaged, as at the start of an input; then it is read from
 * there on, and nothing is damaged. A framing asked for is kept. BDW
 * blocks hardly walk by chance; RDW records do, in BDW blocks and in
 * damage, so they take over only where the framing does not resume
 * nearby; PM records walk inside SMF records, and never take over. */
static bool
framing_changes(struct framer *fr)
{
	enum framing f;
	size_t avail;
	struct span w;
	bool at_eof, error = false;

	if (!fr->detected || !fill(fr, DETECT_WINDOW + 1, &avail) || avail == 0)
		return false;
	w = span_make(fr->buf + fr->pos, min_size(avail, DETECT_WINDOW));
	at_eof = avail <= DETECT_WINDOW;
	if (!detect_framing_here(fr->rs, w, at_eof, &f) || f == fr->framing ||
	    f == FRAMING_PM ||
	    (f == FRAMING_RDW && (resumes_nearby(fr, &error) || error)))
		return false;
	/* the look-ahead may have moved the bytes */
	w = span_make(fr->buf + fr->pos, w.len);
	report(fr, PM_E_FRAMING_CHANGED, here(fr),
	       "%s framing up to here, %s from here on", framing_name(fr->framing),
	       framing_name(f));
	fr->framing = f;
	fr->content = f == FRAMING_PM ? CONTENT_PM
	              : fr->asked != CONTENT_AUTO ? fr->asked
	              : detect_content(fr->rs, f, w, at_eof);
	fr->step = steppers[f];
	fr->block_left = 0;
	return true;
}

/* ---- the interface ---- */

static struct framer *
open_failed(struct framer *fr, pm_status *st, pm_status why)
{
	/* the bytes looked at are accounted, so the tally still balances */
	fr->tally->damaged += fr->end - fr->pos;
	framer_close(fr);
	*st = why;
	return NULL;
}

struct framer *
framer_open(struct input *in, const struct framer_opts *opts, struct diag *d,
            struct tally *t, pm_status *st)
{
	struct framer *fr = calloc(1, sizeof *fr);
	char cause[160];
	struct span w;
	size_t avail;
	bool at_eof;

	if (fr == NULL) {
		diag_at(d, PM_E_NOMEM, DIAG_NO_OFFSET, NULL);
		*st = PM_E_NOMEM;
		return NULL;
	}
	fr->in = in;
	fr->base = in->origin;  /* a range's offsets are its file's */
	fr->stop = opts->stop;
	fr->leading = opts->continued;
	fr->resumed_at = in->origin;
	fr->rs = opts->records;
	fr->diag = d;
	fr->tally = t;
	fr->want = opts->want;
	fr->want_ctx = opts->want_ctx;
	fr->max_record = opts->max_record ? opts->max_record : DEFAULT_MAX_RECORD;
	fr->framing = opts->framing;
	fr->content = opts->content;
	if (opts->found.framing != FRAMING_AUTO) {
		fr->framing = opts->found.framing;
		fr->content = opts->found.content;
	}
	fr->detected = opts->framing == FRAMING_AUTO;
	fr->asked = opts->content;
	fr->cap = opts->buffer_size ? opts->buffer_size : DEFAULT_BUFFER;
	if (fr->cap < MIN_BUFFER)
		fr->cap = MIN_BUFFER;
	if (!input_can_lend(in) && (fr->buf = fr->owned = malloc(fr->cap)) == NULL) {
		diag_at(d, PM_E_NOMEM, DIAG_NO_OFFSET, NULL);
		return open_failed(fr, st, PM_E_NOMEM);
	}
	if (!fill(fr, DETECT_WINDOW + 1, &avail))
		return open_failed(fr, st, PM_E_READ);
	*st = PM_OK;
	if (avail == 0) {
		fr->done = true;
		return fr;
	}
	w = span_make(fr->buf, min_size(avail, DETECT_WINDOW));
	at_eof = avail <= DETECT_WINDOW;
	if (fr->framing == FRAMING_AUTO &&
	    !detect_framing(fr->rs, w, at_eof, &fr->framing)) {
		detect_refusal_cause(fr->rs, w, cause, sizeof cause);
		diag_at(d, PM_E_NO_FRAMING, 0, "%s", cause);
		return open_failed(fr, st, PM_E_NO_FRAMING);
	}
	if (fr->framing == FRAMING_PM)
		fr->content = CONTENT_PM;
	else if (fr->content == CONTENT_AUTO)
		fr->content = detect_content(fr->rs, fr->framing, w, at_eof);
	fr->step = steppers[fr->framing];
	return fr;
}

/* After a read error: what was read but not handed up is damaged. */
static void
abandon(struct framer *fr)
{
	fr->tally->damaged += fr->end - fr->pos;
	fr->pos = fr->end;
	if (fr->span.active)
		count_damaged(fr, fr->span.input_bytes);
	fr->span.active = false;
	fr->done = true;
}

/* Bytes none of which read as a record could not be processed, whether
 * their framing was detected or forced. */
static void
refuse_if_nothing_read(struct framer *fr)
{
	if (fr->records == 0 && fr->tally->bytes_read > 0)
		report(fr, PM_E_NO_FRAMING, 0,
		       "no %s records anywhere in its %" PRIu64 " bytes",
		       framing_name(fr->framing), fr->tally->bytes_read);
}

/* A range ends: what it read but does not own is the next range's. */
static void
range_end(struct framer *fr)
{
	fr->tally->bytes_read -= fr->end - fr->pos + fr->past_bdws + fr->passed;
	fr->done = true;
	if (fr->owned == NULL && !input_lent_whole(fr->in))
		input_say_lend_failed(fr->in, fr->diag, here(fr));
}

int
framer_next(struct framer *fr, struct fr_record *rec)
{
	while (!fr->done) {
		if (fr->stop && here(fr) >= fr->stop && !fr->span.active) {
			range_end(fr);
			break;
		}
		switch (fr->step(fr, rec)) {
		case STEP_RECORD:
			return 1;
		case STEP_MORE:
			break;
		case STEP_END:
			span_drop_unended(fr);
			refuse_if_nothing_read(fr);
			range_end(fr);
			break;
		case STEP_ERROR:
			abandon(fr);
			return -1;
		}
	}
	return 0;
}

enum framing
framer_framing(const struct framer *fr)
{
	return fr->framing;
}

enum content
framer_content(const struct framer *fr)
{
	return fr->content;
}

uint64_t
framer_position(const struct framer *fr)
{
	return here(fr);
}

uint64_t
framer_resumed_at(const struct framer *fr)
{
	return fr->resumed_at;
}

void
framer_close(struct framer *fr)
{
	if (fr == NULL)
		return;
	free(fr->span.data);
	free(fr->owned);
	free(fr);
}
