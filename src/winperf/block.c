/* block.c: the bounds-checked walk of one PERF_DATA_BLOCK. See block.h.
 * The walk is .NET's (COUNTERS.md §3): each structure is found by the
 * lengths and offsets of the one before it, read field by field through
 * the little-endian getters, and checked by validate.c before anything it
 * gives is followed. Tables only grow, so a run of similar blocks
 * allocates nothing after the first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fnv.h"
#include "core/grow.h"
#include "core/ebcdic.h"
#include "core/fmtnum.h"
#include "engine/counter.h"
#include "pmim/pmtime.h"
#include "winperf/block.h"
#include "winperf/memo.h"
#include "winperf/utf16.h"
#include "winperf/validate.h"

#define MAX_CODEPAGES 8

const uint8_t wp_signature[8] = { 'P', 0, 'E', 0, 'R', 0, 'F', 0 };

/* Where an object's parts start in the walker's tables. */
struct object_at {
	size_t counter, instance, value;
};

struct codepage {
	uint32_t number;
	struct conv *cv;   /* NULL: iconv lacks it */
};

/* A name converted before: its code page (0: UTF-16LE), where its raw
 * bytes are in the known names' bytes, their text after them. */
struct known {
	uint64_t hash;
	uint32_t codepage;
	size_t at, raw_len, text_len;
};

/* An object's counter definitions as a walk decoded them: its title,
 * their count, where they start and the object's length they were
 * checked against, their bytes, what they gave. An object of that title
 * whose definitions have the same bytes, in at least as many bytes of its
 * own (the rules compare lengths with what is left of the object), gives
 * the same again. */
struct known_defs {
	bool set;
	uint64_t number;     /* what the objects it gives are numbered */
	uint32_t title, num_counters;
	size_t header_length, checked_len, len;
	uint8_t *bytes;
	size_t bytes_cap;
	struct wp_counter *counters;
	size_t counters_cap;
	uint64_t nodata, unknown;
	uint64_t extent;     /* values_extent of the counters */
};

/* Objects' definitions known, by a hash of title and count; and the
 * bytes of definitions at most that are kept (real objects have a few
 * kilobytes). */
#define KNOWN_DEFS 64
#define KNOWN_DEFS_MAX_BYTES ((size_t)64 << 10)

/* The known names' bytes at most: past it they are forgotten and learnt
 * again, so that names that never repeat (a process id in each) cost a
 * bounded table. */
#define KNOWN_MAX_BYTES ((size_t)1 << 20)

struct wp_walker {
	struct wp_snapshot snap;
	struct wp_object *objects;
	struct object_at *at;
	size_t objects_cap, at_cap;
	struct wp_counter *counters;
	size_t ncounters, counters_cap;
	struct wp_instance *instances;
	struct name_at *names;
	size_t ninstances, instances_cap, names_cap;
	uint64_t *values;
	size_t nvalues, values_cap;
	char *text;
	size_t ntext, text_cap;
	size_t system_at;
	size_t block_len;    /* of the block being walked */
	bool text_limit;     /* the names went past TEXT_PER_BLOCK_BYTE */
	uint32_t *slots;     /* names of an object hashed: instance + 1, 0 free */
	size_t slots_cap;
	struct codepage codepages[MAX_CODEPAGES];
	size_t ncodepages;
	/* names converted before, found by their raw bytes: the instances of
	 * one snapshot are mostly those of the one before */
	struct known *known;
	size_t nknown, known_cap;
	uint8_t *known_bytes;
	size_t nknown_bytes, known_bytes_cap;
	uint32_t *known_slots;  /* known + 1, 0 free; a power of two */
	size_t known_slots_cap;
	size_t known_next;      /* the name after the one last found, tried
	                           before the hash: snapshots name theirs in
	                           one order */
	struct known_defs defs[KNOWN_DEFS];
	uint64_t ndefs;      /* definitions numbered so far */
	/* what each instance's names are made from; the memo of the
	 * snapshot's system while every object and instance so far is as
	 * there (their raw names not yet made) */
	struct memo_source *sources;
	size_t sources_cap;
	struct wp_memos memos;
	const struct wp_memo *memo;
};


