/* gen_perf.c: the catalogue of objects and counters, the figures of each
 * snapshot, and the PERF_DATA_BLOCK bytes. See gen_perf.h.
 *
 * Layout as Windows writes it (the real files of ../shared/data/real-perf):
 * the 88-byte PERF_DATA_BLOCK, then the system name in UTF-16LE with its
 * NUL, padded to 8 bytes, so HeaderLength is 104 for names of up to 7
 * characters; objects of a 64-byte header and 40-byte definitions; each
 * instance a 24-byte definition and its name padded to 8; counter data
 * aligned to its size in a counter block padded to 8. Every field goes
 * through put_le, so the bytes do not depend on the host. */
#include <stdlib.h>
#include <string.h>

#include "gen/gen_model.h"
#include "gen/gen_perf.h"
#include "gen/gen_write.h"
#include "pmim/pmtime.h"

#define PDB_LEN 88
#define OBJ_LEN 64
#define DEF_LEN 40
#define INST_LEN 24
#define FILETIME_1970 UINT64_C(116444736000000000) /* 100 ns, 1601 to 1970 */
#define STREAM_PERF 0x50455246u                    /* "PERF" */
#define WRAP_COUNTER 146  /* System\Context Switches/sec wraps on system 0 */
#define UNKNOWN_TYPE 0x20C20500u /* a LARGE SAMPLE_FRACTION: no such type */
#define MAX_COUNTERS 32          /* per object in the catalogue */

/* ---- the catalogue */

#define C4(title, type) { title, type, 4 }
#define C8(title, type) { title, type, 8 }
#define COUNT(a) (sizeof a / sizeof a[0])

static const struct perf_counter_spec processor_counters[] = {
	C8(6, 0x21510500u),     /* % Processor Time: 100NSEC_TIMER_INV */
	C8(142, 0x20510500u),   /* % User Time: 100NSEC_TIMER */
	C4(148, 0x10410400u),   /* Interrupts/sec: COUNTER_COUNTER */
	C8(10002, 0x20410500u), /* COUNTER_TIMER */
	C8(10004, 0x21410500u), /* COUNTER_TIMER_INV */
	C8(10006, 0x20470500u), /* PRECISION_SYSTEM_TIMER */
	C8(10008, 0x40030500u), /* its PRECISION_TIMESTAMP */
	C8(10010, 0x20570500u), /* PRECISION_100NS_TIMER */
	C8(10012, 0x40030500u), /* its PRECISION_TIMESTAMP */
};

static const struct perf_instance_spec processor_instances[] = {
	{ "0", "0", -1 }, { "1", "1", -1 }, { "2", "2", -1 }, { "3", "3", -1 },
	{ "_Total", "_Total", -1 },
};

static const struct perf_counter_spec system_counters[] = {
	C8(674, 0x30240500u),   /* System Up Time: ELAPSED_TIME */
	C4(248, 0x00010000u),   /* Processes: RAWCOUNT */
	C4(250, 0x00010000u),   /* Threads: RAWCOUNT */
	C4(1350, 0x20020400u),  /* % Registry Quota In Use: RAW_FRACTION */
	C4(1351, 0x40030403u),  /* its RAW_BASE */
	C4(WRAP_COUNTER, 0x10410400u), /* Context Switches/sec */
	C8(10016, 0x10410500u), /* BULK_COUNT */
	C4(10018, 0x00450400u), /* QUEUELEN_TYPE */
	C4(10020, 0x00410400u), /* SAMPLE_COUNTER */
	C4(10022, 0x00400400u), /* COUNTER_DELTA */
	C8(10024, 0x00400500u), /* COUNTER_LARGE_DELTA */
	C4(10026, 0x00000000u), /* RAWCOUNT_HEX */
	C8(10028, 0x00000100u), /* LARGE_RAWCOUNT_HEX */
	C8(10030, 0x00010100u), /* LARGE_RAWCOUNT */
	{ 10032, 0x00000B00u, 16 }, /* COUNTER_TEXT */
	{ 10034, 0x40000200u, 0 },  /* COUNTER_NODATA */
	C4(10036, 0x80000000u), /* COUNTER_HISTOGRAM_TYPE */
	C8(10038, UNKNOWN_TYPE),
};

