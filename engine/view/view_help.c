/*
 * view_help.c - the help overlay (H or F1): every control, in one place.
 *
 * Its lines are the key table's (view_keys.c): each row with a label is
 * a line, its keys the very ones the dispatch answers to, so the help
 * and the window cannot disagree.  Only the layout is here.
 */
#include "view_panels.h"
#include "view_keys.h"

#include <limits.h>
#include <stdio.h>

/* The help's lines: the rows of the key table that have a label, in
 * its order.  line_at(i) is the i-th of them. */
static int nlines(void)
{
	int n = 0;
	for (int i = 0; i < km_view_nkeys; i++)
		n += km_view_keys[i].label != NULL;
	return n;
}

static const struct km_view_key *line_at(int i)
{
	for (int k = 0; k < km_view_nkeys; k++)
		if (km_view_keys[k].label && i-- == 0)
			return &km_view_keys[k];
	return NULL;
}

/*
 * Projector mode: the descriptions wrap, and the controls that do not fit
 * the window go on further pages, which H turns (the layout learns how
 * many from d->meas.help_pages).
 */
static void help_pages(struct km_draw *d, const struct km_view_state *st)
{
	int n = nlines();
	int lh = km_text_height(d->tx, KM_FONT_BODY);
	int pad = km_draw_px(d, 18), gap = km_draw_px(d, 6);
	int w = st->w - 2 * km_draw_px(d, 10), h = st->h - 2 * km_draw_px(d, 10);
	int x = (st->w - w) / 2, y = (st->h - h) / 2;
	int keyw = 0;
	for (int i = 0; i < n; i++) {
		int kw = km_text_width(d->tx, KM_FONT_BOLD, line_at(i)->label);
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
		int ih = km_draw_text_lines(d, KM_FONT_BODY, line_at(i)->help, cw) * lh + gap;
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
		km_draw_text_wrap(d, KM_FONT_BOLD, line_at(i)->label, x + pad, ky, keyw, INT_MAX,
				  km_pal(KM_C_INK));
		int k = km_draw_text_wrap(d, KM_FONT_BODY, line_at(i)->help, col, ky, cw, INT_MAX,
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
	int n = nlines();
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
		km_text_draw(d->tx, KM_FONT_BOLD, line_at(i)->label, x + pad, ky + i * lh,
			     km_pal(KM_C_INK), KM_LEFT);
		km_draw_text_fit(d, KM_FONT_BODY, line_at(i)->help, col, ky + i * lh,
				 x + w - pad - col, km_pal(KM_C_INK));
	}
	km_text_draw(d->tx, KM_FONT_SMALL, "A mode or era switch runs the exhibit again, with the same "
		     "seed.  Press H, F1 or Escape to close.", x + pad,
		     ky + n * lh + lh / 2, km_pal(KM_C_MUTED), KM_LEFT);
}
