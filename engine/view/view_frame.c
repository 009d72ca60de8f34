/*
 * view_frame.c - one frame: the top bar, the event line, and the order in
 * which the panels are drawn.  The drawing context and its primitives are
 * view_draw.c's; the panels are one file each (view_panels.h).
 *
 * A frame is drawn from scratch each time (the lanes' pixels excepted,
 * see view_timeline.c): there is no retained scene to keep in step with
 * the state, so what is on screen is always a function of the frame's
 * inputs and the view state.  The headless PNG draws exactly one frame
 * with this code on a software renderer.
 */
#include "view_panels.h"
#include "../report/play_state.h"
#include "view_inspect.h"

#include "../era.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ top bar -- */

static void top_bar(struct km_draw *d, const struct km_view_frame *f, const struct km_view_state *st)
{
	const SDL_Rect *r = &st->lay.top;
	km_draw_fill(d, r->x, r->y, r->w, r->h, km_pal(KM_C_INK));
	int pad = km_draw_px(d, 12);
	int ty = r->y + (r->h - km_text_height(d->tx, KM_FONT_TITLE)) / 2;
	int by = r->y + (r->h - km_text_height(d->tx, KM_FONT_BODY)) / 2;
	const struct km_view_model *m = st->model;
	const struct km_run_info *ri = m ? m->ri : NULL;

	/* right: the run */
	int right = r->x + r->w - pad;
	char run[160] = "";
	if (ri && ri->era)
		snprintf(run, sizeof(run), "Linux %s (%s)  \xc2\xb7  mode %s  \xc2\xb7  %d CPU%s",
			 ri->era->version, ri->era->id, km_mode_name(ri->mode), ri->cpus,
			 ri->cpus == 1 ? "" : "s");
	/* left: the exhibit */
	const char *title = f->ex && f->ex->title ? f->ex->title : ri && ri->title ? ri->title : "lockmuseum";
	if (f->nexhibits > 1)
		snprintf(d->line, sizeof(d->line), "%d/%d  %s", f->exhibit + 1, f->nexhibits, title);
	else
		snprintf(d->line, sizeof(d->line), "%s", title);
	if (st->projector) {
		/* a lecture hall: the title wraps, the run under it when
		 * the two do not share a line, and the bar grows to hold them
		 * (the layout takes its height from d->meas) */
		int tw = r->w - 2 * pad, tlh = km_text_height(d->tx, KM_FONT_TITLE);
		int blh = km_text_height(d->tx, KM_FONT_BODY);
		int runw = *run ? km_text_width(d->tx, KM_FONT_BODY, run) + km_draw_px(d, 24) : 0;
		/* one row when the title fits beside the run, else the
		 * title over the whole width and the run under it */
		bool under = *run && (runw >= tw / 2 ||
				      km_draw_text_lines(d, KM_FONT_TITLE, d->line, tw - runw) > 1);
		int nt = km_draw_text_lines(d, KM_FONT_TITLE, d->line, under ? tw : tw - runw);
		int nr = under ? km_draw_text_lines(d, KM_FONT_BODY, run, tw) : 0;
		int need = 2 * km_draw_px(d, 4) + nt * tlh + nr * blh;
		d->meas.top_h = need;
		int y = r->y + (r->h - need) / 2 + km_draw_px(d, 4);
		km_draw_text_wrap(d, KM_FONT_TITLE, d->line, r->x + pad, y, under ? tw : tw - runw,
				  INT_MAX, 0xFFFFFF);
		if (*run && under)
			km_draw_text_wrap(d, KM_FONT_BODY, run, r->x + pad, y + nt * tlh, tw,
					  INT_MAX, km_pal(KM_C_HILITE));
		else if (*run)
			km_text_draw(d->tx, KM_FONT_BODY, run, right, y + (tlh - blh) / 2,
				     km_pal(KM_C_HILITE), KM_RIGHT);
	} else {
		if (*run)
			right -= km_text_draw(d->tx, KM_FONT_BODY, run, right, by, km_pal(KM_C_HILITE),
					      KM_RIGHT) + km_draw_px(d, 24);
		km_draw_text_fit(d, KM_FONT_TITLE, d->line, r->x + pad, ty, right - r->x - pad,
				 0xFFFFFF);
	}
	if (ri && ri->outcome == KM_OUT_DEADLOCK && !(st->compare && st->lay.ncmp)) {
		/* say it where nobody can miss it: over the run's own lanes.
		 * In the compare view the first panel is there, whichever
		 * run it shows; each panel says its own (view_compare.c). */
		SDL_Rect sr;
		if (km_draw_dead_stamp(d, st, &sr)) {
			/* on paper of its own: red on a spinning lane's
			 * vermillion is lost */
			km_draw_fill(d, sr.x, sr.y, sr.w, sr.h, km_pal(KM_C_BG));
			km_text_draw(d->tx, KM_FONT_TITLE, "DEADLOCK", sr.x + sr.w - km_draw_px(d, 4),
				     sr.y, km_pal(KM_C_BAD), KM_RIGHT);
		}
	}
}

