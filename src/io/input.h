/* input.h: where bytes come from. The reader never calls read(2) itself; it
 * asks an input, which is a file, a pipe, or a memory buffer handed out in
 * chunks of a chosen size (tests and fuzzers). An input whose first bytes
 * are a gzip or zstd magic is decoded as it is read (io/decompress.h): its
 * reads, its offsets and its size are those of the decoded bytes. */
#ifndef INPUT_H
#define INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/status.h"
#include "io/decompress.h"

struct diag;

/* Bytes input_peek may look ahead. */
#define INPUT_PEEK_MAX 128

struct input {
	const char *name;  /* for messages: the path, or "-" / "(stdin)" */
	int64_t size;      /* bytes, or -1 when unknown (a pipe, or compressed) */
	uint64_t origin;   /* file offset of the first byte read: a range's
	                      start (input_open_range), else 0 */
	uint64_t stop;     /* a range: where the next begins; 0: the end */
	/* Read up to cap bytes into buf: >0 bytes read, 0 at end, -1 on error
	 * (errno set). Short reads are normal. */
	ssize_t (*read)(struct input *in, uint8_t *buf, size_t cap);
	int fd;
	int owns_fd;
	const uint8_t *mem;
	size_t mem_len, mem_pos, chunk;
	/* the file's or the memory's own reads, under a decoder */
	ssize_t (*source)(struct input *in, uint8_t *buf, size_t cap);
	/* bytes already taken from read_on, handed out again before its
	 * reads go on: the first bytes, looked at for a magic and read again
	 * when plain; those input_peek looked at */
	ssize_t (*read_on)(struct input *in, uint8_t *buf, size_t cap);
	uint8_t again[INPUT_PEEK_MAX];
	size_t again_len, again_pos;
	struct decoder *decoder; /* NULL: not compressed (or not yet read) */
	struct diag *diag;       /* where damage to compressed data is said;
	                            NULL: not said, only marked in damaged */
	bool damaged;            /* the compressed data was damaged: the
	                            reads ended early */
};

/* Open a path; "-" is standard input. PM_E_OPEN with errno on failure. */
pm_status input_open_path(struct input *in, const char *path);

/* Open the regular file path from start on, read as a file of its own but
 * for its offsets, which are the file's (origin): one range of a file cut
 * for threads (split.h), whose reader stops at stop (0: the file's end),
 * having read past it what it needs. */
pm_status input_open_range(struct input *in, const char *path, uint64_t start,
                           uint64_t stop);

/* Serve len bytes at buf, at most chunk bytes per read (0: all at once). */
void input_from_memory(struct input *in, const char *name, const uint8_t *buf,
                       size_t len, size_t chunk);

/* Look at the first n (at most INPUT_PEEK_MAX) bytes of in before any is
 * read, and keep them to be read again: how an input is told apart before
 * the reader it needs is chosen. Returns the bytes there were (fewer at the
 * end of a short input), or -1 on a read error (errno set). */
ssize_t input_peek(struct input *in, uint8_t *out, size_t n);

/* Whether in is decoded (known once it has been read or peeked at), and
 * its compressed bytes read so far. */
bool input_compressed(const struct input *in);
uint64_t input_compressed_read(const struct input *in);

void input_close(struct input *in);

#endif
