/* rowrec.c: the rows of a stream report kept for partials. See rowrec.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/rowrec.h"

_Static_assert(sizeof(double) == sizeof(uint64_t), "a double is 64 bits");

#define HEAD 13          /* name, sequence, marked */
#define MAX_DECIMALS 9   /* what a definition may ask (rptdef.c) */
#define VARINT_MAX 10    /* bytes of a 64-bit varint */

/* A signed number as an unsigned one, small when it is near 0. */
static uint64_t
zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (v < 0 ? UINT64_MAX : 0);
}

static int64_t
unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

void
rowrec_init(struct rowrec *r)
{
	memset(r, 0, sizeof *r);
}

void
rowrec_free(struct rowrec *r)
{
	for (size_t i = 0; i < r->nnames; i++)
		free(r->names[i]);
	free(r->names);
	free(r->buf);
	free(r->at);
	rowrec_init(r);
}

/* Room for n more bytes of rows and one more row. */
static bool
room(struct rowrec *r, size_t n)
{
	if (r->len + n > r->cap) {
		size_t cap = r->cap ? r->cap : 65536;
		uint8_t *b;
		while (cap < r->len + n)
			cap *= 2;
		if (!(b = realloc(r->buf, cap)))
			return false;
		r->buf = b;
		r->cap = cap;
	}
	if (r->nrows == r->rows_cap) {
		size_t cap = r->rows_cap ? r->rows_cap * 2 : 1024;
		size_t *a = realloc(r->at, cap * sizeof *a);
		if (!a)
			return false;
		r->at = a;
		r->rows_cap = cap;
	}
	return true;
}

static void
put(struct rowrec *r, unsigned width, uint64_t v)
{
	for (unsigned i = width; i-- > 0; v >>= 8)
		r->buf[r->len + i] = (uint8_t)v;
	r->len += width;
}

/* The index of an input's name, added when new; false when out of memory. */
static bool
name_index(struct rowrec *r, const char *name, uint32_t *out)
{
	size_t i, n = strlen(name) + 1;

	for (i = 0; i < r->nnames && strcmp(r->names[i], name) != 0; i++)
		;
	if (i == r->nnames) {
		if (r->nnames == UINT32_MAX)
			return false;
		if (r->nnames == r->names_cap) {
			size_t cap = r->names_cap ? r->names_cap * 2 : 16;
			char **a = realloc(r->names, cap * sizeof *a);
			if (!a)
				return false;
			r->names = a;
			r->names_cap = cap;
		}
		if (!(r->names[i] = malloc(n)))
			return false;
		memcpy(r->names[i], name, n);
		r->nnames++;
	}
	*out = (uint32_t)i;
	return true;
}

/* A number in 7-bit groups, least significant first, the high bit of each
 * byte but the last set: 1 to VARINT_MAX bytes. */
static void
put_varint(struct rowrec *r, uint64_t v)
{
	for (; v >= 0x80; v >>= 7)
		r->buf[r->len++] = (uint8_t)(v | 0x80);
	r->buf[r->len++] = (uint8_t)v;
}

/* A varint at *at in s, *at moved past it; false when it is cut short or
 * longer than 64 bits. */
static bool
get_varint(struct span s, size_t *at, uint64_t *out)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < VARINT_MAX; i++) {
		uint8_t b;
		if (!be_u8(s, *at + i, &b) || (i == VARINT_MAX - 1 && b > 1))
			return false;
		v |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80)) {
			*at += i + 1;
			*out = v;
			return true;
		}
	}
	return false;
}

/* The most bytes a cell takes. */
static size_t
cell_size(const struct sink_cell *c)
{
	switch ((enum sink_kind)c->kind) {
	case SINK_TEXT: return 1 + VARINT_MAX + c->v.text.n;
	case SINK_INTEGER:
	case SINK_STAMP: return 1 + VARINT_MAX;
	case SINK_REAL: return 1 + 8;
	case SINK_FRACTION: return 1 + 2 * VARINT_MAX;
	case SINK_EMPTY: break;
	}
	return 1;
}

