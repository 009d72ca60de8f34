/*
 * ops.c - the scenario operations that are not locks: compute, sleep,
 * interrupt control, shared variables and atomics, wait queues,
 * completions, counters, logs and spawn.
 *
 * Shared variables are where races become visible.  A plain access costs
 * a line transfer when the variable was last touched on another CPU (else
 * a nanosecond).  add(v, n) is a non-atomic read-modify-write: it reads at
 * the start of its segment and writes at the end, so another write in
 * between is overwritten -- a lost update, detected exactly and reported
 * with both parties.  read(v) followed later by write(v, x) from the same
 * context is judged the same way: if someone else wrote v in between, the
 * write is based on a stale read.
 */
#include "core.h"
#include "lock.h"
#include "machine.h"
#include "time_unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A segment is at least 1 ns: an access the cache hits still takes time. */
static km_time at_least_1(km_time c)
{
	return c > 0 ? c : 1;
}

int km_op_compute(struct km_sim *sim, struct km_ctx *ctx, km_time t)
{
	if (t <= 0)
		return KM_STEP_DONE;
	km_ctx_run_seg(sim, ctx, t);
	return KM_STEP_WAIT;
}

static int refuse_in_irq(struct km_sim *sim, struct km_ctx *ctx, const char *what)
{
	return km_fail(sim, KM_EMISUSE, "%s() called from interrupt handler '%s': "
		       "an interrupt handler must not sleep", what, ctx->name);
}

static void check_atomic_sleep(struct km_sim *sim, struct km_ctx *ctx, const char *what)
{
	if (km_ctx_atomic(sim, ctx))
		km_violation(sim, KM_V_SLEEP_IN_ATOMIC, ctx, NULL, NULL,
			     "'%s' calls %s() while atomic (%s)", ctx->name, what,
			     ctx->preempt_count ? "a spinlock is held" : "interrupts are off");
}

int km_op_sleep(struct km_sim *sim, struct km_ctx *ctx, km_time t)
{
	if (km_in_irq(ctx))
		return refuse_in_irq(sim, ctx, "sleep");
	check_atomic_sleep(sim, ctx, "sleep");
	km_ctx_block(sim, ctx, KM_WAIT_SLEEP, NULL);
	km_ctx_arm_timeout(sim, ctx, km_sat_add(sim->now, t > 0 ? t : 0));
	return KM_STEP_WAIT;
}

/* ----------------------------------------------------------- irq flag -- */

int km_op_irq_disable(struct km_sim *sim, struct km_ctx *ctx)
{
	if (ctx->irqoff++ == 0)
		km_cpu_irqoff_update(sim, km_cpu_of(sim, ctx));
	km_ctx_run_seg(sim, ctx, km_cost(sim)->cli);
	return KM_STEP_WAIT;
}

int km_op_irq_enable(struct km_sim *sim, struct km_ctx *ctx)
{
	struct km_cpu *cpu = km_cpu_of(sim, ctx);
	if (ctx->irqoff > 0 && --ctx->irqoff == 0)
		km_cpu_irqoff_update(sim, cpu);
	km_ctx_run_seg(sim, ctx, km_cost(sim)->cli);
	km_cpu_irqs_maybe_enabled(sim, cpu);
	return KM_STEP_WAIT;
}

/* ---------------------------------------------------------- variables -- */

static int readset_find(const struct km_ctx *ctx, uint32_t var)
{
	for (int i = 0; i < ctx->nreads; i++)
		if (ctx->readset[i].var == var)
			return i;
	return -1;
}

static void readset_put(struct km_ctx *ctx, const struct km_var *v, km_time at)
{
	int i = readset_find(ctx, v->id);
	if (i < 0) {
		if (ctx->nreads < KM_READSET) {
			i = ctx->nreads++;
		} else {
			/* forget the oldest */
			memmove(&ctx->readset[0], &ctx->readset[1],
				sizeof(ctx->readset[0]) * (KM_READSET - 1));
			i = KM_READSET - 1;
		}
	}
	ctx->readset[i].var = v->id;
	ctx->readset[i].version = v->version;
	ctx->readset[i].at = at;
}

static void readset_drop(struct km_ctx *ctx, int i)
{
	memmove(&ctx->readset[i], &ctx->readset[i + 1],
		sizeof(ctx->readset[0]) * (size_t)(ctx->nreads - i - 1));
	ctx->nreads--;
}

/* Store @x into @v on behalf of @ctx, judging its last read of @v. */
static void var_store(struct km_sim *sim, struct km_ctx *ctx, struct km_var *v, int64_t x)
{
	int i = readset_find(ctx, v->id);
	if (i >= 0) {
		if (ctx->readset[i].version != v->version) {
			v->lost++;
			const struct km_ctx *w = v->last_writer;
			/* the instants in one unit, the one of now (the
			 * report prints the violation's time in it too) */
			struct km_time_unit u = km_time_unit_exact(sim->now);
			char rt[48], wt[48];
			km_violation(sim, KM_V_LOST_UPDATE, ctx, NULL, v,
				     "lost update on '%s': '%s' read it at t=%s, "
				     "'%s' wrote it at t=%s, then '%s' wrote %lld over it",
				     v->name, ctx->name,
				     km_time_in(ctx->readset[i].at, u, false, rt, sizeof(rt)),
				     w ? w->name : "?", km_time_in(v->last_write, u, false, wt, sizeof(wt)),
				     ctx->name, (long long)x);
		}
		readset_drop(ctx, i);
	}
	v->value = x;
	v->version++;
	v->last_writer = ctx;
	v->last_write = sim->now;
	km_emit(sim, KM_TR_VAR_WRITE, ctx->cpu, ctx, v->id, 0, x);
}

