/* utf16.c: UTF-16LE to UTF-8. See utf16.h. */
#include "winperf/utf16.h"

/* One code point as UTF-8; the bytes written (out holds 4). */
static size_t
put_utf8(char *out, uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xC0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xE0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | cp >> 18);
	out[1] = (char)(0x80 | (cp >> 12 & 0x3F));
	out[2] = (char)(0x80 | (cp >> 6 & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

size_t
wp_utf16_to_utf8(struct span s, char *out, size_t cap)
{
	size_t len = 0;
	uint16_t u, low;
	char tmp[4];

	if (cap == 0)
		return 0;
	for (size_t off = 0; le_u16(s, off, &u) && u != 0; off += 2) {
		uint32_t cp = u;
		if (u >= 0xD800 && u < 0xDC00 && le_u16(s, off + 2, &low) &&
		    low >= 0xDC00 && low < 0xE000) {
			cp = 0x10000 + ((uint32_t)(u - 0xD800) << 10) + (low - 0xDC00);
			off += 2;
		} else if (u >= 0xD800 && u < 0xE000) {
			cp = '?';
		}
		size_t n = put_utf8(tmp, cp);
		if (n > cap - 1 - len)
			break;
		for (size_t i = 0; i < n; i++)
			out[len++] = tmp[i];
	}
	out[len] = '\0';
	return len;
}
