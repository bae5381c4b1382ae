/* pipeline.c: the reading stages wired together. See pipeline.h. */
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "pmim/pm_stage.h"
#include "pipeline.h"
#include "winperf/census.h"
#include "winperf/cook.h"
#include "winperf/stream.h"

struct pipeline {
	struct pipeline_opts o;
	struct diag *diag;
	struct tally total;
	struct tally file;    /* the input being read */
	struct sources *sources;
	struct smfhdr smfhdr;
	struct fr_records records; /* what the framer must know of records */
	struct pm_peeked peeked;   /* their ctx: a PM stream's last header */
	uint32_t label_source;
	bool label_named;     /* label_source holds the label's id */
	struct pm_stage stage;
	struct smf_reader *smf;
	struct reasm *reasm;
	struct coverage *coverage;
	struct framer *fr;    /* while an input is read */
	int64_t *last_start;  /* for the PM stage, with a zone */
	uint64_t records_read; /* logical records read in the run */
	uint64_t resumed_at, stopped_at; /* the last input's (pipeline_edges) */
	struct wp_stream *perf; /* the PERF_DATA_BLOCK reader */
	struct census census;
	struct wp_cook *cook;   /* snapshots into series, for a series report */
	bool priming;           /* pipeline_prime reads */
	struct pipeline_system *systems; /* by source id */
	size_t nsystems;
};

void
pipeline_defaults(struct pipeline_opts *o)
{
	memset(o, 0, sizeof *o);
	o->framing = FRAMING_AUTO;
	o->smf.type = 230;
	o->smf.pm_offset = -1;
	o->smf.codepage = SMF_CODEPAGE_DEFAULT;
	o->max_record = 16u << 20;
	o->max_pending = 1024;
	o->max_interval = PM_UNITS_PER_DAY;
	o->max_sources = 4096;
	o->max_coverage = 1000000;
	/* the framer's least: the kernel copies each read into a buffer that
	 * stays in the L2 cache, for sparse input the most of the work */
	o->buffer_size = 512u << 10;
}

/* Where the snapshots of system source were, grown to hold it. */
static struct pipeline_system *
system_at(struct pipeline *p, uint32_t source)
{
	size_t had = p->nsystems;

	if (source >= had) {
		if (!grow_table((void **)&p->systems, &p->nsystems, (size_t)source + 1,
		                sizeof *p->systems))
			return NULL;
		for (size_t i = had; i < p->nsystems; i++)
			p->systems[i] = (struct pipeline_system){ PIPELINE_NONE, PIPELINE_NONE };
	}
	return &p->systems[source];
}

/* A snapshot into the census and the cook, or when priming, into the cook
 * as the previous one alone; a system over --max-sources is damage. */
static void
take_snapshot(const struct wp_snapshot *s, uint64_t offset, void *ctx)
{
	struct pipeline *p = ctx;
	struct pipeline_system *y;
	uint32_t source;
	pm_status st;

	if (p->priming) {
		st = sources_intern(p->sources, s->system, strlen(s->system), &source);
		if (st == PM_OK && p->cook)
			st = wp_cook_prime(p->cook, s);
	} else {
		st = wp_census_add(&p->census, p->sources, s, &source);
		if (st == PM_OK && p->cook)
			st = wp_cook_add(p->cook, s, p->diag->file);
	}
	if (st == PM_OK && !(y = system_at(p, source)))
		st = PM_E_NOMEM;
	if (st != PM_OK)
		diag_at(p->diag, st, (int64_t)offset, "system '%s'", s->system);
	else if (p->priming)
		y->primed = offset;
	else
		y->last = offset;
}

/* For runs that only count records (the inventory). */
static void
drop_interval(const struct interval *iv, void *ctx)
{
	(void)iv;
	(void)ctx;
}

pm_status
pipeline_open(struct pipeline **out, const struct pipeline_opts *o,
              const struct pmint *pm, struct sources *src, interval_fn emit,
              void *ctx, struct diag *d)
{
	struct pipeline *p = calloc(1, sizeof *p);
	struct reasm_opts ro = { o->max_pending, o->max_pending * 4, NULL, o->zone };
	struct coverage_opts co = { o->max_coverage, o->zone };
	pm_status st;

	*out = NULL;
	if (!p)
		return PM_E_NOMEM;
	census_init(&p->census);
	p->o = *o;
	p->diag = d;
	p->sources = src;
	if ((st = smfhdr_load(&p->smfhdr, NULL, 0)) != PM_OK)
		goto fail;
	p->records.pm_length = pmint_record_length;
	p->records.pm_peek = pmint_peek_len(pm);
	p->peeked.pm = pm;
	p->records.pm_ctx = &p->peeked;
	p->records.smf_header = smfhdr_plausible;
	p->records.smf_ctx = &p->smfhdr;
	if (!emit) {
		emit = drop_interval;
		p->stage.figures_unread = true;
	}
	if ((st = smf_open(&p->smf, &o->smf, pm, &p->smfhdr, src, d)) != PM_OK ||
	    (st = coverage_open(&p->coverage, &co, src, d, &p->total)) != PM_OK)
		goto fail;
	ro.coverage = p->coverage;
	if ((st = reasm_open(&p->reasm, pm, &ro, emit, ctx, d, &p->total)) != PM_OK)
		goto fail;
	if (o->zone) {
		p->stage.zone = o->zone;
		p->stage.nsources = o->max_sources;
		if (!(p->stage.last_start = p->last_start =
		      calloc(o->max_sources, sizeof *p->last_start))) {
			st = PM_E_NOMEM;
			goto fail;
		}
	}
	p->stage.pm = pm;
	p->stage.reasm = p->reasm;
	p->stage.diag = d;
	p->stage.tally = &p->total;
	p->stage.max_interval = o->max_interval;
	if ((st = wp_stream_open(&p->perf, o->max_record, take_snapshot, p)) != PM_OK ||
	    (o->series && (st = wp_cook_open(&p->cook, src, o->perf_names, o->series,
	                                     o->series_ctx)) != PM_OK))
		goto fail;
	*out = p;
	return PM_OK;
fail:
	pipeline_close(p);
	return st;
}

