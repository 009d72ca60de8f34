/*
 * sched_o1.c - the O(1) scheduler, as kernel/sched.c of 2.6.15 decided
 * who runs next (era.scheduler = "o1", docs/sources.md, [O1SCHED15]).
 *
 * From 2.6.0 to 2.6.22 each CPU kept two priority arrays, active and
 * expired, a FIFO list per priority in each.  Tasks of one nice level
 * (nice 0, all the engine runs: static_prio 120) differ only by their
 * dynamic priority, which the code derives from sleep_avg, the time a
 * task has slept less the time it has run, scaled; the better priority
 * runs first, and a woken task with a strictly better one preempts the
 * task running on its CPU (TASK_PREEMPTS_CURR).  This file follows:
 *  - recalc_task_prio(), from activate_task() at a wake-up: the sleep
 *    since the task last left its CPU (p->timestamp), capped at
 *    NS_MAX_SLEEP_AVG, counts (MAX_BONUS - CURRENT_BONUS) times over; a
 *    task woken from an uninterruptible sleep (p->activated = -1, as
 *    down(), mutex_lock(), wait_event() and msleep() sleep -- every sleep
 *    of the engine) cannot climb above INTERACTIVE_SLEEP; then
 *    effective_prio(): static_prio - (CURRENT_BONUS - MAX_BONUS / 2),
 *    within 100-139.  p->timestamp becomes the wake-up's time;
 *  - schedule(): the task leaving loses its run time since it was last
 *    switched in, divided by CURRENT_BONUS (at least 1), from sleep_avg;
 *    both tasks' timestamps become now.  A task woken from an
 *    interruptible sleep (activated 1) is credited its wait on the run
 *    queue at 30% (ON_RUNQUEUE_WEIGHT) when picked; the engine's sleeps
 *    are all uninterruptible, so only a scenario task's start is one;
 *  - enqueue_task(): the run queue keeps the active array before the
 *    expired one, each in priority order, FIFO within a priority; a woken
 *    task goes to the active array (__activate_task());
 *  - scheduler_tick(): the current task's time_slice (task_timeslice(),
 *    DEF_TIMESLICE -- 100 ms -- at nice 0) runs down while it runs; when
 *    it is gone its priority is recomputed, it gets a new slice and goes
 *    to the tail of the active array if TASK_INTERACTIVE (prio at most
 *    static_prio - DELTA, 118) and the expired array is not starving
 *    (EXPIRED_STARVING: the expired array older than STARVATION_LIMIT
 *    times the tasks on the queue), else to the expired array.  An
 *    interactive task with slice left is requeued behind its equals each
 *    TIMESLICE_GRANULARITY (2 jiffies at HZ 250, doubled for each bonus
 *    step below MAX_BONUS - 1, times the CPUs);
 *  - schedule()'s array switch: when the active array is empty and the
 *    expired one is not, they swap.
 * The kernel decremented time_slice at each tick that found the task
 * current; the engine arms a CPU's tick only while tasks wait there
 * (sched.c), so the slice runs down by the task's run time, read at the
 * tick (the same on average; the kernel's sampled per jiffy).
 *
 * A new task starts with the sleep_avg a task has after a sleep longer
 * than INTERACTIVE_SLEEP, MAX_SLEEP_AVG - DEF_TIMESLICE (900 ms, bonus
 * 9, priority 116): test-mutex's children each sleep(1) before their
 * loop ([TM06]), and that interruptible sleep ends so; for other
 * scenarios it is an estimate (E).  fork()'s CHILD_PENALTY is not
 * applied: the sleep after it overwrites it.
 *
 * Not modelled: nice levels and real-time tasks (every task is nice 0),
 * the sched_clock drift compensation between CPUs, SMT's dependent
 * sleeper, and the interactivity credit of a wake-up from an interrupt
 * (activated 2).  Where a woken task goes stays wake.c's and balance.c's
 * (the era's wake_prev_cpu, wake_affine and o1_balance).
 *
 * The run queue stays the singly linked list of rq.c, kept in (array,
 * priority) order: an insertion walks it, O(tasks queued on that CPU).
 *
 * On the sched floor (sched_floor.h).
 */
