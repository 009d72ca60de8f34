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
	return km_text_draw(d->tx, f, buf, x, y, rgb, KM_LEFT);
}

int km_draw_text_wrap(struct km_draw *d, enum km_font f, const char *s, int x, int y, int w,
		      int max_lines, uint32_t rgb)
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
		if (lines == max_lines - 1 || km_text_width(d->tx, f, s) <= w) {
			km_draw_text_fit(d, f, s, x, y + lines * lh, w, rgb);
			return lines + 1;
		}
		/* the longest prefix that fits, back to the last space in it */
		size_t n = km_text_fit(d->tx, f, s, len, w);
		size_t cut = n;
		while (cut > 0 && s[cut] != ' ')
			cut--;
		if (cut == 0)
			cut = n ? n : 1;	/* one long word: break it */
		if (cut > sizeof(buf) - 1)
			cut = sizeof(buf) - 1;
		memcpy(buf, s, cut);
		buf[cut] = 0;
		km_text_draw(d->tx, f, buf, x, y + lines * lh, rgb, KM_LEFT);
		lines++;
		s += cut;
	}
	return lines;
}
