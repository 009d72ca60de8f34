/*
 * view_play.c - play mode's panel: you are the scheduler.
 *
 * In play mode the placard's place holds the game.  At the top, the
 * scenario's goal, in its own words; then where the run stands: the
 * choice point and its time, or how the run ended and whether that was
 * the goal.  Then the question: the task about to step and each task
 * that could go first, numbered, each with the line of the scenario it
 * stands at (its number and text, as the event inspector shows
 * lines): "after" the operation it did last, or "starts at" its body's
 * first line -- a choice point comes before a task's code runs on, so
 * the line it will run next is not known yet.  Then each interrupt that
 * could come first, numbered on from the tasks: a bar of the interrupts'
 * colour, "irq NAME -> cpuN", why it can come and its handler's line.
 * An option's words wrap onto a second line rather than being cut.  Row 0 is "Enter: let it go";
 * row k is "k: hold it, this one goes first".  The rows are where
 * view_state.c looks for clicks (km_view_play_row_y), so what is drawn
 * is what is clickable.  A question longer than its place scrolls (the
 * wheel, Page Down/Up, or typing the number of a row out of sight), and a line under
 * the rows says so, or shows the digits typed so far.
 *
 * Once the run has ended there is no question: under how it ended, a
 * green box says the goal was reached and why (or a line that it was
 * not), then where W saves the schedule, and the keys that still apply
 * at the foot.  Where the panel is short (--scale 2 in 1280x800) the
 * title, the goal and the file make way for the box, whole: nothing
 * drawn is cut or drawn over another part (ended() says how).  There a
 * question drops the title and the goal too, so that at least two of its
 * options are in sight (the layout's play_compact).
 *
 * The lanes to the left are the ordinary timeline of the run so far: the
 * run stopped at the question, so its trace ends at `now`.
 */
#include "view_panels.h"

#include "../report/play_state.h"

#include <stdio.h>
#include <string.h>

/* "has run line 12  down(a)" (or "starts with line ..." when @started
 * is false: its body's first line that runs) for @line, into d->line: the scenario's own file, so no name. */
static const char *where(struct km_draw *d, const struct km_view_model *m, int line,
			 bool started)
{
	const char *text = line > 0 && line <= m->src.nlines ? m->src.line[line - 1] : NULL;
	if (line <= 0)
		snprintf(d->line, sizeof(d->line), "(no line yet)");
	else
		snprintf(d->line, sizeof(d->line), "%s line %d  %s", started ? "has run" : "starts with",
			 line, text ? text + strspn(text, " \t") : "");
	return d->line;
}

/* Option row @row: its key, a bar of @colour, @head (up to two lines)
 * and the line it stands at. */
static void option(struct km_draw *d, const struct km_view_state *st, const struct km_view_model *m,
		   int row, const char *keyname, uint32_t colour, const char *head,
		   int line, bool started)
{
	const SDL_Rect *r = &st->lay.placard;
	int y = km_view_play_row_y(st, row);
	if (y < 0)
		return;
	int pad = km_draw_px(d, 10), h = st->lay.play_row_h - km_draw_px(d, 4);
	km_draw_fill(d, r->x + pad / 2, y, r->w - pad, h, km_pal(KM_C_BG));
	km_draw_frame_rect(d, r->x + pad / 2, y, r->w - pad, h, km_pal(KM_C_GRID));
	km_draw_fill(d, r->x + pad / 2, y, km_draw_px(d, 6), h, colour);
	int kx = r->x + pad + km_draw_px(d, 6);
	int kw = km_text_width(d->tx, KM_FONT_BOLD, "Enter") + km_draw_px(d, 10);
	km_text_draw(d->tx, KM_FONT_BOLD, keyname, kx, y + km_draw_px(d, 3), km_pal(KM_C_INK),
		     KM_LEFT);
	int body = km_text_height(d->tx, KM_FONT_BODY), mono = km_text_height(d->tx, KM_FONT_MONO);
	int room = (h - mono + body / 2) / (body > 0 ? body : 1);	/* lines for @head */
	int n = km_draw_text_wrap(d, KM_FONT_BODY, head, kx + kw, y + km_draw_px(d, 3),
				  r->x + r->w - pad - kx - kw, room >= 2 ? 2 : 1, km_pal(KM_C_INK));
	km_draw_text_fit(d, KM_FONT_MONO, where(d, m, line, started), kx + kw,
			 y + km_draw_px(d, 3) + (n > 1 ? n : 1) * km_text_height(d->tx, KM_FONT_BODY),
			 r->x + r->w - pad - kx - kw, km_pal(KM_C_MUTED));
}