pm_status
wp_walker_open(struct wp_walker **out)
{
	struct wp_walker *w = calloc(1, sizeof *w);

	*out = NULL;
	/* no table is ever NULL: the snapshot points into each, an empty one
	 * too */
	if (!w || !grow_table((void **)&w->objects, &w->objects_cap, 1, sizeof *w->objects) ||
	    !grow_table((void **)&w->at, &w->at_cap, 1, sizeof *w->at) ||
	    !grow_table((void **)&w->counters, &w->counters_cap, 1, sizeof *w->counters) ||
	    !grow_table((void **)&w->instances, &w->instances_cap, 1, sizeof *w->instances) ||
	    !grow_table((void **)&w->names, &w->names_cap, 1, sizeof *w->names) ||
	    !grow_table((void **)&w->values, &w->values_cap, 1, sizeof *w->values) ||
	    !grow_table((void **)&w->text, &w->text_cap, 1, 1)) {
		wp_walker_close(w);
		return PM_E_NOMEM;
	}
	*out = w;
	return PM_OK;
}

void
wp_walker_close(struct wp_walker *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->ncodepages; i++)
		if (w->codepages[i].cv)
			conv_close(w->codepages[i].cv);
	free(w->objects);
	free(w->at);
	free(w->counters);
	free(w->instances);
	free(w->names);
	free(w->values);
	free(w->text);
	free(w->slots);
	free(w->known);
	free(w->known_bytes);
	free(w->known_slots);
	free(w->sources);
	memo_free(&w->memos);
	for (size_t i = 0; i < KNOWN_DEFS; i++) {
		free(w->defs[i].bytes);
		free(w->defs[i].counters);
	}
	free(w);
}

static bool
read_pdb(struct span b, struct wp_pdb_head *h)
{
	bool ok = le_u32(b, 8, &h->little_endian) && le_u32(b, 12, &h->version) &&
	          le_u32(b, 16, &h->revision) && le_u32(b, 20, &h->total_length) &&
	          le_u32(b, 24, &h->header_length) && le_u32(b, 28, &h->num_objects) &&
	          le_u64(b, 56, &h->perf_time) && le_u64(b, 64, &h->perf_freq) &&
	          le_u64(b, 72, &h->perf_time_100ns) && le_u32(b, 80, &h->name_length) &&
	          le_u32(b, 84, &h->name_offset);
	for (size_t i = 0; ok && i < 8; i++)
		ok = le_u16(b, 36 + 2 * i, &h->time[i]);
	return ok && memcmp(b.p, wp_signature, sizeof wp_signature) == 0;
}

bool
wp_plausible(struct span s)
{
	uint32_t total;
	struct span system;

	return wp_head(s, &total, &system);
}

bool
wp_head(struct span s, uint32_t *total, struct span *system)
{
	struct wp_pdb_head h;

	if (!read_pdb(s, &h) || h.little_endian != 1 || h.total_length < WP_PDB_MIN ||
	    h.header_length < WP_PDB_MIN || h.header_length > h.total_length)
		return false;
	*total = h.total_length;
	*system = span_sub(span_make(s.p, s.len < h.total_length ? s.len : h.total_length),
	                   h.name_offset, h.name_length);
	return true;
}

/* SYSTEMTIME (year, month, weekday, day, hour, minute, second, ms) as a
 * stamp; false when it is no time. */
static bool
system_time(const uint16_t t[8], int64_t *stamp)
{
	static const uint8_t mdays[12] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	if (t[0] < 1601 || t[0] > 30827 || t[1] < 1 || t[1] > 12 || t[3] < 1 ||
	    t[3] > mdays[t[1] - 1] || t[4] > 23 || t[5] > 59 || t[6] > 59 || t[7] > 999)
		return false;
	*stamp = (((pmtime_days_from_civil(t[0], t[1], t[3]) * 24 + t[4]) * 60 + t[5]) * 60 + t[6]) *
	         PM_UNITS_PER_SECOND + t[7] * (PM_UNITS_PER_SECOND / 1000);
	return true;
}

/* Names as UTF-8, parents' names joined in, may take this many times
 * the block's bytes at most: a block whose children all name one long
 * parent must not ask for memory without bound. */
#define TEXT_PER_BLOCK_BYTE 8
#define TEXT_LIMIT_RULE "names: UTF-8 names, parents joined, <= 8 x TotalByteLength"

/* Room for n more bytes of text. */
static bool
text_room(struct wp_walker *w, size_t n)
{
	if (n > w->block_len * TEXT_PER_BLOCK_BYTE + 4096 - w->ntext) {
		w->text_limit = true;
		return false;
	}
	return grow_table((void **)&w->text, &w->text_cap, w->ntext + n, 1);
}

static bool
text_utf16(struct wp_walker *w, struct span s, size_t *at)
{
	if (!text_room(w, WP_UTF8_CAP(s.len)))
		return false;
	*at = w->ntext;
	w->ntext += wp_utf16_to_utf8(s, w->text + w->ntext, WP_UTF8_CAP(s.len)) + 1;
	return true;
}

