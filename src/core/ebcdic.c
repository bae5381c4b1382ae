/* ebcdic.c: code-page conversion through iconv. See ebcdic.h. */
#include <ctype.h>
#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/ebcdic.h"
#include "core/text.h"

struct conv {
	iconv_t cd;
};

void
ebcdic_iconv_name(const char *user, char *out, size_t cap)
{
	/* glibc knows IBM037 and IBM1047; some also know IBM-1047. Drop the
	 * dash after "IBM" and accept bare numbers ("037"). */
	const char *digits = user;
	if (strncasecmp(user, "IBM", 3) == 0)
		digits = user + 3 + (user[3] == '-' || user[3] == '_');
	else if (strncasecmp(user, "CP", 2) == 0)
		digits = user + 2;
	if (*digits && strspn(digits, "0123456789") == strlen(digits))
		snprintf(out, cap, "IBM%s", digits);
	else
		text_copy(out, cap, user);
}

static iconv_t
open_named(const char *to, const char *from)
{
	char from_name[64], to_name[64];
	iconv_t cd = iconv_open(to, from);

	if (cd != (iconv_t)-1)
		return cd;
	ebcdic_iconv_name(from, from_name, sizeof from_name);
	ebcdic_iconv_name(to, to_name, sizeof to_name);
	return iconv_open(to_name, from_name);
}

pm_status
conv_open(struct conv **cvp, const char *from, const char *to)
{
	struct conv *cv = malloc(sizeof *cv);
	if (!cv)
		return PM_E_NOMEM;
	cv->cd = open_named(to, from);
	if (cv->cd == (iconv_t)-1) {
		free(cv);
		return PM_E_CODEPAGE;
	}
	*cvp = cv;
	return PM_OK;
}

size_t
conv_text(struct conv *cv, const uint8_t *in, size_t n, char *out, size_t cap)
{
	size_t len;

	if (cap == 0)
		return 0;
	len = conv_buffer(cv, (const char *)in, n, out, cap - 1);
	if (len == (size_t)-1)
		len = 0;
	/* EBCDIC blanks and NULs pad fixed-width names. */
	while (len && (out[len - 1] == ' ' || out[len - 1] == '\0'))
		len--;
	for (size_t i = 0; i < len; i++)
		if (!isprint((unsigned char)out[i]) && (unsigned char)out[i] < 0x80)
			out[i] = '?';
	out[len] = '\0';
	return len;
}

size_t
conv_buffer(struct conv *cv, const char *in, size_t n, char *out, size_t cap)
{
	char *src = (char *)(uintptr_t)in; /* iconv's prototype lacks const */
	char *dst = out;
	size_t left = n, room = cap;

	iconv(cv->cd, NULL, NULL, NULL, NULL);
	while (left > 0) {
		if (iconv(cv->cd, &src, &left, &dst, &room) != (size_t)-1)
			break;
		if (errno == E2BIG)
			return (size_t)-1;
		/* EILSEQ or EINVAL: substitute one byte and go on */
		if (room == 0)
			return (size_t)-1;
		*dst++ = '?';
		room--;
		src++;
		left--;
	}
	return cap - room;
}

void
conv_close(struct conv *cv)
{
	if (cv) {
		iconv_close(cv->cd);
		free(cv);
	}
}
