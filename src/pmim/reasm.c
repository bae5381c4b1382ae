/* reasm.c: the parts of each interval become one interval. See reasm.h.
 *
 * Pending intervals wait in a ring of slots, in the order their first part
 * arrived, so the ring is also the emission queue: only its head can be
 * emitted. An open-addressing index (linear probing, at most half full)
 * maps the key (source, sdate, stime, edate, etime) to a slot. Both are
 * allocated at open and never grow; a part costs one hash and a short
 * probe (neither when it belongs to the newest interval, as most do) and
 * the decoding of its fields straight into the slot.
 *
 * The ring has one slot more than max_pending. A new interval is decoded
 * into that spare slot first, so a damaged first part leaves nothing to
 * undo, and the oldest interval is evicted only once the new one is good.
 *
 * Rules the header leaves open:
 * - horizon counts every part offered to reasm_part, damaged or duplicate
 *   ones included: it measures distance in the stream. horizon 0 means no
 *   horizon; then only max_pending and reasm_finish end a waiting interval.
 * - max_pending 0 is taken as 1.
 * - A part of an interval already emitted starts a new interval: a copy
 *   of the whole interval (a dump read twice) is whole again, a late part
 *   makes an incomplete one. Either lies in time already covered, and the
 *   coverage (coverage.h), asked before an interval is emitted, leaves it
 *   out as a duplicate; without a coverage it is emitted.
 * - A part of a waiting interval that already has every part starts the
 *   next copy of it, the same way: the index then leads to the copy, and
 *   the first copy, no longer indexed, waits for its turn in the ring. A
 *   part already present in an interval still lacking parts is a duplicate
 *   part, the first copy kept. */
#include <stdlib.h>
#include <string.h>

#include "pmim/coverage.h"
#include "pmim/reasm.h"
#include "core/tzone.h"

#define NO_SLOT UINT32_MAX

/* The index keeps the low 32 bits of each key's hash beside its slot number:
 * a probe compares keys only when the hashes agree, and deletion finds an
 * entry's home bucket without touching its slot. */
struct bucket {
	uint32_t slot;
	uint32_t hash;
};

struct slot {
	struct interval iv;
	uint64_t first_part;                 /* r->parts_seen when it began */
	uint64_t part_offset[CB_MAX_PARTS];  /* where each part came from */
	const char *file;                    /* the input its first part was in */
	uint32_t hash;
	bool indexed;                        /* false once a copy took its key */
};

struct reasm {
	const struct pmint *pm;
	interval_fn emit;
	void *ctx;
	struct coverage *coverage;
	const struct tzone *zone;    /* of the times in messages */
	struct diag *diag;
	struct tally *tally;
	size_t max_pending;
	uint64_t horizon;
	unsigned all_parts;
	struct slot *slots;      /* the ring: max_pending + 1 slots */
	size_t nslots, head, count;
	struct bucket *index;    /* a power of two, at least 2 * nslots */
	size_t index_mask;
	uint64_t parts_seen;
	const uint64_t *last_values; /* of the interval the last part went into */
	int limit_reported;
};

/* The splitmix64 finalizer: every input bit reaches every output bit, so
 * keys that differ only in a few time digits still spread. */
static uint64_t
mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

static uint32_t
key_hash(uint32_t source, const struct pm_header *h)
{
	uint64_t x = mix((uint64_t)h->sdate << 32 | h->stime);
	x = mix(x ^ ((uint64_t)h->edate << 32 | h->etime));
	return (uint32_t)mix(x ^ source);
}

static int
same_key(const struct interval *iv, uint32_t source, const struct pm_header *h)
{
	return iv->stime == h->stime && iv->etime == h->etime &&
	       iv->sdate == h->sdate && iv->edate == h->edate &&
	       iv->source == source;
}

/* The slot holding the key, or NO_SLOT; *at is its bucket, or the empty
 * bucket where it would go. */
static uint32_t
index_find(const struct reasm *r, uint32_t hash, uint32_t source,
           const struct pm_header *h, size_t *at)
{
	size_t b = hash & r->index_mask;

	for (;; b = (b + 1) & r->index_mask) {
		const struct bucket *e = &r->index[b];
		if (e->slot == NO_SLOT)
			break;
		if (e->hash == hash && same_key(&r->slots[e->slot].iv, source, h))
			break;
	}
	*at = b;
	return r->index[b].slot;
}

/* Backward-shift deletion: pull later entries of the cluster back over the
 * hole when their home allows it, so that no tombstone is ever needed and
 * probes stay as short as the load factor makes them. */
static void
index_remove(struct reasm *r, uint32_t slot, uint32_t hash)
{
	size_t mask = r->index_mask, hole = hash & mask;

	while (r->index[hole].slot != slot)
		hole = (hole + 1) & mask;
	for (size_t j = (hole + 1) & mask; r->index[j].slot != NO_SLOT;
	     j = (j + 1) & mask) {
		size_t home = r->index[j].hash & mask;
		/* The entry at j may move to the hole unless its home lies
		 * cyclically in (hole, j]. */
		if (((j - home) & mask) >= ((j - hole) & mask)) {
			r->index[hole] = r->index[j];
			hole = j;
		}
	}
	r->index[hole].slot = NO_SLOT;
}

