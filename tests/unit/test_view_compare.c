/*
 * test_view_compare.c - the compare view says DEADLOCK over the run that
 * deadlocked, and nowhere else.
 *
 * tests/scenarios/deadlock_abba.lua deadlocks under mutex and completes
 * under cli (cli nests, so AB-BA cannot block).  The window shows the
 * mutex run and compares it with the cli run on top and the mutex run
 * below.  The red of KM_C_BAD must appear in the mutex panel and not in
 * the cli panel: the window once stamped the shown run's DEADLOCK just
 * under the time axis, which in the compare view is over the first
 * panel, whatever ran there.
 */
#include "test.h"

#include "../view/view_fixture.h"

struct two {
	struct vfx dead, clean;
};

static int setup(void **state)
{
	static struct two t;
	*state = &t;
	if (vfx_setup(&t.dead, "../scenarios/deadlock_abba.lua", "2009", KM_PRIM_MUTEX) < 0)
		return -1;
	return vfx_setup(&t.clean, "../scenarios/deadlock_abba.lua", "2009", KM_PRIM_CLI);
}

static int teardown(void **state)
{
	struct two *t = *state;
	vfx_teardown(&t->clean);
	vfx_teardown(&t->dead);
	return 0;
}

static void test_view_compare_deadlock_on_its_own_panel(void **state)
{
	struct two *t = *state;
	assert_int_equal(t->dead.s.ri.outcome, KM_OUT_DEADLOCK);
	assert_int_not_equal(t->clean.s.ri.outcome, KM_OUT_DEADLOCK);
	static const int sizes[][2] = { { 1280, 800 }, { 1920, 1080 } };
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		struct km_view_state st;
		char err[512];
		km_view_state_init(&st, &t->dead.eras, sizes[k][0], sizes[k][1], 1.0f);
		km_view_state_bind(&st, &t->dead.m, km_view_era_index(&t->dead.eras, t->dead.s.ri.era),
				   t->dead.s.ri.mode);
		km_view_state_still(&st, &t->dead.m);
		st.compare = true;
		const struct km_view_model *mp[2] = { &t->clean.m, &t->dead.m };
		km_view_state_set_compare(&st, mp, 2);
		assert_int_equal(st.lay.ncmp, 2);
		struct km_view_frame fr = { .eras = &t->dead.eras, .run = &t->dead.run };
		SDL_Surface *s = km_view_render_surface(&fr, &st, err, sizeof(err));
		assert_non_null(s);
		uint32_t bad = km_pal(KM_C_BAD);
		assert_int_equal(vfx_count(s, &st.lay.cmp[0], bad), 0);
		assert_true(vfx_count(s, &st.lay.cmp[1], bad) > 50);
		SDL_FreeSurface(s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_view_compare_deadlock_on_its_own_panel, setup,
						teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
