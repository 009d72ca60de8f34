/*
 * test_cli.c - cli()/sti() as a lock, and SMP's global irq lock
 * (lock_cli.c).
 *
 * On one CPU, interrupts off exclude everything, handlers included: an
 * interrupt arriving meanwhile is latched and handled after sti().  On
 * SMP, from 2.5.28 on, cli() is local and two CPUs' critical sections run
 * together (a lost update); 2.0 - 2.5.27's global cli() serialised them,
 * and kept other CPUs' handlers out too.
 */
#include "test.h"

#include "script_host.h"
#include "ctx.h"		/* white-box: reads a context's fields */

enum { C = 0, V = 0 };

static const struct sh_step handler[] = {
	{ OP_MARK, 1, 0 }, { OP_COMPUTE, 100, 0 }, { OP_END, 0, 0 },
};

/* One CPU: the handler due at t=3000 runs only after up(); the two
 * firings during the section are coalesced into that one. */
static void test_cli_uniproc_excludes_handler(void **state)
{
	static const struct sh_step task[] = {
		{ OP_DOWN, C, 0 }, { OP_COMPUTE, 10000, 0 }, { OP_UP, C, 0 },
		{ OP_COMPUTE, 1000, 0 }, { OP_END, 0, 0 },
	};
	struct sh_host h;
	struct km_era era = sh_era(1);
	struct km_config cfg = sh_cfg(1, 1);
	assert_non_null(sh_new(&h, &era, &cfg));
	assert_non_null(km_lock_new(h.sim, "c", KM_PRIM_CLI, 1, false));
	assert_non_null(sh_task(&h, "t", 0, 0, task));
	struct km_irqsrc *src = sh_irq(&h, "timer", 0, 3000, 0, 0, handler);
	assert_non_null(src);
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
	const struct sh_event *up = sh_ev(&h, 0, OP_UP, C, 0);
	const struct sh_event *mark = sh_irq_ev(&h, 0, OP_MARK, 1, 0);
	assert_non_null(mark);
	assert_true(mark->issued >= up->issued);
	assert_int_equal(src->fired, 3);	/* 3000, 6000, 9000 */
	assert_int_equal(src->coalesced, 2);
	assert_int_equal(src->handler.n, 1);
	/* the CPU had interrupts off for the section */
	assert_true(h.sim->cpus[0].irqoff_ns >= 10000);
	sh_free(&h);
}

/* Control: without cli() the handler interrupts the computation. */
static void test_cli_uniproc_without_cli_interrupts(void **state)
{
	static const struct sh_step task[] = {
		{ OP_COMPUTE, 10000, 0 }, { OP_COMPUTE, 1000, 0 }, { OP_END, 0, 0 },
	};
	struct sh_host h;
	struct km_era era = sh_era(1);
	struct km_config cfg = sh_cfg(1, 1);
	assert_non_null(sh_new(&h, &era, &cfg));
	assert_non_null(sh_task(&h, "t", 0, 0, task));
	struct km_irqsrc *src = sh_irq(&h, "timer", 0, 3000, 0, 0, handler);
	assert_int_equal(sh_run(&h), 0);
	const struct sh_event *mark = sh_irq_ev(&h, 0, OP_MARK, 1, 0);
	assert_int_equal(mark->issued, 3000 + era.cost.irq_entry);
	assert_int_equal(src->coalesced, 0);
	assert_true(src->handler.n >= 3);
	/* the task's compute was stretched by the handlers that ran in it */
	const struct sh_event *c = sh_ev(&h, 0, OP_COMPUTE, 10000, 0);
	assert_true(c->done - c->issued >= 10000 + 3 * (era.cost.irq_entry + 100));
	sh_free(&h);
}

/* Two CPUs, each does read / compute / write of the same var in cli(). */
static void run_two_cpus(struct sh_host *h, bool global_cli)
{
	static const struct sh_step rmw[] = {
		{ OP_DOWN, C, 0 }, { OP_READ, V, 0 }, { OP_COMPUTE, 1000, 0 },
		{ OP_WRITE_INC, V, 1 }, { OP_UP, C, 0 }, { OP_END, 0, 0 },
	};
	struct km_era era = sh_era(2);
	era.global_cli = global_cli;
	struct km_config cfg = sh_cfg(2, 1);
	assert_non_null(sh_new(h, &era, &cfg));
	assert_non_null(km_lock_new(h->sim, "c", KM_PRIM_CLI, 1, false));
	assert_non_null(km_var_new(h->sim, "v", 0));
	assert_non_null(sh_task(h, "t0", 0, 0, rmw));
	assert_non_null(sh_task(h, "t1", 1, 0, rmw));
	assert_int_equal(sh_run(h), 0);
	assert_int_equal(h->sim->outcome, KM_OUT_COMPLETED);
}

