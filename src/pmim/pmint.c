/* pmint.c: the #PMINT interval record, bound to copybooks/pmintds.lst.
 * See pmint.h. The names below are the copybook's; every offset and length
 * comes from the parsed listing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/layout_text.h"
#include "pmim/pmint.h"
#include "pmim/pmtime.h"

/* x86-64 reads wait buckets four at a time where the CPU has AVX2
 * (buckets_by_four), other hosts one at a time */
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define BUCKETS_BY_FOUR 1
#endif

/* #PMINTDS's convention: a comment line with "SEQ#=n" starts part n. */
static const char *
part_comment(const char *line, unsigned *part, void *ctx)
{
	const char *seq = strstr(line, "SEQ#=");
	unsigned long n;

	(void)ctx;
	if (!seq)
		return NULL;
	n = strtoul(seq + 5, NULL, 10);
	if (n == 0 || n >= CB_MAX_PARTS)
		return "part number out of range";
	*part = (unsigned)n;
	return NULL;
}

static int
contains(const char *hay, const char *needle)
{
	return strstr(hay, needle) != NULL;
}

/* Units from the DS type and the comment, as #PMINTDS writes them. */
static enum cb_units
units_of(char type, const char *desc)
{
	if (contains(desc, "10**-4 SEC"))
		return CB_UNITS_TIME_E4;
	if (contains(desc, "10**-2 SEC"))
		return CB_UNITS_TIME_E2;
	if (contains(desc, " TOD") || strncmp(desc, "TOD", 3) == 0)
		return CB_UNITS_TOD;
	if (type == 'P' && contains(desc, "DATE"))
		return CB_UNITS_PDATE;
	if (type == 'C')
		return CB_UNITS_TEXT;
	if (desc[0] == '#')
		return CB_UNITS_COUNT;
	return CB_UNITS_NONE;
}

/* Whether fields i+1..i+3 are the LT, LH and L# of the bucket labelled by
 * field i; their indices into idx. */
static bool
bucket_triple(const struct layout *lay, size_t i, int idx[3])
{
	static const char suffix[3] = { 'T', 'H', '#' };
	const struct cb_field *f = &lay->fields[i];
	size_t n = strlen(f->name);

	if (f->length != 0 || f->type != 'F' || i + 3 >= lay->nfields)
		return false;
	for (size_t k = 0; k < 3; k++) {
		const struct cb_field *g = &lay->fields[i + 1 + k];
		if (g->length != 4 || strncmp(g->name, f->name, n) != 0 ||
		    g->name[n] != suffix[k] || g->name[n + 1] != '\0')
			return false;
		idx[k] = (int)(i + 1 + k);
	}
	return true;
}

/* The wait buckets: every DS 0F label followed by its triple. */
static pm_status
find_buckets(struct layout *lay, char *err, size_t errlen)
{
	for (size_t i = 0; i < lay->nfields; i++) {
		const struct cb_field *f = &lay->fields[i];
		struct cb_bucket *b;
		int idx[3];
		pm_status st;

		if (!bucket_triple(lay, i, idx))
			continue;
		if ((st = layout_add_bucket(lay, f->name, &b, err, errlen)) != PM_OK)
			return st;
		memcpy(b->label, f->name, sizeof b->label);
		memcpy(b->desc, f->desc, sizeof b->desc);
		b->part = f->part;
		b->sum = idx[0];
		b->high = idx[1];
		b->count = idx[2];
	}
	return PM_OK;
}

/* Whether field f is decoded for its part: a named binary field of a part
 * with a width a getter can read. The common header is read separately. */
static bool
is_item(const struct cb_field *f)
{
	return f->part != 0 && f->length != 0 && f->length <= 8 &&
	       (f->type == 'F' || f->type == 'H' || f->type == 'D' || f->type == 'X');
}

/* Each part's items and buckets, in tables sized from the layout: counted
 * first, then one allocation each, shared out among the parts. */
