/*
 * test_view_state.c - the controls, without a window.
 *
 * Every control of the help overlay goes through one pure function,
 * km_view_handle_event(state, event).  These tests build synthetic SDL
 * events (keys, wheel, drag, clicks) and check the state that results:
 * play and pause, stepping, speed, zoom and pan, the mode and era
 * switches (which must request a re-run with the right mode and era), the
 * compare view, exhibits, screenshot, help and quit.  Playback is checked
 * through km_view_tick, also pure.
 */
#include "test.h"

#include "../view/view_fixture.h"

struct ctx {
	struct vfx f;
	struct km_view_state st;
	int era2009;
};

static int setup(void **state)
{
	static struct ctx c;
	*state = &c;
	if (vfx_setup(&c.f, "spin2.lua", NULL, KM_MODE_NATIVE) < 0)
		return -1;
	c.era2009 = km_view_era_index(&c.f.eras, c.f.s.ri.era);
	return c.era2009 < 0 ? -1 : 0;
}

static int teardown(void **state)
{
	struct ctx *c = *state;
	vfx_teardown(&c->f);
	return 0;
}

/* A fresh state on the run before each test. */
static int fresh(void **state)
{
	struct ctx *c = *state;
	km_view_state_init(&c->st, &c->f.eras, 1280, 800, 1.0f);
	c->st.nexhibits = 3;
	km_view_state_bind(&c->st, &c->f.m, c->era2009, KM_MODE_NATIVE);
	return 0;
}

static void wheel(struct km_view_state *st, int x, int y, float dy)
{
	SDL_Event e;
	memset(&e, 0, sizeof(e));
	e.type = SDL_MOUSEWHEEL;
	e.wheel.y = (Sint32)dy;
	e.wheel.preciseY = dy;
	e.wheel.mouseX = x;
	e.wheel.mouseY = y;
	km_view_handle_event(st, &e);
}

static void test_view_state_play_pause(void **state)
{
	struct ctx *c = *state;
	struct km_view_state *st = &c->st;
	assert_int_equal(st->play, 0);
	assert_false(st->playing);
	vfx_key(st, SDLK_SPACE);
	assert_true(st->playing);
	/* playback crosses the starting window in about ten seconds */
	assert_true(llabs((km_time)km_view_speed_ns(st) - (st->t1 - st->t0) / 10) <= 1);
	double base = km_view_speed_ns(st);
	km_view_tick(st, 1.0);
	km_time one = st->play;
	assert_true(one > 0);
	assert_true(llabs(one - (km_time)base) <= 1);
	assert_true(st->has_focus);
	assert_true(c->f.m.recs[st->focus].time <= st->play);
	vfx_key(st, SDLK_SPACE);
	assert_false(st->playing);
	km_view_tick(st, 1.0);
	assert_int_equal(st->play, one);	/* paused: time stands still */
	/* faster: twice the distance per second */
	vfx_key(st, SDLK_PLUS);
	assert_int_equal(st->speed, 1);
	vfx_key(st, SDLK_SPACE);
	km_view_tick(st, 1.0);
	assert_true(llabs((st->play - one) - (km_time)(2 * base)) <= 2);
	vfx_key(st, SDLK_MINUS);
	vfx_key(st, SDLK_MINUS);
	assert_int_equal(st->speed, -1);
	/* playing to the end stops there */
	km_view_tick(st, 1000.0);
	assert_int_equal(st->play, c->f.m.end);
	assert_false(st->playing);
	/* and Space plays again from the start */
	vfx_key(st, SDLK_SPACE);
	assert_true(st->playing);
	assert_int_equal(st->play, 0);
}

static void test_view_state_step(void **state)
{
	struct ctx *c = *state;
	struct km_view_state *st = &c->st;
	vfx_key(st, SDLK_RIGHT);
	assert_true(st->has_focus);
	size_t first = st->focus;
	vfx_key(st, SDLK_RIGHT);
	vfx_key(st, SDLK_RIGHT);
	assert_int_equal(st->focus, first + 2);
	assert_int_equal(st->play, c->f.m.recs[first + 2].time);
	vfx_key(st, SDLK_LEFT);
	assert_int_equal(st->focus, first + 1);
	assert_int_equal(st->play, c->f.m.recs[first + 1].time);
	assert_false(st->playing);
	/* stepping stops playback */
	vfx_key(st, SDLK_SPACE);
	vfx_key(st, SDLK_RIGHT);
	assert_false(st->playing);
}

