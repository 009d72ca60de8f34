/*
 * evq.c - the event queue: a min-heap of buckets, each a FIFO chain of
 * the events of one time.  See evq.h for why and for the ordering proof.
 *
 * Storage is three arrays of one capacity, grown together by doubling:
 * the events (nodes, chained by index), the buckets and the heap slots.
 * Freed nodes and buckets go on free lists, so a run in steady state
 * never allocates.  Indices, not pointers, so that growing moves nothing
 * that matters.
 */
#include "evq.h"

#include <stdlib.h>
#include <string.h>

void km_evq_init(struct km_evq *q)
{
	q->len = 0;
	q->next_seq = 0;
	q->nodes = NULL;
	q->buckets = NULL;
	q->heap = NULL;
	q->cap = q->used = q->nbuckets = 0;
	q->free_node = q->free_bucket = KM_EVQ_NIL;
	memset(q->cache, 0xff, sizeof(q->cache));	/* KM_EVQ_NIL */
}

void km_evq_free(struct km_evq *q)
{
	free(q->nodes);
	free(q->buckets);
	free(q->heap);
	km_evq_init(q);
}

static inline bool slot_before(const struct km_evq_slot *a, const struct km_evq_slot *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	return a->seq < b->seq;
}

static inline uint32_t cache_index(km_time time)
{
	return (uint32_t)(((uint64_t)time * 0x9e3779b97f4a7c15ULL) >> 58) &
	       (KM_EVQ_CACHE - 1);
}

/* Double the capacity of all three arrays; on failure nothing changes
 * but the size of what was already reallocated. */
static int grow(struct km_evq *q)
{
	uint32_t ncap = q->cap ? q->cap * 2 : 256;
	if (ncap <= q->cap)
		return KM_ENOMEM;
	struct km_evq_node *n = realloc(q->nodes, (size_t)ncap * sizeof(*n));
	if (!n)
		return KM_ENOMEM;
	q->nodes = n;
	struct km_evq_bucket *b = realloc(q->buckets, (size_t)ncap * sizeof(*b));
	if (!b)
		return KM_ENOMEM;
	q->buckets = b;
	struct km_evq_slot *h = realloc(q->heap, (size_t)ncap * sizeof(*h));
	if (!h)
		return KM_ENOMEM;
	q->heap = h;
	q->cap = ncap;
	return KM_OK;
}

/*
 * A node and, when needed, a bucket come from the free lists or from the
 * untouched part of the arrays.  Buckets never outnumber live nodes, so
 * when a node is available a bucket is too: only nodes need checking.
 */
static inline uint32_t node_alloc(struct km_evq *q)
{
	uint32_t n = q->free_node;
	if (n != KM_EVQ_NIL) {
		q->free_node = q->nodes[n].next;
		return n;
	}
	return q->used++;
}

static inline uint32_t bucket_alloc(struct km_evq *q)
{
	uint32_t b = q->free_bucket;
	if (b != KM_EVQ_NIL) {
		q->free_bucket = q->buckets[b].tail;
		return b;
	}
	/* No free bucket: every bucket handed out is live, in the heap, so
	 * they are 0 .. nbuckets - 1 and the next untouched one is nbuckets
	 * (below cap: fewer buckets than live nodes). */
	return q->nbuckets;
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

int km_evq_push(struct km_evq *q, km_time time, uint32_t kind, uint32_t id,
		uint64_t token)
{
	if (q->free_node == KM_EVQ_NIL && q->used == q->cap && grow(q) < 0)
		return KM_ENOMEM;
	uint32_t n = node_alloc(q);
	struct km_evq_node *node = &q->nodes[n];
	node->ev = (struct km_event){
		.time = time, .seq = q->next_seq++, .kind = kind, .id = id,
		.token = token,
	};
	node->next = KM_EVQ_NIL;
	q->len++;

	/* A live bucket of this time: the event goes last in it.  Its key,
	 * its first event's, does not change. */
	uint32_t *cached = &q->cache[cache_index(time)];
	uint32_t b = *cached;
	if (b != KM_EVQ_NIL) {
		struct km_evq_bucket *bk = &q->buckets[b];
		if (bk->head != KM_EVQ_NIL && bk->time == time) {
			q->nodes[bk->tail].next = n;
			bk->tail = n;
			return KM_OK;
		}
	}
	b = bucket_alloc(q);
	q->buckets[b] = (struct km_evq_bucket){ .time = time, .head = n, .tail = n };
	*cached = b;
	sift_up(q, (struct km_evq_slot){ .time = time, .seq = node->ev.seq, .bucket = b });
	return KM_OK;
}

bool km_evq_pop(struct km_evq *q, struct km_event *out)
{
	if (!q->nbuckets)
		return false;
	uint32_t b = q->heap[0].bucket;
	struct km_evq_bucket *bk = &q->buckets[b];
	uint32_t n = bk->head;
	*out = q->nodes[n].ev;
	uint32_t next = q->nodes[n].next;
	q->nodes[n].next = q->free_node;
	q->free_node = n;
	q->len--;

	if (next != KM_EVQ_NIL) {
		/* The bucket's key moves on to its next event. */
		bk->head = next;
		struct km_evq_slot s = q->heap[0];
		s.seq = q->nodes[next].ev.seq;
		sift_down(q, s);
		return true;
	}
	/* The bucket is empty: free it and sift the last slot down. */
	bk->head = KM_EVQ_NIL;
	bk->tail = q->free_bucket;
	q->free_bucket = b;
	struct km_evq_slot last = q->heap[--q->nbuckets];
	if (q->nbuckets)
		sift_down(q, last);
	return true;
}
