/* tally.c: byte accounting and inventory. See tally.h. */
#include "core/tally.h"

void
tally_add(struct tally *into, const struct tally *from)
{
	into->bytes_read += from->bytes_read;
	into->used += from->used;
	into->skipped += from->skipped;
	into->damaged += from->damaged;
	into->segments += from->segments;
	into->spanned += from->spanned;
	into->orphans += from->orphans;
	into->truncated += from->truncated;
	into->damaged_records += from->damaged_records;
	for (int k = 0; k < KIND_COUNT; k++)
		for (int t = 0; t < 256; t++) {
			into->records[k][t] += from->records[k][t];
			into->bytes[k][t] += from->bytes[k][t];
		}
	into->intervals_complete += from->intervals_complete;
	into->intervals_incomplete += from->intervals_incomplete;
	into->duplicate_parts += from->duplicate_parts;
	into->intervals_duplicate += from->intervals_duplicate;
	into->intervals_overlapping += from->intervals_overlapping;
	into->intervals_too_long += from->intervals_too_long;
	into->implausible += from->implausible;
	into->compressed_in += from->compressed_in;
	into->compressed_out += from->compressed_out;
}

uint64_t
tally_accounted(const struct tally *t)
{
	return t->used + t->skipped + t->damaged;
}
