/*
 * test_check.c - the validator (check.c and the checks in lock.c, ops.c).
 *
 * Each kind of violation a scenario can commit is provoked once, in the
 * smallest program that shows it, and must be reported -- and the same
 * program made correct must not be.  The lockdep-style kinds (lock order,
 * irq-unsafe, recursion, held at exit) must be reported even when the
 * run was lucky and nothing went wrong.  The run goes on after a violation,
 * as the kernel goes on after a warning; a deadlock ends it with the
 * deadlock outcome.  Last, a correct program that uses every primitive,
 * interrupts and the waiting operations must report nothing at all.
 */
#include "test.h"

#include "script_host.h"
#include "ctx.h"		/* white-box: reads a context's fields */

#include <string.h>

/* Exactly @n1 violations of kind @k1 and @n2 of @k2 (-1: none), and none
 * of any other kind. */
static void assert_counts(const struct km_sim *sim, int k1, uint64_t n1, int k2, uint64_t n2)
{
	for (int k = 0; k < KM_V_KINDS; k++) {
		uint64_t want = k == k1 ? n1 : k == k2 ? n2 : 0;
		if (sim->violation_count[k] != want)
			fail_msg("%s: %llu violations, expected %llu",
				 km_violation_name((enum km_violation_kind)k),
				 (unsigned long long)sim->violation_count[k],
				 (unsigned long long)want);
	}
}

static void assert_only(const struct km_sim *sim, int kind, uint64_t n)
{
	assert_counts(sim, kind, n, -1, 0);
}

static void assert_none(const struct km_sim *sim)
{
	assert_only(sim, -1, 0);
}

static void new_run(struct sh_host *h, int cpus)
{
	struct km_era era = sh_era(cpus);
	struct km_config cfg = sh_cfg(cpus, 1);
	assert_non_null(sh_new(h, &era, &cfg));
}

/* ---------------------------------------------------------- lost update -- */

enum { LOOPS = 200 };

/* Two CPUs add to one var: unlocked, updates are lost and reported;
 * under a spinlock, none. */
static void test_check_lost_update_unlocked_add(void **state)
{
	static const struct sh_step racer[] = {
		{ OP_ADD, 0, 1 }, { OP_COMPUTE, 3, 0 }, { OP_LOOP, 0, LOOPS }, { OP_END, 0, 0 },
	};
	struct sh_host h;
	new_run(&h, 2);
	struct km_var *v = km_var_new(h.sim, "v", 0);
	assert_non_null(v);
	assert_non_null(sh_task(&h, "a", 0, 0, racer));
	assert_non_null(sh_task(&h, "b", 1, 0, racer));
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
	assert_true(v->value < 2 * LOOPS);
	assert_true(v->lost > 0);
	assert_only(h.sim, KM_V_LOST_UPDATE, v->lost);
	assert_int_equal(h.sim->violations.v[0].var, 0);
	assert_non_null(strstr(h.sim->violations.v[0].message, "'v'"));
	assert_int_equal(sh_trace_count(h.sim, KM_TR_VIOLATION, SH_ANY, 0), (int)v->lost);
	sh_free(&h);
}

static void test_check_no_lost_update_under_lock(void **state)
{
	static const struct sh_step careful[] = {
		{ OP_DOWN, 0, 0 }, { OP_ADD, 0, 1 }, { OP_UP, 0, 0 }, { OP_COMPUTE, 3, 0 },
		{ OP_LOOP, 0, LOOPS }, { OP_END, 0, 0 },
	};
	static const enum km_prim kinds[] = { KM_PRIM_SPIN, KM_PRIM_MUTEX, KM_PRIM_SEM,
					      KM_PRIM_BKL };
	for (int k = 0; k < 4; k++) {
		struct sh_host h;
		new_run(&h, 2);
		assert_non_null(km_lock_new(h.sim, "l", kinds[k], 1, false));
		struct km_var *v = km_var_new(h.sim, "v", 0);
		assert_non_null(sh_task(&h, "a", 0, 0, careful));
		assert_non_null(sh_task(&h, "b", 1, 0, careful));
		assert_int_equal(sh_run(&h), 0);
		assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
		assert_int_equal(v->value, 2 * LOOPS);
		assert_int_equal(v->lost, 0);
		assert_none(h.sim);
		assert_true(h.sim->locks.v[0]->st.contentions > 0);	/* they did meet */
		sh_free(&h);
	}
}

