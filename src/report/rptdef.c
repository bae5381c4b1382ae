/* rptdef.c: report definitions. See rptdef.h and reports/README.md. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/fnv.h"
#include "core/gcd.h"
#include "core/nameslot.h"
#include "core/numparse.h"
#include "core/text.h"
#include "frame/frame.h"
#include "report/rptdef.h"

#define LINE_MAX_TOKENS 16
#define TOKEN_MAX 256
/* The names of def->cols, for "duplicate column" (core/nameslot.h): an
 * each block's columns, each compared with all before it, cost more
 * than the rest of the parse. */
#define COL_SLOTS 1024
_Static_assert(COL_SLOTS >= 2 * RPT_MAX_COLUMNS && (COL_SLOTS & (COL_SLOTS - 1)) == 0,
               "twice the columns, a power of two");

struct parser {
	struct rpt_def *def;
	const struct schema *schema;
	const char *file;
	unsigned line;
	char *err;
	size_t errlen;
	enum { BLOCK_NONE, BLOCK_EACH, BLOCK_TOP } block;
	size_t ntmpl;
	char top_by[RPT_NAME_MAX];
	bool seen_column;
	bool seen_top;
	uint16_t col_names[COL_SLOTS];
	struct rpt_column tmpl[RPT_MAX_COLUMNS / 8]; /* columns of an each block;
	                                                last: not zeroed */
};

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static pm_status
fail(struct parser *p, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(p->err, p->errlen, "%s:%u: ", p->file, p->line);

	if (n >= 0 && (size_t)n < p->errlen) {
		va_start(ap, fmt);
		vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return PM_E_DEFINITION;
}

/* ---------------------------------------------------------------------- */
/* Names of things */

struct name_value {
	const char *name;
	int value;
};

static int
lookup(const struct name_value *t, const char *name)
{
	for (; t->name; t++)
		if (strcmp(t->name, name) == 0)
			return t->value;
	return -1;
}

static const char *
name_of(const struct name_value *t, int value)
{
	for (; t->name; t++)
		if (t->value == value)
			return t->name;
	return "?";
}

static const struct name_value rows_names[] = {
	{ "group", ROWS_GROUP }, { "bucket", ROWS_BUCKET },
	{ "interval", ROWS_INTERVAL }, { "counter", ROWS_COUNTER },
	{ "instance", ROWS_INSTANCE }, { NULL, 0 }
};

static const struct name_value layout_names[] = {
	{ "table", LAYOUT_TABLE }, { "form", LAYOUT_FORM }, { NULL, 0 }
};

static const struct name_value text_names[] = {
	{ "source", TEXT_SOURCE }, { "start", TEXT_START }, { "end", TEXT_END },
	{ "parts", TEXT_PARTS }, { "bucket", TEXT_BUCKET },
	{ "description", TEXT_DESCRIPTION }, { "first_start", TEXT_FIRST_START },
	{ "last_end", TEXT_LAST_END }, { "object", TEXT_OBJECT },
	{ "instance", TEXT_INSTANCE }, { "counter", TEXT_COUNTER },
	{ "type", TEXT_TYPE }, { NULL, 0 }
};

static const struct name_value show_names[] = {
	{ "value", SHOW_VALUE }, { "samples", SHOW_SAMPLES }, { "min", SHOW_MIN },
	{ "max", SHOW_MAX }, { NULL, 0 }
};

/* Virtual fields: what they read, and their clock (ticks per second; 0
 * for counts). */
static const struct {
	const char *name;
	enum rpt_term_kind kind;
	uint64_t tps;
} virtuals[] = {
	{ "@duration", TERM_DURATION, FRAME_STAMPS_PER_SECOND },
	{ "@interval", TERM_INTERVAL, 0 },
	{ "@complete", TERM_COMPLETE, 0 },
	{ "@incomplete", TERM_INCOMPLETE, 0 },
	{ "@start", TERM_START, FRAME_STAMPS_PER_SECOND },
	{ "@end", TERM_END, FRAME_STAMPS_PER_SECOND },
};

static const struct {
	const char *name;
	uint64_t per_second;
} units[] = {
	{ "s", 1 }, { "ms", 1000 }, { "us", 1000000 },
};

/* ---------------------------------------------------------------------- */
/* Lines into tokens */

/* Split line into at most LINE_MAX_TOKENS tokens: words separated by
 * blanks; a double-quoted part ("a b") may hold blanks. */
static int
tokenize(struct parser *p, char *line, char **tok, size_t *ntok)
{
	char *r = line, *w;

	*ntok = 0;
	for (;;) {
		while (*r == ' ' || *r == '\t')
			r++;
		if (*r == '\0')
			return 0;
		if (*ntok == LINE_MAX_TOKENS) {
			fail(p, "too many words on the line");
			return -1;
		}
		tok[(*ntok)++] = w = r;
		while (*r && *r != ' ' && *r != '\t') {
			if (*r == '"') {
				r++;
				while (*r && *r != '"')
					*w++ = *r++;
				if (*r != '"') {
					fail(p, "unterminated quote");
					return -1;
				}
				r++;
			} else {
				*w++ = *r++;
			}
		}
		if (*r)
			r++;
		*w = '\0';
	}
}

#define SCALE_MAX UINT64_C(1000000000000000000)

/* A scale: "1000", "0.001" or "1/4096": an exact fraction. */
static int
parse_scale(const char *s, uint64_t *num, uint64_t *den)
{
	char buf[TOKEN_MAX];
	const char *slash = strchr(s, '/'), *dot = strchr(s, '.');
	uint64_t n, d = 1;

	if (strlen(s) >= sizeof buf)
		return 0;
	if (slash) {
		memcpy(buf, s, (size_t)(slash - s));
		buf[slash - s] = '\0';
		if (!numparse_u64(buf, SCALE_MAX, &n) || !numparse_u64(slash + 1, SCALE_MAX, &d))
			return 0;
	} else if (dot) {
		size_t whole = (size_t)(dot - s), frac = strlen(dot + 1);
		if (frac == 0 || frac > 17)
			return 0;
		memcpy(buf, s, whole);
		memcpy(buf + whole, dot + 1, frac + 1);
		if (!numparse_u64(buf, SCALE_MAX, &n))
			return 0;
		while (frac--)
			d *= 10;
	} else if (!numparse_u64(s, SCALE_MAX, &n)) {
		return 0;
	}
	if (n == 0 || d == 0)
		return 0;
	*num = n / (uint64_t)gcd(n, d);
	*den = d / (uint64_t)gcd(n, d);
	return 1;
}

/* ---------------------------------------------------------------------- */
/* Columns */

/* A member of the row's family: %T, %H, %#. */
static pm_status
parse_member(struct parser *p, struct rpt_column *c, const char *s,
             struct rpt_term *t, uint64_t *tps)
{
	int m = schema_member_index(p->schema, s);

	if (m < 0)
		return fail(p, "unknown bucket field '%s' (%%T, %%H or %%#)", s);
	t->kind = TERM_MEMBER;
	t->index = (uint32_t)m;
	*tps = p->schema->family.members[m].ticks_per_second;
	c->uses_row = true;
	return PM_OK;
}

/* A figure of the frame itself (@duration), or a sum of the schema. */
static pm_status
parse_virtual(struct parser *p, struct rpt_column *c, const char *s,
              struct rpt_term *t, uint64_t *tps)
{
	const struct schema *sc = p->schema;
	int k = schema_sum_index(sc, s);

	if (k >= 0) {
		t->kind = TERM_SUM;
		t->index = (uint32_t)k;
		*tps = sc->family.members[sc->sums[k].member].ticks_per_second;
		c->groups |= schema_family_groups(sc);
		return PM_OK;
	}
	for (size_t i = 0; i < sizeof virtuals / sizeof virtuals[0]; i++)
		if (strcmp(s, virtuals[i].name) == 0) {
			t->kind = virtuals[i].kind;
			*tps = virtuals[i].tps;
			return PM_OK;
		}
	return fail(p, "unknown virtual field '%s'", s);
}

/* A term by the name a definition gives it; a member of a column of one
 * bucket by its field. */
static const char *
term_name(const struct rpt_column *c, const struct schema *sc, const struct rpt_term *t)
{
	switch (t->kind) {
	case TERM_FIGURE:
		return sc->figures[t->index].name;
	case TERM_MEMBER:
		return c->row >= 0 ? sc->figures[sc->family.rows[c->row].figure[t->index]].name
		                   : sc->family.members[t->index].name;
	case TERM_SUM:
		return sc->sums[t->index].name;
	default:
		for (size_t i = 0; i < sizeof virtuals / sizeof virtuals[0]; i++)
			if (virtuals[i].kind == t->kind)
				return virtuals[i].name;
		return "?";
	}
}

void
rptdef_reads(const struct rpt_column *c, const struct schema *sc, char *buf, size_t cap)
{
	const struct rpt_ref *refs[] = { c->has_n ? &c->n : NULL, c->has_d ? &c->d : NULL,
	                                 c->has_b ? &c->b : NULL };
	size_t n = 0;

	buf[0] = '\0';
	if (c->text != TEXT_NONE) {
		snprintf(buf, cap, "text=%s", name_of(text_names, (int)c->text));
		return;
	}
	for (size_t r = 0; r < 3; r++) {
		if (!refs[r] || n >= cap)
			continue;
		n += (size_t)snprintf(buf + n, cap - n, "%s%c=", n ? " " : "", "NDB"[r]);
		for (unsigned i = 0; i < refs[r]->nterms && n < cap; i++)
			n += (size_t)snprintf(buf + n, cap - n, "%s%s", i ? "+" : "",
			                      term_name(c, sc, &refs[r]->terms[i]));
	}
}

/* One term of a reference; *tps is its clock (0: a count). */
static pm_status
parse_term(struct parser *p, struct rpt_column *c, const char *s,
           struct rpt_term *t, uint64_t *tps)
{
	const struct schema_figure *fig;
	int f;

	memset(t, 0, sizeof *t);
	t->factor = 1;
	if (s[0] == '%')
		return parse_member(p, c, s, t, tps);
	if (s[0] == '@')
		return parse_virtual(p, c, s, t, tps);
	if ((f = schema_figure_index(p->schema, s)) < 0)
		return fail(p, "unknown field '%s'", s);
	fig = &p->schema->figures[f];
	if (fig->kind == SCHEMA_OTHER)
		return fail(p, "field '%s' is not a count or a time", s);
	*tps = fig->kind == SCHEMA_TIME ? fig->ticks_per_second : 0;
	t->kind = TERM_FIGURE;
	t->index = (uint32_t)f;
	c->groups |= 1u << fig->group;
	return PM_OK;
}

/* "A+B+C" into r; its terms' clocks go into tps[] (kept in the factor
 * until the column's clock is known). */
static pm_status
parse_ref(struct parser *p, struct rpt_column *c, const char *what,
          const char *s, struct rpt_ref *r)
{
	char buf[TOKEN_MAX];
	char *save = NULL, *term;
	pm_status st;
	int kinds = 0; /* bit 0: a count, bit 1: a time */

	if (strlen(s) >= sizeof buf || s[0] == '\0')
		return fail(p, "%s needs a field", what);
	strcpy(buf, s);
	memset(r, 0, sizeof *r);
	for (term = strtok_r(buf, "+", &save); term; term = strtok_r(NULL, "+", &save)) {
		uint64_t tps = 0;
		if (r->nterms == RPT_MAX_TERMS)
			return fail(p, "%s adds more than %d fields", what, RPT_MAX_TERMS);
		if ((st = parse_term(p, c, term, &r->terms[r->nterms], &tps)) != PM_OK)
			return st;
		r->terms[r->nterms++].factor = tps ? tps : 1;
		kinds |= tps ? 2 : 1;
	}
	if (r->nterms == 0)
		return fail(p, "%s needs a field", what);
	if (kinds == 3)
		return fail(p, "%s adds times and counts: '%s'", what, s);
	r->time = kinds == 2;
	return PM_OK;
}

/* The column's clock is the finest of its times; each time term gets the
 * factor from its own clock (held in factor until now) to that one. */
static void
set_clock(struct rpt_column *c)
{
	struct rpt_ref *refs[] = { &c->n, &c->d, &c->b };
	bool has[] = { c->has_n, c->has_d, c->has_b };

	c->tb = 0;
	for (size_t i = 0; i < 3; i++)
		if (has[i] && refs[i]->time)
			for (unsigned j = 0; j < refs[i]->nterms; j++)
				if (refs[i]->terms[j].factor > c->tb)
					c->tb = refs[i]->terms[j].factor;
	for (size_t i = 0; i < 3; i++)
		for (unsigned j = 0; has[i] && j < refs[i]->nterms; j++)
			refs[i]->terms[j].factor = refs[i]->time
				? c->tb / refs[i]->terms[j].factor : 1;
}

/* Which of N, D and B a formula reads, and what its value is. */
static pm_status
check_type(struct parser *p, struct rpt_column *c)
{
	const struct counter_type_info *ti = counter_type_info(c->type);
	bool want_d = false, want_b = false;

	if (!ti)
		return fail(p, "column '%s': no such counter type", c->name);
	switch (ti->formula) {
	case CF_RAW:
	case CF_DELTA:
	case CF_MAX:
		c->value = c->n.time ? VALUE_TICKS : VALUE_NUMBER;
		break;
	case CF_RATE:
		want_d = true;
		c->value = VALUE_RATE;
		break;
	case CF_RATIO:
		want_d = true;
		c->value = ti->percent ? VALUE_PERCENT : VALUE_NUMBER;
		break;
	case CF_MULTI:
		want_d = want_b = true;
		c->value = VALUE_PERCENT;
		break;
	case CF_FRACTION:
	case CF_RAW_FRACTION:
		want_b = true;
		c->value = ti->percent ? VALUE_PERCENT : VALUE_NUMBER;
		break;
	case CF_AVG_TIMER:
		want_b = true;
		c->value = VALUE_SECONDS;
		break;
	case CF_ELAPSED:
		want_d = true;
		c->value = VALUE_SECONDS;
		break;
	case CF_NONE:
		return fail(p, "counter type %s has no displayable value", ti->name);
	}
	if (!c->has_n)
		return fail(p, "column '%s': %s needs N", c->name, ti->name);
	if (want_d != c->has_d)
		return fail(p, "column '%s': %s %s D", c->name, ti->name,
		            want_d ? "needs" : "takes no");
	if (want_b != c->has_b)
		return fail(p, "column '%s': %s %s B", c->name, ti->name,
		            want_b ? "needs" : "takes no");
	if (want_d && !c->d.time && ti->formula != CF_RATIO)
		return fail(p, "column '%s': D of %s must be a time", c->name, ti->name);
	if (ti->formula == CF_RATIO && ti->percent && !(c->n.time && c->d.time))
		return fail(p, "column '%s': N and D of %s must be times", c->name, ti->name);
	if (ti->formula == CF_ELAPSED && !c->n.time)
		return fail(p, "column '%s': N of %s must be a time", c->name, ti->name);
	if (ti->formula == CF_AVG_TIMER && (!c->n.time || c->b.time))
		return fail(p, "column '%s': %s needs a time as N and a count as B",
		            c->name, ti->name);
	if (ti->formula == CF_FRACTION && c->n.time != c->b.time)
		return fail(p, "column '%s': N and B of %s must both be times or both counts",
		            c->name, ti->name);
	if (c->total && ti->formula != CF_DELTA)
		return fail(p, "column '%s': aggregate=total needs a PERF_COUNTER_DELTA type",
		            c->name);
	return PM_OK;
}

static bool
name_ok(const char *s)
{
	if (*s == '\0' || strlen(s) >= RPT_NAME_MAX - SCHEMA_LABEL_MAX)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("_#$@%.-", *s)))
			return false;
	return true;
}

