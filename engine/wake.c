/*
 * wake.c - try_to_wake_up(), whole: what waking a task costs the waker,
 * where the task goes, and when the wake-up reaches it.
 *
 * The engine's primitives wake their waiters inside the section they run
 * under a wait-list spinlock, as the kernel did with interrupts off.  What
 * the kernel did there, 2.6-era, on the machines the eras model
 * (docs/sources.md, [TTWU15], [O1SCHED15], [TOPO15]):
 *  - task_rq_lock(p): the run-queue lock of the CPU the wakee last ran
 *    on, which that CPU holds through each of its context switches, so the
 *    waker may wait for it (era.rq_lock);
 *  - the lines the wakee's CPU wrote last: its run queue, the wakee's
 *    task_struct and thread_info, the running task's (era.ttwu_lines);
 *  - the wake-affine choice (era.wake_affine): the waker's own CPU if the
 *    loads say so, then no IPI, the wakee queued when the waker is done;
 *  - resched_task(): an idle CPU is told by a reschedule IPI, which waits
 *    for the sender's APIC and crosses the serial APIC bus of the P6
 *    after those queued ahead of it (era.ipi);
 *  - the arrival: the wakee is runnable where it was placed when that
 *    message lands, or after the era's wake-up latency.
 * km_wake_cost() decides the first four and notes where and when the
 * wake-up lands (ctx->wake_to, ctx->wake_lands: this file's own fields,
 * read nowhere else); km_wake_arrive() queues the arrival from them.
 *
 * What it is not: a model of wake_up() on a wait queue or complete() --
 * those (ops.c) wake through km_ctx_wake() with the era's latency only,
 * charging the waker nothing for the wake-up; giving them this model
 * would change their runs (ops.c says where it would go).
 *
 * On the machine floor (machine.h): it calls only the ground below it.
 */
#include "machine.h"
#include "o1_prio.h"

#define KM_WAKE_IDX	1	/* the cpu_load[] a wake-up reads, plus one */

/* How long the run-queue lock of @rq keeps a CPU asking at @at waiting. */
static km_time rq_lock_wait(const struct km_cpu *rq, km_time at)
{
	return rq->rq_lock_free > at ? rq->rq_lock_free - at : 0;
}

/*
 * km_wake_cpu - the CPU try_to_wake_up() running on @waker_cpu puts
 * @wakee on.
 *
 * With era.wake_affine, 2.6.12-2.6.16's choice: a wakee still on its CPU,
 * last run on the waker's, or pinned stays; otherwise it moves to the
 * waker's CPU if the waker's load, plus the previous CPU's, is at most
 * one task's and no more than the previous CPU's, or if
 * 100 * (waker's load + one task) <= 112 * the previous CPU's load (half
 * of imbalance_pct's margin).  The wake-ups modelled are never sync
 * (wake_up(), wake_up_locked()).  SD_CPU_INIT has neither SD_WAKE_BALANCE
 * nor SD_WAKE_IDLE, so the previous CPU it is otherwise.  Without the
 * field: the previous CPU, and select_cpu() decides when the wake-up lands.
 *
 * Context: the waker runs on @waker_cpu, a task or an interrupt.
 */
int km_wake_cpu(const struct km_sim *sim, int waker_cpu, const struct km_ctx *wakee)
{
	int prev = wakee->cpu;
	if (!sim->era.wake_affine || prev < 0 || waker_cpu < 0 || prev == waker_cpu ||
	    wakee->pinned >= 0)
		return prev;
	const struct km_cpu *pc = &sim->cpus[prev];
	if (pc->curr == wakee || pc->leaving == wakee || pc->switch_to == wakee)
		return prev;	/* task_running(): still on its CPU */
	uint64_t load = km_rq_load(sim, prev, KM_WAKE_IDX, false, KM_NOT_IDLE);
	uint64_t this_load = km_rq_load(sim, waker_cpu, KM_WAKE_IDX, true, KM_NOT_IDLE);
	uint64_t imbalance = 100 + (KM_IMBALANCE_PCT - 100) / 2;
	if ((this_load <= load &&
	     this_load + km_rq_load(sim, prev, KM_WAKE_IDX, true, KM_NOT_IDLE) <= KM_LOAD_SCALE) ||
	    100 * (this_load + KM_LOAD_SCALE) <= imbalance * load)
		return waker_cpu;
	return prev;
}

