/*
 * view_app.c - the window's application: what it shows and runs.
 *
 * The window (view_window.c) hands every event to the pure state machine
 * (km_view_handle_event) and then asks this file to fulfil what it
 * requested (km_view_app_requests): a new run, the compare runs, a play
 * decision, a screenshot; and to draw (km_view_app_draw).
 *
 * Runs come from the host (km_view_host.rerun): the view never touches a
 * simulator except through the const pointers of a finished run.  A
 * re-run happens synchronously -- the museum's runs take milliseconds to
 * a second or two -- with a "running..." card drawn first so the visitor
 * knows the key was heard.  If the host cannot run it (the era had no
 * such primitive, say), its one-line reason is shown and the previous run
 * stays on screen.
 *
 * Play mode (G, or play --gui) is the game of ../report/play_state.h in
 * the window: the app keeps the decisions (a struct km_play), and each
 * answer, undo or run-to-the-end is one new run from the host
 * (km_view_host.play_run) that stops at the next question or ends; it
 * replaces the run on screen like a mode switch, with the playhead at
 * the question.  Answers are applied one input event at a time, so keys
 * typed faster than a frame are each heard.  Saving goes through the
 * host too (play_save): the schedule file is the command line's format.
 *
 * High DPI: the window is created with SDL_WINDOW_ALLOW_HIGHDPI and the
 * state works in the renderer's output pixels; the ratio of output to
 * window size converts mouse coordinates and scales the fonts.
 */
#include "view_app.h"
#include "view_render.h"
#include "view_inspect.h"

#include "../era.h"
#include "../report/play_state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool km_view_have_display(void)
{
	const char *x = getenv("DISPLAY"), *w = getenv("WAYLAND_DISPLAY");
	return (x && *x) || (w && *w);
}

static void toast(struct app *a, const char *msg)
{
	a->toast_bad = strncmp(msg, "saved ", 6) != 0;
	snprintf(a->toast, sizeof(a->toast), "%s", msg);
	a->toast_until = SDL_GetTicks64() + 5000;
}

static void shown_free(struct app *a, struct shown *s)
{
	if (!s->live)
		return;
	km_vm_free(&s->m);
	if (a->host->release)
		a->host->release(a->host->ud, &s->run);
	memset(s, 0, sizeof(*s));
}

static void compare_free(struct app *a)
{
	for (int i = 0; i < a->ncmp; i++)
		shown_free(a, &a->cmp[i]);
	a->ncmp = 0;
	km_view_state_set_compare(&a->st, NULL, 0);
}

static const struct km_view_exhibit *exhibit(const struct app *a)
{
	return a->nex ? &a->ex[a->st.exhibit] : &a->solo;
}

void km_view_app_draw(struct app *a, const char *status)
{
	struct km_view_frame f = {
		.eras = a->eras, .ex = exhibit(a), .exhibit = a->st.exhibit, .nexhibits = a->nex,
		.run = a->cur.live ? &a->cur.run : NULL,
		.cmp_why = a->whyp, .ncmp = a->ncmp, .status = status,
		.toast = SDL_GetTicks64() < a->toast_until ? a->toast : NULL,
		.toast_bad = a->toast_bad,
		.play = a->play ? &a->pf : NULL,
	};
	/* what wraps is measured while drawing: a change redraws (twice
	 * at most, see km_view_measured) */
	km_draw_frame(a->d, &f, &a->st);
	for (int i = 0; i < 2 && km_view_measured(&a->st, &a->d->meas); i++) {
		a->d->key.valid = false;	/* the lanes moved: their pixels too */
		km_draw_frame(a->d, &f, &a->st);
	}
}

/* Show a card while the host runs something. */
static void busy(struct app *a, const char *what)
{
	km_view_app_draw(a, what);
	SDL_RenderPresent(a->r);
}

/* The title bar says what is on screen: the scenario, its era and mode,
 * so a window never passes for a different run from the one asked for. */
