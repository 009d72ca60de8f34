/*
 * lock.c - what every primitive shares: down()/up() around the method
 * table, lock_stat accounting, holders, timeouts, context checks.
 *
 * See lock.h for the protocol with the primitives.  The order of work in
 * down() mirrors the kernel's: might_sleep-style context checks first,
 * then the primitive's fast path, then (contended) the bookkeeping of a
 * waiter -- counted once per down() even when the waiter is woken and
 * has to try again, as lock_stat counts contentions.
 */
#include "lock.h"
#include "core.h"
#include "machine.h"

#include <stdlib.h>
#include <string.h>

/* --------------------------------------------------------------- holds -- */

/* Chunks of 8 holds, then twice the last, up to 256: a small scenario
 * holds a few locks at a time, and its explorer copies the whole heap
 * at every snapshot (cli/snapshot.h) -- a first chunk of 256 was a sixth
 * of it. */
static int hold_pool_grow(struct km_sim *sim)
{
	uint32_t n = sim->hold_chunks.n;
	int chunk_n = n >= 5 ? 256 : 8 << n;
	struct km_hold *chunk = calloc((size_t)chunk_n, sizeof(*chunk));
	if (!chunk || KM_VEC_PUSH(sim->hold_chunks, chunk) < 0) {
		free(chunk);
		return KM_ENOMEM;
	}
	for (int i = 0; i < chunk_n; i++) {
		chunk[i].cnext = sim->free_hold;
		sim->free_hold = &chunk[i];
	}
	return KM_OK;
}

static inline struct km_hold *hold_add(struct km_sim *sim, struct km_lock *l,
				       struct km_ctx *ctx, km_time since)
{
	if (!sim->free_hold && hold_pool_grow(sim) < 0) {
		km_fail(sim, KM_ENOMEM, "out of memory recording a lock holder");
		return NULL;
	}
	struct km_hold *h = sim->free_hold;
	sim->free_hold = h->cnext;
	*h = (struct km_hold){ .lock = l, .ctx = ctx, .since = since, .cpu = ctx->cpu };
	/* lock's list: oldest first */
	h->lprev = l->holders_tail;
	if (l->holders_tail)
		l->holders_tail->lnext = h;
	else
		l->holders = h;
	l->holders_tail = h;
	l->nholders++;
	/* context's list: newest first */
	h->cnext = ctx->held;
	if (ctx->held)
		ctx->held->cprev = h;
	ctx->held = h;
	ctx->nheld++;
	return h;
}

static inline void hold_remove(struct km_sim *sim, struct km_hold *h)
{
	struct km_lock *l = h->lock;
	struct km_ctx *ctx = h->ctx;
	if (h->lprev)
		h->lprev->lnext = h->lnext;
	else
		l->holders = h->lnext;
	if (h->lnext)
		h->lnext->lprev = h->lprev;
	else
		l->holders_tail = h->lprev;
	l->nholders--;
	if (h->cprev)
		h->cprev->cnext = h->cnext;
	else
		ctx->held = h->cnext;
	if (h->cnext)
		h->cnext->cprev = h->cprev;
	ctx->nheld--;
	h->cnext = sim->free_hold;
	sim->free_hold = h;
}

/* ---------------------------------------------------------- accounting -- */

km_time km_lock_store(struct km_sim *sim, struct km_lock *l, int cpu)
{
	return km_line_write(sim, &l->line, cpu, sim->now);
}

km_time km_lock_wait_list_lines(struct km_sim *sim, struct km_lock *l, int cpu,
				const struct km_ctx *neighbour)
{
	km_time c = km_line_rmw(sim, &l->line, cpu, sim->now);
	if (neighbour && neighbour->cpu >= 0 && neighbour->cpu < sim->ncpus)
		c = km_sat_add(c, km_cpu_distance_cost(sim, neighbour->cpu, cpu));
	return c;
}

/* When a CPU asking now gets @l's wait-list lock. */
static km_time wait_lock_start(const struct km_sim *sim, const struct km_lock *l)
{
	return l->wait_lock_free > sim->now ? l->wait_lock_free : sim->now;
}

