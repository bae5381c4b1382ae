/* module.h: a module of pmimrpt found and loaded (dlopen): the code of an
 * output whose libraries would cost every run their start-up time if
 * the program linked them (the charts' Cairo and Pango, SQLite), loaded
 * only by a run that writes it. A module is a file with one entry point,
 * which gives a const table of functions that starts with a struct
 * module_head; it is looked for next to the running program (the build
 * tree, where the tests run it), then in $(pkglibdir), where make
 * install puts it. Program and module come from one build, so the head
 * says the interface number and the version it was built for, and both
 * must be the program's. */
#ifndef MODULE_H
#define MODULE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/diag.h"

struct module_head {
	unsigned abi;             /* the interface's number; first, as version: */
	const char *version;      /* PACKAGE_VERSION, read only when abi matches */
};

/* The table of module file (a bare name) from its entry point, checked
 * to be of interface abi; never unloaded (a module's libraries may
 * hold threads to the end of the process). NULL when it
 * cannot be loaded, said through d as a usage error (the exit code of a
 * pmimrpt built without it): "<needed_by> FILE, which could not be
 * loaded: " and each file tried with why. From one thread, before any
 * thread reads. */
const struct module_head *module_load(struct diag *d, const char *needed_by,
                                      const char *file, const char *entry, unsigned abi);

/* A library of the system loaded by its soname (RTLD_NOW, RTLD_LOCAL),
 * and the n functions of names into fns: for a decoder whose library
 * only a compressed input needs (io/decompress.c). Never unloaded. false
 * with dlerror's words in why. */
bool module_library(const char *soname, const char *const *names, void **fns, size_t n,
                    char *why, size_t cap);

/* A system library that a run may never call (a decoder's, libcsv), loaded
 * by the first call that needs it, from any thread: the n functions of
 * names into fns from soname, once, the answer kept. */
struct module_lazy {
	pthread_once_t once;
	const char *soname;
	const char *const *names;
	void **fns;
	size_t n;
	bool ok;
	char why[256];
};

/* Whether l's library is loaded: resolve (a function of no arguments,
 * for pthread_once) is run once for it, calls module_lazy_resolve, and
 * takes the functions from l->fns. Else why not, into why. */
bool module_lazy_load(struct module_lazy *l, void (*resolve)(void), char *why, size_t cap);

/* For resolve: l's library and functions (module_library); whether they
 * were had. */
bool module_lazy_resolve(struct module_lazy *l);

#endif
