/* gen_write.c: encodings and framings of pmimgen. See gen_write.h.
 * Every field of a PM record or an SMF header is placed through the layout
 * parsed from its copybook; only the descriptor words (framing) and the
 * generator's own product header are laid out here. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "gen/gen_write.h"
#include "pmim/pmtime.h"

#define OUT_BUFFER (8u << 20)
#define FILLER_LEN ((1u << 20) + GEN_OTHER_SMF_MAX)
#define EBCDIC_BLANK 0x40
/* SMFFLG as the real dumps in shared/data show it (x'1E': written by
 * MVS/SP V4 and later), with SMF$STY added for records with subtypes. */
#define SMF_FLAGS 0x1e
#define SDW_FIRST 1
#define SDW_LAST 2
#define SDW_MIDDLE 3
#define BDW_EXTENDED 0x80000000u

/* ---- the SMF header layout */

pm_status
gen_smf_check(const struct smfhdr *s, char *err, size_t errlen)
{
	if (s->len->offset != 0 || s->seg->offset != s->len->length ||
	    s->seg->offset + s->seg->length != GEN_DESC_LEN) {
		snprintf(err, errlen, "SMF header layout: SMFLEN and SMFSEG are not the %d-byte RDW",
		         GEN_DESC_LEN);
		return PM_E_LAYOUT;
	}
	return PM_OK;
}

/* ---- filler */

pm_status
gen_filler_init(struct gen_filler *f, struct gen_rng *r)
{
	f->len = FILLER_LEN;
	f->bytes = malloc(f->len);
	if (!f->bytes)
		return PM_E_NOMEM;
	for (size_t i = 0; i < f->len; i += 8)
		put_be(f->bytes + i, f->len - i < 8 ? (unsigned)(f->len - i) : 8,
		       gen_rng_next(r));
	return PM_OK;
}

void
gen_filler_copy(const struct gen_filler *f, struct gen_rng *r, uint8_t *dst,
                size_t n)
{
	memcpy(dst, f->bytes + gen_rng_below(r, f->len - n + 1), n);
}

void
gen_filler_free(struct gen_filler *f)
{
	free(f->bytes);
	f->bytes = NULL;
}

/* ---- output and framing */

static void
out_write(struct gen_writer *w, const void *p, size_t n)
{
	if (n == 0 || w->error)
		return;
	errno = 0;
	if (fwrite(p, 1, n, w->fp) != n)
		w->error = errno ? errno : EIO;
	w->flushed += n;
}

static void
out_put(struct gen_writer *w, const void *p, size_t n)
{
	if (n > w->cap - w->len) {
		out_write(w, w->buf, w->len);
		w->len = 0;
		if (n >= w->cap) {
			out_write(w, p, n);
			return;
		}
	}
	memcpy(w->buf + w->len, p, n);
	w->len += n;
}

pm_status
gen_write_open(struct gen_writer *w, FILE *fp, enum gen_framing framing,
               size_t block_size, enum gen_xbdw xbdw)
{
	memset(w, 0, sizeof *w);
	w->fp = fp;
	w->framing = framing;
	w->block_size = block_size;
	w->xbdw = xbdw;
	w->block_used = GEN_DESC_LEN;
	w->cap = OUT_BUFFER;
	w->buf = malloc(w->cap);
	if (framing == GEN_BDW)
		w->block = malloc(block_size);
	if (!w->buf || (framing == GEN_BDW && !w->block)) {
		free(w->buf);
		free(w->block);
		return PM_E_NOMEM;
	}
	return PM_OK;
}

static void
close_block(struct gen_writer *w)
{
	if (w->block_used == GEN_DESC_LEN)
		return;
	if (w->framing == GEN_BDW) {
		if (w->xbdw == GEN_XBDW_ALL ||
		    (w->xbdw == GEN_XBDW_LARGE && w->block_used > GEN_BLOCK_MAX)) {
			put_be(w->block, 4, BDW_EXTENDED | (uint32_t)w->block_used);
		} else {
			put_be(w->block, 2, w->block_used);
			put_be(w->block + 2, 2, 0);
		}
		out_put(w, w->block, w->block_used);
		w->inv.blocks++;
		w->inv.block_bytes += w->block_used;
	}
	w->block_used = GEN_DESC_LEN;
}

