/* check_winperf.c: the PERF_DATA_BLOCK walker, the title table and the
 * stream, on blocks built here by a small builder that computes every
 * length and offset (none is typed in): objects with -1 and 0 instances,
 * parents, repeated names, UTF-16 and code-page names, names of a
 * system's snapshot as its last one's where they are made from the
 * same bytes and anew on each change, base pairing,
 * NODATA and unknown types; each .NET malformed-block vector of
 * COUNTERS.md §4 rejected with its rule; and the stream read in every
 * chunk size and cut short at every offset, every byte accounted for. */
#include "check_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/bytes.h"
#include "core/diag.h"
#include "io/input.h"
#include "winperf/block.h"
#include "winperf/names.h"
#include "winperf/stream.h"

/* ---- the builder: fields are written where the layout puts them, and
 * each length is patched in once what it covers is written */
struct bld {
	uint8_t b[16384];
	size_t len, obj, inst, cblock;
	uint32_t nobjects;
};

static void
put32(struct bld *b, size_t off, uint32_t v)
{
	put_le(b->b + off, 4, v);
}

static size_t
room(struct bld *b, size_t n)
{
	size_t at = b->len;
	ck_assert(at + n <= sizeof b->b);
	memset(b->b + at, 0, n);
	b->len += n;
	return at;
}

static void
pad8(struct bld *b)
{
	room(b, (8 - b->len % 8) % 8);
}

/* A block header of header_len bytes (88 or more) holding the system
 * name, as Windows writes it, when there is room. */
static void
pdb_begin(struct bld *b, size_t header_len, const char *system)
{
	static const uint16_t when[8] = { 2020, 3, 3, 18, 18, 54, 3, 988 };
	size_t name = (strlen(system) + 1) * 2;

	memset(b, 0, sizeof *b);
	room(b, header_len);
	memcpy(b->b, wp_signature, 8);
	put32(b, 8, 1);
	put32(b, 12, 1);
	put32(b, 16, 1);
	put32(b, 24, (uint32_t)header_len);
	for (size_t i = 0; i < 8; i++)
		put_le(b->b + 36 + 2 * i, 2, when[i]);
	put_le(b->b + 56, 8, 123456789);
	put_le(b->b + 64, 8, 10000000);
	put_le(b->b + 72, 8, 132289256439880000ULL);
	if (header_len >= WP_PDB_MIN + name) {
		for (size_t i = 0; system[i]; i++)
			b->b[WP_PDB_MIN + 2 * i] = (uint8_t)system[i];
		put32(b, 80, (uint32_t)name);
		put32(b, 84, WP_PDB_MIN);
	}
}

static void
pdb_end(struct bld *b)
{
	put32(b, 20, (uint32_t)b->len);
	put32(b, 28, b->nobjects);
}

static void
obj_begin(struct bld *b, uint32_t title, int32_t instances, uint32_t codepage,
          uint32_t counters)
{
	b->obj = room(b, WP_OBJECT_MIN);
	put32(b, b->obj + 8, WP_OBJECT_MIN);
	put32(b, b->obj + 12, title);
	put32(b, b->obj + 32, counters);
	put32(b, b->obj + 40, (uint32_t)instances);
	put32(b, b->obj + 44, codepage);
	put_le(b->b + b->obj + 48, 8, 555);
	put_le(b->b + b->obj + 56, 8, 1000);
	b->nobjects++;
}

static void
def(struct bld *b, uint32_t title, uint32_t type, uint32_t size, uint32_t offset)
{
	size_t at = room(b, WP_DEFINITION_MIN);
	put32(b, at, WP_DEFINITION_MIN);
	put32(b, at + 4, title);
	put32(b, at + 28, type);
	put32(b, at + 32, size);
	put32(b, at + 36, offset);
}

static void
defs_end(struct bld *b)
{
	put32(b, b->obj + 4, (uint32_t)(b->len - b->obj));
}

/* An instance named by n bytes (UTF-16LE or code-page text, its NUL
 * included) */
static void
inst(struct bld *b, const void *name, size_t n, uint32_t parent_title, uint32_t parent)
{
	b->inst = room(b, WP_INSTANCE_MIN);
	put32(b, b->inst + 4, parent_title);
	put32(b, b->inst + 8, parent);
	put32(b, b->inst + 12, UINT32_MAX);
	put32(b, b->inst + 16, WP_INSTANCE_MIN);
	put32(b, b->inst + 20, (uint32_t)n);
	memcpy(b->b + room(b, n), name, n);
	pad8(b);
	put32(b, b->inst, (uint32_t)(b->len - b->inst));
}

static void
inst16(struct bld *b, const char *ascii, uint32_t parent_title, uint32_t parent)
{
	uint8_t name[64] = { 0 };
	size_t n = strlen(ascii);
	for (size_t i = 0; i < n; i++)
		name[2 * i] = (uint8_t)ascii[i];
	inst(b, name, 2 * n + 2, parent_title, parent);
}

/* A counter block of data bytes after its ByteLength; the offset of the
 * first (CounterOffset counts from the block's start, so this is 4). */
static size_t
cblock(struct bld *b, size_t data)
{
	b->cblock = room(b, WP_COUNTER_BLOCK_MIN + data);
	pad8(b);
	put32(b, b->cblock, (uint32_t)(b->len - b->cblock));
	return b->cblock + WP_COUNTER_BLOCK_MIN;
}

