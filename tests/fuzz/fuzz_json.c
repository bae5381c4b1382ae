/* fuzz_json.c: libFuzzer harness for JSON strings (out/jsonstr.c) and the
 * JSON lines writer. The input, any bytes, is made a JSON string, which
 * must be what RFC 8259 allows and valid UTF-8 (checked here by decoding
 * code points by their bits, not by the writer's table): quotes at its
 * ends only, no byte below 0x20, escapes of the known kinds, every
 * sequence in its shortest form, no surrogate, nothing past U+10FFFF; read
 * back, it gives the input exactly when the input is valid UTF-8. Then
 * the input is a row's text cell and, as its first eight bytes, a double
 * through jsonout: one line, an object, ending in LF. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out/jsonout.h"
#include "out/jsonstr.h"

/* The code point of the UTF-8 sequence at p (n bytes left), its length in
 * *len; -1 when it is not valid UTF-8. */
static long
decode(const uint8_t *p, size_t n, size_t *len)
{
	static const long least[] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t k = p[0] < 0x80 ? 1 : (p[0] & 0xE0) == 0xC0 ? 2 : (p[0] & 0xF0) == 0xE0 ? 3
	           : (p[0] & 0xF8) == 0xF0 ? 4 : 0;
	long cp;

	if (k == 0 || k > n)
		return -1;
	cp = k == 1 ? p[0] : p[0] & (0x7F >> k);
	for (size_t i = 1; i < k; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return -1;
		cp = cp << 6 | (p[i] & 0x3F);
	}
	if (cp < least[k] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return -1;
	*len = k;
	return cp;
}

static bool
valid_utf8(const uint8_t *p, size_t n)
{
	size_t len;

	for (size_t i = 0; i < n; i += len)
		if (decode(p + i, n - i, &len) < 0)
			return false;
	return true;
}

static int
hex_digit(uint8_t c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* The JSON string at s (n bytes, quotes included) read back into out
 * (n bytes); its length, or abort() when it is not a JSON string. */
static size_t
unescape(const uint8_t *s, size_t n, uint8_t *out)
{
	size_t o = 0;

	if (n < 2 || s[0] != '"' || s[n - 1] != '"' || !valid_utf8(s, n))
		abort();
	for (size_t i = 1; i < n - 1; i++) {
		const char *simple = "\"\\/bfnrt", *as = "\"\\/\b\f\n\r\t", *at;
		if (s[i] < 0x20 || s[i] == '"')
			abort();
		if (s[i] != '\\') {
			out[o++] = s[i];
			continue;
		}
		if (++i >= n - 1)
			abort();
		if (s[i] == 'u') {
			int v = 0;
			for (int k = 0; k < 4; k++) {
				int d = i + 1 < n - 1 ? hex_digit(s[++i]) : -1;
				if (d < 0)
					abort();
				v = v << 4 | d;
			}
			if (v >= 0x20)  /* the writer escapes only control bytes */
				abort();
			out[o++] = (uint8_t)v;
		} else if ((at = strchr(simple, s[i])) && *at) {
			out[o++] = (uint8_t)as[at - simple];
		} else {
			abort();
		}
	}
	return o;
}

static void
through_writer(const uint8_t *data, size_t size)
{
	static const struct sink_column cols[] = {
		{ "text", "text", false, false, 0, 0 }, { "x", "x", true, false, 0, 0 },
	};
	struct sink_cell cells[2] = {
		{ .kind = SINK_TEXT, .v.text = { (const char *)data, size } },
		{ .kind = SINK_REAL, .decimals = 3 },
	};
	struct report_meta m = { .name = "fuzz" };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct rowsink *sink;

	if (!fp || jsonout_open(&sink, fp) != PM_OK)
		abort();
	if (size >= sizeof cells[1].v.real)
		memcpy(&cells[1].v.real, data, sizeof cells[1].v.real);
	if (sink->begin(sink, cols, 2, false) != PM_OK)
		abort();
	sink->row(sink, cells, false);
	if (sink->end(sink, &m) != PM_OK)
		abort();
	sink->close(sink);
	if (fclose(fp) != 0)
		abort();
	if (len < 3 || buf[0] != '{' || buf[len - 2] != '}' || buf[len - 1] != '\n' ||
	    memchr(buf, '\n', len - 1) || !valid_utf8((const uint8_t *)buf, len))
		abort();
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *json = malloc(JSON_STRING_MAX(size)), *back = malloc(JSON_STRING_MAX(size));
	size_t n, m;

	if (!json || !back)
		abort();
	n = json_string((char *)json, (const char *)data, size);
	if (n > JSON_STRING_MAX(size))
		abort();
	m = unescape(json, n, back);
	if (valid_utf8(data, size) != (m == size && memcmp(back, data, size) == 0))
		abort();
	free(json);
	free(back);
	through_writer(data, size);
	return 0;
}
