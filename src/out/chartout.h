/* chartout.h: the chart writer: a rowsink that keeps the rows of a
 * time-grouped report for each chart of its definition (chartdata.h) and
 * at the end has the chart module (chartmod.h, loaded when the writer is
 * opened) draw them, one chart per source and per= value: SVG or PNG (one
 * chart: more is an error that says how many), or PDF (a page each).
 * Built only with Cairo (configure's HAVE_CAIRO). */
#ifndef CHARTOUT_H
#define CHARTOUT_H

#include <stdio.h>

#include "core/diag.h"
#include "core/status.h"
#include "out/chartmod.h"
#include "report/rowsink.h"
#include "report/rptdef.h"

struct chart_opts {
	enum chart_format format;
	unsigned width, height;   /* points (PNG: pixels twice that) */
};

/* A file per chart (-o DIR/), named CHART-PANEL.svg ("cpu-SYSA.svg", the
 * panel's blanks and other bytes that are not [A-Za-z0-9._-] as '_'):
 * open gives the stream of one (NULL when it could not be had, said),
 * close keeps it when drawn is PM_OK or gives it up, and returns drawn or
 * PM_E_WRITE when what was kept could not be written (a write error said,
 * with the file's name). */
struct chart_files {
	FILE *(*open)(void *ctx, const char *name);
	pm_status (*close)(void *ctx, pm_status drawn);
	void *ctx;
};

/* A rowsink drawing the ncharts charts to fp, or each to a file of its
 * own when files is not NULL; what cannot be drawn (the chart module not
 * loaded, more charts than the format holds, a report not grouped by
 * time) is said through d, and returns PM_E_USAGE. PM_E_NOMEM. */
pm_status chartout_open(struct rowsink **out, FILE *fp, const struct chart_files *files,
                        const struct rpt_chart *charts, size_t ncharts,
                        const struct chart_opts *o, struct diag *d);

#endif
