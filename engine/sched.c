/*
 * sched.c - the scheduler: CPUs, context switches, blocking and waking,
 * preemption and the tick.
 *
 * This file moves contexts between their states: on a CPU (running a
 * timed segment, spinning, or about to be resumed), blocked, runnable on
 * a run queue, done.  The event loop (loop.c) calls it when an event is
 * due; the locks and the operations call it when a context must wait.
 *
 * Scheduling is deliberately plain, close to what a 2.4 or early 2.6
 * kernel did per CPU: a FIFO run queue per CPU (rq.c); a woken task goes
 * to its previous CPU if idle, else to any idle CPU, else back to its
 * previous CPU's queue (on eras with wake_prev_cpu, always to its previous
 * CPU: see select_cpu); a CPU about to go idle steals the first unpinned
 * task of the longest queue.  Eras with the O(1) scheduler's rules
 * (wake_affine, o1_balance: 2.6.14-2.6.16) decide both as that code did,
 * in wake.c and balance.c.  Eras with CFS (era.scheduler = "cfs", 2.6.23
 * on) keep each queue in vruntime order and decide who runs next, when a
 * woken task preempts and when the tick does as CFS did (sched_fair.c);
 * where a task goes stays the rule above.  Round robin comes from the
 * tick (HZ): while a CPU has tasks waiting, its tick sets need_resched (on
 * CFS eras: once the task's slice is over), and then
 *   - preempt "none":      nothing happens until the task blocks;
 *   - preempt "voluntary": the task yields at its next might_sleep()
 *                          point (down, sleep, wait_*);
 *   - preempt "full":      it is preempted at once unless preemption is
 *                          disabled (a spinlock held) or interrupts are
 *                          off, and otherwise as soon as that ends.
 * The tick is only armed while a CPU has tasks waiting (like NO_HZ), so
 * that an idle 1024-CPU machine costs no events.
 *
 * What a switch costs (docs/sources.md, "Derived costs"): switching to a
 * task is the era's ctxsw; a CPU whose task blocked or exited with nothing
 * else to run switches to the idle task, a context switch as well.  A
 * wake-up reaches the wakee after the era's wakeup latency.  On machines
 * that wake an idle CPU with an IPI whose cost is known (the era's ipi,
 * the P6 rows), the latency is split as the hardware did it: the IPI's
 * flight (ipi) is latency, and the rest of the wake-up -- the interrupt,
 * schedule() and the switch on the woken CPU -- is that CPU's work
 * (wake.c, km_wake_switch_cost()).
 *
 * On the sched floor (sched_floor.h).
 */
#include "sched_floor.h"
#include "lock.h"
#include "machine.h"

#include <stdlib.h>
#include <string.h>


/* ---------------------------------------------------------- accounting -- */

static inline void ctx_acct(struct km_sim *sim, struct km_ctx *ctx, enum km_acct a)
{
	km_time d = sim->now - ctx->acct_since;
	switch (ctx->acct) {
	case KM_ACCT_RUN: ctx->cpu_ns += d; break;
	case KM_ACCT_SPIN: ctx->spin_ns += d; break;
	case KM_ACCT_BLOCKED: ctx->blocked_ns += d; break;
	case KM_ACCT_RUNNABLE: ctx->runnable_ns += d; break;
	default: break;
	}
	ctx->acct = (int)a;
	ctx->acct_since = sim->now;
}

void km_ctx_acct(struct km_sim *sim, struct km_ctx *ctx, enum km_acct a)
{
	ctx_acct(sim, ctx, a);
}

/* The interrupt flag @cpu's lane shows: that of the task on top of it. */
static inline bool cpu_irqoff_now(const struct km_cpu *cpu, const struct km_ctx *top)
{
	return top && top->kind == KM_CTX_TASK && top->irqoff > 0 && !cpu->switching;
}

static void cpu_irqoff_change(struct km_sim *sim, struct km_cpu *cpu, const struct km_ctx *top,
			      bool off)
{
	if (cpu->irqoff)
		cpu->irqoff_ns += sim->now - cpu->irqoff_since;
	cpu->irqoff = off;
	cpu->irqoff_since = sim->now;
	km_emit(sim, KM_TR_IRQOFF, cpu->id, top, KM_TR_NONE, 0, off);
}

void km_cpu_irqoff_update(struct km_sim *sim, struct km_cpu *cpu)
{
	struct km_ctx *top = km_cpu_top(cpu);
	bool off = cpu_irqoff_now(cpu, top);
	if (off != cpu->irqoff)
		cpu_irqoff_change(sim, cpu, top, off);
}

