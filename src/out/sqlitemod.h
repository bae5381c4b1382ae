/* sqlitemod.h: what pmimrpt and its SQLite module agree on. The
 * --format=sqlite writer (sqlite_db.c, sqliteout.c) is a module of its
 * own, pmimrpt-sqlite.so, loaded (core/module.h) only by a run that
 * writes a database: linked into the program, libsqlite3 (bound at
 * load, all of it) cost every run more than a third of its start-up time on an
 * empty input. Its entry point gives a table of the functions of
 * sqlite_db.h and sqliteout.h; program and module come from one build
 * (they share struct rowsink and struct tally), so the table says the
 * interface and the version it was built for. */
#ifndef SQLITEMOD_H
#define SQLITEMOD_H

#include "core/module.h"
#include "out/sqlite_db.h"
#include "out/sqliteout.h"

/* The module's file (Makefile.am builds it under this name), and its
 * entry point. */
#define SQLITE_MODULE_FILE "pmimrpt-sqlite.so"
#define SQLITE_MODULE_ENTRY "pmimrpt_sqlite_module"
/* Raised whenever struct sqlite_module, struct sqlite_run, struct
 * sqlite_table_id or what they point to changes. */
#define SQLITE_MODULE_ABI 1

struct sqlite_module {
	struct module_head head;  /* SQLITE_MODULE_ABI */
	pm_status (*db_open)(struct sqlite_db **out, const char *path);
	const char *(*db_error)(const struct sqlite_db *db);
	pm_status (*db_finish)(struct sqlite_db *db, const struct sqlite_run *run, bool commit);
	void (*db_close)(struct sqlite_db *db);
	pm_status (*table_open)(struct rowsink **out, struct sqlite_db *db, const char *table,
	                        const struct sqlite_table_id *id);
};

const struct sqlite_module *pmimrpt_sqlite_module(void);

#endif
