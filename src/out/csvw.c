/* csvw.c: CSV rows through libcsv. See csvw.h. */
#include "config.h"

#include <csv.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "out/csvw.h"
#ifdef CSV_SONAME
#include "core/module.h"
#endif
#ifndef ELIBACC
#define ELIBACC ENOENT  /* where the system has no errno for a missing library */
#endif

/* libcsv's csv_write: linked in or, where configure found the library's
 * soname (CSV_SONAME), loaded by the first field that needs quoting
 * (core/module.h), as most runs quote none: linked, the library cost
 * every run its loading. */
typedef size_t csv_write_fn(void *, size_t, const void *, size_t);
#ifndef CSV_SONAME
static csv_write_fn *const quote = csv_write;

static bool
quote_loaded(void)
{
	return true;
}
#else
static csv_write_fn *quote;
static const char *const csv_names[] = { "csv_write" };
static void *csv_fns[1];
static struct module_lazy csv_lazy = { PTHREAD_ONCE_INIT, CSV_SONAME, csv_names, csv_fns,
                                       1, false, "" };

static void
csv_resolve(void)
{
	(void)sizeof(quote = csv_write);  /* the header's type, without a reference */
	if (module_lazy_resolve(&csv_lazy))
		quote = (csv_write_fn *)csv_fns[0];
}

static bool
quote_loaded(void)
{
	char why[256];

	return module_lazy_load(&csv_lazy, csv_resolve, why, sizeof why);
}
#endif

pm_status
csvw_init(struct csvw *w, FILE *fp)
{
	memset(w, 0, sizeof *w);
	w->fp = fp;
	w->cap = 4096;
	w->line = malloc(w->cap);
	return w->line ? PM_OK : PM_E_NOMEM;
}

void
csvw_free(struct csvw *w)
{
	free(w->line);
	w->line = NULL;
}

int
csvw_reserve(struct csvw *w, size_t more)
{
	if (w->len + more <= w->cap)
		return 1;
	size_t cap = w->cap;
	while (cap < w->len + more)
		cap *= 2;
	char *p = realloc(w->line, cap);
	if (!p) {
		w->failed = 1;
		return 0;
	}
	w->line = p;
	w->cap = cap;
	return 1;
}

static void
separator(struct csvw *w)
{
	if (w->fields++ && csvw_reserve(w, 1))
		w->line[w->len++] = ',';
}

void
csvw_raw_growing(struct csvw *w, const char *s, size_t n)
{
	separator(w);
	if (n && csvw_reserve(w, n)) {
		memcpy(w->line + w->len, s, n);
		w->len += n;
	}
}

/* The bytes that make a field quoted wherever they are in it. */
static const bool quoted_byte[256] = { [','] = true, ['"'] = true, ['\n'] = true,
                                       ['\r'] = true };

/* Whether RFC 4180 wants the field quoted: a comma, quote or line break in
 * it, or a blank at either end (which readers may trim). */
static int
needs_quotes(const char *s, size_t n)
{
	if (n == 0)
		return 0;
	if (s[0] == ' ' || s[n - 1] == ' ')
		return 1;
	for (size_t i = 0; i < n; i++)
		if (quoted_byte[(unsigned char)s[i]])
			return 1;
	return 0;
}

void
csvw_text(struct csvw *w, const char *s, size_t n)
{
	if (!needs_quotes(s, n)) {
		csvw_raw(w, s, n);
		return;
	}
	separator(w);
	if (!quote_loaded()) {
		w->failed = 1;
		w->no_library = 1;
		return;
	}
	/* csv_write quotes the field and doubles embedded quotes; it needs at
	 * most 2n + 2 bytes. */
	if (csvw_reserve(w, 2 * n + 2))
		w->len += quote(w->line + w->len, 2 * n + 2, s, n);
}

/* A block goes past the stream's buffer, which would only copy it (the
 * stream's own bytes first); a stream without a descriptor, and the last
 * short block, through fwrite. */
static void
write_held(struct csvw *w)
{
	const char *p = w->line;
	size_t n = w->len;
	int fd = fileno(w->fp);

	w->len = 0;
	if (n >= CSVW_BLOCK && fd >= 0 && fflush(w->fp) == 0) {
		while (n > 0) {
			ssize_t k = write(fd, p, n);
			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0) {
				w->failed = 1;
				return;
			}
			p += k;
			n -= (size_t)k;
		}
	} else if (n && fwrite(p, 1, n, w->fp) != n) {
		w->failed = 1;
	}
}

void
csvw_end_row(struct csvw *w)
{
	if (csvw_reserve(w, 1))
		w->line[w->len++] = '\n';
	w->fields = 0;
	if (w->len >= CSVW_BLOCK)
		write_held(w);
}

pm_status
csvw_finish(struct csvw *w)
{
	write_held(w);
	if (w->no_library)
		errno = ELIBACC;  /* what the writer's message then says */
	return w->failed || ferror(w->fp) ? PM_E_WRITE : PM_OK;
}
