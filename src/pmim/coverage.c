/* coverage.c: the time already covered, per source. See coverage.h. */
#include <stdlib.h>
#include <string.h>

#include "pmim/coverage.h"
#include "pmim/pmtime.h"

struct range {
	int64_t start, end;
	int64_t anchor, step;  /* boundaries anchor + k * step; step 0: none */
	uint64_t on_grid;      /* intervals that kept to the grid */
	uint64_t offset;       /* of its first interval */
	const char *file;      /* its first interval's input; ranges of
	                          different inputs are never merged */
};

/* Repeats of one source, one kind, with no interval admitted between. */
struct run {
	enum coverage_verdict kind;  /* COVER_NEW: no run */
	uint64_t count;
	int64_t start, end;          /* of its first and last repeat */
	uint64_t offset;             /* of its first repeat */
	const char *file;
	struct range covering;       /* the first repeat's, as it was then */
};

struct ranges {
	struct range *r;
	size_t n, cap;
};

/* Complete intervals, whose three parts agree on their time, cover it for
 * every interval; incomplete ones, whose time one damaged record may have
 * made up, only for other incomplete ones. */
enum { BY_COMPLETE, BY_INCOMPLETE };

struct source_cover {
	struct ranges by[2];
	struct run run;
};

struct coverage {
	struct coverage_opts o;
	char **files;           /* the inputs of ranges read from partials */
	size_t nfiles;
	const struct sources *src;
	struct diag *diag;
	struct tally *tally;
	struct source_cover *by_source;
	size_t nsources;
	size_t ranges;          /* over all sources */
	size_t most;            /* the most ranges ever held */
	bool limit_said;
};

pm_status
coverage_open(struct coverage **out, const struct coverage_opts *o,
              const struct sources *src, struct diag *d, struct tally *t)
{
	struct coverage *c = calloc(1, sizeof *c);

	*out = c;
	if (!c)
		return PM_E_NOMEM;
	c->o = *o;
	c->src = src;
	c->diag = d;
	c->tally = t;
	return PM_OK;
}

/* The first range of sc that ends after t: ranges are disjoint and
 * sorted, so their ends are sorted too. */