km_time km_lock_wait_lock(struct km_sim *sim, struct km_lock *l, km_time hold)
{
	km_time start = wait_lock_start(sim, l);
	l->wait_lock_free = km_sat_add(start, hold);
	sim->wait_lock_spin = km_sat_add(sim->wait_lock_spin, start - sim->now);
	return km_sat_add(start - sim->now, hold);
}

km_time km_lock_wait_lock_spin(struct km_sim *sim, const struct km_lock *l)
{
	km_time spin = wait_lock_start(sim, l) - sim->now;
	sim->wait_lock_spin = km_sat_add(sim->wait_lock_spin, spin);
	return spin;
}

/* What a primitive's call spun for a wait-list lock is shown as spin at
 * the start of @ctx's next segment, or of its tail before it sleeps.  A
 * call that charges nobody (a cancelled wait) leaves nothing behind. */
static void wait_lock_spin_charge(struct km_sim *sim, struct km_ctx *ctx)
{
	km_cpu_spin_for(sim, ctx, sim->wait_lock_spin);
	sim->wait_lock_spin = 0;
}

km_time km_lock_probe_cost(struct km_sim *sim, const struct km_lock *l, int waker_cpu,
			   const struct km_ctx *wakee, km_time after)
{
	return km_wake_probe_cost(sim, waker_cpu, wakee, km_sat_add(wait_lock_start(sim, l), after));
}

/* The waker gets to try_to_wake_up() @after it holds @l's wait-list lock. */
km_time km_lock_wake_cost_after(struct km_sim *sim, const struct km_lock *l, int waker_cpu,
				struct km_ctx *wakee, km_time after)
{
	return km_wake_cost(sim, waker_cpu, wakee, km_sat_add(wait_lock_start(sim, l), after));
}

km_time km_lock_wake_cost(struct km_sim *sim, const struct km_lock *l, int waker_cpu,
			  struct km_ctx *wakee)
{
	return km_lock_wake_cost_after(sim, l, waker_cpu, wakee, 0);
}

/*
 * Did mutual exclusion just fail, as locktorture would notice?  For locks
 * with one owner, a second holder is enough.  cli() and the BKL may be
 * "held" by a task asleep (its flag or depth saved), so for them it takes
 * two holders running at once -- on two CPUs after 2.5.28, for cli().
 */
static bool exclusion_broken(const struct km_lock *l)
{
	if (l->ops->owners != KM_OWNERS_NONE)
		return km_lock_one_owner(l);
	int running = 0;
	for (const struct km_hold *h = l->holders; h; h = h->lnext)
		running += h->ctx->state == KM_CTX_ONCPU;
	return running > 1;
}

void km_lock_stat_acquired(struct km_lock *l, int cpu)
{
	l->st.acquisitions++;
	if (l->acq_cpu >= 0 && l->acq_cpu != cpu)
		l->st.acq_bounces++;
	l->acq_cpu = cpu;
}

void km_lock_stat_contended(struct km_lock *l, int cpu)
{
	l->st.contentions++;
	if (l->acq_cpu >= 0 && l->acq_cpu != cpu)
		l->st.con_bounces++;
}

static inline void note_acquired(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx,
			  km_time waited, km_time since)
{
	if (!ctx->contended)
		waited = 0;
	km_lock_stat_acquired(l, ctx->cpu);
	if (ctx->contended) {
		km_minmax_add(&l->st.wait, waited);
		ctx->contended = false;
	}
	ctx->acquisitions++;
	if (ctx->kind == KM_CTX_TASK && km_counts_add(&l->st.by_task, ctx->id, 1) < 0)
		km_fail(sim, KM_ENOMEM, "out of memory counting acquisitions");
	hold_add(sim, l, ctx, since);
	if ((uint32_t)l->nholders > l->st.max_holders)
		l->st.max_holders = (uint32_t)l->nholders;
	if (l->nholders > 1 && !l->st.exclusion_broken)
		l->st.exclusion_broken = exclusion_broken(l);
	km_emit(sim, KM_TR_ACQUIRE, ctx->cpu, ctx, l->id, 0, waited);
}