/* The converter of a code page, opened once per run. */
static struct conv *
codepage_conv(struct wp_walker *w, uint32_t number)
{
	char name[16];

	for (size_t i = 0; i < w->ncodepages; i++)
		if (w->codepages[i].number == number)
			return w->codepages[i].cv;
	if (w->ncodepages == MAX_CODEPAGES)
		return NULL;
	snprintf(name, sizeof name, "CP%u", (unsigned)number);
	w->codepages[w->ncodepages].number = number;
	if (conv_open(&w->codepages[w->ncodepages].cv, name, "UTF-8") != PM_OK)
		w->codepages[w->ncodepages].cv = NULL;
	return w->codepages[w->ncodepages++].cv;
}

/* A name in a code page: converted, or its ASCII bytes with the others
 * as '?' where iconv lacks the code page. */
static bool
text_codepage(struct wp_walker *w, uint32_t number, struct span s, size_t *at)
{
	struct conv *cv = codepage_conv(w, number);
	size_t cap = s.len * 4 + 1, n = 0;

	if (!text_room(w, cap))
		return false;
	*at = w->ntext;
	if (cv) {
		n = conv_text(cv, s.p, strnlen((const char *)s.p, s.len), w->text + *at, cap);
	} else {
		for (; n < s.len && s.p[n]; n++)
			w->text[*at + n] = s.p[n] < 0x80 ? (char)s.p[n] : '?';
	}
	w->text[*at + n] = '\0';
	w->ntext += n + 1;
	return true;
}

static uint64_t
hash_raw(uint32_t codepage, struct span s)
{
	return fnv_bytes(fnv_step(fnv_step(FNV_OFFSET, codepage), s.len), s.p, s.len);
}

/* The slot of the name s of code page cp (hash h): its entry's, or the
 * free one it would take. */
static size_t
known_slot(const struct wp_walker *w, uint32_t cp, struct span s, uint64_t h)
{
	size_t mask = w->known_slots_cap - 1, i = (size_t)h & mask;

	for (; w->known_slots[i]; i = (i + 1) & mask) {
		const struct known *k = &w->known[w->known_slots[i] - 1];
		if (k->hash == h && k->codepage == cp && k->raw_len == s.len &&
		    memcmp(w->known_bytes + k->at, s.p, s.len) == 0)
			break;
	}
	return i;
}

/* Room for one more known name of need bytes: the slots twice as many
 * when half full, every name forgotten past KNOWN_MAX_BYTES. */
static bool
known_room(struct wp_walker *w, size_t need)
{
	size_t cap = w->known_slots_cap ? w->known_slots_cap * 2 : 256;
	uint32_t *t;

	if (need > KNOWN_MAX_BYTES)
		return false;
	if (w->nknown_bytes + need > KNOWN_MAX_BYTES) {
		w->nknown = w->nknown_bytes = 0;
		memset(w->known_slots, 0, w->known_slots_cap * sizeof *w->known_slots);
	}
	if (2 * (w->nknown + 1) > w->known_slots_cap) {
		if (!(t = calloc(cap, sizeof *t)))
			return false;
		for (size_t i = 0; i < w->nknown; i++) {
			size_t at = (size_t)w->known[i].hash & (cap - 1);
			while (t[at])
				at = (at + 1) & (cap - 1);
			t[at] = (uint32_t)(i + 1);
		}
		free(w->known_slots);
		w->known_slots = t;
		w->known_slots_cap = cap;
	}
	return grow_table((void **)&w->known, &w->known_cap, w->nknown + 1, sizeof *w->known) &&
	       grow_table((void **)&w->known_bytes, &w->known_bytes_cap, w->nknown_bytes + need, 1);
}

/* The name s of code page cp (hash h), just converted to the text at at,
 * remembered; left unknown when there is no memory for it. */
static void
remember(struct wp_walker *w, uint32_t cp, struct span s, uint64_t h, size_t at)
{
	size_t len = w->ntext - at - 1;

	if (!known_room(w, s.len + len + 1))
		return;
	w->known[w->nknown] = (struct known){ h, cp, w->nknown_bytes, s.len, len };
	memcpy(w->known_bytes + w->nknown_bytes, s.p, s.len);
	memcpy(w->known_bytes + w->nknown_bytes + s.len, w->text + at, len + 1);
	w->nknown_bytes += s.len + len + 1;
	w->known_slots[known_slot(w, cp, s, h)] = (uint32_t)++w->nknown;
	w->known_next = w->nknown;
}

/* The known name of code page cp with raw bytes s, if any: the one after
 * the name last found, else through the hash. */
