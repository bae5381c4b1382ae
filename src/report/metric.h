/* metric.h: the counter engine applied to frames (frame/frame.h), one
 * column at a time.
 *
 * A frame is one sample window: its figures are already deltas, so a
 * column's window has dN = the value of N, dD = the value of D, dB = B,
 * all in the column's clock (rptdef.h), and TB = that clock's ticks per
 * second. A frame that lacks a group the column reads adds a window
 * with no value (counter_acc_add_none): it is counted, and the average
 * function leaves it out instead of taking it as zero.
 *
 * The per-frame path looks nothing up: a column is bound once, for the
 * family row of its report row, to slots of a metric frame (metric_bind),
 * and each frame fills one metric frame, its figures, virtual figures
 * (@duration, ...), the schema's sums (@wait_time, ...) and the columns'
 * combinations computed once, for every column to read
 * (metric_frame_set). A report holds up to
 * METRIC_BATCH frames of one group back and adds them together: the engine
 * then reads and writes each accumulator once for all of them
 * (counter_feed_add), which is most of the cost of a report of many
 * columns. The simple columns of the formulas that only add go through
 * the totals of the figures they read instead (engine/totals.h): each
 * figure added once a frame, where the frame holds it, whatever the
 * number of columns that read it (metric_frame_extras gives the rest).
 *
 * Values: the engine's average function (counter_acc_value) decides
 * whether there is one; the figure handed to the writer is the same
 * quotient of the accumulator's integer sums, times the column's unit and
 * scale, as an exact fraction with the column's decimals (a typed cell,
 * rowsink.h), which the writer rounds half up, so that no binary fraction
 * shows in a report and every host prints the same digits. Only when
 * numerator and denominator do not fit 64 bits is the engine's double
 * handed on instead. aggregate=total columns (DELTA types) give SUM(dN), the
 * DELTA calculation over the group taken as one window. */
#ifndef METRIC_H
#define METRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/counter.h"
#include "frame/frame.h"
#include "frame/schema.h"
#include "report/rowsink.h"
#include "report/rptdef.h"

/* A reference that adds terms or converts clocks, worked out once a
 * frame into a slot of its own: the sum of factor[i] * x[slot[i]], 0
 * when it passes 2**64. */
struct metric_combo {
	uint16_t slot[RPT_MAX_TERMS];
	uint64_t factor[RPT_MAX_TERMS];
	unsigned nterms;
	unsigned nfirst;    /* terms [0, nfirst) read the frame's figures, in
	                       slot order, the others the slots after */
	uint8_t bits;       /* its values are below 2**bits; 0: they may pass 2**64 */
};

/* Slots of a metric frame, sized from the schema when a report opens: the
 * schema's figures by index, then the virtual figures by term kind, then
 * the schema's sums, then the combinations its columns bind (metric_bind,
 * before the frames are sized). The slot of kind TERM_FIGURE, which no
 * term reads there, always holds 0: the zero slot. */
struct metric_slots {
	size_t virt;        /* the first virtual slot: the schema's figures */
	size_t sums;        /* the first sum slot */
	size_t combos;      /* the first combination slot */
	size_t count;       /* slots a metric frame holds */
	struct metric_combo *combo;     /* count - combos of them */
	size_t cap;
};

/* The slots of schema s; PM_E_LAYOUT when a feed's 16-bit slot numbers
 * cannot reach them all (SCHEMA_MAX_FIGURES keeps a schema below). */
pm_status metric_slots_of(struct metric_slots *sl, const struct schema *s);
/* The combinations' table freed, and their slots given up. */
void metric_slots_free(struct metric_slots *sl);

/* Bit 0 of the groups a frame has, which no group sets: its stamps are
 * valid (start >= 0 and end >= start). */
#define METRIC_VALID 1u

/* What one frame offers its columns. */
struct metric_frame {
	uint64_t *x;        /* metric_slots.count figures, the report's */
	unsigned have;      /* its groups, and METRIC_VALID */
	uint64_t end;       /* its end stamp: the windows' time order */
};

/* How a streamed row reads a column's figure of one frame
 * (metric_one_bind): through the engine, or straight from the frame
 * where the one window's fraction of the column's type is its N over 1
 * (totals, RAW, DELTA, MAX) or over its B (FRACTION, and AVERAGE_TIMER
 * with TB in the factor). */
enum metric_one_how {
	ONE_ENGINE,     /* counter_window_fraction, or a sum of terms */
	ONE_INTEGER,    /* a count as it is: a total without scale */
	ONE_UNIT,       /* N * num_factor / den_factor */
	ONE_BASE        /* N * num_factor / (B * den_factor), none when B is 0 */
};

/* A few bytes a column, apart from the cell and format it is made of: a
 * row reads every column, and those are large. */
struct metric_one {
	uint64_t num_factor;    /* the scale's numerator (times 100: percent) */
	uint64_t den_factor;    /* the scale's denominator (times TB) */
	uint16_t n, b;          /* the feed's slots of N and B */
	uint8_t need;           /* and its need */
	uint8_t how;            /* enum metric_one_how */
	uint8_t decimals;
};

/* A column bound to the family row of its report row and to its
 * accumulator in a group's array of them. When N, D and B are each one
 * term read as it is (or none: the zero slot), the usual case, or a
 * combination that gives each window what its terms would (one that
 * cannot pass 2**64, or a divisor whose 0 leaves the window without a
 * value as passing 2**64 does), the column is simple: the feed's slots
 * are N, D and B, and the engine adds it with the other simple ones
 * (counter_feed_add); otherwise N, D and B are the column's references,
 * read term by term. The feed's need is the groups
 * the column reads (bits 1..7) and METRIC_VALID. first_start and last_end
 * read @start and @end, valid or not. */
