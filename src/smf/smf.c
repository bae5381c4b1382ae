/* smf.c: SMF records to PM records. See smf.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ebcdic.h"
#include "smf/smf.h"

/* How far past the SMF header the first PM record may start: the product
 * header (#PMSMHDS) is not public, but it is a header, not a payload. */
#define PRODUCT_HEADER_MAX 1024
#define SOURCE_RAW_MAX 64
/* IFASMFDP and IFASMFDL open a dump with one and close it with the other */
#define SMF_TYPE_DUMP_HEADER 2
#define SMF_TYPE_DUMP_TRAILER 3

struct smf_reader {
	struct smf_opts o;
	const struct pmint *pm;
	struct sources *sources;
	struct diag *diag;
	struct conv *conv;        /* the default code page's: NULL until needed */
	bool conv_failed;         /* and it could not be opened */
	const struct smfhdr *hdr;
	long last_offset;         /* where the last record's PM chain began */
	int64_t dump_header_at;   /* offset of the open dump's header, or -1 */
	/* The first SMF record of PM data read: what lay between its SMF
	 * header and its chain, kept until the next record's chain shows
	 * whether that was product header or damaged PM records. */
	struct {
		bool pending;
		uint64_t offset;      /* of the SMF record */
		bool contiguous;
		size_t hdr_len, chain_at;
		uint8_t bytes[PRODUCT_HEADER_MAX]; /* its [hdr_len, chain_at) */
	} first;
	/* the last system id (and CV name) seen, raw, and its source id */
	uint8_t last_raw[SOURCE_RAW_MAX];
	size_t last_raw_len;
	uint32_t last_source;
	struct smf_edges edges;   /* for a range of an input (smf.h) */
};

pm_status
smf_open(struct smf_reader **out, const struct smf_opts *o,
         const struct pmint *pm, const struct smfhdr *hdr, struct sources *src,
         struct diag *d)
{
	struct smf_reader *r = calloc(1, sizeof *r);
	pm_status st;

	*out = NULL;
	if (!r)
		return PM_E_NOMEM;
	r->o = *o;
	r->pm = pm;
	r->hdr = hdr;
	r->sources = src;
	r->diag = d;
	r->last_offset = -1;
	r->dump_header_at = -1;
	if (strcmp(o->codepage, SMF_CODEPAGE_DEFAULT) != 0 &&
	    (st = conv_open(&r->conv, o->codepage, "UTF-8")) != PM_OK) {
		smf_close(r);
		return st;
	}
	*out = r;
	return PM_OK;
}

void
smf_close(struct smf_reader *r)
{
	if (r) {
		conv_close(r->conv);
		free(r);
	}
}

bool
smf_want(const uint8_t *head, size_t head_len, void *ctx)
{
	const struct smf_reader *r = ctx;
	uint8_t type;
	return be_u8(span_make(head, head_len), r->hdr->rty->offset, &type) &&
	       type == r->o.type;
}

/* Whether the PM records from off chain exactly to the end of rec, each one
 * looking like a PM record: plausible length, type, part and version. */
static bool
chain_fits(const struct smf_reader *r, struct span rec, size_t off)
{
	size_t n = 0, len;

	for (; off < rec.len; off += len, n++)
		if (!pmint_record_plausible(r->pm, span_sub(rec, off, rec.len - off), &len))
			return false;
	return n > 0;
}

/* The first offset from which a chain fits. Never the last record's
 * offset first: a chain from any of its PM records but the first fits too,
 * so an offset too large would skip leading PM records without a word. */
static long
find_pm_offset(struct smf_reader *r, struct span rec, size_t hdr_len)
{
	size_t last = hdr_len + PRODUCT_HEADER_MAX;

	if (r->o.pm_offset >= 0)
		return chain_fits(r, rec, (size_t)r->o.pm_offset) ? r->o.pm_offset : -1;
	if (last > rec.len)
		last = rec.len;
	for (size_t off = hdr_len; off < last; off++)
		if (chain_fits(r, rec, off))
			return (long)off;
	return -1;
}