static pm_status
build_items(struct pmint *pm, char *err, size_t errlen)
{
	const struct layout *lay = &pm->lay;
	size_t nitems = 0, at[CB_MAX_PARTS] = { 0 }, bat[CB_MAX_PARTS] = { 0 };

	for (size_t i = 0; i < lay->nfields; i++)
		if (is_item(&lay->fields[i])) {
			if (lay->fields[i].offset + lay->fields[i].length > UINT16_MAX) {
				snprintf(err, errlen, "%s: field %s lies past a PM record's "
				         "longest", lay->file, lay->fields[i].name);
				return PM_E_LAYOUT;
			}
			pm->nitems[lay->fields[i].part]++;
			nitems++;
		}
	for (size_t i = 0; i < lay->nbuckets; i++)
		pm->nbuckets[lay->buckets[i].part]++;
	pm->item_store = calloc(nitems ? nitems : 1, sizeof *pm->item_store);
	pm->bucket_store = calloc(lay->nbuckets ? lay->nbuckets : 1,
	                          sizeof *pm->bucket_store);
	if (!pm->item_store || !pm->bucket_store) {
		snprintf(err, errlen, "%s: no memory for its tables", lay->file);
		return PM_E_NOMEM;
	}
	for (unsigned p = 0, n = 0, nb = 0; p < CB_MAX_PARTS; p++) {
		pm->items[p] = pm->item_store + n;
		pm->buckets[p] = pm->bucket_store + nb;
		n += (unsigned)pm->nitems[p];
		nb += (unsigned)pm->nbuckets[p];
	}
	for (size_t i = 0; i < lay->nfields; i++) {
		const struct cb_field *f = &lay->fields[i];
		struct pm_item *it;

		if (!is_item(f))
			continue;
		if (at[f->part] == 0)
			pm->items_first[f->part] = i;
		pm->items_end[f->part] = i + 1;
		it = &pm->items[f->part][at[f->part]++];
		it->field = (uint16_t)i;
		it->offset = (uint16_t)f->offset;
		it->width = (uint8_t)f->length;
	}
	for (size_t i = 0; i < lay->nbuckets; i++) {
		const struct cb_bucket *b = &lay->buckets[i];
		struct pm_bucket_fields *bf = &pm->buckets[b->part][bat[b->part]++];
		bf->sum = (uint16_t)b->sum;
		bf->high = (uint16_t)b->high;
		bf->count = (uint16_t)b->count;
		bf->bucket = (uint16_t)i;
	}
	return PM_OK;
}

/* The bucket of part p whose sum is field f, when its triple lies as
 * the runs of buckets need it: slots and bytes in order, fullwords. */
static const struct pm_bucket_fields *
bucket_at(const struct pmint *pm, unsigned p, size_t f)
{
	const struct cb_field *fs = pm->lay.fields;

	for (size_t i = 0; i < pm->nbuckets[p]; i++) {
		const struct pm_bucket_fields *bf = &pm->buckets[p][i];
		if (bf->sum == f && bf->high == f + 1 && bf->count == f + 2 &&
		    fs[f + 1].offset == fs[f].offset + 4 && fs[f + 2].offset == fs[f].offset + 8)
			return bf;
	}
	return NULL;
}

/* Part p's items as runs, in the order they lie: buckets one after
 * another (the next sum four slots and 12 bytes on), else a run goes on
 * while the next item has its width (4 or 8), the next slot and the next
 * offset. A bucket that lies otherwise is decoded as items, and its
 * part's buckets are then all checked (check_always). */
static void
part_runs(struct pmint *pm, unsigned p, struct pm_run *r)
{
	size_t n = 0, nb = 0;

	for (size_t i = 0; i < pm->nitems[p]; i++) {
		const struct pm_item *it = &pm->items[p][i];
		struct pm_run *last = n ? &r[n - 1] : NULL;

		if (bucket_at(pm, p, it->field)) {
			nb++;
			if (last && last->width == 0 && it->field == last->field + 4 * last->count &&
			    it->offset == last->offset + 12 * last->count)
				last->count++;
			else
				r[n++] = (struct pm_run){ it->field, it->offset, 1, 0 };
			i += 2;
		} else if (last && (it->width == 4 || it->width == 8) &&
		           it->width == last->width && it->field == last->field + last->count &&
		           it->offset == last->offset + last->count * last->width) {
			last->count++;
		} else {
			r[n++] = (struct pm_run){ it->field, it->offset, 1, it->width };
		}
	}
	pm->nruns[p] = n;
	pm->check_always[p] = nb < pm->nbuckets[p];
}