static void
obj_end(struct bld *b)
{
	put32(b, b->obj, (uint32_t)(b->len - b->obj));
}

static const struct wp_snapshot *
walk_ok(struct bld *b)
{
	static struct wp_walker *w;
	const struct wp_snapshot *s = NULL;
	struct wp_fault f = { NULL, 0 };
	if (!w)
		ck_assert_int_eq(wp_walker_open(&w), PM_OK);
	pm_status st = wp_walk(w, span_make(b->b, b->len), &s, &f);
	ck_assert_msg(st == PM_OK, "walk: %s at %zu", f.rule ? f.rule : "?", f.at);
	return s;
}

/* The rule a block breaks, NULL when it keeps them all. */
static const char *
walk_rule(struct bld *b)
{
	static struct wp_walker *w;
	const struct wp_snapshot *s;
	struct wp_fault f = { NULL, 0 };
	if (!w)
		ck_assert_int_eq(wp_walker_open(&w), PM_OK);
	pm_status st = wp_walk(w, span_make(b->b, b->len), &s, &f);
	ck_assert(st == PM_OK || st == PM_E_PERF_BLOCK);
	return st == PM_OK ? NULL : f.rule;
}

#define RAWCOUNT 0x00010000u
#define LARGE_RAWCOUNT 0x00010100u
#define RAW_FRACTION 0x20020400u
#define RAW_BASE 0x40030403u
#define NODATA 0x40000200u
#define TIMER_100NS 0x20510500u

/* System-like: no instances, a 104-byte header with the system name, a
 * raw count, a raw fraction and its base, NODATA and an unknown type. */
static void
build_system(struct bld *b)
{
	pdb_begin(b, 104, "HOST");
	obj_begin(b, 2, WP_NO_INSTANCES, 0, 6);
	def(b, 248, RAWCOUNT, 4, 4);
	def(b, 1350, RAW_FRACTION, 4, 8);
	def(b, 1350, RAW_BASE, 4, 12);
	def(b, 900, NODATA, 0, 0);
	def(b, 901, 0x00000F01u, 4, 16);
	def(b, 902, LARGE_RAWCOUNT, 8, 20);
	defs_end(b);
	size_t v = cblock(b, 28);
	put32(b, v + 0, 163);
	put32(b, v + 4, 70);
	put32(b, v + 8, 1000);
	put_le(b->b + v + 16, 8, 0x100000002ULL);
	obj_end(b);
	pdb_end(b);
}

START_TEST(no_instances)
{
	struct bld b;
	build_system(&b);
	const struct wp_snapshot *s = walk_ok(&b);
	ck_assert_str_eq(s->system, "HOST");
	ck_assert_uint_eq(s->perf_freq, 10000000);
	ck_assert_uint_eq(s->nobjects, 1);
	/* 2020-03-18 18:54:03.988: 18339 days since 1970 */
	ck_assert_int_eq(s->time, ((18339LL * 86400 + 18 * 3600 + 54 * 60 + 3) * 10000) + 9880);
	const struct wp_object *o = &s->objects[0];
	ck_assert_int_eq(o->num_instances, WP_NO_INSTANCES);
	ck_assert_uint_eq(o->ninstances, 0);
	ck_assert_uint_eq(o->perf_time, 555);
	ck_assert_uint_eq(o->perf_freq, 1000);
	ck_assert_uint_eq(o->ncounters, 6);
	ck_assert_uint_eq(o->values[0], 163);
	ck_assert_int_eq(o->counters[1].role, WP_SHOWN);
	ck_assert_uint_eq(o->counters[1].base, 2); /* the base after it */
	ck_assert_int_eq(o->counters[2].role, WP_BASE);
	ck_assert_uint_eq(o->values[o->counters[1].base], 1000);
	ck_assert_int_eq(o->counters[3].role, WP_NODATA);
	ck_assert_int_eq(o->counters[4].role, WP_UNKNOWN);
	ck_assert_uint_eq(o->values[5], 0x100000002ULL);
	ck_assert_uint_eq(s->nodata, 1);
	ck_assert_uint_eq(s->unknown, 1);
}
END_TEST

START_TEST(zero_instances)
{
	struct bld b;
	pdb_begin(&b, WP_PDB_MIN, "");
	obj_begin(&b, 230, 0, 0, 1);
	def(&b, 6, TIMER_100NS, 8, 8);
	defs_end(&b);
	obj_end(&b);
	pdb_end(&b);
	const struct wp_snapshot *s = walk_ok(&b);
	ck_assert_str_eq(s->system, "");
	ck_assert_int_eq(s->objects[0].num_instances, 0);
	ck_assert_uint_eq(s->objects[0].ninstances, 0);
}
END_TEST

/* Processes and their threads: parents named as perfmon does, and a
 * repeated name numbered from its second occurrence on. */
