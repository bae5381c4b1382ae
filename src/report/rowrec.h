/* rowrec.h: the rows of a stream report kept, for partials (--partial,
 * --merge): a report that writes a row per interval (report.h) keeps no
 * aggregate that a merge could add, so its partial holds the rows
 * themselves, as typed cells (rowsink.h), and the merge sorts them.
 *
 * Each row has an order key: the name of the input its interval came from
 * and its sequence number in the run that made it. A merge writes the
 * rows sorted by input name, then sequence number (then, for rows of
 * inputs of the same name from two runs, by their bytes, so that the order
 * of the partials given does not matter). One run writes the rows of an
 * input together, in the order of their first parts, and the inputs in
 * the order given; so a merge writes what one run over the inputs in name
 * order writes.
 *
 * Rows are held in one buffer that only grows, encoded as in the partial
 * (big-endian, core/partial.h), each found by its offset:
 *
 *   name     u32, an index into the table of input names
 *   sequence u64
 *   marked   u8, 1 when the row includes incomplete intervals
 *   cells    each a byte of its kind (enum sink_kind, low 4 bits) and its
 *            decimals (0 to 9, high 4 bits; 0 for TEXT and EMPTY), then
 *            by kind: TEXT a varint length and its bytes, INTEGER a
 *            varint, FRACTION varint numerator and varint denominator (not
 *            0), REAL the u64 of its IEEE-754 binary64 bits, STAMP the
 *            zigzag varint of the stamp; EMPTY nothing. A stamp's zone is
 *            the run's (--timezone). A varint is 7 bits a byte, least
 *            significant first, the high bit set in each byte but the
 *            last, at most 10 bytes; zigzag maps 0, -1, 1, -2 ... to 0, 1,
 *            2, 3 ...
 *
 * The section (tag ROWS) is: u32 cells a row, u32 names and the names as
 * texts, u64 rows and the rows. */
#ifndef ROWREC_H
#define ROWREC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/bytes.h"
#include "core/partial.h"
#include "core/status.h"
#include "report/rowsink.h"

#define ROWREC_TAG "ROWS"

struct rowrec {
	uint8_t *buf;          /* the rows */
	size_t len, cap;
	size_t *at;            /* each row's offset in buf */
	size_t nrows, rows_cap;
	char **names;          /* the inputs rows came from */
	size_t nnames, names_cap;
	const char *last;      /* the name last added, and its index */
	uint32_t last_index;
	uint64_t seq;          /* the next row's sequence number */
};

void rowrec_init(struct rowrec *r);
void rowrec_free(struct rowrec *r);

/* A row of n cells, from input (NULL: standard input), after the rows
 * kept; false when out of memory (the row is not kept). */
bool rowrec_add(struct rowrec *r, const char *input, const struct sink_cell *cells,
                size_t n, bool marked);

/* The ROWS section, of rows of ncells cells. */
void rowrec_export(const struct rowrec *r, size_t ncells, struct pwriter *w);

/* A ROWS section's rows added: PM_E_PARTIAL_MISMATCH when its rows have
 * other than ncells cells, PM_E_PARTIAL when it is not whole or a cell is
 * not one a report writes, with what in err; PM_E_NOMEM. */
pm_status rowrec_import(struct rowrec *r, struct span s, size_t ncells, char *err,
                        size_t cap);

/* The rows sorted by their keys and written to sink, their stamps shown in
 * zone; cells has room for ncells. PM_E_NOMEM when the sort's table could
 * not be had (nothing is written). */
pm_status rowrec_replay(struct rowrec *r, struct sink_cell *cells, size_t ncells,
                        const struct tzone *zone, struct rowsink *sink);

#endif
