/*
 * sched.c - the event loop, CPUs, the scheduler and interrupt delivery.
 *
 * This file moves contexts between their states: on a CPU (running a
 * timed segment, spinning, or about to be resumed), blocked, runnable on
 * a run queue, done.  It owns the one loop that resumes scenario code --
 * and the run-ahead (km_ctx_run_ahead), which lets that code, once
 * resumed, go on past the end of a segment that is the very next event,
 * doing in place exactly what the loop would have done.
 *
 * Scheduling is deliberately plain, close to what a 2.4 or early 2.6
 * kernel did per CPU: a FIFO run queue per CPU; a woken task goes to its
 * previous CPU if idle, else to any idle CPU, else back to its previous
 * CPU's queue (on eras with wake_prev_cpu, always to its previous CPU: see
 * select_cpu); a CPU about to go idle steals the first unpinned task of
 * the longest queue.  Eras with the O(1) scheduler's rules (wake_affine,
 * o1_balance: 2.6.14-2.6.16) decide both as that code did, in balance.c.
 * Round robin comes from the tick (HZ): while a CPU
 * has tasks waiting, its tick sets need_resched, and then
 *   - preempt "none":      nothing happens until the task blocks;
 *   - preempt "voluntary": the task yields at its next might_sleep()
 *                          point (down, sleep, wait_*);
 *   - preempt "full":      it is preempted at once unless preemption is
 *                          disabled (a spinlock held) or interrupts are
 *                          off, and otherwise as soon as that ends.
 * The tick is only armed while a CPU has tasks waiting (like NO_HZ), so
 * that an idle 1024-CPU machine costs no events.
 *
 * What a switch costs (docs/sources.md, "Derived costs"): switching to a
 * task is the era's ctxsw; a CPU whose task blocked or exited with nothing
 * else to run switches to the idle task, a context switch as well.  A
 * wake-up reaches the wakee after the era's wakeup latency.  On machines
 * that wake an idle CPU with an IPI whose cost is known (the era's ipi,
 * the P6 rows), the latency is split as the hardware did it: the IPI's
 * flight (ipi) is latency, and the rest of the wake-up -- the interrupt,
 * schedule() and the switch on the woken CPU -- is that CPU's work.
 *
 * Interrupts: a source fires at its period plus seeded jitter.  If the
 * CPU has interrupts off (the running context's irqoff count) or is
 * already in a handler, the interrupt is latched and delivered when they
 * come back on; a second firing while latched is coalesced, as a real
 * interrupt controller does.  Delivery pauses whatever runs on the CPU,
 * pushes a fresh irq context that pays irq_entry and runs the handler.
 */
#include "core.h"
#include "lock.h"
#include "machine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* What km_emit() does past the hash, for runs that keep the trace, spool
 * it, or explore (a chooser notes what each step touched). */
static void emit_more(struct km_sim *sim, const struct km_trace_rec *r)
{
	if ((sim->trace.store || sim->trace.sink) && km_trace_store(&sim->trace, r) < 0)
		km_fail(sim, KM_ENOMEM, "out of memory storing the trace");
	if (sim->cfg.chooser && sim->running)
		km_choice_note(sim, r->kind, r->obj);
}

/*
 * Emit a trace record: folded into the hash always (km_trace_emit()'s
 * fast half, written out here so that a plain run tests one flag an
 * event, not three), kept and noted only where the run asked for it.
 */
void km_emit(struct km_sim *sim, int kind, int cpu, const struct km_ctx *ctx,
	     uint32_t obj, uint32_t aux, int64_t arg)
{
	struct km_trace_rec r = {
		.time = sim->now, .kind = (uint8_t)kind,
		.cpu = cpu >= 0 ? (uint16_t)cpu : 0xffff,
		.ctx = ctx ? ctx->id : KM_TR_NONE, .obj = obj, .aux = aux, .arg = arg,
	};
	km_trace_fold(&sim->trace, &r);
	sim->trace.count++;
	if (__builtin_expect(sim->emit_more, 0))
		emit_more(sim, &r);
}

/*
 * Does this event move a task?  Interrupts, ticks and what interrupt
 * handlers do in between do not count: a run in which only they remain
 * is stalled (see the deadlock check in km_sim_run).
 */
static bool ev_productive(const struct km_sim *sim, int kind, uint32_t id)
{
	switch (kind) {
	case KM_EV_IRQ:
	case KM_EV_TICK:
	case KM_EV_BALANCE:
		return false;
	case KM_EV_SEG_END:
	case KM_EV_HOLD_END:
	case KM_EV_TIMEOUT:
	case KM_EV_WAKE:
	case KM_EV_START:
		return sim->ctxs.v[id]->kind == KM_CTX_TASK;
	default:
		return true;
	}
}

void km_push(struct km_sim *sim, km_time t, int kind, uint32_t id, uint64_t token)
{
	if (km_evq_push(&sim->evq, t, (uint32_t)kind, id, token) < 0) {
		km_fail(sim, KM_ENOMEM, "out of memory growing the event queue");
		return;
	}
	if (ev_productive(sim, kind, id))
		sim->productive++;
}

/* ---------------------------------------------------------- accounting -- */

void km_ctx_acct(struct km_sim *sim, struct km_ctx *ctx, enum km_acct a)
{
	km_time d = sim->now - ctx->acct_since;
	switch (ctx->acct) {
	case KM_ACCT_RUN: ctx->cpu_ns += d; break;
	case KM_ACCT_SPIN: ctx->spin_ns += d; break;
	case KM_ACCT_BLOCKED: ctx->blocked_ns += d; break;
	case KM_ACCT_RUNNABLE: ctx->runnable_ns += d; break;
	default: break;
	}
	ctx->acct = (int)a;
	ctx->acct_since = sim->now;
}

/* The interrupt flag @cpu's lane shows: that of the task on top of it. */
static inline bool cpu_irqoff_now(const struct km_cpu *cpu, const struct km_ctx *top)
{
	return top && top->kind == KM_CTX_TASK && top->irqoff > 0 && !cpu->switching;
}

static void cpu_irqoff_change(struct km_sim *sim, struct km_cpu *cpu, const struct km_ctx *top,
			      bool off)
{
	if (cpu->irqoff)
		cpu->irqoff_ns += sim->now - cpu->irqoff_since;
	cpu->irqoff = off;
	cpu->irqoff_since = sim->now;
	km_emit(sim, KM_TR_IRQOFF, cpu->id, top, KM_TR_NONE, 0, off);
}

