/* sqlite_db.c: the database of a --format=sqlite run. See sqlite_db.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "out/sqlite_db.h"

/* Ours, in the file's header: "PMIM". */
#define APPLICATION_ID 0x504D494D
/* The format of the tables below; a newer one is refused. */
#define FORMAT_VERSION 1

static const char meta_tables[] =
	"CREATE TABLE IF NOT EXISTS pmimrpt_tables ("
	" name TEXT PRIMARY KEY NOT NULL, definition TEXT NOT NULL,"
	" layout TEXT NOT NULL, grouping TEXT NOT NULL, timezone TEXT NOT NULL,"
	" columns TEXT NOT NULL, version INTEGER NOT NULL);"
	"CREATE TABLE IF NOT EXISTS runs ("
	" run_id INTEGER PRIMARY KEY, run_time TEXT NOT NULL,"
	" pmimrpt_version TEXT NOT NULL, options TEXT NOT NULL,"
	" bytes_read INTEGER NOT NULL, bytes_used INTEGER NOT NULL,"
	" bytes_skipped INTEGER NOT NULL, bytes_damaged INTEGER NOT NULL,"
	" intervals INTEGER NOT NULL, intervals_complete INTEGER NOT NULL,"
	" intervals_incomplete INTEGER NOT NULL, intervals_duplicate INTEGER NOT NULL,"
	" intervals_overlapping INTEGER NOT NULL, warnings INTEGER NOT NULL,"
	" exit_code INTEGER NOT NULL);"
	"CREATE TABLE IF NOT EXISTS run_inputs ("
	" run_id INTEGER NOT NULL REFERENCES runs (run_id), seq INTEGER NOT NULL,"
	" name TEXT NOT NULL, bytes INTEGER, PRIMARY KEY (run_id, seq));"
	"CREATE TABLE IF NOT EXISTS run_tables ("
	" run_id INTEGER NOT NULL REFERENCES runs (run_id), name TEXT NOT NULL,"
	" rows INTEGER NOT NULL, PRIMARY KEY (run_id, name));";

struct loaded {
	char *table;
	uint64_t rows;
};

struct sqlite_db {
	sqlite3 *h;
	char *path;
	bool in_transaction;
	struct loaded *loaded;   /* the tables written, for run_tables */
	size_t nloaded;
	char err[768];
};

pm_status
sqlite_db_fail(struct sqlite_db *db, pm_status st, const char *fmt, ...)
{
	int n = snprintf(db->err, sizeof db->err, "%s: ", db->path);
	va_list ap;

	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof db->err)
		vsnprintf(db->err + n, sizeof db->err - (size_t)n, fmt, ap);
	va_end(ap);
	return st;
}

/* A failure of SQLite itself: what it says. */
static pm_status
failed(struct sqlite_db *db, const char *doing)
{
	return sqlite_db_fail(db, PM_E_WRITE, "%s: %s", doing, sqlite3_errmsg(db->h));
}

static pm_status
exec(struct sqlite_db *db, const char *sql, const char *doing)
{
	return sqlite3_exec(db->h, sql, NULL, NULL, NULL) == SQLITE_OK ? PM_OK
	       : failed(db, doing);
}

/* The integer a PRAGMA returns. */
static pm_status
pragma_int(struct sqlite_db *db, const char *sql, int64_t *out)
{
	sqlite3_stmt *q;
	int rc;

	if (sqlite3_prepare_v2(db->h, sql, -1, &q, NULL) != SQLITE_OK)
		return failed(db, "reading the database's header");
	rc = sqlite3_step(q);
	*out = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
	sqlite3_finalize(q);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? PM_OK
	       : failed(db, "reading the database's header");
}

/* The database is ours, or becomes ours: its application id and the
 * format of our tables. */
static pm_status
claim(struct sqlite_db *db)
{
	char sql[96];
	int64_t app, version;
	pm_status st;

	if ((st = pragma_int(db, "PRAGMA application_id", &app)) != PM_OK ||
	    (st = pragma_int(db, "PRAGMA user_version", &version)) != PM_OK)
		return st;
	if (app != 0 && app != APPLICATION_ID)
		return sqlite_db_fail(db, PM_E_USAGE, "a database of another program "
		                      "(application id 0x%08llx): refused",
		                      (unsigned long long)app);
	if (app == APPLICATION_ID && version > FORMAT_VERSION)
		return sqlite_db_fail(db, PM_E_USAGE, "written by a newer pmimrpt "
		                      "(format %lld; this one writes %d): refused",
		                      (long long)version, FORMAT_VERSION);
	snprintf(sql, sizeof sql, "PRAGMA application_id = %d; PRAGMA user_version = %d",
	         APPLICATION_ID, FORMAT_VERSION);
	if ((st = exec(db, sql, "marking the database")) != PM_OK)
		return st;
	return exec(db, meta_tables, "creating pmimrpt's tables");
}

