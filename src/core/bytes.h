/* bytes.h: bounds-checked big-endian getters, and little-endian ones for
 * the Windows performance data. Values are built byte by
 * byte, so host byte order and alignment never matter (the same code runs on
 * x86-64 and on Linux on Z). A getter that would read past the end of its
 * span returns false and leaves *out untouched: no read ever passes the end
 * of a buffer. */
#ifndef BYTES_H
#define BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A read-only view of len bytes at p. */
struct span {
	const uint8_t *p;
	size_t len;
};

static inline struct span
span_make(const uint8_t *p, size_t len)
{
	struct span s = { p, len };
	return s;
}

/* The sub-span [off, off + len); an empty span when it does not fit. */
static inline struct span
span_sub(struct span s, size_t off, size_t len)
{
	struct span r = { s.p, 0 };
	if (off <= s.len && len <= s.len - off) {
		r.p = s.p + off;
		r.len = len;
	}
	return r;
}

static inline bool
span_has(struct span s, size_t off, size_t width)
{
	return off <= s.len && width <= s.len - off;
}

/* An unsigned big-endian integer of width 1..8 bytes at off. */
static inline bool
be_uint(struct span s, size_t off, unsigned width, uint64_t *out)
{
	uint64_t v = 0;
	if (width == 0 || width > 8 || !span_has(s, off, width))
		return false;
	for (unsigned i = 0; i < width; i++)
		v = (v << 8) | s.p[off + i];
	*out = v;
	return true;
}

static inline bool
be_u8(struct span s, size_t off, uint8_t *out)
{
	if (!span_has(s, off, 1))
		return false;
	*out = s.p[off];
	return true;
}

static inline bool
be_u16(struct span s, size_t off, uint16_t *out)
{
	if (!span_has(s, off, 2))
		return false;
	*out = (uint16_t)(((unsigned)s.p[off] << 8) | s.p[off + 1]);
	return true;
}

static inline bool
be_u32(struct span s, size_t off, uint32_t *out)
{
	if (!span_has(s, off, 4))
		return false;
	*out = ((uint32_t)s.p[off] << 24) | ((uint32_t)s.p[off + 1] << 16) |
	       ((uint32_t)s.p[off + 2] << 8) | (uint32_t)s.p[off + 3];
	return true;
}

static inline bool
be_u64(struct span s, size_t off, uint64_t *out)
{
	uint32_t hi, lo;
	if (!be_u32(s, off, &hi) || !be_u32(s, off + 4, &lo))
		return false;
	*out = (uint64_t)hi << 32 | lo;
	return true;
}

/* Loads without a check, for the hot loops that checked once that a span
 * covers every load they make (a record's length against its layout's):
 * the same byte-by-byte values as the getters, which a compiler makes one
 * load and a byte swap. Use the getters everywhere else. */
static inline uint32_t
be_load32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) |
	       (uint32_t)p[3];
}

static inline uint64_t
be_load64(const uint8_t *p)
{
	return (uint64_t)be_load32(p) << 32 | be_load32(p + 4);
}

/* An unsigned number of width 1 to 8 bytes, without a check. */
static inline uint64_t
be_load(const uint8_t *p, unsigned width)
{
	uint64_t v = 0;

	switch (width) {
	case 1: return p[0];
	case 2: return (uint64_t)p[0] << 8 | p[1];
	case 4: return be_load32(p);
	case 8: return be_load64(p);
	}
	for (unsigned i = 0; i < width; i++)
		v = (v << 8) | p[i];
	return v;
}

/* Little-endian getters (PERF_DATA_BLOCKs): byte by byte as the others,
 * so a big-endian host reads them identically. The bytes are indexed from
 * a pointer to the first: GCC makes that one load (a byte swap on a
 * big-endian host), and s.p[off + i] four (every value of every snapshot
 * is read so). */
static inline bool
le_u16(struct span s, size_t off, uint16_t *out)
{
	const uint8_t *q;

	if (!span_has(s, off, 2))
		return false;
	q = s.p + off;
	*out = (uint16_t)(q[0] | ((unsigned)q[1] << 8));
	return true;
}

/* Little-endian loads without a check, as be_load32 and be_load64: for
 * the loops that checked once that a span covers every load they make
 * (a counter block's length against its object's counters). */
static inline uint32_t
le_load32(const uint8_t *q)
{
	return (uint32_t)q[0] | ((uint32_t)q[1] << 8) | ((uint32_t)q[2] << 16) |
	       ((uint32_t)q[3] << 24);
}

static inline uint64_t
le_load64(const uint8_t *q)
{
	return (uint64_t)q[0] | ((uint64_t)q[1] << 8) | ((uint64_t)q[2] << 16) |
	       ((uint64_t)q[3] << 24) | ((uint64_t)q[4] << 32) | ((uint64_t)q[5] << 40) |
	       ((uint64_t)q[6] << 48) | ((uint64_t)q[7] << 56);
}

static inline bool
le_u32(struct span s, size_t off, uint32_t *out)
{
	if (!span_has(s, off, 4))
		return false;
	*out = le_load32(s.p + off);
	return true;
}

static inline bool
le_u64(struct span s, size_t off, uint64_t *out)
{
	if (!span_has(s, off, 8))
		return false;
	*out = le_load64(s.p + off);
	return true;
}

/* Writers, for the generator and tests: dst must hold width bytes. */
static inline void
put_be(uint8_t *dst, unsigned width, uint64_t v)
{
	for (unsigned i = width; i-- > 0;) {
		dst[i] = (uint8_t)(v & 0xff);
		v >>= 8;
	}
}

static inline void
put_le(uint8_t *dst, unsigned width, uint64_t v)
{
	for (unsigned i = 0; i < width; i++) {
		dst[i] = (uint8_t)(v & 0xff);
		v >>= 8;
	}
}

#endif
