/* chartout.h: the chart writer: a rowsink that keeps the rows of a
 * time-grouped report for each chart of its definition (chartdata.h) and
 * at the end draws them (chartdraw.h), one chart per source and per=
 * value, through Cairo: SVG or PNG (one chart: more is an error that says
 * how many), or PDF (a page each). Deterministic: no time or random id in
 * the SVG and PNG, the PDF's dates the run time. Built only with Cairo
 * (configure's HAVE_CAIRO). */
#ifndef CHARTOUT_H
#define CHARTOUT_H

#include <stdio.h>

#include "core/diag.h"
#include "core/status.h"
#include "report/rowsink.h"
#include "report/rptdef.h"

enum chart_format { CHART_SVG, CHART_PNG, CHART_PDF };

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
 * own when files is not NULL; what cannot be drawn (more charts than the
 * format holds, a report not grouped by time) is said through d, and
 * returns PM_E_USAGE. PM_E_NOMEM. */
pm_status chartout_open(struct rowsink **out, FILE *fp, const struct chart_files *files,
                        const struct rpt_chart *charts, size_t ncharts,
                        const struct chart_opts *o, struct diag *d);

#endif
