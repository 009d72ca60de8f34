/*
 * test_view_text_fit.c - nothing a visitor must read is cut.
 *
 * Every exhibit of the tour (scripts/tour.lua), its compare view (the
 * exhibit's modes side by side, or all six), and the play view of two
 * challenges, drawn at each supported size -- 1280x800, 1600x1000,
 * 1920x1080 -- as designed and at --scale 2 (projector mode), as a still
 * picture and as the window draws it.  The drawer's record of placed
 * text (km_text_record: each string with its rectangle, the clip in
 * force, and whether it was cut with an ellipsis) is read back, and each
 * heading (the HEAD and TITLE type, or text drawn as a heading), each
 * verdict line (how the run ended, its checks, its violations count, the
 * CPU split) and each figure of the stats panel (the lock's counts, its
 * waits and holds, its bounces: "line bounces 332/3..." at 1600x1000 once
 * hid the 2015 exhibit's figure), and each lock or counter lane's label
 * in the gutter (its name -- "general_done_window" was once cut to
 * "general...e_window" -- and its kind or peak under it), and once a
 * played run has ended, the play panel's verdict (how it ended, the
 * goal's box and why) and its keys -- the box was once drawn over the
 * keys at --scale 2 -- must be:
 *   - whole: not cut with an ellipsis;
 *   - inside its clip and the picture: not sliced by a panel's edge;
 *   - alone: not overlapping another run of text, nor painted over by a
 *     rectangle drawn after it (the compare view's DEADLOCK under a bar).
 * Text that a panel cannot hold must go elsewhere -- scrolled out of
 * sight with a visible sign, or onto a line of its own -- never be cut
 * through.  The names drawn on slices of the lanes (a holder, a task, the
 * lock a task waits on) must lie on the lanes, drawn whole or not at all:
 * every exhibit is drawn zoomed in too, its slices running on past the
 * view's right edge.  Each failure is printed, with the picture and the
 * string, before the test fails.
 */
#include "test.h"

#include "../view/view_fixture.h"
#include "cli/play.h"
#include "cli/view_cli.h"
#include "lua/tour.h"
#include "report/play_state.h"
#include "view/view_panels.h"
#include "view/view_plot.h"
#include "view/view_marks.h"

#include <jansson.h>
#include <math.h>
#include <regex.h>

#include <stdarg.h>

static const int sizes[][2] = { { 1280, 800 }, { 1600, 1000 }, { 1920, 1080 } };
static const float scales[] = { 1.0f, 2.0f };

/* The sizes the exhibits, compare and play views are drawn at: all three,
 * or under the sanitizers (KM_TEST_SANITIZED=1, set by `make
 * check-sanitized`) one a picture, in turn (the first picture at the
 * first size, the next at the second...): every size is still drawn, a
 * third of the pictures.  The -O2 build draws every picture at every size;
 * docs/performance.md, section 12, says how the lines drawn were compared. */
static bool one_size(void)
{
	const char *v = getenv("KM_TEST_SANITIZED");
	return v && !strcmp(v, "1");
}

static int failures;

static bool is_heading(const struct km_text_box *b)
{
	return b->role == KM_ROLE_HEADING ||
	       (b->role == KM_ROLE_TEXT && (b->font == KM_FONT_HEAD || b->font == KM_FONT_TITLE));
}

static bool must_read(const struct km_text_box *b)
{
	return b->s && (is_heading(b) || b->role == KM_ROLE_VERDICT || b->role == KM_ROLE_FIGURE ||
			b->role == KM_ROLE_NAME || b->role == KM_ROLE_KEYS);
}

/* The overlap of @a and @b, counting only more than a sliver: type's
 * boxes touch by a pixel or two where lines are set close. */
static bool overlap(const SDL_Rect *a, const SDL_Rect *b, int slack)
{
	int w = (a->x + a->w < b->x + b->w ? a->x + a->w : b->x + b->w) - (a->x > b->x ? a->x : b->x);
	int h = (a->y + a->h < b->y + b->h ? a->y + a->h : b->y + b->h) - (a->y > b->y ? a->y : b->y);
	return w > slack && h > slack;
}

static bool inside(const SDL_Rect *in, const SDL_Rect *out, int slack)
{
	return in->x >= out->x - slack && in->y >= out->y - slack &&
	       in->x + in->w <= out->x + out->w + slack && in->y + in->h <= out->y + out->h + slack;
}

