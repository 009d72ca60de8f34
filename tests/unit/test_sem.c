/*
 * test_sem.c - the counting semaphore (lock_sem.c).
 *
 * What the museum shows with it: since 2.6.26 up() hands the unit to the
 * first sleeper, so a task arriving meanwhile cannot steal it; before,
 * the woken sleeper had to try again and lost to it.  A semaphore of
 * count N admits N holders at once; down_timeout gives up at its deadline
 * and leaves the wait list; down_trylock never waits; up() is legal from
 * an interrupt handler and from a task that never called down().
 *
 * Times below follow from sh_era()'s costs: ctxsw 100, wakeup 100,
 * atomic 1, cacheline 10.  A task's code first runs at start + ctxsw.
 */
#include "test.h"

#include "script_host.h"
#include "ctx.h"		/* white-box: reads a context's fields */

enum { S = 0 };	/* the semaphore: the first lock declared */

static const struct sh_step holder[] = {
	{ OP_DOWN, S, 0 }, { OP_COMPUTE, 10000, 0 }, { OP_UP, S, 0 }, { OP_END, 0, 0 },
};
/* Queues behind the holder, long before it releases. */
static const struct sh_step sleeper[] = {
	{ OP_COMPUTE, 1000, 0 }, { OP_DOWN, S, 0 }, { OP_COMPUTE, 1000, 0 },
	{ OP_UP, S, 0 }, { OP_END, 0, 0 },
};
/* Asks just after the holder's up() (t = 10101), before a woken sleeper
 * can run again (wakeup + ctxsw = 200 ns later). */
static const struct sh_step newcomer[] = {
	{ OP_COMPUTE, 10051, 0 }, { OP_DOWN, S, 0 }, { OP_COMPUTE, 1000, 0 },
	{ OP_UP, S, 0 }, { OP_END, 0, 0 },
};

static void run_handoff(struct sh_host *h, enum km_sem_flavour flavour, uint32_t order[3])
{
	struct km_era era = sh_era(3);
	era.semaphore = flavour;
	struct km_config cfg = sh_cfg(3, 1);
	assert_non_null(sh_new(h, &era, &cfg));
	assert_non_null(km_lock_new(h->sim, "s", KM_PRIM_SEM, 1, false));
	assert_non_null(sh_task(h, "holder", 0, 0, holder));
	assert_non_null(sh_task(h, "sleeper", 1, 0, sleeper));
	assert_non_null(sh_task(h, "newcomer", 2, 0, newcomer));
	assert_int_equal(sh_run(h), 0);
	assert_int_equal(h->sim->outcome, KM_OUT_COMPLETED);
	assert_int_equal(sh_acquire_order(h->sim, S, order, 3), 3);
	/* sanity of the set-up: the newcomer asked after the release, before
	 * the sleeper could have run again */
	const struct sh_event *up = sh_ev(h, 0, OP_UP, S, 0);
	const struct sh_event *nd = sh_ev(h, 2, OP_DOWN, S, 0);
	assert_non_null(up);
	assert_non_null(nd);
	assert_true(nd->issued > up->issued);
	assert_true(nd->issued < up->issued + era.cost.wakeup + era.cost.ctxsw);
}

/* One task per CPU, task i on CPU i, on a semaphore of count 1 of
 * @flavour; runs them to the end and gives the first three acquirers. */
static void run_sem_tasks(struct sh_host *h, enum km_sem_flavour flavour, int n,
			  const char *const names[], const struct sh_step *const progs[],
			  uint32_t order[3])
{
	struct km_era era = sh_era(n);
	era.semaphore = flavour;
	struct km_config cfg = sh_cfg(n, 1);
	assert_non_null(sh_new(h, &era, &cfg));
	assert_non_null(km_lock_new(h->sim, "s", KM_PRIM_SEM, 1, false));
	for (int i = 0; i < n; i++)
		assert_non_null(sh_task(h, names[i], i, 0, progs[i]));
	assert_int_equal(sh_run(h), 0);
	assert_int_equal(h->sim->outcome, KM_OUT_COMPLETED);
	assert_int_equal(sh_acquire_order(h->sim, S, order, 3), 3);
}

