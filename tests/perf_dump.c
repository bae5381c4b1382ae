/* perf_dump.c: the raw values the PERF_DATA_BLOCK walker hands on, one
 * line each, for tests/winperf.sh to check against values worked by hand:
 *   SYSTEM STAMP OBJECT INSTANCE COUNTER TYPE VALUE [BASE]
 * with the object's instance "-" when it has none. The inputs are one
 * stream, as for pmimrpt.
 *
 * usage: perf_dump FILE...
 */
#include <inttypes.h>
#include <stdio.h>

#include "core/tally.h"
#include "winperf/stream.h"

static void
print_row(const struct wp_snapshot *s, const struct wp_object *o, const char *inst,
          size_t row, size_t c)
{
	const struct wp_counter *k = &o->counters[c];
	uint64_t v = o->values[row * o->ncounters + c];
	printf("%s %" PRId64 " %u %s %u 0x%08X %" PRIu64, s->system, s->time,
	       (unsigned)o->title, inst, (unsigned)k->title, (unsigned)k->type, v);
	if (k->base != WP_NO_BASE)
		printf(" %" PRIu64, o->values[row * o->ncounters + k->base]);
	printf("\n");
}

static void
dump(const struct wp_snapshot *s, uint64_t offset, void *ctx)
{
	(void)offset;
	(void)ctx;
	printf("snapshot %s objects %zu perf_time %" PRIu64 " perf_freq %" PRIu64
	       " perf_time_100ns %" PRIu64 "\n", s->system, s->nobjects, s->perf_time,
	       s->perf_freq, s->perf_time_100ns);
	for (size_t i = 0; i < s->nobjects; i++) {
		const struct wp_object *o = &s->objects[i];
		size_t rows = o->num_instances == WP_NO_INSTANCES ? 1 : o->ninstances;
		printf("object %u instances %d perf_time %" PRIu64 " perf_freq %" PRIu64 "\n",
		       (unsigned)o->title, (int)o->num_instances, o->perf_time, o->perf_freq);
		for (size_t r = 0; r < rows; r++)
			for (size_t c = 0; c < o->ncounters; c++)
				if (o->counters[c].role == WP_SHOWN)
					print_row(s, o, o->ninstances ? o->instances[r].name : "-", r, c);
	}
}

int
main(int argc, char **argv)
{
	struct wp_stream *s;
	struct diag d;
	int rc = 0;

	diag_init(&d, "perf_dump", stderr);
	if (wp_stream_open(&s, 16u << 20, dump, NULL) != PM_OK)
		return 8;
	for (int i = 1; i < argc; i++) {
		struct input in;
		struct tally t = { 0 };
		if (input_open_path(&in, argv[i]) != PM_OK) {
			perror(argv[i]);
			rc = 8;
			continue;
		}
		d.file = in.name;
		if (wp_stream_read(s, &in, &d, &t) < 0)
			rc = 8;
		printf("bytes read %" PRIu64 " used %" PRIu64 " damaged %" PRIu64 "\n",
		       t.bytes_read, t.used, t.damaged);
		input_close(&in);
	}
	wp_stream_close(s);
	return rc ? rc : diag_exit_code(&d);
}
