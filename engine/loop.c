/*
 * loop.c - the event loop: run, dispatch, run ahead.
 *
 * The one loop that resumes scenario code (km_sim_run), as short as
 * Redis's aeMain: take the next event, move the clock to it, dispatch it,
 * and ask whether the run ends.  And the run-ahead (km_ctx_run_ahead),
 * which lets that code, once resumed, go on past the end of a segment
 * that is the very next event, doing in place exactly what the loop would
 * have done.  Between events the loop also closes the spin windows whose
 * end the clock passes (a CPU showing a wait-list lock's spin), averages
 * the loads of the ticks crossed (machine.c), and watches for a deadlock.
 *
 * NOTE: next_event(), pop_event() and ends_after_event() are on every
 * event and inline, with their common answer found in one test each;
 * keep them so (make bench-compare measures them).
 *
 * What an event means is the scheduler's (sched.c, irq.c); what comes
 * back from a lock, an operation or an observer goes through the hooks
 * set-up registered (hooks.h).  On the sched floor (sched_floor.h), at its top.
 */
#include "sched_floor.h"
#include "lock.h"
#include "machine.h"

#include <stdio.h>
#include <time.h>

static double wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * The open spin windows, a binary min-heap over CPUs ordered by the
 * window's end, ties by the later listed first (the order in which the
 * list that came before it closed them, which the traces keep).  Each
 * CPU knows its slot, so a window moved while open is sifted in place.
 * The check before each event is one comparison with the top; opening
 * and closing are O(log k) for k windows open, at most one a CPU.
 */
static inline bool spin_before(const struct km_cpu *a, const struct km_cpu *b)
{
	return a->spin_until < b->spin_until ||
	       (a->spin_until == b->spin_until && a->spin_seq > b->spin_seq);
}

static inline void spin_heap_put(struct km_sim *sim, int slot, struct km_cpu *cpu)
{
	sim->spin_heap[slot] = cpu->id;
	cpu->spin_slot = slot;
}

static void spin_heap_up(struct km_sim *sim, struct km_cpu *cpu)
{
	int slot = cpu->spin_slot;
	while (slot > 0) {
		struct km_cpu *parent = &sim->cpus[sim->spin_heap[(slot - 1) / 2]];
		if (!spin_before(cpu, parent))
			break;
		spin_heap_put(sim, slot, parent);
		slot = (slot - 1) / 2;
	}
	spin_heap_put(sim, slot, cpu);
}

static void spin_heap_down(struct km_sim *sim, struct km_cpu *cpu)
{
	int slot = cpu->spin_slot, n = sim->spin_open;
	for (;;) {
		int kid = 2 * slot + 1;
		if (kid >= n)
			break;
		struct km_cpu *c = &sim->cpus[sim->spin_heap[kid]];
		if (kid + 1 < n) {
			struct km_cpu *r = &sim->cpus[sim->spin_heap[kid + 1]];
			if (spin_before(r, c)) {
				c = r;
				kid++;
			}
		}
		if (!spin_before(c, cpu))
			break;
		spin_heap_put(sim, slot, c);
		slot = kid;
	}
	spin_heap_put(sim, slot, cpu);
}

/**
 * km_cpu_spin_for - the segment @ctx begins next starts with @spin ns of
 * spinning for a sleeping lock's wait-list lock (spin_lock_irqsave() of
 * sem->wait.lock, lock->wait_lock), and its CPU shows and accounts them
 * as spin, not as work.  Call it before the segment (or the tail before
 * a sleep) is started.
 *
 * Accounting only: the segment's length and the run are unchanged.  No
 * event is queued for the window's end -- one would be seen by whatever
 * looks at the next event (a held task's chooser, the run-ahead, the
 * event budget) -- the window is closed when the clock passes it
 * (spin_windows_close(), from pop_event()).  A window still open on the
 * CPU is moved to the new end, keeping its place among equal ends.
 */
