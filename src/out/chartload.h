/* chartload.h: the chart module (chartmod.h) found and loaded
 * (core/module.h), the first time a chart is to be drawn. Built only with
 * Cairo (configure's HAVE_CAIRO). */
#ifndef CHARTLOAD_H
#define CHARTLOAD_H

#include "core/diag.h"
#include "out/chartmod.h"

/* The module; NULL when it cannot be loaded, said through d with each
 * file tried and why, as a usage error (the exit code of a pmimrpt built
 * without Cairo). From one thread: the writers are opened before any
 * thread reads. */
const struct chart_module *chart_module_load(struct diag *d);

#endif
