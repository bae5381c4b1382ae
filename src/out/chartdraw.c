/* chartdraw.c: one chart drawn. See chartdraw.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fmtnum.h"
#include "out/chartdraw.h"
#include "out/charttime.h"

#define FONT "DejaVu Sans"
#define TEXT_PT 9
#define TITLE_PT 11

/* Okabe and Ito's colours, ordered so that neighbours in a stack differ in
 * lightness as well as hue (grey 0.37, 0.64 hatched, 0.86, 0.30 hatched,
 * 0.48, 0.64 hatched, 0.44, 0.56 hatched); "other" grey. */
static const double palette[][3] = {
	{ 0.000, 0.447, 0.698 }, { 0.902, 0.624, 0.000 }, { 0.941, 0.894, 0.259 },
	{ 0.416, 0.239, 0.604 }, { 0.000, 0.620, 0.451 }, { 0.337, 0.706, 0.914 },
	{ 0.835, 0.369, 0.000 }, { 0.800, 0.475, 0.655 },
};
#define NCOLOURS (sizeof palette / sizeof palette[0])
static const double other_grey[3] = { 0.733, 0.733, 0.733 };

static const double dashes[][4] = {
	{ 0, 0, 0, 0 }, { 6, 3, 6, 3 }, { 1.5, 2.5, 1.5, 2.5 }, { 7, 2, 1.5, 2 },
	{ 11, 4, 11, 4 }, { 3, 3, 3, 3 }, { 7, 2, 1.5, 2 }, { 1.5, 4, 1.5, 4 },
};

struct canvas {
	cairo_t *cr;
	PangoLayout *text;
	double left, right, top, bottom;   /* the plot area */
	int64_t t0, t1;
};

static const double *
colour(const struct chart_plot *p, size_t s)
{
	return strcmp(p->names[s], "other") == 0 && p->spec->split[0] ? other_grey
	       : palette[s % NCOLOURS];
}

static void
set_colour(cairo_t *cr, const double c[3])
{
	cairo_set_source_rgb(cr, c[0], c[1], c[2]);
}

