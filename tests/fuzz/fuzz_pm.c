/* fuzz_pm.c: libFuzzer harness for PM decoding and reassembly. The input is
 * a stream of PM records, read through the same pluggable input and
 * pipeline as a real run, forced to the bare PM framing, with a tiny
 * pending limit so that eviction and late-part paths run too. Every
 * interval emitted must have a part and a known source. */
#include <stdlib.h>
#include <string.h>

#include "pipeline.h"

static struct pmint pm;

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
	struct diag d;
	struct sources src;
	struct input in;
	struct pipeline *p;
	pm_status st;
	char err[128];

	if (pm.nparts == 0 && pmint_load(&pm, err, sizeof err) != PM_OK)
		abort();
	pipeline_defaults(&o);
	o.framing = FRAMING_PM;
	o.source_label = "CV1";
	o.max_pending = 3;
	o.max_sources = 4;
	o.buffer_size = 1024;
	diag_init(&d, "fuzz", NULL);
	if (sources_init(&src, o.max_sources) != PM_OK)
		abort();
	if (!(p = pipeline_open(&o, &pm, &src, check, &src, &d, &st)))
		abort();
	input_from_memory(&in, "fuzz", data, size, 0);
	(void)pipeline_read(p, &in);
	pipeline_finish(p);
	const struct tally *t = pipeline_tally(p);
	if (t->bytes_read != size || tally_accounted(t) != size)
		abort(); /* every byte must be accounted for */
	pipeline_close(p);
	sources_free(&src);
	return 0;
}