/* What a column line says, while its keys are read. */
struct column_line {
	struct rpt_column *c;
	const char *unit;
	uint64_t scale_num, scale_den;
	bool counter_keys;     /* a key only counter columns take */
};

static pm_status
key_type(struct parser *p, struct column_line *l, char *val)
{
	l->c->type = counter_type_by_name(val);
	if (l->c->type == CT_UNKNOWN)
		return fail(p, "unknown counter type '%s'", val);
	return PM_OK;
}

static pm_status
key_text(struct parser *p, struct column_line *l, char *val)
{
	int t = lookup(text_names, val);

	if (t < 0)
		return fail(p, "unknown text '%s'", val);
	l->c->text = (enum rpt_text)t;
	return PM_OK;
}

/* N=, D= or B=: the key's letter picks the reference. */
static pm_status
key_ref(struct parser *p, struct column_line *l, const char *key, char *val)
{
	struct rpt_column *c = l->c;
	struct rpt_ref *r = key[0] == 'N' ? &c->n : key[0] == 'D' ? &c->d : &c->b;
	bool *has = key[0] == 'N' ? &c->has_n : key[0] == 'D' ? &c->has_d : &c->has_b;
	pm_status st = parse_ref(p, c, key, val, r);

	*has = st == PM_OK;
	return st;
}