int km_op_read(struct km_sim *sim, struct km_ctx *ctx, struct km_var *v)
{
	ctx->result = v->value;
	readset_put(ctx, v, sim->now);
	km_emit(sim, KM_TR_VAR_READ, ctx->cpu, ctx, v->id, 0, v->value);
	km_ctx_run_seg(sim, ctx, at_least_1(km_line_read(sim, km_var_line(v), ctx->cpu, sim->now)));
	return KM_STEP_WAIT;
}

/* A store to a lock's own line (lock{ line = }) takes it from the CPUs
 * spinning on it, which read it again once the store is visible. */
static void lock_line_written(struct km_sim *sim, struct km_lock *l, km_time at)
{
	if (l)
		km_raw_spin_line_written(sim, l, at);
}

int km_op_write(struct km_sim *sim, struct km_ctx *ctx, struct km_var *v, int64_t x)
{
	km_time done = 0;	/* a store buffer's drain (cache.h km_line_store) */
	km_time c = at_least_1(km_line_store(sim, km_var_line(v), ctx->cpu, sim->now, &done));
	lock_line_written(sim, v->lock, km_sat_add(sim->now, km_sat_add(c, done)));
	var_store(sim, ctx, v, x);
	ctx->result = x;
	km_ctx_run_seg(sim, ctx, c);
	return KM_STEP_WAIT;
}

int km_op_add(struct km_sim *sim, struct km_ctx *ctx, struct km_var *v, int64_t n)
{
	/* load now, store at the end of the segment: the line read (shared),
	 * then made exclusive -- the window another CPU's add() can fall in */
	km_time r = at_least_1(km_line_read(sim, km_var_line(v), ctx->cpu, sim->now));
	km_time done = 0;
	km_time w = at_least_1(km_line_store(sim, km_var_line(v), ctx->cpu,
					     km_sat_add(sim->now, r), &done));
	lock_line_written(sim, v->lock, km_sat_add(sim->now, km_sat_add(km_sat_add(r, w), done)));
	readset_put(ctx, v, sim->now);
	km_emit(sim, KM_TR_VAR_READ, ctx->cpu, ctx, v->id, 0, v->value);
	ctx->then = KM_THEN_VAR_ADD;
	ctx->then_obj = v;
	ctx->then_arg = (int64_t)((uint64_t)v->value + (uint64_t)n);
	km_ctx_run_seg(sim, ctx, km_sat_add(km_sat_add(r, w), 1));
	return KM_STEP_WAIT;
}

void km_var_add_commit(struct km_sim *sim, struct km_ctx *ctx)
{
	struct km_var *v = ctx->then_obj;
	var_store(sim, ctx, v, ctx->then_arg);
	ctx->result = ctx->then_arg;
}

int km_op_atomic(struct km_sim *sim, struct km_ctx *ctx, struct km_atomic *a,
		 enum km_atomic_op op, int64_t n)
{
	/* atomic_read() and atomic_set() are a plain load and store; the
	 * others a locked read-modify-write of the line */
	km_time c;
	if (op == KM_ATOMIC_READ)
		c = km_line_read(sim, km_atomic_line(a), ctx->cpu, sim->now);
	else if (op == KM_ATOMIC_SET)
		c = km_line_write(sim, km_atomic_line(a), ctx->cpu, sim->now);
	else
		c = km_line_rmw(sim, km_atomic_line(a), ctx->cpu, sim->now);
	c = at_least_1(c);
	if (op != KM_ATOMIC_READ)
		lock_line_written(sim, a->lock, km_sat_add(sim->now, c));
	switch (op) {
	case KM_ATOMIC_READ:
		ctx->result = a->value;
		if (sim->cfg.chooser)
			sim->hooks->choice_touch(sim, KM_OBJ_ATOMIC, a->id, false);
		break;
	case KM_ATOMIC_ADD_RETURN:
		a->value = (int64_t)((uint64_t)a->value + (uint64_t)n);
		ctx->result = a->value;
		break;
	case KM_ATOMIC_DEC_IF_POSITIVE:
		/* returns the old value minus one; stores it only if >= 0 (two's
		 * complement wrap, as the kernel's atomic_t, never UB) */
		ctx->result = (int64_t)((uint64_t)a->value - 1);
		if (a->value > 0)
			a->value--;
		break;
	case KM_ATOMIC_SET:
		a->value = n;
		ctx->result = n;
		break;
	}
	if (op != KM_ATOMIC_READ)
		km_emit(sim, KM_TR_ATOMIC, ctx->cpu, ctx, a->id, 0, a->value);
	km_ctx_run_seg(sim, ctx, c);
	return KM_STEP_WAIT;
}

