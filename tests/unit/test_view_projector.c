/*
 * test_view_projector.c - projector mode: larger type, high contrast,
 * text that wraps rather than being cut.
 *
 * Held: --scale (km_view_set_scale) makes new windows and pictures
 * larger and opens them in projector mode, clamped to 0.5 .. 4; the L key
 * toggles projector mode, which is at least 1.25 times the designed size;
 * a projector frame is drawn on white paper with black ink; the event
 * line gets three lines; with violations to list, the side column still
 * gives the placard (the lesson) the whole of its room, and V or a click
 * on its foot swaps in the figures; the figures wrap, scroll with the
 * wheel when taller than the column, and a click on a violation row finds
 * the row the frame drew where the frame drew it; a played question at
 * --scale 2 in 1280x800 shows at least two options.
 */
#include "test.h"

#include "../view/view_fixture.h"
#include "view/view_panels.h"

static int setup(void **state)
{
	static struct vfx f;
	*state = &f;
	return vfx_setup(&f, "lost.lua", NULL, KM_PRIM_CLI);
}

static int teardown(void **state)
{
	vfx_teardown(*state);
	km_view_set_scale(1.0f);
	return 0;
}

static void press(struct km_view_state *st, SDL_Keycode k)
{
	SDL_Event e;
	memset(&e, 0, sizeof(e));
	e.type = SDL_KEYDOWN;
	e.key.keysym.sym = k;
	km_view_handle_event(st, &e);
}

static void bind(struct vfx *f, struct km_view_state *st, int w, int h)
{
	km_view_state_init(st, &f->eras, w, h, 1.0f);
	km_view_state_bind(st, &f->m, km_view_era_index(&f->eras, f->s.ri.era), f->s.ri.mode);
	km_view_state_still(st, &f->m);
}

static void test_view_projector_key_and_scale(void **state)
{
	struct vfx *f = *state;
	struct km_view_state st;
	km_view_set_scale(1.0f);
	bind(f, &st, 1920, 1080);
	assert_false(st.projector);
	float u = st.lay.u;
	int ev = st.lay.event.h;
	press(&st, SDLK_l);
	assert_true(st.projector);
	assert_true(st.lay.u >= 1.25f * u - 0.01f);
	assert_true(st.lay.event.h > ev * 3 / 2);
	assert_int_equal(st.lay.viol_item_h, 2 * st.lay.viol_row_h);
	press(&st, SDLK_l);
	assert_false(st.projector);
	assert_true(st.lay.u == u);

	km_view_set_scale(2.0f);
	bind(f, &st, 1920, 1080);
	assert_true(st.projector);
	assert_true(st.lay.u >= 2.0f * u - 0.01f);
	km_view_set_scale(40.0f);	/* clamped */
	bind(f, &st, 1920, 1080);
	assert_true(st.scale == 4.0f);
	km_view_set_scale(0.0f);
	bind(f, &st, 1920, 1080);
	assert_true(st.scale == 0.5f);
	assert_false(st.projector);
	km_view_set_scale(1.0f);
}

static void test_view_projector_contrast_and_wrap(void **state)
{
	struct vfx *f = *state;
	struct km_view_state st;
	char err[512];
	km_view_set_scale(1.25f);
	bind(f, &st, 1920, 1080);
	struct km_view_frame fr = { .eras = &f->eras, .run = &f->run };
	SDL_Surface *s = km_view_render_surface(&fr, &st, err, sizeof(err));
	assert_non_null(s);
	/* white paper, black ink, under the lanes and in the top bar */
	assert_int_equal(vfx_pixel(s, st.lay.lanes.x + st.lay.lanes.w - 2, st.lay.lanes.y + st.lay.lanes.h - 2),
			 0xFFFFFF);
	assert_int_equal(vfx_pixel(s, 1, 1), 0x000000);
	/* the still's event line (the run's headline) wraps onto a second
	 * line rather than ending in an ellipsis: ink in its lower half */
	const SDL_Rect *ev = &st.lay.event;
	SDL_Rect lower = { ev->x, ev->y + ev->h / 2, ev->w, ev->h / 2 - 2 };
	assert_true(vfx_dark(s, &lower) > 100);
	SDL_FreeSurface(s);

	/* and not in an ordinary frame, whose paper is not white */
	km_view_set_scale(1.0f);
	bind(f, &st, 1920, 1080);
	s = km_view_render_surface(&fr, &st, err, sizeof(err));
	assert_non_null(s);
	assert_int_not_equal(vfx_pixel(s, st.lay.lanes.x + st.lay.lanes.w - 2,
				       st.lay.lanes.y + st.lay.lanes.h - 2), 0xFFFFFF);
	SDL_FreeSurface(s);
}

/* A frame drawn as the window draws one, its measures taken by @st. */
static void draw_settled(struct vfx *f, struct km_view_state *st)
{
	char err[512];
	SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, st->w, st->h, 32,
							   SDL_PIXELFORMAT_ARGB8888);
	assert_non_null(surf);
	SDL_Renderer *r = SDL_CreateSoftwareRenderer(surf);
	assert_non_null(r);
	struct km_draw *d = km_draw_new(r, st->lay.u, err, sizeof(err));
	assert_non_null(d);
	struct km_view_frame fr = { .eras = &f->eras, .run = &f->run };
	km_draw_frame(d, &fr, st);
	int redraws = 0;
	while (km_view_measured(st, &d->meas)) {
		assert_true(++redraws <= 2);	/* it settles */
		d->key.valid = false;
		km_draw_frame(d, &fr, st);
	}
	km_draw_free(d);
	SDL_DestroyRenderer(r);
	SDL_FreeSurface(surf);
}

