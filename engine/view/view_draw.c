/*
 * view_draw.c - the drawing context, where its assets are, and the
 * primitives every panel draws with.
 *
 * A km_draw wraps one SDL renderer (a window's, or a software renderer
 * over a surface for a PNG) with the fonts and the scratch memory of the
 * panels.  The primitives here -- a filled or framed rectangle, a line,
 * text cut to fit -- are all a panel needs of SDL beyond the lanes'
 * streaming texture; they know nothing of runs, eras or frames, so any
 * panel can use them without calling back into the code that composes
 * the frame (view_frame.c).
 */
#include "view_draw.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ assets -- */

static char datadir[4096];

void km_view_set_datadir(const char *dir)
{
	snprintf(datadir, sizeof(datadir), "%s", dir ? dir : "");
}

const char *km_view_assets_dir(void)
{
	static char buf[4200];
	const char *base = datadir;
	if (!*base) {
		const char *env = getenv("LOCKMUSEUM_DATA");
		base = env && *env ? env : ".";
	}
	snprintf(buf, sizeof(buf), "%s/assets", base);
	return buf;
}

/* ------------------------------------------------------------ context -- */

struct km_draw *km_draw_new(SDL_Renderer *r, float u, char *err, size_t errlen)
{
	struct km_draw *d = calloc(1, sizeof(*d));
	if (!d) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	d->r = r;
	d->u = u;
	d->tx = km_text_new(r, km_view_assets_dir(), u, err, errlen);
	if (!d->tx) {
		free(d);
		return NULL;
	}
	return d;
}

void km_draw_free_buffers(struct km_draw *d)
{
	SDL_free(d->px);
	SDL_free(d->acc);
	SDL_free(d->bctx);
	SDL_free(d->blen);
	SDL_free(d->kidx);
	SDL_free(d->edge);
	SDL_free(d->cnt);
	SDL_free(d->fctx);
	d->px = NULL;
	d->acc = NULL;
	d->bctx = NULL;
	d->kidx = NULL;
	d->blen = NULL;
	d->edge = NULL;
	d->cnt = NULL;
	d->fctx = NULL;
}

void km_draw_free(struct km_draw *d)
{
	if (!d)
		return;
	km_text_free(d->tx);
	if (d->tex)
		SDL_DestroyTexture(d->tex);
	km_draw_free_buffers(d);
	for (int i = 0; i < KM_DRAW_SUMMARIES; i++)
		km_vm_summary_free(&d->sum[i]);
	free(d->doc.text);
	free(d->doc.line);
	free(d);
}

int km_draw_rescale(struct km_draw *d, float u)
{
	if (u == d->u)
		return 0;
	d->u = u;
	d->key.valid = false;
	d->doc.u = 0;		/* re-wrap the placard */
	return km_text_rescale(d->tx, u);
}

int km_draw_px(const struct km_draw *d, float v)
{
	int r = (int)lroundf(d->u * v);
	return r < 1 ? 1 : r;
}

void km_draw_colour(struct km_draw *d, uint32_t rgb, uint8_t a)
{
	SDL_SetRenderDrawColor(d->r, (Uint8)(rgb >> 16), (Uint8)(rgb >> 8), (Uint8)rgb, a);
}

void km_draw_fill(struct km_draw *d, int x, int y, int w, int h, uint32_t rgb)
{
	if (w <= 0 || h <= 0)
		return;
	km_draw_colour(d, rgb, 255);
	SDL_Rect r = { x, y, w, h };
	SDL_RenderFillRect(d->r, &r);
	km_text_record_fill(d->r, &r, false);
}

void km_draw_frame_rect(struct km_draw *d, int x, int y, int w, int h, uint32_t rgb)
{
	km_draw_colour(d, rgb, 255);
	SDL_Rect r = { x, y, w, h };
	SDL_RenderDrawRect(d->r, &r);
}

void km_draw_hline(struct km_draw *d, int x0, int x1, int y, uint32_t rgb)
{
	km_draw_colour(d, rgb, 255);
	SDL_RenderDrawLine(d->r, x0, y, x1, y);
}

