/*
 * evq.h - the event queue: a binary min-heap ordered by (time, sequence).
 *
 * Every future happening of a run (a compute segment ending, a timer, an
 * interrupt, a wake-up) is one fixed-size record in this heap.  Ties on
 * time are broken by the sequence number given at push, so two events
 * due at the same nanosecond run in the order they were scheduled: that
 * is what makes a run reproducible byte for byte.
 *
 * Events are never removed from the middle.  An event that became stale
 * (its segment was preempted, its timer cancelled) carries a token that
 * no longer matches its owner's and is simply dropped when popped: O(1)
 * cancellation for the price of a little heap space, as libuv's timers
 * and many simulators do.
 *
 * Push and pop are O(log n) and never allocate once the heap has grown
 * to the run's high-water mark.
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

struct km_evq {
	struct km_event *heap;
	size_t len;
	size_t cap;
	uint64_t next_seq;
};

void km_evq_init(struct km_evq *q);
void km_evq_free(struct km_evq *q);

/**
 * km_evq_push - schedule an event.
 * Returns 0, or KM_ENOMEM when the heap could not grow (the queue is
 * left unchanged).
 */
int km_evq_push(struct km_evq *q, km_time time, uint32_t kind, uint32_t id,
		uint64_t token);

/**
 * km_evq_pop - remove the earliest event into *out.
 * Returns false when the queue is empty.
 */
bool km_evq_pop(struct km_evq *q, struct km_event *out);

/* The earliest event without removing it, or NULL when empty. */
static inline const struct km_event *km_evq_peek(const struct km_evq *q)
{
	return q->len ? &q->heap[0] : NULL;
}

#endif /* KM_ENGINE_EVQ_H */
