/* series.h: frames of self-describing counters, the hand-off from a reader
 * whose data names its own counters and their types (Windows performance
 * data) to the report layer, beside the schema-bound frames of frame.h.
 *
 * A series is one counter of one instance of one object of one source,
 * with its counter type (engine/counter.h); the reader numbers its series
 * as they first appear and keeps their names. A series frame is what one
 * sample of a source gives: for each series with a value type, either a
 * window between this sample and the source's previous one (two-sample
 * types: the deltas, in the clock of the type's time base) or the sample
 * itself (one-sample types), as engine windows (struct counter_window),
 * ready for the accumulators. The frame and its catalogue are the
 * reader's, valid for the call that hands them on; the names a series
 * points to stay valid until the reader is closed. */
#ifndef SERIES_H
#define SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/counter.h"

struct series {
	uint32_t source;        /* interned (core/sources.h) */
	uint32_t object;        /* the reader's numbers: for Windows data */
	uint32_t counter;       /* the title indexes */
	const char *object_name, *counter_name; /* UTF-8 */
	const char *instance;   /* "" for an object without instances */
	enum counter_type type;
};

struct series_value {
	uint32_t series;        /* an index into the frame's catalogue */
	bool two;               /* a window from the previous sample */
	bool reset;             /* the window has no value: the source's time
	                           or a 64-bit counter went back */
	struct counter_window w;
};

struct series_frame {
	uint32_t source;
	const char *input;      /* the name of the input it was read from */
	int64_t start;          /* the previous sample's time: two-sample
	                           values' windows start there */
	int64_t end;            /* this sample's time (UTC stamps, frame.h) */
	const struct series_value *v;
	size_t n;
	const struct series *catalogue; /* every series so far, by index */
	size_t nseries;         /* in the catalogue: a series may come
	                           before it has a value (a first sample) */
};

typedef void (*series_fn)(const struct series_frame *f, void *ctx);

#endif