static void
set_font(PangoLayout *l, int pt, bool bold)
{
	PangoFontDescription *fd = pango_font_description_new();

	pango_font_description_set_family(fd, FONT);
	pango_font_description_set_size(fd, pt * PANGO_SCALE);
	pango_font_description_set_weight(fd, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
	pango_layout_set_font_description(l, fd);
	pango_font_description_free(fd);
}

/* Text at (x, y), its box placed by ax and ay (0 left or top, 0.5 centre,
 * 1 right or bottom), turned a quarter left when up; returns its width. */
static double
text(struct canvas *f, const char *s, double x, double y, double ax, double ay, bool up)
{
	int w, h;

	pango_layout_set_text(f->text, s, -1);
	pango_layout_get_size(f->text, &w, &h);
	cairo_save(f->cr);
	cairo_translate(f->cr, x, y);
	if (up)
		cairo_rotate(f->cr, -M_PI / 2);
	cairo_move_to(f->cr, -ax * w / PANGO_SCALE, -ay * h / PANGO_SCALE);
	cairo_set_source_rgb(f->cr, 0, 0, 0);
	pango_cairo_show_layout(f->cr, f->text);
	cairo_restore(f->cr);
	return (double)w / PANGO_SCALE;
}

static double
text_width(struct canvas *f, const char *s)
{
	int w, h;

	pango_layout_set_text(f->text, s, -1);
	pango_layout_get_size(f->text, &w, &h);
	return (double)w / PANGO_SCALE;
}

static double
x_of(const struct canvas *f, int64_t t)
{
	return f->left + (f->right - f->left) * (double)(t - f->t0) / (double)(f->t1 - f->t0);
}

/* A scale from 0 to at least max in 1, 2 or 5 times a power of ten. */
struct scale {
	double step, top;
	unsigned decimals;
};

static struct scale
nice_scale(double max)
{
	struct scale s;
	double mag, f;

	if (!(max > 0))
		max = 1;
	mag = pow(10, floor(log10(max / 5)));
	f = max / 5 / mag;
	s.step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
	s.top = ceil(max / s.step - 1e-9) * s.step;
	s.decimals = s.step < 1 ? (unsigned)ceil(-log10(s.step) - 1e-9) : 0;
	return s;
}

static double
y_of(const struct canvas *f, const struct scale *s, double v)
{
	return f->bottom - (f->bottom - f->top) * v / s->top;
}

/* The value axis at x, its labels on the side (-1 left, 1 right). */
static void
value_axis(struct canvas *f, const struct scale *s, double x, int side, const char *unit,
           bool grid)
{
	char num[FMTNUM_MAX + 1];
	double widest = 0;

	for (double v = 0; v <= s->top + s->step / 2; v += s->step) {
		double y = y_of(f, s, v);
		num[fmt_fixed(num, v, s->decimals)] = '\0';
		if (grid) {
			cairo_set_source_rgb(f->cr, 0.85, 0.85, 0.85);
			cairo_move_to(f->cr, f->left, y);
			cairo_line_to(f->cr, f->right, y);
			cairo_stroke(f->cr);
		}
		cairo_set_source_rgb(f->cr, 0, 0, 0);
		cairo_move_to(f->cr, x, y);
		cairo_line_to(f->cr, x + 4 * side, y);
		cairo_stroke(f->cr);
		widest = fmax(widest, text(f, num, x + 6 * side, y, side < 0 ? 1 : 0, 0.5, false));
	}
	if (unit[0])
		text(f, unit, x + side * (widest + 10), (f->top + f->bottom) / 2, 0.5,
		     side < 0 ? 1 : 0, true);
}

static void
time_axis(struct canvas *f, const struct chart_plot *p)
{
	struct chart_tick ticks[CHART_TICKS_MAX];
	size_t n = chart_time_ticks(p->zone, f->t0, f->t1,
	                            (size_t)((f->right - f->left) / 60) + 1, ticks);

	cairo_set_source_rgb(f->cr, 0, 0, 0);
	cairo_move_to(f->cr, f->left, f->bottom);
	cairo_line_to(f->cr, f->right, f->bottom);
	cairo_stroke(f->cr);
	for (size_t i = 0; i < n; i++) {
		double x = x_of(f, ticks[i].at), y = f->bottom + 8;
		cairo_move_to(f->cr, x, f->bottom);
		cairo_line_to(f->cr, x, f->bottom + 4);
		cairo_stroke(f->cr);
		if (ticks[i].time[0]) {
			text(f, ticks[i].time, x, y, 0.5, 0, false);
			y += TEXT_PT + 3;
		}
		if (ticks[i].date[0])
			text(f, ticks[i].date, x, y, 0.5, 0, false);
	}
}

/* Diagonal hatching over the current path, for every other series. */
/* Diagonal hatching over the current path, kept as the clip, within the
 * box: one path for every bar of a series. */
static void
hatch_path(cairo_t *cr, double x0, double y0, double x1, double y1)
{
	cairo_save(cr);
	cairo_clip(cr);
	cairo_set_source_rgba(cr, 0, 0, 0, 0.45);
	cairo_set_line_width(cr, 0.6);
	for (double x = x0 - (y1 - y0); x < x1; x += 4) {
		cairo_move_to(cr, x, y1);
		cairo_line_to(cr, x + (y1 - y0), y0);
	}
	cairo_stroke(cr);
	cairo_restore(cr);
}

/* The legend's box of series s. */
static void
swatch_fill(cairo_t *cr, const struct chart_plot *p, size_t s, double x0, double y0,
            double x1, double y1)
{
	set_colour(cr, colour(p, s));
	cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0);
	cairo_fill_preserve(cr);
	if (s % 2)
		hatch_path(cr, x0, y0, x1, y1);
	cairo_new_path(cr);
}

/* Series k's part of period i's bar: from the sum of the series below
 * it; false when it has none. */
static bool
bar_part(const struct chart_plot *p, size_t i, size_t k, double *below, double *v)
{
	*below = 0;
	*v = p->values[i * p->nseries + k];
	if (isnan(*v) || *v <= 0)
		return false;
	for (size_t j = 0; j < k; j++) {
		double u = p->values[i * p->nseries + j];
		if (!isnan(u) && u > 0)
			*below += u;
	}
	return true;
}

/* The stacked bars, a path for each series (filled, hatched for every
 * other one where the bars are wide enough for it to show), and white
 * rules between the parts of wide bars. */
