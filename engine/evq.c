/*
 * evq.c - binary min-heap of events keyed by (time, seq).  See evq.h.
 */
#include "evq.h"

#include <stdlib.h>

void km_evq_init(struct km_evq *q)
{
	q->heap = NULL;
	q->len = q->cap = 0;
	q->next_seq = 0;
}

void km_evq_free(struct km_evq *q)
{
	free(q->heap);
	km_evq_init(q);
}

static inline bool before(const struct km_event *a, const struct km_event *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	return a->seq < b->seq;
}

int km_evq_push(struct km_evq *q, km_time time, uint32_t kind, uint32_t id,
		uint64_t token)
{
	if (q->len == q->cap) {
		size_t ncap = q->cap ? q->cap * 2 : 256;
		struct km_event *n = realloc(q->heap, ncap * sizeof(*n));
		if (!n)
			return KM_ENOMEM;
		q->heap = n;
		q->cap = ncap;
	}
	struct km_event ev = {
		.time = time, .seq = q->next_seq++, .kind = kind, .id = id,
		.token = token,
	};
	/* Sift up: move parents down until ev's place is found. */
	size_t i = q->len++;
	while (i > 0) {
		size_t parent = (i - 1) / 2;
		if (!before(&ev, &q->heap[parent]))
			break;
		q->heap[i] = q->heap[parent];
		i = parent;
	}
	q->heap[i] = ev;
	return KM_OK;
}

bool km_evq_pop(struct km_evq *q, struct km_event *out)
{
	if (!q->len)
		return false;
	*out = q->heap[0];
	struct km_event last = q->heap[--q->len];
	size_t n = q->len, i = 0;
	/* Sift down the former last element from the root. */
	for (;;) {
		size_t child = 2 * i + 1;
		if (child >= n)
			break;
		if (child + 1 < n && before(&q->heap[child + 1], &q->heap[child]))
			child++;
		if (!before(&q->heap[child], &last))
			break;
		q->heap[i] = q->heap[child];
		i = child;
	}
	if (n)
		q->heap[i] = last;
	return true;
}
