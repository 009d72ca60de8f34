/*
 * test_view_inspect.c - what the window tells about a place: the key
 * moment an exhibit opens on and Z, a click on a lock lane (holder and
 * waiters at that instant), a click on a violation marker (its whole
 * explanation), a click on the outcome line (every check, the failed
 * ones named), the hint for a task lane, and scrolling the task lanes.
 *
 * Synthetic SDL events into km_view_handle_event, as test_view_state.c
 * does; the text is read with km_view_hint and km_view_inspect_text,
 * which is what the window draws.
 */
#include "test.h"

#include "../view/view_fixture.h"
#include "view/view_inspect.h"
#include "view/view_marks.h"

struct ctx {
	struct vfx f;
	struct km_view_state st;
};

static int setup_file(void **state, struct ctx *c, const char *file)
{
	*state = c;
	if (vfx_setup(&c->f, file, NULL, KM_MODE_NATIVE) < 0)
		return -1;
	km_view_state_init(&c->st, &c->f.eras, 1280, 800, 1.0f);
	km_view_state_bind(&c->st, &c->f.m, km_view_era_index(&c->f.eras, c->f.s.ri.era),
			   KM_MODE_NATIVE);
	return 0;
}

static int setup_sem(void **state)
{
	static struct ctx c;
	return setup_file(state, &c, "sem2.lua");
}

static int setup_spin(void **state)
{
	static struct ctx c;
	return setup_file(state, &c, "spin2.lua");
}

static int setup_lost(void **state)
{
	static struct ctx c;
	return setup_file(state, &c, "lost.lua");
}

static int teardown(void **state)
{
	struct ctx *c = *state;
	vfx_teardown(&c->f);
	return 0;
}

/* The lane of task @name, or -1. */
static int task_lane(const struct ctx *c, const char *name)
{
	uint32_t id = vfx_ctx(&c->f, name);
	for (int k = 0; k < c->st.lay.ntasks; k++)
		if (c->f.m.tasks.order[c->st.task_scroll + k] == id)
			return k;
	return -1;
}

static void test_view_inspect_opens_on_the_key_moment(void **state)
{
	struct ctx *c = *state;
	struct km_view_state *st = &c->st;
	const struct km_view_model *m = &c->f.m;
	km_view_show_key_moment(st);
	size_t rec;
	assert_int_equal(km_vm_key_moment(m, &rec), KM_VM_KEY_CONTENTION);
	km_time t = m->recs[rec].time;
	/* in view, revealed, in focus, paused; not the whole run */
	assert_true(st->t0 <= t && t <= st->t1);
	assert_true(st->play >= t);
	assert_true(st->has_focus);
	assert_int_equal(st->focus, rec);
	assert_false(st->playing);
	/* (this run is short enough to be the key moment's window whole) */
	km_time k0 = st->t0, k1 = st->t1;
	/* Z: the whole run; Z again: back to the moment */
	vfx_key(st, SDLK_z);
	assert_true(st->whole);
	assert_true(st->t0 <= 0 && st->t1 >= m->end);
	st->t0 = 1000;		/* as if panned */
	vfx_key(st, SDLK_z);
	assert_false(st->whole);
	assert_int_equal(st->t0, k0);
	assert_int_equal(st->t1, k1);
}

static void test_view_inspect_lock_lane_holder_and_waiters(void **state)
{
	struct ctx *c = *state;
	struct km_view_state *st = &c->st;
	vfx_key(st, SDLK_END);
	vfx_key(st, SDLK_0);
	assert_true(st->lay.nlocks >= 1);
	int x = km_view_x_of(st, 30000), y = km_view_lock_y(st, 0);
	vfx_click(st, x, y);
	assert_int_equal(st->inspect, KM_INSPECT_LOCK);
	char text[4096];
	assert_true(km_view_inspect_text(st, text, sizeof(text)) > 0);
	assert_non_null(strstr(text, "the_sem (semaphore) at t="));
	assert_non_null(strstr(text, "held by holder"));
	assert_non_null(strstr(text, "1 waiting"));
	assert_non_null(strstr(text, "sleeper: asleep since"));
	/* after the hand-off the sleeper holds it and nobody waits */
	vfx_key(st, SDLK_ESCAPE);
	assert_int_equal(st->inspect, KM_INSPECT_NONE);
	assert_false(st->quit);
	vfx_click(st, km_view_x_of(st, 60000), y);
	km_view_inspect_text(st, text, sizeof(text));
	assert_non_null(strstr(text, "held by sleeper"));
	assert_non_null(strstr(text, "nobody waits"));
	/* a click elsewhere closes it */
	vfx_click(st, st->lay.placard.x + 5, st->lay.placard.y + 5);
	assert_int_equal(st->inspect, KM_INSPECT_NONE);
	assert_int_equal(km_view_inspect_text(st, text, sizeof(text)), 0);
}

