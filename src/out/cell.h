/* cell.h: a typed cell (report/rowsink.h) as the bytes every writer shows:
 * numbers through core/fmtnum.h ('.' as the point, no locale), stamps
 * through core/tzone.h, text as it is, an empty cell as no bytes. */
#ifndef CELL_H
#define CELL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/fmtnum.h"
#include "core/tzone.h"
#include "report/rowsink.h"

/* Room cell_format needs: a number or a stamp. */
#define CELL_FORMAT_MAX (FMTNUM_MAX > TZONE_TEXT_MS ? FMTNUM_MAX : TZONE_TEXT_MS)

/* A cell that is not text, written into out (CELL_FORMAT_MAX bytes, which
 * may all be overwritten); returns its length. */
size_t cell_format(const struct sink_cell *c, char *out);

/* The last two stamps a writer formatted, copied when the next one is
 * either: a row's start is most often the end of the row before, and the
 * rows of a period share its start and end. Zeroed, it holds none. */
struct cell_stamp_memo {
	struct {
		int64_t at;
		const struct tzone *zone;
		uint8_t decimals;
		uint8_t n;          /* 0: none held */
		char text[TZONE_TEXT_MS];
	} held[2];
	unsigned next;              /* the one a new stamp replaces */
};

/* cell_format of a stamp cell through the memo m. */
size_t cell_stamp(const struct sink_cell *c, char *out, struct cell_stamp_memo *m);

/* The n cells c[0..n) that are not text at p, each after sep but the
 * first (it too when lead), as cell_format writes them; p needs n *
 * (CELL_FORMAT_MAX + 1) bytes. Returns the end of what was written. */
char *cell_join(char *p, const struct sink_cell *c, size_t n, char sep, bool lead);

/* cell_join of c[0..n), but each cell with a formula in f[0..n)
 * (rowsink.h) worked out from the frame's words x and groups have
 * instead; NULL when one of them does not fit 64 bits (what was written
 * is then of no use). */
char *cell_join_x(char *p, const struct sink_cell *c, const struct sink_formula *f,
                  size_t n, const uint64_t *x, unsigned have, char sep, bool lead);

/* The bytes of any cell: a text cell's own, or the others formatted into
 * buf (CELL_FORMAT_MAX bytes); *n gets their length. */
const char *cell_bytes(const struct sink_cell *c, char *buf, size_t *n);

/* A cell that is a figure as a double, for a chart's scale (rounded only
 * where it is drawn); NAN for text, stamps and empty cells. */
double cell_real(const struct sink_cell *c);

#endif
