/*
 * test_mutex.c - the mutex (lock_mutex.c) and its owner rules.
 *
 * A mutex has exactly one owner, who alone may unlock it, never from an
 * interrupt handler; it does not recurse; a counting lock cannot become
 * one.  How a contender waits changed with the eras: it sleeps, or from
 * 2.6.30 spins while the owner runs on a CPU (and sleeps once the owner
 * does).  A woken waiter must retry, so a newcomer can steal the lock;
 * from 4.10 a waiter that lost once gets the next unlock handed to it.
 *
 * Times follow from sh_era()'s costs (ctxsw 100, wakeup 100, atomic 1,
 * cacheline 10); a task's code first runs at start + 100.
 */
#include "test.h"

#include "script_host.h"
#include "core.h"		/* km_waitlist_* */
#include "lock.h"		/* km_mutex_ops */

#include <string.h>

enum { M = 0 };

static void new_run(struct sh_host *h, struct km_era *era, int cpus)
{
	struct km_config cfg = sh_cfg(cpus, 1);
	assert_non_null(sh_new(h, era, &cfg));
	assert_non_null(km_lock_new(h->sim, "m", KM_PRIM_MUTEX, 1, false));
}

static void assert_no_violation_but(const struct km_sim *sim, int kind)
{
	for (int k = 0; k < KM_V_KINDS; k++)
		if (k != kind && sim->violation_count[k])
			fail_msg("unexpected %s violation", km_violation_name((enum km_violation_kind)k));
}

