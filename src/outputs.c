/* outputs.c: the reports one run writes and where each goes. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/exitcode.h"
#include "outputs.h"
#include "report/report.h"
#include "report/rptdef.h"
#include "report/series_report.h"

int
outputs_parse(struct outputs *outs, const char *list, struct diag *d)
{
	size_t n = 1;

	for (const char *c = list; *c; c++)
		n += *c == ',';
	if (n > OUTPUTS_MAX)
		return diag_usage(d, "--report names %zu reports: at most %d a run", n, OUTPUTS_MAX);
	if (!(outs->names = strdup(list)) || !(outs->o = calloc(n, sizeof *outs->o))) {
		diag_say(d, SC_INPUT, "out of memory");
		return EXIT_INPUT;
	}
	for (char *name = outs->names, *next; name; name = next) {
		if ((next = strchr(name, ',')))
			*next++ = '\0';
		if (!*name)
			return diag_usage(d, "--report=%s: an empty report name", list);
		for (size_t i = 0; i < outs->n; i++)
			if (strcmp(outs->o[i].name, name) == 0)
				return diag_usage(d, "--report=%s: report '%s' is named twice", list, name);
		outs->o[outs->n++].name = name;
	}
	return EXIT_CLEAN;
}

const char *
output_name(const struct output *o)
{
	return o->def ? o->def->name : "inventory";
}

/* Whether target names a directory: it ends in '/', or is one. */
static bool
is_directory(const char *target)
{
	struct stat st;
	size_t n = strlen(target);

	return (n && target[n - 1] == '/') || (stat(target, &st) == 0 && S_ISDIR(st.st_mode));
}

int
outputs_place(struct outputs *outs, const char *target, const char *ext, struct diag *d)
{
	bool dir = target && strcmp(target, "-") != 0 && is_directory(target);
	size_t tn = target ? strlen(target) : 0;

	if (!dir) {
		if (outs->n > 1)
			return diag_usage(d, "%zu reports need -o DIR/, a directory for their "
			                  "files", outs->n);
		if (target && strcmp(target, "-") != 0 && !(outs->o[0].path = strdup(target)))
			goto nomem;
		return EXIT_CLEAN;
	}
	outs->dir = target;
	for (size_t i = 0; i < outs->n; i++) {
		const char *name = output_name(&outs->o[i]);
		size_t cap = tn + strlen(name) + strlen(ext) + 3;
		if (!(outs->o[i].path = malloc(cap)))
			goto nomem;
		snprintf(outs->o[i].path, cap, "%s%s%s.%s", target,
		         target[tn - 1] == '/' ? "" : "/", name, ext);
		for (size_t j = 0; j < i; j++)
			if (strcmp(output_name(&outs->o[j]), name) == 0)
				return diag_usage(d, "reports '%s' and '%s' would both be written to %s",
				                  outs->o[j].name, outs->o[i].name, outs->o[i].path);
	}
	return EXIT_CLEAN;
nomem:
	diag_say(d, SC_INPUT, "out of memory");
	return EXIT_INPUT;
}

int
outputs_make_dir(const struct outputs *outs, struct diag *d)
{
	if (outs->dir && mkdir(outs->dir, 0777) != 0 && errno != EEXIST) {
		diag_say(d, SC_OUTPUT, "%s: %s", outs->dir, strerror(errno));
		return EXIT_OUTPUT;
	}
	return EXIT_CLEAN;
}

void
outputs_frame(const struct frame *f, void *ctx)
{
	const struct outputs *outs = ctx;

	for (size_t i = 0; i < outs->n; i++)
		if (outs->o[i].rep)
			report_frame(f, outs->o[i].rep);
}

void
outputs_series(const struct series_frame *f, void *ctx)
{
	const struct outputs *outs = ctx;

	for (size_t i = 0; i < outs->n; i++)
		if (outs->o[i].srep)
			series_report_frame(f, outs->o[i].srep);
}

void
outputs_free(struct outputs *outs)
{
	for (size_t i = 0; i < outs->n; i++) {
		free(outs->o[i].path);
		free(outs->o[i].buf);
	}
	free(outs->o);
	free(outs->names);
	*outs = (struct outputs){ 0 };
}
