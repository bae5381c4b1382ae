/* cli.h: what pmimrpt and pmimgen share on the command line: usage errors
 * in one form, and strict number parsing. */
#ifndef CLI_H
#define CLI_H

#include <stdint.h>

/* Print "PROG: message" and the --help hint on stderr; returns the usage
 * exit code (12). */
int cli_usage_error(const char *prog, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* A decimal number and nothing else: no sign, no blanks, no overflow. */
int cli_parse_u64(const char *s, uint64_t *out);

#endif