/* Unlock by a task that does not own it: reported, with who and what. */
static void test_mutex_unlock_not_owner(void **state)
{
	static const struct sh_step owner[] = {
		{ OP_DOWN, M, 0 }, { OP_COMPUTE, 5000, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step other[] = {
		{ OP_COMPUTE, 1000, 0 }, { OP_UP, M, 0 }, { OP_END, 0, 0 },
	};
	struct sh_host h;
	struct km_era era = sh_era(2);
	new_run(&h, &era, 2);
	assert_non_null(sh_task(&h, "owner", 0, 0, owner));
	assert_non_null(sh_task(&h, "other", 1, 0, other));
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
	assert_int_equal(h.sim->violation_count[KM_V_MUTEX_UNLOCK_NOT_OWNER], 1);
	assert_no_violation_but(h.sim, KM_V_MUTEX_UNLOCK_NOT_OWNER);
	assert_int_equal(h.sim->violations.n, 1);
	const struct km_violation *v = &h.sim->violations.v[0];
	assert_int_equal(v->kind, KM_V_MUTEX_UNLOCK_NOT_OWNER);
	assert_int_equal(v->ctx, 1);
	assert_int_equal(v->lock, M);
	assert_non_null(strstr(v->message, "owner"));
	assert_int_equal(sh_trace_count(h.sim, KM_TR_VIOLATION, 1, M), 1);
	sh_free(&h);
}

/* The owner unlocking is fine; a second unlock of a free mutex is not. */
static void test_mutex_owner_unlock_ok_double_unlock_reported(void **state)
{
	static const struct sh_step prog[] = {
		{ OP_DOWN, M, 0 }, { OP_COMPUTE, 100, 0 }, { OP_UP, M, 0 }, { OP_MARK, 1, 0 },
		{ OP_UP, M, 0 }, { OP_END, 0, 0 },
	};
	struct sh_host h;
	struct km_era era = sh_era(1);
	new_run(&h, &era, 1);
	assert_non_null(sh_task(&h, "t", 0, 0, prog));
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(h.sim->violation_count[KM_V_UNLOCK_NOT_HELD], 1);
	assert_no_violation_but(h.sim, KM_V_UNLOCK_NOT_HELD);
	/* reported at the second up(), not the first */
	const struct sh_event *mark = sh_ev(&h, 0, OP_MARK, 1, 0);
	assert_true(h.sim->violations.v[0].time >= mark->done);
	assert_int_equal(h.sim->locks.v[M]->avail, 1);
	sh_free(&h);
}

/* mutex_unlock() from an interrupt handler: reported as such (and not as
 * a wrong owner); the waiting task still gets the mutex. */
static void test_mutex_unlock_in_irq(void **state)
{
	static const struct sh_step waiter[] = {
		{ OP_DOWN, M, 0 }, { OP_MARK, 1, 0 }, { OP_UP, M, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step handler[] = { { OP_UP, M, 0 }, { OP_END, 0, 0 } };
	struct sh_host h;
	struct km_era era = sh_era(2);
	struct km_config cfg = sh_cfg(2, 1);
	assert_non_null(sh_new(&h, &era, &cfg));
	/* count 0: starts locked, with no owner */
	assert_non_null(km_lock_new(h.sim, "m", KM_PRIM_MUTEX, 0, false));
	assert_non_null(sh_task(&h, "waiter", 0, 0, waiter));
	assert_non_null(sh_irq(&h, "dev", 1, 5000, 0, 0, handler));
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
	assert_int_equal(h.sim->violation_count[KM_V_MUTEX_UNLOCK_IN_IRQ], 1);
	assert_no_violation_but(h.sim, KM_V_MUTEX_UNLOCK_IN_IRQ);
	const struct sh_event *mark = sh_ev(&h, 0, OP_MARK, 1, 0);
	const struct sh_event *up = sh_irq_ev(&h, 0, OP_UP, M, 0);
	assert_non_null(mark);
	assert_non_null(up);
	assert_true(mark->done > up->issued);
	sh_free(&h);
}

/* mutex_lock() in an interrupt handler may sleep: a violation. */
static void test_mutex_lock_in_irq(void **state)
{
	static const struct sh_step handler[] = {
		{ OP_DOWN, M, 0 }, { OP_UP, M, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step task[] = { { OP_COMPUTE, 10000, 0 }, { OP_END, 0, 0 } };
	struct sh_host h;
	struct km_era era = sh_era(1);
	new_run(&h, &era, 1);
	assert_non_null(sh_task(&h, "t", 0, 0, task));
	assert_non_null(sh_irq(&h, "dev", 0, 3000, 0, 0, handler));
	assert_int_equal(sh_run(&h), 0);
	assert_true(h.sim->violation_count[KM_V_SLEEP_IN_ATOMIC] >= 1);
	assert_int_equal(h.sim->violation_count[KM_V_SLEEP_IN_ATOMIC],
			 (uint64_t)sh_irq_count(&h, 0, OP_DOWN, M));
	sh_free(&h);
}

static const struct sh_step long_owner[] = {
	{ OP_DOWN, M, 0 }, { OP_COMPUTE, 10000, 0 }, { OP_UP, M, 0 }, { OP_END, 0, 0 },
};
static const struct sh_step contender[] = {
	{ OP_COMPUTE, 1000, 0 }, { OP_DOWN, M, 0 }, { OP_COMPUTE, 100, 0 }, { OP_UP, M, 0 },
	{ OP_END, 0, 0 },
};

/* 2.6.30+: while the owner runs, a contender spins instead of sleeping,
 * and takes the lock when it reads the count the unlock wrote: the
 * unlock's atomic fetches the line (the contender's own atomic took it),
 * then the contender's read is served (cache.h): two transfers. */
static void test_mutex_spin_while_owner_runs(void **state)
{
	struct sh_host h;
	struct km_era era = sh_era(2);
	era.mutex_spin = true;
	new_run(&h, &era, 2);
	assert_non_null(sh_task(&h, "owner", 0, 0, long_owner));
	assert_non_null(sh_task(&h, "contender", 1, 0, contender));
	assert_int_equal(sh_run(&h), 0);
	const struct km_ctx *c = h.sim->ctxs.v[1];
	assert_true(c->spin_ns > 0);
	assert_int_equal(c->blocked_ns, 0);
	assert_true(h.sim->cpus[1].acct[KM_CPU_SPIN] > 0);
	const struct sh_event *up = sh_ev(&h, 0, OP_UP, M, 0);
	const struct sh_event *d = sh_ev(&h, 1, OP_DOWN, M, 0);
	assert_int_equal(d->done, up->issued + 2 * era.cost.cacheline);
	/* it spun from its down() until the unlock; the hand-off is run time */
	assert_int_equal(c->spin_ns, up->issued - d->issued);
	assert_int_equal(h.sim->locks.v[M]->st.contentions, 1);
	sh_free(&h);
}

/* Without optimistic spinning, the contender sleeps and is woken. */
static void test_mutex_sleeps_without_spin(void **state)
{
	struct sh_host h;
	struct km_era era = sh_era(2);
	era.mutex_spin = false;
	new_run(&h, &era, 2);
	assert_non_null(sh_task(&h, "owner", 0, 0, long_owner));
	assert_non_null(sh_task(&h, "contender", 1, 0, contender));
	assert_int_equal(sh_run(&h), 0);
	const struct km_ctx *c = h.sim->ctxs.v[1];
	assert_int_equal(c->spin_ns, 0);
	assert_true(c->blocked_ns > 0);
	assert_int_equal(h.sim->cpus[1].acct[KM_CPU_SPIN], 0);
	const struct sh_event *up = sh_ev(&h, 0, OP_UP, M, 0);
	const struct sh_event *d = sh_ev(&h, 1, OP_DOWN, M, 0);
	assert_true(d->done >= up->issued + era.cost.wakeup + era.cost.ctxsw);
	sh_free(&h);
}

/* A spinner stops spinning when the owner goes to sleep. */
static void test_mutex_spinner_sleeps_when_owner_sleeps(void **state)
{
	static const struct sh_step owner[] = {
		{ OP_DOWN, M, 0 }, { OP_COMPUTE, 5000, 0 }, { OP_SLEEP, 5000, 0 },
		{ OP_UP, M, 0 }, { OP_END, 0, 0 },
	};
	struct sh_host h;
	struct km_era era = sh_era(2);
	era.mutex_spin = true;
	new_run(&h, &era, 2);
	assert_non_null(sh_task(&h, "owner", 0, 0, owner));
	assert_non_null(sh_task(&h, "contender", 1, 0, contender));
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
	const struct km_ctx *c = h.sim->ctxs.v[1];
	const struct sh_event *sl = sh_ev(&h, 0, OP_SLEEP, SH_ANY, 0);
	const struct sh_event *d = sh_ev(&h, 1, OP_DOWN, M, 0);
	/* it spun from its down() until the owner slept, then slept */
	assert_int_equal(c->spin_ns, sl->issued - d->issued);
	assert_true(c->blocked_ns > 0);
	sh_free(&h);
}

/* A counting lock cannot be a mutex: not applicable, with a reason. */
static void test_mutex_count_above_one_not_applicable(void **state)
{
	static const struct sh_step t[] = { { OP_END, 0, 0 } };
	struct sh_host h;
	struct km_era era = sh_era(1);
	struct km_config cfg = sh_cfg(1, 1);
	assert_non_null(sh_new(&h, &era, &cfg));
	assert_non_null(km_lock_new(h.sim, "pool", KM_PRIM_MUTEX, 2, false));
	assert_non_null(sh_task(&h, "t", 0, 0, t));
	assert_int_equal(km_sim_start(h.sim), KM_ENOTAPPLICABLE);
	assert_int_equal(h.sim->outcome, KM_OUT_NOT_APPLICABLE);
	assert_non_null(strstr(h.sim->reason, "pool"));
	sh_free(&h);

	/* the same through the mode: a counting semaphore as a mutex */
	cfg.mode = KM_PRIM_MUTEX;
	assert_non_null(sh_new(&h, &era, &cfg));
	assert_non_null(km_lock_new(h.sim, "pool", KM_PRIM_SEM, 3, false));
	assert_int_equal(km_sim_start(h.sim), KM_ENOTAPPLICABLE);
	sh_free(&h);

	/* a binary semaphore can be one; so can a pinned counting one stay a
	 * semaphore */
	assert_non_null(sh_new(&h, &era, &cfg));
	assert_non_null(km_lock_new(h.sim, "bin", KM_PRIM_SEM, 1, false));
	assert_non_null(km_lock_new(h.sim, "pool", KM_PRIM_SEM, 3, true));
	assert_non_null(sh_task(&h, "t", 0, 0, t));
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(h.sim->locks.v[0]->prim, KM_PRIM_MUTEX);
	assert_int_equal(h.sim->locks.v[1]->prim, KM_PRIM_SEM);
	assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
	sh_free(&h);
}

/* No recursion: taking it twice waits for oneself forever. */
static void test_mutex_no_recursion(void **state)
{
	static const struct sh_step t[] = {
		{ OP_DOWN, M, 0 }, { OP_DOWN, M, 0 }, { OP_UP, M, 0 }, { OP_UP, M, 0 },
		{ OP_END, 0, 0 },
	};
	struct sh_host h;
	struct km_era era = sh_era(1);
	new_run(&h, &era, 1);
	assert_non_null(sh_task(&h, "self", 0, 0, t));
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(h.sim->outcome, KM_OUT_DEADLOCK);
	assert_false(h.sim->ctxs.v[0]->finished);
	sh_free(&h);
}

/*
 * Stealing and hand-off (4 CPUs).  owner holds until t=10101; sleeper
 * queues at 1100; thief asks at 10151 (before the woken sleeper runs at
 * 10301) and holds until ~11162; late asks at 11200, after the thief's
 * unlock but before a woken sleeper could retry.
 */
static void run_steal(struct sh_host *h, bool handoff, uint32_t order[4])
{
	static const struct sh_step thief[] = {
		{ OP_COMPUTE, 10051, 0 }, { OP_DOWN, M, 0 }, { OP_COMPUTE, 1000, 0 },
		{ OP_UP, M, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step late[] = {
		{ OP_COMPUTE, 11100, 0 }, { OP_DOWN, M, 0 }, { OP_COMPUTE, 1000, 0 },
		{ OP_UP, M, 0 }, { OP_END, 0, 0 },
	};
	struct km_era era = sh_era(4);
	era.mutex_handoff = handoff;
	new_run(h, &era, 4);
	assert_non_null(sh_task(h, "owner", 0, 0, long_owner));
	assert_non_null(sh_task(h, "sleeper", 1, 0, contender));
	assert_non_null(sh_task(h, "thief", 2, 0, thief));
	assert_non_null(sh_task(h, "late", 3, 0, late));
	assert_int_equal(sh_run(h), 0);
	assert_int_equal(h->sim->outcome, KM_OUT_COMPLETED);
	assert_int_equal(sh_acquire_order(h->sim, M, order, 4), 4);
	const struct sh_event *tu = sh_ev(h, 2, OP_UP, M, 0);
	const struct sh_event *ld = sh_ev(h, 3, OP_DOWN, M, 0);
	assert_true(ld->issued > tu->issued);
	assert_true(ld->issued < tu->issued + era.cost.wakeup + era.cost.ctxsw);
}

/* Before 4.10 the woken sleeper loses to both newcomers. */
static void test_mutex_newcomer_steals(void **state)
{
	struct sh_host h;
	uint32_t order[4];
	run_steal(&h, false, order);
	assert_int_equal(order[0], 0);
	assert_int_equal(order[1], 2);
	assert_int_equal(order[2], 3);
	assert_int_equal(order[3], 1);
	sh_free(&h);
}

/* 4.10+: after losing once, the sleeper gets the next unlock directly. */
static void test_mutex_handoff_after_one_loss(void **state)
{
	struct sh_host h;
	uint32_t order[4];
	run_steal(&h, true, order);
	assert_int_equal(order[0], 0);
	assert_int_equal(order[1], 2);
	assert_int_equal(order[2], 1);
	assert_int_equal(order[3], 3);
	sh_free(&h);
}

/*
 * A woken waiter whose down_timeout() deadline passes before it can retry
 * gives up; the next sleeper must then get the free mutex.  The holder
 * releases at t=10101 and wakes "impatient" (deadline 10150), which runs
 * again at 10301, past its deadline; "next" has slept since 2100.
 */
static void test_mutex_timed_out_wakee_passes_wakeup_on(void **state)
{
	static const struct sh_step h0[] = {
		{ OP_DOWN, 0, 0 }, { OP_COMPUTE, 10000, 0 }, { OP_UP, 0, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step impatient[] = {
		{ OP_COMPUTE, 1000, 0 }, { OP_DOWN_TIMEOUT, 0, 9050 }, { OP_UP_IF_TAKEN, 0, 0 },
		{ OP_END, 0, 0 },
	};
	static const struct sh_step next[] = {
		{ OP_COMPUTE, 2000, 0 }, { OP_DOWN, 0, 0 }, { OP_UP, 0, 0 }, { OP_END, 0, 0 },
	};
	struct sh_host h;
	struct km_era era = sh_era(3);
	era.semaphore = KM_SEM_LEGACY;
	struct km_config cfg = sh_cfg(3, 1);
	assert_non_null(sh_new(&h, &era, &cfg));
	assert_non_null(km_lock_new(h.sim, "l", KM_PRIM_MUTEX, 1, false));
	assert_non_null(sh_task(&h, "holder", 0, 0, h0));
	assert_non_null(sh_task(&h, "impatient", 1, 0, impatient));
	assert_non_null(sh_task(&h, "next", 2, 0, next));
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
	assert_non_null(sh_ev(&h, 2, OP_DOWN, 0, 0));
	assert_int_equal(h.sim->locks.v[0]->avail, 1);
	sh_free(&h);
}

/*
 * 2.6.16's unlock takes the slow path only when the count is -1, that is
 * when a slow path has run since the last unlock.  With the woken waiter
 * still on its way (the kernel keeps it first on the list), that slow
 * path's wake_up_process() takes the waiter's run-queue lock -- held by
 * its CPU through the switch to it -- and wakes nobody.  A thief that
 * took the mutex on the fast path with nobody queued since unlocks on
 * the fast path: no wait_lock, no probe.
 */
static void test_mutex_unlock_probes_woken_waiter_only_when_contended(void **state)
{
	(void)state;
	enum { SWITCH_ENDS = 500 };
	static const struct sh_step idle[] = { { OP_END, 0, 0 } };
	struct sh_host h;
	struct km_era era = sh_era(4);
	era.rq_lock = true;
	new_run(&h, &era, 4);
	struct km_sim *sim = h.sim;
	for (int i = 0; i < 4; i++)
		assert_non_null(sh_task(&h, "t", i, 0, idle));
	struct km_lock *l = sim->locks.v[M];
	struct km_ctx *woken = sim->ctxs.v[0], *thief = sim->ctxs.v[1], *late = sim->ctxs.v[2];
	woken->cpu = 0;
	thief->cpu = 1;
	late->cpu = 2;
	km_time cost = 0;

	/* the thief takes the free mutex on the fast path */
	l->woken = woken;
	sim->cpus[0].rq_lock_free = SWITCH_ENDS;
	assert_int_equal(km_mutex_ops.acquire(sim, l, thief, false, &cost), KM_LOCK_TAKEN);
	km_waitlist_append(&l->waiters, sim->ctxs.v[3]);	/* an older sleeper */
	km_mutex_ops.release(sim, l, thief, &cost);
	assert_int_equal(l->wait_lock_free, 0);			/* fast path */
	assert_int_equal(sim->cpus[0].rq_lock_free, SWITCH_ENDS);

	/* again, but a task queues behind the thief meanwhile: count -1 */
	assert_int_equal(km_mutex_ops.acquire(sim, l, thief, false, &cost), KM_LOCK_TAKEN);
	assert_int_equal(km_mutex_ops.acquire(sim, l, late, false, &cost), KM_LOCK_SLEEP);
	assert_true(l->wait_lock_free > 0 && l->wait_lock_free < SWITCH_ENDS);	/* its queueing */
	km_mutex_ops.release(sim, l, thief, &cost);
	/* the wait_lock section: its atomic, and the probe, which waits for
	 * CPU 0's switch and then takes its lock's atomic and two lines */
	km_time probe = SWITCH_ENDS + 1 + 2 * 10;
	assert_int_equal(sim->cpus[0].rq_lock_free, probe);
	assert_int_equal(l->wait_lock_free, probe + 1);
	assert_ptr_equal(l->woken, woken);			/* nobody else woken */
	assert_false(l->u.mutex.count_negative);			/* the unlock set 1 */

	/* the woken waiter's own xchg leaves -1 while others wait, and the
	 * "set it to 0 if there are no waiters left" of 2.6.16 otherwise */
	l->woken = NULL;
	woken->lock_retry = true;
	assert_int_equal(km_mutex_ops.acquire(sim, l, woken, false, &cost), KM_LOCK_TAKEN);
	assert_true(l->u.mutex.count_negative);
	km_mutex_ops.release(sim, l, woken, &cost);	/* wakes the older sleeper, the top waiter */
	km_waitlist_remove(&l->waiters, late);		/* now none is left */
	l->woken = NULL;
	assert_int_equal(km_mutex_ops.acquire(sim, l, woken, false, &cost), KM_LOCK_TAKEN);
	assert_false(l->u.mutex.count_negative);
	woken->lock_retry = false;

	/* a sleeper that gives up leaves the count at -1 */
	l->avail = 0;
	km_waitlist_append(&l->waiters, sim->ctxs.v[3]);
	l->u.mutex.count_negative = false;
	km_mutex_ops.cancel(sim, l, sim->ctxs.v[3]);
	assert_true(l->u.mutex.count_negative);
	sh_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mutex_unlock_not_owner),
		cmocka_unit_test(test_mutex_owner_unlock_ok_double_unlock_reported),
		cmocka_unit_test(test_mutex_unlock_in_irq),
		cmocka_unit_test(test_mutex_lock_in_irq),
		cmocka_unit_test(test_mutex_spin_while_owner_runs),
		cmocka_unit_test(test_mutex_sleeps_without_spin),
		cmocka_unit_test(test_mutex_spinner_sleeps_when_owner_sleeps),
		cmocka_unit_test(test_mutex_count_above_one_not_applicable),
		cmocka_unit_test(test_mutex_no_recursion),
		cmocka_unit_test(test_mutex_newcomer_steals),
		cmocka_unit_test(test_mutex_handoff_after_one_loss),
		cmocka_unit_test(test_mutex_timed_out_wakee_passes_wakeup_on),
		cmocka_unit_test(test_mutex_unlock_probes_woken_waiter_only_when_contended),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
