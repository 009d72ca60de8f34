/*
 * lock_mutex.c - the mutex, as kernel/locking/mutex.c grew it.
 *
 * One owner; only the owner unlocks, never from interrupt context (both
 * are checked and reported by lock.c); no recursion.  Three paths:
 *
 *  - fast path: the lock is free, take it with one cmpxchg.  A newcomer
 *    can take it while a woken waiter is still on its way: lock stealing.
 *  - optimistic spinning (2.6.30, commit 0d66bf6d3514): if the owner is
 *    running on a CPU, spin rather than sleep -- it will likely release
 *    soon.  Spinners queue on the OSQ (an MCS lock), so the hand-off to the
 *    first spinner costs one line transfer.  A spinner gives up and sleeps
 *    when the owner leaves its CPU or when it must reschedule itself.
 *  - slow path: queue FIFO and sleep; unlock wakes the top waiter, which
 *    tries again when it runs.
 *
 * Starvation: a woken waiter can lose again and again to spinners and
 * newcomers.  From 4.10 (commit 9d659ae14b54) a woken waiter that fails
 * sets the HANDOFF flag, and the next unlock gives the lock directly to
 * the top waiter.
 *
 * The slow paths run under the mutex's wait_lock, as the semaphore's do
 * under its wait list's lock (see lock_sem.c): queueing, a woken waiter's
 * retry, and the unlock that wakes the top waiter with wake_up_process(),
 * whose try_to_wake_up() the unlocker pays.  The fast paths -- a free
 * mutex, optimistic spinning, the hand-off to a spinner -- never take it.
 *
 * l->avail is 1 when unlocked, 0 when locked; a lock declared with count 0
 * starts locked with no owner.
 */
#include "lock.h"
#include "core.h"
#include "machine.h"

static bool owner_running(const struct km_ctx *owner)
{
	/* owner->on_cpu in the kernel: on a CPU, even if interrupted. */
	return owner && owner->state == KM_CTX_ONCPU;
}

/*
 * mutex_lock() - Context: process context; may sleep.
 */
static enum km_lock_result mutex_acquire(struct km_sim *sim, struct km_lock *l,
					 struct km_ctx *ctx, bool trylock, km_time *cost)
{
	*cost = km_lock_rmw(sim, l, ctx->cpu);
	if (l->avail > 0) {
		l->avail = 0;
		l->owner = ctx;
		/* the fast path leaves the count at 0; a woken waiter's xchg
		 * leaves it at -1 unless it was the last waiter */
		l->u.mutex.count_negative = ctx->lock_retry && l->waiters.head;
		/* a woken waiter retries in the slow path, under wait_lock */
		if (ctx->lock_retry)
			*cost += km_lock_wait_lock(sim, l, km_lock_wait_list_lines(sim, l, ctx->cpu,
										   l->waiters.head));
		return KM_LOCK_TAKEN;
	}
	if (trylock)
		return KM_LOCK_BUSY;
	if (ctx->lock_retry && sim->era.mutex_handoff)
		l->u.mutex.handoff = true;	/* MUTEX_FLAG_HANDOFF: no more stealing */
	if (sim->era.mutex_spin && ctx->kind == KM_CTX_TASK && owner_running(l->owner) &&
	    !sim->cpus[ctx->cpu].need_resched && !l->u.mutex.handoff) {
		km_waitlist_append(&l->spinners, ctx);
		return KM_LOCK_SPIN;
	}
	/* queue under wait_lock, xchg the count to -1, then sleep */
	l->u.mutex.count_negative = true;
	*cost += km_lock_wait_lock(sim, l, km_lock_wait_list_lines(sim, l, ctx->cpu,
								    l->waiters.tail));
	if (ctx->lock_retry)
		km_waitlist_prepend(&l->waiters, ctx);
	else
		km_waitlist_append(&l->waiters, ctx);
	return KM_LOCK_SLEEP;
}

/*
 * mutex_unlock() - Context: process context, by the owner only.
 */
