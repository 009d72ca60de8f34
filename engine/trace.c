/*
 * trace.c - trace records and the running trace hash.  See trace.h: the
 * hash itself is inline there.
 */
#include "trace.h"

#include <stdlib.h>

#define FNV_OFFSET 0xcbf29ce484222325ULL

void km_trace_init(struct km_trace *t, bool store, size_t limit)
{
	t->hash = FNV_OFFSET;
	t->count = 0;
	t->store = store;
	t->sink = NULL;
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

int km_trace_store(struct km_trace *t, const struct km_trace_rec *r)
{
	if (t->sink)
		t->sink->put(t->sink, r);
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
