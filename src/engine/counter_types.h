/* counter_types.h: every counter type the engine knows, as one X-macro list,
 * so the enum, the name and value table and the per-type properties cannot
 * drift apart. Values are the winperf.h ones (mingw-w64), checked against
 * COUNTERS.md §1.2; formulas are those of COUNTERS.md §2.2.
 *
 * CT(id, value, size, formula, timebase, flags)
 *   id        the winperf name; the enum member is CT_<id>, the name "<id>"
 *   value     the winperf numeric value (uint32)
 *   size      data size in bytes: 4 or 8; 0 for no fixed-width number
 *   formula   CF_* (counter.h): how N, D, B and TB become a value
 *   timebase  CTB_* (counter.h): the clock D counts in, and TB its frequency
 *   flags     CTF_*: TWO (needs two samples), PCT (x100), INV (inverse),
 *             MULTI, BASE (a base counter), HIDDEN (no displayable value),
 *             ALIAS (shares its value with an earlier entry, which lookup by
 *             value returns), EXT (project extension, not winperf)
 *
 * Size is the declared one; a 4-byte counter whose values exceed 32 bits is
 * treated as 8 bytes, because CounterSize, not the type, decides the width
 * (COUNTERS.md §2.6). */
CT(PERF_COUNTER_COUNTER,             0x10410400u, 4, CF_RATE,         CTB_SYSTEM, CTF_TWO)
CT(PERF_COUNTER_TIMER,               0x20410500u, 8, CF_RATIO,        CTB_SYSTEM, CTF_TWO | CTF_PCT)
CT(PERF_COUNTER_QUEUELEN_TYPE,       0x00450400u, 4, CF_RATIO,        CTB_SYSTEM, CTF_TWO)
CT(PERF_COUNTER_LARGE_QUEUELEN_TYPE, 0x00450500u, 8, CF_RATIO,        CTB_SYSTEM, CTF_TWO)
CT(PERF_COUNTER_100NS_QUEUELEN_TYPE, 0x00550500u, 8, CF_RATIO,        CTB_100NS,  CTF_TWO)
CT(PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE, 0x00650500u, 8, CF_RATIO,     CTB_OBJECT, CTF_TWO)
CT(PERF_COUNTER_BULK_COUNT,          0x10410500u, 8, CF_RATE,         CTB_SYSTEM, CTF_TWO)
CT(PERF_COUNTER_TEXT,                0x00000B00u, 0, CF_NONE,         CTB_NONE,   CTF_HIDDEN)
CT(PERF_COUNTER_RAWCOUNT,            0x00010000u, 4, CF_RAW,          CTB_NONE,   0)
CT(PERF_COUNTER_LARGE_RAWCOUNT,      0x00010100u, 8, CF_RAW,          CTB_NONE,   0)
CT(PERF_COUNTER_RAWCOUNT_HEX,        0x00000000u, 4, CF_RAW,          CTB_NONE,   0)
CT(PERF_COUNTER_LARGE_RAWCOUNT_HEX,  0x00000100u, 8, CF_RAW,          CTB_NONE,   0)
CT(PERF_SAMPLE_FRACTION,             0x20C20400u, 4, CF_FRACTION,     CTB_NONE,   CTF_TWO | CTF_PCT)
CT(PERF_SAMPLE_COUNTER,              0x00410400u, 4, CF_RATE,         CTB_SYSTEM, CTF_TWO)
CT(PERF_COUNTER_NODATA,              0x40000200u, 0, CF_NONE,         CTB_NONE,   CTF_HIDDEN)
CT(PERF_COUNTER_TIMER_INV,           0x21410500u, 8, CF_RATIO,        CTB_SYSTEM, CTF_TWO | CTF_PCT | CTF_INV)
CT(PERF_SAMPLE_BASE,                 0x40030401u, 4, CF_NONE,         CTB_NONE,   CTF_BASE | CTF_HIDDEN)
/* Two samples although it lacks the DELTA bit (MS sample, GetCalculatedValue). */
CT(PERF_AVERAGE_TIMER,               0x30020400u, 4, CF_AVG_TIMER,    CTB_SYSTEM, CTF_TWO)
CT(PERF_AVERAGE_BASE,                0x40030402u, 4, CF_NONE,         CTB_NONE,   CTF_BASE | CTF_HIDDEN)
/* NOSHOW in winperf, yet it has a value: bytes per operation. */
CT(PERF_AVERAGE_BULK,                0x40020500u, 8, CF_FRACTION,     CTB_NONE,   CTF_TWO)
CT(PERF_OBJ_TIME_TIMER,              0x20610500u, 8, CF_RATIO,        CTB_OBJECT, CTF_TWO | CTF_PCT)
CT(PERF_100NSEC_TIMER,               0x20510500u, 8, CF_RATIO,        CTB_100NS,  CTF_TWO | CTF_PCT)
CT(PERF_100NSEC_TIMER_INV,           0x21510500u, 8, CF_RATIO,        CTB_100NS,  CTF_TWO | CTF_PCT | CTF_INV)
CT(PERF_COUNTER_MULTI_TIMER,         0x22410500u, 8, CF_MULTI,        CTB_SYSTEM, CTF_TWO | CTF_PCT | CTF_MULTI)
CT(PERF_COUNTER_MULTI_TIMER_INV,     0x23410500u, 8, CF_MULTI,        CTB_SYSTEM, CTF_TWO | CTF_PCT | CTF_MULTI | CTF_INV)
CT(PERF_COUNTER_MULTI_BASE,          0x42030500u, 8, CF_NONE,         CTB_NONE,   CTF_BASE | CTF_HIDDEN | CTF_MULTI)
CT(PERF_100NSEC_MULTI_TIMER,         0x22510500u, 8, CF_MULTI,        CTB_100NS,  CTF_TWO | CTF_PCT | CTF_MULTI)
CT(PERF_100NSEC_MULTI_TIMER_INV,     0x23510500u, 8, CF_MULTI,        CTB_100NS,  CTF_TWO | CTF_PCT | CTF_MULTI | CTF_INV)
CT(PERF_RAW_FRACTION,                0x20020400u, 4, CF_RAW_FRACTION, CTB_NONE,   CTF_PCT)
CT(PERF_LARGE_RAW_FRACTION,          0x20020500u, 8, CF_RAW_FRACTION, CTB_NONE,   CTF_PCT)
CT(PERF_RAW_BASE,                    0x40030403u, 4, CF_NONE,         CTB_NONE,   CTF_BASE | CTF_HIDDEN)
/* 0x40030500 per the SDK; windows_exporter's 0x40030503 is wrong. */
CT(PERF_LARGE_RAW_BASE,              0x40030500u, 8, CF_NONE,         CTB_NONE,   CTF_BASE | CTF_HIDDEN)
CT(PERF_ELAPSED_TIME,                0x30240500u, 8, CF_ELAPSED,      CTB_OBJECT, 0)
CT(PERF_COUNTER_HISTOGRAM_TYPE,      0x80000000u, 0, CF_NONE,         CTB_NONE,   CTF_HIDDEN)
CT(PERF_COUNTER_DELTA,               0x00400400u, 4, CF_DELTA,        CTB_NONE,   CTF_TWO)
CT(PERF_COUNTER_LARGE_DELTA,         0x00400500u, 8, CF_DELTA,        CTB_NONE,   CTF_TWO)
/* PRECISION timers: D is the PRECISION_TIMESTAMP counter that follows them,
 * counting in the clock the time base names. */
CT(PERF_PRECISION_SYSTEM_TIMER,      0x20470500u, 8, CF_RATIO,        CTB_SYSTEM, CTF_TWO | CTF_PCT)
CT(PERF_PRECISION_100NS_TIMER,       0x20570500u, 8, CF_RATIO,        CTB_100NS,  CTF_TWO | CTF_PCT)
CT(PERF_PRECISION_OBJECT_TIMER,      0x20670500u, 8, CF_RATIO,        CTB_OBJECT, CTF_TWO | CTF_PCT)
/* winperf.h: #define PERF_PRECISION_TIMESTAMP PERF_LARGE_RAW_BASE */
CT(PERF_PRECISION_TIMESTAMP,         0x40030500u, 8, CF_NONE,         CTB_NONE,   CTF_BASE | CTF_HIDDEN | CTF_ALIAS)
/* Project extension, not winperf: the largest N over the windows, for
 * "peak" columns. Its value sets reserved bits 12-15, which no winperf type
 * uses, so it can be stored and looked up like the others. */
CT(MAX,                              0x0000F000u, 8, CF_MAX,          CTB_NONE,   CTF_EXT)
