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
 *  queued (4.2, commit a33fda35e3a7): FIFO, each spinner spins on its own
 *    MCS node, so a hand-off costs one line transfer.
 *
 * The BKL and the global irq lock of SMP cli() are spinning locks too and
 * use km_spin_pick_next() and the hand-off window from here.
 */
#include "lock.h"
#include "core.h"
#include "machine.h"

enum km_spin_flavour km_spin_flavour_of(const struct km_sim *sim)
{
	/* 2.0's BKL and global irq lock were plain test-and-set bits. */
	return sim->era.spinlock == KM_SPIN_NONE ? KM_SPIN_TAS : sim->era.spinlock;
}

static uint32_t raw_id(const struct km_sim *sim, const struct km_lock *l)
{
	if (l == sim->bkl)
		return KM_BKL_ID;
	if (l == sim->gil)
		return KM_GIL_ID;
	return l->id;
}

struct km_ctx *km_spin_pick_next(struct km_sim *sim, struct km_lock *l, km_time *delay)
{
	uint32_t n = l->spinners.len;
	if (!n)
		return NULL;
	switch (km_spin_flavour_of(sim)) {
	case KM_SPIN_QUEUED:
		*delay = km_cost(sim)->cacheline;
		return km_waitlist_pop(&l->spinners);
	case KM_SPIN_TICKET:
		*delay = km_cost(sim)->cacheline * (km_time)n;
		return km_waitlist_pop(&l->spinners);
	default: {
		/* test-and-set: any spinner, by the run's generator */
		int64_t k = km_rng_range(&sim->rng, 0, (int64_t)n - 1);
		struct km_ctx *c = l->spinners.head;
		while (k--)
			c = c->wnext;
		km_waitlist_remove(&l->spinners, c);
		*delay = 0;
		return c;
	}
	}
}

/* Only test-and-set has a window in which the lock is free for anyone. */
static bool tas(const struct km_sim *sim)
{
	return km_spin_flavour_of(sim) == KM_SPIN_TAS;
}

/*
 * open_window - test-and-set release with spinners waiting: the
 * lock stays free while the line travels; the first to ask takes it,
 * else a random spinner when the window closes.
 */
static void open_window(struct km_sim *sim, struct km_lock *l)
{
	l->window_open = true;
	l->token++;
	km_time t = km_cost(sim)->cacheline * (km_time)l->spinners.len;
	km_push(sim, sim->now + t, KM_EV_HANDOFF, raw_id(sim, l), l->token);
}

/* Grant functions of the three spinning-lock users. */

static void spin_give(struct km_sim *sim, struct km_lock *l, struct km_ctx *next,
		      km_time delay)
{
	l->avail = 0;
	l->owner = next;
	if (l->ops && l->ops->raw_granted)
		l->ops->raw_granted(sim, next, delay);
	else
		km_lock_grant(sim, next->wait_obj, next, delay);
}

void km_spin_window_close(struct km_sim *sim, struct km_lock *l, uint64_t token)
{
	if (token != l->token || !l->window_open)
		return;
	l->window_open = false;
	if (l == sim->gil) {
		km_gil_hand_off(sim);
		return;
	}
	if (l->avail <= 0)
		return;
	km_time delay = 0;
	struct km_ctx *next = km_spin_pick_next(sim, l, &delay);
	if (next)
		spin_give(sim, l, next, delay);
}

/*
 * km_raw_spin_unlock - release a raw spinning lock and pass it on.
 * Context: any.
 */
void km_raw_spin_unlock(struct km_sim *sim, struct km_lock *l)
{
	l->owner = NULL;
	l->avail = 1;
	if (!l->spinners.len)
		return;
	if (tas(sim)) {
		open_window(sim, l);
		return;
	}
	km_time delay = 0;
	struct km_ctx *next = km_spin_pick_next(sim, l, &delay);
	spin_give(sim, l, next, delay);
}

/* May a newcomer take @l right now? */
bool km_raw_spin_free_for_newcomer(const struct km_sim *sim, const struct km_lock *l)
{
	if (l->avail <= 0)
		return false;
	return tas(sim) || l->spinners.len == 0;
}

/* A newcomer takes @l (test-and-set: closes any open window). */
void km_raw_spin_take(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx)
{
	l->avail = 0;
	l->owner = ctx;
	if (l->window_open) {
		l->window_open = false;
		l->token++;
	}
}

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
		*cost = km_cost(sim)->atomic + km_lock_line_cost(sim, l, ctx->cpu);
		return KM_LOCK_TAKEN;
	}
	if (trylock) {
		ctx->preempt_count--;
		*cost = km_cost(sim)->atomic + km_lock_line_cost(sim, l, ctx->cpu);
		return KM_LOCK_BUSY;
	}
	km_waitlist_append(&l->spinners, ctx);
	return KM_LOCK_SPIN;
}

static void spin_release(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx,
			 km_time *cost)
{
	struct km_ctx *owner = l->owner ? l->owner : ctx;
	if (owner->preempt_count > 0)
		owner->preempt_count--;
	/* An unlock is a plain store on x86: the cost is moving the line. */
	*cost = 1 + km_lock_line_cost(sim, l, ctx->cpu);
	km_raw_spin_unlock(sim, l);
	/* preempt_enable(): a reschedule that waited for this happens now
	 * (km_op_up checks once the release segment is set up). */
	km_cpu_show(sim, &sim->cpus[ctx->cpu]);
}

static void spin_cancel(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx)
{
	km_waitlist_remove(&l->spinners, ctx);
	if (ctx->preempt_count > 0)
		ctx->preempt_count--;
}

const struct km_lock_ops km_spin_ops = {
	.name = "spinlock",
	.lock_verb = "spin_lock",
	.unlock_verb = "spin_unlock",
	.owners = KM_OWNERS_ONE,
	.acquire = spin_acquire,
	.release = spin_release,
	.cancel = spin_cancel,
};
