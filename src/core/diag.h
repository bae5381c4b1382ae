/* diag.h: where statuses become messages. Every stage reports damage here
 * with the byte offset it found it at; diag prints one line naming the file
 * and offset, counts the status, and remembers the worst class for the exit
 * code. Messages of one status are capped so a ruined file cannot flood the
 * log; the counts stay exact. */
#ifndef DIAG_H
#define DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/status.h"

#define DIAG_NO_OFFSET (-1)

struct diag {
	const char *progname;
	const char *file;        /* the input being read, for messages; while
	                            an interval is handed on, the input its
	                            first part was in */
	FILE *out;               /* NULL: count only, print nothing */
	unsigned max_per_status; /* messages printed per status; 0 = no cap */
	unsigned long count[PM_STATUS_COUNT];
	enum status_class worst;
	/* Called before a message is printed, e.g. to erase a progress line
	 * that would otherwise run into it. NULL: nothing to do. */
	void (*before_message)(void *ctx);
	void *before_ctx;
	/* Each message begins with DIAG_TAG, its status's number (none:
	 * PM_STATUS_COUNT) and a space, for diag_replay. */
	bool tagged;
};

#define DIAG_TAG '\x1f'

void diag_init(struct diag *d, const char *progname, FILE *out);
/* Count n of status st said elsewhere (a partial's), as diag_at would
 * have, without a message. */
void diag_count(struct diag *d, pm_status st, unsigned long n);

/* Report st at byte offset of the current file (DIAG_NO_OFFSET when the
 * condition has no position). fmt, when not NULL, adds detail. */
void diag_at(struct diag *d, pm_status st, int64_t offset, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

/* A message in the program's own words, "PROG: message", for what has
 * no pm_status (a file that cannot be written, a layout that does not
 * load); cls counts towards the exit code. */
void diag_say(struct diag *d, enum status_class cls, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

/* A message that names its own place ("FILE:LINE: message", as compilers
 * say it), printed as it is. */
void diag_line(struct diag *d, enum status_class cls, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

/* A usage error: "PROG: message" and the hint "Try 'PROG --help' for more
 * information."; fmt NULL: the hint alone, after what getopt said.
 * Returns the usage exit code (12). */
int diag_usage(struct diag *d, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* The n bytes at p as hex digits, for a message's x'...': as many as fit
 * out (cap bytes, the NUL included). */
void diag_hex(char *out, size_t cap, const uint8_t *p, size_t n);

/* Print the messages a tagged diag wrote into buf (len bytes, the
 * messages of one input read elsewhere, a thread of --jobs), untagged, as
 * d would have printed them: at most max_per_status of a status over all
 * the buffers replayed, shown[] counting them (PM_STATUS_COUNT, zero at
 * first). The counts are d's business (diag_count). */
void diag_replay(struct diag *d, const char *buf, size_t len, unsigned long *shown);

/* Lines "N more messages of this kind suppressed" for each capped status. */
void diag_print_suppressed(const struct diag *d);

/* 0, 4, 8, 12 or 16, from the worst class reported. */
int diag_exit_code(const struct diag *d);

/* Number of reports of warning class, over all statuses. */
unsigned long diag_warning_count(const struct diag *d);

#endif
