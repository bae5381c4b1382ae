/* outfile.h: report output that is never left half-written under its final
 * name. A regular file (or a new one) is written to a temporary file beside
 * it and renamed over it only when complete; /dev/null, FIFOs, terminals and
 * other non-regular files are written directly and never renamed over.
 *
 * The temporary is unnamed where the file system has O_TMPFILE (and /proc
 * names open files): a run killed even by SIGKILL leaves nothing. It gets a
 * name only at commit, to be renamed over the final file at once. Elsewhere
 * it is a named file, .NAME.tmpXXXXXX, removed on failure and on the
 * signals the program catches (outfile_remove_on_signal). */
#ifndef OUTFILE_H
#define OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "core/status.h"

struct outfile {
	FILE *fp;
	char *path;      /* final name; NULL for standard output */
	char *tmp_path;  /* the temporary's name, when renaming at the end */
	bool unnamed;    /* the temporary has no name yet (O_TMPFILE) */
};

/* Whether writing path (NULL or "-": standard output) would replace input
 * (a path, or "-" for standard input): the same name, or the same regular
 * file under any name (device and inode). */
bool outfile_is_input(const char *path, const char *input);

/* Open path for writing ("-" or NULL: standard output). */
pm_status outfile_open(struct outfile *o, const char *path);

/* Whether the output replaces a file at commit (a regular file), so that
 * not committing leaves the previous one as it was; false for what is
 * written directly, such as standard output. */
bool outfile_replaces(const struct outfile *o);

/* Flush, check for write errors, and move the file into place. On failure
 * the temporary is removed and the old file is left as it was. */
pm_status outfile_commit(struct outfile *o);

/* Give up: remove the temporary, and leave the old file as it was. */
void outfile_abort(struct outfile *o);

/* Remove a named temporary file from a signal handler (async-signal-safe). */
void outfile_remove_on_signal(void);

#endif