/* One CPU: read, compute, write back; a handler writes in between.  With
 * interrupts off around it, no update is lost. */
static void test_check_lost_update_irq_race(void **state)
{
	static const struct sh_step racy[] = {
		{ OP_READ, 0, 0 }, { OP_COMPUTE, 5000, 0 }, { OP_WRITE_INC, 0, 1 }, { OP_END, 0, 0 },
	};
	static const struct sh_step safe[] = {
		{ OP_IRQ_DISABLE, 0, 0 }, { OP_READ, 0, 0 }, { OP_COMPUTE, 5000, 0 },
		{ OP_WRITE_INC, 0, 1 }, { OP_IRQ_ENABLE, 0, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step handler[] = {
		{ OP_ADD, 0, 100 }, { OP_END, 0, 0 },
	};
	for (int safe_run = 0; safe_run < 2; safe_run++) {
		struct sh_host h;
		new_run(&h, 1);
		struct km_var *v = km_var_new(h.sim, "v", 0);
		assert_non_null(sh_task(&h, "t", 0, 0, safe_run ? safe : racy));
		struct km_irqsrc *src = sh_irq(&h, "dev", 0, 2000, 0, 0, handler);
		assert_int_equal(sh_run(&h), 0);
		assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
		assert_true(src->handler.n >= 1);
		int64_t handled = 0;
		for (int i = 0; sh_irq_ev(&h, 0, OP_ADD, 0, i); i++)
			handled++;
		if (safe_run) {
			assert_none(h.sim);
			assert_int_equal(v->value, 1 + 100 * handled);
		} else {
			assert_only(h.sim, KM_V_LOST_UPDATE, 1);
			assert_int_equal(h.sim->violations.v[0].ctx, 0);
			assert_true(v->value < 1 + 100 * handled);
		}
		sh_free(&h);
	}
}

/* ------------------------------------------------------ sleep in atomic -- */

/* Sleeping with a spinlock held; a contended down() under a spinlock;
 * sleeping with interrupts off where might_sleep() checks it. */
static void test_check_sleep_in_atomic(void **state)
{
	static const struct sh_step spin_sleep[] = {
		{ OP_DOWN, 0, 0 }, { OP_SLEEP, 100, 0 }, { OP_UP, 0, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step spin_down[] = {
		{ OP_COMPUTE, 500, 0 }, { OP_DOWN, 0, 0 }, { OP_DOWN, 1, 0 }, { OP_UP, 1, 0 },
		{ OP_UP, 0, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step sem_holder[] = {
		{ OP_DOWN, 1, 0 }, { OP_COMPUTE, 3000, 0 }, { OP_UP, 1, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step irqoff_sleep[] = {
		{ OP_IRQ_DISABLE, 0, 0 }, { OP_SLEEP, 100, 0 }, { OP_IRQ_ENABLE, 0, 0 },
		{ OP_END, 0, 0 },
	};
	struct sh_host h;

	new_run(&h, 1);
	assert_non_null(km_lock_new(h.sim, "l", KM_PRIM_SPIN, 1, false));
	assert_non_null(sh_task(&h, "t", 0, 0, spin_sleep));
	assert_int_equal(sh_run(&h), 0);
	assert_only(h.sim, KM_V_SLEEP_IN_ATOMIC, 1);
	assert_non_null(strstr(h.sim->violations.v[0].message, "spinlock"));
	sh_free(&h);

	new_run(&h, 2);
	assert_non_null(km_lock_new(h.sim, "l", KM_PRIM_SPIN, 1, false));
	assert_non_null(km_lock_new(h.sim, "s", KM_PRIM_SEM, 1, false));
	assert_non_null(sh_task(&h, "holder", 0, 0, sem_holder));
	assert_non_null(sh_task(&h, "t", 1, 0, spin_down));
	assert_int_equal(sh_run(&h), 0);
	assert_only(h.sim, KM_V_SLEEP_IN_ATOMIC, 1);
	assert_int_equal(h.sim->violations.v[0].lock, 1);
	sh_free(&h);

	for (int check = 0; check < 2; check++) {
		struct km_era era = sh_era(1);
		era.sleep_check = check;
		struct km_config cfg = sh_cfg(1, 1);
		assert_non_null(sh_new(&h, &era, &cfg));
		assert_non_null(sh_task(&h, "t", 0, 0, irqoff_sleep));
		assert_int_equal(sh_run(&h), 0);
		assert_only(h.sim, KM_V_SLEEP_IN_ATOMIC, check ? 1 : 0);
		sh_free(&h);
	}
}

/* A handler that has to wait for a semaphore cannot sleep: reported, and
 * it busy-waits instead. */
static void test_check_down_in_irq(void **state)
{
	static const struct sh_step holder[] = {
		{ OP_DOWN, 0, 0 }, { OP_COMPUTE, 5000, 0 }, { OP_UP, 0, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step handler[] = {
		{ OP_DOWN, 0, 0 }, { OP_UP, 0, 0 }, { OP_END, 0, 0 },
	};
	struct sh_host h;
	new_run(&h, 2);
	assert_non_null(km_lock_new(h.sim, "s", KM_PRIM_SEM, 1, false));
	assert_non_null(sh_task(&h, "holder", 0, 0, holder));
	assert_non_null(sh_irq(&h, "dev", 1, 1000000, 0, -999000, handler));
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
	assert_only(h.sim, KM_V_SLEEP_IN_ATOMIC, 1);
	assert_true(h.sim->cpus[1].acct[KM_CPU_SPIN] > 0);
	const struct sh_event *d = sh_irq_ev(&h, 0, OP_DOWN, 0, 0);
	assert_non_null(d);
	assert_true(d->done >= sh_ev(&h, 0, OP_UP, 0, 0)->issued);
	sh_free(&h);
}

/* ------------------------------------------------------- mutex rules -- */

static void test_check_mutex_unlock_in_irq(void **state)
{
	static const struct sh_step task[] = { { OP_COMPUTE, 5000, 0 }, { OP_END, 0, 0 } };
	static const struct sh_step handler[] = { { OP_UP, 0, 0 }, { OP_END, 0, 0 } };
	struct sh_host h;
	new_run(&h, 1);
	assert_non_null(km_lock_new(h.sim, "m", KM_PRIM_MUTEX, 0, false));
	assert_non_null(sh_task(&h, "t", 0, 0, task));
	assert_non_null(sh_irq(&h, "dev", 0, 1000000, 0, -998000, handler));
	assert_int_equal(sh_run(&h), 0);
	assert_only(h.sim, KM_V_MUTEX_UNLOCK_IN_IRQ, 1);
	assert_int_equal(h.sim->violations.v[0].lock, 0);
	sh_free(&h);
}

static void test_check_mutex_unlock_not_owner(void **state)
{
	static const struct sh_step owner[] = {
		{ OP_DOWN, 0, 0 }, { OP_COMPUTE, 5000, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step other[] = {
		{ OP_COMPUTE, 1000, 0 }, { OP_UP, 0, 0 }, { OP_END, 0, 0 },
	};
	struct sh_host h;
	new_run(&h, 2);
	assert_non_null(km_lock_new(h.sim, "m", KM_PRIM_MUTEX, 1, false));
	assert_non_null(sh_task(&h, "owner", 0, 0, owner));
	assert_non_null(sh_task(&h, "other", 1, 0, other));
	assert_int_equal(sh_run(&h), 0);
	assert_only(h.sim, KM_V_MUTEX_UNLOCK_NOT_OWNER, 1);
	assert_int_equal(h.sim->violations.v[0].ctx, 1);
	sh_free(&h);
}

/* ------------------------------------------------------ unlock not held -- */

static void test_check_unlock_not_held(void **state)
{
	static const struct sh_step holder[] = {
		{ OP_DOWN, 0, 0 }, { OP_COMPUTE, 5000, 0 }, { OP_UP, 0, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step stranger[] = {
		{ OP_COMPUTE, 1000, 0 }, { OP_UP, 0, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step lone[] = { { OP_UP, 0, 0 }, { OP_END, 0, 0 } };
	struct sh_host h;

	/* spin_unlock by a task that does not hold it */
	new_run(&h, 2);
	assert_non_null(km_lock_new(h.sim, "l", KM_PRIM_SPIN, 1, false));
	assert_non_null(sh_task(&h, "holder", 0, 0, holder));
	assert_non_null(sh_task(&h, "stranger", 1, 0, stranger));
	assert_int_equal(sh_run(&h), 0);
	assert_true(h.sim->violation_count[KM_V_UNLOCK_NOT_HELD] >= 1);
	assert_int_equal(h.sim->violations.v[0].kind, KM_V_UNLOCK_NOT_HELD);
	assert_int_equal(h.sim->violations.v[0].ctx, 1);
	sh_free(&h);

	/* a free spinlock, mutex, BKL, cli lock */
	static const enum km_prim kinds[] = { KM_PRIM_SPIN, KM_PRIM_MUTEX, KM_PRIM_BKL,
					      KM_PRIM_CLI };
	for (int k = 0; k < 4; k++) {
		new_run(&h, 1);
		assert_non_null(km_lock_new(h.sim, "l", kinds[k], 1, false));
		assert_non_null(sh_task(&h, "lone", 0, 0, lone));
		assert_int_equal(sh_run(&h), 0);
		assert_only(h.sim, KM_V_UNLOCK_NOT_HELD, 1);
		assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
		sh_free(&h);
	}

	/* a semaphore's up() needs no down(): never a violation */
	new_run(&h, 1);
	assert_non_null(km_lock_new(h.sim, "s", KM_PRIM_SEM, 1, false));
	assert_non_null(sh_task(&h, "lone", 0, 0, lone));
	assert_int_equal(sh_run(&h), 0);
	assert_none(h.sim);
	assert_int_equal(h.sim->locks.v[0]->avail, 2);
	sh_free(&h);
}

/* ------------------------------------------------------------ deadlock -- */

static const struct sh_step ab[] = {
	{ OP_DOWN, 0, 0 }, { OP_COMPUTE, 1000, 0 }, { OP_DOWN, 1, 0 }, { OP_UP, 1, 0 },
	{ OP_UP, 0, 0 }, { OP_END, 0, 0 },
};
static const struct sh_step ba[] = {
	{ OP_DOWN, 1, 0 }, { OP_COMPUTE, 1000, 0 }, { OP_DOWN, 0, 0 }, { OP_UP, 0, 0 },
	{ OP_UP, 1, 0 }, { OP_END, 0, 0 },
};

/* AB-BA with two mutexes, semaphores or spinlocks: the deadlock outcome
 * and one deadlock violation that names both tasks (and one lock-order
 * report); in the same order, the program completes cleanly. */
static void test_check_deadlock_ab_ba(void **state)
{
	static const enum km_prim kinds[] = { KM_PRIM_MUTEX, KM_PRIM_SEM, KM_PRIM_SPIN };
	for (int k = 0; k < 3; k++) {
		for (int same_order = 0; same_order < 2; same_order++) {
			struct sh_host h;
			new_run(&h, 2);
			assert_non_null(km_lock_new(h.sim, "A", kinds[k], 1, false));
			assert_non_null(km_lock_new(h.sim, "B", kinds[k], 1, false));
			assert_non_null(sh_task(&h, "left", 0, 0, ab));
			assert_non_null(sh_task(&h, "right", 1, 0, same_order ? ab : ba));
			assert_int_equal(sh_run(&h), 0);
			if (same_order) {
				assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
				assert_none(h.sim);
			} else {
				assert_int_equal(h.sim->outcome, KM_OUT_DEADLOCK);
				/* and the inversion itself, as lockdep sees it */
				assert_counts(h.sim, KM_V_DEADLOCK, 1, KM_V_LOCK_ORDER, 1);
				assert_non_null(strstr(h.sim->reason, "'left'"));
				assert_non_null(strstr(h.sim->reason, "'right'"));
				assert_non_null(strstr(h.sim->reason, "'A'"));
				assert_non_null(strstr(h.sim->reason, "'B'"));
				assert_int_equal(h.sim->live_tasks, 2);
				assert_false(h.sim->ctxs.v[0]->finished);
				/* found at once, not at the time bound */
				assert_true(h.sim->now < 10000);
			}
			sh_free(&h);
		}
	}
}

/* A deadlock with an interrupt still firing is still found. */
static void test_check_deadlock_with_irq_running(void **state)
{
	static const struct sh_step handler[] = { { OP_COMPUTE, 10, 0 }, { OP_END, 0, 0 } };
	struct sh_host h;
	new_run(&h, 2);
	assert_non_null(km_lock_new(h.sim, "A", KM_PRIM_MUTEX, 1, false));
	assert_non_null(km_lock_new(h.sim, "B", KM_PRIM_MUTEX, 1, false));
	assert_non_null(sh_task(&h, "left", 0, 0, ab));
	assert_non_null(sh_task(&h, "right", 1, 0, ba));
	assert_non_null(sh_irq(&h, "timer", 0, 10000, 0, 0, handler));
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(h.sim->outcome, KM_OUT_DEADLOCK);
	assert_int_equal(h.sim->violation_count[KM_V_DEADLOCK], 1);
	sh_free(&h);
}

/* ------------------------------------------------------------ lockdep -- */

/* A then B, later B then A: no deadlock this time, but the inversion is
 * reported, with the chain, when the second order first appears. */
static void test_check_lock_order_reported_when_lucky(void **state)
{
	static const struct sh_step ba_late[] = {
		{ OP_COMPUTE, 50000, 0 }, { OP_DOWN, 1, 0 }, { OP_DOWN, 0, 0 }, { OP_UP, 0, 0 },
		{ OP_UP, 1, 0 }, { OP_END, 0, 0 },
	};
	static const enum km_prim kinds[] = { KM_PRIM_MUTEX, KM_PRIM_SEM, KM_PRIM_SPIN };
	for (int k = 0; k < 3; k++) {
		struct sh_host h;
		new_run(&h, 2);
		assert_non_null(km_lock_new(h.sim, "A", kinds[k], 1, false));
		assert_non_null(km_lock_new(h.sim, "B", kinds[k], 1, false));
		assert_non_null(sh_task(&h, "early", 0, 0, ab));
		assert_non_null(sh_task(&h, "late", 1, 0, ba_late));
		assert_int_equal(sh_run(&h), 0);
		assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
		assert_only(h.sim, KM_V_LOCK_ORDER, 1);
		const struct km_violation *v = &h.sim->violations.v[0];
		assert_int_equal(v->ctx, 1);
		assert_int_equal(v->lock, 0);		/* taking A while holding B */
		assert_true(v->time >= 50000);
		assert_non_null(strstr(v->message, "B --> A"));
		assert_non_null(v->splat);
		assert_non_null(strstr(v->splat, "circular locking dependency"));
		sh_free(&h);
	}
}

/* A longer cycle, over three tasks that never overlap; a counting
 * semaphore (no owner) is not part of the graph. */
static void test_check_lock_order_three_lock_cycle(void **state)
{
	static const struct sh_step t0[] = {
		{ OP_DOWN, 0, 0 }, { OP_DOWN, 1, 0 }, { OP_UP, 1, 0 }, { OP_UP, 0, 0 },
		{ OP_END, 0, 0 },
	};
	static const struct sh_step t1[] = {
		{ OP_COMPUTE, 10000, 0 }, { OP_DOWN, 1, 0 }, { OP_DOWN, 2, 0 }, { OP_UP, 2, 0 },
		{ OP_UP, 1, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step t2[] = {
		{ OP_COMPUTE, 20000, 0 }, { OP_DOWN, 2, 0 }, { OP_DOWN, 0, 0 }, { OP_UP, 0, 0 },
		{ OP_UP, 2, 0 }, { OP_END, 0, 0 },
	};
	for (int counting = 0; counting < 2; counting++) {
		struct sh_host h;
		new_run(&h, 3);
		assert_non_null(km_lock_new(h.sim, "A", KM_PRIM_MUTEX, 1, false));
		assert_non_null(km_lock_new(h.sim, "B", KM_PRIM_MUTEX, 1, false));
		assert_non_null(km_lock_new(h.sim, "C", counting ? KM_PRIM_SEM : KM_PRIM_MUTEX,
					    counting ? 2 : 1, false));
		assert_non_null(sh_task(&h, "t0", 0, 0, t0));
		assert_non_null(sh_task(&h, "t1", 1, 0, t1));
		assert_non_null(sh_task(&h, "t2", 2, 0, t2));
		assert_int_equal(sh_run(&h), 0);
		assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
		if (counting) {
			assert_none(h.sim);
		} else {
			assert_only(h.sim, KM_V_LOCK_ORDER, 1);
			assert_int_equal(h.sim->violations.v[0].ctx, 2);
			assert_non_null(strstr(h.sim->violations.v[0].message, "C --> A --> B --> C"));
		}
		sh_free(&h);
	}
}

/* A spinlock taken by a handler and by a task with interrupts on: an
 * interrupt on the holder's CPU would spin forever.  Reported even though
 * they never met; with spin_lock_irqsave, not. */
static void test_check_irq_unsafe_spinlock(void **state)
{
	static const struct sh_step plain[] = {
		{ OP_DOWN, 0, 0 }, { OP_COMPUTE, 100, 0 }, { OP_UP, 0, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step irqsave[] = {
		{ OP_IRQ_DISABLE, 0, 0 }, { OP_DOWN, 0, 0 }, { OP_COMPUTE, 100, 0 },
		{ OP_UP, 0, 0 }, { OP_IRQ_ENABLE, 0, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step handler[] = {
		{ OP_DOWN, 0, 0 }, { OP_UP, 0, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step idle[] = { { OP_COMPUTE, 20000, 0 }, { OP_END, 0, 0 } };
	for (int safe = 0; safe < 2; safe++) {
		struct sh_host h;
		new_run(&h, 2);
		assert_non_null(km_lock_new(h.sim, "l", KM_PRIM_SPIN, 1, false));
		assert_non_null(sh_task(&h, "t", 0, 0, safe ? irqsave : plain));
		assert_non_null(sh_task(&h, "other", 1, 0, idle));
		assert_non_null(sh_irq(&h, "dev", 1, 10000, 0, 0, handler));
		assert_int_equal(sh_run(&h), 0);
		assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
		assert_true(sh_irq_count(&h, 0, OP_DOWN, 0) >= 1);
		assert_only(h.sim, KM_V_IRQ_UNSAFE, safe ? 0 : 1);
		sh_free(&h);
	}
}

/* Taking a mutex again while holding it: reported as recursive locking
 * (and it deadlocks); a trylock of it just fails. */
static void test_check_recursive_lock(void **state)
{
	static const struct sh_step twice[] = {
		{ OP_DOWN, 0, 0 }, { OP_DOWN, 0, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step trytwice[] = {
		{ OP_DOWN, 0, 0 }, { OP_TRYLOCK, 0, 0 }, { OP_UP, 0, 0 }, { OP_END, 0, 0 },
	};
	struct sh_host h;
	new_run(&h, 1);
	assert_non_null(km_lock_new(h.sim, "m", KM_PRIM_MUTEX, 1, false));
	assert_non_null(sh_task(&h, "t", 0, 0, twice));
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(h.sim->outcome, KM_OUT_DEADLOCK);
	assert_counts(h.sim, KM_V_RECURSIVE_LOCK, 1, KM_V_DEADLOCK, 1);
	sh_free(&h);

	new_run(&h, 1);
	assert_non_null(km_lock_new(h.sim, "m", KM_PRIM_MUTEX, 1, false));
	assert_non_null(sh_task(&h, "t", 0, 0, trytwice));
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
	assert_int_equal(sh_ev(&h, 0, OP_TRYLOCK, 0, 0)->result, 0);
	assert_none(h.sim);
	sh_free(&h);
}

/* A task that ends holding a lock with an owner is reported; a counting
 * semaphore has no owner and is not. */
static void test_check_held_at_exit(void **state)
{
	static const struct sh_step keep[] = { { OP_DOWN, 0, 0 }, { OP_END, 0, 0 } };
	static const enum km_prim kinds[] = { KM_PRIM_MUTEX, KM_PRIM_SPIN, KM_PRIM_SEM,
					      KM_PRIM_BKL, KM_PRIM_SEM };
	static const int counts[] = { 1, 1, 1, 1, 2 };
	for (int k = 0; k < 5; k++) {
		struct sh_host h;
		new_run(&h, 1);
		assert_non_null(km_lock_new(h.sim, "l", kinds[k], counts[k], false));
		assert_non_null(sh_task(&h, "t", 0, 0, keep));
		assert_int_equal(sh_run(&h), 0);
		assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
		assert_only(h.sim, KM_V_HELD_AT_EXIT, counts[k] == 1 ? 1 : 0);
		if (counts[k] == 1) {
			assert_int_equal(h.sim->violations.v[0].lock, 0);
			assert_int_equal(h.sim->violations.v[0].ctx, 0);
		}
		sh_free(&h);
	}
}

/* ------------------------------------------------- no false positives -- */

enum { SPIN, MUTEX, SEM, BKL };
enum { VSPIN, VMUTEX, VSEM, VIRQ };

/* Everything done right. */
static void test_check_correct_program_is_clean(void **state)
{
	static const struct sh_step worker[] = {
		{ OP_IRQ_DISABLE, 0, 0 }, { OP_DOWN, SPIN, 0 }, { OP_ADD, VSPIN, 1 },
		{ OP_ADD, VIRQ, 1 }, { OP_UP, SPIN, 0 }, { OP_IRQ_ENABLE, 0, 0 },
		{ OP_DOWN, MUTEX, 0 }, { OP_READ, VMUTEX, 0 }, { OP_SLEEP, 50, 0 },
		{ OP_WRITE_INC, VMUTEX, 1 }, { OP_UP, MUTEX, 0 },
		{ OP_DOWN_TIMEOUT, SEM, 100000 }, { OP_ADD, VSEM, 1 }, { OP_UP, SEM, 0 },
		{ OP_DOWN, BKL, 0 }, { OP_DOWN, BKL, 0 }, { OP_SLEEP, 20, 0 }, { OP_UP, BKL, 0 },
		{ OP_UP, BKL, 0 }, { OP_ATOMIC_ADD, 0, 1 }, { OP_COMPUTE, 200, 0 },
		{ OP_LOOP, 0, 30 },
		{ OP_COMPLETE, 0, 0 }, { OP_WAKE_UP, 0, 1 }, { OP_END, 0, 0 },
	};
	static const struct sh_step waiter[] = {
		{ OP_WAIT_COMPLETION, 0, 0 }, { OP_WAIT_COMPLETION, 0, 0 },
		{ OP_WQ_WAIT, 0, 2000 }, { OP_END, 0, 0 },
	};
	static const struct sh_step handler[] = {
		{ OP_DOWN, SPIN, 0 }, { OP_ADD, VSPIN, 1 }, { OP_ADD, VIRQ, 1 },
		{ OP_UP, SPIN, 0 }, { OP_END, 0, 0 },
	};
	struct sh_host h;
	struct km_era era = sh_era(2);
	era.preempt = KM_PREEMPT_FULL;
	struct km_config cfg = sh_cfg(2, 7);
	assert_non_null(sh_new(&h, &era, &cfg));
	assert_non_null(km_lock_new(h.sim, "spin", KM_PRIM_SPIN, 1, false));
	assert_non_null(km_lock_new(h.sim, "mutex", KM_PRIM_MUTEX, 1, false));
	assert_non_null(km_lock_new(h.sim, "sem", KM_PRIM_SEM, 1, false));
	assert_non_null(km_lock_new(h.sim, "bkl", KM_PRIM_BKL, 1, false));
	assert_non_null(km_var_new(h.sim, "vspin", 0));
	assert_non_null(km_var_new(h.sim, "vmutex", 0));
	assert_non_null(km_var_new(h.sim, "vsem", 0));
	assert_non_null(km_var_new(h.sim, "virq", 0));
	assert_non_null(km_atomic_new(h.sim, "a", 0));
	assert_non_null(km_completion_new(h.sim, "done"));
	assert_non_null(km_waitq_new(h.sim, "wq"));
	assert_non_null(sh_task(&h, "w0", 0, 0, worker));
	assert_non_null(sh_task(&h, "w1", 1, 0, worker));
	assert_non_null(sh_task(&h, "waiter", -1, 0, waiter));
	/* the handler shares vspin and virq with both workers under the
	 * spinlock, which the workers take with interrupts off
	 * (spin_lock_irqsave), so it can neither race them nor interrupt a
	 * holder on its own CPU */
	assert_non_null(sh_irq(&h, "dev", 0, 7000, 3000, 0, handler));
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
	int handled = sh_irq_count(&h, 0, OP_ADD, VIRQ);
	assert_true(handled > 0);
	assert_none(h.sim);
	assert_int_equal(h.sim->vars.v[VSPIN]->value, 60 + handled);
	assert_int_equal(h.sim->vars.v[VIRQ]->value, 60 + handled);
	assert_int_equal(h.sim->vars.v[VMUTEX]->value, 60);
	assert_int_equal(h.sim->vars.v[VSEM]->value, 60);
	assert_int_equal(h.sim->atomics.v[0]->value, 60);
	for (int i = 0; i < 3; i++)
		assert_true(h.sim->ctxs.v[i]->finished);
	assert_int_equal(sh_ev(&h, 0, OP_DOWN_TIMEOUT, SEM, 0)->result, 1);
	sh_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_lost_update_unlocked_add),
		cmocka_unit_test(test_check_no_lost_update_under_lock),
		cmocka_unit_test(test_check_lost_update_irq_race),
		cmocka_unit_test(test_check_sleep_in_atomic),
		cmocka_unit_test(test_check_down_in_irq),
		cmocka_unit_test(test_check_mutex_unlock_in_irq),
		cmocka_unit_test(test_check_mutex_unlock_not_owner),
		cmocka_unit_test(test_check_unlock_not_held),
		cmocka_unit_test(test_check_deadlock_ab_ba),
		cmocka_unit_test(test_check_deadlock_with_irq_running),
		cmocka_unit_test(test_check_lock_order_reported_when_lucky),
		cmocka_unit_test(test_check_lock_order_three_lock_cycle),
		cmocka_unit_test(test_check_irq_unsafe_spinlock),
		cmocka_unit_test(test_check_recursive_lock),
		cmocka_unit_test(test_check_held_at_exit),
		cmocka_unit_test(test_check_correct_program_is_clean),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
