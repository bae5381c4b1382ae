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

/* A block of a file mapped: len bytes at p, from the file's offset at. */
struct lent_block {
	uint8_t *p;
	size_t len;
	uint64_t at;
};

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
	/* what input_lend lent: the block of the file mapped, bytes across
	 * blocks copied into the bridge; the furthest byte any block reached */
	struct lent_block block;
	uint8_t *bridge;
	size_t bridge_cap;
	size_t block_size;       /* the blocks' size (0: 2 MiB), a multiple
	                            of the page size: tests make it a page */
	uint64_t lent_end;
	bool cut_short;          /* bytes lent were lost, from cut_at on: */
	bool shrank;             /* the file was cut short (else a page
	                            could not be read) */
	uint64_t cut_at;
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

/* Whether in is a regular file opened by path (not standard input) read
 * as it is (not compressed), whose bytes input_lend can lend: its first
 * bytes looked at, if they were not, to know. Nothing is read after this
 * but by input_lend. */
bool input_can_lend(struct input *in);

/* The bytes of in from the file offset at on, lent where they lie: *p
 * points at them, in a block of the file mapped read-only, or copied
 * where they cross blocks; at least n of them where the file has them
 * (fewer only at its end), valid until the next call or input_close.
 * Returns how many bytes there are at *p: 0 at the end of the file, -1
 * on an error (errno set), EIO when bytes lent were lost (cut_short,
 * cut_at; shrank when the file was cut short while it was read, else a
 * page could not be read): they were read as zeros, and nothing more is
 * lent. After an error the bytes lent before may be gone. */
ssize_t input_lend(struct input *in, uint64_t at, size_t n, const uint8_t **p);

/* Whether every byte lent so far was the file's: false once it was found
 * cut short (cut_short, cut_at), by a fault or by its size. */
bool input_lent_whole(struct input *in);

/* Why a lend failed, said as a read error: the bytes lost (cut_short)
 * at cut_at, else errno's error at the file offset at. */
void input_say_lend_failed(const struct input *in, struct diag *d, uint64_t at);

/* What was lent given back (input_close does it). */
void input_lend_end(struct input *in);

void input_close(struct input *in);

#endif