static void flag(const char *pic, const struct km_text_box *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "  %s: \"%s\" at %d,%d %dx%d: ", pic, b->s, b->r.x, b->r.y, b->r.w, b->r.h);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	failures++;
}

/* Check the record of the frame drawn last, of @st. */
static void check_record(const char *pic, const struct km_view_state *st)
{
	size_t n;
	const struct km_text_box *v = km_text_boxes(&n);
	const SDL_Rect all = { 0, 0, st->w, st->h };
	int reading = 0;
	for (size_t i = 0; i < n; i++) {
		const struct km_text_box *b = &v[i];
		/* a name on a slice stays on the lanes: never past their
		 * right edge, beside or under the panel there ("sr/3" was) */
		if (b->s && b->role == KM_ROLE_SLICE && !inside(&b->r, &st->lay.lanes, 1))
			flag(pic, b, "a slice's name out of the lanes (%d,%d %dx%d)", st->lay.lanes.x,
			     st->lay.lanes.y, st->lay.lanes.w, st->lay.lanes.h);
		if (!must_read(b))
			continue;
		reading++;
		if (b->cut) {
			flag(pic, b, "cut with an ellipsis");
			continue;
		}
		/* wholly out of its panel is scrolled away, not cut */
		if (!overlap(&b->r, &b->clip, 0))
			continue;
		if (!inside(&b->r, &b->clip, 1) || !inside(&b->r, &all, 0)) {
			flag(pic, b, "sliced by its panel's edge (clip %d,%d %dx%d)", b->clip.x,
			     b->clip.y, b->clip.w, b->clip.h);
			continue;
		}
		int slack = b->r.h / 5;
		for (size_t k = 0; k < n; k++) {
			const struct km_text_box *o = &v[k];
			SDL_Rect seen;
			if (k == i || !SDL_IntersectRect(&o->r, &o->clip, &seen) ||
			    !overlap(&b->r, &seen, slack))
				continue;
			if (o->s) {
				flag(pic, b, "overlaps \"%s\" at %d,%d %dx%d", o->s, seen.x, seen.y,
				     seen.w, seen.h);
				break;
			}
			if (k > i) {
				flag(pic, b, "painted over by a rectangle at %d,%d %dx%d", seen.x, seen.y,
				     seen.w, seen.h);
				break;
			}
			if (o->picture) {
				/* over the lanes' picture: only on a backing of its own */
				bool backed = false;
				for (size_t j = k + 1; j < i && !backed; j++)
					backed = !v[j].s && !v[j].picture && inside(&b->r, &v[j].r, 0);
				if (!backed) {
					flag(pic, b, "drawn over the lanes with no backing");
					break;
				}
			}
		}
	}
	if (!reading) {
		fprintf(stderr, "  %s: no heading or verdict line drawn at all\n", pic);
		failures++;
	}
}

static void draw(const char *pic, const struct km_view_frame *fr, struct km_view_state *st)
{
	char err[512];
	km_text_record(true);
	SDL_Surface *s = km_view_render_surface(fr, st, err, sizeof(err));
	if (!s) {
		fprintf(stderr, "%s: %s\n", pic, err);
		failures++;
		return;
	}
	check_record(pic, st);
	km_text_record(false);
	SDL_FreeSurface(s);
}

/* One exhibit's run, as the tour and the window make it. */
struct exrun {
	struct km_session s;
	struct km_view_model m;
	struct km_view_run run;
	char *placard;
	struct km_param_set sets[KM_TOUR_SETS];
	bool ok;
	bool tried;		/* exhibit_run: made (ok or not) */
};

static void exrun_start(struct exrun *x, const struct km_era_list *eras, const struct km_exhibit *e,
			int mode, struct km_play *play, bool quiet)
{
	memset(x, 0, sizeof(*x));
	struct km_run_request rq;
	km_run_request_init(&rq);
	rq.file = e->file;
	rq.era = e->era[0] ? e->era : NULL;
	rq.mode = mode;
	rq.cpus = e->cpus;
	rq.anachronism = e->anachronism;
	for (int k = 0; k < e->nsets && k < KM_TOUR_SETS; k++)
		x->sets[k] = (struct km_param_set){ .name = e->set_name[k], .value = e->set_value[k] };
	rq.sets = x->sets;
	rq.nsets = e->nsets;
	rq.store_trace = true;
	if (play)
		rq.chooser = km_play_begin(play, &km_play_session_lines, &x->s);
	int rc = km_session_run(&x->s, eras, &rq);
	if (play && km_play_end(play, x->s.ri.sim, rc) && x->s.ri.sim) {
		x->s.ri.lines = km_scenario_lines(x->s.sc, &x->s.ri.nlines);
		x->s.ri.outcome = KM_OUT_NONE;
		x->s.ri.reason = "paused at a choice point: your move";
		rc = 0;
	}
	char err[512];
	if (rc == 2 || !x->s.ri.sim || km_vm_build(&x->m, &x->s.ri, err, sizeof(err)) < 0) {
		if (!quiet)
			fprintf(stderr, "%s in %s as %s: did not run\n", e->file, e->era,
				km_mode_name(mode));
		return;
	}
	x->placard = x->s.ri.era ? km_read_placard(x->s.ri.era->placard) : NULL;
	x->run = (struct km_view_run){ .ri = &x->s.ri, .era_placard = x->placard };
	x->ok = true;
}