bool km_draw_dead_stamp(struct km_draw *d, const struct km_view_state *st, SDL_Rect *r)
{
	const struct km_view_model *m = st->model;
	if (!m || !m->ri || m->ri->outcome != KM_OUT_DEADLOCK || (st->compare && st->lay.ncmp))
		return false;
	int dw = km_text_width(d->tx, KM_FONT_TITLE, "DEADLOCK"), dpad = km_draw_px(d, 4);
	int dx = st->lay.lanes.x + st->lay.lanes.w;
	*r = (SDL_Rect){ dx - dw - 2 * dpad, st->lay.axis.y + st->lay.axis.h + km_draw_px(d, 2),
			 dw + 2 * dpad, km_text_height(d->tx, KM_FONT_TITLE) };
	return true;
}

int km_draw_slice_end(struct km_draw *d, const struct km_view_state *st, int y, int h, int x1)
{
	int right = st->lay.lanes.x + st->lay.lanes.w;
	if (x1 > right)
		x1 = right;
	SDL_Rect sr;
	if (km_draw_dead_stamp(d, st, &sr) && y < sr.y + sr.h && y + h > sr.y && x1 > sr.x)
		x1 = sr.x;
	return x1;
}

/* Playback, in the corner left of the axis: state, time, speed. */
static void playback(struct km_draw *d, const struct km_view_frame *f,
		     const struct km_view_state *st)
{
	const struct km_view_model *m = st->model;
	const struct km_view_layout *L = &st->lay;
	char t[32], sp[32];
	km_time end = m ? m->end : 0;
	double speed = km_view_speed_ns(st);
	km_vm_fmt_time(m, st->play, t, sizeof(t));
	if (speed >= 1e6)
		snprintf(sp, sizeof(sp), "%.3g ms", speed / 1e6);
	else if (speed >= 1e3)
		snprintf(sp, sizeof(sp), "%.3g \xc2\xb5s", speed / 1e3);
	else
		snprintf(sp, sizeof(sp), "%.3g ns", speed);
	/* in play mode a run stopped at a question is not at its end */
	bool asking = f->play && f->play->play && f->play->play->paused;
	const char *what = asking ? "your move" : st->playing ? "\xe2\x96\xb6 playing" :
			   end && st->play >= end ? "\xe2\x96\xa0 end" :
			   "\xe2\x9d\x9a\xe2\x9d\x9a paused";
	int x = L->gutter.x, y = L->axis.y - km_draw_px(d, 2), w = L->gutter.w;
	int lh = km_text_height(d->tx, KM_FONT_SMALL) - km_draw_px(d, 1);
	uint32_t c = st->playing ? km_pal(KM_C_FOCUS) : km_pal(KM_C_INK);
	km_draw_text_fit(d, KM_FONT_BOLD, what, x, y, w, c);
	snprintf(d->line, sizeof(d->line), "t = %s", t);
	/* changes every frame while playing: from cached glyphs */
	km_text_draw_fast(d->tx, KM_FONT_SMALL, d->line, x, y + lh + km_draw_px(d, 2), km_pal(KM_C_INK), w);
	if (f->still)
		return;		/* no playback in a picture */
	snprintf(d->line, sizeof(d->line), "1 s shows %s", sp);
	km_draw_text_fit(d, KM_FONT_SMALL, d->line, x, y + 2 * lh + km_draw_px(d, 2), w, km_pal(KM_C_MUTED));
}