START_TEST(parents_and_repeats)
{
	struct bld b;
	pdb_begin(&b, 104, "H");
	obj_begin(&b, 230, 3, 0, 1);
	def(&b, 6, TIMER_100NS, 8, 4);
	defs_end(&b);
	for (int i = 0; i < 3; i++) {
		inst16(&b, i == 2 ? "svc" : "svchost", 0, 0);
		put_le(b.b + cblock(&b, 8), 8, 100 + (uint64_t)i);
	}
	obj_end(&b);
	obj_begin(&b, 232, 3, 0, 1);
	def(&b, 6, TIMER_100NS, 8, 0);
	defs_end(&b);
	inst16(&b, "0", 230, 1);
	cblock(&b, 8);
	inst16(&b, "0", 230, 1);
	cblock(&b, 8);
	inst16(&b, "0", 230, 7); /* no such parent instance: the name alone */
	cblock(&b, 8);
	obj_end(&b);
	pdb_end(&b);
	const struct wp_snapshot *s = walk_ok(&b);
	ck_assert_uint_eq(s->nobjects, 2);
	ck_assert_str_eq(s->objects[0].instances[0].name, "svchost");
	ck_assert_str_eq(s->objects[0].instances[1].name, "svchost#1");
	ck_assert_str_eq(s->objects[0].instances[2].name, "svc");
	ck_assert_uint_eq(s->objects[0].values[2], 102);
	ck_assert_str_eq(s->objects[1].instances[0].name, "svchost/0");
	ck_assert_str_eq(s->objects[1].instances[1].name, "svchost/0#1");
	ck_assert_str_eq(s->objects[1].instances[2].name, "0");
}
END_TEST

START_TEST(codepage_and_utf16_names)
{
	static const uint8_t cafe1252[] = { 'c', 'a', 'f', 0xE9, 0 };
	static const uint8_t cafe16[] = { 'c', 0, 'a', 0, 'f', 0, 0xE9, 0, 0x3D, 0xD8, 0x00, 0xDE, 0, 0 };
	struct bld b;
	pdb_begin(&b, 104, "H");
	obj_begin(&b, 230, 1, 1252, 1);
	def(&b, 6, RAWCOUNT, 4, 0);
	defs_end(&b);
	inst(&b, cafe1252, sizeof cafe1252, 0, 0);
	cblock(&b, 4);
	obj_end(&b);
	obj_begin(&b, 231, 1, 0, 1);
	def(&b, 6, RAWCOUNT, 4, 0);
	defs_end(&b);
	inst(&b, cafe16, sizeof cafe16, 0, 0);
	cblock(&b, 4);
	obj_end(&b);
	pdb_end(&b);
	const struct wp_snapshot *s = walk_ok(&b);
	ck_assert_str_eq(s->objects[0].instances[0].name, "caf\xc3\xa9");
	ck_assert_str_eq(s->objects[1].instances[0].name, "caf\xc3\xa9\xf0\x9f\x98\x80");
}
END_TEST

/* One name's bytes in three objects: code pages 1252 and 850 and
 * UTF-16LE, where "caf\xE9" is two code units and an odd byte. */
static void
build_same_bytes(struct bld *b, const uint8_t *name, size_t n)
{
	static const uint32_t codepages[] = { 1252, 850, 0 };
	pdb_begin(b, 104, "H");
	for (uint32_t i = 0; i < 3; i++) {
		obj_begin(b, 230 + i, 1, codepages[i], 1);
		def(b, 6, RAWCOUNT, 4, 0);
		defs_end(b);
		inst(b, name, n, 0, 0);
		cblock(b, 4);
		obj_end(b);
	}
	pdb_end(b);
}

/* Names are converted once and then known by their bytes and code page:
 * the same bytes under another code page are another name, and a name
 * whose bytes changed is converted again. Expected texts from the code
 * page tables: 0xE9 is U+00E9 in 1252 and U+00DA in 850; the code units
 * 0x6163 and 0xE966 are U+6163 and U+E966. */
START_TEST(names_known_by_bytes_and_code_page)
{
	static const uint8_t cafe_acute[] = { 'c', 'a', 'f', 0xE9, 0 };
	static const uint8_t cafe[] = { 'c', 'a', 'f', 'e', 0 };
	struct bld b;
	for (int pass = 0; pass < 2; pass++) {
		build_same_bytes(&b, cafe_acute, sizeof cafe_acute);
		const struct wp_snapshot *s = walk_ok(&b);
		ck_assert_str_eq(s->objects[0].instances[0].name, "caf\xc3\xa9");
		ck_assert_str_eq(s->objects[1].instances[0].name, "caf\xc3\x9a");
		ck_assert_str_eq(s->objects[2].instances[0].name, "\xe6\x85\xa3\xee\xa5\xa6");
	}
	build_same_bytes(&b, cafe, sizeof cafe);
	const struct wp_snapshot *s = walk_ok(&b);
	ck_assert_str_eq(s->objects[0].instances[0].name, "cafe");
	ck_assert_str_eq(s->objects[1].instances[0].name, "cafe");
	/* 'c' 'a' 'f' 'e': U+6163, U+6566 */
	ck_assert_str_eq(s->objects[2].instances[0].name, "\xe6\x85\xa3\xe6\x95\xa6");
}
END_TEST

/* A snapshot of system: processes (object 230, names in code page cp,
 * or UTF-16LE for 0) and threads (object 232, UTF-16LE, parents[i] the
 * process of thread i, no thread object for nthreads 0). */