static const struct known *
known_name(struct wp_walker *w, uint32_t cp, struct span s, uint64_t *h)
{
	const struct known *k = w->known_next < w->nknown ? &w->known[w->known_next] : NULL;
	size_t slot;

	*h = 0;
	if (k && k->codepage == cp && k->raw_len == s.len &&
	    memcmp(w->known_bytes + k->at, s.p, s.len) == 0)
		return k;
	*h = hash_raw(cp, s);
	if (!w->known_slots_cap || !w->known_slots[slot = known_slot(w, cp, s, *h)])
		return NULL;
	return &w->known[w->known_slots[slot] - 1];
}

/* The room a name of len bytes in code page cp (0: UTF-16LE) asks for
 * its text: what its conversion may take. */
static size_t
name_room(uint32_t cp, size_t len)
{
	return cp ? len * 4 + 1 : WP_UTF8_CAP(len);
}

/* A name in code page cp (0: UTF-16LE) into the text table at *at: its
 * text when it was converted before, else converted; the room asked for
 * is the conversion's either way, so that the names' bound holds alike. */
static bool
text_name(struct wp_walker *w, uint32_t cp, struct span s, size_t *at)
{
	size_t cap = name_room(cp, s.len);
	uint64_t h;
	const struct known *k = known_name(w, cp, s, &h);

	if (k) {
		if (!text_room(w, cap))
			return false;
		*at = w->ntext;
		memcpy(w->text + *at, w->known_bytes + k->at + k->raw_len, k->text_len + 1);
		w->ntext += k->text_len + 1;
		w->known_next = (size_t)(k - w->known) + 1;
		return true;
	}
	if (!(cp ? text_codepage(w, cp, s, at) : text_utf16(w, s, at)))
		return false;
	remember(w, cp, s, h, *at);
	return true;
}

/* The snapshot found not to be its memo's: the raw names of the
 * instances walked so far made, from the memo's texts (what text_name
 * would make of their bytes, in as much room asked), and the memo left. */
static bool
memo_miss(struct wp_walker *w)
{
	for (size_t k = 0; k < w->ninstances; k++) {
		const struct memo_source *src = &w->sources[k];
		const char *text = w->memo->text + w->memo->names[k].raw;
		size_t len = strlen(text) + 1;
		if (!text_room(w, name_room(src->codepage, src->raw.len)))
			return false;
		w->names[k].raw = w->ntext;
		memcpy(w->text + w->ntext, text, len);
		w->ntext += len;
	}
	w->memo = NULL;
	return true;
}

/* The names of a snapshot found to be its memo's, copied from there. */
static bool
take_memo(struct wp_walker *w)
{
	const struct wp_memo *m = w->memo;

	if (!grow_table((void **)&w->text, &w->text_cap, m->ntext, 1))
		return false;
	memcpy(w->text, m->text, m->ntext);
	w->ntext = m->ntext;
	w->system_at = m->system_at;
	memcpy(w->names, m->names, m->ninstances * sizeof *w->names);
	return true;
}

static bool
fail(struct wp_fault *f, const char *rule, size_t at)
{
	f->rule = rule;
	f->at = at;
	return false;
}

/* What a counter type is for the reports (COUNTERS.md §2.2): the engine's
 * table decides, and a width other than 4 or 8 bytes has no number. */
static enum wp_role
role_of(uint32_t type, uint32_t size)
{
	const struct counter_type_info *info =
		counter_type_info(counter_type_by_value(type));

	if (!info || info->extension)
		return WP_UNKNOWN;
	if (!info->base && !info->displayed)
		return WP_NODATA;
	if (size != 4 && size != 8)
		return WP_UNKNOWN;
	return info->base ? WP_BASE : WP_SHOWN;
}

static struct known_defs *
known_defs_of(struct wp_walker *w, const struct wp_object_head *oh)
{
	uint32_t h = (oh->title * UINT32_C(0x9E3779B1)) ^ (oh->num_counters * UINT32_C(0x85EBCA77));

	return &w->defs[(h ^ h >> 16) % KNOWN_DEFS];
}

/* Whether k holds the definitions of object oh (span ob): then they are
 * the walker's next counters. */
static bool
defs_known(struct wp_walker *w, const struct known_defs *k, struct span ob,
           const struct wp_object_head *oh)
{
	if (!k->set || k->title != oh->title || k->num_counters != oh->num_counters ||
	    k->header_length != oh->header_length || ob.len < k->checked_len ||
	    !span_has(ob, oh->header_length, k->len) ||
	    memcmp(ob.p + oh->header_length, k->bytes, k->len) != 0)
		return false;
	memcpy(w->counters + w->ncounters, k->counters, k->num_counters * sizeof *k->counters);
	w->ncounters += k->num_counters;
	w->snap.nodata += k->nodata;
	w->snap.unknown += k->unknown;
	return true;
}

