/* describe.c: --describe. See describe.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/copybook.h"
#include "core/exitcode.h"
#include "describe.h"
#include "engine/counter.h"
#include "options.h"
#include "report/rptdef.h"
#include "report/rptload.h"

/* One line of the table of report columns. */
static void
describe_column(const char *report, const char *prefix, const struct rpt_column *c,
                const struct schema *schema)
{
	const struct counter_type_info *ti = counter_type_info(c->type);
	char name[RPT_NAME_MAX + 8], reads[512];

	snprintf(name, sizeof name, "%s%s", prefix, c->name);
	rptdef_reads(c, schema, reads, sizeof reads);
	printf("%-10s %-22s %-26s %s\n", report, name,
	       c->text == TEXT_NONE && ti ? ti->name : "", reads);
}

/* What each column of the PMIM reports reads, from their definitions as
 * --report=NAME finds them. */
static int
describe_reports(const struct schema *schema, const char *report_dir)
{
	struct rpt_def *def = malloc(sizeof *def);
	const char *name;
	char err[512];

	if (!def)
		return EXIT_INPUT;
	printf("\nREPORT COLUMNS (what each column of the PMIM reports reads)\n");
	printf("%-10s %-22s %-26s %s\n", "REPORT", "COLUMN", "TYPE", "READS");
	for (size_t i = 0; (name = rptload_builtin_name(i)); i++) {
		if (rptload_find(def, name, report_dir, schema, err, sizeof err) != PM_OK) {
			fprintf(stderr, PROGNAME ": %s\n", err);
			free(def);
			return EXIT_USAGE;
		}
		if (rpt_is_series(def))
			continue;
		for (size_t c = 0; c < def->ncols; c++)
			describe_column(name, "", &def->cols[c], schema);
		for (size_t c = 0; c < def->ntop; c++)
			describe_column(name, "topN_", &def->top_cols[c], schema);
	}
	free(def);
	return EXIT_CLEAN;
}

int
describe(const struct pmint *pm, const struct schema *schema, const char *report_dir)
{
	const struct layout *lay = &pm->lay;
	int rc;

	printf("%-9s %4s %6s %3s %4s %-11s %s\n", "FIELD", "PART", "OFFSET",
	       "LEN", "TYPE", "UNITS", "DESCRIPTION");
	for (size_t i = 0; i < lay->nfields; i++) {
		const struct cb_field *f = &lay->fields[i];
		if (f->length == 0)
			continue;
		printf("%-9s %4u  X'%02zX' %3zu %4c %-11s %s\n", f->name, f->part,
		       f->offset, f->length, f->type, cb_units_name(f->units), f->desc);
	}
	printf("\nWAIT BUCKETS (sum, highest, count)\n");
	for (size_t i = 0; i < lay->nbuckets; i++)
		printf("%-9s %4u  %s\n", lay->buckets[i].label, lay->buckets[i].part,
		       lay->buckets[i].desc);
	printf("\nheader X'%02zX' bytes; parts:", pm->header_len);
	for (unsigned p = 1; p <= pm->nparts; p++)
		printf(" %u = X'%02zX'", p, pm->part_len[p]);
	printf("; largest rounded X'%02zX'\n", pm->max_len);
	if ((rc = describe_reports(schema, report_dir)) != EXIT_CLEAN)
		return rc;
	return ferror(stdout) ? EXIT_OUTPUT : EXIT_CLEAN;
}

