/*
 * view_tasks.h - what each task was doing, as lanes of its own.
 *
 * The CPU lanes answer "what was CPU 3 doing?"; a lesson about locks
 * also asks "who was waiting, and for what?".  A task that sleeps on a
 * semaphore is on no CPU at all, so the CPU lanes cannot show it.  This
 * splits the trace a second way, by context: for each task (and each
 * interrupt handler) the stretches in which it was
 *
 *   running      on a CPU, its own code (or its handler's);
 *   runnable     ready, but another context has its CPU;
 *   spinning     on a CPU, burning cycles on lock obj;
 *   asleep       off the CPUs, blocked on obj (a lock, a wait queue, a
 *                completion; KM_VM_NONE for a timed sleep);
 *   in irq       on a CPU, but an interrupt handler is running above it.
 *
 * It is plain data with no SDL, built from the trace in one pass
 * (O(records)) plus a counting sort by context, immutable afterwards,
 * like the rest of km_view_model.
 *
 * NOTE: the trace says when a context blocks (KM_TR_BLOCK), is woken
 * (KM_TR_WAKE), waits (KM_TR_CONTEND) and what each CPU shows
 * (KM_TR_CPU), not "ctx becomes runnable".  A context that leaves a CPU
 * without blocking or exiting was preempted or interrupted: runnable,
 * or "in irq" when a handler took its CPU.
 */
#ifndef KM_VIEW_VIEW_TASKS_H
#define KM_VIEW_VIEW_TASKS_H

#include <stddef.h>
#include <stdint.h>

#include "../km.h"

struct km_trace_rec;
struct km_sim;

enum km_task_state {
	KM_TS_NONE,			/* not started yet, or exited */
	KM_TS_RUNNING,
	KM_TS_RUNNABLE,
	KM_TS_SPIN,			/* spinning on obj */
	KM_TS_ASLEEP,			/* blocked on obj (wait says on what) */
	KM_TS_IRQ,			/* interrupted: a handler has its CPU */
	KM_TS_STATES
};

/* One stretch of a context's time, ending where the next one starts. */
struct km_vm_tspan {
	km_time t;
	uint32_t obj;			/* lock, queue or completion; KM_VM_NONE */
	uint16_t cpu;			/* 0xffff when on no CPU */
	uint8_t state;			/* enum km_task_state */
	uint8_t wait;			/* enum km_wait, for KM_TS_ASLEEP */
};

struct km_vm_tasks {
	struct km_vm_tspan *spans;	/* context by context, in time order */
	size_t *first;			/* nctx + 1 offsets into spans */
	uint32_t nctx;
	km_time *waited;		/* per context: ns spinning or asleep */
	uint32_t *order;		/* contexts that ever ran, most waiting first */
	uint32_t norder;
};

/**
 * km_vm_tasks_build - split @n records of @sim's run into per-context spans.
 * @end is the last instant the trace describes.
 * Returns 0, or -1 out of memory (then @t is empty and
 * km_vm_tasks_free is still safe).  Cost: O(records + contexts log contexts).
 */
int km_vm_tasks_build(struct km_vm_tasks *t, const struct km_sim *sim,
		      const struct km_trace_rec *recs, size_t n, km_time end);
void km_vm_tasks_free(struct km_vm_tasks *t);

/* The span of context @ctx containing @at, or NULL (before its start,
 * or no such context).  O(log spans). */
const struct km_vm_tspan *km_vm_task_at(const struct km_vm_tasks *t, uint32_t ctx, km_time at);

/* "running", "runnable", "spinning", "asleep", "in irq" or "". */
const char *km_task_state_name(enum km_task_state s);

#endif /* KM_VIEW_VIEW_TASKS_H */
