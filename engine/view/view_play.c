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
	y += km_draw_text_wrap(d, KM_FONT_HEAD, "Play: you are the scheduler", x, y, w, 2,
			       km_pal(KM_C_INK)) * km_text_height(d->tx, KM_FONT_HEAD) +
	     km_draw_px(d, 6);
	km_draw_text_wrap(d, KM_FONT_BODY, p->goal[0] ? p->goal : "Goal: a failed check(), a "
			  "deadlock or a violation.", x, y, w, 3, km_pal(KM_C_INK));
	y = st->lay.play_y0 - 2 * lh - km_draw_px(d, 6);
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
		const struct km_run_info *ri = f->run ? f->run->ri : NULL;
		char t[64], line[400];
		snprintf(line, sizeof(line), "The run ended: %s at %s, after %d hold%s.",
			 ri ? km_outcome_name(ri->outcome) : "?",
			 km_fmt_ns(ri && ri->sim ? ri->sim->now : 0, t, sizeof(t)), p->n,
			 p->n == 1 ? "" : "s");
		km_draw_text_wrap(d, KM_FONT_BOLD, line, x, y, w, 2, km_pal(KM_C_INK));
		int gy = st->lay.play_y0;
		if (pf->reached) {
			int bh = 4 * lh + km_draw_px(d, 14);
			km_draw_fill(d, x, gy, w, bh, km_pal(KM_C_GOOD));
			uint32_t on = km_pal_text_on(km_pal(KM_C_GOOD));
			km_text_draw(d->tx, KM_FONT_HEAD, "GOAL REACHED", x + pad, gy + km_draw_px(d, 5),
				     on, KM_LEFT);
			km_draw_text_wrap(d, KM_FONT_BODY, pf->why ? pf->why : "", x + pad,
					  gy + km_draw_px(d, 5) + km_text_height(d->tx, KM_FONT_HEAD),
					  w - 2 * pad, 3, on);
			gy += bh + km_draw_px(d, 8);
			km_draw_text_wrap(d, KM_FONT_BOLD, pf->saved ? "Saved; run --schedule replays it:"
					  : "W saves this schedule as", x, gy, w, 1, km_pal(KM_C_INK));
			km_draw_text_fit(d, KM_FONT_MONO, pf->save_path ? pf->save_path : "?", x,
					 gy + lh + km_draw_px(d, 2), w, km_pal(KM_C_INK));
		} else {
			km_draw_text_wrap(d, KM_FONT_BODY, "The goal was not reached.  U (or Backspace) "
					  "undoes the last decision: try another.", x, gy, w, 3,
					  km_pal(KM_C_INK));
		}
	}
	const char *keys = "Enter/number/click: choose   U: undo   R: run to the end   "
			   "W: save   G: leave play";
	km_draw_text_wrap(d, KM_FONT_SMALL, keys, x,
			  r->y + r->h - km_draw_px(d, 8) - 2 * km_text_height(d->tx, KM_FONT_SMALL),
			  w, 2, km_pal(KM_C_MUTED));
	SDL_RenderSetClipRect(d->r, NULL);
}
