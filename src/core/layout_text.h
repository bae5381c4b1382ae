/* layout_text.h: the copybook listings, embedded at build time from
 * copybooks/ by build-aux/text2c.sh (see Makefile.am). */
#ifndef LAYOUT_TEXT_H
#define LAYOUT_TEXT_H

extern const char pmintds_listing[];
extern const char smfhdr_listing[];

#endif