static pm_status
key_aggregate(struct parser *p, struct column_line *l, char *val)
{
	if (strcmp(val, "total") != 0 && strcmp(val, "average") != 0)
		return fail(p, "unknown aggregate '%s' (average or total)", val);
	l->c->total = strcmp(val, "total") == 0;
	return PM_OK;
}

static pm_status
key_unit(struct parser *p, struct column_line *l, char *val)
{
	(void)p;
	l->unit = val;
	return PM_OK;
}

static pm_status
key_scale(struct parser *p, struct column_line *l, char *val)
{
	if (!parse_scale(val, &l->scale_num, &l->scale_den))
		return fail(p, "bad scale '%s'", val);
	return PM_OK;
}

static pm_status
key_decimals(struct parser *p, struct column_line *l, char *val)
{
	uint64_t v;

	if (!numparse_u64(val, 9, &v))
		return fail(p, "decimals must be 0 to 9, not '%s'", val);
	l->c->decimals = (unsigned)v;
	return PM_OK;
}

static pm_status
key_heading(struct parser *p, struct column_line *l, char *val)
{
	if (strlen(val) >= sizeof l->c->heading)
		return fail(p, "heading longer than %zu characters", sizeof l->c->heading - 1);
	strcpy(l->c->heading, val);
	return PM_OK;
}