/* Whether rest, room bytes before a chain that was found, starts with the
 * header of a PM record whose length alone was damaged: a PM record's type
 * and part, and room for a PM record. Product header text holds no such
 * bytes (pmimgen writes EBCDIC text, every byte at least x'40'). */
static bool
damaged_length_at(const struct smf_reader *r, struct span rest, size_t room)
{
	return room >= pmint_min_len(r->pm) && pmint_type_plausible(r->pm, rest);
}

/* Whether a PM record could start at off, before the chain found at
 * chain_at: a length that fits the rest of the record, or a damaged one.
 * A product header does not look like this (its text makes a length past
 * any PM data; the monitor writes a fixed DSECT), so where the last
 * record's chain began and this one's does not, a PM record there was
 * damaged, not a longer header. */
static bool
pm_record_starts(const struct smf_reader *r, struct span rec, size_t off,
                 size_t chain_at)
{
	struct span rest = span_sub(rec, off, rec.len - off);
	size_t len;
	unsigned type;

	return (pmint_peek(r->pm, rest, &len, &type) == PM_OK &&
	        len >= pmint_min_len(r->pm) && len <= rest.len) ||
	       damaged_length_at(r, rest, chain_at - off);
}

/* Whether an interval record's header starts at off: its type, a part
 * number, the current version and two packed dates. No product header
 * holds that by chance. */
static bool
interval_header_at(const struct smf_reader *r, struct span rec, size_t off)
{
	return pmint_interval_header_at(r->pm, span_sub(rec, off, rec.len - off));
}

/* Where PM records were lost before the chain found at off, or -1: where
 * the last record's chain began, if a PM record starts there; else the
 * first interval record header before off. */
static long
lost_records_at(const struct smf_reader *r, struct span rec, size_t hdr_len,
                long before, long off)
{
	if (before >= (long)hdr_len && before < off &&
	    pm_record_starts(r, rec, (size_t)before, (size_t)off))
		return before;
	for (long at = (long)hdr_len; at < off; at++)
		if (interval_header_at(r, rec, (size_t)at))
			return at;
	return -1;
}

/* Bytes of the first SMF record of PM data found to have been damaged PM
 * records, [from, chain_at) of it, once read as product header: now
 * reported, and counted as damaged instead of used. */
static void
first_record_damaged(struct smf_reader *r, size_t from, struct tally *t)
{
	size_t n = r->first.chain_at - from;

	diag_at(r->diag, PM_E_PM_CHAIN, (int64_t)(r->first.contiguous ?
	        r->first.offset + from : r->first.offset),
	        "the PM records from offset %zu of the first SMF record of PM "
	        "data do not chain, as the next one's from there show; %zu bytes "
	        "were skipped to the chain from offset %zu", from, n,
	        r->first.chain_at);
	t->used -= n;
	t->damaged += n;
	t->damaged_records++;
}

/* With no earlier chain to go by, the first record of PM data keeps what
 * it took for product header; the next record's chain, found where the
 * first one's bytes hold a PM record's type, shows they were PM records
 * whose chain was damaged. */
static void
check_first_record(struct smf_reader *r, const struct fr_record *rec,
                   struct span s, size_t hdr_len, long before, long off,
                   struct tally *t)
{
	struct span kept = span_make(r->first.bytes,
	                             r->first.chain_at - r->first.hdr_len);
	size_t at = (size_t)off;

	if (r->first.pending) {
		r->first.pending = false;
		if (hdr_len == r->first.hdr_len && at > hdr_len &&
		    at < r->first.chain_at &&
		    damaged_length_at(r, span_sub(kept, at - hdr_len,
		                                  kept.len - (at - hdr_len)),
		                      r->first.chain_at - at))
			first_record_damaged(r, at, t);
	} else if (before < 0 && at > hdr_len) {
		r->first.pending = true;
		r->first.offset = rec->offset;
		r->first.contiguous = rec->contiguous;
		r->first.hdr_len = hdr_len;
		r->first.chain_at = at;
		memcpy(r->first.bytes, s.p + hdr_len, at - hdr_len);
	}
}

