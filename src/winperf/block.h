/* block.h: one PERF_DATA_BLOCK walked into fixed-width structs of our own
 * (COUNTERS.md §3). Every length and offset comes from the block itself;
 * the sizes below are only the least a structure may have (real Windows
 * headers are longer: a PERF_DATA_BLOCK of 104 bytes holds the system
 * name). A snapshot is what the walk hands on: the block's clocks and, per
 * object, instance and counter, the raw values with their types, for the
 * cooking stage to pair with the system's next snapshot. */
#ifndef WINPERF_BLOCK_H
#define WINPERF_BLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/bytes.h"
#include "core/status.h"

#define WP_PDB_MIN 88
#define WP_OBJECT_MIN 64
#define WP_DEFINITION_MIN 40
#define WP_INSTANCE_MIN 24
#define WP_COUNTER_BLOCK_MIN 4
#define WP_NO_INSTANCES (-1)
#define WP_NO_BASE UINT32_MAX

/* UTF-16LE "PERF" */
extern const uint8_t wp_signature[8];

/* What a counter definition is for the reports. */
enum wp_role {
	WP_SHOWN,   /* a type with a value; its base, if any, in .base */
	WP_BASE,    /* a base counter, paired with the counter before it */
	WP_NODATA,  /* PERF_COUNTER_NODATA, and types with no value: skipped */
	WP_UNKNOWN  /* a type no winperf header defines: skipped */
};

struct wp_counter {
	uint32_t title;      /* CounterNameTitleIndex */
	uint32_t type;       /* CounterType */
	uint32_t size;       /* CounterSize: 4 or 8 bytes read */
	uint32_t offset;     /* CounterOffset, in the counter block */
	enum wp_role role;
	uint32_t base;       /* the index of its base counter, or WP_NO_BASE */
};

struct wp_instance {
	const char *name;    /* UTF-8: parent/name, #n for a repeated name */
	uint32_t parent_title, parent_instance;
	int32_t unique_id;   /* -1: none */
};

struct wp_object {
	uint32_t title;      /* ObjectNameTitleIndex */
	int32_t num_instances; /* as given: WP_NO_INSTANCES, 0 or more */
	uint32_t codepage;   /* 0: instance names in UTF-16LE */
	uint64_t perf_time, perf_freq;  /* the object's own clock */
	size_t ncounters;
	const struct wp_counter *counters;
	size_t ninstances;   /* 0 without instances */
	const struct wp_instance *instances;
	/* raw values, a row of ncounters per instance (one row without
	 * instances): row r, counter c at values[r * ncounters + c] */
	const uint64_t *values;
	/* the definitions' number: objects of one walk after another with
	 * the same number have the same counters; 0 unnumbered */
	uint64_t defs;
};

struct wp_snapshot {
	const char *system;  /* UTF-8 */
	int64_t time;        /* SystemTime as a UTC stamp (pmim/pmtime.h units) */
	uint64_t perf_time, perf_freq, perf_time_100ns;
	size_t nobjects;
	const struct wp_object *objects;
	uint64_t nodata, unknown; /* counter definitions skipped, by reason */
	/* the instances' names: snapshots of one walker with the same number
	 * have the same names, in the same order; 0 unnumbered */
	uint64_t names;
};

/* Where a block broke a rule: the rule (validate.h) and the byte of the
 * block where the structure breaking it starts. */
struct wp_fault {
	const char *rule;
	size_t at;
};

struct wp_walker;

pm_status wp_walker_open(struct wp_walker **out);
void wp_walker_close(struct wp_walker *w);

/* Whether s starts with the signature and a header whose lengths a block
 * could have (detection and resynchronisation judge by this). */
bool wp_plausible(struct span s);

/* The same check, and what split.h walks by: the block's TotalByteLength
 * in *total, and the raw bytes of its system's name in *system when they
 * lie in s and in the block (else none). */
bool wp_head(struct span s, uint32_t *total, struct span *system);

/* Walk block b (its TotalByteLength bytes). PM_OK with *out valid until
 * the next walk; PM_E_PERF_BLOCK with *fault; PM_E_NOMEM. */
pm_status wp_walk(struct wp_walker *w, struct span b,
                  const struct wp_snapshot **out, struct wp_fault *fault);

#endif
