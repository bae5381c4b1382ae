/* input.h: where bytes come from. The reader never calls read(2) itself; it
 * asks an input, which is a file, a pipe, or a memory buffer handed out in
 * chunks of a chosen size (tests and fuzzers). */
#ifndef INPUT_H
#define INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/status.h"

/* Bytes input_peek may look ahead. */
#define INPUT_PEEK_MAX 128

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
	/* input_peek: bytes read ahead, served again before the rest */
	ssize_t (*read_on)(struct input *in, uint8_t *buf, size_t cap);
	uint8_t ahead[INPUT_PEEK_MAX];
	size_t ahead_len, ahead_pos;
};

/* Open a path; "-" is standard input. PM_E_OPEN with errno on failure. */
pm_status input_open_path(struct input *in, const char *path);

/* Serve len bytes at buf, at most chunk bytes per read (0: all at once). */
void input_from_memory(struct input *in, const char *name, const uint8_t *buf,
                       size_t len, size_t chunk);

/* Look at the first n (at most INPUT_PEEK_MAX) bytes of in before any is
 * read, and keep them to be read again: how an input is told apart before
 * the reader it needs is chosen. Returns the bytes there were (fewer at the
 * end of a short input), or -1 on a read error (errno set). */
ssize_t input_peek(struct input *in, uint8_t *out, size_t n);

void input_close(struct input *in);

#endif
