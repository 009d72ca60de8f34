/*
 * lock_raw.c - the raw spinning lock under the spinlock mode, the BKL and
 * the global irq lock of SMP cli(): who gets it next, and what the
 * hand-off costs, in the era's flavour (lock_spin.c tells the story).
 *
 * Test-and-set opens a window on release: the lock is free while its
 * line travels to the spinners, the first to ask takes it, and when the
 * window closes (KM_EV_HANDOFF) a spinner drawn by the run's generator
 * does.  Ticket and queued locks hand it to the first spinner.  Whoever
 * gets it is handed it through its primitive's table (raw_granted), or
 * granted the lock it waits for.
 *
 * On the locks floor, below the primitives that spin: it knows no
 * primitive, only the method table.
 */
#include "lock.h"
#include "core.h"
#include "machine.h"

enum km_spin_flavour km_spin_flavour_of(const struct km_sim *sim)
{
	/* 2.0's BKL and global irq lock were plain test-and-set bits. */
	return sim->era.spinlock == KM_SPIN_NONE ? KM_SPIN_TAS : sim->era.spinlock;
}

enum km_spin_flavour km_lock_spin_flavour(const struct km_sim *sim, const struct km_lock *l)
{
	return l->spin > KM_SPIN_NONE && l->spin <= KM_SPIN_QUEUED ?
		(enum km_spin_flavour)l->spin : km_spin_flavour_of(sim);
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
	switch (km_lock_spin_flavour(sim, l)) {
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
static bool tas(const struct km_sim *sim, const struct km_lock *l)
{
	return km_lock_spin_flavour(sim, l) == KM_SPIN_TAS;
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
	if (l->ops && l->ops->window_closed) {
		l->ops->window_closed(sim, l);	/* the global irq lock's */
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
	if (tas(sim, l)) {
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
	return tas(sim, l) || l->spinners.len == 0;
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