static const struct perf_counter_spec process_counters[] = {
	C8(6, 0x20510500u),     /* % Processor Time: 100NSEC_TIMER */
	C8(684, 0x30240500u),   /* Elapsed Time: ELAPSED_TIME */
	C8(186, 0x00010100u),   /* Private Bytes: LARGE_RAWCOUNT */
	C8(10040, 0x10410500u), /* IO Data Bytes/sec: BULK_COUNT */
};

/* Two processes of one name: perfmon numbers the second #1. */
static const struct perf_instance_spec process_instances[] = {
	{ "Idle", "Idle", -1 }, { "svchost", "svchost", -1 },
	{ "svchost", "svchost#1", -1 },
};

static const struct perf_counter_spec thread_counters[] = {
	C8(6, 0x20510500u),     /* % Processor Time: 100NSEC_TIMER */
	C4(WRAP_COUNTER, 0x10410400u), /* Context Switches/sec */
	C4(10042, 0x00010000u), /* Priority Current: RAWCOUNT */
};

/* Threads name their process (the object before) as parent. */
static const struct perf_instance_spec thread_instances[] = {
	{ "0", "Idle/0", 0 }, { "0", "svchost/0", 1 }, { "1", "svchost/1", 1 },
	{ "0", "svchost/0#1", 2 },
};

static const struct perf_counter_spec disk_counters[] = {
	C8(10044, 0x00550500u), /* 100NS_QUEUELEN */
	C8(10046, 0x00450500u), /* LARGE_QUEUELEN */
	C4(10048, 0x30020400u), /* AVERAGE_TIMER */
	C4(10050, 0x40030402u), /* its AVERAGE_BASE */
	C8(10052, 0x40020500u), /* AVERAGE_BULK */
	C4(10054, 0x40030402u), /* its AVERAGE_BASE */
	C4(10056, 0x20C20400u), /* SAMPLE_FRACTION */
	C4(10058, 0x40030401u), /* its SAMPLE_BASE */
	C8(10060, 0x22510500u), /* 100NSEC_MULTI_TIMER */
	C8(10062, 0x42030500u), /* its MULTI_BASE */
	C8(10064, 0x23510500u), /* 100NSEC_MULTI_TIMER_INV */
	C8(10066, 0x42030500u),
	C8(10068, 0x22410500u), /* COUNTER_MULTI_TIMER */
	C8(10070, 0x42030500u),
	C8(10072, 0x23410500u), /* COUNTER_MULTI_TIMER_INV */
	C8(10074, 0x42030500u),
	C8(10076, 0x20020500u), /* LARGE_RAW_FRACTION */
	C8(10078, 0x40030500u), /* its LARGE_RAW_BASE */
};

/* Named in code page 1252, as bytes. */
static const struct perf_instance_spec disk_instances[] = {
	{ "0 C:", "0 C:", -1 }, { "1 D:", "1 D:", -1 }, { "_Total", "_Total", -1 },
};

static const struct perf_counter_spec object_clock_counters[] = {
	C8(10080, 0x20610500u), /* OBJ_TIME_TIMER */
	C8(10082, 0x00650500u), /* OBJ_TIME_QUEUELEN */
	C8(10084, 0x20670500u), /* PRECISION_OBJECT_TIMER */
	C8(10086, 0x40030500u), /* its PRECISION_TIMESTAMP */
	C8(10088, 0x30240500u), /* ELAPSED_TIME in microseconds */
};

static const struct perf_counter_spec print_queue_counters[] = {
	C4(10090, 0x00010000u), /* Jobs: RAWCOUNT */
	C4(10092, 0x10410400u), /* Bytes Printed/sec: COUNTER_COUNTER */
};

const struct perf_object_spec perf_objects[] = {
	{ 238, processor_counters, COUNT(processor_counters), processor_instances,
	  COUNT(processor_instances), 0, 0, POC_NONE },
	{ 2, system_counters, COUNT(system_counters), NULL, PERF_NO_INSTANCES, 0, 0,
	  POC_FILETIME },
	{ 230, process_counters, COUNT(process_counters), process_instances,
	  COUNT(process_instances), 0, 0, POC_FILETIME },
	{ 232, thread_counters, COUNT(thread_counters), thread_instances,
	  COUNT(thread_instances), 0, 230, POC_NONE },
	{ 234, disk_counters, COUNT(disk_counters), disk_instances,
	  COUNT(disk_instances), 1252, 0, POC_NONE },
	{ 10000, object_clock_counters, COUNT(object_clock_counters), NULL,
	  PERF_NO_INSTANCES, 0, 0, POC_MICROS },
	{ 1450, print_queue_counters, COUNT(print_queue_counters), NULL, 0, 0, 0,
	  POC_NONE },
};
const unsigned perf_nobjects = COUNT(perf_objects);