static pm_status
build_runs(struct pmint *pm, char *err, size_t errlen)
{
	size_t n = 0;

	for (unsigned p = 0; p < CB_MAX_PARTS; p++)
		n += pm->nitems[p];
	if (!(pm->run_store = calloc(n ? n : 1, sizeof *pm->run_store))) {
		snprintf(err, errlen, "%s: no memory for its tables", pm->lay.file);
		return PM_E_NOMEM;
	}
	n = 0;
	for (unsigned p = 0; p < CB_MAX_PARTS; p++) {
		pm->runs[p] = pm->run_store + n;
		part_runs(pm, p, pm->runs[p]);
		n += pm->nruns[p];
	}
	return PM_OK;
}

/* A part's figures are cleared as one block (items_first): no field of
 * another part may lie among them. */
static pm_status
check_parts_together(const struct pmint *pm, char *err, size_t errlen)
{
	for (unsigned p = 1; p <= pm->nparts; p++)
		for (size_t i = pm->items_first[p]; i < pm->items_end[p]; i++)
			if (pm->lay.fields[i].part != p) {
				snprintf(err, errlen, "%s: field %s of part %u lies "
				         "among the fields of part %u",
				         pm->lay.file, pm->lay.fields[i].name,
				         pm->lay.fields[i].part, p);
				return PM_E_LAYOUT;
			}
	return PM_OK;
}

/* Whether header fields [first, end) lie back to back from the first's
 * offset, of the widths given. */
static bool
head_run(const struct pmint *pm, enum pm_head_field first, enum pm_head_field end,
         const uint8_t *width)
{
	size_t at = pm->head[first].offset;

	for (enum pm_head_field i = first; i < end; i++) {
		if (pm->head[i].offset != at || pm->head[i].width != width[i - first])
			return false;
		at += width[i - first];
	}
	return true;
}

/* The header fields' places, in one small table: they are read for every
 * record, and the layout's fields lie far apart. */
static pm_status
bind_head(struct pmint *pm, char *err, size_t errlen)
{
	const int index[PM_HEAD_FIELDS] = { pm->f_len, pm->f_type, pm->f_seq,
	                                    pm->f_ver, pm->f_sdate, pm->f_stime,
	                                    pm->f_edate, pm->f_etime };

	for (size_t i = 0; i < PM_HEAD_FIELDS; i++) {
		const struct cb_field *f = &pm->lay.fields[index[i]];
		if (f->length == 0 || f->length > 8 || f->offset + f->length > UINT16_MAX) {
			snprintf(err, errlen, "%s: header field %s is not a number of 1 to "
			         "8 bytes", pm->lay.file, f->name);
			return PM_E_LAYOUT;
		}
		pm->head[i].field = (uint16_t)index[i];
		pm->head[i].offset = (uint16_t)f->offset;
		pm->head[i].width = (uint8_t)f->length;
		if (pm->head_end < f->offset + f->length)
			pm->head_end = f->offset + f->length;
		pm->head_shift[i] = (uint8_t)(8 * (8 - f->length));
		if (pm->head_wide_end < f->offset + 8)
			pm->head_wide_end = f->offset + 8;
		if (i <= PM_HEAD_SEQ && pm->peek_end < f->offset + f->length)
			pm->peek_end = f->offset + f->length;
	}
	pm->full_len = pm->head_end;
	pm->head_paired = head_run(pm, PM_HEAD_LEN, PM_HEAD_SDATE, (const uint8_t[]){ 2, 1, 1, 1 }) &&
	                  head_run(pm, PM_HEAD_SDATE, PM_HEAD_FIELDS, (const uint8_t[]){ 4, 4, 4, 4 });
	return PM_OK;
}

