/* stream.c: blocks back to back, read in bounded memory: a plain file's
 * lent where they lie (io/input.h), others read into a buffer that grows
 * to the largest block. See stream.h. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "winperf/stream.h"

#define FIRST_BUFFER ((size_t)64 << 10)

struct wp_stream {
	struct wp_walker *walker;
	size_t max_block;
	wp_snapshot_fn emit;
	void *ctx;
	/* the current input */
	struct input *in;
	struct diag *diag;
	struct tally *tally;
	const uint8_t *buf;     /* owned, or lent (io/input.h) */
	uint8_t *owned;         /* the buffer read into */
	bool lent;              /* the input's bytes are lent */
	size_t cap, pos, end;   /* unread bytes are buf[pos, end) */
	uint64_t base;          /* file offset of buf[0] */
	bool eof;
};

pm_status
wp_stream_open(struct wp_stream **out, size_t max_block, wp_snapshot_fn emit, void *ctx)
{
	struct wp_stream *s = calloc(1, sizeof *s);
	pm_status st;

	*out = NULL;
	if (!s)
		return PM_E_NOMEM;
	if ((st = wp_walker_open(&s->walker)) != PM_OK) {
		free(s);
		return st;
	}
	s->max_block = max_block < WP_PDB_MIN ? WP_PDB_MIN : max_block;
	s->emit = emit;
	s->ctx = ctx;
	*out = s;
	return PM_OK;
}

void
wp_stream_close(struct wp_stream *s)
{
	if (!s)
		return;
	wp_walker_close(s->walker);
	free(s->owned);
	free(s);
}

bool
wp_stream_detect(struct span head)
{
	return wp_plausible(head);
}

static uint64_t
here(const struct wp_stream *s)
{
	return s->base + s->pos;
}

/* ensure from a file whose bytes are lent: those from here on, up to a
 * range's stop, the bytes they reach past those before counted as read. */
static bool
ensure_lent(struct wp_stream *s, size_t n)
{
	uint64_t at = here(s), reached = s->base + s->end;
	ssize_t got = input_lend(s->in, at, n, &s->buf);

	if (got < 0) {
		input_say_lend_failed(s->in, s->diag, reached);
		return false;
	}
	/* a range of a file (--jobs) ends where the next begins */
	if (s->in->stop && (uint64_t)got > s->in->stop - at)
		got = at < s->in->stop ? (ssize_t)(s->in->stop - at) : 0;
	s->base = at;
	s->pos = 0;
	s->end = (size_t)got;
	s->eof = (size_t)got < n;
	if (at + (uint64_t)got > reached)
		s->tally->bytes_read += at + (uint64_t)got - reached;
	return true;
}

/* At least n unread bytes in the buffer, or all there are at the end of
 * the input; false on a read error (reported). n <= max_block. */
static bool
ensure(struct wp_stream *s, size_t n)
{
	if (s->end - s->pos >= n || s->eof)
		return true;
	if (s->lent)
		return ensure_lent(s, n);
	if (s->pos > 0) {
		memmove(s->owned, s->buf + s->pos, s->end - s->pos);
		s->base += s->pos;
		s->end -= s->pos;
		s->pos = 0;
	}
	if (n > s->cap) {
		size_t cap = s->cap ? s->cap : FIRST_BUFFER;
		uint8_t *p;
		while (cap < n)
			cap *= 2;
		if (!(p = realloc(s->owned, cap))) {
			diag_at(s->diag, PM_E_NOMEM, (int64_t)here(s), "a block of %zu bytes", n);
			return false;
		}
		s->buf = s->owned = p;
		s->cap = cap;
	}
	while (s->end < n) {
		size_t room = s->cap - s->end;
		ssize_t got;
		/* a range of a file (--jobs) ends where the next begins */
		if (s->in->stop && s->in->stop - (s->base + s->end) < room)
			room = (size_t)(s->in->stop - (s->base + s->end));
		got = room ? s->in->read(s->in, s->owned + s->end, room) : 0;
		if (got < 0) {
			diag_at(s->diag, PM_E_READ, (int64_t)(s->base + s->end), NULL);
			return false;
		}
		if (got == 0) {
			s->eof = true;
			break;
		}
		s->end += (size_t)got;
		s->tally->bytes_read += (uint64_t)got;
	}
	return true;
}