/* The framer asks this before joining a spanned record: SMF content keeps
 * only the selected type; PM content keeps everything. */
static bool
want_record(const uint8_t *head, size_t head_len, void *ctx)
{
	struct pipeline *p = ctx;
	if (p->fr == NULL || framer_content(p->fr) != CONTENT_SMF)
		return true;
	return smf_want(head, head_len, p->smf);
}

/* The source of PM streams is named when the first PM stream is read, so
 * that it takes a place among max_sources only when there is one. */
static bool
name_label(struct pipeline *p, const struct fr_record *rec)
{
	const char *label = p->o.source_label ? p->o.source_label : "";
	pm_status st;

	if (p->label_named)
		return true;
	st = sources_intern(p->sources, label, strlen(label), &p->label_source);
	if (st == PM_OK)
		return p->label_named = true;
	p->file.damaged += rec->input_bytes;
	p->file.damaged_records++;
	diag_at(p->diag, st, (int64_t)rec->offset, "PM stream source '%s'", label);
	return false;
}

static void
take_record(struct pipeline *p, const struct fr_record *rec)
{
	if (framer_content(p->fr) == CONTENT_SMF) {
		smf_record(p->smf, rec, &p->stage);
	} else if (!name_label(p, rec)) {
		return;
	} else if (framer_framing(p->fr) == FRAMING_PM) {
		/* the framer asked the record's length last */
		pm_stage_peeked(&p->stage, span_make(rec->data, rec->len), &p->peeked,
		                p->label_source, rec->offset);
	} else {
		/* PM records behind RDWs: the descriptors are framing */
		p->file.used += rec->input_bytes - (rec->len - 4);
		pm_stage_chain(&p->stage, span_make(rec->data + 4, rec->len - 4),
		               p->label_source,
		               rec->contiguous ? rec->offset + 4 : rec->offset);
	}
}

/* The SMF or PM records of one input, through the framer. */
static int
read_records(struct pipeline *p, struct input *in)
{
	struct framer_opts fo = { &p->records, p->o.framing, CONTENT_AUTO,
	                          p->o.max_record, p->o.buffer_size, want_record, p,
	                          in->stop, in->origin > 0, p->o.found };
	struct fr_record rec;
	pm_status st;
	int rc = 0;

	pm_stage_new_input(&p->stage);
	p->stage.tally = &p->file;
	p->fr = framer_open(in, &fo, p->diag, &p->file, &st);
	if (!p->fr) {
		/* nothing could be read as records: all of it is damaged */
		p->file.damaged += p->file.bytes_read - tally_accounted(&p->file);
		return -1;
	}
	int n;
	while ((n = framer_next(p->fr, &rec)) > 0) {
		take_record(p, &rec);
		/* the clock is looked at every 4096 records, not every one */
		if ((++p->records_read & 4095) == 0 && p->o.progress)
			progress_update(p->o.progress, input_compressed(in)
			                ? input_compressed_read(in) : framer_position(p->fr),
			                p->records_read);
	}
	if (n < 0)
		rc = -1;
	else if (!in->stop)  /* a range's dump goes on after it */
		smf_input_end(p->smf, framer_position(p->fr));
	p->resumed_at = framer_resumed_at(p->fr);
	p->stopped_at = framer_position(p->fr);
	framer_close(p->fr);
	p->fr = NULL;
	return rc;
}

enum input_kind { INPUT_EMPTY, INPUT_PERF, INPUT_RECORDS };

/* Whether in is a stream of PERF_DATA_BLOCKs: forced, or detected from
 * its first bytes (kept for whichever reader reads it). */