static void test_view_state_modes(void **state)
{
	struct ctx *c = *state;
	struct km_view_state *st = &c->st;
	static const struct {
		SDL_Keycode k;
		int mode;
	} keys[] = {
		{ SDLK_1, KM_MODE_NATIVE }, { SDLK_2, KM_PRIM_CLI }, { SDLK_3, KM_PRIM_BKL },
		{ SDLK_4, KM_PRIM_SPIN }, { SDLK_5, KM_PRIM_SEM }, { SDLK_6, KM_PRIM_MUTEX },
	};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		st->req = 0;
		vfx_key(st, keys[i].k);
		assert_true(st->req & KM_VREQ_RERUN);
		assert_int_equal(st->want_mode, keys[i].mode);
		assert_int_equal(st->want_era, c->era2009);	/* same era */
	}
	/* the window loop rebinds after the run: the state follows */
	km_view_state_bind(st, &c->f.m, c->era2009, KM_PRIM_MUTEX);
	assert_int_equal(st->mode, KM_PRIM_MUTEX);
}

static void test_view_state_eras(void **state)
{
	struct ctx *c = *state;
	struct km_view_state *st = &c->st;
	st->mode = KM_PRIM_SEM;
	vfx_key(st, SDLK_RIGHTBRACKET);
	assert_true(st->req & KM_VREQ_RERUN);
	assert_int_equal(st->want_era, c->era2009 + 1);
	assert_int_equal(st->want_mode, KM_PRIM_SEM);	/* same mode */
	st->req = 0;
	vfx_key(st, SDLK_LEFTBRACKET);
	assert_int_equal(st->want_era, c->era2009 - 1);
	/* no era before the first */
	st->req = 0;
	st->era = 0;
	vfx_key(st, SDLK_LEFTBRACKET);
	assert_int_equal(st->req, 0);
	/* a click on 1999 on the ribbon asks for 1999 */
	int x = km_view_year_x(st, 1999.5);
	int y = st->lay.rib_axis_y;
	vfx_click(st, x, y);
	assert_true(st->req & KM_VREQ_RERUN);
	assert_string_equal(c->f.eras.v[st->want_era].id, "1999");
}

static void test_view_state_zoom_pan(void **state)
{
	struct ctx *c = *state;
	struct km_view_state *st = &c->st;
	const SDL_Rect *L = &st->lay.lanes;
	vfx_key(st, SDLK_0);		/* the whole run */
	assert_int_equal(st->t0, 0);
	assert_int_equal(st->t1, c->f.m.end);
	int x = L->x + L->w / 2, y = L->y + 10;
	km_time at = km_view_time_of(st, x);
	wheel(st, x, y, 1.0f);			/* up: in */
	km_time span = st->t1 - st->t0;
	assert_true(span < c->f.m.end);
	assert_true(llabs(span - c->f.m.end * 8 / 10) <= 2);
	/* the time under the mouse stays under the mouse */
	assert_true(llabs(km_view_time_of(st, x) - at) <= span / L->w + 1);
	wheel(st, x, y, 3.0f);
	assert_true(st->t1 - st->t0 < span);
	/* drag left by 100 px: later times come into view */
	km_time t0 = st->t0;
	span = st->t1 - st->t0;
	vfx_mouse(st, SDL_MOUSEBUTTONDOWN, x, y);
	vfx_mouse(st, SDL_MOUSEMOTION, x - 100, y);
	vfx_mouse(st, SDL_MOUSEBUTTONUP, x - 100, y);
	assert_true(st->t0 > t0);
	assert_true(llabs((st->t0 - t0) - span * 100 / L->w) <= span / L->w + 1);
	assert_int_equal(st->t1 - st->t0, span);	/* panning keeps the zoom */
	/* zooming out never goes past the whole run */
	for (int i = 0; i < 20; i++)
		wheel(st, x, y, -1.0f);
	assert_int_equal(st->t0, 0);
	assert_int_equal(st->t1, c->f.m.end);
	/* 0 zooms to the whole run */
	wheel(st, x, y, 2.0f);
	vfx_key(st, SDLK_0);
	assert_int_equal(st->t1 - st->t0, c->f.m.end);
}

