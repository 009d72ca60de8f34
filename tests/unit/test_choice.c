/*
 * test_choice.c - choice points and holds (engine/choice.c).
 *
 * A chooser that always says "go" must leave a run exactly as it is
 * without one; a hold must let the other task's next step come first and
 * nothing else; with no bound a hold waits however long the other takes,
 * and with one (--hold-max) it ends at the bound, or at once when nothing
 * else is due, counted as cut; and a chooser that fails ends the run with
 * its message.  An interrupt is a choice when, and only when, its handler
 * could run before the task's step (within the hold bound, if any);
 * holding for it lets the whole handler run first.
 */
#include "test.h"

#include "script_host.h"
#include "ctx.h"		/* white-box: reads a context's fields */

#include <stdio.h>
#include <string.h>

struct tally {
	int points, holds;
	uint32_t hold_at;		/* the choice point to hold at */
	uint32_t hold_ctx;		/* which task, for whom */
	uint32_t for_ctx;
	bool fail;
};

static int choose(void *ud, const struct km_sim *sim, const struct km_choice_point *cp,
		  char *err, size_t errlen)
{
	struct tally *t = ud;
	t->points++;
	if (t->fail) {
		snprintf(err, errlen, "no decision today");
		return KM_CHOOSE_FAIL;
	}
	if (cp->index != t->hold_at || cp->ctx->id != t->hold_ctx)
		return KM_CHOOSE_GO;
	for (int i = 0; i < cp->nothers; i++)
		if (cp->others[i]->id == t->for_ctx) {
			t->holds++;
			return i;
		}
	return KM_CHOOSE_GO;
}

/* Workers contending for a semaphore and a mutex under full preemption,
 * with two interrupt sources: every path a hold could disturb. */
static void busy(struct sh_host *h, const struct km_config *cfg)
{
	static const struct sh_step worker[] = {
		{ OP_DOWN, 0, 0 }, { OP_ADD, 0, 1 }, { OP_COMPUTE, 150, 0 }, { OP_UP, 0, 0 },
		{ OP_DOWN, 1, 0 }, { OP_COMPUTE, 70, 0 }, { OP_UP, 1, 0 }, { OP_LOOP, 0, 30 },
		{ OP_END, 0, 0 },
	};
	static const struct sh_step handler[] = {
		{ OP_COMPUTE, 20, 0 }, { OP_ADD, 0, 1000 }, { OP_END, 0, 0 },
	};
	struct km_era era = sh_era(4);
	era.preempt = KM_PREEMPT_FULL;
	assert_non_null(sh_new(h, &era, cfg));
	assert_non_null(km_lock_new(h->sim, "a", KM_PRIM_SEM, 1, false));
	assert_non_null(km_lock_new(h->sim, "b", KM_PRIM_MUTEX, 1, false));
	assert_non_null(km_var_new(h->sim, "v", 0));
	for (int i = 0; i < 6; i++)
		assert_non_null(sh_task(h, "w", -1, (km_time)i * 40, worker));
	assert_non_null(sh_irq(h, "dev0", 0, 997, 300, 0, handler));
	assert_non_null(sh_irq(h, "dev1", 1, 1500, 0, 0, handler));
}

static void test_choice_go_changes_nothing(void **state)
{
	struct sh_host plain, asked;
	struct km_config cfg = sh_cfg(4, 7);
	cfg.no_run_ahead = true;	/* a chooser implies it */
	busy(&plain, &cfg);
	assert_int_equal(sh_run(&plain), 0);

	struct tally t = { .hold_at = UINT32_MAX };
	struct km_chooser ch = { choose, &t };
	cfg.chooser = &ch;
	busy(&asked, &cfg);
	assert_int_equal(sh_run(&asked), 0);

	assert_true(t.points > 100);	/* it was asked, often */
	assert_int_equal(asked.sim->outcome, plain.sim->outcome);
	assert_int_equal(asked.sim->now, plain.sim->now);
	assert_int_equal(asked.sim->events, plain.sim->events);
	assert_true(asked.sim->trace.hash == plain.sim->trace.hash);
	assert_int_equal(asked.sim->choice_points, (uint32_t)t.points);
	sh_free(&plain);
	sh_free(&asked);
}

/* "early" writes 1 at once, "late" writes 2 at 5 us: the last write wins. */
static void two_writers(struct sh_host *h, const struct km_config *cfg, km_time late_start)
{
	static const struct sh_step one[] = { { OP_WRITE, 0, 1 }, { OP_END, 0, 0 } };
	static const struct sh_step two[] = { { OP_WRITE, 0, 2 }, { OP_END, 0, 0 } };
	struct km_era era = sh_era(2);
	assert_non_null(sh_new(h, &era, cfg));
	assert_non_null(km_var_new(h->sim, "x", 0));
	assert_non_null(sh_task(h, "early", 0, 0, one));
	assert_non_null(sh_task(h, "late", 1, late_start, two));
}

