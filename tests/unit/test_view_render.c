/*
 * test_view_render.c - headless renders of the museum, checked for
 * content.
 *
 * The run is tests/view/spin2.lua: in era 2009 on 2 CPUs, CPU1 spins from
 * ~13.5 us to ~103.5 us on a lock CPU0 holds.  The frame is drawn with the
 * software renderer into a surface (no display), at 1280x800 and at
 * 1920x1080, and the pixels must say what the trace says: the spinning
 * colour on CPU1's lane at 60 us, the holder's colour on CPU0's, every
 * state of the legend present in the legend, text in the placard panel,
 * and the yellow spotlight of the era ribbon on 2009, not on 1999.  The
 * PNG writer is checked to leave a real PNG and no temporary file.
 */
#include "test.h"

#include <SDL_image.h>
#include <sys/stat.h>

#include "../view/view_fixture.h"

static const char era_text[] =
	"# 2009 placard\n\nSome words about the era, long enough to wrap over more than one "
	"line of the panel, so that the layout is exercised.\n\n```c\nspin_lock(&l);\n```\n";

static const struct km_view_exhibit exhibit = {
	.title = "Two CPUs, one spinlock",
	.placard = "The holder keeps the lock for 100 us; the other CPU spins.",
	.look = "the vermillion lane: a CPU burning its time",
};

static int setup(void **state)
{
	static struct vfx f;
	*state = &f;
	if (vfx_setup(&f, "spin2.lua", NULL, KM_MODE_NATIVE) < 0)
		return -1;
	f.run.era_placard = era_text;
	return 0;
}

static int teardown(void **state)
{
	vfx_teardown(*state);
	return 0;
}

/* A still of the run at @w x @h into a surface; the state is returned. */
static SDL_Surface *render(struct vfx *f, int w, int h, struct km_view_state *st,
			   const struct km_view_exhibit *ex, const struct km_view_run *run)
{
	char err[512];
	km_view_state_init(st, &f->eras, w, h, 1.0f);
	km_view_state_bind(st, &f->m, km_view_era_index(&f->eras, f->s.ri.era), f->s.ri.mode);
	km_view_state_still(st, &f->m);
	struct km_view_frame fr = { .eras = &f->eras, .ex = ex, .run = run };
	SDL_Surface *s = km_view_render_surface(&fr, st, err, sizeof(err));
	if (!s)
		fprintf(stderr, "render: %s\n", err);
	return s;
}

static const int sizes[][2] = { { 1280, 800 }, { 1920, 1080 } };

static void test_view_render_lane_colours(void **state)
{
	struct vfx *f = *state;
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		struct km_view_state st;
		SDL_Surface *s = render(f, sizes[k][0], sizes[k][1], &st, &exhibit, &f->run);
		assert_non_null(s);
		int x = km_view_x_of(&st, 60000);
		int y1 = km_view_cpu_y(&st, 1), y0 = km_view_cpu_y(&st, 0);
		assert_true(x > st.lay.lanes.x && x < st.lay.lanes.x + st.lay.lanes.w);
		assert_true(y0 > 0 && y1 > y0);
		assert_int_equal(vfx_pixel(s, x, y1), km_pal(KM_C_SPIN));
		unsigned slot = f->m.ctx_colour[vfx_ctx(f, "holder")];
		assert_int_equal(vfx_pixel(s, x, y0), km_pal_task(slot));
		/* after both finished: paper, not a state */
		int xe = km_view_x_of(&st, f->m.end) + 2;
		if (xe < st.lay.lanes.x + st.lay.lanes.w)
			assert_int_equal(vfx_pixel(s, xe, y1), km_pal(KM_C_BG));
		/* the lock lane: held by the holder at 60 us */
		int yl = km_view_lock_y(&st, 0);
		assert_true(yl > y1);
		assert_int_equal(vfx_pixel(s, x, yl), km_pal_task(slot));
		SDL_FreeSurface(s);
	}
}

static void test_view_render_legend(void **state)
{
	struct vfx *f = *state;
	struct km_view_state st;
	SDL_Surface *s = render(f, 1280, 800, &st, &exhibit, &f->run);
	assert_non_null(s);
	const SDL_Rect *lg = &st.lay.legend;
	static const enum km_colour swatches[] = {
		KM_C_SPIN, KM_C_IRQ, KM_C_IRQOFF, KM_C_SWITCH, KM_C_IDLE, KM_C_WAIT,
	};
	for (size_t i = 0; i < sizeof(swatches) / sizeof(swatches[0]); i++)
		assert_true(vfx_count(s, lg, km_pal(swatches[i])) >= 20);
	assert_true(vfx_count(s, lg, km_pal_task(0)) >= 10);
	/* and its words */
	assert_true(vfx_dark(s, lg) > 300);
	SDL_FreeSurface(s);
}

static void test_view_render_placard(void **state)
{
	struct vfx *f = *state;
	struct km_view_state st;
	SDL_Surface *with = render(f, 1280, 800, &st, &exhibit, &f->run);
	assert_non_null(with);
	struct km_view_run bare = { .ri = f->run.ri };
	struct km_view_exhibit none = { 0 };
	struct km_view_state st2;
	SDL_Surface *without = render(f, 1280, 800, &st2, &none, &bare);
	assert_non_null(without);
	const SDL_Rect *p = &st.lay.placard;
	int text = vfx_dark(with, p), empty = vfx_dark(without, p);
	assert_int_equal(empty, 0);
	assert_true(text > 1500);
	/* "what to look at" sits in a yellow box */
	assert_true(vfx_count(with, p, km_pal(KM_C_HILITE)) > 2000);
	assert_int_equal(vfx_count(without, p, km_pal(KM_C_HILITE)), 0);
	/* the event line tells the contention (the still's focus) */
	assert_true(vfx_dark(with, &st.lay.event) > 300);
	SDL_FreeSurface(with);
	SDL_FreeSurface(without);
}