static void test_view_state_hover_click(void **state)
{
	struct ctx *c = *state;
	struct km_view_state *st = &c->st;
	vfx_key(st, SDLK_END);		/* reveal the whole run */
	int x = km_view_x_of(st, 60000), y = km_view_cpu_y(st, 1);
	vfx_mouse(st, SDL_MOUSEMOTION, x, y);
	assert_true(st->has_hover);
	char buf[512];
	km_vm_describe(&c->f.m, st->hover, buf, sizeof(buf));
	assert_non_null(strstr(buf, "spinner"));
	assert_non_null(strstr(buf, "spin"));
	/* a click there puts the focus on it */
	vfx_click(st, x, y);
	assert_true(st->has_focus);
	assert_int_equal(st->focus, st->hover);
	/* not told before it is played */
	vfx_key(st, SDLK_HOME);
	vfx_mouse(st, SDL_MOUSEMOTION, x, y);
	assert_false(st->has_hover);
	/* a click on the lock's name selects it for the stats panel */
	int ly = km_view_lock_y(st, 0);
	vfx_click(st, st->lay.gutter.x + 5, ly);
	assert_int_equal(st->sel_lock, c->f.m.lane_locks[0]);
}

static void test_view_state_overlays(void **state)
{
	struct ctx *c = *state;
	struct km_view_state *st = &c->st;
	vfx_key(st, SDLK_TAB);
	assert_true(st->compare);
	assert_true(st->req & KM_VREQ_COMPARE);
	vfx_key(st, SDLK_TAB);
	assert_false(st->compare);
	st->req = 0;
	vfx_key(st, SDLK_n);
	assert_true(st->req & KM_VREQ_EXHIBIT);
	assert_int_equal(st->want_exhibit, 1);
	vfx_key(st, SDLK_p);
	assert_int_equal(st->want_exhibit, 2);	/* from 0 back to the last */
	vfx_key(st, SDLK_s);
	assert_true(st->req & KM_VREQ_SCREENSHOT);
	vfx_key(st, SDLK_h);
	assert_true(st->help);
	vfx_key(st, SDLK_ESCAPE);
	assert_false(st->help);
	assert_false(st->quit);
	vfx_key(st, SDLK_F1);
	assert_true(st->help);
	vfx_key(st, SDLK_h);
	assert_false(st->help);
	vfx_key(st, SDLK_ESCAPE);
	assert_true(st->quit);
	st->quit = false;
	vfx_key(st, SDLK_q);
	assert_true(st->quit);
}

static void test_view_state_violation_click(void **state)
{
	struct ctx *c = *state;
	struct km_view_state *st = &c->st;
	/* no violations in this run: a click on the list does nothing */
	vfx_click(st, st->lay.stats.x + 10, st->lay.viol_y + 2);
	assert_false(st->has_focus);
	assert_int_equal(km_view_wrap(0, -1, 3), 2);
	assert_int_equal(km_view_wrap(2, 1, 3), 0);
}

/* A run with violations: the list in the stats panel is clickable. */
static void test_view_state_violation_jump(void **state)
{
	(void)state;
	struct vfx f;
	assert_int_equal(vfx_setup(&f, "lost.lua", NULL, KM_MODE_NATIVE), 0);
	assert_true(f.m.nviols >= 2);
	struct km_view_state st;
	km_view_state_init(&st, &f.eras, 1280, 800, 1.0f);
	km_view_state_bind(&st, &f.m, km_view_era_index(&f.eras, f.s.ri.era), KM_MODE_NATIVE);
	assert_true(st.lay.nviol_rows >= 2);
	/* the second row: focus on the second violation, revealed */
	vfx_click(&st, st.lay.stats.x + 20, st.lay.viol_y + st.lay.viol_row_h + 2);
	assert_true(st.has_focus);
	assert_int_equal(st.focus, f.m.viols[1]);
	assert_int_equal(f.m.recs[st.focus].kind, KM_TR_VIOLATION);
	assert_true(st.play >= f.m.recs[st.focus].time);
	char buf[512];
	km_vm_describe(&f.m, st.focus, buf, sizeof(buf));
	assert_non_null(strstr(buf, "BUG (lost-update): lost update on 'shared'"));
	vfx_teardown(&f);
}

/* Play mode: G asks to enter it only where the host can play; there, the
 * number keys answer instead of switching modes, Enter lets the task go,
 * U and Backspace undo, R runs to the end, W saves, G and Escape leave;
 * era and exhibit keys do nothing; a click on an option row answers it. */
static void play_is(struct km_view_state *st, SDL_Keycode k, int cmd, int arg)
{
	st->req = 0;
	vfx_key(st, k);
	assert_int_equal(st->req, KM_VREQ_PLAY);
	assert_int_equal(st->play_cmd, cmd);
	assert_int_equal(st->play_arg, arg);
}

