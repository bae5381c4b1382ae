/* chartmod.h: what pmimrpt and its chart module agree on. The Cairo and
 * Pango code (chartrender.c, chartdraw.c) is a module of its own,
 * pmimrpt-charts.so, loaded only when a chart is drawn (chartload.h):
 * linked into the program, their libraries cost every run more start-up
 * time than reading an empty input takes. The module has one entry
 * point, which gives a table of functions; program and module come from
 * one build (they share struct chart_plot and the report definition), so
 * the table says the interface and the version it was built for. */
#ifndef CHARTMOD_H
#define CHARTMOD_H

#include <stdbool.h>
#include <stddef.h>

#include "core/module.h"
#include "core/status.h"
#include "out/chartdata.h"

/* The module's file (Makefile.am builds it under this name), and its
 * entry point. */
#define CHART_MODULE_FILE "pmimrpt-charts.so"
#define CHART_MODULE_ENTRY "pmimrpt_chart_module"
/* Raised whenever struct chart_module or struct chart_job changes. */
#define CHART_MODULE_ABI 1

enum chart_format { CHART_SVG, CHART_PNG, CHART_PDF };

/* Pages drawn to one file: an SVG or PNG holds one, a PDF a page each. */
struct chart_job {
	enum chart_format format;
	unsigned width, height;   /* points (PNG: pixels twice that) */
	const char *title;        /* the PDF's */
	const char *run_time;     /* "YYYY-MM-DD HH:MM:SS", the PDF's dates; NULL: none */
	size_t npages;
	/* Page i's plot, and its subtitle (valid until the next call);
	 * PM_E_NOMEM. */
	pm_status (*page)(void *ctx, size_t i, struct chart_plot *plot, const char **subtitle);
	/* n bytes of the file; false when they could not be written */
	bool (*write)(void *ctx, const unsigned char *data, size_t n);
	void *ctx;
};

/* The fonts of a run's charts (chartdraw.h), opened once for them all. */
struct chart_fonts;

struct chart_module {
	struct module_head head;  /* CHART_MODULE_ABI */
	struct chart_fonts *(*fonts_open)(void);   /* NULL: no memory */
	void (*fonts_close)(struct chart_fonts *fonts);
	/* The job's pages drawn: PM_OK, what page returned, PM_E_WRITE when
	 * a write failed, PM_E_NOMEM. */
	pm_status (*render)(struct chart_fonts *fonts, const struct chart_job *job);
};

const struct chart_module *pmimrpt_chart_module(void);

#endif
