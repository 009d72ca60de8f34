/*
 * lock_sem.c - the counting semaphore, as kernel/locking/semaphore.c.
 *
 * State: a count of free units and a FIFO list of sleepers.  down() takes
 * a unit if there is one, else queues at the tail and sleeps.  up() may be
 * called from any context -- an interrupt handler, or a task that never
 * called down() -- which is exactly why some binary semaphores could never
 * become mutexes.
 *
 * Two eras of up():
 *  - generic (2.6.26, commit 64ac24e73882): if anyone sleeps, the unit goes
 *    straight to the first waiter ("waiter->up = true") and the count is
 *    not incremented, so a newcomer cannot steal it.
 *  - legacy (the per-architecture versions before it): up() increments the
 *    count and wakes the first sleeper, which tries again when it runs.
 *    Until it has, newcomers queue behind it (the i386 count stayed at or
 *    below zero while anyone slept).  And a sleeper that got the semaphore
 *    woke the next one on its way out of __down(): that one usually lost
 *    and went back to sleep at the head of the queue.  The result is the
 *    convoy the 2005 mutex benchmarks measured: every contended hand-off
 *    waits for a wake-up and a context switch while the lock sits unused,
 *    and the spurious wake-ups burn CPU.
 *
 *    NOTE: a departure, on purpose.  In i386's __down() a newcomer that
 *    reached the slow path just after an up() could break out owning the
 *    count before the woken sleeper ran (sleepers became 2, and
 *    atomic_add_negative(sleepers - 1) brought the count back to 0).  Let
 *    newcomers do that here and the semaphore hands over as fast as the
 *    2006 mutex, contradicting what test-mutex measured (34,713 against
 *    84,153 loops/s: about 14 us per hand-off, a wake-up plus a switch).
 *    The model keeps the unit for the woken sleeper; a sleeper woken
 *    without a unit (the __down() chain above) can still lose to anyone.
 *    The price: in the convoy at most the holder and the one or two
 *    sleepers woken for it are awake, so the model cannot burn the CPU
 *    test-mutex saw (63% of 8 CPUs); docs/reproductions.md, "inode",
 *    gives the figures with and without this departure.
 *
 * Costs: the semaphore's own raw spinlock (an atomic) plus a line transfer
 * when the semaphore was last touched on another CPU.  The slow paths run
 * under the spinlock that guards the wait list (i386's sem->wait.lock, the
 * generic sem->lock), one holder at a time (km_lock_wait_lock): queueing
 * or dequeueing costs an atomic and a line of the list, and every wake-up
 * done under it -- up()'s, and the legacy __down()'s wake_up_locked() --
 * adds the waker's try_to_wake_up() (km_lock_wake_cost).  Who finds that
 * lock held spins; a task going to sleep pays all this on its CPU before
 * the switch.
 */
#include "lock.h"
#include "core.h"

/*
 * The legacy down().  The fast path is one atomic decrement.  Whoever
 * finds sleepers, or a sleeper woken and not yet back, enters __down(),
 * which does its "sleepers" arithmetic under the wait queue's spinlock,
 * wait.lock, and there queues and sleeps -- or, once woken, retries.  A
 * sleeper that gets the semaphore leaves __down() with
 * wake_up_locked(&sem->wait): it wakes the next one, under wait.lock and
 * with the semaphore held; that one usually finds it taken and sleeps
 * again -- a wake-up and two context switches per contended acquisition,
 * much of the CPU the 2005 mutex benchmarks saved.
 *
 * A unit up() woke a sleeper for is that sleeper's until it has retried
 * (the departure explained at the top); km_lock_redo has already given
 * the returning sleeper its own unit back.
 */
static enum km_lock_result legacy_down(struct km_sim *sim, struct km_lock *l,
				       struct km_ctx *ctx, bool trylock, km_time *cost)
{
	int kept = (int)l->reserved;
	bool slow = ctx->lock_retry || l->waiters.head || kept > 0;

	if (!slow || trylock) {
		/* the fast path; down_trylock() never enters __down() */
		if (l->avail > kept) {
			l->avail--;
			return KM_LOCK_TAKEN;
		}
		if (trylock)
			return KM_LOCK_BUSY;
	}
	/* __down(): the arithmetic and one wait-list entry, under wait.lock */
	km_time hold = sim->era.cost.atomic + sim->era.cost.cacheline;
	if (l->avail > kept) {
		l->avail--;
		struct km_ctx *next = km_waitlist_pop(&l->waiters);
		if (next) {
			km_lock_wake_retry(sim, l, next, false);
			hold += km_lock_wake_cost(sim);
		}
		*cost += km_lock_wait_lock(sim, l, hold);
		return KM_LOCK_TAKEN;
	}
	*cost += km_lock_wait_lock(sim, l, hold);
	if (ctx->lock_retry)
		km_waitlist_prepend(&l->waiters, ctx);
	else
		km_waitlist_append(&l->waiters, ctx);
	return KM_LOCK_SLEEP;
}

/*
 * down() - Context: process context; may sleep.
 * down_trylock() - Context: any.  NOTE: the kernel returns 0 on success,
 * inverted from spin_trylock and mutex_trylock; the scenario API returns
 * true on success, as the others do.
 */
static enum km_lock_result sem_acquire(struct km_sim *sim, struct km_lock *l,
				       struct km_ctx *ctx, bool trylock, km_time *cost)
{
	*cost = sim->era.cost.atomic + km_lock_line_cost(sim, l, ctx->cpu);
	if (sim->era.semaphore == KM_SEM_LEGACY)
		return legacy_down(sim, l, ctx, trylock, cost);
	if (l->avail > 0) {
		l->avail--;
		return KM_LOCK_TAKEN;
	}
	if (trylock)
		return KM_LOCK_BUSY;
	/* __down(): queue under sem->lock, then sleep */
	*cost += km_lock_wait_lock(sim, l, sim->era.cost.atomic + sim->era.cost.cacheline);
	km_waitlist_append(&l->waiters, ctx);
	return KM_LOCK_SLEEP;
}

/*
 * up() - Context: any, including interrupt handlers; the caller need not
 * have called down().
 */
static void sem_release(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx,
			km_time *cost)
{
	*cost = sim->era.cost.atomic + km_lock_line_cost(sim, l, ctx->cpu);
	struct km_ctx *w = km_waitlist_pop(&l->waiters);
	if (sim->era.semaphore == KM_SEM_LEGACY) {
		l->avail++;
		if (w) {	/* __up(): wake_up() under wait.lock */
			km_lock_wake_retry(sim, l, w, true);
			*cost += km_lock_wait_lock(sim, l, sim->era.cost.atomic +
						   km_lock_wake_cost(sim));
		}
		return;
	}
	if (w) {
		/* the unit passes directly; wake_up_process() under sem->lock */
		km_lock_grant(sim, l, w, 0);
		*cost += km_lock_wait_lock(sim, l, km_lock_wake_cost(sim));
	} else {
		l->avail++;
	}
}

static void sem_cancel(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx)
{
	km_waitlist_remove(&l->waiters, ctx);
}

const struct km_lock_ops km_sem_ops = {
	.name = "semaphore",
	.owners = KM_OWNERS_ONE_IF_BINARY,
	.acquire = sem_acquire,
	.release = sem_release,
	.cancel = sem_cancel,
};