/* 2.6.26+: the unit goes to the first waiter; the newcomer queues. */
static void test_sem_generic_fifo_handoff(void **state)
{
	struct sh_host h;
	uint32_t order[3];
	run_handoff(&h, KM_SEM_GENERIC, order);
	assert_int_equal(order[0], 0);
	assert_int_equal(order[1], 1);
	assert_int_equal(order[2], 2);
	struct km_lock *l = h.sim->locks.v[S];
	assert_int_equal(l->st.contentions, 2);	/* the sleeper and the newcomer */
	assert_int_equal(sh_unfair_grants(h.sim, S), 0);
	assert_int_equal(l->st.steals, 0);	/* never, from 2.6.26 on */
	assert_int_equal(l->st.wakeups, 2);	/* each handed its unit */
	assert_int_equal(l->st.wake_lost, 0);
	/* the sleeper's down() returned once it was granted and ran again */
	const struct sh_event *sd = sh_ev(&h, 1, OP_DOWN, S, 0);
	const struct sh_event *up = sh_ev(&h, 0, OP_UP, S, 0);
	assert_int_equal(sd->done, up->issued + 100 + 100);
	assert_int_equal(l->avail, 1);
	assert_int_equal(l->waiters.len, 0);
	sh_free(&h);
}

/*
 * Before 2.6.26 (i386's semaphore, followed line by line): up() makes the
 * count non-negative and wakes the sleeper, but keeps nothing for it.  The
 * newcomer, arriving before the sleeper has run again, takes the count in
 * __down() -- a steal -- and the sleeper, when it retries, finds it taken
 * and sleeps again: a lost wake-up.  The newcomer's up() wakes it once
 * more, and then it wins.  The same sequence as the generic test above.
 */
static void test_sem_legacy_newcomer_steals(void **state)
{
	struct sh_host h;
	uint32_t order[3];
	run_handoff(&h, KM_SEM_LEGACY, order);
	assert_int_equal(order[0], 0);
	assert_int_equal(order[1], 2);		/* the newcomer, past the sleeper */
	assert_int_equal(order[2], 1);
	struct km_lock *l = h.sim->locks.v[S];
	assert_int_equal(l->st.steals, 1);
	assert_int_equal(l->st.wakeups, 2);
	assert_int_equal(l->st.wake_lost, 1);
	/* the i386 arithmetic comes back to rest: one unit, no sleepers */
	assert_int_equal(l->avail, 1);
	assert_int_equal(l->u.sem.sleepers, 0);
	assert_int_equal(l->waiters.len, 0);
	assert_int_equal(l->inflight, 0);
	sh_free(&h);
}

/* Legacy: the sleeper that gets the semaphore wakes the next one, which
 * finds it taken and sleeps again (__down()'s wake_up_locked).  Generic:
 * each sleeper sleeps once and is handed the unit. */
static void test_sem_legacy_wakes_next_sleeper(void **state)
{
	static const struct sh_step second[] = {
		{ OP_COMPUTE, 2000, 0 }, { OP_DOWN, S, 0 }, { OP_COMPUTE, 1000, 0 },
		{ OP_UP, S, 0 }, { OP_END, 0, 0 },
	};
	static const char *const names[] = { "holder", "first", "second" };
	const struct sh_step *const progs[] = { holder, sleeper, second };
	for (int f = KM_SEM_LEGACY; f <= KM_SEM_GENERIC; f++) {
		struct sh_host h;
		uint32_t order[3];
		run_sem_tasks(&h, (enum km_sem_flavour)f, 3, names, progs, order);
		assert_int_equal(order[1], 1);
		assert_int_equal(order[2], 2);
		int blocks = sh_trace_count(h.sim, KM_TR_BLOCK, 2, SH_ANY);
		int wakes = sh_trace_count(h.sim, KM_TR_WAKE, SH_ANY, S);
		if (f == KM_SEM_LEGACY) {
			assert_int_equal(blocks, 2);
			assert_int_equal(wakes, 3);
		} else {
			assert_int_equal(blocks, 1);
			assert_int_equal(wakes, 2);
		}
		assert_int_equal(h.sim->locks.v[S]->st.contentions, 2);
		sh_free(&h);
	}
}

