/* validate.h: the .NET validation rules (Interop.PERF_INFO.cs, COUNTERS.md
 * §3), one check per structure. Each returns NULL when the structure keeps
 * every rule, else the rule it breaks, worded for the message. avail is the
 * number of bytes of the block from the structure's start on (.NET's
 * bufSize, made stricter: a structure may not reach past its block). The
 * headers are read field by field into these fixed-width structs. */
#ifndef WINPERF_VALIDATE_H
#define WINPERF_VALIDATE_H

#include <stddef.h>
#include <stdint.h>

struct wp_pdb_head {
	uint32_t little_endian, version, revision;
	uint32_t total_length, header_length, num_objects;
	uint16_t time[8];            /* SYSTEMTIME */
	uint64_t perf_time, perf_freq, perf_time_100ns;
	uint32_t name_length, name_offset;
};

struct wp_object_head {
	uint32_t total_length, definition_length, header_length;
	uint32_t title, num_counters, codepage;
	int32_t num_instances;
	uint64_t perf_time, perf_freq;
};

struct wp_definition_head {
	uint32_t byte_length, title, type, size, offset;
};

struct wp_instance_head {
	uint32_t byte_length, parent_title, parent_instance, name_offset, name_length;
	int32_t unique_id;
};

const char *wp_check_pdb(const struct wp_pdb_head *h, size_t avail);
const char *wp_check_object(const struct wp_object_head *h, size_t avail);
const char *wp_check_definition(const struct wp_definition_head *h, size_t avail);
const char *wp_check_instance(const struct wp_instance_head *h, size_t avail);
const char *wp_check_counter_block(uint32_t byte_length, size_t avail);

#endif