void km_cpu_irqoff_update(struct km_sim *sim, struct km_cpu *cpu)
{
	struct km_ctx *top = km_cpu_top(cpu);
	bool off = cpu_irqoff_now(cpu, top);
	if (off != cpu->irqoff)
		cpu_irqoff_change(sim, cpu, top, off);
}

static void cpu_state_change(struct km_sim *sim, struct km_cpu *cpu, enum km_cpu_state st,
			     struct km_ctx *who)
{
	cpu->acct[cpu->state] += sim->now - cpu->state_since;
	cpu->state = st;
	cpu->state_ctx = who;
	cpu->state_since = sim->now;
	km_emit(sim, KM_TR_CPU, cpu->id, who, KM_TR_NONE, 0, st);
}

/* Is @cpu spinning for a wait-list lock on behalf of @ctx right now? */
static inline bool cpu_spins_for(const struct km_sim *sim, const struct km_cpu *cpu,
				 const struct km_ctx *ctx)
{
	return ctx && cpu->spin_ctx == ctx && cpu->spin_until > sim->now;
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

/*
 * Recompute what @cpu's lane shows, and account the time of the last one.
 * NOTE: called several times an operation, and most calls change nothing
 * (a task's next segment on a busy CPU): the changes are out of line.
 */
void km_cpu_show(struct km_sim *sim, struct km_cpu *cpu)
{
	enum km_cpu_state st;
	struct km_ctx *top = km_cpu_top(cpu);
	struct km_ctx *who = top;

	if (cpu->switching) {
		/* with no task to switch to: a blocked task's last work, or
		 * the switch to the idle task */
		st = cpu->switch_to || cpu->to_idle ? KM_CPU_SWITCH : KM_CPU_BUSY;
		who = cpu->switch_to ? cpu->switch_to : cpu->leaving;
		if (st == KM_CPU_BUSY && cpu_spins_for(sim, cpu, cpu->leaving))
			st = KM_CPU_SPIN;
	} else if (!top) {
		st = KM_CPU_IDLE;
	} else if (top->act == KM_ACT_SPIN) {
		st = KM_CPU_SPIN;
	} else if (top->kind == KM_CTX_IRQ) {
		st = KM_CPU_IRQ;
	} else {
		st = cpu_spins_for(sim, cpu, top) ? KM_CPU_SPIN : KM_CPU_BUSY;
	}
	/* keep the idle set that wake-ups search */
	uint64_t bit = 1ULL << (cpu->id & 63);
	if (!cpu->curr && !cpu->switching)
		sim->idle_mask[cpu->id >> 6] |= bit;
	else
		sim->idle_mask[cpu->id >> 6] &= ~bit;
	if (st != cpu->state || who != cpu->state_ctx)
		cpu_state_change(sim, cpu, st, who);
	bool off = cpu_irqoff_now(cpu, top);
	if (off != cpu->irqoff)
		cpu_irqoff_change(sim, cpu, top, off);
}

/* ------------------------------------------------------------ segments -- */

static void seg_arm(struct km_sim *sim, struct km_ctx *ctx)
{
	ctx->seg_token++;
	/* a held task's delay ends in its own kind of event (choice.c) */
	km_push_ctx(sim, ctx->seg_end, km_ctx_held(ctx) ? KM_EV_HOLD_END : KM_EV_SEG_END, ctx,
		       ctx->seg_token);
}

void km_ctx_run_seg(struct km_sim *sim, struct km_ctx *ctx, km_time d)
{
	ctx->act = KM_ACT_SEG;
	if (km_ctx_on_top(sim, ctx)) {
		ctx->seg_end = km_sat_add(sim->now, d);
		seg_arm(sim, ctx);
		if (ctx->kind == KM_CTX_TASK)
			km_ctx_acct(sim, ctx, cpu_spins_for(sim, &sim->cpus[ctx->cpu], ctx)
					      ? KM_ACCT_SPIN : KM_ACCT_RUN);
		km_cpu_show(sim, &sim->cpus[ctx->cpu]);
	} else {
		/* Interrupted or off CPU: it runs when it is on top again. */
		ctx->seg_left = d;
	}
}

void km_ctx_spin(struct km_sim *sim, struct km_ctx *ctx)
{
	ctx->act = KM_ACT_SPIN;
	if (km_ctx_on_top(sim, ctx)) {
		if (ctx->kind == KM_CTX_TASK)
			km_ctx_acct(sim, ctx, KM_ACCT_SPIN);
		km_cpu_show(sim, &sim->cpus[ctx->cpu]);
	}
}

/* @ctx stops being on top of its CPU (interrupted, preempted, or leaving). */
static void ctx_pause(struct km_sim *sim, struct km_ctx *ctx)
{
	if (ctx->act == KM_ACT_SEG) {
		ctx->seg_left = ctx->seg_end - sim->now;
		ctx->seg_token++;	/* its pending SEG_END is now stale */
	}
	if (ctx->kind == KM_CTX_TASK)
		km_ctx_acct(sim, ctx, KM_ACCT_NONE);
}

/* @ctx is on top of its CPU again: carry on with what it was doing. */
static void ctx_unpause(struct km_sim *sim, struct km_ctx *ctx)
{
	switch (ctx->act) {
	case KM_ACT_SEG:
		km_ctx_run_seg(sim, ctx, ctx->seg_left);
		break;
	case KM_ACT_READY:
		km_ctx_run_seg(sim, ctx, 0);
		break;
	case KM_ACT_SPIN:
		km_ctx_spin(sim, ctx);
		break;
	case KM_ACT_NONE:
		break;
	}
}

/* ------------------------------------------------------------- timeouts -- */

void km_ctx_arm_timeout(struct km_sim *sim, struct km_ctx *ctx, km_time deadline)
{
	ctx->deadline = deadline;
	ctx->wait_token++;
	km_push_ctx(sim, deadline, KM_EV_TIMEOUT, ctx, ctx->wait_token);
}

void km_ctx_cancel_timeout(struct km_ctx *ctx)
{
	ctx->wait_token++;
	ctx->deadline = KM_TIME_NEVER;
}

/* ------------------------------------------------------------ run queue -- */

static bool cpu_idle(const struct km_cpu *cpu)
{
	return !cpu->curr && !cpu->switching;
}

/*
 * Run-queue lengths as two tournament trees, so that a new task placed
 * while every CPU is busy (select_cpu) and an idle CPU looking for work
 * (steal) find the shortest or the longest queue in O(1), where a scan
 * costs O(CPUs): 100,000 tasks started at once on 1024 busy CPUs spent
 * 1.2 G instructions scanning.  Queues change far more often than they
 * are searched, so a change only marks its CPU dirty (O(1)), and a search
 * first replays the dirty CPUs' paths (O(log CPUs) each).  Below
 * KM_RQ_TREE_MIN CPUs the plain scans stay.  The trees choose exactly
 * what the scans choose (the lowest id on a tie), so a run is the same
 * either way.
 */
static inline int rq_pick(const struct km_sim *sim, int a, int b, bool shortest)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	int la = sim->cpus[a].rq_len, lb = sim->cpus[b].rq_len;
	if (la == lb)
		return a < b ? a : b;
	return (shortest ? la < lb : la > lb) ? a : b;
}