/* The fields the reader dispatches on, and the equates it needs. */
static pm_status
bind_header(struct pmint *pm, long *hdrlen, long *maxlen, char *err,
            size_t errlen)
{
	const struct layout *lay = &pm->lay;
	long type, version;
	pm_status st;

	if ((st = layout_need_field(lay, "INTLEN", &pm->f_len, err, errlen)) ||
	    (st = layout_need_field(lay, "INTRTYPE", &pm->f_type, err, errlen)) ||
	    (st = layout_need_field(lay, "INTSEQ#", &pm->f_seq, err, errlen)) ||
	    (st = layout_need_field(lay, "INTVER#", &pm->f_ver, err, errlen)) ||
	    (st = layout_need_field(lay, "INTSDATE", &pm->f_sdate, err, errlen)) ||
	    (st = layout_need_field(lay, "INTSTIME", &pm->f_stime, err, errlen)) ||
	    (st = layout_need_field(lay, "INTEDATE", &pm->f_edate, err, errlen)) ||
	    (st = layout_need_field(lay, "INTETIME", &pm->f_etime, err, errlen)) ||
	    (st = layout_need_equate(lay, "INT$TYPE", &type, err, errlen)) ||
	    (st = layout_need_equate(lay, "INT$VER", &version, err, errlen)) ||
	    (st = layout_need_equate(lay, "INTHDRLN", hdrlen, err, errlen)) ||
	    (st = layout_need_equate(lay, "INTMXLEN", maxlen, err, errlen)))
		return st;
	pm->interval_type = (unsigned)type;
	pm->current_version = (unsigned)version;
	return bind_head(pm, err, errlen);
}

/* The binding of a parsed layout; what it allocated is pmint_free's. */
static pm_status
bind_layout(struct pmint *pm, const char *file, char *err, size_t errlen)
{
	pm_status st;
	long hdrlen, maxlen;

	for (size_t i = 0; i < pm->lay.nfields; i++)
		pm->lay.fields[i].units = units_of(pm->lay.fields[i].type,
		                                   pm->lay.fields[i].desc);
	if ((st = find_buckets(&pm->lay, err, errlen)) != PM_OK ||
	    (st = bind_header(pm, &hdrlen, &maxlen, err, errlen)) != PM_OK)
		return st;
	pm->header_len = pm->lay.part_end[0];
	if (pm->full_len < pm->header_len)
		pm->full_len = pm->header_len;
	if (pm->header_len != (size_t)hdrlen) {
		snprintf(err, errlen, "%s: header fields end at %zu, INTHDRLN says %ld",
		         file, pm->header_len, hdrlen);
		return PM_E_LAYOUT;
	}
	pm->max_len = (size_t)maxlen;
	pm->nparts = pm->lay.nparts - 1;
	if (pm->nparts == 0) {
		snprintf(err, errlen, "%s: no parts (SEQ#=n comments) found", file);
		return PM_E_LAYOUT;
	}
	for (unsigned p = 1; p <= pm->nparts; p++)
		pm->part_len[p] = pm->lay.part_end[p] > pm->header_len ?
		                  pm->lay.part_end[p] : pm->header_len;
	if ((st = build_items(pm, err, errlen)) != PM_OK ||
	    (st = build_runs(pm, err, errlen)) != PM_OK)
		return st;
	return check_parts_together(pm, err, errlen);
}

pm_status
pmint_bind(struct pmint *pm, const char *text, const char *file, char *err,
           size_t errlen)
{
	pm_status st;

	memset(pm, 0, sizeof *pm);
	if ((st = layout_parse(text, file, part_comment, NULL, &pm->lay, err,
	                       errlen)) != PM_OK)
		return st;
	if ((st = bind_layout(pm, file, err, errlen)) != PM_OK) {
		pmint_free(pm);
		return st;
	}
#ifdef BUCKETS_BY_FOUR
	pm->buckets_by_four = __builtin_cpu_supports("avx2");
#endif
	return PM_OK;
}

void
pmint_free(struct pmint *pm)
{
	layout_free(&pm->lay);
	free(pm->item_store);
	free(pm->bucket_store);
	free(pm->run_store);
	pm->item_store = NULL;
	pm->bucket_store = NULL;
	pm->run_store = NULL;
	for (unsigned p = 0; p < CB_MAX_PARTS; p++) {
		pm->items[p] = NULL;
		pm->buckets[p] = NULL;
		pm->runs[p] = NULL;
		pm->nitems[p] = pm->nbuckets[p] = pm->nruns[p] = 0;
	}
}

pm_status
pmint_load(struct pmint *pm, char *err, size_t errlen)
{
	return pmint_bind(pm, pmintds_listing, PMINT_BUILTIN_FILE, err, errlen);
}

