/* fuzz_pipeline.h: what the pipeline harnesses share: read len bytes at buf
 * through the real pipeline, from a memory input in chunks of `chunk` bytes
 * (0: whole), hand the intervals to the harness, and abort unless every
 * byte read is accounted for. Included by one harness per program, so the
 * functions are static. */
#ifndef FUZZ_PIPELINE_H
#define FUZZ_PIPELINE_H

#include <stdlib.h>

#include "pipeline.h"

static struct pmint fuzz_pm;

/* What a harness hangs on the pipeline: emit gets each interval and ctx;
 * open, when given, makes ctx from the run's sources (else ctx is the
 * sources), and finish ends it once the pipeline has finished. */
struct fuzz_hooks {
	interval_fn emit;
	void *(*open)(const struct sources *src);
	void (*finish)(void *ctx);
};

/* A bare PM record stream of one source, with a tiny pending limit and
 * read buffer, so that eviction, late parts and refills run too. */
static inline void
fuzz_pm_stream(struct pipeline_opts *o)
{
	pipeline_defaults(o);
	o->framing = FRAMING_PM;
	o->source_label = "CV1";
	o->max_pending = 3;
	o->max_sources = 4;
	o->buffer_size = 1024;
}

static void
fuzz_run(const struct pipeline_opts *o, const uint8_t *buf, size_t len,
         size_t chunk, const struct fuzz_hooks *h)
{
	struct diag d;
	struct sources src;
	struct input in;
	struct pipeline *p;
	const struct tally *t;
	pm_status st;
	char err[128];
	void *ctx;
	int rc;

	if (fuzz_pm.nparts == 0 && pmint_load(&fuzz_pm, err, sizeof err) != PM_OK)
		abort();
	diag_init(&d, "fuzz", NULL);
	if (sources_init(&src, o->max_sources) != PM_OK)
		abort();
	ctx = h->open ? h->open(&src) : &src;
	if ((st = pipeline_open(&p, o, &fuzz_pm, &src, h->emit, ctx, &d)) != PM_OK)
		abort();
	input_from_memory(&in, "fuzz", buf, len, chunk);
	rc = pipeline_read(p, &in);
	input_close(&in);
	pipeline_finish(p);
	if (h->finish)
		h->finish(ctx);
	t = pipeline_tally(p);
	/* every byte read must be accounted for, and a run that was not
	 * refused (PERF_DATA_BLOCKs to a PMIM report, damaged compressed
	 * data) reads them all: the compressed ones when compressed */
	if (tally_accounted(t) != t->bytes_read ||
	    (rc == 0 && (t->compressed_in ? t->compressed_in : t->bytes_read) != len))
		abort();
	pipeline_close(p);
	sources_free(&src);
}

#endif
