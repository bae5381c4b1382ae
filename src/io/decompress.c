/* decompress.c: gzip and zstd decoders under an input. See decompress.h.
 *
 * One loop serves both codecs: a codec decodes from the buffer of
 * compressed bytes into the reader's own buffer (no copy between), and
 * says when a gzip member or a zstd frame has ended; at that boundary the
 * loop looks for the magic of another one, and otherwise counts the rest
 * as trailing garbage. */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "io/decompress.h"
#include "io/input.h"

#ifdef HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif
#if defined(ZLIB_SONAME) || defined(ZSTD_SONAME)
#include "core/module.h"
#endif

/* Compressed bytes read from the source at a time. */
#define RAW_BUFFER ((size_t)128 << 10)

enum step { STEP_MORE, STEP_END, STEP_ERROR };

struct decoder {
	const struct codec *codec;
#ifdef HAVE_ZLIB
	z_stream z;
#endif
#ifdef HAVE_ZSTD
	ZSTD_DStream *zs;
#endif
	uint8_t raw[RAW_BUFFER]; /* compressed bytes: [pos, len) not decoded */
	size_t pos, len;
	bool raw_eof;            /* the source has no more */
	bool inside;             /* inside a member or frame */
	bool done;               /* reads return 0 from now on */
	bool closed;             /* never opened: its library did not load */
	uint64_t consumed;       /* compressed bytes read from the source */
	uint64_t produced;       /* decoded bytes handed out */
	const char *error;       /* the library's words for a STEP_ERROR */
};

/* A codec: its magic, and its decoder's life. step decodes d->raw[pos,
 * len) into out (cap bytes), advancing pos and setting *n; it may be
 * called with no compressed bytes left, to flush what it holds. */
struct codec {
	const char *name;
	const char *unit;      /* what the stream is made of */
	const char *truncated; /* the stream ends inside one */
	size_t magic_len;      /* at most DECOMPRESS_MAGIC_LEN */
	bool (*magic)(const uint8_t *p);
	bool (*load)(char *why, size_t cap); /* its library, else why not */
	bool (*open)(struct decoder *d);
	enum step (*step)(struct decoder *d, uint8_t *out, size_t cap, size_t *n);
	void (*next)(struct decoder *d); /* ready for another member or frame */
	void (*close)(struct decoder *d);
};

/* A codec's library: its functions called through a table, linked in or,
 * where configure found the library's soname (ZLIB_SONAME, ZSTD_SONAME),
 * loaded by the first input of that codec (core/module.h): linked, the
 * libraries cost every run their loading, compressed input or not. */

#ifdef HAVE_ZLIB
static struct zlib_fns {
	int (*inflateInit2_)(z_streamp, int, const char *, int);
	int (*inflate)(z_streamp, int);
	int (*inflateReset)(z_streamp);
	int (*inflateEnd)(z_streamp);
	const char *(*zError)(int);
} zl
#ifndef ZLIB_SONAME
	= { inflateInit2_, inflate, inflateReset, inflateEnd, zError };
#else
	;
static const char *const zlib_names[] = {
	"inflateInit2_", "inflate", "inflateReset", "inflateEnd", "zError"
};
static void *zlib_fns[sizeof zlib_names / sizeof zlib_names[0]];
static struct module_lazy zlib_lazy = { PTHREAD_ONCE_INIT, ZLIB_SONAME, zlib_names, zlib_fns,
                                 sizeof zlib_names / sizeof zlib_names[0], false, "" };

static void
zlib_resolve(void)
{
	/* the table's types are the header's, checked without a reference */
	(void)sizeof(zl = (struct zlib_fns){ inflateInit2_, inflate, inflateReset,
	                                     inflateEnd, zError });
	if (!module_lazy_resolve(&zlib_lazy))
		return;
	zl.inflateInit2_ = (int (*)(z_streamp, int, const char *, int))zlib_fns[0];
	zl.inflate = (int (*)(z_streamp, int))zlib_fns[1];
	zl.inflateReset = (int (*)(z_streamp))zlib_fns[2];
	zl.inflateEnd = (int (*)(z_streamp))zlib_fns[3];
	zl.zError = (const char *(*)(int))zlib_fns[4];
}
#endif

static bool
gzip_magic(const uint8_t *p)
{
	return p[0] == 0x1f && p[1] == 0x8b;
}

static bool
gzip_load(char *why, size_t cap)
{
#ifdef ZLIB_SONAME
	return module_lazy_load(&zlib_lazy, zlib_resolve, why, cap);
#else
	(void)why;
	(void)cap;
	return true;
#endif
}

static bool
gzip_open(struct decoder *d)
{
	/* 16 + the largest window: gzip members only, no zlib or raw deflate */
	return zl.inflateInit2_(&d->z, 16 + MAX_WBITS, ZLIB_VERSION, (int)sizeof d->z) == Z_OK;
}

