/* htmlout.c: the HTML writer. See htmlout.h. */
#include <stdlib.h>
#include <string.h>

#include "out/cell.h"
#include "out/htmlout.h"
#include "out/htmlpage.h"

/* A stream into memory that grows (open_memstream). */
struct membuf {
	FILE *fp;
	char *buf;
	size_t len;
};

/* The page of a run: each report's section, kept until the run's summary
 * is known, then the page written whole. */
struct html_page {
	FILE *fp;
	struct membuf sections;
	unsigned drawn;            /* charts so far, for their ids */
};

struct htmlout {
	struct rowsink sink;  /* first: the sink is the writer */
	struct html_page *page;
	struct rowsink *charts;    /* NULL: no charts */
	struct membuf table, figures, chart;
	const struct sink_column *cols;
	size_t ncols;
};

static bool
membuf_open(struct membuf *m)
{
	free(m->buf);
	*m = (struct membuf){ NULL, NULL, 0 };
	return (m->fp = open_memstream(&m->buf, &m->len)) != NULL;
}

/* Closed; false when what was written could not be kept. */
static bool
membuf_close(struct membuf *m)
{
	bool ok = m->fp && !ferror(m->fp);

	if (m->fp && fclose(m->fp) != 0)
		ok = false;
	m->fp = NULL;
	return ok;
}

static void
membuf_free(struct membuf *m)
{
	if (m->fp)
		fclose(m->fp);
	free(m->buf);
}

static pm_status
begin(struct rowsink *s, const struct sink_column *cols, size_t ncols, bool form)
{
	struct htmlout *h = (struct htmlout *)s;
	pm_status st;

	if (h->charts && (st = h->charts->begin(h->charts, cols, ncols, form)) != PM_OK)
		return st;
	h->cols = cols;
	h->ncols = ncols;
	fputs("<table>\n<thead>\n<tr>", h->table.fp);
	for (size_t i = 0; i < ncols; i++) {
		fputs("<th>", h->table.fp);
		html_text(h->table.fp, cols[i].name, strlen(cols[i].name));
		fputs("</th>", h->table.fp);
	}
	fputs("</tr>\n</thead>\n<tbody>\n", h->table.fp);
	return PM_OK;
}

static void
row(struct rowsink *s, const struct sink_cell *cells, bool marked)
{
	struct htmlout *h = (struct htmlout *)s;
	FILE *fp = h->table.fp;

	if (h->charts)
		h->charts->row(h->charts, cells, marked);
	fputs(marked ? "<tr class=\"marked\" title=\"includes incomplete intervals\">" : "<tr>", fp);
	for (size_t i = 0; i < h->ncols; i++) {
		char buf[CELL_FORMAT_MAX];
		size_t n;
		const char *text = cell_bytes(&cells[i], buf, &n);
		fputs(h->cols[i].numeric ? "<td class=\"n\">" : "<td>", fp);
		html_text(fp, text, n);
		fputs("</td>", fp);
	}
	fputs("</tr>\n", fp);
}

/* A chart's SVG drawn into memory, for chartout's files. */
static FILE *
chart_open(void *ctx, const char *name)
{
	struct htmlout *h = ctx;

	(void)name;
	return membuf_open(&h->chart) ? h->chart.fp : NULL;
}

/* The SVG inline in a figure, its XML declaration left out and its ids
 * made the page's own ("c3-glyph0-1"): every chart names its glyphs and
 * clips alike. */
static void
put_inline(struct htmlout *h, const char *svg, size_t n)
{
	static const char *const refs[] = { "id=\"", "href=\"#", "url(#" };
	const char *p = svg, *end = svg + n, *body = strstr(svg, "<svg");
	FILE *fp = h->figures.fp;

	p = body ? body : p;
	fputs("<figure>\n", fp);
	while (p < end) {
		size_t k;
		for (k = 0; k < sizeof refs / sizeof refs[0]; k++)
			if ((size_t)(end - p) >= strlen(refs[k]) &&
			    memcmp(p, refs[k], strlen(refs[k])) == 0)
				break;
		if (k < sizeof refs / sizeof refs[0]) {
			fprintf(fp, "%sc%u-", refs[k], h->page->drawn);
			p += strlen(refs[k]);
		} else {
			putc(*p++, fp);
		}
	}
	fputs("</figure>\n", fp);
}