static pm_status
key_width(struct parser *p, struct column_line *l, char *val)
{
	uint64_t v;

	if (!numparse_u64(val, 132, &v))
		return fail(p, "width must be 0 to 132, not '%s'", val);
	l->c->width = (unsigned)v;
	return PM_OK;
}

static pm_status
key_counter(struct parser *p, struct column_line *l, char *val)
{
	if (strlen(val) >= sizeof l->c->counter)
		return fail(p, "counter name longer than %zu characters",
		            sizeof l->c->counter - 1);
	strcpy(l->c->counter, val);
	l->c->series = true;
	return PM_OK;
}

static pm_status
key_show(struct parser *p, struct column_line *l, char *val)
{
	int v = lookup(show_names, val);

	if (v < 0)
		return fail(p, "unknown show '%s' (value, samples, min or max)", val);
	l->c->show = (enum rpt_show)v;
	l->c->series = true;
	return PM_OK;
}

/* The keys of a column line; counter: only a counter column takes it. */
static const struct {
	const char *name;
	pm_status (*parse)(struct parser *p, struct column_line *l, char *val);
	bool counter;
} column_keys[] = {
	{ "type", key_type, true },
	{ "text", key_text, false },
	{ "aggregate", key_aggregate, true },
	{ "unit", key_unit, true },
	{ "scale", key_scale, true },
	{ "decimals", key_decimals, true },
	{ "heading", key_heading, false },
	{ "width", key_width, false },
	{ "counter", key_counter, true },
	{ "show", key_show, true },
};

/* One key=value of a column line. */
static pm_status
parse_key(struct parser *p, struct column_line *l, char *key)
{
	char *val = strchr(key, '=');

	if (!val)
		return fail(p, "'%s' is not key=value", key);
	*val++ = '\0';
	if (strcmp(key, "N") == 0 || strcmp(key, "D") == 0 || strcmp(key, "B") == 0) {
		l->counter_keys = true;
		return key_ref(p, l, key, val);
	}
	for (size_t i = 0; i < sizeof column_keys / sizeof column_keys[0]; i++)
		if (strcmp(key, column_keys[i].name) == 0) {
			l->counter_keys |= column_keys[i].counter;
			return column_keys[i].parse(p, l, val);
		}
	return fail(p, "unknown key '%s'", key);
}

/* A text column takes only heading= and width=. */
static pm_status
check_text_column(struct parser *p, const struct column_line *l)
{
	struct rpt_column *c = l->c;

	if (l->counter_keys)
		return fail(p, "column '%s': a text column takes only heading= and width=",
		            c->name);
	if (c->text == TEXT_BUCKET || c->text == TEXT_DESCRIPTION)
		c->uses_row = true;
	if (c->text != TEXT_SOURCE && rpt_is_series(p->def) != (c->text >= TEXT_OBJECT))
		return fail(p, "column '%s': text=%s is not one of a %s report", c->name,
		            name_of(text_names, (int)c->text),
		            rpt_is_series(p->def) ? "series" : "PMIM");
	if (c->text != TEXT_INSTANCE && c->text >= TEXT_OBJECT && p->def->rows != ROWS_COUNTER)
		return fail(p, "column '%s': a row per instance has no %s of its own", c->name,
		            name_of(text_names, (int)c->text));
	if ((c->text == TEXT_START || c->text == TEXT_END || c->text == TEXT_PARTS) &&
	    p->def->rows != ROWS_INTERVAL)
		return fail(p, "column '%s': text=%s needs 'rows interval'", c->name,
		            c->text == TEXT_START ? "start" : c->text == TEXT_END ? "end" : "parts");
	return PM_OK;
}