static void set_title(struct app *a)
{
	const struct km_run_info *ri = a->cur.run.ri;
	char title[512];
	const char *sched = ri->schedule ? strrchr(ri->schedule, '/') : NULL;
	sched = sched ? sched + 1 : ri->schedule;
	snprintf(title, sizeof(title), "lockmuseum - %s (era %s, mode %s, %d CPU%s%s%s%s)",
		 ri->title && *ri->title ? ri->title : ri->scenario ? ri->scenario : "?",
		 ri->era ? ri->era->id : "?", km_mode_name(ri->mode), ri->cpus,
		 ri->cpus == 1 ? "" : "s", sched ? ", schedule " : "", sched ? sched : "",
		 !a->play ? "" : a->play->paused ? ", play" : a->pf.saved ? ", play, saved" :
		 a->pf.reached ? ", play, goal reached" : ", play, ended");
	SDL_SetWindowTitle(a->win, title);
}

/* Run exhibit @ei in era @era_idx (-1: its own) with @mode into @out. */
static int run_one(struct app *a, int ei, int era_idx, int mode, struct shown *out,
		   char *err, size_t errlen)
{
	const struct km_view_exhibit *ex = a->nex ? &a->ex[ei] : &a->solo;
	const char *era = era_idx >= 0 && era_idx < a->eras->n ? a->eras->v[era_idx].id : ex->era;
	memset(out, 0, sizeof(*out));
	if (a->host->rerun(a->host->ud, ex, era, mode, &out->run, err, errlen) < 0)
		return -1;
	if (km_vm_build(&out->m, out->run.ri, err, errlen) < 0) {
		if (a->host->release)
			a->host->release(a->host->ud, &out->run);
		return -1;
	}
	out->live = true;
	return 0;
}

/* Replace the run on screen; on failure keep it and say why. */
static int switch_to(struct app *a, int ei, int era_idx, int mode)
{
	char err[1024], what[256];
	const struct km_view_exhibit *ex = a->nex ? &a->ex[ei] : &a->solo;
	snprintf(what, sizeof(what), "running %s in %s, mode %s ...",
		 ex->title ? ex->title : ex->file,
		 era_idx >= 0 && era_idx < a->eras->n ? a->eras->v[era_idx].id : ex->era ? ex->era : "its era",
		 km_mode_name(mode));
	busy(a, what);
	struct shown next;
	if (run_one(a, ei, era_idx, mode, &next, err, sizeof(err)) < 0) {
		toast(a, err);
		if (!a->host->release && a->cur.live) {
			/* the host may have dropped the old run: run it again */
			struct shown again;
			a->cur.live = false;
			if (run_one(a, a->st.exhibit, a->st.era, a->st.mode, &again, err, sizeof(err)) == 0) {
				a->cur = again;
				km_view_state_bind(&a->st, &a->cur.m, a->st.era, a->st.mode);
			}
		}
		return -1;
	}
	bool had_compare = a->ncmp > 0;
	compare_free(a);
	struct shown old = a->cur;
	int old_cpus = old.live && old.run.ri ? old.run.ri->cpus : 0;
	bool same_exhibit = old.live && ei == a->st.exhibit;
	a->cur = next;
	a->st.exhibit = ei;
	km_view_state_bind(&a->st, &a->cur.m, km_view_era_index(a->eras, a->cur.run.ri->era),
			   a->cur.run.ri->mode);
	if (old.live) {
		/* the model was moved: free the old one where it now lives */
		km_vm_free(&old.m);
		if (a->host->release)
			a->host->release(a->host->ud, &old.run);
	}
	if (had_compare || a->st.compare)
		a->st.req |= KM_VREQ_COMPARE;
	set_title(a);
	const struct km_run_info *ri = a->cur.run.ri;
	if (same_exhibit && old_cpus && ri->cpus != old_cpus) {
		/* the host keeps the CPU count across eras where it can; where
		 * it could not, say why the machine changed under the visitor */
		char why[256];
		if (ri->era && !ri->era->smp)
			snprintf(why, sizeof(why), "%d CPU%s, not %d: Linux %s (%s) ran on one CPU",
				 ri->cpus, ri->cpus == 1 ? "" : "s", old_cpus, ri->era->version,
				 ri->era->id);
		else
			snprintf(why, sizeof(why), "%d CPU%s, not %d: this run's own machine",
				 ri->cpus, ri->cpus == 1 ? "" : "s", old_cpus);
		toast(a, why);
	}
	return 0;
}