static void test_view_state_play_mode(void **state)
{
	struct ctx *c = *state;
	struct km_view_state *st = &c->st;
	vfx_key(st, SDLK_g);
	assert_int_equal(st->req, 0);		/* a host that cannot play */
	st->can_play = true;
	play_is(st, SDLK_g, KM_VPLAY_ENTER, 0);
	/* the window loop enters it and shows a question of three rows */
	st->play_mode = true;
	st->play_options = 3;
	km_view_layout(st);
	play_is(st, SDLK_2, KM_VPLAY_ANSWER, 2);
	play_is(st, SDLK_KP_1, KM_VPLAY_ANSWER, 1);
	play_is(st, SDLK_RETURN, KM_VPLAY_ANSWER, 0);
	play_is(st, SDLK_u, KM_VPLAY_UNDO, 0);
	play_is(st, SDLK_BACKSPACE, KM_VPLAY_UNDO, 0);
	play_is(st, SDLK_r, KM_VPLAY_TO_END, 0);
	play_is(st, SDLK_w, KM_VPLAY_SAVE, 0);
	static const SDL_Keycode keep[] = { SDLK_LEFTBRACKET, SDLK_RIGHTBRACKET, SDLK_TAB,
					    SDLK_n, SDLK_p };
	for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++) {
		st->req = 0;
		vfx_key(st, keep[i]);
		assert_int_equal(st->req, 0);
		assert_false(st->compare);
	}
	/* the rows are where the clicks land; row 3 is not offered */
	assert_true(st->lay.play_rows >= 3);
	for (int i = 0; i < 3; i++) {
		int y = km_view_play_row_y(st, i);
		assert_true(y >= st->lay.placard.y && y < st->lay.placard.y + st->lay.placard.h);
		st->req = 0;
		vfx_click(st, st->lay.placard.x + st->lay.placard.w / 2, y + st->lay.play_row_h / 2);
		assert_int_equal(st->req, KM_VREQ_PLAY);
		assert_int_equal(st->play_cmd, KM_VPLAY_ANSWER);
		assert_int_equal(st->play_arg, i);
	}
	assert_int_equal(km_view_play_row_y(st, 3), -1);
	st->req = 0;
	vfx_click(st, st->lay.placard.x + 4, st->lay.placard.y + 2);	/* the title */
	assert_int_equal(st->req, 0);
	play_is(st, SDLK_g, KM_VPLAY_LEAVE, 0);
	play_is(st, SDLK_ESCAPE, KM_VPLAY_LEAVE, 0);
	assert_false(st->quit);
}

/* A question of more options than one digit names (tasks and interrupts
 * numbered on, issue 14): the digits gather until no longer option
 * begins with them, Enter answers with them, Backspace takes one back;
 * the wheel over the panel scrolls the rows and a click answers the row
 * under it, so every option is reachable by keys and by clicks. */
