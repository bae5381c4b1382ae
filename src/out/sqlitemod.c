/* sqlitemod.c: the SQLite module's entry point (sqlitemod.h). */
#include "config.h"

#include "out/sqlitemod.h"

/* The one symbol the module exports (it is built -fvisibility=hidden:
 * its copies of the program's helpers stay its own). */
__attribute__((visibility("default"))) const struct sqlite_module *
pmimrpt_sqlite_module(void)
{
	static const struct sqlite_module m = {
		{ SQLITE_MODULE_ABI, PACKAGE_VERSION }, sqlite_db_open, sqlite_db_error,
		sqlite_db_finish, sqlite_db_close, sqliteout_open,
	};

	return &m;
}