static void note_contended(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx)
{
	l->nwaiting++;
	if (l->nwaiting > l->st.max_waiters)
		l->st.max_waiters = l->nwaiting;
	if (ctx->contended)
		return;		/* a retry: already counted */
	ctx->contended = true;
	ctx->wait_since = sim->now;
	km_lock_stat_contended(l, ctx->cpu);
	km_emit(sim, KM_TR_CONTEND, ctx->cpu, ctx, l->id, l->nwaiting, 0);
}

/* ---------------------------------------------------------------- down -- */

static int acquire(struct km_sim *sim, struct km_ctx *ctx, struct km_lock *l,
		   km_time deadline, bool trylock)
{
	if (ctx->nheld >= KM_MAX_LOCK_DEPTH)
		return km_fail(sim, KM_EDEPTH, "'%s' holds %d locks at once, the most "
			       "lockdep allows (MAX_LOCK_DEPTH)", ctx->name, ctx->nheld);
	l->used = true;
	if (l->ops->acquire_check)
		l->ops->acquire_check(sim, l, ctx, trylock);

	bool spun = ctx->wl_spun != KM_WL_NONE;
	if (!ctx->lock_retry && !spun)
		sim->hooks->lockdep_acquire(sim, ctx, l, trylock);
	km_time cost = 0;
	sim->wait_lock_spin = 0;
	enum km_lock_result r = l->ops->acquire(sim, l, ctx, trylock, &cost);
	wait_lock_spin_charge(sim, ctx);
	if (spun && r != KM_LOCK_WAIT_LOCK)
		ctx->wl_spun = KM_WL_NONE;
	switch (r) {
	case KM_LOCK_WAIT_LOCK:
		/* spin_lock_irqsave(&wait.lock) found it held: the primitive's
		 * section, and the decision in it, come when this CPU has it */
		if (ctx->lock_retry)
			l->inflight++;	/* still on its way: a steal meanwhile counts */
		ctx->wl_trylock = trylock;
		ctx->wl_deadline = deadline;
		km_lock_spin_for_wait_lock(l, ctx, spun ? ctx->wl_spun :
					   ctx->lock_retry ? KM_WL_RETRY : KM_WL_ENTER);
		km_ctx_run_seg(sim, ctx, cost);
		return KM_STEP_WAIT;
	case KM_LOCK_TAKEN:
		if (!ctx->lock_retry && l->inflight)
			l->st.steals++;	/* past a woken waiter on its way */
		note_acquired(sim, l, ctx, sim->now - ctx->wait_since, sim->now + cost);
		ctx->result = 1;
		km_ctx_run_seg(sim, ctx, cost);
		return KM_STEP_WAIT;
	case KM_LOCK_BUSY:
		km_emit(sim, KM_TR_TRYFAIL, ctx->cpu, ctx, l->id, 0, 0);
		ctx->result = 0;
		km_ctx_run_seg(sim, ctx, cost);
		return KM_STEP_WAIT;
	case KM_LOCK_SPIN:
	case KM_LOCK_SLEEP:
		break;
	}

	if (ctx->lock_retry && r == KM_LOCK_SLEEP)
		l->st.wake_lost++;	/* woken, retried, and back to sleep */
	note_contended(sim, l, ctx);
	ctx->wait = KM_WAIT_LOCK;
	ctx->wait_obj = l;
	if (deadline != KM_TIME_NEVER)
		km_ctx_arm_timeout(sim, ctx, deadline);
	if (r == KM_LOCK_SLEEP && km_in_irq(ctx)) {
		km_violation(sim, KM_V_SLEEP_IN_ATOMIC, ctx, l, NULL,
			     "down(%s) would sleep in interrupt context (irq '%s'); "
			     "it busy-waits instead", l->name, ctx->name);
		r = KM_LOCK_SPIN;
	} else if (r == KM_LOCK_SLEEP && km_ctx_atomic(sim, ctx)) {
		km_violation(sim, KM_V_SLEEP_IN_ATOMIC, ctx, l, NULL,
			     "'%s' sleeps in down(%s) while atomic (%s)", ctx->name,
			     l->name, ctx->preempt_count ? "a spinlock is held" :
			     "interrupts are off");
	}
	if (r == KM_LOCK_SPIN)
		km_ctx_spin(sim, ctx);
	else	/* what the attempt cost is spent before the switch */
		km_ctx_block_after(sim, ctx, KM_WAIT_LOCK, l, cost);
	return KM_STEP_WAIT;
}

