/* partial.c: the partial file's envelope (partial.h). */
#define _DEFAULT_SOURCE /* madvise */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/partial.h"

static const uint8_t magic[8] = { 'P', 'M', 'I', 'M', 'P', 'A', 'R', 'T' };
static const char end_tag[4] = { 'E', 'N', 'D', ' ' };

/* A section written as it comes goes to the file in chunks of this size,
 * not a call a number. */
#define DIRECT_CHUNK ((size_t)64 << 10)

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/* The CRC state (inverted, as the tables keep it) after n bytes at p, n
 * at least 64 and a multiple of 16, by carry-less multiplication: four
 * lanes of 16 bytes folded 64 bytes a step, then into one, reduced to 32
 * bits (Barrett). The method and its constants are those of "Fast CRC
 * Computation for Generic Polynomials Using PCLMULQDQ Instruction"
 * (Gopal et al., Intel, 2009), for the reflected IEEE polynomial. */
__attribute__((target("pclmul,sse4.1"))) static uint32_t
crc_by_clmul(uint32_t crc, const uint8_t *p, size_t n)
{
	const __m128i k1k2 = _mm_set_epi64x(0x01c6e41596, 0x0154442bd4);
	const __m128i k3k4 = _mm_set_epi64x(0x00ccaa009e, 0x01751997d0);
	const __m128i k5 = _mm_set_epi64x(0, 0x0163cd6124);
	const __m128i poly = _mm_set_epi64x(0x01f7011641, 0x01db710641);
	const __m128i low32 = _mm_setr_epi32(~0, 0, ~0, 0);
	__m128i x[4], t;

	for (int i = 0; i < 4; i++)
		x[i] = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * i));
	x[0] = _mm_xor_si128(x[0], _mm_cvtsi32_si128((int)crc));
	for (p += 64, n -= 64; n >= 64; p += 64, n -= 64)
		for (int i = 0; i < 4; i++) {
			t = _mm_clmulepi64_si128(x[i], k1k2, 0x00);
			x[i] = _mm_clmulepi64_si128(x[i], k1k2, 0x11);
			x[i] = _mm_xor_si128(_mm_xor_si128(x[i], t),
			                     _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * i)));
		}
	/* four lanes into one, then the 16-byte blocks left */
	for (int i = 1; i < 4; i++) {
		t = _mm_clmulepi64_si128(x[0], k3k4, 0x00);
		x[0] = _mm_clmulepi64_si128(x[0], k3k4, 0x11);
		x[0] = _mm_xor_si128(_mm_xor_si128(x[0], x[i]), t);
	}
	for (; n >= 16; p += 16, n -= 16) {
		t = _mm_clmulepi64_si128(x[0], k3k4, 0x00);
		x[0] = _mm_clmulepi64_si128(x[0], k3k4, 0x11);
		x[0] = _mm_xor_si128(_mm_xor_si128(x[0], _mm_loadu_si128((const __m128i *)(const void *)p)), t);
	}
	/* 128 bits to 64, then 64 to 32 */
	t = _mm_clmulepi64_si128(x[0], k3k4, 0x10);
	x[0] = _mm_xor_si128(_mm_srli_si128(x[0], 8), t);
	t = _mm_srli_si128(x[0], 4);
	x[0] = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x[0], low32), k5, 0x00), t);
	t = _mm_clmulepi64_si128(_mm_and_si128(x[0], low32), poly, 0x10);
	t = _mm_clmulepi64_si128(_mm_and_si128(t, low32), poly, 0x00);
	return (uint32_t)_mm_extract_epi32(_mm_xor_si128(x[0], t), 1);
}
#endif

/* Eight bytes a step ("slicing by 8"): table[k][b] is the CRC of byte b
 * followed by k zero bytes. Where the CPU multiplies without carries
 * (x86-64 with PCLMULQDQ, chosen with the tables), runs of 64 bytes or
 * more go that way, their tail by the tables. */