/* unit= and scale= as one exact factor of the column's value. */
static pm_status
set_scale(struct parser *p, const struct column_line *l)
{
	struct rpt_column *c = l->c;
	const char *unit = l->unit;
	uint64_t per = 0, den, g;

	c->scale_num = l->scale_num;
	c->scale_den = l->scale_den;
	if (!unit && c->value != VALUE_TICKS && c->value != VALUE_SECONDS)
		return PM_OK;
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strcmp(unit ? unit : "s", units[i].name) == 0)
			per = units[i].per_second;
	if (per == 0)
		return fail(p, "unknown unit '%s' (s, ms or us)", unit);
	if (c->value != VALUE_TICKS && c->value != VALUE_SECONDS)
		return fail(p, "column '%s': unit=%s needs a time value", c->name, unit);
	den = c->value == VALUE_TICKS ? c->tb : 1;
	if (l->scale_num > UINT64_MAX / per || l->scale_den > UINT64_MAX / den)
		return fail(p, "column '%s': scale too large", c->name);
	c->scale_num = l->scale_num * per;
	c->scale_den = l->scale_den * den;
	g = (uint64_t)gcd(c->scale_num, c->scale_den);
	c->scale_num /= g;
	c->scale_den /= g;
	return PM_OK;
}

/* A column of a series report: the counter's own type decides how its
 * value is computed, so it takes what to show, scale=, decimals=,
 * heading= and width=; rows instance columns name their counter. */
static pm_status
check_series_column(struct parser *p, const struct column_line *l)
{
	struct rpt_column *c = l->c;

	if (c->type != CT_UNKNOWN || c->has_n || c->has_d || c->has_b || c->total || l->unit)
		return fail(p, "column '%s': a series column takes counter=, show=, "
		            "scale= and decimals=, not type=, N=, D=, B=, aggregate= or unit=",
		            c->name);
	if (p->def->rows == ROWS_INSTANCE && !c->counter[0])
		return fail(p, "column '%s' needs counter= (a row per instance)", c->name);
	if (p->def->rows == ROWS_COUNTER && c->counter[0])
		return fail(p, "column '%s': a row per counter shows its own counter: "
		            "no counter=", c->name);
	c->series = true;
	c->scale_num = l->scale_num;
	c->scale_den = l->scale_den;
	return PM_OK;
}

/* The keys of a column line, after "column NAME". */
static pm_status
parse_column(struct parser *p, char **tok, size_t ntok, struct rpt_column *c)
{
	struct column_line l = { .c = c, .scale_num = 1, .scale_den = 1 };
	pm_status st;

	memset(c, 0, sizeof *c);
	c->row = -1;
	c->type = CT_UNKNOWN;
	if (ntok < 2)
		return fail(p, "column needs a name");
	if (!name_ok(tok[1]))
		return fail(p, "bad column name '%s'", tok[1]);
	strcpy(c->name, tok[1]);
	strcpy(c->heading, tok[1]);
	for (size_t i = 2; i < ntok; i++)
		if ((st = parse_key(p, &l, tok[i])) != PM_OK)
			return st;
	if (c->text != TEXT_NONE)
		return check_text_column(p, &l);
	if (rpt_is_series(p->def))
		return check_series_column(p, &l);
	if (c->series)
		return fail(p, "column '%s': counter= and show= are for 'rows counter' "
		            "and 'rows instance' reports", c->name);
	if (c->type == CT_UNKNOWN)
		return fail(p, "column '%s' needs type= or text=", c->name);
	set_clock(c);
	if ((st = check_type(p, c)) != PM_OK)
		return st;
	return set_scale(p, &l);
}

static bool
has_column(const struct rpt_column *cols, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(cols[i].name, name) == 0)
			return true;
	return false;
}

/* The first n bytes of a, then b and c, cut to fit out's cap bytes with
 * its terminator: what snprintf's "%.*s%s%s" gives, without its cost, as
 * an "each" block makes a column a bucket at every start-up. */
static void
join3(char *out, size_t cap, const char *a, size_t n, const char *b, const char *c)
{
	size_t len = 0;

	for (const char *part[3] = { a, b, c }, **q = part; q < part + 3; q++) {
		size_t k = q == part ? n : strlen(*q);

		if (k > cap - 1 - len)
			k = cap - 1 - len;
		memmove(out + len, *q, k);
		len += k;
	}
	out[len] = '\0';
}

/* Replace %L in s (size RPT_NAME_MAX) by the bucket label. */
static void
put_label(char *s, const char *label)
{
	char out[RPT_NAME_MAX];
	char *at = strstr(s, "%L");

	if (!at)
		return;
	join3(out, sizeof out, s, (size_t)(at - s), label, at + 2);
	strcpy(s, out);
}

static pm_status
add_column(struct parser *p, struct rpt_column *cols, size_t *n, size_t max,
           const struct rpt_column *c)
{
	uint16_t *slot = NULL;

	if (*n == max)
		return fail(p, "more than %zu columns", max);
	if (cols == p->def->cols ? *(slot = nameslot_find(p->col_names, COL_SLOTS, c->name,
	                                                  cols, sizeof *cols))
	                         : has_column(cols, *n, c->name))
		return fail(p, "duplicate column '%s'", c->name);
	cols[(*n)++] = *c;
	if (slot)
		*slot = (uint16_t)*n;
	return PM_OK;
}

/* The heading of a template in the table of its block: without %L and
 * the blanks or underscores beside it ("%L_waits" is "waits"). */