/* A segment (or an unspanned record) behind its descriptor word. */
static void
put_segment(struct gen_writer *w, unsigned code, const uint8_t *data, size_t n)
{
	uint8_t desc[GEN_DESC_LEN] = { 0 };

	put_be(desc, 2, n + GEN_DESC_LEN);
	desc[2] = (uint8_t)code;
	if (w->framing == GEN_BDW) {
		memcpy(w->block + w->block_used, desc, GEN_DESC_LEN);
		memcpy(w->block + w->block_used + GEN_DESC_LEN, data, n);
	} else {
		out_put(w, desc, GEN_DESC_LEN);
		out_put(w, data, n);
	}
	w->inv.segments[code]++;
	w->inv.segment_bytes[code] += n + GEN_DESC_LEN;
}

void
gen_write_smf_record(struct gen_writer *w, unsigned type, const uint8_t *rec,
                     size_t len)
{
	const uint8_t *body = rec + GEN_DESC_LEN;
	size_t n = len - GEN_DESC_LEN, done = 0;
	uint64_t bytes = 0;

	/* As QSAM writes VBS: a segment starts wherever its SDW and one byte
	 * fit, otherwise the block is ended short. */
	do {
		size_t space = w->block_size - w->block_used, chunk = n - done;
		bool first = done == 0, last;

		if (space < GEN_DESC_LEN + 1) {
			close_block(w);
			continue;
		}
		if (chunk > space - GEN_DESC_LEN)
			chunk = space - GEN_DESC_LEN;
		if (chunk > GEN_SEG_MAX - GEN_DESC_LEN)
			chunk = GEN_SEG_MAX - GEN_DESC_LEN;
		last = done + chunk == n;
		put_segment(w, first && last ? 0 : first ? SDW_FIRST :
		               last ? SDW_LAST : SDW_MIDDLE, body + done, chunk);
		w->block_used += chunk + GEN_DESC_LEN;
		bytes += chunk + GEN_DESC_LEN;
		done += chunk;
	} while (done < n);
	w->inv.smf_records[type & 0xff]++;
	w->inv.smf_bytes[type & 0xff] += bytes;
}

void
gen_write_count_pm(struct gen_writer *w, unsigned type, size_t len)
{
	w->inv.pm_records[type & 0xff]++;
	w->inv.pm_bytes[type & 0xff] += len;
}

void
gen_write_pm_record(struct gen_writer *w, unsigned type, const uint8_t *rec,
                    size_t len)
{
	if (w->framing == GEN_RDW_PM)
		put_segment(w, 0, rec, len);
	else
		out_put(w, rec, len);
	gen_write_count_pm(w, type, len);
}

uint64_t
gen_write_bytes(const struct gen_writer *w)
{
	uint64_t pending = w->framing == GEN_BDW && w->block_used > GEN_DESC_LEN ?
	                   w->block_used : 0;
	return w->flushed + w->len + pending;
}

pm_status
gen_write_close(struct gen_writer *w)
{
	if (w->framing == GEN_BDW || w->framing == GEN_RDW)
		close_block(w);
	out_write(w, w->buf, w->len);
	w->len = 0;
	if (!w->error && fflush(w->fp) != 0)
		w->error = errno ? errno : EIO;
	free(w->buf);
	free(w->block);
	w->buf = w->block = NULL;
	return w->error ? PM_E_WRITE : PM_OK;
}

/* ---- EBCDIC names */

