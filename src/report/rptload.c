/* rptload.c: finding and reading a report definition. See rptload.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/lookup.h"
#include "report/report_text.h"
#include "report/rptload.h"

#define DEFINITION_MAX (1u << 20)

static const struct {
	const char *name;
	const char *text;
} builtins[] = {
	{ "intervals", intervals_rpt },
	{ "waits", waits_rpt },
	{ "cpu", cpu_rpt },
	{ "tasks", tasks_rpt },
	{ "summary", summary_rpt },
	{ "perf", perf_rpt },
	{ "win-cpu", win_cpu_rpt },
	{ "win-disk", win_disk_rpt },
};

const char *
rptload_builtin_name(size_t i)
{
	return i < sizeof builtins / sizeof builtins[0] ? builtins[i].name : NULL;
}

/* The report's name from a path: its base name less ".rpt". */
static void
name_of(const char *path, char *name, size_t cap)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 4 && strcmp(base + n - 4, ".rpt") == 0)
		n -= 4;
	snprintf(name, cap, "%.*s", (int)n, base);
}

/* The definition found, parsed, named after its file. */
static pm_status
parse_found(struct rpt_def *def, struct lookup_found *found,
            const struct schema *schema, char *err, size_t errlen)
{
	char name[RPT_NAME_MAX];
	pm_status st;

	name_of(found->file, name, sizeof name);
	st = rptdef_parse(def, name, found->text, found->file, schema, err, errlen);
	free(found->text);
	return st;
}

static pm_status
read_path(struct rpt_def *def, const char *path, const struct schema *schema,
          char *err, size_t errlen)
{
	struct lookup_found found;
	pm_status st;

	if ((st = lookup_read(path, DEFINITION_MAX, &found, err, errlen)) != PM_OK)
		return st;
	return parse_found(def, &found, schema, err, errlen);
}

static int
plain_name(const char *s)
{
	return *s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	                       "0123456789_-") == strlen(s);
}

pm_status
rptload_find(struct rpt_def *def, const char *what, const char *report_dir,
             const struct schema *schema, char *err, size_t errlen)
{
	const char *dirs[] = { report_dir, PKGDATADIR "/reports" };
	const char *builtin = NULL;
	char file[RPT_NAME_MAX + 8];
	struct lookup_found found;
	pm_status st;

	if (strchr(what, '/'))
		return read_path(def, what, schema, err, errlen);
	if (strlen(what) > 4 && strcmp(what + strlen(what) - 4, ".rpt") == 0) {
		/* a file name: here, else in --report-dir */
		if (!report_dir || access(what, F_OK) == 0 || errno != ENOENT)
			return read_path(def, what, schema, err, errlen);
		if ((st = lookup_find(what, &report_dir, 1, NULL, DEFINITION_MAX, &found,
		                      err, errlen)) != PM_OK)
			return st;
		if (found.text)
			return parse_found(def, &found, schema, err, errlen);
		snprintf(err, errlen, "%s: no such file here nor in %s", what, report_dir);
		return PM_E_USAGE;
	}
	if (!plain_name(what) || strlen(what) >= RPT_NAME_MAX) {
		snprintf(err, errlen, "unknown report '%s'", what);
		return PM_E_USAGE;
	}
	for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
		if (strcmp(what, builtins[i].name) == 0)
			builtin = builtins[i].text;
	snprintf(file, sizeof file, "%s.rpt", what);
	if ((st = lookup_find(file, dirs, sizeof dirs / sizeof dirs[0], builtin,
	                      DEFINITION_MAX, &found, err, errlen)) != PM_OK)
		return st;
	if (found.text)
		return parse_found(def, &found, schema, err, errlen);
	snprintf(err, errlen, "unknown report '%s' (no %s.rpt in %s%s%s, nor built in)",
	         what, what, report_dir ? report_dir : "", report_dir ? " or " : "",
	         PKGDATADIR "/reports");
	return PM_E_USAGE;
}