/* The open dump ends at offset without its trailer. */
static void
dump_unended(struct smf_reader *r, uint64_t offset)
{
	diag_at(r->diag, PM_E_NO_DUMP_TRAILER, (int64_t)offset,
	        "the dump from offset %lld (its SMF type %u header) ends here "
	        "without an SMF type %u trailer", (long long)r->dump_header_at,
	        SMF_TYPE_DUMP_HEADER, SMF_TYPE_DUMP_TRAILER);
	r->dump_header_at = -1;
}

/* Dump headers and trailers pair up within one input. */
static void
note_dump_record(struct smf_reader *r, unsigned type, uint64_t offset)
{
	if ((type == SMF_TYPE_DUMP_HEADER || type == SMF_TYPE_DUMP_TRAILER) &&
	    !r->edges.dump_seen) {
		r->edges.dump_seen = true;
		r->edges.opens_with_header = type == SMF_TYPE_DUMP_HEADER;
	}
	if (type == SMF_TYPE_DUMP_HEADER) {
		if (r->dump_header_at >= 0)
			dump_unended(r, offset);
		r->dump_header_at = (int64_t)offset;
	} else if (type == SMF_TYPE_DUMP_TRAILER) {
		r->dump_header_at = -1;
	}
}

void
smf_input_end(struct smf_reader *r, uint64_t end)
{
	if (r->dump_header_at >= 0)
		dump_unended(r, end);
	/* its bytes are accounted in this input's tally */
	r->first.pending = false;
}

/* The first SMF record of PM data read, its chain found at off: after
 * which earlier chains lost_records_at would find PM records lost. */
static void
note_first_chain(struct smf_reader *r, struct span rec, size_t hdr_len, long off)
{
	r->edges.unsure = off >= SMF_CHAIN_MAX;
	for (long b = (long)hdr_len; b < off && b < SMF_CHAIN_MAX; b++)
		if (pm_record_starts(r, rec, (size_t)b, (size_t)off))
			r->edges.lost_after[b / 8] |= (uint8_t)(1u << (b % 8));
}

void
smf_edges(const struct smf_reader *r, struct smf_edges *e)
{
	*e = r->edges;
	e->dump_open = r->dump_header_at;
	e->last_chain = r->last_offset;
}

bool
smf_edges_lost_after(const struct smf_edges *e, long chain)
{
	if (!e->chain_seen || chain < 0)
		return false;
	return e->unsure || (chain < SMF_CHAIN_MAX &&
	                     (e->lost_after[chain / 8] >> (chain % 8) & 1));
}

/* The source id for the record's system id (and CV name): converted from
 * EBCDIC only when it differs from the last record's. */
static pm_status
record_source(struct smf_reader *r, struct span rec, uint32_t *id)
{
	struct span sid = span_sub(rec, r->hdr->sid->offset, r->hdr->sid->length);
	struct span cv = span_sub(rec, r->o.cv_offset, r->o.cv_length);
	uint8_t raw[SOURCE_RAW_MAX];
	size_t raw_len = sid.len + cv.len;
	char name[SOURCE_NAME_MAX];
	size_t n;
	pm_status st;

	if (raw_len > sizeof raw)
		raw_len = sizeof raw;
	memcpy(raw, sid.p, sid.len);
	memcpy(raw + sid.len, cv.p, raw_len - sid.len);
	if (raw_len == r->last_raw_len && memcmp(raw, r->last_raw, raw_len) == 0) {
		*id = r->last_source;
		return PM_OK;
	}
	if (!r->conv && (r->conv_failed ||
	                 (r->conv_failed = conv_open(&r->conv, r->o.codepage, "UTF-8") != PM_OK)))
		return PM_E_CODEPAGE;
	n = conv_text(r->conv, sid.p, sid.len, name, sizeof name);
	if (r->o.cv_length && n + 2 < sizeof name) {
		name[n++] = '/';
		n += conv_text(r->conv, cv.p, cv.len, name + n, sizeof name - n);
	}
	if ((st = sources_intern(r->sources, name, n, id)) != PM_OK)
		return st;
	memcpy(r->last_raw, raw, raw_len);
	r->last_raw_len = raw_len;
	r->last_source = *id;
	return PM_OK;
}

