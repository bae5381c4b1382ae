/* cook.c: snapshots paired per system into series windows (cook.h). */
#include <stdlib.h>
#include <string.h>

#include "core/fnv.h"
#include "core/grow.h"
#include "winperf/cook.h"

#define TICKS_100NS 10000000u
/* The counter subtype of PERF_PRECISION_* timers (winperf.h
 * PERF_COUNTER_PRECISION): D is the timestamp counter after them. */
#define WP_SUBTYPE_MASK 0x000F0000u
#define WP_PRECISION 0x00070000u

/* What a series needs between snapshots: its last raw sample, and which
 * of its system's snapshots that was; its CounterType as given, its type
 * and the engine's entry of it (a displayed type's: each window is made
 * with it, counter_window_by); and the names its entry shows. A series of the same instance as the one made
 * before it shares that one's instance text (own_instance false), so that
 * a row's counters are told to be of one instance by a pointer. */
struct last {
	struct counter_sample s;
	uint64_t serial;
	uint32_t raw_type;
	enum counter_type type;     /* the series' */
	const struct counter_type_info *ti;
	bool own_instance;
	char *object, *counter, *instance;
};

/* An object of a system's previous snapshot, by its place in the list:
 * its title, its definitions' number (block.h), its instances and the
 * place of its first value. An object of the next snapshot that is all
 * of these has its series where that one's were, once each row's
 * instance is found to be the same. */
struct laid {
	uint32_t title;
	int32_t num_instances;
	uint64_t defs;
	size_t ninstances, at;
};

/* A system's previous snapshot: its clocks, its number (1.., 0 none),
 * the series at each place of its values (series + 1, 0 none): a
 * snapshot of the same layout finds its series there, checked, without
 * the index; and its objects (none until a snapshot was cooked whole). */
struct system {
	uint64_t names;     /* of its previous snapshot (block.h), 0 none */
	int64_t time;
	uint64_t perf_time, time_100ns;
	uint64_t serial;
	uint32_t *at;
	size_t at_cap;
	struct laid *laid;
	size_t nlaid, laid_cap;
};

struct wp_cook {
	struct sources *src;
	const struct wp_names *names;
	series_fn emit;
	void *ctx;
	struct series *cat;         /* the series, by index */
	struct last *last;
	size_t n, cap, lastcap;
	uint32_t *index;            /* open addressing: series + 1, 0 empty */
	size_t index_cap;           /* a power of two, at least 2 n */
	struct system *sys;         /* by source id */
	size_t nsys;
	struct series_value *vals;
	size_t vcap;
	uint64_t resets;
};

pm_status
wp_cook_open(struct wp_cook **out, struct sources *src, const struct wp_names *names,
             series_fn emit, void *ctx)
{
	struct wp_cook *c = calloc(1, sizeof *c);

	if (!c)
		return PM_E_NOMEM;
	*c = (struct wp_cook){ .src = src, .names = names, .emit = emit, .ctx = ctx };
	*out = c;
	return PM_OK;
}

void
wp_cook_close(struct wp_cook *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		free(c->last[i].object);
		free(c->last[i].counter);
		if (c->last[i].own_instance)
			free(c->last[i].instance);
	}
	for (size_t i = 0; i < c->nsys; i++) {
		free(c->sys[i].at);
		free(c->sys[i].laid);
	}
	free(c->cat);
	free(c->last);
	free(c->index);
	free(c->sys);
	free(c->vals);
	free(c);
}

uint64_t
wp_cook_resets(const struct wp_cook *c)
{
	return c->resets;
}

/* What names a series: its system, object, instance and counter. */
struct key {
	uint32_t source, object, counter;
	const char *instance;
};

static uint64_t
hash_key(const struct key *k)
{
	uint64_t h = fnv_step(FNV_OFFSET, k->source);

	h = fnv_step(fnv_step(h, k->object), k->counter);
	return fnv_text(h, k->instance);
}

static bool
same_key(const struct series *s, const struct key *k)
{
	return s->source == k->source && s->object == k->object &&
	       s->counter == k->counter && strcmp(s->instance, k->instance) == 0;
}