void km_cpu_spin_for(struct km_sim *sim, struct km_ctx *ctx, km_time spin)
{
	if (spin <= 0 || ctx->cpu < 0)
		return;
	struct km_cpu *cpu = &sim->cpus[ctx->cpu];
	cpu->spin_ctx = ctx;
	cpu->spin_until = km_sat_add(sim->now, spin);
	if (cpu->spin_slot < 0) {
		cpu->spin_seq = ++sim->spin_seq;
		cpu->spin_slot = sim->spin_open++;
	}
	spin_heap_up(sim, cpu);
	spin_heap_down(sim, cpu);
}

/* The spin of @cpu's window is over: what the CPU does now is work again
 * -- for the task that spun, if it is still there. */
static void cpu_spin_end(struct km_sim *sim, struct km_cpu *cpu)
{
	struct km_ctx *ctx = cpu->spin_ctx;
	cpu->spin_ctx = NULL;
	if (ctx && ctx->kind == KM_CTX_TASK && ctx->cpu == cpu->id &&
	    ctx->acct == KM_ACCT_SPIN && ctx->act == KM_ACT_SEG)
		km_ctx_acct(sim, ctx, KM_ACCT_RUN);
	km_cpu_show(sim, cpu);
}

/* Is a spin window due to close before the clock moves on to @t? */
static inline bool spin_window_due(const struct km_sim *sim, km_time t)
{
	return sim->spin_open > 0 && sim->cpus[sim->spin_heap[0]].spin_until <= t;
}

/*
 * Close the spin windows that end at or before @t, earliest first, the
 * clock at each one's end: called (when one is due) before the clock
 * moves on to @t, and at the end of the run (whose clock may have jumped
 * to the duration bound past a window's end).
 */
static void spin_windows_close(struct km_sim *sim, km_time t)
{
	while (spin_window_due(sim, t)) {
		struct km_cpu *first = &sim->cpus[sim->spin_heap[0]];
		struct km_cpu *last = &sim->cpus[sim->spin_heap[--sim->spin_open]];
		first->spin_slot = -1;
		if (last != first) {
			spin_heap_put(sim, 0, last);
			spin_heap_down(sim, last);
		}
		/* never before the last event: the window was opened there,
		 * and is closed before the clock passes its end */
		sim->now = first->spin_until;
		cpu_spin_end(sim, first);
	}
}

/* ------------------------------------------------------------ the run -- */

static void ctx_continue_body(struct km_sim *sim, struct km_ctx *ctx);

/* Run @ctx's deferred work and then its code; sim->running says who. */
static void ctx_continue(struct km_sim *sim, struct km_ctx *ctx)
{
	struct km_ctx *outer = sim->running;
	sim->running = ctx;
	ctx_continue_body(sim, ctx);
	ctx->in_then = false;
	sim->running = outer;
}

static void ctx_continue_body(struct km_sim *sim, struct km_ctx *ctx)
{
	/* deferred work is the end of the last step (choice.h: prev_late) */
	ctx->in_then = ctx->then != KM_THEN_NONE;
	switch (ctx->then) {
	case KM_THEN_NONE:
		break;
	case KM_THEN_VAR_ADD:
		ctx->then = KM_THEN_NONE;
		sim->hooks->var_add_commit(sim, ctx);
		break;
	case KM_THEN_REDO_DOWN:
	case KM_THEN_WAIT_LOCK: {
		/* a woken waiter's retry, or a spin for a wait-list lock ended */
		enum km_then then = ctx->then;
		ctx->then = KM_THEN_NONE;
		int r = then == KM_THEN_REDO_DOWN ? sim->hooks->lock_redo(sim, ctx) :
						    sim->hooks->wait_lock_turn(sim, ctx);
		if (r != KM_STEP_DONE)
			return;
		break;
	}
	case KM_THEN_IRQ_EXIT:
		ctx->then = KM_THEN_NONE;
		km_irq_exit(sim, ctx);
		return;
	}
	ctx->in_then = false;
	/* a choice point: a strategy may hold the task back (choice.c) */
	if (sim->cfg.chooser && ctx->kind == KM_CTX_TASK && sim->hooks->choice_point(sim, ctx))
		return;
	int r = sim->host->resume(sim->host_data, sim, ctx);
	if (r < 0 && !sim->error)
		km_fail(sim, r, "%s", sim->errmsg[0] ? sim->errmsg : "scenario error");
	if (sim->error)
		return;
	if (ctx->state == KM_CTX_ONCPU && ctx->act == KM_ACT_NONE && ctx->then == KM_THEN_NONE)
		km_fail(sim, KM_EINVAL, "internal: context '%s' returned without waiting",
			ctx->name);
}

