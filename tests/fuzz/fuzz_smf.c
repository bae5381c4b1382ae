/* fuzz_smf.c: libFuzzer harness for SMF record parsing and the PM chain
 * search: the input is one logical SMF record (from its RDW on), handed to
 * the SMF stage as the framer would hand it. */
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "smf.h"

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
	struct smf_opts o = { 230, -1, "IBM-037", 20, 8 };
	struct reasm_opts ro = { 4, 16 };
	struct diag d;
	struct tally t;
	struct sources src;
	struct pm_stage stage;
	struct fr_record rec;
	struct smf_reader *r;
	pm_status st;
	char err[128];

	if (pm.nparts == 0 && pmint_load(&pm, err, sizeof err) != PM_OK)
		abort();
	memset(&t, 0, sizeof t);
	diag_init(&d, "fuzz", NULL);
	if (sources_init(&src, 8) != PM_OK)
		abort();
	r = smf_open(&o, &pm, &src, &d, &st);
	stage.pm = &pm;
	stage.reasm = reasm_open(&pm, &ro, ignore, NULL, &d, &t);
	stage.diag = &d;
	stage.tally = &t;
	if (!r || !stage.reasm)
		abort();
	memset(&rec, 0, sizeof rec);
	rec.data = data;
	rec.len = size;
	rec.head = data;
	rec.head_len = size < FR_HEAD_MAX ? size : FR_HEAD_MAX;
	rec.input_bytes = size;
	rec.segments = 1;
	rec.contiguous = true;
	smf_record(r, &rec, &stage);
	reasm_finish(stage.reasm);
	if (tally_accounted(&t) != size)
		abort();
	reasm_close(stage.reasm);
	smf_close(r);
	sources_free(&src);
	return 0;
}
