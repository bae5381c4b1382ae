/* rptload.h: finding and reading a report definition.
 *
 * Any name with a '/' is read from that path; FILE.rpt from the current
 * directory, else from --report-dir (when given). A
 * plain NAME is looked up as NAME.rpt in --report-dir (when given), then
 * in $(pkgdatadir)/reports, then among the built-in definitions compiled
 * into the program (intervals, waits, cpu, tasks, summary), so that a user
 * adds a report without recompiling, and the program works before it is
 * installed. */
#ifndef RPTLOAD_H
#define RPTLOAD_H

#include <stddef.h>

#include "core/status.h"
#include "frame/schema.h"
#include "report/rptdef.h"

/* Find, read and parse the definition `what`. Errors (PM_E_USAGE: not
 * found or unreadable; PM_E_DEFINITION: "file:line: message"; PM_E_NOMEM)
 * come with their message in err. */
pm_status rptload_find(struct rpt_def *def, const char *what, const char *report_dir,
                       const struct schema *schema, char *err, size_t errlen);

/* The name of the i-th built-in definition; NULL past the last. */
const char *rptload_builtin_name(size_t i);

#endif
