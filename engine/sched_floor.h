/*
 * sched_floor.h - the sched floor of the core: the event loop (loop.c), the
 * scheduler (sched.c, and CFS's choices in sched_fair.c), interrupt
 * delivery (irq.c), the run queues (rq.c) and the O(1) scheduler's
 * balancing (balance.c).
 *
 * It stands on the machine floor (machine.h) and the ground (core.h);
 * the locks and the operations above call the scheduler's entry points
 * declared in core.h.  What the loop must hand up -- a lock's timeout, a
 * deferred retry, the observers -- goes through the hooks that set-up
 * registers (hooks.h), never by a call up.
 *
 * NOTE: not "sched.h": with -Iengine, that name would hide the C
 * library's <sched.h> (which <spawn.h> includes) from the tests.
 *
 * A newcomer may change here, without reading the floors above: how a
 * CPU picks its next task, what a switch costs, how interrupts are
 * latched and delivered, what the loop checks between events -- as long
 * as each entry point of core.h keeps its contract.
 */
#ifndef KM_ENGINE_SCHED_FLOOR_H
#define KM_ENGINE_SCHED_FLOOR_H

#include "core.h"

enum km_sched_how {
	KM_SCHED_PLAIN,
	KM_SCHED_BLOCKED,
	KM_SCHED_WOKEN,
};

/* ---------------------------------------------------- run queues (rq.c) -- */

/* era.scheduler: is this CFS (sched_fair.c), rather than the FIFO queues? */
static inline bool km_cfs(const struct km_sim *sim)
{
	return sim->era.scheduler == KM_SCHEDULER_CFS;
}

/* ------------------------------------------------------- sched_fair.c -- */

km_time km_fair_latency(const struct km_sim *sim);
km_time km_fair_wakeup_gran(const struct km_sim *sim);
void km_fair_update_curr(struct km_sim *sim, struct km_cpu *cpu);
void km_fair_place(struct km_sim *sim, struct km_cpu *cpu, struct km_ctx *ctx, bool initial);
void km_fair_link(struct km_cpu *cpu, struct km_ctx *ctx);
int km_fair_wakeup_preempt(const struct km_sim *sim, const struct km_ctx *curr,
			   const struct km_ctx *se);
struct km_ctx *km_fair_pick(struct km_sim *sim, struct km_cpu *cpu);
bool km_fair_check_preempt_wakeup(struct km_sim *sim, struct km_cpu *cpu, struct km_ctx *p);
bool km_fair_tick(struct km_sim *sim, struct km_cpu *cpu);
void km_fair_migrate(const struct km_cpu *from, const struct km_cpu *to, struct km_ctx *ctx);

/* era.scheduler: the O(1) scheduler's priorities and arrays (sched_o1.c)? */
static inline bool km_o1(const struct km_sim *sim)
{
	return sim->era.scheduler == KM_SCHEDULER_O1;
}

/* --------------------------------------------------------- sched_o1.c -- */

void km_o1_start(struct km_sim *sim, struct km_ctx *ctx);
void km_o1_activate(struct km_sim *sim, struct km_ctx *ctx);
void km_o1_link(struct km_cpu *cpu, struct km_ctx *ctx);
struct km_ctx *km_o1_pick(struct km_sim *sim, struct km_cpu *cpu);
bool km_o1_preempts(const struct km_cpu *cpu, const struct km_ctx *p);
void km_o1_switch_in(struct km_sim *sim, struct km_ctx *next);
void km_o1_preempted(struct km_ctx *prev);
void km_o1_switch_out(struct km_sim *sim, struct km_ctx *prev, km_time now);
bool km_o1_tick(struct km_sim *sim, struct km_cpu *cpu);

/* ---------------------------------------------------------------------- */

void km_rq_trees_refresh(struct km_sim *sim);
void km_balance_arm(struct km_sim *sim);
/* balance.c: what a CPU about to go idle spends and takes (cpu_schedule_how) */
km_time km_balance_newidle_cost(const struct km_sim *sim, int me);
struct km_ctx *km_balance_steal(struct km_sim *sim, struct km_cpu *thief);
void km_cpu_migrated(struct km_sim *sim, struct km_cpu *to, const struct km_ctx *ctx);
void km_rq_unlink(struct km_sim *sim, struct km_cpu *cpu, struct km_ctx *ctx,
		  struct km_ctx *prev);

static inline bool km_cpu_idle(const struct km_cpu *cpu)
{
	return !cpu->curr && !cpu->switching;
}