int km_rq_trees_init(struct km_sim *sim)
{
	if (sim->ncpus <= KM_RQ_TREE_MIN)
		return 0;
	int size = 1;
	while (size < sim->ncpus)
		size <<= 1;
	sim->rq_short = malloc(2 * (size_t)size * sizeof(int));
	sim->rq_long = malloc(2 * (size_t)size * sizeof(int));
	sim->rq_dirty = malloc((size_t)sim->ncpus * sizeof(int));
	sim->rq_is_dirty = calloc((size_t)sim->ncpus, 1);
	if (!sim->rq_short || !sim->rq_long || !sim->rq_dirty || !sim->rq_is_dirty)
		return -1;
	sim->rq_tree_size = size;
	for (int i = 0; i < size; i++)
		sim->rq_short[size + i] = sim->rq_long[size + i] = i < sim->ncpus ? i : -1;
	for (int n = size - 1; n >= 1; n--) {
		sim->rq_short[n] = rq_pick(sim, sim->rq_short[2 * n], sim->rq_short[2 * n + 1], true);
		sim->rq_long[n] = rq_pick(sim, sim->rq_long[2 * n], sim->rq_long[2 * n + 1], false);
	}
	return 0;
}

/* @cpu's rq_len changed: mark it for the next search. */
static inline void rq_tree_update(struct km_sim *sim, const struct km_cpu *cpu)
{
	if (!sim->rq_short || sim->rq_is_dirty[cpu->id])
		return;
	sim->rq_is_dirty[cpu->id] = 1;
	sim->rq_dirty[sim->rq_ndirty++] = cpu->id;
}

/*
 * Before a search: replay each dirty CPU's matches up to the root.  One
 * path after another is enough: each replay recomputes its nodes from
 * their children, and a node shared with a later path is recomputed
 * again by it.
 */
static void rq_trees_refresh(struct km_sim *sim)
{
	for (int i = 0; i < sim->rq_ndirty; i++) {
		int id = sim->rq_dirty[i];
		sim->rq_is_dirty[id] = 0;
		for (int n = (sim->rq_tree_size + id) >> 1; n >= 1; n >>= 1) {
			sim->rq_short[n] = rq_pick(sim, sim->rq_short[2 * n],
						   sim->rq_short[2 * n + 1], true);
			sim->rq_long[n] = rq_pick(sim, sim->rq_long[2 * n],
						  sim->rq_long[2 * n + 1], false);
		}
	}
	sim->rq_ndirty = 0;
}

/*
 * era.o1_balance: idle CPUs balance at each timer tick while a task
 * waits on some run queue (balance.c).  One event per tick for all CPUs,
 * and none while nothing waits or no CPU is idle: the kernel's ticks
 * would find the domain balanced then.
 */
static bool any_cpu_idle(const struct km_sim *sim)
{
	for (int w = 0; w < (sim->ncpus + 63) / 64; w++)
		if (sim->idle_mask[w])
			return true;
	return false;
}

static void balance_arm(struct km_sim *sim)
{
	if (sim->balance_armed || !sim->queued || sim->era.hz <= 0)
		return;
	sim->balance_armed = true;
	km_push(sim, km_next_tick(sim), KM_EV_BALANCE, 0, 0);
}

/* Queue @ctx at the tail of @cpu's run queue; a queued task and an idle
 * CPU arm the next tick's balance (era.o1_balance). */
static inline void rq_append(struct km_sim *sim, struct km_cpu *cpu, struct km_ctx *ctx)
{
	sim->queued++;
	ctx->rq_next = NULL;
	if (cpu->rq_tail)
		cpu->rq_tail->rq_next = ctx;
	else
		cpu->rq_head = ctx;
	cpu->rq_tail = ctx;
	cpu->rq_len++;
	rq_tree_update(sim, cpu);
	if (sim->era.o1_balance && any_cpu_idle(sim))
		balance_arm(sim);
}

/* The same, for the balancer (balance.c); the scheduler's own calls
 * above are inlined, being on every wake-up and preemption. */
void km_rq_append(struct km_sim *sim, struct km_cpu *cpu, struct km_ctx *ctx)
{
	rq_append(sim, cpu, ctx);
}

/* @ctx moves to @to from the CPU it last ran on: traced and counted. */
void km_cpu_migrated(struct km_sim *sim, struct km_cpu *to, const struct km_ctx *ctx)
{
	to->migrations++;
	km_emit(sim, KM_TR_MIGRATE, to->id, ctx, KM_TR_NONE, (uint32_t)to->id, 0);
}

/* Take @ctx off @cpu's queue; @prev is the task before it, or NULL. */
void km_rq_unlink(struct km_sim *sim, struct km_cpu *cpu, struct km_ctx *ctx,
		  struct km_ctx *prev)
{
	if (prev)
		prev->rq_next = ctx->rq_next;
	else
		cpu->rq_head = ctx->rq_next;
	if (cpu->rq_tail == ctx)
		cpu->rq_tail = prev;
	cpu->rq_len--;
	rq_tree_update(sim, cpu);
	sim->queued--;
	ctx->rq_next = NULL;
}

