/*
 * lock_spin.c - spinlocks, in the three flavours the kernel has had.
 *
 * A spinlock never sleeps: a waiter burns its CPU until the lock is
 * handed to it, with preemption disabled from the moment it asks
 * (spin_lock() is preempt_disable() then the arch lock).  What differs by
 * era is who gets the lock next and what the hand-off costs:
 *
 *  test-and-set (until 2.6.24): every spinner hammers the same word.  On
 *    release the line is invalidated in every spinner's cache; while it
 *    travels (cacheline x spinners) the lock is simply free, and whoever
 *    asks first -- usually the releasing CPU itself, which still has the
 *    line -- takes it.  Otherwise a random spinner wins (seeded).  That is
 *    the unfairness Nick Piggin measured on an 8-core Opteron.
 *  ticket (2.6.25, commit 314cdbefd1fd): FIFO by ticket number; the
 *    hand-off still invalidates every spinner's line: cacheline x spinners.
 *  queued (4.2, commit a33fda35e3a7): FIFO; a pending bit for the second
 *    CPU, then an MCS queue whose waiters each spin on their own node, so
 *    a hand-off touches the lock word and one node however many wait.
 *
 * The raw spinning lock under all three -- who is next, the test-and-set
 * hand-off window -- is lock_raw.c's: the BKL and the global irq lock of
 * SMP cli() spin on it too.
 */
#include "lock.h"
#include "core.h"
#include "machine.h"

/* ------------------------------------------------- spinlock (the mode) -- */

/*
 * spin_lock() - Context: any; disables preemption until spin_unlock().
 * Sleeping while holding it is "scheduling while atomic".
 */
static enum km_lock_result spin_acquire(struct km_sim *sim, struct km_lock *l,
					struct km_ctx *ctx, bool trylock, km_time *cost)
{
	ctx->preempt_count++;
	if (km_raw_spin_free_for_newcomer(sim, l)) {
		km_raw_spin_take(sim, l, ctx);
		*cost = km_lock_rmw(sim, l, ctx->cpu);
		return KM_LOCK_TAKEN;
	}
	if (trylock) {
		ctx->preempt_count--;
		*cost = km_lock_rmw(sim, l, ctx->cpu);
		return KM_LOCK_BUSY;
	}
	km_raw_spin_arrive(sim, l, ctx);
	km_waitlist_append(&l->spinners, ctx);
	return KM_LOCK_SPIN;
}

static void spin_release(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx,
			 km_time *cost)
{
	struct km_ctx *owner = l->owner ? l->owner : ctx;
	if (owner->preempt_count > 0)
		owner->preempt_count--;
	/* An unlock is a store on x86: the cost is moving the line.  The
	 * queued unlock is a plain byte store (smp_store_release()); the
	 * ticket unlock an `addb` without a lock prefix, a load and then a
	 * store of the word, priced here as the store's one request for
	 * ownership (E: priced as a load and then an upgrade it contradicts
	 * Long's measured parity with two tasks; docs/reproductions.md,
	 * qspinlock_2015, "The light side, line by line").  An MCS lock
	 * with a waiter leaves the lock word alone: its hand-off is the
	 * successor's node (km_raw_spin_unlock). */
	km_time visible = 0;
	if (km_lock_spin_flavour(sim, l) == KM_SPIN_MCS && l->spinners.len)
		*cost = 1;
	else	/* with a store buffer the CPU goes on; the spinners see
		 * the store when it has drained (cache.h km_line_store) */
		*cost = km_sat_add(1, km_line_store(sim, &l->line, ctx->cpu, sim->now,
						    &visible));
	km_raw_spin_unlock_after(sim, l, visible);
	/* preempt_enable(): a reschedule that waited for this happens now
	 * (km_op_up checks once the release segment is set up). */
	km_cpu_show(sim, &sim->cpus[ctx->cpu]);
}

/* spin_unlock() by a context that does not hold it: reported; it still
 * releases a lock that is held. */
static bool spin_release_check(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx,
			       struct km_hold **h)
{
	if (!*h) {
		km_violation(sim, KM_V_UNLOCK_NOT_HELD, ctx, l, NULL,
			     "spin_unlock(%s) by '%s', which does not hold it",
			     l->name, ctx->name);
		return l->avail == 0;
	}
	return true;
}

static void spin_cancel(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx)
{
	if (l->u.raw.q_pending && l->spinners.head == ctx)
		l->u.raw.q_pending = false;	/* the pending waiter gave up */
	km_waitlist_remove(&l->spinners, ctx);
	if (ctx->preempt_count > 0)
		ctx->preempt_count--;
}

const struct km_lock_ops km_spin_ops = {
	.name = "spinlock",
	.lock_verb = "spin_lock",
	.unlock_verb = "spin_unlock",
	.owners = KM_OWNERS_ONE,
	.irq_safety = true,
	.release_check = spin_release_check,
	.acquire = spin_acquire,
	.release = spin_release,
	.cancel = spin_cancel,
};
