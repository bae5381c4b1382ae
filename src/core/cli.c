/* cli.c: the option tables of the two programs. See cli.h. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "core/cli.h"
#include "core/exitcode.h"
#include "core/text.h"

#define HELP_WIDTH 79          /* --help lines end before this column */
#define LONG_ONLY_BASE 256     /* getopt values of options without a letter */

long
cli_name_index(cli_names *names, const char *name)
{
	for (size_t i = 0; names(i); i++)
		if (strcmp(names(i), name) == 0)
			return (long)i;
	return -1;
}

const char *
cli_name_list(cli_names *names, bool mark_default, char *buf, size_t cap)
{
	size_t n = 0, used = 0;

	while (names(n))
		n++;
	buf[0] = '\0';
	for (size_t i = 0; i < n && used < cap; i++)
		used += (size_t)snprintf(buf + used, cap - used, "%s%s%s",
		                         i == 0 ? "" : i + 1 < n ? ", " : " or ",
		                         names(i), i == 0 && mark_default ? " (default)" : "");
	return buf;
}

int
cli_set_string(void *target, struct diag *d, const char *arg)
{
	(void)d;
	*(const char **)target = arg;
	return EXIT_CLEAN;
}

int
cli_set_true(void *target, struct diag *d, const char *arg)
{
	(void)d, (void)arg;
	*(bool *)target = true;
	return EXIT_CLEAN;
}

/* The table's entry for what getopt_long returned, or NULL. */
static const struct cli_option *
option_of(const struct cli_program *p, int c)
{
	if (c >= LONG_ONLY_BASE)
		return &p->options[c - LONG_ONLY_BASE];
	for (size_t i = 0; i < p->noptions; i++)
		if (p->options[i].short_name && p->options[i].short_name == c)
			return &p->options[i];
	return NULL;
}

/* getopt's view of the table: long options, and the letters with their
 * colons. Entries for --help only are left out. */
static bool
getopt_tables(const struct cli_program *p, struct option **longs, char **shorts)
{
	size_t nl = 0, ns = 0;

	*longs = calloc(p->noptions + 1, sizeof **longs);
	*shorts = calloc(3 * p->noptions + 1, 1);
	if (!*longs || !*shorts)
		return false;
	for (size_t i = 0; i < p->noptions; i++) {
		const struct cli_option *o = &p->options[i];

		if (!o->name || !o->set)
			continue;
		(*longs)[nl++] = (struct option){ o->name, o->has_arg, NULL,
		                                  o->short_name ? o->short_name :
		                                  LONG_ONLY_BASE + (int)i };
		if (o->short_name) {
			(*shorts)[ns++] = o->short_name;
			if (o->has_arg != no_argument)
				(*shorts)[ns++] = ':';
			if (o->has_arg == optional_argument)
				(*shorts)[ns++] = ':';
		}
	}
	return true;
}

int
cli_parse(const struct cli_program *p, int argc, char **argv, void *ctx,
          struct diag *d)
{
	struct option *longs;
	char *shorts;
	int c, rc = EXIT_CLEAN;

	if (!getopt_tables(p, &longs, &shorts)) {
		diag_say(d, SC_INPUT, "out of memory");
		rc = EXIT_INPUT;
	}
	while (rc == EXIT_CLEAN && (c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		const struct cli_option *o = option_of(p, c);

		/* getopt has said what was wrong */
		rc = o ? o->set((char *)ctx + o->target, d, optarg) : diag_usage(d, NULL);
	}
	free(longs);
	free(shorts);
	return rc;
}

/* One line of a description, at column unless it is the first, wrapped at
 * spaces where it is too long. */
static void
help_line(FILE *fp, const char *s, size_t n, unsigned column, bool first)
{
	size_t room = HELP_WIDTH - column;

	for (;;) {
		size_t len = n;

		if (n > room) {
			for (len = room; len > 0 && s[len] != ' '; len--)
				;
			if (len == 0) /* one word longer than the room: whole */
				for (len = room; len < n && s[len] != ' '; len++)
					;
		}
		fprintf(fp, "%*s%.*s\n", first ? 0 : (int)column, "", (int)len, s);
		first = false;
		if (len >= n)
			return;
		s += len + 1;
		n -= len + 1;
	}
}

/* An option's entry: its names and argument, then its description. */
static void
help_option(FILE *fp, const struct cli_option *o, unsigned column)
{
	char text[1024], names[512];
	const char *brace = strstr(o->help, "{}"), *line;
	int left;

	if (brace && o->names)
		snprintf(text, sizeof text, "%.*s%s%s", (int)(brace - o->help), o->help,
		         cli_name_list(o->names, true, names, sizeof names), brace + 2);
	else
		text_copy(text, sizeof text, o->help);
	if (o->short_name)
		left = fprintf(fp, "  -%c, --%s%s", o->short_name, o->name, o->arg ? o->arg : "");
	else
		left = fprintf(fp, "      --%s%s", o->name, o->arg ? o->arg : "");
	fprintf(fp, "%*s", left < (int)column ? (int)column - left : 2, "");
	for (line = text; ; line++) {
		const char *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line) : strlen(line);

		help_line(fp, line, n, column, line == text);
		if (!end)
			break;
		line = end;
	}
}

void
cli_help(const struct cli_program *p, FILE *fp)
{
	fputs(p->usage, fp);
	for (size_t i = 0; i < p->noptions; i++) {
		const struct cli_option *o = &p->options[i];

		if (o->name)
			help_option(fp, o, p->help_column);
		else
			fprintf(fp, "\n%s%s", o->help, *o->help ? "\n" : "");
	}
}
