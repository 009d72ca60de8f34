/*
 * test_extremes.c - every drawer and report driven with the ends of the
 * ranges the scenario contract allows.
 *
 * The run is tests/view/extremes.lua: two CPUs busy for almost 2^62 ns
 * each (their sum does not fit in an int64_t), a counter that swings
 * from INT64_MIN to INT64_MAX and back (its range does not either),
 * variables at both ends, a measure of almost 2^62 ns, waits and an
 * interrupt period of 2^62 ns.  Each of these once overflowed somewhere
 * (the counter lane drew outside its pixel buffer); here the still and
 * zoomed frames, the summary's levels, the text, JSON and lock_stat
 * reports and both trace exports are made, under the sanitizers in
 * `make test`, and what they say is checked against the run.
 */
#include "test.h"

#include <SDL.h>
#include <inttypes.h>

#include "report/report.h"
#include "report/trace_export.h"
#include "view/view_summary.h"

#include "../view/view_fixture.h"

static int setup(void **state)
{
	static struct vfx f;
	*state = &f;
	return vfx_setup(&f, "extremes.lua", NULL, KM_MODE_NATIVE);
}

static int teardown(void **state)
{
	vfx_teardown(*state);
	return 0;
}

/* What @fn writes about the run, as a string (free it). */
static char *capture(void (*fn)(FILE *, const struct km_run_info *), const struct km_run_info *ri)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	assert_non_null(out);
	fn(out, ri);
	assert_int_equal(fclose(out), 0);
	return buf;
}

static void test_extremes_the_run(void **state)
{
	struct vfx *f = *state;
	const struct km_sim *sim = f->s.ri.sim;
	/* the run is what the file says, or the rest proves nothing */
	assert_true(sim->now > KM_TIME_MAX / 2);
	assert_true(sim->cpus[0].acct[KM_CPU_BUSY] > KM_TIME_MAX - KM_TIME_MAX / 16);
	assert_true(sim->cpus[1].acct[KM_CPU_BUSY] > KM_TIME_MAX - KM_TIME_MAX / 16);
	assert_int_equal(sim->counters.v[0]->peak, INT64_MAX);
	assert_int_equal(sim->counters.v[0]->value, 0);
}

static void test_extremes_text_reports(void **state)
{
	struct vfx *f = *state;
	char *t = capture(km_report_text, &f->s.ri);
	/* both CPUs busy all the time: 100% each, and 100% in all, not a
	 * share of an overflowed total */
	const char *all = strstr(t, "  all ");
	assert_non_null(all);
	assert_true(!strncmp(all, "  all      100.0%", 17));
	assert_non_null(strstr(t, "9223372036854775807"));
	assert_non_null(strstr(t, "-9223372036854775808"));
	free(t);
	char *ls = capture(km_report_lockstat, &f->s.ri);
	assert_non_null(strstr(ls, "l"));
	free(ls);
}

static void test_extremes_json_report(void **state)
{
	struct vfx *f = *state;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	assert_non_null(out);
	assert_int_equal(km_report_print_json(out, &f->s.ri), 0);
	assert_int_equal(fclose(out), 0);
	json_error_t e;
	json_t *j = json_loads(buf, 0, &e);
	assert_non_null(j);
	json_t *swing = json_object_get(json_object_get(json_object_get(j, "counters"), "swing"), "peak");
	assert_int_equal(json_integer_value(swing), INT64_MAX);
	json_t *v = json_object_get(json_object_get(j, "vars"), "v");
	assert_int_equal(json_integer_value(v), INT64_MAX);
	json_t *huge = json_object_get(json_object_get(j, "ops"), "huge");
	assert_true(json_integer_value(json_object_get(huge, "max_ns")) > KM_TIME_MAX / 2);
	json_decref(j);
	free(buf);
}

static void test_extremes_trace_exports(void **state)
{
	struct vfx *f = *state;
	char err[256];
	FILE *out = tmpfile();
	assert_non_null(out);
	assert_int_equal(km_trace_write_chrome(&f->s.ri, NULL, out, err, sizeof(err)), 0);
	assert_true(ftell(out) > 100);
	fclose(out);
	out = tmpfile();
	assert_non_null(out);
	assert_int_equal(km_trace_write_ftrace(&f->s.ri, NULL, out, err, sizeof(err)), 0);
	assert_true(ftell(out) > 100);
	fclose(out);
}

static void test_extremes_summary_levels(void **state)
{
	struct vfx *f = *state;
	char err[256];
	for (int per_row = 1; per_row <= 2; per_row++) {
		struct km_vm_summary s;
		memset(&s, 0, sizeof(s));
		assert_int_equal(km_vm_summary_build(&s, &f->m, per_row, err, sizeof(err)), 0);
		for (int lv = 0; lv < s.nlevels; lv++) {
			km_time w = km_vm_summary_width(&s, lv);
			assert_true(w > 0);
			assert_true((double)w * (double)s.nb[lv] >= (double)f->m.end);
		}
		assert_true(km_vm_summary_level(&s, (double)INT64_MAX) >= 0);
		km_vm_summary_free(&s);
	}
}

/* The still, and windows at the start, the middle and the end of time:
 * every one drawn, and the counter's bar in its lane in the still. */
static void test_extremes_frames(void **state)
{
	struct vfx *f = *state;
	static const int sizes[][2] = { { 1280, 800 }, { 1920, 1080 } };
	km_time end = f->m.end;
	const km_time wins[][2] = {
		{ 0, end }, { 0, 5000 }, { end / 2 - 1000, end / 2 + 1000 }, { end - 10, end },
		{ 1000, 4000 },
	};
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
		for (size_t w = 0; w < sizeof(wins) / sizeof(wins[0]); w++) {
			char err[512];
			struct km_view_state st;
			km_view_state_init(&st, &f->eras, sizes[k][0], sizes[k][1], 1.0f);
			km_view_state_bind(&st, &f->m, km_view_era_index(&f->eras, f->s.ri.era),
					   f->s.ri.mode);
			km_view_state_still(&st, &f->m);
			st.t0 = wins[w][0];
			st.t1 = wins[w][1];
			st.play = st.t1;
			struct km_view_frame fr = { .eras = &f->eras, .run = &f->run };
			SDL_Surface *s = km_view_render_surface(&fr, &st, err, sizeof(err));
			assert_non_null(s);
			assert_true(f->m.nlane_ctrs > 0);
			SDL_Rect lane = { st.lay.lanes.x, st.lay.ctr_y, st.lay.lanes.w, st.lay.ctr_h };
			/* the swing is drawn, in its lane */
			if (w == 0)
				assert_true(vfx_count(s, &lane, km_pal(KM_C_COUNTER_LINE)) > 100);
			SDL_FreeSurface(s);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_extremes_the_run),
		cmocka_unit_test(test_extremes_text_reports),
		cmocka_unit_test(test_extremes_json_report),
		cmocka_unit_test(test_extremes_trace_exports),
		cmocka_unit_test(test_extremes_summary_levels),
		cmocka_unit_test(test_extremes_frames),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