/* The definitions of object oh just walked (len bytes), known from now on;
 * left unknown when too long or without memory. */
static void
remember_defs(struct wp_walker *w, struct known_defs *k, struct span ob,
              const struct wp_object_head *oh, size_t len, uint64_t nodata, uint64_t unknown,
              uint64_t extent)
{
	const struct wp_counter *c = w->counters + w->ncounters - oh->num_counters;

	k->set = false;
	if (!oh->num_counters || len > KNOWN_DEFS_MAX_BYTES ||
	    !grow_table((void **)&k->bytes, &k->bytes_cap, len, 1) ||
	    !grow_table((void **)&k->counters, &k->counters_cap, oh->num_counters, sizeof *c))
		return;
	memcpy(k->bytes, ob.p + oh->header_length, len);
	memcpy(k->counters, c, oh->num_counters * sizeof *c);
	*k = (struct known_defs){ true, ++w->ndefs, oh->title, oh->num_counters,
	                          oh->header_length, ob.len, len, k->bytes, k->bytes_cap,
	                          k->counters, k->counters_cap, nodata, unknown, extent };
}

/* Whether counter c has a value to read: a shown counter or a base. */
static bool
has_value(const struct wp_counter *c)
{
	return c->role == WP_SHOWN || c->role == WP_BASE;
}

/* The bytes of a counter block that the counters [first, first + n)
 * read: to the end of the furthest value. */
static uint64_t
values_extent(const struct wp_walker *w, size_t first, size_t n)
{
	uint64_t end = 0;

	for (size_t i = first; i < first + n; i++)
		if (has_value(&w->counters[i]) &&
		    (uint64_t)w->counters[i].offset + w->counters[i].size > end)
			end = (uint64_t)w->counters[i].offset + w->counters[i].size;
	return end;
}

/* The counter definitions of object o (span ob), from HeaderLength on, each
 * ByteLength long; a base pairs with the shown counter before it. The
 * objects of a snapshot are mostly those of the one before: definitions
 * known by their bytes are not walked again. *number: theirs (block.h);
 * *extent: the bytes of a counter block they read (values_extent). */
static bool
walk_definitions(struct wp_walker *w, struct span ob, size_t ob_at,
                 const struct wp_object_head *oh, uint64_t *number, uint64_t *extent,
                 struct wp_fault *f)
{
	size_t at = oh->header_length, first = w->ncounters;
	struct known_defs *k = known_defs_of(w, oh);
	uint64_t nodata = w->snap.nodata, unknown = w->snap.unknown;
	struct wp_definition_head d;
	const char *rule;

	if (!grow_table((void **)&w->counters, &w->counters_cap, first + oh->num_counters,
	          sizeof *w->counters))
		return fail(f, NULL, 0);
	if (defs_known(w, k, ob, oh)) {
		*number = k->number;
		*extent = k->extent;
		return true;
	}
	for (uint32_t i = 0; i < oh->num_counters; i++, at += d.byte_length) {
		if (!le_u32(ob, at, &d.byte_length) || !le_u32(ob, at + 4, &d.title) ||
		    !le_u32(ob, at + 28, &d.type) || !le_u32(ob, at + 32, &d.size) ||
		    !le_u32(ob, at + 36, &d.offset))
			return fail(f, "counter definition: SizeOf <= ByteLength <= bufSize", ob_at + at);
		if ((rule = wp_check_definition(&d, ob.len - at)))
			return fail(f, rule, ob_at + at);
		struct wp_counter *c = &w->counters[w->ncounters++];
		*c = (struct wp_counter){ d.title, d.type, d.size, d.offset,
		                          role_of(d.type, d.size), WP_NO_BASE };
		if (c->role == WP_BASE && i > 0 && c[-1].role == WP_SHOWN)
			c[-1].base = i;
		w->snap.nodata += c->role == WP_NODATA;
		w->snap.unknown += c->role == WP_UNKNOWN;
	}
	*extent = values_extent(w, first, oh->num_counters);
	remember_defs(w, k, ob, oh, at - oh->header_length, w->snap.nodata - nodata,
	              w->snap.unknown - unknown, *extent);
	*number = k->set ? k->number : 0;
	return true;
}

/* One counter block at cb_at of ob: its values, one row, of the counters
 * [first, first + n), which read extent bytes of it (values_extent):
 * checked once, so that each value is loaded without a check. */
