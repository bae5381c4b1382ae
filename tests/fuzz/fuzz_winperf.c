/* fuzz_winperf.c: libFuzzer harness for the PERF_DATA_BLOCK reader: the
 * bytes as a stream of blocks through the real pipeline (--framing=perf),
 * in chunks whose size the first byte chooses, every byte accounted for;
 * and the same bytes walked as one block, as the stream hands them on. */
#include <string.h>

#include "fuzz_pipeline.h"
#include "winperf/block.h"

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
	static struct wp_walker *walker;
	const struct wp_snapshot *snap;
	struct wp_fault fault;
	struct pipeline_opts o;

	if (size == 0)
		return 0;
	pipeline_defaults(&o);
	o.framing = FRAMING_PERF;
	o.reads = READS_BOTH;
	o.max_record = 1 << 16;
	o.max_sources = 16;
	fuzz_run(&o, data + 1, size - 1, (size_t)data[0] + 1,
	         &(struct fuzz_hooks){ ignore, NULL, NULL });
	if (!walker && wp_walker_open(&walker) != PM_OK)
		abort();
	if (wp_walk(walker, span_make(data + 1, size - 1), &snap, &fault) == PM_OK) {
		/* what the walk hands on stays inside its tables */
		for (size_t i = 0; i < snap->nobjects; i++) {
			const struct wp_object *ob = &snap->objects[i];
			size_t rows = ob->num_instances == WP_NO_INSTANCES ? 1 : ob->ninstances;
			volatile uint64_t sum = 0;
			for (size_t k = 0; k < rows * ob->ncounters; k++)
				sum += ob->values[k];
			for (size_t k = 0; k < ob->ninstances; k++)
				sum += (uint64_t)strlen(ob->instances[k].name);
		}
	}
	return 0;
}
