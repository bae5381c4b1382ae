/* pm_stage.h: the PM stage. Takes PM records (from a PM stream, or found in
 * SMF records), reads each one's header once, counts them in the
 * inventory, and dispatches on INTRTYPE and INTSEQ#: an interval part is
 * decoded once into a struct pm_part, handed to the reassembler and
 * checked; other record types are skipped by their length and counted. An
 * interval record that ends before it starts, or lasts longer than
 * max_interval, is damaged. Accounts each PM record's bytes as used,
 * skipped or damaged. */
#ifndef PM_STAGE_H
#define PM_STAGE_H

#include <stdint.h>

#include "core/bytes.h"
#include "core/diag.h"
#include "pmim/pmint.h"
#include "pmim/pmtime.h"
#include "pmim/reasm.h"
#include "core/tally.h"
#include "core/tzone.h"

/* Set the first five, and the zone's three when local times are to be
 * mapped to UTC; zero the rest. */
struct pm_stage {
	const struct pmint *pm;
	struct reasm *reasm;
	struct diag *diag;
	struct tally *tally;
	int64_t max_interval;     /* stamp units: longer is damage */
	bool figures_unread;      /* no report reads the intervals' figures
	                             (the inventory): parts only checked */
	const struct tzone *zone;  /* NULL: times stay as recorded */
	int64_t *last_start;       /* by source: the UTC start of its last
	                              part in this input; INT64_MIN: none */
	size_t nsources;           /* of last_start */
	struct date_cache dates;  /* most records repeat the last dates */
	struct pm_part last;      /* the last part whose times were read, */
	bool last_good;           /* when they were good: its key and stamps */
};

/* Forget where each source's stream was: a new input begins. */
void pm_stage_new_input(struct pm_stage *s);

/* One PM record: rec spans exactly its INTLEN bytes; offset is its file
 * offset (or the nearest known one, for records inside spanned SMF data). */
void pm_stage_record(struct pm_stage *s, struct span rec, uint32_t source,
                     uint64_t offset);

/* pm_stage_record for a record of a PM stream, whose header the framer's
 * pmint_record_length read into k: taken from there when k holds it
 * (k->at is rec's start), else read. */
void pm_stage_peeked(struct pm_stage *s, struct span rec, const struct pm_peeked *k,
                     uint32_t source, uint64_t offset);

/* Walk a stream of PM records back to back within buf (e.g. the data of an
 * RDW record holding PM records); returns bytes consumed. Damage ends the
 * walk, and the remainder is counted as damaged. */
size_t pm_stage_chain(struct pm_stage *s, struct span buf, uint32_t source,
                      uint64_t offset);

#endif
