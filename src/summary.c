/* summary.c: the summary line of a run. See summary.h. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "report/report.h"
#include "report/series_report.h"
#include "summary.h"

/* One ", N what" item of a summary clause, only when N is not zero. */
static void
summary_item(char *line, size_t cap, const char *clause, bool *opened, uint64_t n,
             const char *what)
{
	size_t used = strlen(line);

	if (n == 0 || used >= cap)
		return;
	snprintf(line + used, cap - used, "%s%llu %s", *opened ? ", " : clause,
	         (unsigned long long)n, what);
	*opened = true;
}

/* The summary line. A clean run's line ends at the interval counts (for
 * PERF_DATA_BLOCK input, the snapshots); what was left out of the reports,
 * and why an exit 4 came, follow only when there is any. */
static void
summary_line(char line[SUMMARY_MAX], const struct tally *t, const struct census *c,
             uint64_t resets, unsigned files)
{
	uint64_t smf_records = 0, pm_records = 0, snapshots = 0;
	bool left_out = false, warned = false;
	size_t n;

	for (int ty = 0; ty < 256; ty++) {
		smf_records += t->records[KIND_SMF][ty];
		pm_records += t->records[KIND_PM][ty];
	}
	for (size_t i = 0; i < c->nsystems; i++)
		snapshots += c->systems[i].snapshots;
	n = (size_t)snprintf(line, SUMMARY_MAX, "%u file%s, %llu bytes", files, files == 1 ? "" : "s",
	             (unsigned long long)t->bytes_read);
	/* compressed inputs: the bytes read from them, and whose bytes those
	 * were decoded into when not all of them */
	if (t->compressed_in && t->compressed_out == t->bytes_read)
		n += snprintf(line + n, SUMMARY_MAX - n, " (%llu compressed)",
		              (unsigned long long)t->compressed_in);
	else if (t->compressed_in)
		n += snprintf(line + n, SUMMARY_MAX - n, " (%llu of them from %llu compressed)",
		              (unsigned long long)t->compressed_out,
		              (unsigned long long)t->compressed_in);
	n += snprintf(line + n, SUMMARY_MAX - n, ": %llu used, %llu skipped, "
	              "%llu damaged; ", (unsigned long long)t->used,
	              (unsigned long long)t->skipped, (unsigned long long)t->damaged);
	if (c->inputs && c->inputs == files)
		snprintf(line + n, SUMMARY_MAX - n, "%llu snapshot%s of %zu system%s",
		         (unsigned long long)snapshots, snapshots == 1 ? "" : "s", c->nsystems,
		         c->nsystems == 1 ? "" : "s");
	else
		snprintf(line + n, SUMMARY_MAX - n, "%llu SMF records (%llu spanned), "
		         "%llu PM records; %llu intervals (%llu complete, %llu incomplete)",
		         (unsigned long long)smf_records, (unsigned long long)t->spanned,
		         (unsigned long long)pm_records,
		         (unsigned long long)(t->intervals_complete + t->intervals_incomplete),
		         (unsigned long long)t->intervals_complete,
		         (unsigned long long)t->intervals_incomplete);
	summary_item(line, SUMMARY_MAX, "; left out: ", &left_out,
	             t->intervals_duplicate, "duplicate");
	summary_item(line, SUMMARY_MAX, "; left out: ", &left_out,
	             t->intervals_overlapping, "overlapping");
	summary_item(line, SUMMARY_MAX, "; left out: ", &left_out,
	             t->intervals_too_long, "interval records too long");
	summary_item(line, SUMMARY_MAX, "; ", &warned,
	             t->duplicate_parts, "duplicate parts");
	summary_item(line, SUMMARY_MAX, "; ", &warned,
	             t->implausible, "records with implausible figures");
	if (c->inputs && c->inputs != files)
		summary_item(line, SUMMARY_MAX, "; ", &warned, snapshots, "snapshots");
	summary_item(line, SUMMARY_MAX, "; ", &warned, resets,
	             "counter windows without a value (a reboot or a reset)");
}

void
say_nothing_selected(struct diag *d, const struct tally *t, const struct pmint *pm,
                     const struct outputs *outs, unsigned smf_type, bool read_all)
{
	char why[512];
	uint64_t smf_records = 0;
	bool pmim = false, said = false;

	for (int ty = 0; ty < 256; ty++)
		smf_records += t->records[KIND_SMF][ty];
	for (size_t i = 0; i < outs->n; i++) {
		const struct output *out = &outs->o[i];
		pmim = pmim || out->rep;
		if ((out->rep && report_what_matched_nothing(out->rep, why, sizeof why)) ||
		    (out->srep && series_report_what_matched_nothing(out->srep, why, sizeof why))) {
			if (outs->n > 1)
				diag_at(d, PM_E_NOTHING_SELECTED, DIAG_NO_OFFSET, "report '%s': %s",
				        output_name(out), why);
			else
				diag_at(d, PM_E_NOTHING_SELECTED, DIAG_NO_OFFSET, "%s", why);
			said = true;
		}
	}
	if (said || !read_all)
		return;
	if (t->bytes_read == 0)
		snprintf(why, sizeof why, "the input is empty");
	else if (!pmim || t->intervals_complete + t->intervals_incomplete > 0)
		return;
	else if (smf_records > 0 && t->records[KIND_SMF][smf_type] == 0)
		snprintf(why, sizeof why, "no SMF records of type %u in the input", smf_type);
	else if (t->records[KIND_PM][pm->interval_type] == 0)
		snprintf(why, sizeof why, "no interval records in the input");
	else
		snprintf(why, sizeof why, "no interval: every interval record was damaged or left out");
	diag_at(d, PM_E_NOTHING_SELECTED, DIAG_NO_OFFSET, "%s", why);
}

const struct tally *
run_tally(const struct run *r)
{
	return r->o.merge || r->jobs_merged ? &r->merged : pipeline_tally(r->p);
}

void
run_summary(const struct run *r, char line[SUMMARY_MAX])
{
	summary_line(line, run_tally(r),
	             r->o.merge || r->jobs_merged ? &r->merged_census : pipeline_census(r->p),
	             r->o.merge || r->jobs_merged ? r->merged_resets : pipeline_resets(r->p),
	             r->o.merge ? (unsigned)r->nmerged : (unsigned)(r->ninputs ? r->ninputs : 1));
}