static enum step
gzip_step(struct decoder *d, uint8_t *out, size_t cap, size_t *n)
{
	int rc;

	d->z.next_in = d->raw + d->pos;
	d->z.avail_in = (uInt)(d->len - d->pos);
	d->z.next_out = out;
	d->z.avail_out = cap > UINT32_MAX ? UINT32_MAX : (uInt)cap;
	rc = zl.inflate(&d->z, Z_NO_FLUSH);
	d->pos = d->len - d->z.avail_in;
	*n = (size_t)(d->z.next_out - out);
	if (rc == Z_STREAM_END)
		return STEP_END;
	if (rc == Z_OK || rc == Z_BUF_ERROR)
		return STEP_MORE;
	d->error = d->z.msg ? d->z.msg : zl.zError(rc);
	return STEP_ERROR;
}

static void
gzip_next(struct decoder *d)
{
	(void)zl.inflateReset(&d->z);
}

static void
gzip_close(struct decoder *d)
{
	(void)zl.inflateEnd(&d->z);
}
#endif

#ifdef HAVE_ZSTD
static struct zstd_fns {
	ZSTD_DStream *(*createDStream)(void);
	size_t (*initDStream)(ZSTD_DStream *);
	size_t (*decompressStream)(ZSTD_DStream *, ZSTD_outBuffer *, ZSTD_inBuffer *);
	unsigned (*isError)(size_t);
	const char *(*getErrorName)(size_t);
	size_t (*freeDStream)(ZSTD_DStream *);
} zs
#ifndef ZSTD_SONAME
	= { ZSTD_createDStream, ZSTD_initDStream, ZSTD_decompressStream, ZSTD_isError,
	    ZSTD_getErrorName, ZSTD_freeDStream };
#else
	;
static const char *const zstd_names[] = {
	"ZSTD_createDStream", "ZSTD_initDStream", "ZSTD_decompressStream", "ZSTD_isError",
	"ZSTD_getErrorName", "ZSTD_freeDStream"
};
static void *zstd_fns[sizeof zstd_names / sizeof zstd_names[0]];
static struct module_lazy zstd_lazy = { PTHREAD_ONCE_INIT, ZSTD_SONAME, zstd_names, zstd_fns,
                                 sizeof zstd_names / sizeof zstd_names[0], false, "" };

static void
zstd_resolve(void)
{
	(void)sizeof(zs = (struct zstd_fns){ ZSTD_createDStream, ZSTD_initDStream,
	                                     ZSTD_decompressStream, ZSTD_isError,
	                                     ZSTD_getErrorName, ZSTD_freeDStream });
	if (!module_lazy_resolve(&zstd_lazy))
		return;
	zs.createDStream = (ZSTD_DStream *(*)(void))zstd_fns[0];
	zs.initDStream = (size_t (*)(ZSTD_DStream *))zstd_fns[1];
	zs.decompressStream = (size_t (*)(ZSTD_DStream *, ZSTD_outBuffer *,
	                                  ZSTD_inBuffer *))zstd_fns[2];
	zs.isError = (unsigned (*)(size_t))zstd_fns[3];
	zs.getErrorName = (const char *(*)(size_t))zstd_fns[4];
	zs.freeDStream = (size_t (*)(ZSTD_DStream *))zstd_fns[5];
}
#endif

static bool
zstd_load(char *why, size_t cap)
{
#ifdef ZSTD_SONAME
	return module_lazy_load(&zstd_lazy, zstd_resolve, why, cap);
#else
	(void)why;
	(void)cap;
	return true;
#endif
}

/* A zstd frame, or a skippable frame (0x184D2A50 to 0x184D2A5F), little
 * endian. */
static bool
zstd_magic(const uint8_t *p)
{
	return (p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f && p[3] == 0xfd) ||
	       ((p[0] & 0xf0) == 0x50 && p[1] == 0x2a && p[2] == 0x4d && p[3] == 0x18);
}

static bool
zstd_open(struct decoder *d)
{
	return (d->zs = zs.createDStream()) != NULL &&
	       !zs.isError(zs.initDStream(d->zs));
}

static enum step
zstd_step(struct decoder *d, uint8_t *out, size_t cap, size_t *n)
{
	ZSTD_inBuffer in = { d->raw, d->len, d->pos };
	ZSTD_outBuffer o = { out, cap, 0 };
	size_t rc = zs.decompressStream(d->zs, &o, &in);

	d->pos = in.pos;
	*n = o.pos;
	if (zs.isError(rc)) {
		d->error = zs.getErrorName(rc);
		return STEP_ERROR;
	}
	/* 0: a frame decoded and flushed whole; the next one starts afresh */
	return rc == 0 ? STEP_END : STEP_MORE;
}

static void
zstd_next(struct decoder *d)
{
	(void)d;
}

static void
zstd_close(struct decoder *d)
{
	zs.freeDStream(d->zs);
}
#endif

static const struct codec codecs[] = {
#ifdef HAVE_ZLIB
	{ "gzip", "member", "stream truncated inside a member", 2, gzip_magic, gzip_load, gzip_open, gzip_step, gzip_next, gzip_close },
#endif
#ifdef HAVE_ZSTD
	{ "zstd", "frame", "stream truncated inside a frame", 4, zstd_magic, zstd_load, zstd_open, zstd_step, zstd_next, zstd_close },
#endif
	{ NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL }
};