static void
bars(struct canvas *f, const struct chart_plot *p, const struct scale *s)
{
	double widest = 0;

	for (size_t k = 0; k < p->nseries; k++) {
		for (size_t i = 0; i < p->nperiods; i++) {
			double x0 = x_of(f, p->periods[i].start), x1 = x_of(f, p->periods[i].end);
			double inset = x1 - x0 >= 2 ? (x1 - x0) * 0.1 : 0, below, v;
			widest = fmax(widest, x1 - x0);
			if (bar_part(p, i, k, &below, &v))
				cairo_rectangle(f->cr, x0 + inset, y_of(f, s, below + v),
				                x1 - x0 - 2 * inset, y_of(f, s, below) - y_of(f, s, below + v));
		}
		set_colour(f->cr, colour(p, k));
		cairo_fill_preserve(f->cr);
		if (k % 2 && widest >= 3)  /* narrower, hatching is a blur */
			hatch_path(f->cr, f->left, f->top, f->right, f->bottom);
		cairo_new_path(f->cr);
	}
	if (widest <= 4)
		return;
	for (size_t i = 0; i < p->nperiods; i++)
		for (size_t k = 0; k + 1 < p->nseries; k++) {
			double x0 = x_of(f, p->periods[i].start), x1 = x_of(f, p->periods[i].end);
			double inset = x1 - x0 >= 2 ? (x1 - x0) * 0.1 : 0, below, v;
			if (bar_part(p, i, k, &below, &v)) {
				cairo_move_to(f->cr, x0 + inset, y_of(f, s, below + v));
				cairo_line_to(f->cr, x1 - inset, y_of(f, s, below + v));
			}
		}
	cairo_set_source_rgb(f->cr, 1, 1, 1);
	cairo_set_line_width(f->cr, 0.5);
	cairo_stroke(f->cr);
	cairo_set_line_width(f->cr, 1);
}

static void
marker(cairo_t *cr, size_t s, double x, double y)
{
	double r = 2.5;

	switch (s % 4) {
	case 0: cairo_arc(cr, x, y, r, 0, 2 * M_PI); break;
	case 1: cairo_rectangle(cr, x - r, y - r, 2 * r, 2 * r); break;
	case 2:
		cairo_move_to(cr, x, y - r);
		cairo_line_to(cr, x + r, y + r);
		cairo_line_to(cr, x - r, y + r);
		cairo_close_path(cr);
		break;
	default:
		cairo_move_to(cr, x, y - r);
		cairo_line_to(cr, x + r, y);
		cairo_line_to(cr, x, y + r);
		cairo_line_to(cr, x - r, y);
		cairo_close_path(cr);
		break;
	}
	cairo_fill(cr);
}

static void
line_style(cairo_t *cr, size_t s, bool dense)
{
	const double *d = dashes[s % (sizeof dashes / sizeof dashes[0])];

	cairo_set_line_width(cr, dense ? 0.6 : 1.5);
	cairo_set_dash(cr, d, d[0] > 0 && !dense ? 4 : 0, 0);
}

/* A series as a line through the periods' middles, broken where a period
 * has no value or time passes between two periods. */
static void
line(struct canvas *f, const struct chart_plot *p, const struct scale *s, const double *v,
     size_t stride, size_t k, const double rgb[3], bool markers)
{
	bool joined = false;

	set_colour(f->cr, rgb);
	/* a point every 2 points or closer: thin, and solid (dashes would not show) */
	line_style(f->cr, k, (f->right - f->left) / 2 < (double)p->nperiods);
	for (size_t i = 0; i < p->nperiods; i++) {
		double x = (x_of(f, p->periods[i].start) + x_of(f, p->periods[i].end)) / 2;
		double val = v[i * stride];
		if (isnan(val)) {
			joined = false;
			continue;
		}
		if (joined && p->periods[i - 1].end >= p->periods[i].start)
			cairo_line_to(f->cr, x, y_of(f, s, val));
		else
			cairo_move_to(f->cr, x, y_of(f, s, val));
		joined = true;
	}
	cairo_stroke(f->cr);
	cairo_set_dash(f->cr, NULL, 0, 0);
	if (markers)
		for (size_t i = 0; i < p->nperiods; i++)
			if (!isnan(v[i * stride]))
				marker(f->cr, k, (x_of(f, p->periods[i].start) +
				                  x_of(f, p->periods[i].end)) / 2,
				       y_of(f, s, v[i * stride]));
	cairo_set_line_width(f->cr, 1);
}