static void cpu_state_change(struct km_sim *sim, struct km_cpu *cpu, enum km_cpu_state st,
			     struct km_ctx *who)
{
	cpu->acct[cpu->state] += sim->now - cpu->state_since;
	cpu->state = st;
	cpu->state_ctx = who;
	cpu->state_since = sim->now;
	km_emit(sim, KM_TR_CPU, cpu->id, who, KM_TR_NONE, 0, st);
}

/* Is @cpu spinning for a wait-list lock on behalf of @ctx right now? */
static inline bool cpu_spins_for(const struct km_sim *sim, const struct km_cpu *cpu,
				 const struct km_ctx *ctx)
{
	return ctx && cpu->spin_ctx == ctx && cpu->spin_until > sim->now;
}

/*
 * Recompute what @cpu's lane shows, and account the time of the last one.
 * NOTE: called several times an operation, and most calls change nothing
 * (a task's next segment on a busy CPU): the changes are out of line.
 */
void km_cpu_show(struct km_sim *sim, struct km_cpu *cpu)
{
	enum km_cpu_state st;
	struct km_ctx *top = km_cpu_top(cpu);
	struct km_ctx *who = top;

	if (cpu->switching) {
		/* with no task to switch to: a blocked task's last work, or
		 * the switch to the idle task */
		st = cpu->switch_to || cpu->to_idle ? KM_CPU_SWITCH : KM_CPU_BUSY;
		who = cpu->switch_to ? cpu->switch_to : cpu->leaving;
		if (st == KM_CPU_BUSY && cpu_spins_for(sim, cpu, cpu->leaving))
			st = KM_CPU_SPIN;
	} else if (!top) {
		st = KM_CPU_IDLE;
	} else if (top->act == KM_ACT_SPIN) {
		st = KM_CPU_SPIN;
	} else if (top->kind == KM_CTX_IRQ) {
		st = KM_CPU_IRQ;
	} else {
		st = cpu_spins_for(sim, cpu, top) ? KM_CPU_SPIN : KM_CPU_BUSY;
	}
	/* keep the idle set that wake-ups search */
	uint64_t bit = 1ULL << (cpu->id & 63);
	if (!cpu->curr && !cpu->switching)
		sim->idle_mask[cpu->id >> 6] |= bit;
	else
		sim->idle_mask[cpu->id >> 6] &= ~bit;
	if (st != cpu->state || who != cpu->state_ctx)
		cpu_state_change(sim, cpu, st, who);
	bool off = cpu_irqoff_now(cpu, top);
	if (off != cpu->irqoff)
		cpu_irqoff_change(sim, cpu, top, off);
}

/* ------------------------------------------------------------ segments -- */

static void seg_arm(struct km_sim *sim, struct km_ctx *ctx)
{
	ctx->seg_token++;
	/* a held task's delay ends in its own kind of event (choice.c) */
	km_push_ctx(sim, ctx->seg_end, km_ctx_held(ctx) ? KM_EV_HOLD_END : KM_EV_SEG_END, ctx,
		       ctx->seg_token);
}

/*
 * Would km_cpu_show(@cpu) change nothing, with task @ctx on top of it in a
 * segment (spinning for a wait-list lock if @spins)?  Its answer for that
 * case, asked in line: no switch under way, @ctx the CPU's task and no
 * interrupt over it, the lane already showing @ctx busy (or spinning),
 * the interrupt flag as @ctx has it, and the CPU out of the idle set.
 * The usual case: a task's next segment on the CPU it is running on.
 * NOTE: asked of a task on top of @cpu (km_ctx_on_top), which is then
 * the CPU's current task with no interrupt over it: only interrupt
 * contexts are ever an irq_top.  So those two are not asked again.
 */
static inline bool cpu_shows_seg(const struct km_sim *sim, const struct km_cpu *cpu,
				 const struct km_ctx *ctx, bool spins)
{
	return !cpu->switching &&
	       cpu->state == (spins ? KM_CPU_SPIN : KM_CPU_BUSY) && cpu->state_ctx == ctx &&
	       cpu->irqoff == (ctx->irqoff > 0) &&
	       !(sim->idle_mask[cpu->id >> 6] & (1ULL << (cpu->id & 63)));
}

/* km_ctx_run_seg() of a context on top of its CPU, its end set: the
 * segment's event, the task's accounting, the lane if it changes. */
