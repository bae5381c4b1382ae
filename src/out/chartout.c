/* chartout.c: the chart writer. See chartout.h. */
#include <stdlib.h>
#include <string.h>

#include "out/chartdata.h"
#include "out/chartload.h"
#include "out/charttime.h"
#include "out/chartout.h"

struct chartout {
	struct rowsink sink;  /* first: the sink is the writer */
	FILE *fp;
	struct chart_opts o;
	struct diag *d;
	struct chart_files files;   /* -o DIR/; open NULL: fp */
	const struct rpt_chart *specs;
	struct chart_data *data[RPT_MAX_CHARTS];
	size_t ncharts;
	const struct chart_module *module;  /* chartmod.h: what draws */
	struct chart_fonts *fonts;  /* while drawing */
};

static const char *const format_names[] = { "SVG", "PNG", "PDF" };

static pm_status
begin(struct rowsink *s, const struct sink_column *cols, size_t ncols, bool form)
{
	struct chartout *c = (struct chartout *)s;

	(void)form;
	for (size_t i = 0; i < c->ncharts; i++)
		if (chart_data_begin(c->data[i], cols, ncols) != PM_OK) {
			diag_at(c->d, PM_E_USAGE, DIAG_NO_OFFSET, "charts draw reports "
			        "grouped by time: use --by=interval, hour or day");
			return PM_E_USAGE;
		}
	return PM_OK;
}

static void
row(struct rowsink *s, const struct sink_cell *cells, bool marked)
{
	struct chartout *c = (struct chartout *)s;

	for (size_t i = 0; i < c->ncharts; i++)
		chart_data_row(c->data[i], cells, marked);
}

/* The pages of one file: panels [from, from + npages) in order. */
struct pages {
	struct chartout *c;
	const struct report_meta *m;
	size_t from;
	char subtitle[3 * TZONE_TEXT + 32];
};

static bool
write_out(void *ctx, const unsigned char *data, size_t n)
{
	struct pages *pg = ctx;

	return fwrite(data, 1, n, pg->c->fp) == n;
}

/* "2025-03-03 00:00 to 2025-03-04 00:00, by hour" */
static void
subtitle(const struct chart_plot *p, const struct report_meta *m, char *out, size_t cap)
{
	char from[TZONE_TEXT] = "", to[TZONE_TEXT] = "";

	if (p->nperiods) {
		chart_time_text(p->zone, p->periods[0].start, from);
		chart_time_text(p->zone, p->periods[p->nperiods - 1].end, to);
	}
	snprintf(out, cap, "%s to %s, by %s", from, to, m->grouping ? m->grouping : "");
}

/* Page i of the job: panel from + i, counted over the charts in order. */
static pm_status
page(void *ctx, size_t i, struct chart_plot *p, const char **sub)
{
	struct pages *pg = ctx;
	struct chartout *c = pg->c;
	size_t at = pg->from + i, k = 0;
	pm_status st;

	while (at >= chart_data_panels(c->data[k]))
		at -= chart_data_panels(c->data[k++]);
	if ((st = chart_data_plot(c->data[k], at, p)) != PM_OK)
		return st;
	subtitle(p, pg->m, pg->subtitle, sizeof pg->subtitle);
	*sub = pg->subtitle;
	return PM_OK;
}

static size_t
count_charts(const struct chartout *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->ncharts; i++)
		n += chart_data_panels(c->data[i]);
	return n;
}

/* Charts [from, to) of the panels in order, a page each, to c->fp. */
static pm_status
draw_range(struct chartout *c, size_t from, size_t to, const struct report_meta *m)
{
	struct pages pg = { c, m, from, "" };
	struct chart_job job = { c->o.format, c->o.width, c->o.height, m->title, m->run_time,
	                         to - from, page, write_out, &pg };

	return c->module->render(c->fonts, &job);
}

static const char *const extensions[] = { "svg", "png", "pdf" };

/* The file name of panel k of chart i. */
static void
file_name(const struct chartout *c, size_t i, size_t k, char *out, size_t cap)
{
	size_t n = (size_t)snprintf(out, cap, "%s-", c->specs[i].name);

	for (const char *s = chart_data_label(c->data[i], k); *s && n + 1 < cap; s++)
		out[n++] = (char)(strchr("._-", *s) || (*s >= '0' && *s <= '9') ||
		                  (*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ? *s : '_');
	snprintf(out + n, cap - n, ".%s", extensions[c->o.format]);
}

/* -o DIR/: each chart to a file of its own. */
static pm_status
draw_files(struct chartout *c, const struct report_meta *m)
{
	size_t at = 0;

	for (size_t i = 0; i < c->ncharts; i++)
		for (size_t k = 0; k < chart_data_panels(c->data[i]); k++, at++) {
			char name[RPT_NAME_MAX + 3 * RPT_TEXT_MAX + 8];
			pm_status st;
			file_name(c, i, k, name, sizeof name);
			if (!(c->fp = c->files.open(c->files.ctx, name)))
				return PM_E_WRITE;
			if ((st = c->files.close(c->files.ctx, draw_range(c, at, at + 1, m))) != PM_OK)
				return st;
		}
	return PM_OK;
}

static pm_status
end(struct rowsink *s, const struct report_meta *m)
{
	struct chartout *c = (struct chartout *)s;
	size_t n = count_charts(c);
	pm_status st;

	for (size_t i = 0; i < c->ncharts; i++)
		if ((st = chart_data_status(c->data[i])) != PM_OK)
			return st;
	if (n > 1 && c->o.format != CHART_PDF && !c->files.open) {
		diag_at(c->d, PM_E_USAGE, DIAG_NO_OFFSET, "report '%s' draws %zu charts and "
		        "a file of %s holds one: write them to a folder (-o DIR/), choose "
		        "one with --source, or write --format=pdf (a page each)", m->name, n,
		        format_names[c->o.format]);
		return PM_E_USAGE;
	}
	if (!(c->fonts = c->module->fonts_open()))
		return PM_E_NOMEM;
	st = c->files.open ? draw_files(c, m) : draw_range(c, 0, n, m);
	c->module->fonts_close(c->fonts);
	c->fonts = NULL;
	return st;
}

static void
close_sink(struct rowsink *s)
{
	struct chartout *c = (struct chartout *)s;

	for (size_t i = 0; i < c->ncharts; i++)
		chart_data_free(c->data[i]);
	free(c);
}

pm_status
chartout_open(struct rowsink **out, FILE *fp, const struct chart_files *files,
              const struct rpt_chart *charts, size_t ncharts, const struct chart_opts *o,
              struct diag *d)
{
	struct chartout *c = calloc(1, sizeof *c);

	*out = NULL;
	if (!c)
		return PM_E_NOMEM;
	*c = (struct chartout){ .sink = { begin, row, end, close_sink }, .fp = fp, .o = *o,
	                        .d = d, .specs = charts, .module = chart_module_load(d) };
	if (!c->module) {
		free(c);
		return PM_E_USAGE;
	}
	if (files)
		c->files = *files;
	for (; c->ncharts < ncharts; c->ncharts++)
		if (chart_data_open(&c->data[c->ncharts], &charts[c->ncharts]) != PM_OK) {
			close_sink(&c->sink);
			return PM_E_NOMEM;
		}
	*out = &c->sink;
	return PM_OK;
}
