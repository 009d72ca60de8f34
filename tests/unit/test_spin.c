/*
 * test_spin.c - spinlocks in their three flavours (lock_spin.c).
 *
 * Ticket (2.6.25) and queued (4.2) spinlocks grant in arrival order;
 * test-and-set does not: on release the lock is free for anyone while the
 * line travels, the releasing CPU usually takes it back, and otherwise a
 * random spinner wins.  The hand-off costs one line transfer per spinner
 * (ticket) or one (queued).  A waiter burns its CPU, and the lock keeps
 * preemption off from the moment it is asked for.
 */
#include "test.h"

#include "script_host.h"
#include "ctx.h"		/* white-box: reads a context's fields */

enum { L = 0 };

static void new_run(struct sh_host *h, enum km_spin_flavour f, int cpus, uint64_t seed)
{
	struct km_era era = sh_era(cpus);
	era.spinlock = f;
	struct km_config cfg = sh_cfg(cpus, seed);
	assert_non_null(sh_new(h, &era, &cfg));
	assert_non_null(km_lock_new(h->sim, "l", KM_PRIM_SPIN, 1, false));
}

static const struct sh_step holder[] = {
	{ OP_DOWN, L, 0 }, { OP_COMPUTE, 10000, 0 }, { OP_UP, L, 0 }, { OP_END, 0, 0 },
};
/* Arrive in the order 3, 1, 2 (by their first compute). */
static const struct sh_step waiter_a[] = {
	{ OP_COMPUTE, 3000, 0 }, { OP_DOWN, L, 0 }, { OP_COMPUTE, 500, 0 }, { OP_UP, L, 0 },
	{ OP_END, 0, 0 },
};
static const struct sh_step waiter_b[] = {
	{ OP_COMPUTE, 4000, 0 }, { OP_DOWN, L, 0 }, { OP_COMPUTE, 500, 0 }, { OP_UP, L, 0 },
	{ OP_END, 0, 0 },
};
static const struct sh_step waiter_c[] = {
	{ OP_COMPUTE, 2000, 0 }, { OP_DOWN, L, 0 }, { OP_COMPUTE, 500, 0 }, { OP_UP, L, 0 },
	{ OP_END, 0, 0 },
};

static void run_arrivals(struct sh_host *h, enum km_spin_flavour f, uint64_t seed)
{
	new_run(h, f, 4, seed);
	assert_non_null(sh_task(h, "holder", 0, 0, holder));
	assert_non_null(sh_task(h, "a", 1, 0, waiter_a));
	assert_non_null(sh_task(h, "b", 2, 0, waiter_b));
	assert_non_null(sh_task(h, "c", 3, 0, waiter_c));
	assert_int_equal(sh_run(h), 0);
	assert_int_equal(h->sim->outcome, KM_OUT_COMPLETED);
}

/* Ticket and queued: acquisition order is arrival order, whatever the
 * seed. */
static void test_spin_ticket_and_queued_are_fifo(void **state)
{
	static const enum km_spin_flavour fl[] = { KM_SPIN_TICKET, KM_SPIN_QUEUED };
	for (int f = 0; f < 2; f++) {
		for (uint64_t seed = 1; seed <= 5; seed++) {
			struct sh_host h;
			uint32_t order[4];
			run_arrivals(&h, fl[f], seed);
			assert_int_equal(sh_acquire_order(h.sim, L, order, 4), 4);
			assert_int_equal(order[0], 0);
			assert_int_equal(order[1], 3);	/* c arrived first */
			assert_int_equal(order[2], 1);
			assert_int_equal(order[3], 2);
			assert_int_equal(sh_unfair_grants(h.sim, L), 0);
			sh_free(&h);
		}
	}
}

/* Test-and-set: over seeds, the same arrivals are granted in other
 * orders too. */
