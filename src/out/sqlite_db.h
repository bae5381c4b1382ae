/* sqlite_db.h: the SQLite database one run loads (--format=sqlite). It is
 * opened, or created, with one write transaction for the whole run (BEGIN
 * IMMEDIATE, waiting up to SQLITE_DB_BUSY_MS while another run holds
 * it), in which every report's table sink (sqliteout.h) writes; at the
 * end the run's row goes to `runs` (with `run_inputs` and `run_tables`)
 * and the transaction commits, or it rolls back. The file is updated in
 * place: the transaction, through SQLite's rollback journal, is what
 * leaves a failed or killed run's database as it was.
 *
 * Failures return PM_E_WRITE (the database could not be written: exit
 * 16), or PM_E_USAGE for a database refused (not ours, or a table of
 * another definition: exit 12); sqlite_db_error then says why, naming
 * the file. */
#ifndef SQLITE_DB_H
#define SQLITE_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "core/tally.h"

/* How long a run waits for another run's transaction to end. */
#define SQLITE_DB_BUSY_MS (10 * 60 * 1000)

struct sqlite_db;

/* What the `runs` row of a run records. */
struct sqlite_run {
	const char *run_time;       /* UTC, ISO 8601: 2026-12-01T02:00:00Z */
	const char *version;        /* pmimrpt's */
	const char *options;        /* the command line less its operands */
	const char *const *inputs;  /* names; "-" is standard input */
	const int64_t *bytes;       /* each input's size; -1: unknown (a pipe) */
	size_t ninputs;
	const struct tally *tally;  /* the byte accounting, the intervals */
	uint64_t warnings;
	int exit_code;              /* 0 or 4: only those commit */
};

/* Open or create the database at path and begin the run's transaction.
 * *out is set whenever memory allowed, for sqlite_db_error and
 * sqlite_db_close, even when opening failed. */
pm_status sqlite_db_open(struct sqlite_db **out, const char *path);

/* Why the last call failed: "FILE: what". */
const char *sqlite_db_error(const struct sqlite_db *db);

/* commit: write the run's row and commit; else roll everything back. */
pm_status sqlite_db_finish(struct sqlite_db *db, const struct sqlite_run *run,
                           bool commit);

/* Roll back what is not committed, and close. NULL is allowed. */
void sqlite_db_close(struct sqlite_db *db);

/* For the table sinks (sqliteout.c). */
struct sqlite3;
struct sqlite3 *sqlite_db_handle(struct sqlite_db *db);
/* Keep "FILE: message" (printf's format) as the error; returns st. */
pm_status sqlite_db_fail(struct sqlite_db *db, pm_status st, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
/* A table's rows of this run, for `run_tables`. */
pm_status sqlite_db_loaded(struct sqlite_db *db, const char *table, uint64_t rows);

#endif