int km_op_down(struct km_sim *sim, struct km_ctx *ctx, struct km_lock *l)
{
	return acquire(sim, ctx, l, KM_TIME_NEVER, false);
}

int km_op_down_trylock(struct km_sim *sim, struct km_ctx *ctx, struct km_lock *l)
{
	return acquire(sim, ctx, l, KM_TIME_NEVER, true);
}

int km_op_down_timeout(struct km_sim *sim, struct km_ctx *ctx, struct km_lock *l,
		       km_time t)
{
	return acquire(sim, ctx, l, km_sat_add(sim->now, t), false);
}

void km_lock_spin_for_wait_lock(struct km_lock *l, struct km_ctx *ctx, enum km_wl_spin as)
{
	ctx->wl_spun = as;
	ctx->then = KM_THEN_WAIT_LOCK;
	ctx->then_obj = l;
}

int km_lock_wait_lock_turn(struct km_sim *sim, struct km_ctx *ctx)
{
	struct km_lock *l = ctx->then_obj;
	if (ctx->wl_spun == KM_WL_RELEASE) {
		km_time cost = 0;
		ctx->wl_spun = KM_WL_NONE;
		sim->wait_lock_spin = 0;
		l->ops->release_locked(sim, l, ctx, &cost);
		wait_lock_spin_charge(sim, ctx);
		km_ctx_run_seg(sim, ctx, cost);
		return KM_STEP_WAIT;
	}
	ctx->lock_retry = ctx->wl_spun == KM_WL_RETRY;
	if (ctx->lock_retry)
		l->inflight--;
	int r = acquire(sim, ctx, l, ctx->wl_deadline, ctx->wl_trylock);
	ctx->lock_retry = false;
	return r;
}

int km_lock_redo(struct km_sim *sim, struct km_ctx *ctx)
{
	struct km_lock *l = ctx->then_obj;
	l->inflight--;
	if (l->woken == ctx)
		l->woken = NULL;
	if (ctx->has_unit) {
		ctx->has_unit = false;
		l->reserved--;
	}
	km_time deadline = ctx->deadline;
	if (deadline != KM_TIME_NEVER && sim->now >= deadline) {
		ctx->contended = false;
		ctx->deadline = KM_TIME_NEVER;
		km_emit(sim, KM_TR_TRYFAIL, ctx->cpu, ctx, l->id, 0, 1);
		ctx->result = 0;
		if (l->ops->give_up)
			l->ops->give_up(sim, l, ctx);
		return KM_STEP_DONE;
	}
	ctx->lock_retry = true;
	int r = acquire(sim, ctx, l, deadline, false);
	ctx->lock_retry = false;
	return r;
}

void km_lock_grant(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx,
		   km_time delay)
{
	l->nwaiting--;
	km_ctx_cancel_timeout(ctx);
	km_time at = km_sat_add(sim->now, delay);	/* a hostile machine's costs saturate */
	note_acquired(sim, l, ctx, km_sat_sub(at, ctx->wait_since), at);
	ctx->result = 1;
	if (ctx->state == KM_CTX_BLOCKED) {
		l->st.wakeups++;
		km_ctx_wake(sim, ctx, 1);
		km_emit(sim, KM_TR_WAKE, sim->running ? sim->running->cpu : ctx->cpu, sim->running,
			l->id, ctx->id, 0);
	} else {
		ctx->wait = KM_WAIT_NONE;
		ctx->wait_obj = NULL;
		if (ctx->spin_irq_entry)
			return;
		km_ctx_run_seg(sim, ctx, delay);
	}
}