/* The compare view's runs: the exhibit's modes, else all six. */
static void compare_load(struct app *a)
{
	compare_free(a);
	if (!a->host->release) {
		toast(a, "the compare view needs a host that keeps several runs");
		a->st.compare = false;
		km_view_layout(&a->st);
		return;
	}
	const struct km_view_exhibit *ex = exhibit(a);
	int modes[KM_VIEW_MAX_COMPARE], n = 0;
	if (ex->nmodes > 1)
		for (int i = 0; i < ex->nmodes && n < KM_VIEW_MAX_COMPARE; i++)
			modes[n++] = ex->modes[i];
	else
		for (int i = 0; i < KM_VIEW_MODES && n < KM_VIEW_MAX_COMPARE; i++)
			modes[n++] = km_view_modes[i];
	const struct km_view_model *mp[KM_VIEW_MAX_COMPARE];
	for (int i = 0; i < n; i++) {
		char what[128], err[1024];
		snprintf(what, sizeof(what), "compare: running mode %s (%d of %d) ...",
			 km_mode_name(modes[i]), i + 1, n);
		busy(a, what);
		a->whyp[i] = NULL;
		if (run_one(a, a->st.exhibit, a->st.era, modes[i], &a->cmp[i], err, sizeof(err)) < 0) {
			/* name the mode, unless the reason already does */
			if (!strncmp(err, "mode ", 5))
				snprintf(a->why[i], sizeof(a->why[i]), "%.250s", err);
			else
				snprintf(a->why[i], sizeof(a->why[i]), "%s: %.200s",
					 km_mode_name(modes[i]), err);
			a->whyp[i] = a->why[i];
			mp[i] = NULL;
		} else {
			mp[i] = &a->cmp[i].m;
		}
	}
	a->ncmp = n;
	km_view_state_set_compare(&a->st, mp, n);
}

static void screenshot(struct app *a)
{
	char path[64], err[512];
	for (int i = a->shots + 1; i < 1000; i++) {
		snprintf(path, sizeof(path), "lockmuseum-%03d.png", i);
		if (access(path, F_OK) != 0) {
			a->shots = i;
			break;
		}
	}
	km_view_app_draw(a, NULL);
	SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, a->st.w, a->st.h, 32, SDL_PIXELFORMAT_ARGB8888);
	if (!s || SDL_RenderReadPixels(a->r, NULL, SDL_PIXELFORMAT_ARGB8888, s->pixels, s->pitch) < 0) {
		snprintf(err, sizeof(err), "screenshot failed: %s", SDL_GetError());
		toast(a, err);
	} else if (km_view_save_png(s, path, err, sizeof(err)) < 0) {
		toast(a, err);
	} else {
		char msg[128];
		snprintf(msg, sizeof(msg), "saved %s", path);
		toast(a, msg);
	}
	SDL_FreeSurface(s);
}

void km_view_app_sizes(struct app *a)
{
	int ww, wh, ow, oh;
	SDL_GetWindowSize(a->win, &ww, &wh);
	if (SDL_GetRendererOutputSize(a->r, &ow, &oh) < 0) {
		ow = ww;
		oh = wh;
	}
	km_view_state_resize(&a->st, ow, oh, ww > 0 ? (float)ow / (float)ww : 1.0f);
}

/* ---------------------------------------------------------------- play -- */

/* For the window tests (LOCKMUSEUM_VIEW_DUMP): the question, with where
 * each option is on screen (window coordinates), or how the run ended. */
static void play_dump(const struct app *a)
{
	const char *e = getenv("LOCKMUSEUM_VIEW_DUMP");
	if (!e || !*e || !a->play || !a->cur.live)
		return;
	const struct km_play *p = a->play;
	const struct km_view_model *m = &a->cur.m;
	const struct km_view_state *st = &a->st;
	float dpi = st->dpi > 0 ? st->dpi : 1.0f;
	if (p->paused) {
		printf("play: question %u task %s line %d\n", p->q.index, km_vm_ctx_name(m, p->q.ctx),
		       p->q.line);
		/* the options in sight; an interrupt as "irq NAME" */
		for (int i = 0; i < km_play_options(&p->q); i++) {
			int y = km_view_play_row_y(st, i);
			if (y < 0)
				continue;
			char irq[KM_PLAY_IRQ_NAME + 8];
			if (i > p->q.nothers)
				snprintf(irq, sizeof(irq), "irq %s", p->q.irqs[i - 1 - p->q.nothers].name);
			printf("play: option %d %s %d %d\n", i,
			       i > p->q.nothers ? irq :
			       km_vm_ctx_name(m, i ? p->q.others[i - 1] : p->q.ctx),
			       (int)((float)(st->lay.placard.x + st->lay.placard.w / 2) / dpi),
			       (int)((float)(y + st->lay.play_row_h / 2) / dpi));
		}
	} else {
		printf("play: ended %s holds %d goal %s\n", km_outcome_name(a->cur.run.ri->outcome),
		       p->n, a->pf.reached ? "reached" : "not-reached");
	}
	printf("play: end\n");
	fflush(stdout);
}