static void test_view_render_ribbon(void **state)
{
	struct vfx *f = *state;
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		struct km_view_state st;
		SDL_Surface *s = render(f, sizes[k][0], sizes[k][1], &st, &exhibit, &f->run);
		assert_non_null(s);
		assert_string_equal(f->eras.v[st.era].id, "2009");
		int y = st.lay.ribbon.y + (int)(st.lay.u * 5.0f);
		int x09 = km_view_year_x(&st, 2009.5), x99 = km_view_year_x(&st, 1999.5);
		assert_int_equal(vfx_pixel(s, x09, y), km_pal(KM_C_HILITE));
		assert_int_not_equal(vfx_pixel(s, x99, y), km_pal(KM_C_HILITE));
		/* and the ribbon can be clicked there: see test_view_state.c */
		SDL_FreeSurface(s);
	}
}

static void test_view_render_png_file(void **state)
{
	struct vfx *f = *state;
	char path[] = "/tmp/km-view-test-XXXXXX";
	assert_non_null(mkdtemp(path));
	char file[sizeof(path) + 16];
	snprintf(file, sizeof(file), "%s/still.png", path);
	char err[512];
	assert_int_equal(km_view_png(&f->eras, &exhibit, &f->run, file, 1280, 800, err, sizeof(err)), 0);
	SDL_Surface *s = IMG_Load(file);
	assert_non_null(s);
	assert_int_equal(s->w, 1280);
	assert_int_equal(s->h, 800);
	SDL_FreeSurface(s);
	/* nothing else was left in the folder */
	char tmp[sizeof(file) + 32];
	snprintf(tmp, sizeof(tmp), "%s.tmp%ld.png", file, (long)getpid());
	struct stat sb;
	assert_int_not_equal(stat(tmp, &sb), 0);
	/* a size out of range is refused with a message */
	assert_int_equal(km_view_png(&f->eras, &exhibit, &f->run, file, 10, 10, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "size"));
	unlink(file);
	rmdir(path);
}

/* The violations of a run are listed in the stats panel, in vermillion,
 * and the still's event line tells the first one. */
static void test_view_render_violations(void **state)
{
	(void)state;
	struct vfx f;
	assert_int_equal(vfx_setup(&f, "lost.lua", NULL, KM_MODE_NATIVE), 0);
	struct km_view_state st;
	SDL_Surface *s = render(&f, 1280, 800, &st, NULL, &f.run);
	assert_non_null(s);
	assert_true(st.has_focus);
	assert_int_equal(st.focus, f.m.viols[0]);
	SDL_Rect row = { st.lay.stats.x, st.lay.viol_y, st.lay.stats.w, st.lay.viol_row_h };
	/* text anti-aliasing blends the colour: count reddish pixels */
	int red = 0;
	for (int y = row.y; y < row.y + row.h; y++)
		for (int x = row.x; x < row.x + row.w; x++) {
			uint32_t p = vfx_pixel(s, x, y);
			red += ((p >> 16) & 255) > 150 && (p & 255) < 90 && ((p >> 8) & 255) < 140;
		}
	assert_true(red > 50);
	/* the first row is the focused one: on the highlight */
	assert_true(vfx_count(s, &row, km_pal(KM_C_HILITE)) > 100);
	SDL_FreeSurface(s);
	vfx_teardown(&f);
}

/* A run that measured latencies shows their distribution in the stats
 * panel, under the violations; a run that did not has no such chart. */
static void test_view_render_latency(void **state)
{
	(void)state;
	struct vfx f, g;
	assert_int_equal(vfx_setup(&f, "measure.lua", NULL, KM_MODE_NATIVE), 0);
	struct km_view_state st;
	SDL_Surface *s = render(&f, 1280, 800, &st, NULL, &f.run);
	assert_non_null(s);
	SDL_Rect below = { st.lay.stats.x, st.lay.viol_y, st.lay.stats.w,
			   st.lay.stats.y + st.lay.stats.h - st.lay.viol_y };
	/* the first series' colour: its swatch, its curve */
	assert_true(vfx_count(s, &below, km_pal_task(0)) > 30);
	SDL_FreeSurface(s);
	vfx_teardown(&f);
	assert_int_equal(vfx_setup(&g, "sem2.lua", NULL, KM_MODE_NATIVE), 0);
	s = render(&g, 1280, 800, &st, NULL, &g.run);
	assert_non_null(s);
	below = (SDL_Rect){ st.lay.stats.x, st.lay.viol_y, st.lay.stats.w,
			    st.lay.stats.y + st.lay.stats.h - st.lay.viol_y };
	assert_int_equal(vfx_count(s, &below, km_pal_task(0)), 0);
	SDL_FreeSurface(s);
	vfx_teardown(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_view_render_lane_colours),
		cmocka_unit_test(test_view_render_legend),
		cmocka_unit_test(test_view_render_placard),
		cmocka_unit_test(test_view_render_ribbon),
		cmocka_unit_test(test_view_render_png_file),
		cmocka_unit_test(test_view_render_violations),
		cmocka_unit_test(test_view_render_latency),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
