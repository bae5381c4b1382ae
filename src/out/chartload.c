/* chartload.c: the chart module found and loaded. See chartload.h. */
#include "out/chartload.h"

/* Found once: a run's chart writers share it. */
static const struct chart_module *loaded;

const struct chart_module *
chart_module_load(struct diag *d)
{
	const struct module_head *m;

	if (!loaded && (m = module_load(d, "the charts are drawn by", CHART_MODULE_FILE,
	                                CHART_MODULE_ENTRY, CHART_MODULE_ABI)))
		loaded = (const struct chart_module *)m;  /* its first member */
	return loaded;
}
