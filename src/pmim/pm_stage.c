/* pm_stage.c: the PM stage. See pm_stage.h. */
#include <stdio.h>

#include "pmim/pm_stage.h"
#include "pmim/pmtime.h"

static void
damaged(struct pm_stage *s, pm_status st, uint64_t offset, size_t bytes,
        const char *detail)
{
	s->tally->damaged += bytes;
	s->tally->damaged_records++;
	diag_at(s->diag, st, (int64_t)offset, detail ? "%s" : NULL, detail);
}

/* An interval record lasting longer than --max-interval (a year digit
 * damaged into another plausible year, say): no interval is that long.
 * Its bytes are damaged and the record is left out. */
static void
too_long(struct pm_stage *s, uint64_t offset, size_t bytes, int64_t length)
{
	char detail[80];
	int n = snprintf(detail, sizeof detail, "%lld",
	                 (long long)(length / PM_UNITS_PER_SECOND));

	if (length % PM_UNITS_PER_SECOND)
		n += snprintf(detail + n, sizeof detail - (size_t)n, ".%04lld",
		              (long long)(length % PM_UNITS_PER_SECOND));
	snprintf(detail + n, sizeof detail - (size_t)n, " s; at most %lld s",
	         (long long)(s->max_interval / PM_UNITS_PER_SECOND));
	s->tally->intervals_too_long++;
	damaged(s, PM_E_INTERVAL_TOO_LONG, offset, bytes, detail);
}

/* Figures that contradict each other: the highest wait above the sum, wait
 * time with no waits, an average above the highest (sum > highest x
 * count). Not the interval's length: the sum adds up tasks that wait at
 * once, and a wait that began in an earlier interval is counted in the one
 * it ends in. Kept as they are, but said; true when any bucket was. */
static bool
check_buckets(struct pm_stage *s, unsigned part, const uint64_t *v,
              uint64_t offset)
{
	const struct pmint *pm = s->pm;
	bool said = false;

	for (size_t i = 0, n = pm->nbuckets[part]; i < n; i++) {
		const struct pm_bucket_fields *bf = &pm->buckets[part][i];
		uint64_t sum = v[bf->sum], high = v[bf->high], count = v[bf->count];
		const struct cb_bucket *b;

		if (!pmint_bucket_suspect(sum, high, count))
			continue;
		said = true;
		b = &pm->lay.buckets[bf->bucket];
		if (high > sum)
			diag_at(s->diag, PM_E_IMPLAUSIBLE, (int64_t)offset,
			        "%s: highest wait %llu exceeds the sum %llu (10**-4 s)",
			        b->label, (unsigned long long)high,
			        (unsigned long long)sum);
		else if (count == 0)
			diag_at(s->diag, PM_E_IMPLAUSIBLE, (int64_t)offset,
			        "%s: wait time %llu with no waits (10**-4 s)", b->label,
			        (unsigned long long)sum);
		else
			diag_at(s->diag, PM_E_IMPLAUSIBLE, (int64_t)offset,
			        "%s: %llu waits of %llu in all, highest %llu, more than "
			        "the highest on average (10**-4 s)", b->label,
			        (unsigned long long)count, (unsigned long long)sum,
			        (unsigned long long)high);
	}
	return said;
}

void
pm_stage_new_input(struct pm_stage *s)
{
	for (size_t i = 0; i < s->nsources; i++)
		s->last_start[i] = INT64_MIN;
	s->last_good = false;
}

/* Local times to UTC by the zone's rules. In an hour the clock repeated,
 * the stream tells the copies apart: a start is the first copy not before
 * the start of the source's last part in this input, else the later copy;
 * an end is the first copy not before its start. */
static void
to_utc(struct pm_stage *s, uint32_t source, int64_t *start, int64_t *end)
{
	int64_t *last = source < s->nsources ? &s->last_start[source] : NULL;
	int64_t c[2];
	unsigned n = tzone_to_utc(s->zone, *start, c);

	*start = c[0] >= (last ? *last : INT64_MIN) ? c[0] : c[n - 1];
	n = tzone_to_utc(s->zone, *end, c);
	*end = c[0] >= *start ? c[0] : c[n - 1];
	if (last)
		*last = *start;
}

/* The part's stamps from its dates, in UTC with a zone; false, the record
 * damaged, when they cannot be an interval's. */
static bool
part_times(struct pm_stage *s, struct pm_part *p, size_t bytes)
{
	pm_status st;

	if ((st = pmtime_stamp_cached(&s->dates, p->sdate, p->stime, PM_UNITS_PER_SECOND,
	                              &p->start)) != PM_OK) {
		damaged(s, st, p->offset, bytes, "interval start");
		return false;
	}
	if ((st = pmtime_stamp_cached(&s->dates, p->edate, p->etime, PM_UNITS_PER_SECOND,
	                              &p->end)) != PM_OK) {
		damaged(s, st, p->offset, bytes, "interval end");
		return false;
	}
	if (s->zone)
		to_utc(s, p->source, &p->start, &p->end);
	if (p->end < p->start) {
		damaged(s, PM_E_END_BEFORE_START, p->offset, bytes, NULL);
		return false;
	}
	if (p->end - p->start > s->max_interval) {
		too_long(s, p->offset, bytes, p->end - p->start);
		return false;
	}
	return true;
}

