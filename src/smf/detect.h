/* detect.h: what an input is, from its first bytes: its framing and what
 * its records hold, or, when nothing walks, the likely cause (a compressed
 * or tersed file, a text-mode transfer, RDWs stripped). framing.c asks this
 * once, when it opens an input. */
#ifndef DETECT_H
#define DETECT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/bytes.h"
#include "smf/framing.h"

/* Bytes looked at: four PM records of the largest size fit. */
#define DETECT_WINDOW ((size_t)256 << 10)

/* The framing the window w walks as (at_eof: w ends where the input
 * does); false when none does. */
bool detect_framing(const struct fr_records *rs, struct span w, bool at_eof,
                    enum framing *out);

/* The framing that walks from the very start of w, undamaged: where a
 * stream's framing stops walking, whether another one takes over (two
 * dumps of different framings joined). */
bool detect_framing_here(const struct fr_records *rs, struct span w,
                         bool at_eof, enum framing *out);

/* What records of framing f in w hold, by a vote of the first ones that
 * walk; ties go to SMF. */
enum content detect_content(const struct fr_records *rs, enum framing f,
                            struct span w, bool at_eof);

/* Why nothing walks in w, as far as its first bytes tell, into out. */
void detect_refusal_cause(const struct fr_records *rs, struct span w, char *out,
                          size_t cap);

#endif
