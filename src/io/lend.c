/* lend.c: a plain regular file's bytes lent where they lie (input_lend),
 * instead of copied by read(2) into a buffer of the reader's: on a dense
 * stream the copy was a sixth of the time. See input.h.
 *
 * The file is mapped a block at a time, 2 MiB at 2 MiB offsets, so that
 * the page cache's huge pages map whole (windows at other offsets took a
 * third more time), and one block is mapped at once, so that its pages
 * are all a read holds (two blocks would hold 4 MiB: a huge page is all
 * resident from its first touch). Bytes asked for across the end of a
 * block are copied into a buffer, the bridge, with as many again after
 * them; the reader is lent the next block once it asks from there. A
 * block is given back once the next is mapped, and before it is read: a
 * lend that fails has given back nothing.
 *
 * A mapped file that is cut short while it is read faults (SIGBUS) where
 * its pages are gone, as it does where a page cannot be read from its
 * device. The handler maps zeros over the rest of the block the faulting
 * thread was lent, notes it, and lets the load go on; the next lend says
 * the file lost bytes, a read error, where read(2) would have said nothing
 * of a file cut short. A fault outside a lent block is left to the
 * default action. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, sigaction */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/diag.h"
#include "io/input.h"

#define LEND_BLOCK ((uint64_t)2 << 20)

/* The block this thread was lent, for the fault handler: where it lies in
 * memory and in the file. */
struct lent_range {
	uintptr_t lo, hi;
	uint64_t at;
};

static _Thread_local struct {
	const struct input *owner;
	struct lent_range r;
	volatile sig_atomic_t faulted;
	uint64_t lost_at;  /* the file offset of the first page of zeros */
} lent;

static size_t page_size;
static pthread_once_t handler_once = PTHREAD_ONCE_INIT;
static bool handler_set;

