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
 *
 * Costs: the semaphore's own raw spinlock (an atomic) plus a line transfer
 * when the semaphore was last touched on another CPU.
 */
#include "lock.h"
#include "core.h"

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
	/*
	 * Legacy: a unit up() woke a sleeper for is that sleeper's until it
	 * has retried -- i386 kept the count at or below zero meanwhile -- so
	 * a newcomer takes the slow path and queues behind it.  (km_lock_redo
	 * has already given the returning sleeper its own unit back.)
	 */
	int kept = sim->era.semaphore == KM_SEM_LEGACY ? (int)l->reserved : 0;
	if (l->avail > kept) {
		l->avail--;
		/*
		 * The legacy __down() ended with wake_up_locked(&sem->wait): a
		 * sleeper that got the semaphore woke the next one, which
		 * usually found it taken and slept again -- a wake-up and two
		 * context switches per contended acquisition, much of the CPU
		 * the 2005 mutex benchmarks saved.
		 */
		if (ctx->lock_retry && sim->era.semaphore == KM_SEM_LEGACY && l->waiters.head)
			km_lock_wake_retry(sim, l, km_waitlist_pop(&l->waiters), false);
		return KM_LOCK_TAKEN;
	}
	if (trylock)
		return KM_LOCK_BUSY;
	if (ctx->lock_retry)
		km_waitlist_prepend(&l->waiters, ctx);
	else
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
		if (w)
			km_lock_wake_retry(sim, l, w, true);
		return;
	}
	if (w)
		km_lock_grant(sim, l, w, 0);	/* the unit passes directly */
	else
		l->avail++;
}

static void sem_cancel(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx)
{
	km_waitlist_remove(&l->waiters, ctx);
}

const struct km_lock_ops km_sem_ops = {
	.name = "semaphore",
	.acquire = sem_acquire,
	.release = sem_release,
	.cancel = sem_cancel,
};
