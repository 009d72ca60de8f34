/*
 * view_help.c - the help overlay (H or F1): every control, in one place.
 *
 * The list below is the contract of the window: each line is a control
 * that view_state.c implements, and the interaction test presses them.
 * Keep the two in step.
 */
#include "view_panels.h"

#include <limits.h>
#include <stdio.h>

static const struct {
	const char *keys;
	const char *what;
} controls[] = {
	{ "Space", "play / pause (from the start again at the end)" },
	{ "Right / Left", "step one event forward / back" },
	{ "+ / -", "play faster / slower" },
	{ "mouse wheel", "zoom in and out where the mouse is; over task names: scroll" },
	{ "drag", "pan along the time axis" },
	{ "point", "the event line says what happens on the lane there" },
	{ "click", "the event there, whole, and the scenario line its task ran" },
	{ "click a name", "a lock's name: its statistics; the outcome: every check" },
	{ "click a lock lane", "who holds the lock and who waits, at that instant" },
	{ "click a red marker", "the violation's whole explanation (Escape closes)" },
	{ "1 2 3 4 5 6", "mode: native, cli, bkl, spinlock, semaphore, mutex" },
	{ "[ / ]", "previous / next era; or click an era on the ribbon" },
	{ "Tab", "compare: the exhibit under each mode, one time axis" },
	{ "N / P", "next / previous exhibit of the tour" },
	{ "G", "play: you are the scheduler (G again leaves)" },
	{ "  number / click", "play: hold the task, that task or interrupt goes first" },
	{ "  PgDn / PgUp", "play: the options out of sight (or the wheel, or a number)" },
	{ "  Enter / U / R", "play: let it go / undo (or Backspace) / run to the end" },
	{ "  W", "play: save the schedule (when the goal is reached)" },
	{ "S", "save a screenshot (PNG, in the current folder)" },
	{ "L", "projector mode: larger type, high contrast, text wraps" },
	{ "V", "projector mode: the placard or the figures in the side column" },
	{ "Home / End / 0", "playhead to the start / end; zoom to the whole run" },
	{ "Z", "the whole run / back to the key moment the exhibit opens on" },
	{ "I", "idle CPUs (0% busy): folded into one lane / a lane each" },
	{ "H or F1", "this help" },
	{ "Q or Escape", "quit (Escape closes this help or an explanation first)" },
};

/*
 * Projector mode: the descriptions wrap, and the controls that do not fit
 * the window go on further pages, which H turns (the layout learns how
 * many from d->meas.help_pages).
 */
