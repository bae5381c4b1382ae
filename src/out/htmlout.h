/* htmlout.h: the HTML writer (--format=html): one self-contained page a
 * run (out/htmlpage.h) with the run's summary, then a section for each
 * report: its charts inline as SVG (out/chartout.h, when given charts: a
 * report grouped by time) and its table, every text HTML-escaped. The
 * sections are kept in memory until the run ends, when its summary is
 * known: the page is written whole. */
#ifndef HTMLOUT_H
#define HTMLOUT_H

#include <stdio.h>

#include "core/diag.h"
#include "core/status.h"
#include "out/chartout.h"
#include "report/rowsink.h"

struct html_page;

/* The page of a run, to be written to fp. PM_E_NOMEM. */
pm_status html_page_open(struct html_page **out, FILE *fp);

/* The page written: its head (title), the run's summary from m (inputs,
 * run time, summary line, what was said), the reports' sections in the
 * order they ended, its end. PM_E_WRITE, PM_E_NOMEM. */
pm_status html_page_write(struct html_page *p, const char *title,
                          const struct report_meta *m);

void html_page_free(struct html_page *p);

/* A rowsink writing a report's section into page, with the ncharts charts
 * (none: the table alone) drawn at o's size. PM_E_NOMEM; PM_E_USAGE when
 * the chart module cannot be loaded (said through d). */
pm_status htmlout_open(struct rowsink **out, struct html_page *page,
                       const struct rpt_chart *charts, size_t ncharts,
                       const struct chart_opts *o, struct diag *d);

#endif