static void
build_named(struct bld *b, const char *system, uint32_t cp, const char *const *procs,
            size_t nprocs, const char *const *threads, const uint32_t *parents,
            size_t nthreads)
{
	pdb_begin(b, 104, system);
	obj_begin(b, 230, (int32_t)nprocs, cp, 1);
	def(b, 6, RAWCOUNT, 4, 0);
	defs_end(b);
	for (size_t i = 0; i < nprocs; i++) {
		if (cp)
			inst(b, procs[i], strlen(procs[i]) + 1, 0, 0);
		else
			inst16(b, procs[i], 0, 0);
		cblock(b, 4);
	}
	obj_end(b);
	if (nthreads) {
		obj_begin(b, 232, (int32_t)nthreads, 0, 1);
		def(b, 6, RAWCOUNT, 4, 0);
		defs_end(b);
		for (size_t i = 0; i < nthreads; i++) {
			inst16(b, threads[i], 230, parents[i]);
			cblock(b, 4);
		}
		obj_end(b);
	}
	pdb_end(b);
}

/* An object of one raw count and one instance, its counter block data
 * bytes long. */
static void
one_instance(struct bld *b, uint32_t title, const char *name, uint32_t parent_title,
             uint32_t parent, size_t data)
{
	obj_begin(b, title, 1, 0, 1);
	def(b, 6, RAWCOUNT, 4, 0);
	defs_end(b);
	inst16(b, name, parent_title, parent);
	cblock(b, data);
	obj_end(b);
}

/* A thread (object 232) before its process (object 230, "svchost"),
 * or without it (and the block no shorter: pad bytes of counter data). */
static void
build_threads_first(struct bld *b, bool with_process)
{
	pdb_begin(b, 104, "A");
	one_instance(b, 232, "0", 230, 0, with_process ? 4 : 260);
	if (with_process)
		one_instance(b, 230, "svchost", 0, 0, 4);
	pdb_end(b);
}

static void
expect_names(const struct wp_snapshot *s, size_t object, const char *const *want, size_t n)
{
	ck_assert_uint_gt(s->nobjects, object);
	ck_assert_uint_eq(s->objects[object].ninstances, n);
	for (size_t i = 0; i < n; i++)
		ck_assert_str_eq(s->objects[object].instances[i].name, want[i]);
}

static const struct wp_snapshot *
walk_with(struct wp_walker *w, struct bld *b)
{
	const struct wp_snapshot *s = NULL;
	struct wp_fault f = { NULL, 0 };

	ck_assert_int_eq(wp_walk(w, span_make(b->b, b->len), &s, &f), PM_OK);
	return s;
}

/* A system's snapshot whose names are made from what its last one's
 * were is named as that one, from its memo; every change in what names
 * are made from (a name's bytes, a parent, a code page, an instance or
 * an object more or less) names the snapshot anew, two systems taking
 * turns; the snapshots named from a memo have the number of its names,
 * the others a number of their own.
 * Expected names written out by hand, as perfmon shows them. */
START_TEST(names_as_last_snapshot)
{
	static const char *const procs[] = { "svchost", "svchost", "svc" };
	static const char *const procs2[] = { "svchost", "svchost", "svchost" };
	static const char *const threads[] = { "0", "0", "0" };
	static const uint32_t parents[] = { 1, 1, 7 };
	static const uint32_t parents2[] = { 2, 1, 7 };
	static const char *const want_p[] = { "svchost", "svchost#1", "svc" };
	static const char *const want_p2[] = { "svchost", "svchost#1", "svchost#2" };
	static const char *const want_t[] = { "svchost/0", "svchost/0#1", "0" };
	static const char *const want_t2[] = { "svc/0", "svchost/0", "0" };
	static const char *const other[] = { "x", "y" };
	static const char *const cafe[] = { "caf\xE9" };
	static const char *const want_1252[] = { "caf\xc3\xa9" };
	static const char *const want_850[] = { "caf\xc3\x9a" };
	static const struct {
		const char *system;
		uint32_t cp;
		const char *const *procs;
		size_t nprocs;
		const uint32_t *parents;  /* of threads[], NULL for none */
		size_t nthreads;
		const char *const *want_procs, *const *want_threads;
		bool as_before;   /* the names' number of the system's last one */
	} steps[] = {
		/* two systems taking turns, their names as before */
		{ "A", 0, procs, 3, parents, 3, want_p, want_t, false },
		{ "B", 0, other, 2, NULL, 0, other, NULL, false },
		{ "A", 0, procs, 3, parents, 3, want_p, want_t, true },
		{ "B", 0, other, 2, NULL, 0, other, NULL, true },
		{ "A", 0, procs, 3, parents, 3, want_p, want_t, true },
		/* a name's bytes */
		{ "A", 0, procs2, 3, parents, 3, want_p2, want_t, false },
		{ "A", 0, procs, 3, parents, 3, want_p, want_t, false },
		/* a parent */
		{ "A", 0, procs, 3, parents2, 3, want_p, want_t2, false },
		/* a thread less, then none: the object gone */
		{ "A", 0, procs, 3, parents, 2, want_p, want_t, false },
		{ "A", 0, procs, 3, NULL, 0, want_p, NULL, false },
		/* the same bytes in another code page */
		{ "A", 1252, cafe, 1, NULL, 0, want_1252, NULL, false },
		{ "A", 850, cafe, 1, NULL, 0, want_850, NULL, false },
		{ "A", 1252, cafe, 1, NULL, 0, want_1252, NULL, false },
		{ "A", 850, cafe, 1, NULL, 0, want_850, NULL, false },
		{ "A", 850, cafe, 1, NULL, 0, want_850, NULL, true },
	};
	uint64_t last[2] = { 0, 0 };  /* A's and B's names' numbers */
	struct wp_walker *w;
	const struct wp_snapshot *s;
	struct bld b;

	ck_assert_int_eq(wp_walker_open(&w), PM_OK);
	for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
		build_named(&b, steps[i].system, steps[i].cp, steps[i].procs, steps[i].nprocs,
		            threads, steps[i].parents, steps[i].nthreads);
		s = walk_with(w, &b);
		ck_assert_str_eq(s->system, steps[i].system);
		uint64_t *was = &last[steps[i].system[0] == 'B'];
		ck_assert_uint_ne(s->names, 0);
		ck_assert(steps[i].as_before == (s->names == *was));
		*was = s->names;
		ck_assert_uint_eq(s->nobjects, steps[i].nthreads ? 2 : 1);
		expect_names(s, 0, steps[i].want_procs, steps[i].nprocs);
		if (steps[i].nthreads)
			expect_names(s, 1, steps[i].want_threads, steps[i].nthreads);
	}
	/* an object less after the ones named: a parent gone */
	build_threads_first(&b, true);
	s = walk_with(w, &b);
	ck_assert_str_eq(s->objects[0].instances[0].name, "svchost/0");
	build_threads_first(&b, false);
	s = walk_with(w, &b);
	ck_assert_str_eq(s->objects[0].instances[0].name, "0");
	wp_walker_close(w);
}
END_TEST