static int
ebcdic_of(char c)
{
	if (c >= 'A' && c <= 'I')
		return 0xc1 + (c - 'A');
	if (c >= 'J' && c <= 'R')
		return 0xd1 + (c - 'J');
	if (c >= 'S' && c <= 'Z')
		return 0xe2 + (c - 'S');
	if (c >= '0' && c <= '9')
		return 0xf0 + (c - '0');
	switch (c) {
	case '@': return 0x7c;
	case '#': return 0x7b;
	case '$': return 0x5b;
	case ' ': return EBCDIC_BLANK;
	}
	return -1;
}

bool
gen_ebcdic_name_ok(const char *text, size_t max)
{
	size_t n = strlen(text);

	if (n == 0 || n > max)
		return false;
	for (size_t i = 0; i < n; i++)
		if (text[i] == ' ' || ebcdic_of(text[i]) < 0)
			return false;
	return true;
}

void
gen_ebcdic_put(uint8_t *dst, size_t width, const char *text)
{
	size_t i = 0;

	for (; i < width && text[i]; i++) {
		int e = ebcdic_of(text[i]);
		dst[i] = (uint8_t)(e < 0 ? EBCDIC_BLANK : e);
	}
	memset(dst + i, EBCDIC_BLANK, width - i);
}

/* ---- PM records */

/* A stamp as a packed date (0cyydddF) and a time of day in 10**-4 s. */
static void
stamp_split(int64_t stamp, uint32_t *pdate, uint32_t *tod_e4)
{
	int64_t days = stamp / PM_UNITS_PER_DAY;
	int year;
	unsigned month, day, hour, minute, second;

	if (stamp % PM_UNITS_PER_DAY < 0)
		days--;
	pmtime_civil(stamp, &year, &month, &day, &hour, &minute, &second);
	*pdate = pmtime_pdate_encode(year, (int)(days - pmtime_days_from_civil(year, 1, 1) + 1));
	*tod_e4 = (uint32_t)(stamp - days * PM_UNITS_PER_DAY);
}

static void
put_field(uint8_t *rec, const struct cb_field *f, uint64_t v)
{
	put_be(rec + f->offset, (unsigned)f->length, v);
}

/* The common header fields that fit in len bytes. */
static void
put_pm_header(const struct pmint *pm, uint8_t *rec, size_t len, unsigned type,
              unsigned seq, int64_t start, int64_t end)
{
	uint32_t sdate, stime, edate, etime;
	const int idx[8] = { pm->f_len, pm->f_type, pm->f_seq, pm->f_ver,
	                     pm->f_sdate, pm->f_stime, pm->f_edate, pm->f_etime };
	uint64_t v[8];

	stamp_split(start, &sdate, &stime);
	stamp_split(end, &edate, &etime);
	v[0] = len;
	v[1] = type;
	v[2] = seq;
	v[3] = pm->current_version;
	v[4] = sdate;
	v[5] = stime;
	v[6] = edate;
	v[7] = etime;
	for (int i = 0; i < 8; i++) {
		const struct cb_field *f = &pm->lay.fields[idx[i]];
		if (f->offset + f->length <= len)
			put_field(rec, f, v[i]);
	}
}

void
gen_enc_interval_part(const struct pmint *pm, const struct gen_interval *iv,
                      unsigned part, uint8_t *dst, const struct tzone *zone)
{
	memset(dst, 0, pm->part_len[part]);
	put_pm_header(pm, dst, pm->part_len[part], pm->interval_type, part,
	              tzone_local(zone, iv->start), tzone_local(zone, iv->end));
	for (size_t i = 0; i < pm->nitems[part]; i++) {
		const struct pm_item *it = &pm->items[part][i];
		put_be(dst + it->offset, it->width, iv->v[it->field]);
	}
}

/* PM record kinds other than the interval record. Their type codes and
 * lengths are not public (FORMATS.md 4): these are made up, in the range
 * real ones have. */