static bool
read_counter_block(struct wp_walker *w, struct span ob, size_t ob_at, size_t cb_at,
                   size_t first, size_t n, uint64_t extent, uint32_t *length,
                   struct wp_fault *f)
{
	const char *rule;
	const uint8_t *cb;

	if (!le_u32(ob, cb_at, length))
		return fail(f, "counter block: 4 <= ByteLength <= bufSize", ob_at + cb_at);
	if ((rule = wp_check_counter_block(*length, ob.len - cb_at)))
		return fail(f, rule, ob_at + cb_at);
	/* our own bound: counters times instances could otherwise ask for
	 * far more memory than the block holds */
	if (w->nvalues + n > w->block_len)
		return fail(f, "values: NumCounters x instances <= TotalByteLength", ob_at + cb_at);
	if (!grow_table((void **)&w->values, &w->values_cap, w->nvalues + n, sizeof *w->values))
		return fail(f, NULL, 0);
	if (extent > *length)
		return fail(f, "counter: CounterOffset + CounterSize <= counter block ByteLength",
		            ob_at + cb_at);
	cb = ob.p + cb_at;
	for (size_t i = 0; i < n; i++) {
		const struct wp_counter *c = &w->counters[first + i];
		uint64_t v = 0;
		if (has_value(c))
			v = c->size == 8 ? le_load64(cb + c->offset) : le_load32(cb + c->offset);
		w->values[w->nvalues + i] = v;
	}
	w->nvalues += n;
	return true;
}

/* The instances of an object, from DefinitionLength on: each definition,
 * its name, then its counter block. */
static bool
walk_instances(struct wp_walker *w, struct span ob, size_t ob_at,
               const struct wp_object_head *oh, size_t first, uint64_t extent,
               struct wp_fault *f)
{
	size_t at = oh->definition_length;
	struct wp_instance_head ih;
	uint32_t cb_len, unique;
	const char *rule;

	if (!grow_table((void **)&w->instances, &w->instances_cap,
	          w->ninstances + (size_t)oh->num_instances, sizeof *w->instances) ||
	    !grow_table((void **)&w->names, &w->names_cap, w->instances_cap, sizeof *w->names) ||
	    !grow_table((void **)&w->sources, &w->sources_cap, w->instances_cap,
	                sizeof *w->sources))
		return fail(f, NULL, 0);
	for (int32_t i = 0; i < oh->num_instances; i++) {
		if (!le_u32(ob, at, &ih.byte_length) || !le_u32(ob, at + 4, &ih.parent_title) ||
		    !le_u32(ob, at + 8, &ih.parent_instance) ||
		    !le_u32(ob, at + 12, &unique) ||
		    !le_u32(ob, at + 16, &ih.name_offset) || !le_u32(ob, at + 20, &ih.name_length))
			return fail(f, "instance: SizeOf <= ByteLength <= bufSize", ob_at + at);
		ih.unique_id = (int32_t)unique;
		if ((rule = wp_check_instance(&ih, ob.len - at)))
			return fail(f, rule, ob_at + at);
		/* NameLength counts the terminating NUL */
		struct memo_source *src = &w->sources[w->ninstances];
		*src = (struct memo_source){ span_sub(ob, at + ih.name_offset, ih.name_length),
		                             oh->codepage, ih.parent_title, ih.parent_instance };
		struct name_at *n = &w->names[w->ninstances];
		if (w->memo && !memo_instance_same(w->memo, w->ninstances, src) && !memo_miss(w))
			return fail(f, NULL, 0);
		if (!w->memo && !text_name(w, oh->codepage, src->raw, &n->raw))
			return fail(f, NULL, 0);
		w->instances[w->ninstances++] = (struct wp_instance){
			NULL, ih.parent_title, ih.parent_instance, ih.unique_id };
		at += ih.byte_length;
		if (!read_counter_block(w, ob, ob_at, at, first, oh->num_counters, extent, &cb_len,
		                        f))
			return false;
		at += cb_len;
	}
	return true;
}

static bool
read_object_head(struct span ob, struct wp_object_head *h)
{
	uint32_t instances;
	bool ok = le_u32(ob, 0, &h->total_length) && le_u32(ob, 4, &h->definition_length) &&
	          le_u32(ob, 8, &h->header_length) && le_u32(ob, 12, &h->title) &&
	          le_u32(ob, 32, &h->num_counters) && le_u32(ob, 40, &instances) &&
	          le_u32(ob, 44, &h->codepage) && le_u64(ob, 48, &h->perf_time) &&
	          le_u64(ob, 56, &h->perf_freq);
	h->num_instances = (int32_t)instances;
	return ok;
}