pm_status
sqlite_db_open(struct sqlite_db **out, const char *path)
{
	struct sqlite_db *db = calloc(1, sizeof *db);
	pm_status st;

	*out = db;
	if (!db || !(db->path = strdup(path)))
		return PM_E_NOMEM;
	if (sqlite3_open_v2(path, &db->h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
	                    NULL) != SQLITE_OK)
		return db->h ? failed(db, "opening")
		       : sqlite_db_fail(db, PM_E_NOMEM, "out of memory");
	sqlite3_extended_result_codes(db->h, 1);
	sqlite3_busy_timeout(db->h, SQLITE_DB_BUSY_MS);
	if (sqlite3_exec(db->h, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return (sqlite3_errcode(db->h) & 0xff) == SQLITE_BUSY
		       ? sqlite_db_fail(db, PM_E_WRITE, "locked by another run for %d s: %s",
		                        SQLITE_DB_BUSY_MS / 1000, sqlite3_errmsg(db->h))
		       : failed(db, "beginning the run's transaction");
	db->in_transaction = true;
	if ((st = claim(db)) != PM_OK)
		return st;
	return PM_OK;
}

const char *
sqlite_db_error(const struct sqlite_db *db)
{
	return db ? db->err : "out of memory";
}

struct sqlite3 *
sqlite_db_handle(struct sqlite_db *db)
{
	return db->h;
}

pm_status
sqlite_db_loaded(struct sqlite_db *db, const char *table, uint64_t rows)
{
	struct loaded *l = realloc(db->loaded, (db->nloaded + 1) * sizeof *l);

	if (!l)
		return sqlite_db_fail(db, PM_E_NOMEM, "out of memory");
	db->loaded = l;
	if (!(l[db->nloaded].table = strdup(table)))
		return sqlite_db_fail(db, PM_E_NOMEM, "out of memory");
	l[db->nloaded++].rows = rows;
	return PM_OK;
}

/* Run one statement of sql, its texts bound first, then its integers
 * (null_int[k]: NULL instead; null_int may be NULL). */
static pm_status
insert(struct sqlite_db *db, const char *sql, const char *const *texts, size_t ntexts,
       const int64_t *ints, const bool *null_int, size_t nints)
{
	sqlite3_stmt *q;
	int rc, i = 1;

	if (sqlite3_prepare_v2(db->h, sql, -1, &q, NULL) != SQLITE_OK)
		return failed(db, "recording the run");
	for (size_t k = 0; k < ntexts; k++, i++)
		sqlite3_bind_text(q, i, texts[k], -1, SQLITE_STATIC);
	for (size_t k = 0; k < nints; k++, i++)
		if (null_int && null_int[k])
			sqlite3_bind_null(q, i);
		else
			sqlite3_bind_int64(q, i, ints[k]);
	rc = sqlite3_step(q);
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? PM_OK : failed(db, "recording the run");
}

/* The run's rows: runs, then its inputs and tables. */
static pm_status
record_run(struct sqlite_db *db, const struct sqlite_run *run)
{
	const struct tally *t = run->tally;
	const char *texts[] = { run->run_time, run->version, run->options };
	int64_t counts[] = {
		(int64_t)t->bytes_read, (int64_t)t->used, (int64_t)t->skipped,
		(int64_t)t->damaged,
		(int64_t)(t->intervals_complete + t->intervals_incomplete),
		(int64_t)t->intervals_complete, (int64_t)t->intervals_incomplete,
		(int64_t)t->intervals_duplicate, (int64_t)t->intervals_overlapping,
		(int64_t)run->warnings, run->exit_code,
	};
	int64_t id;
	pm_status st = insert(db,
		"INSERT INTO runs (run_time, pmimrpt_version, options, bytes_read,"
		" bytes_used, bytes_skipped, bytes_damaged, intervals, intervals_complete,"
		" intervals_incomplete, intervals_duplicate, intervals_overlapping,"
		" warnings, exit_code) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		texts, 3, counts, NULL, sizeof counts / sizeof counts[0]);

	id = sqlite3_last_insert_rowid(db->h);
	for (size_t i = 0; st == PM_OK && i < run->ninputs; i++) {
		int64_t v[] = { id, (int64_t)i + 1, run->bytes[i] };
		bool null[] = { false, false, run->bytes[i] < 0 };
		const char *name = run->inputs[i];
		st = insert(db, "INSERT INTO run_inputs (name, run_id, seq, bytes)"
		            " VALUES (?, ?, ?, ?)", &name, 1, v, null, 3);
	}
	for (size_t i = 0; st == PM_OK && i < db->nloaded; i++) {
		int64_t v[] = { id, (int64_t)db->loaded[i].rows };
		const char *name = db->loaded[i].table;
		st = insert(db, "INSERT INTO run_tables (name, run_id, rows) VALUES (?, ?, ?)",
		            &name, 1, v, NULL, 2);
	}
	return st;
}

pm_status
sqlite_db_finish(struct sqlite_db *db, const struct sqlite_run *run, bool commit)
{
	pm_status st = PM_OK;

	if (!db->in_transaction)
		return PM_OK;
	if (commit && (st = record_run(db, run)) == PM_OK &&
	    (st = exec(db, "COMMIT", "committing the run")) == PM_OK) {
		db->in_transaction = false;
		return PM_OK;
	}
	/* a failed COMMIT may have ended the transaction already */
	if (!sqlite3_get_autocommit(db->h))
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
	db->in_transaction = false;
	return st;
}

void
sqlite_db_close(struct sqlite_db *db)
{
	if (!db)
		return;
	if (db->in_transaction)
		(void)sqlite_db_finish(db, NULL, false);
	/* the table sinks have finalized their statements by now */
	sqlite3_close(db->h);
	for (size_t i = 0; i < db->nloaded; i++)
		free(db->loaded[i].table);
	free(db->loaded);
	free(db->path);
	free(db);
}
