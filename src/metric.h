/* metric.h: the counter engine applied to PMIM, one column at a time.
 *
 * An interval is one sample window: its figures are already deltas, so a
 * column's window has dN = the value of N, dD = the value of D, dB = B,
 * all in the column's clock (rptdef.h), and TB = that clock's ticks per
 * second. An interval that lacks a part the column reads adds a window
 * with no value (counter_acc_add_none): it is counted, and the average
 * function leaves it out instead of taking it as zero.
 *
 * Values: the engine's average function (counter_acc_value) decides
 * whether there is one; the figure written is the same quotient of the
 * accumulator's integer sums, times the column's unit and scale, rounded
 * exactly (half up) to the column's decimals, so that no binary fraction
 * shows in a report and every host prints the same digits. Only when
 * numerator and denominator do not fit 64 bits is the engine's double
 * rounded instead. aggregate=total columns (DELTA types) give SUM(dN), the
 * DELTA calculation over the group taken as one window. */
#ifndef METRIC_H
#define METRIC_H

#include <stddef.h>

#include "counter.h"
#include "copybook.h"
#include "reasm.h"
#include "rptdef.h"

/* The type the column's accumulator holds: the column's, or ELAPSED_TIME
 * over @start and @end for first_start and last_end. 0 .. CT_COUNT-1, or
 * CT_UNKNOWN for text columns that keep no figures. */
enum counter_type metric_acc_type(const struct rpt_column *c);

/* Add interval iv to acc as column c's window; bucket is the row's bucket
 * (-1 for none) unless the column names its own. */
void metric_add(struct counter_acc *acc, const struct rpt_column *c,
                const struct layout *lay, const struct interval *iv, int bucket);

/* The column's figure, formatted into out (FMTNUM_MAX bytes); 0 when it
 * has no value. */
size_t metric_format(const struct rpt_column *c, const struct counter_acc *acc,
                     char *out);

/* The column's value as a double (for ranking); PM_E_NO_VALUE when none. */
pm_status metric_value(const struct rpt_column *c, const struct counter_acc *acc,
                       double *out);

#endif
