/*
 * test_balance.c - the O(1) scheduler's placement (balance.c): the
 * wake-affine choice of try_to_wake_up() in 2.6.12-2.6.16, with and
 * without 2.6.15's prio_bias; rebalance_tick()'s load averages; and the
 * balancing of a CPU that goes idle or is idle, which leaves a cache-hot
 * task where it is until balancing has failed twice.
 *
 * The loads are 128 a task.  The wake-affine table sets a CPU's tasks
 * now (its running task and queue length) and at its last tick
 * (cpu_load[0]) by hand, and asks km_wake_cpu(); the rest runs tasks.
 * The era's HZ is 1000 (a tick every 1 ms); ctxsw and wakeup are 100 ns.
 */
#include "test.h"

#include "script_host.h"
#include "core.h"
#include "lock.h"		/* km_lock_wake_cost */
#include "machine.h"		/* km_wake_cpu, km_loads_at_ticks */
#include "sched_floor.h"	/* km_rq_append */

enum { MS = 1000000, CTXSW = 100 };

static const struct sh_step idle_prog[] = { { OP_END, 0, 0 } };

/* A 4-CPU run of four tasks that never start: wakee, waker, and two
 * whose only use is to stand as CPUs' running tasks. */
static void affine_setup(struct sh_host *h, bool affine, bool bias)
{
	struct km_era era = sh_era(4);
	era.wake_affine = affine;
	era.prio_bias = bias;
	struct km_config cfg = sh_cfg(4, 1);
	assert_non_null(sh_new(h, &era, &cfg));
	for (int i = 0; i < 4; i++)
		assert_non_null(sh_task(h, i == 0 ? "wakee" : "other", -1, 0, idle_prog));
	h->sim->ctxs.v[0]->cpu = 0;	/* the wakee last ran on CPU 0 */
}

/* CPU @c runs @now tasks (one running, the rest queued) and had @tick
 * at its last tick. */
static void cpu_load_set(struct sh_host *h, int c, int now, int tick)
{
	struct km_cpu *cpu = &h->sim->cpus[c];
	cpu->curr = now > 0 ? h->sim->ctxs.v[1 + c % 3] : NULL;
	cpu->rq_len = now > 0 ? now - 1 : 0;
	cpu->cpu_load[0] = (uint64_t)tick * 128;
}

/* The queue lengths were set by hand: put them back before freeing. */
static void cpu_loads_clear(struct sh_host *h)
{
	for (int c = 0; c < h->sim->ncpus; c++) {
		h->sim->cpus[c].rq_len = 0;
		h->sim->cpus[c].curr = NULL;
	}
}

static int wake_to(bool bias, int waker_now, int prev_now, int prev_tick)
{
	struct sh_host h;
	affine_setup(&h, true, bias);
	cpu_load_set(&h, 1, waker_now, waker_now);
	cpu_load_set(&h, 0, prev_now, prev_tick);
	int to = km_wake_cpu(h.sim, 1, h.sim->ctxs.v[0]);
	cpu_loads_clear(&h);
	sh_free(&h);
	return to;
}

/*
 * The second affine test, 100 * (waker's load + 128) <= 112 * previous
 * CPU's load: without the bias the previous CPU needs a task more than
 * the waker's; with 2.6.15's bias (a busy queue's load times 20 per
 * nice-0 task, thresholds unscaled) as many as the waker's suffice.  The
 * previous CPU counts the lower of its load now and at its last tick.
 * The first test needs the waker's CPU empty: an interrupt on an idle CPU.
 */
static void test_balance_wake_affine_table(void **state)
{
	(void)state;
	static const struct { bool bias; int w, p, p_tick, moves; } t[] = {
		{ false, 1, 1, 1, 0 },
		{ false, 1, 2, 2, 1 },
		{ false, 2, 2, 2, 0 },
		{ false, 2, 3, 3, 1 },
		{ false, 1, 2, 1, 0 },	/* the second task came after the tick */
		{ false, 0, 1, 1, 1 },	/* first test: idle waker, one task there */
		{ false, 0, 0, 0, 1 },	/* first test: both empty */
		{ true, 1, 1, 1, 1 },
		{ true, 1, 0, 0, 0 },	/* the previous CPU is idle: stays */
		{ true, 2, 1, 1, 0 },
		{ true, 2, 2, 2, 1 },
		{ true, 3, 2, 2, 0 },
		{ true, 1, 1, 0, 0 },	/* idle at its last tick */
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		int to = wake_to(t[i].bias, t[i].w, t[i].p, t[i].p_tick);
		if (to != (t[i].moves ? 1 : 0))
			fail_msg("row %zu (bias %d, waker %d, previous %d, at tick %d): CPU %d",
				 i, t[i].bias, t[i].w, t[i].p, t[i].p_tick, to);
	}
}

