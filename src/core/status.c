/* status.c: messages and classes of pm_status, from status_list.h. */
#include "core/status.h"
#include "core/exitcode.h"

static const struct {
	const char *name;
	enum status_class cls;
	const char *message;
} status_table[] = {
#define S(name, cls, msg) { #name, SC_##cls, msg },
#include "core/status_list.h"
#undef S
};

const char *
pm_strerror(pm_status st)
{
	if ((unsigned)st >= PM_STATUS_COUNT)
		return "unknown status";
	return status_table[st].message;
}

const char *
pm_status_name(pm_status st)
{
	if ((unsigned)st >= PM_STATUS_COUNT)
		return "PM_E_UNKNOWN";
	return status_table[st].name;
}

enum status_class
pm_status_class(pm_status st)
{
	if ((unsigned)st >= PM_STATUS_COUNT)
		return SC_INPUT;
	return status_table[st].cls;
}

int
pm_class_exit_code(enum status_class cls)
{
	switch (cls) {
	case SC_OK: return EXIT_CLEAN;
	case SC_WARN: return EXIT_WARNINGS;
	case SC_INPUT: return EXIT_INPUT;
	case SC_USAGE: return EXIT_USAGE;
	case SC_OUTPUT: return EXIT_OUTPUT;
	}
	return EXIT_INPUT;
}