/* A process of a long name and many threads under it, whose joined
 * names (each the process's name and more) pass 8 times the block's
 * length unless pad bytes of counter data make the block longer. */
static void
build_long_parent(struct bld *b, size_t pad)
{
	uint8_t name[2 * 400 + 2] = { 0 };

	for (size_t i = 0; i < 400; i++)
		name[2 * i] = 'p';
	pdb_begin(b, 104, "L");
	obj_begin(b, 230, 1, 0, 1);
	def(b, 6, RAWCOUNT, 4, 0);
	defs_end(b);
	inst(b, name, sizeof name, 0, 0);
	cblock(b, 4 + pad);
	obj_end(b);
	obj_begin(b, 232, 100, 0, 1);
	def(b, 6, RAWCOUNT, 4, 0);
	defs_end(b);
	for (int i = 0; i < 100; i++) {
		inst16(b, "0", 230, 0);
		cblock(b, 4);
	}
	obj_end(b);
	pdb_end(b);
}

/* The names' bound holds for a block named from a memo as for one named
 * anew: names that fit a long block do not fit a short one. */
START_TEST(names_bound_after_memo)
{
	struct wp_walker *w;
	struct wp_fault f = { NULL, 0 };
	const struct wp_snapshot *s;
	struct bld b;

	ck_assert_int_eq(wp_walker_open(&w), PM_OK);
	build_long_parent(&b, 6000);
	ck_assert_int_eq(wp_walk(w, span_make(b.b, b.len), &s, &f), PM_OK);
	/* the last thread: the process's 400 p, then /0#99 */
	char want[400 + sizeof "/0#99"];
	memset(want, 'p', 400);
	memcpy(want + 400, "/0#99", sizeof "/0#99");
	ck_assert_str_eq(s->objects[1].instances[99].name, want);
	build_long_parent(&b, 0);
	ck_assert_int_eq(wp_walk(w, span_make(b.b, b.len), &s, &f), PM_E_PERF_BLOCK);
	ck_assert_str_eq(f.rule, "names: UTF-8 names, parents joined, <= 8 x TotalByteLength");
	wp_walker_close(w);
}
END_TEST

/* An object of two raw counts, the second's CounterOffset 200 and type
 * type2, with a counter block of data bytes. */
static void
build_offsets(struct bld *b, uint32_t type2, size_t data)
{
	pdb_begin(b, 104, "H");
	obj_begin(b, 2, WP_NO_INSTANCES, 0, 2);
	def(b, 248, RAWCOUNT, 4, 4);
	def(b, 250, type2, 4, 200);
	defs_end(b);
	size_t v = cblock(b, data);
	put32(b, v, 11);
	if (data >= 200)
		put32(b, v + 196, 22);
	obj_end(b);
	pdb_end(b);
}

/* Definitions walked once are known by their bytes: the same bytes give
 * the same counters, other bytes are walked again, and the same bytes in
 * a shorter object are checked again, by the rule they then break (the
 * second CounterOffset, 200, past the 156 bytes the object has from the
 * second definition on: 64 + 2 x 40 + 4 + 8). */
START_TEST(definitions_known_by_bytes)
{
	struct bld b;
	const struct wp_snapshot *s;
	for (int pass = 0; pass < 2; pass++) {
		build_offsets(&b, RAWCOUNT, 200);
		s = walk_ok(&b);
		ck_assert_int_eq(s->objects[0].counters[1].role, WP_SHOWN);
		ck_assert_uint_eq(s->objects[0].values[1], 22);
		ck_assert_uint_eq(s->nodata, 0);
	}
	build_offsets(&b, NODATA, 200);
	s = walk_ok(&b);
	ck_assert_int_eq(s->objects[0].counters[1].role, WP_NODATA);
	ck_assert_uint_eq(s->nodata, 1);
	build_offsets(&b, RAWCOUNT, 200);
	ck_assert_ptr_null(walk_rule(&b));
	build_offsets(&b, RAWCOUNT, 8);
	ck_assert_str_eq(walk_rule(&b), "counter definition: 0 <= CounterOffset <= bufSize");
}
END_TEST

