/* chartdata.c: a chart's rows kept per panel. See chartdata.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "out/cell.h"
#include "out/chartdata.h"

#define NO_COLUMN SIZE_MAX

struct series {
	char *name;
	double rank;        /* the total of the rank column, for top= */
};

struct point {
	int64_t start;      /* of its period */
	uint32_t series;    /* fixed series: the spec's index, axis2 after them */
	double v;
};

struct panel {
	char *label;
	struct chart_period *periods;
	size_t nperiods, cap_periods;
	struct series *series;
	size_t nseries, cap_series;
	struct point *points;
	size_t npoints, cap_points;
};

struct chart_data {
	const struct rpt_chart *spec;
	size_t source, start, end, split, rank, axis2;
	size_t per[2], series[RPT_MAX_SERIES];
	const struct tzone *zone;
	struct panel *panels;
	size_t npanels, cap_panels, last;
	bool nomem;
	/* the plot handed out */
	size_t *order;      /* plot series of each panel series; SIZE_MAX: none */
	const char **names;
	double *values, *axis2_values;
};

pm_status
chart_data_open(struct chart_data **out, const struct rpt_chart *spec)
{
	if (!(*out = calloc(1, sizeof **out)))
		return PM_E_NOMEM;
	(*out)->spec = spec;
	return PM_OK;
}

static size_t
column(const struct sink_column *cols, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(cols[i].name, name) == 0)
			return i;
	return NO_COLUMN;
}

pm_status
chart_data_begin(struct chart_data *d, const struct sink_column *cols, size_t n)
{
	const struct rpt_chart *c = d->spec;

	d->source = column(cols, n, "source");
	d->start = column(cols, n, "period_start");
	d->end = column(cols, n, "period_end");
	d->split = c->split[0] ? column(cols, n, c->split) : NO_COLUMN;
	d->rank = column(cols, n, c->rank);
	d->axis2 = c->axis2[0] ? column(cols, n, c->axis2) : NO_COLUMN;
	if (d->source == NO_COLUMN || d->start == NO_COLUMN || d->end == NO_COLUMN ||
	    d->rank == NO_COLUMN || (c->split[0] && d->split == NO_COLUMN) ||
	    (c->axis2[0] && d->axis2 == NO_COLUMN))
		return PM_E_USAGE;
	for (size_t i = 0; i < c->nper; i++)
		if ((d->per[i] = column(cols, n, c->per[i])) == NO_COLUMN)
			return PM_E_USAGE;
	for (size_t i = 0; i < c->nseries; i++)
		if ((d->series[i] = column(cols, n, c->series[i])) == NO_COLUMN)
			return PM_E_USAGE;
	return PM_OK;
}

/* The text of a text cell, or of any cell formatted, as a NUL-ended copy
 * in buf. */
static const char *
cell_text(const struct sink_cell *cell, char *buf, size_t cap)
{
	char tmp[CELL_FORMAT_MAX];
	size_t n;
	const char *s = cell_bytes(cell, tmp, &n);

	if (n >= cap)
		n = cap - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return buf;
}

/* The panel of the row: its source and per= values joined by blanks. */
static struct panel *
find_panel(struct chart_data *d, const struct sink_cell *cells)
{
	char label[3 * RPT_TEXT_MAX], part[RPT_TEXT_MAX];
	struct panel *p;

	cell_text(&cells[d->source], label, sizeof label);
	for (size_t i = 0; i < d->spec->nper; i++) {
		cell_text(&cells[d->per[i]], part, sizeof part);
		if (*part)
			strcat(strcat(label, " "), part);
	}
	if (d->npanels && strcmp(d->panels[d->last].label, label) == 0)
		return &d->panels[d->last];
	for (size_t i = 0; i < d->npanels; i++)
		if (strcmp(d->panels[i].label, label) == 0)
			return &d->panels[d->last = i];
	if (!grow_table((void **)&d->panels, &d->cap_panels, d->npanels + 1, sizeof *p))
		return NULL;
	p = &d->panels[d->npanels];
	*p = (struct panel){ .label = strdup(label) };
	if (!p->label)
		return NULL;
	d->last = d->npanels++;
	return p;
}

/* The period starting at start, added in time order when new. */
static bool
add_period(struct panel *p, int64_t start, int64_t end, bool marked)
{
	size_t lo = 0, hi = p->nperiods;

	if (hi && p->periods[hi - 1].start < start)
		lo = hi;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->periods[mid].start < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < p->nperiods && p->periods[lo].start == start) {
		p->periods[lo].marked |= marked;
		return true;
	}
	if (!grow_table((void **)&p->periods, &p->cap_periods, p->nperiods + 1,
	                sizeof *p->periods))
		return false;
	memmove(p->periods + lo + 1, p->periods + lo,
	        (p->nperiods - lo) * sizeof *p->periods);
	p->periods[lo] = (struct chart_period){ start, end, marked };
	p->nperiods++;
	return true;
}

/* The series named by the split column's text, added when new. */
static bool
find_series(struct panel *p, const char *name, size_t *out)
{
	for (size_t i = p->nseries; i-- > 0;)
		if (strcmp(p->series[i].name, name) == 0) {
			*out = i;
			return true;
		}
	if (!grow_table((void **)&p->series, &p->cap_series, p->nseries + 1,
	                sizeof *p->series) ||
	    !(p->series[p->nseries].name = strdup(name)))
		return false;
	p->series[p->nseries].rank = 0;
	*out = p->nseries++;
	return true;
}

static bool
add_point(struct panel *p, int64_t start, size_t series, double v)
{
	if (isnan(v))
		return true;
	if (!grow_table((void **)&p->points, &p->cap_points, p->npoints + 1,
	                sizeof *p->points))
		return false;
	p->points[p->npoints++] = (struct point){ start, (uint32_t)series, v };
	return true;
}