/* Count N: N holders at once, never more; the rest wait and all finish. */
static void test_sem_counting_admits_n(void **state)
{
	static const struct sh_step user[] = {
		{ OP_DOWN, S, 0 }, { OP_COMPUTE, 1000, 0 }, { OP_UP, S, 0 }, { OP_END, 0, 0 },
	};
	for (int n = 1; n <= 4; n++) {
		struct sh_host h;
		struct km_era era = sh_era(6);
		struct km_config cfg = sh_cfg(6, 1);
		assert_non_null(sh_new(&h, &era, &cfg));
		assert_non_null(km_lock_new(h.sim, "pool", KM_PRIM_SEM, n, false));
		for (int i = 0; i < 6; i++)
			assert_non_null(sh_task(&h, "user", i, 0, user));
		assert_int_equal(sh_run(&h), 0);
		assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
		struct km_lock *l = h.sim->locks.v[S];
		assert_int_equal(sh_max_holders(h.sim, S), n);
		assert_int_equal(l->st.acquisitions, 6);
		assert_int_equal(l->st.contentions, 6 - n);
		assert_int_equal(l->avail, n);
		for (int i = 0; i < 6; i++)
			assert_true(h.sim->ctxs.v[i]->finished);
		sh_free(&h);
	}
}

/* A semaphore of count 0 is a signal: an interrupt handler's up() lets
 * the waiting task through, and that is not a violation. */
