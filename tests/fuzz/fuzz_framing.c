/* fuzz_framing.c: libFuzzer harness for framing detection and reading, and
 * everything after it: the bytes go through the same pipeline and the same
 * pluggable input as a real run, delivered in chunks whose size the first
 * byte chooses. Checks the byte accounting on every input. */
#include <stdlib.h>

#include "pipeline.h"

static struct pmint pm;

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
	struct diag d;
	struct sources src;
	struct input in;
	struct pipeline *p;
	pm_status st;
	char err[128];

	if (pm.nparts == 0 && pmint_load(&pm, err, sizeof err) != PM_OK)
		abort();
	if (size == 0)
		return 0;
	pipeline_defaults(&o);
	o.buffer_size = 1024;          /* small: refills and joins are exercised */
	o.max_record = 1 << 16;
	o.max_pending = 8;
	o.max_sources = 16;
	diag_init(&d, "fuzz", NULL);
	if (sources_init(&src, o.max_sources) != PM_OK)
		abort();
	p = pipeline_open(&o, &pm, &src, ignore, NULL, &d, &st);
	if (!p)
		abort();
	input_from_memory(&in, "fuzz", data + 1, size - 1, (size_t)data[0] + 1);
	(void)pipeline_read(p, &in);
	pipeline_finish(p);
	const struct tally *t = pipeline_tally(p);
	if (t->bytes_read != size - 1 || tally_accounted(t) != t->bytes_read)
		abort(); /* every byte must be accounted for */
	pipeline_close(p);
	sources_free(&src);
	return 0;
}