/* --------------------------------------------------------- event line -- */

/* One sentence of the event line: cut to one line, or, in projector
 * mode, wrapped over the three lines of the box, or more over the legend. */
#define KM_EVENT_LINES 3
static void say(struct km_draw *d, const struct km_view_state *st, enum km_font font,
		const char *s, int x, int y, int w, uint32_t rgb)
{
	if (st->projector) {
		/* a sentence longer than the box grows it upwards, over the
		 * legend, for as long as it is shown: nothing is cut, and the
		 * lanes do not jump from one event to the next */
		int n = km_draw_text_lines(d, font, s, w), lh = km_text_height(d->tx, font);
		const SDL_Rect *r = &st->lay.event;
		if (n > KM_EVENT_LINES) {
			int pad = km_draw_px(d, 6);
			const SDL_Rect *lg = &st->lay.legend;
			y = r->y + r->h - pad - n * lh;
			int top = y - pad;
			if (top > lg->y && top < lg->y + lg->h)
				top = lg->y;	/* the legend whole, not a sliver */
			km_draw_fill(d, r->x, top, r->w, r->y - top + 1, km_pal(KM_C_PANEL));
			km_draw_hline(d, r->x, r->x + r->w, top, km_pal(KM_C_GRID));
		}
		km_draw_text_wrap(d, font, s, x, y, w, INT_MAX, rgb);
	}
	else
		km_draw_text_fit(d, font, s, x, y, w, rgb);
}

/* A sentence about a lane or an event, indented under the focus bar: a
 * new one nearly every frame during playback, so drawn from cached glyphs
 * unless projector mode must wrap it. */
static void say_event(struct km_draw *d, const struct km_view_state *st, const char *desc,
		      int x, int y, int w)
{
	int in = km_draw_px(d, 4);
	if (st->projector)
		say(d, st, KM_FONT_BODY, desc, x + in, y, w - in, km_pal(KM_C_INK));
	else
		km_text_draw_fast(d->tx, KM_FONT_BODY, desc, x + in, y, km_pal(KM_C_INK), w - in);
}

