/* describe.h: --describe: the PMIM field table of the layout, its wait
 * buckets and part lengths, and what each column of the PMIM reports
 * reads, from their definitions as --report=NAME finds them. */
#ifndef DESCRIBE_H
#define DESCRIBE_H

#include "frame/schema.h"
#include "pmim/pmint.h"

/* The tables to standard output; an exit code (a definition's error
 * said). */
int describe(const struct pmint *pm, const struct schema *schema, const char *report_dir);

#endif
