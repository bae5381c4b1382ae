/* fuzz_framing.c: libFuzzer harness for framing detection and reading, and
 * everything after it: the bytes go through the same pipeline and the same
 * pluggable input as a real run, delivered in chunks whose size the first
 * byte chooses. Checks the byte accounting on every input. */
#include "fuzz_pipeline.h"

static void
ignore(const struct interval *iv, void *ctx)
{
	(void)iv;
	(void)ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pipeline_opts o;

	if (size == 0)
		return 0;
	pipeline_defaults(&o);
	o.buffer_size = 1024;          /* small: refills and joins are exercised */
	o.max_record = 1 << 16;
	o.max_pending = 8;
	o.max_sources = 16;
	fuzz_run(&o, data + 1, size - 1, (size_t)data[0] + 1,
	         &(struct fuzz_hooks){ ignore, NULL, NULL });
	return 0;
}
