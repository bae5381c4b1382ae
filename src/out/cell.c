/* cell.c: a typed cell as bytes. See cell.h. */
#include <math.h>
#include <string.h>

#include "out/cell.h"

size_t
cell_format(const struct sink_cell *c, char *out)
{
	switch ((enum sink_kind)c->kind) {
	case SINK_INTEGER:
		return fmt_u64(out, c->v.integer);
	case SINK_FRACTION:
		return fmt_ratio(out, c->v.fraction.num, c->v.fraction.den, c->decimals);
	case SINK_REAL:
		return fmt_fixed(out, c->v.real, c->decimals);
	case SINK_STAMP:   /* decimals 3: with milliseconds */
		if (c->decimals == 3)
			tzone_format_ms(c->v.stamp.zone, c->v.stamp.at, out);
		else
			tzone_format(c->v.stamp.zone, c->v.stamp.at, out);
		return strlen(out);
	case SINK_EMPTY:
	case SINK_TEXT:
		break;
	}
	return 0;
}

size_t
cell_stamp(const struct sink_cell *c, char *out, struct cell_stamp_memo *m)
{
	unsigned i = 0;

	while (i < 2 && (m->held[i].n == 0 || m->held[i].at != c->v.stamp.at ||
	                 m->held[i].zone != c->v.stamp.zone ||
	                 m->held[i].decimals != c->decimals))
		i++;
	if (i == 2) {
		i = m->next;
		m->next ^= 1;
		m->held[i].n = (uint8_t)cell_format(c, m->held[i].text);
		m->held[i].at = c->v.stamp.at;
		m->held[i].zone = c->v.stamp.zone;
		m->held[i].decimals = c->decimals;
	}
	memcpy(out, m->held[i].text, TZONE_TEXT_MS);
	return m->held[i].n;
}

/* One cell that is not text at p, then sep: the usual figures inline,
 * through one fmtnum_point (which takes up to 7 decimals inline); the
 * rest through cell_format. */
static inline char *
join_cell(char *p, const struct sink_cell *c, char sep)
{
	uint64_t scaled;
	unsigned decimals;

	if (c->kind == SINK_INTEGER) {
		scaled = c->v.integer;
		decimals = 0;
	} else if (c->kind == SINK_FRACTION && c->decimals < 8 &&
	           fmtnum_ratio_scaled(c->v.fraction.num, c->v.fraction.den,
	                               c->decimals, &scaled)) {
		decimals = c->decimals;
	} else {
		p += cell_format(c, p);
		*p++ = sep;
		return p;
	}
	p += fmtnum_point(p, scaled, decimals);
	*p++ = sep;
	return p;
}

char *
cell_join(char *p, const struct sink_cell *c, size_t n, char sep, bool lead)
{
	if (n == 0)
		return p;
	/* each cell followed by sep, the last one's left past the end: no
	 * test of the first cell in the loop */
	*p = sep;
	p += lead;
	for (size_t i = 0; i < n; i++)
		p = join_cell(p, &c[i], sep);
	return p - 1;
}

char *
cell_join_x(char *p, const struct sink_cell *c, const struct sink_formula *f,
            size_t n, const uint64_t *x, unsigned have, char sep, bool lead)
{
	unsigned lacks = ~have;

	if (n == 0)
		return p;
	*p = sep;
	p += lead;
	for (const struct sink_formula *end = f + n; f < end; f++, c++) {
		uint64_t t, den = f->den;

		if (f->from == SINK_FROM_CELL) {
			p = join_cell(p, c, sep);
			continue;
		}
		/* empty, as the cell is, before any product is tried */
		if ((f->need & lacks) != 0 || (f->from == SINK_FROM_RATIO && x[f->b] == 0)) {
			*p++ = sep;
			continue;
		}
		if ((f->from == SINK_FROM_RATIO && __builtin_mul_overflow(x[f->b], den, &den)) ||
		    __builtin_mul_overflow(x[f->n], f->mul, &t))
			return NULL;
		/* den 1 (a power of ten folded into mul): no division */
		if (den != 1) {
			if (__builtin_add_overflow(t, den / 2, &t))
				return NULL;
			t /= den;
		}
		p += fmtnum_point(p, t, f->decimals);
		*p++ = sep;
	}
	return p - 1;
}

const char *
cell_bytes(const struct sink_cell *c, char *buf, size_t *n)
{
	if (c->kind == SINK_TEXT) {
		*n = c->v.text.n;
		return c->v.text.s;
	}
	*n = cell_format(c, buf);
	return buf;
}

double
cell_real(const struct sink_cell *c)
{
	switch ((enum sink_kind)c->kind) {
	case SINK_INTEGER:
		return (double)c->v.integer;
	case SINK_FRACTION:
		return (double)c->v.fraction.num / (double)c->v.fraction.den;
	case SINK_REAL:
		return c->v.real;
	case SINK_EMPTY:
	case SINK_TEXT:
	case SINK_STAMP:
		break;
	}
	return NAN;
}