static inline struct km_ctx *rq_pop(struct km_sim *sim, struct km_cpu *cpu)
{
	struct km_ctx *ctx = cpu->rq_head;
	if (!ctx)
		return NULL;
	sim->queued--;
	cpu->rq_head = ctx->rq_next;
	if (!cpu->rq_head)
		cpu->rq_tail = NULL;
	cpu->rq_len--;
	rq_tree_update(sim, cpu);
	ctx->rq_next = NULL;
	return ctx;
}

/* Take the first unpinned task off the longest other run queue. */
static struct km_ctx *steal(struct km_sim *sim, struct km_cpu *thief)
{
	struct km_cpu *busiest = NULL;
	if (!sim->queued)
		return NULL;	/* nothing waits anywhere: no need to look */
	if (sim->rq_long)
		rq_trees_refresh(sim);
	int longest = sim->rq_long ? sim->rq_long[1] : -1;
	if (longest >= 0 && longest != thief->id) {
		busiest = &sim->cpus[longest];	/* the scan's choice: see rq_pick */
		if (!busiest->rq_len)
			busiest = NULL;
	} else {
		for (int i = 0; i < sim->ncpus; i++) {
			struct km_cpu *c = &sim->cpus[i];
			if (c != thief && c->rq_len > 0 &&
			    (!busiest || c->rq_len > busiest->rq_len))
				busiest = c;
		}
	}
	if (!busiest)
		return NULL;
	struct km_ctx *prev = NULL;
	for (struct km_ctx *t = busiest->rq_head; t; prev = t, t = t->rq_next) {
		if (t->pinned >= 0)
			continue;
		km_rq_unlink(sim, busiest, t, prev);
		km_cpu_migrated(sim, thief, t);
		return t;
	}
	return NULL;
}

static void tick_arm(struct km_sim *sim, struct km_cpu *cpu)
{
	if (cpu->tick_armed || sim->era.preempt == KM_PREEMPT_NONE || sim->era.hz <= 0)
		return;
	km_time period = 1000000000LL / sim->era.hz;
	km_time t = (sim->now / period + 1) * period;
	cpu->tick_armed = true;
	km_push(sim, t, KM_EV_TICK, (uint32_t)cpu->id, 0);
}

enum km_sched_how {
	KM_SCHED_PLAIN,
	KM_SCHED_BLOCKED,
	KM_SCHED_WOKEN,
};

/*
 * rq_lock_switch - the part of a switch of @d on @cpu that schedule() does
 * under the CPU's run-queue lock, on eras with per-CPU run-queue locks
 * (era.rq_lock).  schedule() takes the lock before it picks the next task
 * and, on i386 and x86 (no __ARCH_WANT_UNLOCKED_CTXSW), holds it through
 * switch_to() until finish_task_switch(): the era's ctxsw, the last part
 * of @d (what comes before it -- the entry of the IPI that woke an idle
 * CPU -- runs unlocked).  A waker on another CPU may hold the lock in
 * try_to_wake_up(): then the switch waits for it.
 * @balance, the idle balancing schedule() did first, is under the lock too
 * (it is part of @d).  Returns @d plus that wait.
 */
static km_time rq_lock_switch(struct km_sim *sim, struct km_cpu *cpu, km_time d, km_time balance)
{
	if (!sim->era.rq_lock)
		return d;
	km_time locked = d - balance < km_cost(sim)->ctxsw ? d : km_cost(sim)->ctxsw + balance;
	km_time want = sim->now + (d - locked);
	km_time start = cpu->rq_lock_free > want ? cpu->rq_lock_free : want;
	cpu->rq_lock_free = start + locked;
	return cpu->rq_lock_free - sim->now;
}

/* Start a context switch on @cpu to @next (NULL: the idle task) that
 * takes @d, after @balance of idle balancing; on_switch() ends it. */
static void cpu_switch(struct km_sim *sim, struct km_cpu *cpu, struct km_ctx *next, km_time d,
		       km_time balance)
{
	d += balance;
	if (next) {
		next->cpu = cpu->id;
		cpu->resched_ipi_lands = 0;	/* schedule() clears need_resched */
	}
	cpu->switching = true;
	cpu->switch_to = next;
	cpu->to_idle = !next;
	cpu->token++;
	d = rq_lock_switch(sim, cpu, d, balance);
	km_push(sim, sim->now + d, KM_EV_SWITCH, (uint32_t)cpu->id, cpu->token);
	km_cpu_show(sim, cpu);
}

/*
 * newidle_balance_cost - what schedule() spends, on a CPU whose task just
 * blocked and whose run queue is empty, looking for work elsewhere before
 * it idles (era.newidle_balance).  2.6.0's schedule() calls load_balance()
 * with idle set, and from 2.6.7 idle_balance() calls load_balance_newidle()
 * for each domain with SD_BALANCE_NEWIDLE (SD_CPU_INIT has it); both run
 * with this CPU's run-queue lock held and read every other CPU's run-queue
 * load (find_busiest_queue(), find_busiest_group()): a line each, written
 * by its own CPU at every enqueue and dequeue (docs/sources.md, [NEWIDLE]).
 * The engine has no NUMA domains, so the scan covers the whole machine.
 * From 2.6.32 it is skipped while the CPU's average idle time is short
 * (not modelled: those eras leave the field off).
 */
static km_time newidle_balance_cost(const struct km_sim *sim)
{
	if (!sim->era.newidle_balance || sim->ncpus < 2)
		return 0;
	return (km_time)(sim->ncpus - 1) * km_cost(sim)->cacheline;
}

/*
 * @cpu has no current task: switch to the next one, or go idle.  @how
 * says what the CPU was doing, for what schedule() costs it:
 *  - KM_SCHED_PLAIN: nothing to add (a preemption, an irq's exit);
 *  - KM_SCHED_BLOCKED: its task blocked or exited, so with nothing to run
 *    it switches to the idle task, and that is a context switch too;
 *  - KM_SCHED_WOKEN: it was idle and a wake-up's reschedule IPI brought
 *    it out: the interrupt's entry and exit come before the switch.
 */
