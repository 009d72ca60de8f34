/*
 * test_runahead.c - km_ctx_run_ahead: a segment that ends before anything
 * else completes in place, and the run does not change in any way.
 *
 * Each workload runs twice with the C host: plainly (every operation that
 * waits returns to the event loop) and with run-ahead (the host asks
 * km_ctx_run_ahead after each KM_STEP_WAIT, as the Lua layer does).  The
 * two runs must agree on everything observable: the trace hash and every
 * stored record, the event count, the clock, the outcome and the error,
 * the host's log of when each step was issued and returned.  And the
 * run-ahead must actually happen where it can (events_ahead), or the
 * comparison proves nothing.
 */
#include "test.h"

#include "script_host.h"
#include "ctx.h"		/* white-box: reads a context's fields */

#include <string.h>

enum work { SOLO, LOCKSTEP, CONTENDED, IRQS, STALL, WORKS };

struct run {
	struct sh_host h;
	uint64_t hash, count, events, ahead;
	km_time now;
	int outcome, error;
};

static void build(struct sh_host *h, enum work w, struct km_config *cfg)
{
	/* one task, nothing else: every segment ends first */
	static const struct sh_step solo[] = {
		{ OP_DOWN, 0, 0 }, { OP_ADD, 0, 1 }, { OP_COMPUTE, 100, 0 }, { OP_UP, 0, 0 },
		{ OP_ATOMIC_ADD, 0, 1 }, { OP_LOOP, 0, 200 }, { OP_END, 0, 0 },
	};
	/* the same lengths on two CPUs: every segment ends with a tie */
	static const struct sh_step step[] = {
		{ OP_COMPUTE, 100, 0 }, { OP_LOOP, 0, 50 }, { OP_END, 0, 0 },
	};
	static const struct sh_step worker[] = {
		{ OP_DOWN, 0, 0 }, { OP_ADD, 0, 1 }, { OP_COMPUTE, 150, 0 }, { OP_UP, 0, 0 },
		{ OP_COMPUTE, 70, 0 }, { OP_LOOP, 0, 40 }, { OP_END, 0, 0 },
	};
	static const struct sh_step handler[] = {
		{ OP_COMPUTE, 20, 0 }, { OP_ADD, 0, 1000 }, { OP_COMPUTE, 30, 0 }, { OP_END, 0, 0 },
	};
	/* ABBA: a deadlock, while an interrupt keeps computing in its handler */
	static const struct sh_step ab[] = {
		{ OP_DOWN, 0, 0 }, { OP_COMPUTE, 1000, 0 }, { OP_DOWN, 1, 0 }, { OP_END, 0, 0 },
	};
	static const struct sh_step ba[] = {
		{ OP_DOWN, 1, 0 }, { OP_COMPUTE, 1000, 0 }, { OP_DOWN, 0, 0 }, { OP_END, 0, 0 },
	};
	int cpus = w == SOLO ? 1 : 4;
	struct km_era era = sh_era(cpus);
	if (w == CONTENDED)
		era.preempt = KM_PREEMPT_FULL;	/* ticks, preemption */
	assert_non_null(sh_new(h, &era, cfg));
	assert_non_null(km_lock_new(h->sim, "a", KM_PRIM_SEM, 1, false));
	assert_non_null(km_lock_new(h->sim, "b", KM_PRIM_MUTEX, 1, false));
	assert_non_null(km_var_new(h->sim, "v", 0));
	assert_non_null(km_atomic_new(h->sim, "x", 0));
	switch (w) {
	case SOLO:
		assert_non_null(sh_task(h, "solo", 0, 0, solo));
		break;
	case LOCKSTEP:
		assert_non_null(sh_task(h, "left", 0, 0, step));
		assert_non_null(sh_task(h, "right", 1, 0, step));
		break;
	case CONTENDED:
	case IRQS:
		for (int i = 0; i < 6; i++)
			assert_non_null(sh_task(h, "w", w == IRQS ? i % 4 : -1, 0, worker));
		if (w == IRQS) {
			assert_non_null(sh_irq(h, "dev0", 0, 997, 300, 0, handler));
			assert_non_null(sh_irq(h, "dev1", 1, 1500, 0, 0, handler));
		}
		break;
	case STALL:
		assert_non_null(sh_task(h, "ab", 0, 0, ab));
		assert_non_null(sh_task(h, "ba", 1, 0, ba));
		assert_non_null(sh_irq(h, "dev", 2, 5000, 0, 0, handler));
		break;
	default:
		break;
	}
}

