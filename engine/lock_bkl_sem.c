/*
 * lock_bkl_sem.c - the Big Kernel Lock as a semaphore (kernel_sem), in the
 * two forms it had before 2.6.26-rc2 turned it back into a spinlock.
 *
 * lib/kernel_lock.c's CONFIG_PREEMPT_BKL branch (2.6.8 - 2.6.25; the only
 * branch in 2.6.26-rc1): lock_kernel() calls down(&kernel_sem) when the
 * task's lock_depth goes from -1 to 0, deeper calls only count, and
 * unlock_kernel() calls up() when it drops below 0.  schedule() calls
 * __release_kernel_lock() -- up() -- for a task leaving with lock_depth
 * >= 0, and __reacquire_kernel_lock() when such a task is switched back
 * in: the depth is set to -1, down(&kernel_sem), the depth restored.
 * That down() may sleep; the task then goes through schedule() again
 * before it runs a single instruction of its own.
 *
 * Which semaphore sits under it decides who has the BKL after up():
 *
 *  - the legacy semaphore (i386's, KM_BKL_SEM_LEGACY): up() adds one to
 *    the count and wakes the first sleeper not already woken; anyone who
 *    reaches down() before that sleeper runs takes the count (a steal)
 *    and the sleeper, when it runs, finds it gone and sleeps again.  The
 *    count and sleepers arithmetic is i386's __down() loop, as lock_sem.c
 *    follows it;
 *  - the generic semaphore (64ac24e73882, KM_BKL_SEM_GENERIC): up() with
 *    a sleeper hands the unit to the first one and wakes it; the count
 *    stays at 0, so nobody takes the BKL until that task has been woken,
 *    waited for a CPU and been switched in.  Every task that reaches
 *    lock_kernel() meanwhile -- and every BKL holder switched back in
 *    after a sleep -- queues behind it and sleeps.
 *
 * Costs (the era's machine, as lock_sem.c charges them): the count's
 * atomic and a line transfer when the BKL was last touched on another
 * CPU; the slow paths run under the semaphore's wait-list spinlock
 * (km_lock_wait_lock), one holder at a time, each section an atomic and
 * a line of the queue; every wake-up done inside it adds the waker's
 * try_to_wake_up() and IPI (km_lock_wake_cost).  The up() in schedule()
 * is paid by the task leaving, before its switch (sim->sleep_release);
 * the down() in __reacquire_kernel_lock() by the task coming back, after
 * its switch, and if it must sleep it pays for a second switch out.
 *
 * Simplifications, against lock_sem.c: a decision made under the wait-
 * list lock is made when the caller asks, its wait for the lock charged
 * as spin (lock_sem.c's legacy semaphore makes it when the spinner gets
 * the lock); the holder stays non-preemptible as the spinning BKL's does
 * (CONFIG_PREEMPT_BKL let the scheduler preempt it, releasing it: at the
 * era's 250 Hz tick, and sections of microseconds, a rare event).
 *
 * All of the semaphore's state is the BKL's own lock (sim->bkl): avail is
 * the count, waiters the wait queue, sleepers i386's sem->sleepers, owner
 * the holder.  A task waiting in lock_kernel() sleeps on the scenario's
 * lock it called down() on (lock.c's protocol); one waiting in
 * __reacquire_kernel_lock() sleeps with ctx->bkl_asleep set.
 */
#include "lock.h"
#include "core.h"
#include "machine.h"

static bool legacy(const struct km_sim *sim)
{
	return sim->era.bkl_lock == KM_BKL_SEM_LEGACY;
}

/* @ctx has kernel_sem now, at depth @depth (@retry: a sleeper's). */
static void sem_took(struct km_sim *sim, struct km_ctx *ctx, int depth, bool retry)
{
	/* a waiter's wait: lock.c's contended flag for lock_kernel(), the
	 * reacquire's own flag for __reacquire_kernel_lock() */
	bool waited = ctx->contended || ctx->bkl_asleep || (retry && ctx->bkl_saved);
	struct km_lock *B = sim->bkl;
	B->used = true;
	B->owner = ctx;
	B->since = sim->now;
	ctx->bkl_depth = depth;
	km_lock_stat_acquired(B, ctx->cpu);
	if (!retry && B->inflight)
		B->st.steals++;		/* past a woken sleeper on its way */
	if (waited)
		km_minmax_add(&B->st.wait, sim->now - ctx->wait_since);
}

static void sem_contended(struct km_sim *sim, struct km_ctx *ctx)
{
	struct km_lock *B = sim->bkl;
	B->used = true;
	km_lock_stat_contended(B, ctx->cpu);
	if (B->waiters.len > B->st.max_waiters)
		B->st.max_waiters = B->waiters.len;
}

/* The task woken for kernel_sem: its lock_kernel() retries, or its
 * reacquire does when it is switched in. */