/* One object at ob_at of block b: its definitions, then one counter block
 * or its instances. *length: its TotalByteLength, to the next object. */
static bool
walk_object(struct wp_walker *w, struct span b, size_t ob_at, uint32_t *length,
            struct wp_fault *f)
{
	struct span ob = span_sub(b, ob_at, b.len - ob_at);
	struct wp_object_head oh;
	struct object_at at = { w->ncounters, w->ninstances, w->nvalues };
	const char *rule;
	uint32_t cb_len;
	size_t i = w->snap.nobjects;
	uint64_t defs, extent;

	if (ob_at > b.len || !read_object_head(ob, &oh))
		return fail(f, "object: SizeOf <= DefinitionLength <= TotalByteLength <= bufSize", ob_at);
	if ((rule = wp_check_object(&oh, ob.len)))
		return fail(f, rule, ob_at);
	ob.len = oh.total_length;
	if (w->memo &&
	    !memo_object_same(w->memo, i,
	                      &(struct memo_object){ oh.title, oh.codepage, oh.num_instances }) &&
	    !memo_miss(w))
		return fail(f, NULL, 0);
	if (!grow_table((void **)&w->objects, &w->objects_cap, i + 1, sizeof *w->objects) ||
	    !grow_table((void **)&w->at, &w->at_cap, w->objects_cap, sizeof *w->at))
		return fail(f, NULL, 0);
	if (!walk_definitions(w, ob, ob_at, &oh, &defs, &extent, f))
		return false;
	if (oh.num_instances == WP_NO_INSTANCES) {
		if (!read_counter_block(w, ob, ob_at, oh.definition_length, at.counter,
		                        oh.num_counters, extent, &cb_len, f))
			return false;
	} else if (!walk_instances(w, ob, ob_at, &oh, at.counter, extent, f)) {
		return false;
	}
	w->objects[i] = (struct wp_object){
		oh.title, oh.num_instances, oh.codepage, oh.perf_time, oh.perf_freq,
		oh.num_counters, NULL, w->ninstances - at.instance, NULL, NULL, defs };
	w->at[i] = at;
	w->snap.nobjects++;
	*length = oh.total_length;
	return true;
}

/* Text made of a, b and c joined, into the text table at *at. */
static bool
text_join(struct wp_walker *w, size_t a, const char *b, size_t c, size_t *at)
{
	size_t la = strlen(w->text + a), lb = strlen(b), lc = c == SIZE_MAX ? 0 : strlen(w->text + c);

	if (!text_room(w, la + lb + lc + 1))
		return false;
	*at = w->ntext;
	memcpy(w->text + *at, w->text + a, la);
	memcpy(w->text + *at + la, b, lb);
	if (lc)
		memcpy(w->text + *at + la + lb, w->text + c, lc);
	w->text[*at + la + lb + lc] = '\0';
	w->ntext += la + lb + lc + 1;
	return true;
}

/* The raw name of instance k of the first object titled title, if any;
 * *cache: the object last found, as the instances of an object mostly
 * have one parent object. */
static const size_t *
parent_name(const struct wp_walker *w, uint32_t title, uint32_t k, size_t *cache)
{
	size_t i = *cache;

	if (i >= w->snap.nobjects || w->objects[i].title != title)
		for (i = 0; i < w->snap.nobjects && w->objects[i].title != title; i++)
			;
	if (i == w->snap.nobjects)
		return NULL;
	*cache = i;
	return k < w->objects[i].ninstances ? &w->names[w->at[i].instance + k].raw : NULL;
}

/* The names of the instances [first, end) as shown: a repeated name
 * numbered #1, #2 from its second occurrence on, found through a hash so
 * that an object of many instances costs no more than their number. */
static bool
number_repeats(struct wp_walker *w, size_t first, size_t end)
{
	size_t n = 16, mask;
	char suffix[FMTNUM_MAX + 2] = "#";

	while (n < 2 * (end - first))
		n *= 2;
	if (!grow_table((void **)&w->slots, &w->slots_cap, n, sizeof *w->slots))
		return false;
	memset(w->slots, 0, n * sizeof *w->slots);
	mask = n - 1;
	for (size_t k = first; k < end; k++) {
		struct name_at *name = &w->names[k];
		size_t i = (size_t)fnv_text(FNV_OFFSET, w->text + name->full) & mask;
		while (w->slots[i] && strcmp(w->text + w->names[w->slots[i] - 1].full,
		                             w->text + name->full) != 0)
			i = (i + 1) & mask;
		name->shown = name->full;
		name->repeats = 0;
		if (!w->slots[i]) {
			w->slots[i] = (uint32_t)(k + 1);
			continue;
		}
		suffix[1 + fmt_u64(suffix + 1, ++w->names[w->slots[i] - 1].repeats)] = '\0';
		if (!text_join(w, name->full, suffix, SIZE_MAX, &w->names[k].shown))
			return false;
	}
	return true;
}

