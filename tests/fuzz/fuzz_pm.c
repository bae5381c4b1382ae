/* fuzz_pm.c: libFuzzer harness for PM decoding and reassembly. The input is
 * a stream of PM records, read through the same pluggable input and
 * pipeline as a real run, forced to the bare PM framing, with a tiny
 * pending limit so that eviction and late-part paths run too. Every
 * interval emitted must have a part and a known source. */
#include "fuzz_pipeline.h"

static void
check(const struct interval *iv, void *ctx)
{
	const struct sources *src = ctx;

	if (iv->parts == 0 || iv->end < iv->start ||
	    sources_name(src, iv->source) == NULL)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pipeline_opts o;

	fuzz_pm_stream(&o);
	fuzz_run(&o, data, size, 0, &(struct fuzz_hooks){ check, NULL, NULL });
	return 0;
}