/* @cpu's rq_len changed: mark it for the next search. */
static inline void km_rq_tree_update(struct km_sim *sim, const struct km_cpu *cpu)
{
	if (!sim->rq_short || sim->rq_is_dirty[cpu->id])
		return;
	sim->rq_is_dirty[cpu->id] = 1;
	sim->rq_dirty[sim->rq_ndirty++] = cpu->id;
}

/*
 * era.o1_balance: idle CPUs balance at each timer tick while a task
 * waits on some run queue (balance.c).  One event per tick for all CPUs,
 * and none while nothing waits or no CPU is idle: the kernel's ticks
 * would find the domain balanced then.
 */
static inline bool km_any_cpu_idle(const struct km_sim *sim)
{
	for (int w = 0; w < (sim->ncpus + 63) / 64; w++)
		if (sim->idle_mask[w])
			return true;
	return false;
}

/* Link @ctx into @cpu's run queue after @prev, or at its head if @prev
 * is NULL: the ordered queues' (CFS, O(1)) insertion, once they have
 * walked to their place.  Context: the run queue's owner. */
static inline void km_rq_link_after(struct km_cpu *cpu, struct km_ctx *prev, struct km_ctx *ctx)
{
	if (prev) {
		ctx->rq_next = prev->rq_next;
		prev->rq_next = ctx;
	} else {
		ctx->rq_next = cpu->rq_head;
		cpu->rq_head = ctx;
	}
	if (!ctx->rq_next)
		cpu->rq_tail = ctx;
}

/* Queue @ctx at the tail of @cpu's run queue (CFS: in vruntime order,
 * sched_fair.c); a queued task and an idle CPU arm the next tick's
 * balance (era.o1_balance). */
static inline void km_rq_append(struct km_sim *sim, struct km_cpu *cpu, struct km_ctx *ctx)
{
	sim->queued++;
	ctx->rq_next = NULL;
	if (km_cfs(sim)) {
		km_fair_link(cpu, ctx);
	} else if (km_o1(sim)) {
		km_o1_link(cpu, ctx);
	} else {
		if (cpu->rq_tail)
			cpu->rq_tail->rq_next = ctx;
		else
			cpu->rq_head = ctx;
		cpu->rq_tail = ctx;
	}
	cpu->rq_len++;
	km_rq_tree_update(sim, cpu);
	if (sim->era.o1_balance && km_any_cpu_idle(sim))
		km_balance_arm(sim);
}

/* The task @cpu runs next, off its queue (CFS: pick_next_entity()). */
static inline struct km_ctx *km_rq_pop(struct km_sim *sim, struct km_cpu *cpu)
{
	if (km_cfs(sim))
		return km_fair_pick(sim, cpu);
	if (km_o1(sim))
		return km_o1_pick(sim, cpu);
	struct km_ctx *ctx = cpu->rq_head;
	if (!ctx)
		return NULL;
	sim->queued--;
	cpu->rq_head = ctx->rq_next;
	if (!cpu->rq_head)
		cpu->rq_tail = NULL;
	cpu->rq_len--;
	km_rq_tree_update(sim, cpu);
	ctx->rq_next = NULL;
	return ctx;
}

/* ------------------------------------------------------------ sched.c -- */

void km_ctx_pause(struct km_sim *sim, struct km_ctx *ctx);
void km_ctx_unpause(struct km_sim *sim, struct km_ctx *ctx);
void km_cpu_schedule(struct km_sim *sim, struct km_cpu *cpu);
void km_ctx_make_runnable(struct km_sim *sim, struct km_ctx *ctx, enum km_sched_how how);
void km_cpu_switch_done(struct km_sim *sim, struct km_cpu *cpu);
void km_balance_tick(struct km_sim *sim);
void km_sched_tick(struct km_sim *sim, struct km_cpu *cpu);
void km_tick_arm(struct km_sim *sim, struct km_cpu *cpu);

/* -------------------------------------------------------------- irq.c -- */

static inline bool km_irq_deliverable(const struct km_cpu *cpu)
{
	return !cpu->switching && !cpu->irq_top && (!cpu->curr || cpu->curr->irqoff == 0);
}

void km_irq_fire(struct km_sim *sim, struct km_irqsrc *src);
void km_irq_exit(struct km_sim *sim, struct km_ctx *ictx);

#endif /* KM_ENGINE_SCHED_FLOOR_H */
