/* partial.h: the partial-aggregate file (--partial, --merge): what one run
 * over some inputs keeps of its report, so that a merge of partials writes
 * the report one run over all of them would have written.
 *
 * A partial is self-describing and independent of the host's byte order:
 *
 *   "PMIMPART"  8 bytes, the magic
 *   version     u16 (PARTIAL_VERSION)
 *   sections    each a tag of 4 ASCII bytes, a u64 payload length, the
 *               payload; readers skip tags they do not know
 *   "END "      the last section: its payload the u32 CRC-32 (IEEE 802.3)
 *               of every byte before the section
 *
 * Numbers are unsigned big-endian of 1, 2, 4 or 8 bytes (signed ones in
 * two's complement), texts a u32 length and that many bytes. Which sections
 * there are, and what they hold, is the business of the stages that write
 * them (runpart.c, pmim/coverage.c, report/report.c, report/rowrec.c);
 * this file knows only the envelope. Its checksum is checked before
 * anything is taken from it. Its size grows with the groups it holds
 * (--max-groups bounds them) or the rows of a report of a row per
 * interval: a file is mapped, not read into memory, and a large section
 * can be written as it comes (pw_section_sized), so that neither end
 * needs its size in memory. */
#ifndef PARTIAL_H
#define PARTIAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/bytes.h"
#include "core/status.h"

#define PARTIAL_VERSION 2
#define PARTIAL_MAX ((size_t)1 << 36)   /* refused beyond: 64 GiB */

/* Writing: sections built in memory, then written with the running CRC. */
struct pwriter {
	FILE *fp;
	uint32_t crc;
	uint8_t *buf;        /* the open section's payload, held bytes of it */
	size_t held, cap;
	uint64_t len;        /* its length so far */
	char tag[4];
	bool failed;         /* out of memory or a write failed */
	bool direct;         /* the open section is written as it comes, */
	uint64_t want;       /* buf a chunk of it, its length given in advance */
};

void pw_open(struct pwriter *w, FILE *fp);
void pw_section(struct pwriter *w, const char tag[4]);
/* A section whose payload's length is known in advance, written to the
 * file as it comes instead of held until its end: what may be large (a
 * report's groups). Its end fails the writer when another length came. */
void pw_section_sized(struct pwriter *w, const char tag[4], uint64_t len);
void pw_uint(struct pwriter *w, unsigned width, uint64_t v);
void pw_i64(struct pwriter *w, int64_t v);
void pw_text(struct pwriter *w, const char *s);
/* n bytes as they are (already encoded by the caller) */
void pw_bytes(struct pwriter *w, const void *p, size_t n);
void pw_end_section(struct pwriter *w);
/* The END section, and whether everything was written (PM_E_WRITE, or
 * PM_E_NOMEM). Frees the writer's buffer. */
pm_status pw_close(struct pwriter *w);

/* Reading: a partial checked whole before anything is taken from it. A
 * file is mapped, not read into memory, and the pages a reader is done
 * with given back (partial_release), so that a large partial does not
 * take its size in memory; a pipe is read whole. */
struct partial {
	uint8_t *data;
	size_t len;
	uint16_t version;
	bool mapped;
};

/* Load path ("-": standard input) into p. PM_E_OPEN or PM_E_READ (errno
 * set), PM_E_NOMEM, or PM_E_PARTIAL with where and what in err: not a
 * partial, a version this program does not read, cut short, or a checksum
 * that does not match. */
pm_status partial_load(struct partial *p, const char *path, char *err, size_t cap);
/* The same of len bytes at data (malloc'd: p owns them from now on, and
 * frees them when they are refused). */
pm_status partial_take(struct partial *p, uint8_t *data, size_t len, char *err, size_t cap);
/* The same of the partial a --jobs thread wrote to file fd, mapped; the
 * descriptor stays the caller's. Its sections are walked, its checksum
 * not computed again, as it never left this process's files. */
pm_status partial_map_own(struct partial *p, int fd, char *err, size_t cap);
/* The pages of a mapped partial before upto, read and not to be read
 * again, given back to the system (a hint: nothing for one in memory). */
void partial_release(const struct partial *p, const uint8_t *upto);
void partial_free(struct partial *p);

/* The payload of the first section tagged tag; false when there is none. */
bool partial_section(const struct partial *p, const char tag[4], struct span *out);

/* A cursor over a payload: every read is bounds-checked; a read past the
 * end sets bad and gives 0, so a caller checks once, at the end. */
struct pcursor {
	struct span s;
	size_t at;
	bool bad;
	size_t released;     /* what pc_release gave back, up to here */
};

static inline struct pcursor
pc_make(struct span s)
{
	struct pcursor c = { s, 0, false, 0 };
	return c;
}

/* What c has read of partial p given back (partial_release), a MiB at a
 * time: for the reader of a large section, once an item. */
void pc_release(struct pcursor *c, const struct partial *p);

uint64_t pc_uint(struct pcursor *c, unsigned width);
int64_t pc_i64(struct pcursor *c);
/* A text into out (cap bytes, NUL-terminated); bad when it does not fit. */
void pc_text(struct pcursor *c, char *out, size_t cap);
/* Whether the payload was read exactly to its end, without a bad read. */
bool pc_done(const struct pcursor *c);

/* The CRC-32 (IEEE 802.3, reflected, as zlib's crc32) of n bytes, continued
 * from crc (0 to start). Its table is made on the first call: a program
 * that writes partials from several threads calls it once before it
 * starts them. */
uint32_t partial_crc32(uint32_t crc, const uint8_t *p, size_t n);

#endif