static __attribute__((noinline)) void run_seg_on_top(struct km_sim *sim, struct km_ctx *ctx)
{
	struct km_cpu *cpu = &sim->cpus[ctx->cpu];
	seg_arm(sim, ctx);
	if (ctx->kind == KM_CTX_TASK) {
		bool spins = cpu_spins_for(sim, cpu, ctx);
		ctx_acct(sim, ctx, spins ? KM_ACCT_SPIN : KM_ACCT_RUN);
		if (cpu_shows_seg(sim, cpu, ctx, spins))
			return;
	}
	km_cpu_show(sim, cpu);
}

/* run_seg_on_top() of a task whose lane shows it busy already, not
 * spinning, not held: its event, its accounting, nothing to show. */
static __attribute__((noinline)) void run_seg_task_shown(struct km_sim *sim,
							  struct km_ctx *ctx)
{
	/* seg_arm() of a context not held */
	ctx->seg_token++;
	km_push_ctx(sim, ctx->seg_end, KM_EV_SEG_END, ctx, ctx->seg_token);
	ctx_acct(sim, ctx, KM_ACCT_RUN);
}

/*
 * NOTE: the usual case -- a task's next segment on the CPU it runs, the
 * lane showing it busy already (cpu_shows_seg), no event waiting fresh
 * in the queue, not held by the explorer -- is done here with no call,
 * the same work as run_seg_on_top() in the same order but for the
 * questions, which change nothing and are asked first.
 */
void km_ctx_run_seg(struct km_sim *sim, struct km_ctx *ctx, km_time d)
{
	ctx->act = KM_ACT_SEG;
	if (!km_ctx_on_top(sim, ctx)) {
		/* Interrupted or off CPU: it runs when it is on top again. */
		ctx->seg_left = d;
		return;
	}
	ctx->seg_end = km_sat_add(sim->now, d);
	struct km_cpu *cpu = &sim->cpus[ctx->cpu];
	if (__builtin_expect(ctx->kind != KM_CTX_TASK || km_ctx_held(ctx) ||
			     cpu_spins_for(sim, cpu, ctx) || !cpu_shows_seg(sim, cpu, ctx, false), 0)) {
		run_seg_on_top(sim, ctx);
		return;
	}
	if (sim->evq.has_fresh) {
		/* another event to file first: the same, with a call */
		run_seg_task_shown(sim, ctx);
		return;
	}
	/* seg_arm() and km_push_ctx() of a task's SEG_END, nothing filed */
	ctx->seg_token++;
	km_evq_push_unfiled(&sim->evq, ctx->seg_end, KM_EV_SEG_END, ctx->id, ctx->seg_token);
	sim->productive++;
	ctx_acct(sim, ctx, KM_ACCT_RUN);
}

void km_ctx_spin(struct km_sim *sim, struct km_ctx *ctx)
{
	ctx->act = KM_ACT_SPIN;
	if (km_ctx_on_top(sim, ctx)) {
		if (ctx->kind == KM_CTX_TASK)
			km_ctx_acct(sim, ctx, KM_ACCT_SPIN);
		km_cpu_show(sim, &sim->cpus[ctx->cpu]);
	}
}

/* @ctx stops being on top of its CPU (interrupted, preempted, or leaving). */
void km_ctx_pause(struct km_sim *sim, struct km_ctx *ctx)
{
	if (ctx->act == KM_ACT_SEG) {
		ctx->seg_left = ctx->seg_end - sim->now;
		ctx->seg_token++;	/* its pending SEG_END is now stale */
	}
	if (ctx->kind == KM_CTX_TASK)
		km_ctx_acct(sim, ctx, KM_ACCT_NONE);
}

/* @ctx is on top of its CPU again: carry on with what it was doing. */
void km_ctx_unpause(struct km_sim *sim, struct km_ctx *ctx)
{
	switch (ctx->act) {
	case KM_ACT_SEG:
		km_ctx_run_seg(sim, ctx, ctx->seg_left);
		break;
	case KM_ACT_READY:
		km_ctx_run_seg(sim, ctx, 0);
		break;
	case KM_ACT_SPIN:
		km_ctx_spin(sim, ctx);
		break;
	case KM_ACT_NONE:
		break;
	}
}

/* ------------------------------------------------------------- timeouts -- */

void km_ctx_arm_timeout(struct km_sim *sim, struct km_ctx *ctx, km_time deadline)
{
	ctx->deadline = deadline;
	ctx->wait_token++;
	km_push_ctx(sim, deadline, KM_EV_TIMEOUT, ctx, ctx->wait_token);
}

void km_ctx_cancel_timeout(struct km_ctx *ctx)
{
	ctx->wait_token++;
	ctx->deadline = KM_TIME_NEVER;
}

