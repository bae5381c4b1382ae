/* validate.c: the .NET validation rules. See validate.h. Lengths are
 * DWORDs that .NET reads as int: a length of 2^31 or more is negative
 * there, and over any block's size here, so unsigned compares keep the
 * rules. */
#include "winperf/block.h"
#include "winperf/validate.h"

const char *
wp_check_pdb(const struct wp_pdb_head *h, size_t avail)
{
	if (h->total_length < WP_PDB_MIN || h->total_length > avail)
		return "PDB: SizeOf <= TotalByteLength <= bufSize";
	if (h->header_length < WP_PDB_MIN || h->header_length > h->total_length)
		return "PDB: SizeOf <= HeaderLength <= TotalByteLength";
	if (h->little_endian != 1)
		return "PDB: LittleEndian is 1";
	return NULL;
}

const char *
wp_check_object(const struct wp_object_head *h, size_t avail)
{
	uint32_t least = h->total_length < h->definition_length
	                 ? h->total_length : h->definition_length;
	uint64_t instances = h->num_instances > 0 ? (uint64_t)h->num_instances : 0;

	if (h->header_length < WP_OBJECT_MIN || h->header_length > least)
		return "object: SizeOf <= HeaderLength <= min(TotalByteLength, DefinitionLength)";
	if (h->definition_length < WP_OBJECT_MIN ||
	    h->definition_length > h->total_length || h->total_length > avail)
		return "object: SizeOf <= DefinitionLength <= TotalByteLength <= bufSize";
	if (h->num_counters > INT32_MAX)
		return "object: NumCounters >= 0";
	if (h->num_instances < WP_NO_INSTANCES)
		return "object: NumInstances >= -1";
	/* 64-bit sums of 32-bit products cannot overflow: the checked
	 * arithmetic of .NET */
	if (instances * WP_INSTANCE_MIN + (uint64_t)h->num_counters * WP_DEFINITION_MIN > avail)
		return "object: max(NumInstances, 0) * 24 + NumCounters * 40 <= bufSize";
	return NULL;
}

const char *
wp_check_definition(const struct wp_definition_head *h, size_t avail)
{
	if (h->byte_length < WP_DEFINITION_MIN || h->byte_length > avail)
		return "counter definition: SizeOf <= ByteLength <= bufSize";
	if (h->size > INT32_MAX)
		return "counter definition: CounterSize >= 0";
	if (h->offset > avail)
		return "counter definition: 0 <= CounterOffset <= bufSize";
	return NULL;
}

const char *
wp_check_instance(const struct wp_instance_head *h, size_t avail)
{
	if (h->byte_length < WP_INSTANCE_MIN || h->byte_length > avail)
		return "instance: SizeOf <= ByteLength <= bufSize";
	if (h->name_offset > INT32_MAX || h->name_length > INT32_MAX)
		return "instance: NameOffset, NameLength >= 0";
	if ((uint64_t)h->name_offset + h->name_length > h->byte_length)
		return "instance: NameOffset + NameLength <= ByteLength";
	return NULL;
}

const char *
wp_check_counter_block(uint32_t byte_length, size_t avail)
{
	if (byte_length < WP_COUNTER_BLOCK_MIN || byte_length > avail)
		return "counter block: 4 <= ByteLength <= bufSize";
	return NULL;
}
