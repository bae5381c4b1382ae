/* progress.c: the progress line. See progress.h. Formatting is done with
 * printf here: it runs at most four times a second, never per record. */
#include "core/progress.h"

static double
seconds_between(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

void
progress_init(struct progress *p, FILE *out, int64_t total)
{
	p->out = out;
	p->total = total;
	p->done_before = 0;
	p->drawn = 0;
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	p->last = p->start;
}

void
progress_update(struct progress *p, uint64_t bytes, uint64_t records)
{
	struct timespec now;
	double elapsed, rate;
	uint64_t done;

	if (!p->out)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (seconds_between(&p->last, &now) < 0.25)
		return;
	p->last = now;
	done = p->done_before + bytes;
	elapsed = seconds_between(&p->start, &now);
	rate = elapsed > 0 ? (double)done / elapsed : 0;
	fprintf(p->out, "\rpmimrpt: %.1f MB", (double)done / 1e6);
	if (p->total > 0) {
		double left = rate > 0 ? ((double)p->total - (double)done) / rate : 0;
		if (left < 0)
			left = 0;
		fprintf(p->out, " of %.1f MB (%.0f%%)", (double)p->total / 1e6,
		        100.0 * (double)done / (double)p->total);
		fprintf(p->out, " at %.0f MB/s, %llu records, ETA %d:%02d:%02d", rate / 1e6,
		        (unsigned long long)records, (int)left / 3600, (int)left / 60 % 60,
		        (int)left % 60);
	} else {
		fprintf(p->out, " at %.0f MB/s, %llu records", rate / 1e6,
		        (unsigned long long)records);
	}
	fputs("\033[K", p->out);
	fflush(p->out);
	p->drawn = 1;
}

void
progress_next_input(struct progress *p, uint64_t bytes)
{
	p->done_before += bytes;
}

void
progress_erase(void *ctx)
{
	struct progress *p = ctx;

	if (p->out && p->drawn) {
		fputs("\r\033[K", p->out);
		fflush(p->out);
	}
	p->drawn = 0;
}