/* The index table twice as large, every series put back. */
static bool
rehash(struct wp_cook *c)
{
	size_t cap = c->index_cap ? c->index_cap * 2 : 1024;
	uint32_t *t = calloc(cap, sizeof *t);

	if (!t)
		return false;
	free(c->index);
	c->index = t;
	c->index_cap = cap;
	for (size_t i = 0; i < c->n; i++) {
		const struct series *s = &c->cat[i];
		struct key k = { s->source, s->object, s->counter, s->instance };
		size_t at = (size_t)hash_key(&k) & (cap - 1);
		while (t[at])
			at = (at + 1) & (cap - 1);
		t[at] = (uint32_t)(i + 1);
	}
	return true;
}

/* A new series at table slot at. */
static pm_status
add_series(struct wp_cook *c, const struct key *k, enum counter_type type,
           uint32_t raw_type, size_t at, uint32_t *id)
{
	char buf[12];
	struct series *s;
	struct last *l;
	bool shared;

	if (c->n >= UINT32_MAX - 1 ||
	    !grow_table((void **)&c->cat, &c->cap, c->n + 1, sizeof *c->cat) ||
	    !grow_table((void **)&c->last, &c->lastcap, c->n + 1, sizeof *c->last))
		return PM_E_NOMEM;
	shared = c->n && strcmp(c->last[c->n - 1].instance, k->instance) == 0;
	l = &c->last[c->n];
	*l = (struct last){ .raw_type = raw_type, .type = type, .ti = counter_type_info(type),
	                    .own_instance = !shared,
	                    .object = strdup(wp_name(c->names, k->object, buf)),
	                    .counter = strdup(wp_name(c->names, k->counter, buf)),
	                    .instance = shared ? l[-1].instance : strdup(k->instance) };
	if (!l->object || !l->counter || !l->instance) {
		free(l->object);
		free(l->counter);
		if (!shared)
			free(l->instance);
		return PM_E_NOMEM;
	}
	s = &c->cat[c->n];
	*s = (struct series){ .source = k->source, .object = k->object,
	                      .counter = k->counter, .object_name = l->object,
	                      .counter_name = l->counter, .instance = l->instance,
	                      .type = type };
	c->index[at] = (uint32_t)(c->n + 1);
	*id = (uint32_t)c->n++;
	if (2 * c->n > c->index_cap && !rehash(c))
		return PM_E_NOMEM;
	return PM_OK;
}

/* The series of k, added when new. */
static pm_status
find_series(struct wp_cook *c, const struct key *k, enum counter_type type,
            uint32_t raw_type, uint32_t *id)
{
	size_t at;

	if (!c->index_cap && !rehash(c))
		return PM_E_NOMEM;
	at = (size_t)hash_key(k) & (c->index_cap - 1);
	for (; c->index[at]; at = (at + 1) & (c->index_cap - 1)) {
		uint32_t i = c->index[at] - 1;
		if (same_key(&c->cat[i], k) && c->cat[i].type == type) {
			*id = i;
			return PM_OK;
		}
	}
	return add_series(c, k, type, raw_type, at, id);
}

/* An object's clocks in a snapshot, by time base (counter.h): D and TB
 * of its samples in each; found once for all its values. */
struct clocks {
	uint64_t d[CTB_OBJECT + 1], tb[CTB_OBJECT + 1];
};

static struct clocks
clocks_of(const struct wp_snapshot *s, const struct wp_object *o)
{
	struct clocks k = { { 0 }, { 0 } };

	k.d[CTB_SYSTEM] = s->perf_time, k.tb[CTB_SYSTEM] = s->perf_freq;
	k.d[CTB_100NS] = s->perf_time_100ns, k.tb[CTB_100NS] = TICKS_100NS;
	k.d[CTB_OBJECT] = o->perf_time, k.tb[CTB_OBJECT] = o->perf_freq;
	return k;
}

/* The raw sample of counter k (ct) in the instance row of values v, in
 * the clock of its type's time base. */
static struct counter_sample
sample_of(const struct clocks *clk, const uint64_t *v, size_t k, const struct wp_counter *ct,
          const struct counter_type_info *ti)
{
	uint64_t base = ct->base != WP_NO_BASE ? v[ct->base] : 0;
	struct counter_sample x = { .n = v[k], .d = clk->d[ti->timebase], .b = base,
	                            .tb = clk->tb[ti->timebase] };

	if ((ct->type & WP_SUBTYPE_MASK) == WP_PRECISION)
		x.d = base, x.b = 0;
	return x;
}