pm_status
pmint_find(struct pmint *pm, const char *const *copybooks, size_t ncopybooks,
           char *err, size_t errlen)
{
	struct lookup_found found;
	pm_status st = copybook_find("#PMINT", "pmintds.lst", copybooks, ncopybooks,
	                             pmintds_listing, &found, err, errlen);

	if (st != PM_OK)
		return st;
	st = pmint_bind(pm, found.text, found.file, err, errlen);
	free(found.text);
	return st;
}

/* Header field i of a record known to hold them all; wide: eight bytes
 * from its start (head_wide_end), one load and a shift instead of a
 * load by its width. */
static inline uint64_t
head_load(const struct pmint *pm, enum pm_head_field i, const uint8_t *p, bool wide)
{
	const struct pm_item *it = &pm->head[i];

	return wide ? be_load64(p + it->offset) >> pm->head_shift[i]
	            : be_load(p + it->offset, it->width);
}

/* One field by its width: the getters for the usual widths are cheaper
 * than the general one, and the header is read for every PM record. Each
 * getter reads the field's own span from its start, so that the compiler
 * can see its bytes as one big-endian word. */
static inline bool
field_u(const struct pmint *pm, enum pm_head_field which, struct span rec,
        uint64_t *v)
{
	const struct pm_item *it = &pm->head[which];
	/* the field's bytes, or none when rec is too short for them */
	struct span fs = span_sub(rec, it->offset, it->width);
	uint8_t b;
	uint16_t h;
	uint32_t w;

	switch (fs.len) {
	case 0:
		return false;
	case 1:
		(void)be_u8(fs, 0, &b);
		*v = b;
		return true;
	case 2:
		(void)be_u16(fs, 0, &h);
		*v = h;
		return true;
	case 4:
		(void)be_u32(fs, 0, &w);
		*v = w;
		return true;
	default:
		return be_uint(fs, 0, (unsigned)fs.len, v);
	}
}

pm_status
pmint_peek(const struct pmint *pm, struct span rec, size_t *length, unsigned *type)
{
	uint64_t len, t;

	/* bounds checked once where the bytes hold the fields the framer
	 * peeks at: the chain searches ask this at every offset */
	if (rec.len >= pm->peek_end) {
		bool wide = rec.len >= pm->head_wide_end;
		*length = (size_t)head_load(pm, PM_HEAD_LEN, rec.p, wide);
		*type = (unsigned)head_load(pm, PM_HEAD_TYPE, rec.p, wide);
		return PM_OK;
	}
	if (!field_u(pm, PM_HEAD_LEN, rec, &len) || !field_u(pm, PM_HEAD_TYPE, rec, &t))
		return PM_E_PM_LENGTH;
	*length = (size_t)len;
	*type = (unsigned)t;
	return PM_OK;
}

/* Every header field from p, which holds head_end bytes (head_wide_end
 * when wide): paired, in three loads. Always inline, for the framer's
 * length reads every PM record's. */
static inline __attribute__((always_inline)) void
head_read(const struct pmint *pm, const uint8_t *p, bool wide, struct pm_header *h)
{
	if (wide && pm->head_paired) {
		uint64_t w = be_load64(p + pm->head[PM_HEAD_LEN].offset);
		uint64_t s = be_load64(p + pm->head[PM_HEAD_SDATE].offset);
		uint64_t e = be_load64(p + pm->head[PM_HEAD_EDATE].offset);

		h->length = (size_t)(w >> 48);
		h->type = (unsigned)(w >> 40) & 0xff;
		h->seq = (unsigned)(w >> 32) & 0xff;
		h->version = (unsigned)(w >> 24) & 0xff;
		h->sdate = (uint32_t)(s >> 32);
		h->stime = (uint32_t)s;
		h->edate = (uint32_t)(e >> 32);
		h->etime = (uint32_t)e;
		return;
	}
	h->length = (size_t)head_load(pm, PM_HEAD_LEN, p, wide);
	h->type = (unsigned)head_load(pm, PM_HEAD_TYPE, p, wide);
	h->seq = (unsigned)head_load(pm, PM_HEAD_SEQ, p, wide);
	h->version = (unsigned)head_load(pm, PM_HEAD_VER, p, wide);
	h->sdate = (uint32_t)head_load(pm, PM_HEAD_SDATE, p, wide);
	h->stime = (uint32_t)head_load(pm, PM_HEAD_STIME, p, wide);
	h->edate = (uint32_t)head_load(pm, PM_HEAD_EDATE, p, wide);
	h->etime = (uint32_t)head_load(pm, PM_HEAD_ETIME, p, wide);
}

