/*
 * lock_bkl.c - the Big Kernel Lock: one global, recursive, spinning lock
 * that its holder drops when it sleeps.
 *
 * 2.0 (June 1996) made Linux SMP by letting one CPU at a time into the
 * kernel: lock_kernel() spun on a bit, recursively through a per-task
 * depth.  From 2.2 it was a spinlock (kernel_flag) with lock_depth per
 * task, and schedule() released it when its holder slept
 * (release_kernel_lock) and took it back when that task ran again
 * (reacquire_kernel_lock) -- which is why code under the BKL could sleep,
 * and why the BKL serialised so much for so long.  It was removed in
 * 2.6.39 (commit 4ba8216cd905).
 *
 * In bkl mode every lock of the scenario is this one lock: down(A) then
 * down(B) is a recursive acquisition, and the lock_stat row "kernel_flag"
 * shows the whole contention.  Its waiters spin in the era's spinlock
 * flavour (test-and-set before 2.1.23).
 *
 * The global irq lock of SMP cli() is dropped and retaken on sleep the
 * same way; lock_cli.c owns it, and this file, which schedule() asks for
 * both (the BKL first), reaches it through its method table
 * (km_cli_ops.release_on_sleep, .reacquire).
 *
 * Where the era (or a scenario's what-if) makes the BKL a semaphore,
 * era.bkl_lock, lock_bkl_sem.c is the primitive instead, and the two
 * schedule() entry points below hand over to it.
 */
#include "lock.h"
#include "core.h"
#include "machine.h"

static void bkl_took(struct km_sim *sim, struct km_ctx *ctx, km_time waited)
{
	struct km_lock *B = sim->bkl;
	B->used = true;
	B->since = sim->now;
	km_lock_stat_acquired(B, ctx->cpu);
	if (waited >= 0)
		km_minmax_add(&B->st.wait, waited);
}

static void bkl_contended(struct km_sim *sim, struct km_ctx *ctx)
{
	struct km_lock *B = sim->bkl;
	B->used = true;
	km_lock_stat_contended(B, ctx->cpu);
	/* counted before the caller joins the spinners: + 1 */
	if (B->spinners.len + 1 > B->st.max_waiters)
		B->st.max_waiters = B->spinners.len + 1;
}

static void bkl_drop(struct km_sim *sim)
{
	struct km_lock *B = sim->bkl;
	km_minmax_add(&B->st.hold, sim->now - B->since);
	km_raw_spin_unlock(sim, B);
}

/*
 * lock_kernel() - Context: process context.  Recursive; may be held
 * across a sleep (it is dropped and retaken).
 */
static enum km_lock_result bkl_acquire(struct km_sim *sim, struct km_lock *l,
				       struct km_ctx *ctx, bool trylock, km_time *cost)
{
	struct km_lock *B = sim->bkl;
	if (B->owner == ctx) {
		ctx->bkl_depth++;
		*cost = 1;
		return KM_LOCK_TAKEN;
	}
	if (km_raw_spin_free_for_newcomer(sim, B)) {
		km_raw_spin_take(sim, B, ctx);
		ctx->bkl_depth = 1;
		bkl_took(sim, ctx, -1);
		*cost = km_lock_rmw(sim, B, ctx->cpu);
		return KM_LOCK_TAKEN;
	}
	if (trylock) {
		*cost = km_cost(sim)->atomic;
		return KM_LOCK_BUSY;
	}
	bkl_contended(sim, ctx);
	ctx->wait_since = sim->now;
	km_raw_spin_arrive(sim, B, ctx);
	km_waitlist_append(&B->spinners, ctx);
	return KM_LOCK_SPIN;
}

/* unlock_kernel() - Context: process context, by the holder. */
static void bkl_release(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx,
			km_time *cost)
{
	struct km_lock *B = sim->bkl;
	*cost = 1;
	if (!km_bkl_depth_drop(B, ctx))
		return;
	*cost = 1 + km_lock_store(sim, B, ctx->cpu);
	bkl_drop(sim);
}

static void bkl_cancel(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx)
{
	km_waitlist_remove(&sim->bkl->spinners, ctx);
}

/* The raw BKL was handed to spinner @ctx (km_lock_ops.raw_granted). */
static void bkl_granted(struct km_sim *sim, struct km_ctx *ctx, km_time delay)
{
	bkl_took(sim, ctx, sim->now + delay - ctx->wait_since);
	if (ctx->reacquiring && ctx->bkl_saved) {
		/* reacquire_kernel_lock(): back to where it slept */
		ctx->bkl_depth = ctx->bkl_saved;
		ctx->bkl_saved = 0;
		if (sim->gil->ops->reacquire(sim, ctx))
			return;
		ctx->reacquiring = false;
		ctx->act = ctx->saved_act;
		if (ctx->act == KM_ACT_SEG)
			km_ctx_run_seg(sim, ctx, ctx->seg_left + delay);
		else
			km_ctx_run_seg(sim, ctx, delay);
		return;
	}
	ctx->bkl_depth = 1;
	km_lock_grant(sim, ctx->wait_obj, ctx, delay);
}

void km_bkl_release_on_sleep(struct km_sim *sim, struct km_ctx *ctx)
{
	if (sim->era.bkl_lock != KM_BKL_SPIN)
		km_bkl_sem_release_on_sleep(sim, ctx);	/* kernel_sem: up() */
	else if (km_bkl_depth_save(sim->bkl, ctx))
		bkl_drop(sim);
	sim->gil->ops->release_on_sleep(sim, ctx);
}

bool km_bkl_reacquire(struct km_sim *sim, struct km_ctx *ctx)
{
	struct km_lock *B = sim->bkl;
	if (sim->era.bkl_lock != KM_BKL_SPIN) {	/* kernel_sem: down() */
		if (km_bkl_sem_reacquire(sim, ctx))
			return true;
		return sim->gil->ops->reacquire(sim, ctx);
	}
	if (!ctx->bkl_saved)
		return sim->gil->ops->reacquire(sim, ctx);
	if (km_raw_spin_free_for_newcomer(sim, B)) {
		km_raw_spin_take(sim, B, ctx);
		bkl_took(sim, ctx, -1);
		ctx->bkl_depth = ctx->bkl_saved;
		ctx->bkl_saved = 0;
		return sim->gil->ops->reacquire(sim, ctx);
	}
	bkl_contended(sim, ctx);
	ctx->reacquiring = true;
	ctx->saved_act = ctx->act;
	ctx->wait_since = sim->now;
	km_waitlist_append(&B->spinners, ctx);
	km_ctx_spin(sim, ctx);
	return true;
}

const struct km_lock_ops km_bkl_ops = {
	.name = "bkl",
	.lock_verb = "lock_kernel",
	.unlock_verb = "unlock_kernel",
	.owners = KM_OWNERS_NONE,
	.exit_report = true,
	.release_check = km_lock_release_check_taken,
	.acquire = bkl_acquire,
	.release = bkl_release,
	.cancel = bkl_cancel,
	.raw_granted = bkl_granted,
};
