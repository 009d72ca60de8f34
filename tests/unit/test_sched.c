/*
 * test_sched.c - the scheduler and interrupt delivery (sched.c).
 *
 * Preemption models: with "none" a task keeps its CPU until it blocks or
 * ends; with "voluntary" it yields at its next might_sleep() point after
 * the tick asked; with "full" it is preempted at the tick, unless a
 * spinlock or interrupts-off forbids it, and then as soon as that ends.
 * Interrupts arriving while interrupts are off are latched, delivered at
 * the enable, and coalesced when they repeat.  Placement: idle CPUs
 * first, an idle CPU steals from a queue.
 *
 * The era's HZ is 1000 (a tick every 1 ms); ctxsw and wakeup are 100 ns.
 */
#include "test.h"

#include "script_host.h"
#include "core.h"		/* KM_RQ_TREE_MIN */
#include "lock.h"		/* km_lock_wake_cost */

#include <stdio.h>
#include <stdlib.h>

enum { MS = 1000000, CTXSW = 100 };

static const struct sh_step long_compute[] = {
	{ OP_COMPUTE, 5 * MS, 0 }, { OP_END, 0, 0 },
};
static const struct sh_step short_task[] = {
	{ OP_MARK, 1, 0 }, { OP_COMPUTE, 1000, 0 }, { OP_END, 0, 0 },
};

/* Two tasks pinned to CPU 0 of a 1-CPU run: the long one first. */
static void run_pair(struct sh_host *h, enum km_preempt p, const struct sh_step *first)
{
	struct km_era era = sh_era(1);
	era.preempt = p;
	struct km_config cfg = sh_cfg(1, 1);
	assert_non_null(sh_new(h, &era, &cfg));
	assert_non_null(km_lock_new(h->sim, "s", KM_PRIM_SEM, 1, false));
	assert_non_null(km_lock_new(h->sim, "l", KM_PRIM_SPIN, 1, false));
	assert_non_null(sh_task(h, "first", 0, 0, first));
	assert_non_null(sh_task(h, "second", 0, 1000, short_task));
	assert_int_equal(sh_run(h), 0);
	assert_int_equal(h->sim->outcome, KM_OUT_COMPLETED);
}

static km_time second_start(const struct sh_host *h)
{
	const struct sh_event *m = sh_ev(h, 1, OP_MARK, 1, 0);
	assert_non_null(m);
	return m->done;
}

/* none: the compute-only task keeps the CPU to the end. */
static void test_sched_preempt_none_runs_to_end(void **state)
{
	struct sh_host h;
	run_pair(&h, KM_PREEMPT_NONE, long_compute);
	assert_true(second_start(&h) >= h.sim->ctxs.v[0]->end_ns);
	assert_int_equal(sh_trace_count(h.sim, KM_TR_PREEMPT, SH_ANY, SH_ANY), 0);
	assert_int_equal(h.sim->ctxs.v[0]->end_ns, 100 + 5 * MS);
	assert_int_equal(h.sim->cpus[0].ctxsw, 2);
	sh_free(&h);
}

/* full: the tick at 1 ms preempts it; round robin after that. */
static void test_sched_preempt_full_round_robin(void **state)
{
	struct sh_host h;
	run_pair(&h, KM_PREEMPT_FULL, long_compute);
	km_time s = second_start(&h);
	assert_true(s < h.sim->ctxs.v[0]->end_ns);
	assert_true(s >= 1 * MS && s <= 1 * MS + 100);
	assert_int_equal(sh_trace_count(h.sim, KM_TR_PREEMPT, 0, SH_ANY), 1);
	/* the first task lost exactly the time the second ran, plus switches */
	const struct km_ctx *t0 = h.sim->ctxs.v[0];
	assert_int_equal(t0->cpu_ns, 5 * MS);
	assert_true(t0->runnable_ns >= 1000);
	assert_true(t0->end_ns > 100 + 5 * MS + 1000);
	sh_free(&h);

	/* two long tasks alternate at every tick */
	static const struct sh_step long2[] = { { OP_COMPUTE, 5 * MS, 0 }, { OP_END, 0, 0 } };
	struct km_era era = sh_era(1);
	era.preempt = KM_PREEMPT_FULL;
	struct km_config cfg = sh_cfg(1, 1);
	assert_non_null(sh_new(&h, &era, &cfg));
	assert_non_null(sh_task(&h, "a", 0, 0, long_compute));
	assert_non_null(sh_task(&h, "b", 0, 0, long2));
	assert_int_equal(sh_run(&h), 0);
	int pa = sh_trace_count(h.sim, KM_TR_PREEMPT, 0, SH_ANY);
	int pb = sh_trace_count(h.sim, KM_TR_PREEMPT, 1, SH_ANY);
	assert_true(pa >= 4 && pb >= 3);
	assert_true(pa - pb <= 1 && pb - pa <= 1);
	km_time ea = h.sim->ctxs.v[0]->end_ns, eb = h.sim->ctxs.v[1]->end_ns;
	assert_true((ea > eb ? ea - eb : eb - ea) <= 1 * MS + 200);
	sh_free(&h);
}