pm_status
pmint_header_read(const struct pmint *pm, struct span rec, struct pm_header *h)
{
	/* checked once for every field: every interval record passes here */
	if (rec.len < pm->head_end)
		return PM_E_SHORT_PART;
	head_read(pm, rec.p, rec.len >= pm->head_wide_end, h);
	return PM_OK;
}

pm_status
pmint_header_at(const struct pmint *pm, struct span bytes, struct pm_header *h,
                bool *full)
{
	*full = pmint_header_read(pm, bytes, h) == PM_OK && h->length >= pm->header_len;
	if (*full)
		return PM_OK;
	return pmint_peek(pm, bytes, &h->length, &h->type);
}

#ifdef BUCKETS_BY_FOUR
/* buckets_read of groups of four buckets from b (more: buckets of the
 * run follow them), with AVX2: the 48 bytes of four in three loads,
 * byte-swapped, each bucket's three fullwords widened and stored
 * together, and the tests of the four at once: 11
 * instructions a bucket, where the loop below, a bucket's figures read,
 * stored and tested one by one, takes 19. Whether any bucket is suspect,
 * not how many. */
__attribute__((target("avx2"))) static unsigned
buckets_by_four(const uint8_t *b, size_t groups, bool more, uint64_t *v)
{
	const __m128i swap = _mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
	const __m256i three = _mm256_setr_epi64x(-1, -1, -1, 0);
	const __m256i top = _mm256_set1_epi64x(INT64_MIN);
	const __m128i none = _mm_setzero_si128();
	__m128i fine = _mm_set1_epi32(-1); /* lanes where high <= sum so far */
	__m256i over = _mm256_setzero_si256(); /* lanes where sum > high x count */

	for (size_t g = 0; g < groups; g++, b += 48) {
		__m128i r0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)b), swap);
		__m128i r1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(b + 16)), swap);
		__m128i r2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(b + 32)), swap);
		/* each bucket's sum, highest and count in lanes 0 to 2 */
		__m128i b0 = r0, b1 = _mm_alignr_epi8(r1, r0, 12);
		__m128i b2 = _mm_alignr_epi8(r2, r1, 8), b3 = _mm_srli_si128(r2, 4);
		/* the four sums, highests and counts, each in one register */
		__m128i t0 = _mm_unpacklo_epi32(b0, b1), t1 = _mm_unpacklo_epi32(b2, b3);
		__m128i sum = _mm_unpacklo_epi64(t0, t1), high = _mm_unpackhi_epi64(t0, t1);
		__m128i count = _mm_unpacklo_epi64(_mm_unpackhi_epi32(b0, b1),
		                                   _mm_unpackhi_epi32(b2, b3));
		__m256i wide = _mm256_cvtepu32_epi64(sum);
		__m256i product = _mm256_mul_epu32(_mm256_cvtepu32_epi64(high),
		                                   _mm256_cvtepu32_epi64(count));

		if (v) {
			/* each bucket's fourth slot, the next bucket's label,
			 * never stored, kept 0 (b3's is): whole stores, where a
			 * masked one took 10% of the time (Zen 4); masked only
			 * past the run's last bucket, whose fourth slot is
			 * another field's */
			_mm256_storeu_si256((__m256i *)v, _mm256_cvtepu32_epi64(_mm_blend_epi32(b0, none, 8)));
			_mm256_storeu_si256((__m256i *)(v + 4), _mm256_cvtepu32_epi64(_mm_blend_epi32(b1, none, 8)));
			_mm256_storeu_si256((__m256i *)(v + 8), _mm256_cvtepu32_epi64(_mm_blend_epi32(b2, none, 8)));
			if (g + 1 < groups || more)
				_mm256_storeu_si256((__m256i *)(v + 12), _mm256_cvtepu32_epi64(b3));
			else
				_mm256_maskstore_epi64((long long *)(v + 12), three, _mm256_cvtepu32_epi64(b3));
			v += 16;
		}
		fine = _mm_and_si128(fine, _mm_cmpeq_epi32(_mm_max_epu32(high, sum), sum));
		/* unsigned, as signed with the top bits flipped */
		over = _mm256_or_si256(over, _mm256_cmpgt_epi64(_mm256_xor_si256(wide, top),
		                                                _mm256_xor_si256(product, top)));
	}
	return !_mm_test_all_ones(fine) || !_mm256_testz_si256(over, over);
}
#endif

