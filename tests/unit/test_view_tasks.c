/*
 * test_view_tasks.c - the task lanes' spans (view_tasks.c) and the
 * records behind violation markers and the key moment (view_marks.c).
 *
 * Built on the small runs of tests/view/: spin2.lua (the spinner spins
 * on the_lock from ~13.5 us to ~103.5 us while the holder runs), sem2.lua
 * (the sleeper sleeps on the_sem from ~8.5 us until the holder's up() at
 * ~53.5 us) and lost.lua (two adders, no lock: lost updates).
 */
#include "test.h"

#include "../view/view_fixture.h"
#include "view/view_marks.h"

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

static int setup_lost(void **state)
{
	static struct vfx f;
	*state = &f;
	return vfx_setup(&f, "lost.lua", NULL, KM_MODE_NATIVE);
}

static int teardown(void **state)
{
	vfx_teardown(*state);
	return 0;
}

static void test_view_tasks_spinner_spins_on_the_lock(void **state)
{
	struct vfx *f = *state;
	const struct km_vm_tasks *t = &f->m.tasks;
	uint32_t sp = vfx_ctx(f, "spinner"), ho = vfx_ctx(f, "holder");
	int li = f->m.lane_locks[0];
	/* before its start the spinner has no state at all */
	assert_null(km_vm_task_at(t, sp, 5000));
	const struct km_vm_tspan *s = km_vm_task_at(t, sp, 60000);
	assert_non_null(s);
	assert_int_equal(s->state, KM_TS_SPIN);
	assert_int_equal(s->obj, f->m.locks[li].id);
	assert_int_equal(s->cpu, 1);
	s = km_vm_task_at(t, ho, 60000);
	assert_non_null(s);
	assert_int_equal(s->state, KM_TS_RUNNING);
	assert_int_equal(s->cpu, 0);
	/* after the hand-off the spinner runs; after its exit it is gone */
	s = km_vm_task_at(t, sp, 110000);
	assert_int_equal(s->state, KM_TS_RUNNING);
	s = km_vm_task_at(t, sp, f->m.end);
	assert_int_equal(s->state, KM_TS_NONE);
	/* spans of a context are in time order */
	for (uint32_t c = 0; c < t->nctx; c++)
		for (size_t i = t->first[c] + 1; i < t->first[c + 1]; i++)
			assert_true(t->spans[i].t > t->spans[i - 1].t);
	/* the spinner waited ~90 us, the holder not at all: it comes first */
	assert_true(t->waited[sp] > 80000 && t->waited[sp] < 100000);
	assert_int_equal(t->waited[ho], 0);
	assert_int_equal(t->norder, 2);
	assert_int_equal(t->order[0], sp);
	assert_int_equal(t->order[1], ho);
}

static void test_view_tasks_sleeper_sleeps_then_runs(void **state)
{
	struct vfx *f = *state;
	const struct km_vm_tasks *t = &f->m.tasks;
	uint32_t sl = vfx_ctx(f, "sleeper");
	const struct km_vm_tspan *s = km_vm_task_at(t, sl, 30000);
	assert_non_null(s);
	assert_int_equal(s->state, KM_TS_ASLEEP);
	assert_int_equal(s->wait, KM_WAIT_LOCK);
	assert_int_equal(s->cpu, 0xffff);
	assert_string_equal(km_vm_lock_name(&f->m, s->obj), "the_sem");
	/* woken by up() at ~53.5 us, on its CPU again 5 us later */
	s = km_vm_task_at(t, sl, 55000);
	assert_int_equal(s->state, KM_TS_RUNNABLE);
	s = km_vm_task_at(t, sl, 65000);
	assert_int_equal(s->state, KM_TS_RUNNING);
	assert_int_equal(s->cpu, 1);
	assert_string_equal(km_task_state_name(KM_TS_ASLEEP), "asleep");
}

static void test_view_marks_lost_update_joins_three_accesses(void **state)
{
	struct vfx *f = *state;
	const struct km_view_model *m = &f->m;
	assert_true(m->nviols > 0);
	struct km_vm_lost lu;
	assert_int_equal(km_vm_lost_update(m, m->viols[0], &lu), 0);
	const struct km_trace_rec *v = &m->recs[m->viols[0]];
	const struct km_trace_rec *rd = &m->recs[lu.read], *ot = &m->recs[lu.other],
				  *ov = &m->recs[lu.over];
	assert_int_equal(rd->kind, KM_TR_VAR_READ);
	assert_int_equal(ot->kind, KM_TR_VAR_WRITE);
	assert_int_equal(ov->kind, KM_TR_VAR_WRITE);
	/* the loser reads and overwrites; someone else wrote in between */
	assert_int_equal(rd->ctx, v->ctx);
	assert_int_equal(ov->ctx, v->ctx);
	assert_int_not_equal(ot->ctx, v->ctx);
	assert_true(lu.read < lu.other && lu.other < lu.over);
	assert_true(rd->obj == v->obj && ot->obj == v->obj && ov->obj == v->obj);
	/* the overwrite writes the stale value + 1 over the other's */
	assert_int_equal(ov->arg, rd->arg + 1);
	assert_true(ot->arg >= ov->arg);
	/* a record that is not a lost update has no story */
	assert_int_equal(km_vm_lost_update(m, lu.read, &lu), -1);
	assert_int_equal(km_vm_lost_update(m, m->nrecs, &lu), -1);
}

static void test_view_marks_key_moment_prefers_a_violation(void **state)
{
	struct vfx *f = *state;
	size_t rec = 0;
	assert_int_equal(km_vm_key_moment(&f->m, &rec), KM_VM_KEY_VIOLATION);
	assert_int_equal(rec, f->m.viols[0]);
	assert_int_equal(f->m.recs[rec].kind, KM_TR_VIOLATION);
}

static void test_view_marks_key_moment_first_contention(void **state)
{
	struct vfx *f = *state;
	size_t rec = SIZE_MAX;
	assert_int_equal(f->m.nviols, 0);
	assert_int_equal(km_vm_key_moment(&f->m, &rec), KM_VM_KEY_CONTENTION);
	assert_int_equal(f->m.recs[rec].kind, KM_TR_CONTEND);
	assert_int_equal(f->m.recs[rec].ctx, vfx_ctx(f, "spinner"));
	for (size_t i = 0; i < rec; i++)
		assert_int_not_equal(f->m.recs[i].kind, KM_TR_CONTEND);
}

int main(void)
{
	const struct CMUnitTest spin[] = {
		cmocka_unit_test(test_view_tasks_spinner_spins_on_the_lock),
		cmocka_unit_test(test_view_marks_key_moment_first_contention),
	};
	const struct CMUnitTest sem[] = {
		cmocka_unit_test(test_view_tasks_sleeper_sleeps_then_runs),
	};
	const struct CMUnitTest lost[] = {
		cmocka_unit_test(test_view_marks_lost_update_joins_three_accesses),
		cmocka_unit_test(test_view_marks_key_moment_prefers_a_violation),
	};
	int rc = cmocka_run_group_tests_name("view_tasks_spin", spin, setup_spin, teardown);
	rc |= cmocka_run_group_tests_name("view_tasks_sem", sem, setup_sem, teardown);
	rc |= cmocka_run_group_tests_name("view_tasks_lost", lost, setup_lost, teardown);
	return rc;
}