static void exrun_free(struct exrun *x)
{
	if (x->ok)
		km_vm_free(&x->m);
	free(x->placard);
	km_session_free(&x->s);
}

static void bind(struct km_view_state *st, const struct km_era_list *eras, struct exrun *x,
		 int w, int h, float scale)
{
	km_view_set_scale(scale);
	km_view_state_init(st, eras, w, h, 1.0f);
	km_view_state_bind(st, &x->m, km_view_era_index(eras, x->s.ri.era), x->s.ri.mode);
	km_view_state_still(st, &x->m);
}

static struct km_tour tour;
static struct km_era_list eras;

/* The runs of the tour's exhibits, each (exhibit, mode) made once and
 * drawn by every test that shows it: the exhibits as they open, their
 * compare views, their PNGs.  made[mode + 1][exhibit]; freed at the
 * teardown. */
static struct exrun *made[KM_PRIM_COUNT + 1];

static struct exrun *exhibit_run(int i, int mode, bool quiet)
{
	assert_true(mode >= KM_MODE_NATIVE && mode < KM_PRIM_COUNT);
	struct exrun **row = &made[mode + 1];
	if (!*row) {
		*row = calloc((size_t)tour.n, sizeof(**row));
		assert_non_null(*row);
	}
	struct exrun *x = &(*row)[i];
	if (!x->tried) {
		exrun_start(x, &eras, &tour.v[i], mode, NULL, true);
		x->tried = true;
	}
	if (!x->ok && !quiet)
		fprintf(stderr, "%s in %s as %s: did not run\n", tour.v[i].file, tour.v[i].era,
			km_mode_name(mode));
	return x;
}

