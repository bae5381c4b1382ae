/* rptload.c: finding and reading a report definition. See rptload.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_text.h"
#include "report/rptload.h"

#ifndef PKGDATADIR
#define PKGDATADIR "/usr/local/share/pmimrpt"
#endif

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
};

const char *
rptload_builtin_name(size_t i)
{
	return i < sizeof builtins / sizeof builtins[0] ? builtins[i].name : NULL;
}

/* The whole of path, NUL-terminated; NULL with errno set (EFBIG when it is
 * too large to be a definition). */
static char *
read_file(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *text;
	size_t n;

	if (!fp)
		return NULL;
	text = malloc(DEFINITION_MAX + 1);
	if (!text) {
		fclose(fp);
		errno = ENOMEM;
		return NULL;
	}
	n = fread(text, 1, DEFINITION_MAX + 1, fp);
	if (ferror(fp) || n > DEFINITION_MAX) {
		int e = ferror(fp) ? errno : EFBIG;
		fclose(fp);
		free(text);
		errno = e;
		return NULL;
	}
	fclose(fp);
	text[n] = '\0';
	return text;
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

static pm_status
parse_file(struct rpt_def *def, const char *path, const struct schema *schema,
           char *err, size_t errlen)
{
	char name[RPT_NAME_MAX];
	char *text = read_file(path);
	pm_status st;

	if (!text) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return PM_E_USAGE;
	}
	name_of(path, name, sizeof name);
	st = rptdef_parse(def, name, text, path, schema, err, errlen);
	free(text);
	return st;
}

static int
plain_name(const char *s)
{
	return *s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	                       "0123456789_-") == strlen(s);
}

pm_status
rptload(struct rpt_def *def, const char *what, const char *report_dir,
        const struct schema *schema, char *err, size_t errlen)
{
	const char *dirs[] = { report_dir, PKGDATADIR "/reports" };
	char path[4096], file[RPT_NAME_MAX + 32];

	if (strchr(what, '/') || (strlen(what) > 4 && strcmp(what + strlen(what) - 4, ".rpt") == 0))
		return parse_file(def, what, schema, err, errlen);
	if (!plain_name(what) || strlen(what) >= RPT_NAME_MAX) {
		snprintf(err, errlen, "unknown report '%s'", what);
		return PM_E_USAGE;
	}
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
		FILE *fp;
		if (!dirs[i])
			continue;
		snprintf(path, sizeof path, "%s/%s.rpt", dirs[i], what);
		/* a file that is there but unreadable is an error, not a miss */
		if ((fp = fopen(path, "r")) || errno != ENOENT) {
			if (fp)
				fclose(fp);
			return parse_file(def, path, schema, err, errlen);
		}
	}
	for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
		if (strcmp(what, builtins[i].name) == 0) {
			snprintf(file, sizeof file, "(built-in)/%s.rpt", what);
			return rptdef_parse(def, what, builtins[i].text, file, schema, err, errlen);
		}
	snprintf(err, errlen, "unknown report '%s' (no %s.rpt in %s%s%s, nor built in)",
	         what, what, report_dir ? report_dir : "", report_dir ? " or " : "",
	         PKGDATADIR "/reports");
	return PM_E_USAGE;
}