static void help_pages(struct km_draw *d, const struct km_view_state *st)
{
	int n = (int)(sizeof(controls) / sizeof(controls[0]));
	int lh = km_text_height(d->tx, KM_FONT_BODY);
	int pad = km_draw_px(d, 18), gap = km_draw_px(d, 6);
	int w = st->w - 2 * km_draw_px(d, 10), h = st->h - 2 * km_draw_px(d, 10);
	int x = (st->w - w) / 2, y = (st->h - h) / 2;
	int keyw = 0;
	for (int i = 0; i < n; i++) {
		int kw = km_text_width(d->tx, KM_FONT_BOLD, controls[i].keys);
		keyw = kw > keyw ? kw : keyw;
	}
	if (keyw > w / 3)
		keyw = w / 3;
	int col = x + pad + keyw + km_draw_px(d, 16), cw = x + w - pad - col;
	int top = y + pad + km_text_height(d->tx, KM_FONT_TITLE) + gap;
	int foot = km_text_height(d->tx, KM_FONT_SMALL) * 2 + pad;
	/* the pages: where each starts */
	int start[32], npages = 0, used = 0;
	for (int i = 0; i < n; i++) {
		int ih = km_draw_text_lines(d, KM_FONT_BODY, controls[i].what, cw) * lh + gap;
		if (i == 0 || top + used + ih > y + h - foot) {
			if (npages == 32)
				break;
			start[npages++] = i;
			used = 0;
		}
		used += ih;
	}
	d->meas.help_pages = npages;
	int page = st->help_page < npages ? st->help_page : npages - 1;
	int end = page + 1 < npages ? start[page + 1] : n;
	km_draw_fill(d, x, y, w, h, km_pal(KM_C_BG));
	km_draw_frame_rect(d, x, y, w, h, km_pal(KM_C_INK));
	km_text_draw(d->tx, KM_FONT_TITLE, "How to visit the museum", x + pad, y + pad,
		     km_pal(KM_C_INK), KM_LEFT);
	int ky = top;
	for (int i = start[page]; i < end; i++) {
		km_draw_text_wrap(d, KM_FONT_BOLD, controls[i].keys, x + pad, ky, keyw, INT_MAX,
				  km_pal(KM_C_INK));
		int k = km_draw_text_wrap(d, KM_FONT_BODY, controls[i].what, col, ky, cw, INT_MAX,
					  km_pal(KM_C_INK));
		ky += k * lh + gap;
	}
	char line[160];
	if (page + 1 < npages)
		snprintf(line, sizeof(line), "Page %d of %d: H for the next, Escape to close.",
			 page + 1, npages);
	else if (npages > 1)
		snprintf(line, sizeof(line), "Page %d of %d.  A mode or era switch runs the exhibit "
			 "again, with the same seed.  H, F1 or Escape closes.", page + 1, npages);
	else
		snprintf(line, sizeof(line), "A mode or era switch runs the exhibit again, with the "
			 "same seed.  H, F1 or Escape closes.");
	km_draw_text_wrap(d, KM_FONT_SMALL, line, x + pad, y + h - foot + pad / 2, w - 2 * pad, 2,
			  km_pal(KM_C_MUTED));
}

void km_draw_help(struct km_draw *d, const struct km_view_state *st)
{
	int n = (int)(sizeof(controls) / sizeof(controls[0]));
	int lh = km_text_height(d->tx, KM_FONT_BODY) + km_draw_px(d, 4);
	int w = km_draw_px(d, 720), h = (n + 4) * lh + km_draw_px(d, 20);
	if (w > st->w - 20)
		w = st->w - 20;
	int x = (st->w - w) / 2, y = (st->h - h) / 2;
	SDL_SetRenderDrawBlendMode(d->r, SDL_BLENDMODE_BLEND);
	km_draw_colour(d, km_pal(KM_C_INK), 110);
	SDL_Rect all = { 0, 0, st->w, st->h };
	SDL_RenderFillRect(d->r, &all);
	SDL_SetRenderDrawBlendMode(d->r, SDL_BLENDMODE_NONE);
	if (st->projector) {
		help_pages(d, st);
		return;
	}
	km_draw_fill(d, x, y, w, h, km_pal(KM_C_BG));
	km_draw_frame_rect(d, x, y, w, h, km_pal(KM_C_INK));
	int pad = km_draw_px(d, 18);
	km_text_draw(d->tx, KM_FONT_TITLE, "How to visit the museum", x + pad, y + pad,
		     km_pal(KM_C_INK), KM_LEFT);
	int ky = y + pad + lh * 2;
	int col = x + pad + km_draw_px(d, 170);
	for (int i = 0; i < n; i++) {
		km_text_draw(d->tx, KM_FONT_BOLD, controls[i].keys, x + pad, ky + i * lh,
			     km_pal(KM_C_INK), KM_LEFT);
		km_draw_text_fit(d, KM_FONT_BODY, controls[i].what, col, ky + i * lh,
				 x + w - pad - col, km_pal(KM_C_INK));
	}
	km_text_draw(d->tx, KM_FONT_SMALL, "A mode or era switch runs the exhibit again, with the same "
		     "seed.  Press H, F1 or Escape to close.", x + pad,
		     ky + n * lh + lh / 2, km_pal(KM_C_MUTED), KM_LEFT);
}