static void test_spin_tas_order_is_random(void **state)
{
	int unfair = 0, distinct_second = 0;
	bool seen[4] = { false, false, false, false };
	for (uint64_t seed = 1; seed <= 30; seed++) {
		struct sh_host h;
		uint32_t order[4];
		run_arrivals(&h, KM_SPIN_TAS, seed);
		assert_int_equal(sh_acquire_order(h.sim, L, order, 4), 4);
		assert_int_equal(order[0], 0);
		if (!seen[order[1]])
			distinct_second++;
		seen[order[1]] = true;
		unfair += sh_unfair_grants(h.sim, L);
		sh_free(&h);
	}
	assert_true(unfair > 0);
	/* each of the three waiters was picked first in some run */
	assert_int_equal(distinct_second, 3);
}

/* Many contended acquisitions: ticket never grants out of order,
 * test-and-set often does. */
static void test_spin_tas_unfair_ticket_fair_under_load(void **state)
{
	static const struct sh_step worker[] = {
		{ OP_DOWN, L, 0 }, { OP_COMPUTE, 300, 0 }, { OP_UP, L, 0 },
		{ OP_COMPUTE, 250, 0 }, { OP_LOOP, 0, 40 }, { OP_END, 0, 0 },
	};
	int tas_unfair = 0;
	for (uint64_t seed = 1; seed <= 5; seed++) {
		for (int f = 0; f < 2; f++) {
			struct sh_host h;
			new_run(&h, f ? KM_SPIN_TAS : KM_SPIN_TICKET, 4, seed);
			for (int i = 0; i < 4; i++)
				assert_non_null(sh_task(&h, "worker", i, 0, worker));
			assert_int_equal(sh_run(&h), 0);
			assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
			struct km_lock *l = h.sim->locks.v[L];
			assert_int_equal(l->st.acquisitions, 160);
			assert_true(l->st.contentions > 40);
			assert_int_equal(sh_max_holders(h.sim, L), 1);
			if (f)
				tas_unfair += sh_unfair_grants(h.sim, L);
			else
				assert_int_equal(sh_unfair_grants(h.sim, L), 0);
			sh_free(&h);
		}
	}
	assert_true(tas_unfair > 20);
}

/* Test-and-set: the releasing CPU asks again within the hand-off window
 * and wins every time; the spinner gets the lock only when it stops.
 * A ticket lock hands it over at the first release. */
static void test_spin_tas_releaser_reacquires(void **state)
{
	static const struct sh_step hog[] = {
		{ OP_DOWN, L, 0 }, { OP_COMPUTE, 1000, 0 }, { OP_UP, L, 0 }, { OP_LOOP, 0, 20 },
		{ OP_END, 0, 0 },
	};
	static const struct sh_step victim[] = {
		{ OP_COMPUTE, 500, 0 }, { OP_DOWN, L, 0 }, { OP_UP, L, 0 }, { OP_END, 0, 0 },
	};
	for (int f = 0; f < 2; f++) {
		struct sh_host h;
		new_run(&h, f ? KM_SPIN_TAS : KM_SPIN_TICKET, 2, 3);
		assert_non_null(sh_task(&h, "hog", 0, 0, hog));
		assert_non_null(sh_task(&h, "victim", 1, 0, victim));
		assert_int_equal(sh_run(&h), 0);
		const struct sh_event *vd = sh_ev(&h, 1, OP_DOWN, L, 0);
		const struct sh_event *first_up = sh_ev(&h, 0, OP_UP, L, 0);
		const struct sh_event *last_up = sh_ev(&h, 0, OP_UP, L, 19);
		assert_non_null(vd);
		assert_non_null(last_up);
		if (f) {
			assert_true(vd->done > last_up->issued);
			assert_int_equal(sh_unfair_grants(h.sim, L), 19);
		} else {
			assert_true(vd->done > first_up->issued);
			assert_true(vd->done < sh_ev(&h, 0, OP_DOWN, L, 1)->done);
			assert_int_equal(sh_unfair_grants(h.sim, L), 0);
		}
		sh_free(&h);
	}
}

/* The hand-off delay on a flat machine (cacheline 10, cache.h): the
 * releaser's store fetches the line (10), then the line's home serves one
 * request at a time.  Ticket: every spinner re-reads the head, round the
 * CPUs from the releaser's -- cpu1, cpu2, then cpu3, whose ticket is next:
 * 10 + 3 x 10.  Queued: only the queue head (cpu3) reads the lock line
 * (10) and stores the locked byte (an upgrade, 10): 10 + 2 x 10, however
 * many wait.  The waiter spins, never sleeps. */
