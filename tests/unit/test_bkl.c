/*
 * test_bkl.c - the Big Kernel Lock (lock_bkl.c).
 *
 * One global lock: every lock declared as the BKL (or every lock in bkl
 * mode) is the same kernel_flag.  It recurses through a per-task depth
 * and is released only at depth 0; its holder may sleep, and then
 * schedule() drops it for the others and takes it back (spinning if
 * need be) before the sleeper runs again.  Holding it is not atomic.
 */
#include "test.h"

#include "script_host.h"
#include "ctx.h"		/* white-box: reads a context's fields */
#include "view/view_panels.h"

#include <stdlib.h>
#include <string.h>

enum { A = 0, B = 1 };

static void new_run(struct sh_host *h, int mode)
{
	struct km_era era = sh_era(2);
	struct km_config cfg = sh_cfg(2, 1);
	cfg.mode = mode;
	assert_non_null(sh_new(h, &era, &cfg));
	enum km_prim kind = mode == KM_MODE_NATIVE ? KM_PRIM_BKL : KM_PRIM_SEM;
	assert_non_null(km_lock_new(h->sim, "a", kind, 1, false));
	assert_non_null(km_lock_new(h->sim, "b", kind, 1, false));
}

/* down twice, up twice: the other task waits until the second up. */
static void test_bkl_recursion(void **state)
{
	static const struct sh_step nested[] = {
		{ OP_DOWN, A, 0 }, { OP_DOWN, A, 0 }, { OP_COMPUTE, 2000, 0 }, { OP_UP, A, 0 },
		{ OP_COMPUTE, 5000, 0 }, { OP_UP, A, 0 }, { OP_COMPUTE, 100, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step other[] = {
		{ OP_COMPUTE, 1000, 0 }, { OP_DOWN, A, 0 }, { OP_COMPUTE, 100, 0 },
		{ OP_UP, A, 0 }, { OP_END, 0, 0 },
	};
	struct sh_host h;
	new_run(&h, KM_MODE_NATIVE);
	assert_non_null(sh_task(&h, "nested", 0, 0, nested));
	assert_non_null(sh_task(&h, "other", 1, 0, other));
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
	const struct sh_event *up1 = sh_ev(&h, 0, OP_UP, A, 0);
	const struct sh_event *up2 = sh_ev(&h, 0, OP_UP, A, 1);
	const struct sh_event *od = sh_ev(&h, 1, OP_DOWN, A, 0);
	assert_true(od->issued < up1->issued);		/* it asked early ... */
	assert_true(od->done > up2->issued);		/* ... and waited for depth 0 */
	assert_true(h.sim->ctxs.v[1]->spin_ns >= up2->issued - od->issued - 20);
	assert_int_equal(h.sim->ctxs.v[1]->blocked_ns, 0);	/* it spins */
	/* two raw acquisitions of kernel_flag; the nested one is not one */
	assert_int_equal(h.sim->bkl->st.acquisitions, 2);
	assert_int_equal(h.sim->bkl->st.contentions, 1);
	assert_null(h.sim->bkl->owner);
	assert_int_equal(h.sim->bkl->avail, 1);
	for (int k = 0; k < KM_V_KINDS; k++)
		assert_int_equal(h.sim->violation_count[k], 0);
	sh_free(&h);
}

/* Two locks declared as the BKL are one lock; so are two semaphores in
 * bkl mode. */
static void test_bkl_is_one_global_lock(void **state)
{
	static const struct sh_step ta[] = {
		{ OP_DOWN, A, 0 }, { OP_COMPUTE, 10000, 0 }, { OP_UP, A, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step tb[] = {
		{ OP_COMPUTE, 1000, 0 }, { OP_DOWN, B, 0 }, { OP_UP, B, 0 }, { OP_END, 0, 0 },
	};
	static const int modes[] = { KM_MODE_NATIVE, KM_PRIM_BKL, KM_PRIM_SEM };
	for (int m = 0; m < 3; m++) {
		struct sh_host h;
		new_run(&h, modes[m]);
		assert_non_null(sh_task(&h, "ta", 0, 0, ta));
		assert_non_null(sh_task(&h, "tb", 1, 0, tb));
		assert_int_equal(sh_run(&h), 0);
		const struct sh_event *up = sh_ev(&h, 0, OP_UP, A, 0);
		const struct sh_event *bd = sh_ev(&h, 1, OP_DOWN, B, 0);
		if (modes[m] == KM_PRIM_SEM)
			assert_true(bd->done < up->issued);	/* control: two locks */
		else
			assert_true(bd->done > up->issued);
		sh_free(&h);
	}
}

/* The holder sleeps: another task takes the BKL meanwhile; the sleeper
 * takes it back (spinning while the other holds it) before it goes on. */
static void test_bkl_released_on_sleep(void **state)
{
	static const struct sh_step sleeper[] = {
		{ OP_DOWN, A, 0 }, { OP_SLEEP, 10000, 0 }, { OP_MARK, 1, 0 },
		{ OP_COMPUTE, 100, 0 }, { OP_UP, A, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step other[] = {
		{ OP_COMPUTE, 1000, 0 }, { OP_DOWN, A, 0 }, { OP_COMPUTE, 20000, 0 },
		{ OP_UP, A, 0 }, { OP_END, 0, 0 },
	};
	struct sh_host h;
	new_run(&h, KM_MODE_NATIVE);
	assert_non_null(sh_task(&h, "sleeper", 0, 0, sleeper));
	assert_non_null(sh_task(&h, "other", 1, 0, other));
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
	const struct sh_event *sl = sh_ev(&h, 0, OP_SLEEP, SH_ANY, 0);
	const struct sh_event *od = sh_ev(&h, 1, OP_DOWN, A, 0);
	const struct sh_event *ou = sh_ev(&h, 1, OP_UP, A, 0);
	const struct sh_event *mark = sh_ev(&h, 0, OP_MARK, 1, 0);
	/* the other task got it while the holder slept, without waiting */
	assert_true(od->done > sl->issued);
	assert_true(od->done < sl->issued + 10000);
	assert_int_equal(h.sim->locks.v[A]->st.contentions, 0);
	/* the sleeper woke at 10000 but ran on only once it had it back */
	assert_true(mark->done > ou->issued);
	assert_true(h.sim->ctxs.v[0]->spin_ns > 0);
	assert_int_equal(h.sim->bkl->st.acquisitions, 3);
	/* sleeping under the BKL is allowed */
	for (int k = 0; k < KM_V_KINDS; k++)
		assert_int_equal(h.sim->violation_count[k], 0);
	assert_null(h.sim->bkl->owner);
	sh_free(&h);
}

/* The retaken BKL keeps its depth: after the sleep the holder still
 * needs both ups before the other task gets in. */
static void test_bkl_depth_survives_sleep(void **state)
{
	static const struct sh_step sleeper[] = {
		{ OP_DOWN, A, 0 }, { OP_DOWN, A, 0 }, { OP_SLEEP, 5000, 0 }, { OP_UP, A, 0 },
		{ OP_COMPUTE, 3000, 0 }, { OP_UP, A, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step other[] = {
		{ OP_COMPUTE, 8000, 0 }, { OP_DOWN, A, 0 }, { OP_UP, A, 0 }, { OP_END, 0, 0 },
	};
	struct sh_host h;
	new_run(&h, KM_MODE_NATIVE);
	assert_non_null(sh_task(&h, "sleeper", 0, 0, sleeper));
	assert_non_null(sh_task(&h, "other", 1, 0, other));
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
	const struct sh_event *up1 = sh_ev(&h, 0, OP_UP, A, 0);
	const struct sh_event *up2 = sh_ev(&h, 0, OP_UP, A, 1);
	const struct sh_event *od = sh_ev(&h, 1, OP_DOWN, A, 0);
	assert_true(od->issued > up1->issued);
	assert_true(od->issued < up2->issued);
	assert_true(od->done > up2->issued);
	assert_int_equal(h.sim->ctxs.v[0]->bkl_depth, 0);
	sh_free(&h);
}

/* Under full preemption the tick does not preempt a BKL holder (its
 * waiters would spin on a task that cannot run); it switches as soon as
 * the holder unlocks.  Control: the same code under a semaphore is
 * preempted at the first tick. */
static void test_bkl_holder_not_preempted(void **state)
{
	static const struct sh_step holder[] = {
		{ OP_DOWN, A, 0 }, { OP_COMPUTE, 3000000, 0 }, { OP_UP, A, 0 },
		{ OP_COMPUTE, 3000000, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step other[] = {
		{ OP_MARK, 1, 0 }, { OP_COMPUTE, 1000, 0 }, { OP_END, 0, 0 },
	};
	for (int sem = 0; sem < 2; sem++) {
		struct sh_host h;
		struct km_era era = sh_era(1);
		era.preempt = KM_PREEMPT_FULL;
		struct km_config cfg = sh_cfg(1, 1);
		assert_non_null(sh_new(&h, &era, &cfg));
		assert_non_null(km_lock_new(h.sim, "a", sem ? KM_PRIM_SEM : KM_PRIM_BKL, 1,
					    false));
		assert_non_null(sh_task(&h, "holder", 0, 0, holder));
		assert_non_null(sh_task(&h, "other", 0, 1000, other));
		assert_int_equal(sh_run(&h), 0);
		assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
		const struct sh_event *up = sh_ev(&h, 0, OP_UP, A, 0);
		const struct sh_event *mark = sh_ev(&h, 1, OP_MARK, 1, 0);
		if (sem) {
			assert_true(mark->done < up->issued);
		} else {
			assert_true(mark->done >= up->issued);
			assert_true(mark->done <= up->issued + 200);
		}
		assert_true(mark->done < h.sim->ctxs.v[0]->end_ns);
		sh_free(&h);
	}
}

/* Unlocking the BKL without holding it is reported. */
static void test_bkl_unlock_not_held(void **state)
{
	static const struct sh_step t[] = { { OP_UP, A, 0 }, { OP_END, 0, 0 } };
	struct sh_host h;
	new_run(&h, KM_MODE_NATIVE);
	assert_non_null(sh_task(&h, "t", 0, 0, t));
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(h.sim->violation_count[KM_V_UNLOCK_NOT_HELD], 1);
	assert_int_equal(h.sim->bkl->avail, 1);
	sh_free(&h);
}

/*
 * The BKL as 2.6.25's semaphore and as 2.6.26-rc1's, one release with a
 * sleeper waiting and a running task arriving while the sleeper's
 * wake-up is on its way.  Legacy (lib/semaphore-sleepers.c): up() wakes
 * the sleeper; the newcomer's lock; decl finds the count 0 and goes into
 * __down(), where "everybody else" is added back and it takes the unit
 * (a steal); the woken sleeper retries, finds the count negative and
 * sleeps again (a lost wake-up) until the thief's up().  Generic
 * (64ac24e73882): up() hands the unit to the sleeper; the newcomer
 * queues behind it.  Either way the semaphore ends free and empty.
 */
static void test_bkl_sem_newcomer_during_wakeup(void **state)
{
	static const struct sh_step holder[] = {
		{ OP_DOWN, A, 0 }, { OP_COMPUTE, 10000, 0 }, { OP_UP, A, 0 },
		{ OP_COMPUTE, 50000, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step sleeper[] = {
		{ OP_COMPUTE, 1000, 0 }, { OP_DOWN, A, 0 }, { OP_COMPUTE, 1000, 0 },
		{ OP_UP, A, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step newcomer[] = {
		{ OP_COMPUTE, 10500, 0 }, { OP_DOWN, A, 0 }, { OP_COMPUTE, 20000, 0 },
		{ OP_UP, A, 0 }, { OP_END, 0, 0 },
	};
	for (int legacy = 0; legacy < 2; legacy++) {
		struct sh_host h;
		struct km_era era = sh_era(3);
		era.bkl_lock = legacy ? KM_BKL_SEM_LEGACY : KM_BKL_SEM_GENERIC;
		era.cost.wakeup = 5000;	/* the newcomer comes inside it */
		struct km_config cfg = sh_cfg(3, 1);
		assert_non_null(sh_new(&h, &era, &cfg));
		assert_non_null(km_lock_new(h.sim, "a", KM_PRIM_BKL, 1, false));
		assert_non_null(sh_task(&h, "holder", 0, 0, holder));
		assert_non_null(sh_task(&h, "sleeper", 1, 0, sleeper));
		assert_non_null(sh_task(&h, "newcomer", 2, 0, newcomer));
		assert_int_equal(sh_run(&h), 0);
		assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
		const struct km_lock *bk = h.sim->bkl;
		const struct sh_event *up = sh_ev(&h, 0, OP_UP, A, 0);
		const struct sh_event *sd = sh_ev(&h, 1, OP_DOWN, A, 0);
		const struct sh_event *nd = sh_ev(&h, 2, OP_DOWN, A, 0);
		assert_true(nd->issued > up->issued);
		assert_true(nd->issued < up->issued + era.cost.wakeup);
		if (legacy) {
			assert_true(nd->done < sd->done);	/* taken past the sleeper */
			assert_int_equal(bk->st.steals, 1);
			assert_int_equal(bk->st.wake_lost, 1);
			assert_int_equal(bk->st.wakeups, 2);
		} else {
			assert_true(sd->done < nd->done);	/* handed to the sleeper */
			assert_int_equal(bk->st.steals, 0);
			assert_int_equal(bk->st.wake_lost, 0);
			assert_int_equal(bk->st.wakeups, 2);
		}
		assert_int_equal(bk->st.acquisitions, 3);
		assert_int_equal(bk->avail, 1);
		assert_int_equal(bk->u.sem.sleepers, 0);
		assert_null(bk->waiters.head);
		assert_null(bk->owner);
		sh_free(&h);
	}
}

/* The largest "(N%)" in @line, or -1 if it has none. */
static long max_pct(const char *line)
{
	long best = -1;
	for (const char *p = strchr(line, '('); p; p = strchr(p + 1, '(')) {
		char *end;
		long v = strtol(p + 1, &end, 10);
		if (end != p + 1 && *end == '%' && v > best)
			best = v;
	}
	return best;
}

/*
 * A run that ends with tasks still waiting for the BKL: each of them was
 * counted as a contention when it began to wait (lock_stat's
 * lock_contended()) and never as an acquisition.  The counts must say so
 * and nothing more -- contentions are the acquisitions that waited plus
 * the waits still open -- and the view's counts line must not show the
 * contentions as a share of the acquisitions (it printed "(200%)" here,
 * and "1689 contended (102%)" on the fair BKL's exhibit).  For the
 * spinning BKL and both semaphores under it.
 */
static void test_bkl_open_waits_counted_once(void **state)
{
	static const struct sh_step holder[] = {
		{ OP_DOWN, A, 0 }, { OP_COMPUTE, 1000000, 0 }, { OP_UP, A, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step waiter[] = {
		{ OP_COMPUTE, 1000, 0 }, { OP_DOWN, A, 0 }, { OP_COMPUTE, 1000, 0 },
		{ OP_UP, A, 0 }, { OP_END, 0, 0 },
	};
	static const enum km_bkl_flavour flavours[] = {
		KM_BKL_SPIN, KM_BKL_SEM_LEGACY, KM_BKL_SEM_GENERIC,
	};
	for (int f = 0; f < 3; f++) {
		struct sh_host h;
		struct km_era era = sh_era(3);
		era.bkl_lock = flavours[f];
		struct km_config cfg = sh_cfg(3, 1);
		cfg.duration = 100000;	/* ends while the holder still holds it */
		assert_non_null(sh_new(&h, &era, &cfg));
		assert_non_null(km_lock_new(h.sim, "a", KM_PRIM_BKL, 1, false));
		assert_non_null(sh_task(&h, "holder", 0, 0, holder));
		assert_non_null(sh_task(&h, "w1", 1, 0, waiter));
		assert_non_null(sh_task(&h, "w2", 2, 0, waiter));
		assert_int_equal(sh_run(&h), 0);
		assert_int_equal(h.sim->outcome, KM_OUT_TIME_LIMIT);
		const struct km_lockstat *s = &h.sim->bkl->st;
		assert_int_equal(s->acquisitions, 1);
		assert_int_equal(s->contentions, 2);
		assert_int_equal(s->wait.n, 0);
		char line[160];
		km_view_lock_counts(s, line, sizeof(line));
		assert_string_equal(line, "1 taken, 0 after a wait (0%), 2 unserved");
		sh_free(&h);
	}
}

/* The counts line on figures as the fair BKL's exhibit had them, and on
 * ones no run gives (more waits than acquisitions): never over 100%. */
static void test_bkl_counts_line_bounded(void **state)
{
	struct km_lockstat s;
	char line[160];
	memset(&s, 0, sizeof(s));
	s.acquisitions = 1662;
	s.contentions = 1689;
	s.wait.n = 1661;
	km_view_lock_counts(&s, line, sizeof(line));
	assert_string_equal(line, "1662 taken, 1661 after a wait (100%), 28 unserved");
	s.wait.n = 5000;	/* inconsistent: clamped, not believed */
	km_view_lock_counts(&s, line, sizeof(line));
	assert_true(max_pct(line) <= 100);
	s.acquisitions = 0;
	km_view_lock_counts(&s, line, sizeof(line));
	assert_string_equal(line, "0 taken, 0 after a wait (0%), 1689 unserved");
	s.contentions = 0;
	km_view_lock_counts(&s, line, sizeof(line));
	assert_string_equal(line, "0 taken, 0 after a wait (0%)");
	char tiny[8];	/* a short buffer: cut, terminated */
	km_view_lock_counts(&s, tiny, sizeof(tiny));
	assert_int_equal(strlen(tiny), sizeof(tiny) - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bkl_recursion),
		cmocka_unit_test(test_bkl_is_one_global_lock),
		cmocka_unit_test(test_bkl_released_on_sleep),
		cmocka_unit_test(test_bkl_depth_survives_sleep),
		cmocka_unit_test(test_bkl_holder_not_preempted),
		cmocka_unit_test(test_bkl_unlock_not_held),
		cmocka_unit_test(test_bkl_sem_newcomer_during_wakeup),
		cmocka_unit_test(test_bkl_open_waits_counted_once),
		cmocka_unit_test(test_bkl_counts_line_bounded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
