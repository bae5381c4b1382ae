/* names.c: the title table of --perf-names. See names.h. The table is
 * read whole: it is a few hundred kilobytes at most, and read once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/numparse.h"
#include "winperf/names.h"
#include "winperf/utf16.h"

#define NAMES_MAX ((size_t)64 << 20)

struct title {
	uint32_t index;
	size_t name;        /* offset in text */
};

struct wp_names {
	char *text;         /* the strings, UTF-8, each NUL-terminated */
	size_t ntext;
	struct title *titles;
	size_t ntitles;
};

static pm_status
slurp(const char *path, uint8_t **buf, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	size_t cap = 0, n;
	uint8_t *p = NULL, *q;

	if (!fp)
		return PM_E_OPEN;
	*len = 0;
	do {
		if (*len == cap) {
			cap = cap ? cap * 2 : 65536;
			if (cap > NAMES_MAX || !(q = realloc(p, cap))) {
				free(p);
				fclose(fp);
				return PM_E_NOMEM;
			}
			p = q;
		}
		n = fread(p + *len, 1, cap - *len, fp);
		*len += n;
	} while (n > 0);
	if (ferror(fp)) {
		free(p);
		fclose(fp);
		return PM_E_READ;
	}
	fclose(fp);
	*buf = p;
	return PM_OK;
}

/* The strings of the table into t->text, one after the other: UTF-16LE
 * strings ending in a NUL each, or UTF-8 lines (CR LF or LF). */
static pm_status
split(struct wp_names *t, const uint8_t *b, size_t len, size_t *count)
{
	bool utf16 = len >= 2 && ((b[0] == 0xFF && b[1] == 0xFE) || (b[1] == 0 && b[0] != 0));
	size_t start = utf16 && b[0] == 0xFF ? 2 : 0;

	if (!(t->text = malloc(utf16 ? WP_UTF8_CAP(len) + len / 2 : len + 1)))
		return PM_E_NOMEM;
	*count = 0;
	for (size_t i = start; i < len;) {
		size_t end = i;
		if (utf16) {
			while (end + 1 < len && (b[end] || b[end + 1]))
				end += 2;
			t->ntext += wp_utf16_to_utf8(span_make(b + i, end - i), t->text + t->ntext,
			                             WP_UTF8_CAP(end - i)) + 1;
			i = end + 2;
		} else {
			while (end < len && b[end] != '\n')
				end++;
			size_t n = end - i - (end > i && b[end - 1] == '\r');
			memcpy(t->text + t->ntext, b + i, n);
			t->text[t->ntext + n] = '\0';
			t->ntext += n + 1;
			i = end + 1;
		}
		++*count;
	}
	return PM_OK;
}

static int
by_index(const void *a, const void *b)
{
	const struct title *x = a, *y = b;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Index and name strings alternating, up to the first empty index. */
static pm_status
pair(struct wp_names *t, size_t count, char *err, size_t cap)
{
	size_t at = 0;
	uint64_t index;

	if (!(t->titles = malloc((count / 2 + 1) * sizeof *t->titles)))
		return PM_E_NOMEM;
	for (size_t i = 0; i + 1 < count; i += 2) {
		const char *s = t->text + at;
		if (*s == '\0')
			break;
		if (!numparse_u64(s, UINT32_MAX, &index)) {
			snprintf(err, cap, "string %zu: '%.40s' is not a title index", i + 1, s);
			return PM_E_PERF_NAMES;
		}
		at += strlen(s) + 1;
		t->titles[t->ntitles++] = (struct title){ (uint32_t)index, at };
		at += strlen(t->text + at) + 1;
	}
	qsort(t->titles, t->ntitles, sizeof *t->titles, by_index);
	return PM_OK;
}

pm_status
wp_names_load(struct wp_names **out, const char *path, char *err, size_t cap)
{
	struct wp_names *t = calloc(1, sizeof *t);
	uint8_t *buf = NULL;
	size_t len, count;
	pm_status st;

	*out = NULL;
	if (!t)
		return PM_E_NOMEM;
	st = slurp(path, &buf, &len);
	if (st == PM_OK)
		st = split(t, buf, len, &count);
	if (st == PM_OK)
		st = pair(t, count, err, cap);
	free(buf);
	if (st != PM_OK) {
		wp_names_free(t);
		return st;
	}
	*out = t;
	return PM_OK;
}

const char *
wp_name(const struct wp_names *names, uint32_t i, char buf[12])
{
	struct title key = { i, 0 };
	const struct title *hit = names
		? bsearch(&key, names->titles, names->ntitles, sizeof key, by_index) : NULL;

	if (hit)
		return names->text + hit->name;
	snprintf(buf, 12, "%u", (unsigned)i);
	return buf;
}

static const struct {
	uint32_t index;
	const char *name;
} english[] = {
#define TITLE(index, name) { index, name },
#include "winperf/english.h"
#undef TITLE
};

bool
wp_names_is(const struct wp_names *names, const char *name, uint32_t i)
{
	struct title key = { i, 0 };
	const struct title *hit = names
		? bsearch(&key, names->titles, names->ntitles, sizeof key, by_index) : NULL;

	if (hit)
		return strcmp(names->text + hit->name, name) == 0;
	for (size_t k = 0; k < sizeof english / sizeof english[0]; k++)
		if (english[k].index == i)
			return strcmp(english[k].name, name) == 0;
	return false;
}

void
wp_names_free(struct wp_names *names)
{
	if (!names)
		return;
	free(names->text);
	free(names->titles);
	free(names);
}