/* The title table the catalogue uses: standard English names where
 * Windows has the index, our own (from 10000) elsewhere. */
static const struct {
	uint32_t index;
	const char *name;
} titles[] = {
	{ 2, "System" }, { 6, "% Processor Time" }, { 142, "% User Time" },
	{ 146, "Context Switches/sec" }, { 148, "Interrupts/sec" },
	{ 186, "Private Bytes" }, { 230, "Process" }, { 232, "Thread" },
	{ 234, "PhysicalDisk" }, { 238, "Processor" }, { 248, "Processes" },
	{ 250, "Threads" }, { 674, "System Up Time" }, { 684, "Elapsed Time" },
	{ 1350, "% Registry Quota In Use" }, { 1351, "% Registry Quota In Use Base" },
	{ 1450, "Print Queue" }, { 10000, "Object Clock" },
	{ 10002, "% Tick Busy Time" }, { 10004, "% Tick Idle Time" },
	{ 10006, "% Precision Busy Time" }, { 10008, "Precision Busy Timestamp" },
	{ 10010, "% Precision 100ns Busy Time" }, { 10012, "Precision 100ns Timestamp" },
	{ 10016, "File Data Bytes/sec" }, { 10018, "Tick Queue Length" },
	{ 10020, "Sampled Events/sec" }, { 10022, "Events This Interval" },
	{ 10024, "Bytes This Interval" }, { 10026, "Flags" }, { 10028, "Large Flags" },
	{ 10030, "Committed Bytes" }, { 10032, "Version Text" }, { 10034, "No Data" },
	{ 10036, "Histogram" }, { 10038, "Unknown Type" },
	{ 10040, "IO Data Bytes/sec" }, { 10042, "Priority Current" },
	{ 10044, "Avg. Disk Queue Length" }, { 10046, "Tick Queue Length Large" },
	{ 10048, "Avg. Disk sec/Transfer" }, { 10050, "Avg. Disk sec/Transfer Base" },
	{ 10052, "Avg. Disk Bytes/Transfer" }, { 10054, "Avg. Disk Bytes/Transfer Base" },
	{ 10056, "% Idle Samples" }, { 10058, "% Idle Samples Base" },
	{ 10060, "% Multi Busy" }, { 10062, "% Multi Busy Base" },
	{ 10064, "% Multi Idle" }, { 10066, "% Multi Idle Base" },
	{ 10068, "% Tick Multi Busy" }, { 10070, "% Tick Multi Busy Base" },
	{ 10072, "% Tick Multi Idle" }, { 10074, "% Tick Multi Idle Base" },
	{ 10076, "% Free Space" }, { 10078, "% Free Space Base" },
	{ 10080, "% Object Busy Time" }, { 10082, "Object Queue Length" },
	{ 10084, "% Precision Object Busy" }, { 10086, "Precision Object Timestamp" },
	{ 10088, "Object Up Time" }, { 10090, "Jobs" }, { 10092, "Bytes Printed/sec" },
};

unsigned
perf_blocks(const struct perf_object_spec *o)
{
	return o->ninstances == PERF_NO_INSTANCES ? 1 : (unsigned)o->ninstances;
}

unsigned
perf_slot(unsigned o, unsigned i)
{
	unsigned slot = 0;

	for (unsigned k = 0; k < o; k++)
		slot += perf_blocks(&perf_objects[k]) * perf_objects[k].ncounters;
	return o < perf_nobjects ? slot + i * perf_objects[o].ncounters : slot;
}

static void
write_titles(FILE *fp)
{
	for (size_t i = 0; i < COUNT(titles); i++)
		fprintf(fp, "%u\n%s\n", (unsigned)titles[i].index, titles[i].name);
}

/* ---- the figures */