/* .NET ValidationTests.cs (COUNTERS.md §4), one category at a time; S is
 * the structure's least size. Each patched block must break a rule of the
 * structure patched. */
static void
expect_rule(struct bld *b, const char *prefix, const char *what, long long v)
{
	const char *rule = walk_rule(b);
	ck_assert_msg(rule && strncmp(rule, prefix, strlen(prefix)) == 0,
	              "%s = %lld: rule %s, not %s", what, v, rule ? rule : "(none)", prefix);
}

START_TEST(pdb_vectors)
{
	const long long S = WP_PDB_MIN;
	const long long pairs[][2] = { { 0, S }, { 1, S }, { -1, S }, { S, 0 }, { S, 1 },
	                               { S, -1 }, { S, S + 1 }, { S - 1, S } };
	struct bld b;
	for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
		pdb_begin(&b, WP_PDB_MIN, "");
		pdb_end(&b);
		ck_assert_ptr_null(walk_rule(&b));
		put32(&b, 20, (uint32_t)pairs[i][0]);
		put32(&b, 24, (uint32_t)pairs[i][1]);
		expect_rule(&b, "PDB:", "TotalByteLength", pairs[i][0]);
	}
}
END_TEST

/* An object of its header alone: no counters, no instances. */
static void
build_bare_object(struct bld *b)
{
	pdb_begin(b, WP_PDB_MIN, "");
	obj_begin(b, 2, 0, 0, 0);
	defs_end(b);
	obj_end(b);
	pdb_end(b);
}

START_TEST(object_vectors)
{
	const long long S = WP_OBJECT_MIN, values[] = { 0, 1, -1, S - 1, S + 1 };
	const size_t fields[] = { 0, 4, 8 }; /* Total, Definition, Header */
	struct bld b;
	for (size_t f = 0; f < 3; f++)
		for (size_t i = 0; i < 5; i++) {
			build_bare_object(&b);
			ck_assert_ptr_null(walk_rule(&b));
			put32(&b, b.obj + fields[f], (uint32_t)values[i]);
			expect_rule(&b, "object:", "object length", values[i]);
		}
	/* NumInstances or NumCounters at Array.MaxLength, NumCounters -1 */
	const struct { size_t at; uint32_t v; } counts[] = {
		{ 40, 0x7FFFFFC7u }, { 32, 0x7FFFFFC7u }, { 32, UINT32_MAX } };
	for (size_t i = 0; i < 3; i++) {
		build_bare_object(&b);
		put32(&b, b.obj + counts[i].at, counts[i].v);
		expect_rule(&b, "object:", "count", counts[i].v);
	}
}
END_TEST

START_TEST(definition_vectors)
{
	const long long pairs[][2] = { { 0, 4 }, { 1, 4 }, { -1, 4 }, { 24, -1 }, { 23, 4 },
	                               { 24, 1000 } };
	struct bld b;
	for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
		build_system(&b);
		ck_assert_ptr_null(walk_rule(&b));
		size_t d = b.obj + WP_OBJECT_MIN;
		put32(&b, d, (uint32_t)pairs[i][0]);
		put32(&b, d + 36, (uint32_t)pairs[i][1]);
		expect_rule(&b, "counter definition:", "ByteLength", pairs[i][0]);
	}
	/* CounterOffset past the counter block: a value outside it */
	build_system(&b);
	put32(&b, b.obj + WP_OBJECT_MIN + 36, 40);
	expect_rule(&b, "counter:", "CounterOffset", 40);
}
END_TEST

static void
build_one_instance(struct bld *b)
{
	pdb_begin(b, 104, "H");
	obj_begin(b, 238, 1, 0, 1);
	def(b, 6, TIMER_100NS, 8, 4);
	defs_end(b);
	inst16(b, "_Total", 0, 0);
	cblock(b, 8);
	obj_end(b);
	pdb_end(b);
}

START_TEST(instance_vectors)
{
	const struct { size_t at; long long v; } patches[] = {
		{ 0, 0 }, { 0, 1 }, { 0, -1 }, { 16, -1 }, { 20, -1 }, { 16, 1000 }, { 20, 1000 } };
	struct bld b;
	for (size_t i = 0; i < sizeof patches / sizeof patches[0]; i++) {
		build_one_instance(&b);
		ck_assert_ptr_null(walk_rule(&b));
		put32(&b, b.inst + patches[i].at, (uint32_t)patches[i].v);
		expect_rule(&b, "instance:", "instance field", patches[i].v);
	}
}
END_TEST

START_TEST(counter_block_vectors)
{
	const long long values[] = { -1, 0, 1 };
	struct bld b;
	for (size_t i = 0; i < 3; i++) {
		build_one_instance(&b);
		put32(&b, b.cblock, (uint32_t)values[i]);
		expect_rule(&b, "counter block:", "ByteLength", values[i]);
		build_system(&b);
		put32(&b, b.cblock, (uint32_t)values[i]);
		expect_rule(&b, "counter block:", "ByteLength", values[i]);
	}
}
END_TEST