static void mutex_release(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx,
			  km_time *cost)
{
	*cost = km_lock_rmw(sim, l, ctx->cpu);
	l->owner = NULL;
	l->avail = 1;

	if (l->u.mutex.handoff && l->waiters.head) {
		struct km_ctx *w = km_waitlist_pop(&l->waiters);
		l->u.mutex.handoff = false;
		l->avail = 0;
		l->owner = w;
		*cost += km_lock_wait_lock(sim, l, km_cost(sim)->atomic +
					   km_lock_wake_cost(sim, l, ctx->cpu, w));
		km_lock_grant(sim, l, w, 0);
		return;
	}
	l->u.mutex.handoff = false;
	if (l->spinners.head) {
		struct km_ctx *s = km_waitlist_pop(&l->spinners);
		l->avail = 0;
		l->owner = s;
		/* the spinner sees the count change: its read of the line */
		km_lock_grant(sim, l, s, km_line_read(sim, &l->line, s->cpu, sim->now));
	}
	/* MUTEX_FLAG_WAITERS: wake the top waiter, even if a spinner won. */
	if (l->waiters.head && !l->woken) {
		struct km_ctx *w = km_waitlist_pop(&l->waiters);
		/* __mutex_unlock_slowpath: wake_up_process() under wait_lock */
		*cost += km_lock_wait_lock(sim, l, km_cost(sim)->atomic +
					   km_lock_wake_cost(sim, l, ctx->cpu, w));
		km_lock_wake_retry(sim, l, w, true);
	} else if (l->woken && l->u.mutex.count_negative && sim->era.rq_lock) {
		/* The top waiter is the woken one, not yet back, and someone
		 * has queued since (the count is -1): the unlock takes the
		 * slow path, and its wake_up_process() finds the top waiter
		 * -- which the kernel keeps on the list until it has the
		 * mutex -- TASK_RUNNING and wakes nobody, after taking its
		 * run-queue lock, under wait_lock.  A thief that took the
		 * mutex on the fast path with nobody queued since unlocks on
		 * the fast path: count 0 to 1.  (Eras without per-CPU
		 * run-queue locks leave this section out: its atomic alone is
		 * not worth modelling.) */
		*cost += km_lock_wait_lock(sim, l, km_cost(sim)->atomic +
					   km_lock_probe_cost(sim, l, ctx->cpu, l->woken, 0));
	}
	l->u.mutex.count_negative = false;	/* both unlock paths leave it at 1 */
}

/* A woken waiter gives up (its deadline passed) with the mutex free: pass
 * the wake-up on, or the next waiter waits for an unlock that already
 * happened. */
static void mutex_give_up(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx)
{
	if (l->avail > (int)l->reserved && l->waiters.head)
		km_lock_wake_retry(sim, l, km_waitlist_pop(&l->waiters), true);
}

static void mutex_cancel(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx)
{
	/* 2.6.16's loop did its xchg(-1) before it looked at the signal:
	 * the count stays -1 */
	if (km_waitlist_contains(&l->waiters, ctx)) {
		km_waitlist_remove(&l->waiters, ctx);
		l->u.mutex.count_negative = true;
	}
	km_waitlist_remove(&l->spinners, ctx);
}

/* A spinner gives up and queues: its xchg(-1) leaves the count below
 * zero, then it sleeps. */
static void mutex_spinner_sleeps(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx)
{
	l->u.mutex.count_negative = true;
	km_lock_spin_to_sleep(sim, l, ctx);
}

/* The owner blocked or was preempted: spinning on it is pointless now. */
static void mutex_owner_off_cpu(struct km_sim *sim, struct km_lock *l)
{
	struct km_ctx *s;
	while ((s = km_waitlist_pop(&l->spinners)))
		mutex_spinner_sleeps(sim, l, s);
}

static bool mutex_spin_abort(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx)
{
	if (!km_waitlist_contains(&l->spinners, ctx))
		return false;
	km_waitlist_remove(&l->spinners, ctx);
	mutex_spinner_sleeps(sim, l, ctx);
	return true;
}

/* mutex_lock() may sleep: never from an interrupt handler. */
static void mutex_acquire_check(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx,
				bool trylock)
{
	if (!trylock && km_in_irq(ctx))
		km_violation(sim, KM_V_SLEEP_IN_ATOMIC, ctx, l, NULL,
			     "mutex_lock(%s) in interrupt context (irq '%s'): a mutex "
			     "may sleep", l->name, ctx->name);
}

/*
 * mutex_unlock() - Context: process context, by the owner.  Not from an
 * interrupt, not by another task (reported; the release goes on, and
 * ends the owner's hold), not of an unlocked mutex (nothing to release).
 */
static bool mutex_release_check(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx,
				struct km_hold **h)
{
	if (km_in_irq(ctx))
		km_violation(sim, KM_V_MUTEX_UNLOCK_IN_IRQ, ctx, l, NULL,
			     "mutex_unlock(%s) in interrupt context (irq '%s')",
			     l->name, ctx->name);
	if (l->avail > 0) {
		km_violation(sim, KM_V_UNLOCK_NOT_HELD, ctx, l, NULL,
			     "mutex_unlock(%s) by '%s': the mutex is not locked",
			     l->name, ctx->name);
		return false;
	}
	if (l->owner != ctx && !km_in_irq(ctx))
		km_violation(sim, KM_V_MUTEX_UNLOCK_NOT_OWNER, ctx, l, NULL,
			     "mutex_unlock(%s) by '%s', but %s%s owns it", l->name,
			     ctx->name, l->owner ? "" : "no task",
			     l->owner ? l->owner->name : "");
	if (!*h && l->owner)
		*h = km_hold_find(l->owner, l);
	return true;
}

const struct km_lock_ops km_mutex_ops = {
	.name = "mutex",
	.lock_verb = "mutex_lock",
	.unlock_verb = "mutex_unlock",
	.owners = KM_OWNERS_ONE,
	.single_unit = true,
	.acquire_check = mutex_acquire_check,
	.release_check = mutex_release_check,
	.acquire = mutex_acquire,
	.release = mutex_release,
	.cancel = mutex_cancel,
	.give_up = mutex_give_up,
	.owner_off_cpu = mutex_owner_off_cpu,
	.spin_abort = mutex_spin_abort,
};