static int setup(void **state)
{
	char err[1024], path[PATH_MAX + 128], scripts[PATH_MAX + 64];
	vfx_env();
	if (km_load_eras(&eras, err, sizeof(err)) < 0) {
		fprintf(stderr, "eras: %s\n", err);
		return -1;
	}
	snprintf(scripts, sizeof(scripts), "%s/scripts", km_datadir());
	snprintf(path, sizeof(path), "%s/tour.lua", scripts);
	if (km_tour_load(path, scripts, &tour, err, sizeof(err)) < 0) {
		fprintf(stderr, "tour: %s\n", err);
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	for (int m = 0; m <= KM_PRIM_COUNT; m++) {
		for (int i = 0; made[m] && i < tour.n; i++)
			if (made[m][i].tried)
				exrun_free(&made[m][i]);
		free(made[m]);
		made[m] = NULL;
	}
	km_tour_free(&tour);
	km_eras_free(&eras);
	km_view_set_scale(1.0f);
	return 0;
}

static void each_size(const char *what, const struct km_exhibit *e, struct exrun *x,
		      struct exrun *const *cmp, int ncmp, const struct km_view_play_frame *pf)
{
	struct km_view_exhibit vex;
	km_cli_exhibit_of(&vex, e);
	static size_t turn;
	size_t nsizes = sizeof(sizes) / sizeof(sizes[0]);
	for (size_t si = 0; si < nsizes; si++) {
		if (one_size() && si != turn % nsizes)
			continue;
		for (size_t ki = 0; ki < 2 * sizeof(scales) / sizeof(scales[0]); ki++) {
			/* at --scale 2 the side column shows the placard, or
			 * (V) the figures: both */
			bool figures = ki >= sizeof(scales) / sizeof(scales[0]);
			if (figures && scales[ki % 2] <= 1)
				continue;
			for (int still = 0; still < 2; still++) {
				struct km_view_state st;
				bind(&st, &eras, x, sizes[si][0], sizes[si][1], scales[ki % 2]);
				if (figures) {
					st.figures = true;
					km_view_layout(&st);
				}
				struct km_view_frame fr = { .eras = &eras, .ex = &vex, .run = &x->run,
							    .still = still, .play = pf };
				const struct km_view_model *mp[KM_VIEW_MAX_COMPARE];
				struct km_view_run runs[KM_VIEW_MAX_COMPARE];
				if (ncmp) {
					for (int k = 0; k < ncmp; k++) {
						mp[k] = &cmp[k]->m;
						runs[k] = cmp[k]->run;
					}
					st.compare = true;
					km_view_state_set_compare(&st, mp, ncmp);
					fr.cmp_runs = runs;
					fr.ncmp = ncmp;
				}
				if (pf) {
					st.play_mode = true;
					km_view_play_question(&st, pf->play->paused ?
								   km_play_options(&pf->play->q) : 0);
				}
				char pic[512];
				snprintf(pic, sizeof(pic), "%s, %dx%d%s%s%s", what, sizes[si][0],
					 sizes[si][1], scales[ki % 2] > 1 ? " --scale 2" : "",
					 figures ? ", V: the figures" : "", still ? " (PNG)" : " (window)");
				draw(pic, &fr, &st);
			}
		}
	}
	turn++;
}

/* Exhibit @i's run in its first mode, or NULL (a failure counted). */
static struct exrun *exhibit_opened(int i)
{
	struct exrun *x = exhibit_run(i, tour.v[i].modes[0], false);
	if (x->ok)
		return x;
	failures++;
	return NULL;
}

/* Every exhibit, as it opens. */
static void test_view_text_fit_exhibits(void **state)
{
	failures = 0;
	for (int i = 0; i < tour.n; i++) {
		const struct km_exhibit *e = &tour.v[i];
		struct exrun *x = exhibit_opened(i);
		if (!x)
			continue;
		char what[400];
		snprintf(what, sizeof(what), "exhibit %d (%s)", i + 1, e->title);
		/* a run that loses an update opens on it (the 2003 exhibit once
		 * opened on its first sleep-in-atomic) */
		bool lost = false;
		for (size_t k = 0; k < x->m.nviols; k++)
			lost |= x->m.recs[x->m.viols[k]].aux == KM_V_LOST_UPDATE;
		size_t key;
		if (lost && (km_vm_key_moment(&x->m, &key) != KM_VM_KEY_VIOLATION ||
			     x->m.recs[key].aux != KM_V_LOST_UPDATE)) {
			fprintf(stderr, "  %s: loses updates but opens elsewhere\n", what);
			failures++;
		}
		each_size(what, e, x, NULL, 0, NULL);
	}
	assert_int_equal(failures, 0);
}

/*
 * Every exhibit zoomed in, as the window shows it after End (the playhead
 * at the run's end, the view on a part of it): the names on the slices
 * that run on past the view's right edge stay on the lanes -- "sr/3" was
 * once drawn beside the figures panel, "sd/4" half under it, in the 1992
 * exhibit at 1600x1000.  The views end at odd fractions of the run, so
 * that their edges fall inside slices.
 */
static void test_view_text_fit_zoomed(void **state)
{
	failures = 0;
	static const int part[][2] = { { 0, 9 }, { 3, 7 }, { 5, 11 } };	/* t0, t1 in 1/16ths */
	static size_t turn;
	size_t nsizes = sizeof(sizes) / sizeof(sizes[0]);
	for (int i = 0; i < tour.n; i++) {
		const struct km_exhibit *e = &tour.v[i];
		struct exrun *x = exhibit_opened(i);
		if (!x)
			continue;
		struct km_view_exhibit vex;
		km_cli_exhibit_of(&vex, e);
		for (size_t si = 0; si < nsizes; si++) {
			if (one_size() && si != turn++ % nsizes)
				continue;
			for (size_t ki = 0; ki < sizeof(scales) / sizeof(scales[0]); ki++) {
				for (size_t p = 0; p < sizeof(part) / sizeof(part[0]); p++) {
					struct km_view_state st;
					bind(&st, &eras, x, sizes[si][0], sizes[si][1], scales[ki]);
					km_time end = x->m.end;
					st.t0 = end / 16 * part[p][0];
					st.t1 = end / 16 * part[p][1] + end / 37;
					st.whole = false;
					st.play = end;
					struct km_view_frame fr = { .eras = &eras, .ex = &vex,
								    .run = &x->run };
					char pic[512];
					snprintf(pic, sizeof(pic), "exhibit %d (%s), %dx%d%s, zoomed on "
						 "%d/16 to %d/16 of the run", i + 1, e->title,
						 sizes[si][0], sizes[si][1],
						 scales[ki] > 1 ? " --scale 2" : "", part[p][0],
						 part[p][1]);
					draw(pic, &fr, &st);
				}
			}
		}
	}
	assert_int_equal(failures, 0);
}

/* The compare view: each exhibit's modes side by side, all six where
 * it names one mode only (what Tab shows). */
static void test_view_text_fit_compare(void **state)
{
	failures = 0;
	for (int i = 0; i < tour.n; i++) {
		const struct km_exhibit *e = &tour.v[i];
		int modes[KM_VIEW_MAX_COMPARE], n = 0;
		if (e->nmodes > 1)
			for (int k = 0; k < e->nmodes && n < KM_VIEW_MAX_COMPARE; k++)
				modes[n++] = e->modes[k];
		else
			for (int k = KM_MODE_NATIVE; k < KM_PRIM_COUNT && n < KM_VIEW_MAX_COMPARE; k++)
				modes[n++] = k;
		struct exrun *x[KM_VIEW_MAX_COMPARE];
		int ok = 0;
		for (int k = 0; k < n; k++) {
			x[ok] = exhibit_run(i, modes[k], true);
			if (x[ok]->ok)	/* else refused in this era: not shown */
				ok++;
		}
		if (ok > 1) {
			char what[400];
			snprintf(what, sizeof(what), "compare of exhibit %d (%s)", i + 1, e->title);
			each_size(what, e, x[0], x, ok, NULL);
		}
	}
	assert_int_equal(failures, 0);
}

/* The play view, at its first question, once the goal is reached (the
 * green box, its schedule saved or not) and once the run ended short of
 * it; with the scenario's title and goal, as the window draws them (the
 * title on two lines at --scale 2 leaves the panel less room: the box
 * was once drawn over the keys there). */
static void test_view_text_fit_play(void **state)
{
	failures = 0;
	static const char *const files[] = { "rename_abba.lua", "cli_smp.lua" };
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		static struct km_exhibit e;
		memset(&e, 0, sizeof(e));
		int n = snprintf(e.file, sizeof(e.file), "%s/scripts/challenges/%s", km_datadir(),
				 files[i]);
		assert_true(n > 0 && (size_t)n < sizeof(e.file));
		e.nmodes = 1;
		for (int round = 0; round < 2; round++) {
			struct km_play play;
			km_play_init(&play);
			struct exrun x;
			exrun_start(&x, &eras, &e, KM_MODE_NATIVE, &play, false);
			/* the second round: another task first, then run out */
			for (int k = 0; round && k < 2 && x.ok && play.paused; k++) {
				int next = k == 0 && km_play_options(&play.q) > 1 ? 1 : 0;
				exrun_free(&x);
				if (km_play_answer(&play, next, k == 1) < 0)
					break;
				exrun_start(&x, &eras, &e, KM_MODE_NATIVE, &play, false);
			}
			if (x.ok) {
				/* as the window shows it: the scenario's title in
				 * the top bar (two lines at --scale 2: a shorter
				 * panel), its goal in the panel */
				snprintf(e.title, sizeof(e.title), "%s",
					 x.s.ri.title ? x.s.ri.title : "");
				km_cli_play_goal(&play, x.s.sc);
				char why[600] = "";
				struct km_view_play_frame pf = { .play = &play, .why = why,
								 .save_path = "out/x.schedule" };
				pf.reached = !play.paused && km_play_goal(&x.s.ri, why, sizeof(why));
				/* the goal box must be among the pictures: the
				 * first challenge's run out reaches its goal */
				if (round && i == 0 && !pf.reached) {
					fprintf(stderr, "  play %s: the run out missed the goal: no "
						"goal box drawn\n", files[i]);
					failures++;
				}
				char what[400];
				snprintf(what, sizeof(what), "play %s, %s", files[i],
					 round ? "run out" : "first question");
				each_size(what, &e, &x, NULL, 0, &pf);
				if (pf.reached) {	/* and once W has saved it */
					pf.saved = true;
					snprintf(what, sizeof(what), "play %s, run out, saved", files[i]);
					each_size(what, &e, &x, NULL, 0, &pf);
				}
			} else {
				failures++;
			}
			exrun_free(&x);
			km_play_free(&play);
		}
	}
	assert_int_equal(failures, 0);
}

