/* module.c: a module found and loaded. See module.h. */
#include "config.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/module.h"
#include "core/text.h"

/* The module in file path, or NULL with why into why. */
static const struct module_head *
load(const char *path, const char *entry, unsigned abi, char *why, size_t cap)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	void *sym;
	const struct module_head *m;

	if (!h) {
		text_copy(why, cap, dlerror());
		return NULL;
	}
	if (!(sym = dlsym(h, entry))) {
		text_copy(why, cap, dlerror());
	} else if ((m = ((const struct module_head *(*)(void))sym)())->abi != abi) {
		snprintf(why, cap, "%s: interface %u, not %u", path, m->abi, abi);
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

const struct module_head *
module_load(struct diag *d, const char *needed_by, const char *file, const char *entry,
            unsigned abi)
{
	char dir[PATH_MAX], path[2 * PATH_MAX];
	char why[2][PATH_MAX + 256];
	const struct module_head *m;
	size_t tried = 0;

	program_dir(dir);
	if (dir[0] && strcmp(dir, PKGLIBDIR) != 0) {
		snprintf(path, sizeof path, "%s/%s", dir, file);
		if ((m = load(path, entry, abi, why[tried], sizeof why[0])))
			return m;
		tried++;
	}
	snprintf(path, sizeof path, "%s/%s", PKGLIBDIR, file);
	if ((m = load(path, entry, abi, why[tried], sizeof why[0])))
		return m;
	tried++;
	diag_say(d, SC_USAGE, "%s %s, which could not be loaded: %s%s%s", needed_by, file,
	         why[0], tried > 1 ? "; " : "", tried > 1 ? why[1] : "");
	return NULL;
}

bool
module_library(const char *soname, const char *const *names, void **fns, size_t n,
               char *why, size_t cap)
{
	void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		text_copy(why, cap, dlerror());
		return false;
	}
	for (size_t i = 0; i < n; i++)
		if (!(fns[i] = dlsym(h, names[i]))) {
			text_copy(why, cap, dlerror());
			dlclose(h);
			return false;
		}
	return true;
}

bool
module_lazy_load(struct module_lazy *l, void (*resolve)(void), char *why, size_t cap)
{
	if (pthread_once(&l->once, resolve) == 0 && l->ok)
		return true;
	text_copy(why, cap, l->why);
	return false;
}

bool
module_lazy_resolve(struct module_lazy *l)
{
	return l->ok = module_library(l->soname, l->names, l->fns, l->n, l->why, sizeof l->why);
}