/* Whether the part's times are those of the last part whose times were
 * read, and good: the parts of an interval mostly come together, and its
 * key's stamps are the same again (to_utc's too: the start it leaves as
 * its source's last is the one it finds again). */
static bool
same_times(const struct pm_stage *s, const struct pm_part *p)
{
	const struct pm_part *l = &s->last;

	return s->last_good && l->stime == p->stime && l->etime == p->etime &&
	       l->sdate == p->sdate && l->edate == p->edate && l->source == p->source;
}

/* An interval record whose header h was read: its part decoded once
 * where reassembly keeps its figures and handed to it, then checked. The
 * checks come after reassembly has taken it so that messages keep their
 * order, and a duplicate part, dropped there, is neither decoded nor
 * checked. */
static void
interval_part(struct pm_stage *s, struct span rec, const struct pm_header *h,
              uint32_t source, uint64_t offset)
{
	const struct pmint *pm = s->pm;
	struct pm_part p = { source, h->sdate, h->stime, h->edate, h->etime, 0, 0,
	                     h->seq, PM_OK, offset };
	bool suspect = false;
	uint64_t *v;
	pm_status st;

	if (h->seq == 0 || h->seq > pm->nparts) {
		damaged(s, PM_E_BAD_SEQUENCE, offset, rec.len, NULL);
		return;
	}
	if (same_times(s, &p)) {
		p.start = s->last.start;
		p.end = s->last.end;
	} else if ((s->last_good = part_times(s, &p, rec.len))) {
		s->last = p;
	} else {
		return;
	}
	if ((v = reasm_place(s->reasm, &p)) != NULL) {
		/* a suspect part's figures are read for check_buckets */
		if (s->figures_unread)
			p.decoded = pmint_part_check(pm, h, rec, &suspect);
		if (!s->figures_unread || suspect)
			p.decoded = pmint_part_decode(pm, h, rec, v, &suspect);
	}
	st = reasm_part(s->reasm, &p);
	if (st == PM_E_SHORT_PART) {
		damaged(s, st, offset, rec.len, NULL);
		return;
	}
	s->tally->used += rec.len;
	if (st == PM_E_LONG_PART)
		diag_at(s->diag, st, (int64_t)offset, "part %u is %zu bytes", h->seq, rec.len);
	if (h->version != pm->current_version)
		diag_at(s->diag, PM_E_UNKNOWN_VERSION, (int64_t)offset, "version %u", h->version);
	if (suspect && check_buckets(s, h->seq, v, offset))
		s->tally->implausible++;
}

/* One PM record whose header was read once: its length and type, the
 * rest of it when full. Counted, then skipped or taken as an interval
 * part. Inline, for every PM record passes here. */
static inline void
dispatch(struct pm_stage *s, struct span rec, const struct pm_header *h,
         bool full, uint32_t source, uint64_t offset)
{
	s->tally->records[KIND_PM][h->type & 0xff]++;
	s->tally->bytes[KIND_PM][h->type & 0xff] += rec.len;
	if (h->type != s->pm->interval_type) {
		s->tally->skipped += rec.len;
		return;
	}
	if (!full) {
		damaged(s, PM_E_SHORT_PART, offset, rec.len, "shorter than the interval header");
		return;
	}
	interval_part(s, rec, h, source, offset);
}

void
pm_stage_record(struct pm_stage *s, struct span rec, uint32_t source,
                uint64_t offset)
{
	struct pm_header h;
	bool full;

	if (pmint_header_at(s->pm, rec, &h, &full) != PM_OK) {
		damaged(s, PM_E_PM_LENGTH, offset, rec.len, "record too short for a PM header");
		return;
	}
	dispatch(s, rec, &h, full, source, offset);
}

void
pm_stage_peeked(struct pm_stage *s, struct span rec, const struct pm_peeked *k,
                uint32_t source, uint64_t offset)
{
	if (k->at == rec.p)
		dispatch(s, rec, &k->h, true, source, offset);
	else
		pm_stage_record(s, rec, source, offset);
}

size_t
pm_stage_chain(struct pm_stage *s, struct span buf, uint32_t source,
               uint64_t offset)
{
	size_t pos = 0, min_len = pmint_min_len(s->pm);

	while (pos < buf.len) {
		struct span rest = span_sub(buf, pos, buf.len - pos);
		struct pm_header h;
		bool full;

		if (pmint_header_at(s->pm, rest, &h, &full) != PM_OK || h.length < min_len ||
		    h.length > rest.len) {
			damaged(s, PM_E_PM_LENGTH, offset + pos, rest.len,
			        "rest of the record skipped");
			return buf.len;
		}
		dispatch(s, span_sub(rest, 0, h.length), &h, full, source, offset + pos);
		pos += h.length;
	}
	return pos;
}