void km_lock_wake_retry(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx,
			bool reserve)
{
	l->nwaiting--;
	l->st.wakeups++;
	l->inflight++;
	if (reserve) {
		l->woken = ctx;
		l->reserved++;
		ctx->has_unit = true;
	}
	km_time deadline = ctx->deadline;
	ctx->then = KM_THEN_REDO_DOWN;
	ctx->then_obj = l;
	km_ctx_wake(sim, ctx, 0);
	ctx->deadline = deadline;	/* the retry keeps the original deadline */
	km_emit(sim, KM_TR_WAKE, sim->running ? sim->running->cpu : ctx->cpu, sim->running,
		l->id, ctx->id, 1);
}

void km_lock_spin_to_sleep(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx)
{
	km_waitlist_append(&l->waiters, ctx);
	km_time deadline = ctx->deadline;
	km_ctx_block(sim, ctx, KM_WAIT_LOCK, l);
	if (deadline != KM_TIME_NEVER)
		km_ctx_arm_timeout(sim, ctx, deadline);
}

void km_lock_timeout(struct km_sim *sim, struct km_ctx *ctx)
{
	struct km_lock *l = ctx->wait_obj;
	l->ops->cancel(sim, l, ctx);
	l->nwaiting--;
	ctx->contended = false;
	ctx->wait = KM_WAIT_NONE;
	ctx->wait_obj = NULL;
	km_emit(sim, KM_TR_TRYFAIL, ctx->cpu, ctx, l->id, 0, 1);
	if (ctx->state == KM_CTX_BLOCKED) {
		ctx->wait = KM_WAIT_LOCK;	/* km_ctx_wake clears it */
		km_ctx_wake(sim, ctx, 0);
	} else {
		ctx->result = 0;
		km_ctx_run_seg(sim, ctx, 0);
	}
}

void km_lock_owner_off_cpu(struct km_sim *sim, struct km_ctx *ctx)
{
	for (struct km_hold *h = ctx->held; h; h = h->cnext)
		if (h->lock->ops && h->lock->ops->owner_off_cpu && h->lock->owner == ctx)
			h->lock->ops->owner_off_cpu(sim, h->lock);
}

/* ------------------------------------------------------------------ up -- */

/* The BKL's and cli()'s release check: the releaser must hold it. */
bool km_lock_release_check_taken(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx,
				 struct km_hold **h)
{
	if (!*h) {
		km_violation(sim, KM_V_UNLOCK_NOT_HELD, ctx, l, NULL,
			     "%s(%s) by '%s', which did not take it",
			     l->ops->unlock_verb, l->name, ctx->name);
		return false;
	}
	return true;
}

int km_op_up(struct km_sim *sim, struct km_ctx *ctx, struct km_lock *l)
{
	l->used = true;
	struct km_hold *h = km_hold_find(ctx, l);
	km_time cost = km_cost(sim)->atomic;

	if (!l->ops->release_check || l->ops->release_check(sim, l, ctx, &h)) {
		if (!h)
			h = l->holders;	/* semaphore: the oldest outstanding down() */
		km_time held = -1;
		if (h) {
			held = sim->now - h->since;
			if (held < 0)
				held = 0;
			km_minmax_add(&l->st.hold, held);
			hold_remove(sim, h);
		}
		km_emit(sim, KM_TR_RELEASE, ctx->cpu, ctx, l->id, 0, held);
		cost = 0;
		sim->wait_lock_spin = 0;
		l->ops->release(sim, l, ctx, &cost);
		if (sim->error)
			return sim->error;
		wait_lock_spin_charge(sim, ctx);
	}
	km_ctx_run_seg(sim, ctx, cost);
	struct km_cpu *cpu = km_cpu_of(sim, ctx);
	km_cpu_irqs_maybe_enabled(sim, cpu);
	return KM_STEP_WAIT;
}