static void cpu_schedule_how(struct km_sim *sim, struct km_cpu *cpu, enum km_sched_how how)
{
	struct km_ctx *next = rq_pop(sim, cpu);
	km_time balance = 0;
	if (!next && sim->era.o1_balance) {
		/* idle_balance(): only on the way to idle, from schedule() */
		if (how == KM_SCHED_BLOCKED) {
			km_time pull;
			balance = newidle_balance_cost(sim);
			if (km_o1_balance(sim, cpu, true, &pull))
				next = rq_pop(sim, cpu);
			balance += pull;
		}
	} else if (!next) {
		if (how == KM_SCHED_BLOCKED)
			balance = newidle_balance_cost(sim);
		next = steal(sim, cpu);
	}
	if (!next) {
		if (how == KM_SCHED_BLOCKED)
			cpu_switch(sim, cpu, NULL, km_cost(sim)->ctxsw, balance);
		else
			km_cpu_show(sim, cpu);
		if (sim->era.o1_balance)
			balance_arm(sim);
		return;
	}
	km_time d = how == KM_SCHED_WOKEN ? km_wake_switch_cost(sim) : km_cost(sim)->ctxsw;
	cpu_switch(sim, cpu, next, d, balance);
}

static void cpu_schedule(struct km_sim *sim, struct km_cpu *cpu)
{
	cpu_schedule_how(sim, cpu, KM_SCHED_PLAIN);
}

/*
 * @cpu's task @prev has just blocked, but the CPU first spends @d on the
 * rest of its way to sleep -- the failed attempt, queueing under the wait
 * list's lock and any spinning for it -- before schedule() can switch.
 * The lane shows @prev busy (its own accounting already says blocked: the
 * tail is charged to the CPU only); an EV_SWITCH with no task to switch
 * to ends it (on_switch).
 */
static void cpu_schedule_after(struct km_sim *sim, struct km_cpu *cpu, struct km_ctx *prev,
			       km_time d)
{
	if (d <= 0) {
		cpu_schedule_how(sim, cpu, KM_SCHED_BLOCKED);
		return;
	}
	cpu->switching = true;
	cpu->switch_to = NULL;
	cpu->leaving = prev;
	cpu->token++;
	km_push(sim, sim->now + d, KM_EV_SWITCH, (uint32_t)cpu->id, cpu->token);
	km_cpu_show(sim, cpu);
}

/* The first idle CPU at or after @from, cyclically, or -1: a word at a
 * time through the idle set, so 1024 busy CPUs cost 16 loads, not 1024. */
static int next_idle(const struct km_sim *sim, int from)
{
	int words = (sim->ncpus + 63) / 64;
	for (int k = 0; k <= words; k++) {
		int w = ((from >> 6) + k) % words;
		uint64_t m = sim->idle_mask[w];
		if (k == 0)
			m &= ~0ULL << (from & 63);	/* at or after from */
		if (k == words)
			m &= (from & 63) ? ~(~0ULL << (from & 63)) : 0;	/* wrapped: before from */
		if (m) {
			int c = w * 64 + __builtin_ctzll(m);
			if (c < sim->ncpus)
				return c;
		}
	}
	return -1;
}

/*
 * Where a task goes when it becomes runnable (@woken: by a wake-up, else
 * at its start).  The generic rule: its previous CPU if idle, else any
 * idle CPU, else back to its previous CPU's queue.
 *
 * With era.wake_prev_cpu, a woken task goes back to its previous CPU, busy
 * or not, as try_to_wake_up() of 2.6.13-2.6.17 did on a machine without
 * hyper-threading (docs/sources.md, [TOPO15]): wake_idle() looks for an
 * idle CPU only in domains with SD_WAKE_IDLE, which SD_CPU_INIT lacked.
 * With era.wake_affine the waker may have chosen its own CPU instead
 * (km_wake_cpu(), wake.c): then km_wake_placed() says so.
 */
static int select_cpu(struct km_sim *sim, const struct km_ctx *ctx, bool woken)
{
	if (ctx->pinned >= 0)
		return ctx->pinned;
	if (woken && km_wake_placed(ctx) >= 0)
		return km_wake_placed(ctx);	/* try_to_wake_up() chose (km_wake_cpu) */
	int prev = ctx->cpu >= 0 ? ctx->cpu : 0;
	/* try_to_wake_up() without SD_WAKE_IDLE: the previous CPU, busy or not */
	if (woken && sim->era.wake_prev_cpu && ctx->cpu >= 0)
		return prev;
	int c = next_idle(sim, prev);
	if (c >= 0)
		return c;
	if (ctx->cpu >= 0)
		return ctx->cpu;
	/* A new task with every CPU busy: the shortest queue. */
	if (sim->rq_short) {
		rq_trees_refresh(sim);
		return sim->rq_short[1];
	}
	int best = 0;
	for (int i = 1; i < sim->ncpus; i++)
		if (sim->cpus[i].rq_len < sim->cpus[best].rq_len)
			best = i;
	return best;
}

static void make_runnable(struct km_sim *sim, struct km_ctx *ctx, enum km_sched_how how)
{
	int c = select_cpu(sim, ctx, how == KM_SCHED_WOKEN);
	struct km_cpu *cpu = &sim->cpus[c];
	km_wake_clear(ctx);
	if (ctx->cpu >= 0 && ctx->cpu != c)
		km_cpu_migrated(sim, cpu, ctx);
	ctx->cpu = c;
	ctx->state = KM_CTX_RUNNABLE;
	km_ctx_acct(sim, ctx, KM_ACCT_RUNNABLE);
	rq_append(sim, cpu, ctx);
	if (cpu_idle(cpu))
		cpu_schedule_how(sim, cpu, how);
	else
		tick_arm(sim, cpu);
}

/* ------------------------------------------------------------ blocking -- */

void km_ctx_block(struct km_sim *sim, struct km_ctx *ctx, enum km_wait w, void *obj)
{
	km_ctx_block_after(sim, ctx, w, obj, 0);
}