static void on_timeout(struct km_sim *sim, struct km_ctx *ctx)
{
	km_ctx_cancel_timeout(ctx);
	switch (ctx->wait) {
	case KM_WAIT_LOCK:
		sim->hooks->lock_timeout(sim, ctx);
		break;
	case KM_WAIT_SLEEP:
		km_ctx_wake(sim, ctx, 1);
		break;
	case KM_WAIT_WQ: {
		struct km_waitq *wq = ctx->wait_obj;
		km_waitlist_remove(&wq->waiters, ctx);
		km_ctx_wake(sim, ctx, 0);
		break;
	}
	case KM_WAIT_COMPLETION: {
		struct km_completion *c = ctx->wait_obj;
		km_waitlist_remove(&c->waiters, ctx);
		km_ctx_wake(sim, ctx, 0);
		break;
	}
	case KM_WAIT_NONE:
		break;
	}
}

static void dispatch(struct km_sim *sim, const struct km_event *ev)
{
	struct km_ctx *ctx;
	switch (ev->kind) {
	case KM_EV_SEG_END:
		ctx = sim->ctxs.v[ev->id];
		if (ev->token != ctx->seg_token || ctx->act != KM_ACT_SEG ||
		    !km_ctx_on_top(sim, ctx))
			return;
		ctx->act = KM_ACT_NONE;
		ctx_continue(sim, ctx);
		return;
	case KM_EV_HOLD_END:
		/* a held task's delay ran out: its step follows, or it waits on */
		ctx = sim->ctxs.v[ev->id];
		if (ev->token != ctx->seg_token || ctx->act != KM_ACT_SEG ||
		    !km_ctx_on_top(sim, ctx))
			return;
		if (sim->hooks->choice_hold_expired(sim, ctx))
			return;
		ctx->act = KM_ACT_NONE;
		ctx_continue(sim, ctx);
		return;
	case KM_EV_TIMEOUT:
		ctx = sim->ctxs.v[ev->id];
		if (ev->token != ctx->wait_token || ctx->deadline == KM_TIME_NEVER)
			return;
		on_timeout(sim, ctx);
		return;
	case KM_EV_WAKE:
		ctx = sim->ctxs.v[ev->id];
		if (ctx->state != KM_CTX_RUNNABLE || ev->token != ctx->seg_token)
			return;
		if (ctx->cpu >= 0 && sim->cpus[ctx->cpu].leaving == ctx) {
			/* still leaving its CPU: it cannot run elsewhere yet */
			ctx->wake_deferred = true;
			ctx->wake_deferred_token = ev->token;
			return;
		}
		km_ctx_make_runnable(sim, ctx, KM_SCHED_WOKEN);
		return;
	case KM_EV_BALANCE:
		sim->balance_armed = false;
		km_balance_tick(sim);
		return;
	case KM_EV_START:
		ctx = sim->ctxs.v[ev->id];
		km_emit(sim, KM_TR_TASK_START, -1, ctx, KM_TR_NONE, 0, 0);
		ctx->act = KM_ACT_READY;
		km_ctx_make_runnable(sim, ctx, KM_SCHED_PLAIN);
		return;
	case KM_EV_SWITCH: {
		struct km_cpu *cpu = &sim->cpus[ev->id];
		if (ev->token == cpu->token && cpu->switching) {
			km_cpu_switch_done(sim, cpu);
			km_cpu_irqs_maybe_enabled(sim, cpu);
		}
		return;
	}
	case KM_EV_TICK: {
		struct km_cpu *cpu = &sim->cpus[ev->id];
		cpu->tick_armed = false;
		if (cpu->rq_len == 0)
			return;
		if (!km_irq_deliverable(cpu)) {
			cpu->tick_pending = true;
			return;
		}
		km_sched_tick(sim, cpu);
		if (cpu->rq_len)
			km_tick_arm(sim, cpu);
		return;
	}
	case KM_EV_IRQ:
		km_irq_fire(sim, sim->irqsrcs.v[ev->id]);
		return;
	case KM_EV_HANDOFF: {
		struct km_lock *l = ev->id == KM_BKL_ID ? sim->bkl :
				    ev->id == KM_GIL_ID ? sim->gil : sim->locks.v[ev->id];
		sim->hooks->window_close(sim, l, ev->token);
		return;
	}
	}
}