/* A task's option: its lane's colour, "NAME goes first". */
static void task_option(struct km_draw *d, const struct km_view_state *st,
			const struct km_view_model *m, int row,
			const char *keyname, uint32_t ctx, const char *verb, int line, bool started)
{
	unsigned slot = m->ctx_colour && ctx < m->nctx ? m->ctx_colour[ctx] : 0;
	char head[400];
	snprintf(head, sizeof(head), "%s %s", km_vm_ctx_name(m, ctx), verb);
	option(d, st, m, row, keyname, km_pal_task(slot), head, line, started);
}

static const char title_words[] = "Play: you are the scheduler";

/* The scenario's goal, in its own words, or the default rule's. */
static const char *goal_words(const struct km_play *p)
{
	return p->goal[0] ? p->goal : "Goal: a failed check(), a deadlock or a violation.";
}

/*
 * The panel once the run has ended, above @foot (where the keys begin):
 * how it ended and, in a green box, whether that was the goal and why;
 * then where W saves the schedule.  Where all of it fits, the line of
 * how it ended stands where the question's line stood and the box where
 * its rows began (the panel does not jump as the run ends); else the
 * panel's parts are stacked from its top, and those it cannot hold are
 * left out whole, in this order: the title, the goal (the box says what
 * was reached), the schedule's file (the keys still name W).  What is
 * drawn is never cut nor over another part: at 1280x800 and --scale 2
 * the box was once drawn over the keys.
 */