static ssize_t damaged(struct input *in, struct decoder *d, const char *what, size_t n);

bool
decompress_stack(struct input *in, const uint8_t *head, size_t n, pm_status *st)
{
	const struct codec *c = codecs;
	struct decoder *d;
	char why[256];

	*st = PM_OK;
	while (c->name && (n < c->magic_len || !c->magic(head)))
		c++;
	if (!c->name)
		return false;
	if (!(d = calloc(1, sizeof *d))) {
		*st = PM_E_NOMEM;
		return false;
	}
	d->codec = c;
	if (!c->load(why, sizeof why)) {
		/* nothing decoded: said as damage at the start, and the reads end */
		d->closed = true;
		in->decoder = d;
		damaged(in, d, why, 0);
		return true;
	}
	if (!c->open(d)) {
		free(d);
		*st = PM_E_NOMEM;
		return false;
	}
	memcpy(d->raw, head, n);
	d->len = n;
	d->consumed = n;
	d->inside = true;
	in->decoder = d;
	return true;
}

/* More compressed bytes after those not yet decoded. false on a read
 * error (errno). */
static bool
refill(struct input *in, struct decoder *d)
{
	ssize_t r;

	if (d->pos == 0 && d->len == sizeof d->raw) {
		/* cannot happen: a full buffer always lets a codec advance */
		errno = EIO;
		return false;
	}
	memmove(d->raw, d->raw + d->pos, d->len - d->pos);
	d->len -= d->pos;
	d->pos = 0;
	r = in->source(in, d->raw + d->len, sizeof d->raw - d->len);
	if (r < 0)
		return false;
	if (r == 0)
		d->raw_eof = true;
	d->len += (size_t)r;
	d->consumed += (uint64_t)r;
	return true;
}

/* Damage: said at the decoded offset reached, and the reads end. */
static ssize_t
damaged(struct input *in, struct decoder *d, const char *what, size_t n)
{
	uint64_t at = d->consumed - (d->len - d->pos);

	if (in->diag)
		diag_at(in->diag, PM_E_DECOMPRESS, (int64_t)(d->produced + n),
		        "%s: %s, at compressed byte %" PRIu64 " (the offset counts "
		        "uncompressed bytes)", d->codec->name, what, at);
	in->damaged = true;
	d->done = true;
	d->produced += n;
	return (ssize_t)n;
}

/* After a member or frame: another one, the end, or trailing bytes, which
 * are read to the end to be counted and said once. 1: another one; 0: the
 * end; -1: a read error. */
static int
next_member(struct input *in, struct decoder *d)
{
	uint64_t start;

	while (d->len - d->pos < DECOMPRESS_MAGIC_LEN && !d->raw_eof)
		if (!refill(in, d))
			return -1;
	if (d->len == d->pos)
		return 0;
	if (d->len - d->pos >= d->codec->magic_len && d->codec->magic(d->raw + d->pos)) {
		d->codec->next(d);
		d->inside = true;
		return 1;
	}
	start = d->consumed - (d->len - d->pos);
	while (!d->raw_eof) {
		d->pos = d->len;
		if (!refill(in, d))
			return -1;
	}
	d->pos = d->len;
	if (in->diag)
		diag_at(in->diag, PM_E_TRAILING_GARBAGE, (int64_t)d->produced,
		        "%" PRIu64 " bytes after the last %s %s, at compressed byte %" PRIu64,
		        d->consumed - start, d->codec->name, d->codec->unit, start);
	return 0;
}

ssize_t
decompress_read(struct input *in, uint8_t *buf, size_t cap)
{
	struct decoder *d = in->decoder;

	while (!d->done && cap > 0) {
		size_t before = d->pos, n = 0;
		enum step s;
		int more;

		if (!d->inside) {
			if ((more = next_member(in, d)) < 0)
				return -1;
			if (more == 0) {
				d->done = true;
				break;
			}
		}
		if (d->pos == d->len && !d->raw_eof && !refill(in, d))
			return -1;
		s = d->codec->step(d, buf, cap, &n);
		if (s == STEP_ERROR)
			return damaged(in, d, d->error, n);
		if (s == STEP_END)
			d->inside = false;
		if (n > 0) {
			d->produced += n;
			return (ssize_t)n;
		}
		if (s == STEP_END || d->pos != before)
			continue;
		/* no progress: the codec wants more than there is */
		if (d->raw_eof)
			return damaged(in, d, d->codec->truncated, 0);
		if (!refill(in, d))
			return -1;
	}
	return 0;
}

const char *
decompress_codec(const struct decoder *d)
{
	return d->codec->name;
}

uint64_t
decompress_consumed(const struct decoder *d)
{
	return d->consumed;
}

void
decompress_free(struct decoder *d)
{
	if (!d)
		return;
	if (!d->closed)
		d->codec->close(d);
	free(d);
}
