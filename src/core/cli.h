/* cli.h: what pmimrpt and pmimgen share on the command line. A program's
 * options are one table: each entry gives getopt's long option, the
 * option's --help entry and what it does, so that the help, the parser and
 * the option itself cannot drift apart. Lists of names an option takes
 * (framings, periods, reports) are functions the parser, the help and the
 * messages all ask. */
#ifndef CLI_H
#define CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/diag.h"

/* What a handler returns to stop the parse with exit code 0, after
 * --help or --version has printed what was asked. */
#define CLI_STOP (-1)

/* The i-th name an option takes, NULL past the last; the first is the
 * default. */
typedef const char *cli_names(size_t i);

struct cli_option {
	const char *name;    /* the long name; NULL: a line of --help alone,
	                      * a heading or ("") a blank line */
	char short_name;     /* 0: none */
	int has_arg;         /* no_argument, required_argument, optional_argument */
	const char *arg;     /* the argument as --help shows it: "=FILE", "[=N]" */
	/* Does what the option does to what it sets, target bytes into the
	 * program's options (0: all of them): returns EXIT_CLEAN, CLI_STOP,
	 * or an exit code after saying why through d. NULL: another form of
	 * the option before it, listed in --help only. */
	int (*set)(void *target, struct diag *d, const char *arg);
	size_t target;
	const char *help;    /* lines ('\n' between; longer ones are wrapped);
	                      * "{}" stands for the names, the default marked */
	cli_names *names;
};

struct cli_program {
	const char *usage;   /* --help before the options */
	const struct cli_option *options;
	size_t noptions;
	unsigned help_column; /* where descriptions start in --help */
};

/* Setters of options that take no checking: a const char * to the
 * argument, a bool to true. */
int cli_set_string(void *target, struct diag *d, const char *arg);
int cli_set_true(void *target, struct diag *d, const char *arg);

/* The options of argv by the program's table, to ctx; returns EXIT_CLEAN
 * (optind is the first operand), CLI_STOP, or the first failure's exit
 * code. */
int cli_parse(const struct cli_program *p, int argc, char **argv, void *ctx,
              struct diag *d);

/* The usage text and every option's entry. */
void cli_help(const struct cli_program *p, FILE *fp);

/* The index of name among names, or -1. */
long cli_name_index(cli_names *names, const char *name);

/* The names as "a, b, c or d", with " (default)" after the first when
 * mark_default; cut short to fit cap. Returns buf. */
const char *cli_name_list(cli_names *names, bool mark_default, char *buf,
                          size_t cap);

#endif