static void test_choice_hold_lets_the_other_go_first(void **state)
{
	struct sh_host h;
	struct km_config cfg = sh_cfg(2, 1);
	struct tally t = { .hold_at = 0, .hold_ctx = 0, .for_ctx = 1 };
	struct km_chooser ch = { choose, &t };

	two_writers(&h, &cfg, 5000);
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(h.sim->vars.v[0]->value, 2);	/* the run's own timing */
	sh_free(&h);

	cfg.chooser = &ch;
	two_writers(&h, &cfg, 5000);
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(t.holds, 1);
	const struct sh_event *e1 = sh_ev(&h, 0, OP_WRITE, 0, 0);
	const struct sh_event *e2 = sh_ev(&h, 1, OP_WRITE, 0, 0);
	assert_non_null(e1);
	assert_non_null(e2);
	assert_true(e2->issued < e1->issued);		/* late's step came first */
	assert_true(e1->issued <= e2->issued + 1000);	/* and early went on right after */
	assert_int_equal(h.sim->vars.v[0]->value, 1);
	assert_int_equal(h.sim->holds, 0);
	sh_free(&h);
}

static void test_choice_hold_waits_however_long(void **state)
{
	struct sh_host h;
	struct km_config cfg = sh_cfg(2, 1);
	/* "late" starts long after KM_HOLD_MAX: with no bound (the default)
	 * "early" waits until late has stepped, however long that is */
	struct tally t = { .hold_at = 0, .hold_ctx = 0, .for_ctx = 1 };
	struct km_chooser ch = { choose, &t };
	cfg.chooser = &ch;
	two_writers(&h, &cfg, 50 * (km_time)KM_HOLD_MAX);
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(t.holds, 1);
	const struct sh_event *e1 = sh_ev(&h, 0, OP_WRITE, 0, 0);
	const struct sh_event *e2 = sh_ev(&h, 1, OP_WRITE, 0, 0);
	assert_non_null(e1);
	assert_non_null(e2);
	assert_true(e2->issued < e1->issued);
	assert_true(e1->issued >= 50 * (km_time)KM_HOLD_MAX);
	assert_int_equal(h.sim->vars.v[0]->value, 1);
	assert_int_equal(h.sim->holds, 0);
	assert_int_equal(h.sim->holds_cut, 0);
	sh_free(&h);
}

static void test_choice_bounded_hold_is_cut(void **state)
{
	struct sh_host h;
	struct km_config cfg = sh_cfg(2, 1);
	/* with --hold-max 1 ms the same hold runs out: nothing else is due,
	 * so it ends at once -- and the run says it cut a hold */
	struct tally t = { .hold_at = 0, .hold_ctx = 0, .for_ctx = 1 };
	struct km_chooser ch = { choose, &t };
	cfg.chooser = &ch;
	cfg.hold_max = KM_HOLD_MAX;
	two_writers(&h, &cfg, 50 * (km_time)KM_HOLD_MAX);
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(t.holds, 1);
	const struct sh_event *e1 = sh_ev(&h, 0, OP_WRITE, 0, 0);
	assert_non_null(e1);
	assert_true(e1->issued < 1000);
	assert_int_equal(h.sim->vars.v[0]->value, 2);
	assert_int_equal(h.sim->holds_cut, 1);
	sh_free(&h);

	/* a bound long enough: the hold is not cut */
	t.holds = 0;
	t.points = 0;
	cfg.hold_max = 60 * (km_time)KM_HOLD_MAX;
	two_writers(&h, &cfg, 50 * (km_time)KM_HOLD_MAX);
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(t.holds, 1);
	assert_int_equal(h.sim->vars.v[0]->value, 1);
	assert_int_equal(h.sim->holds_cut, 0);
	sh_free(&h);
}

static void test_choice_fail_ends_the_run(void **state)
{
	struct sh_host h;
	struct km_config cfg = sh_cfg(2, 1);
	struct tally t = { .fail = true };
	struct km_chooser ch = { choose, &t };
	cfg.chooser = &ch;
	two_writers(&h, &cfg, 5000);
	assert_int_not_equal(sh_run(&h), 0);
	assert_int_equal(h.sim->outcome, KM_OUT_ERROR);
	assert_non_null(strstr(h.sim->errmsg, "no decision today"));
	assert_int_equal(sh_count(&h, 0, OP_WRITE, SH_ANY), 0);
	sh_free(&h);
}

/* --------------------------------------------------- interrupts as choices -- */

struct irq_tally {
	int nirqs[8];			/* what each choice point offered */
	uint32_t hold_at;		/* hold here for the first interrupt offered */
	int holds;
};

static int choose_irq(void *ud, const struct km_sim *sim, const struct km_choice_point *cp,
		      char *err, size_t errlen)
{
	struct irq_tally *t = ud;
	if (cp->index < 8)
		t->nirqs[cp->index] = cp->nirqs;
	if (cp->index != t->hold_at || cp->nirqs == 0)
		return KM_CHOOSE_GO;
	t->holds++;
	return cp->nothers;	/* the first interrupt source offered */
}

/* A task on @task_cpu writes x = 1 (with interrupts off if @irqoff); the
 * handler of "dev" on CPU 1, every @every ns, writes x = 2. */
