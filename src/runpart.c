/* runpart.c: the run's sections of a partial (runpart.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runpart.h"
#include "core/text.h"

static const char identity_tag[4] = { 'I', 'D', 'N', 'T' };
static const char inputs_tag[4] = { 'F', 'I', 'L', 'S' };
static const char tally_tag[4] = { 'T', 'A', 'L', 'Y' };
static const char diag_tag[4] = { 'D', 'I', 'A', 'G' };
static const char census_tag[4] = { 'C', 'E', 'N', 'S' };
static const char entries_tag[4] = { 'C', 'E', 'N', 'E' };

void
runpart_put(struct runpart_identity *id, const char *key, const char *fmt, ...)
{
	va_list ap;

	if (id->n == RUNPART_KEYS)
		abort();  /* a programming error: RUNPART_KEYS too small */
	text_copy(id->key[id->n], sizeof id->key[0], key);
	va_start(ap, fmt);
	vsnprintf(id->value[id->n], sizeof id->value[0], fmt, ap);
	va_end(ap);
	id->n++;
}

/* The tally's figures in their fixed order; to (NULL) or from them. */
static void
tally_words(struct tally *t, uint64_t *(*each)(uint64_t *v, void *ctx), void *ctx)
{
	uint64_t *scalars[] = {
		&t->bytes_read, &t->used, &t->skipped, &t->damaged, &t->segments,
		&t->spanned, &t->orphans, &t->truncated, &t->damaged_records,
		&t->intervals_complete, &t->intervals_incomplete, &t->duplicate_parts,
		&t->intervals_duplicate, &t->intervals_overlapping, &t->intervals_too_long,
		&t->implausible, &t->compressed_in, &t->compressed_out,
	};

	for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++)
		each(scalars[i], ctx);
	for (int k = 0; k < KIND_COUNT; k++)
		for (int ty = 0; ty < 256; ty++) {
			each(&t->records[k][ty], ctx);
			each(&t->bytes[k][ty], ctx);
		}
}

static uint64_t *
write_word(uint64_t *v, void *ctx)
{
	pw_uint(ctx, 8, *v);
	return v;
}

static uint64_t *
add_word(uint64_t *v, void *ctx)
{
	*v += pc_uint(ctx, 8);
	return v;
}

void
runpart_write(struct pwriter *w, const struct runpart_identity *id,
              const char *const *inputs, size_t ninputs, const struct tally *t,
              const struct census *census, const struct sources *src, uint64_t resets,
              const struct diag *d)
{
	struct tally copy = *t;
	size_t said = 0;

	pw_section(w, identity_tag);
	pw_uint(w, 4, id->n);
	for (size_t i = 0; i < id->n; i++) {
		pw_text(w, id->key[i]);
		pw_text(w, id->value[i]);
	}
	pw_end_section(w);
	pw_section(w, inputs_tag);
	pw_uint(w, 4, ninputs);
	for (size_t i = 0; i < ninputs; i++)
		pw_text(w, inputs[i]);
	pw_end_section(w);
	pw_section(w, tally_tag);
	tally_words(&copy, write_word, w);
	pw_end_section(w);
	pw_section(w, census_tag);
	pw_uint(w, 8, census->inputs);
	pw_uint(w, 8, resets);
	pw_uint(w, 8, census->nsystems);
	for (size_t i = 0; i < census->nsystems; i++) {
		const struct census_system *y = &census->systems[i];
		pw_text(w, sources_name(src, y->source));
		pw_uint(w, 8, y->snapshots);
		pw_i64(w, y->first);
		pw_i64(w, y->last);
		pw_text(w, census->names[y->input]);
		pw_uint(w, 8, y->seq);
	}
	pw_end_section(w);
	pw_section(w, entries_tag);
	pw_uint(w, 8, census->nodata);
	pw_uint(w, 8, census->unknown);
	pw_uint(w, 8, census->nentries);
	for (size_t i = 0; i < census->nentries; i++) {
		const struct census_entry *e = &census->entries[i];
		pw_uint(w, 4, e->object);
		pw_uint(w, 4, e->counter);
		pw_uint(w, 4, e->type);
		pw_uint(w, 8, e->seen);
		pw_text(w, census->names[e->input]);
		pw_uint(w, 8, e->seq);
	}
	pw_end_section(w);
	pw_section(w, diag_tag);
	for (int st = 1; st < PM_STATUS_COUNT; st++)
		said += d->count[st] != 0;
	pw_uint(w, 4, said);
	for (int st = 1; st < PM_STATUS_COUNT; st++)
		if (d->count[st]) {
			pw_text(w, pm_status_name((pm_status)st));
			pw_uint(w, 8, d->count[st]);
		}
	pw_end_section(w);
}

pm_status
runpart_check(const struct partial *p, const struct runpart_identity *id, char *err,
              size_t cap)
{
	static char key[sizeof id->key[0]], value[RUNPART_VALUE_MAX];
	struct span s;
	struct pcursor c;
	uint64_t n;

	if (!partial_section(p, identity_tag, &s)) {
		snprintf(err, cap, "it says nothing of the options it was made with");
		return PM_E_PARTIAL;
	}
	c = pc_make(s);
	n = pc_uint(&c, 4);
	for (size_t i = 0; i < id->n || i < n; i++) {
		if (i < n) {
			pc_text(&c, key, sizeof key);
			pc_text(&c, value, sizeof value);
		}
		if (c.bad) {
			snprintf(err, cap, "its options are not whole");
			return PM_E_PARTIAL;
		}
		if (i >= n || i >= id->n || strcmp(key, id->key[i]) != 0 ||
		    strcmp(value, id->value[i]) != 0) {
			const char *k = i < id->n ? id->key[i] : key;
			snprintf(err, cap, "made with %s=%s, this run has %s=%s", k,
			         i < n && strcmp(key, k) == 0 ? value : "(none)", k,
			         i < id->n ? id->value[i] : "(none)");
			return PM_E_PARTIAL_MISMATCH;
		}
	}
	return PM_OK;
}