static void test_sem_up_from_irq_signals(void **state)
{
	static const struct sh_step waiter[] = {
		{ OP_DOWN, S, 0 }, { OP_MARK, 1, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step handler[] = { { OP_UP, S, 0 }, { OP_END, 0, 0 } };
	struct sh_host h;
	struct km_era era = sh_era(2);
	struct km_config cfg = sh_cfg(2, 1);
	assert_non_null(sh_new(&h, &era, &cfg));
	assert_non_null(km_lock_new(h.sim, "done", KM_PRIM_SEM, 0, false));
	assert_non_null(sh_task(&h, "waiter", 0, 0, waiter));
	assert_non_null(sh_irq(&h, "dev", 1, 5000, 0, 0, handler));
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
	const struct sh_event *up = sh_irq_ev(&h, 0, OP_UP, S, 0);
	const struct sh_event *mark = sh_ev(&h, 0, OP_MARK, 1, 0);
	assert_non_null(up);
	assert_non_null(mark);
	assert_int_equal(up->issued, 5000 + era.cost.irq_entry);
	assert_true(mark->done > up->issued);
	for (int k = 0; k < KM_V_KINDS; k++)
		assert_int_equal(h.sim->violation_count[k], 0);
	sh_free(&h);
}

/* down_timeout gives up at its deadline, returns false, and its waiter is
 * gone from the lock: the next up() passes the unit to whoever waits
 * next, or keeps it. */
static void test_sem_down_timeout_expires(void **state)
{
	static const struct sh_step impatient[] = {
		{ OP_COMPUTE, 1000, 0 }, { OP_DOWN_TIMEOUT, S, 2000 }, { OP_COMPUTE, 30000, 0 },
		{ OP_END, 0, 0 },
	};
	static const struct sh_step late[] = {
		{ OP_COMPUTE, 5000, 0 }, { OP_DOWN, S, 0 }, { OP_UP, S, 0 }, { OP_END, 0, 0 },
	};
	for (int f = KM_SEM_LEGACY; f <= KM_SEM_GENERIC; f++) {
		struct sh_host h;
		struct km_era era = sh_era(3);
		era.semaphore = (enum km_sem_flavour)f;
		struct km_config cfg = sh_cfg(3, 1);
		assert_non_null(sh_new(&h, &era, &cfg));
		assert_non_null(km_lock_new(h.sim, "s", KM_PRIM_SEM, 1, false));
		assert_non_null(sh_task(&h, "holder", 0, 0, holder));
		assert_non_null(sh_task(&h, "impatient", 1, 0, impatient));
		assert_non_null(sh_task(&h, "late", 2, 0, late));
		assert_int_equal(sh_run(&h), 0);
		assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);

		const struct sh_event *dt = sh_ev(&h, 1, OP_DOWN_TIMEOUT, S, 0);
		const struct sh_event *up = sh_ev(&h, 0, OP_UP, S, 0);
		assert_non_null(dt);
		assert_int_equal(dt->result, 0);
		/* it woke at its deadline, not at the release */
		assert_int_equal(dt->done, dt->issued + 2000 + era.cost.wakeup + era.cost.ctxsw);
		assert_true(dt->done < up->issued);
		assert_int_equal(sh_trace_count(h.sim, KM_TR_TRYFAIL, 1, S), 1);
		/* the late task, not the departed one, got the unit */
		uint32_t order[4];
		assert_int_equal(sh_acquire_order(h.sim, S, order, 4), 2);
		assert_int_equal(order[0], 0);
		assert_int_equal(order[1], 2);
		struct km_lock *l = h.sim->locks.v[S];
		assert_int_equal(l->waiters.len, 0);
		assert_int_equal(l->nwaiting, 0);
		assert_int_equal(l->avail, 1);
		assert_int_equal(h.sim->ctxs.v[1]->acquisitions, 0);
		sh_free(&h);
	}
}

/* A timeout longer than the wait: it gets the lock and returns true. */
static void test_sem_down_timeout_succeeds(void **state)
{
	static const struct sh_step patient[] = {
		{ OP_COMPUTE, 1000, 0 }, { OP_DOWN_TIMEOUT, S, 50000 }, { OP_UP, S, 0 },
		{ OP_END, 0, 0 },
	};
	for (int f = KM_SEM_LEGACY; f <= KM_SEM_GENERIC; f++) {
		struct sh_host h;
		struct km_era era = sh_era(2);
		era.semaphore = (enum km_sem_flavour)f;
		struct km_config cfg = sh_cfg(2, 1);
		assert_non_null(sh_new(&h, &era, &cfg));
		assert_non_null(km_lock_new(h.sim, "s", KM_PRIM_SEM, 1, false));
		assert_non_null(sh_task(&h, "holder", 0, 0, holder));
		assert_non_null(sh_task(&h, "patient", 1, 0, patient));
		assert_int_equal(sh_run(&h), 0);
		const struct sh_event *dt = sh_ev(&h, 1, OP_DOWN_TIMEOUT, S, 0);
		const struct sh_event *up = sh_ev(&h, 0, OP_UP, S, 0);
		assert_non_null(dt);
		assert_int_equal(dt->result, 1);
		assert_true(dt->done > up->issued);
		assert_true(dt->done < dt->issued + 50000);
		assert_int_equal(sh_trace_count(h.sim, KM_TR_TRYFAIL, SH_ANY, SH_ANY), 0);
		/* its timer did not fire later on */
		assert_int_equal(h.sim->ctxs.v[1]->acquisitions, 1);
		assert_int_equal(h.sim->locks.v[S]->avail, 1);
		sh_free(&h);
	}
}

/* down_trylock: false at once while held, true once free; never waits
 * and is not a contention. */
static void test_sem_trylock(void **state)
{
	static const struct sh_step trier[] = {
		{ OP_COMPUTE, 1000, 0 }, { OP_TRYLOCK, S, 0 }, { OP_COMPUTE, 20000, 0 },
		{ OP_TRYLOCK, S, 0 }, { OP_UP, S, 0 }, { OP_END, 0, 0 },
	};
	struct sh_host h;
	struct km_era era = sh_era(2);
	struct km_config cfg = sh_cfg(2, 1);
	assert_non_null(sh_new(&h, &era, &cfg));
	assert_non_null(km_lock_new(h.sim, "s", KM_PRIM_SEM, 1, false));
	assert_non_null(sh_task(&h, "holder", 0, 0, holder));
	assert_non_null(sh_task(&h, "trier", 1, 0, trier));
	assert_int_equal(sh_run(&h), 0);
	const struct sh_event *t1 = sh_ev(&h, 1, OP_TRYLOCK, S, 0);
	const struct sh_event *t2 = sh_ev(&h, 1, OP_TRYLOCK, S, 1);
	assert_non_null(t1);
	assert_non_null(t2);
	assert_int_equal(t1->result, 0);
	assert_true(t1->done - t1->issued <= era.cost.atomic + era.cost.cacheline);
	assert_int_equal(t2->result, 1);
	struct km_lock *l = h.sim->locks.v[S];
	assert_int_equal(l->st.contentions, 0);
	assert_int_equal(l->st.acquisitions, 2);
	assert_int_equal(sh_trace_count(h.sim, KM_TR_TRYFAIL, 1, S), 1);
	assert_int_equal(sh_trace_count(h.sim, KM_TR_BLOCK, 1, SH_ANY), 0);
	assert_int_equal(l->avail, 1);
	sh_free(&h);
}

/*
 * A woken waiter whose down_timeout() deadline passes before it can retry
 * gives up; the next sleeper must then get the free semaphore.  The holder
 * releases at t=10101 and wakes "impatient" (deadline 10150), which runs
 * again at 10301, past its deadline; "next" has slept since 2100.
 */
static void test_sem_timed_out_wakee_passes_wakeup_on(void **state)
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
	assert_non_null(km_lock_new(h.sim, "l", KM_PRIM_SEM, 1, false));
	assert_non_null(sh_task(&h, "holder", 0, 0, h0));
	assert_non_null(sh_task(&h, "impatient", 1, 0, impatient));
	assert_non_null(sh_task(&h, "next", 2, 0, next));
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
	assert_non_null(sh_ev(&h, 2, OP_DOWN, 0, 0));
	assert_int_equal(h.sim->locks.v[0]->avail, 1);
	sh_free(&h);
}