static bool sections_overlap(const struct sh_host *h)
{
	const struct sh_event *d0 = sh_ev(h, 0, OP_DOWN, C, 0), *u0 = sh_ev(h, 0, OP_UP, C, 0);
	const struct sh_event *d1 = sh_ev(h, 1, OP_DOWN, C, 0), *u1 = sh_ev(h, 1, OP_UP, C, 0);
	return d0->done < u1->issued && d1->done < u0->issued;
}

/* 2.5.28+: local cli() on SMP excludes nothing on the other CPU. */
static void test_cli_smp_local_cli_races(void **state)
{
	struct sh_host h;
	run_two_cpus(&h, false);
	assert_true(sections_overlap(&h));
	assert_int_equal(h.sim->vars.v[V]->value, 1);
	assert_int_equal(h.sim->violation_count[KM_V_LOST_UPDATE], 1);
	assert_int_equal(h.sim->gil->st.acquisitions, 0);
	sh_free(&h);
}

/* 2.0 - 2.5.27: global cli() serialises the two CPUs. */
static void test_cli_smp_global_cli_excludes(void **state)
{
	struct sh_host h;
	run_two_cpus(&h, true);
	assert_false(sections_overlap(&h));
	assert_int_equal(h.sim->vars.v[V]->value, 2);
	assert_int_equal(h.sim->violation_count[KM_V_LOST_UPDATE], 0);
	assert_int_equal(h.sim->gil->st.acquisitions, 2);
	assert_int_equal(h.sim->gil->st.contentions, 1);
	assert_true(h.sim->ctxs.v[1]->spin_ns > 0 || h.sim->ctxs.v[0]->spin_ns > 0);
	assert_null(h.sim->gil->owner);
	sh_free(&h);
}

/* Global cli() also holds off a handler on another CPU until sti(). */
static void test_cli_global_cli_holds_off_other_cpu_irq(void **state)
{
	static const struct sh_step task[] = {
		{ OP_DOWN, C, 0 }, { OP_COMPUTE, 10000, 0 }, { OP_UP, C, 0 },
		{ OP_COMPUTE, 1000, 0 }, { OP_END, 0, 0 },
	};
	for (int g = 0; g < 2; g++) {
		struct sh_host h;
		struct km_era era = sh_era(2);
		era.global_cli = g;
		struct km_config cfg = sh_cfg(2, 1);
		assert_non_null(sh_new(&h, &era, &cfg));
		assert_non_null(km_lock_new(h.sim, "c", KM_PRIM_CLI, 1, false));
		assert_non_null(sh_task(&h, "t", 0, 0, task));
		assert_non_null(sh_irq(&h, "dev", 1, 3000, 0, 0, handler));
		assert_int_equal(sh_run(&h), 0);
		const struct sh_event *up = sh_ev(&h, 0, OP_UP, C, 0);
		const struct sh_event *mark = sh_irq_ev(&h, 0, OP_MARK, 1, 0);
		assert_non_null(mark);
		if (g)
			assert_true(mark->issued >= up->issued);
		else
			assert_int_equal(mark->issued, 3000 + era.cost.irq_entry);
		sh_free(&h);
	}
}

/* cli() nests: interrupts come back on only at the outer sti(). */
static void test_cli_nesting(void **state)
{
	static const struct sh_step task[] = {
		{ OP_DOWN, C, 0 }, { OP_DOWN, C, 0 }, { OP_COMPUTE, 5000, 0 }, { OP_UP, C, 0 },
		{ OP_COMPUTE, 5000, 0 }, { OP_UP, C, 0 }, { OP_COMPUTE, 1000, 0 }, { OP_END, 0, 0 },
	};
	struct sh_host h;
	struct km_era era = sh_era(1);
	struct km_config cfg = sh_cfg(1, 1);
	assert_non_null(sh_new(&h, &era, &cfg));
	assert_non_null(km_lock_new(h.sim, "c", KM_PRIM_CLI, 1, false));
	assert_non_null(sh_task(&h, "t", 0, 0, task));
	assert_non_null(sh_irq(&h, "timer", 0, 3000, 0, 0, handler));
	assert_int_equal(sh_run(&h), 0);
	const struct sh_event *up2 = sh_ev(&h, 0, OP_UP, C, 1);
	const struct sh_event *mark = sh_irq_ev(&h, 0, OP_MARK, 1, 0);
	assert_non_null(mark);
	assert_true(mark->issued >= up2->issued);
	sh_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cli_uniproc_excludes_handler),
		cmocka_unit_test(test_cli_uniproc_without_cli_interrupts),
		cmocka_unit_test(test_cli_smp_local_cli_races),
		cmocka_unit_test(test_cli_smp_global_cli_excludes),
		cmocka_unit_test(test_cli_global_cli_holds_off_other_cpu_irq),
		cmocka_unit_test(test_cli_nesting),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
