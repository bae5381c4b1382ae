/* partials.h: --partial and --merge, and the partials of --jobs: what
 * must agree for partials to merge (the run's identity), a run's partial
 * written (its sections, runpart.h; the time covered; the report's groups
 * or rows), and partials merged into the run, each checked whole first. */
#ifndef PARTIALS_H
#define PARTIALS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/copybook.h"
#include "core/partial.h"
#include "core/status.h"
#include "report/rowsink.h"
#include "run.h"

/* The layout's fingerprint: FNV-1a of every field's name, part, offset,
 * length and type, so that partials of other layouts are told apart. */
uint64_t layout_fingerprint(const struct layout *lay);

/* What must agree for partials to merge: the report, what selects and
 * groups, and what changes what is read. */
void build_identity(struct run *r);

/* --partial and --merge: PMIM reports only, for now. A stream's partial
 * keeps its rows, each with the input its interval came from (what the
 * messages name as it is handed on). */
int check_partial(struct run *r);

/* One partial, loaded (st PM_OK) or not, checked against the run's
 * identity, its counts and groups added, then freed. Returns -1 when it
 * could not be had or was refused (said, naming path). */
int merge_partial(struct run *r, struct partial *p, pm_status st, const char *path,
                  char *err, size_t cap);

/* --merge: every operand (or standard input) a partial, checked whole,
 * then its counts and groups added. Returns -1 when one could not be
 * read or was refused (said). */
int merge_partials(struct run *r);

/* --partial: the report's rows go nowhere; its groups go to the partial. */
extern struct rowsink null_sink;

/* What a partial holds: the run's sections, the time covered, and the
 * report's groups or rows. */
struct run_partial {
	const struct runpart_identity *id;
	const char *const *inputs;
	size_t ninputs;
	const struct tally *t;
	const struct census *census;
	const struct sources *src;
	uint64_t resets;
	const struct coverage *cover;
	const struct diag *d;
	struct report *rep;               /* one of the two */
	struct series_report *srep;
};

/* A partial to fp. Both --partial and each thread of --jobs write theirs
 * here. */
pm_status write_run_partial(FILE *fp, const struct run_partial *rp);

/* --partial: the run's partial, to the output. */
pm_status write_partial(struct run *r);

#endif