/* A base counter: paired with the counter before it, and drawn with it. */
static bool
is_base(uint32_t type)
{
	return (type & 0xC00u) == 0x400u && (type & 0xF0000u) == 0x30000u;
}

/* One system: its names, its random stream, its boot and its two latest
 * snapshots (the previous one for the truth's windows). */
struct perf_system {
	const char *name;
	unsigned index;
	struct gen_rng rng;
	int64_t boot_ms;
	uint64_t freq;
	struct perf_snapshot snap[2];
};

/* What a counter's figures are drawn from. */
struct draw {
	struct gen_rng *r;
	const uint64_t *old;   /* the block's previous values */
	uint64_t *now;         /* the block's values in this snapshot */
	uint64_t d;            /* the counter's clock since the previous snapshot */
	uint64_t clock;        /* its clock now */
	uint64_t freq;         /* PerfFreq of the block */
	uint64_t boot;         /* the object's clock at boot (ELAPSED_TIME) */
	uint64_t obj_freq;     /* its PerfFreq */
	bool first, restart;   /* first snapshot; counts restart (first or reboot) */
};

/* A count's next value: from a fresh start, or the old one plus inc. */
static uint64_t
count_next(const struct draw *w, unsigned c, uint64_t inc, uint32_t size)
{
	uint64_t v;

	if (w->first)
		v = gen_rng_range(w->r, 1000000, 100000000);
	else if (w->restart)
		v = gen_rng_below(w->r, 1000); /* below any count before: it went back */
	else
		v = w->old[c] + inc;
	return size == 4 ? v & UINT32_MAX : v;
}

/* A counter and the base that follows it. */
static void
draw_with_base(const struct draw *w, const struct perf_counter_spec *k, unsigned c)
{
	uint64_t b, n;

	switch (k[c].type) {
	case 0x20020400u: /* RAW_FRACTION: instantaneous, N <= B */
	case 0x20020500u:
		b = gen_rng_range(w->r, 1, k[c].size == 4 ? 1000000 : UINT64_C(1) << 40);
		w->now[c + 1] = b;
		w->now[c] = gen_rng_below(w->r, b + 1);
		return;
	case 0x22510500u: case 0x23510500u: case 0x22410500u: case 0x23410500u:
		/* MULTI: B instances busy at most B times the time */
		w->now[c + 1] = b = gen_rng_range(w->r, 1, 8);
		w->now[c] = count_next(w, c, gen_rng_below(w->r, b * w->d + 1), 8);
		return;
	case 0x20470500u: case 0x20570500u: case 0x20670500u:
		/* PRECISION: the timestamp lags the clock a little */
		w->now[c + 1] = w->clock - gen_rng_below(w->r, 1000);
		n = w->first || w->restart ? 0 : w->now[c + 1] - w->old[c + 1];
		w->now[c] = count_next(w, c, gen_rng_below(w->r, n + 1), 8);
		return;
	}
	/* fractions and averages: operations, and their counts or times */
	b = k[c].type == 0x30020400u ? gen_rng_range(w->r, 1, 100) : gen_rng_range(w->r, 1, 1000);
	n = k[c].type == 0x20C20400u ? gen_rng_below(w->r, b + 1)
	    : k[c].type == 0x30020400u ? b * gen_rng_below(w->r, w->freq / 100 + 1)
	    : b * gen_rng_below(w->r, 65537);
	w->now[c + 1] = count_next(w, c + 1, b, k[c + 1].size);
	w->now[c] = count_next(w, c, n, k[c].size);
}

/* The increment of a count without a base over the counter's clock d. */
static uint64_t
increment(const struct draw *w, uint32_t type)
{
	switch (type) {
	case 0x10410500u: return gen_rng_below(w->r, UINT64_C(10000000000));
	case 0x00400500u: return gen_rng_below(w->r, UINT64_C(1000000000000));
	case 0x00400400u: return gen_rng_below(w->r, 100000);
	case 0x00450400u: /* 4 bytes: a window's count stays below 2^30 */
		return gen_rng_below(w->r, (4 * w->d < (UINT64_C(1) << 30) ? 4 * w->d
		                        : UINT64_C(1) << 30) + 1);
	case 0x00450500u: case 0x00550500u: case 0x00650500u:
		return gen_rng_below(w->r, 4 * w->d + 1); /* queues of up to 4 */
	case 0x20410500u: case 0x21410500u: case 0x20510500u: case 0x21510500u:
	case 0x20610500u:
		return gen_rng_below(w->r, w->d + 1);     /* busy at most all the time */
	default:
		return gen_rng_below(w->r, 1000000);      /* counts per second */
	}
}