static struct run run(enum work w, bool ahead, const struct km_config *given)
{
	struct run r;
	struct km_config cfg = given ? *given : sh_cfg(w == SOLO ? 1 : 4, 7);
	build(&r.h, w, &cfg);
	r.h.run_ahead = ahead;
	r.error = sh_run(&r.h);
	r.hash = r.h.sim->trace.hash;
	r.count = r.h.sim->trace.count;
	r.events = r.h.sim->events;
	r.ahead = r.h.sim->events_ahead;
	r.now = r.h.sim->now;
	r.outcome = r.h.sim->outcome;
	return r;
}

/* Everything observable, equal; and the plain run never ran ahead. */
static void assert_same_run(const struct run *plain, const struct run *fast)
{
	assert_int_equal(plain->ahead, 0);
	assert_int_equal(plain->hash, fast->hash);
	assert_int_equal(plain->count, fast->count);
	assert_int_equal(plain->events, fast->events);
	assert_int_equal(plain->now, fast->now);
	assert_int_equal(plain->outcome, fast->outcome);
	assert_int_equal(plain->error, fast->error);
	assert_string_equal(plain->h.sim->errmsg, fast->h.sim->errmsg);
	assert_int_equal(plain->h.sim->trace.len, fast->h.sim->trace.len);
	assert_memory_equal(plain->h.sim->trace.recs, fast->h.sim->trace.recs,
			    plain->h.sim->trace.len * sizeof(struct km_trace_rec));
	assert_int_equal(plain->h.nev, fast->h.nev);
	for (size_t i = 0; i < plain->h.nev; i++) {	/* field by field: padding */
		const struct sh_event *a = &plain->h.ev[i], *b = &fast->h.ev[i];
		assert_int_equal(a->ctx, b->ctx);
		assert_int_equal(a->irq, b->irq);
		assert_int_equal(a->inv, b->inv);
		assert_int_equal(a->pc, b->pc);
		assert_int_equal(a->op, b->op);
		assert_int_equal(a->issued, b->issued);
		assert_int_equal(a->done, b->done);
		assert_int_equal(a->result, b->result);
	}
	for (uint32_t i = 0; i < plain->h.sim->ctxs.n; i++) {
		const struct km_ctx *a = plain->h.sim->ctxs.v[i], *b = fast->h.sim->ctxs.v[i];
		if (a->kind != KM_CTX_TASK)
			continue;
		assert_int_equal(a->cpu_ns, b->cpu_ns);
		assert_int_equal(a->blocked_ns, b->blocked_ns);
		assert_int_equal(a->runnable_ns, b->runnable_ns);
	}
	for (int c = 0; c < plain->h.sim->ncpus; c++)
		assert_memory_equal(plain->h.sim->cpus[c].acct, fast->h.sim->cpus[c].acct,
				    sizeof(plain->h.sim->cpus[c].acct));
	assert_int_equal(plain->h.sim->locks.v[0]->st.hold.n, fast->h.sim->locks.v[0]->st.hold.n);
	assert_int_equal(plain->h.sim->locks.v[0]->st.hold.max,
			 fast->h.sim->locks.v[0]->st.hold.max);
}

static void both(enum work w, const struct km_config *cfg, struct run *plain, struct run *fast)
{
	*plain = run(w, false, cfg);
	*fast = run(w, true, cfg);
	/* the runs are over; keep the host pointers tidy after the copies */
	plain->h.sim->host_data = &plain->h;
	fast->h.sim->host_data = &fast->h;
	assert_same_run(plain, fast);
}

