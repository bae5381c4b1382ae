/* rowsink.h: where report rows go. The report hands a writer its columns
 * once, then rows of typed cells, then what the title block needs; only
 * the writer (csvout.c, textout.c, through out/cell.h) turns a cell into
 * bytes, so that a chart or a typed database column gets the value, not
 * its digits. The sink is told each column's kind and the row's key, for
 * a typed database table with a primary key. */
#ifndef ROWSINK_H
#define ROWSINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

struct sink_column {
	const char *name;     /* CSV header: the contract */
	const char *heading;  /* text format heading */
	bool numeric;         /* right-aligned, never quoted */
	bool key;             /* leads the row: repeated on every text panel */
	unsigned width;       /* least width in the text format; 0: the data's */
	/* Blocks: the columns of a "top" block, and of an "each bucket" block,
	 * repeat a set of columns for each of their rows (a rank, a bucket);
	 * a form sets each block as a table of a line per row. */
	unsigned rank;        /* of a "top" block: 1..N; 0 otherwise */
	bool primary;         /* part of the row's key: no two rows of a run
	                         share the values of these columns */
	uint8_t decimals;     /* a numeric column's digits after the point:
	                         0 for counts (a database's INTEGER) */
	const char *row_label; /* of an "each bucket" block: its bucket's label
	                          (a row of the family); NULL otherwise */
	const char *row_desc;  /* and its description */
	const char *block_heading; /* of a block's column: its heading in the
	                              block's table ("waits") */
};

struct tzone;

/* What a cell holds. */
enum sink_kind {
	SINK_EMPTY,         /* no value: an empty field */
	SINK_TEXT,          /* n bytes at s, valid for the call to row() */
	SINK_INTEGER,       /* a count */
	SINK_FRACTION,      /* num/den exactly, shown rounded half up to
	                       `decimals` digits */
	SINK_REAL,          /* a double, rounded half away from zero to
	                       `decimals` digits: only where the exact
	                       fraction does not fit 64 bits */
	SINK_STAMP          /* a UTC stamp, shown in its zone (tzone.h); with
	                       decimals 3, with its milliseconds */
};

struct sink_cell {
	uint8_t kind;       /* enum sink_kind */
	uint8_t decimals;   /* SINK_FRACTION, SINK_REAL, SINK_STAMP */
	union {
		struct { const char *s; size_t n; } text;
		uint64_t integer;
		struct { uint64_t num, den; } fraction;   /* den > 0 */
		double real;
		struct { int64_t at; const struct tzone *zone; } stamp;
	} v;
};

/* A figure a writer may work out itself from the words x of a frame
 * (rowsink's row_x), instead of a cell: the figure times 10**decimals
 * (decimals below 8) is x[n] * mul / den (SINK_FROM_X) or
 * x[n] * mul / (x[b] * den) (SINK_FROM_RATIO; empty when x[b] is 0),
 * rounded half up to an integer. Empty too when the frame lacks a group
 * of need. */
enum sink_from {
	SINK_FROM_CELL,     /* no formula: the cell */
	SINK_FROM_X,
	SINK_FROM_RATIO
};

struct sink_formula {
	uint64_t mul, den;  /* den > 0 */
	uint16_t n, b;      /* indexes into x */
	uint8_t need;       /* bits of the frame's groups */
	uint8_t from;       /* enum sink_from */
	uint8_t decimals;
};

/* What the title block of the text format says. */
struct report_meta {
	const char *name, *title, *description;
	const char *const *inputs;  /* file names; "-" is standard input */
	size_t ninputs;
	const char *grouping;       /* "by hour", "total", ... */
	bool any_interval;
	int64_t first_start, last_end; /* of the intervals reported */
	const struct tzone *zone;   /* theirs (tzone.h); NULL: as recorded */
	uint64_t intervals, incomplete;
	const char *counted;        /* what intervals counts, when not PMIM
	                               intervals ("value"); NULL: intervals */
	const char *run_time;       /* "YYYY-MM-DD HH:MM:SS" */
	/* the run, for a page that shows it (out/htmlout.c): its summary
	 * line (the byte accounting) and how many of each status it said */
	const char *summary;
	const unsigned long *said;  /* [PM_STATUS_COUNT]; NULL: not known */
};

struct rowsink {
	pm_status (*begin)(struct rowsink *s, const struct sink_column *cols,
	                   size_t ncols, bool form);
	/* marked: the row includes incomplete intervals */
	void (*row)(struct rowsink *s, const struct sink_cell *cells, bool marked);
	/* Write what is still held; PM_E_WRITE when a write failed. */
	pm_status (*end)(struct rowsink *s, const struct report_meta *m);
	void (*close)(struct rowsink *s);
	/* Optional (NULL: rows come as cells only): a row whose cells with a
	 * formula in plan (one entry per cell) are not set, but worked out
	 * here from the frame's words x and groups have. false, with nothing
	 * written, when one of them does not fit 64 bits: row() then gets
	 * the row as cells. */
	bool (*row_x)(struct rowsink *s, const struct sink_cell *cells,
	              const struct sink_formula *plan, const uint64_t *x,
	              unsigned have, bool marked);
};

#endif