/* Without the field, or for a pinned or still-running wakee, or one last
 * run on the waker's CPU, the previous CPU. */
static void test_balance_wake_affine_exceptions(void **state)
{
	(void)state;
	struct sh_host h;
	affine_setup(&h, false, false);
	cpu_load_set(&h, 1, 1, 1);
	cpu_load_set(&h, 0, 2, 2);
	struct km_ctx *w = h.sim->ctxs.v[0];
	assert_int_equal(km_wake_cpu(h.sim, 1, w), 0);	/* no wake_affine */
	h.sim->era.wake_affine = true;
	assert_int_equal(km_wake_cpu(h.sim, 1, w), 1);	/* the same loads move it */
	w->pinned = 0;
	assert_int_equal(km_wake_cpu(h.sim, 1, w), 0);
	w->pinned = -1;
	h.sim->cpus[0].leaving = w;			/* still switching out */
	assert_int_equal(km_wake_cpu(h.sim, 1, w), 0);
	h.sim->cpus[0].leaving = NULL;
	assert_int_equal(km_wake_cpu(h.sim, 0, w), 0);	/* a local wake-up */
	cpu_loads_clear(&h);
	sh_free(&h);
}

/*
 * The affine move in try_to_wake_up()'s cost: the old run queue's lock
 * and the wakee's lines (the counted lines less the three of the old
 * CPU's queue and running task), then this CPU's own run-queue lock; no
 * IPI, and the wakee is queued here at once.
 */
static void test_balance_affine_wake_cost(void **state)
{
	(void)state;
	enum { IPI = 1000 };
	struct sh_host h;
	affine_setup(&h, true, false);
	h.sim->era.cost.ipi = IPI;
	h.sim->era.ttwu_lines = 9;
	h.sim->era.rq_lock = true;
	struct km_lock *l = km_lock_new(h.sim, "s", KM_PRIM_SEM, 1, false);
	assert_non_null(l);
	cpu_load_set(&h, 1, 1, 1);
	cpu_load_set(&h, 0, 2, 2);
	struct km_ctx *w = h.sim->ctxs.v[0];
	w->state = KM_CTX_BLOCKED;
	assert_int_equal(km_lock_wake_cost(h.sim, l, 1, w), 1 + 6 * 10 + 1);
	assert_int_equal(w->wake_to, 1);
	assert_int_equal(w->wake_lands, 1 + 6 * 10 + 1);	/* queued when the waker is done */
	/* one task fewer there: it stays; that CPU runs a task of the same
	 * priority, so resched_task() is not called and no IPI is sent: the
	 * wakee is queued there at once */
	w->wake_to = -1;
	h.sim->cpus[0].rq_lock_free = h.sim->cpus[1].rq_lock_free = 0;
	cpu_load_set(&h, 0, 1, 1);
	assert_int_equal(km_lock_wake_cost(h.sim, l, 1, w), 1 + 9 * 10);
	assert_int_equal(w->wake_to, 0);
	assert_int_equal(w->wake_lands, 1 + 9 * 10);
	assert_int_equal(h.sim->apic_bus_free, 0);
	/* the waker got the wait-list lock late: the wakee is queued then,
	 * not when the wake-up was asked for */
	w->wake_to = -1;
	h.sim->cpus[0].rq_lock_free = h.sim->cpus[1].rq_lock_free = 0;
	l->wait_lock_free = 5000;
	assert_int_equal(km_lock_wake_cost(h.sim, l, 1, w), 1 + 9 * 10);
	assert_int_equal(w->wake_lands, 5000 + 1 + 9 * 10);
	l->wait_lock_free = 0;
	/* that CPU idle: the idle task is preempted, and told by an IPI */
	w->wake_to = -1;
	h.sim->cpus[0].rq_lock_free = h.sim->cpus[1].rq_lock_free = 0;
	cpu_load_set(&h, 0, 0, 0);
	assert_int_equal(km_lock_wake_cost(h.sim, l, 1, w), 1 + 9 * 10);
	assert_int_equal(w->wake_to, -1);
	assert_int_equal(w->wake_lands, 1 + 9 * 10 + IPI);
	assert_int_equal(h.sim->cpus[0].resched_ipi_lands, 1 + 9 * 10 + IPI);
	/* a second wakee for that idle CPU while the IPI is on its way:
	 * need_resched is set already, so no second message on the bus */
	struct km_ctx *w2 = h.sim->ctxs.v[3];
	w2->cpu = 0;
	w2->state = KM_CTX_BLOCKED;
	km_time bus = h.sim->apic_bus_free;
	/* it waits for that run-queue lock, which the first wake-up held */
	assert_int_equal(km_lock_wake_cost(h.sim, l, 1, w2), 2 * (1 + 9 * 10));
	assert_int_equal(w2->wake_lands, 1 + 9 * 10 + IPI);
	assert_int_equal(h.sim->apic_bus_free, bus);
	w2->state = KM_CTX_NEW;
	w->state = KM_CTX_NEW;
	cpu_loads_clear(&h);
	sh_free(&h);
}

