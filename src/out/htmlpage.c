/* htmlpage.c: the page around the reports. See htmlpage.h. */
#include <string.h>

#include "core/status.h"
#include "out/htmlpage.h"

void
html_text(FILE *fp, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		switch (s[i]) {
		case '&': fputs("&amp;", fp); break;
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		case '"': fputs("&quot;", fp); break;
		default: putc(s[i], fp); break;
		}
}

static void
html_string(FILE *fp, const char *s)
{
	html_text(fp, s, strlen(s));
}

void
html_page_begin(FILE *fp, const char *title)
{
	fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n"
	      "<head>\n<meta charset=\"utf-8\"/>\n<title>", fp);
	html_string(fp, title);
	fputs("</title>\n<style>\n"
	      "body { font-family: \"DejaVu Sans\", sans-serif; font-size: 10pt; margin: 1.5em; }\n"
	      "h1 { font-size: 14pt; } h2 { font-size: 12pt; margin-top: 1.5em; }\n"
	      "table { border-collapse: collapse; margin: 0.5em 0; }\n"
	      "th, td { border: 1px solid #bbb; padding: 0.15em 0.4em; }\n"
	      "th { background: #eee; } td.n { text-align: right; }\n"
	      "tr.marked td { background: #f4f4f4; font-style: italic; }\n"
	      "figure { margin: 1em 0; } svg { max-width: 100%; height: auto; }\n"
	      "</style>\n</head>\n<body>\n<h1>", fp);
	html_string(fp, title);
	fputs("</h1>\n", fp);
}

void
html_run_summary(FILE *fp, const struct report_meta *m)
{
	bool warned = false;

	fputs("<section class=\"run\">\n<h2>The run</h2>\n<p>Inputs:", fp);
	for (size_t i = 0; i < m->ninputs; i++) {
		fputs(i ? ", <code>" : " <code>", fp);
		html_string(fp, m->inputs[i]);
		fputs("</code>", fp);
	}
	fputs("</p>\n", fp);
	if (m->run_time) {
		fputs("<p>Run: ", fp);
		html_string(fp, m->run_time);
		fputs("</p>\n", fp);
	}
	if (m->summary) {
		fputs("<p>", fp);
		html_string(fp, m->summary);
		fputs("</p>\n", fp);
	}
	for (int st = 0; m->said && st < PM_STATUS_COUNT; st++)
		if (m->said[st] && pm_status_class((pm_status)st) == SC_WARN) {
			fputs(warned ? "" : "<p>Warnings:</p>\n<ul>\n", fp);
			fprintf(fp, "<li>%lu &#215; ", m->said[st]);
			html_string(fp, pm_strerror((pm_status)st));
			fputs("</li>\n", fp);
			warned = true;
		}
	fputs(warned ? "</ul>\n</section>\n" : "<p>No warnings.</p>\n</section>\n", fp);
}

void
html_page_end(FILE *fp)
{
	fputs("</body>\n</html>\n", fp);
}