/* Incomplete periods: a hatched strip under the axis. */
static bool
incomplete(struct canvas *f, const struct chart_plot *p)
{
	bool any = false;

	for (size_t i = 0; i < p->nperiods; i++)
		if (p->periods[i].marked) {
			double x0 = x_of(f, p->periods[i].start), x1 = x_of(f, p->periods[i].end);
			cairo_set_source_rgb(f->cr, 0.3, 0.3, 0.3);
			cairo_rectangle(f->cr, x0, f->bottom + 1, x1 - x0, 3);
			cairo_fill(f->cr);
			any = true;
		}
	return any;
}

struct legend_entry {
	const char *name;
	size_t series;
	enum { KEY_BOX, KEY_LINE, KEY_STRIP } key;
	const double *rgb;
};

static double
legend_width(struct canvas *f, const struct legend_entry *e)
{
	return 18 + text_width(f, e->name) + 14;
}

/* The rows the legend needs between x0 and x1. */
static unsigned
legend_rows(struct canvas *f, const struct legend_entry *e, size_t n, double x0, double x1)
{
	unsigned rows = n > 0;
	double x = x0;

	for (size_t i = 0; i < n; i++) {
		double w = legend_width(f, &e[i]);
		if (x + w > x1 && x > x0) {
			rows++;
			x = x0;
		}
		x += w;
	}
	return rows;
}

static void
legend(struct canvas *f, const struct chart_plot *p, const struct legend_entry *e,
       size_t n, double x0, double x1, double y)
{
	double x = x0, row = TEXT_PT + 6;

	for (size_t i = 0; i < n; i++) {
		double w = legend_width(f, &e[i]), cy = y + row / 2;
		if (x + w > x1 && x > x0) {
			x = x0;
			y += row;
			cy = y + row / 2;
		}
		switch (e[i].key) {
		case KEY_BOX:
			swatch_fill(f->cr, p, e[i].series, x, cy - 4.5, x + 14, cy + 4.5);
			break;
		case KEY_LINE:
			set_colour(f->cr, e[i].rgb);
			line_style(f->cr, e[i].series, false);
			cairo_move_to(f->cr, x, cy);
			cairo_line_to(f->cr, x + 14, cy);
			cairo_stroke(f->cr);
			cairo_set_dash(f->cr, NULL, 0, 0);
			marker(f->cr, e[i].series, x + 7, cy);
			cairo_set_line_width(f->cr, 1);
			break;
		case KEY_STRIP:
			cairo_set_source_rgb(f->cr, 0.3, 0.3, 0.3);
			cairo_rectangle(f->cr, x, cy - 1.5, 14, 3);
			cairo_fill(f->cr);
			break;
		}
		text(f, e[i].name, x + 18, cy, 0, 0.5, false);
		x += w;
	}
}

static double
series_max(const struct chart_plot *p, bool stacked)
{
	double max = 0;

	for (size_t i = 0; i < p->nperiods; i++) {
		double sum = 0;
		for (size_t k = 0; k < p->nseries; k++) {
			double v = p->values[i * p->nseries + k];
			if (isnan(v))
				continue;
			sum = stacked ? sum + fmax(v, 0) : fmax(sum, v);
		}
		max = fmax(max, sum);
	}
	return max;
}

struct chart_fonts {
	PangoFontMap *map;
};

struct chart_fonts *
chart_fonts_open(void)
{
	struct chart_fonts *fonts = malloc(sizeof *fonts);

	if (fonts && !(fonts->map = pango_cairo_font_map_new())) {
		free(fonts);
		return NULL;
	}
	return fonts;
}

void
chart_fonts_close(struct chart_fonts *fonts)
{
	if (fonts) {
		g_object_unref(fonts->map);
		free(fonts);
	}
}

