/*
 * lock_sem.c - the counting semaphore, as the kernel had it in two eras.
 *
 * down() takes a unit if there is one, else sleeps; up() may be called
 * from any context -- an interrupt handler, or a task that never called
 * down() -- which is exactly why some binary semaphores could never become
 * mutexes.
 *
 * Generic (2.6.26, commit 64ac24e73882, kernel/semaphore.c): a count of
 * free units and a FIFO list of sleepers under sem->lock.  If anyone
 * sleeps, up() gives the unit straight to the first waiter and does not
 * increment the count, so a newcomer can never take it first.
 *
 * Legacy (every architecture's own, before 2.6.26; here i386's
 * arch/i386/kernel/semaphore.c of 2.6.11, the same text as
 * lib/semaphore-sleepers.c of 2.6.16), followed decision by decision:
 *
 *  - down() is "lock; decl count" and enters __down() only if the count
 *    went negative; up() is "lock; incl count" and calls __up() only if it
 *    is still zero or below.  __up() is a plain wake_up(&sem->wait).
 *  - __down() queues itself exclusively at the tail of sem->wait, bumps
 *    sem->sleepers and loops under wait.lock: it adds "everybody else"
 *    (sleepers - 1) back into the count; if the count is then not
 *    negative it owns the semaphore (sleepers = 0), else sleepers = 1 and
 *    it sleeps, to retry when woken.  On its way out, still under
 *    wait.lock, it calls wake_up_locked(&sem->wait).
 *  - An exclusive wake-up wakes the first waiter whose try_to_wake_up()
 *    succeeds.  A waiter woken and not yet run is still on the queue and
 *    is skipped, so every further up() or slow-path acquisition wakes a
 *    fresh sleeper while the earlier ones are on their way.
 *
 * Nothing keeps a unit for the woken sleeper: a task that reaches down()
 * after an up() and before the sleeper runs takes the count (a steal),
 * and wakes one more sleeper as it leaves __down(); the sleepers that
 * arrive find it taken and go back to sleep.  That is the "wake-one logic
 * totally falls apart" of Ingo Molnar's explanation in December 2005, and
 * Linus Torvalds' "they wake up two at a time" (docs/sources.md, [MOL05]).
 * lock.c counts it: wake-ups, lost wake-ups, steals.
 *
 * down_trylock() failing goes through __down_trylock(), which puts the
 * sleepers back into the count and wakes one if that made it non-negative.
 * A down_timeout() that expires leaves as __down_interruptible() does on a
 * signal: the count gets the sleepers back, and it wakes the next one.
 * (The legacy semaphore had no down_timeout(); that path is its nearest.)
 *
 * Costs: the count's atomic plus a line transfer when the semaphore was
 * last touched on another CPU.  The slow paths run under the wait queue's
 * spinlock (i386's sem->wait.lock, the generic sem->lock), one holder at a
 * time (km_lock_wait_lock), with interrupts off: each section costs an
 * atomic and a line of the queue, and every wake-up done inside it --
 * up()'s, __down()'s trailing one -- adds the waker's try_to_wake_up()
 * and reschedule IPI (km_lock_wake_cost).  Who finds the spinlock held
 * spins; a task going to sleep pays all this on its CPU before the switch.
 * In the legacy semaphore the decisions made under wait.lock -- a retry's
 * arithmetic, whom __up() wakes -- are made when the spinner gets it
 * (KM_LOCK_WAIT_LOCK), not when it started to spin: down() and up() take
 * and give the count on their fast paths meanwhile, without the lock, and
 * a sleeper spinning for it can find its unit gone.
 *
 * l->avail is the count: units free, or minus the tasks in down() beyond
 * them (legacy; the generic count never goes below zero).
 */
#include "lock.h"
#include "core.h"
#include "machine.h"

/* wake_up() on the exclusive queue: the first waiter not already woken.
 * Returns what the wake-up costs the waker on @waker_cpu (0: nobody). */
static km_time legacy_wake_one(struct km_sim *sim, struct km_lock *l, int waker_cpu)
{
	struct km_ctx *w = l->waiters.head;
	km_time probed = 0;
	/* try_to_wake_up() of each woken waiter not yet run: its run-queue
	 * lock taken, TASK_RUNNING found, 0 returned, the scan goes on */
	while (w && w->wq_woken) {
		probed += km_lock_probe_cost(sim, l, waker_cpu, w, probed);
		w = w->wnext;
	}
	if (!w)
		return probed;
	km_time cost = probed + km_lock_wake_cost_after(sim, l, waker_cpu, w, probed);
	w->wq_woken = true;
	km_lock_wake_retry(sim, l, w, false);
	return cost;
}

/*
 * The legacy down(), and a woken sleeper's retry: the loop of __down().
 * A retrying sleeper is still on the queue (it never left it), and the
 * count already has its decrement.
 */
