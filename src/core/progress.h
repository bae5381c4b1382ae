/* progress.h: a progress line on standard error for long runs, in the way
 * pv or mq-smf-csv -t show one: bytes read, percent of the known input
 * size, MB/s, records and ETA, redrawn in place at most four times a
 * second. It never writes to standard output. */
#ifndef PROGRESS_H
#define PROGRESS_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

struct progress {
	FILE *out;             /* NULL: off */
	int64_t total;         /* bytes of all inputs, or -1 when unknown */
	uint64_t done_before;  /* bytes of the inputs already read */
	struct timespec start, last;
	int drawn;             /* a line is on the screen */
};

/* Off unless out is given; the caller decides (a terminal, or --progress,
 * and not --quiet). total: the inputs' size, -1 if a pipe is among them. */
void progress_init(struct progress *p, FILE *out, int64_t total);

/* Called often: redraws only when a quarter second has passed. bytes: of
 * the current input; records: so far in the run. */
void progress_update(struct progress *p, uint64_t bytes, uint64_t records);

/* The current input is done: its bytes count as read. */
void progress_next_input(struct progress *p, uint64_t bytes);

/* Erase the line, so that a message or the summary that follows starts
 * clean; the next update draws it again. ctx: the progress (a diag
 * before_message hook). */
void progress_erase(void *ctx);

#endif
