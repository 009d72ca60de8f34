/*
 * core.h - private interface between the files of the simulator core.
 *
 * Not for the host: the Lua layer and the view use sim.h only (this file
 * includes ctx.h, struct km_ctx whole, which they may not see).  These are
 * the ground floor's helpers (core.c: the trace, the event queue, wait
 * lists, vectors; check.c: violations), and the entry points the floors
 * offer the ones above them: the state transitions of contexts and CPUs
 * (the sched floor; its own internals are in sched_floor.h), holds (lock.c),
 * the observers'.  The floors and what calls what: docs/architecture.md,
 * tests/check_floors.sh; what a floor hands up: hooks.h.
 */
#ifndef KM_ENGINE_CORE_H
#define KM_ENGINE_CORE_H

#include "hooks.h"
#include "sim.h"
#include "ctx.h"

#include <stdarg.h>

/* Task accounting buckets. */
enum km_acct {
	KM_ACCT_NONE,		/* not started, interrupted, or done */
	KM_ACCT_RUN,
	KM_ACCT_SPIN,
	KM_ACCT_BLOCKED,
	KM_ACCT_RUNNABLE,
};

static inline struct km_cpu *km_cpu_of(struct km_sim *sim, const struct km_ctx *ctx)
{
	return ctx->cpu >= 0 ? &sim->cpus[ctx->cpu] : NULL;
}

/* The kernel's rq->nr_running: the tasks queued, the one running, and
 * one being switched in.  A task on its way to sleep no longer counts
 * (schedule() deactivates it before it switches). */
static inline int km_cpu_nr_running(const struct km_cpu *cpu)
{
	return cpu->rq_len + (cpu->curr != NULL) + (cpu->switching && cpu->switch_to);
}

static inline struct km_ctx *km_cpu_top(const struct km_cpu *cpu)
{
	return cpu->irq_top ? cpu->irq_top : cpu->curr;
}

static inline bool km_ctx_on_top(struct km_sim *sim, const struct km_ctx *ctx)
{
	return ctx->state == KM_CTX_ONCPU && km_cpu_top(&sim->cpus[ctx->cpu]) == ctx;
}

/* Held at a choice point (choice.c): its segment is a delay, not work. */
static inline bool km_ctx_held(const struct km_ctx *ctx)
{
	return ctx->held_for || ctx->held_for_irq;
}

/* May not sleep: interrupt handler, preemption disabled, or irqs off in an
 * era whose might_sleep() checks it. */
static inline bool km_ctx_atomic(const struct km_sim *sim, const struct km_ctx *ctx)
{
	return ctx->kind == KM_CTX_IRQ || ctx->preempt_count > 0 ||
	       (ctx->irqoff > 0 && sim->era.sleep_check);
}

/* km_emit()'s slow half (core.c): the record kept, spooled or noted. */
void km_emit_more(struct km_sim *sim, int kind, uint16_t cpu, uint32_t ctx, uint32_t obj,
		  uint32_t aux, int64_t arg) __attribute__((cold));

/*
 * Emit a trace record: folded into the hash always (km_trace_emit()'s
 * fast half, written out here so that a plain run tests one flag an
 * event, not three), kept and noted only where the run asked for it.
 * NOTE: in line (two to nine records a lock round), and the hash takes
 * the record's words as km_trace_fold() makes them (flags 0) from the
 * arguments: a plain run builds no record.
 */
static inline void km_emit(struct km_sim *sim, int kind, int cpu, const struct km_ctx *ctx,
			   uint32_t obj, uint32_t aux, int64_t arg)
{
	uint16_t c = cpu >= 0 ? (uint16_t)cpu : 0xffff;
	uint32_t id = ctx ? ctx->id : KM_TR_NONE;
	sim->trace.hash = km_trace_fold_words(sim->trace.hash, sim->now,
					      (uint64_t)(uint8_t)kind | (uint64_t)c << 16 |
					      (uint64_t)id << 32,
					      (uint64_t)obj | (uint64_t)aux << 32, arg);
	sim->trace.count++;
	if (__builtin_expect(sim->emit_more, 0))
		km_emit_more(sim, kind, c, id, obj, aux, arg);
}

/*
 * Does this event move a task?  Interrupts, ticks and what interrupt
 * handlers do in between do not count: a run in which only they remain
 * is stalled (see the deadlock check in km_sim_run).
 */
static inline bool km_ev_productive(const struct km_sim *sim, int kind, uint32_t id)
{
	switch (kind) {
	case KM_EV_IRQ:
	case KM_EV_TICK:
	case KM_EV_BALANCE:
		return false;
	case KM_EV_SEG_END:
	case KM_EV_HOLD_END:
	case KM_EV_TIMEOUT:
	case KM_EV_WAKE:
	case KM_EV_START:
		return sim->ctxs.v[id]->kind == KM_CTX_TASK;
	default:
		return true;
	}
}

/* km_push for an event of @ctx (SEG_END, TIMEOUT, WAKE): productive if
 * it moves a task, without looking @ctx up again by its id. */
static inline void km_push_ctx(struct km_sim *sim, km_time t, int kind,
			       const struct km_ctx *ctx, uint64_t token)
{
	if (km_evq_push(&sim->evq, t, (uint32_t)kind, ctx->id, token) < 0) {
		km_fail(sim, KM_ENOMEM, "out of memory growing the event queue");
		return;
	}
	if (ctx->kind == KM_CTX_TASK)
		sim->productive++;
}

