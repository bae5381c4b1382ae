/* exitcode.h: the process exit codes, in the batch convention that job
 * schedulers know (condition codes 0, 4, 8, 12, 16). Documented in README.md
 * and pmimrpt.1; change all three together. */
#ifndef EXITCODE_H
#define EXITCODE_H

enum exit_code {
	EXIT_CLEAN = 0,    /* everything read and reported */
	EXIT_WARNINGS = 4, /* finished, but records were skipped as damaged,
	                    * parts duplicated or intervals left incomplete */
	EXIT_INPUT = 8,    /* an input could not be read or processed to its end */
	EXIT_USAGE = 12,   /* usage or configuration error */
	EXIT_OUTPUT = 16   /* output could not be written */
};

#endif
