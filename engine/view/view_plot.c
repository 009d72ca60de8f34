/*
 * view_plot.c - compare --plot, drawn with the view's own pens.
 *
 * Two charts side by side share one x axis, the CPU counts of the sweep
 * (evenly spaced: they are usually powers of two): on the left the
 * throughput in lock acquisitions per simulated second, on the right the
 * average wait of a contended acquisition.  One line per mode (and era,
 * when the sweep crosses eras), in the palette's task colours, so the
 * shapes the museum is about -- the BKL's flat line, spinlocks' collapse,
 * mutexes' scaling -- can be read at a glance.  Runs that did not
 * complete (not applicable, refused, deadlocked) leave a gap.
 */
#include "view_plot.h"
#include "view_draw.h"
#include "view_palette.h"
#include "view_render.h"
#include "view_text.h"

#include "../km.h"

#include <SDL.h>
#include <stdio.h>
#include <string.h>

#define MAX_SERIES 12
#define MAX_X 32

struct series {
	char label[64];
	double thr[MAX_X], wait[MAX_X];
	bool have[MAX_X];
};

static double num(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_real(v) ? json_real_value(v) : (double)json_integer_value(v);
}

static void fmt_value(double v, bool ns, char *buf, size_t len)
{
	if (ns) {
		if (v < 1e3)
			snprintf(buf, len, "%.0f ns", v);
		else if (v < 1e6)
			snprintf(buf, len, "%.1f us", v / 1e3);
		else
			snprintf(buf, len, "%.1f ms", v / 1e6);
	} else if (v >= 1e6) {
		snprintf(buf, len, "%.1fM/s", v / 1e6);
	} else if (v >= 1e3) {
		snprintf(buf, len, "%.0fk/s", v / 1e3);
	} else {
		snprintf(buf, len, "%.0f/s", v);
	}
}

static void chart(struct km_draw *d, int x, int y, int w, int h, const char *title,
		  const struct series *s, int ns, const int *cpus, int nx, bool wait)
{
	struct km_text *tx = d->tx;
	int th = km_text_height(tx, KM_FONT_HEAD);
	int sh = km_text_height(tx, KM_FONT_SMALL);
	km_text_draw(tx, KM_FONT_HEAD, title, x, y, km_pal(KM_C_INK), KM_LEFT);
	int left = x + km_draw_px(d, 70), right = x + w - km_draw_px(d, 10);
	int top = y + th + km_draw_px(d, 10), bottom = y + h - 2 * sh - km_draw_px(d, 16);
	double ymax = 0;
	for (int i = 0; i < ns; i++)
		for (int k = 0; k < nx; k++)
			if (s[i].have[k]) {
				double v = wait ? s[i].wait[k] : s[i].thr[k];
				if (v > ymax)
					ymax = v;
			}
	if (ymax <= 0)
		ymax = 1;
	ymax *= 1.08;
	/* grid and y ticks */
	for (int g = 0; g <= 4; g++) {
		int gy = bottom - (bottom - top) * g / 4;
		km_draw_hline(d, left, right, gy, km_pal(KM_C_GRID));
		char lab[32];
		fmt_value(ymax * g / 4, wait, lab, sizeof(lab));
		km_text_draw(tx, KM_FONT_SMALL, lab, left - km_draw_px(d, 6), gy - sh / 2,
			     km_pal(KM_C_MUTED), KM_RIGHT);
	}
	km_draw_vline(d, left, top, bottom, km_pal(KM_C_INK));
	km_draw_hline(d, left, right, bottom, km_pal(KM_C_INK));
	/* x: the CPU counts, evenly spaced */
	int xs[MAX_X];
	for (int k = 0; k < nx; k++) {
		xs[k] = nx == 1 ? (left + right) / 2 :
			left + km_draw_px(d, 20) + (right - left - km_draw_px(d, 40)) * k / (nx - 1);
		char lab[16];
		snprintf(lab, sizeof(lab), "%d", cpus[k]);
		km_text_draw(tx, KM_FONT_SMALL, lab, xs[k], bottom + km_draw_px(d, 4),
			     km_pal(KM_C_INK), KM_CENTRE);
	}
	km_text_draw(tx, KM_FONT_SMALL, "CPUs", (left + right) / 2, bottom + sh + km_draw_px(d, 8),
		     km_pal(KM_C_MUTED), KM_CENTRE);
	/* the lines, each point a small square */
	int dot = km_draw_px(d, 3) > 1 ? km_draw_px(d, 3) : 2;
	for (int i = 0; i < ns; i++) {
		uint32_t col = km_pal_task((unsigned)i);
		km_draw_colour(d, col, 255);
		int px = -1, py = -1;
		for (int k = 0; k < nx; k++) {
			if (!s[i].have[k]) {
				px = -1;
				continue;
			}
			double v = wait ? s[i].wait[k] : s[i].thr[k];
			int yy = bottom - (int)((double)(bottom - top) * v / ymax);
			if (px >= 0) {
				for (int t = -1; t <= 1; t++)	/* a 3-pixel pen */
					SDL_RenderDrawLine(d->r, px, py + t, xs[k], yy + t);
			}
			km_draw_fill(d, xs[k] - dot, yy - dot, 2 * dot + 1, 2 * dot + 1, col);
			px = xs[k];
			py = yy;
		}
	}
}