void km_tick_arm(struct km_sim *sim, struct km_cpu *cpu)
{
	if (cpu->tick_armed || sim->era.preempt == KM_PREEMPT_NONE || sim->era.hz <= 0)
		return;
	km_time period = 1000000000LL / sim->era.hz;
	km_time t = (sim->now / period + 1) * period;
	cpu->tick_armed = true;
	km_push(sim, t, KM_EV_TICK, (uint32_t)cpu->id, 0);
}

/*
 * rq_lock_switch - the part of a switch of @d on @cpu that schedule() does
 * under the CPU's run-queue lock, on eras with per-CPU run-queue locks
 * (era.rq_lock).  schedule() takes the lock before it picks the next task
 * and, on i386 and x86 (no __ARCH_WANT_UNLOCKED_CTXSW), holds it through
 * switch_to() until finish_task_switch(): the era's ctxsw, the last part
 * of @d (what comes before it -- the entry of the IPI that woke an idle
 * CPU -- runs unlocked).  A waker on another CPU may hold the lock in
 * try_to_wake_up(): then the switch waits for it.
 * @balance, the idle balancing schedule() did first, is under the lock too
 * (it is part of @d).  Returns @d plus that wait.
 */
static km_time rq_lock_switch(struct km_sim *sim, struct km_cpu *cpu, km_time d, km_time balance)
{
	if (!sim->era.rq_lock)
		return d;
	km_time locked = d - balance < km_cost(sim)->ctxsw ? d : km_cost(sim)->ctxsw + balance;
	km_time want = sim->now + (d - locked);
	km_time start = cpu->rq_lock_free > want ? cpu->rq_lock_free : want;
	cpu->rq_lock_free = start + locked;
	return cpu->rq_lock_free - sim->now;
}

/* Start a context switch on @cpu to @next (NULL: the idle task) that
 * takes @d, after @balance of idle balancing; km_cpu_switch_done() ends it. */
static void cpu_switch(struct km_sim *sim, struct km_cpu *cpu, struct km_ctx *next, km_time d,
		       km_time balance)
{
	d += balance;
	if (next) {
		next->cpu = cpu->id;
		cpu->resched_ipi_lands = 0;	/* schedule() clears need_resched */
		/* CFS eras: that of the task leaving (TIF_NEED_RESCHED is a
		 * task's flag; the task coming in has its own, clear) */
		if (km_cfs(sim) || km_o1(sim))
			cpu->need_resched = false;
		if (km_o1(sim))	/* schedule(): next->timestamp = now */
			km_o1_switch_in(sim, next);
	}
	cpu->switching = true;
	cpu->switch_to = next;
	cpu->to_idle = !next;
	cpu->token++;
	d = rq_lock_switch(sim, cpu, d, balance);
	km_push(sim, sim->now + d, KM_EV_SWITCH, (uint32_t)cpu->id, cpu->token);
	km_cpu_show(sim, cpu);
}

/*
 * @cpu has no current task: switch to the next one, or go idle.  @how
 * says what the CPU was doing, for what schedule() costs it:
 *  - KM_SCHED_PLAIN: nothing to add (a preemption, an irq's exit);
 *  - KM_SCHED_BLOCKED: its task blocked or exited, so with nothing to run
 *    it switches to the idle task, and that is a context switch too;
 *  - KM_SCHED_WOKEN: it was idle and a wake-up's reschedule IPI brought
 *    it out: the interrupt's entry and exit come before the switch.
 */
static void cpu_schedule_how(struct km_sim *sim, struct km_cpu *cpu, enum km_sched_how how)
{
	struct km_ctx *next = km_rq_pop(sim, cpu);
	km_time balance = 0;
	if (!next && sim->era.o1_balance) {
		/* idle_balance(): only on the way to idle, from schedule() */
		if (how == KM_SCHED_BLOCKED) {
			km_time pull;
			balance = km_balance_newidle_cost(sim, cpu->id);
			if (km_o1_balance(sim, cpu, true, &pull))
				next = km_rq_pop(sim, cpu);
			balance += pull;
		}
	} else if (!next) {
		if (how == KM_SCHED_BLOCKED)
			balance = km_balance_newidle_cost(sim, cpu->id);
		next = km_balance_steal(sim, cpu);
	}
	if (!next) {
		if (how == KM_SCHED_BLOCKED)
			cpu_switch(sim, cpu, NULL, km_cost(sim)->ctxsw, balance);
		else
			km_cpu_show(sim, cpu);
		if (sim->era.o1_balance)
			km_balance_arm(sim);
		return;
	}
	km_time d = how == KM_SCHED_WOKEN ? km_wake_switch_cost(sim) : km_cost(sim)->ctxsw;
	cpu_switch(sim, cpu, next, d, balance);
}

