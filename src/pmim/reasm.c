/* reasm.c: the parts of each interval become one interval. See reasm.h.
 *
 * Pending intervals wait in a ring of slots, in the order their first part
 * arrived, so the ring is also the emission queue: only its head can be
 * emitted. An open-addressing index (linear probing, at most half full)
 * maps the key (source, sdate, stime, edate, etime) to a slot. Both are
 * allocated at open and never grow; opening writes to neither (an empty
 * bucket is all zero, a slot is pointed at its figures when it takes an
 * interval), so that a run of a few intervals, or none, touches only the
 * memory it uses. A part costs one hash and a short probe (neither when
 * it belongs to the newest interval, as most do): its figures are decoded
 * by the PM stage straight into the slot (reasm_place), never copied.
 *
 * The ring has one slot more than max_pending. A new interval goes into
 * that spare slot first, so a damaged first part leaves nothing to undo,
 * and the oldest interval is evicted only once the new one is good.
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
 * entry's home bucket without touching its slot. The number is kept plus
 * one, so that an empty bucket is all zero, as calloc leaves it. */
struct bucket {
	uint32_t slot1;  /* the slot's number + 1; 0: empty */
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

/* What a placed part is: the next part of a waiting interval, a duplicate
 * of one it has, the first of a new interval, or the first of the next
 * copy of a whole one. */
enum placed { PLACED_ADD, PLACED_DUPLICATE, PLACED_NEW, PLACED_COPY };

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
	uint64_t *figures;       /* their figures: nslots x nfields */
	size_t nslots, head, count;
	struct bucket *index;    /* a power of two, at least 2 * nslots */
	size_t index_mask;
	uint64_t parts_seen;
	int limit_reported;
	/* what reasm_place found, for the reasm_part that follows: what the
	 * part is to its slot, so that nothing is asked again */
	enum placed placed;
	struct slot *found;
	uint32_t found_hash;
	size_t found_bucket;
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
key_hash(const struct pm_part *p)
{
	uint64_t x = mix((uint64_t)p->sdate << 32 | p->stime);
	x = mix(x ^ ((uint64_t)p->edate << 32 | p->etime));
	return (uint32_t)mix(x ^ p->source);
}

static int
same_key(const struct interval *iv, const struct pm_part *p)
{
	return iv->stime == p->stime && iv->etime == p->etime &&
	       iv->sdate == p->sdate && iv->edate == p->edate &&
	       iv->source == p->source;
}

/* The slot holding the key, or NO_SLOT; *at is its bucket, or the empty
 * bucket where it would go. */
static uint32_t
index_find(const struct reasm *r, uint32_t hash, const struct pm_part *p,
           size_t *at)
{
	size_t b = hash & r->index_mask;

	for (;; b = (b + 1) & r->index_mask) {
		const struct bucket *e = &r->index[b];
		if (e->slot1 == 0)
			break;
		if (e->hash == hash && same_key(&r->slots[e->slot1 - 1].iv, p))
			break;
	}
	*at = b;
	return r->index[b].slot1 - 1;  /* NO_SLOT for an empty bucket */
}

/* Backward-shift deletion: pull later entries of the cluster back over the
 * hole when their home allows it, so that no tombstone is ever needed and
 * probes stay as short as the load factor makes them. */
static void
index_remove(struct reasm *r, uint32_t slot, uint32_t hash)
{
	size_t mask = r->index_mask, hole = hash & mask;

	while (r->index[hole].slot1 != slot + 1)
		hole = (hole + 1) & mask;
	for (size_t j = (hole + 1) & mask; r->index[j].slot1 != 0;
	     j = (j + 1) & mask) {
		size_t home = r->index[j].hash & mask;
		/* The entry at j may move to the hole unless its home lies
		 * cyclically in (hole, j]. */
		if (((j - home) & mask) >= ((j - hole) & mask)) {
			r->index[hole] = r->index[j];
			hole = j;
		}
	}
	r->index[hole].slot1 = 0;
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

/* Fields of parts that never came must read as 0, whatever the slot held
 * before; cleared when the interval goes out, so that a whole interval,
 * nearly every one, costs no clearing. Only parts' figures are ever
 * written into a slot: the rest stays as calloc left it. */
static void
clear_missing_parts(const struct reasm *r, struct interval *iv)
{
	const struct pmint *pm = r->pm;

	for (unsigned q = 1; q <= pm->nparts; q++)
		if (!(iv->parts & 1u << q))
			memset(iv->v + pm->items_first[q], 0,
			       (pm->items_end[q] - pm->items_first[q]) * sizeof iv->v[0]);
}

/* The head goes out, unless its time is covered already: then the
 * coverage has counted and said it, and no report sees it. */
static void
emit_head(struct reasm *r)
{
	struct slot *s = &r->slots[r->head];
	bool complete = s->iv.parts == r->all_parts;

	if (!complete)
		clear_missing_parts(r, &s->iv);

	if (s->indexed)
		index_remove(r, (uint32_t)r->head, s->hash);
	if (!r->coverage || coverage_admit(r->coverage, &s->iv, complete, s->file)) {
		if (complete) {
			r->tally->intervals_complete++;
		} else {
			r->tally->intervals_incomplete++;
			report_incomplete(r, s);
		}
		/* what is said of it, or kept of it, names its input */
		const char *current = r->diag->file;
		r->diag->file = s->file;
		r->emit(&s->iv, r->ctx);
		r->diag->file = current;
	}
	r->head = ring_at(r, 1);
	/* an empty ring starts again at its first slot, whose figures are
	 * still in the cache: intervals that come whole use one slot */
	if (--r->count == 0)
		r->head = 0;
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
report_duplicate(struct reasm *r, const struct pm_part *p, int64_t start,
                 int64_t end, uint64_t first)
{
	char from[TZONE_TEXT], to[TZONE_TEXT];

	tzone_format(r->zone, start, from);
	tzone_format(r->zone, end, to);
	r->tally->duplicate_parts++;
	diag_at(r->diag, PM_E_DUPLICATE_PART, (int64_t)p->offset,
	        "part %u of interval %s to %s, first copy at offset %llu", p->seq,
	        from, to, (unsigned long long)first);
	return PM_E_DUPLICATE_PART;
}

/* Whether the part is one the interval has already. */
static bool
has_part(const struct reasm *r, const struct slot *s, const struct pm_part *p)
{
	return p->seq <= r->pm->nparts && (s->iv.parts & 1u << p->seq);
}

/* Whether the part's figures were read, so that it can be taken. */
static bool
decoded(const struct pm_part *p)
{
	return p->decoded == PM_OK || p->decoded == PM_E_LONG_PART;
}

/* A part the interval lacks. */
static pm_status
add_part(struct slot *s, const struct pm_part *p)
{
	if (decoded(p)) {
		s->iv.parts |= 1u << p->seq;
		s->part_offset[p->seq] = p->offset;
	}
	return p->decoded;
}

static pm_status
new_interval(struct reasm *r, uint32_t hash, size_t bucket,
             const struct pm_part *p)
{
	size_t tail = ring_at(r, r->count);
	struct slot *s = &r->slots[tail];
	struct interval *iv = &s->iv;

	if (!decoded(p))
		return p->decoded;
	iv->v = r->figures + tail * r->pm->lay.nfields;
	iv->source = p->source;
	iv->sdate = p->sdate;
	iv->stime = p->stime;
	iv->edate = p->edate;
	iv->etime = p->etime;
	iv->start = p->start;
	iv->end = p->end;
	iv->parts = 1u << p->seq;
	iv->offset = p->offset;
	s->first_part = r->parts_seen;
	s->part_offset[p->seq] = p->offset;
	s->file = r->diag->file;
	s->hash = hash;
	s->indexed = true;
	r->index[bucket].slot1 = (uint32_t)tail + 1;
	r->index[bucket].hash = hash;
	if (++r->count > r->max_pending) {
		if (!r->limit_reported) {
			diag_at(r->diag, PM_E_PENDING_LIMIT, (int64_t)p->offset,
			        "%zu intervals waiting for parts", r->max_pending);
			r->limit_reported = 1;
		}
		emit_head(r);
	}
	return p->decoded;
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
reasm_memory(size_t max_pending, size_t nfields)
{
	uint64_t nslots = (uint64_t)(max_pending ? max_pending : 1) + 1;
	uint64_t nindex = max_pending > REASM_MAX_PENDING ? 2 * nslots
	                  : index_size((size_t)nslots);

	return nslots * (sizeof(struct slot) + nfields * sizeof(uint64_t)) +
	       nindex * sizeof(struct bucket);
}

pm_status
reasm_open(struct reasm **out, const struct pmint *pm,
           const struct reasm_opts *o, interval_fn emit, void *ctx,
           struct diag *d, struct tally *t)
{
	struct reasm *r;
	size_t nindex;

	*out = NULL;
	if (o->max_pending > REASM_MAX_PENDING)
		return PM_E_PENDING_MEMORY;
	r = calloc(1, sizeof *r);
	if (r == NULL)
		return PM_E_NOMEM;
	r->pm = pm;
	r->emit = emit;
	r->ctx = ctx;
	r->coverage = o->coverage;
	r->zone = o->zone;
	r->diag = d;
	r->tally = t;
	r->max_pending = o->max_pending ? o->max_pending : 1;
	r->horizon = o->horizon;
	r->all_parts = pmint_all_parts(pm);
	r->nslots = r->max_pending + 1;
	nindex = index_size(r->nslots);
	r->index_mask = nindex - 1;
	r->slots = calloc(r->nslots, sizeof *r->slots);
	r->figures = calloc(r->nslots, pm->lay.nfields * sizeof *r->figures);
	r->index = calloc(nindex, sizeof *r->index);
	if (r->slots == NULL || r->figures == NULL || r->index == NULL) {
		reasm_close(r);
		return PM_E_PENDING_MEMORY;
	}
	*out = r;
	return PM_OK;
}

/* The newest waiting interval, when it has the key: the parts of an
 * interval mostly come together, so most parts are found without a hash
 * and a probe. NO_SLOT otherwise. */
static uint32_t
newest(const struct reasm *r, const struct pm_part *p)
{
	size_t tail;

	if (r->count == 0)
		return NO_SLOT;
	tail = ring_at(r, r->count - 1);
	return same_key(&r->slots[tail].iv, p) ? (uint32_t)tail : NO_SLOT;
}

uint64_t *
reasm_place(struct reasm *r, const struct pm_part *p)
{
	uint32_t slot = newest(r, p);
	struct slot *s;

	r->found_hash = 0;
	r->found_bucket = 0;
	if (slot == NO_SLOT) {
		r->found_hash = key_hash(p);
		slot = index_find(r, r->found_hash, p, &r->found_bucket);
	}
	if (slot == NO_SLOT) {
		r->placed = PLACED_NEW;
	} else {
		r->found = s = &r->slots[slot];
		if (!has_part(r, s, p)) {
			r->placed = PLACED_ADD;
			return s->iv.v;
		}
		if (s->iv.parts != r->all_parts) {
			r->placed = PLACED_DUPLICATE;
			return NULL;
		}
		r->placed = PLACED_COPY;
	}
	/* a new interval, or the next copy of a whole one: the spare slot */
	return r->figures + ring_at(r, r->count) * r->pm->lay.nfields;
}

pm_status
reasm_part(struct reasm *r, const struct pm_part *p)
{
	struct slot *s = r->found;
	uint32_t hash;
	size_t bucket;
	pm_status st;

	r->parts_seen++;
	switch (r->placed) {
	case PLACED_ADD:
		st = add_part(s, p);
		break;
	case PLACED_DUPLICATE:
		st = report_duplicate(r, p, s->iv.start, s->iv.end, s->part_offset[p->seq]);
		break;
	case PLACED_COPY:
		/* the next copy of a whole interval takes its key */
		hash = s->hash;
		(void)index_find(r, hash, p, &bucket);
		s->indexed = false;
		st = new_interval(r, hash, bucket, p);
		if (!decoded(p))
			s->indexed = true;
		break;
	default:
		st = new_interval(r, r->found_hash, r->found_bucket, p);
		break;
	}
	drain(r);
	return st;
}

size_t
reasm_pending(const struct reasm *r)
{
	return r->count;
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
	free(r->figures);
	free(r->index);
	free(r);
}
