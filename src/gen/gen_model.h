/* gen_model.h: the synthetic workload behind pmimgen: a seeded random
 * generator, the sources (one IDMS central version each), the timing of
 * their intervals and the figures of each interval.
 *
 * Everything that decides output bytes is integer arithmetic on a PRNG of
 * our own (xoshiro256**, seeded by splitmix64), so a seed gives the same
 * bytes on every host, big-endian s390x included. Each source draws its
 * figures from its own stream: adding a source, changing the framing or
 * injecting faults never changes another source's figures. */
#ifndef GEN_MODEL_H
#define GEN_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/copybook.h"
#include "pmim/pmint.h"
#include "core/status.h"

#define GEN_PPM 1000000u      /* rates are parts per million */
#define GEN_F_MAX 0x7fffffffu /* largest value written in a fullword */
#define GEN_SYSID_LEN 4       /* SMF system id (SMFSID) */
#define GEN_CV_LEN 8          /* CV name, as a DC/UCF system name */

struct gen_rng {
	uint64_t s[4];
};

/* Seed a stream: the same (seed, stream) always gives the same numbers. */
void gen_rng_seed(struct gen_rng *r, uint64_t seed, uint64_t stream);
uint64_t gen_rng_next(struct gen_rng *r);
/* Uniform in [0, n); 0 when n is 0. */
uint64_t gen_rng_below(struct gen_rng *r, uint64_t n);
/* Uniform in [lo, hi]. */
uint64_t gen_rng_range(struct gen_rng *r, uint64_t lo, uint64_t hi);
/* True with probability ppm / GEN_PPM. */
bool gen_rng_chance(struct gen_rng *r, uint32_t ppm);

/* One central version: its names and its own traits. */
struct gen_source {
	char sysid[GEN_SYSID_LEN + 1];
	char cv[GEN_CV_LEN + 1];   /* "" when the run writes no CV names */
	char name[GEN_SYSID_LEN + GEN_CV_LEN + 2]; /* "SYSA" or "SYSA/IDMSCV01" */
	struct gen_rng rng;        /* this source's figures */
	int64_t next_start;        /* stamp where its next interval starts */
	uint64_t intervals;        /* intervals generated so far */
	unsigned size_pm;          /* workload size, permille of the largest */
	unsigned cpu_per_task_e4;  /* mean CPU per task, 10**-4 s */
	unsigned user_pm;          /* user-mode share of CPU, permille */
	unsigned enclave_pm;       /* enclave SRB share of CPU, permille */
	unsigned ziip_pm;          /* zIIP share of enclave SRB time, permille */
	bool data_sharing;         /* member of a data-sharing group */
};

/* A generated interval: its source, its times and the value of every
 * numeric field of its parts, indexed like layout.fields (nfields of them,
 * in storage its holder allocates). */
struct gen_interval {
	unsigned source;
	int64_t start, end; /* stamps (pmtime.h), 10**-4 s */
	uint64_t *v;
};

struct gen_bucket_profile;

struct gen_model {
	const struct pmint *pm;
	int64_t interval_e4;   /* interval length, 10**-4 s */
	uint32_t extreme_ppm;  /* intervals with one bucket near 2**31-1 */
	bool full_range;       /* every figure drawn over its whole range */
	/* the fields the model fills by name (layout indices) */
	int f_tstr, f_tend, f_timsy, f_timus;
	int f_syti, f_cpti, f_zpti, f_usti, f_ttti, f_enti;
	const struct gen_bucket_profile **profile; /* one a bucket */
	struct gen_source *sources;
	unsigned nsources;
};

/* Bind the model to the layout. PM_E_LAYOUT (with err) when a field the
 * model fills is missing from the copybook, PM_E_NOMEM. */
pm_status gen_model_init(struct gen_model *m, const struct pmint *pm,
                         int64_t interval_e4, uint32_t extreme_ppm,
                         char *err, size_t errlen);

/* What gen_model_init allocated (not the sources, the caller's). */
void gen_model_free(struct gen_model *m);

/* Set up source s (already named) from the seed: its traits, and the
 * start of its CV, up to max_delay_e4 after start. */
void gen_model_source(struct gen_model *m, unsigned s, uint64_t seed,
                      int64_t start, int64_t max_delay_e4);

/* The stamp at which source s's next interval will end. */
int64_t gen_model_next_end(const struct gen_model *m, unsigned s);

/* Generate source s's next interval into iv (iv->v: room for nfields). */
void gen_model_next(struct gen_model *m, unsigned s, struct gen_interval *iv);

#endif