static enum km_lock_result legacy_down(struct km_sim *sim, struct km_lock *l,
				       struct km_ctx *ctx, bool trylock, km_time *cost)
{
	km_time hold = km_lock_wait_list_lines(sim, l, ctx->cpu, l->waiters.tail);
	if (!ctx->lock_retry && !ctx->wl_spun) {
		if (--l->avail >= 0)		/* lock; decl; js */
			return KM_LOCK_TAKEN;
	}
	/* spin_lock_irqsave(&sem->wait.lock): everything below happens when
	 * this CPU has it, and the count may have moved meanwhile */
	if (l->wait_lock_free > sim->now) {
		*cost += km_lock_wait_lock_spin(sim, l);
		return KM_LOCK_WAIT_LOCK;
	}
	if (ctx->lock_retry) {
		ctx->wq_woken = false;
	} else {
		if (trylock) {
			/* __down_trylock(): give back ours and the sleepers' */
			l->avail += l->u.sem.sleepers + 1;
			l->u.sem.sleepers = 0;
			if (l->avail >= 0)
				hold += legacy_wake_one(sim, l, ctx->cpu);
			*cost += km_lock_wait_lock(sim, l, hold);
			return KM_LOCK_BUSY;
		}
		km_waitlist_append(&l->waiters, ctx);	/* exclusive, at the tail */
		l->u.sem.sleepers++;
	}
	/* "add everybody else into it" */
	l->avail += l->u.sem.sleepers - 1;
	if (l->avail >= 0) {
		l->u.sem.sleepers = 0;
		km_waitlist_remove(&l->waiters, ctx);
		hold += legacy_wake_one(sim, l, ctx->cpu);	/* wake_up_locked() */
		*cost += km_lock_wait_lock(sim, l, hold);
		return KM_LOCK_TAKEN;
	}
	l->u.sem.sleepers = 1;			/* us: see the -1 above */
	*cost += km_lock_wait_lock(sim, l, hold);
	return KM_LOCK_SLEEP;
}

/* __down_interruptible()'s way out on a signal, under wait.lock: the
 * count gets the sleepers back, and the next sleeper is woken. */
static void legacy_leave(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx)
{
	ctx->wq_woken = false;
	km_waitlist_remove(&l->waiters, ctx);
	l->avail += l->u.sem.sleepers;
	l->u.sem.sleepers = 0;
	km_lock_wait_lock(sim, l, km_lock_wait_list_lines(sim, l, ctx->cpu, ctx->wnext) +
			  legacy_wake_one(sim, l, ctx->cpu));
}

/* __up(): wake_up(&sem->wait), which takes wait.lock first; whom it
 * wakes is decided when this CPU has it. */
static void legacy_up_locked(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx,
			     km_time *cost)
{
	if (l->wait_lock_free > sim->now) {
		*cost += km_lock_wait_lock_spin(sim, l);
		km_lock_spin_for_wait_lock(l, ctx, KM_WL_RELEASE);
		return;
	}
	*cost += km_lock_wait_lock(sim, l, km_cost(sim)->atomic +
				   legacy_wake_one(sim, l, ctx->cpu));
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
	*cost = km_lock_rmw(sim, l, ctx->cpu);
	if (sim->era.semaphore == KM_SEM_LEGACY)
		return legacy_down(sim, l, ctx, trylock, cost);
	if (l->avail > 0) {
		l->avail--;
		return KM_LOCK_TAKEN;
	}
	if (trylock)
		return KM_LOCK_BUSY;
	/* __down(): queue under sem->lock, then sleep */
	*cost += km_lock_wait_lock(sim, l, km_lock_wait_list_lines(sim, l, ctx->cpu,
								    l->waiters.tail));
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
	*cost = km_lock_rmw(sim, l, ctx->cpu);
	if (sim->era.semaphore == KM_SEM_LEGACY) {
		if (++l->avail <= 0)		/* lock; incl; jle: __up() */
			legacy_up_locked(sim, l, ctx, cost);
		return;
	}
	struct km_ctx *w = km_waitlist_pop(&l->waiters);
	if (w) {
		/* the unit passes directly; wake_up_process() under sem->lock */
		km_time wake = km_lock_wake_cost(sim, l, ctx->cpu, w);
		km_lock_grant(sim, l, w, 0);
		*cost += km_lock_wait_lock(sim, l, wake);
	} else {
		l->avail++;
	}
}

/* A sleeper's timeout: it leaves the queue (legacy: with the arithmetic
 * of a signal, see the top of the file). */
static void sem_cancel(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx)
{
	if (sim->era.semaphore == KM_SEM_LEGACY)
		legacy_leave(sim, l, ctx);
	else
		km_waitlist_remove(&l->waiters, ctx);
}

/* A woken sleeper's retry came after its deadline: it leaves too. */
static void sem_give_up(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx)
{
	if (sim->era.semaphore == KM_SEM_LEGACY)
		legacy_leave(sim, l, ctx);
}

const struct km_lock_ops km_sem_ops = {
	.name = "semaphore",
	.lock_verb = "down",
	.unlock_verb = "up",
	.owners = KM_OWNERS_ONE_IF_BINARY,
	.counting = true,
	/* no release_check: up() is legal from anyone, irq included */
	.acquire = sem_acquire,
	.release = sem_release,
	.release_locked = legacy_up_locked,
	.cancel = sem_cancel,
	.give_up = sem_give_up,
};