/*
 * __wake_up_common() calls try_to_wake_up() for each waiter in turn until
 * an exclusive one is woken.  A waiter woken already and not yet run is
 * still first in the queue: the waker takes its run-queue lock -- held by
 * that CPU through its switch to the waiter -- finds it TASK_RUNNING,
 * and goes on to the next sleeper, all inside the semaphore's wait.lock.
 */
static void test_balance_wake_probes_woken_waiters(void **state)
{
	(void)state;
	enum { IPI = 1000, SWITCH_ENDS = 500 };
	struct sh_host h;
	affine_setup(&h, false, false);
	struct km_sim *sim = h.sim;
	sim->era.cost.ipi = IPI;
	sim->era.ttwu_lines = 9;
	sim->era.rq_lock = true;
	sim->era.semaphore = KM_SEM_LEGACY;
	struct km_lock *l = km_lock_new(sim, "s", KM_PRIM_SEM, 1, false);
	assert_non_null(l);
	struct km_ctx *woken = sim->ctxs.v[0], *upper = sim->ctxs.v[1], *sleeper = sim->ctxs.v[3];
	struct km_ctx *woken2 = sim->ctxs.v[2];
	woken->state = KM_CTX_RUNNABLE;		/* on its way back to CPU 0 */
	woken->wq_woken = true;
	woken2->cpu = 3;			/* and one more, to CPU 3 */
	woken2->state = KM_CTX_RUNNABLE;
	woken2->wq_woken = true;
	sleeper->cpu = 2;			/* CPU 2 idle: it will need the IPI */
	sleeper->state = KM_CTX_BLOCKED;
	upper->cpu = 1;
	km_waitlist_append(&l->waiters, woken);
	km_waitlist_append(&l->waiters, woken2);
	km_waitlist_append(&l->waiters, sleeper);
	l->nwaiting = 3;
	l->avail = -1;				/* up() makes it 0: __up() */
	sim->cpus[0].rq_lock_free = SWITCH_ENDS;	/* CPU 0 is switching to it */
	km_time cost = 0;
	km_sem_ops.release(sim, l, upper, &cost);
	/* the probes: wait for CPU 0's switch, then its lock's atomic and
	 * two lines; then CPU 3's, free; the wake-up of the sleeper after
	 * them: CPU 2's nine lines */
	km_time probe = SWITCH_ENDS + 1 + 2 * 10, probe2 = 1 + 2 * 10, wake = 1 + 9 * 10;
	assert_int_equal(sim->cpus[0].rq_lock_free, probe);
	assert_int_equal(sim->cpus[3].rq_lock_free, probe + probe2);
	assert_int_equal(sim->cpus[2].rq_lock_free, probe + probe2 + wake);
	assert_int_equal(l->wait_lock_free, 1 + probe + probe2 + wake);
	assert_true(sleeper->wq_woken);
	assert_int_equal(sim->cpus[2].resched_ipi_lands, probe + probe2 + wake + IPI);
	assert_int_equal(sim->apic_bus_free, probe + probe2 + wake + IPI);
	/* without per-CPU run-queue locks (2.4's single runqueue_lock is not
	 * modelled) the probe costs nothing */
	sim->era.rq_lock = false;
	assert_int_equal(km_lock_probe_cost(sim, l, 1, woken, 0), 0);
	km_waitlist_remove(&l->waiters, woken);
	km_waitlist_remove(&l->waiters, woken2);
	km_waitlist_remove(&l->waiters, sleeper);
	woken->state = woken2->state = sleeper->state = KM_CTX_NEW;
	sh_free(&h);
}

