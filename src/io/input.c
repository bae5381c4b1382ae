/* input.c: file, pipe and memory inputs. See input.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/input.h"

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

/* The first bytes of a plain input again, then the source's own reads. */
static ssize_t
read_head(struct input *in, uint8_t *buf, size_t cap)
{
	size_t n = in->head_len - in->head_pos;

	if (n == 0) {
		in->read = in->source;
		return in->read(in, buf, cap);
	}
	if (n > cap)
		n = cap;
	memcpy(buf, in->head + in->head_pos, n);
	in->head_pos += n;
	return (ssize_t)n;
}

/* The first read: the source's first bytes tell whether a decoder goes
 * under the reads, or they are read again as they are. */
static ssize_t
read_first(struct input *in, uint8_t *buf, size_t cap)
{
	pm_status st;
	ssize_t r;

	while (in->head_len < sizeof in->head &&
	       (r = in->source(in, in->head + in->head_len,
	                       sizeof in->head - in->head_len)) != 0) {
		if (r < 0)
			return -1;
		in->head_len += (size_t)r;
	}
	if (decompress_stack(in, in->head, in->head_len, &st)) {
		in->size = -1;
		in->read = decompress_read;
	} else if (st != PM_OK) {
		errno = ENOMEM;
		return -1;
	} else {
		in->read = read_head;
	}
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

/* The bytes read ahead first, then the input's own reads again. */
static ssize_t
read_ahead(struct input *in, uint8_t *buf, size_t cap)
{
	size_t n = in->ahead_len - in->ahead_pos;

	if (n == 0) {
		in->read = in->read_on;
		return in->read(in, buf, cap);
	}
	if (n > cap)
		n = cap;
	memcpy(buf, in->ahead + in->ahead_pos, n);
	in->ahead_pos += n;
	return (ssize_t)n;
}

ssize_t
input_peek(struct input *in, uint8_t *out, size_t n)
{
	size_t got = 0;
	ssize_t r;

	if (n > INPUT_PEEK_MAX)
		n = INPUT_PEEK_MAX;
	while (got < n && (r = in->read(in, in->ahead + got, n - got)) != 0) {
		if (r < 0)
			return -1;
		got += (size_t)r;
	}
	memcpy(out, in->ahead, got);
	in->ahead_len = got;
	in->ahead_pos = 0;
	in->read_on = in->read;
	in->read = read_ahead;
	return (ssize_t)got;
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
	decompress_free(in->decoder);
	in->decoder = NULL;
	if (in->owns_fd && in->fd >= 0)
		close(in->fd);
	in->fd = -1;
	in->owns_fd = 0;
}
