/* htmlout.h: the HTML writer (--format=html): one self-contained page
 * (out/htmlpage.h) with the run's summary, the report's charts inline as
 * SVG (out/chartout.h, when given charts: a report grouped by time) and
 * its table, every text HTML-escaped. The report's part is a section of
 * its own, so that a page may later hold several. */
#ifndef HTMLOUT_H
#define HTMLOUT_H

#include <stdio.h>

#include "core/diag.h"
#include "core/status.h"
#include "out/chartout.h"
#include "report/rowsink.h"

/* A rowsink writing the page to fp, with the ncharts charts (none: the
 * table alone) drawn at o's size. PM_E_NOMEM. */
pm_status htmlout_open(struct rowsink **out, FILE *fp, const struct rpt_chart *charts,
                       size_t ncharts, const struct chart_opts *o, struct diag *d);

#endif
