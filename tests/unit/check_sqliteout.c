/* check_sqliteout.c: the SQLite table sink, fed typed cells by hand, read
 * back through SQLite: each kind of cell becomes the storage class and
 * value worked out below (a fraction the value of its rounded digits, a
 * count past 2**63 a REAL, an empty text NULL but '' in the key), a row
 * with a key already there replaces it, and a run rolled back leaves
 * nothing. */
#include "check_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "out/sqliteout.h"

/* 2025-03-03 10:00:00 UTC in stamps (10**-4 s from 1970): 20150 days */
#define STAMP_2025_03_03_10 ((20150LL * 86400 + 10 * 3600) * 10000)

static const struct sink_column cols[] = {
	{ .name = "source", .primary = true },
	{ .name = "start", .primary = true },
	{ .name = "name" },
	{ .name = "count", .numeric = true },
	{ .name = "ratio", .numeric = true, .decimals = 3 },
	{ .name = "whole", .numeric = true },
	{ .name = "real", .numeric = true, .decimals = 2 },
};
#define NCOLS (sizeof cols / sizeof cols[0])

static const struct sqlite_table_id id = { 0x1234, 0x5678, "hour", "" };

static void
row(struct rowsink *s, const char *source, const char *name, uint64_t count,
    uint64_t num)
{
	struct sink_cell c[NCOLS] = {
		{ .kind = SINK_TEXT, .v.text = { source, strlen(source) } },
		{ .kind = SINK_STAMP, .v.stamp = { STAMP_2025_03_03_10, NULL } },
		{ .kind = SINK_TEXT, .v.text = { name, strlen(name) } },
		{ .kind = SINK_INTEGER, .v.integer = count },
		/* 2/3 to 3 decimals: 0.667, not 0.666...; 7/2 to 0: 4 */
		{ .kind = SINK_FRACTION, .decimals = 3, .v.fraction = { num, 3 } },
		{ .kind = SINK_FRACTION, .decimals = 0, .v.fraction = { 7, 2 } },
		/* half away from zero: -1.13 */
		{ .kind = SINK_REAL, .decimals = 2, .v.real = -1.125 },
	};

	s->row(s, c, false);
}

/* One text of what SQLite holds: storage class and value of each column
 * of each row, in rowid order. */
static void
contents(struct sqlite_db *db, char *out, size_t cap)
{
	sqlite3_stmt *q;
	size_t n = 0;

	ck_assert_int_eq(sqlite3_prepare_v2(sqlite_db_handle(db),
	                 "SELECT * FROM \"t-1\" ORDER BY rowid", -1, &q, NULL), SQLITE_OK);
	out[0] = '\0';
	while (sqlite3_step(q) == SQLITE_ROW)
		for (int i = 0; i < sqlite3_column_count(q); i++) {
			const char *v = (const char *)sqlite3_column_text(q, i);
			n += (size_t)snprintf(out + n, cap - n, "%s%s:%s", i ? " " : n ? "\n" : "",
			                      sqlite3_column_decltype(q, i),
			                      v ? v : "NULL");
			if (sqlite3_column_type(q, i) == SQLITE_NULL)
				continue;
			n += (size_t)snprintf(out + n, cap - n, "/%c",
			                      "?irtb n"[sqlite3_column_type(q, i)]);
		}
	sqlite3_finalize(q);
}

static const struct tally no_tally;

START_TEST(cells_typed)
{
	char path[] = "/tmp/check_sqliteout.XXXXXX", got[2048];
	struct sqlite_db *db;
	struct rowsink *s;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(sqlite_db_open(&db, path), PM_OK);
	ck_assert_int_eq(sqliteout_open(&s, db, "t-1", &id), PM_OK);
	ck_assert_int_eq(s->begin(s, cols, NCOLS, false), PM_OK);
	row(s, "SYSA", "", UINT64_C(1) << 63, 2);
	row(s, "", "x", 5, 1);
	row(s, "SYSA", "again", 6, 2);  /* the first row's key: replaces it */
	ck_assert_int_eq(s->end(s, NULL), PM_OK);
	contents(db, got, sizeof got);
	ck_assert_str_eq(got,
	                 "TEXT:SYSA/t TEXT:2025-03-03 10:00:00/t TEXT:again/t "
	                 "INTEGER:6/i REAL:0.667/r INTEGER:4/i REAL:-1.13/r\n"
	                 "TEXT:/t TEXT:2025-03-03 10:00:00/t TEXT:x/t "
	                 "INTEGER:5/i REAL:0.333/r INTEGER:4/i REAL:-1.13/r");
	s->close(s);
	ck_assert_int_eq(sqlite_db_finish(db, &(struct sqlite_run){
		"2026-12-01T00:00:00Z", "test", "", NULL, NULL, 0, &no_tally, 0, 0 }, true), PM_OK);
	sqlite_db_close(db);
	unlink(path);
}
END_TEST