static void event_line(struct km_draw *d, const struct km_view_frame *f,
		       const struct km_view_state *st)
{
	const SDL_Rect *r = &st->lay.event;
	km_draw_fill(d, r->x, r->y, r->w, r->h, km_pal(KM_C_PANEL));
	km_draw_hline(d, r->x, r->x + r->w, r->y, km_pal(KM_C_GRID));
	int lines = st->projector ? KM_EVENT_LINES : 1;
	int x = st->lay.gutter.x, y = r->y + (r->h - lines * km_text_height(d->tx, KM_FONT_BODY)) / 2;
	const struct km_view_model *m = st->model;
	int w = r->x + r->w - x - km_draw_px(d, 8);
	char desc[512];
	if (f->toast && *f->toast) {
		say(d, st, KM_FONT_BOLD, f->toast, x, y, w,
		    f->toast_bad ? km_pal(KM_C_BAD) : km_pal(KM_C_FOCUS));
		return;
	}
	if (m && st->compare && st->lay.ncmp) {
		say(d, st, KM_FONT_BODY, f->still ? "The same exhibit under each mode, on one "
		    "time axis: the shorter the rows, the sooner that mode was done."
		    : "Compare view: the same exhibit under each mode, on one time axis.  "
		      "Tab returns to the single run.", x, y, w, km_pal(KM_C_INK));
		return;
	}
	if (m && !st->has_hover && km_view_hint(st, desc, sizeof(desc))) {
		/* a place, not an event: what happens on the lane there */
		say_event(d, st, desc, x, y, w);
		return;
	}
	if (m && (st->has_hover || st->has_focus) && m->nrecs) {
		size_t i = st->has_hover ? st->hover : st->focus;
		km_vm_describe(m, i, desc, sizeof(desc));
		km_draw_fill(d, x - km_draw_px(d, 4), r->y + km_draw_px(d, 4), km_draw_px(d, 3),
			     r->h - km_draw_px(d, 8), km_pal(KM_C_FOCUS));
		say_event(d, st, desc, x, y, w);
	} else if (m && f->still) {
		say(d, st, KM_FONT_BODY, km_view_headline(m, desc, sizeof(desc)), x, y, w,
		    km_pal(KM_C_INK));
	} else {
		say(d, st, KM_FONT_BODY, "Space: play.  Right: one event.  Wheel: zoom.  "
		    "Point at a lane to read what happens.  H: help.", x, y, w, km_pal(KM_C_MUTED));
	}
}

/* Projector mode: the side column shows one panel; its foot names the
 * other, and a click there or V swaps them. */
static void side_tab(struct km_draw *d, const struct km_view_frame *f,
		     const struct km_view_state *st)
{
	const SDL_Rect *r = &st->lay.side_tab;
	if (r->w <= 0 || r->h <= 0 || f->still)
		return;
	km_draw_fill(d, r->x, r->y, r->w, r->h, km_pal(KM_C_PANEL));
	km_draw_hline(d, r->x, r->x + r->w, r->y, km_pal(KM_C_GRID));
	const struct km_view_model *m = st->model;
	const char *what = st->figures ? "V: the lesson" : m && m->nviols ? "V: figures, violations"
									   : "V: the figures";
	int f_h = km_text_height(d->tx, KM_FONT_BOLD);
	km_draw_text_fit(d, KM_FONT_BOLD, what, r->x + km_draw_px(d, 10), r->y + (r->h - f_h) / 2,
			 r->w - km_draw_px(d, 20), km_pal(KM_C_FOCUS));
}

void km_draw_frame(struct km_draw *d, const struct km_view_frame *f,
		   const struct km_view_state *st)
{
	km_pal_set_contrast(st->projector);
	km_text_record_frame();
	memset(&d->meas, 0, sizeof(d->meas));
	if (st->lay.u != d->u)
		km_draw_rescale(d, st->lay.u);
	km_draw_colour(d, km_pal(KM_C_BG), 255);
	SDL_RenderClear(d->r);
	km_draw_timeline(d, f, st);
	km_draw_legend(d, st);
	event_line(d, f, st);
	if (f->play)
		km_draw_play(d, f, st);
	else
		km_draw_placard(d, f, st);
	km_draw_stats(d, f, st);
	side_tab(d, f, st);
	km_draw_ribbon(d, f, st);
	playback(d, f, st);
	top_bar(d, f, st);
	km_draw_inspector(d, st);
	if (f->status && *f->status) {
		int w = km_text_width(d->tx, KM_FONT_HEAD, f->status) + km_draw_px(d, 40);
		int h = km_draw_px(d, 44);
		int x = st->lay.lanes.x + (st->lay.lanes.w - w) / 2, y = st->lay.lanes.y + st->lay.lanes.h / 3;
		km_draw_fill(d, x, y, w, h, km_pal(KM_C_INK));
		km_text_draw(d->tx, KM_FONT_HEAD, f->status, x + w / 2,
			     y + (h - km_text_height(d->tx, KM_FONT_HEAD)) / 2, 0xFFFFFF, KM_CENTRE);
	}
	if (st->help)
		km_draw_help(d, st);
}
