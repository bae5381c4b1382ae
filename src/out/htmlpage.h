/* htmlpage.h: one self-contained HTML page (no network, no script, no
 * font but the reader's own): its head and style, the run's summary (the
 * inputs, the byte accounting, the warnings by kind), then a section per
 * report (out/htmlout.c), then its end. Well-formed XML too (polyglot
 * XHTML), so that xmllint checks it as it checks the SVG charts inside. */
#ifndef HTMLPAGE_H
#define HTMLPAGE_H

#include <stddef.h>
#include <stdio.h>

#include "report/rowsink.h"

/* n bytes of text at s, with & < > " escaped. */
void html_text(FILE *fp, const char *s, size_t n);

void html_page_begin(FILE *fp, const char *title);

/* The run's inputs, summary line and warnings, from m. */
void html_run_summary(FILE *fp, const struct report_meta *m);

void html_page_end(FILE *fp);

#endif