/* The state of s's system, grown to hold it, its places for n values. */
static struct system *
system_of(struct wp_cook *c, uint32_t source, size_t n)
{
	struct system *y;
	size_t had;

	if (source >= c->nsys) {
		had = c->nsys;
		if (!grow_table((void **)&c->sys, &c->nsys, (size_t)source + 1, sizeof *c->sys))
			return NULL;
		memset(c->sys + had, 0, (c->nsys - had) * sizeof *c->sys);
	}
	y = &c->sys[source];
	had = y->at_cap;
	if (!grow_table((void **)&y->at, &y->at_cap, n, sizeof *y->at))
		return NULL;
	if (y->at_cap > had)
		memset(y->at + had, 0, (y->at_cap - had) * sizeof *y->at);
	return y;
}

/* Whether the system's clocks went back since its previous snapshot. */
static bool
went_back(const struct system *y, const struct wp_snapshot *s)
{
	return s->time < y->time || s->perf_time < y->perf_time ||
	       s->perf_time_100ns < y->time_100ns;
}

static size_t
values_in(const struct wp_snapshot *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nobjects; i++) {
		const struct wp_object *o = &s->objects[i];
		size_t rows = o->num_instances == WP_NO_INSTANCES ? 1 : o->ninstances;
		n += rows * o->ncounters;
	}
	return n;
}

/* Whether series id is the one of k with CounterType raw, k's instance
 * text being *instance: a pointer the row's first series set. */
static bool
is_series(const struct wp_cook *c, uint32_t id, const struct key *k, uint32_t raw,
          const char **instance)
{
	const struct series *s = &c->cat[id];

	if (s->source != k->source || s->object != k->object || s->counter != k->counter ||
	    c->last[id].raw_type != raw)
		return false;
	if (s->instance == *instance)
		return true;
	if (strcmp(s->instance, k->instance) != 0)
		return false;
	*instance = s->instance;
	return true;
}

/* The value of shown counter ci (ct) of the instance row of values row,
 * series id, into *v; whether there is one (none: no previous sample for
 * a two-sample type). */
static inline __attribute__((always_inline)) bool
cook_value(struct wp_cook *c, const struct wp_snapshot *s, const struct system *y,
           bool back, uint32_t id, const struct clocks *clk, const uint64_t *row,
           size_t ci, const struct wp_counter *ct, struct series_value *v)
{
	struct last *l = &c->last[id];
	const struct counter_type_info *ti = l->ti;
	struct counter_sample x = sample_of(clk, row, ci, ct, ti);
	bool emitted = false;

	/* field by field: the window is the engine's to write */
	v->series = id;
	v->two = ti->two_samples;
	v->reset = false;
	if (!ti->two_samples) {
		(void)counter_window_by(ti, NULL, &x, &v->w);
		emitted = true;
	} else if (y->serial && l->serial == y->serial) {
		if (back)
			v->w = (struct counter_window){ 0 };
		v->reset = back || counter_window_by(ti, &l->s, &x, &v->w) != PM_OK;
		c->resets += v->reset;
		emitted = true;
	}
	v->w.when = (uint64_t)s->time;
	l->s = x;
	l->serial = y->serial + 1;
	return emitted;
}

/* One shown counter ci (ct) of the instance row of values row, at place
 * p of the system's values: its series found, checked against the one at
 * p, then its value or window into *v, and whether there is one. */
static pm_status
cook_counter(struct wp_cook *c, const struct wp_snapshot *s, struct system *y,
             bool back, const struct key *k, const char **instance, size_t p,
             const struct clocks *clk, const uint64_t *row, size_t ci,
             const struct wp_counter *ct, struct series_value *v, bool *emitted)
{
	const struct counter_type_info *ti;
	enum counter_type type;
	uint32_t id = y->at[p] - 1;
	pm_status st;

	*emitted = false;
	if (!y->at[p] || !is_series(c, id, k, ct->type, instance)) {
		type = counter_type_by_value(ct->type);
		ti = counter_type_info(type);
		if (!ti || !ti->displayed)
			return PM_OK;  /* shown, yet no value: not as the walk says */
		if ((st = find_series(c, k, type, ct->type, &id)) != PM_OK)
			return st;
		y->at[p] = id + 1;
	}
	*emitted = cook_value(c, s, y, back, id, clk, row, ci, ct, v);
	return PM_OK;
}

/* Whether object i of snapshot s, its first value at place p, is the
 * system's previous snapshot's object i, with the same definitions. */
static bool
same_object(const struct system *y, size_t had, size_t i, const struct wp_object *o, size_t p)
{
	const struct laid *d;

	if (i >= had || !o->defs)
		return false;
	d = &y->laid[i];
	return d->defs == o->defs && d->title == o->title &&
	       d->num_instances == o->num_instances && d->ninstances == o->ninstances &&
	       d->at == p;
}

