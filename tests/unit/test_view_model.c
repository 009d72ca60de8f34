/*
 * test_view_model.c - the view's index of a run (view_model.c) and the
 * event line's words (view_describe.c).
 *
 * Built on two tiny runs in tests/view/: spin2.lua (CPU1 spins on a lock
 * CPU0 holds from ~3.5 us to ~103.5 us) and sem2.lua (a sleeper woken by
 * the holder's up()).  What must hold: the spans say what the trace says,
 * the lock lane knows its holder and waiter, a hand-off becomes an arrow
 * from the releaser's CPU to where the wakee next runs, and the event
 * line tells a contention in words.
 */
#include "test.h"

#include "../view/view_fixture.h"

static int setup_spin(void **state)
{
	static struct vfx f;
	*state = &f;
	return vfx_setup(&f, "spin2.lua", NULL, KM_MODE_NATIVE);
}

static int setup_sem(void **state)
{
	static struct vfx f;
	*state = &f;
	return vfx_setup(&f, "sem2.lua", NULL, KM_MODE_NATIVE);
}

static int teardown(void **state)
{
	vfx_teardown(*state);
	return 0;
}

static void test_view_model_cpu_spans(void **state)
{
	struct vfx *f = *state;
	const struct km_view_model *m = &f->m;
	assert_int_equal(m->ncpus, 2);
	assert_true(m->end > 100000);
	const struct km_vm_span *sp = km_vm_cpu_at(m, 1, 60000);
	assert_non_null(sp);
	assert_int_equal(sp->state, KM_CPU_SPIN);
	assert_int_equal(sp->ctx, vfx_ctx(f, "spinner"));
	sp = km_vm_cpu_at(m, 0, 60000);
	assert_non_null(sp);
	assert_int_equal(sp->state, KM_CPU_BUSY);
	assert_int_equal(sp->ctx, vfx_ctx(f, "holder"));
	/* spans of a CPU are in time order and cover [0, end) */
	for (int c = 0; c < m->ncpus; c++) {
		assert_int_equal(m->spans[m->cpu_first[c]].t, 0);
		for (size_t i = m->cpu_first[c] + 1; i < m->cpu_first[c + 1]; i++)
			assert_true(m->spans[i].t > m->spans[i - 1].t);
	}
	/* spinning and then running differ in colour slot only by state */
	assert_int_not_equal(m->ctx_colour[vfx_ctx(f, "holder")],
			     m->ctx_colour[vfx_ctx(f, "spinner")]);
}

static void test_view_model_lock_lane(void **state)
{
	struct vfx *f = *state;
	const struct km_view_model *m = &f->m;
	assert_int_equal(m->nlane_locks, 1);
	int li = m->lane_locks[0];
	assert_string_equal(m->locks[li].lock->name, "the_lock");
	assert_int_equal(m->hot_lock, li);
	const struct km_vm_lspan *ls = km_vm_lock_at(m, li, 60000);
	assert_non_null(ls);
	assert_int_equal(ls->holders, 1);
	assert_int_equal(ls->holder, vfx_ctx(f, "holder"));
	assert_int_equal(ls->waiters, 1);
	/* after the hand-off: the spinner holds it, nobody waits */
	ls = km_vm_lock_at(m, li, 110000);
	assert_non_null(ls);
	assert_int_equal(ls->holder, vfx_ctx(f, "spinner"));
	assert_int_equal(ls->waiters, 0);
	assert_int_equal(m->locks[li].max_waiters, 1);
	assert_int_equal(m->locks[li].acquisitions, 2);
}

static void test_view_model_describe_contention(void **state)
{
	struct vfx *f = *state;
	const struct km_view_model *m = &f->m;
	char buf[512];
	size_t i;
	for (i = 0; i < m->nrecs; i++)
		if (m->recs[i].kind == KM_TR_CONTEND)
			break;
	assert_true(i < m->nrecs);
	km_vm_describe(m, i, buf, sizeof(buf));
	assert_non_null(strstr(buf, "t=13.500 \xc2\xb5s CPU1 spinner spin_lock(the_lock): contended, "
				    "spins (1 waiter)"));
	/* the record at or before 60 us is that contention or later */
	assert_true(km_vm_rec_at(m, 60000) >= i);
	assert_true(m->recs[km_vm_rec_at(m, 60000)].time <= 60000);
}

static void test_view_model_wake_arrow(void **state)
{
	struct vfx *f = *state;
	const struct km_view_model *m = &f->m;
	assert_int_equal(m->narrows, 1);
	const struct km_vm_arrow *a = &m->arrows[0];
	assert_int_equal(a->how, KM_VM_WAKE_GRANT);
	assert_int_equal(a->waker, vfx_ctx(f, "holder"));
	assert_int_equal(a->wakee, vfx_ctx(f, "sleeper"));
	assert_int_equal(a->cpu0, 0);
	assert_int_equal(a->cpu1, 1);
	assert_true(a->t1 > a->t0);
	/* the sleeper runs at t1 */
	const struct km_vm_span *sp = km_vm_cpu_at(m, 1, a->t1);
	assert_non_null(sp);
	assert_int_equal(sp->state, KM_CPU_BUSY);
	assert_int_equal(sp->ctx, a->wakee);
	/* the release is told with its hand-off */
	char buf[512];
	size_t i;
	for (i = 0; i < m->nrecs; i++)
		if (m->recs[i].kind == KM_TR_RELEASE)
			break;
	km_vm_describe(m, i, buf, sizeof(buf));
	assert_non_null(strstr(buf, "holder up(the_sem): released after holding it"));
	assert_non_null(strstr(buf, "hands it straight to sleeper"));
}

static void test_view_model_needs_trace(void **state)
{
	(void)state;
	struct km_view_model m;
	char err[256] = "";
	assert_int_equal(km_vm_build(&m, NULL, err, sizeof(err)), -1);
	assert_true(err[0] != 0);
	km_vm_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_view_model_cpu_spans, setup_spin, teardown),
		cmocka_unit_test_setup_teardown(test_view_model_lock_lane, setup_spin, teardown),
		cmocka_unit_test_setup_teardown(test_view_model_describe_contention, setup_spin,
						teardown),
		cmocka_unit_test_setup_teardown(test_view_model_wake_arrow, setup_sem, teardown),
		cmocka_unit_test(test_view_model_needs_trace),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
