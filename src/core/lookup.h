/* lookup.h: where a text a user may supply is found: in the folders the
 * user gave, then in the installed one ($(pkgdatadir)), then the copy
 * compiled into the program, so that a user adds or replaces one without
 * recompiling and the program works before it is installed. Report
 * definitions (report/rptload.c) and copybook listings (core/copybook.c)
 * are found alike. */
#ifndef LOOKUP_H
#define LOOKUP_H

#include <stddef.h>

#include "core/status.h"

#ifndef PKGDATADIR
#define PKGDATADIR "/usr/local/share/pmimrpt"
#endif

#define LOOKUP_PATH_MAX 4096

struct lookup_found {
	char *text;                 /* NUL-terminated; free() it */
	char file[LOOKUP_PATH_MAX]; /* where it was: a path, or
	                               "(built-in)/NAME" */
};

/* The whole of path, at most max bytes. PM_E_USAGE with "path: why" in
 * err when it cannot be read, PM_E_NOMEM. */
pm_status lookup_read(const char *path, size_t max, struct lookup_found *out,
                      char *err, size_t errlen);

/* name (e.g. "waits.rpt") in dirs[0..ndirs) in order (NULL entries are
 * skipped), else builtin (NULL: none). A file that is there but cannot be
 * read is an error, not a miss. PM_OK with out->text NULL when it is
 * nowhere. */
pm_status lookup_find(const char *name, const char *const *dirs, size_t ndirs,
                      const char *builtin, size_t max, struct lookup_found *out,
                      char *err, size_t errlen);

#endif