static void test_spin_handoff_cost(void **state)
{
	static const enum km_spin_flavour fl[] = { KM_SPIN_TICKET, KM_SPIN_QUEUED };
	static const km_time expect[] = { 10 + 3 * 10, 10 + 2 * 10 };
	for (int f = 0; f < 2; f++) {
		struct sh_host h;
		run_arrivals(&h, fl[f], 1);
		const struct sh_event *up = sh_ev(&h, 0, OP_UP, L, 0);
		const struct sh_event *cd = sh_ev(&h, 3, OP_DOWN, L, 0);
		assert_int_equal(cd->done - up->issued, expect[f]);
		for (int i = 1; i < 4; i++) {
			assert_true(h.sim->ctxs.v[i]->spin_ns > 0);
			assert_int_equal(h.sim->ctxs.v[i]->blocked_ns, 0);
			assert_true(h.sim->cpus[i].acct[KM_CPU_SPIN] > 0);
		}
		assert_int_equal(h.sim->ctxs.v[0]->spin_ns, 0);
		sh_free(&h);
	}
}

/* Queued, hand-off by hand-off (qspinlock.c of 4.2), on the flat test
 * machine (a transfer 10, an invalidation round 10, an atomic 1).  cpu3
 * came second and took the pending bit; cpu1 is the MCS queue's head,
 * spinning on the lock word; cpu2 queued behind it, on its own node.
 *  - cpu3 -> cpu1: the release's store (an upgrade, 10), the head's read
 *    (10), its plain store of the locked byte since cpu2 is queued (an
 *    upgrade, 10), its node's next, written there by cpu2 (10), cpu2's
 *    node->locked (10), and at `release:` this_cpu_dec() of its own
 *    node's count (the load a hit, the store an upgrade: cpu2 has the
 *    line since its prev->next, 10): 60, all before cpu1's section begins;
 *  - cpu1 -> cpu2: the release (10), the read (10), and, cpu2 being the
 *    last, a cmpxchg that clears the tail (10 + 1), then this_cpu_dec()
 *    of its own node, which cpu1's node->locked left shared (10): 41. */
static void test_spin_queued_pending_then_queue(void **state)
{
	struct sh_host h;
	run_arrivals(&h, KM_SPIN_QUEUED, 1);
	const struct sh_event *up3 = sh_ev(&h, 3, OP_UP, L, 0);
	const struct sh_event *dn1 = sh_ev(&h, 1, OP_DOWN, L, 0);
	const struct sh_event *up1 = sh_ev(&h, 1, OP_UP, L, 0);
	const struct sh_event *dn2 = sh_ev(&h, 2, OP_DOWN, L, 0);
	assert_int_equal(dn1->done - up3->issued, 60);
	assert_int_equal(dn2->done - up1->issued, 41);
	assert_false(h.sim->locks.v[L]->u.raw.q_pending);
	sh_free(&h);
}

/* Four waiters behind the holder on 5 CPUs, arriving 4, 1, 2, 3; the run
 * stopped at 6000, the holder still in its section. */
static void four_waiters_at_6000(struct sh_host *h, enum km_spin_flavour f)
{
	static const struct sh_step w4[] = {
		{ OP_COMPUTE, 2000, 0 }, { OP_DOWN, L, 0 }, { OP_COMPUTE, 500, 0 }, { OP_UP, L, 0 },
		{ OP_END, 0, 0 },
	};
	static const struct sh_step w3[] = {
		{ OP_COMPUTE, 5000, 0 }, { OP_DOWN, L, 0 }, { OP_COMPUTE, 500, 0 }, { OP_UP, L, 0 },
		{ OP_END, 0, 0 },
	};
	struct km_era era = sh_era(5);
	era.spinlock = f;
	struct km_config cfg = sh_cfg(5, 1);
	cfg.duration = 6000;
	assert_non_null(sh_new(h, &era, &cfg));
	assert_non_null(km_lock_new(h->sim, "l", KM_PRIM_SPIN, 1, false));
	assert_non_null(sh_task(h, "holder", 0, 0, holder));
	assert_non_null(sh_task(h, "a", 1, 0, waiter_a));
	assert_non_null(sh_task(h, "b", 2, 0, waiter_b));
	assert_non_null(sh_task(h, "c", 3, 0, w3));
	assert_non_null(sh_task(h, "d", 4, 0, w4));
	sh_run(h);
	assert_int_equal(h->sim->locks.v[L]->spinners.len, 4);
}