/* Run the game's decisions so far; on screen, the run up to the next
 * question, or to its end.  On failure the previous run stays. */
static int play_step(struct app *a)
{
	char err[1024];
	const struct km_view_exhibit *ex = exhibit(a);
	const char *era = a->st.era >= 0 && a->st.era < a->eras->n ? a->eras->v[a->st.era].id
								   : ex->era;
	struct shown next;
	memset(&next, 0, sizeof(next));
	if (a->host->play_run(a->host->ud, ex, era, a->st.mode, a->play, &next.run, err,
			      sizeof(err)) < 0) {
		toast(a, err);
		return -1;
	}
	if (km_vm_build(&next.m, next.run.ri, err, sizeof(err)) < 0) {
		a->host->release(a->host->ud, &next.run);
		toast(a, err);
		return -1;
	}
	next.live = true;
	struct shown old = a->cur;
	a->cur = next;
	km_view_state_bind(&a->st, &a->cur.m, km_view_era_index(a->eras, a->cur.run.ri->era),
			   a->cur.run.ri->mode);
	if (old.live) {
		km_vm_free(&old.m);
		a->host->release(a->host->ud, &old.run);
	}
	const struct km_play *p = a->play;
	const struct km_run_info *ri = a->cur.run.ri;
	km_time end = p->paused ? p->q.now : ri->sim ? ri->sim->now : 0;
	km_view_play_question(&a->st, p->paused ? km_play_options(&p->q) : 0);
	a->st.playing = false;
	a->st.has_focus = false;
	a->st.play = end;
	a->st.t0 = 0;
	a->st.t1 = end + end / 8 + 1000;
	a->pf.saved = false;
	a->pf.reached = !p->paused && km_play_goal(ri, a->play_why, sizeof(a->play_why));
	a->pf.why = a->play_why;
	if (!a->host->play_save_path)
		km_play_default_path(ri->scenario, a->play_path, sizeof(a->play_path));
	set_title(a);
	play_dump(a);
	return 0;
}

static void play_leave(struct app *a)
{
	if (!a->play)
		return;
	km_play_free(a->play);
	free(a->play);
	a->play = NULL;
	a->st.play_mode = false;
	km_view_play_question(&a->st, 0);
	km_view_layout(&a->st);
	if (switch_to(a, a->st.exhibit, a->st.era, a->st.mode) == 0)
		km_view_show_key_moment(&a->st);
}

static void play_enter(struct app *a)
{
	if (a->play)
		return;
	a->play = malloc(sizeof(*a->play));
	if (!a->play) {
		toast(a, "out of memory");
		return;
	}
	km_play_init(a->play);
	compare_free(a);
	a->st.compare = false;
	a->st.help = false;
	a->st.inspect = KM_INSPECT_NONE;
	a->st.play_mode = true;
	km_view_layout(&a->st);
	a->pf = (struct km_view_play_frame){ .play = a->play, .save_path = a->play_path };
	if (a->host->play_save_path)
		snprintf(a->play_path, sizeof(a->play_path), "%s", a->host->play_save_path);
	if (play_step(a) < 0) {
		km_play_free(a->play);
		free(a->play);
		a->play = NULL;
		a->st.play_mode = false;
		km_view_layout(&a->st);
	}
}

