/* sqliteout.c: a report's rows as a table of a SQLite database. See
 * sqliteout.h. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "out/cell.h"
#include "out/sqliteout.h"

/* The format of the tables this file writes, in pmimrpt_tables. */
#define TABLE_VERSION 1

struct sqliteout {
	struct rowsink sink;  /* first: the sink is the writer */
	struct sqlite_db *db;
	char *table;
	struct sqlite_table_id id;
	const struct sink_column *cols;
	size_t ncols;
	sqlite3_stmt *upsert;
	char (*digits)[CELL_FORMAT_MAX + 1]; /* a formatted cell per column */
	locale_t c_locale;    /* strtod's '.', whatever LC_NUMERIC says */
	uint64_t rows;
	pm_status failed;     /* the first failure of a row */
};

/* What SQLite says about a step that went wrong. */
static pm_status
sql_failed(struct sqliteout *o, const char *doing)
{
	return sqlite_db_fail(o->db, PM_E_WRITE, "table '%s': %s: %s", o->table, doing,
	                      sqlite3_errmsg(sqlite_db_handle(o->db)));
}

static const char *
column_type(const struct sink_column *c)
{
	return !c->numeric ? "TEXT" : c->decimals ? "REAL" : "INTEGER";
}

/* The column list of the CREATE TABLE, key and all: what pmimrpt_tables
 * keeps, and what a later run's columns must be. NULL: out of memory. */
static char *
column_list(const struct sink_column *cols, size_t ncols)
{
	sqlite3_str *s = sqlite3_str_new(NULL);
	const char *sep = "";

	for (size_t i = 0; i < ncols; i++)
		sqlite3_str_appendf(s, "%s\"%w\" %s%s", i ? ", " : "", cols[i].name,
		                    column_type(&cols[i]), cols[i].primary ? " NOT NULL" : "");
	sqlite3_str_appendall(s, ", PRIMARY KEY (");
	for (size_t i = 0; i < ncols; i++)
		if (cols[i].primary) {
			sqlite3_str_appendf(s, "%s\"%w\"", sep, cols[i].name);
			sep = ", ";
		}
	sqlite3_str_appendall(s, ")");
	return sqlite3_str_finish(s);
}

/* INSERT ... ON CONFLICT (key) DO UPDATE SET every other column. */
static char *
upsert_sql(const struct sqliteout *o)
{
	sqlite3_str *s = sqlite3_str_new(NULL);
	const char *sep = "";
	bool others = false;

	sqlite3_str_appendf(s, "INSERT INTO \"%w\" (", o->table);
	for (size_t i = 0; i < o->ncols; i++)
		sqlite3_str_appendf(s, "%s\"%w\"", i ? ", " : "", o->cols[i].name);
	sqlite3_str_appendall(s, ") VALUES (");
	for (size_t i = 0; i < o->ncols; i++)
		sqlite3_str_appendall(s, i ? ", ?" : "?");
	sqlite3_str_appendall(s, ") ON CONFLICT (");
	for (size_t i = 0; i < o->ncols; i++)
		if (o->cols[i].primary) {
			sqlite3_str_appendf(s, "%s\"%w\"", sep, o->cols[i].name);
			sep = ", ";
		}
	sqlite3_str_appendall(s, ") DO ");
	for (size_t i = 0; i < o->ncols; i++)
		if (!o->cols[i].primary) {
			sqlite3_str_appendf(s, "%s\"%w\" = excluded.\"%w\"",
			                    others ? ", " : "UPDATE SET ", o->cols[i].name,
			                    o->cols[i].name);
			others = true;
		}
	if (!others)
		sqlite3_str_appendall(s, "NOTHING");
	return sqlite3_str_finish(s);
}

/* What differs between the table's record and this run's, or NULL. */
static const char *
difference(sqlite3_stmt *q, const char *const mine[5])
{
	static const char *const what[] = {
		"another report definition (its fingerprint)", "another copybook layout",
		"another grouping (--by)", "another time zone (--timezone)",
		"other columns"
	};

	for (int k = 0; k < 5; k++) {
		const char *theirs = (const char *)sqlite3_column_text(q, k);
		if (!theirs || strcmp(theirs, mine[k]) != 0)
			return what[k];
	}
	if (sqlite3_column_int64(q, 5) != TABLE_VERSION)
		return "another version of pmimrpt's table format";
	return NULL;
}