void km_cpu_schedule(struct km_sim *sim, struct km_cpu *cpu)
{
	cpu_schedule_how(sim, cpu, KM_SCHED_PLAIN);
}

/*
 * @cpu's task @prev has just blocked, but the CPU first spends @d on the
 * rest of its way to sleep -- the failed attempt, queueing under the wait
 * list's lock and any spinning for it -- before schedule() can switch.
 * The lane shows @prev busy (its own accounting already says blocked: the
 * tail is charged to the CPU only); an EV_SWITCH with no task to switch
 * to ends it (on_switch).
 */
static void cpu_schedule_after(struct km_sim *sim, struct km_cpu *cpu, struct km_ctx *prev,
			       km_time d)
{
	if (d <= 0) {
		cpu_schedule_how(sim, cpu, KM_SCHED_BLOCKED);
		return;
	}
	cpu->switching = true;
	cpu->switch_to = NULL;
	cpu->leaving = prev;
	cpu->token++;
	km_push(sim, sim->now + d, KM_EV_SWITCH, (uint32_t)cpu->id, cpu->token);
	km_cpu_show(sim, cpu);
}

/* The first idle CPU at or after @from, cyclically, or -1: a word at a
 * time through the idle set, so 1024 busy CPUs cost 16 loads, not 1024. */
static int next_idle(const struct km_sim *sim, int from)
{
	int words = (sim->ncpus + 63) / 64;
	for (int k = 0; k <= words; k++) {
		int w = ((from >> 6) + k) % words;
		uint64_t m = sim->idle_mask[w];
		if (k == 0)
			m &= ~0ULL << (from & 63);	/* at or after from */
		if (k == words)
			m &= (from & 63) ? ~(~0ULL << (from & 63)) : 0;	/* wrapped: before from */
		if (m) {
			int c = w * 64 + __builtin_ctzll(m);
			if (c < sim->ncpus)
				return c;
		}
	}
	return -1;
}

/*
 * Where a task goes when it becomes runnable (@woken: by a wake-up, else
 * at its start).  The generic rule: its previous CPU if idle, else any
 * idle CPU, else back to its previous CPU's queue.
 *
 * With era.wake_prev_cpu, a woken task goes back to its previous CPU, busy
 * or not, as try_to_wake_up() of 2.6.13-2.6.17 did on a machine without
 * hyper-threading (docs/sources.md, [TOPO15]): wake_idle() looks for an
 * idle CPU only in domains with SD_WAKE_IDLE, which SD_CPU_INIT lacked.
 * With era.wake_affine the waker may have chosen its own CPU instead
 * (km_wake_cpu(), wake.c): then km_wake_placed() says so.
 */
static int select_cpu(struct km_sim *sim, const struct km_ctx *ctx, bool woken)
{
	if (ctx->pinned >= 0)
		return ctx->pinned;
	if (woken && km_wake_placed(ctx) >= 0)
		return km_wake_placed(ctx);	/* try_to_wake_up() chose (km_wake_cpu) */
	int prev = ctx->cpu >= 0 ? ctx->cpu : 0;
	/* try_to_wake_up() without SD_WAKE_IDLE: the previous CPU, busy or not */
	if (woken && sim->era.wake_prev_cpu && ctx->cpu >= 0)
		return prev;
	int c = next_idle(sim, prev);
	if (c >= 0)
		return c;
	if (ctx->cpu >= 0)
		return ctx->cpu;
	/* A new task with every CPU busy: the shortest queue. */
	if (sim->rq_short) {
		km_rq_trees_refresh(sim);
		return sim->rq_short[1];
	}
	int best = 0;
	for (int i = 1; i < sim->ncpus; i++)
		if (sim->cpus[i].rq_len < sim->cpus[best].rq_len)
			best = i;
	return best;
}

static void cpu_resched(struct km_sim *sim, struct km_cpu *cpu);