/* A CPU queued behind the head spins reading its node's locked, on the
 * line that also holds its next (arch_mcs_spin_lock_contended()): when
 * its successor links in (prev->next = node) the line goes to the
 * successor and the spin reads it back.  The head spins on the lock word
 * instead and does not.  cpu4 takes the pending bit (2000), cpu1 heads the
 * queue (3000), cpu2 queues behind it (4000) and cpu3 behind cpu2 (5000);
 * the run stops at 6000, the holder still in its section: cpu2 holds its
 * node's line again, shared with cpu3, and cpu1, the head, does not
 * (cpu2 linked into it and keeps it).  Then the same for the MCS lock. */
static void test_spin_queued_waiter_rereads_its_node(void **state)
{
	struct sh_host h;
	four_waiters_at_6000(&h, KM_SPIN_QUEUED);
	const struct km_line *n2 = &h.sim->cpus[2].mcs_node, *n1 = &h.sim->cpus[1].mcs_node;
	assert_true(km_line_holds(n2, 2));	/* read back behind the head */
	assert_true(km_line_holds(n2, 3));	/* where cpu3 wrote its link */
	assert_false(km_line_holds(n1, 1));	/* the head spins on the word */
	assert_true(km_line_holds(n1, 2));
	sh_free(&h);

	/* The MCS lock of the 2012 exhibit (mcs_spin_lock()): every waiter
	 * spins on its own node, the first too; the holder does not. */
	four_waiters_at_6000(&h, KM_SPIN_MCS);
	assert_true(km_line_holds(&h.sim->cpus[4].mcs_node, 4));	/* cpu1 linked in */
	assert_true(km_line_holds(&h.sim->cpus[2].mcs_node, 2));	/* cpu3 linked in */
	assert_false(km_line_holds(&h.sim->cpus[0].mcs_node, 0));	/* the holder's */
	sh_free(&h);
}

/* A failed trylock leaves preemption as it was: sleeping afterwards is
 * not "sleeping while atomic"; a successful one is. */
static void test_spin_trylock(void **state)
{
	static const struct sh_step trier[] = {
		{ OP_COMPUTE, 1000, 0 }, { OP_TRYLOCK, L, 0 }, { OP_SLEEP, 100, 0 },
		{ OP_COMPUTE, 20000, 0 }, { OP_TRYLOCK, L, 0 }, { OP_UP, L, 0 }, { OP_END, 0, 0 },
	};
	struct sh_host h;
	new_run(&h, KM_SPIN_TICKET, 2, 1);
	assert_non_null(sh_task(&h, "holder", 0, 0, holder));
	assert_non_null(sh_task(&h, "trier", 1, 0, trier));
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(sh_ev(&h, 1, OP_TRYLOCK, L, 0)->result, 0);
	assert_int_equal(sh_ev(&h, 1, OP_TRYLOCK, L, 1)->result, 1);
	assert_int_equal(h.sim->violation_count[KM_V_SLEEP_IN_ATOMIC], 0);
	assert_int_equal(h.sim->ctxs.v[1]->preempt_count, 0);
	assert_int_equal(h.sim->locks.v[L]->st.contentions, 0);
	assert_int_equal(h.sim->ctxs.v[1]->spin_ns, 0);
	sh_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spin_ticket_and_queued_are_fifo),
		cmocka_unit_test(test_spin_tas_order_is_random),
		cmocka_unit_test(test_spin_tas_unfair_ticket_fair_under_load),
		cmocka_unit_test(test_spin_tas_releaser_reacquires),
		cmocka_unit_test(test_spin_handoff_cost),
		cmocka_unit_test(test_spin_queued_pending_then_queue),
		cmocka_unit_test(test_spin_queued_waiter_rereads_its_node),
		cmocka_unit_test(test_spin_trylock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