/* Era costs are hostile input (an era file may give up to 2^62 ns a
 * cost): a wake-up's and a probe's costs saturate, they never wrap. */
static void test_balance_wake_costs_saturate(void **state)
{
	(void)state;
	struct sh_host h;
	affine_setup(&h, false, false);
	struct km_sim *sim = h.sim;
	const km_time big = (km_time)1 << 62;
	sim->era.cost.atomic = sim->era.cost.cacheline = sim->era.cost.ipi = big;
	sim->era.ttwu_lines = 64;
	sim->era.rq_lock = true;
	struct km_lock *l = km_lock_new(sim, "s", KM_PRIM_SEM, 1, false);
	assert_non_null(l);
	struct km_ctx *w = sim->ctxs.v[0];
	w->state = KM_CTX_BLOCKED;
	l->wait_lock_free = big;
	assert_int_equal(km_lock_probe_cost(sim, l, 1, w, big), INT64_MAX);
	assert_int_equal(sim->cpus[0].rq_lock_free, INT64_MAX);
	assert_true(km_lock_wake_cost_after(sim, l, 1, w, big) >= 0);
	assert_int_equal(sim->apic_bus_free, INT64_MAX);
	w->state = KM_CTX_NEW;
	sh_free(&h);
}

/*
 * rebalance_tick(): cpu_load[i] averages the tasks over 2^i ticks,
 * rounding up while the load rises; with no event in between, several
 * ticks crossed at once are averaged one by one.
 */
static void test_balance_load_averages(void **state)
{
	(void)state;
	struct sh_host h;
	affine_setup(&h, true, false);
	struct km_sim *sim = h.sim;
	cpu_load_set(&h, 0, 2, 0);
	km_loads_at_ticks(sim, 1 * MS);		/* one tick, 2 tasks */
	assert_int_equal(sim->cpus[0].cpu_load[0], 256);
	assert_int_equal(sim->cpus[0].cpu_load[1], (0 + 257) / 2);
	assert_int_equal(sim->cpus[0].cpu_load[2], (0 + 259) / 4);
	sim->now = 1 * MS;
	km_loads_at_ticks(sim, 1 * MS + 500);	/* no tick crossed */
	assert_int_equal(sim->cpus[0].cpu_load[1], 128);
	km_loads_at_ticks(sim, 2 * MS);		/* the second tick */
	assert_int_equal(sim->cpus[0].cpu_load[1], (128 + 257) / 2);
	assert_int_equal(sim->cpus[0].cpu_load[2], (64 * 3 + 259) / 4);
	sim->now = 2 * MS;
	cpu_load_set(&h, 0, 0, 2);
	km_loads_at_ticks(sim, 200 * MS);	/* many ticks idle: down to 0 */
	for (int i = 0; i < 3; i++)
		assert_int_equal(sim->cpus[0].cpu_load[i], 0);
	assert_int_equal(sim->cpus[1].cpu_load[0], 0);
	sh_free(&h);
}

/*
 * Who runs B.  A computes on CPU 0 (pinned) from 1 us; B slept and woke
 * at about 2.2 us behind A, on the CPU it last ran on (wake_prev_cpu).
 * C, pinned to CPU 1, ends at 3.1 us.  The generic steal gives B to
 * CPU 1 at once.  The O(1) balancer does not: no tick has counted B's
 * queue yet, and a CPU to pull from counts the lower of its load now and
 * at its last tick, so CPU 1 going idle finds nothing worth pulling.  At
 * the 1 ms tick it pulls B -- unless B is cache-hot, and then at the
 * first tick B is cold, or at the third, after two failed tries.
 */
