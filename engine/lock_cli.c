/*
 * lock_cli.c - cli()/sti() as a lock, and SMP's global irq lock.
 *
 * On one CPU, a non-preemptive kernel with interrupts off is alone: cli()
 * excludes every other path, which is how 0.01 protected everything.
 * In cli mode, down(l) disables interrupts on the caller's CPU (nesting,
 * like local_irq_save) and up(l) restores them.
 *
 * On SMP kernels 2.0 to 2.5.27, cli() meant more: __global_cli() disabled
 * local interrupts, took global_irq_lock (a spinning bit; recursive on the
 * same CPU) and waited until no other CPU was running an interrupt
 * handler; a handler arriving on another CPU meanwhile spun in irq_enter()
 * until the lock was free.  2.5.28 removed it (Documentation/
 * cli-sti-removal.txt): only local_irq_* remain, and on SMP they exclude
 * nothing on the other CPUs -- the races this mode then shows are real.
 *
 * A task that sleeps holding the global irq lock drops it and takes it
 * back when it runs (schedule() did release_irqlock()); its own interrupt
 * flag is part of its context, as 0.01's schedule() saved EFLAGS.
 */
#include "lock.h"
#include "core.h"
#include "machine.h"

static bool gil_active(const struct km_sim *sim)
{
	return sim->era.global_cli && sim->ncpus > 1;
}

/* Handlers running on CPUs other than @cpu (past irq_enter). */
static int handlers_elsewhere(const struct km_sim *sim, int cpu)
{
	int n = 0;
	for (int i = 0; i < sim->ncpus; i++) {
		const struct km_ctx *t = sim->cpus[i].irq_top;
		if (i != cpu && t && !t->spin_irq_entry)
			n++;
	}
	return n;
}

static void irqoff_inc(struct km_sim *sim, struct km_ctx *ctx)
{
	if (ctx->irqoff++ == 0)
		km_cpu_irqoff_update(sim, &sim->cpus[ctx->cpu]);
}

static void irqoff_dec(struct km_sim *sim, struct km_ctx *ctx)
{
	if (ctx->irqoff > 0 && --ctx->irqoff == 0)
		km_cpu_irqoff_update(sim, &sim->cpus[ctx->cpu]);
}

static void gil_took(struct km_sim *sim, struct km_ctx *ctx)
{
	struct km_lock *G = sim->gil;
	G->used = true;
	G->since = sim->now;
	km_lock_stat_acquired(G, ctx->cpu);
}

/*
 * cli() in cli mode - Context: any.  On SMP eras with a global cli, may
 * spin for the global irq lock.
 */
static enum km_lock_result cli_acquire(struct km_sim *sim, struct km_lock *l,
				       struct km_ctx *ctx, bool trylock, km_time *cost)
{
	struct km_lock *G = sim->gil;
	*cost = km_cost(sim)->cli;
	irqoff_inc(sim, ctx);
	if (!gil_active(sim) || ctx->kind == KM_CTX_IRQ)
		return KM_LOCK_TAKEN;	/* a handler already excludes cli() holders */
	if (G->owner == ctx) {
		ctx->gil_depth++;
		return KM_LOCK_TAKEN;
	}
	if (km_raw_spin_free_for_newcomer(sim, G) && !handlers_elsewhere(sim, ctx->cpu)) {
		km_raw_spin_take(sim, G, ctx);
		ctx->gil_depth = 1;
		gil_took(sim, ctx);
		*cost += km_lock_rmw(sim, G, ctx->cpu);
		return KM_LOCK_TAKEN;
	}
	if (trylock) {
		irqoff_dec(sim, ctx);
		return KM_LOCK_BUSY;
	}
	G->used = true;
	G->st.contentions++;
	ctx->wait_since = sim->now;
	km_waitlist_append(&G->spinners, ctx);
	if (G->spinners.len > G->st.max_waiters)
		G->st.max_waiters = G->spinners.len;
	return KM_LOCK_SPIN;
}

static void gil_hand_off(struct km_sim *sim);

static void gil_drop(struct km_sim *sim)
{
	struct km_lock *G = sim->gil;
	km_minmax_add(&G->st.hold, sim->now - G->since);
	G->owner = NULL;
	G->avail = 1;
	gil_hand_off(sim);
}

/* sti() in cli mode - Context: any. */
static void cli_release(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx,
			km_time *cost)
{
	struct km_lock *G = sim->gil;
	*cost = km_cost(sim)->cli;
	if (gil_active(sim) && G->owner == ctx && --ctx->gil_depth == 0)
		gil_drop(sim);
	irqoff_dec(sim, ctx);
}