/* When @cpu's lane first shows idle at or after @after, or -1. */
static km_time idle_at(const struct km_sim *sim, int cpu, km_time after)
{
	for (size_t i = 0; i < sim->trace.len; i++) {
		const struct km_trace_rec *r = &sim->trace.recs[i];
		if (r->kind == KM_TR_CPU && r->cpu == cpu && r->arg == KM_CPU_IDLE &&
		    r->time >= after)
			return r->time;
	}
	return -1;
}

/*
 * The waker pays try_to_wake_up() in CPU time: up() with a sleeper costs
 * the atomic and the line, then -- under the wait list's lock -- an
 * atomic for the wakee's run-queue lock and two line transfers (that
 * lock, the wakee's state).  Without a sleeper only the first two.
 */
static void test_sem_waker_pays_the_wakeup(void **state)
{
	struct sh_host h;
	struct km_era era = sh_era(2);
	struct km_config cfg = sh_cfg(2, 1);
	assert_non_null(sh_new(&h, &era, &cfg));
	assert_non_null(km_lock_new(h.sim, "s", KM_PRIM_SEM, 1, false));
	assert_non_null(sh_task(&h, "holder", 0, 0, holder));
	assert_non_null(sh_task(&h, "sleeper", 1, 0, sleeper));
	assert_int_equal(sh_run(&h), 0);
	const struct sh_event *up = sh_ev(&h, 0, OP_UP, S, 0);
	const struct sh_event *last = sh_ev(&h, 1, OP_UP, S, 0);
	assert_non_null(up);
	assert_non_null(last);
	assert_int_equal(up->done - up->issued,
			 era.cost.atomic + era.cost.cacheline +
			 era.cost.atomic + 2 * era.cost.cacheline);
	/* the sleeper's own up() wakes nobody: the atomic and the line only */
	assert_int_equal(last->done - last->issued, era.cost.atomic + era.cost.cacheline);
	sh_free(&h);
}

