/* jsonstr.h: bytes as a JSON string (RFC 8259), quotes included, valid
 * UTF-8 whatever the bytes. Escaped as Python's json.dumps(s,
 * ensure_ascii=False) escapes them, so that tests can compare bytes: '"'
 * and '\' with a backslash, \b \f \n \r \t, other bytes below 0x20 as
 * \u00XX (lowercase hex); everything else as it is. Bytes that are not
 * UTF-8 (a stray byte, a sequence cut short, an overlong form, a
 * surrogate, past U+10FFFF) become U+FFFD, one for each maximal subpart
 * of an ill-formed sequence, as Unicode recommends and Python's
 * bytes.decode('utf-8', 'replace') does: JSON cannot carry raw bytes, and
 * \u escapes would claim code points the input never held. */
#ifndef JSONSTR_H
#define JSONSTR_H

#include <stddef.h>

/* The most bytes json_string writes for n bytes: two quotes, and six for
 * a control byte (no input byte costs more). */
#define JSON_STRING_MAX(n) (2 + 6 * (n))

/* The n bytes at s as a JSON string at out (JSON_STRING_MAX(n) bytes);
 * returns its length. */
size_t json_string(char *out, const char *s, size_t n);

#endif