static const struct {
	unsigned type, parts;
	uint16_t len[3];
} other_pm[] = {
	{ 1, 2, { 0x60, 0x98 } },         /* like #PMARA: area waits */
	{ 2, 1, { 0x40 } },               /* like #PMBUF: buffers */
	{ 3, 3, { 0x48, 0x120, 0x190 } }, /* like #PMTAS: tasks */
	{ 4, 1, { 0x10 } },
	{ 6, 1, { 0x30 } },
	{ 7, 2, { 0x84, 0x28 } },
};

size_t
gen_enc_other_pm(const struct pmint *pm, uint8_t *dst, int64_t stamp,
                 struct gen_rng *r, const struct gen_filler *f, unsigned *type)
{
	size_t k, len;
	unsigned part;

	do
		k = gen_rng_below(r, sizeof other_pm / sizeof other_pm[0]);
	while (other_pm[k].type == pm->interval_type);
	part = (unsigned)gen_rng_below(r, other_pm[k].parts);
	len = other_pm[k].len[part];
	gen_filler_copy(f, r, dst, len);
	memset(dst, 0, len < pm->header_len ? len : pm->header_len);
	put_pm_header(pm, dst, len, other_pm[k].type, part + 1, stamp, stamp);
	*type = other_pm[k].type;
	return len;
}

/* ---- SMF records */

size_t
gen_enc_smf_header(const struct smfhdr *s, uint8_t *rec, unsigned type,
                   int64_t stamp, const char *sysid, const char *ssi,
                   unsigned subtype)
{
	size_t len = ssi ? s->ext_len : s->std_len;
	uint32_t pdate, tod_e4;

	stamp_split(stamp, &pdate, &tod_e4);
	memset(rec + GEN_DESC_LEN, 0, len - GEN_DESC_LEN);
	put_field(rec, s->flg, SMF_FLAGS | (ssi ? (unsigned)s->ext_flag : 0));
	put_field(rec, s->rty, type);
	put_field(rec, s->tme, tod_e4 / (PM_UNITS_PER_SECOND / 100));
	put_field(rec, s->dte, pdate);
	gen_ebcdic_put(rec + s->sid->offset, s->sid->length, sysid);
	if (ssi) {
		gen_ebcdic_put(rec + s->ssi->offset, s->ssi->length, ssi);
		put_field(rec, s->sty, subtype);
	}
	return len;
}

void
gen_enc_product_header(uint8_t *dst, size_t len, const char *cv, uint64_t seqno,
                       struct gen_rng *r)
{
	size_t i = GEN_PH_MIN;

	gen_ebcdic_put(dst, GEN_PH_CV_OFFSET, "PMIM");
	gen_ebcdic_put(dst + GEN_PH_CV_OFFSET, GEN_CV_LEN, cv);
	/* a record number in zoned decimal, then EBCDIC-range noise */
	for (uint64_t scale = 10000000; scale && i < len; scale /= 10)
		dst[i++] = (uint8_t)(0xf0 + seqno / scale % 10);
	while (i < len)
		dst[i++] = (uint8_t)gen_rng_range(r, EBCDIC_BLANK, 0xff);
}

/* Other SMF record types of a busy z/OS system, and the range of their
 * sizes (record length, RDW included): most are short, a few long enough
 * to span even without blocks. */
static const struct {
	unsigned type;
	const char *ssi;
	unsigned subtypes;
	unsigned min, max;
	unsigned weight;
} other_smf[] = {
	{ 30, "JES2", 5, 600, 3000, 30 },  /* address space accounting */
	{ 70, "RMF", 2, 2000, 30000, 10 },  /* processor activity */
	{ 72, "RMF", 4, 1000, 32000, 15 },  /* workload activity */
	{ 110, "CICS", 2, 20000, GEN_OTHER_SMF_MAX, 15 },
	{ 115, "MQS1", 2, 600, 10000, 15 },
	{ 116, "MQS1", 1, 1000, GEN_OTHER_SMF_MAX, 15 },
};