void
chart_draw(cairo_t *cr, struct chart_fonts *fonts, const struct chart_plot *p, double w,
           double h, const char *subtitle)
{
	PangoContext *pc = pango_font_map_create_context(fonts->map);
	const struct rpt_chart *c = p->spec;
	bool stacked = c->kind == CHART_STACKED_BAR, marks = false;
	struct legend_entry entries[RPT_MAX_TOP + 3];
	size_t n = 0;
	struct scale s, s2 = { 1, 1, 0 };
	struct canvas f = { cr, NULL, 0, 0, 0, 0, 0, 0 };
	char title[2 * RPT_TEXT_MAX + 8];
	double axis2_max = 0;
	unsigned rows;
	cairo_font_options_t *fo = cairo_font_options_create();

	/* points as units, and no hinting: the same layout on every surface */
	pango_cairo_update_context(cr, pc);
	cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
	cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
	pango_cairo_context_set_font_options(pc, fo);
	pango_cairo_context_set_resolution(pc, 72);
	cairo_font_options_destroy(fo);
	f.text = pango_layout_new(pc);

	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_set_line_width(cr, 1);
	f.t0 = p->nperiods ? p->periods[0].start : 0;
	f.t1 = p->nperiods ? p->periods[p->nperiods - 1].end : 1;
	if (f.t1 <= f.t0)
		f.t1 = f.t0 + 1;
	for (size_t i = 0; i < p->nperiods; i++)
		marks |= p->periods[i].marked;

	for (size_t k = 0; k < p->nseries; k++)
		entries[n++] = (struct legend_entry){ p->names[k][0] ? p->names[k] : c->labels[0],
		                                      k, stacked ? KEY_BOX : KEY_LINE,
		                                      colour(p, k) };
	if (p->axis2) {
		static const double black[3] = { 0.1, 0.1, 0.1 };
		entries[n++] = (struct legend_entry){ c->label2, 0, KEY_LINE, black };
	}
	if (marks)
		entries[n++] = (struct legend_entry){ "incomplete period", 0, KEY_STRIP, NULL };

	set_font(f.text, TEXT_PT, false);
	f.left = 72;
	f.right = w - (p->axis2 ? 64 : 40);
	f.top = 14 + TITLE_PT + TEXT_PT + 16;
	rows = legend_rows(&f, entries, n, f.left, f.right);
	f.bottom = h - 12 - 2 * (TEXT_PT + 3) - 8 - rows * (TEXT_PT + 6);

	snprintf(title, sizeof title, "%s: %s", c->title, p->label);
	set_font(f.text, TITLE_PT, true);
	text(&f, title, f.left, 8, 0, 0, false);
	set_font(f.text, TEXT_PT, false);
	text(&f, subtitle, f.left, 10 + TITLE_PT + 4, 0, 0, false);

	s = nice_scale(series_max(p, stacked));
	value_axis(&f, &s, f.left, -1, c->unit, true);
	if (p->axis2) {
		for (size_t i = 0; i < p->nperiods; i++)
			if (!isnan(p->axis2[i]))
				axis2_max = fmax(axis2_max, p->axis2[i]);
		s2 = nice_scale(axis2_max);
		value_axis(&f, &s2, f.right, 1, c->unit2, false);
	}
	cairo_save(cr);  /* nothing drawn outside the plot (a negative value) */
	cairo_rectangle(cr, f.left - 4, f.top - 4, f.right - f.left + 8, f.bottom - f.top + 4);
	cairo_clip(cr);
	if (stacked)
		bars(&f, p, &s);
	else
		for (size_t k = 0; k < p->nseries; k++)
			line(&f, p, &s, p->values + k, p->nseries, k, colour(p, k), p->nperiods <= 48);
	if (p->axis2)
		line(&f, p, &s2, p->axis2, 1, 0, entries[n - 1 - marks].rgb, p->nperiods <= 48);
	cairo_restore(cr);
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_move_to(cr, f.left, f.top);
	cairo_line_to(cr, f.left, f.bottom);
	cairo_stroke(cr);
	if (p->axis2) {
		cairo_move_to(cr, f.right, f.top);
		cairo_line_to(cr, f.right, f.bottom);
		cairo_stroke(cr);
	}
	time_axis(&f, p);
	(void)incomplete(&f, p);
	legend(&f, p, entries, n, f.left, f.right, f.bottom + 8 + 2 * (TEXT_PT + 3) + 4);
	g_object_unref(f.text);
	g_object_unref(pc);
}