/* voluntary: no switch in the middle of a computation, one at the next
 * down() after the tick. */
static void test_sched_preempt_voluntary_at_might_sleep(void **state)
{
	static const struct sh_step first[] = {
		{ OP_COMPUTE, 3 * MS, 0 }, { OP_DOWN, 0, 0 }, { OP_UP, 0, 0 },
		{ OP_COMPUTE, 3 * MS, 0 }, { OP_END, 0, 0 },
	};
	struct sh_host h;
	run_pair(&h, KM_PREEMPT_VOLUNTARY, first);
	const struct sh_event *comp = sh_ev(&h, 0, OP_COMPUTE, 3 * MS, 0);
	const struct sh_event *down = sh_ev(&h, 0, OP_DOWN, 0, 0);
	km_time s = second_start(&h);
	/* not at the 1 ms tick: when the computation reached down() */
	assert_true(s >= comp->done);
	assert_true(s <= comp->done + CTXSW);
	assert_true(s < h.sim->ctxs.v[0]->end_ns);
	/* down() itself was issued again once the first task ran again */
	assert_true(down->issued >= h.sim->ctxs.v[1]->end_ns);
	assert_int_equal(sh_trace_count(h.sim, KM_TR_PREEMPT, 0, SH_ANY), 1);
	sh_free(&h);

	/* a compute-only task is not preempted under voluntary */
	run_pair(&h, KM_PREEMPT_VOLUNTARY, long_compute);
	assert_true(second_start(&h) >= h.sim->ctxs.v[0]->end_ns);
	sh_free(&h);
}

/* full, but a spinlock is held (or interrupts are off): the switch waits
 * for the unlock (or the enable), then happens at once. */