static void writer_and_irq(struct sh_host *h, const struct km_config *cfg, int task_cpu,
			   bool irqoff, km_time every)
{
	static const struct sh_step plain[] = { { OP_WRITE, 0, 1 }, { OP_END, 0, 0 } };
	static const struct sh_step masked[] = {
		{ OP_IRQ_DISABLE, 0, 0 }, { OP_WRITE, 0, 1 }, { OP_IRQ_ENABLE, 0, 0 },
		{ OP_END, 0, 0 },
	};
	static const struct sh_step handler[] = { { OP_WRITE, 0, 2 }, { OP_END, 0, 0 } };
	struct km_era era = sh_era(2);
	assert_non_null(sh_new(h, &era, cfg));
	assert_non_null(km_var_new(h->sim, "x", 0));
	assert_non_null(sh_task(h, "writer", task_cpu, 0, irqoff ? masked : plain));
	assert_non_null(sh_irq(h, "dev", 1, every, 0, 0, handler));
}

static void test_choice_irq_hold_lets_the_handler_run_first(void **state)
{
	struct sh_host h;
	struct km_config cfg = sh_cfg(2, 1);
	struct irq_tally t = { .hold_at = 0 };
	struct km_chooser ch = { choose_irq, &t };
	cfg.chooser = &ch;
	writer_and_irq(&h, &cfg, 0, false, 5000);
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(t.holds, 1);
	const struct sh_event *tw = sh_ev(&h, 0, OP_WRITE, 0, 0);
	const struct sh_event *hw = sh_irq_ev(&h, 0, OP_WRITE, 0, 0);
	assert_non_null(tw);
	assert_non_null(hw);
	assert_true(hw->issued >= 5000);		/* the source's own timing */
	assert_true(hw->issued < tw->issued);		/* the handler went first */
	assert_true(tw->issued <= hw->issued + 2000);	/* and the task right after it */
	assert_int_equal(h.sim->vars.v[0]->value, 1);
	assert_int_equal(h.sim->holds, 0);
	sh_free(&h);

	/* without the hold the task writes at once, long before the interrupt */
	cfg.chooser = NULL;
	writer_and_irq(&h, &cfg, 0, false, 5000);
	assert_int_equal(sh_run(&h), 0);
	tw = sh_ev(&h, 0, OP_WRITE, 0, 0);
	assert_non_null(tw);
	assert_true(tw->issued < 1000);
	sh_free(&h);
}

static void test_choice_irq_offered_only_within_the_bound(void **state)
{
	struct sh_host h;
	struct km_config cfg = sh_cfg(2, 1);
	struct irq_tally t = { .hold_at = UINT32_MAX };
	struct km_chooser ch = { choose_irq, &t };
	cfg.chooser = &ch;

	/* due in 5 us: a choice */
	writer_and_irq(&h, &cfg, 0, false, 5000);
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(t.nirqs[0], 1);
	sh_free(&h);

	/* due after 1 ms, with --hold-max 1 ms: no timing within the bound
	 * has it first */
	memset(t.nirqs, -1, sizeof(t.nirqs));
	cfg.hold_max = KM_HOLD_MAX;
	writer_and_irq(&h, &cfg, 0, false, 5 * (km_time)KM_HOLD_MAX);
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(t.nirqs[0], 0);
	sh_free(&h);

	/* ... with no bound (the default) it is a choice */
	memset(t.nirqs, -1, sizeof(t.nirqs));
	cfg.hold_max = 0;
	writer_and_irq(&h, &cfg, 0, false, 5 * (km_time)KM_HOLD_MAX);
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(t.nirqs[0], 1);
	sh_free(&h);

	/* ... and with a bound long enough */
	memset(t.nirqs, -1, sizeof(t.nirqs));
	cfg.hold_max = 10 * (km_time)KM_HOLD_MAX;
	writer_and_irq(&h, &cfg, 0, false, 5 * (km_time)KM_HOLD_MAX);
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(t.nirqs[0], 1);
	sh_free(&h);
	cfg.hold_max = 0;

	/* on the task's own CPU: a choice only while it has interrupts on */
	memset(t.nirqs, -1, sizeof(t.nirqs));
	writer_and_irq(&h, &cfg, 1, true, 5000);
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(t.nirqs[0], 1);	/* before local_irq_disable() */
	assert_int_equal(t.nirqs[1], 0);	/* before the write, irqs off */
	assert_int_equal(t.nirqs[2], 0);	/* before local_irq_enable() */
	sh_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_choice_go_changes_nothing),
		cmocka_unit_test(test_choice_hold_lets_the_other_go_first),
		cmocka_unit_test(test_choice_hold_waits_however_long),
		cmocka_unit_test(test_choice_bounded_hold_is_cut),
		cmocka_unit_test(test_choice_fail_ends_the_run),
		cmocka_unit_test(test_choice_irq_hold_lets_the_handler_run_first),
		cmocka_unit_test(test_choice_irq_offered_only_within_the_bound),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