/* The lines a probe of an already-woken task fetches: its run queue's
 * lock word and the task's state (E: two of the lines counted for a
 * wake-up in docs/sources.md, [TTWU15]). */
#define KM_PROBE_LINES 2

/* @n lines the CPU @from wrote last, fetched by @to: the machine's
 * transfer between them (cache.h); a waker on no CPU pays a remote one. */
static km_time lines_from(const struct km_sim *sim, int from, int to, int n)
{
	if (to < 0 || to >= sim->ncpus)
		to = from == 0 && sim->ncpus > 1 ? 1 : 0;
	return km_sat_mul(n, km_cpu_distance_cost(sim, from, to));
}

km_time km_wake_probe_cost(struct km_sim *sim, int waker_cpu, const struct km_ctx *wakee,
			   km_time at)
{
	if (!sim->era.rq_lock || wakee->cpu < 0)
		return 0;
	struct km_cpu *rq = &sim->cpus[wakee->cpu];
	km_time c = km_sat_add(rq_lock_wait(rq, at), km_sat_add(km_cost(sim)->atomic,
				     lines_from(sim, wakee->cpu, waker_cpu, KM_PROBE_LINES)));
	rq->rq_lock_free = km_sat_add(at, c);
	return c;
}

/*
 * Does try_to_wake_up() find @cpu running the idle task, so that the
 * woken task preempts it (TASK_PREEMPTS_CURR) and resched_task() sends an
 * IPI?  Not if a task runs there, is being switched to, or -- another
 * task than the wakee -- is still on its way to sleep there (it is
 * current until schedule() switches): the tasks the engine runs all sit
 * at one dynamic priority (docs/design-o1-wakeup.md), and only a strictly
 * better one preempts.  A CPU switching to the idle task counts as idle:
 * the waker waits for its run-queue lock until the switch is done.  The
 * state is read when the wake-up is decided.
 */
static bool wake_preempts_curr(const struct km_sim *sim, const struct km_cpu *cpu,
			       const struct km_ctx *wakee, km_time at)
{
	/* O(1) eras (sched_o1.c): TASK_PREEMPTS_CURR, the priority
	 * recalc_task_prio() gives the wakee strictly better than that of
	 * the CPU's task */
	if (cpu->curr) {
		if (sim->era.scheduler != KM_SCHEDULER_O1 || !wakee->o1_started)
			return false;
		int prio;
		km_o1p_recalc(sim, wakee, at, -1, &prio);
		return prio < cpu->curr->o1_prio;
	}
	return !cpu->switching || cpu->to_idle;
}

