/* diag.c: the one message function. See diag.h. */
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#include "core/diag.h"
#include "core/exitcode.h"

void
diag_init(struct diag *d, const char *progname, FILE *out)
{
	memset(d, 0, sizeof *d);
	d->progname = progname;
	d->out = out;
	d->max_per_status = 20;
	d->worst = SC_OK;
}

void
diag_count(struct diag *d, pm_status st, unsigned long n)
{
	enum status_class cls = pm_status_class(st);

	if ((unsigned)st >= PM_STATUS_COUNT || n == 0)
		return;
	d->count[st] += n;
	if (cls > d->worst)
		d->worst = cls;
}

void
diag_at(struct diag *d, pm_status st, int64_t offset, const char *fmt, ...)
{
	enum status_class cls = pm_status_class(st);

	if ((unsigned)st < PM_STATUS_COUNT)
		d->count[st]++;
	if (cls > d->worst)
		d->worst = cls;
	if (d->out == NULL)
		return;
	if (d->max_per_status && (unsigned)st < PM_STATUS_COUNT &&
	    d->count[st] > d->max_per_status)
		return;

	if (d->before_message)
		d->before_message(d->before_ctx);
	if (d->tagged)
		fprintf(d->out, "%c%u ", DIAG_TAG, (unsigned)st);
	fprintf(d->out, "%s: ", d->progname);
	if (d->file)
		fprintf(d->out, "%s: ", d->file);
	if (offset != DIAG_NO_OFFSET)
		fprintf(d->out, "offset %lld (0x%llx): ", (long long)offset,
		        (unsigned long long)offset);
	fputs(cls == SC_WARN ? "warning: " : "error: ", d->out);
	fputs(pm_strerror(st), d->out);
	if (fmt) {
		va_list ap;
		fputs(": ", d->out);
		va_start(ap, fmt);
		vfprintf(d->out, fmt, ap);
		va_end(ap);
	}
	fputc('\n', d->out);
}

/* A message outside diag_at: its class counted, then "PROG: " when
 * named, and the text. */
static void
vmessage(struct diag *d, enum status_class cls, bool named, const char *fmt,
         va_list ap)
{
	if (cls > d->worst)
		d->worst = cls;
	if (d->out == NULL)
		return;
	if (d->before_message)
		d->before_message(d->before_ctx);
	if (d->tagged)
		fprintf(d->out, "%c%u ", DIAG_TAG, (unsigned)PM_STATUS_COUNT);
	if (named)
		fprintf(d->out, "%s: ", d->progname);
	vfprintf(d->out, fmt, ap);
	fputc('\n', d->out);
}

void
diag_say(struct diag *d, enum status_class cls, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(d, cls, true, fmt, ap);
	va_end(ap);
}

void
diag_line(struct diag *d, enum status_class cls, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(d, cls, false, fmt, ap);
	va_end(ap);
}

int
diag_usage(struct diag *d, const char *fmt, ...)
{
	va_list ap;

	if (fmt) {
		va_start(ap, fmt);
		vmessage(d, SC_USAGE, true, fmt, ap);
		va_end(ap);
	} else if (SC_USAGE > d->worst) {
		d->worst = SC_USAGE;
	}
	if (d->out)
		fprintf(d->out, "Try '%s --help' for more information.\n", d->progname);
	return EXIT_USAGE;
}

void
diag_replay(struct diag *d, const char *buf, size_t len, unsigned long *shown)
{
	const char *p = buf, *end = buf + len;
	bool print = true;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *next = nl ? nl + 1 : end;

		if (*p == DIAG_TAG) {
			unsigned long st = 0;
			for (p++; p < next && *p >= '0' && *p <= '9'; p++)
				st = st * 10 + (unsigned long)(*p - '0');
			if (p < next && *p == ' ')
				p++;
			print = true;
			if (st < PM_STATUS_COUNT) {
				shown[st]++;
				print = !d->max_per_status || shown[st] <= d->max_per_status;
			}
		}
		/* a line without a tag goes with the message before it */
		if (print && d->out) {
			if (d->before_message)
				d->before_message(d->before_ctx);
			fwrite(p, 1, (size_t)(next - p), d->out);
		}
		p = next;
	}
}

void
diag_print_suppressed(const struct diag *d)
{
	if (d->out == NULL || d->max_per_status == 0)
		return;
	for (unsigned st = 0; st < PM_STATUS_COUNT; st++)
		if (d->count[st] > d->max_per_status)
			fprintf(d->out, "%s: %lu more \"%s\" messages suppressed\n",
			        d->progname, d->count[st] - d->max_per_status,
			        pm_strerror((pm_status)st));
}

int
diag_exit_code(const struct diag *d)
{
	return pm_class_exit_code(d->worst);
}

unsigned long
diag_warning_count(const struct diag *d)
{
	unsigned long n = 0;
	for (unsigned st = 0; st < PM_STATUS_COUNT; st++)
		if (pm_status_class((pm_status)st) == SC_WARN)
			n += d->count[st];
	return n;
}

void
diag_hex(char *out, size_t cap, const uint8_t *p, size_t n)
{
	size_t used = 0;

	out[0] = '\0';
	for (size_t i = 0; i < n && used + 3 <= cap; i++)
		used += (size_t)snprintf(out + used, cap - used, "%02x", p[i]);
}
