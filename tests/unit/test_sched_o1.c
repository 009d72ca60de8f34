/*
 * test_sched_o1.c - the O(1) scheduler's choices (era.scheduler = "o1",
 * sched_o1.c), against the FIFO round robin of the eras without it.
 *
 * HZ 250 (a tick every 4 ms), full preemption.  Every task starts with
 * the sleep_avg of a task back from a long sleep, 900 ms: bonus 9,
 * priority 116, interactive.
 *  - Time slices.  A runs 150 ms; B, queued behind it on the same CPU,
 *    starts at once.  FIFO: B runs at the first tick, 4 ms.  O(1) on one
 *    CPU: A is requeued behind its equal after TIMESLICE_GRANULARITY, 2
 *    jiffies at bonus 9 times one CPU: 8 ms.  O(1) on eight CPUs (both
 *    pinned to CPU 0): the granularity is 16 jiffies, and at 16 jiffies
 *    used only 9 of A's 25 are left, fewer than 16, so no requeue: B
 *    waits for A's whole 100 ms slice.
 *  - Priorities.  A runs 50 ms at a time, 25 times, sleeping 10 us in
 *    between; each switch-out takes run_time / CURRENT_BONUS from its
 *    sleep_avg: it falls below 800 ms (bonus 7, priority 118), and its
 *    short uninterruptible sleeps give back only 3 x 10 us each.  B
 *    sleeps 1.3 s (uninterruptible: no credit above INTERACTIVE_SLEEP,
 *    796 ms; it keeps its 900 ms, priority 116).  When B wakes, A is
 *    running: O(1) preempts A at once (TASK_PREEMPTS_CURR); FIFO waits
 *    for the next tick.
 */
#include "test.h"

#include "script_host.h"
#include "core.h"

enum { US = 1000, MS = 1000000, CTXSW = 100, WAKEUP = 100 };

static struct km_era o1_era(int cpus, enum km_scheduler sched)
{
	struct km_era era = sh_era(cpus);
	era.hz = 250;
	era.preempt = KM_PREEMPT_FULL;
	era.scheduler = sched;
	return era;
}

/* When B first runs behind A's 150 ms, both on CPU 0 of @cpus. */
static km_time b_first(enum km_scheduler sched, int cpus)
{
	static const struct sh_step a_prog[] = { { OP_COMPUTE, 150 * MS, 0 }, { OP_END, 0, 0 } };
	static const struct sh_step b_prog[] = {
		{ OP_MARK, 1, 0 }, { OP_COMPUTE, 1 * MS, 0 }, { OP_END, 0, 0 },
	};
	struct sh_host h;
	struct km_era era = o1_era(cpus, sched);
	struct km_config cfg = sh_cfg(cpus, 1);
	assert_non_null(sh_new(&h, &era, &cfg));
	assert_non_null(sh_task(&h, "a", 0, 0, a_prog));
	assert_non_null(sh_task(&h, "b", 0, 0, b_prog));
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
	const struct sh_event *m = sh_ev(&h, 1, OP_MARK, 1, 0);
	assert_non_null(m);
	km_time t = m->done;
	sh_free(&h);
	return t;
}

static void test_o1_fifo_eras_switch_at_the_tick(void **state)
{
	(void)state;
	assert_int_equal(b_first(KM_SCHEDULER_FIFO, 1), 4 * MS + CTXSW);
}

static void test_o1_interactive_requeue_at_the_granularity(void **state)
{
	(void)state;
	assert_int_equal(b_first(KM_SCHEDULER_O1, 1), 8 * MS + CTXSW);
}

static void test_o1_whole_slice_on_eight_cpus(void **state)
{
	(void)state;
	assert_int_equal(b_first(KM_SCHEDULER_O1, 8), 100 * MS + CTXSW);
}

/* B's wake-up after its 1.3 s sleep, and when it runs; preemptions of A. */
static void b_wakes(enum km_scheduler sched, km_time *woke, km_time *ran, int *preempts)
{
	static const struct sh_step a_prog[] = {
		{ OP_COMPUTE, 50 * MS, 0 }, { OP_SLEEP, 10 * US, 0 }, { OP_LOOP, 0, 25 },
		{ OP_COMPUTE, 400 * MS, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step b_prog[] = {
		{ OP_SLEEP, 1300 * MS, 0 }, { OP_MARK, 1, 0 }, { OP_COMPUTE, 1 * MS, 0 },
		{ OP_END, 0, 0 },
	};
	struct sh_host h;
	struct km_era era = o1_era(1, sched);
	struct km_config cfg = sh_cfg(1, 1);
	cfg.duration = 3000000000LL;
	assert_non_null(sh_new(&h, &era, &cfg));
	assert_non_null(sh_task(&h, "b", 0, 0, b_prog));
	assert_non_null(sh_task(&h, "a", 0, 0, a_prog));
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
	const struct sh_event *m = sh_ev(&h, 0, OP_MARK, 1, 0);
	assert_non_null(m);
	/* B went to sleep after its switch-in at 0 */
	*woke = CTXSW + 1300 * MS + WAKEUP;
	*ran = m->done;
	*preempts = sh_trace_count(h.sim, KM_TR_PREEMPT, 1, SH_ANY);
	sh_free(&h);
}

static void test_o1_better_priority_preempts_at_the_wakeup(void **state)
{
	(void)state;
	km_time woke, ran;
	int p;
	b_wakes(KM_SCHEDULER_O1, &woke, &ran, &p);
	assert_true(ran >= woke && ran <= woke + CTXSW);
	assert_int_equal(p, 1);
}

static void test_o1_fifo_waits_for_the_tick(void **state)
{
	(void)state;
	km_time woke, ran;
	int p;
	b_wakes(KM_SCHEDULER_FIFO, &woke, &ran, &p);
	assert_true(ran > woke + 1 * MS);	/* the tick at 1.304 s */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_o1_fifo_eras_switch_at_the_tick),
		cmocka_unit_test(test_o1_interactive_requeue_at_the_granularity),
		cmocka_unit_test(test_o1_whole_slice_on_eight_cpus),
		cmocka_unit_test(test_o1_better_priority_preempts_at_the_wakeup),
		cmocka_unit_test(test_o1_fifo_waits_for_the_tick),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