/*
 * A task that goes to sleep in down() first spends, on its CPU, what the
 * attempt cost: the atomic, the semaphore's line, and queueing itself
 * under the wait list's lock (an atomic and the line of the list).  Only
 * then does its CPU go idle.
 */
static void test_sem_sleeper_pays_its_attempt(void **state)
{
	struct sh_host h;
	struct km_era era = sh_era(2);
	struct km_config cfg = sh_cfg(2, 1);
	assert_non_null(sh_new(&h, &era, &cfg));
	assert_non_null(km_lock_new(h.sim, "s", KM_PRIM_SEM, 1, false));
	assert_non_null(sh_task(&h, "holder", 0, 0, holder));
	assert_non_null(sh_task(&h, "sleeper", 1, 0, sleeper));
	assert_int_equal(sh_run(&h), 0);
	const struct sh_event *d = sh_ev(&h, 1, OP_DOWN, S, 0);
	assert_non_null(d);
	/* the attempt and the queueing, then schedule() to the idle task */
	assert_int_equal(idle_at(h.sim, 1, d->issued),
			 d->issued + 2 * era.cost.atomic + era.cost.cacheline + era.cost.ctxsw);
	sh_free(&h);
}

/*
 * Two tasks that queue at the same instant take the wait list's lock one
 * after the other: the second spins for the first's section, so its CPU
 * goes idle that much later -- and shows that time as spin, not as work.
 */
static void test_sem_sleepers_queue_for_the_wait_lock(void **state)
{
	struct sh_host h;
	struct km_era era = sh_era(3);
	struct km_config cfg = sh_cfg(3, 1);
	assert_non_null(sh_new(&h, &era, &cfg));
	assert_non_null(km_lock_new(h.sim, "s", KM_PRIM_SEM, 1, false));
	assert_non_null(sh_task(&h, "holder", 0, 0, holder));
	assert_non_null(sh_task(&h, "a", 1, 0, sleeper));
	assert_non_null(sh_task(&h, "b", 2, 0, sleeper));
	assert_int_equal(sh_run(&h), 0);
	const struct sh_event *da = sh_ev(&h, 1, OP_DOWN, S, 0);
	const struct sh_event *db = sh_ev(&h, 2, OP_DOWN, S, 0);
	assert_non_null(da);
	assert_non_null(db);
	assert_int_equal(da->issued, db->issued);
	km_time ia = idle_at(h.sim, 1, da->issued), ib = idle_at(h.sim, 2, db->issued);
	km_time first = ia < ib ? ia : ib, second = ia < ib ? ib : ia;
	/* the first: its atomic fetches the line (the list head is in it,
	 * so its section is the wait-list lock's atomic alone) */
	assert_int_equal(first, da->issued + 2 * era.cost.atomic + era.cost.cacheline +
			 era.cost.ctxsw);
	/* the second: its atomic waits a transfer at the line's home behind
	 * the first's, it spins for the first's section, and its own section
	 * fetches the line the first dirtied (cache.h) */
	assert_int_equal(second - first, 2 * era.cost.cacheline + era.cost.atomic);
	int spinner = ia < ib ? 2 : 1, other = ia < ib ? 1 : 2;
	assert_int_equal(h.sim->cpus[spinner].acct[KM_CPU_SPIN], era.cost.atomic);
	assert_int_equal(h.sim->cpus[other].acct[KM_CPU_SPIN], 0);
	sh_free(&h);
}

/*
 * Before 2.6.26 a woken sleeper's retry in __down() is decided under
 * wait.lock, so if it has to spin for that lock, what other CPUs do to the
 * count meanwhile counts.  Here the holder's up() (t = 1101) wakes the
 * sleeper, which is back in __down() at about 1301.  A trylock at 1300
 * fails on the fast path and, under wait.lock, gives the sleepers' share
 * back: the count is 1, the semaphore free.  The sleeper spins for
 * wait.lock.  At 1303 a newcomer's down() takes the count on the fast
 * path.  When the sleeper gets wait.lock, the count is gone: it sleeps
 * again, and the newcomer's up() wakes it once more.  Decided when the
 * sleeper arrived (as the model did before), the sleeper would have won
 * and the newcomer slept.
 */