/* Each exhibit's picture, as `tour --out` draws it
 * (km_cli_png_exhibit_modes), draws every mode the exhibit lists: its
 * name in the compare view's gutter, or in the title bar ("mode X"). */
static void test_view_tour_pngs_draw_their_modes(void **state)
{
	char path[PATH_MAX], err[512];
	snprintf(path, sizeof(path), "%s/tour-test-%d.png", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
		 (int)getpid());
	int missing = 0;
	for (int i = 0; i < tour.n; i++) {
		const struct km_exhibit *e = &tour.v[i];
		struct km_session s[KM_TOUR_MODES];
		int n = 0, main_run = 0;
		for (int k = 0; k < e->nmodes; k++) {
			struct exrun *x = exhibit_run(i, e->modes[k], false);
			assert_true(x->ok);
			if (e->fails[k] && !e->fails[main_run])
				main_run = n;
			s[n] = x->s;
			n++;
		}
		struct km_view_exhibit vex;
		km_cli_exhibit_of(&vex, e);
		km_text_record(true);
		assert_int_equal(km_cli_png_exhibit_modes(&eras, &vex, s, n, main_run, path, 1280, 800,
							  err, sizeof(err)), 0);
		size_t nb;
		const struct km_text_box *v = km_text_boxes(&nb);
		for (int k = 0; k < e->nmodes; k++) {
			const char *name = km_mode_name(e->modes[k]);
			char in_title[64];
			snprintf(in_title, sizeof(in_title), "mode %s", name);
			bool drawn = false;
			for (size_t b = 0; b < nb && !drawn; b++)
				drawn = v[b].s && (!strcmp(v[b].s, name) || strstr(v[b].s, in_title));
			if (!drawn) {
				fprintf(stderr, "  exhibit %d (%s): its PNG does not draw mode %s\n", i + 1,
					e->title, name);
				missing++;
			}
		}
		km_text_record(false);
	}
	unlink(path);
	assert_int_equal(missing, 0);
}

