/*
 * trace.c - trace records and the running trace hash.  See trace.h.
 */
#include "trace.h"

#include <stdlib.h>

#define FNV_OFFSET 0xcbf29ce484222325ULL

void km_trace_init(struct km_trace *t, bool store, size_t limit)
{
	t->hash = FNV_OFFSET;
	t->count = 0;
	t->store = store;
	t->recs = NULL;
	t->len = t->cap = 0;
	t->limit = limit;
	t->truncated = false;
}

void km_trace_free(struct km_trace *t)
{
	free(t->recs);
	t->recs = NULL;
	t->len = t->cap = 0;
}

/*
 * One 64-bit word into the hash: xor, multiply by the golden-ratio odd
 * constant, fold the high half down so every bit of the word reaches
 * every bit of the state.  Four words per record, about ten instructions
 * where byte-wise FNV-1a took more than 250: the hash is on the path of
 * every event.
 */
static inline uint64_t fold(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 32);
}

void km_trace_fold(struct km_trace *t, const struct km_trace_rec *r)
{
	uint64_t h = t->hash;
	h = fold(h, (uint64_t)r->time);
	h = fold(h, (uint64_t)r->kind | (uint64_t)r->flags << 8 | (uint64_t)r->cpu << 16 |
		    (uint64_t)r->ctx << 32);
	h = fold(h, (uint64_t)r->obj | (uint64_t)r->aux << 32);
	h = fold(h, (uint64_t)r->arg);
	t->hash = h;
}

int km_trace_emit(struct km_trace *t, const struct km_trace_rec *r)
{
	km_trace_fold(t, r);
	t->count++;
	if (!t->store)
		return KM_OK;
	if (t->limit && t->len >= t->limit) {
		t->truncated = true;
		return KM_OK;
	}
	if (t->len == t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 4096;
		struct km_trace_rec *n = realloc(t->recs, ncap * sizeof(*n));
		if (!n)
			return KM_ENOMEM;
		t->recs = n;
		t->cap = ncap;
	}
	t->recs[t->len++] = *r;
	return KM_OK;
}