static void declare_deadlock(struct km_sim *sim)
{
	sim->outcome = KM_OUT_DEADLOCK;
	sim->hooks->describe_deadlock(sim, sim->reason, sizeof(sim->reason));
	km_violation(sim, KM_V_DEADLOCK, NULL, NULL, NULL, "%s", sim->reason);
}

/* How many firings of each source, with no task able to move, before the
 * run is judged deadlocked.  A handler could in principle wake a task
 * after counting to more: say so in the docs. */
#define KM_STALL_FIRES 64

/*
 * The deadlock watch, after each event: no task can move, and nothing but
 * interrupts is due.  True when the run is deadlocked.  Asked twice in the
 * same state it answers the same and changes nothing the second time
 * (km_ctx_run_ahead asks, then leaves the run to the loop, which asks again).
 */
static bool stalled(struct km_sim *sim)
{
	if (sim->productive != 0 || sim->live_tasks == 0) {
		sim->stall_since = -1;
		return false;
	}
	if (sim->stall_since < 0) {
		sim->stall_since = sim->now;
		sim->stall_fires = 0;
	}
	return sim->irqsrcs.n == 0 ||
	       sim->stall_fires >= (uint64_t)KM_STALL_FIRES * sim->irqsrcs.n;
}

/*
 * Between two events.  The loop and the run-ahead both ask, in this
 * order: after the event just dispatched, does the run end (an error,
 * the event budget, an interrupt from outside, the wall clock every 4096
 * events, the deadlock watch)?  Then, before the next one, is there one
 * to run (every task done, no event left, the duration)?  With @end, a
 * run that ends here gets its outcome.  Without, nothing changes: the
 * answer is only "the loop must see to this" -- that is how the run-ahead
 * asks, and it leaves the wall clock, due every 4096th event, to the loop.
 */
static bool ends_after_event_slow(struct km_sim *sim, bool end)
{
	if (sim->error) {
		if (end)
			sim->outcome = KM_OUT_ERROR;
		return true;
	}
	if (sim->cfg.max_events && sim->events >= sim->cfg.max_events) {
		if (end) {
			km_fail(sim, KM_EBUDGET, "event budget of %llu events exceeded "
				"(raise it with --max-events)",
				(unsigned long long)sim->cfg.max_events);
			sim->outcome = KM_OUT_ERROR;
		}
		return true;
	}
	if (sim->cfg.stop && *sim->cfg.stop) {
		if (end) {
			km_fail(sim, KM_EINTR, "interrupted");
			sim->outcome = KM_OUT_ERROR;
		}
		return true;
	}
	if (sim->cfg.max_wall > 0 && (sim->events & 0xfff) == 0) {
		if (!end)
			return true;
		if (wall_now() - sim->wall_start > sim->cfg.max_wall) {
			km_fail(sim, KM_EBUDGET, "wall-clock budget of %g s exceeded "
				"(raise it with --max-wall)", sim->cfg.max_wall);
			sim->outcome = KM_OUT_ERROR;
			return true;
		}
	}
	if (stalled(sim)) {
		if (end)
			declare_deadlock(sim);
		return true;
	}
	return false;
}