/* Counter c of instance i of object o. */
static void
draw_counter(const struct perf_system *s, const struct draw *w,
             const struct perf_object_spec *ob, unsigned i, unsigned c)
{
	const struct perf_counter_spec *k = &ob->counters[c];
	bool wraps = ob->title == 2 && k->title == WRAP_COUNTER && s->index == 0;

	if (c + 1 < ob->ncounters && is_base(ob->counters[c + 1].type)) {
		draw_with_base(w, ob->counters, c);
		return;
	}
	switch (k->type) {
	case 0x00010000u: w->now[c] = gen_rng_below(w->r, 100000); return;
	case 0x00000000u: w->now[c] = gen_rng_next(w->r) & UINT32_MAX; return;
	case 0x00010100u:
		w->now[c] = gen_rng_range(w->r, UINT64_C(1) << 32, UINT64_C(1) << 40);
		return;
	case 0x00000100u: w->now[c] = gen_rng_below(w->r, UINT64_C(1) << 48); return;
	case 0x30240500u: /* ELAPSED_TIME: started i + 1 seconds after boot */
		w->now[c] = w->boot + (i + 1) * w->obj_freq;
		return;
	case 0x00000B00u: case 0x40000200u: case 0x80000000u: w->now[c] = 0; return;
	case UNKNOWN_TYPE: w->now[c] = gen_rng_next(w->r); return;
	}
	if (wraps && w->first) /* wraps in the first window: +1e6 at least */
		w->now[c] = (UINT64_C(1) << 32) - 500000;
	else
		w->now[c] = count_next(w, c, wraps ? gen_rng_range(w->r, 1000000, 2000000)
		                                   : increment(w, k->type), k->size);
}

/* The clock a counter type counts in, now and since the previous snapshot
 * (0 when counts restart). */
static void
counter_clock(uint32_t type, unsigned o, const struct perf_snapshot *prev,
              const struct perf_snapshot *cur, bool restart, struct draw *w)
{
	unsigned base = (type >> 20) & 3;
	uint64_t now = base == 0 ? cur->clk.perf_time
	               : base == 1 ? cur->clk.time_100ns : cur->obj_time[o];
	uint64_t then = restart ? now : base == 0 ? prev->clk.perf_time
	                : base == 1 ? prev->clk.time_100ns : prev->obj_time[o];

	w->clock = now;
	w->d = now - then;
}

static uint64_t
filetime(int64_t ms)
{
	return FILETIME_1970 + (uint64_t)ms * 10000;
}

static void
draw_object(struct perf_system *s, unsigned o, const struct perf_snapshot *prev,
            struct perf_snapshot *cur, bool first, bool reboot)
{
	const struct perf_object_spec *ob = &perf_objects[o];
	struct draw w = {
		.r = &s->rng, .freq = cur->clk.perf_freq, .first = first,
		.restart = first || reboot, .obj_freq = cur->obj_freq[o],
		.boot = ob->clock == POC_FILETIME ? filetime(s->boot_ms) : 0,
	};

	for (unsigned i = 0; i < perf_blocks(ob); i++) {
		unsigned slot = perf_slot(o, i);

		w.now = cur->values + slot;
		w.old = first ? NULL : prev->values + slot;
		for (unsigned c = 0; c < ob->ncounters; c++) {
			if (is_base(ob->counters[c].type))
				continue; /* drawn with its counter */
			counter_clock(ob->counters[c].type, o, prev, cur, w.restart, &w);
			draw_counter(s, &w, ob, i, c);
		}
	}
}

/* Snapshot k of system s: its times (a reboot sets the boot a few minutes
 * back, so PerfTime and the objects' clocks since boot go back), then
 * every counter. */