uint32_t
partial_crc32(uint32_t crc, const uint8_t *p, size_t n)
{
	static uint32_t table[8][256];
	static bool ready, clmul;
	size_t i = 0;

	if (!ready) {
		for (uint32_t b = 0; b < 256; b++) {
			uint32_t c = b;
			for (int k = 0; k < 8; k++)
				c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
			table[0][b] = c;
		}
		for (uint32_t b = 0; b < 256; b++)
			for (int k = 1; k < 8; k++)
				table[k][b] = table[0][table[k - 1][b] & 0xFF] ^ (table[k - 1][b] >> 8);
#if defined(__x86_64__) && defined(__GNUC__)
		clmul = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
#endif
		ready = true;
	}
	crc = ~crc;
#if defined(__x86_64__) && defined(__GNUC__)
	if (clmul && n >= 64) {
		i = n & ~(size_t)15;
		crc = crc_by_clmul(crc, p, i);
	}
#else
	(void)clmul;
#endif
	for (; i + 8 <= n; i += 8) {
		uint32_t lo = crc ^ ((uint32_t)p[i] | (uint32_t)p[i + 1] << 8 |
		                     (uint32_t)p[i + 2] << 16 | (uint32_t)p[i + 3] << 24);
		crc = table[7][lo & 0xFF] ^ table[6][(lo >> 8) & 0xFF] ^
		      table[5][(lo >> 16) & 0xFF] ^ table[4][lo >> 24] ^
		      table[3][p[i + 4]] ^ table[2][p[i + 5]] ^ table[1][p[i + 6]] ^
		      table[0][p[i + 7]];
	}
	for (; i < n; i++)
		crc = table[0][(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
	return ~crc;
}

/* Bytes to the file, counted in the CRC. */
static void
put(struct pwriter *w, const void *p, size_t n)
{
	if (w->failed)
		return;
	w->crc = partial_crc32(w->crc, p, n);
	if (fwrite(p, 1, n, w->fp) != n)
		w->failed = true;
}

static void
put_number(struct pwriter *w, unsigned width, uint64_t v)
{
	uint8_t b[8];

	put_be(b, width, v);
	put(w, b, width);
}

void
pw_open(struct pwriter *w, FILE *fp)
{
	*w = (struct pwriter){ .fp = fp };
	put(w, magic, sizeof magic);
	put_number(w, 2, PARTIAL_VERSION);
}

void
pw_section(struct pwriter *w, const char tag[4])
{
	memcpy(w->tag, tag, 4);
	w->len = w->held = 0;
	w->direct = false;
}

void
pw_section_sized(struct pwriter *w, const char tag[4], uint64_t len)
{
	pw_section(w, tag);
	w->direct = true;
	w->want = len;
	put(w, tag, 4);
	put_number(w, 8, len);
}

/* n bytes to the open section: held in buf to its end, or for a section
 * written as it comes, to the end of a chunk. */
static void
append(struct pwriter *w, const void *p, size_t n)
{
	if (w->failed || n == 0)
		return;
	w->len += n;
	if (w->direct && w->held + n > DIRECT_CHUNK) {
		put(w, w->buf, w->held);
		w->held = 0;
	}
	if (w->direct && n > DIRECT_CHUNK) {
		put(w, p, n);
		return;
	}
	if (w->held + n > w->cap) {
		size_t cap = w->cap ? w->cap : 4096;
		uint8_t *q;
		while (cap < w->held + n)
			cap *= 2;
		if (!(q = realloc(w->buf, cap))) {
			w->failed = true;
			return;
		}
		w->buf = q;
		w->cap = cap;
	}
	memcpy(w->buf + w->held, p, n);
	w->held += n;
}

void
pw_uint(struct pwriter *w, unsigned width, uint64_t v)
{
	uint8_t b[8];

	put_be(b, width, v);
	append(w, b, width);
}

void
pw_i64(struct pwriter *w, int64_t v)
{
	pw_uint(w, 8, (uint64_t)v);
}

void
pw_text(struct pwriter *w, const char *s)
{
	size_t n = strlen(s);

	pw_uint(w, 4, n);
	append(w, s, n);
}

void
pw_bytes(struct pwriter *w, const void *p, size_t n)
{
	if (n)
		append(w, p, n);
}

void
pw_end_section(struct pwriter *w)
{
	if (w->direct) {
		put(w, w->buf, w->held);
		w->failed |= w->len != w->want;
		w->direct = false;
		return;
	}
	put(w, w->tag, 4);
	put_number(w, 8, w->len);
	put(w, w->buf, w->held);
}

pm_status
pw_close(struct pwriter *w)
{
	uint32_t crc = w->crc;
	bool nomem = w->failed && !ferror(w->fp);

	put(w, end_tag, 4);
	put_number(w, 8, 4);
	put_number(w, 4, crc);
	free(w->buf);
	w->buf = NULL;
	if (w->failed)
		return nomem ? PM_E_NOMEM : PM_E_WRITE;
	return PM_OK;
}

/* ---------------------------------------------------------------------- */

static pm_status
slurp(FILE *fp, uint8_t **out, size_t *len)
{
	size_t cap = 1 << 16, n;
	uint8_t *p = malloc(cap), *q;

	*len = 0;
	if (!p)
		return PM_E_NOMEM;
	while ((n = fread(p + *len, 1, cap - *len, fp)) > 0) {
		*len += n;
		if (*len == cap) {
			if (cap >= PARTIAL_MAX || !(q = realloc(p, cap * 2))) {
				free(p);
				return PM_E_NOMEM;
			}
			p = q;
			cap *= 2;
		}
	}
	if (ferror(fp)) {
		free(p);
		return PM_E_READ;
	}
	*out = p;
	return PM_OK;
}

/* The CRC of the first n bytes, the pages of a mapped partial given back
 * a few MiB at a time behind it. */
static uint32_t
crc_released(const struct partial *p, size_t n)
{
	const size_t step = (size_t)8 << 20;
	uint32_t crc = 0;

	for (size_t at = 0; at < n; at += step) {
		crc = partial_crc32(crc, p->data + at, n - at < step ? n - at : step);
		partial_release(p, p->data + (n - at < step ? n : at + step));
	}
	return crc;
}

/* Walk the sections: each must fit, and END must be the last and carry
 * the CRC of what comes before it (sum: computed again and compared). */
static pm_status
check(const struct partial *p, bool sum, char *err, size_t cap)
{
	struct span s = span_make(p->data, p->len);
	size_t at = sizeof magic + 2;
	uint64_t len, crc = 0;

	while (at < p->len) {
		if (!span_has(s, at, 12) || !be_u64(s, at + 4, &len) ||
		    !span_has(s, at + 12, len)) {
			snprintf(err, cap, "offset %zu: a section runs past the end of the "
			         "file (cut short?)", at);
			return PM_E_PARTIAL;
		}
		if (memcmp(p->data + at, end_tag, 4) == 0) {
			if (len != 4 || at + 16 != p->len) {
				snprintf(err, cap, "offset %zu: the checksum section is not "
				         "the last, 4 bytes long", at);
				return PM_E_PARTIAL;
			}
			(void)be_uint(s, at + 12, 4, &crc);
			if (sum && crc != crc_released(p, at)) {
				snprintf(err, cap, "offset %zu: the checksum does not match "
				         "the content (altered or damaged)", at);
				return PM_E_PARTIAL;
			}
			return PM_OK;
		}
		at += 12 + (size_t)len;
	}
	snprintf(err, cap, "offset %zu: no checksum section at the end (cut short?)", p->len);
	return PM_E_PARTIAL;
}

/* p made of len bytes at data (mapped: a mapping of a file), checked
 * (sum: the CRC too); refused, they are freed or unmapped. */
static pm_status
take(struct partial *p, uint8_t *data, size_t len, bool mapped, bool sum, char *err,
     size_t cap)
{
	uint64_t version = 0;
	pm_status st = PM_E_PARTIAL;

	*p = (struct partial){ .data = data, .len = len, .mapped = mapped };
	if (len < sizeof magic + 2 || memcmp(data, magic, sizeof magic) != 0)
		snprintf(err, cap, "offset 0: not a pmimrpt partial (no PMIMPART)");
	else if (!be_uint(span_make(data, len), 8, 2, &version) || version != PARTIAL_VERSION)
		snprintf(err, cap, "offset 8: partial version %u; this pmimrpt reads %u",
		         (unsigned)version, PARTIAL_VERSION);
	else
		st = check(p, sum, err, cap);
	p->version = (uint16_t)version;
	if (st != PM_OK)
		partial_free(p);
	return st;
}

pm_status
partial_take(struct partial *p, uint8_t *data, size_t len, char *err, size_t cap)
{
	return take(p, data, len, false, true, err, cap);
}


/* File fd mapped whole, read-only, into *data; false (errno set) when it
 * is no regular file or cannot be mapped. */
static bool
map_file(int fd, uint8_t **data, size_t *len)
{
	struct stat sb;
	void *m;

	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size <= 0 ||
	    (uint64_t)sb.st_size > PARTIAL_MAX)
		return false;
	m = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED)
		return false;
	(void)madvise(m, (size_t)sb.st_size, MADV_SEQUENTIAL);
	*data = m;
	*len = (size_t)sb.st_size;
	return true;
}