void km_ctx_block_after(struct km_sim *sim, struct km_ctx *ctx, enum km_wait w, void *obj,
		       km_time tail)
{
	struct km_cpu *cpu = km_cpu_of(sim, ctx);
	bool top = km_cpu_top(cpu) == ctx;

	ctx->wait = w;
	ctx->wait_obj = obj;
	ctx->state = KM_CTX_BLOCKED;
	ctx->last_ran = sim->now + tail;	/* schedule() switches it out then */
	ctx->ran = true;
	ctx->act = KM_ACT_NONE;
	ctx->seg_token++;
	km_ctx_acct(sim, ctx, KM_ACCT_BLOCKED);
	/* the trace names what it sleeps on: a lock, a queue, a completion */
	uint32_t id = KM_TR_NONE;
	if (w == KM_WAIT_LOCK)
		id = ((const struct km_lock *)obj)->id;
	else if (w == KM_WAIT_WQ)
		id = ((const struct km_waitq *)obj)->id;
	else if (w == KM_WAIT_COMPLETION)
		id = ((const struct km_completion *)obj)->id;
	km_emit(sim, KM_TR_BLOCK, cpu->id, ctx, id, (uint32_t)w, 0);

	km_lock_owner_off_cpu(sim, ctx);
	km_bkl_release_on_sleep(sim, ctx);
	if (sim->holds)
		km_choice_release_for(sim, ctx);
	cpu->curr = NULL;
	if (top)
		cpu_schedule_after(sim, cpu, ctx, tail);
	else
		km_cpu_show(sim, cpu);	/* an irq runs above: its exit will schedule */
}

void km_ctx_wake(struct km_sim *sim, struct km_ctx *ctx, int64_t result)
{
	if (ctx->state != KM_CTX_BLOCKED)
		return;
	km_ctx_cancel_timeout(ctx);
	ctx->wait = KM_WAIT_NONE;
	ctx->wait_obj = NULL;
	ctx->result = result;
	ctx->act = KM_ACT_READY;
	ctx->state = KM_CTX_RUNNABLE;	/* on its way: EV_WAKE queues it */
	km_wake_arrive(sim, ctx);
}

/* --------------------------------------------------------- preemption -- */

/*
 * A BKL holder is not preemptible either: lock_kernel() disabled
 * preemption (2.6.0), and the later preemptible BKL was a sleeping lock,
 * not one whose waiters spin on a preempted holder.  It is not "atomic"
 * for all that: it may sleep, dropping the lock.
 */
bool km_ctx_preemptible(const struct km_sim *sim, const struct km_ctx *ctx)
{
	return ctx->kind == KM_CTX_TASK && ctx->preempt_count == 0 && ctx->irqoff == 0 &&
	       ctx->bkl_depth == 0 && (ctx->act == KM_ACT_SEG || ctx->act == KM_ACT_READY);
}

/* Put @cpu's current task back on its run queue and switch. */
static void preempt_curr(struct km_sim *sim, struct km_cpu *cpu)
{
	struct km_ctx *curr = cpu->curr;
	ctx_pause(sim, curr);
	if (curr->act == KM_ACT_NONE)
		curr->act = KM_ACT_READY;
	km_emit(sim, KM_TR_PREEMPT, cpu->id, curr, KM_TR_NONE, (uint32_t)cpu->id, 0);
	km_lock_owner_off_cpu(sim, curr);
	/* schedule() releases the BKL of whatever task it switches away
	 * from, sleeping or not, and retakes it when that task runs again. */
	km_bkl_release_on_sleep(sim, curr);
	cpu->need_resched = false;
	cpu->curr = NULL;
	curr->last_ran = sim->now;
	curr->ran = true;
	curr->state = KM_CTX_RUNNABLE;
	km_ctx_acct(sim, curr, KM_ACCT_RUNNABLE);
	rq_append(sim, cpu, curr);
	cpu_schedule(sim, cpu);
}

bool km_cpu_maybe_preempt(struct km_sim *sim, struct km_cpu *cpu)
{
	if (sim->era.preempt != KM_PREEMPT_FULL || !cpu->need_resched)
		return false;
	if (cpu->switching || cpu->irq_top || !cpu->curr || cpu->rq_len == 0)
		return false;
	if (!km_ctx_preemptible(sim, cpu->curr))
		return false;
	preempt_curr(sim, cpu);
	return true;
}

int km_op_might_sleep(struct km_sim *sim, struct km_ctx *ctx)
{
	struct km_cpu *cpu = km_cpu_of(sim, ctx);
	if (sim->era.preempt != KM_PREEMPT_VOLUNTARY || ctx->kind != KM_CTX_TASK ||
	    !cpu->need_resched || cpu->rq_len == 0 || ctx->preempt_count || ctx->irqoff)
		return KM_STEP_DONE;
	ctx->act = KM_ACT_READY;
	preempt_curr(sim, cpu);
	return KM_STEP_WAIT;
}

static void tick(struct km_sim *sim, struct km_cpu *cpu)
{
	if (cpu->rq_len == 0)
		return;
	cpu->need_resched = true;
	struct km_ctx *top = km_cpu_top(cpu);
	/* An optimistic mutex spinner gives up when it should reschedule. */
	if (top && top == cpu->curr && top->act == KM_ACT_SPIN && top->wait == KM_WAIT_LOCK) {
		struct km_lock *l = top->wait_obj;
		if (l->ops && l->ops->spin_abort)
			l->ops->spin_abort(sim, l, top);
	}
	if (!cpu->curr && !cpu->switching)
		cpu_schedule(sim, cpu);
	else
		km_cpu_maybe_preempt(sim, cpu);
}

/* ------------------------------------------------------------ interrupts -- */

static bool irq_deliverable(const struct km_cpu *cpu)
{
	return !cpu->switching && !cpu->irq_top && (!cpu->curr || cpu->curr->irqoff == 0);
}

static struct km_ctx *irq_ctx_alloc(struct km_sim *sim)
{
	struct km_ctx *ctx = sim->free_irq_ctx;
	if (ctx) {
		sim->free_irq_ctx = ctx->rq_next;
		uint32_t id = ctx->id;
		uint64_t st = ctx->seg_token, wt = ctx->wait_token;
		memset(ctx, 0, sizeof(*ctx));
		ctx->id = id;
		ctx->seg_token = st;	/* stale events must stay stale */
		ctx->wait_token = wt;
	} else {
		ctx = calloc(1, sizeof(*ctx));
		if (!ctx || KM_VEC_PUSH(sim->ctxs, ctx) < 0) {
			free(ctx);
			km_fail(sim, KM_ENOMEM, "out of memory for an interrupt context");
			return NULL;
		}
		ctx->id = sim->ctxs.n - 1;
	}
	ctx->kind = KM_CTX_IRQ;
	ctx->pinned = -1;
	km_wake_clear(ctx);
	ctx->deadline = KM_TIME_NEVER;
	return ctx;
}