static void
draw_snapshot(struct perf_system *s, const struct gen_perf_config *cfg,
              uint64_t k, bool reboot)
{
	struct perf_snapshot *cur = &s->snap[k % 2], *prev = &s->snap[(k + 1) % 2];
	struct perf_clocks *t = &cur->clk;
	uint64_t since_boot;

	t->ms = cfg->start_ms + (int64_t)k * cfg->interval_ms +
	        (int64_t)gen_rng_below(&s->rng, 1000);
	if (reboot)
		s->boot_ms = t->ms - (int64_t)gen_rng_range(&s->rng, 300000, 900000);
	since_boot = (uint64_t)(t->ms - s->boot_ms);
	t->perf_freq = s->freq;
	t->perf_time = since_boot * s->freq / 1000 + gen_rng_below(&s->rng, s->freq / 1000);
	t->time_100ns = filetime(t->ms) + gen_rng_below(&s->rng, 10000);
	for (unsigned o = 0; o < perf_nobjects; o++) {
		enum perf_object_clock c = perf_objects[o].clock;

		cur->obj_freq[o] = c == POC_FILETIME ? 10000000 : c == POC_MICROS ? 1000000 : 0;
		cur->obj_time[o] = c == POC_FILETIME ? t->time_100ns
		                   : c == POC_MICROS ? since_boot * 1000 + gen_rng_below(&s->rng, 1000)
		                   : 0;
	}
	for (unsigned o = 0; o < perf_nobjects; o++)
		draw_object(s, o, prev, cur, k == 0, reboot);
}

/* ---- the bytes */

struct perf_buf {
	uint8_t *p;
	size_t len, cap;
	bool failed;           /* a buf_add ran out of memory */
};

/* n zero bytes at the end; their offset, or SIZE_MAX out of memory. */
static size_t
buf_add(struct perf_buf *b, size_t n)
{
	size_t at = b->len;

	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		uint8_t *p;

		while (cap < b->len + n)
			cap *= 2;
		if (!(p = realloc(b->p, cap))) {
			b->failed = true;
			return SIZE_MAX;
		}
		b->p = p;
		b->cap = cap;
	}
	memset(b->p + at, 0, n);
	b->len += n;
	return at;
}

static size_t
pad8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* A name and its NUL: UTF-16LE, or one byte a character (code page). */
static size_t
put_name(struct perf_buf *b, const char *name, uint32_t code_page)
{
	size_t unit = code_page ? 1 : 2, len = (strlen(name) + 1) * unit;
	size_t at = buf_add(b, pad8(len));

	if (at != SIZE_MAX)
		for (size_t i = 0; name[i]; i++)
			put_le(b->p + at + i * unit, (unsigned)unit, (unsigned char)name[i]);
	return len;
}

/* Where each counter's data is in the counter block: aligned to its size,
 * after the block's ByteLength; returns the block's length. */
static uint32_t
counter_offsets(const struct perf_object_spec *ob, uint32_t *off)
{
	uint32_t at = 4;

	for (unsigned c = 0; c < ob->ncounters; c++) {
		uint32_t size = ob->counters[c].size, align = size >= 8 ? 8 : size ? 4 : 1;

		at = (at + align - 1) / align * align;
		off[c] = at;
		at += size;
	}
	return (uint32_t)pad8(at);
}

static void
put_counter_block(struct perf_buf *b, const struct perf_object_spec *ob,
                  const uint32_t *off, uint32_t len, const uint64_t *v)
{
	size_t at = buf_add(b, len);

	if (at == SIZE_MAX)
		return;
	put_le(b->p + at, 4, len);
	for (unsigned c = 0; c < ob->ncounters; c++) {
		const struct perf_counter_spec *k = &ob->counters[c];

		if (k->type == 0x00000B00u) /* TEXT: UTF-16LE, NUL padded */
			for (size_t i = 0; i < 7 && i < k->size / 2; i++)
				put_le(b->p + at + off[c] + 2 * i, 2, (unsigned char)"synthet"[i]);
		else if (k->size)
			put_le(b->p + at + off[c], k->size, v[c]);
	}
}

static void
put_definitions(struct perf_buf *b, size_t at, const struct perf_object_spec *ob,
                const uint32_t *off)
{
	for (unsigned c = 0; c < ob->ncounters; c++) {
		const struct perf_counter_spec *k = &ob->counters[c];
		uint8_t *d = b->p + at + OBJ_LEN + c * DEF_LEN;

		put_le(d, 4, DEF_LEN);
		put_le(d + 4, 4, k->title);
		put_le(d + 12, 4, k->title + 1);
		put_le(d + 24, 4, 100);          /* DetailLevel: novice */
		put_le(d + 28, 4, k->type);
		put_le(d + 32, 4, k->size);
		put_le(d + 36, 4, off[c]);
	}
}

