/*
 * trace.c - trace records and the running FNV-1a trace hash.  See trace.h.
 */
#include "trace.h"

#include <stdlib.h>

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

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

static inline uint64_t fold(uint64_t h, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++) {
		h ^= (v >> (8 * i)) & 0xff;
		h *= FNV_PRIME;
	}
	return h;
}

void km_trace_fold(struct km_trace *t, const struct km_trace_rec *r)
{
	uint64_t h = t->hash;
	h = fold(h, (uint64_t)r->time, 8);
	h = fold(h, r->kind, 1);
	h = fold(h, r->cpu, 2);
	h = fold(h, r->ctx, 4);
	h = fold(h, r->obj, 4);
	h = fold(h, r->aux, 4);
	h = fold(h, (uint64_t)r->arg, 8);
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
