/* status.h: the one error type (pm_status) and its one message function.
 * Every module returns or reports a pm_status; diag.c turns them into
 * messages, and the worst class seen becomes the exit code. */
#ifndef STATUS_H
#define STATUS_H

enum status_class { SC_OK, SC_WARN, SC_INPUT, SC_USAGE, SC_OUTPUT };

typedef enum pm_status {
#define S(name, cls, msg) name,
#include "core/status_list.h"
#undef S
	PM_STATUS_COUNT
} pm_status;

/* The message for a status; a fallback text for values out of range. */
const char *pm_strerror(pm_status st);
/* The status's class, which decides the exit code (see exitcode.h). */
enum status_class pm_status_class(pm_status st);
/* The exit code for a class (0, 4, 8, 12 or 16). */
int pm_class_exit_code(enum status_class cls);
/* The C identifier of a status, e.g. "PM_E_TRUNCATED", for tests and logs. */
const char *pm_status_name(pm_status st);

#endif