#include "sched_floor.h"

#include "o1_prio.h"

void km_o1_start(struct km_sim *sim, struct km_ctx *ctx)
{
	ctx->o1_sleep_avg = (km_o1p_max_sleep_avg_j(sim) - km_o1p_def_timeslice_j(sim)) * km_o1p_jiffy(sim);
	ctx->o1_prio = km_o1p_effective_prio(sim, ctx->o1_sleep_avg);
	ctx->o1_slice_used = 0;
	ctx->o1_gran_mark = 0;
	ctx->o1_expired = false;
	ctx->o1_activated = 1;		/* the interruptible sleep(1) */
	ctx->o1_timestamp = sim->now;
	ctx->o1_started = true;
}

void km_o1_activate(struct km_sim *sim, struct km_ctx *ctx)
{
	if (!ctx->o1_started) {
		km_o1_start(sim, ctx);
		return;
	}
	ctx->o1_activated = -1;		/* try_to_wake_up(): TASK_UNINTERRUPTIBLE */
	ctx->o1_sleep_avg = km_o1p_recalc(sim, ctx, sim->now, -1, &ctx->o1_prio);
	ctx->o1_timestamp = sim->now;
	ctx->o1_expired = false;	/* __activate_task(): the active array */
}

/* The run queue's order: the active array before the expired, then the
 * priority. */
static int key(const struct km_ctx *t)
{
	return (t->o1_expired ? O1_MAX_PRIO : 0) + t->o1_prio;
}

void km_o1_link(struct km_cpu *cpu, struct km_ctx *ctx)
{
	struct km_ctx *prev = NULL;
	int k = key(ctx);
	/* requeue_task() and enqueue_task() go to the tail of the list of
	 * the task's priority; a task preempted stays where it was in it,
	 * at the head (it was picked from there) */
	bool front = ctx->o1_front;
	ctx->o1_front = false;
	for (struct km_ctx *t = cpu->rq_head; t && (front ? key(t) < k : key(t) <= k); t = t->rq_next)
		prev = t;
	km_rq_link_after(cpu, prev, ctx);
}

struct km_ctx *km_o1_pick(struct km_sim *sim, struct km_cpu *cpu)
{
	struct km_ctx *ctx = cpu->rq_head;
	if (!ctx) {
		cpu->o1_expired_since = 0;	/* going idle */
		return NULL;
	}
	if (ctx->o1_expired) {
		/* the active array is empty: switch the arrays */
		for (struct km_ctx *t = cpu->rq_head; t; t = t->rq_next)
			t->o1_expired = false;
		cpu->o1_expired_since = 0;
	}
	km_rq_unlink(sim, cpu, ctx, NULL);
	return ctx;
}

bool km_o1_preempts(const struct km_cpu *cpu, const struct km_ctx *p)
{
	const struct km_ctx *curr = cpu->curr ? cpu->curr : cpu->switch_to;
	return curr && curr != p && p->o1_prio < curr->o1_prio;
}

void km_o1_switch_in(struct km_sim *sim, struct km_ctx *next)
{
	if (!next->o1_started)
		km_o1_start(sim, next);
	if (next->o1_activated > 0) {
		/* schedule(): an interruptible sleeper's wait on the queue
		 * counts as sleep, at ON_RUNQUEUE_WEIGHT */
		km_time d = sim->now - next->o1_timestamp;
		if (d < 0)
			d = 0;
		if (next->o1_activated == 1)
			d = km_sat_mul(d, O1_ON_RUNQUEUE_WEIGHT * 128 / 100) / 128;
		next->o1_sleep_avg = km_o1p_recalc(sim, next, km_sat_add(next->o1_timestamp, d), 1,
					    &next->o1_prio);
	}
	next->o1_activated = 0;
	next->o1_timestamp = sim->now;
	next->o1_slice_from = sim->now;
}

