/* copybook.c: read record layouts from DSECT listings. See copybook.h. */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/copybook.h"
#include "core/diag.h"
#include "core/exitcode.h"
#include "core/nameslot.h"
#include "core/text.h"

#define LINE_MAX_LEN 256

enum op { OP_DS, OP_DC, OP_EQU, OP_ORG, OP_DSECT, OP_NONE };

static const char *const ops[] = { "DS", "DC", "EQU", "ORG", "DSECT" };

/* The statement w names; its first letter spares most labels a compare. */
static enum op
op_of(const char *w)
{
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
		if (w[0] == ops[i][0] && strcmp(w, ops[i]) == 0)
			return (enum op)i;
	return OP_NONE;
}

/* A location or a value: 4 to 8 hex digits, read as they are checked. */
static int
parse_hex(const char *w, long *out)
{
	unsigned long v = 0;
	size_t n = 0;

	for (; w[n]; n++) {
		unsigned char c = (unsigned char)w[n];
		int d = c >= '0' && c <= '9' ? c - '0'
		      : c >= 'A' && c <= 'F' ? c - 'A' + 10
		      : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;

		if (d < 0 || n == 8)
			return 0;
		v = v * 16 + (unsigned)d;
	}
	if (n < 4)
		return 0;
	*out = (long)v;
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

/* The field names while a listing is parsed, for "field defined twice"
 * (core/nameslot.h). */
#define NAME_SLOTS (2 * CB_MAX_FIELDS)
_Static_assert((NAME_SLOTS & (NAME_SLOTS - 1)) == 0, "a power of two");

/* Where the parser is: for messages, and the section fields go into. */
struct parse {
	struct layout *lay;
	const char *file;
	unsigned lineno, section;
	cb_comment_fn comment;
	void *ctx;
	char *err;
	size_t errlen;
	uint16_t names[NAME_SLOTS];
};

static pm_status
fail(struct parse *ps, const char *what, const char *word)
{
	if (ps->err && ps->errlen) {
		int n = ps->file ? snprintf(ps->err, ps->errlen, "%s:%u: ", ps->file, ps->lineno)
		                 : snprintf(ps->err, ps->errlen, "line %u: ", ps->lineno);
		if (n >= 0 && (size_t)n < ps->errlen)
			snprintf(ps->err + n, ps->errlen - (size_t)n, "%s%s%s%s", what,
			         word ? " '" : "", word ? word : "", word ? "'" : "");
	}
	return PM_E_LAYOUT;
}

/* Room in *table (*cap elements of size bytes) for element n, below max,
 * doubling the table: amortised, and nothing moves once the listing is
 * parsed. 0 when the table is at max, -1 when memory is refused. */
static int
grow(void **table, size_t *cap, size_t n, size_t size, size_t max)
{
	void *bigger;
	size_t want;

	if (n < *cap)
		return 1;
	if (n >= max)
		return 0;
	want = *cap ? *cap * 2 : 64;
	if (want > max)
		want = max;
	if (!(bigger = realloc(*table, want * size)))
		return -1;
	*table = bigger;
	*cap = want;
	return 1;
}

/* grow, for the parser: past max, the listing is refused at this line. */
static pm_status
make_room(struct parse *ps, void **table, size_t *cap, size_t n, size_t size,
          size_t max, const char *what)
{
	int room = grow(table, cap, n, size, max);

	if (room < 0)
		return PM_E_NOMEM;
	if (room == 0) {
		char why[64];

		snprintf(why, sizeof why, "too many %s (at most %zu)", what, max);
		return fail(ps, why, NULL);
	}
	return PM_OK;
}

static pm_status
add_equate(struct parse *ps, const char *label, long value, const char *rest)
{
	struct layout *lay = ps->lay;
	struct cb_equate *e;
	void *table = lay->equates;
	pm_status st;

	if (!label)
		return fail(ps, "EQU without a label", NULL);
	st = make_room(ps, &table, &lay->equates_cap, lay->nequates,
	               sizeof *lay->equates, CB_MAX_EQUATES, "EQU statements");
	lay->equates = table;
	if (st != PM_OK)
		return st;
	e = &lay->equates[lay->nequates++];
	*e = (struct cb_equate){ .value = value };
	memcpy(e->name, label, strlen(label) + 1);
	copy_text(e->desc, sizeof e->desc, rest);
	return PM_OK;
}

/* A DS or DC statement at loc: it extends its section; with a label, it
 * is a field. */
static pm_status
add_storage(struct parse *ps, const char *label, long loc, const char *operand,
            const char *rest)
{
	struct layout *lay = ps->lay;
	struct cb_field *f;
	void *table = lay->fields;
	uint16_t *slot;
	char type;
	size_t length;
	pm_status st;

	if (!operand || !parse_ds(operand, &type, &length))
		return fail(ps, "cannot read DS operand", operand ? operand : "");
	if ((size_t)loc + length > lay->part_end[ps->section])
		lay->part_end[ps->section] = (size_t)loc + length;
	if (!label)
		return PM_OK; /* reserved space: counts for the extent only */
	slot = nameslot_find(ps->names, NAME_SLOTS, label, lay->fields, sizeof *lay->fields);
	if (*slot)
		return fail(ps, "field defined twice", label);
	st = make_room(ps, &table, &lay->fields_cap, lay->nfields,
	               sizeof *lay->fields, CB_MAX_FIELDS, "fields");
	lay->fields = table;
	if (st != PM_OK)
		return st;
	f = &lay->fields[lay->nfields++];
	*slot = (uint16_t)lay->nfields;
	/* units none until the binding says */
	*f = (struct cb_field){ .part = ps->section, .offset = (size_t)loc,
	                        .length = length, .type = type };
	memcpy(f->name, label, strlen(label) + 1);
	copy_text(f->desc, sizeof f->desc, rest);
	return PM_OK;
}

static pm_status
comment_line(struct parse *ps, const char *line)
{
	const char *why;

	if (!ps->comment)
		return PM_OK;
	if ((why = ps->comment(line, &ps->section, ps->ctx)) != NULL)
		return fail(ps, why, NULL);
	if (ps->section >= CB_MAX_PARTS)
		return fail(ps, "section number out of range", NULL);
	if (ps->section + 1 > ps->lay->nparts)
		ps->lay->nparts = ps->section + 1;
	return PM_OK;
}

/* One statement: "LOC [LABEL] OP [OPERAND] [COMMENT]"; other lines are
 * prose around the listing. */
static pm_status
statement(struct parse *ps, char *cur)
{
	char *w[2];
	const char *label = NULL, *op, *operand;
	enum op k;
	long loc;

	w[0] = next_word(&cur);
	w[1] = w[0] ? next_word(&cur) : NULL;
	if (!w[1] || !parse_hex(w[0], &loc))
		return PM_OK;
	if ((k = op_of(w[1])) != OP_NONE) {
		op = w[1];
	} else {
		label = w[1];
		op = next_word(&cur);
		k = op ? op_of(op) : OP_NONE;
	}
	operand = op ? next_word(&cur) : NULL;
	if (k == OP_NONE)
		return fail(ps, "unknown statement", op ? op : w[1]);
	if (label && strlen(label) >= CB_NAME_MAX)
		return fail(ps, "label too long", label);
	if (k == OP_DSECT) {
		if (label)
			memcpy(ps->lay->name, label, strlen(label) + 1);
	} else if (k == OP_EQU) {
		return add_equate(ps, label, loc, cur);
	} else if (k == OP_DS || k == OP_DC) {
		return add_storage(ps, label, loc, operand, cur);
	}
	/* ORG moves the location counter; the listing's own locations
	 * already show where it went. */
	return PM_OK;
}

static pm_status
parse_lines(struct parse *ps, const char *text)
{
	const char *p = text;
	pm_status st;

	while (*p) {
		char buf[LINE_MAX_LEN];
		const char *eol = strchr(p, '\n');
		size_t n = eol ? (size_t)(eol - p) : strlen(p);

		ps->lineno++;
		if (n >= sizeof buf)
			return fail(ps, "line too long", NULL);
		memcpy(buf, p, n);
		buf[n] = '\0';
		p += n + (eol != NULL);
		while (n && (buf[n - 1] == '\r' || buf[n - 1] == ' '))
			buf[--n] = '\0';
		st = buf[0] == '*' ? comment_line(ps, buf) : statement(ps, buf);
		if (st != PM_OK)
			return st;
	}
	if (ps->lay->nfields == 0)
		return fail(ps, "no fields found", NULL);
	return PM_OK;
}

pm_status
layout_parse(const char *text, const char *file, cb_comment_fn comment,
             void *ctx, struct layout *lay, char *err, size_t errlen)
{
	struct parse ps = { lay, file, 0, 0, comment, ctx, err, errlen, { 0 } };
	pm_status st;

	memset(lay, 0, sizeof *lay);
	lay->nparts = 1;
	if (file)
		text_copy(lay->file, sizeof lay->file, file);
	if ((st = parse_lines(&ps, text)) != PM_OK)
		layout_free(lay);
	return st;
}

void
layout_free(struct layout *lay)
{
	free(lay->fields);
	free(lay->equates);
	free(lay->buckets);
	lay->fields = NULL;
	lay->equates = NULL;
	lay->buckets = NULL;
	lay->nfields = lay->fields_cap = 0;
	lay->nequates = lay->equates_cap = 0;
	lay->nbuckets = lay->buckets_cap = 0;
}

pm_status
layout_add_bucket(struct layout *lay, const char *at, struct cb_bucket **out,
                  char *err, size_t errlen)
{
	void *table = lay->buckets;
	int room = grow(&table, &lay->buckets_cap, lay->nbuckets,
	                sizeof *lay->buckets, CB_MAX_BUCKETS);

	lay->buckets = table;

	if (room < 0)
		return PM_E_NOMEM;
	if (room == 0) {
		snprintf(err, errlen, "%s: more than %d wait buckets, at %s",
		         lay->file, CB_MAX_BUCKETS, at);
		return PM_E_LAYOUT;
	}
	*out = &lay->buckets[lay->nbuckets++];
	memset(*out, 0, sizeof **out);
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

/* What a binding's messages name a layout by: its file, else its DSECT. */
static const char *
layout_what(const struct layout *lay)
{
	return lay->file[0] ? lay->file : lay->name;
}

pm_status
layout_need_field(const struct layout *lay, const char *name, int *index,
                  char *err, size_t errlen)
{
	*index = layout_field_index(lay, name);
	if (*index >= 0)
		return PM_OK;
	snprintf(err, errlen, "%s: field %s not found", layout_what(lay), name);
	return PM_E_LAYOUT;
}

pm_status
layout_need_equate(const struct layout *lay, const char *name, long *value,
                   char *err, size_t errlen)
{
	if (layout_equate(lay, name, value))
		return PM_OK;
	snprintf(err, errlen, "%s: EQU %s not found", layout_what(lay), name);
	return PM_E_LAYOUT;
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

/* Whether text declares DSECT dsect: "LOC dsect DSECT" on a line. */
static bool
declares(const char *text, const char *dsect)
{
	for (const char *p = text; *p;) {
		char buf[LINE_MAX_LEN], *cur = buf, *w[3];
		const char *eol = strchr(p, '\n');
		size_t n = eol ? (size_t)(eol - p) : strlen(p);
		long loc;

		snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf ? n : sizeof buf - 1), p);
		p += n + (eol != NULL);
		w[0] = next_word(&cur);
		w[1] = w[0] ? next_word(&cur) : NULL;
		w[2] = w[1] ? next_word(&cur) : NULL;
		if (w[2] && parse_hex(w[0], &loc) && strcmp(w[2], "DSECT") == 0)
			return strcmp(w[1], dsect) == 0;
	}
	return false;
}

int
copybook_set_option(void *target, struct diag *d, const char *arg)
{
	struct copybook_list *l = target;

	if (l->n == CB_MAX_COPYBOOKS)
		return diag_usage(d, "at most %d --copybook options", CB_MAX_COPYBOOKS);
	l->paths[l->n++] = arg;
	return EXIT_CLEAN;
}

pm_status
copybook_find(const char *dsect, const char *file_name, const char *const *paths,
              size_t npaths, const char *builtin, struct lookup_found *out,
              char *err, size_t errlen)
{
	const char *installed = PKGDATADIR "/copybooks";
	pm_status st;

	for (size_t i = npaths; i-- > 0;) {
		struct stat sb;

		if (stat(paths[i], &sb) == 0 && S_ISDIR(sb.st_mode))
			st = lookup_find(file_name, &paths[i], 1, NULL, CB_LISTING_MAX,
			                 out, err, errlen);
		else if ((st = lookup_read(paths[i], CB_LISTING_MAX, out, err, errlen)) ==
		         PM_OK && !declares(out->text, dsect)) {
			free(out->text);
			out->text = NULL;
		}
		if (st != PM_OK || out->text)
			return st;
	}
	return lookup_find(file_name, &installed, 1, builtin, CB_LISTING_MAX, out,
	                   err, errlen);
}
