/*
 * test_view_palette.c - the charts' series stay apart: in colour, in
 * markers and in dashes.
 *
 * Six modes on one chart (compare --plot of every mode) must be told
 * apart on a projector that washes colours out and in a grey print that
 * loses them: each series has an Okabe-Ito colour, and a marker and a
 * dash pattern of its own.  Checked: the first six series differ in all
 * three; no two of the first fourteen look alike (colour and marker);
 * no series is pale enough to vanish on the paper; and a plot of six
 * modes really draws every one of the six colours, in the chart and in
 * its legend.
 */
#include "test.h"

#include <SDL_image.h>
#include <jansson.h>
#include <string.h>
#include <unistd.h>

#include "../view/view_fixture.h"
#include "view/view_palette.h"
#include "view/view_plot.h"

static double luma(uint32_t rgb)
{
	return (0.2126 * ((rgb >> 16) & 255) + 0.7152 * ((rgb >> 8) & 255) + 0.0722 * (rgb & 255));
}

static void test_view_palette_series_apart(void **state)
{
	(void)state;
	for (unsigned a = 0; a < 6; a++) {
		for (unsigned b = a + 1; b < 6; b++) {
			assert_int_not_equal(km_pal_series(a), km_pal_series(b));
			assert_int_not_equal(km_series_marker(a), km_series_marker(b));
			const unsigned char *da = km_series_dash(a), *db = km_series_dash(b);
			assert_false(strlen((const char *)da) == strlen((const char *)db) &&
				     !memcmp(da, db, strlen((const char *)da)));
		}
		/* darker than the paper by a margin: no yellow on white */
		assert_true(luma(km_pal(KM_C_BG)) - luma(km_pal_series(a)) > 60);
	}
	for (unsigned a = 0; a < 2 * KM_SERIES; a++)
		for (unsigned b = a + 1; b < 2 * KM_SERIES; b++)
			assert_false(km_pal_series(a) == km_pal_series(b) &&
				     km_series_marker(a) == km_series_marker(b));
}

static int count_rgb(const SDL_Surface *s, uint32_t rgb)
{
	SDL_Rect all = { 0, 0, s->w, s->h };
	return vfx_count(s, &all, rgb);
}

static void test_view_palette_plot_draws_six(void **state)
{
	(void)state;
	vfx_env();
	static const char *const modes[] = { "native", "cli", "bkl", "spinlock", "semaphore", "mutex" };
	json_t *runs = json_array();
	for (int m = 0; m < 6; m++)
		for (int c = 1; c <= 4; c *= 2)
			json_array_append_new(runs, json_pack("{s:s, s:s, s:i, s:s, s:f, s:i}",
					      "mode", modes[m], "era", "2009", "cpus", c,
					      "outcome", "completed", "acquisitions_per_s",
					      1000.0 * (m + 1) * c, "wait_avg_ns", 100 * (6 - m) * c));
	json_t *table = json_pack("{s:s, s:o}", "scenario", "six", "runs", runs);
	char path[] = "/tmp/test_view_palette_XXXXXX.png";
	int fd = mkstemps(path, 4);
	assert_true(fd >= 0);
	close(fd);
	char err[256];
	assert_int_equal(km_view_plot_png(table, path, 1600, 800, err, sizeof(err)), 0);
	SDL_Surface *raw = IMG_Load(path);
	assert_non_null(raw);
	SDL_Surface *s = SDL_ConvertSurfaceFormat(raw, SDL_PIXELFORMAT_ARGB8888, 0);
	assert_non_null(s);
	for (unsigned i = 0; i < 6; i++)
		assert_true(count_rgb(s, km_pal_series(i)) > 200);
	SDL_FreeSurface(s);
	SDL_FreeSurface(raw);
	unlink(path);
	json_decref(table);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_view_palette_series_apart),
		cmocka_unit_test(test_view_palette_plot_draws_six),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