km_time km_wake_cost(struct km_sim *sim, int waker_cpu, struct km_ctx *wakee, km_time at)
{
	km_time c = 0;
	struct km_cpu *rq = NULL;
	/* task_rq_lock(p): the run-queue lock of the CPU the wakee last ran
	 * on, which that CPU holds through each of its context switches */
	if (sim->era.rq_lock && wakee->cpu >= 0) {
		rq = &sim->cpus[wakee->cpu];
		c = rq_lock_wait(rq, at);
	}
	/* the lock's atomic, and the lines the wakee's CPU wrote last: its
	 * run queue's, the wakee's task_struct and thread_info, the running
	 * task's (docs/sources.md, [TTWU15]) -- two where not counted */
	int lines = sim->era.ttwu_lines > 0 ? sim->era.ttwu_lines : 2;
	int to = km_wake_cpu(sim, waker_cpu, wakee);
	bool asleep = wakee->state == KM_CTX_BLOCKED;
	if (to != wakee->cpu && asleep) {
		/* The wake-affine move (era.wake_affine): set_task_cpu(), drop
		 * the old run queue's lock, take this CPU's own and queue the
		 * wakee here.  The old CPU's priority array, its queue head and
		 * its running task's thread_info are not touched: three of the
		 * counted lines fewer.  No reschedule, no IPI: the wakee's
		 * priority is the waker's, so it waits its turn here, queued
		 * when the waker is done with it. */
		c = km_sat_add(c, km_sat_add(km_cost(sim)->atomic,
					     lines_from(sim, wakee->cpu, waker_cpu,
							lines > 3 ? lines - 3 : 1)));
		if (rq)
			rq->rq_lock_free = km_sat_add(at, c);
		struct km_cpu *me = &sim->cpus[to];
		if (sim->era.rq_lock) {
			if (me->rq_lock_free > km_sat_add(at, c))
				c = me->rq_lock_free - at;
			c = km_sat_add(c, km_cost(sim)->atomic);
			me->rq_lock_free = km_sat_add(at, c);
		}
		wakee->wake_to = to;
		wakee->wake_lands = km_sat_add(at, c);
		return c;
	}
	c = km_sat_add(c, km_sat_add(km_cost(sim)->atomic,
				     lines_from(sim, wakee->cpu, waker_cpu, lines)));
	km_time done = km_sat_add(at, c);
	if (!km_cost(sim)->ipi || wakee->cpu < 0 || !asleep) {
		/* no IPI charged in this era, or a task not asleep: it is not
		 * woken, and nobody is told */
	} else if (!wake_preempts_curr(sim, &sim->cpus[wakee->cpu], wakee, done)) {
		/* activate_task() on a CPU that runs a task -- another one, or
		 * the waker's own: the wakee's priority is no better than that
		 * task's, so no resched_task() and no IPI; it waits in that
		 * queue from when the waker has put it there. */
		wakee->wake_to = wakee->cpu;
		wakee->wake_lands = done;
	} else if (wakee->cpu != waker_cpu) {
		/* resched_task(): the wakee's CPU is another one, running the
		 * idle task, so it is told by an IPI -- unless need_resched is
		 * set on it already, and the wakee is there when that IPI
		 * lands.  i386's __send_IPI_dest_field() first waits in
		 * apic_wait_icr_idle() until this CPU's APIC has sent its
		 * previous IPI, then writes the ICR, which fires the new one
		 * and returns: the waker does not wait for its own message.
		 * Before the Pentium 4 every APIC message crossed one serial
		 * APIC bus, a message at a time, so an IPI is delivered after
		 * those queued ahead of it, and the next send from this CPU
		 * waits until then.  All of it under the run-queue lock, which
		 * try_to_wake_up() holds until it returns. */
		struct km_cpu *idle = &sim->cpus[wakee->cpu];
		struct km_cpu *me = &sim->cpus[waker_cpu];
		if (idle->resched_ipi_lands > done) {
			wakee->wake_lands = idle->resched_ipi_lands;
		} else {
			if (me->icr_busy_until > done) {
				c = me->icr_busy_until - at;
				done = me->icr_busy_until;
			}
			km_time start = sim->apic_bus_free > done ? sim->apic_bus_free : done;
			sim->apic_bus_free = km_sat_add(start, km_cost(sim)->ipi);
			me->icr_busy_until = sim->apic_bus_free;
			wakee->wake_lands = sim->apic_bus_free;
			idle->resched_ipi_lands = sim->apic_bus_free;
		}
	}
	if (rq)
		rq->rq_lock_free = done;
	return c;
}

void km_wake_arrive(struct km_sim *sim, struct km_ctx *ctx)
{
	km_time at = km_sat_add(sim->now, km_cost(sim)->wakeup);
	if (ctx->wake_to >= 0)	/* queued by the waker, no message: when it is done */
		at = ctx->wake_lands > sim->now ? ctx->wake_lands : sim->now;
	else if (km_cost(sim)->ipi)	/* the IPI's flight; the rest is CPU work */
		at = ctx->wake_lands > sim->now ? ctx->wake_lands
					       : km_sat_add(sim->now, km_cost(sim)->ipi);
	ctx->wake_lands = 0;
	km_push_ctx(sim, at, KM_EV_WAKE, ctx, ctx->seg_token);
}
