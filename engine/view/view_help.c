/*
 * view_help.c - the help overlay (H or F1): every control, in one place.
 *
 * The list below is the contract of the window: each line is a control
 * that view_state.c implements, and the interaction test presses them.
 * Keep the two in step.
 */
#include "view_panels.h"

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
	{ "  1-9 / click", "play: hold the task, that one goes first" },
	{ "  Enter / U / R", "play: let it go / undo (or Backspace) / run to the end" },
	{ "  W", "play: save the schedule (when the goal is reached)" },
	{ "S", "save a screenshot (PNG, in the current folder)" },
	{ "L", "projector mode: larger type, high contrast, text wraps" },
	{ "Home / End / 0", "playhead to the start / end; zoom to the whole run" },
	{ "Z", "the whole run / back to the key moment the exhibit opens on" },
	{ "H or F1", "this help" },
	{ "Q or Escape", "quit (Escape closes this help or an explanation first)" },
};

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
