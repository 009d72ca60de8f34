/*
 * evq.c - the event queue: a min-heap of buckets, each a FIFO chain of
 * the events of one time.  See evq.h for why and for the ordering proof.
 *
 * Storage is two arrays of one capacity, grown together by doubling: the
 * events (nodes, chained by index) and the heap slots.  A bucket has no
 * record of its own: it is its first node, whose tail field points at
 * its last; popping the first hands the bucket on to the next node.
 * Freed nodes go on a free list, so a run in steady state never
 * allocates.  Indices, not pointers, so that growing moves nothing that
 * matters.
 */
#include "evq.h"

#include <stdlib.h>
#include <string.h>

void km_evq_init(struct km_evq *q)
{
	q->len = 0;
	q->next_seq = 0;
	q->nodes = NULL;
	q->heap = NULL;
	q->cap = q->used = q->nbuckets = 0;
	q->free_node = KM_EVQ_NIL;
	memset(q->cache, 0xff, sizeof(q->cache));	/* KM_EVQ_NIL */
	q->has_fresh = false;
}

void km_evq_free(struct km_evq *q)
{
	free(q->nodes);
	free(q->heap);
	km_evq_init(q);
}

static inline bool slot_before(const struct km_evq_slot *a, const struct km_evq_slot *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	return a->seq < b->seq;
}

static inline uint32_t *cache_of(struct km_evq *q, km_time time)
{
	return &q->cache[((uint64_t)time * 0x9e3779b97f4a7c15ULL) >> 58 & (KM_EVQ_CACHE - 1)];
}

/* Double the capacity of both arrays (32 at first: a small scenario's
 * explorer copies the whole heap at every snapshot, cli/snapshot.h); on
 * failure nothing changes but the size of what was already reallocated. */
static int grow(struct km_evq *q)
{
	uint32_t ncap = q->cap ? q->cap * 2 : 32;
	if (ncap <= q->cap)
		return KM_ENOMEM;
	struct km_evq_node *n = realloc(q->nodes, (size_t)ncap * sizeof(*n));
	if (!n)
		return KM_ENOMEM;
	q->nodes = n;
	struct km_evq_slot *h = realloc(q->heap, (size_t)ncap * sizeof(*h));
	if (!h)
		return KM_ENOMEM;
	q->heap = h;
	q->cap = ncap;
	return KM_OK;
}

static void sift_up(struct km_evq *q, struct km_evq_slot s)
{
	uint32_t i = q->nbuckets++;
	while (i > 0) {
		uint32_t parent = (i - 1) / 2;
		if (!slot_before(&s, &q->heap[parent]))
			break;
		q->heap[i] = q->heap[parent];
		i = parent;
	}
	q->heap[i] = s;
}

static void sift_down(struct km_evq *q, struct km_evq_slot s)
{
	uint32_t n = q->nbuckets, i = 0;
	for (;;) {
		uint32_t child = 2 * i + 1;
		if (child >= n)
			break;
		if (child + 1 < n && slot_before(&q->heap[child + 1], &q->heap[child]))
			child++;
		if (!slot_before(&q->heap[child], &s))
			break;
		q->heap[i] = q->heap[child];
		i = child;
	}
	q->heap[i] = s;
}

/* File @ev (its sequence number given) in its bucket.  It has the largest
 * sequence number in the heap, so it goes last in a bucket of its time. */
static int file_event(struct km_evq *q, const struct km_event *ev)
{
	uint32_t n = q->free_node;
	if (n != KM_EVQ_NIL) {
		q->free_node = q->nodes[n].next;
	} else {
		if (q->used == q->cap && grow(q) < 0)
			return KM_ENOMEM;
		n = q->used++;
	}
	struct km_evq_node *node = &q->nodes[n];
	km_time time = ev->time;
	node->ev = *ev;
	node->next = KM_EVQ_NIL;

	/* A live bucket of this time: the event goes last in it.  Its key,
	 * its first event's, does not change. */
	uint32_t *cached = cache_of(q, time);
	uint32_t h = *cached;
	if (h != KM_EVQ_NIL) {
		struct km_evq_node *head = &q->nodes[h];
		if (head->tail != KM_EVQ_NIL && head->ev.time == time) {
			q->nodes[head->tail].next = n;
			head->tail = n;
			node->tail = KM_EVQ_NIL;
			return KM_OK;
		}
	}
	/* Otherwise the event heads a new bucket. */
	node->tail = n;
	*cached = n;
	sift_up(q, (struct km_evq_slot){ .time = time, .seq = ev->seq, .node = n });
	return KM_OK;
}

int km_evq_file_fresh(struct km_evq *q)
{
	return file_event(q, &q->fresh);
}

bool km_evq_pop_bucket(struct km_evq *q, struct km_event *out)
{
	if (!q->nbuckets)
		return false;
	uint32_t n = q->heap[0].node;
	struct km_evq_node *node = &q->nodes[n];
	*out = node->ev;
	uint32_t next = node->next, tail = node->tail;
	node->tail = KM_EVQ_NIL;
	node->next = q->free_node;
	q->free_node = n;
	q->len--;

	if (next != KM_EVQ_NIL) {
		/* The next event heads the bucket now, and gives it its key. */
		q->nodes[next].tail = tail;
		uint32_t *cached = cache_of(q, out->time);
		if (*cached == n)
			*cached = next;
		sift_down(q, (struct km_evq_slot){ .time = out->time,
				 .seq = q->nodes[next].ev.seq, .node = next });
		return true;
	}
	/* The bucket is empty: sift the last slot down from the root. */
	struct km_evq_slot last = q->heap[--q->nbuckets];
	if (q->nbuckets)
		sift_down(q, last);
	return true;
}