static size_t
ring_at(const struct reasm *r, size_t i)
{
	size_t at = r->head + i;
	return at >= r->nslots ? at - r->nslots : at;
}

/* "1,3" for parts 1 and 3 of mask. */
static void
part_list(unsigned mask, unsigned nparts, char out[2 * CB_MAX_PARTS])
{
	size_t n = 0;

	for (unsigned p = 1; p <= nparts; p++)
		if (mask & 1u << p) {
			if (n)
				out[n++] = ',';
			out[n++] = (char)('0' + p);
		}
	out[n] = '\0';
}

/* Said when the interval is emitted, perhaps after its input was closed:
 * the message names the input its first part was in. */
static void
report_incomplete(struct reasm *r, const struct slot *s)
{
	const struct interval *iv = &s->iv;
	const char *current = r->diag->file;
	char start[TZONE_TEXT], end[TZONE_TEXT];
	char have[2 * CB_MAX_PARTS], lack[2 * CB_MAX_PARTS];

	tzone_format(r->zone, iv->start, start);
	tzone_format(r->zone, iv->end, end);
	part_list(iv->parts, r->pm->nparts, have);
	part_list(r->all_parts & ~iv->parts, r->pm->nparts, lack);
	r->diag->file = s->file;
	diag_at(r->diag, PM_E_INCOMPLETE, (int64_t)iv->offset,
	        "interval %s to %s: has parts %s, lacks %s", start, end, have,
	        lack);
	r->diag->file = current;
}

/* The head goes out, unless its time is covered already: then the
 * coverage has counted and said it, and no report sees it. */
static void
emit_head(struct reasm *r)
{
	struct slot *s = &r->slots[r->head];
	bool complete = s->iv.parts == r->all_parts;

	if (s->indexed)
		index_remove(r, (uint32_t)r->head, s->hash);
	if (!r->coverage || coverage_admit(r->coverage, &s->iv, complete, s->file)) {
		if (complete) {
			r->tally->intervals_complete++;
		} else {
			r->tally->intervals_incomplete++;
			report_incomplete(r, s);
		}
		r->emit(&s->iv, r->ctx);
	}
	r->head = ring_at(r, 1);
	r->count--;
}

/* Emit from the head while it is complete or beyond the horizon. Intervals
 * enter the ring in stream order, so the head is always the oldest. */
static void
drain(struct reasm *r)
{
	while (r->count > 0) {
		const struct slot *s = &r->slots[r->head];
		if (s->iv.parts != r->all_parts &&
		    (r->horizon == 0 || r->parts_seen - s->first_part < r->horizon))
			break;
		emit_head(r);
	}
}

static pm_status
report_duplicate(struct reasm *r, const struct pm_header *h, int64_t start,
                 int64_t end, uint64_t offset, uint64_t first)
{
	char from[TZONE_TEXT], to[TZONE_TEXT];

	tzone_format(r->zone, start, from);
	tzone_format(r->zone, end, to);
	r->tally->duplicate_parts++;
	diag_at(r->diag, PM_E_DUPLICATE_PART, (int64_t)offset,
	        "part %u of interval %s to %s, first copy at offset %llu", h->seq,
	        from, to, (unsigned long long)first);
	return PM_E_DUPLICATE_PART;
}

/* Whether the part is one the interval has already. */
static bool
has_part(const struct reasm *r, const struct slot *s, const struct pm_header *h)
{
	return h->seq <= r->pm->nparts && (s->iv.parts & 1u << h->seq);
}

static pm_status
add_part(struct reasm *r, struct slot *s, const struct pm_header *h,
         struct span rec, uint64_t offset)
{
	struct interval *iv = &s->iv;
	pm_status st;

	if (has_part(r, s, h))
		return report_duplicate(r, h, iv->start, iv->end, offset,
		                        s->part_offset[h->seq]);
	st = pm_part_decode(r->pm, h, rec, iv->v);
	if (st == PM_OK || st == PM_E_LONG_PART) {
		iv->parts |= 1u << h->seq;
		s->part_offset[h->seq] = offset;
		r->last_values = iv->v;
	}
	return st;
}

static pm_status
new_interval(struct reasm *r, uint32_t hash, size_t bucket, uint32_t source,
             const struct pm_header *h, int64_t start, int64_t end,
             struct span rec, uint64_t offset)
{
	size_t tail = ring_at(r, r->count);
	struct slot *s = &r->slots[tail];
	struct interval *iv = &s->iv;
	pm_status st;