void
smf_record(struct smf_reader *r, const struct fr_record *rec, struct pm_stage *pm)
{
	struct span s = span_make(rec->data, rec->len);
	struct tally *t = pm->tally;
	uint8_t type = 0, flag = 0;
	size_t hdr_len;
	uint32_t source;
	long off, before, header_end, lost;
	pm_status st;

	(void)be_u8(span_make(rec->head, rec->head_len), r->hdr->rty->offset, &type);
	t->records[KIND_SMF][type]++;
	t->bytes[KIND_SMF][type] += rec->input_bytes;
	note_dump_record(r, type, rec->offset);
	if (rec->data == NULL || type != r->o.type) {
		t->skipped += rec->input_bytes;
		return;
	}
	(void)be_u8(s, r->hdr->flg->offset, &flag);
	hdr_len = (flag & r->hdr->ext_flag) ? r->hdr->ext_len : r->hdr->std_len;
	if (s.len < hdr_len) {
		t->damaged += rec->input_bytes;
		t->damaged_records++;
		diag_at(r->diag, PM_E_SMF_HEADER, (int64_t)rec->offset,
		        "%zu bytes, header needs %zu", s.len, hdr_len);
		return;
	}
	before = r->last_offset;
	off = find_pm_offset(r, s, hdr_len);
	if (off < 0) {
		t->damaged += rec->input_bytes;
		t->damaged_records++;
		diag_at(r->diag, PM_E_NO_PM_OFFSET, (int64_t)rec->offset,
		        "SMF type %u record of %zu bytes skipped", type, s.len - 4);
		return;
	}
	if ((st = record_source(r, s, &source)) != PM_OK) {
		t->damaged += rec->input_bytes;
		t->damaged_records++;
		if (st == PM_E_CODEPAGE)
			diag_at(r->diag, st, (int64_t)rec->offset, "--codepage=%s", r->o.codepage);
		else
			diag_at(r->diag, st, (int64_t)rec->offset, NULL);
		return;
	}
	if (!r->edges.chain_seen && r->o.pm_offset < 0)
		note_first_chain(r, s, hdr_len, off);
	r->edges.chain_seen = true;
	r->last_offset = off;
	header_end = off;
	if (r->o.pm_offset < 0 && off != before &&
	    (lost = lost_records_at(r, s, hdr_len, before, off)) >= 0) {
		diag_at(r->diag, PM_E_PM_CHAIN, (int64_t)(rec->contiguous ?
		        rec->offset + (uint64_t)lost : rec->offset),
		        "the PM records from offset %ld of the SMF record do not "
		        "chain; %ld bytes skipped to the chain from offset %ld",
		        lost, off - lost, off);
		t->damaged += (uint64_t)(off - lost);
		t->damaged_records++;
		header_end = lost;
	} else if (r->o.pm_offset < 0) {
		check_first_record(r, rec, s, hdr_len, before, off, t);
	}
	/* descriptors, SMF header and product header */
	t->used += rec->input_bytes - (s.len - (size_t)header_end);
	pm_stage_chain(pm, span_sub(s, (size_t)off, s.len - (size_t)off), source,
	               rec->contiguous ? rec->offset + (uint64_t)off : rec->offset);
}