/* Every workload gives the same run both ways, and runs ahead somewhere
 * (but the lockstep one, below). */
static void test_runahead_same_runs(void **state)
{
	for (enum work w = SOLO; w < WORKS; w++) {
		struct run plain, fast;
		both(w, NULL, &plain, &fast);
		if (w != LOCKSTEP)
			assert_true(fast.ahead > 0);
		sh_free(&plain.h);
		sh_free(&fast.h);
	}
}

/* Alone on its CPU with nothing else pending, a task never waits for the
 * loop: each of its 5 x 200 operations ends in place. */
static void test_runahead_solo_never_yields(void **state)
{
	struct run plain, fast;
	both(SOLO, NULL, &plain, &fast);
	assert_int_equal(fast.outcome, KM_OUT_COMPLETED);
	assert_int_equal(fast.ahead, 5 * 200);
	assert_int_equal(fast.h.sim->vars.v[0]->value, 200);
	sh_free(&plain.h);
	sh_free(&fast.h);
}

/* Equal times: the other CPU's segment end, pushed first, is ordered
 * first, so neither task may run ahead of it -- not once. */
static void test_runahead_ties_go_to_the_loop(void **state)
{
	struct run plain, fast;
	both(LOCKSTEP, NULL, &plain, &fast);
	assert_int_equal(fast.outcome, KM_OUT_COMPLETED);
	assert_int_equal(fast.now, plain.now);
	assert_int_equal(fast.ahead, 0);
	sh_free(&plain.h);
	sh_free(&fast.h);
}

/* The event budget stops the run at the same event, the duration at the
 * same instant, with the same steps done. */
static void test_runahead_budgets_and_duration(void **state)
{
	for (uint64_t max = 1; max <= 40; max += 13) {
		struct km_config cfg = sh_cfg(1, 7);
		cfg.max_events = max;
		struct run plain, fast;
		both(SOLO, &cfg, &plain, &fast);
		assert_int_equal(fast.error, KM_EBUDGET);
		assert_int_equal(fast.events, max);
		sh_free(&plain.h);
		sh_free(&fast.h);
	}
	for (km_time d = 1; d < 20000; d = d * 3 + 7) {
		struct km_config cfg = sh_cfg(1, 7);
		cfg.duration = d;
		struct run plain, fast;
		both(SOLO, &cfg, &plain, &fast);
		if (fast.outcome == KM_OUT_TIME_LIMIT)
			assert_int_equal(fast.now, d);
		sh_free(&plain.h);
		sh_free(&fast.h);
	}
}

/* A deadlock while an interrupt handler runs ahead through its segments
 * (which move no task): declared after the same firings, at the same time. */
static void test_runahead_deadlock_watch(void **state)
{
	struct run plain, fast;
	both(STALL, NULL, &plain, &fast);
	assert_int_equal(fast.outcome, KM_OUT_DEADLOCK);
	assert_true(fast.ahead > 0);
	sh_free(&plain.h);
	sh_free(&fast.h);
}

/* cfg.no_run_ahead refuses it even where it would apply. */
static void test_runahead_can_be_refused(void **state)
{
	struct km_config cfg = sh_cfg(1, 7);
	cfg.no_run_ahead = true;
	struct run r = run(SOLO, true, &cfg);
	r.h.sim->host_data = &r.h;
	assert_int_equal(r.outcome, KM_OUT_COMPLETED);
	assert_int_equal(r.ahead, 0);
	sh_free(&r.h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runahead_same_runs),
		cmocka_unit_test(test_runahead_solo_never_yields),
		cmocka_unit_test(test_runahead_ties_go_to_the_loop),
		cmocka_unit_test(test_runahead_budgets_and_duration),
		cmocka_unit_test(test_runahead_deadlock_watch),
		cmocka_unit_test(test_runahead_can_be_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