/* Every prefix of a block is refused, never read past. */
START_TEST(every_prefix_refused)
{
	struct bld b;
	build_one_instance(&b);
	size_t full = b.len;
	for (b.len = 0; b.len < full; b.len++)
		ck_assert_ptr_nonnull(walk_rule(&b));
}
END_TEST

static const char *
write_temp(const void *data, size_t n)
{
	static char path[] = "/tmp/check_winperf_XXXXXX";
	strcpy(path + strlen(path) - 6, "XXXXXX");
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	FILE *fp = fdopen(fd, "wb");
	ck_assert_uint_eq(fwrite(data, 1, n, fp), n);
	fclose(fp);
	return path;
}

START_TEST(title_tables)
{
	static const char text[] = "1\r\n1847\r\n2\r\nSystem\r\n238\r\nProcessor\r\n";
	uint8_t utf16[128] = { 0 };
	char err[160], buf[12];
	struct wp_names *t;
	size_t n = 0;

	const char *path = write_temp(text, sizeof text - 1);
	ck_assert_int_eq(wp_names_load(&t, path, err, sizeof err), PM_OK);
	remove(path);
	ck_assert_str_eq(wp_name(t, 2, buf), "System");
	ck_assert_str_eq(wp_name(t, 238, buf), "Processor");
	ck_assert_str_eq(wp_name(t, 6, buf), "6");
	wp_names_free(t);
	/* REG_MULTI_SZ: the same strings in UTF-16LE, an empty one at the end */
	for (const char *p = "2\0System\0" "238\0Processor\0"; *p; p += strlen(p) + 1) {
		for (const char *c = p; *c; c++, n += 2)
			utf16[n] = (uint8_t)*c;
		n += 2;
	}
	n += 2;
	path = write_temp(utf16, n);
	ck_assert_int_eq(wp_names_load(&t, path, err, sizeof err), PM_OK);
	remove(path);
	ck_assert_str_eq(wp_name(t, 238, buf), "Processor");
	ck_assert_str_eq(wp_name(t, 2, buf), "System");
	wp_names_free(t);
	ck_assert_str_eq(wp_name(NULL, 4294967295u, buf), "4294967295");
	path = write_temp("2\nSystem\nx\nY\n", 13);
	ck_assert_int_eq(wp_names_load(&t, path, err, sizeof err), PM_E_PERF_NAMES);
	remove(path);
	ck_assert_ptr_nonnull(strstr(err, "'x'"));
}
END_TEST

/* ---- the stream */
struct seen {
	unsigned snapshots;
	char systems[64];
};

static void
on_snapshot(const struct wp_snapshot *s, uint64_t offset, void *ctx)
{
	struct seen *seen = ctx;
	(void)offset;
	seen->snapshots++;
	strncat(seen->systems, s->system, sizeof seen->systems - strlen(seen->systems) - 1);
}

static int
read_stream(const uint8_t *data, size_t len, size_t chunk, struct tally *t, struct seen *seen,
            struct diag *d)
{
	struct wp_stream *s;
	struct input in;
	ck_assert_int_eq(wp_stream_open(&s, 1 << 20, on_snapshot, seen), PM_OK);
	memset(t, 0, sizeof *t);
	memset(seen, 0, sizeof *seen);
	diag_init(d, "check_winperf", NULL);
	input_from_memory(&in, "mem", data, len, chunk);
	int rc = wp_stream_read(s, &in, d, t);
	wp_stream_close(s);
	ck_assert_uint_eq(t->bytes_read, len);
	ck_assert_uint_eq(tally_accounted(t), len);
	return rc;
}

/* A, 5 bytes of garbage, B (a rule broken), C, and C cut short. */
static size_t
build_stream(uint8_t *out, size_t *used, size_t *damaged)
{
	struct bld b;
	size_t n = 0;
	build_system(&b);
	memcpy(out, b.b, b.len);
	n = *used = b.len;
	memcpy(out + n, "junk!", 5);
	n += 5;
	build_one_instance(&b);
	put32(&b, b.cblock, 1);
	memcpy(out + n, b.b, b.len);
	n += b.len;
	*damaged = 5 + b.len;
	build_one_instance(&b);
	memcpy(out + n, b.b, b.len);
	n += b.len;
	*used += b.len;
	memcpy(out + n, b.b, 100);
	*damaged += 100;
	return n + 100;
}

START_TEST(stream_damage_and_chunks)
{
	static uint8_t data[8192];
	size_t used, damaged, len = build_stream(data, &used, &damaged);
	struct tally t;
	struct seen seen;
	struct diag d;

	for (size_t chunk = 0; chunk <= len; chunk += chunk < 64 ? 1 : 37) {
		ck_assert_int_eq(read_stream(data, len, chunk, &t, &seen, &d), 0);
		ck_assert_uint_eq(seen.snapshots, 2);
		ck_assert_str_eq(seen.systems, "HOSTH");
		ck_assert_uint_eq(t.used, used);
		ck_assert_uint_eq(t.damaged, damaged);
		ck_assert_uint_eq(t.damaged_records, 1);
		ck_assert_uint_eq(t.truncated, 1);
		ck_assert_uint_eq(d.count[PM_E_PERF_BLOCK], 1);
		ck_assert_uint_eq(d.count[PM_E_RESYNC], 1);
	}
	/* cut short at every offset: never a crash, every byte accounted */
	for (size_t cut = 0; cut <= len; cut++)
		ck_assert_int_eq(read_stream(data, cut, 7, &t, &seen, &d), 0);
}
END_TEST