/*
 * ends_after_event(): the same questions, the answer of nearly every
 * event ("no") found in line, with one test each; anything else, and the
 * outcome that goes with it, is the slow path's.  A productive event
 * pending is what makes stalled() answer no (and forget the stall).
 */
static inline bool ends_after_event(struct km_sim *sim, bool end)
{
	if (__builtin_expect(!sim->error && sim->events < sim->event_budget &&
			     !(sim->cfg.stop && *sim->cfg.stop) &&
			     (sim->events & sim->wall_mask) != 0 && sim->productive != 0, 1)) {
		sim->stall_since = -1;
		return false;
	}
	return ends_after_event_slow(sim, end);
}

/* The next event to run, or NULL when the run ends before it. */
static inline const struct km_event *next_event(struct km_sim *sim, bool end)
{
	if (sim->live_tasks == 0) {
		if (end)
			sim->outcome = KM_OUT_COMPLETED;
		return NULL;
	}
	const struct km_event *next = km_evq_peek(&sim->evq);
	if (!next) {
		if (end)
			declare_deadlock(sim);
		return NULL;
	}
	if (next->time > sim->cfg.duration) {
		if (end) {
			sim->now = sim->cfg.duration;
			sim->outcome = KM_OUT_TIME_LIMIT;
			snprintf(sim->reason, sizeof(sim->reason),
				 "the duration bound was reached with %d task%s still alive",
				 sim->live_tasks, sim->live_tasks == 1 ? "" : "s");
		}
		return NULL;
	}
	return next;
}

/* Take the next event off the queue: the clock moves to it. */
static inline void pop_event(struct km_sim *sim, struct km_event *ev)
{
	km_evq_pop(&sim->evq, ev);
	if (spin_window_due(sim, ev->time))
		spin_windows_close(sim, ev->time);
	if (km_ev_productive(sim, (int)ev->kind, ev->id))
		sim->productive--;
	if (sim->loads_tracked)
		km_loads_at_ticks(sim, ev->time);
	sim->now = ev->time;
	sim->events++;
}

/*
 * The run-ahead (see sim.h).  When the next event is the end of the
 * segment @ctx has just begun, dispatching it means: @ctx stops its
 * segment and its code goes on.  So if the loop would get to it -- the
 * same questions between events, asked without acting on them -- taking
 * it here leaves the run where the loop would have, minus a yield and a
 * resume of the coroutine.  Whenever the loop would do more than that
 * (end the run, look at the wall clock), we let the loop do it.
 *
 * NOTE: the event must be at the top of the queue with our token: an
 * earlier event, even a stale one the loop would drop, is still counted
 * and moves the clock, so it must come first.  Ties cannot slip through:
 * the event was pushed last, so any other event at the same time is
 * ordered before it and is the top.
 */
/* The run-ahead after its first questions (km_ctx_run_ahead): the rest
 * of them, and the event taken, in every case but the usual one. */
static __attribute__((noinline)) bool run_ahead_rest(struct km_sim *sim, struct km_ctx *ctx,
						     const struct km_event *next)
{
	/* next_event()'s questions, @next being the top already */
	if (ends_after_event(sim, false) || sim->live_tasks == 0 || next->time > sim->cfg.duration)
		return false;

	if (next == &sim->evq.fresh) {
		/* pop_event() of the fresh event, in short: a segment's end
		 * of a context known to be @ctx (productive if a task's) */
		km_time t = next->time;
		sim->evq.has_fresh = false;
		sim->evq.len--;
		if (spin_window_due(sim, t))
			spin_windows_close(sim, t);
		if (ctx->kind == KM_CTX_TASK)
			sim->productive--;
		if (sim->loads_tracked)
			km_loads_at_ticks(sim, t);
		sim->now = t;
		sim->events++;
	} else {
		struct km_event ev;
		pop_event(sim, &ev);
	}
	sim->events_ahead++;
	/* dispatch(): KM_EV_SEG_END, then ctx_continue_body() up to the resume */
	ctx->act = KM_ACT_NONE;
	if (ctx->then == KM_THEN_VAR_ADD) {
		ctx->then = KM_THEN_NONE;
		sim->hooks->var_add_commit(sim, ctx);
	}
	return true;
}

