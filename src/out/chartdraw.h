/* chartdraw.h: one chart (chartdata.h's plot) drawn on a Cairo context of
 * w x h points, text through Pango in DejaVu Sans (9 pt and more): title,
 * subtitle, axes with units, the time axis (charttime.h), stacked bars or
 * lines, a line on a second axis, gaps where periods have no data,
 * incomplete periods marked under the axis, and a legend. Series differ
 * in lightness and in hatching or dashes and markers as well as hue, so
 * that a grey-scale print tells them apart. */
#ifndef CHARTDRAW_H
#define CHARTDRAW_H

#include <cairo.h>
#include <pango/pangocairo.h>

#include "out/chartdata.h"
#include "out/chartmod.h"

/* The fonts the charts are drawn with: a font map of their own, freed
 * with chart_fonts_close (fontconfig keeps its configuration and caches
 * to the end: FcFini races Pango's thread that loads them). NULL: no
 * memory. */
struct chart_fonts *chart_fonts_open(void);
void chart_fonts_close(struct chart_fonts *fonts);

void chart_draw(cairo_t *cr, struct chart_fonts *fonts, const struct chart_plot *p,
                double w, double h, const char *subtitle);

#endif
