/* copybook.h: record layouts read from assembler DSECT listings, the form
 * in which the #PMINTDS copybook is published (copybooks/). The listing's own
 * location counter gives each field's offset; the DS operand gives its type
 * and length; the comment gives its units. No C code types an offset.
 *
 * Listing lines understood (anything else is a comment or a blank):
 *   LOC    LABEL OP OPERAND COMMENT    e.g. "000030 INTDBIRT DS F ....SUM ..."
 *   VALUE  LABEL EQU EXPR COMMENT     e.g. "0001C INTHDRLN EQU *-INTHDR ..."
 *   * ... SEQ#=n ...                  starts part n of a multi-part record
 * OP is DS, DC, EQU, ORG or DSECT. A field's part is the one whose comment
 * line came last before it; fields before any part are the common header
 * (part 0). */
#ifndef COPYBOOK_H
#define COPYBOOK_H

#include <stddef.h>

#include "core/status.h"

#define CB_NAME_MAX 16
#define CB_DESC_MAX 64
#define CB_MAX_FIELDS 192
#define CB_MAX_EQUATES 48
#define CB_MAX_BUCKETS 48
#define CB_MAX_PARTS 8 /* part 0 is the common header */

enum cb_units {
	CB_UNITS_NONE,    /* flags, types, lengths, reserved */
	CB_UNITS_COUNT,   /* a number of events ("# WAITS", "# TASKS") */
	CB_UNITS_TIME_E4, /* 10**-4 second */
	CB_UNITS_TIME_E2, /* 10**-2 second */
	CB_UNITS_TOD,     /* TOD clock units: 4,096,000,000 a second */
	CB_UNITS_PDATE,   /* packed date 00YYYDDF / 0CYYDDDF */
	CB_UNITS_TEXT     /* EBCDIC characters */
};

struct cb_field {
	char name[CB_NAME_MAX];
	unsigned part;
	size_t offset;
	size_t length;   /* bytes; 0 for labels (DS 0F) */
	char type;       /* DS type letter: H F D X P C */
	enum cb_units units;
	char desc[CB_DESC_MAX];
};

struct cb_equate {
	char name[CB_NAME_MAX];
	long value;
	char desc[CB_DESC_MAX];
};

/* A wait bucket: a DS 0F label L followed by fields LT, LH and L#, the sum
 * of wait times, the highest wait time and the number of waits. */
struct cb_bucket {
	char label[CB_NAME_MAX];
	char desc[CB_DESC_MAX];
	unsigned part;
	int sum, high, count; /* indices into layout.fields */
};

struct layout {
	char name[CB_NAME_MAX];           /* the DSECT's label, e.g. "#PMINT" */
	struct cb_field fields[CB_MAX_FIELDS];
	size_t nfields;
	struct cb_equate equates[CB_MAX_EQUATES];
	size_t nequates;
	struct cb_bucket buckets[CB_MAX_BUCKETS];
	size_t nbuckets;
	unsigned nparts;                  /* highest part number + 1 */
	size_t part_end[CB_MAX_PARTS];    /* extent of each part, from its DS
	                                     statements (named or not) */
};

/* Parse a listing. On error, returns PM_E_LAYOUT and writes "line N: what"
 * into err. */
pm_status layout_parse(const char *text, struct layout *lay, char *err,
                       size_t errlen);

/* The field named name, or NULL. */
const struct cb_field *layout_field(const struct layout *lay, const char *name);
int layout_field_index(const struct layout *lay, const char *name);

/* The value of EQU name; returns 0 and leaves *value when it is absent. */
int layout_equate(const struct layout *lay, const char *name, long *value);

/* A short name for units, as --describe prints it ("10**-4 s", "TOD", ...). */
const char *cb_units_name(enum cb_units u);

#endif