static void wake_sleeper(struct km_sim *sim, struct km_ctx *w)
{
	if (w->bkl_asleep)
		km_ctx_wake(sim, w, 0);
	else
		km_lock_wake_retry(sim, w->wait_obj, w, false);
}

/* Legacy wake_up(): the first sleeper not already woken (each woken one
 * ahead is probed: its run-queue lock taken, TASK_RUNNING found).
 * Returns what it costs the waker on @waker_cpu. */
static km_time legacy_wake_one(struct km_sim *sim, int waker_cpu)
{
	struct km_lock *B = sim->bkl;
	struct km_ctx *w = B->waiters.head;
	km_time probed = 0;
	while (w && w->wq_woken) {
		probed += km_lock_probe_cost(sim, B, waker_cpu, w, probed);
		w = w->wnext;
	}
	if (!w)
		return probed;
	km_time cost = probed + km_lock_wake_cost_after(sim, B, waker_cpu, w, probed);
	w->wq_woken = true;
	B->inflight++;
	B->st.wakeups++;
	wake_sleeper(sim, w);
	return cost;
}

/*
 * down(&kernel_sem) by @ctx, first or as a woken sleeper's retry
 * (@retry: still on the queue, its decrement already in the count).
 * Returns true when @ctx has it; *@cost is what the call cost it.
 */
static bool sem_down(struct km_sim *sim, struct km_ctx *ctx, int depth, bool retry,
		     bool trylock, km_time *cost, bool *busy)
{
	struct km_lock *B = sim->bkl;
	const struct km_costs *c = km_cost(sim);
	*cost = km_lock_rmw(sim, B, ctx->cpu);
	*busy = false;
	if (!legacy(sim)) {
		/* generic: everything under sem->lock */
		if (B->avail > 0) {
			B->avail--;
			sem_took(sim, ctx, depth, retry);
			return true;
		}
		if (trylock) {
			*busy = true;
			return false;
		}
		*cost += km_lock_wait_lock(sim, B, c->atomic + c->cacheline);
		km_waitlist_append(&B->waiters, ctx);
		sem_contended(sim, ctx);
		return false;
	}
	km_time hold = c->atomic + c->cacheline;
	if (!retry) {
		if (--B->avail >= 0) {		/* lock; decl; js */
			sem_took(sim, ctx, depth, false);
			return true;
		}
		if (trylock) {
			/* __down_trylock(): give back ours and the sleepers' */
			B->avail += B->u.sem.sleepers + 1;
			B->u.sem.sleepers = 0;
			if (B->avail >= 0)
				hold += legacy_wake_one(sim, ctx->cpu);
			*cost += km_lock_wait_lock(sim, B, hold);
			*busy = true;
			return false;
		}
		km_waitlist_append(&B->waiters, ctx);	/* exclusive, at the tail */
		B->u.sem.sleepers++;
		sem_contended(sim, ctx);
	} else {
		ctx->wq_woken = false;
		if (B->inflight)
			B->inflight--;
	}
	/* __down()'s loop: "add everybody else into it" */
	B->avail += B->u.sem.sleepers - 1;
	if (B->avail >= 0) {
		B->u.sem.sleepers = 0;
		km_waitlist_remove(&B->waiters, ctx);
		hold += legacy_wake_one(sim, ctx->cpu);	/* wake_up_locked() */
		*cost += km_lock_wait_lock(sim, B, hold);
		sem_took(sim, ctx, depth, retry);
		return true;
	}
	B->u.sem.sleepers = 1;
	*cost += km_lock_wait_lock(sim, B, hold);
	if (retry)
		B->st.wake_lost++;	/* woken, retried, and back to sleep */
	return false;
}

/* Generic __up(): the unit goes to the first waiter, which is woken with
 * it.  Returns what the wake-up costs the waker. */
static km_time generic_hand_off(struct km_sim *sim, struct km_ctx *w, int waker_cpu)
{
	struct km_lock *B = sim->bkl;
	km_time wake = km_lock_wake_cost(sim, B, waker_cpu, w);
	B->st.wakeups++;
	if (w->bkl_asleep) {
		int depth = w->bkl_saved;
		w->bkl_saved = 0;
		sem_took(sim, w, depth, true);
		km_ctx_wake(sim, w, 0);
	} else {
		sem_took(sim, w, 1, true);
		km_lock_grant(sim, w->wait_obj, w, 0);
	}
	return wake;
}

/* up(&kernel_sem) by the holder on @cpu.  Returns its cost. */
static km_time sem_up(struct km_sim *sim, int cpu)
{
	struct km_lock *B = sim->bkl;
	const struct km_costs *c = km_cost(sim);
	km_time cost = km_lock_rmw(sim, B, cpu);
	km_minmax_add(&B->st.hold, sim->now - B->since);
	B->owner = NULL;
	if (legacy(sim)) {
		if (++B->avail <= 0)		/* lock; incl; jle: __up() */
			cost += km_lock_wait_lock(sim, B, c->atomic + legacy_wake_one(sim, cpu));
		return cost;
	}
	struct km_ctx *w = km_waitlist_pop(&B->waiters);
	if (!w) {
		B->avail++;
		return cost;
	}
	/* spin_lock_irqsave(&sem->lock) ... __up() ... unlock */
	km_time wake = generic_hand_off(sim, w, cpu);
	return cost + km_lock_wait_lock(sim, B, wake);
}