static void
on_sigbus(int sig, siginfo_t *si, void *context)
{
	uintptr_t at = (uintptr_t)si->si_addr;

	(void)context;
	if (at >= lent.r.lo && at < lent.r.hi) {
		uintptr_t page = at & ~(uintptr_t)(page_size - 1);
		uint64_t lost = lent.r.at + (page - lent.r.lo);

		if (mmap((void *)page, lent.r.hi - page, PROT_READ,
		         MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
			if (!lent.faulted || lost < lent.lost_at)
				lent.lost_at = lost;
			lent.faulted = 1;
			return;
		}
	}
	/* not ours: the load faults again, to the default action */
	signal(sig, SIG_DFL);
}

static void
set_handler(void)
{
	struct sigaction sa;
	long pg = sysconf(_SC_PAGESIZE);

	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	page_size = pg > 0 ? (size_t)pg : 4096;
	handler_set = sigaction(SIGBUS, &sa, NULL) == 0;
}

static struct lent_range
range_of(const struct lent_block *b)
{
	struct lent_range r = { (uintptr_t)b->p, (uintptr_t)b->p, b->at };

	if (b->p != NULL)
		r.hi += (b->len + page_size - 1) & ~(page_size - 1);
	return r;
}

/* in's block told to the fault handler. */
static void
tell_handler(struct input *in)
{
	lent.owner = in;
	lent.r = range_of(&in->block);
}

/* A fault in in's block noted: the file lost bytes where the zeros
 * begin. */
static void
note_fault(struct input *in)
{
	if (lent.owner != in || !lent.faulted)
		return;
	if (!in->cut_short || lent.lost_at < in->cut_at)
		in->cut_at = lent.lost_at;
	in->cut_short = true;
	lent.faulted = 0;
}

/* in's block given back, a fault in it noted first. */
static void
give_back(struct input *in)
{
	if (in->block.p == NULL)
		return;
	note_fault(in);
	munmap(in->block.p, in->block.len);
	in->block = (struct lent_block){ NULL, 0, 0 };
	tell_handler(in);
}

bool
input_can_lend(struct input *in)
{
	uint8_t first[1];

	/* only a file opened by path (standard input, even from a file, is
	 * read from where it stands; memory has no file), of a known size */
	if (!in->owns_fd || in->size < 0)
		return false;
	/* whether it is compressed is known once its first bytes are */
	if (input_peek(in, first, sizeof first) < 0 || input_compressed(in))
		return false;
	pthread_once(&handler_once, set_handler);
	return handler_set;
}

/* The file's size now, in *size, and whether it lost bytes lent: a fault
 * noted, or a size below them. False when it cannot be known (errno set). */
static bool
file_size(struct input *in, uint64_t *size)
{
	struct stat st;

	note_fault(in);
	if (fstat(in->fd, &st) != 0)
		return false;
	*size = (uint64_t)st.st_size;
	if (*size < in->lent_end) {
		/* where the file ends now, if before the zeros read */
		if (!in->cut_short || *size < in->cut_at)
			in->cut_at = *size;
		in->cut_short = in->shrank = true;
	}
	return true;
}

bool
input_lent_whole(struct input *in)
{
	uint64_t size;

	(void)file_size(in, &size);
	return !in->cut_short;
}

static uint64_t
block_end(const struct lent_block *b)
{
	return b->at + b->len;
}

static bool
holds(const struct lent_block *b, uint64_t at)
{
	return b->p != NULL && at >= b->at && at < block_end(b);
}

/* The block of the file holding at lent, of a file of size bytes, the
 * block before given back once it is mapped. False when it cannot be
 * mapped (errno set): the block before is still lent. */
static bool
lend_block(struct input *in, uint64_t at, uint64_t size)
{
	uint64_t step = in->block_size ? in->block_size : LEND_BLOCK;
	uint64_t lo = at / step * step, hi = size - lo < step ? size : lo + step;
	uint8_t *p = mmap(NULL, (size_t)(hi - lo), PROT_READ, MAP_PRIVATE, in->fd, (off_t)lo);

	if (p == MAP_FAILED)
		return false;
	give_back(in);
	in->block = (struct lent_block){ p, (size_t)(hi - lo), lo };
	if (hi > in->lent_end)
		in->lent_end = hi;
	tell_handler(in);
	return true;
}

/* Bytes lost: a read error, what was lent last still mapped. */
static ssize_t
lost(void)
{
	errno = EIO;
	return -1;
}

ssize_t
input_lend(struct input *in, uint64_t at, size_t n, const uint8_t **p)
{
	uint64_t size;
	size_t want;

	if (!file_size(in, &size))
		return -1;
	if (in->cut_short)
		return lost();
	if (at >= size)
		return 0;
	if (n > size - at)
		n = (size_t)(size - at);
	if (!holds(&in->block, at) && !lend_block(in, at, size))
		return -1;
	if (at + n <= block_end(&in->block)) {
		*p = in->block.p + (at - in->block.at);
		return (ssize_t)(block_end(&in->block) - at);
	}
	/* across blocks: into the bridge, with as many bytes again for the
	 * reader's next asks (a resynchronisation moves a byte at a time) */
	want = size - at - n < n ? (size_t)(size - at) : 2 * n;
	if (want > in->bridge_cap) {
		uint8_t *b = realloc(in->bridge, want);

		if (b == NULL)
			return -1;
		in->bridge = b;
		in->bridge_cap = want;
	}
	for (size_t got = 0, k; got < want; got += k) {
		uint64_t from = at + got;

		if (!holds(&in->block, from) && !lend_block(in, from, size))
			return -1;
		k = block_end(&in->block) - from < want - got ? (size_t)(block_end(&in->block) - from)
		                                              : want - got;
		memcpy(in->bridge + got, in->block.p + (from - in->block.at), k);
	}
	note_fault(in);
	if (in->cut_short)
		return lost();
	*p = in->bridge;
	return (ssize_t)want;
}

void
input_say_lend_failed(const struct input *in, struct diag *d, uint64_t at)
{
	if (!in->cut_short)
		diag_at(d, PM_E_READ, (int64_t)at, "%s", strerror(errno));
	else
		diag_at(d, PM_E_READ, (int64_t)in->cut_at, "%s; what was read from here on was zeros",
		        in->shrank ? "the file was cut short here while it was read"
		                   : "the file's pages could not be read from here");
}

void
input_lend_end(struct input *in)
{
	give_back(in);
	if (lent.owner == in)
		lent.owner = NULL;
	free(in->bridge);
	in->bridge = NULL;
	in->bridge_cap = 0;
}