bool
rowrec_add(struct rowrec *r, const char *input, const struct sink_cell *cells, size_t n,
           bool marked)
{
	size_t size = HEAD;
	uint32_t name;

	if (!input)
		input = "-";
	if (input == r->last && r->nnames)
		name = r->last_index;
	else if (!name_index(r, input, &name))
		return false;
	r->last = input;
	r->last_index = name;
	for (size_t i = 0; i < n; i++)
		size += cell_size(&cells[i]);
	if (!room(r, size))
		return false;
	r->at[r->nrows++] = r->len;
	put(r, 4, name);
	put(r, 8, r->seq++);
	put(r, 1, marked);
	for (size_t i = 0; i < n; i++) {
		const struct sink_cell *c = &cells[i];
		uint64_t bits;

		/* decimals mean nothing to a text or an empty cell: 0, so
		 * that equal rows have equal bytes */
		put(r, 1, (uint64_t)c->kind | (c->kind == SINK_TEXT || c->kind == SINK_EMPTY
		                               ? 0u : (unsigned)c->decimals << 4));
		switch ((enum sink_kind)c->kind) {
		case SINK_TEXT:
			put_varint(r, c->v.text.n);
			if (c->v.text.n)
				memcpy(r->buf + r->len, c->v.text.s, c->v.text.n);
			r->len += c->v.text.n;
			break;
		case SINK_INTEGER: put_varint(r, c->v.integer); break;
		case SINK_FRACTION:
			put_varint(r, c->v.fraction.num);
			put_varint(r, c->v.fraction.den);
			break;
		case SINK_REAL:
			/* its bits as an integer: IEEE-754 binary64 on
			 * every host this builds on (x86-64, Linux on Z),
			 * whose doubles have the byte order of its integers */
			memcpy(&bits, &c->v.real, sizeof bits);
			put(r, 8, bits);
			break;
		case SINK_STAMP: put_varint(r, zigzag(c->v.stamp.at)); break;
		case SINK_EMPTY: break;
		}
	}
	return true;
}

void
rowrec_export(const struct rowrec *r, size_t ncells, struct pwriter *w)
{
	pw_section(w, ROWREC_TAG);
	pw_uint(w, 4, ncells);
	pw_uint(w, 4, r->nnames);
	for (size_t i = 0; i < r->nnames; i++)
		pw_text(w, r->names[i]);
	pw_uint(w, 8, r->nrows);
	pw_bytes(w, r->buf, r->len);
	pw_end_section(w);
}

/* The length of the row at off in s, of ncells cells, its head
 * included; 0 when it is not whole or holds a cell that is not one a
 * report writes. */
static size_t
row_size(struct span s, size_t off, size_t ncells)
{
	size_t at = off + HEAD;
	uint8_t marked, head;
	uint64_t v;

	if (!be_u8(s, off + HEAD - 1, &marked) || marked > 1)
		return 0;
	for (size_t i = 0; i < ncells; i++) {
		if (!be_u8(s, at, &head) || head >> 4 > MAX_DECIMALS)
			return 0;
		at++;
		switch (head & 0x0f) {
		case SINK_TEXT:
			if (head >> 4 || !get_varint(s, &at, &v) || !span_has(s, at, (size_t)v))
				return 0;
			at += (size_t)v;
			break;
		case SINK_FRACTION:
			if (!get_varint(s, &at, &v) || !get_varint(s, &at, &v) || v == 0)
				return 0;
			break;
		case SINK_INTEGER:
		case SINK_STAMP:
			if (!get_varint(s, &at, &v))
				return 0;
			break;
		case SINK_REAL:
			if (!span_has(s, at, 8))
				return 0;
			at += 8;
			break;
		case SINK_EMPTY:
			if (head >> 4)
				return 0;
			break;
		default:
			return 0;
		}
	}
	return at - off;
}

pm_status
rowrec_import(struct rowrec *r, struct span s, size_t ncells, char *err, size_t cap)
{
	struct pcursor c = pc_make(s);
	uint64_t cells = pc_uint(&c, 4), nnames = pc_uint(&c, 4), nrows;
	uint32_t *map = NULL;
	char name[4096];
	size_t off;

	if (c.bad)
		goto damaged;
	if (cells != ncells) {
		snprintf(err, cap, "its rows have %llu cells, this report's %zu",
		         (unsigned long long)cells, ncells);
		return PM_E_PARTIAL_MISMATCH;
	}
	if (nnames > s.len)
		goto damaged;
	if (!(map = malloc((size_t)(nnames + 1) * sizeof *map)))
		goto nomem;
	for (uint64_t i = 0; i < nnames; i++) {
		pc_text(&c, name, sizeof name);
		if (c.bad)
			goto damaged;
		if (!name_index(r, name, &map[i]))
			goto nomem;
	}
	nrows = pc_uint(&c, 8);
	if (c.bad || nrows > s.len)
		goto damaged;
	off = c.at;
	for (uint64_t i = 0; i < nrows; i++) {
		uint64_t local;
		size_t n = be_uint(s, off, 4, &local) && local < nnames
		           ? row_size(s, off, ncells) : 0;

		if (n == 0) {
			snprintf(err, cap, "its row %llu is not one a report writes",
			         (unsigned long long)i);
			free(map);
			return PM_E_PARTIAL;
		}
		if (!room(r, n))
			goto nomem;
		r->at[r->nrows++] = r->len;
		put(r, 4, map[local]);
		memcpy(r->buf + r->len, s.p + off + 4, n - 4);
		r->len += n - 4;
		off += n;
	}
	free(map);
	if (off != s.len) {
		snprintf(err, cap, "its rows section does not hold what it says");
		return PM_E_PARTIAL;
	}
	return PM_OK;
nomem:
	free(map);
	snprintf(err, cap, "out of memory");
	return PM_E_NOMEM;
damaged:
	free(map);
	snprintf(err, cap, "its rows section is not whole");
	return PM_E_PARTIAL;
}