/* The tests failed (pmint_bucket_suspect) by count buckets from b, their
 * figures stored at v, four slots a bucket (the fourth, the next bucket's
 * label, which holds no figure, made 0; the last bucket's left as it is),
 * unless v is NULL (a constant
 * where it is inlined); by four (buckets_by_four) where by_four, and
 * then the count said only as 0 or more. */
static inline unsigned
buckets_read(const uint8_t *b, size_t count, uint64_t *v, bool by_four)
{
	unsigned odd = 0;

#ifdef BUCKETS_BY_FOUR
	if (by_four && count >= 4) {
		size_t done = count & ~(size_t)3;

		odd = buckets_by_four(b, done / 4, done < count, v);
		b += 12 * done;
		v = v ? v + 4 * done : NULL;
		count -= done;
	}
#else
	(void)by_four;
#endif
	/* unrolled: a bucket is a few loads, its loop as many again */
#pragma GCC unroll 4
	for (size_t k = 0; k < count; k++, b += 12) {
		/* sum and highest in one load */
		uint64_t sh = be_load64(b), sum = sh >> 32, high = (uint32_t)sh;
		uint64_t n = be_load32(b + 8);

		if (v) {
			v[4 * k] = sum;
			v[4 * k + 1] = high;
			v[4 * k + 2] = n;
			if (k + 1 < count)
				v[4 * k + 3] = 0;  /* as buckets_by_four leaves it */
		}
		odd += pmint_bucket_suspect(sum, high, n);
	}
	return odd;
}

unsigned
pmint_buckets_read(const uint8_t *b, size_t count, uint64_t *v, bool by_four)
{
	return buckets_read(b, count, v, by_four);
}

/* The part's figures read from rec: stored into values, or with values
 * NULL only its buckets checked (a constant where it is inlined, so that
 * each caller gets a loop of its own). */
static inline pm_status
part_read(const struct pmint *pm, const struct pm_header *h, struct span rec,
          uint64_t *values, bool *suspect)
{
	unsigned p = h->seq;
	unsigned odd = 0;  /* tests failed, pmint_bucket_suspect */

	*suspect = false;
	if (p == 0 || p > pm->nparts)
		return PM_E_BAD_SEQUENCE;
	if (rec.len < pm->part_len[p])
		return PM_E_SHORT_PART;
	/* The length check above covers every item (part_len is the end of
	 * the part's last), so no load has a check of its own: fullwords and
	 * doublewords, nearly all of them, a loop a run; other widths one at
	 * a time. */
	for (const struct pm_run *r = pm->runs[p], *end = r + pm->nruns[p]; r < end; r++) {
		const uint8_t *b = rec.p + r->offset;
		uint64_t *v;

		if (!values) {
			/* only buckets are checked */
			if (r->width == 0)
				odd += buckets_read(b, r->count, NULL, pm->buckets_by_four);
			continue;
		}
		v = values + r->field;
		switch (r->width) {
		case 0:
			odd += buckets_read(b, r->count, v, pm->buckets_by_four);
			break;
		case 4:
			for (size_t k = 0; k < r->count; k++)
				v[k] = be_load32(b + 4 * k);
			break;
		case 8:
			for (size_t k = 0; k < r->count; k++)
				v[k] = be_load64(b + 8 * k);
			break;
		default:
			*v = be_load(b, r->width);
		}
	}
	*suspect = odd || pm->check_always[p];
	return rec.len > pm->part_len[p] ? PM_E_LONG_PART : PM_OK;
}

pm_status
pmint_part_decode(const struct pmint *pm, const struct pm_header *h,
                  struct span rec, uint64_t *values, bool *suspect)
{
	return part_read(pm, h, rec, values, suspect);
}

pm_status
pmint_part_check(const struct pmint *pm, const struct pm_header *h,
                 struct span rec, bool *suspect)
{
	return part_read(pm, h, rec, NULL, suspect);
}