/* compare --plot: round ticks (1, 2 or 5 times a power of ten apart),
 * and a legend of the lines drawn, naming the modes with no line. */
static void test_view_plot_ticks_and_legend(void **state)
{
	json_t *table = json_pack("{s:s, s:[{s:s,s:s,s:i,s:s,s:f,s:i}, {s:s,s:s,s:i,s:s,s:f,s:i},"
				  " {s:s,s:s,s:i,s:s}]}",
				  "scenario", "kmod", "runs",
				  "mode", "native", "era", "2023", "cpus", 64, "outcome", "completed",
				  "acquisitions_per_s", 161.8, "wait_avg_ns", 13820000,
				  "mode", "native", "era", "2023", "cpus", 512, "outcome", "completed",
				  "acquisitions_per_s", 143020.0, "wait_avg_ns", 33810000,
				  "mode", "mutex", "era", "2023", "cpus", 64, "outcome", "not-applicable");
	assert_non_null(table);
	char err[512], path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/plot-test-%d.png", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
		 (int)getpid());
	km_text_record(true);
	assert_int_equal(km_view_plot_png(table, path, 1600, 800, err, sizeof(err)), 0);
	unlink(path);
	size_t n;
	const struct km_text_box *v = km_text_boxes(&n);
	regex_t rate, ms;
	assert_int_equal(regcomp(&rate, "^([0-9.]+)(k|M)?/s$", REG_EXTENDED), 0);
	assert_int_equal(regcomp(&ms, "^([0-9.]+) ms$", REG_EXTENDED), 0);
	double r[16], w[16];
	int nr = 0, nw = 0;
	bool native = false, mutex_line = false, mutex_named = false;
	for (size_t i = 0; i < n; i++) {
		if (!v[i].s)
			continue;
		regmatch_t m[3];
		if (!regexec(&rate, v[i].s, 3, m, 0) && nr < 16) {
			double x = atof(v[i].s + m[1].rm_so);
			if (m[2].rm_so >= 0)
				x *= v[i].s[m[2].rm_so] == 'k' ? 1e3 : 1e6;
			r[nr++] = x;
		} else if (!regexec(&ms, v[i].s, 2, m, 0) && nw < 16) {
			w[nw++] = atof(v[i].s + m[1].rm_so);
		}
		native |= !strcmp(v[i].s, "native");
		mutex_line |= !strcmp(v[i].s, "mutex");
		mutex_named |= strstr(v[i].s, "no line: mutex (not-applicable)") != NULL;
	}
	km_text_record(false);
	regfree(&rate);
	regfree(&ms);
	json_decref(table);
	assert_true(nr >= 3 && nw >= 3);
	double *axes[2] = { r, w };
	int counts[2] = { nr, nw };
	for (int a = 0; a < 2; a++) {
		double step = axes[a][1] - axes[a][0];
		double p = pow(10, floor(log10(step))), f = step / p;
		assert_true(fabs(f - 1) < 1e-6 || fabs(f - 2) < 1e-6 || fabs(f - 5) < 1e-6);
		for (int k = 1; k < counts[a]; k++)
			assert_true(fabs(axes[a][k] - axes[a][k - 1] - step) < step * 1e-6);
	}
	assert_true(native);
	assert_false(mutex_line);	/* no line: not in the legend as one */
	assert_true(mutex_named);
}