/* ---- the order */

struct order {
	const struct rowrec *r;
	const uint32_t *rank;   /* of each name, in name order */
	size_t ncells;
};

static uint64_t
get(const uint8_t *p, unsigned width)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < width; i++)
		v = v << 8 | p[i];
	return v;
}

static size_t
size_at(const struct order *o, size_t off)
{
	return row_size(span_make(o->r->buf, o->r->len), off, o->ncells);
}

static int
compare(const struct order *o, size_t a, size_t b)
{
	const uint8_t *x = o->r->buf + a, *y = o->r->buf + b;
	uint32_t rx = o->rank[get(x, 4)], ry = o->rank[get(y, 4)];
	uint64_t sx = get(x + 4, 8), sy = get(y + 4, 8);
	size_t nx, ny;
	int c;

	if (rx != ry)
		return rx < ry ? -1 : 1;
	if (sx != sy)
		return sx < sy ? -1 : 1;
	/* inputs of one name in two runs: by the rows' bytes */
	nx = size_at(o, a);
	ny = size_at(o, b);
	c = memcmp(x + 4, y + 4, (nx < ny ? nx : ny) - 4);
	return c ? c : (nx > ny) - (nx < ny);
}

/* Sort n offsets at a, stably, by merging runs through tmp. */
static void
merge_sort(const struct order *o, size_t *a, size_t *tmp, size_t n)
{
	size_t half = n / 2, i = 0, j = half, k = 0;

	if (n < 2)
		return;
	merge_sort(o, a, tmp, half);
	merge_sort(o, a + half, tmp, n - half);
	if (compare(o, a[half - 1], a[half]) <= 0)
		return;  /* already in order: rows of one run mostly are */
	while (i < half && j < n)
		tmp[k++] = compare(o, a[j], a[i]) < 0 ? a[j++] : a[i++];
	while (i < half)
		tmp[k++] = a[i++];
	while (j < n)
		tmp[k++] = a[j++];
	memcpy(a, tmp, n * sizeof *a);
}

struct named {
	const char *name;
	uint32_t index;
};

static int
by_name(const void *a, const void *b)
{
	return strcmp(((const struct named *)a)->name, ((const struct named *)b)->name);
}

pm_status
rowrec_replay(struct rowrec *r, struct sink_cell *cells, size_t ncells,
              const struct tzone *zone, struct rowsink *sink)
{
	struct named *byname = malloc((r->nnames + 1) * sizeof *byname);
	uint32_t *rank = malloc((r->nnames + 1) * sizeof *rank);
	size_t *tmp = malloc((r->nrows + 1) * sizeof *tmp);
	struct order o = { r, rank, ncells };

	if (!byname || !rank || !tmp) {
		free(byname);
		free(rank);
		free(tmp);
		return PM_E_NOMEM;
	}
	for (uint32_t i = 0; i < r->nnames; i++)
		byname[i] = (struct named){ r->names[i], i };
	qsort(byname, r->nnames, sizeof *byname, by_name);
	for (uint32_t i = 0; i < r->nnames; i++)
		rank[byname[i].index] = i;
	merge_sort(&o, r->at, tmp, r->nrows);
	free(byname);
	free(tmp);
	for (size_t i = 0; i < r->nrows; i++) {
		bool marked = r->buf[r->at[i] + HEAD - 1] != 0;

		struct span row = span_make(r->buf, r->len);
		size_t at = r->at[i] + HEAD;

		for (size_t k = 0; k < ncells; k++) {
			struct sink_cell *c = &cells[k];
			uint8_t head = r->buf[at++];
			uint64_t v = 0;

			/* checked as it was added or imported */
			c->kind = head & 0x0f;
			c->decimals = head >> 4;
			switch ((enum sink_kind)c->kind) {
			case SINK_TEXT:
				(void)get_varint(row, &at, &v);
				c->v.text.n = (size_t)v;
				c->v.text.s = (const char *)r->buf + at;
				at += c->v.text.n;
				break;
			case SINK_INTEGER:
				(void)get_varint(row, &at, &c->v.integer);
				break;
			case SINK_FRACTION:
				(void)get_varint(row, &at, &c->v.fraction.num);
				(void)get_varint(row, &at, &c->v.fraction.den);
				break;
			case SINK_REAL:
				v = get(r->buf + at, 8);
				memcpy(&c->v.real, &v, sizeof v);
				at += 8;
				break;
			case SINK_STAMP:
				(void)get_varint(row, &at, &v);
				c->v.stamp.at = unzigzag(v);
				c->v.stamp.zone = zone;
				break;
			case SINK_EMPTY:
				break;
			}
		}
		sink->row(sink, cells, marked);
	}
	free(rank);
	return PM_OK;
}