static km_time b_runs_at_hz(bool o1, km_time cache_hot, int hz, int *cpu)
{
	static const struct sh_step a[] = { { OP_COMPUTE, 10 * MS, 0 }, { OP_END, 0, 0 } };
	static const struct sh_step b[] = {
		{ OP_SLEEP, 2000, 0 }, { OP_MARK, 1, 0 }, { OP_COMPUTE, 10, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step c[] = { { OP_COMPUTE, 3000, 0 }, { OP_END, 0, 0 } };
	struct sh_host h;
	struct km_era era = sh_era(2);
	era.wake_prev_cpu = true;
	era.o1_balance = o1;
	era.cache_hot = cache_hot;
	era.hz = hz;
	struct km_config cfg = sh_cfg(2, 1);
	assert_non_null(sh_new(&h, &era, &cfg));
	assert_non_null(sh_task(&h, "b", -1, 0, b));
	assert_non_null(sh_task(&h, "a", 0, 1000, a));
	assert_non_null(sh_task(&h, "c", 1, 0, c));
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
	const struct sh_event *s = sh_ev(&h, 0, OP_SLEEP, SH_ANY, 0);
	assert_non_null(s);
	assert_int_equal(s->issued, CTXSW);	/* B ran first on CPU 0 */
	const struct sh_event *m = sh_ev(&h, 0, OP_MARK, 1, 0);
	assert_non_null(m);
	*cpu = h.sim->ctxs.v[0]->cpu;
	km_time at = m->done;
	sh_free(&h);
	return at;
}

static km_time b_runs_at(bool o1, km_time cache_hot, int *cpu)
{
	return b_runs_at_hz(o1, cache_hot, 1000, cpu);
}

static void test_balance_idle_pull_leaves_hot_tasks(void **state)
{
	(void)state;
	int cpu;
	/* generic: CPU 1 steals B when C ends (3.1 us), then switches */
	km_time steal = b_runs_at(false, 0, &cpu);
	assert_int_equal(cpu, 1);
	assert_true(steal >= 3100 && steal < 3100 + 3 * CTXSW);
	/* O(1): at the first tick, a pull and a switch */
	enum { PULL = 1 + 10 + 3 * 10 };	/* the lock: atomic, line; the task: 3 lines */
	assert_int_equal(b_runs_at(true, 0, &cpu), 1 * MS + PULL + CTXSW);
	assert_int_equal(cpu, 1);
	/* cache-hot for 10 ms: refused at 1 and 2 ms, taken at 3 ms */
	assert_int_equal(b_runs_at(true, 10 * MS, &cpu), 3 * MS + PULL + CTXSW);
	assert_int_equal(cpu, 1);
	/* hot for 1.5 ms: refused at 1 ms, cold at 2 ms */
	assert_int_equal(b_runs_at(true, 1500000, &cpu), 2 * MS + PULL + CTXSW);
	assert_int_equal(cpu, 1);
	/* an era without a tick (built by hand: era files have HZ >= 1)
	 * counts no load and balances nothing: B waits for A, on CPU 0 */
	assert_int_equal(b_runs_at_hz(true, 10 * MS, 0, &cpu), 1000 + CTXSW + 10 * MS + CTXSW);
	assert_int_equal(cpu, 0);
}

/*
 * The kernel balanced an idle CPU from its timer interrupt
 * (scheduler_tick() -> rebalance_tick()), so an interrupt running on that
 * CPU at the tick does not stop the pull.  As above (A on CPU 0 from
 * 1 us, B woken behind it, C on CPU 1 to 3.1 us), with a 5 us interrupt
 * on CPU 1 every 999 us, so running at the 1 ms tick: CPU 1 pulls B then,
 * inside the interrupt, and runs it when the interrupt exits (1.004 ms).
 * Before, a CPU in an interrupt skipped the tick's balance, and B waited
 * until the interrupt had drifted off the tick (6 ms).
 */
static void test_balance_pulls_from_inside_the_timer_interrupt(void **state)
{
	(void)state;
	static const struct sh_step a[] = { { OP_COMPUTE, 10 * MS, 0 }, { OP_END, 0, 0 } };
	static const struct sh_step b[] = {
		{ OP_SLEEP, 2000, 0 }, { OP_MARK, 1, 0 }, { OP_COMPUTE, 10, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step c[] = { { OP_COMPUTE, 3000, 0 }, { OP_END, 0, 0 } };
	static const struct sh_step irq[] = { { OP_COMPUTE, 5000, 0 }, { OP_END, 0, 0 } };
	struct sh_host h;
	struct km_era era = sh_era(2);
	era.wake_prev_cpu = true;
	era.o1_balance = true;
	struct km_config cfg = sh_cfg(2, 1);
	cfg.duration = 12 * MS;
	assert_non_null(sh_new(&h, &era, &cfg));
	assert_non_null(sh_task(&h, "b", -1, 0, b));
	assert_non_null(sh_task(&h, "a", 0, 1000, a));
	assert_non_null(sh_task(&h, "c", 1, 0, c));
	assert_non_null(sh_irq(&h, "timer/1", 1, 1 * MS - 1000, 0, 0, irq));
	sh_run(&h);
	const struct sh_event *m = sh_ev(&h, 0, OP_MARK, 1, 0);
	assert_non_null(m);
	assert_true(m->done > 1 * MS && m->done < 1 * MS + 10000);
	assert_int_equal(h.sim->ctxs.v[0]->cpu, 1);
	sh_free(&h);
}

/*
 * Two CPUs equally busy: an idle CPU pulls from the first of them after
 * itself, wrapping round, as the kernel walks the domain's groups from
 * its own; and it pulls the task at the tail of the queue.  The same at
 * a tick (loads read once for all idle CPUs) and going idle (read now).  CPUs 1 and 3
 * each run a task with two queued, counted at the last tick.
 */
static void test_balance_pull_order(void **state)
{
	(void)state;
	for (int run = 0; run < 4; run++) {
		int puller = run % 2 ? 2 : 0;
		bool newly = run >= 2;	/* the newly-idle balance reads every CPU itself */
		struct sh_host h;
		struct km_era era = sh_era(4);
		era.o1_balance = true;
		struct km_config cfg = sh_cfg(4, 1);
		assert_non_null(sh_new(&h, &era, &cfg));
		struct km_sim *sim = h.sim;
		struct km_ctx *t[6];
		for (int i = 0; i < 6; i++)
			assert_non_null(t[i] = sh_task(&h, "t", -1, 0, idle_prog));
		for (int c = 1; c < 4; c += 2) {
			int k = c == 1 ? 0 : 3;
			sim->cpus[c].curr = t[k];
			km_rq_append(sim, &sim->cpus[c], t[k + 1]);
			km_rq_append(sim, &sim->cpus[c], t[k + 2]);
			sim->cpus[c].cpu_load[0] = sim->cpus[c].cpu_load[1] = 3 * 128;
		}
		sim->now = 1 * MS;
		km_time cost;
		assert_int_equal(km_o1_balance(sim, &sim->cpus[puller], newly, &cost), 1);
		struct km_ctx *want = puller == 2 ? t[5] : t[2];	/* CPU 3's tail, CPU 1's */
		assert_ptr_equal(sim->cpus[puller].rq_head, want);
		assert_int_equal(want->cpu, puller);
		assert_int_equal(sim->cpus[puller == 2 ? 3 : 1].rq_len, 1);
		for (int c = 0; c < 4; c++) {
			while (sim->cpus[c].rq_head)
				km_rq_unlink(sim, &sim->cpus[c], sim->cpus[c].rq_head, NULL);
			sim->cpus[c].curr = NULL;
		}
		sh_free(&h);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_balance_wake_affine_table),
		cmocka_unit_test(test_balance_wake_affine_exceptions),
		cmocka_unit_test(test_balance_affine_wake_cost),
		cmocka_unit_test(test_balance_wake_probes_woken_waiters),
		cmocka_unit_test(test_balance_wake_costs_saturate),
		cmocka_unit_test(test_balance_load_averages),
		cmocka_unit_test(test_balance_idle_pull_leaves_hot_tasks),
		cmocka_unit_test(test_balance_pull_order),
		cmocka_unit_test(test_balance_pulls_from_inside_the_timer_interrupt),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