/* ------------------------------------------------------------ lock_ops -- */

/* lock_kernel() - Context: process context; may sleep. */
static enum km_lock_result bsem_acquire(struct km_sim *sim, struct km_lock *l,
					struct km_ctx *ctx, bool trylock, km_time *cost)
{
	struct km_lock *B = sim->bkl;
	if (B->owner == ctx && !ctx->lock_retry) {
		ctx->bkl_depth++;
		*cost = 1;
		return KM_LOCK_TAKEN;
	}
	bool busy;
	if (sem_down(sim, ctx, 1, ctx->lock_retry, trylock, cost, &busy))
		return KM_LOCK_TAKEN;
	return busy ? KM_LOCK_BUSY : KM_LOCK_SLEEP;
}

/* unlock_kernel() - Context: process context, by the holder. */
static void bsem_release(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx,
			 km_time *cost)
{
	*cost = 1;
	if (!km_bkl_depth_drop(sim->bkl, ctx))
		return;
	*cost = sem_up(sim, ctx->cpu);
}

/* A lock_kernel() sleeper's timeout: it leaves the queue (legacy: with
 * the arithmetic of __down_interruptible()'s signal path). */
static void bsem_leave(struct km_sim *sim, struct km_ctx *ctx)
{
	struct km_lock *B = sim->bkl;
	km_waitlist_remove(&B->waiters, ctx);
	if (!legacy(sim))
		return;
	if (ctx->wq_woken && B->inflight)
		B->inflight--;
	ctx->wq_woken = false;
	B->avail += B->u.sem.sleepers;
	B->u.sem.sleepers = 0;
	km_lock_wait_lock(sim, B, km_cost(sim)->atomic + km_cost(sim)->cacheline +
			  legacy_wake_one(sim, ctx->cpu));
}

static void bsem_cancel(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx)
{
	bsem_leave(sim, ctx);
}

static void bsem_give_up(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx)
{
	if (legacy(sim))
		bsem_leave(sim, ctx);
}

const struct km_lock_ops km_bkl_sem_ops = {
	.name = "bkl",
	.lock_verb = "lock_kernel",
	.unlock_verb = "unlock_kernel",
	.owners = KM_OWNERS_NONE,
	.exit_report = true,
	.release_check = km_lock_release_check_taken,
	.acquire = bsem_acquire,
	.release = bsem_release,
	.cancel = bsem_cancel,
	.give_up = bsem_give_up,
};

/* ------------------------------------------------------------ schedule -- */

/* __release_kernel_lock(): up(), paid by the task leaving. */
void km_bkl_sem_release_on_sleep(struct km_sim *sim, struct km_ctx *ctx)
{
	if (!km_bkl_depth_save(sim->bkl, ctx))
		return;
	int cpu = ctx->cpu;
	sim->sleep_release = km_sat_add(sim->sleep_release, sem_up(sim, cpu));
}

/* What the reacquire cost @ctx runs before its own code goes on. */
static void charge(struct km_ctx *ctx, km_time cost)
{
	if (ctx->act == KM_ACT_SEG) {
		ctx->seg_left = km_sat_add(ctx->seg_left, cost);
	} else if (ctx->act == KM_ACT_READY) {
		ctx->act = KM_ACT_SEG;
		ctx->seg_left = cost;
	}
}

/*
 * __reacquire_kernel_lock(): @ctx, switched in with the BKL saved, takes
 * kernel_sem again, or sleeps for it.  Returns true when @ctx does not go
 * on (it slept again).
 */
bool km_bkl_sem_reacquire(struct km_sim *sim, struct km_ctx *ctx)
{
	struct km_lock *B = sim->bkl;
	bool retry = ctx->bkl_asleep;
	if (!retry && !ctx->bkl_saved)
		return false;
	if (retry) {
		/* back from the down() it slept in: what it was doing */
		ctx->act = ctx->saved_act;
		ctx->result = ctx->saved_result;
		ctx->bkl_asleep = false;
		if (B->owner == ctx)	/* generic: handed to it asleep */
			return false;
	}
	km_time cost;
	bool busy;
	if (sem_down(sim, ctx, ctx->bkl_saved, retry, false, &cost, &busy)) {
		ctx->bkl_saved = 0;
		charge(ctx, cost);
		return false;
	}
	/* down() sleeps: schedule() again, what it cost spent first */
	if (!retry)
		ctx->wait_since = sim->now;
	ctx->saved_act = ctx->act;
	ctx->saved_result = ctx->result;
	ctx->bkl_asleep = true;
	km_ctx_block_after(sim, ctx, KM_WAIT_SLEEP, NULL, cost);
	return true;
}
