/* lookup.c: where a text a user may supply is found. See lookup.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/lookup.h"
#include "core/text.h"

pm_status
lookup_read(const char *path, size_t max, struct lookup_found *out, char *err,
            size_t errlen)
{
	FILE *fp = fopen(path, "r");
	size_t n;
	int e;

	out->text = NULL;
	text_copy(out->file, sizeof out->file, path);
	if (!fp)
		goto failed;
	if (!(out->text = malloc(max + 1))) {
		fclose(fp);
		return PM_E_NOMEM;
	}
	n = fread(out->text, 1, max + 1, fp);
	if (ferror(fp) || n > max) {
		e = ferror(fp) ? errno : EFBIG;
		fclose(fp);
		free(out->text);
		out->text = NULL;
		errno = e;
		goto failed;
	}
	fclose(fp);
	out->text[n] = '\0';
	return PM_OK;
failed:
	snprintf(err, errlen, "%s: %s", path, strerror(errno));
	return PM_E_USAGE;
}

pm_status
lookup_find(const char *name, const char *const *dirs, size_t ndirs,
            const char *builtin, size_t max, struct lookup_found *out,
            char *err, size_t errlen)
{
	char path[LOOKUP_PATH_MAX];

	out->text = NULL;
	for (size_t i = 0; i < ndirs; i++) {
		FILE *fp;
		if (!dirs[i])
			continue;
		snprintf(path, sizeof path, "%s/%s", dirs[i], name);
		if ((fp = fopen(path, "r")) || errno != ENOENT) {
			if (fp)
				fclose(fp);
			return lookup_read(path, max, out, err, errlen);
		}
	}
	if (!builtin)
		return PM_OK;
	snprintf(out->file, sizeof out->file, "(built-in)/%s", name);
	if (!(out->text = strdup(builtin)))
		return PM_E_NOMEM;
	return PM_OK;
}