static void ended(struct km_draw *d, const struct km_view_frame *f,
		  const struct km_view_state *st, int foot)
{
	const SDL_Rect *r = &st->lay.placard;
	const struct km_view_play_frame *pf = f->play;
	const struct km_play *p = pf->play;
	const struct km_run_info *ri = f->run ? f->run->ri : NULL;
	int pad = km_draw_px(d, 12), w = r->w - 2 * pad, x = r->x + pad;
	int gap = km_draw_px(d, 8);
	int lh = km_text_height(d->tx, KM_FONT_BODY), hh = km_text_height(d->tx, KM_FONT_HEAD);
	int bold_h = km_text_height(d->tx, KM_FONT_BOLD), mh = km_text_height(d->tx, KM_FONT_MONO);
	const char *title = title_words, *goal = goal_words(p);
	char t[64], line[400];
	snprintf(line, sizeof(line), "The run ended: %s at %s, after %d hold%s.",
		 ri ? km_outcome_name(ri->outcome) : "?",
		 km_fmt_ns(ri && ri->sim ? ri->sim->now : 0, t, sizeof(t)), p->n, p->n == 1 ? "" : "s");
	const char *why = pf->reached ? (pf->why ? pf->why : "")
				      : "The goal was not reached.  U (or Backspace) undoes the "
					"last decision: try another.";
	const char *saved = pf->saved ? "Saved; run --schedule replays it:"
				      : "W saves this schedule as";
	/* the parts' heights, each on all the lines it takes */
	int nt = km_draw_text_lines(d, KM_FONT_HEAD, title, w);
	int ng = km_draw_text_lines(d, KM_FONT_BODY, goal, w);
	int ne = km_draw_text_lines(d, KM_FONT_BOLD, line, w);
	int nw = km_draw_text_lines(d, KM_FONT_BODY, why, pf->reached ? w - 2 * pad : w);
	int ns = km_draw_text_lines(d, KM_FONT_BOLD, saved, w);
	int title_h = nt * hh + km_draw_px(d, 6), goal_h = ng * lh, end_h = ne * bold_h;
	int box_h = pf->reached ? km_draw_px(d, 5) + hh + nw * lh + km_draw_px(d, 9) : nw * lh;
	int save_h = pf->reached ? ns * bold_h + km_draw_px(d, 2) + mh : 0;
	/* the question's places, as km_draw_play and the layout have them */
	int top = r->y + pad, ey = st->lay.play_y0 - 2 * lh - km_draw_px(d, 6);
	bool show_title = true, show_goal = true, show_save = save_h > 0;
	bool as_asked = ne <= 2 && nt <= 2 && ng <= 3 && top + title_h + goal_h <= ey &&
			st->lay.play_y0 + box_h + (show_save ? gap + save_h : 0) <= foot;
	if (!as_asked) {
		/* stacked: leave out what does not fit, least needed first */
		int need = end_h + gap + box_h;
		int room = foot - top;
		int opt[3] = { title_h, goal_h + gap, save_h + gap };
		bool *show[3] = { &show_title, &show_goal, &show_save };
		int all = need + (show_title ? opt[0] : 0) + (show_goal ? opt[1] : 0) +
			  (show_save ? opt[2] : 0);
		for (int k = 0; k < 3 && all > room; k++)
			if (*show[k]) {
				*show[k] = false;
				all -= opt[k];
			}
	}
	int y = top;
	if (show_title) {
		km_draw_text_wrap(d, KM_FONT_HEAD, title, x, y, w, nt, km_pal(KM_C_INK));
		y += title_h;
	}
	if (show_goal) {
		km_draw_text_wrap(d, KM_FONT_BODY, goal, x, y, w, ng, km_pal(KM_C_INK));
		y += goal_h + gap;
	}
	if (as_asked)
		y = ey;		/* where the question's line stood */
	enum km_text_role role = km_text_role(d->tx, KM_ROLE_VERDICT);
	km_draw_text_wrap(d, KM_FONT_BOLD, line, x, y, w, ne, km_pal(KM_C_INK));
	y = as_asked ? st->lay.play_y0 : y + end_h + gap;
	if (pf->reached) {
		km_draw_fill(d, x, y, w, box_h, km_pal(KM_C_GOOD));
		uint32_t on = km_pal_text_on(km_pal(KM_C_GOOD));
		km_text_draw(d->tx, KM_FONT_HEAD, "GOAL REACHED", x + pad, y + km_draw_px(d, 5), on,
			     KM_LEFT);
		km_draw_text_wrap(d, KM_FONT_BODY, why, x + pad, y + km_draw_px(d, 5) + hh,
				  w - 2 * pad, nw, on);
	} else {
		km_draw_text_wrap(d, KM_FONT_BODY, why, x, y, w, nw, km_pal(KM_C_INK));
	}
	km_text_role(d->tx, role);
	y += box_h + gap;
	if (show_save) {
		km_draw_text_wrap(d, KM_FONT_BOLD, saved, x, y, w, ns, km_pal(KM_C_INK));
		km_draw_text_fit(d, KM_FONT_MONO, pf->save_path ? pf->save_path : "?", x,
				 y + ns * bold_h + km_draw_px(d, 2), w, km_pal(KM_C_INK));
	}
}

