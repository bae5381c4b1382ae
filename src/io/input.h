/* input.h: where bytes come from. The reader never calls read(2) itself; it
 * asks an input, which is a file, a pipe, or a memory buffer handed out in
 * chunks of a chosen size (tests and fuzzers). */
#ifndef INPUT_H
#define INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/status.h"

struct input {
	const char *name;  /* for messages: the path, or "-" / "(stdin)" */
	int64_t size;      /* bytes, or -1 when unknown (a pipe) */
	/* Read up to cap bytes into buf: >0 bytes read, 0 at end, -1 on error
	 * (errno set). Short reads are normal. */
	ssize_t (*read)(struct input *in, uint8_t *buf, size_t cap);
	int fd;
	int owns_fd;
	const uint8_t *mem;
	size_t mem_len, mem_pos, chunk;
};

/* Open a path; "-" is standard input. PM_E_OPEN with errno on failure. */
pm_status input_open_path(struct input *in, const char *path);

/* Serve len bytes at buf, at most chunk bytes per read (0: all at once). */
void input_from_memory(struct input *in, const char *name, const uint8_t *buf,
                       size_t len, size_t chunk);

void input_close(struct input *in);

#endif
