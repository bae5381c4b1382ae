/* fuzz_compressed.c: libFuzzer harness for compressed input
 * (io/decompress.c) and everything after it, through the same pipeline and
 * memory input as fuzz_framing. The first byte chooses the read size; the
 * second what the rest is: as it is (the seeds are gzip and zstd dumps,
 * whose mutations are damaged streams), or bytes that the harness
 * compresses itself, with gzip or zstd, and cuts short at a point the byte
 * chooses, so that sound streams of any content are read too. Checks the
 * byte accounting on every input (fuzz_pipeline.h). */
#include <config.h>

#include <string.h>

#include "fuzz_pipeline.h"

#ifdef HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

#define MAX_OUT (1u << 17)

static uint8_t packed[MAX_OUT];

static void
ignore(const struct interval *iv, void *ctx)
{
	(void)iv;
	(void)ctx;
}

/* in compressed by the codec mode chooses into packed; its length, or 0 */
static size_t
compress_with(unsigned mode, const uint8_t *in, size_t len)
{
#ifdef HAVE_ZLIB
	if ((mode & 1) == 0) {
		z_stream z;
		size_t n;

		memset(&z, 0, sizeof z);
		if (deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
			abort();
		z.next_in = (Bytef *)(uintptr_t)in;
		z.avail_in = (uInt)len;
		z.next_out = packed;
		z.avail_out = sizeof packed;
		n = deflate(&z, Z_FINISH) == Z_STREAM_END ? sizeof packed - z.avail_out : 0;
		deflateEnd(&z);
		return n;
	}
#endif
#ifdef HAVE_ZSTD
	if ((mode & 1) == 1) {
		size_t n = ZSTD_compress(packed, sizeof packed, in, len, 3);
		return ZSTD_isError(n) ? 0 : n;
	}
#endif
	(void)mode;
	(void)in;
	(void)len;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pipeline_opts o;
	const uint8_t *buf = data + 2;
	size_t len = size - 2;
	unsigned mode;

	if (size < 2)
		return 0;
	mode = data[1];
	pipeline_defaults(&o);
	o.buffer_size = 1024;
	o.max_record = 1 << 16;
	o.max_pending = 8;
	o.max_sources = 16;
	if (mode & 0x80) {
		/* compressed here, then cut to keep/63 of its length (0: whole) */
		size_t n = compress_with(mode, buf, len), keep = (mode >> 1) & 0x3f;
		if (n == 0)
			return 0;
		buf = packed;
		len = keep ? n * keep / 63 : n;
	}
	fuzz_run(&o, buf, len, (size_t)data[0] + 1, &(struct fuzz_hooks){ ignore, NULL, NULL });
	return 0;
}