static void test_sched_preempt_full_deferred(void **state)
{
	static const struct sh_step spin[] = {
		{ OP_DOWN, 1, 0 }, { OP_COMPUTE, 3 * MS, 0 }, { OP_UP, 1, 0 },
		{ OP_COMPUTE, 3 * MS, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step irqoff[] = {
		{ OP_IRQ_DISABLE, 0, 0 }, { OP_COMPUTE, 3 * MS, 0 }, { OP_IRQ_ENABLE, 0, 0 },
		{ OP_COMPUTE, 3 * MS, 0 }, { OP_END, 0, 0 },
	};
	const struct sh_step *progs[] = { spin, irqoff };
	const int release_op[] = { OP_UP, OP_IRQ_ENABLE };
	for (int i = 0; i < 2; i++) {
		struct sh_host h;
		run_pair(&h, KM_PREEMPT_FULL, progs[i]);
		const struct sh_event *rel = sh_ev(&h, 0, release_op[i], SH_ANY, 0);
		km_time s = second_start(&h);
		assert_true(s >= rel->issued);
		assert_true(s <= rel->issued + 200);
		assert_true(s < h.sim->ctxs.v[0]->end_ns);
		sh_free(&h);
	}
}

/* An interrupt due while interrupts are off is delivered at the enable;
 * repeats meanwhile are coalesced into it. */
static void test_sched_irq_pending_while_irqs_off(void **state)
{
	static const struct sh_step task[] = {
		{ OP_IRQ_DISABLE, 0, 0 }, { OP_COMPUTE, 10000, 0 }, { OP_IRQ_ENABLE, 0, 0 },
		{ OP_COMPUTE, 1000, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step handler[] = {
		{ OP_MARK, 1, 0 }, { OP_COMPUTE, 10, 0 }, { OP_END, 0, 0 },
	};
	struct sh_host h;
	struct km_era era = sh_era(1);
	struct km_config cfg = sh_cfg(1, 1);
	assert_non_null(sh_new(&h, &era, &cfg));
	assert_non_null(sh_task(&h, "t", 0, 0, task));
	struct km_irqsrc *src = sh_irq(&h, "dev", 0, 2500, 0, 0, handler);
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
	const struct sh_event *en = sh_ev(&h, 0, OP_IRQ_ENABLE, SH_ANY, 0);
	const struct sh_event *mark = sh_irq_ev(&h, 0, OP_MARK, 1, 0);
	assert_non_null(mark);
	/* irqs were off from 100 to ~10102; firings at 2500, 5000, 7500, 10000 */
	assert_true(mark->issued >= en->issued);
	assert_true(mark->issued <= en->issued + era.cost.cli + era.cost.irq_entry);
	assert_int_equal(src->coalesced, 3);
	assert_int_equal(sh_irq_count(&h, 0, OP_MARK, 1), 1);
	assert_true(h.sim->cpus[0].irqoff_ns >= 10000);
	assert_true(h.sim->cpus[0].acct[KM_CPU_IRQ] > 0);
	sh_free(&h);
}

/* sleep(t) on an otherwise idle CPU: back after t + wakeup + ctxsw. */
static void test_sched_sleep_wakeup_latency(void **state)
{
	static const struct sh_step task[] = {
		{ OP_SLEEP, 5000, 0 }, { OP_COMPUTE, 10, 0 }, { OP_END, 0, 0 },
	};
	struct sh_host h;
	struct km_era era = sh_era(1);
	struct km_config cfg = sh_cfg(1, 1);
	assert_non_null(sh_new(&h, &era, &cfg));
	assert_non_null(sh_task(&h, "t", 0, 0, task));
	assert_int_equal(sh_run(&h), 0);
	const struct sh_event *s = sh_ev(&h, 0, OP_SLEEP, SH_ANY, 0);
	assert_int_equal(s->done - s->issued, 5000 + era.cost.wakeup + era.cost.ctxsw);
	const struct km_ctx *t = h.sim->ctxs.v[0];
	/* blocked until the wake-up made it runnable */
	assert_int_equal(t->blocked_ns, 5000 + era.cost.wakeup);
	/* runnable during the two switches: at its start and after the wake-up */
	assert_int_equal(t->runnable_ns, 2 * era.cost.ctxsw);
	assert_true(h.sim->cpus[0].acct[KM_CPU_IDLE] >= 5000);
	sh_free(&h);
}

/* Unpinned tasks go to idle CPUs; a CPU about to idle steals a queued
 * task from another. */
static void test_sched_idle_placement_and_steal(void **state)
{
	static const struct sh_step longer[] = { { OP_COMPUTE, 50000, 0 }, { OP_END, 0, 0 } };
	static const struct sh_step shorter[] = { { OP_COMPUTE, 10000, 0 }, { OP_END, 0, 0 } };
	struct sh_host h;
	struct km_era era = sh_era(2);
	struct km_config cfg = sh_cfg(2, 1);
	assert_non_null(sh_new(&h, &era, &cfg));
	assert_non_null(sh_task(&h, "a", -1, 0, longer));
	assert_non_null(sh_task(&h, "b", -1, 0, shorter));
	assert_non_null(sh_task(&h, "c", -1, 1000, short_task));
	assert_int_equal(sh_run(&h), 0);
	const struct km_ctx *a = h.sim->ctxs.v[0], *b = h.sim->ctxs.v[1], *c = h.sim->ctxs.v[2];
	/* a and b ran side by side */
	assert_int_not_equal(a->cpu, b->cpu);
	assert_int_equal(b->end_ns, 100 + 10000);
	assert_int_equal(a->end_ns, 100 + 50000);
	/* c ran on b's CPU as soon as b ended, not after a */
	assert_int_equal(c->cpu, b->cpu);
	const struct sh_event *m = sh_ev(&h, 2, OP_MARK, 1, 0);
	assert_int_equal(m->done, b->end_ns + era.cost.ctxsw);
	sh_free(&h);
}


/*
 * Placement with every CPU busy, and stealing, on @n CPUs: a new task
 * joins the shortest run queue (the lowest CPU id on a tie), and an idle
 * CPU steals the head of the longest other queue (the lowest id on a
 * tie).  Up to KM_RQ_TREE_MIN CPUs the scheduler scans the queues; above,
 * it keeps tournament trees: both must follow the rule, which this test
 * replays by hand.  CPU 0's first task is short, so CPU 0 runs its own
 * queue, then steals everything else in the rule's order while the other
 * CPUs are still on their long tasks.
 */
static void check_placement_and_steal_order(int n)
{
	static const struct sh_step quick[] = { { OP_COMPUTE, 1000, 0 }, { OP_END, 0, 0 } };
	enum { EXTRA_PER_CPU = 3, EXTRA_MORE = 7 };
	int nextra = EXTRA_PER_CPU * n + EXTRA_MORE;
	struct sh_host h;
	struct km_era era = sh_era(n);
	struct km_config cfg = sh_cfg(n, 1);
	assert_non_null(sh_new(&h, &era, &cfg));
	assert_non_null(sh_task(&h, "first", -1, 0, quick));
	for (int c = 1; c < n; c++)
		assert_non_null(sh_task(&h, "long", -1, 0, long_compute));
	for (int i = 0; i < nextra; i++)
		assert_non_null(sh_task(&h, "extra", -1, 500, quick));
	assert_int_equal(sh_run(&h), 0);

	/* Placement: extra i joined the queue of CPU i mod n. */
	int *queue_of = malloc((size_t)nextra * sizeof(int));
	int *len = calloc((size_t)n, sizeof(int));
	int *order = malloc((size_t)nextra * sizeof(int));
	assert_non_null(queue_of);
	assert_non_null(len);
	assert_non_null(order);
	for (int i = 0; i < nextra; i++) {
		queue_of[i] = i % n;
		len[i % n]++;
	}
	/* The rule, replayed: CPU 0 runs its own queue, then steals. */
	int k = 0;
	for (int i = 0; i < nextra; i++)
		if (queue_of[i] == 0)
			order[k++] = i;
	len[0] = 0;
	while (k < nextra) {
		int busiest = -1;
		for (int c = 1; c < n; c++)
			if (len[c] > 0 && (busiest < 0 || len[c] > len[busiest]))
				busiest = c;
		assert_true(busiest > 0);
		for (int i = 0; i < nextra; i++) {	/* its queue's head */
			if (queue_of[i] == busiest) {
				order[k++] = i;
				queue_of[i] = -1;
				len[busiest]--;
				break;
			}
		}
	}
	/* What ran: every extra on CPU 0, in that order. */
	for (int j = 0; j < nextra; j++) {
		const struct km_ctx *t = h.sim->ctxs.v[n + order[j]];
		assert_int_equal(t->cpu, 0);
		if (j > 0)
			assert_true(t->end_ns > h.sim->ctxs.v[n + order[j - 1]]->end_ns);
	}
	free(queue_of);
	free(len);
	free(order);
	sh_free(&h);
}

static void test_sched_placement_and_steal_by_scan(void **state)
{
	(void)state;
	check_placement_and_steal_order(KM_RQ_TREE_MIN / 2);
}

static void test_sched_placement_and_steal_by_tree(void **state)
{
	(void)state;
	check_placement_and_steal_order(3 * KM_RQ_TREE_MIN / 2 + 5);
}

/*
 * A task that blocks first spends a tail on its CPU (the failed attempt,
 * queueing under the wait list's lock, spinning for it when others queue
 * at the same moment).  If its wake-up (here: a 1 us down_timeout that
 * expires) comes before that tail ends, it must not start on another CPU
 * while the first still shows it: like try_to_wake_up() waiting for
 * p->on_cpu, the wake waits for the tail.  The check walks the stored
 * trace and keeps, per CPU, the task it shows.
 */
static void test_sched_no_task_on_two_cpus_during_its_tail(void **state)
{
	enum { NCPU = 64, SEM = 0 };
	static const struct sh_step owner[] = {
		{ OP_DOWN, SEM, 0 }, { OP_COMPUTE, 50000, 0 }, { OP_UP, SEM, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step impatient[] = {
		{ OP_COMPUTE, 10, 0 }, { OP_DOWN_TIMEOUT, SEM, 1000 }, { OP_COMPUTE, 5000, 0 },
		{ OP_UP_IF_TAKEN, SEM, 0 }, { OP_END, 0, 0 },
	};
	(void)state;
	struct sh_host h;
	struct km_era era = sh_era(NCPU);
	era.cost.atomic = 20;		/* 2023-like: queueing sections of ~120 ns */
	era.cost.cacheline = 100;
	struct km_config cfg = sh_cfg(NCPU, 1);
	assert_non_null(sh_new(&h, &era, &cfg));
	assert_non_null(km_lock_new(h.sim, "s", KM_PRIM_SEM, 1, false));
	assert_non_null(sh_task(&h, "owner", 0, 0, owner));
	/* unpinned, with idle CPUs to spare: a woken task could go anywhere */
	for (int i = 0; i < NCPU / 2; i++)
		assert_non_null(sh_task(&h, "impatient", -1, 0, impatient));
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);

	uint32_t shown[NCPU];
	for (int c = 0; c < NCPU; c++)
		shown[c] = KM_TR_NONE;
	int cpu_records = 0;
	for (size_t i = 0; i < h.sim->trace.len; i++) {
		const struct km_trace_rec *r = &h.sim->trace.recs[i];
		if (r->kind != KM_TR_CPU || r->cpu >= NCPU)
			continue;
		cpu_records++;
		shown[r->cpu] = r->arg == KM_CPU_IDLE ? KM_TR_NONE : r->ctx;
		if (shown[r->cpu] == KM_TR_NONE)
			continue;
		for (int c = 0; c < NCPU; c++)
			if (c != r->cpu && shown[c] == shown[r->cpu])
				fail_msg("task %u shown on CPUs %d and %d at %lld ns", shown[c], c,
					 r->cpu, (long long)r->time);
	}
	assert_true(cpu_records > 2 * NCPU);
	sh_free(&h);
}

/*
 * 2.6.13-2.6.15 (era.wake_prev_cpu): try_to_wake_up() without
 * SD_WAKE_IDLE puts a woken task back on the CPU it last ran on, even
 * when that CPU is busy and another is idle.  The same run on the
 * museum's generic placement sends it to the idle CPU.  W sleeps on CPU
 * 0; a pinned task keeps CPU 0 busy from 600 to 5600 ns; CPU 1 is idle.
 */
static km_time wake_placement(bool prev_cpu, int *cpu)
{
	static const struct sh_step sleeper[] = {
		{ OP_SLEEP, 1000, 0 }, { OP_COMPUTE, 10, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step busy[] = { { OP_COMPUTE, 5000, 0 }, { OP_END, 0, 0 } };
	struct sh_host h;
	struct km_era era = sh_era(2);
	era.wake_prev_cpu = prev_cpu;
	struct km_config cfg = sh_cfg(2, 1);
	assert_non_null(sh_new(&h, &era, &cfg));
	assert_non_null(sh_task(&h, "w", -1, 0, sleeper));
	assert_non_null(sh_task(&h, "busy", 0, 500, busy));
	assert_int_equal(sh_run(&h), 0);
	const struct sh_event *s = sh_ev(&h, 0, OP_SLEEP, SH_ANY, 0);
	assert_non_null(s);
	assert_int_equal(s->issued, CTXSW);	/* it ran first on CPU 0 */
	*cpu = h.sim->ctxs.v[0]->cpu;
	km_time woke = s->done;
	sh_free(&h);
	return woke;
}

static void test_sched_wake_prev_cpu(void **state)
{
	(void)state;
	int cpu;
	/* generic: to idle CPU 1 at once (sleep, wake-up latency, switch) */
	assert_int_equal(wake_placement(false, &cpu), CTXSW + 1000 + 100 + CTXSW);
	assert_int_equal(cpu, 1);
	/* 2.6.15: queued behind the busy task on CPU 0, runs when it ends */
	assert_int_equal(wake_placement(true, &cpu), 500 + CTXSW + 5000 + CTXSW);
	assert_int_equal(cpu, 0);
}

/*
 * era.rq_lock: schedule() holds its CPU's run-queue lock through the
 * context switch, and try_to_wake_up() takes the run-queue lock of the
 * wakee's CPU, so a waker whose wakee's CPU is switching waits for the
 * switch to end -- inside the semaphore's wait-list section.  S (CPU 1)
 * sleeps on the semaphore at 1100 ns: 12 ns of way to sleep, then the
 * switch to idle until 1212.  H (CPU 0) calls up() at @up_at; its wake-up
 * of S waits for the lock when up() comes during the switch, not after.
 */
static km_time up_cost(bool rq_lock, bool newidle, km_time up_at)
{
	enum { SEM = 0 };
	const struct sh_step holder[] = {
		{ OP_DOWN, SEM, 0 }, { OP_COMPUTE, up_at - (CTXSW + 1), 0 }, { OP_UP, SEM, 0 },
		{ OP_END, 0, 0 },
	};
	static const struct sh_step sleeper[] = {
		{ OP_COMPUTE, 1000, 0 }, { OP_DOWN, SEM, 0 }, { OP_UP, SEM, 0 }, { OP_END, 0, 0 },
	};
	struct sh_host h;
	struct km_era era = sh_era(2);
	era.rq_lock = rq_lock;
	era.newidle_balance = newidle;
	struct km_config cfg = sh_cfg(2, 1);
	assert_non_null(sh_new(&h, &era, &cfg));
	assert_non_null(km_lock_new(h.sim, "s", KM_PRIM_SEM, 1, false));
	assert_non_null(sh_task(&h, "h", 0, 0, holder));
	assert_non_null(sh_task(&h, "s", 1, 0, sleeper));
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
	const struct sh_event *down = sh_ev(&h, 1, OP_DOWN, SEM, 0);
	const struct sh_event *up = sh_ev(&h, 0, OP_UP, SEM, 0);
	assert_non_null(down);
	assert_non_null(up);
	assert_int_equal(down->issued, CTXSW + 1000);
	assert_int_equal(up->issued, up_at);
	km_time cost = up->done - up->issued;
	sh_free(&h);
	return cost;
}

static void test_sched_rq_lock_wake_waits_for_switch(void **state)
{
	(void)state;
	/* S's way to sleep: atomic 1 + line 10 + its wait-list section 1
	 * (the lock's line is S's already: cache.h) */
	const km_time switch_end = CTXSW + 1000 + 12 + CTXSW;
	/* during the switch: the wake-up waits until it ends */
	assert_int_equal(up_cost(true, false, 1150) - up_cost(false, false, 1150),
			 switch_end - 1150);
	/* after it: nothing to wait for */
	assert_int_equal(up_cost(true, false, 1500), up_cost(false, false, 1500));
}

/*
 * era.newidle_balance: before S's CPU idles, schedule() reads the other
 * CPU's run-queue load (one line, 10 ns here) under its own run-queue
 * lock, so the switch to idle holds the lock that much longer and the
 * waker waits that much more; without run-queue locks it costs the waker
 * nothing.
 */
static void test_sched_newidle_balance_holds_the_rq_lock(void **state)
{
	(void)state;
	const km_time switch_end = CTXSW + 1000 + 12 + CTXSW;
	const km_time scan = 10;	/* (2 CPUs - 1) x cacheline */
	assert_int_equal(up_cost(true, true, 1150) - up_cost(false, false, 1150),
			 switch_end + scan - 1150);
	assert_int_equal(up_cost(true, true, switch_end + 5) - up_cost(false, false, switch_end + 5),
			 scan - 5);
	assert_int_equal(up_cost(true, true, 1500), up_cost(false, false, 1500));
	assert_int_equal(up_cost(false, true, 1150), up_cost(false, false, 1150));
}

/*
 * The reschedule IPI as i386 sent it (__send_IPI_dest_field): the sender
 * waits in apic_wait_icr_idle() only while its own APIC still has an
 * earlier IPI to send, then writes the ICR and goes on; the message
 * crosses the one serial APIC bus after those queued ahead of it, and the
 * wake-up arrives when it has crossed.
 */
static void test_sched_ipi_sender_waits_only_for_its_previous(void **state)
{
	(void)state;
	static const struct sh_step idle[] = { { OP_END, 0, 0 } };
	enum { IPI = 1000, TTWU = 1 + 2 * 10 };	/* atomic + two lines */
	struct sh_host h;
	struct km_era era = sh_era(4);
	era.cost.ipi = IPI;
	struct km_config cfg = sh_cfg(4, 1);
	assert_non_null(sh_new(&h, &era, &cfg));
	struct km_lock *l = km_lock_new(h.sim, "s", KM_PRIM_SEM, 1, false);
	assert_non_null(l);
	struct km_ctx *w[4];
	for (int i = 0; i < 4; i++) {
		char name[16];
		snprintf(name, sizeof(name), "w%d", i);
		assert_non_null(w[i] = sh_task(&h, name, -1, 0, idle));
		w[i]->cpu = i;
		w[i]->state = KM_CTX_BLOCKED;	/* asleep, each on its idle CPU */
	}
	/* CPU 0 wakes w1: its APIC is idle, so only try_to_wake_up() */
	assert_int_equal(km_lock_wake_cost(h.sim, l, 0, w[1]), TTWU);
	assert_int_equal(w[1]->wake_lands, TTWU + IPI);
	/* CPU 0 again: apic_wait_icr_idle() waits for the first IPI */
	assert_int_equal(km_lock_wake_cost(h.sim, l, 0, w[2]), TTWU + IPI);
	assert_int_equal(w[2]->wake_lands, TTWU + 2 * IPI);
	/* CPU 1 wakes w3: its own APIC is idle, but the bus is not */
	assert_int_equal(km_lock_wake_cost(h.sim, l, 1, w[3]), TTWU);
	assert_int_equal(w[3]->wake_lands, TTWU + 3 * IPI);
	/* a wakee on the waker's own CPU needs no IPI, and its lines are
	 * in the waker's cache already: the atomic alone (cache.h) */
	w[0]->wake_lands = 0;
	assert_int_equal(km_lock_wake_cost(h.sim, l, 0, w[0]), 1);
	assert_int_equal(w[0]->wake_lands, 0);
	/* nor does a task that is not asleep: try_to_wake_up() leaves it */
	w[1]->state = KM_CTX_RUNNABLE;
	w[1]->wake_lands = 0;
	km_time bus = h.sim->apic_bus_free;
	km_lock_wake_cost(h.sim, l, 2, w[1]);
	assert_int_equal(w[1]->wake_lands, 0);
	assert_int_equal(h.sim->apic_bus_free, bus);
	for (int i = 0; i < 4; i++)
		w[i]->state = KM_CTX_NEW;
	sh_free(&h);
}

/*
 * era.ttwu_lines: try_to_wake_up() fetches the lines the wakee's CPU wrote
 * last -- nine on the 2005-2006 machine, counted in 2.6.15's code
 * (docs/sources.md, [TTWU15]); an era that has not counted them charges
 * the two the model always did.
 */
static void test_sched_ttwu_lines(void **state)
{
	(void)state;
	static const struct sh_step idle[] = { { OP_END, 0, 0 } };
	for (int lines = 0; lines <= 9; lines += 9) {
		struct sh_host h;
		struct km_era era = sh_era(2);
		era.ttwu_lines = lines;
		struct km_config cfg = sh_cfg(2, 1);
		assert_non_null(sh_new(&h, &era, &cfg));
		struct km_lock *l = km_lock_new(h.sim, "s", KM_PRIM_SEM, 1, false);
		assert_non_null(l);
		struct km_ctx *w = sh_task(&h, "w", -1, 0, idle);
		assert_non_null(w);
		w->cpu = 1;
		assert_int_equal(km_lock_wake_cost(h.sim, l, 0, w),
				 era.cost.atomic + (lines ? lines : 2) * era.cost.cacheline);
		sh_free(&h);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sched_preempt_none_runs_to_end),
		cmocka_unit_test(test_sched_preempt_full_round_robin),
		cmocka_unit_test(test_sched_preempt_voluntary_at_might_sleep),
		cmocka_unit_test(test_sched_preempt_full_deferred),
		cmocka_unit_test(test_sched_irq_pending_while_irqs_off),
		cmocka_unit_test(test_sched_sleep_wakeup_latency),
		cmocka_unit_test(test_sched_idle_placement_and_steal),
		cmocka_unit_test(test_sched_placement_and_steal_by_scan),
		cmocka_unit_test(test_sched_placement_and_steal_by_tree),
		cmocka_unit_test(test_sched_no_task_on_two_cpus_during_its_tail),
		cmocka_unit_test(test_sched_wake_prev_cpu),
		cmocka_unit_test(test_sched_rq_lock_wake_waits_for_switch),
		cmocka_unit_test(test_sched_newidle_balance_holds_the_rq_lock),
		cmocka_unit_test(test_sched_ttwu_lines),
		cmocka_unit_test(test_sched_ipi_sender_waits_only_for_its_previous),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
