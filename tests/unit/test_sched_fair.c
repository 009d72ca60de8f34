/*
 * test_sched_fair.c - CFS's choices (era.scheduler = "cfs", sched_fair.c).
 *
 * One CPU (sched_init_granularity()'s factor 1), HZ 100 (a tick every
 * 10 ms), full preemption, sched_latency 20 ms.  B starts first, runs
 * 0.5 ms and sleeps 4.5 ms; A, started meanwhile with START_DEBIT, runs
 * on.  When B wakes at 5.0002 ms its vruntime is its own 20.5 ms (slept
 * less than a latency), A's is 30 ms + 4.5 ms:
 *  - with a wake-up granularity of 1 ms, A's lead is larger: B preempts
 *    A at once (check_preempt_wakeup());
 *  - with one of 20 ms it is not: B waits as the next buddy until A's
 *    slice (20 ms / 2 tasks) is over at a tick, at 20 ms;
 *  - the FIFO scheduler of the earlier eras runs B at the next tick,
 *    10 ms, whatever their run times.
 */
#include "test.h"

#include "script_host.h"
#include "core.h"

enum { US = 1000, MS = 1000000, CTXSW = 100, WAKEUP = 100 };

static const struct sh_step prog_a[] = { { OP_COMPUTE, 30 * MS, 0 }, { OP_END, 0, 0 } };
static const struct sh_step prog_b[] = {
	{ OP_COMPUTE, 500 * US, 0 }, { OP_SLEEP, 4500 * US, 0 }, { OP_MARK, 1, 0 },
	{ OP_COMPUTE, 100 * US, 0 }, { OP_END, 0, 0 },
};

/* When B runs again after its sleep, and how often A was preempted. */
static km_time b_back(enum km_scheduler sched, km_time wakeup_gran, int *preempts)
{
	struct sh_host h;
	struct km_era era = sh_era(1);
	era.hz = 100;
	era.preempt = KM_PREEMPT_FULL;
	era.scheduler = sched;
	era.cfs_latency = 20 * MS;
	era.cfs_min_gran = 4 * MS;
	era.cfs_wakeup_gran = wakeup_gran;
	struct km_config cfg = sh_cfg(1, 1);
	assert_non_null(sh_new(&h, &era, &cfg));
	assert_non_null(sh_task(&h, "b", 0, 0, prog_b));
	assert_non_null(sh_task(&h, "a", 0, 0, prog_a));
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
	const struct sh_event *m = sh_ev(&h, 0, OP_MARK, 1, 0);
	assert_non_null(m);
	*preempts = sh_trace_count(h.sim, KM_TR_PREEMPT, 1, SH_ANY);
	km_time t = m->done;
	sh_free(&h);
	return t;
}

/* B asleep from the end of its 0.5 ms (after the first switch) */
static const km_time woken = CTXSW + 500 * US + 4500 * US + WAKEUP;

static void test_fair_wakeup_preempts_past_the_granularity(void **state)
{
	(void)state;
	int p;
	km_time t = b_back(KM_SCHEDULER_CFS, 1 * MS, &p);
	assert_int_equal(t, woken + CTXSW);	/* preempted at the wake-up */
	assert_int_equal(p, 1);
}

static void test_fair_no_wakeup_preemption_within_the_granularity(void **state)
{
	(void)state;
	int p;
	km_time t = b_back(KM_SCHEDULER_CFS, 20 * MS, &p);
	/* not at the wake-up, nor at the 10 ms tick (A's slice is 10 ms from
	 * when it was picked, 0.5 ms in): at the 20 ms one */
	assert_int_equal(t, 20 * MS + CTXSW);
	assert_int_equal(p, 1);
}

static void test_fair_fifo_eras_wait_for_the_tick(void **state)
{
	(void)state;
	int p;
	assert_int_equal(b_back(KM_SCHEDULER_FIFO, 1 * MS, &p), 10 * MS + CTXSW);
	assert_int_equal(p, 1);
}

/*
 * check_preempt_tick() reschedules a task past its slice, but schedule()
 * picks it again while it is still the leftmost: no switch.  C starts
 * first (vruntime 20 ms with START_DEBIT), B and A after it (30 ms and
 * 36.7 ms); C's slice is 20 ms / 3.  At the tick after 6.7 ms C is still
 * left of B: it runs on, with a new slice, and is switched out only at
 * the tick after 13.3 ms, once, for good (B and A then end).
 */
static void test_fair_tick_keeps_the_leftmost(void **state)
{
	(void)state;
	static const struct sh_step c_prog[] = { { OP_COMPUTE, 20 * MS, 0 }, { OP_END, 0, 0 } };
	static const struct sh_step short_prog[] = {
		{ OP_MARK, 1, 0 }, { OP_COMPUTE, 1 * MS, 0 }, { OP_END, 0, 0 },
	};
	struct sh_host h;
	struct km_era era = sh_era(1);
	era.preempt = KM_PREEMPT_FULL;
	era.scheduler = KM_SCHEDULER_CFS;
	era.cfs_latency = 20 * MS;
	era.cfs_min_gran = 4 * MS;
	era.cfs_wakeup_gran = 10 * MS;
	struct km_config cfg = sh_cfg(1, 1);
	assert_non_null(sh_new(&h, &era, &cfg));
	assert_non_null(sh_task(&h, "c", 0, 0, c_prog));
	assert_non_null(sh_task(&h, "b", 0, 0, short_prog));
	assert_non_null(sh_task(&h, "a", 0, 0, short_prog));
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(sh_trace_count(h.sim, KM_TR_PREEMPT, 0, SH_ANY), 1);
	const struct sh_event *b = sh_ev(&h, 1, OP_MARK, 1, 0);
	assert_non_null(b);
	assert_true(b->done > 13 * MS && b->done < 15 * MS);
	sh_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fair_wakeup_preempts_past_the_granularity),
		cmocka_unit_test(test_fair_no_wakeup_preemption_within_the_granularity),
		cmocka_unit_test(test_fair_fifo_eras_wait_for_the_tick),
		cmocka_unit_test(test_fair_tick_keeps_the_leftmost),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