static void play_request(struct app *a, int cmd, int arg)
{
	if (cmd == KM_VPLAY_ENTER) {
		play_enter(a);
		return;
	}
	struct km_play *p = a->play;
	if (!p)
		return;
	char msg[1000];
	switch (cmd) {
	case KM_VPLAY_LEAVE:
		play_leave(a);
		break;
	case KM_VPLAY_ANSWER:
	case KM_VPLAY_TO_END: {
		if (!p->paused) {
			toast(a, "The run has ended: U undoes the last decision, W saves, G leaves.");
			break;
		}
		int k = cmd == KM_VPLAY_ANSWER ? arg : 0;
		int rc = km_play_answer(p, k, cmd == KM_VPLAY_TO_END);
		if (rc == -1) {
			snprintf(msg, sizeof(msg), "No option %d here: Enter, or 1 to %d.", k,
				 km_play_options(&p->q) - 1);
			toast(a, msg);
		} else if (rc < 0) {
			toast(a, "out of memory");
		} else {
			play_step(a);
		}
		break;
	}
	case KM_VPLAY_UNDO:
		if (!km_play_undo(p))
			toast(a, "Nothing to undo.");
		else
			play_step(a);
		break;
	case KM_VPLAY_SAVE: {
		char err[700];
		if (a->host->play_save(a->host->ud, p, &a->cur.run, a->play_path, err, sizeof(err)) < 0) {
			snprintf(msg, sizeof(msg), "could not save: %.600s", err);
			toast(a, msg);
			break;
		}
		a->pf.saved = true;
		set_title(a);
		snprintf(msg, sizeof(msg), "saved %.300s: run --schedule %.300s replays it", a->play_path,
			 a->play_path);
		toast(a, msg);
		if (getenv("LOCKMUSEUM_VIEW_DUMP") && *getenv("LOCKMUSEUM_VIEW_DUMP")) {
			printf("play: saved %s\n", a->play_path);
			fflush(stdout);
		}
		break;
	}
	default:
		break;
	}
}

void km_view_app_requests(struct app *a)
{
	unsigned req = a->st.req;
	a->st.req = 0;
	if (req & KM_VREQ_EXHIBIT) {
		int ei = a->st.want_exhibit;
		const struct km_view_exhibit *ex = &a->ex[ei];
		int mode = ex->nmodes > 0 ? ex->modes[0] : KM_MODE_NATIVE;
		const struct km_era *era = ex->era ? km_eras_find(a->eras, ex->era) : NULL;
		a->st.play = 0;
		a->st.playing = false;
		if (switch_to(a, ei, era ? km_view_era_index(a->eras, era) : -1, mode) == 0)
			km_view_show_key_moment(&a->st);
		if (a->st.req & KM_VREQ_COMPARE && !a->st.compare)
			a->st.req &= ~(unsigned)KM_VREQ_COMPARE;
	}
	if (req & KM_VREQ_RERUN)
		switch_to(a, a->st.exhibit, a->st.want_era, a->st.want_mode);
	if ((req | a->st.req) & KM_VREQ_COMPARE) {
		a->st.req &= ~(unsigned)KM_VREQ_COMPARE;
		if (a->st.compare)
			compare_load(a);
	}
	if (req & KM_VREQ_PLAY)
		play_request(a, a->st.play_cmd, a->st.play_arg);
	if (req & KM_VREQ_SCREENSHOT)
		screenshot(a);
}

/* ------------------------------------------------------- start, end -- */

int km_view_app_start(struct app *a, int first, char *err, size_t errlen)
{
	/* the first exhibit, in its own era and first mode */
	const struct km_view_exhibit *ex0 = exhibit(a);
	const struct km_era *era0 = ex0->era ? km_eras_find(a->eras, ex0->era) : NULL;
	if (switch_to(a, first, era0 ? km_view_era_index(a->eras, era0) : -1,
		      ex0->nmodes > 0 ? ex0->modes[0] : KM_MODE_NATIVE) < 0) {
		snprintf(err, errlen, "%s", a->toast);
		return -1;
	}
	km_view_show_key_moment(&a->st);
	const struct km_view_host *host = a->host;
	a->st.can_play = host->play_run && host->play_save && host->release;
	if (host->play_first) {
		if (!a->st.can_play) {
			snprintf(err, errlen, "this window cannot play");
			return -1;
		}
		play_enter(a);
		if (!a->play) {
			snprintf(err, errlen, "%s", a->toast);
			return -1;
		}
	}
	return 0;
}

void km_view_app_free(struct app *a)
{
	if (a->play) {
		km_play_free(a->play);
		free(a->play);
	}
	compare_free(a);
	shown_free(a, &a->cur);
}
