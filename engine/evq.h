/*
 * evq.h - the event queue: events ordered by (time, sequence), kept in
 * first-in first-out runs of equal time under a small min-heap.
 *
 * Every future happening of a run (a compute segment ending, a timer, an
 * interrupt, a wake-up) is one fixed-size record in this queue.  Ties on
 * time are broken by the sequence number given at push, so two events
 * due at the same nanosecond run in the order they were scheduled: that
 * is what makes a run reproducible byte for byte.
 *
 * Why runs of equal time.  A busy machine of many CPUs keeps many events
 * pending at a handful of distinct times: every CPU with a task waiting
 * has its scheduler tick armed, and the ticks all fall on the same period
 * boundary (512 CPUs: 512 ticks at one time), while the events that
 * actually come next are one or two segment ends.  In a plain heap of
 * events each of those few pushes and pops climbed through all the ticks:
 * nine levels of a 513-event heap, a quarter of the instructions of 4,096
 * tasks contending for a spinlock on 512 CPUs.  Here events of one time
 * are chained in a bucket, and the heap orders buckets: there it holds
 * two or three.
 *
 * The order is exactly the plain heap's, (time, seq).  A new event always
 * has the largest sequence number yet, so appending it to a bucket of its
 * time keeps that bucket sorted; the heap orders buckets by (time, the
 * sequence of their first event); popping the first bucket's first event
 * is then a merge of sorted runs.  Two buckets of the same time may exist
 * (a bucket is found through a small cache by time, which can forget
 * one): the merge stays exact, a forgotten bucket only costs a heap slot.
 *
 * Events are never removed from the middle.  An event that became stale
 * (its segment was preempted, its timer cancelled) carries a token that
 * no longer matches its owner's and is simply dropped when popped: O(1)
 * cancellation for the price of a little queue space, as libuv's timers
 * and many simulators do.
 *
 * The newest event waits outside the heap.  Most events a run pushes are
 * the end of the segment just begun, and with few CPUs busy that is very
 * often the very next event: a lone task's compute() is pushed and popped
 * before anything else is pushed (the run-ahead, loop.c, takes it at
 * once).  So a push leaves its event in q->fresh and files the previous
 * fresh one in its bucket first; a peek or a pop compares the fresh
 * event's time with the heap's first.  The order is unchanged: the fresh
 * event has the largest sequence number of all, so it comes first only
 * when its time is strictly earlier than every bucket's.  An event pushed
 * and popped with nothing pushed between never touches the heap.
 *
 * Cost: push and pop are O(1) plus O(log b) for b buckets (distinct
 * pending times, at worst the number of events), and never allocate once
 * the queue has grown to the run's high-water mark.  With every time
 * distinct it is a heap of events with one more indirection.
 */
#ifndef KM_ENGINE_EVQ_H
#define KM_ENGINE_EVQ_H

#include "km.h"

struct km_event {
	km_time time;
	uint64_t seq;
	uint32_t kind;		/* enum km_event_kind (sim.h) */
	uint32_t id;		/* the object it concerns: ctx, cpu, irq source */
	uint64_t token;		/* must still match the owner's when popped */
};

/*
 * One event (internal to evq.c).  A bucket is its first event's node:
 * the first of a bucket has tail set to the bucket's last node (itself
 * when alone); every other node, queued behind it or free, has tail NIL.
 */
struct km_evq_node {
	struct km_event ev;
	uint32_t next;		/* the next event of the bucket, or of the free list */
	uint32_t tail;		/* the bucket's last event, if this node heads one */
};

/* A heap slot: a bucket's first node and its key (internal). */
struct km_evq_slot {
	km_time time;
	uint64_t seq;
	uint32_t node;
};

#define KM_EVQ_NIL UINT32_MAX
#define KM_EVQ_CACHE 64		/* buckets found by time: a power of two */

struct km_evq {
	size_t len;			/* events queued */
	uint64_t next_seq;
	/* nodes and heap slots share one capacity: there are never more
	 * buckets than events */
	struct km_evq_node *nodes;
	struct km_evq_slot *heap;
	uint32_t cap;
	uint32_t used;			/* nodes handed out so far (high-water mark) */
	uint32_t free_node;
	uint32_t nbuckets;		/* heap slots in use */
	uint32_t cache[KM_EVQ_CACHE];	/* time hash -> a node that headed a bucket */
	bool has_fresh;			/* the newest event waits in fresh, not in a bucket */
	struct km_event fresh;
};

void km_evq_init(struct km_evq *q);
void km_evq_free(struct km_evq *q);

/* The fresh event filed in its bucket, and the first bucket's first event
 * taken: the slow halves of push and pop (evq.c). */
int km_evq_file_fresh(struct km_evq *q);
bool km_evq_pop_bucket(struct km_evq *q, struct km_event *out);

/**
 * km_evq_push - schedule an event.
 * Returns 0, or KM_ENOMEM when the queue could not grow (the queue is
 * left unchanged).
 */
/* km_evq_push() when no event waits fresh (!q->has_fresh): it cannot fail. */
static inline void km_evq_push_unfiled(struct km_evq *q, km_time time, uint32_t kind,
				       uint32_t id, uint64_t token)
{
	q->fresh = (struct km_event){
		.time = time, .seq = q->next_seq++, .kind = kind, .id = id, .token = token,
	};
	q->has_fresh = true;
	q->len++;
}

static inline int km_evq_push(struct km_evq *q, km_time time, uint32_t kind, uint32_t id,
			      uint64_t token)
{
	/* the previous newest event to its bucket, before a later sequence
	 * number is given */
	if (q->has_fresh && km_evq_file_fresh(q) < 0)
		return KM_ENOMEM;
	km_evq_push_unfiled(q, time, kind, id, token);
	return KM_OK;
}

/* Is the fresh event the earliest?  Only if strictly earlier than every
 * bucket: at the same time, a bucket's events were pushed before it. */
static inline bool km_evq_fresh_first(const struct km_evq *q)
{
	return q->has_fresh && (!q->nbuckets || q->fresh.time < q->heap[0].time);
}

/**
 * km_evq_pop - remove the earliest event into *out.
 * Returns false when the queue is empty.
 */
static inline bool km_evq_pop(struct km_evq *q, struct km_event *out)
{
	if (km_evq_fresh_first(q)) {
		*out = q->fresh;
		q->has_fresh = false;
		q->len--;
		return true;
	}
	return km_evq_pop_bucket(q, out);
}

/*
 * The earliest event without removing it, or NULL when empty.
 * NOTE: the pointer is good until the next push or pop.
 */
static inline const struct km_event *km_evq_peek(const struct km_evq *q)
{
	if (km_evq_fresh_first(q))
		return &q->fresh;
	if (!q->nbuckets)
		return NULL;
	return &q->nodes[q->heap[0].node].ev;
}

#endif /* KM_ENGINE_EVQ_H */