static size_t
first_ending_after(const struct ranges *sc, int64_t t)
{
	size_t lo = 0, hi = sc->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (sc->r[mid].end > t)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static bool
on_boundary(const struct range *r, int64_t t)
{
	return t == r->start || t == r->end ||
	       (r->step > 0 && (t - r->anchor) % r->step == 0);
}

/* The range [start, end) meets, or NULL. An empty interval meets the
 * range it lies in. */
static const struct range *
meeting(const struct ranges *sc, int64_t start, int64_t end)
{
	size_t i = first_ending_after(sc, start);

	if (i < sc->n && (sc->r[i].start < end ||
	                  (start == end && sc->r[i].start <= start)))
		return &sc->r[i];
	return NULL;
}

/* What [start, end) is to the time complete intervals covered, and, for
 * an incomplete one, to that incomplete ones covered too. */
static enum coverage_verdict
judge(const struct source_cover *sc, bool complete, int64_t start, int64_t end,
      const struct range **met)
{
	const struct range *r = meeting(&sc->by[BY_COMPLETE], start, end);

	if (!r && !complete)
		r = meeting(&sc->by[BY_INCOMPLETE], start, end);
	*met = r;
	if (!r)
		return COVER_NEW;
	if (r->start <= start && end <= r->end && on_boundary(r, start) &&
	    on_boundary(r, end))
		return COVER_DUPLICATE;
	return COVER_OVERLAPPING;
}

enum coverage_verdict
coverage_judge(const struct coverage *c, uint32_t source, bool complete,
               int64_t start, int64_t end)
{
	const struct range *met;

	if (source >= c->nsources)
		return COVER_NEW;
	return judge(&c->by_source[source], complete, start, end, &met);
}

/* An interval [start, end) joins r's grid, or gives it a new one when
 * the grid so far is that of one interval at most (the short first
 * interval of a CV, say); a short last interval keeps the grid. */
static void
join_grid(struct range *r, int64_t start, int64_t end)
{
	int64_t len = end - start;

	if (len > 0 && r->step == len && (start - r->anchor) % len == 0) {
		r->on_grid++;
	} else if (r->on_grid <= 1) {
		r->anchor = start;
		r->step = len;
		r->on_grid = 1;
	}
}

/* Room for one more range in sc, within the limit; said once when not. */
static bool
room(struct coverage *c, struct ranges *sc, uint64_t offset)
{
	const char *why = NULL;

	if (c->ranges >= c->o.max_ranges) {
		why = "ranges";
	} else if (sc->n == sc->cap) {
		size_t cap = sc->cap ? 2 * sc->cap : 4;
		struct range *r = realloc(sc->r, cap * sizeof *r);
		if (r) {
			sc->r = r;
			sc->cap = cap;
		} else {
			why = "ranges, as many as memory allowed";
		}
	}
	if (!why)
		return true;
	if (!c->limit_said)
		diag_at(c->diag, PM_E_COVERAGE_LIMIT, (int64_t)offset, "%zu %s",
		        c->ranges, why);
	c->limit_said = true;
	return false;
}

/* Add [start, end), which meets no range of sc, merging it with the
 * ranges of the same input it touches. */
static void
cover(struct coverage *c, struct ranges *sc, int64_t start, int64_t end,
      uint64_t offset, const char *file)
{
	size_t i = first_ending_after(sc, start);
	struct range *left = i > 0 && sc->r[i - 1].end == start &&
	                     sc->r[i - 1].file == file ? &sc->r[i - 1] : NULL;
	struct range *right = i < sc->n && sc->r[i].start == end &&
	                      sc->r[i].file == file ? &sc->r[i] : NULL;

	if (left && right) {
		join_grid(left, start, end);
		if (right->on_grid > left->on_grid) {
			left->anchor = right->anchor;
			left->step = right->step;
			left->on_grid = right->on_grid;
		}
		left->end = right->end;
		memmove(right, right + 1, (sc->n - i - 1) * sizeof *right);
		sc->n--;
		c->ranges--;
	} else if (left) {
		left->end = end;
		join_grid(left, start, end);
	} else if (right) {
		right->start = start;
		right->offset = offset;
		join_grid(right, start, end);
	} else if (room(c, sc, offset)) {
		memmove(sc->r + i + 1, sc->r + i, (sc->n - i) * sizeof *sc->r);
		sc->r[i] = (struct range){ start, end, start, end - start, 1, offset, file };
		sc->n++;
		if (++c->ranges > c->most)
			c->most = c->ranges;
	}
}

/* The message of a run; see coverage.h. A run from a whole hour to at
 * most the next one, in the weeks of the autumn clock changes (Europe:
 * the last Sunday of October; North America: the first of November), may
 * be the hour a local clock repeated, when no --timezone says so (the
 * run may be shorter: the interval that ends when the clock went back
 * ends before it starts, and is damaged). */
static void
say_run(struct coverage *c, uint32_t source, const struct run *run)
{
	const char *current = c->diag->file;
	char from[TZONE_TEXT], to[TZONE_TEXT];
	int year;
	unsigned month, day, h, m, s;
	bool autumn_hour = false;

	tzone_format(c->o.zone, run->start, from);
	tzone_format(c->o.zone, run->end, to);
	if (!c->o.zone && run->end - run->start <= 3600 * PM_UNITS_PER_SECOND) {
		pmtime_civil(run->start, &year, &month, &day, &h, &m, &s);
		autumn_hour = ((month == 10 && day >= 25) || (month == 11 && day <= 7)) &&
		              m == 0 && s == 0;
	}
	c->diag->file = run->file;
	diag_at(c->diag, run->kind == COVER_DUPLICATE ? PM_E_DUPLICATE_INTERVAL
	                                              : PM_E_OVERLAP_INTERVAL,
	        (int64_t)run->offset,
	        "%llu interval%s of %s from %s to %s; first copy among the "
	        "intervals of %s from offset %llu%s",
	        (unsigned long long)run->count, run->count == 1 ? "" : "s",
	        sources_name(c->src, source), from, to,
	        run->covering.file ? run->covering.file : "(stdin)",
	        (unsigned long long)run->covering.offset,
	        autumn_hour ? "; an hour repeated when clocks go back: the times "
	                      "may be local (see --timezone)" : "");
	c->diag->file = current;
}

static void
end_run(struct coverage *c, uint32_t source)
{
	struct run *run = &c->by_source[source].run;

	if (run->kind != COVER_NEW)
		say_run(c, source, run);
	run->kind = COVER_NEW;
}

static void
add_to_run(struct coverage *c, uint32_t source, enum coverage_verdict kind,
           const struct interval *iv, const char *file, const struct range *met)
{
	struct run *run = &c->by_source[source].run;

	if (run->kind != kind) {
		end_run(c, source);
		*run = (struct run){ kind, 0, iv->start, iv->end, iv->offset, file,
		                     *met };
	}
	run->count++;
	run->end = iv->end;
	if (kind == COVER_DUPLICATE)
		c->tally->intervals_duplicate++;
	else
		c->tally->intervals_overlapping++;
}

/* The covers grown to hold source's; false when there is no memory for
 * it (said once). */
static bool
grow_sources(struct coverage *c, uint32_t source, uint64_t offset)
{
	size_t n = c->nsources ? 2 * c->nsources : 16;
	struct source_cover *s;

	while (n <= source)
		n *= 2;
	if (!(s = realloc(c->by_source, n * sizeof *s))) {
		if (!c->limit_said)
			diag_at(c->diag, PM_E_COVERAGE_LIMIT, (int64_t)offset,
			        "no memory for the time of source %u", source);
		c->limit_said = true;
		return false;
	}
	memset(s + c->nsources, 0, (n - c->nsources) * sizeof *s);
	c->by_source = s;
	c->nsources = n;
	return true;
}

/* The cover of source, NULL when there is no memory for it (said once). */
static inline struct source_cover *
source_cover(struct coverage *c, uint32_t source, uint64_t offset)
{
	if (source >= c->nsources && !grow_sources(c, source, offset))
		return NULL;
	return &c->by_source[source];
}

bool
coverage_admit(struct coverage *c, const struct interval *iv, bool complete,
               const char *file)
{
	struct source_cover *sc = source_cover(c, iv->source, iv->offset);
	const struct range *met;
	enum coverage_verdict v;

	if (!sc)
		return true;
	/* The usual interval: complete, no repeats before it, just after the
	 * last range of its input. It meets none, and that range takes it in
	 * (as judge and cover would find). */
	if (complete && sc->run.kind == COVER_NEW && sc->by[BY_COMPLETE].n > 0) {
		struct range *last = &sc->by[BY_COMPLETE].r[sc->by[BY_COMPLETE].n - 1];
		if (last->end == iv->start && last->file == file) {
			last->end = iv->end;
			join_grid(last, iv->start, iv->end);
			return true;
		}
	}
	v = judge(sc, complete, iv->start, iv->end, &met);
	if (v != COVER_NEW) {
		add_to_run(c, iv->source, v, iv, file, met);
		return false;
	}
	end_run(c, iv->source);
	cover(c, &sc->by[complete ? BY_COMPLETE : BY_INCOMPLETE], iv->start,
	      iv->end, iv->offset, file);
	return true;
}

bool
coverage_unsaid(const struct coverage *c)
{
	for (size_t s = 0; s < c->nsources; s++)
		if (c->by_source[s].run.kind != COVER_NEW)
			return true;
	return false;
}

size_t
coverage_ranges(const struct coverage *c, size_t *most)
{
	*most = c->most;
	return c->ranges;
}

bool
coverage_span(const struct coverage *c, uint32_t source, int64_t *start, int64_t *end)
{
	bool any = false;

	if (source >= c->nsources)
		return false;
	for (int k = BY_COMPLETE; k <= BY_INCOMPLETE; k++) {
		const struct ranges *rs = &c->by_source[source].by[k];
		if (rs->n == 0)
			continue;
		if (!any || rs->r[0].start < *start)
			*start = rs->r[0].start;
		if (!any || rs->r[rs->n - 1].end > *end)
			*end = rs->r[rs->n - 1].end;
		any = true;
	}
	return any;
}

void
coverage_finish(struct coverage *c)
{
	for (size_t s = 0; s < c->nsources; s++)
		end_run(c, (uint32_t)s);
}

void
coverage_close(struct coverage *c)
{
	if (!c)
		return;
	for (size_t s = 0; s < c->nsources; s++) {
		free(c->by_source[s].by[BY_COMPLETE].r);
		free(c->by_source[s].by[BY_INCOMPLETE].r);
	}
	free(c->by_source);
	for (size_t i = 0; i < c->nfiles; i++)
		free(c->files[i]);
	free(c->files);
	free(c);
}

/* ---------------------------------------------------------------------- */
/* Partials */

static const char cover_tag[4] = { 'C', 'O', 'V', 'R' };

void
coverage_export(const struct coverage *c, struct pwriter *w)
{
	size_t n = 0;

	for (size_t s = 0; s < c->nsources; s++)
		n += c->by_source[s].by[BY_COMPLETE].n + c->by_source[s].by[BY_INCOMPLETE].n;
	pw_section(w, cover_tag);
	pw_uint(w, 8, n);
	for (size_t s = 0; s < c->nsources; s++)
		for (int k = BY_COMPLETE; k <= BY_INCOMPLETE; k++)
			for (size_t i = 0; i < c->by_source[s].by[k].n; i++) {
				const struct range *r = &c->by_source[s].by[k].r[i];
				pw_text(w, sources_name(c->src, (uint32_t)s));
				pw_uint(w, 1, k == BY_COMPLETE);
				pw_i64(w, r->start);
				pw_i64(w, r->end);
				pw_i64(w, r->anchor);
				pw_i64(w, r->step);
				pw_uint(w, 8, r->on_grid);
				pw_uint(w, 8, r->offset);
				pw_text(w, r->file ? r->file : "-");
			}
	pw_end_section(w);
}

/* A lasting copy of an input's name, for the ranges that name it. */
static const char *
file_name(struct coverage *c, const char *name)
{
	char **more;
	size_t n = strlen(name) + 1;

	for (size_t i = 0; i < c->nfiles; i++)
		if (strcmp(c->files[i], name) == 0)
			return c->files[i];
	if (!(more = realloc(c->files, (c->nfiles + 1) * sizeof *more)))
		return NULL;
	c->files = more;
	if (!(more[c->nfiles] = malloc(n)))
		return NULL;
	memcpy(more[c->nfiles], name, n);
	return c->files[c->nfiles++];
}

/* One range of a partial: said when it meets time covered already (its
 * intervals are in the merge twice), else covered. */
static void
import_range(struct coverage *c, uint32_t source, bool complete, const struct range *in,
             const char *partial)
{
	struct source_cover *sc = source_cover(c, source, in->offset);
	const struct range *met;
	char from[TZONE_TEXT], to[TZONE_TEXT];
	enum coverage_verdict v;

	if (!sc)
		return;
	v = judge(sc, complete, in->start, in->end, &met);
	if (v == COVER_NEW) {
		/* as it was, grid and all: it meets no range */
		struct ranges *rs = &sc->by[complete ? BY_COMPLETE : BY_INCOMPLETE];
		size_t i = first_ending_after(rs, in->start);
		if (room(c, rs, in->offset)) {
			memmove(rs->r + i + 1, rs->r + i, (rs->n - i) * sizeof *rs->r);
			rs->r[i] = *in;
			rs->n++;
			c->ranges++;
		}
		return;
	}
	tzone_format(c->o.zone, in->start, from);
	tzone_format(c->o.zone, in->end, to);
	diag_at(c->diag, PM_E_PARTIAL_OVERLAP,
	        DIAG_NO_OFFSET, "%s: %s intervals of %s from %s to %s, from %s at offset "
	        "%llu, %s time already merged from %s at offset %llu: counted twice",
	        partial, v == COVER_DUPLICATE ? "repeated" : "overlapping",
	        sources_name(c->src, source), from, to, in->file,
	        (unsigned long long)in->offset, v == COVER_DUPLICATE ? "repeat" : "overlap",
	        met->file ? met->file : "(stdin)",
	        (unsigned long long)met->offset);
}

pm_status
coverage_import(struct coverage *c, const struct partial *p, struct sources *src,
                const char *partial, char *err, size_t cap)
{
	char name[SOURCE_NAME_MAX], file[4096];
	struct span s;
	struct pcursor k;
	uint64_t n;
	uint32_t source;
	pm_status st;

	if (!partial_section(p, cover_tag, &s)) {
		snprintf(err, cap, "it has no time covered");
		return PM_E_PARTIAL;
	}
	k = pc_make(s);
	n = pc_uint(&k, 8);
	for (uint64_t i = 0; i < n && !k.bad; i++) {
		struct range r;
		bool complete;
		pc_text(&k, name, sizeof name);
		complete = pc_uint(&k, 1) != 0;
		r.start = pc_i64(&k);
		r.end = pc_i64(&k);
		r.anchor = pc_i64(&k);
		r.step = pc_i64(&k);
		r.on_grid = pc_uint(&k, 8);
		r.offset = pc_uint(&k, 8);
		pc_text(&k, file, sizeof file);
		if (k.bad || r.end < r.start || r.step < 0)
			break;
		if ((st = sources_intern(src, name, strlen(name), &source)) != PM_OK)
			return st;
		if (!(r.file = file_name(c, file)))
			return PM_E_NOMEM;
		import_range(c, source, complete, &r, partial);
	}
	if (!pc_done(&k)) {
		snprintf(err, cap, "its time covered is not whole");
		return PM_E_PARTIAL;
	}
	return PM_OK;
}