static void irq_deliver(struct km_sim *sim, struct km_cpu *cpu, struct km_irqsrc *src)
{
	src->pending = false;
	cpu->irq_pending--;
	struct km_ctx *ictx = irq_ctx_alloc(sim);
	if (!ictx)
		return;
	struct km_ctx *top = km_cpu_top(cpu);
	if (top)
		ctx_pause(sim, top);
	ictx->name = src->name;
	ictx->irq_source = src->id;
	ictx->cpu = cpu->id;
	ictx->state = KM_CTX_ONCPU;
	ictx->start_at = sim->now;
	ictx->below = cpu->irq_top;
	cpu->irq_top = ictx;
	km_emit(sim, KM_TR_IRQ_ENTER, cpu->id, ictx, src->id, 0, 0);
	if (sim->host->irq_prepare(sim->host_data, sim, ictx, src) < 0) {
		if (!sim->error)
			km_fail(sim, KM_EINVAL, "cannot start the handler of irq '%s'", src->name);
		return;
	}
	if (km_gil_irq_may_enter(sim, ictx)) {
		sim->irqs_running++;
		km_ctx_run_seg(sim, ictx, km_cost(sim)->irq_entry);
	} else {
		km_cpu_show(sim, cpu);
	}
}

/* Deliver what was latched while interrupts were off, take a latched
 * tick, and preempt if that was asked for.  Called whenever interrupts
 * may have come back on: local_irq_enable, cli-mode up(), irq exit. */
void km_cpu_irqs_maybe_enabled(struct km_sim *sim, struct km_cpu *cpu)
{
	if (!irq_deliverable(cpu))
		return;
	if (cpu->irq_pending) {
		for (struct km_irqsrc *s = cpu->irqs; s; s = s->cpu_next) {
			if (s->pending) {
				irq_deliver(sim, cpu, s);
				return;
			}
		}
	}
	if (cpu->tick_pending) {
		cpu->tick_pending = false;
		tick(sim, cpu);
		if (cpu->rq_len)
			tick_arm(sim, cpu);
		return;
	}
	km_cpu_maybe_preempt(sim, cpu);
}

static void irq_fire(struct km_sim *sim, struct km_irqsrc *src)
{
	/* Schedule the next firing first: jitter draws stay in event order. */
	src->next_nominal = km_sat_add(src->next_nominal, src->every);
	km_time j = src->jitter ? km_rng_range(&sim->rng, 0, src->jitter) : 0;
	src->next_at = km_sat_add(src->next_nominal, j);
	km_push(sim, src->next_at, KM_EV_IRQ, src->id, 0);

	src->fired++;
	sim->stall_fires++;
	if (src->pending) {
		src->coalesced++;
		return;
	}
	struct km_cpu *cpu = &sim->cpus[src->cpu];
	src->pending = true;
	cpu->irq_pending++;
	if (irq_deliverable(cpu))
		irq_deliver(sim, cpu, src);
}

static void irq_exit(struct km_sim *sim, struct km_ctx *ictx)
{
	struct km_cpu *cpu = km_cpu_of(sim, ictx);
	struct km_irqsrc *src = sim->irqsrcs.v[ictx->irq_source];

	if (sim->holds)
		km_choice_release_for_irq(sim, src);
	km_minmax_add(&src->handler, sim->now - ictx->start_at);
	km_emit(sim, KM_TR_IRQ_EXIT, cpu->id, ictx, src->id, 0, 0);
	cpu->irq_top = ictx->below;
	sim->irqs_running--;
	ictx->state = KM_CTX_DONE;
	ictx->act = KM_ACT_NONE;
	ictx->seg_token++;
	km_ctx_cancel_timeout(ictx);
	sim->host->ctx_release(sim->host_data, sim, ictx);
	ictx->host = NULL;
	ictx->rq_next = sim->free_irq_ctx;
	sim->free_irq_ctx = ictx;

	km_gil_irq_exited(sim);
	struct km_ctx *top = km_cpu_top(cpu);
	if (!cpu->irq_top && !cpu->curr && !cpu->switching) {
		cpu_schedule(sim, cpu);
	} else if (top) {
		/* Resume the interrupted context, then see what else is due. */
		if (top->kind == KM_CTX_TASK && top->state == KM_CTX_ONCPU)
			ctx_unpause(sim, top);
		else if (top->kind == KM_CTX_IRQ)
			ctx_unpause(sim, top);
	}
	km_cpu_show(sim, cpu);
	km_cpu_irqs_maybe_enabled(sim, cpu);
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
		km_var_add_commit(sim, ctx);
		break;
	case KM_THEN_REDO_DOWN:
	case KM_THEN_WAIT_LOCK: {
		/* a woken waiter's retry, or a spin for a wait-list lock ended */
		enum km_then then = ctx->then;
		ctx->then = KM_THEN_NONE;
		int r = then == KM_THEN_REDO_DOWN ? km_lock_redo(sim, ctx) :
						    km_lock_wait_lock_turn(sim, ctx);
		if (r != KM_STEP_DONE)
			return;
		break;
	}
	case KM_THEN_IRQ_EXIT:
		ctx->then = KM_THEN_NONE;
		irq_exit(sim, ctx);
		return;
	}
	ctx->in_then = false;
	/* a choice point: a strategy may hold the task back (choice.c) */
	if (sim->cfg.chooser && ctx->kind == KM_CTX_TASK && km_choice_point(sim, ctx))
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

void km_ctx_finish(struct km_sim *sim, struct km_ctx *ctx)
{
	struct km_cpu *cpu = km_cpu_of(sim, ctx);

	km_lockdep_exit(sim, ctx);
	if (ctx->kind == KM_CTX_IRQ) {
		/* The handler's code is done; leave the interrupt in the loop,
		 * not from inside the host's resume. */
		ctx->then = KM_THEN_IRQ_EXIT;
		km_ctx_run_seg(sim, ctx, 0);
		return;
	}
	ctx->finished = true;
	ctx->end_ns = sim->now;
	ctx->state = KM_CTX_DONE;
	ctx->act = KM_ACT_NONE;
	ctx->seg_token++;
	km_ctx_cancel_timeout(ctx);
	km_ctx_acct(sim, ctx, KM_ACCT_NONE);
	km_emit(sim, KM_TR_TASK_EXIT, cpu->id, ctx, KM_TR_NONE, 0, 0);
	sim->live_tasks--;
	if (sim->holds)
		km_choice_release_for(sim, ctx);
	km_lock_owner_off_cpu(sim, ctx);
	km_bkl_release_on_sleep(sim, ctx);	/* do_exit: schedule() drops it */
	ctx->bkl_saved = ctx->gcli_saved = 0;
	ctx->irqoff = 0;
	ctx->preempt_count = 0;
	sim->host->ctx_release(sim->host_data, sim, ctx);
	cpu->curr = NULL;
	if (!cpu->irq_top)
		cpu_schedule_how(sim, cpu, KM_SCHED_BLOCKED);
	else
		km_cpu_show(sim, cpu);
}

