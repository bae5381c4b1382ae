/* split.c: one file cut into ranges for threads. See split.h. */
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/input.h"
#include "smf/detect.h"
#include "smf/walk.h"
#include "split.h"

/* Bytes looked through after a proposed cut for a record to cut at: many
 * intervals of the largest parts. */
#define SPLIT_SCAN ((size_t)1 << 20)
/* Records that must walk from a cut: more than resynchronisation asks. */
#define SPLIT_WALK 16

/* Up to cap bytes of fd at off; the bytes had, 0 at the end or on error. */
static size_t
read_at(int fd, uint8_t *buf, size_t cap, uint64_t off)
{
	size_t got = 0;
	ssize_t n;

	while (got < cap && (n = pread(fd, buf + got, cap - got, (off_t)(off + got))) > 0)
		got += (size_t)n;
	return got;
}

/* Whether w (at_eof: it ends where the file does) begins with part 1 of
 * an interval from which PM records walk, and, when the framing is
 * detected, which a thread starting there detects as a PM stream: where
 * one run's reading of the file would be between two intervals. */
static bool
cut_fits(const struct fr_records *rs, const struct pmint *pm, enum framing asked,
         struct span w, bool at_eof)
{
	struct pm_header h;
	enum framing f;
	bool full;

	if (pmint_header_at(pm, w, &h, &full) != PM_OK || !full ||
	    h.type != pm->interval_type || h.seq != 1 ||
	    !walk_window(rs, FRAMING_PM, CONTENT_PM, w, at_eof, SPLIT_WALK, false, NULL))
		return false;
	return asked != FRAMING_AUTO ||
	       (detect_framing(rs, span_make(w.p, w.len < DETECT_WINDOW ? w.len : DETECT_WINDOW),
	                       at_eof || w.len <= DETECT_WINDOW, &f) && f == FRAMING_PM);
}

/* Whether path is a plain regular file (not compressed) of a PM stream. */
static bool
plain_pm_stream(const char *path, int fd, uint8_t *buf, uint64_t size,
                const struct fr_records *rs, enum framing asked)
{
	struct input in;
	uint8_t head[1];
	bool plain;
	size_t got;
	enum framing f = asked;

	if (input_open_path(&in, path) != PM_OK)
		return false;
	plain = input_peek(&in, head, sizeof head) == 1 && !input_compressed(&in);
	input_close(&in);
	if (!plain)
		return false;
	got = read_at(fd, buf, DETECT_WINDOW, 0);
	if (asked == FRAMING_AUTO &&
	    !detect_framing(rs, span_make(buf, got), got == size, &f))
		return false;
	return f == FRAMING_PM;
}

size_t
split_file(const char *path, const struct fr_records *rs, const struct pmint *pm,
           enum framing asked, size_t n, uint64_t least, uint64_t *cut)
{
	size_t k = 1, cap = SPLIT_SCAN + DETECT_WINDOW;
	uint8_t *buf = NULL;
	struct stat sb;
	uint64_t size;
	int fd;

	if ((fd = open(path, O_RDONLY)) < 0)
		return 1;
	size = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) ? (uint64_t)sb.st_size : 0;
	if (least == 0)
		least = 1;
	if (size / least < n)
		n = (size_t)(size / least);
	if (n >= 2 && (buf = malloc(cap)) && plain_pm_stream(path, fd, buf, size, rs, asked)) {
		for (size_t i = 1; i < n; i++) {
			uint64_t at = size / n * i + size % n * i / n;
			size_t got = read_at(fd, buf, cap, at), off;
			bool at_eof = at + got == size;

			for (off = 0; off < got && off < SPLIT_SCAN; off++)
				if (cut_fits(rs, pm, asked, span_make(buf + off, got - off), at_eof))
					break;
			/* ranges of least bytes at least, the last one too */
			if (off < got && off < SPLIT_SCAN && at + off >= cut[k - 1] + least &&
			    size - (at + off) >= least)
				cut[k++] = at + off;
		}
	}
	free(buf);
	close(fd);
	cut[0] = 0;
	cut[k] = size;
	return k;
}