static void
block_heading(char *out, const char *heading)
{
	const char *at = strstr(heading, "%L");
	size_t n = at ? (size_t)(at - heading) : strlen(heading);
	const char *rest = at ? at + 2 : "";

	while (n && (heading[n - 1] == ' ' || heading[n - 1] == '_'))
		n--;
	rest += strspn(rest, " _");
	join3(out, RPT_NAME_MAX, heading, n, n && *rest ? " " : "", rest);
}

/* "end" of an each block: its columns for every bucket, in schema order. */
static pm_status
expand_each(struct parser *p)
{
	struct rpt_def *def = p->def;
	pm_status st;

	const struct schema_family *fam = &p->schema->family;

	/* a template's heading in its block's table is every bucket's */
	for (size_t i = 0; i < p->ntmpl; i++)
		block_heading(p->tmpl[i].block_heading, p->tmpl[i].heading);
	for (size_t b = 0; b < fam->nrows; b++)
		for (size_t i = 0; i < p->ntmpl; i++) {
			struct rpt_column c = p->tmpl[i];
			c.row = (int)b;
			put_label(c.name, fam->rows[b].label);
			put_label(c.heading, fam->rows[b].label);
			if (c.uses_row)
				c.groups |= 1u << fam->rows[b].group;
			if ((st = add_column(p, def->cols, &def->ncols, RPT_MAX_COLUMNS, &c)) != PM_OK)
				return st;
		}
	return PM_OK;
}

static pm_status
end_top(struct parser *p)
{
	struct rpt_def *def = p->def;

	for (size_t i = 0; i < def->ntop; i++)
		if (strcmp(def->top_cols[i].name, p->top_by) == 0) {
			if (def->top_cols[i].text != TEXT_NONE)
				return fail(p, "top: '%s' is a text column", p->top_by);
			def->top_by = i;
			return PM_OK;
		}
	return fail(p, "top: no column '%s' in the block", p->top_by);
}

static pm_status
directive_column(struct parser *p, char **tok, size_t ntok)
{
	struct rpt_def *def = p->def;
	struct rpt_column c;
	pm_status st;
	bool templ = p->block == BLOCK_EACH;

	if ((st = parse_column(p, tok, ntok, &c)) != PM_OK)
		return st;
	if (templ != (strstr(c.name, "%L") != NULL))
		return fail(p, templ ? "column '%s': a name inside 'each bucket' needs %%L"
		                     : "column '%s': %%L is only allowed inside 'each bucket'",
		            c.name);
	if (c.uses_row && p->block == BLOCK_NONE && def->rows != ROWS_BUCKET)
		return fail(p, "column '%s' reads a bucket: use it in a 'rows bucket' report, "
		            "or inside 'each bucket' or 'top'", c.name);
	p->seen_column = true;
	switch (p->block) {
	case BLOCK_EACH:
		if (has_column(p->tmpl, p->ntmpl, c.name))
			return fail(p, "duplicate column '%s'", c.name);
		return add_column(p, p->tmpl, &p->ntmpl, sizeof p->tmpl / sizeof p->tmpl[0], &c);
	case BLOCK_TOP:
		return add_column(p, def->top_cols, &def->ntop,
		                  sizeof def->top_cols / sizeof def->top_cols[0], &c);
	case BLOCK_NONE:
		break;
	}
	return add_column(p, def->cols, &def->ncols, RPT_MAX_COLUMNS, &c);
}

/* "top N buckets by COLUMN" */
static pm_status
directive_top(struct parser *p, char **tok, size_t ntok)
{
	uint64_t n;

	if (ntok != 5 || strcmp(tok[2], "buckets") != 0 || strcmp(tok[3], "by") != 0)
		return fail(p, "top wants: top N buckets by COLUMN");
	if (!numparse_u64(tok[1], RPT_MAX_TOP, &n) || n == 0)
		return fail(p, "top: N must be 1 to %d, not '%s'", RPT_MAX_TOP, tok[1]);
	if (p->seen_top)
		return fail(p, "only one 'top' block is allowed");
	if (p->def->rows != ROWS_GROUP)
		return fail(p, "'top' needs 'rows group'");
	if (strlen(tok[4]) >= sizeof p->top_by)
		return fail(p, "top: no column '%s' in the block", tok[4]);
	strcpy(p->top_by, tok[4]);
	p->def->top_n = (unsigned)n;
	p->seen_top = true;
	p->block = BLOCK_TOP;
	return PM_OK;
}

static pm_status
directive_end(struct parser *p, char **tok, size_t ntok)
{
	pm_status st;

	(void)tok;
	if (ntok != 1)
		return fail(p, "'end' takes no words");
	if (p->block == BLOCK_NONE)
		return fail(p, "'end' without 'each' or 'top'");
	st = p->block == BLOCK_EACH ? expand_each(p) : end_top(p);
	p->block = BLOCK_NONE;
	return st;
}

static pm_status
directive_each(struct parser *p, char **tok, size_t ntok)
{
	if (ntok != 2 || strcmp(tok[1], "bucket") != 0)
		return fail(p, "each wants: each bucket");
	if (rpt_is_series(p->def))
		return fail(p, "'each bucket' is not one of a series report");
	p->block = BLOCK_EACH;
	p->ntmpl = 0;
	return PM_OK;
}

/* "rows WHAT" and "layout WHAT": before the columns they shape. */
static pm_status
directive_shape(struct parser *p, char **tok, size_t ntok)
{
	bool rows = tok[0][0] == 'r';
	int v;

	if (ntok != 2 || (v = lookup(rows ? rows_names : layout_names, tok[1])) < 0)
		return fail(p, rows ? "rows wants group, bucket, interval, counter or instance"
		                    : "layout wants table or form");
	if (p->seen_column)
		return fail(p, "'%s' must come before the columns", tok[0]);
	if (rows)
		p->def->rows = (enum rpt_rows)v;
	else
		p->def->layout = (enum rpt_layout)v;
	return PM_OK;
}

