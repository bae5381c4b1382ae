/* runpart.h: what a run's partial holds beside the report's groups
 * (report/report.h): the identity of what shaped the result, the inputs'
 * names, the byte accounting and record counts (core/tally.h), the
 * systems and snapshots of Windows inputs (core/census.h) with the counter
 * windows reset, and the count of every status said (core/diag.h), so
 * that a merge prints the summary line and gives the exit code one run
 * over every input would.
 *
 * The identity is a list of key=value texts (the definition's fingerprint,
 * --by, the filters, the layout's fingerprint, the options that change
 * what is read); a partial whose identity is not the merge's own is
 * refused, naming the first key that differs. */
#ifndef RUNPART_H
#define RUNPART_H

#include "core/census.h"
#include "core/diag.h"
#include "core/partial.h"
#include "core/sources.h"
#include "core/tally.h"

#define RUNPART_KEYS 24
#define RUNPART_VALUE_MAX 512

struct runpart_identity {
	char key[RUNPART_KEYS][24];
	char value[RUNPART_KEYS][RUNPART_VALUE_MAX];
	size_t n;
};

void runpart_put(struct runpart_identity *id, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The run's sections. */
/* The counts the summary line shows beside the tally. */
struct runpart_counts {
	struct census *census;      /* systems by source id of sources */
	struct sources *sources;
	uint64_t resets;
};

void runpart_write(struct pwriter *w, const struct runpart_identity *id,
                   const char *const *inputs, size_t ninputs, const struct tally *t,
                   const struct census *census, const struct sources *src,
                   uint64_t resets, const struct diag *d);

/* Whether partial p was made with identity id: PM_E_PARTIAL_MISMATCH
 * with the key, and both values, in err; PM_E_PARTIAL when it holds none. */
pm_status runpart_check(const struct partial *p, const struct runpart_identity *id,
                        char *err, size_t cap);

/* Its counts added to t and d, its inputs' names to *names (grown; the
 * names are p's, valid while p is loaded, so they are copied). */
pm_status runpart_read(const struct partial *p, struct tally *t, struct runpart_counts *k,
                       struct diag *d, char ***names, size_t *nnames, char *err,
                       size_t cap);

#endif