/* Bytes from here on damaged up to the next signature after the first
 * byte, or to the end of the input. */
static bool
resync(struct wp_stream *s)
{
	uint64_t from = here(s), skipped = 1;

	s->pos++;
	for (;;) {
		size_t avail = s->end - s->pos, k = 0;
		while (k + sizeof wp_signature <= avail &&
		       memcmp(s->buf + s->pos + k, wp_signature, sizeof wp_signature) != 0)
			k++;
		if (k + sizeof wp_signature <= avail || s->eof) {
			skipped += k;
			s->pos += k;
			if (k + sizeof wp_signature > avail) {
				/* no signature before the end */
				skipped += avail - k;
				s->pos = s->end;
			}
			break;
		}
		/* keep what may be the start of a signature */
		skipped += k;
		s->pos += k;
		if (!ensure(s, sizeof wp_signature)) {
			s->tally->damaged += skipped;  /* the rest by the caller */
			return false;
		}
	}
	s->tally->damaged += skipped;
	diag_at(s->diag, PM_E_RESYNC, (int64_t)from,
	        "%" PRIu64 " bytes skipped to the next PERF signature", skipped);
	return true;
}

/* The block at here, total bytes: walked and handed on, or refused. */
static void
take_block(struct wp_stream *s, size_t total)
{
	const struct wp_snapshot *snap;
	struct wp_fault fault;
	uint64_t at = here(s);
	pm_status st = wp_walk(s->walker, span_make(s->buf + s->pos, total), &snap, &fault);

	if (st == PM_OK) {
		s->tally->used += total;
		s->emit(snap, at, s->ctx);
	} else {
		s->tally->damaged += total;
		s->tally->damaged_records++;
		if (st == PM_E_PERF_BLOCK)
			diag_at(s->diag, st, (int64_t)(at + fault.at),
			        "%s (the block at offset %" PRIu64 ", %zu bytes)", fault.rule, at, total);
		else
			diag_at(s->diag, st, (int64_t)at, NULL);
	}
	s->pos += total;
}

/* One step at here: a block, a resynchronisation, or the end. 1 to go
 * on, 0 at the end, -1 on a read error. */
static int
step(struct wp_stream *s)
{
	size_t avail;
	uint32_t total;

	if (!ensure(s, WP_PDB_MIN))
		return -1;
	if ((avail = s->end - s->pos) == 0)
		return 0;
	if (avail < sizeof wp_signature ||
	    memcmp(s->buf + s->pos, wp_signature, sizeof wp_signature) != 0)
		return resync(s) ? 1 : -1;
	if (avail < WP_PDB_MIN ||
	    !le_u32(span_make(s->buf + s->pos, avail), 20, &total) ||
	    (total <= s->max_block && total > avail && s->eof)) {
		diag_at(s->diag, PM_E_TRUNCATED, (int64_t)here(s), "a PERF_DATA_BLOCK of %zu bytes", avail);
		s->tally->damaged += avail;
		s->tally->truncated++;
		s->pos = s->end;
		return 0;
	}
	if (total < WP_PDB_MIN || total > s->max_block) {
		diag_at(s->diag, total < WP_PDB_MIN ? PM_E_PERF_BLOCK : PM_E_RECORD_TOO_LONG,
		        (int64_t)here(s) + 20, "TotalByteLength %" PRIu32 " (at least %d, at most %zu)",
		        total, WP_PDB_MIN, s->max_block);
		s->tally->damaged_records++;
		return resync(s) ? 1 : -1;
	}
	if (!ensure(s, total))
		return -1;
	if (s->end - s->pos < total)
		return 1; /* cut short: said above on the next step */
	take_block(s, total);
	return 1;
}

int
wp_stream_read(struct wp_stream *s, struct input *in, struct diag *d, struct tally *t)
{
	int rc;

	s->in = in;
	s->diag = d;
	s->tally = t;
	s->pos = s->end = 0;
	s->base = in->origin;
	s->eof = false;
	s->lent = input_can_lend(in);
	s->buf = s->owned;
	while ((rc = step(s)) > 0)
		;
	if (rc == 0 && s->lent && !input_lent_whole(in))
		input_say_lend_failed(in, d, here(s));
	if (rc < 0) {
		/* what was read but not walked is damaged */
		t->damaged += s->end - s->pos;
		s->pos = s->end;
	}
	return rc;
}