static void test_view_inspect_task_lane_hint(void **state)
{
	struct ctx *c = *state;
	struct km_view_state *st = &c->st;
	vfx_key(st, SDLK_END);
	vfx_key(st, SDLK_0);
	int lane = task_lane(c, "spinner");
	assert_true(lane >= 0);
	char buf[512];
	vfx_mouse(st, SDL_MOUSEMOTION, km_view_x_of(st, 60000), km_view_task_y(st, lane));
	assert_true(km_view_hint(st, buf, sizeof(buf)));
	assert_non_null(strstr(buf, "spinner: spinning on the_lock on CPU1"));
	vfx_mouse(st, SDL_MOUSEMOTION, km_view_x_of(st, 60000), km_view_task_y(st, task_lane(c, "holder")));
	assert_true(km_view_hint(st, buf, sizeof(buf)));
	assert_non_null(strstr(buf, "holder: running on CPU0"));
	/* the future is not told */
	vfx_key(st, SDLK_HOME);
	assert_false(km_view_hint(st, buf, sizeof(buf)));
}

static void test_view_inspect_violation_marker(void **state)
{
	struct ctx *c = *state;
	struct km_view_state *st = &c->st;
	const struct km_view_model *m = &c->f.m;
	vfx_key(st, SDLK_END);
	vfx_key(st, SDLK_0);
	assert_true(m->nviols > 1);
	/* the marker under the axis */
	int x = km_view_x_of(st, m->recs[m->viols[0]].time);
	vfx_click(st, x, st->lay.axis.y + st->lay.axis.h - 3);
	assert_int_equal(st->inspect, KM_INSPECT_VIOLATION);
	assert_int_equal(st->inspect_viol, 0);
	assert_int_equal(st->focus, m->viols[0]);
	char text[8192];
	km_view_inspect_text(st, text, sizeof(text));
	/* the core's whole message (its "us" written as the view writes
	 * it, "\u00b5s"), and the story in three steps */
	char msg[600];
	km_vm_micro(m->sim->violations.v[m->viol_msg[0]].message, msg, sizeof(msg));
	assert_non_null(strstr(text, msg));
	for (const char *u = strstr(text, " us"); u; u = strstr(u + 1, " us"))
		assert_false(u > text && u[-1] >= '0' && u[-1] <= '9');	/* one spelling */
	assert_null(strstr(text, "..."));
	assert_null(strstr(text, "\xe2\x80\xa6"));
	assert_non_null(strstr(text, "lost-update"));
	assert_non_null(strstr(text, "1. adder/"));
	assert_non_null(strstr(text, "3. adder/"));
	vfx_key(st, SDLK_ESCAPE);
	assert_int_equal(st->inspect, KM_INSPECT_NONE);
	vfx_key(st, SDLK_ESCAPE);
	assert_true(st->quit);
}

static void test_view_inspect_failed_checks_named(void **state)
{
	struct ctx *c = *state;
	struct km_view_state *st = &c->st;
	assert_int_equal(c->f.s.ri.nchecks, 2);
	vfx_click(st, st->lay.stats.x + 20, st->lay.outcome_y + st->lay.viol_row_h / 2);
	assert_int_equal(st->inspect, KM_INSPECT_CHECKS);
	char text[4096];
	km_view_inspect_text(st, text, sizeof(text));
	assert_non_null(strstr(text, "Checks: 1 of 2 passed"));
	assert_non_null(strstr(text, "\nok  2 tasks ran"));
	assert_non_null(strstr(text, "\nFAILED  shared ends at "));
	vfx_key(st, SDLK_ESCAPE);
	assert_int_equal(st->inspect, KM_INSPECT_NONE);
}