/* Past 2**63 a count is a REAL (SQLite's integers are signed); an empty
 * text out of the key is NULL. */
START_TEST(wide_count_and_null)
{
	char got[2048];
	struct sqlite_db *db;
	struct rowsink *s;

	ck_assert_int_eq(sqlite_db_open(&db, ":memory:"), PM_OK);
	ck_assert_int_eq(sqliteout_open(&s, db, "t-1", &id), PM_OK);
	ck_assert_int_eq(s->begin(s, cols, NCOLS, false), PM_OK);
	row(s, "SYSA", "", UINT64_C(1) << 63, 2);
	ck_assert_int_eq(s->end(s, NULL), PM_OK);
	contents(db, got, sizeof got);
	ck_assert_str_eq(got,
	                 "TEXT:SYSA/t TEXT:2025-03-03 10:00:00/t TEXT:NULL "
	                 "INTEGER:9.22337203685478e+18/r REAL:0.667/r INTEGER:4/i REAL:-1.13/r");
	s->close(s);
	sqlite_db_close(db);
}
END_TEST

/* Another layout of the same table is refused, and a rolled-back run
 * leaves no table. */
START_TEST(refused_and_rolled_back)
{
	char path[] = "/tmp/check_sqliteout.XXXXXX";
	struct sqlite_table_id other = id;
	struct sqlite_db *db;
	struct rowsink *s;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(sqlite_db_open(&db, path), PM_OK);
	ck_assert_int_eq(sqliteout_open(&s, db, "t-1", &id), PM_OK);
	ck_assert_int_eq(s->begin(s, cols, NCOLS, false), PM_OK);
	ck_assert_int_eq(s->end(s, NULL), PM_OK);
	s->close(s);
	ck_assert_int_eq(sqlite_db_finish(db, &(struct sqlite_run){
		"2026-12-01T00:00:00Z", "test", "", NULL, NULL, 0, &no_tally, 0, 0 }, true), PM_OK);
	sqlite_db_close(db);

	other.layout = 0x9999;
	ck_assert_int_eq(sqlite_db_open(&db, path), PM_OK);
	ck_assert_int_eq(sqliteout_open(&s, db, "t-1", &other), PM_OK);
	ck_assert_int_eq(s->begin(s, cols, NCOLS, false), PM_E_USAGE);
	ck_assert_ptr_nonnull(strstr(sqlite_db_error(db), "another copybook layout"));
	s->close(s);
	ck_assert_int_eq(sqliteout_open(&s, db, "t-2", &other), PM_OK);
	ck_assert_int_eq(s->begin(s, cols, NCOLS, false), PM_OK);
	row(s, "SYSA", "x", 1, 1);
	ck_assert_int_eq(s->end(s, NULL), PM_OK);
	s->close(s);
	ck_assert_int_eq(sqlite_db_finish(db, NULL, false), PM_OK);
	sqlite_db_close(db);

	ck_assert_int_eq(sqlite_db_open(&db, path), PM_OK);
	ck_assert_int_eq(sqlite3_exec(sqlite_db_handle(db), "SELECT * FROM \"t-2\"", NULL,
	                              NULL, NULL), SQLITE_ERROR);
	sqlite_db_close(db);
	unlink(path);
}
END_TEST

Suite *
unit_suite(void)
{
	Suite *s = suite_create("sqliteout");
	TCase *tc = tcase_create("table sink");
	tcase_add_test(tc, cells_typed);
	tcase_add_test(tc, wide_count_and_null);
	tcase_add_test(tc, refused_and_rolled_back);
	suite_add_tcase(s, tc);
	return s;
}