/* Whether the row of object o at place p, of the previous snapshot's
 * object there, was of the instance named name: then each of its shown
 * counters has its series at its place. A snapshot named as the system's
 * previous one (their names' number, block.h) has each name where it
 * was: only whether there is a series is looked at. */
static bool
same_row(const struct wp_cook *c, const struct system *y, const struct wp_object *o,
         size_t p, const char *name, bool named_as_before)
{
	for (size_t ci = 0; ci < o->ncounters; ci++)
		if (o->counters[ci].role == WP_SHOWN)
			return y->at[p + ci] &&
			       (named_as_before ||
			        strcmp(c->cat[y->at[p + ci] - 1].instance, name) == 0);
	return true;
}

/* Snapshot s paired with its system's previous one, its frame in *f. */
static pm_status
cook(struct wp_cook *c, const struct wp_snapshot *s, const char *input,
     struct series_frame *f)
{
	struct system *y;
	uint32_t source;
	size_t n = 0, p = 0, places = values_in(s), had;
	bool back, named_as_before;
	pm_status st;

	if ((st = sources_intern(c->src, s->system, strlen(s->system), &source)) != PM_OK)
		return st;
	if (!(y = system_of(c, source, places)) ||
	    !grow_table((void **)&c->vals, &c->vcap, places, sizeof *c->vals) ||
	    !grow_table((void **)&y->laid, &y->laid_cap, s->nobjects, sizeof *y->laid))
		return PM_E_NOMEM;
	had = y->nlaid;
	named_as_before = s->names && s->names == y->names;
	y->nlaid = 0;  /* until this snapshot is cooked whole (names too:
	                  they are looked at only where objects are laid) */
	back = y->serial && went_back(y, s);
	for (size_t i = 0; i < s->nobjects; i++) {
		const struct wp_object *o = &s->objects[i];
		size_t rows = o->num_instances == WP_NO_INSTANCES ? 1 : o->ninstances;
		bool same = same_object(y, had, i, o, p);
		struct clocks clk = clocks_of(s, o);
		y->laid[i] = (struct laid){ o->title, o->num_instances, o->defs, o->ninstances, p };
		for (size_t r = 0; r < rows; r++) {
			struct key k = { source, o->title, 0,
			                 o->ninstances ? o->instances[r].name : "" };
			const uint64_t *row = o->values + r * o->ncounters;
			const char *instance = NULL;
			if (same && same_row(c, y, o, p, k.instance, named_as_before)) {
				/* every series at its place: a loop of its own */
				for (size_t ci = 0; ci < o->ncounters; ci++, p++)
					if (o->counters[ci].role == WP_SHOWN)
						n += cook_value(c, s, y, back, y->at[p] - 1, &clk, row, ci,
						                &o->counters[ci], &c->vals[n]);
				continue;
			}
			for (size_t ci = 0; ci < o->ncounters; ci++, p++) {
				const struct wp_counter *ct = &o->counters[ci];
				bool emitted;
				if (ct->role != WP_SHOWN)
					continue;  /* a base, or a type without a value */
				k.counter = ct->title;
				if ((st = cook_counter(c, s, y, back, &k, &instance, p, &clk, row, ci,
				                       ct, &c->vals[n], &emitted)) != PM_OK)
					return st;
				n += emitted;
			}
		}
	}
	y->nlaid = s->nobjects;
	y->names = s->names;
	*f = (struct series_frame){ .source = source, .input = input,
	                            .start = y->serial ? y->time : s->time, .end = s->time,
	                            .v = c->vals, .n = n, .catalogue = c->cat, .nseries = c->n };
	y->time = s->time;
	y->perf_time = s->perf_time;
	y->time_100ns = s->perf_time_100ns;
	y->serial++;
	return PM_OK;
}

pm_status
wp_cook_add(struct wp_cook *c, const struct wp_snapshot *s, const char *input)
{
	struct series_frame f;
	pm_status st = cook(c, s, input, &f);

	if (st == PM_OK)
		c->emit(&f, c->ctx);
	return st;
}

pm_status
wp_cook_prime(struct wp_cook *c, const struct wp_snapshot *s)
{
	struct series_frame f;
	uint64_t resets = c->resets;
	pm_status st = cook(c, s, NULL, &f);

	/* its windows are the range's before: counted there */
	c->resets = resets;
	return st;
}