pm_status
partial_load(struct partial *p, const char *path, char *err, size_t cap)
{
	FILE *fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	uint8_t *data;
	size_t len;
	pm_status st;

	*p = (struct partial){ 0 };
	if (!fp)
		return PM_E_OPEN;
	if (map_file(fileno(fp), &data, &len)) {
		fclose(fp);
		return take(p, data, len, true, true, err, cap);
	}
	st = slurp(fp, &data, &len);
	if (fp != stdin)
		fclose(fp);
	return st == PM_OK ? partial_take(p, data, len, err, cap) : st;
}

pm_status
partial_map_own(struct partial *p, int fd, char *err, size_t cap)
{
	uint8_t *data;
	size_t len;

	*p = (struct partial){ 0 };
	if (!map_file(fd, &data, &len)) {
		snprintf(err, cap, "cannot map the partial: %s", strerror(errno));
		return PM_E_READ;
	}
	return take(p, data, len, true, false, err, cap);
}

void
partial_release(const struct partial *p, const uint8_t *upto)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t n;

	if (!p->mapped || page <= 0 || upto <= p->data)
		return;
	n = (size_t)(upto - p->data) / (size_t)page * (size_t)page;
	if (n > 0)
		(void)madvise(p->data, n, MADV_DONTNEED);
}