/* "object NAME": the object a series report shows. */
static pm_status
directive_object(struct parser *p, char **tok, size_t ntok)
{
	if (ntok != 2)
		return fail(p, "object wants one name (quote a name with blanks)");
	if (!rpt_is_series(p->def))
		return fail(p, "'object' needs 'rows counter' or 'rows instance' first");
	if (strlen(tok[1]) >= sizeof p->def->object)
		return fail(p, "object name longer than %zu characters",
		            sizeof p->def->object - 1);
	strcpy(p->def->object, tok[1]);
	return PM_OK;
}

/* ---------------------------------------------------------------------- */
/* Charts */

static const struct name_value chart_kinds[] = {
	{ "stacked-bar", CHART_STACKED_BAR }, { "line", CHART_LINE }, { NULL, 0 },
};

/* Column name of the definition's own columns, numeric or text as asked. */
static pm_status
chart_column(struct parser *p, const char *key, const char *name, bool numeric,
             char dst[RPT_NAME_MAX])
{
	const struct rpt_def *def = p->def;

	for (size_t i = 0; i < def->ncols; i++)
		if (strcmp(def->cols[i].name, name) == 0) {
			if ((def->cols[i].text == TEXT_NONE) != numeric)
				return fail(p, "chart %s=%s: a %s column, not a %s one", key, name,
				            numeric ? "text" : "figure", numeric ? "figure" : "text");
			strcpy(dst, name);
			return PM_OK;
		}
	return fail(p, "chart %s=%s: no such column above the chart", key, name);
}