/* Whether a table of that name, whatever its case, is in the database. */
static pm_status
table_exists(struct sqliteout *o, bool *exists)
{
	sqlite3_stmt *q;
	int rc;

	if (sqlite3_prepare_v2(sqlite_db_handle(o->db), "SELECT 1 FROM sqlite_master "
	                       "WHERE name = ? COLLATE NOCASE", -1, &q, NULL) != SQLITE_OK)
		return sql_failed(o, "looking for the table");
	sqlite3_bind_text(q, 1, o->table, -1, SQLITE_STATIC);
	rc = sqlite3_step(q);
	*exists = rc == SQLITE_ROW;
	sqlite3_finalize(q);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? PM_OK
	       : sql_failed(o, "looking for the table");
}

/* Make the table and record it, or check that the one there was made as
 * this run would make it. */
static pm_status
make_or_check(struct sqliteout *o, const char *columns)
{
	sqlite3 *h = sqlite_db_handle(o->db);
	char definition[17], layout[17];
	const char *mine[5] = { definition, layout, o->id.grouping, o->id.timezone, columns };
	sqlite3_stmt *q;
	const char *differs = NULL;
	bool exists = false;
	char *sql;
	int rc;
	pm_status st;

	snprintf(definition, sizeof definition, "%016llx", (unsigned long long)o->id.definition);
	snprintf(layout, sizeof layout, "%016llx", (unsigned long long)o->id.layout);
	if (sqlite3_prepare_v2(h, "SELECT definition, layout, grouping, timezone, columns,"
	                       " version FROM pmimrpt_tables WHERE name = ?", -1, &q,
	                       NULL) != SQLITE_OK)
		return sql_failed(o, "reading pmimrpt_tables");
	sqlite3_bind_text(q, 1, o->table, -1, SQLITE_STATIC);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		differs = difference(q, mine);
	sqlite3_finalize(q);
	if (rc == SQLITE_ROW)
		return !differs ? PM_OK
		       : sqlite_db_fail(o->db, PM_E_USAGE, "table '%s' was written with %s: "
		                        "refused, not mixed (load into another database, or "
		                        "drop the table and its row in pmimrpt_tables)",
		                        o->table, differs);
	if (rc != SQLITE_DONE)
		return sql_failed(o, "reading pmimrpt_tables");
	if ((st = table_exists(o, &exists)) != PM_OK)
		return st;
	if (exists)
		return sqlite_db_fail(o->db, PM_E_USAGE, "a table '%s' that pmimrpt did not "
		                      "write as a report is there already: refused", o->table);
	if (!(sql = sqlite3_mprintf("CREATE TABLE \"%w\" (%s)", o->table, columns)))
		return sqlite_db_fail(o->db, PM_E_NOMEM, "out of memory");
	rc = sqlite3_exec(h, sql, NULL, NULL, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		return sql_failed(o, "creating the table");
	if (sqlite3_prepare_v2(h, "INSERT INTO pmimrpt_tables (name, definition, layout,"
	                       " grouping, timezone, columns, version)"
	                       " VALUES (?, ?, ?, ?, ?, ?, ?)", -1, &q, NULL) != SQLITE_OK)
		return sql_failed(o, "recording the table");
	sqlite3_bind_text(q, 1, o->table, -1, SQLITE_STATIC);
	for (int k = 0; k < 5; k++)
		sqlite3_bind_text(q, 2 + k, mine[k], -1, SQLITE_STATIC);
	sqlite3_bind_int(q, 7, TABLE_VERSION);
	rc = sqlite3_step(q);
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? PM_OK : sql_failed(o, "recording the table");
}

static pm_status
begin(struct rowsink *s, const struct sink_column *cols, size_t ncols, bool form)
{
	struct sqliteout *o = (struct sqliteout *)s;
	bool keyed = false;
	char *columns, *sql;
	pm_status st;

	(void)form;
	o->cols = cols;
	o->ncols = ncols;
	for (size_t i = 0; i < ncols; i++)
		keyed = keyed || cols[i].primary;
	if (!keyed)
		return sqlite_db_fail(o->db, PM_E_USAGE, "report '%s' has no columns that tell "
		                      "its rows apart, for a primary key (a bucket report needs "
		                      "text=bucket, an interval report text=source and "
		                      "text=start, a counter report object, instance, counter "
		                      "and type)", o->table);
	free(o->digits);
	if (!(o->digits = calloc(ncols, sizeof *o->digits)) ||
	    !(columns = column_list(cols, ncols)))
		return sqlite_db_fail(o->db, PM_E_NOMEM, "out of memory");
	st = make_or_check(o, columns);
	sqlite3_free(columns);
	if (st != PM_OK)
		return st;
	if (!(sql = upsert_sql(o)))
		return sqlite_db_fail(o->db, PM_E_NOMEM, "out of memory");
	sqlite3_finalize(o->upsert);
	if (sqlite3_prepare_v3(sqlite_db_handle(o->db), sql, -1, SQLITE_PREPARE_PERSISTENT,
	                       &o->upsert, NULL) != SQLITE_OK)
		st = sql_failed(o, "preparing the insert");
	sqlite3_free(sql);
	return st;
}

/* A whole number as formatted ("-12"), when it fits 64 bits. */
static bool
whole_number(const char *s, int64_t *out)
{
	bool negative = *s == '-';
	uint64_t v = 0;

	s += negative;
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	if (v > (uint64_t)INT64_MAX + negative)
		return false;
	*out = negative ? (int64_t)(0 - v) : (int64_t)v;
	return true;
}

/* A figure: the CSV's digits, as an INTEGER when it has no decimals and
 * fits, else as the REAL they read as. */
static int
bind_figure(sqlite3_stmt *q, int i, const struct sink_cell *c, char *digits)
{
	size_t n = cell_format(c, digits);
	int64_t whole;

	digits[n] = '\0';
	if (n == 0)   /* a NaN or an infinity: an empty field */
		return sqlite3_bind_null(q, i);
	if (c->decimals == 0 && whole_number(digits, &whole))
		return sqlite3_bind_int64(q, i, whole);
	return sqlite3_bind_double(q, i, strtod(digits, NULL));
}

static int
bind_cell(struct sqliteout *o, int i, const struct sink_cell *c, char *digits)
{
	switch ((enum sink_kind)c->kind) {
	case SINK_TEXT:   /* empty: NULL, as the CSV's empty field; but a key is
	                     never NULL (an object without instances: '') */
		if (c->v.text.n || o->cols[i - 1].primary)
			return sqlite3_bind_text(o->upsert, i, c->v.text.n ? c->v.text.s : "",
			                         (int)c->v.text.n, SQLITE_STATIC);
		break;
	case SINK_INTEGER:
		if (c->v.integer <= INT64_MAX)
			return sqlite3_bind_int64(o->upsert, i, (int64_t)c->v.integer);
		return sqlite3_bind_double(o->upsert, i, (double)c->v.integer);
	case SINK_FRACTION:
	case SINK_REAL:
		return bind_figure(o->upsert, i, c, digits);
	case SINK_STAMP:
		return sqlite3_bind_text(o->upsert, i, digits, (int)cell_format(c, digits),
		                         SQLITE_STATIC);
	case SINK_EMPTY:
		break;
	}
	return sqlite3_bind_null(o->upsert, i);
}

/* Bound and stepped in place: nothing allocated, no SQL made. */
static void
row(struct rowsink *s, const struct sink_cell *cells, bool marked)
{
	struct sqliteout *o = (struct sqliteout *)s;
	locale_t was;
	int rc = SQLITE_OK;

	(void)marked;
	if (o->failed != PM_OK)
		return;
	was = uselocale(o->c_locale);
	for (size_t i = 0; i < o->ncols && rc == SQLITE_OK; i++)
		rc = bind_cell(o, (int)i + 1, &cells[i], o->digits[i]);
	uselocale(was);
	if (rc == SQLITE_OK && (rc = sqlite3_step(o->upsert)) == SQLITE_DONE)
		o->rows++;
	else
		o->failed = sql_failed(o, "writing a row");
	sqlite3_reset(o->upsert);
}

static pm_status
end(struct rowsink *s, const struct report_meta *m)
{
	struct sqliteout *o = (struct sqliteout *)s;

	(void)m;
	sqlite3_finalize(o->upsert);
	o->upsert = NULL;
	if (o->failed != PM_OK)
		return o->failed;
	return sqlite_db_loaded(o->db, o->table, o->rows);
}

static void
close_sink(struct rowsink *s)
{
	struct sqliteout *o = (struct sqliteout *)s;

	sqlite3_finalize(o->upsert);
	if (o->c_locale)
		freelocale(o->c_locale);
	free(o->digits);
	free(o->table);
	free(o);
}

pm_status
sqliteout_open(struct rowsink **out, struct sqlite_db *db, const char *table,
               const struct sqlite_table_id *id)
{
	struct sqliteout *o = calloc(1, sizeof *o);

	*out = NULL;
	if (!o)
		return PM_E_NOMEM;
	o->sink = (struct rowsink){ begin, row, end, close_sink, NULL };
	o->db = db;
	o->id = *id;
	o->failed = PM_OK;
	o->table = strdup(table);
	o->c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	if (!o->table || !o->c_locale) {
		close_sink(&o->sink);
		return PM_E_NOMEM;
	}
	*out = &o->sink;
	return PM_OK;
}