/*
 * The era ribbon's milestones, at every supported size, as designed and in
 * projector mode where the ribbon keeps its rows (--scale 1.25): each label
 * drawn is whole and alone -- no other text over it, no leader line or
 * marker through it (a leader through the 1991 one once sliced it)
 * -- and every milestone is either drawn or counted by the visible "+N not
 * shown" under the ribbon's "milestones".
 */
static void test_view_ribbon_milestones(void **state)
{
	failures = 0;
	const float rscales[] = { 1.0f, 1.25f };
	int nms = 0;
	while (km_view_milestone(nms))
		nms++;
	assert_true(nms > 10);
	/* two exhibits: the spotlight's era changes nothing but the band */
	for (int i = 0; i < tour.n; i += tour.n - 1) {
		const struct km_exhibit *e = &tour.v[i];
		struct exrun x;
		exrun_start(&x, &eras, e, e->modes[0], NULL, false);
		assert_true(x.ok);
		struct km_view_exhibit vex;
		km_cli_exhibit_of(&vex, e);
		for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
			for (size_t ki = 0; ki < 2; ki++) {
				struct km_view_state st;
				bind(&st, &eras, &x, sizes[si][0], sizes[si][1], rscales[ki]);
				if (rscales[ki] > 1) {
					st.projector = true;
					km_view_layout(&st);
				}
				if (!st.lay.rib_rows)
					continue;
				struct km_view_frame fr = { .eras = &eras, .ex = &vex, .run = &x.run,
							    .still = true };
				char pic[128], err[512];
				snprintf(pic, sizeof(pic), "ribbon of exhibit %d, %dx%d at scale %.2f",
					 i + 1, sizes[si][0], sizes[si][1], rscales[ki]);
				km_text_record(true);
				SDL_Surface *sf = km_view_render_surface(&fr, &st, err, sizeof(err));
				assert_non_null(sf);
				size_t n;
				const struct km_text_box *v = km_text_boxes(&n);
				int drawn = 0, told = 0;
				for (size_t k = 0; k < n; k++) {
					const struct km_text_box *b = &v[k];
					if (!b->s)
						continue;
					int said = 0, end = -1;
					if (sscanf(b->s, "+%d not shown%n", &said, &end) == 1 && end > 0 &&
					    !b->s[end]) {
						told = said;
						continue;
					}
					bool ms = false;
					for (int j = 0; j < nms && !ms; j++)
						ms = !strcmp(b->s, km_view_milestone(j));
					if (!ms)
						continue;
					drawn++;
					if (b->cut)
						flag(pic, b, "cut with an ellipsis");
					for (size_t o = 0; o < n; o++) {
						const struct km_text_box *c = &v[o];
						if (o == k || !overlap(&b->r, &c->r, c->s ? 1 : 0))
							continue;
						if (c->s) {
							flag(pic, b, "overlaps \"%s\"", c->s);
							break;
						}
						/* a line or a marker (thin) through the label;
						 * the panel and the spotlight are its ground */
						if (!c->picture && (c->r.w <= 3 || c->r.h <= 3)) {
							flag(pic, b, "crossed by a line at %d,%d %dx%d",
							     c->r.x, c->r.y, c->r.w, c->r.h);
							break;
						}
					}
				}
				if (drawn + told != nms) {
					fprintf(stderr, "  %s: %d milestones drawn, %d said not shown, of %d\n",
						pic, drawn, told, nms);
					failures++;
				}
				km_text_record(false);
				SDL_FreeSurface(sf);
			}
		}
		exrun_free(&x);
		if (tour.n < 2)
			break;
	}
	assert_int_equal(failures, 0);
}

static bool drew(const char *want)
{
	size_t n;
	const struct km_text_box *v = km_text_boxes(&n);
	for (size_t k = 0; k < n; k++)
		if (v[k].s && !strcmp(v[k].s, want))
			return true;
	return false;
}