struct metric_cell {
	struct counter_feed feed;
	const struct rpt_column *col;
	const struct schema_row *row;   /* of its report row, or NULL */
	const struct metric_slots *slots;
	enum counter_type type; /* the accumulator's (metric_acc_type) */
	bool simple;
};

/* The type the column's accumulator holds: the column's, or ELAPSED_TIME
 * over @start and @end for first_start and last_end. 0 .. CT_COUNT-1, or
 * CT_UNKNOWN for text columns that keep no figures. */
enum counter_type metric_acc_type(const struct rpt_column *c);

/* Bind column c for family row `row` (-1 for none; a column that names
 * its own row uses that one) to accumulator acc of a group. *uses gets
 * the schema's sums it reads (bit per sum), for metric_frame_extras; a
 * combination a reference binds to is added to slots when new (a
 * column without room for it is read term by term). */
void metric_bind(struct metric_cell *cell, const struct rpt_column *c,
                 const struct schema *s, struct metric_slots *slots,
                 int row, size_t acc, unsigned *uses);

/* bits[slot] for every slot of slots (engine/totals.h): the schema's
 * figures' bounds, 1 for the virtual figures that are 0 or 1, a sum's
 * from its rows' (0 where one is unknown), a combination's, 0 for the
 * others. */
void metric_slot_bits(uint8_t *bits, const struct schema *s, const struct metric_slots *slots);

/* The virtual figures of fr and the sums in uses, extra[0] being slot
 * slots->virt; returns its flags: its groups, and METRIC_VALID. */
unsigned metric_frame_extras(uint64_t *extra, const struct schema *s,
                             const struct metric_slots *slots, const struct frame *fr,
                             unsigned uses);

/* Then, where slots has combinations, theirs (after metric_frame_extras
 * of the same frame, whose figures are x): a call apart, that a report
 * without any does not make. */
void metric_frame_combine(uint64_t *extra, const struct metric_slots *slots,
                          const uint64_t *x);

/* Fill f from fr: its figures, then the virtual ones and the sums, and
 * the flags, that metric_frame_extras gave (extra, have). */
void metric_frame_set(struct metric_frame *f, const struct schema *s,
                      const struct metric_slots *slots, const struct frame *fr,
                      const uint64_t *extra, unsigned have);

/* What a frame adds to a group's accumulators: the bound columns,
 * the simple ones as the engine's feeds, added in one call. */
struct metric_adder {
	struct counter_feed *feeds;
	struct metric_cell *cells;      /* the others */
	size_t nfeeds, ncells;
};

/* Room for capacity columns; false when out of memory. */
bool metric_adder_init(struct metric_adder *a, size_t capacity);
void metric_adder_put(struct metric_adder *a, const struct metric_cell *cell);
/* After the last put: the feeds in the order the engine adds fastest. */
void metric_adder_ready(struct metric_adder *a);
void metric_adder_free(struct metric_adder *a);

/* Frames a caller may hold back and add together (metric_add): enough
 * to read and write each accumulator once for several frames. */
#define METRIC_BATCH 16

/* Add n frames (at most METRIC_BATCH) to a group's accumulators, each as
 * the window of each column. */
void metric_add(struct counter_acc *accs, const struct metric_adder *a,
                const struct metric_frame *f, size_t n);

/* Start the group's accumulators anew (a row of one frame). */
void metric_restart(struct counter_acc *accs, const struct metric_adder *a);

/* What metric_figure needs of a column, in a few bytes: a row reads
 * every column, and the columns themselves are large. */
struct metric_fmt {
	const struct rpt_column *col;
	uint64_t scale_num, scale_den;
	unsigned decimals;
	bool total;
	bool figure;        /* a counter column, not a text one */
};

void metric_fmt_bind(struct metric_fmt *f, const struct rpt_column *c);

/* The column's figure as a cell: an integer, a fraction, or (past 64
 * bits) a double; SINK_EMPTY when it has no value. */
void metric_figure(const struct metric_fmt *f, const struct counter_acc *acc,
                   struct sink_cell *out);

/* How metric_frame_figures reads the figure of the column bound to cell,
 * whose format is f: set once, when the report opens. */
void metric_one_bind(struct metric_one *o, const struct metric_cell *cell,
                     const struct metric_fmt *f);

/* The figure of o as a formula for a writer (rowsink.h's row_x), the
 * same figure as metric_frame_figures's cell wherever it fits 64 bits;
 * SINK_FROM_CELL where it takes the engine. */
void metric_one_formula(const struct metric_one *o, struct sink_formula *f);

/* What metric_figure gives of a fresh accumulator after metric_add of the
 * frame alone, without the accumulator: the figures of a row of one frame,
 * for the n columns f[0..n) bound to cell[0..n) and o[0..n)
 * (metric_one_bind), into out[0..n). The same cells as the engine's
 * fraction scaled by ratio_cell gives, without the engine where o says
 * so. */
void metric_frame_figures(const struct metric_one *o, const struct metric_fmt *f,
                          const struct metric_cell *cell, size_t n,
                          const struct metric_frame *fr, struct sink_cell *out);

/* The value of type t over the one window w as a cell, with f's scale and
 * decimals; SINK_EMPTY when it has none. */
void metric_window_figure(const struct metric_fmt *f, enum counter_type t,
                          const struct counter_window *w, struct sink_cell *out);

/* The column's value as a double (for ranking); PM_E_NO_VALUE when none. */
pm_status metric_value(const struct rpt_column *c, const struct counter_acc *acc,
                       double *out);

#endif