static pm_status
chart_close(void *ctx, pm_status drawn)
{
	struct htmlout *h = ctx;
	bool kept = membuf_close(&h->chart);

	if (drawn != PM_OK)
		return drawn;
	if (!kept)
		return PM_E_NOMEM;
	h->page->drawn++;
	put_inline(h, h->chart.buf, h->chart.len);
	return PM_OK;
}

static void
write_section(struct htmlout *h, const struct report_meta *m)
{
	FILE *fp = h->page->sections.fp;

	fputs("<section class=\"report\">\n<h2>", fp);
	html_text(fp, m->title, strlen(m->title));
	fputs("</h2>\n<p>", fp);
	html_text(fp, m->description, strlen(m->description));
	fprintf(fp, " (report <code>%s</code>, by %s)</p>\n", m->name,
	        m->grouping ? m->grouping : "total");
	fwrite(h->figures.buf, 1, h->figures.len, fp);
	fwrite(h->table.buf, 1, h->table.len, fp);
	fputs("</tbody>\n</table>\n</section>\n", fp);
}

static pm_status
end(struct rowsink *s, const struct report_meta *m)
{
	struct htmlout *h = (struct htmlout *)s;
	pm_status st = h->charts ? h->charts->end(h->charts, m) : PM_OK;

	if (st != PM_OK)
		return st;
	if (!membuf_close(&h->table) || !membuf_close(&h->figures))
		return PM_E_NOMEM;
	write_section(h, m);
	return ferror(h->page->sections.fp) ? PM_E_NOMEM : PM_OK;
}

static void
close_sink(struct rowsink *s)
{
	struct htmlout *h = (struct htmlout *)s;

	if (h->charts)
		h->charts->close(h->charts);
	membuf_free(&h->table);
	membuf_free(&h->figures);
	membuf_free(&h->chart);
	free(h);
}

pm_status
html_page_open(struct html_page **out, FILE *fp)
{
	struct html_page *p = calloc(1, sizeof *p);

	*out = NULL;
	if (!p || !membuf_open(&p->sections)) {
		free(p);
		return PM_E_NOMEM;
	}
	p->fp = fp;
	*out = p;
	return PM_OK;
}

pm_status
html_page_write(struct html_page *p, const char *title, const struct report_meta *m)
{
	if (!membuf_close(&p->sections))
		return PM_E_NOMEM;
	html_page_begin(p->fp, title);
	html_run_summary(p->fp, m);
	fwrite(p->sections.buf, 1, p->sections.len, p->fp);
	html_page_end(p->fp);
	return ferror(p->fp) ? PM_E_WRITE : PM_OK;
}

void
html_page_free(struct html_page *p)
{
	if (!p)
		return;
	membuf_free(&p->sections);
	free(p);
}

pm_status
htmlout_open(struct rowsink **out, struct html_page *page, const struct rpt_chart *charts,
             size_t ncharts, const struct chart_opts *o, struct diag *d)
{
	struct htmlout *h = calloc(1, sizeof *h);
	struct chart_opts svg = *o;
	struct chart_files files = { chart_open, chart_close, h };
	pm_status st = PM_E_NOMEM;

	*out = NULL;
	if (!h)
		return PM_E_NOMEM;
	h->sink = (struct rowsink){ begin, row, end, close_sink, NULL };
	h->page = page;
	svg.format = CHART_SVG;
	if (!membuf_open(&h->table) || !membuf_open(&h->figures) ||
	    (ncharts && (st = chartout_open(&h->charts, NULL, &files, charts, ncharts, &svg,
	                                    d)) != PM_OK)) {
		close_sink(&h->sink);
		return st;
	}
	*out = &h->sink;
	return PM_OK;
}