static enum input_kind
input_kind(struct pipeline *p, struct input *in)
{
	uint8_t head[WP_PDB_MIN];
	ssize_t n;

	if (p->o.framing == FRAMING_PERF)
		return INPUT_PERF;
	if (p->o.framing != FRAMING_AUTO)
		return INPUT_RECORDS;
	n = input_peek(in, head, sizeof head);
	if (n == 0)
		return INPUT_EMPTY;
	return n > 0 && wp_stream_detect(span_make(head, (size_t)n)) ? INPUT_PERF
	                                                              : INPUT_RECORDS;
}

/* The snapshots of one input of PERF_DATA_BLOCKs. */
static int
read_perf(struct pipeline *p, struct input *in)
{
	int rc;

	if (p->o.reads == READS_PMIM) {
		diag_at(p->diag, PM_E_PERF_REPORT, DIAG_NO_OFFSET,
		        "it holds PERF_DATA_BLOCKs, which a PMIM report does not read");
		return -1;
	}
	/* a range after a file's first goes on with the file counted */
	p->census.inputs += in->origin == 0;
	if (!census_input(&p->census, in->name)) {
		diag_at(p->diag, PM_E_NOMEM, DIAG_NO_OFFSET, "out of memory");
		return -1;
	}
	rc = wp_stream_read(p->perf, in, p->diag, &p->file);
	p->resumed_at = in->origin;
	p->stopped_at = in->origin + p->file.bytes_read;
	return rc;
}

int
pipeline_prime(struct pipeline *p, struct input *in)
{
	struct diag quiet, *d = p->diag;
	struct tally t = { 0 };
	bool said = false;
	int rc;

	diag_init(&quiet, d->progname, NULL);
	quiet.file = in->name;
	p->diag = &quiet;
	p->priming = true;
	rc = wp_stream_read(p->perf, in, &quiet, &t);
	p->priming = false;
	p->diag = d;
	for (int st = 1; st < PM_STATUS_COUNT; st++)
		said = said || quiet.count[st];
	return rc < 0 || said || t.used != t.bytes_read ? -1 : 0;
}

int
pipeline_read(struct pipeline *p, struct input *in)
{
	int rc;

	memset(&p->file, 0, sizeof p->file);
	p->diag->file = in->name;
	in->diag = p->diag;
	switch (input_kind(p, in)) {
	case INPUT_EMPTY:
		rc = p->o.reads == READS_PERF ? read_perf(p, in) : read_records(p, in);
		break;
	case INPUT_PERF:
		rc = read_perf(p, in);
		break;
	case INPUT_RECORDS:
		if (p->o.reads != READS_PERF) {
			rc = read_records(p, in);
			break;
		}
		diag_at(p->diag, PM_E_PERF_REPORT, DIAG_NO_OFFSET,
		        "it holds no PERF_DATA_BLOCKs, and a Windows report reads nothing else");
		rc = -1;
		break;
	}
	if (in->damaged)
		rc = -1;
	if (input_compressed(in)) {
		p->file.compressed_in = input_compressed_read(in);
		p->file.compressed_out = p->file.bytes_read;
	}
	if (tally_accounted(&p->file) != p->file.bytes_read)
		diag_at(p->diag, PM_E_ACCOUNTING, DIAG_NO_OFFSET,
		        "%llu bytes read, %llu accounted for",
		        (unsigned long long)p->file.bytes_read,
		        (unsigned long long)tally_accounted(&p->file));
	if (p->o.progress)
		progress_next_input(p->o.progress, input_compressed(in) ? p->file.compressed_in
		                                                         : p->file.bytes_read);
	/* intervals completed while reading count for the run */
	tally_add(&p->total, &p->file);
	p->stage.tally = &p->total;
	p->diag->file = NULL;
	return rc;
}

void
pipeline_finish(struct pipeline *p)
{
	reasm_finish(p->reasm);
	coverage_finish(p->coverage);
}

bool
pipeline_settled(const struct pipeline *p)
{
	return reasm_pending(p->reasm) == 0 && !coverage_unsaid(p->coverage);
}

const struct tally *
pipeline_tally(const struct pipeline *p)
{
	return &p->total;
}

const struct census *
pipeline_census(const struct pipeline *p)
{
	return &p->census;
}

struct coverage *
pipeline_coverage(const struct pipeline *p)
{
	return p->coverage;
}

uint64_t
pipeline_resets(const struct pipeline *p)
{
	return p->cook ? wp_cook_resets(p->cook) : 0;
}

void
pipeline_edges(const struct pipeline *p, struct pipeline_edges *e)
{
	smf_edges(p->smf, &e->smf);
	e->resumed_at = p->resumed_at;
	e->stopped_at = p->stopped_at;
	e->systems = p->systems;
	e->nsystems = p->nsystems;
}

const struct fr_records *
pipeline_records(const struct pipeline *p)
{
	return &p->records;
}

void
pipeline_close(struct pipeline *p)
{
	if (!p)
		return;
	reasm_close(p->reasm);
	coverage_close(p->coverage);
	free(p->last_start);
	smf_close(p->smf);
	smfhdr_free(&p->smfhdr);
	wp_stream_close(p->perf);
	wp_cook_close(p->cook);
	census_free(&p->census);
	free(p->systems);
	free(p);
}