/*
 * NOTE: the usual case -- a task's segment end waiting fresh in the
 * queue, ends_after_event()'s answer "no" found in line, no spin window
 * due, no loads tracked, nothing to do at the end -- is taken here with
 * no call, the steps of run_ahead_rest() in their order.
 */
bool km_ctx_run_ahead(struct km_sim *sim, struct km_ctx *ctx)
{
	const struct km_event *next = km_evq_peek(&sim->evq);
	if (sim->cfg.no_run_ahead || !next || next->kind != KM_EV_SEG_END ||
	    next->id != ctx->id || next->token != ctx->seg_token || ctx->act != KM_ACT_SEG ||
	    (ctx->then != KM_THEN_NONE && ctx->then != KM_THEN_VAR_ADD) ||
	    !km_ctx_on_top(sim, ctx))
		return false;
	km_time t = next->time;
	if (__builtin_expect(next != &sim->evq.fresh || ctx->kind != KM_CTX_TASK ||
			     ctx->then != KM_THEN_NONE || sim->loads_tracked ||
			     sim->error || sim->events >= sim->event_budget ||
			     (sim->cfg.stop && *sim->cfg.stop) ||
			     (sim->events & sim->wall_mask) == 0 || sim->productive == 0 ||
			     sim->live_tasks == 0 || t > sim->cfg.duration ||
			     spin_window_due(sim, t), 0))
		return run_ahead_rest(sim, ctx, next);
	sim->stall_since = -1;
	sim->evq.has_fresh = false;
	sim->evq.len--;
	sim->productive--;
	sim->now = t;
	sim->events++;
	sim->events_ahead++;
	ctx->act = KM_ACT_NONE;
	return true;
}

int km_sim_run(struct km_sim *sim)
{
	struct km_event ev;
	sim->wall_start = sim->cfg.wall_origin > 0 ? sim->cfg.wall_origin : wall_now();
	sim->stall_since = -1;
	/* ends_after_event()'s fast path: an event count that is never
	 * reached without a budget, and a mask that is never zero without a
	 * wall clock to look at every 4096th event */
	sim->event_budget = sim->cfg.max_events ? sim->cfg.max_events : UINT64_MAX;
	sim->wall_mask = sim->cfg.max_wall > 0 ? 0xfff : UINT64_MAX;

	while (sim->outcome == KM_OUT_NONE) {
		if (sim->cfg.chooser)
			sim->hooks->choice_settle(sim);
		if (!next_event(sim, true))
			break;
		pop_event(sim, &ev);
		dispatch(sim, &ev);
		if (ends_after_event(sim, true))
			break;
	}
	km_sim_finish_accounting(sim);
	return sim->error;
}

void km_sim_finish_accounting(struct km_sim *sim)
{
	km_time end = sim->now;
	spin_windows_close(sim, end);
	sim->now = end;
	for (int i = 0; i < sim->ncpus; i++) {
		struct km_cpu *cpu = &sim->cpus[i];
		cpu->acct[cpu->state] += sim->now - cpu->state_since;
		cpu->state_since = sim->now;
		if (cpu->irqoff) {
			cpu->irqoff_ns += sim->now - cpu->irqoff_since;
			cpu->irqoff_since = sim->now;
		}
	}
	for (uint32_t i = 0; i < sim->ctxs.n; i++) {
		struct km_ctx *ctx = sim->ctxs.v[i];
		if (ctx->kind == KM_CTX_TASK)
			km_ctx_acct(sim, ctx, (enum km_acct)ctx->acct);
	}
}