/* A comma-separated list of columns into dst[max]. */
static pm_status
chart_columns(struct parser *p, const char *key, char *val, bool numeric,
              char (*dst)[RPT_NAME_MAX], size_t max, size_t *n)
{
	char *save;
	pm_status st;

	*n = 0;
	for (char *name = strtok_r(val, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		if (*n == max)
			return fail(p, "chart %s: at most %zu columns", key, max);
		if ((st = chart_column(p, key, name, numeric, dst[(*n)++])) != PM_OK)
			return st;
	}
	return *n ? PM_OK : fail(p, "chart %s: no column", key);
}

static pm_status
chart_text(struct parser *p, const char *key, const char *val, char *dst, size_t cap)
{
	if (strlen(val) >= cap)
		return fail(p, "chart %s longer than %zu characters", key, cap - 1);
	strcpy(dst, val);
	return PM_OK;
}

/* labels=A,B,...: the legend's names of the series, one each. */
static pm_status
chart_labels(struct parser *p, struct rpt_chart *c, char *val)
{
	char *save;
	size_t n = 0;
	pm_status st;

	for (char *s = strtok_r(val, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		if (n == RPT_MAX_SERIES)
			return fail(p, "chart labels: at most %d", RPT_MAX_SERIES);
		if ((st = chart_text(p, "label", s, c->labels[n++], RPT_NAME_MAX)) != PM_OK)
			return st;
	}
	return PM_OK;
}

/* One key=value of a chart line. */
static pm_status
chart_key(struct parser *p, struct rpt_chart *c, char *key)
{
	char *val = strchr(key, '=');
	size_t one;
	uint64_t n;

	if (!val)
		return fail(p, "'%s' is not key=value", key);
	*val++ = '\0';
	if (strcmp(key, "series") == 0)
		return chart_columns(p, key, val, true, c->series, RPT_MAX_SERIES, &c->nseries);
	if (strcmp(key, "per") == 0)
		return chart_columns(p, key, val, false, c->per, 2, &c->nper);
	if (strcmp(key, "axis2") == 0 || strcmp(key, "split") == 0 || strcmp(key, "rank") == 0)
		return chart_columns(p, key, val, key[0] != 's',
		                     key[0] == 'a' ? &c->axis2 : key[0] == 's' ? &c->split
		                                                              : &c->rank, 1, &one);
	if (strcmp(key, "labels") == 0)
		return chart_labels(p, c, val);
	if (strcmp(key, "label2") == 0)
		return chart_text(p, key, val, c->label2, sizeof c->label2);
	if (strcmp(key, "unit") == 0)
		return chart_text(p, key, val, c->unit, sizeof c->unit);
	if (strcmp(key, "unit2") == 0)
		return chart_text(p, key, val, c->unit2, sizeof c->unit2);
	if (strcmp(key, "title") == 0)
		return chart_text(p, key, val, c->title, sizeof c->title);
	if (strcmp(key, "top") == 0) {
		if (!numparse_u64(val, RPT_MAX_TOP, &n) || n == 0)
			return fail(p, "chart top must be 1 to %d, not '%s'", RPT_MAX_TOP, val);
		c->top = (unsigned)n;
		return PM_OK;
	}
	return fail(p, "unknown chart key '%s'", key);
}

/* "chart NAME KIND key=value...", after the columns it draws. */
static pm_status
directive_chart(struct parser *p, char **tok, size_t ntok)
{
	struct rpt_def *def = p->def;
	struct rpt_chart *c;
	int kind;
	pm_status st;

	if (ntok < 3)
		return fail(p, "chart wants: chart NAME stacked-bar|line series=COL,... [key=value]...");
	if (def->ncharts == RPT_MAX_CHARTS)
		return fail(p, "at most %d charts", RPT_MAX_CHARTS);
	if (!name_ok(tok[1]))
		return fail(p, "bad chart name '%s'", tok[1]);
	if ((kind = lookup(chart_kinds, tok[2])) < 0)
		return fail(p, "chart kind must be stacked-bar or line, not '%s'", tok[2]);
	c = &def->charts[def->ncharts];
	*c = (struct rpt_chart){ .kind = (enum rpt_chart_kind)kind };
	strcpy(c->name, tok[1]);
	for (size_t i = 3; i < ntok; i++)
		if ((st = chart_key(p, c, tok[i])) != PM_OK)
			return st;
	if (!c->nseries)
		return fail(p, "chart %s: no series=", c->name);
	if (c->labels[0][0] && (c->split[0] || !c->labels[c->nseries - 1][0] ||
	                        (c->nseries < RPT_MAX_SERIES && c->labels[c->nseries][0])))
		return fail(p, "chart %s: labels= names each series= column, without split=",
		            c->name);
	if (c->split[0] && c->nseries != 1)
		return fail(p, "chart %s: split= takes one series column", c->name);
	if ((c->top || c->rank[0]) && !c->split[0])
		return fail(p, "chart %s: top= and rank= need split=", c->name);
	if (c->axis2[0] && (c->kind != CHART_STACKED_BAR || c->split[0]))
		return fail(p, "chart %s: axis2= is a line over stacked bars, without split=", c->name);
	if (!c->rank[0])
		strcpy(c->rank, c->series[0]);
	for (size_t i = 0; i < c->nseries; i++)
		if (!c->labels[i][0])
			strcpy(c->labels[i], c->series[i]);
	if (!c->label2[0])
		strcpy(c->label2, c->axis2);
	if (!c->title[0])
		strcpy(c->title, def->title);
	def->ncharts++;
	return PM_OK;
}

/* The directives; in_block: allowed inside "each" and "top" blocks. */
static const struct {
	const char *name;
	pm_status (*run)(struct parser *p, char **tok, size_t ntok);
	bool in_block;
} directives[] = {
	{ "column", directive_column, true },
	{ "end", directive_end, true },
	{ "each", directive_each, false },
	{ "top", directive_top, false },
	{ "rows", directive_shape, false },
	{ "layout", directive_shape, false },
	{ "object", directive_object, false },
	{ "chart", directive_chart, false },
};

/* The rest of a line after its first word, for title and description. */
static pm_status
set_text(struct parser *p, char *dst, const char *line, const char *word)
{
	const char *s = strstr(line, word) + strlen(word);

	while (*s == ' ' || *s == '\t')
		s++;
	if (strlen(s) >= RPT_TEXT_MAX)
		return fail(p, "%s longer than %d characters", word, RPT_TEXT_MAX - 1);
	strcpy(dst, s);
	return PM_OK;
}

static pm_status
parse_line(struct parser *p, char *line)
{
	char copy[1024], *tok[LINE_MAX_TOKENS];
	size_t ntok;

	if (strlen(line) >= sizeof copy)
		return fail(p, "line longer than %zu characters", sizeof copy - 1);
	strcpy(copy, line);
	/* title and description take the rest of the line, as it is */
	copy[strcspn(copy, " \t")] = '\0';
	if (p->block == BLOCK_NONE && strcmp(copy, "title") == 0)
		return set_text(p, p->def->title, line, "title");
	if (p->block == BLOCK_NONE && strcmp(copy, "description") == 0)
		return set_text(p, p->def->description, line, "description");
	strcpy(copy, line);
	if (tokenize(p, copy, tok, &ntok) < 0)
		return PM_E_DEFINITION;
	if (ntok == 0 || tok[0][0] == '#')
		return PM_OK;
	for (size_t i = 0; i < sizeof directives / sizeof directives[0]; i++)
		if (strcmp(tok[0], directives[i].name) == 0) {
			if (p->block != BLOCK_NONE && !directives[i].in_block)
				break;
			return directives[i].run(p, tok, ntok);
		}
	if (p->block != BLOCK_NONE)
		return fail(p, "'%s' inside a block: only columns, then 'end'", tok[0]);
	return fail(p, "unknown directive '%s'", tok[0]);
}

pm_status
rptdef_parse(struct rpt_def *def, const char *name, const char *text,
             const char *file, const struct schema *schema, char *err,
             size_t errlen)
{
	struct parser p;
	char line[1024];
	pm_status st;

	/* what comes before the tables: their entries are written whole as
	 * they are counted, and zeroing them (~350 KB) cost every start-up */
	memset(&p, 0, offsetof(struct parser, tmpl));
	p.def = def;
	p.schema = schema;
	p.file = file;
	p.err = err;
	p.errlen = errlen;
	memset(def, 0, offsetof(struct rpt_def, cols));
	text_copy(def->name, sizeof def->name, name);
	def->fingerprint = fnv_text(FNV_OFFSET, text);
	text_copy(def->title, sizeof def->title, name);
	while (*text) {
		size_t n = strcspn(text, "\n");
		p.line++;
		if (n >= sizeof line)
			return fail(&p, "line longer than %zu characters", sizeof line - 1);
		memcpy(line, text, n);
		line[n] = '\0';
		if (n && line[n - 1] == '\r')
			line[n - 1] = '\0';
		if ((st = parse_line(&p, line)) != PM_OK)
			return st;
		text += n + (text[n] == '\n');
	}
	if (p.block != BLOCK_NONE)
		return fail(&p, "missing 'end'");
	if (def->ncols == 0 && def->ntop == 0)
		return fail(&p, "no columns");
	if (def->rows == ROWS_INSTANCE && !def->object[0])
		return fail(&p, "'rows instance' needs 'object NAME'");
	return PM_OK;
}