/* The bytes at p written to a new temporary file: its path in path[64]. */
static void
write_file(char *path, const uint8_t *p, size_t len)
{
	FILE *f;
	int fd;

	snprintf(path, 64, "%s/stream.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	ck_assert_int_ge(fd = mkstemp(path), 0);
	ck_assert_ptr_nonnull(f = fdopen(fd, "wb"));
	ck_assert_uint_eq(fwrite(p, 1, len, f), len);
	fclose(f);
}

/* on_snapshot, and the file at cut_path cut to cut_to bytes by another
 * hand at the first snapshot (cut_to not -1): within the first page it
 * was lent. */
static const char *cut_path;
static off_t cut_to = -1;

static void
on_snapshot_cut(const struct wp_snapshot *s, uint64_t offset, void *ctx)
{
	on_snapshot(s, offset, ctx);
	if (cut_to >= 0 && ((struct seen *)ctx)->snapshots == 1)
		ck_assert_int_eq(truncate(cut_path, cut_to), 0);
}

/* The stream of stream_damage_and_chunks from a file, its bytes lent a
 * page at a time: the same snapshots, accounting and messages; a file
 * of twelve blocks cut short after the first: a read error where it
 * ends. */
START_TEST(stream_lent_file)
{
	static uint8_t data[16384];
	size_t used, damaged, len = build_stream(data, &used, &damaged);
	char path[64];
	struct wp_stream *s;
	struct input in;
	struct tally t = { 0 };
	struct seen seen = { 0 };
	struct diag d;
	struct bld b;

	for (int cut = 0; cut < 2; cut++) {
		if (cut) {
			build_system(&b);
			for (size_t k = 0; k < 12; k++)
				memcpy(data + k * b.len, b.b, b.len);
			len = 12 * b.len;
			ck_assert_uint_gt(len, 4096);
		}
		write_file(path, data, len);
		cut_path = path;
		cut_to = cut ? 1000 : -1;
		memset(&t, 0, sizeof t);
		memset(&seen, 0, sizeof seen);
		diag_init(&d, "check_winperf", NULL);
		ck_assert_int_eq(wp_stream_open(&s, 1 << 20, on_snapshot_cut, &seen), PM_OK);
		ck_assert_int_eq(input_open_path(&in, path), PM_OK);
		in.block_size = 4096;
		ck_assert_int_eq(wp_stream_read(s, &in, &d, &t), cut ? -1 : 0);
		ck_assert_uint_eq(tally_accounted(&t), t.bytes_read);
		if (!cut) {
			ck_assert_uint_eq(seen.snapshots, 2);
			ck_assert_uint_eq(t.bytes_read, len);
			ck_assert_uint_eq(t.used, used);
			ck_assert_uint_eq(t.damaged, damaged);
			ck_assert_uint_eq(d.count[PM_E_PERF_BLOCK], 1);
			ck_assert_uint_eq(d.count[PM_E_RESYNC], 1);
			ck_assert_uint_eq(d.count[PM_E_READ], 0);
		} else {
			ck_assert_uint_eq(d.count[PM_E_READ], 1);
			ck_assert(in.cut_short && in.shrank);
			ck_assert_uint_eq(in.cut_at, 1000);
		}
		input_close(&in);
		wp_stream_close(s);
		unlink(path);
	}
}
END_TEST

/* TotalByteLength past --max-record: resynchronised on the next block */
START_TEST(stream_insane_length)
{
	static uint8_t data[8192];
	struct bld b;
	struct tally t;
	struct seen seen;
	struct diag d;
	build_system(&b);
	memcpy(data, b.b, b.len);
	memcpy(data + b.len, b.b, b.len);
	put_le(data + 20, 4, 0x7FFFFFFF);
	ck_assert_int_eq(read_stream(data, 2 * b.len, 0, &t, &seen, &d), 0);
	ck_assert_uint_eq(seen.snapshots, 1);
	ck_assert_uint_eq(t.damaged, b.len);
	ck_assert_uint_eq(d.count[PM_E_RECORD_TOO_LONG], 1);
}
END_TEST

Suite *
unit_suite(void)
{
	Suite *s = suite_create("winperf");
	TCase *tc = tcase_create("winperf");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, no_instances);
	tcase_add_test(tc, zero_instances);
	tcase_add_test(tc, parents_and_repeats);
	tcase_add_test(tc, codepage_and_utf16_names);
	tcase_add_test(tc, names_known_by_bytes_and_code_page);
	tcase_add_test(tc, names_as_last_snapshot);
	tcase_add_test(tc, names_bound_after_memo);
	tcase_add_test(tc, definitions_known_by_bytes);
	tcase_add_test(tc, pdb_vectors);
	tcase_add_test(tc, object_vectors);
	tcase_add_test(tc, definition_vectors);
	tcase_add_test(tc, instance_vectors);
	tcase_add_test(tc, counter_block_vectors);
	tcase_add_test(tc, every_prefix_refused);
	tcase_add_test(tc, title_tables);
	tcase_add_test(tc, stream_damage_and_chunks);
	tcase_add_test(tc, stream_lent_file);
	tcase_add_test(tc, stream_insane_length);
	suite_add_tcase(s, tc);
	return s;
}