static void press(struct km_view_state *st, SDL_Keycode k)
{
	SDL_Event e = { 0 };
	e.type = SDL_KEYDOWN;
	e.key.keysym.sym = k;
	km_view_handle_event(st, &e);
}

/*
 * Idle CPUs folded into one lane, as Perfetto folds empty tracks: in every
 * exhibit, a CPU is folded exactly when the core's own accounting has it
 * running, spinning and in interrupts under 0.5% of the run (what the
 * figures show as "busy 0%") and idle 90% of it at least, two at least; the picture names the folded
 * lane "N idle CPUs" and no folded CPU has a lane of its own; I unfolds
 * (rows for every CPU again) and folds again.  The mlx5 exhibit, whose
 * PNG gave a third of its area to 63 empty lanes, must fold.
 */
static void test_view_idle_cpus_fold(void **state)
{
	int folded_exhibits = 0;
	for (int i = 0; i < tour.n; i++) {
		const struct km_exhibit *e = &tour.v[i];
		struct exrun x;
		exrun_start(&x, &eras, e, e->modes[0], NULL, false);
		assert_true(x.ok);
		const struct km_sim *sim = x.s.ri.sim;
		double end = (double)sim->now;
		int quiet = 0;
		bool is_quiet[KM_MAX_CPUS] = { false };
		for (int c = 0; c < sim->ncpus; c++) {
			const km_time *a = sim->cpus[c].acct;
			double work = (double)a[KM_CPU_BUSY] + (double)a[KM_CPU_SPIN] + (double)a[KM_CPU_IRQ];
			is_quiet[c] = work * 200 < end && (double)a[KM_CPU_IDLE] * 10 >= end * 9;
			quiet += is_quiet[c];
		}
		struct km_view_exhibit vex;
		km_cli_exhibit_of(&vex, e);
		struct km_view_state st;
		bind(&st, &eras, &x, 1920, 1080, 1.0f);
		const struct km_view_layout *L = &st.lay;
		int want = quiet >= 2 ? quiet : 0;
		if (L->cpu_fold != want)
			fprintf(stderr, "  exhibit %d (%s): %d CPUs folded, the core counts %d idle\n",
				i + 1, e->title, L->cpu_fold, quiet);
		assert_int_equal(L->cpu_fold, want);
		struct km_view_frame fr = { .eras = &eras, .ex = &vex, .run = &x.run, .still = true };
		char err[512], name[64];
		km_text_record(true);
		SDL_Surface *sf = km_view_render_surface(&fr, &st, err, sizeof(err));
		assert_non_null(sf);
		SDL_FreeSurface(sf);
		if (want) {
			folded_exhibits += strstr(e->file, "mlx5") != NULL;
			snprintf(name, sizeof(name), "%d idle CPUs", want);
			assert_true(drew(name));
			for (int c = 0; c < sim->ncpus; c++) {
				snprintf(name, sizeof(name), "CPU%d", c);
				if (is_quiet[c])
					assert_false(drew(name));
				/* every folded CPU is drawn in the last row */
				assert_int_equal(km_view_cpu_row(&st, c) == L->cpu_rows - 1 &&
							 L->cpus_per_row == 1, is_quiet[c] &&
							 L->cpus_per_row == 1);
			}
			/* I: a lane each */
			press(&st, SDLK_i);
			assert_int_equal(L->cpu_fold, 0);
			sf = km_view_render_surface(&fr, &st, err, sizeof(err));
			assert_non_null(sf);
			SDL_FreeSurface(sf);
			snprintf(name, sizeof(name), "%d idle CPUs", want);
			assert_false(drew(name));
			assert_true(drew("CPU0"));
			assert_true(L->cpu_rows * L->cpus_per_row >= sim->ncpus);
			press(&st, SDLK_i);
			assert_int_equal(L->cpu_fold, want);
		}
		km_text_record(false);
		exrun_free(&x);
	}
	assert_true(folded_exhibits >= 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_view_text_fit_exhibits),
		cmocka_unit_test(test_view_text_fit_zoomed),
		cmocka_unit_test(test_view_text_fit_compare),
		cmocka_unit_test(test_view_text_fit_play),
		cmocka_unit_test(test_view_plot_ticks_and_legend),
		cmocka_unit_test(test_view_tour_pngs_draw_their_modes),
		cmocka_unit_test(test_view_ribbon_milestones),
		cmocka_unit_test(test_view_idle_cpus_fold),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
