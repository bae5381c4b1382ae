/* copybook.c: read record layouts from DSECT listings. See copybook.h. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/copybook.h"

#define LINE_MAX_LEN 256

static const char *const ops[] = { "DS", "DC", "EQU", "ORG", "DSECT", NULL };

static int
is_op(const char *w)
{
	for (size_t i = 0; ops[i]; i++)
		if (strcmp(w, ops[i]) == 0)
			return 1;
	return 0;
}

static int
parse_hex(const char *w, long *out)
{
	size_t n = strlen(w);
	if (n < 4 || n > 8)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)w[i]))
			return 0;
	*out = strtol(w, NULL, 16);
	return 1;
}

/* Split off the next blank-delimited word of *p, NUL-terminating it. */
static char *
next_word(char **p)
{
	char *s = *p, *w;
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '\0')
		return NULL;
	w = s;
	while (*s && *s != ' ' && *s != '\t')
		s++;
	if (*s)
		*s++ = '\0';
	*p = s;
	return w;
}

static void
copy_text(char *dst, size_t cap, const char *src)
{
	size_t n;
	while (*src == ' ' || *src == '\t' || *src == '.')
		src++;
	n = strlen(src);
	while (n && (src[n - 1] == ' ' || src[n - 1] == '\t'))
		n--;
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static int
contains(const char *hay, const char *needle)
{
	return strstr(hay, needle) != NULL;
}

/* Units from the DS type and the comment, as the listing writes them. */
static enum cb_units
units_of(char type, const char *desc)
{
	if (contains(desc, "10**-4 SEC"))
		return CB_UNITS_TIME_E4;
	if (contains(desc, "10**-2 SEC"))
		return CB_UNITS_TIME_E2;
	if (contains(desc, " TOD") || strncmp(desc, "TOD", 3) == 0)
		return CB_UNITS_TOD;
	if (type == 'P' && contains(desc, "DATE"))
		return CB_UNITS_PDATE;
	if (type == 'C')
		return CB_UNITS_TEXT;
	if (desc[0] == '#')
		return CB_UNITS_COUNT;
	return CB_UNITS_NONE;
}

/* A DS operand: [dup]T[Ln], e.g. F, 0F, XL3, PL4, 14D, CL4. */
static int
parse_ds(const char *op, char *type, size_t *length)
{
	size_t dup = 1, len;
	const char *p = op;
	char *end;

	if (isdigit((unsigned char)*p)) {
		dup = strtoul(p, &end, 10);
		p = end;
	}
	switch (*p) {
	case 'F': len = 4; break;
	case 'H': len = 2; break;
	case 'D': len = 8; break;
	case 'X': case 'C': case 'P': len = 1; break;
	default: return 0;
	}
	*type = *p++;
	if (*p == 'L') {
		p++;
		if (!isdigit((unsigned char)*p))
			return 0;
		len = strtoul(p, &end, 10);
		p = end;
	}
	if (*p != '\0' || dup > 4096 || len > 65536)
		return 0;
	*length = dup * len;
	return 1;
}

static pm_status
fail(char *err, size_t errlen, unsigned lineno, const char *what, const char *word)
{
	if (err && errlen)
		snprintf(err, errlen, "line %u: %s%s%s%s", lineno, what,
		         word ? " '" : "", word ? word : "", word ? "'" : "");
	return PM_E_LAYOUT;
}

static void
find_buckets(struct layout *lay)
{
	static const char suffix[3] = { 'T', 'H', '#' };

	for (size_t i = 0; i + 3 < lay->nfields; i++) {
		const struct cb_field *f = &lay->fields[i];
		int idx[3];
		size_t k;

		if (f->length != 0 || f->type != 'F' || lay->nbuckets >= CB_MAX_BUCKETS)
			continue;
		for (k = 0; k < 3; k++) {
			const struct cb_field *g = &lay->fields[i + 1 + k];
			size_t n = strlen(f->name);
			if (g->length != 4 || strncmp(g->name, f->name, n) != 0 ||
			    g->name[n] != suffix[k] || g->name[n + 1] != '\0')
				break;
			idx[k] = (int)(i + 1 + k);
		}
		if (k < 3)
			continue;
		struct cb_bucket *b = &lay->buckets[lay->nbuckets++];
		memcpy(b->label, f->name, sizeof b->label);
		memcpy(b->desc, f->desc, sizeof b->desc);
		b->part = f->part;
		b->sum = idx[0];
		b->high = idx[1];
		b->count = idx[2];
	}
}

pm_status
layout_parse(const char *text, struct layout *lay, char *err, size_t errlen)
{
	unsigned lineno = 0, part = 0;
	const char *p = text;

	memset(lay, 0, sizeof *lay);
	lay->nparts = 1;
	while (*p) {
		char buf[LINE_MAX_LEN], *cur = buf, *w[2];
		const char *eol = strchr(p, '\n');
		size_t n = eol ? (size_t)(eol - p) : strlen(p);
		long loc;

		lineno++;
		if (n >= sizeof buf)
			return fail(err, errlen, lineno, "line too long", NULL);
		memcpy(buf, p, n);
		buf[n] = '\0';
		p += n + (eol != NULL);
		while (n && (buf[n - 1] == '\r' || buf[n - 1] == ' '))
			buf[--n] = '\0';

		if (buf[0] == '*') {
			const char *seq = strstr(buf, "SEQ#=");
			if (seq) {
				part = (unsigned)strtoul(seq + 5, NULL, 10);
				if (part == 0 || part >= CB_MAX_PARTS)
					return fail(err, errlen, lineno, "part number out of range", NULL);
				if (part + 1 > lay->nparts)
					lay->nparts = part + 1;
			}
			continue;
		}
		w[0] = next_word(&cur);
		w[1] = w[0] ? next_word(&cur) : NULL;
		if (!w[1] || !parse_hex(w[0], &loc))
			continue; /* prose around the listing */

		const char *label = NULL, *op, *operand;
		if (is_op(w[1])) {
			op = w[1];
		} else {
			label = w[1];
			op = next_word(&cur);
		}
		operand = op ? next_word(&cur) : NULL;
		if (!op || !is_op(op))
			return fail(err, errlen, lineno, "unknown statement", op ? op : w[1]);
		if (label && strlen(label) >= CB_NAME_MAX)
			return fail(err, errlen, lineno, "label too long", label);

		if (strcmp(op, "DSECT") == 0) {
			if (label)
				memcpy(lay->name, label, strlen(label) + 1);
		} else if (strcmp(op, "EQU") == 0) {
			struct cb_equate *e;
			if (!label)
				return fail(err, errlen, lineno, "EQU without a label", NULL);
			if (lay->nequates >= CB_MAX_EQUATES)
				return fail(err, errlen, lineno, "too many EQU statements", NULL);
			e = &lay->equates[lay->nequates++];
			memcpy(e->name, label, strlen(label) + 1);
			e->value = loc;
			copy_text(e->desc, sizeof e->desc, cur);
		} else if (strcmp(op, "DS") == 0 || strcmp(op, "DC") == 0) {
			char type;
			size_t length;
			if (!operand || !parse_ds(operand, &type, &length))
				return fail(err, errlen, lineno, "cannot read DS operand",
				            operand ? operand : "");
			if ((size_t)loc + length > lay->part_end[part])
				lay->part_end[part] = (size_t)loc + length;
			if (!label)
				continue; /* reserved space: counts for the extent only */
			if (lay->nfields >= CB_MAX_FIELDS)
				return fail(err, errlen, lineno, "too many fields", NULL);
			if (layout_field(lay, label))
				return fail(err, errlen, lineno, "field defined twice", label);
			struct cb_field *f = &lay->fields[lay->nfields++];
			memcpy(f->name, label, strlen(label) + 1);
			f->part = part;
			f->offset = (size_t)loc;
			f->length = length;
			f->type = type;
			copy_text(f->desc, sizeof f->desc, cur);
			f->units = units_of(type, f->desc);
		}
		/* ORG moves the location counter; the listing's own locations
		 * already show where it went. */
	}
	if (lay->nfields == 0)
		return fail(err, errlen, lineno, "no fields found", NULL);
	find_buckets(lay);
	return PM_OK;
}

int
layout_field_index(const struct layout *lay, const char *name)
{
	for (size_t i = 0; i < lay->nfields; i++)
		if (strcmp(lay->fields[i].name, name) == 0)
			return (int)i;
	return -1;
}

const struct cb_field *
layout_field(const struct layout *lay, const char *name)
{
	int i = layout_field_index(lay, name);
	return i < 0 ? NULL : &lay->fields[i];
}

int
layout_equate(const struct layout *lay, const char *name, long *value)
{
	for (size_t i = 0; i < lay->nequates; i++)
		if (strcmp(lay->equates[i].name, name) == 0) {
			*value = lay->equates[i].value;
			return 1;
		}
	return 0;
}

const char *
cb_units_name(enum cb_units u)
{
	switch (u) {
	case CB_UNITS_NONE: return "";
	case CB_UNITS_COUNT: return "count";
	case CB_UNITS_TIME_E4: return "10**-4 s";
	case CB_UNITS_TIME_E2: return "10**-2 s";
	case CB_UNITS_TOD: return "TOD";
	case CB_UNITS_PDATE: return "packed date";
	case CB_UNITS_TEXT: return "EBCDIC";
	}
	return "";
}