static void
put_instance(struct perf_buf *b, const struct perf_object_spec *ob, unsigned i,
             const uint32_t *off, uint32_t block_len, const uint64_t *v)
{
	const struct perf_instance_spec *in = &ob->instances[i];
	size_t at = buf_add(b, INST_LEN), name_len;

	if (at == SIZE_MAX)
		return;
	name_len = put_name(b, in->name, ob->code_page);
	put_le(b->p + at, 4, INST_LEN + pad8(name_len));
	put_le(b->p + at + 4, 4, in->parent >= 0 ? ob->parent_title : 0);
	put_le(b->p + at + 8, 4, in->parent >= 0 ? (uint32_t)in->parent : 0);
	put_le(b->p + at + 12, 4, UINT32_MAX);   /* UniqueID -1: named */
	put_le(b->p + at + 16, 4, INST_LEN);
	put_le(b->p + at + 20, 4, name_len);
	put_counter_block(b, ob, off, block_len, v);
}

/* Object o of snapshot sn. */
static void
put_object(struct perf_buf *b, unsigned o, const struct perf_snapshot *sn)
{
	const struct perf_object_spec *ob = &perf_objects[o];
	uint32_t off[MAX_COUNTERS], block_len = counter_offsets(ob, off);
	uint32_t def_len = OBJ_LEN + ob->ncounters * DEF_LEN;
	size_t at = buf_add(b, def_len);
	uint8_t *h;

	if (at == SIZE_MAX)
		return;
	put_definitions(b, at, ob, off);
	if (ob->ninstances == PERF_NO_INSTANCES)
		put_counter_block(b, ob, off, block_len, sn->values + perf_slot(o, 0));
	for (int i = 0; i < ob->ninstances; i++)
		put_instance(b, ob, (unsigned)i, off, block_len,
		             sn->values + perf_slot(o, (unsigned)i));
	h = b->p + at;
	put_le(h, 4, b->len - at);
	put_le(h + 4, 4, def_len);
	put_le(h + 8, 4, OBJ_LEN);
	put_le(h + 12, 4, ob->title);
	put_le(h + 20, 4, ob->title + 1);
	put_le(h + 28, 4, 100);
	put_le(h + 32, 4, ob->ncounters);
	put_le(h + 36, 4, 0);                    /* DefaultCounter */
	put_le(h + 40, 4, (uint32_t)ob->ninstances);
	put_le(h + 44, 4, ob->code_page);
	put_le(h + 48, 8, sn->obj_time[o]);
	put_le(h + 56, 8, sn->obj_freq[o]);
}

/* SystemTime: eight WORDs, year, month, day of week (0 Sunday), day,
 * hour, minute, second, milliseconds. */
static void
put_system_time(uint8_t *dst, int64_t ms)
{
	int year;
	unsigned month, day, hour, minute, second;
	int64_t days;

	pmtime_civil(ms / 1000 * PM_UNITS_PER_SECOND, &year, &month, &day, &hour,
	            &minute, &second);
	days = pmtime_days_from_civil(year, month, day);
	put_le(dst, 2, (uint64_t)year);
	put_le(dst + 2, 2, month);
	put_le(dst + 4, 2, (uint64_t)((days % 7 + 11) % 7)); /* 1970-01-01: Thursday */
	put_le(dst + 6, 2, day);
	put_le(dst + 8, 2, hour);
	put_le(dst + 10, 2, minute);
	put_le(dst + 12, 2, second);
	put_le(dst + 14, 2, (uint64_t)(ms % 1000));
}