static void test_view_inspect_event_source_line(void **state)
{
	struct ctx *c = *state;
	struct km_view_state *st = &c->st;
	vfx_key(st, SDLK_END);
	vfx_key(st, SDLK_0);
	/* the spinner spinning on CPU1 at 60 us: it was at its down(l) */
	vfx_click(st, km_view_x_of(st, 60000), km_view_cpu_y(st, 1));
	assert_int_equal(st->inspect, KM_INSPECT_EVENT);
	assert_int_equal(c->f.m.recs[st->focus].ctx, vfx_ctx(&c->f, "spinner"));
	char text[4096];
	km_view_inspect_text(st, text, sizeof(text));
	assert_non_null(strstr(text, "\nspinner was running "));
	assert_non_null(strstr(text, "spin2.lua:21\n    down(l)"));
	/* the holder's release: at its up(l) */
	const struct km_view_model *m = &c->f.m;
	size_t rel = 0;
	while (rel < m->nrecs && m->recs[rel].kind != KM_TR_RELEASE)
		rel++;
	assert_true(rel < m->nrecs);
	vfx_click(st, km_view_x_of(st, m->recs[rel].time), km_view_cpu_y(st, 0));
	assert_int_equal(m->recs[st->focus].kind, KM_TR_RELEASE);
	km_view_inspect_text(st, text, sizeof(text));
	assert_non_null(strstr(text, "\nholder was running "));
	assert_non_null(strstr(text, "spin2.lua:16\n    up(l)"));
	vfx_key(st, SDLK_ESCAPE);
}

/* The compare view gives each run a lane of its hottest lock, inside
 * its panel, under its CPUs. */
static void test_view_inspect_compare_lock_lanes(void **state)
{
	struct ctx *c = *state;
	struct km_view_state *st = &c->st;
	const struct km_view_model *ms[2] = { &c->f.m, &c->f.m };
	vfx_key(st, SDLK_TAB);
	km_view_state_set_compare(st, ms, 2);
	const struct km_view_layout *L = &st->lay;
	assert_int_equal(L->ncmp, 2);
	for (int k = 0; k < 2; k++) {
		assert_true(L->cmp_lock_h[k] > 0);
		int bottom = L->cmp[k].y + L->cmp_head +
			     L->cmp_rows[k] * (L->cmp_row_h[k] + L->cmp_gap[k]) + L->cmp_lock_h[k];
		assert_true(bottom <= L->cmp[k].y + L->cmp[k].h);
	}
	vfx_key(st, SDLK_TAB);
	km_view_state_set_compare(st, NULL, 0);
	assert_int_equal(st->lay.ncmp, 0);
}

static void test_view_inspect_task_lanes_scroll(void **state)
{
	struct ctx *c = *state;
	struct km_view_state *st = &c->st;
	/* two tasks, two lanes: nothing to scroll */
	assert_int_equal(st->lay.ntasks, 2);
	SDL_Event e;
	memset(&e, 0, sizeof(e));
	e.type = SDL_MOUSEWHEEL;
	e.wheel.y = -1;
	e.wheel.preciseY = -1;
	e.wheel.mouseX = st->lay.gutter.x + 4;
	e.wheel.mouseY = km_view_task_y(st, 0);
	km_view_handle_event(st, &e);
	assert_int_equal(st->task_scroll, 0);
	/* a window too short for both: one lane at least, scrolled by the wheel */
	km_view_state_resize(st, 1280, 300, 1.0f);
	assert_int_equal(st->lay.ntasks, 1);
	{
		e.wheel.mouseY = km_view_task_y(st, 0);
		km_view_handle_event(st, &e);
		assert_int_equal(st->task_scroll, 1);
		e.wheel.y = 1;
		e.wheel.preciseY = 1;
		km_view_handle_event(st, &e);
		assert_int_equal(st->task_scroll, 0);
	}
	km_view_state_resize(st, 1280, 800, 1.0f);
}

int main(void)
{
	const struct CMUnitTest sem[] = {
		cmocka_unit_test(test_view_inspect_opens_on_the_key_moment),
		cmocka_unit_test(test_view_inspect_lock_lane_holder_and_waiters),
	};
	const struct CMUnitTest spin[] = {
		cmocka_unit_test(test_view_inspect_task_lane_hint),
		cmocka_unit_test(test_view_inspect_event_source_line),
		cmocka_unit_test(test_view_inspect_compare_lock_lanes),
		cmocka_unit_test(test_view_inspect_task_lanes_scroll),
	};
	const struct CMUnitTest lost[] = {
		cmocka_unit_test(test_view_inspect_failed_checks_named),
		cmocka_unit_test(test_view_inspect_violation_marker),
	};
	int rc = cmocka_run_group_tests_name("view_inspect_sem", sem, setup_sem, teardown);
	rc |= cmocka_run_group_tests_name("view_inspect_spin", spin, setup_spin, teardown);
	rc |= cmocka_run_group_tests_name("view_inspect_lost", lost, setup_lost, teardown);
	return rc;
}