static void on_switch(struct km_sim *sim, struct km_cpu *cpu)
{
	struct km_ctx *next = cpu->switch_to;
	cpu->switching = false;
	cpu->switch_to = NULL;
	if (!next && cpu->to_idle) {	/* now in the idle task */
		cpu->to_idle = false;
		cpu_schedule(sim, cpu);
		km_cpu_irqs_maybe_enabled(sim, cpu);
		return;
	}
	if (!next) {	/* the end of cpu_schedule_after()'s tail */
		struct km_ctx *prev = cpu->leaving;
		cpu->leaving = NULL;
		cpu_schedule_how(sim, cpu, KM_SCHED_BLOCKED);
		if (prev && prev->wake_deferred) {
			prev->wake_deferred = false;
			if (prev->state == KM_CTX_RUNNABLE &&
			    prev->wake_deferred_token == prev->seg_token)
				make_runnable(sim, prev, KM_SCHED_WOKEN);
		}
		km_cpu_irqs_maybe_enabled(sim, cpu);
		return;
	}
	cpu->curr = next;
	cpu->ctxsw++;
	next->state = KM_CTX_ONCPU;
	next->cpu = cpu->id;
	if (!km_bkl_reacquire(sim, next))
		ctx_unpause(sim, next);
	km_cpu_show(sim, cpu);
	km_cpu_irqs_maybe_enabled(sim, cpu);
}

/*
 * A timer tick's balancing (era.o1_balance): every idle CPU whose
 * interval is due runs rebalance_tick()'s load_balance(), and switches to
 * what it pulled (pull_task() preempts the idle task).  The pull's cost
 * comes before the switch, under the CPU's run-queue lock.
 */
static void balance_tick(struct km_sim *sim)
{
	for (int i = 0; i < sim->ncpus && sim->queued; i++) {
		struct km_cpu *cpu = &sim->cpus[i];
		if (!cpu_idle(cpu) || cpu->rq_len || cpu->irq_top || !km_o1_balance_due(sim, cpu))
			continue;
		km_o1_balance_stamp(sim, cpu);
		km_time pull;
		if (km_o1_balance(sim, cpu, false, &pull))
			cpu_switch(sim, cpu, rq_pop(sim, cpu), km_cost(sim)->ctxsw, pull);
	}
	if (any_cpu_idle(sim))
		balance_arm(sim);
}

static void on_timeout(struct km_sim *sim, struct km_ctx *ctx)
{
	km_ctx_cancel_timeout(ctx);
	switch (ctx->wait) {
	case KM_WAIT_LOCK:
		km_lock_timeout(sim, ctx);
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
		/* a held task's delay ran out (KM_HOLD_MAX): its step follows */
		ctx = sim->ctxs.v[ev->id];
		if (ev->token != ctx->seg_token || ctx->act != KM_ACT_SEG ||
		    !km_ctx_on_top(sim, ctx))
			return;
		km_choice_hold_expired(sim, ctx);
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
		make_runnable(sim, ctx, KM_SCHED_WOKEN);
		return;
	case KM_EV_BALANCE:
		sim->balance_armed = false;
		balance_tick(sim);
		return;
	case KM_EV_START:
		ctx = sim->ctxs.v[ev->id];
		km_emit(sim, KM_TR_TASK_START, -1, ctx, KM_TR_NONE, 0, 0);
		ctx->act = KM_ACT_READY;
		make_runnable(sim, ctx, KM_SCHED_PLAIN);
		return;
	case KM_EV_SWITCH: {
		struct km_cpu *cpu = &sim->cpus[ev->id];
		if (ev->token == cpu->token && cpu->switching)
			on_switch(sim, cpu);
		return;
	}
	case KM_EV_TICK: {
		struct km_cpu *cpu = &sim->cpus[ev->id];
		cpu->tick_armed = false;
		if (cpu->rq_len == 0)
			return;
		if (!irq_deliverable(cpu)) {
			cpu->tick_pending = true;
			return;
		}
		tick(sim, cpu);
		if (cpu->rq_len)
			tick_arm(sim, cpu);
		return;
	}
	case KM_EV_IRQ:
		irq_fire(sim, sim->irqsrcs.v[ev->id]);
		return;
	case KM_EV_HANDOFF: {
		struct km_lock *l = ev->id == KM_BKL_ID ? sim->bkl :
				    ev->id == KM_GIL_ID ? sim->gil : sim->locks.v[ev->id];
		km_spin_window_close(sim, l, ev->token);
		return;
	}
	}
}

static void declare_deadlock(struct km_sim *sim)
{
	sim->outcome = KM_OUT_DEADLOCK;
	km_describe_deadlock(sim, sim->reason, sizeof(sim->reason));
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
	if (ev_productive(sim, (int)ev->kind, ev->id))
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
bool km_ctx_run_ahead(struct km_sim *sim, struct km_ctx *ctx)
{
	const struct km_event *next = km_evq_peek(&sim->evq);
	if (sim->cfg.no_run_ahead || !next || next->kind != KM_EV_SEG_END ||
	    next->id != ctx->id || next->token != ctx->seg_token || ctx->act != KM_ACT_SEG ||
	    (ctx->then != KM_THEN_NONE && ctx->then != KM_THEN_VAR_ADD) ||
	    !km_ctx_on_top(sim, ctx))
		return false;
	if (ends_after_event(sim, false) || !next_event(sim, false))
		return false;

	struct km_event ev;
	pop_event(sim, &ev);
	sim->events_ahead++;
	/* dispatch(): KM_EV_SEG_END, then ctx_continue_body() up to the resume */
	ctx->act = KM_ACT_NONE;
	if (ctx->then == KM_THEN_VAR_ADD) {
		ctx->then = KM_THEN_NONE;
		km_var_add_commit(sim, ctx);
	}
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
			km_choice_settle(sim);
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