void km_ctx_make_runnable(struct km_sim *sim, struct km_ctx *ctx, enum km_sched_how how)
{
	int c = select_cpu(sim, ctx, how == KM_SCHED_WOKEN);
	struct km_cpu *cpu = &sim->cpus[c];
	km_wake_clear(ctx);
	if (ctx->cpu >= 0 && ctx->cpu != c) {
		km_cpu_migrated(sim, cpu, ctx);
		if (km_cfs(sim) && ctx->ran)	/* set_task_cpu() */
			km_fair_migrate(&sim->cpus[ctx->cpu], cpu, ctx);
	}
	ctx->cpu = c;
	ctx->state = KM_CTX_RUNNABLE;
	km_ctx_acct(sim, ctx, KM_ACCT_RUNNABLE);
	if (km_cfs(sim))	/* enqueue_entity()'s place_entity() */
		km_fair_place(sim, cpu, ctx, how != KM_SCHED_WOKEN);
	if (km_o1(sim))	/* activate_task(): recalc_task_prio() */
		km_o1_activate(sim, ctx);
	km_rq_append(sim, cpu, ctx);
	if (km_cpu_idle(cpu)) {
		cpu_schedule_how(sim, cpu, how);
		return;
	}
	km_tick_arm(sim, cpu);
	/* CFS: check_preempt_wakeup() */
	if (km_cfs(sim) && how == KM_SCHED_WOKEN && km_fair_check_preempt_wakeup(sim, cpu, ctx))
		cpu_resched(sim, cpu);
	/* O(1): TASK_PREEMPTS_CURR(), a strictly better priority */
	if (km_o1(sim) && km_o1_preempts(cpu, ctx))
		cpu_resched(sim, cpu);
}

/* ------------------------------------------------------------ blocking -- */

void km_ctx_block(struct km_sim *sim, struct km_ctx *ctx, enum km_wait w, void *obj)
{
	km_ctx_block_after(sim, ctx, w, obj, 0);
}

void km_ctx_block_after(struct km_sim *sim, struct km_ctx *ctx, enum km_wait w, void *obj,
		       km_time tail)
{
	struct km_cpu *cpu = km_cpu_of(sim, ctx);
	bool top = km_cpu_top(cpu) == ctx;

	ctx->wait = w;
	ctx->wait_obj = obj;
	ctx->state = KM_CTX_BLOCKED;
	ctx->last_ran = sim->now + tail;	/* schedule() switches it out then */
	ctx->ran = true;
	ctx->act = KM_ACT_NONE;
	ctx->seg_token++;
	km_ctx_acct(sim, ctx, KM_ACCT_BLOCKED);
	/* the trace names what it sleeps on: a lock, a queue, a completion */
	uint32_t id = KM_TR_NONE;
	if (w == KM_WAIT_LOCK)
		id = ((const struct km_lock *)obj)->id;
	else if (w == KM_WAIT_WQ)
		id = ((const struct km_waitq *)obj)->id;
	else if (w == KM_WAIT_COMPLETION)
		id = ((const struct km_completion *)obj)->id;
	km_emit(sim, KM_TR_BLOCK, cpu->id, ctx, id, (uint32_t)w, 0);

	sim->hooks->owner_off_cpu(sim, ctx);
	sim->sleep_release = 0;
	sim->hooks->release_on_sleep(sim, ctx);
	if (sim->sleep_release) {
		/* schedule()'s up() of a semaphore BKL, before the switch */
		tail = km_sat_add(tail, sim->sleep_release);
		ctx->last_ran = sim->now + tail;
		sim->sleep_release = 0;
	}
	if (sim->holds)
		sim->hooks->choice_release_for(sim, ctx);
	if (km_cfs(sim))	/* dequeue_entity(): update_curr() */
		km_fair_update_curr(sim, cpu);
	if (km_o1(sim))	/* schedule(): sleep_avg -= run_time */
		km_o1_switch_out(sim, ctx, ctx->last_ran);
	cpu->curr = NULL;
	if (top)
		cpu_schedule_after(sim, cpu, ctx, tail);
	else
		km_cpu_show(sim, cpu);	/* an irq runs above: its exit will schedule */
}

void km_ctx_wake(struct km_sim *sim, struct km_ctx *ctx, int64_t result)
{
	if (ctx->state != KM_CTX_BLOCKED)
		return;
	km_ctx_cancel_timeout(ctx);
	ctx->wait = KM_WAIT_NONE;
	ctx->wait_obj = NULL;
	ctx->result = result;
	ctx->act = KM_ACT_READY;
	ctx->state = KM_CTX_RUNNABLE;	/* on its way: EV_WAKE queues it */
	km_wake_arrive(sim, ctx);
}

/* --------------------------------------------------------- preemption -- */

