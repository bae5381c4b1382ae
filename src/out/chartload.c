/* chartload.c: the chart module found and loaded. See chartload.h. */
#include "config.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "out/chartload.h"

/* Loaded once and never unloaded: GLib's types and Pango's font thread
 * stay to the end of the process. */
static const struct chart_module *loaded;

/* The module in file path, or NULL with why into why. */
static const struct chart_module *
load(const char *path, char *why, size_t cap)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	void *sym;
	const struct chart_module *m;

	if (!h) {
		snprintf(why, cap, "%s", dlerror());
		return NULL;
	}
	if (!(sym = dlsym(h, CHART_MODULE_ENTRY))) {
		snprintf(why, cap, "%s", dlerror());
	} else if ((m = ((const struct chart_module *(*)(void))sym)())->abi != CHART_MODULE_ABI) {
		snprintf(why, cap, "%s: interface %u, not %u", path, m->abi, CHART_MODULE_ABI);
	} else if (strcmp(m->version, PACKAGE_VERSION) != 0) {
		snprintf(why, cap, "%s: of pmimrpt %s, not %s", path, m->version, PACKAGE_VERSION);
	} else {
		return m;
	}
	dlclose(h);
	return NULL;
}

/* The folder of the running program, or "" when /proc does not say. */
static void
program_dir(char out[PATH_MAX])
{
	ssize_t n = readlink("/proc/self/exe", out, PATH_MAX - 1);
	char *slash;

	out[n > 0 ? n : 0] = '\0';
	if ((slash = strrchr(out, '/')))
		*slash = '\0';
	else
		out[0] = '\0';
}

const struct chart_module *
chart_module_load(struct diag *d)
{
	char dir[PATH_MAX], path[PATH_MAX + sizeof CHART_MODULE_FILE + 1];
	char why[2][PATH_MAX + 256];
	size_t tried = 0;

	if (loaded)
		return loaded;
	program_dir(dir);
	if (dir[0] && strcmp(dir, PKGLIBDIR) != 0) {
		snprintf(path, sizeof path, "%s/%s", dir, CHART_MODULE_FILE);
		if ((loaded = load(path, why[tried], sizeof why[0])))
			return loaded;
		tried++;
	}
	if ((loaded = load(PKGLIBDIR "/" CHART_MODULE_FILE, why[tried], sizeof why[0])))
		return loaded;
	tried++;
	diag_say(d, SC_USAGE, "the charts are drawn by " CHART_MODULE_FILE ", which could "
	         "not be loaded: %s%s%s", why[0], tried > 1 ? "; " : "", tried > 1 ? why[1] : "");
	return NULL;
}