static void test_sem_legacy_retry_decided_under_wait_lock(void **state)
{
	static const struct sh_step first[] = {
		{ OP_DOWN, S, 0 }, { OP_COMPUTE, 1000, 0 }, { OP_UP, S, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step second[] = {
		{ OP_COMPUTE, 100, 0 }, { OP_DOWN, S, 0 }, { OP_COMPUTE, 1000, 0 },
		{ OP_UP, S, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step tryer[] = {
		{ OP_COMPUTE, 1200, 0 }, { OP_TRYLOCK, S, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step late[] = {
		{ OP_COMPUTE, 1203, 0 }, { OP_DOWN, S, 0 }, { OP_COMPUTE, 1000, 0 },
		{ OP_UP, S, 0 }, { OP_END, 0, 0 },
	};
	static const char *const names[] = { "holder", "sleeper", "tryer", "newcomer" };
	const struct sh_step *const progs[] = { first, second, tryer, late };
	const struct km_costs cost = sh_era(4).cost;
	struct sh_host h;
	uint32_t order[3];
	run_sem_tasks(&h, KM_SEM_LEGACY, 4, names, progs, order);
	assert_int_equal(order[0], 0);
	assert_int_equal(order[1], 3);		/* the newcomer, past the spinning sleeper */
	assert_int_equal(order[2], 1);
	const struct sh_event *t = sh_ev(&h, 2, OP_TRYLOCK, S, 0);
	const struct sh_event *n = sh_ev(&h, 3, OP_DOWN, S, 0);
	assert_non_null(t);
	assert_non_null(n);
	assert_int_equal(t->result, 0);
	/* the newcomer never entered __down(): the fast path's atomic and
	 * line -- after the line's home has served, one at a time (cache.h),
	 * the tryer's atomic of 3 ns before and the retrying sleeper's */
	km_time queued = t->issued + 2 * cost.cacheline - n->issued;
	assert_true(queued > 0);
	assert_int_equal(n->done - n->issued, queued + cost.cacheline + cost.atomic);
	struct km_lock *l = h.sim->locks.v[S];
	assert_int_equal(l->st.steals, 1);
	assert_int_equal(l->st.wake_lost, 1);
	assert_int_equal(l->avail, 1);
	assert_int_equal(l->u.sem.sleepers, 0);
	assert_int_equal(l->inflight, 0);
	/* the woken sleeper's spin for wait.lock is spin on its CPU and in
	 * its own account, the only spin of the run */
	const struct km_ctx *woken = h.sim->ctxs.v[1];
	assert_true(woken->spin_ns > 0);
	assert_int_equal(h.sim->cpus[1].acct[KM_CPU_SPIN], woken->spin_ns);
	for (int c = 0; c < 4; c++)
		if (c != 1)
			assert_int_equal(h.sim->cpus[c].acct[KM_CPU_SPIN], 0);
	sh_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sem_generic_fifo_handoff),
		cmocka_unit_test(test_sem_legacy_newcomer_steals),
		cmocka_unit_test(test_sem_legacy_wakes_next_sleeper),
		cmocka_unit_test(test_sem_legacy_retry_decided_under_wait_lock),
		cmocka_unit_test(test_sem_counting_admits_n),
		cmocka_unit_test(test_sem_up_from_irq_signals),
		cmocka_unit_test(test_sem_down_timeout_expires),
		cmocka_unit_test(test_sem_down_timeout_succeeds),
		cmocka_unit_test(test_sem_trylock),
		cmocka_unit_test(test_sem_timed_out_wakee_passes_wakeup_on),
		cmocka_unit_test(test_sem_waker_pays_the_wakeup),
		cmocka_unit_test(test_sem_sleeper_pays_its_attempt),
		cmocka_unit_test(test_sem_sleepers_queue_for_the_wait_lock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
