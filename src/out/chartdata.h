/* chartdata.h: the rows of a time-grouped report kept for one chart spec
 * (report/rptdef.h's struct rpt_chart), per panel (a source, and the
 * values of the spec's per= columns), in memory that only grows: the
 * report's aggregate, not its input. At the end each panel is handed out
 * as a plot: its periods in time order and a dense table of values. */
#ifndef CHARTDATA_H
#define CHARTDATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "report/rowsink.h"
#include "report/rptdef.h"

struct chart_period {
	int64_t start, end;  /* UTC stamps (tzone.h) */
	bool marked;         /* holds incomplete intervals */
};

/* One chart, ready to draw; valid until the next chart_data_plot. */
struct chart_plot {
	const struct rpt_chart *spec;
	const char *label;            /* the panel: "SYSA", "SYSA 238 6" */
	const struct tzone *zone;     /* the stamps' zone; NULL: as recorded */
	const struct chart_period *periods;
	size_t nperiods;
	const char *const *names;     /* of the series, stacked bottom first */
	size_t nseries;
	const double *values;         /* [period * nseries + series]; NAN: none */
	const double *axis2;          /* [period], or NULL */
};

struct chart_data;

pm_status chart_data_open(struct chart_data **out, const struct rpt_chart *spec);

/* The report's columns: PM_E_USAGE when they have no period_start and
 * period_end (the report is not grouped by time), or lack a column the
 * spec names. */
pm_status chart_data_begin(struct chart_data *d, const struct sink_column *cols,
                           size_t ncols);

void chart_data_row(struct chart_data *d, const struct sink_cell *cells, bool marked);

/* PM_E_NOMEM when a row could not be kept. */
pm_status chart_data_status(const struct chart_data *d);

size_t chart_data_panels(const struct chart_data *d);

/* Panel i's label, as its plot has it. */
const char *chart_data_label(const struct chart_data *d, size_t i);

/* Panel i as a plot; PM_E_NOMEM. */
pm_status chart_data_plot(struct chart_data *d, size_t i, struct chart_plot *out);

void chart_data_free(struct chart_data *d);

#endif