size_t
gen_enc_other_smf(const struct smfhdr *s, uint8_t *rec, unsigned exclude,
                  int64_t stamp, const char *sysid, struct gen_rng *r,
                  const struct gen_filler *f, unsigned *type)
{
	const size_t n = sizeof other_smf / sizeof other_smf[0];
	unsigned total = 0;
	size_t k, len, hdr;
	uint64_t pick, u;

	for (k = 0; k < n; k++)
		total += other_smf[k].type == exclude ? 0 : other_smf[k].weight;
	pick = gen_rng_below(r, total);
	for (k = 0; k < n; k++) {
		unsigned w = other_smf[k].type == exclude ? 0 : other_smf[k].weight;
		if (pick < w)
			break;
		pick -= w;
	}
	u = gen_rng_below(r, 1000);
	len = other_smf[k].min + (size_t)((other_smf[k].max - other_smf[k].min) *
	                                  u * u * u / (999 * 999 * 999));
	hdr = gen_enc_smf_header(s, rec, other_smf[k].type, stamp, sysid,
	                         other_smf[k].ssi,
	                         (unsigned)gen_rng_range(r, 1, other_smf[k].subtypes));
	gen_filler_copy(f, r, rec + hdr, len - hdr);
	*type = other_smf[k].type;
	return len;
}

/* ---- truth and inventory */

static void
csv_text(FILE *fp, const char *text)
{
	if (strpbrk(text, ",\"\r\n") == NULL) {
		fputs(text, fp);
		return;
	}
	fputc('"', fp);
	for (; *text; text++) {
		if (*text == '"')
			fputc('"', fp);
		fputc(*text, fp);
	}
	fputc('"', fp);
}

void
gen_truth_header(FILE *fp, const struct pmint *pm)
{
	fputs("source,start,end,duration_e4,parts", fp);
	for (unsigned p = 1; p <= pm->nparts; p++)
		for (size_t i = 0; i < pm->nitems[p]; i++)
			fprintf(fp, ",%s", pm->lay.fields[pm->items[p][i].field].name);
	fputc('\n', fp);
}

void
gen_truth_row(FILE *fp, const struct pmint *pm, const char *source,
              const struct gen_interval *iv, unsigned parts, const struct tzone *zone)
{
	char start[TZONE_TEXT], end[TZONE_TEXT];

	tzone_format(zone, iv->start, start);
	tzone_format(zone, iv->end, end);
	csv_text(fp, source);
	fprintf(fp, ",%s,%s,%" PRId64 ",", start, end, iv->end - iv->start);
	for (unsigned p = 1; p <= pm->nparts; p++)
		if (parts & (1u << p))
			fputc('0' + (int)p, fp);
	for (unsigned p = 1; p <= pm->nparts; p++)
		for (size_t i = 0; i < pm->nitems[p]; i++) {
			fputc(',', fp);
			if (parts & (1u << p))
				fprintf(fp, "%" PRIu64, iv->v[pm->items[p][i].field]);
		}
	fputc('\n', fp);
}

static void
inventory_rows(FILE *fp, const char *kind, const uint64_t *records,
               const uint64_t *bytes, size_t n)
{
	for (size_t t = 0; t < n; t++)
		if (records[t])
			fprintf(fp, "%s,%zu,%" PRIu64 ",%" PRIu64 "\n", kind, t,
			        records[t], bytes[t]);
}

void
gen_inventory_csv(FILE *fp, const struct gen_inventory *inv, uint64_t total)
{
	fputs("kind,type,records,bytes\n", fp);
	inventory_rows(fp, "smf", inv->smf_records, inv->smf_bytes, 256);
	inventory_rows(fp, "pm", inv->pm_records, inv->pm_bytes, 256);
	inventory_rows(fp, "segment", inv->segments, inv->segment_bytes, 4);
	if (inv->blocks)
		fprintf(fp, "block,,%" PRIu64 ",%" PRIu64 "\n", inv->blocks,
		        inv->block_bytes);
	fprintf(fp, "total,,,%" PRIu64 "\n", total);
}