void
chart_data_row(struct chart_data *d, const struct sink_cell *cells, bool marked)
{
	const struct sink_cell *start = &cells[d->start], *end = &cells[d->end];
	const struct rpt_chart *c = d->spec;
	struct panel *p;
	bool ok;

	if (d->nomem || start->kind != SINK_STAMP || end->kind != SINK_STAMP)
		return;
	d->zone = start->v.stamp.zone;
	if (!(p = find_panel(d, cells)) ||
	    !add_period(p, start->v.stamp.at, end->v.stamp.at, marked)) {
		d->nomem = true;
		return;
	}
	if (c->split[0]) {
		char name[RPT_TEXT_MAX];
		size_t s;
		double rank = cell_real(&cells[d->rank]);
		ok = find_series(p, cell_text(&cells[d->split], name, sizeof name), &s) &&
		     add_point(p, start->v.stamp.at, s, cell_real(&cells[d->series[0]]));
		if (ok && !isnan(rank))
			p->series[s].rank += rank;
	} else {
		ok = true;
		for (size_t i = 0; i < c->nseries && ok; i++)
			ok = add_point(p, start->v.stamp.at, i, cell_real(&cells[d->series[i]]));
		if (ok && c->axis2[0])
			ok = add_point(p, start->v.stamp.at, c->nseries, cell_real(&cells[d->axis2]));
	}
	d->nomem = !ok;
}

pm_status
chart_data_status(const struct chart_data *d)
{
	return d->nomem ? PM_E_NOMEM : PM_OK;
}

size_t
chart_data_panels(const struct chart_data *d)
{
	return d->npanels;
}

const char *
chart_data_label(const struct chart_data *d, size_t i)
{
	return d->panels[i].label;
}

static size_t
period_index(const struct panel *p, int64_t start)
{
	size_t lo = 0, hi = p->nperiods;

	while (lo + 1 < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->periods[mid].start <= start)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Series by their rank, largest first; ties by name, for the same
 * picture every run. */
static const struct panel *sorting;

static int
by_rank(const void *a, const void *b)
{
	const struct series *x = &sorting->series[*(const size_t *)a];
	const struct series *y = &sorting->series[*(const size_t *)b];

	if (x->rank != y->rank)
		return x->rank > y->rank ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Each panel series' place in the plot: top= of them by rank, the rest
 * summed as "other" in a stacked chart and left out of a line chart. */
static size_t
order_series(struct chart_data *d, const struct panel *p, size_t *rankv)
{
	const struct rpt_chart *c = d->spec;
	size_t n = p->nseries, shown;

	for (size_t i = 0; i < n; i++)
		rankv[i] = i;
	sorting = p;
	qsort(rankv, n, sizeof *rankv, by_rank);
	shown = c->top && c->top < n ? c->top : n;
	for (size_t k = 0; k < n; k++) {
		size_t s = rankv[k];
		d->order[s] = k < shown ? k : c->kind == CHART_STACKED_BAR ? shown : SIZE_MAX;
		if (k < shown)
			d->names[k] = p->series[s].name;
	}
	if (shown < n && c->kind == CHART_STACKED_BAR) {
		d->names[shown] = "other";
		return shown + 1;
	}
	return shown;
}

pm_status
chart_data_plot(struct chart_data *d, size_t i, struct chart_plot *out)
{
	const struct rpt_chart *c = d->spec;
	const struct panel *p = &d->panels[i];
	size_t n = c->split[0] ? p->nseries : c->nseries, nout, *rankv;

	free(d->order), free(d->names), free(d->values), free(d->axis2_values);
	d->order = malloc((n + 1) * sizeof *d->order);
	d->names = malloc((n + 1) * sizeof *d->names);
	rankv = malloc((n + 1) * sizeof *rankv);
	d->values = malloc((p->nperiods * (n + 1) + 1) * sizeof *d->values);
	d->axis2_values = malloc((p->nperiods + 1) * sizeof *d->axis2_values);
	if (!d->order || !d->names || !rankv || !d->values || !d->axis2_values) {
		free(rankv);
		return PM_E_NOMEM;
	}
	if (c->split[0]) {
		nout = order_series(d, p, rankv);
	} else {
		for (size_t s = 0; s < n; s++)
			d->order[s] = s, d->names[s] = c->labels[s];
		nout = n;
	}
	free(rankv);
	for (size_t k = 0; k < p->nperiods * nout; k++)
		d->values[k] = NAN;
	for (size_t k = 0; k < p->nperiods; k++)
		d->axis2_values[k] = NAN;
	for (size_t k = 0; k < p->npoints; k++) {
		const struct point *pt = &p->points[k];
		size_t at = period_index(p, pt->start);
		double *v;

		if (pt->series == n) {  /* the axis2 column */
			d->axis2_values[at] = pt->v;
			continue;
		}
		if (d->order[pt->series] == SIZE_MAX)
			continue;
		v = &d->values[at * nout + d->order[pt->series]];
		*v = isnan(*v) ? pt->v : *v + pt->v;
	}
	*out = (struct chart_plot){ c, p->label, d->zone, p->periods, p->nperiods,
	                            d->names, nout, d->values,
	                            c->axis2[0] ? d->axis2_values : NULL };
	return PM_OK;
}

void
chart_data_free(struct chart_data *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->npanels; i++) {
		struct panel *p = &d->panels[i];
		for (size_t s = 0; s < p->nseries; s++)
			free(p->series[s].name);
		free(p->label), free(p->periods), free(p->series), free(p->points);
	}
	free(d->panels), free(d->order), free(d->names), free(d->values), free(d->axis2_values);
	free(d);
}