int km_view_plot_png(const json_t *table, const char *path, int w, int h, char *err,
		     size_t errlen)
{
	struct series s[MAX_SERIES];
	int ns = 0, cpus[MAX_X], nx = 0;
	const json_t *runs = json_object_get(table, "runs");
	size_t i;
	json_t *row;
	bool eras_differ = false;
	const char *era0 = NULL;
	json_array_foreach(runs, i, row) {
		const char *era = json_string_value(json_object_get(row, "era"));
		if (era && era0 && strcmp(era, era0))
			eras_differ = true;
		if (!era0)
			era0 = era;
		int c = (int)json_integer_value(json_object_get(row, "cpus"));
		bool seen = false;
		for (int k = 0; k < nx; k++)
			seen |= cpus[k] == c;
		if (!seen && nx < MAX_X)
			cpus[nx++] = c;
	}
	/* ascending CPU counts */
	for (int a = 1; a < nx; a++)
		for (int b = a; b > 0 && cpus[b - 1] > cpus[b]; b--) {
			int t = cpus[b];
			cpus[b] = cpus[b - 1];
			cpus[b - 1] = t;
		}
	memset(s, 0, sizeof(s));
	json_array_foreach(runs, i, row) {
		char label[64];
		const char *mode = json_string_value(json_object_get(row, "mode"));
		const char *era = json_string_value(json_object_get(row, "era"));
		size_t off;
		if (eras_differ)
			off = (size_t)snprintf(label, sizeof(label), "%s, %s", mode ? mode : "?",
					       era ? era : "?");
		else
			off = (size_t)snprintf(label, sizeof(label), "%s", mode ? mode : "?");
		/* a swept parameter (compare --sets) makes series of its own */
		const char *pk;
		json_t *pv;
		json_object_foreach(json_object_get(row, "params"), pk, pv)
			if (off < sizeof(label))
				off += (size_t)snprintf(label + off, sizeof(label) - off, ", %s=%s",
							pk, json_string_value(pv) ?
							json_string_value(pv) : "?");
		int si = -1;
		for (int k = 0; k < ns; k++)
			if (!strcmp(s[k].label, label))
				si = k;
		if (si < 0) {
			if (ns == MAX_SERIES)
				continue;
			si = ns++;
			snprintf(s[si].label, sizeof(s[si].label), "%s", label);
		}
		const char *oc = json_string_value(json_object_get(row, "outcome"));
		if (!oc || (strcmp(oc, "completed") && strcmp(oc, "time-limit")))
			continue;
		int c = (int)json_integer_value(json_object_get(row, "cpus"));
		for (int k = 0; k < nx; k++) {
			if (cpus[k] != c)
				continue;
			s[si].have[k] = true;
			s[si].thr[k] = num(row, "acquisitions_per_s");
			s[si].wait[k] = num(row, "wait_avg_ns");
		}
	}
	if (!ns || !nx) {
		snprintf(err, errlen, "nothing to plot");
		return -1;
	}

	SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
	if (!surf) {
		snprintf(err, errlen, "cannot make a %dx%d surface: %s", w, h, SDL_GetError());
		return -1;
	}
	SDL_Renderer *r = SDL_CreateSoftwareRenderer(surf);
	struct km_draw *d = r ? km_draw_new(r, (float)h / 800.0f, err, errlen) : NULL;
	if (!d) {
		if (!r)
			snprintf(err, errlen, "no software renderer: %s", SDL_GetError());
		if (r)
			SDL_DestroyRenderer(r);
		SDL_FreeSurface(surf);
		return -1;
	}
	km_draw_fill(d, 0, 0, w, h, km_pal(KM_C_BG));
	int pad = km_draw_px(d, 20);
	char title[256];
	snprintf(title, sizeof(title), "%s: throughput and wait against CPU count",
		 json_string_value(json_object_get(table, "scenario")));
	km_text_draw(d->tx, KM_FONT_TITLE, title, pad, pad, km_pal(KM_C_INK), KM_LEFT);
	int ty = pad + km_text_height(d->tx, KM_FONT_TITLE) + pad;
	/* legend */
	int lx = pad;
	for (int k = 0; k < ns; k++) {
		int sw = km_draw_px(d, 14);
		km_draw_fill(d, lx, ty + 2, sw, sw, km_pal_task((unsigned)k));
		lx += sw + km_draw_px(d, 6);
		lx += km_text_draw(d->tx, KM_FONT_BODY, s[k].label, lx, ty, km_pal(KM_C_INK),
				   KM_LEFT) + km_draw_px(d, 18);
	}
	int cy = ty + km_text_height(d->tx, KM_FONT_BODY) + pad;
	int cw = (w - 3 * pad) / 2, ch = h - cy - pad;
	chart(d, pad, cy, cw, ch, "lock acquisitions per second", s, ns, cpus, nx, false);
	chart(d, 2 * pad + cw, cy, cw, ch, "average wait when contended", s, ns, cpus, nx, true);
	SDL_RenderPresent(r);
	km_draw_free(d);
	SDL_DestroyRenderer(r);
	int rc = km_view_save_png(surf, path, err, errlen);
	SDL_FreeSurface(surf);
	return rc;
}
