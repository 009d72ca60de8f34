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
#include <math.h>
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

/* ------------------------------------------- colour distance: CIEDE2000 -- */

static double lin(int c)
{
	double v = c / 255.0;
	return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

static int unlin(double v)
{
	v = v < 0 ? 0 : v > 1 ? 1 : v;
	v = v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055;
	return (int)lround(v * 255);
}

static void to_lab(uint32_t rgb, double lab[3])
{
	double r = lin((rgb >> 16) & 255), g = lin((rgb >> 8) & 255), b = lin(rgb & 255);
	double xyz[3] = { (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
			  0.2126 * r + 0.7152 * g + 0.0722 * b,
			  (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883 };
	for (int i = 0; i < 3; i++)
		xyz[i] = xyz[i] > 216.0 / 24389 ? cbrt(xyz[i]) : (24389.0 / 27 * xyz[i] + 16) / 116;
	lab[0] = 116 * xyz[1] - 16;
	lab[1] = 500 * (xyz[0] - xyz[1]);
	lab[2] = 200 * (xyz[1] - xyz[2]);
}

static double deg(double r) { return r * 180 / M_PI; }
static double rad(double d) { return d * M_PI / 180; }

/* Sharma, Wu and Dalal's implementation notes of CIEDE2000 (2005). */
static double ciede2000(uint32_t c1, uint32_t c2)
{
	double a[3], b[3];
	to_lab(c1, a);
	to_lab(c2, b);
	double C1 = hypot(a[1], a[2]), C2 = hypot(b[1], b[2]), Cb = (C1 + C2) / 2;
	double G = 0.5 * (1 - sqrt(pow(Cb, 7) / (pow(Cb, 7) + pow(25, 7))));
	double a1 = (1 + G) * a[1], a2 = (1 + G) * b[1];
	double C1p = hypot(a1, a[2]), C2p = hypot(a2, b[2]);
	double h1 = fmod(deg(atan2(a[2], a1)) + 360, 360), h2 = fmod(deg(atan2(b[2], a2)) + 360, 360);
	double dL = b[0] - a[0], dC = C2p - C1p, dh;
	if (C1p * C2p == 0)
		dh = 0;
	else if (fabs(h2 - h1) <= 180)
		dh = h2 - h1;
	else
		dh = h2 - h1 > 180 ? h2 - h1 - 360 : h2 - h1 + 360;
	double dH = 2 * sqrt(C1p * C2p) * sin(rad(dh / 2));
	double Lb = (a[0] + b[0]) / 2, Cbp = (C1p + C2p) / 2, hb;
	if (C1p * C2p == 0)
		hb = h1 + h2;
	else if (fabs(h1 - h2) <= 180)
		hb = (h1 + h2) / 2;
	else
		hb = h1 + h2 < 360 ? (h1 + h2 + 360) / 2 : (h1 + h2 - 360) / 2;
	double T = 1 - 0.17 * cos(rad(hb - 30)) + 0.24 * cos(rad(2 * hb)) +
		   0.32 * cos(rad(3 * hb + 6)) - 0.20 * cos(rad(4 * hb - 63));
	double dth = 30 * exp(-pow((hb - 275) / 25, 2));
	double Rc = 2 * sqrt(pow(Cbp, 7) / (pow(Cbp, 7) + pow(25, 7)));
	double SL = 1 + 0.015 * pow(Lb - 50, 2) / sqrt(20 + pow(Lb - 50, 2));
	double SC = 1 + 0.045 * Cbp, SH = 1 + 0.015 * Cbp * T, RT = -sin(rad(2 * dth)) * Rc;
	return sqrt(pow(dL / SL, 2) + pow(dC / SC, 2) + pow(dH / SH, 2) + RT * (dC / SC) * (dH / SH));
}

/* Dichromat vision, simulated in linear RGB (Machado, Oliveira and
 * Fernandes 2009, severity 1). */
enum vision { NORMAL, DEUTERANOPIA, PROTANOPIA };
static const double cvd[3][3][3] = {
	[DEUTERANOPIA] = { { 0.367322, 0.860646, -0.227968 }, { 0.280085, 0.672501, 0.047413 },
			   { -0.011820, 0.042940, 0.968881 } },
	[PROTANOPIA] = { { 0.152286, 1.052583, -0.204868 }, { 0.114503, 0.786281, 0.099216 },
			 { -0.003882, -0.048116, 1.051998 } },
};

static uint32_t seen(uint32_t rgb, enum vision v)
{
	if (v == NORMAL)
		return rgb;
	double l[3] = { lin((rgb >> 16) & 255), lin((rgb >> 8) & 255), lin(rgb & 255) };
	int o[3];
	for (int i = 0; i < 3; i++)
		o[i] = unlin(cvd[v][i][0] * l[0] + cvd[v][i][1] * l[1] + cvd[v][i][2] * l[2]);
	return (uint32_t)(o[0] << 16 | o[1] << 8 | o[2]);
}

/*
 * What a CPU lane and a lock lane show -- spinning, in irq, switching,
 * idle, and a lock's waiters -- must be told apart on a projector and by
 * the one visitor in twelve who sees red and green alike: CIEDE2000 of at
 * least 20 for normal vision, at least 12 under simulated deuteranopia
 * and protanopia, and at least 20 in all three for spinning against
 * waiting, which a lane shows side by side (vermillion against amber
 * once blurred into one orange: 12.5 under deuteranopia).  Both
 * palettes, the designed one and projector mode's.  irqs-off is a hatch,
 * told apart by its pattern, and the running tasks' colours are told
 * apart from these by the lanes' shapes, so neither is in the set.
 */
static void test_view_palette_states_apart(void **state)
{
	(void)state;
	static const char *const names[] = { "spin", "irq", "switch", "idle", "waiting" };
	static const char *const visions[] = { "normal", "deuteranopia", "protanopia" };
	int bad = 0;
	for (int contrast = 0; contrast < 2; contrast++) {
		km_pal_set_contrast(contrast);
		uint32_t c[5] = { km_pal_state(KM_CPU_SPIN, 0), km_pal_state(KM_CPU_IRQ, 0),
				  km_pal_state(KM_CPU_SWITCH, 0), km_pal_state(KM_CPU_IDLE, 0),
				  km_pal(KM_C_WAIT) };
		for (int i = 0; i < 5; i++)
			for (int j = i + 1; j < 5; j++)
				for (int v = NORMAL; v <= PROTANOPIA; v++) {
					double de = ciede2000(seen(c[i], v), seen(c[j], v));
					double need = v == NORMAL || (i == 0 && j == 4) ? 20 : 12;
					if (de < need) {
						fprintf(stderr, "  %s%s against %s, %s: CIEDE2000 %.1f < %.0f\n",
							contrast ? "projector: " : "", names[i], names[j],
							visions[v], de, need);
						bad++;
					}
				}
	}
	km_pal_set_contrast(false);
	/* the formula itself: black against white is 100, a colour against itself 0 */
	assert_true(fabs(ciede2000(0x000000, 0xFFFFFF) - 100.0) < 0.5);
	assert_true(ciede2000(0xD55E00, 0xD55E00) < 1e-9);
	assert_int_equal(bad, 0);
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
		cmocka_unit_test(test_view_palette_states_apart),
		cmocka_unit_test(test_view_palette_plot_draws_six),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
