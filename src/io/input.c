/* input.c: file, pipe and memory inputs. See input.h. */
#include <errno.h>
#include <fcntl.h>
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

pm_status
input_open_path(struct input *in, const char *path)
{
	struct stat st;

	memset(in, 0, sizeof *in);
	in->read = read_fd;
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

void
input_from_memory(struct input *in, const char *name, const uint8_t *buf,
                  size_t len, size_t chunk)
{
	memset(in, 0, sizeof *in);
	in->name = name;
	in->size = (int64_t)len;
	in->read = read_memory;
	in->fd = -1;
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

void
input_close(struct input *in)
{
	if (in->owns_fd && in->fd >= 0)
		close(in->fd);
	in->fd = -1;
	in->owns_fd = 0;
}