static void cli_cancel(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx)
{
	km_waitlist_remove(&sim->gil->spinners, ctx);
	irqoff_dec(sim, ctx);
}

/*
 * gil_hand_off - the global irq lock is free: let the handlers waiting
 * in irq_enter() in, then give it to the first task spinning in cli() --
 * but only once no handler runs anywhere else.
 */
static void gil_hand_off(struct km_sim *sim)
{
	struct km_lock *G = sim->gil;
	if (G->avail <= 0)
		return;
	struct km_ctx *c = G->spinners.head;
	while (c) {
		struct km_ctx *next = c->wnext;
		if (c->spin_irq_entry) {
			km_waitlist_remove(&G->spinners, c);
			c->spin_irq_entry = false;
			sim->irqs_running++;
			km_ctx_run_seg(sim, c, km_cost(sim)->irq_entry);
		}
		c = next;
	}
	for (c = G->spinners.head; c; c = c->wnext) {
		if (handlers_elsewhere(sim, c->cpu))
			continue;
		km_waitlist_remove(&G->spinners, c);
		km_raw_spin_take(sim, G, c);
		gil_took(sim, c);
		km_minmax_add(&G->st.wait, sim->now - c->wait_since);
		km_time delay = km_lock_rmw(sim, G, c->cpu);	/* its test_and_set_bit() */
		if (c->reacquiring && c->gil_saved) {
			c->gil_depth = c->gil_saved;
			c->gil_saved = 0;
			c->reacquiring = false;
			c->act = c->saved_act;
			km_ctx_run_seg(sim, c, (c->act == KM_ACT_SEG ? c->seg_left : 0) + delay);
		} else {
			c->gil_depth = 1;
			km_lock_grant(sim, c->wait_obj, c, delay);
		}
		return;
	}
}

bool km_gil_irq_may_enter(struct km_sim *sim, struct km_ctx *irqctx)
{
	struct km_lock *G = sim->gil;
	if (!gil_active(sim) || G->avail > 0 || (G->owner && G->owner->cpu == irqctx->cpu))
		return true;
	irqctx->spin_irq_entry = true;
	irqctx->act = KM_ACT_SPIN;
	km_waitlist_append(&G->spinners, irqctx);
	return false;
}

void km_gil_irq_exited(struct km_sim *sim)
{
	if (gil_active(sim) && sim->gil->avail > 0 && sim->gil->spinners.len)
		gil_hand_off(sim);
}

static void gil_release_on_sleep(struct km_sim *sim, struct km_ctx *ctx)
{
	if (sim->gil->owner == ctx && ctx->gil_depth > 0) {
		ctx->gil_saved = ctx->gil_depth;
		ctx->gil_depth = 0;
		gil_drop(sim);
	}
}

static bool gil_reacquire(struct km_sim *sim, struct km_ctx *ctx)
{
	struct km_lock *G = sim->gil;
	if (!ctx->gil_saved)
		return false;
	if (km_raw_spin_free_for_newcomer(sim, G) && !handlers_elsewhere(sim, ctx->cpu)) {
		km_raw_spin_take(sim, G, ctx);
		gil_took(sim, ctx);
		ctx->gil_depth = ctx->gil_saved;
		ctx->gil_saved = 0;
		return false;
	}
	if (!ctx->reacquiring) {
		ctx->reacquiring = true;
		ctx->saved_act = ctx->act;
	}
	ctx->wait_since = sim->now;
	G->st.contentions++;
	km_waitlist_append(&G->spinners, ctx);
	km_ctx_spin(sim, ctx);
	return true;
}

/* The global irq lock's test-and-set window closed: hand it off. */
static void gil_window_closed(struct km_sim *sim, struct km_lock *l)
{
	gil_hand_off(sim);
}

const struct km_lock_ops km_cli_ops = {
	.name = "cli",
	.lock_verb = "cli",
	.unlock_verb = "sti",
	.owners = KM_OWNERS_NONE,
	.release_check = km_lock_release_check_taken,
	.acquire = cli_acquire,
	.release = cli_release,
	.cancel = cli_cancel,
	/* for the global irq lock (sim->gil), whose table this is */
	.window_closed = gil_window_closed,
	.release_on_sleep = gil_release_on_sleep,
	.reacquire = gil_reacquire,
};
