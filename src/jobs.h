/* jobs.h: the inputs of a run read into its reports: one after the
 * other, or with --jobs by threads, each file (or each range of one,
 * split.h) with a pipeline, report and diag of its own into a partial in
 * memory, merged in input order when they read as one run reads them,
 * else all read again in order. */
#ifndef JOBS_H
#define JOBS_H

#include <stddef.h>

#include "run.h"

/* Read every input named (or standard input). Returns -1 when one could
 * not be opened or read to its end. */
int read_inputs(struct run *r);

/* How many threads read the inputs: --jobs for a report a partial holds
 * (only those merge), for two inputs or more, or one that may be cut into
 * ranges (split.h); else one. Not one input with a time zone, whose
 * repeated hour is told apart by the parts before it in the input, nor
 * for --partial, whose time covered would keep the ranges' apart where
 * one run's join. Standard input is read in order, by one. */
size_t jobs_for(const struct run *r);

/* --jobs: the inputs, or the ranges of one, read by r->jobs threads;
 * then, in their order, each one's messages printed and its partial
 * merged. When they would not read as one run reads them (jobs_agree),
 * what the threads did is dropped and the inputs are read again, one
 * after the other. Returns -1 when one could not be opened or read to
 * its end. */
int read_jobs(struct run *r);

#endif