unsigned
pmint_all_parts(const struct pmint *pm)
{
	return ((1u << (pm->nparts + 1)) - 1) & ~1u;
}

size_t
pmint_min_len(const struct pmint *pm)
{
	return (size_t)pm->head[PM_HEAD_SEQ].offset + 1;
}

size_t
pmint_peek_len(const struct pmint *pm)
{
	return (size_t)pm->head[PM_HEAD_VER].offset + 1;
}

/* pmint_record_length near the end of the input, where avail may not
 * hold every header field: INTLEN, INTRTYPE and INTSEQ# by their widths. */
static __attribute__((noinline)) size_t
record_length_near_end(const struct pmint *pm, const uint8_t *p, size_t avail,
                       bool *plausible)
{
	struct span s = span_make(p, avail);
	uint64_t len, type, seq;

	*plausible = false;
	if (avail < pm->peek_end)
		/* a field of the three is cut off: no type to judge by */
		return field_u(pm, PM_HEAD_LEN, s, &len) ? (size_t)len : 0;
	len = head_load(pm, PM_HEAD_LEN, p, false);
	type = head_load(pm, PM_HEAD_TYPE, p, false);
	seq = head_load(pm, PM_HEAD_SEQ, p, false);
	*plausible = avail >= pmint_peek_len(pm) && len >= pmint_peek_len(pm) && type >= 1 &&
	             type <= PM_TYPE_PLAUSIBLE && seq <= PM_SEQ_PLAUSIBLE;
	return (size_t)len;
}

size_t
pmint_record_length(const uint8_t *p, size_t avail, bool *plausible, void *ctx)
{
	struct pm_peeked *k = ctx;
	const struct pmint *pm = k->pm;
	struct pm_header *h = &k->h;

	if (avail < pm->head_wide_end) {
		k->at = NULL;
		return record_length_near_end(pm, p, avail, plausible);
	}
	/* the whole header, for the stage: the framer hands the record up
	 * next (peek_len < head_wide_end bytes at hand) */
	head_read(pm, p, true, h);
	k->at = h->length >= pm->full_len ? p : NULL;
	*plausible = h->length >= pmint_peek_len(pm) && h->type >= 1 &&
	             h->type <= PM_TYPE_PLAUSIBLE && h->seq <= PM_SEQ_PLAUSIBLE;
	return h->length;
}

bool
pmint_type_plausible(const struct pmint *pm, struct span bytes)
{
	uint64_t type, seq;

	return field_u(pm, PM_HEAD_TYPE, bytes, &type) && type >= 1 &&
	       type <= PM_TYPE_PLAUSIBLE && field_u(pm, PM_HEAD_SEQ, bytes, &seq) &&
	       seq <= PM_SEQ_PLAUSIBLE;
}

bool
pmint_record_plausible(const struct pmint *pm, struct span bytes, size_t *length)
{
	struct pm_header h;
	struct span rec;
	size_t len;
	unsigned type;

	/* length and type first: the chain search tries many offsets, and
	 * most fail on these */
	if (pmint_peek(pm, bytes, &len, &type) != PM_OK || len < pmint_min_len(pm) ||
	    len > bytes.len || type == 0 || type > PM_TYPE_PLAUSIBLE)
		return false;
	*length = len;
	rec = span_sub(bytes, 0, len);
	if (type != pm->interval_type)
		return pmint_type_plausible(pm, rec);
	return pmint_header_read(pm, rec, &h) == PM_OK && h.seq >= 1 &&
	       h.seq <= pm->nparts && h.version != 0;
}

bool
pmint_interval_header_at(const struct pmint *pm, struct span bytes)
{
	struct pm_header h;
	size_t len;
	unsigned type;
	int year, yday;

	/* the type first: this is asked at every offset of a product header */
	return pmint_peek(pm, bytes, &len, &type) == PM_OK &&
	       type == pm->interval_type && pmint_header_read(pm, bytes, &h) == PM_OK &&
	       h.seq >= 1 && h.seq <= pm->nparts &&
	       h.version == pm->current_version &&
	       pmtime_pdate_decode(h.sdate, &year, &yday) == PM_OK &&
	       pmtime_pdate_decode(h.edate, &year, &yday) == PM_OK;
}
