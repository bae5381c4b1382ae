/* textout.h: the fixed-width writer of reports, for people and printers.
 *
 * Each page opens with the title block (report name and title, page
 * number, description, input files, period covered, run time) and, for
 * tables, the column headings; text is left-aligned and numbers
 * right-aligned, each column as wide as its heading and its widest value.
 * Pages hold page_length lines; plain pages after the first start with a
 * form feed. With asa, every line is 133 bytes: an ASA carriage-control
 * character ('1' opening each page, ' ' otherwise) and 132 print
 * positions; a table wider than that is cut into panels of columns, each
 * repeating the leading text columns. A form (begin's form: the
 * definition's "layout form") writes each row as "heading value" pairs
 * down as many columns as the line holds (80 positions, 132 with asa),
 * then each block of its columns (rowsink.h: rank, row_label) as a table
 * of a line per rank or bucket. With an encoding, every byte goes
 * through iconv to that code page (IBM-1047 for a mainframe print data
 * set), line ends included.
 *
 * The rows are held until the end, because the column widths and the
 * period covered are only known then. */
#ifndef TEXTOUT_H
#define TEXTOUT_H

#include <stdbool.h>
#include <stdio.h>

#include "report/rowsink.h"
#include "core/status.h"

#define TEXTOUT_ASA_WIDTH 132
#define TEXTOUT_MIN_PAGE 12

struct textout_opts {
	unsigned page_length;  /* lines a page, title block included */
	bool asa;
	const char *encoding;  /* NULL: none (the C locale's ASCII) */
};

/* A rowsink writing to fp. PM_E_CODEPAGE when iconv lacks the encoding,
 * PM_E_NOMEM. */
pm_status textout_open(struct rowsink **out, FILE *fp,
                       const struct textout_opts *o);

#endif
