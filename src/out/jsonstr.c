/* jsonstr.c: bytes as a JSON string. See jsonstr.h. */
#include <stdint.h>

#include "out/jsonstr.h"

/* The continuation bytes a lead byte wants, and the range its first one
 * must fall in (which rules out overlong forms, surrogates and code
 * points past U+10FFFF); the others are 0x80..0xBF. need 0: not a lead
 * byte. Unicode's Table 3-7, Well-Formed UTF-8 Byte Sequences. */
struct utf8_lead {
	uint8_t need, lo, hi;
};

static struct utf8_lead
utf8_lead(uint8_t b)
{
	if (b >= 0xC2 && b <= 0xDF)
		return (struct utf8_lead){ 1, 0x80, 0xBF };
	if (b == 0xE0)
		return (struct utf8_lead){ 2, 0xA0, 0xBF };
	if (b == 0xED)
		return (struct utf8_lead){ 2, 0x80, 0x9F };
	if (b >= 0xE1 && b <= 0xEF)
		return (struct utf8_lead){ 2, 0x80, 0xBF };
	if (b == 0xF0)
		return (struct utf8_lead){ 3, 0x90, 0xBF };
	if (b >= 0xF1 && b <= 0xF3)
		return (struct utf8_lead){ 3, 0x80, 0xBF };
	if (b == 0xF4)
		return (struct utf8_lead){ 3, 0x80, 0x8F };
	return (struct utf8_lead){ 0, 0, 0 };
}

/* The length of the well-formed sequence at p (n > 0 bytes, p[0] not
 * ASCII); 0 when it is ill-formed, with *skip the bytes of its maximal
 * subpart (at least 1), which one U+FFFD replaces. */
static size_t
utf8_sequence(const uint8_t *p, size_t n, size_t *skip)
{
	struct utf8_lead l = utf8_lead(p[0]);
	size_t i = 1;

	if (l.need && i < n && p[i] >= l.lo && p[i] <= l.hi)
		for (i++; i <= l.need && i < n && p[i] >= 0x80 && p[i] <= 0xBF; i++)
			;
	if (l.need && i == (size_t)l.need + 1)
		return i;
	*skip = i;
	return 0;
}

size_t
json_string(char *out, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const uint8_t *p = (const uint8_t *)s;
	char *o = out;

	*o++ = '"';
	for (size_t i = 0; i < n;) {
		uint8_t b = p[i];
		size_t len, skip;

		if (b >= 0x80) {
			if ((len = utf8_sequence(p + i, n - i, &skip)) != 0) {
				for (size_t k = 0; k < len; k++)
					*o++ = (char)p[i + k];
				i += len;
			} else {
				*o++ = (char)0xEF, *o++ = (char)0xBF, *o++ = (char)0xBD;
				i += skip;
			}
			continue;
		}
		i++;
		switch (b) {
		case '"': *o++ = '\\', *o++ = '"'; continue;
		case '\\': *o++ = '\\', *o++ = '\\'; continue;
		case '\b': *o++ = '\\', *o++ = 'b'; continue;
		case '\f': *o++ = '\\', *o++ = 'f'; continue;
		case '\n': *o++ = '\\', *o++ = 'n'; continue;
		case '\r': *o++ = '\\', *o++ = 'r'; continue;
		case '\t': *o++ = '\\', *o++ = 't'; continue;
		default: break;
		}
		if (b < 0x20) {
			*o++ = '\\', *o++ = 'u', *o++ = '0', *o++ = '0';
			*o++ = hex[b >> 4], *o++ = hex[b & 15];
		} else {
			*o++ = (char)b;
		}
	}
	*o++ = '"';
	return (size_t)(o - out);
}
