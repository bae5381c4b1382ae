/* cli.c: shared command-line helpers. See cli.h. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>

#include "core/cli.h"
#include "core/exitcode.h"

int
cli_usage_error(const char *prog, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help' for more information.\n", prog);
	return EXIT_USAGE;
}

int
cli_parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!isdigit((unsigned char)*s))
		return 0;
	for (; isdigit((unsigned char)*s); s++) {
		if (v > (UINT64_MAX - 9) / 10)
			return 0;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return *s == '\0';
}
