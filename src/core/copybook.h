/* copybook.h: record layouts read from assembler DSECT listings, the form
 * in which the #PMINTDS copybook is published (copybooks/). The listing's own
 * location counter gives each field's offset; the DS operand gives its type
 * and length; the comment is kept as its description. No C code types an
 * offset.
 *
 * Listing lines understood (anything else is a comment or a blank):
 *   LOC    LABEL OP OPERAND COMMENT    e.g. "000030 INTDBIRT DS F ....SUM ..."
 *   VALUE  LABEL EQU EXPR COMMENT     e.g. "0001C INTHDRLN EQU *-INTHDR ..."
 *   * ...                             a comment line, shown to the binding
 * OP is DS, DC, EQU, ORG or DSECT. What comments mean (for #PMINT, which
 * part of a multi-part record the fields after them belong to), and what
 * units and groups of fields a layout has, is the binding's to say
 * (pmim/pmint.c): the parser knows only assembler. */
#ifndef COPYBOOK_H
#define COPYBOOK_H

#include <stddef.h>

#include "core/lookup.h"
#include "core/status.h"

#define CB_NAME_MAX 16
#define CB_DESC_MAX 64
#define CB_FILE_MAX 256
/* The most a listing may hold; the tables grow as it is parsed, and past
 * these it is refused, naming the listing's file and line. Far above any
 * real #PMINTDS (165 fields, 34 buckets); field indices fit 16 bits. */
#define CB_MAX_FIELDS 4096
#define CB_MAX_EQUATES 1024
#define CB_MAX_BUCKETS (CB_MAX_FIELDS / 4) /* a label and its triple */
/* Sections stay a fixed maximum: part numbers (SEQ#=n) are small. */
#define CB_MAX_PARTS 8 /* sections; section 0 is before any (a header) */

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
	char name[CB_NAME_MAX];  /* first: core/nameslot.h */
	unsigned part;   /* the section the binding's comments put it in */
	size_t offset;
	size_t length;   /* bytes; 0 for labels (DS 0F) */
	char type;       /* DS type letter: H F D X P C */
	enum cb_units units; /* set by the binding; CB_UNITS_NONE from the
	                        parser */
	char desc[CB_DESC_MAX];
};

struct cb_equate {
	char name[CB_NAME_MAX];
	long value;
	char desc[CB_DESC_MAX];
};

/* A wait bucket, found by the binding (pmim/pmint.c): a DS 0F label L
 * followed by fields LT, LH and L#, the sum of wait times, the highest wait
 * time and the number of waits. */
struct cb_bucket {
	char label[CB_NAME_MAX];
	char desc[CB_DESC_MAX];
	unsigned part;
	int sum, high, count; /* indices into layout.fields */
};

struct layout {
	char name[CB_NAME_MAX];           /* the DSECT's label, e.g. "#PMINT" */
	char file[CB_FILE_MAX];           /* the listing's, for messages */
	/* sized as the listing is parsed; layout_free frees them */
	struct cb_field *fields;
	size_t nfields, fields_cap;
	struct cb_equate *equates;
	size_t nequates, equates_cap;
	struct cb_bucket *buckets;        /* the binding's (layout_add_bucket) */
	size_t nbuckets, buckets_cap;
	unsigned nparts;                  /* highest section number + 1 */
	size_t part_end[CB_MAX_PARTS];    /* extent of each section, from its
	                                     DS statements (named or not) */
};

/* What a binding reads from a listing's comment lines: called with each
 * ("* ..."), in order, and the section the fields that follow belong to,
 * which it may change (below CB_MAX_PARTS). Returns NULL, or what is wrong
 * with the line. */
typedef const char *(*cb_comment_fn)(const char *line, unsigned *section,
                                     void *ctx);

/* Parse a listing read from file (a path, or "(built-in)/NAME.lst"; NULL:
 * none). comment may be NULL: every field is then in section 0. On error,
 * returns PM_E_LAYOUT and writes "FILE:N: what" ("line N: what" without a
 * file) into err, or PM_E_NOMEM; lay then holds nothing to free. */
pm_status layout_parse(const char *text, const char *file, cb_comment_fn comment,
                       void *ctx, struct layout *lay, char *err, size_t errlen);

/* What layout_parse and layout_add_bucket allocated; lay is then empty. */
void layout_free(struct layout *lay);

/* A new wait bucket at the end of lay->buckets, for the binding to fill:
 * PM_E_LAYOUT past CB_MAX_BUCKETS ("FILE: more than N wait buckets, at
 * AT" in err), PM_E_NOMEM. */
pm_status layout_add_bucket(struct layout *lay, const char *at,
                            struct cb_bucket **out, char *err, size_t errlen);

/* The field named name, or NULL. */
const struct cb_field *layout_field(const struct layout *lay, const char *name);
int layout_field_index(const struct layout *lay, const char *name);

/* The value of EQU name; returns 0 and leaves *value when it is absent. */
int layout_equate(const struct layout *lay, const char *name, long *value);

/* The field or the EQU a binding cannot do without: its index or value, or
 * PM_E_LAYOUT with "FILE: field NAME not found" in err. */
pm_status layout_need_field(const struct layout *lay, const char *name,
                            int *index, char *err, size_t errlen);
pm_status layout_need_equate(const struct layout *lay, const char *name,
                             long *value, char *err, size_t errlen);

/* The most --copybook options a program takes. */
#define CB_MAX_COPYBOOKS 16

/* Every --copybook given, in order. */
struct copybook_list {
	const char *paths[CB_MAX_COPYBOOKS];
	size_t n;
};

struct diag;

/* The --copybook setter both programs' option tables name (core/cli.h):
 * target is a struct copybook_list; a usage error past CB_MAX_COPYBOOKS. */
int copybook_set_option(void *target, struct diag *d, const char *arg);

/* The most a listing file may hold. */
#define CB_LISTING_MAX (1u << 20)

/* Where the listing of DSECT dsect is (--copybook): among paths, a later
 * one before an earlier, the files that declare that DSECT and the folders
 * holding file_name (e.g. "pmintds.lst"); else file_name in
 * $(pkgdatadir)/copybooks; else builtin, the copy compiled in. A listing
 * of another DSECT is no error: it is some other layout's. Errors as
 * lookup_find's. */
pm_status copybook_find(const char *dsect, const char *file_name,
                        const char *const *paths, size_t npaths,
                        const char *builtin, struct lookup_found *out,
                        char *err, size_t errlen);

/* A short name for units, as --describe prints it ("10**-4 s", "TOD", ...). */
const char *cb_units_name(enum cb_units u);

#endif
