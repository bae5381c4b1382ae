/* sqliteout.h: a report's rows as one table of a run's SQLite database
 * (sqlite_db.h). The table is named after the report, its columns typed
 * from the sink's columns (TEXT for names and times, INTEGER for counts,
 * REAL for figures with decimals, NULL where the CSV has an empty field),
 * with the row's key (the columns marked primary) as its PRIMARY KEY; a
 * row whose key is there already replaces it (an upsert), so that the
 * same job run twice leaves the same rows.
 *
 * A table is made once, and recorded in `pmimrpt_tables` with what shaped
 * it: a later run that would write it otherwise (another definition or
 * layout, grouping, time zone or columns) is refused (PM_E_USAGE) rather
 * than mixed. Failures are kept in the database handle (sqlite_db_error);
 * a failed row is said at end() (PM_E_WRITE). */
#ifndef SQLITEOUT_H
#define SQLITEOUT_H

#include <stdint.h>

#include "core/status.h"
#include "out/sqlite_db.h"
#include "report/rowsink.h"

/* What a table's rows are made by. */
struct sqlite_table_id {
	uint64_t definition;    /* the report definition's fingerprint */
	uint64_t layout;        /* the copybook layout's; 0: none read */
	const char *grouping;   /* --by: "hour", "total", ... */
	const char *timezone;   /* --timezone; "": times as recorded */
};

/* A rowsink writing table `table` of db; PM_E_NOMEM. */
pm_status sqliteout_open(struct rowsink **out, struct sqlite_db *db, const char *table,
                         const struct sqlite_table_id *id);

#endif