static pm_status
read_inputs(const struct partial *p, char ***names, size_t *nnames)
{
	static char name[4096];
	struct span s;
	struct pcursor c;
	uint64_t n;
	char **more;

	if (!partial_section(p, inputs_tag, &s))
		return PM_E_PARTIAL;
	c = pc_make(s);
	n = pc_uint(&c, 4);
	if (c.bad || n > s.len)
		return PM_E_PARTIAL;
	if (!(more = realloc(*names, (*nnames + n + 1) * sizeof *more)))
		return PM_E_NOMEM;
	*names = more;
	for (uint64_t i = 0; i < n; i++) {
		pc_text(&c, name, sizeof name);
		if (c.bad)
			return PM_E_PARTIAL;
		if (!(more[*nnames] = strdup(name)))
			return PM_E_NOMEM;
		++*nnames;
	}
	return pc_done(&c) ? PM_OK : PM_E_PARTIAL;
}

/* The objects and counters of a partial added to k's. */
static pm_status
read_entries(const struct partial *p, struct runpart_counts *k)
{
	static char input[4096];
	struct span s;
	struct pcursor c;
	uint64_t n;
	pm_status st;

	if (!partial_section(p, entries_tag, &s))
		return PM_E_PARTIAL;
	c = pc_make(s);
	k->census->nodata += pc_uint(&c, 8);
	k->census->unknown += pc_uint(&c, 8);
	n = pc_uint(&c, 8);
	for (uint64_t i = 0; i < n && !c.bad; i++) {
		uint32_t object = (uint32_t)pc_uint(&c, 4), counter = (uint32_t)pc_uint(&c, 4);
		uint32_t type = (uint32_t)pc_uint(&c, 4);
		uint64_t seen = pc_uint(&c, 8), seq;
		pc_text(&c, input, sizeof input);
		seq = pc_uint(&c, 8);
		if (c.bad)
			break;
		if ((st = census_entry_add(k->census, object, counter, type, seen, input, seq)) != PM_OK)
			return st;
	}
	return pc_done(&c) ? PM_OK : PM_E_PARTIAL;
}

/* The systems and snapshots of a partial added to k's. */
static pm_status
read_census(const struct partial *p, struct runpart_counts *k)
{
	static char input[4096];
	char name[SOURCE_NAME_MAX];
	struct span s;
	struct pcursor c;
	uint64_t n;
	uint32_t source;
	pm_status st;

	if (!partial_section(p, census_tag, &s))
		return PM_E_PARTIAL;
	c = pc_make(s);
	k->census->inputs += pc_uint(&c, 8);
	k->resets += pc_uint(&c, 8);
	n = pc_uint(&c, 8);
	for (uint64_t i = 0; i < n && !c.bad; i++) {
		uint64_t snapshots, seq;
		int64_t first, last;
		pc_text(&c, name, sizeof name);
		snapshots = pc_uint(&c, 8);
		first = pc_i64(&c);
		last = pc_i64(&c);
		pc_text(&c, input, sizeof input);
		seq = pc_uint(&c, 8);
		if (c.bad)
			break;
		if ((st = sources_intern(k->sources, name, strlen(name), &source)) != PM_OK ||
		    (st = census_add_from(k->census, source, snapshots, first, last, input,
		                          seq)) != PM_OK)
			return st;
	}
	if (!pc_done(&c))
		return PM_E_PARTIAL;
	return read_entries(p, k);
}

pm_status
runpart_read(const struct partial *p, struct tally *t, struct runpart_counts *k,
             struct diag *d, char ***names, size_t *nnames, char *err, size_t cap)
{
	char name[64];
	struct span s;
	struct pcursor c;
	uint64_t n;
	pm_status st = read_inputs(p, names, nnames);

	if (st != PM_OK) {
		snprintf(err, cap, "its list of inputs is not whole");
		return st;
	}
	if (!partial_section(p, tally_tag, &s)) {
		snprintf(err, cap, "it has no byte accounting");
		return PM_E_PARTIAL;
	}
	c = pc_make(s);
	tally_words(t, add_word, &c);
	if (!pc_done(&c)) {
		snprintf(err, cap, "its byte accounting is not whole");
		return PM_E_PARTIAL;
	}
	if ((st = read_census(p, k)) != PM_OK) {
		snprintf(err, cap, "its systems and snapshots are not whole");
		return st;
	}
	if (!partial_section(p, diag_tag, &s)) {
		snprintf(err, cap, "it has no counts of what was said");
		return PM_E_PARTIAL;
	}
	c = pc_make(s);
	n = pc_uint(&c, 4);
	for (uint64_t i = 0; i < n && !c.bad; i++) {
		uint64_t count;
		pc_text(&c, name, sizeof name);
		count = pc_uint(&c, 8);
		for (int st2 = 1; st2 < PM_STATUS_COUNT && !c.bad; st2++)
			if (strcmp(name, pm_status_name((pm_status)st2)) == 0)
				diag_count(d, (pm_status)st2, count);
	}
	if (!pc_done(&c)) {
		snprintf(err, cap, "its counts of what was said are not whole");
		return PM_E_PARTIAL;
	}
	return PM_OK;
}