static void test_view_state_play_many_options(void **state)
{
	struct ctx *c = *state;
	struct km_view_state *st = &c->st;
	st->can_play = true;
	st->play_mode = true;
	km_view_layout(st);
	km_view_play_question(st, 13);		/* Enter and 1 .. 12 */
	st->req = 0;
	vfx_key(st, SDLK_1);			/* 1, or 10 .. 12 */
	assert_int_equal(st->req, 0);
	assert_int_equal(st->play_typed, 1);
	play_is(st, SDLK_2, KM_VPLAY_ANSWER, 12);
	assert_int_equal(st->play_typed, 0);
	vfx_key(st, SDLK_1);
	play_is(st, SDLK_RETURN, KM_VPLAY_ANSWER, 1);
	vfx_key(st, SDLK_KP_1);
	play_is(st, SDLK_0, KM_VPLAY_ANSWER, 10);
	play_is(st, SDLK_5, KM_VPLAY_ANSWER, 5);	/* no option 50 .. 59 */
	st->req = 0;
	vfx_key(st, SDLK_1);
	vfx_key(st, SDLK_BACKSPACE);		/* takes the digit back, no undo */
	assert_int_equal(st->req, 0);
	assert_int_equal(st->play_typed, 0);
	play_is(st, SDLK_BACKSPACE, KM_VPLAY_UNDO, 0);
	vfx_key(st, SDLK_1);
	st->req = 0;
	vfx_key(st, SDLK_ESCAPE);		/* forgets the digits, stays */
	assert_int_equal(st->req, 0);
	assert_int_equal(st->play_typed, 0);
	/* fewer rows than options: Page Down brings the last into sight, by
	 * keys alone (a lecture hall's clicker), Page Up the first again */
	int rows = st->lay.play_rows;
	assert_true(rows >= 2 && rows < 13);
	assert_int_equal(km_view_play_row_y(st, 12), -1);
	for (int i = 0; i < 13 && km_view_play_row_y(st, 12) < 0; i++)
		vfx_key(st, SDLK_PAGEDOWN);
	assert_true(km_view_play_row_y(st, 12) >= st->lay.play_y0);
	assert_int_equal(km_view_play_row_y(st, 0), -1);
	vfx_key(st, SDLK_UP);
	assert_int_equal(st->play_scroll, 13 - rows - 1);
	for (int i = 0; i < 13; i++)
		vfx_key(st, SDLK_PAGEUP);
	assert_int_equal(st->play_scroll, 0);
	assert_int_equal(st->req, 0);		/* scrolling answers nothing */
	/* the wheel too */
	assert_int_equal(km_view_play_row_y(st, 12), -1);
	SDL_Event e;
	memset(&e, 0, sizeof(e));
	e.type = SDL_MOUSEWHEEL;
	e.wheel.y = -1;
	e.wheel.preciseY = -1;
	e.wheel.mouseX = st->lay.placard.x + st->lay.placard.w / 2;
	e.wheel.mouseY = km_view_play_row_y(st, 0) + 2;
	for (int i = 0; i < 20; i++)
		km_view_handle_event(st, &e);
	assert_int_equal(st->play_scroll, 13 - rows);	/* no further than the last */
	assert_int_equal(km_view_play_row_y(st, 0), -1);
	int y = km_view_play_row_y(st, 12);
	assert_true(y >= st->lay.play_y0);
	st->req = 0;
	vfx_click(st, st->lay.placard.x + st->lay.placard.w / 2, y + st->lay.play_row_h / 2);
	assert_int_equal(st->req, KM_VREQ_PLAY);
	assert_int_equal(st->play_cmd, KM_VPLAY_ANSWER);
	assert_int_equal(st->play_arg, 12);
	/* the first row in sight is the scroll's */
	assert_int_equal(km_view_play_row_y(st, 13 - rows), st->lay.play_y0);
	/* a new question starts at its top, nothing typed */
	vfx_key(st, SDLK_1);
	km_view_play_question(st, 3);
	assert_int_equal(st->play_scroll, 0);
	assert_int_equal(st->play_typed, 0);
	assert_int_equal(km_view_play_row_y(st, 0), st->lay.play_y0);
	/* and its rows are sized for it: a question of three after one of
	 * one shows all three where they fit (G once showed 2 of 3, the
	 * rows sized for the question before) */
	km_view_play_question(st, 1);
	km_view_play_question(st, 3);
	assert_true(km_view_play_row_y(st, 2) >= 0);
	km_view_play_question(st, 16);
	assert_true(st->lay.play_rows >= 3);
	assert_true(km_view_play_row_y(st, 2) >= 0);
}

/* A long run with short events starts zoomed in, and follows the
 * playhead. */
static void test_view_state_initial_window(void **state)
{
	(void)state;
	struct vfx f;
	assert_int_equal(vfx_setup(&f, "sem2.lua", NULL, KM_MODE_NATIVE), 0);
	struct km_view_state st;
	km_view_state_init(&st, &f.eras, 1280, 800, 1.0f);
	/* pretend the run's activity is far shorter than the run */
	struct km_view_model m = f.m;
	m.typical_ns = 10;
	km_view_state_bind(&st, &m, 0, KM_MODE_NATIVE);
	km_time span = st.t1 - st.t0;
	assert_true(span < m.end);
	assert_true(llabs(span - m.end * 10 / 90) <= 1);	/* at most 90 s to play */
	vfx_key(&st, SDLK_SPACE);
	km_view_tick(&st, 12.0);
	assert_true(st.play > span);
	assert_true(st.play >= st.t0 && st.play <= st.t1);	/* followed */
	vfx_teardown(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_view_state_play_pause, fresh),
		cmocka_unit_test_setup(test_view_state_step, fresh),
		cmocka_unit_test_setup(test_view_state_modes, fresh),
		cmocka_unit_test_setup(test_view_state_eras, fresh),
		cmocka_unit_test_setup(test_view_state_zoom_pan, fresh),
		cmocka_unit_test_setup(test_view_state_hover_click, fresh),
		cmocka_unit_test_setup(test_view_state_overlays, fresh),
		cmocka_unit_test_setup(test_view_state_violation_click, fresh),
		cmocka_unit_test(test_view_state_violation_jump),
		cmocka_unit_test_setup(test_view_state_play_mode, fresh),
		cmocka_unit_test_setup(test_view_state_play_many_options, fresh),
		cmocka_unit_test(test_view_state_initial_window),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