void km_draw_play(struct km_draw *d, const struct km_view_frame *f,
		  const struct km_view_state *st)
{
	const SDL_Rect *r = &st->lay.placard;
	const struct km_view_play_frame *pf = f->play;
	const struct km_play *p = pf->play;
	const struct km_view_model *m = st->model;
	km_draw_fill(d, r->x, r->y, r->w, r->h, km_pal(KM_C_PANEL));
	SDL_RenderSetClipRect(d->r, r);
	int pad = km_draw_px(d, 12), w = r->w - 2 * pad;
	int x = r->x + pad, y = r->y + pad;
	int lh = km_text_height(d->tx, KM_FONT_BODY);
	if ((p->paused && !st->lay.play_compact) || !m) {	/* ended() places its own */
		y += km_draw_text_wrap(d, KM_FONT_HEAD, title_words, x, y, w, 2, km_pal(KM_C_INK)) *
			     km_text_height(d->tx, KM_FONT_HEAD) +
		     km_draw_px(d, 6);
		km_draw_text_wrap(d, KM_FONT_BODY, goal_words(p), x, y, w, 3, km_pal(KM_C_INK));
	}
	y = st->lay.play_y0 - 2 * lh - km_draw_px(d, 6);
	/* the keys that apply, at the foot: the question's on the two lines
	 * the layout keeps under its rows; once the run has ended, the three
	 * that still do something, each whole on a line (no-break spaces),
	 * on as many lines as they take (up to four). */
	const char *keys = p->paused ? "Enter/number/click: choose   U: undo   R: run to the end   "
				       "W: save   G: leave play"
				     : "U:\xc2\xa0undo   W:\xc2\xa0save   G:\xc2\xa0leave\xc2\xa0play";
	int nkeys = 2;
	if (!p->paused && m) {
		nkeys = km_draw_text_lines(d, KM_FONT_SMALL, keys, w);
		nkeys = nkeys < 1 ? 1 : nkeys > 4 ? 4 : nkeys;
	}
	int keys_y = r->y + r->h - km_draw_px(d, 8) - nkeys * km_text_height(d->tx, KM_FONT_SMALL);
	if (!m) {
		SDL_RenderSetClipRect(d->r, NULL);
		return;
	}
	if (p->paused) {
		char t[64], line[300];
		snprintf(line, sizeof(line), "Choice point %u at %s, after %d hold%s.  Who goes next?",
			 p->q.index, km_fmt_ns(p->q.now, t, sizeof(t)), p->n, p->n == 1 ? "" : "s");
		km_draw_text_wrap(d, KM_FONT_BOLD, line, x, y, w, 2, km_pal(KM_C_INK));
		task_option(d, st, m, 0, "Enter", p->q.ctx, "goes on", p->q.line,
			    p->q.started);
		for (int i = 0; i < p->q.nothers; i++) {
			char k[16];
			snprintf(k, sizeof(k), "%d", i + 1);
			task_option(d, st, m, i + 1, k, p->q.others[i], "goes first",
				    p->q.other_lines[i], p->q.other_started[i]);
		}
		for (int i = 0; i < p->q.nirqs; i++) {
			char k[16], says[400];
			snprintf(k, sizeof(k), "%d", p->q.nothers + i + 1);
			km_play_irq_says(&p->q, i, km_vm_ctx_name(m, p->q.ctx), says, sizeof(says));
			option(d, st, m, p->q.nothers + i + 1, k, km_pal(KM_C_IRQ), says,
			       p->q.irqs[i].line, p->q.irqs[i].why == KM_PLAY_IRQ_RUNNING);
		}
		int n = km_play_options(&p->q), rows = st->lay.play_rows;
		int shown = rows < n ? rows : n;
		if (shown < n || st->play_typed) {
			/* more options than rows: say how to reach them all */
			char more[160];
			if (st->play_typed)
				snprintf(more, sizeof(more), "Typed %d: Enter answers it, another digit "
					 "goes on, Backspace takes one back", st->play_typed);
			else
				snprintf(more, sizeof(more), "Options %d-%d of 0-%d  \xc2\xb7  PgDn/PgUp, "
					 "wheel: more", st->play_scroll,
					 st->play_scroll + shown - 1, n - 1);
			km_draw_text_fit(d, KM_FONT_SMALL, more, x,
					 st->lay.play_y0 + shown * st->lay.play_row_h, w,
					 km_pal(KM_C_MUTED));
		}
	} else {
		ended(d, f, st, keys_y - km_draw_px(d, 8));
	}
	enum km_text_role role = km_text_role(d->tx, p->paused ? KM_ROLE_TEXT : KM_ROLE_KEYS);
	km_draw_text_wrap(d, KM_FONT_SMALL, keys, x, keys_y, w, nkeys, km_pal(KM_C_MUTED));
	km_text_role(d->tx, role);
	SDL_RenderSetClipRect(d->r, NULL);
}