/* Instance names as perfmon shows them: parent/instance, the parent found
 * by ParentObjectTitleIndex and ParentObjectInstance; then repeats
 * numbered. */
static bool
name_instances(struct wp_walker *w)
{
	size_t cache = 0;

	for (size_t k = 0; k < w->ninstances; k++) {
		struct name_at *n = &w->names[k];
		const size_t *parent = w->instances[k].parent_title
			? parent_name(w, w->instances[k].parent_title,
			              w->instances[k].parent_instance, &cache)
			: NULL;
		n->full = n->raw;
		if (parent && !text_join(w, *parent, "/", n->raw, &n->full))
			return false;
	}
	for (size_t i = 0; i < w->snap.nobjects; i++)
		if (!number_repeats(w, w->at[i].instance,
		                    w->at[i].instance + w->objects[i].ninstances))
			return false;
	return true;
}

/* The tables done growing: the snapshot's pointers into them. */
static void
point_into_tables(struct wp_walker *w)
{
	w->snap.system = w->text + w->system_at;
	w->snap.objects = w->objects;
	for (size_t i = 0; i < w->snap.nobjects; i++) {
		w->objects[i].counters = w->counters + w->at[i].counter;
		w->objects[i].instances = w->instances + w->at[i].instance;
		w->objects[i].values = w->values + w->at[i].value;
	}
	for (size_t k = 0; k < w->ninstances; k++)
		w->instances[k].name = w->text + w->names[k].shown;
}

/* A table that could not grow: the names' bound, or no memory. */
static pm_status
no_room(const struct wp_walker *w, struct wp_fault *f)
{
	if (!w->text_limit)
		return PM_E_NOMEM;
	fail(f, TEXT_LIMIT_RULE, 0);
	return PM_E_PERF_BLOCK;
}

static void
reset(struct wp_walker *w, const struct wp_pdb_head *h)
{
	w->text_limit = false;
	w->memo = NULL;
	w->ncounters = w->ninstances = w->nvalues = w->ntext = 0;
	w->snap = (struct wp_snapshot){ .perf_time = h->perf_time, .perf_freq = h->perf_freq,
	                                .perf_time_100ns = h->perf_time_100ns };
}

pm_status
wp_walk(struct wp_walker *w, struct span b, const struct wp_snapshot **out,
        struct wp_fault *f)
{
	struct wp_pdb_head h;
	const char *rule;
	size_t at;
	uint32_t length;

	if (!read_pdb(b, &h))
		return fail(f, "PDB: SizeOf <= TotalByteLength <= bufSize", 0), PM_E_PERF_BLOCK;
	if ((rule = wp_check_pdb(&h, b.len)))
		return fail(f, rule, 0), PM_E_PERF_BLOCK;
	b.len = w->block_len = h.total_length;
	reset(w, &h);
	if (!system_time(h.time, &w->snap.time))
		return fail(f, "PDB: SystemTime is a date and time", 36), PM_E_PERF_BLOCK;
	if (!span_has(b, h.name_offset, h.name_length))
		return fail(f, "PDB: SystemNameOffset + SystemNameLength <= TotalByteLength", 80),
		       PM_E_PERF_BLOCK;
	at = h.header_length;
	if (!text_name(w, 0, span_sub(b, h.name_offset, h.name_length), &w->system_at))
		return no_room(w, f);
	w->memo = memo_of(&w->memos, w->text + w->system_at);
	for (uint32_t i = 0; i < h.num_objects; i++, at += length)
		if (!walk_object(w, b, at, &length, f))
			return f->rule ? PM_E_PERF_BLOCK : no_room(w, f);
	if (w->memo && memo_fits(w->memo, w->ninstances, w->block_len)) {
		if (!take_memo(w))
			return no_room(w, f);
		w->snap.names = w->memo->number;
	} else if ((w->memo && !memo_miss(w)) || !name_instances(w)) {
		return no_room(w, f);
	} else {
		w->snap.names = memo_keep(&w->memos, w->block_len, w->objects, w->snap.nobjects,
		                          w->sources, w->ninstances, w->text, w->ntext,
		                          w->system_at, w->names);
	}
	point_into_tables(w);
	*out = &w->snap;
	return PM_OK;
}