/* The block of snapshot sn of system `name` into b (emptied first). */
static pm_status
put_block(struct perf_buf *b, const char *name, const struct perf_snapshot *sn)
{
	size_t name_len;
	uint8_t *h;

	b->len = 0;
	if (buf_add(b, PDB_LEN) == SIZE_MAX)
		return PM_E_NOMEM;
	name_len = put_name(b, name, 0);
	for (unsigned o = 0; o < perf_nobjects; o++)
		put_object(b, o, sn);
	if (b->failed)
		return PM_E_NOMEM;
	h = b->p;
	for (unsigned i = 0; i < 4; i++)
		put_le(h + 2 * i, 2, (unsigned char)"PERF"[i]);
	put_le(h + 8, 4, 1);                    /* LittleEndian */
	put_le(h + 12, 4, 1);                   /* Version */
	put_le(h + 16, 4, 1);                   /* Revision */
	put_le(h + 20, 4, b->len);
	put_le(h + 24, 4, PDB_LEN + pad8(name_len));
	put_le(h + 28, 4, perf_nobjects);
	put_le(h + 32, 4, 238);                 /* DefaultObject: Processor */
	put_system_time(h + 36, sn->clk.ms);
	put_le(h + 56, 8, sn->clk.perf_time);
	put_le(h + 64, 8, sn->clk.perf_freq);
	put_le(h + 72, 8, sn->clk.time_100ns);
	put_le(h + 80, 4, name_len);
	put_le(h + 84, 4, PDB_LEN);
	return PM_OK;
}

/* ---- the run */

static void
systems_free(struct perf_system *sys, unsigned n)
{
	for (unsigned i = 0; sys && i < n; i++)
		for (unsigned j = 0; j < 2; j++) {
			free(sys[i].snap[j].obj_time);
			free(sys[i].snap[j].obj_freq);
			free(sys[i].snap[j].values);
		}
	free(sys);
}

/* Each system's stream, boot (hours to a month before the start) and
 * PerfFreq (another per system, so that no two clocks agree). */
static struct perf_system *
systems_new(const struct gen_perf_config *cfg)
{
	struct perf_system *sys = calloc(cfg->nsystems, sizeof *sys);
	unsigned nslots = perf_slot(perf_nobjects, 0);

	for (unsigned i = 0; sys && i < cfg->nsystems; i++) {
		struct perf_system *s = &sys[i];

		s->name = cfg->systems[i];
		s->index = i;
		gen_rng_seed(&s->rng, cfg->seed, ((uint64_t)STREAM_PERF << 16) + i);
		s->boot_ms = cfg->start_ms - (int64_t)gen_rng_range(&s->rng, 3600000, 2592000000);
		s->freq = 2929687 + 1000000 * (uint64_t)i;
		for (unsigned j = 0; j < 2; j++) {
			struct perf_snapshot *sn = &s->snap[j];

			sn->obj_time = calloc(perf_nobjects, sizeof *sn->obj_time);
			sn->obj_freq = calloc(perf_nobjects, sizeof *sn->obj_freq);
			sn->values = calloc(nslots, sizeof *sn->values);
			if (!sn->obj_time || !sn->obj_freq || !sn->values) {
				systems_free(sys, cfg->nsystems);
				return NULL;
			}
		}
	}
	return sys;
}

pm_status
gen_perf_run(const struct gen_perf_config *cfg, struct gen_perf_result *res)
{
	struct perf_system *sys = systems_new(cfg);
	struct perf_buf b = { 0 };
	/* the last system reboots once, after the window that wraps */
	uint64_t reboot_at = cfg->snapshots / 2 + 1;
	pm_status st = sys ? PM_OK : PM_E_NOMEM;

	memset(res, 0, sizeof *res);
	if (cfg->names)
		write_titles(cfg->names);
	if (cfg->truth)
		perf_truth_header(cfg->truth);
	for (uint64_t k = 0; st == PM_OK && k < cfg->snapshots; k++)
		for (unsigned i = 0; st == PM_OK && i < cfg->nsystems; i++) {
			struct perf_system *s = &sys[i];
			bool reboot = i + 1 == cfg->nsystems && k == reboot_at;

			draw_snapshot(s, cfg, k, reboot);
			if ((st = put_block(&b, s->name, &s->snap[k % 2])) != PM_OK)
				break;
			fwrite(b.p, 1, b.len, cfg->out);
			res->blocks++;
			res->bytes += b.len;
			if (cfg->truth)
				res->truth_rows += perf_truth_rows(cfg->truth, s->name,
				                                   k ? &s->snap[(k + 1) % 2] : NULL,
				                                   &s->snap[k % 2]);
		}
	free(b.p);
	systems_free(sys, cfg->nsystems);
	return st;
}