/* --------------------------------------------------------- wait queues -- */

int km_op_wq_wait(struct km_sim *sim, struct km_ctx *ctx, struct km_waitq *wq,
		  km_time deadline)
{
	if (km_in_irq(ctx))
		return refuse_in_irq(sim, ctx, "wait_event");
	check_atomic_sleep(sim, ctx, "wait_event");
	if (deadline != KM_TIME_NEVER && deadline <= sim->now) {
		ctx->result = 0;
		return KM_STEP_DONE;
	}
	km_waitlist_append(&wq->waiters, ctx);
	km_ctx_block(sim, ctx, KM_WAIT_WQ, wq);
	if (deadline != KM_TIME_NEVER)
		km_ctx_arm_timeout(sim, ctx, deadline);
	return KM_STEP_WAIT;
}

/*
 * wake_up() / wake_up_all() - Context: any.  wait_event() waiters are not
 * exclusive, so, as in the kernel, both wake every one of them: each
 * re-checks its condition and the losers sleep again (a thundering herd).
 */
int km_op_wake_up(struct km_sim *sim, struct km_ctx *ctx, struct km_waitq *wq, bool all)
{
	struct km_ctx *w;
	if (sim->cfg.chooser)
		sim->hooks->choice_touch(sim, KM_OBJ_WAITQ, wq->id, true);
	while ((w = km_waitlist_pop(&wq->waiters))) {
		wq->wakeups++;
		km_emit(sim, KM_TR_WAKE, ctx->cpu, ctx, wq->id, w->id, 2);
		km_ctx_wake(sim, w, 1);
	}
	km_ctx_run_seg(sim, ctx, km_cost(sim)->atomic);
	return KM_STEP_WAIT;
}

int km_op_wait_for_completion(struct km_sim *sim, struct km_ctx *ctx,
			      struct km_completion *c)
{
	if (km_in_irq(ctx))
		return refuse_in_irq(sim, ctx, "wait_for_completion");
	if (sim->cfg.chooser)
		sim->hooks->choice_touch(sim, KM_OBJ_COMPLETION, c->id, true);
	if (c->done > 0) {
		if (c->done != UINT64_MAX)
			c->done--;
		km_ctx_run_seg(sim, ctx, km_cost(sim)->atomic);
		return KM_STEP_WAIT;
	}
	check_atomic_sleep(sim, ctx, "wait_for_completion");
	km_waitlist_append(&c->waiters, ctx);
	km_ctx_block(sim, ctx, KM_WAIT_COMPLETION, c);
	return KM_STEP_WAIT;
}

/* complete() / complete_all() - Context: any. */
int km_op_complete(struct km_sim *sim, struct km_ctx *ctx, struct km_completion *c,
		   bool all)
{
	struct km_ctx *w;
	if (sim->cfg.chooser)
		sim->hooks->choice_touch(sim, KM_OBJ_COMPLETION, c->id, true);
	if (all) {
		c->done = UINT64_MAX;
		while ((w = km_waitlist_pop(&c->waiters))) {
			km_emit(sim, KM_TR_WAKE, ctx->cpu, ctx, c->id, w->id, 3);
			km_ctx_wake(sim, w, 1);
		}
	} else if ((w = km_waitlist_pop(&c->waiters))) {
		km_emit(sim, KM_TR_WAKE, ctx->cpu, ctx, c->id, w->id, 3);
		km_ctx_wake(sim, w, 1);
	} else if (c->done != UINT64_MAX) {
		c->done++;
	}
	km_ctx_run_seg(sim, ctx, km_cost(sim)->atomic);
	return KM_STEP_WAIT;
}

/* ------------------------------------------------------------- metrics -- */

void km_op_counter_add(struct km_sim *sim, struct km_ctx *ctx, struct km_counter *c,
		       int64_t n)
{
	c->value = (int64_t)((uint64_t)c->value + (uint64_t)n);
	if (c->value > c->peak)
		c->peak = c->value;
	km_emit(sim, KM_TR_COUNTER, ctx ? ctx->cpu : -1, ctx, c->id, 0, c->value);
}

void km_op_log(struct km_sim *sim, struct km_ctx *ctx, const char *msg)
{
	/* Logs live outside Lua's memory budget: keep the first lines, count
	 * the rest, as violations are kept. */
	if (sim->logs.n >= KM_LOGS_KEPT) {
		sim->logs_dropped++;
		return;
	}
	char *copy = km_strdup(msg);
	if (!copy || KM_VEC_PUSH(sim->logs, copy) < 0) {
		free(copy);
		return;
	}
	km_emit(sim, KM_TR_LOG, ctx ? ctx->cpu : -1, ctx, sim->logs.n - 1, 0, 0);
}

struct km_ctx *km_op_spawn(struct km_sim *sim, struct km_ctx *ctx, const char *name,
			   int cpu)
{
	return km_task_new(sim, name, cpu, sim->now);
}
