/* input.c: file, pipe and memory inputs. See input.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/input.h"

/* the first bytes are held where input_peek holds its own */
_Static_assert(INPUT_PEEK_MAX >= DECOMPRESS_MAGIC_LEN, "a magic fits in what is held");

static ssize_t
read_fd(struct input *in, uint8_t *buf, size_t cap)
{
	ssize_t n;
	do
		n = read(in->fd, buf, cap);
	while (n < 0 && errno == EINTR);
	return n;
}

static ssize_t
read_memory(struct input *in, uint8_t *buf, size_t cap)
{
	size_t n = in->mem_len - in->mem_pos;
	if (in->chunk && n > in->chunk)
		n = in->chunk;
	if (n > cap)
		n = cap;
	memcpy(buf, in->mem + in->mem_pos, n);
	in->mem_pos += n;
	return (ssize_t)n;
}

/* The bytes held (again), then the reads they were taken from go on. */
static ssize_t
read_again(struct input *in, uint8_t *buf, size_t cap)
{
	size_t n = in->again_len - in->again_pos;

	if (n == 0) {
		in->read = in->read_on;
		return in->read(in, buf, cap);
	}
	if (n > cap)
		n = cap;
	memcpy(buf, in->again + in->again_pos, n);
	in->again_pos += n;
	return (ssize_t)n;
}

/* Take bytes from in's reads until n (at most INPUT_PEEK_MAX) are held,
 * fewer at the end, to be read again first: those held already, then
 * more from the reads they came from. -1 on a read error. */
static int
hold(struct input *in, size_t n)
{
	ssize_t r;

	if (in->read != read_again) {
		in->read_on = in->read;
		in->read = read_again;
		in->again_len = in->again_pos = 0;
	}
	in->again_len -= in->again_pos;
	memmove(in->again, in->again + in->again_pos, in->again_len);
	in->again_pos = 0;
	while (in->again_len < n &&
	       (r = in->read_on(in, in->again + in->again_len, n - in->again_len)) != 0) {
		if (r < 0)
			return -1;
		in->again_len += (size_t)r;
	}
	return 0;
}

/* The source's first bytes tell whether a decoder goes under the reads,
 * or they are held to be read again as they are. -1 on a read error, or
 * without memory for the decoder (errno set). */
static int
look_first(struct input *in)
{
	pm_status st;

	in->read = in->source;
	if (hold(in, DECOMPRESS_MAGIC_LEN) < 0)
		return -1;
	if (decompress_stack(in, in->again, in->again_len, &st)) {
		in->size = -1;
		in->again_len = 0;  /* the decoder has them */
		in->read = decompress_read;
	} else if (st != PM_OK) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

/* The first read: the first bytes looked at, then read. */
static ssize_t
read_first(struct input *in, uint8_t *buf, size_t cap)
{
	if (look_first(in) < 0)
		return -1;
	return in->read(in, buf, cap);
}

static void
input_init(struct input *in, const char *name,
           ssize_t (*source)(struct input *, uint8_t *, size_t))
{
	memset(in, 0, sizeof *in);
	in->name = name;
	in->source = source;
	in->read = read_first;
	in->fd = -1;
}

pm_status
input_open_path(struct input *in, const char *path)
{
	struct stat st;

	input_init(in, NULL, read_fd);
	in->size = -1;
	if (path == NULL || strcmp(path, "-") == 0) {
		in->name = "(stdin)";
		in->fd = STDIN_FILENO;
	} else {
		in->name = path;
		in->fd = open(path, O_RDONLY);
		if (in->fd < 0)
			return PM_E_OPEN;
		in->owns_fd = 1;
	}
	if (fstat(in->fd, &st) == 0 && S_ISREG(st.st_mode)) {
		in->size = (int64_t)st.st_size;
#ifdef POSIX_FADV_SEQUENTIAL
		(void)posix_fadvise(in->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
	} else if (fstat(in->fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		input_close(in);
		errno = EISDIR;
		return PM_E_OPEN;
	}
	return PM_OK;
}

pm_status
input_open_range(struct input *in, const char *path, uint64_t start, uint64_t stop)
{
	pm_status st = input_open_path(in, path);

	if (st != PM_OK)
		return st;
	if (in->size < 0 || (uint64_t)in->size < start ||
	    lseek(in->fd, (off_t)start, SEEK_SET) < 0) {
		input_close(in);
		return PM_E_OPEN;
	}
	in->origin = start;
	in->stop = stop;
	in->size -= (int64_t)start;
	return PM_OK;
}

void
input_from_memory(struct input *in, const char *name, const uint8_t *buf,
                  size_t len, size_t chunk)
{
	input_init(in, name, read_memory);
	in->size = (int64_t)len;
	in->mem = buf;
	in->mem_len = len;
	in->chunk = chunk;
}

ssize_t
input_peek(struct input *in, uint8_t *out, size_t n)
{
	if (n > INPUT_PEEK_MAX)
		n = INPUT_PEEK_MAX;
	if ((in->read == read_first && look_first(in) < 0) || hold(in, n) < 0)
		return -1;
	memcpy(out, in->again, in->again_len < n ? in->again_len : n);
	return (ssize_t)(in->again_len < n ? in->again_len : n);
}

bool
input_compressed(const struct input *in)
{
	return in->decoder != NULL;
}

uint64_t
input_compressed_read(const struct input *in)
{
	return in->decoder ? decompress_consumed(in->decoder) : 0;
}

void
input_close(struct input *in)
{
	input_lend_end(in);
	decompress_free(in->decoder);
	in->decoder = NULL;
	if (in->owns_fd && in->fd >= 0)
		close(in->fd);
	in->fd = -1;
	in->owns_fd = 0;
}
