/* unit_input.c: inputs the unit tests share. See unit_input.h. */
#include "unit_input.h"

#include <check.h>
#include <errno.h>
#include <string.h>

#ifdef HAVE_ZLIB
#include <zlib.h>
#endif

size_t unit_fail_at;

ssize_t
unit_read_then_fail(struct input *in, uint8_t *buf, size_t cap)
{
	size_t n = unit_fail_at - in->mem_pos;

	if (in->mem_pos >= unit_fail_at) {
		errno = EIO;
		return -1;
	}
	if (n > cap)
		n = cap;
	memcpy(buf, in->mem + in->mem_pos, n);
	in->mem_pos += n;
	return (ssize_t)n;
}

#ifdef HAVE_ZLIB
size_t
unit_gzip_member(uint8_t *out, size_t cap, const char *text)
{
	z_stream z;
	size_t n;

	memset(&z, 0, sizeof z);
	ck_assert_int_eq(deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 8,
	                              Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (Bytef *)(uintptr_t)text;
	z.avail_in = (uInt)strlen(text);
	z.next_out = out;
	z.avail_out = (uInt)cap;
	ck_assert_int_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
	n = cap - z.avail_out;
	deflateEnd(&z);
	return n;
}
#endif