/*
 * A holder of the spinning BKL is not preemptible either: lock_kernel()
 * disabled preemption (2.6.0; again from 2.6.26-rc2).  It is not "atomic"
 * for all that: it may sleep, dropping the lock.  The BKL as a semaphore
 * (CONFIG_PREEMPT_BKL, 2.6.8 - 2.6.25, and 2.6.26-rc1: era.bkl_lock)
 * left preemption on: its holder is preempted like any task, and
 * schedule() up()s the semaphore on the way (release_on_sleep).
 */
bool km_ctx_preemptible(const struct km_sim *sim, const struct km_ctx *ctx)
{
	return ctx->kind == KM_CTX_TASK && ctx->preempt_count == 0 && ctx->irqoff == 0 &&
	       (ctx->bkl_depth == 0 || sim->era.bkl_lock != KM_BKL_SPIN) &&
	       (ctx->act == KM_ACT_SEG || ctx->act == KM_ACT_READY);
}

/* Put @cpu's current task back on its run queue and switch. */
static void preempt_curr(struct km_sim *sim, struct km_cpu *cpu)
{
	struct km_ctx *curr = cpu->curr;
	km_ctx_pause(sim, curr);
	if (curr->act == KM_ACT_NONE)
		curr->act = KM_ACT_READY;
	km_emit(sim, KM_TR_PREEMPT, cpu->id, curr, KM_TR_NONE, (uint32_t)cpu->id, 0);
	sim->hooks->owner_off_cpu(sim, curr);
	/* schedule() releases the BKL of whatever task it switches away
	 * from, sleeping or not, and retakes it when that task runs again. */
	sim->hooks->release_on_sleep(sim, curr);
	/* NOTE: the semaphore BKL's up() on a preemption is not charged (a
	 * blocking task's is, km_ctx_block_after()): dropped here */
	sim->sleep_release = 0;
	if (km_cfs(sim))	/* put_prev_entity(): update_curr() */
		km_fair_update_curr(sim, cpu);
	if (km_o1(sim)) {	/* schedule(): prev stays queued */
		km_o1_preempted(curr);
		km_o1_switch_out(sim, curr, sim->now);
	}
	cpu->need_resched = false;
	cpu->curr = NULL;
	curr->last_ran = sim->now;
	curr->ran = true;
	curr->state = KM_CTX_RUNNABLE;
	km_ctx_acct(sim, curr, KM_ACCT_RUNNABLE);
	km_rq_append(sim, cpu, curr);
	km_cpu_schedule(sim, cpu);
}

bool km_cpu_maybe_preempt(struct km_sim *sim, struct km_cpu *cpu)
{
	if (sim->era.preempt != KM_PREEMPT_FULL || !cpu->need_resched)
		return false;
	if (cpu->switching || cpu->irq_top || !cpu->curr || cpu->rq_len == 0)
		return false;
	if (!km_ctx_preemptible(sim, cpu->curr))
		return false;
	preempt_curr(sim, cpu);
	return true;
}

int km_op_might_sleep(struct km_sim *sim, struct km_ctx *ctx)
{
	struct km_cpu *cpu = km_cpu_of(sim, ctx);
	if (sim->era.preempt != KM_PREEMPT_VOLUNTARY || ctx->kind != KM_CTX_TASK ||
	    !cpu->need_resched || cpu->rq_len == 0 || ctx->preempt_count || ctx->irqoff)
		return KM_STEP_DONE;
	ctx->act = KM_ACT_READY;
	preempt_curr(sim, cpu);
	return KM_STEP_WAIT;
}

void km_sched_tick(struct km_sim *sim, struct km_cpu *cpu)
{
	if (cpu->rq_len == 0)
		return;
	/* CFS: check_preempt_tick(), only past the task's slice */
	if (km_cfs(sim) && !km_fair_tick(sim, cpu) && !cpu->need_resched)
		return;
	/* O(1): scheduler_tick(), only at the slice's end or its granularity */
	if (km_o1(sim) && !km_o1_tick(sim, cpu) && !cpu->need_resched)
		return;
	cpu_resched(sim, cpu);
}

/* resched_task() of @cpu's task, with a task waiting on its queue. */
static void cpu_resched(struct km_sim *sim, struct km_cpu *cpu)
{
	cpu->need_resched = true;
	struct km_ctx *top = km_cpu_top(cpu);
	/* An optimistic mutex spinner gives up when it should reschedule. */
	if (top && top == cpu->curr && top->act == KM_ACT_SPIN && top->wait == KM_WAIT_LOCK) {
		struct km_lock *l = top->wait_obj;
		if (l->ops && l->ops->spin_abort)
			l->ops->spin_abort(sim, l, top);
	}
	if (!cpu->curr && !cpu->switching)
		km_cpu_schedule(sim, cpu);
	else
		km_cpu_maybe_preempt(sim, cpu);
}