/* The slice the current task has used, brought up to @now. */
static void slice_account(struct km_ctx *ctx, km_time now)
{
	if (now > ctx->o1_slice_from)
		ctx->o1_slice_used = km_sat_add(ctx->o1_slice_used, now - ctx->o1_slice_from);
	ctx->o1_slice_from = now;
}

void km_o1_preempted(struct km_ctx *prev)
{
	prev->o1_front = !prev->o1_to_tail;
	prev->o1_to_tail = false;
}

void km_o1_switch_out(struct km_sim *sim, struct km_ctx *prev, km_time now)
{
	if (!prev->o1_started)
		return;
	km_time run = now - prev->o1_timestamp;
	if (run < 0)
		run = 0;
	if (run > km_o1p_ns_max_sleep_avg(sim))
		run = km_o1p_ns_max_sleep_avg(sim);
	int b = km_o1p_current_bonus(sim, prev->o1_sleep_avg);
	run /= b > 0 ? b : 1;
	prev->o1_sleep_avg = prev->o1_sleep_avg > run ? prev->o1_sleep_avg - run : 0;
	prev->o1_timestamp = now;
	prev->o1_to_tail = false;
	slice_account(prev, now);
}

/* TIMESLICE_GRANULARITY(p), in jiffies */
static km_time granularity_j(const struct km_sim *sim, const struct km_ctx *p)
{
	km_time g = (km_time)10 * (sim->era.hz > 0 ? sim->era.hz : 250) / 1000;
	if (g < 1)
		g = 1;
	int d = O1_MAX_BONUS - km_o1p_current_bonus(sim, p->o1_sleep_avg);
	if (d < 1)
		d = 1;
	return km_sat_mul(g << (d - 1), sim->ncpus > 0 ? sim->ncpus : 1);
}

bool km_o1_tick(struct km_sim *sim, struct km_cpu *cpu)
{
	struct km_ctx *p = cpu->curr;
	if (!p || p->kind != KM_CTX_TASK || !p->o1_started)
		return false;
	slice_account(p, sim->now);
	km_time slice = km_o1p_def_timeslice_j(sim) * km_o1p_jiffy(sim);	/* task_timeslice() at nice 0 */
	km_time jn = sim->now / km_o1p_jiffy(sim);
	if (p->o1_slice_used >= slice) {
		p->o1_prio = km_o1p_effective_prio(sim, p->o1_sleep_avg);
		p->o1_slice_used = 0;
		p->o1_gran_mark = 0;
		if (!cpu->o1_expired_since)
			cpu->o1_expired_since = jn + 1;	/* rq->expired_timestamp = jiffies */
		/* EXPIRED_STARVING(rq): STARVATION_LIMIT (MAX_SLEEP_AVG) times
		 * the tasks on the queue since the first expiry */
		int nr = cpu->rq_len + 1;
		bool starving = jn + 1 - cpu->o1_expired_since >= km_sat_mul(km_o1p_max_sleep_avg_j(sim), nr) + 1;
		p->o1_expired = !km_o1p_task_interactive(p) || starving;
		p->o1_to_tail = true;
		return true;	/* dequeued and queued again: set_tsk_need_resched() */
	}
	/* an interactive task's round robin among its equals */
	km_time used_j = p->o1_slice_used / km_o1p_jiffy(sim);
	km_time g = granularity_j(sim, p);
	km_time left_j = km_o1p_def_timeslice_j(sim) - used_j;
	if (km_o1p_task_interactive(p) && !p->o1_expired && used_j > 0 && used_j / g > p->o1_gran_mark &&
	    left_j >= g) {
		p->o1_gran_mark = used_j / g;
		p->o1_to_tail = true;	/* requeue_task() */
		return true;
	}
	return false;
}
