/* chartrender.c: the chart module's entry point (chartmod.h): a job's
 * pages drawn (chartdraw.h) on the Cairo surface of its format, SVG, PNG
 * or PDF, and written through its callback. Deterministic: no time or
 * random id in the SVG and PNG, the PDF's dates the run time. */
#include "config.h"

#include <stdio.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>

#include "out/chartdraw.h"
#include "out/chartmod.h"

/* The job, and whether a write of it failed (Cairo says only that the
 * surface is in error). */
struct render {
	const struct chart_job *job;
	bool write_failed;
};

static cairo_status_t
write_out(void *ctx, const unsigned char *data, unsigned int n)
{
	struct render *r = ctx;

	if (!r->job->write(r->job->ctx, data, n)) {
		r->write_failed = true;
		return CAIRO_STATUS_WRITE_ERROR;
	}
	return CAIRO_STATUS_SUCCESS;
}

/* The surface of the format: PNG draws on an image at two pixels a
 * point, written when done. */
static cairo_surface_t *
surface(struct render *r)
{
	const struct chart_job *j = r->job;
	double w = j->width, h = j->height;
	cairo_surface_t *sf;

	switch (j->format) {
	case CHART_SVG:
		sf = cairo_svg_surface_create_for_stream(write_out, r, w, h);
		cairo_svg_surface_set_document_unit(sf, CAIRO_SVG_UNIT_PT);
		return sf;
	case CHART_PNG:
		return cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)w * 2, (int)h * 2);
	case CHART_PDF:
		sf = cairo_pdf_surface_create_for_stream(write_out, r, w, h);
		if (j->run_time) {
			char date[20];
			snprintf(date, sizeof date, "%.10sT%.8s", j->run_time, j->run_time + 11);
			cairo_pdf_surface_set_metadata(sf, CAIRO_PDF_METADATA_CREATE_DATE, date);
			cairo_pdf_surface_set_metadata(sf, CAIRO_PDF_METADATA_MOD_DATE, date);
		}
		cairo_pdf_surface_set_metadata(sf, CAIRO_PDF_METADATA_TITLE, j->title ? j->title : "");
		cairo_pdf_surface_set_metadata(sf, CAIRO_PDF_METADATA_CREATOR, "pmimrpt");
		return sf;
	}
	return NULL;
}

static pm_status
render(struct chart_fonts *fonts, const struct chart_job *job)
{
	struct render r = { job, false };
	cairo_surface_t *sf = surface(&r);
	cairo_t *cr = cairo_create(sf);
	pm_status st = PM_OK;

	if (job->format == CHART_PNG)
		cairo_scale(cr, 2, 2);
	for (size_t i = 0; i < job->npages && st == PM_OK; i++) {
		struct chart_plot p;
		const char *subtitle;
		if ((st = job->page(job->ctx, i, &p, &subtitle)) == PM_OK) {
			chart_draw(cr, fonts, &p, job->width, job->height, subtitle);
			cairo_show_page(cr);
		}
	}
	cairo_destroy(cr);
	if (job->format == CHART_PNG && st == PM_OK)
		cairo_surface_write_to_png_stream(sf, write_out, &r);
	cairo_surface_finish(sf);
	if (st == PM_OK && cairo_surface_status(sf) != CAIRO_STATUS_SUCCESS)
		st = r.write_failed ? PM_E_WRITE : PM_E_NOMEM;
	cairo_surface_destroy(sf);
	return st;
}

/* The one symbol the module exports (it is built -fvisibility=hidden:
 * its copies of the program's helpers stay its own). */
__attribute__((visibility("default"))) const struct chart_module *
pmimrpt_chart_module(void)
{
	static const struct chart_module m = {
		{ CHART_MODULE_ABI, PACKAGE_VERSION }, chart_fonts_open, chart_fonts_close, render,
	};

	return &m;
}
