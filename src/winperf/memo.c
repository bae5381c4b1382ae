/* memo.c: the names of a system's last snapshot (memo.h). */
#include <stdlib.h>
#include <string.h>

#include "winperf/memo.h"

/* Each part of a memo in one allocation, the objects first, the others
 * at these offsets (a multiple of 8 each, for the structs after it). */
struct layout {
	size_t instances, names, bytes, text, end;
};

static size_t
align8(size_t n)
{
	return (n + 7) / 8 * 8;
}

static struct layout
layout_of(size_t nobjects, size_t ninstances, size_t nbytes, size_t ntext)
{
	struct layout l;

	l.instances = align8(nobjects * sizeof(struct memo_object));
	l.names = l.instances + align8(ninstances * sizeof(struct memo_instance));
	l.bytes = l.names + align8(ninstances * sizeof(struct name_at));
	l.text = l.bytes + align8(nbytes);
	l.end = l.text + ntext;
	return l;
}

static void
forget(struct wp_memo *m)
{
	free(m->objects);
	*m = (struct wp_memo){ 0 };
}

void
memo_free(struct wp_memos *m)
{
	for (size_t i = 0; i < MEMO_SLOTS; i++)
		forget(&m->slot[i]);
}

static bool
is_of(const struct wp_memo *x, const char *system)
{
	return x->set && strcmp(x->text + x->system_at, system) == 0;
}

const struct wp_memo *
memo_of(struct wp_memos *m, const char *system)
{
	for (size_t i = 0; i < MEMO_SLOTS; i++) {
		struct wp_memo *x = &m->slot[i];
		if (is_of(x, system)) {
			x->used = ++m->clock;
			return x;
		}
	}
	return NULL;
}

bool
memo_object_same(const struct wp_memo *m, size_t i, const struct memo_object *o)
{
	return i < m->nobjects && m->objects[i].title == o->title &&
	       m->objects[i].codepage == o->codepage &&
	       m->objects[i].num_instances == o->num_instances;
}

bool
memo_instance_same(const struct wp_memo *m, size_t k, const struct memo_source *s)
{
	if (k >= m->ninstances)
		return false;
	const struct memo_instance *x = &m->instances[k];
	return x->raw_len == s->raw.len && x->parent_title == s->parent_title &&
	       x->parent_instance == s->parent_instance &&
	       memcmp(m->bytes + x->raw_at, s->raw.p, s->raw.len) == 0;
}

bool
memo_fits(const struct wp_memo *m, size_t ninstances, size_t block_len)
{
	return ninstances == m->ninstances && block_len >= m->block_len;
}

/* The slot for system's memo: its own, else one never set, else the one
 * used longest ago. */
static struct wp_memo *
slot_for(struct wp_memos *m, const char *system)
{
	struct wp_memo *pick = &m->slot[0];

	for (size_t i = 0; i < MEMO_SLOTS; i++) {
		struct wp_memo *x = &m->slot[i];
		if (is_of(x, system))
			return x;
		if (pick->set && (!x->set || x->used < pick->used))
			pick = x;
	}
	return pick;
}

uint64_t
memo_keep(struct wp_memos *m, size_t block_len, const struct wp_object *objects,
          size_t nobjects, const struct memo_source *sources, size_t ninstances,
          const char *text, size_t ntext, size_t system_at, const struct name_at *names)
{
	struct wp_memo *x = slot_for(m, text + system_at);
	size_t nbytes = 0, at = 0;
	struct layout l;
	unsigned char *p;

	for (size_t k = 0; k < ninstances; k++)
		nbytes += sources[k].raw.len;
	l = layout_of(nobjects, ninstances, nbytes, ntext);
	x->set = false;
	if (l.end > MEMO_MAX_BYTES) {
		forget(x);
		return 0;
	}
	if (l.end > x->cap) {
		if (!(p = realloc(x->objects, l.end))) {
			forget(x);
			return 0;
		}
		x->cap = l.end;
	} else {
		p = (unsigned char *)x->objects;
	}
	x->objects = (struct memo_object *)(void *)p;
	x->instances = (struct memo_instance *)(void *)(p + l.instances);
	x->names = (struct name_at *)(void *)(p + l.names);
	x->bytes = p + l.bytes;
	x->text = (char *)p + l.text;
	for (size_t i = 0; i < nobjects; i++)
		x->objects[i] = (struct memo_object){ objects[i].title, objects[i].codepage,
		                                      objects[i].num_instances };
	for (size_t k = 0; k < ninstances; k++) {
		const struct memo_source *s = &sources[k];
		x->instances[k] = (struct memo_instance){ at, s->raw.len, s->parent_title,
		                                          s->parent_instance };
		memcpy(x->bytes + at, s->raw.p, s->raw.len);
		at += s->raw.len;
	}
	memcpy(x->names, names, ninstances * sizeof *names);
	memcpy(x->text, text, ntext);
	x->nobjects = nobjects;
	x->ninstances = ninstances;
	x->ntext = ntext;
	x->system_at = system_at;
	x->block_len = block_len;
	x->used = ++m->clock;
	x->number = ++m->numbered;
	x->set = true;
	return x->number;
}