/* choice.c: choice points, only under a chooser (choice.h) */
bool km_choice_point(struct km_sim *sim, struct km_ctx *ctx);
void km_choice_release_for(struct km_sim *sim, const struct km_ctx *ctx);
void km_choice_release_for_irq(struct km_sim *sim, const struct km_irqsrc *src);
bool km_choice_hold_expired(struct km_sim *sim, struct km_ctx *ctx);
void km_choice_settle(struct km_sim *sim);
void km_choice_note(struct km_sim *sim, const struct km_trace_rec *r);
void km_choice_touch(struct km_sim *sim, enum km_choice_obj kind, uint32_t id, bool write);

/* the sched floor (sched.c, irq.c, loop.c), for the floors above */
void km_ctx_acct(struct km_sim *sim, struct km_ctx *ctx, enum km_acct a);
void km_ctx_run_seg(struct km_sim *sim, struct km_ctx *ctx, km_time d);
void km_ctx_spin(struct km_sim *sim, struct km_ctx *ctx);
void km_ctx_block(struct km_sim *sim, struct km_ctx *ctx, enum km_wait w, void *obj);
/* The same, with the CPU spending @tail on the task's way to sleep first. */
void km_ctx_block_after(struct km_sim *sim, struct km_ctx *ctx, enum km_wait w, void *obj,
		       km_time tail);
void km_ctx_wake(struct km_sim *sim, struct km_ctx *ctx, int64_t result);

/* balance.c: the O(1) scheduler's balancing (era.o1_balance); its loads
 * and the wake-affine placement are the machine's (machine.h) */
int km_o1_balance(struct km_sim *sim, struct km_cpu *cpu, bool newly, km_time *cost);
bool km_o1_balance_due(const struct km_sim *sim, const struct km_cpu *cpu);
void km_o1_balance_stamp(const struct km_sim *sim, struct km_cpu *cpu);
void km_ctx_arm_timeout(struct km_sim *sim, struct km_ctx *ctx, km_time deadline);
void km_ctx_cancel_timeout(struct km_ctx *ctx);
void km_cpu_show(struct km_sim *sim, struct km_cpu *cpu);
void km_cpu_spin_for(struct km_sim *sim, struct km_ctx *ctx, km_time spin);

/* Run-queue trees (rq.c): built by km_sim_new, above this many CPUs. */
#define KM_RQ_TREE_MIN 64
int km_rq_trees_init(struct km_sim *sim);
bool km_cpu_maybe_preempt(struct km_sim *sim, struct km_cpu *cpu);
void km_cpu_irqs_maybe_enabled(struct km_sim *sim, struct km_cpu *cpu);
void km_cpu_irqoff_update(struct km_sim *sim, struct km_cpu *cpu);
void km_push(struct km_sim *sim, km_time t, int kind, uint32_t id, uint64_t token);
bool km_ctx_preemptible(const struct km_sim *sim, const struct km_ctx *ctx);

/* ops.c: the write half of add(), at the end of its segment */
void km_var_add_commit(struct km_sim *sim, struct km_ctx *ctx);

/* holds (lock.c) */
static inline struct km_hold *km_hold_find(const struct km_ctx *ctx, const struct km_lock *l)
{
	for (struct km_hold *h = ctx->held; h; h = h->cnext)
		if (h->lock == l)
			return h;
	return NULL;
}

/* check.c */
void km_violation(struct km_sim *sim, enum km_violation_kind kind,
		  const struct km_ctx *ctx, const struct km_lock *l,
		  const struct km_var *v, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* The same, with a multi-line lockdep-style report kept beside the
 * one-line message (@splat is copied). */
void km_violation_splat(struct km_sim *sim, enum km_violation_kind kind,
			const struct km_ctx *ctx, const struct km_lock *l, const char *splat,
			const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* lockdep.c */
void km_lockdep_acquire(struct km_sim *sim, struct km_ctx *ctx, struct km_lock *l,
			bool trylock);
void km_lockdep_exit(struct km_sim *sim, struct km_ctx *ctx);

/* deadlock.c: describe what each live task waits on (deadlock reason). */
void km_describe_deadlock(struct km_sim *sim, char *buf, size_t len);

/* core.c: wait lists (FIFO, intrusive through ctx->wnext/wprev) */
void km_waitlist_append(struct km_waitlist *wl, struct km_ctx *ctx);
void km_waitlist_prepend(struct km_waitlist *wl, struct km_ctx *ctx);
void km_waitlist_remove(struct km_waitlist *wl, struct km_ctx *ctx);
struct km_ctx *km_waitlist_pop(struct km_waitlist *wl);
bool km_waitlist_contains(const struct km_waitlist *wl, const struct km_ctx *ctx);

/* objects.c: a lock of @prim with no id (the BKL, the global irq lock),
 * and freeing one */
struct km_lock *km_lock_alloc(const char *name, enum km_prim prim);
void km_lock_free(struct km_lock *l);

/* core.c: vectors */
int km_vec_grow(void **v, uint32_t *cap, uint32_t need, size_t elsize);
#define KM_VEC_PUSH(vec, x) \
	(((vec).n < (vec).cap || \
	  km_vec_grow((void **)&(vec).v, &(vec).cap, (vec).n + 1, sizeof(*(vec).v)) == 0) \
	 ? ((vec).v[(vec).n++] = (x), 0) : KM_ENOMEM)

char *km_strdup(const char *s);

#endif /* KM_ENGINE_CORE_H */