void km_ctx_finish(struct km_sim *sim, struct km_ctx *ctx)
{
	struct km_cpu *cpu = km_cpu_of(sim, ctx);

	sim->hooks->lockdep_exit(sim, ctx);
	if (ctx->kind == KM_CTX_IRQ) {
		/* The handler's code is done; leave the interrupt in the loop,
		 * not from inside the host's resume. */
		ctx->then = KM_THEN_IRQ_EXIT;
		km_ctx_run_seg(sim, ctx, 0);
		return;
	}
	ctx->finished = true;
	ctx->end_ns = sim->now;
	ctx->state = KM_CTX_DONE;
	ctx->act = KM_ACT_NONE;
	ctx->seg_token++;
	km_ctx_cancel_timeout(ctx);
	km_ctx_acct(sim, ctx, KM_ACCT_NONE);
	km_emit(sim, KM_TR_TASK_EXIT, cpu->id, ctx, KM_TR_NONE, 0, 0);
	sim->live_tasks--;
	if (sim->holds)
		sim->hooks->choice_release_for(sim, ctx);
	sim->hooks->owner_off_cpu(sim, ctx);
	sim->hooks->release_on_sleep(sim, ctx);	/* do_exit: schedule() drops it */
	ctx->bkl_saved = ctx->gil_saved = 0;
	ctx->irqoff = 0;
	ctx->preempt_count = 0;
	sim->host->ctx_release(sim->host_data, sim, ctx);
	cpu->curr = NULL;
	if (!cpu->irq_top)
		cpu_schedule_how(sim, cpu, KM_SCHED_BLOCKED);
	else
		km_cpu_show(sim, cpu);
}

/* The switch under way on @cpu is over (KM_EV_SWITCH); the loop then
 * lets in what interrupts were latched meanwhile. */
void km_cpu_switch_done(struct km_sim *sim, struct km_cpu *cpu)
{
	struct km_ctx *next = cpu->switch_to;
	cpu->switching = false;
	cpu->switch_to = NULL;
	if (!next && cpu->to_idle) {	/* now in the idle task */
		cpu->to_idle = false;
		km_cpu_schedule(sim, cpu);
		return;
	}
	if (!next) {	/* the end of cpu_schedule_after()'s tail */
		struct km_ctx *prev = cpu->leaving;
		cpu->leaving = NULL;
		cpu_schedule_how(sim, cpu, KM_SCHED_BLOCKED);
		if (prev && prev->wake_deferred) {
			prev->wake_deferred = false;
			if (prev->state == KM_CTX_RUNNABLE &&
			    prev->wake_deferred_token == prev->seg_token)
				km_ctx_make_runnable(sim, prev, KM_SCHED_WOKEN);
		}
		return;
	}
	cpu->curr = next;
	cpu->ctxsw++;
	next->state = KM_CTX_ONCPU;
	next->cpu = cpu->id;
	if (!sim->hooks->reacquire(sim, next))
		km_ctx_unpause(sim, next);
	km_cpu_show(sim, cpu);
}

/*
 * A timer tick's balancing (era.o1_balance): every idle CPU whose
 * interval is due runs rebalance_tick()'s load_balance(), and switches to
 * what it pulled (pull_task() preempts the idle task).  The pull's cost
 * comes before the switch, under the CPU's run-queue lock.  The kernel
 * balanced from inside the timer interrupt (scheduler_tick()), so a CPU
 * whose scenario-level timer interrupt is running at that instant
 * balances all the same: what it pulls waits on its queue for the
 * interrupt's exit, which schedules it (irq.c); that pull's cost (a
 * microsecond, inside the interrupt) is not charged.
 */
void km_balance_tick(struct km_sim *sim)
{
	for (int i = 0; i < sim->ncpus && sim->queued; i++) {
		struct km_cpu *cpu = &sim->cpus[i];
		bool in_irq = cpu->irq_top != NULL;
		if (!km_cpu_idle(cpu) || cpu->rq_len || !km_o1_balance_due(sim, cpu))
			continue;
		km_o1_balance_stamp(sim, cpu);
		km_time pull;
		if (km_o1_balance(sim, cpu, false, &pull) && !in_irq)
			cpu_switch(sim, cpu, km_rq_pop(sim, cpu), km_cost(sim)->ctxsw, pull);
	}
	if (km_any_cpu_idle(sim))
		km_balance_arm(sim);
}
