/* fuzz_pm.c: libFuzzer harness for PM decoding and reassembly: the input is
 * a chain of PM records, as found inside an SMF record, fed to the PM stage
 * with a tiny pending limit so that eviction paths run too. */
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"

static struct pmint pm;
static unsigned long emitted;

static void
count(const struct interval *iv, void *ctx)
{
	(void)ctx;
	if (iv->parts == 0)
		abort(); /* an interval is emitted only with a part */
	emitted++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct reasm_opts ro = { 3, 7 };
	struct diag d;
	struct tally t;
	struct pm_stage stage;
	char err[128];

	if (pm.nparts == 0 && pmint_load(&pm, err, sizeof err) != PM_OK)
		abort();
	memset(&t, 0, sizeof t);
	diag_init(&d, "fuzz", NULL);
	stage.pm = &pm;
	stage.reasm = reasm_open(&pm, &ro, count, NULL, &d, &t);
	stage.diag = &d;
	stage.tally = &t;
	if (!stage.reasm)
		abort();
	pm_stage_chain(&stage, span_make(data, size), 0, 0);
	reasm_finish(stage.reasm);
	if (tally_accounted(&t) != size)
		abort();
	reasm_close(stage.reasm);
	return 0;
}
