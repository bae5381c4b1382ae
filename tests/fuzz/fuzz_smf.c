/* fuzz_smf.c: libFuzzer harness for SMF record parsing and the PM chain
 * search. The input after its first byte is one SMF record's data (what
 * follows its RDW). The harness puts valid descriptors around it, so that
 * mutations land in the record and not in the framing: one RDW, or SDW
 * segments of a size the first byte chooses, spanning the record as a
 * dump would. The framed bytes go through the same pluggable input and
 * pipeline as a real run, forced to the RDW framing, with a CV name field. */
#include <string.h>

#include "fuzz_pipeline.h"

#define SEG_DATA_MAX 32756

static uint8_t framed[1 << 17];

static void
ignore(const struct interval *iv, void *ctx)
{
	(void)iv;
	(void)ctx;
}

/* Segments of at most seg bytes of data; 0 when it does not fit. */
static size_t
frame(const uint8_t *data, size_t size, size_t seg)
{
	size_t out = 0, at = 0;

	do {
		size_t n = size - at < seg ? size - at : seg;
		unsigned code = at == 0 ? (n == size ? 0 : 1) : (at + n == size ? 2 : 3);
		if (out + 4 + n > sizeof framed)
			return 0;
		put_be(framed + out, 2, n + 4);
		framed[out + 2] = (uint8_t)code;
		framed[out + 3] = 0;
		memcpy(framed + out + 4, data + at, n);
		out += 4 + n;
		at += n;
	} while (at < size);
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pipeline_opts o;
	size_t len, seg;

	if (size < 2)
		return 0;
	/* 0 keeps the record whole when it fits; else 1 to 255 times 128 */
	seg = data[0] == 0 ? SEG_DATA_MAX : (size_t)data[0] * 128;
	if (seg > SEG_DATA_MAX)
		seg = SEG_DATA_MAX;
	if ((len = frame(data + 1, size - 1, seg)) == 0)
		return 0;
	pipeline_defaults(&o);
	o.framing = FRAMING_RDW;
	o.smf.cv_offset = 22;
	o.smf.cv_length = 8;
	o.max_pending = 4;
	o.max_sources = 8;
	o.buffer_size = 1024;
	fuzz_run(&o, framed, len, 0, &(struct fuzz_hooks){ ignore, NULL, NULL });
	return 0;
}