void
pc_release(struct pcursor *c, const struct partial *p)
{
	if (c->at - c->released >= ((size_t)1 << 20)) {
		partial_release(p, c->s.p + c->at);
		c->released = c->at;
	}
}

void
partial_free(struct partial *p)
{
	if (p->mapped && p->data)
		munmap(p->data, p->len);
	else
		free(p->data);
	*p = (struct partial){ 0 };
}

bool
partial_section(const struct partial *p, const char tag[4], struct span *out)
{
	struct span s = span_make(p->data, p->len);
	size_t at = sizeof magic + 2;
	uint64_t len;

	while (span_has(s, at, 12) && be_u64(s, at + 4, &len) && span_has(s, at + 12, len)) {
		if (memcmp(p->data + at, tag, 4) == 0) {
			*out = span_sub(s, at + 12, (size_t)len);
			return true;
		}
		at += 12 + (size_t)len;
	}
	return false;
}

uint64_t
pc_uint(struct pcursor *c, unsigned width)
{
	uint64_t v;

	if (c->bad || width == 0 || width > 8 || !span_has(c->s, c->at, width)) {
		c->bad = true;
		return 0;
	}
	/* checked: one load (a merge reads millions) */
	v = be_load(c->s.p + c->at, width);
	c->at += width;
	return v;
}

int64_t
pc_i64(struct pcursor *c)
{
	return (int64_t)pc_uint(c, 8);
}

void
pc_text(struct pcursor *c, char *out, size_t cap)
{
	uint64_t n = pc_uint(c, 4);

	out[0] = '\0';
	if (c->bad || n >= cap || !span_has(c->s, c->at, (size_t)n)) {
		c->bad = true;
		return;
	}
	memcpy(out, c->s.p + c->at, (size_t)n);
	out[n] = '\0';
	c->at += (size_t)n;
}

bool
pc_done(const struct pcursor *c)
{
	return !c->bad && c->at == c->s.len;
}