static void test_view_projector_placard_share(void **state)
{
	struct vfx *f = *state;
	struct km_view_state st;
	km_view_set_scale(1.0f);
	bind(f, &st, 1280, 800);
	assert_true(f->m.nviols > 0);
	const SDL_Rect side = st.lay.side;
	press(&st, SDLK_l);
	assert_true(st.projector);
	/* the lesson first, with (nearly) the whole column */
	assert_true(st.lay.placard.h >= st.lay.side.h * 3 / 4);
	assert_int_equal(st.lay.stats.h, 0);
	assert_true(st.lay.side_tab.h > 0);
	/* V: the figures, as large */
	press(&st, SDLK_v);
	assert_true(st.figures);
	assert_int_equal(st.lay.placard.h, 0);
	assert_true(st.lay.stats.h >= st.lay.side.h * 3 / 4);
	/* a click on the column's foot swaps back */
	vfx_click(&st, st.lay.side_tab.x + st.lay.side_tab.w / 2,
		  st.lay.side_tab.y + st.lay.side_tab.h / 2);
	assert_false(st.figures);
	assert_true(st.lay.placard.h >= st.lay.side.h * 3 / 4);
	/* out of projector mode, V does nothing and the column is shared */
	press(&st, SDLK_l);
	press(&st, SDLK_v);
	assert_false(st.figures);
	assert_true(st.lay.placard.h > 0 && st.lay.stats.h > 0);
	assert_int_equal(st.lay.side.w, side.w);
}

static void test_view_projector_figures_wrap_and_click(void **state)
{
	struct vfx *f = *state;
	struct km_view_state st;
	km_view_set_scale(1.5f);
	bind(f, &st, 1280, 800);
	press(&st, SDLK_v);
	draw_settled(f, &st);
	/* the rows the frame drew, each a few lines tall, one after another */
	assert_true(st.lay.nviol_rows >= 1);
	int row_h = st.lay.viol_row_h;
	for (int k = 0; k < st.lay.nviol_rows; k++) {
		assert_true(st.lay.viol_top[k + 1] - st.lay.viol_top[k] >= 2 * row_h);
		assert_true(st.lay.viol_top[k + 1] <= st.lay.stats.y + st.lay.stats.h);
	}
	assert_true(st.lay.outcome_y > st.lay.stats.y && st.lay.outcome_h >= row_h);
	assert_true(st.lay.viol_top[0] >= st.lay.outcome_y + st.lay.outcome_h);
	/* a click on the last row's last line opens that violation */
	int k = st.lay.nviol_rows - 1;
	vfx_click(&st, st.lay.stats.x + st.lay.stats.w / 2, st.lay.viol_top[k + 1] - 2);
	assert_int_equal(st.inspect, KM_INSPECT_VIOLATION);
	assert_int_equal(st.inspect_viol, (size_t)k);
	/* and one on the outcome line lists the checks */
	vfx_click(&st, st.lay.stats.x + st.lay.stats.w / 2, st.lay.outcome_y + 2);
	assert_int_equal(st.inspect, KM_INSPECT_CHECKS);

	/* at --scale 2 the figures are taller than the column: the wheel
	 * scrolls them, and the rows clicks find move with them */
	km_view_set_scale(2.0f);
	bind(f, &st, 1280, 800);
	press(&st, SDLK_v);
	draw_settled(f, &st);
	assert_true(st.meas.stats_h > st.lay.stats.h);
	int outcome = st.lay.outcome_y;
	SDL_Event e;
	memset(&e, 0, sizeof(e));
	e.type = SDL_MOUSEWHEEL;
	e.wheel.y = -2;		/* down */
	e.wheel.mouseX = st.lay.stats.x + st.lay.stats.w / 2;
	e.wheel.mouseY = st.lay.stats.y + st.lay.stats.h / 2;
	km_view_handle_event(&st, &e);
	assert_true(st.stats_scroll > 0);
	draw_settled(f, &st);
	assert_int_equal(st.lay.outcome_y, outcome - st.stats_scroll);
	km_view_set_scale(1.0f);
}

/* Play mode at --scale 2 in 1280x800 (a projector's window): a question
 * of two options shows both, each a row a click reaches, above the keys'
 * two lines; the title and the goal make way for them there (once, no
 * row was in sight: the question could not be read, only guessed at).
 * A window with room keeps them. */
static void test_view_projector_play_rows(void **state)
{
	struct vfx *f = *state;
	struct km_view_state st;
	km_view_set_scale(2.0f);
	bind(f, &st, 1280, 800);
	st.play_mode = true;
	km_view_play_question(&st, 2);
	assert_true(st.lay.play_compact);
	assert_true(st.lay.play_rows >= 2);
	int bottom = st.lay.placard.y + st.lay.placard.h;
	int keys = (int)lroundf(st.lay.u * 56);	/* the keys' room under the rows */
	for (int i = 0; i < 2; i++) {
		int y = km_view_play_row_y(&st, i);
		assert_true(y > st.lay.placard.y);
		assert_true(y + st.lay.play_row_h <= bottom - keys);
	}
	/* more options than rows: the first two still in sight */
	km_view_play_question(&st, 9);
	assert_true(km_view_play_row_y(&st, 1) >= 0);
	km_view_set_scale(1.0f);
	bind(f, &st, 1920, 1080);
	st.play_mode = true;
	km_view_play_question(&st, 2);
	assert_false(st.lay.play_compact);
	assert_true(km_view_play_row_y(&st, 1) >= 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_view_projector_key_and_scale, setup, teardown),
		cmocka_unit_test_setup_teardown(test_view_projector_contrast_and_wrap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_view_projector_placard_share, setup, teardown),
		cmocka_unit_test_setup_teardown(test_view_projector_play_rows, setup, teardown),
		cmocka_unit_test_setup_teardown(test_view_projector_figures_wrap_and_click, setup,
						teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