void km_draw_vline(struct km_draw *d, int x, int y0, int y1, uint32_t rgb)
{
	km_draw_colour(d, rgb, 255);
	SDL_RenderDrawLine(d->r, x, y0, x, y1);
}

int km_draw_text_fit(struct km_draw *d, enum km_font f, const char *s, int x, int y, int w,
		     uint32_t rgb)
{
	if (!s || w <= 0)
		return 0;
	size_t len = strlen(s);
	if (km_text_width(d->tx, f, s) <= w)
		return km_text_draw(d->tx, f, s, x, y, rgb, KM_LEFT);
	static const char ell[] = "\xe2\x80\xa6";	/* ... */
	int ew = km_text_width(d->tx, f, ell);
	size_t n = km_text_fit(d->tx, f, s, len, w - ew);
	char buf[600];
	if (n > sizeof(buf) - 4)
		n = sizeof(buf) - 4;
	memcpy(buf, s, n);
	memcpy(buf + n, ell, sizeof(ell));
	km_text_mark_cut(d->tx);
	return km_text_draw(d->tx, f, buf, x, y, rgb, KM_LEFT);
}

/* Word-wrap @s into lines of @w pixels, drawing them when @draw; the
 * number of lines.  The last of @max_lines is cut if text is left. */
static int wrap_lines(struct km_draw *d, enum km_font f, const char *s, int x, int y, int w,
		      int max_lines, uint32_t rgb, enum km_align a, bool draw)
{
	if (!s || w <= 0 || max_lines < 1)
		return 0;
	int lh = km_text_height(d->tx, f);
	int lines = 0;
	char buf[600];
	while (*s && lines < max_lines) {
		while (*s == ' ')
			s++;
		size_t len = strlen(s);
		int tw = km_text_width(d->tx, f, s);
		if (lines == max_lines - 1 || tw <= w) {
			if (draw && tw <= w)
				km_text_draw(d->tx, f, s, a == KM_RIGHT ? x + w : x, y + lines * lh,
					     rgb, a);
			else if (draw)
				km_draw_text_fit(d, f, s, x, y + lines * lh, w, rgb);
			return lines + 1;
		}
		/* the longest prefix that fits, back to the last space in it */
		size_t n = km_text_fit(d->tx, f, s, len, w);
		size_t cut = n;
		while (cut > 0 && s[cut] != ' ')
			cut--;
		/* one long word (a name): after a '_', '/', '-' or '>' in
		 * it, else where it must */
		for (size_t k = n; cut == 0 && k > 1; k--)
			if (strchr("_/->", s[k - 1]))
				cut = k;
		if (cut == 0)
			cut = n ? n : 1;
		while (cut < len && ((unsigned char)s[cut] & 0xC0) == 0x80)
			cut++;			/* never inside a character */
		if (cut > sizeof(buf) - 1)
			cut = sizeof(buf) - 1;
		memcpy(buf, s, cut);
		buf[cut] = 0;
		if (draw)
			km_text_draw(d->tx, f, buf, a == KM_RIGHT ? x + w : x, y + lines * lh, rgb, a);
		lines++;
		s += cut;
	}
	return lines;
}

int km_draw_text_wrap(struct km_draw *d, enum km_font f, const char *s, int x, int y, int w,
		      int max_lines, uint32_t rgb)
{
	return wrap_lines(d, f, s, x, y, w, max_lines, rgb, KM_LEFT, true);
}

int km_draw_text_wrap_right(struct km_draw *d, enum km_font f, const char *s, int x, int y,
			    int w, int max_lines, uint32_t rgb)
{
	return wrap_lines(d, f, s, x, y, w, max_lines, rgb, KM_RIGHT, true);
}

int km_draw_text_lines(struct km_draw *d, enum km_font f, const char *s, int w)
{
	return wrap_lines(d, f, s, 0, 0, w, INT_MAX, 0, KM_LEFT, false);
}