	/* Fields of parts that never come must read as 0, whatever the slot
	 * held before. */
	memset(iv->v, 0, r->pm->lay.nfields * sizeof iv->v[0]);
	st = pm_part_decode(r->pm, h, rec, iv->v);
	if (st != PM_OK && st != PM_E_LONG_PART)
		return st;
	iv->source = source;
	iv->sdate = h->sdate;
	iv->stime = h->stime;
	iv->edate = h->edate;
	iv->etime = h->etime;
	iv->start = start;
	iv->end = end;
	iv->parts = 1u << h->seq;
	iv->offset = offset;
	r->last_values = iv->v;
	s->first_part = r->parts_seen;
	s->part_offset[h->seq] = offset;
	s->file = r->diag->file;
	s->hash = hash;
	s->indexed = true;
	r->index[bucket].slot = (uint32_t)tail;
	r->index[bucket].hash = hash;
	if (++r->count > r->max_pending) {
		if (!r->limit_reported) {
			diag_at(r->diag, PM_E_PENDING_LIMIT, (int64_t)offset,
			        "%zu intervals waiting for parts", r->max_pending);
			r->limit_reported = 1;
		}
		emit_head(r);
	}
	return st;
}

/* Buckets of the index for nslots. */
static size_t
index_size(size_t nslots)
{
	size_t nindex = 1;

	while (nindex < 2 * nslots)
		nindex <<= 1;
	return nindex;
}

uint64_t
reasm_memory(size_t max_pending)
{
	uint64_t nslots = (uint64_t)(max_pending ? max_pending : 1) + 1;
	uint64_t nindex = max_pending > REASM_MAX_PENDING ? 2 * nslots
	                  : index_size((size_t)nslots);

	return nslots * sizeof(struct slot) +
	       nindex * sizeof(struct bucket);
}

struct reasm *
reasm_open(const struct pmint *pm, const struct reasm_opts *o,
           interval_fn emit, void *ctx, struct diag *d, struct tally *t,
           pm_status *st)
{
	struct reasm *r;
	size_t nindex;

	*st = PM_E_PENDING_MEMORY;
	if (o->max_pending > REASM_MAX_PENDING)
		return NULL;
	*st = PM_E_NOMEM;
	r = calloc(1, sizeof *r);
	if (r == NULL)
		return NULL;
	r->pm = pm;
	r->emit = emit;
	r->ctx = ctx;
	r->coverage = o->coverage;
	r->zone = o->zone;
	r->diag = d;
	r->tally = t;
	r->max_pending = o->max_pending ? o->max_pending : 1;
	r->horizon = o->horizon;
	r->all_parts = reasm_all_parts(r);
	r->nslots = r->max_pending + 1;
	nindex = index_size(r->nslots);
	r->index_mask = nindex - 1;
	r->slots = calloc(r->nslots, sizeof *r->slots);
	r->index = calloc(nindex, sizeof *r->index);
	if (r->slots == NULL || r->index == NULL) {
		*st = PM_E_PENDING_MEMORY;
		reasm_close(r);
		return NULL;
	}
	for (size_t i = 0; i < nindex; i++)
		r->index[i].slot = NO_SLOT;
	*st = PM_OK;
	return r;
}

/* The newest waiting interval, when it has the key: the parts of an
 * interval mostly come together, so most parts are found without a hash
 * and a probe. NO_SLOT otherwise. */
static uint32_t
newest(const struct reasm *r, uint32_t source, const struct pm_header *h)
{
	size_t tail;

	if (r->count == 0)
		return NO_SLOT;
	tail = ring_at(r, r->count - 1);
	return same_key(&r->slots[tail].iv, source, h) ? (uint32_t)tail : NO_SLOT;
}

pm_status
reasm_part(struct reasm *r, uint32_t source, const struct pm_header *h,
           int64_t start, int64_t end, struct span rec, uint64_t offset)
{
	uint32_t hash = 0, slot = newest(r, source, h);
	size_t bucket = 0;
	pm_status st;

	if (slot == NO_SLOT) {
		hash = key_hash(source, h);
		slot = index_find(r, hash, source, h, &bucket);
	}
	r->parts_seen++;
	r->last_values = NULL;
	if (slot != NO_SLOT && r->slots[slot].iv.parts == r->all_parts &&
	    has_part(r, &r->slots[slot], h)) {
		/* the next copy of a whole interval takes its key */
		hash = r->slots[slot].hash;
		(void)index_find(r, hash, source, h, &bucket);
		r->slots[slot].indexed = false;
		st = new_interval(r, hash, bucket, source, h, start, end, rec,
		                  offset);
		if (st != PM_OK && st != PM_E_LONG_PART)
			r->slots[slot].indexed = true;
	} else if (slot != NO_SLOT) {
		st = add_part(r, &r->slots[slot], h, rec, offset);
	} else {
		st = new_interval(r, hash, bucket, source, h, start, end, rec,
		                  offset);
	}
	drain(r);
	return st;
}

const uint64_t *
reasm_values(const struct reasm *r)
{
	return r->last_values;
}

unsigned
reasm_all_parts(const struct reasm *r)
{
	return ((1u << (r->pm->nparts + 1)) - 1) & ~1u;
}

void
reasm_finish(struct reasm *r)
{
	while (r->count > 0)
		emit_head(r);
}

void
reasm_close(struct reasm *r)
{
	if (r == NULL)
		return;
	free(r->slots);
	free(r->index);
	free(r);
}
