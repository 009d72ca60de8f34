/*
 * view_plot.c - compare --plot, drawn with the view's own pens.
 *
 * Two charts side by side share one x axis, the CPU counts of the sweep
 * (evenly spaced: they are usually powers of two): on the left the
 * throughput in lock acquisitions per simulated second, on the right the
 * average wait of a contended acquisition.  One line per mode (and era,
 * when the sweep crosses eras), each with its own Okabe-Ito colour,
 * marker and dash pattern (view_palette.h), so that the shapes the museum
 * is about -- the BKL's flat line, spinlocks' collapse, mutexes' scaling
 * -- can be read at a glance on a washed-out projector and in a grey
 * print alike.  Runs that did not complete (not applicable, refused,
 * deadlocked) leave a gap.
 */
#include "view_plot.h"
#include "view_draw.h"
#include "view_palette.h"
#include "view_render.h"
#include "view_text.h"

#include "../km.h"
#include "../time_unit.h"

#include <SDL.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_SERIES 12
#define MAX_X 64

struct series {
	char label[64];
	double thr[MAX_X], wait[MAX_X];
	bool have[MAX_X];
	char why[32];			/* an outcome that left a gap */
	bool model;			/* compare --markov: throughput only */
};

/* A round step for about @want ticks up to @top: 1, 2 or 5 times a
 * power of ten. */
static double nice_step(double top, int want)
{
	double raw = top / want, p = pow(10.0, floor(log10(raw)));
	double f = raw / p;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

static double num(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_real(v) ? json_real_value(v) : (double)json_integer_value(v);
}

static void fmt_rate(double v, char *buf, size_t len)
{
	if (v >= 1e6)
		snprintf(buf, len, "%gM/s", v / 1e6);
	else if (v >= 1e3)
		snprintf(buf, len, "%gk/s", v / 1e3);
	else
		snprintf(buf, len, "%g/s", v);
}

/* A square pen of side @pen centred on (@x, @y). */
static void pen_at(struct km_draw *d, int x, int y, int pen, uint32_t col)
{
	km_draw_fill(d, x - pen / 2, y - pen / 2, pen, pen, col);
}

/*
 * A line of series @i from (x0, y0) to (x1, y1): its dash pattern, with
 * the pattern's phase carried in *@phase from one segment to the next so
 * that a line of short segments still shows its dashes.
 */
static void series_line(struct km_draw *d, int x0, int y0, int x1, int y1, unsigned i,
			int pen, double *phase)
{
	const unsigned char *dash = km_series_dash(i);
	uint32_t col = km_pal_series(i);
	double dx = x1 - x0, dy = y1 - y0;
	double len = sqrt(dx * dx + dy * dy);
	int n = 0;
	double period = 0;
	while (dash[n]) {
		period += dash[n] * pen;
		n++;
	}
	for (double t = 0; t <= len; t += 1.0) {
		bool on = true;
		if (n > 1) {
			double p = fmod(*phase + t, period);
			for (int k = 0; k < n; k++) {
				if (p < dash[k] * pen) {
					on = !(k & 1);
					break;
				}
				p -= dash[k] * pen;
			}
		}
		if (on) {
			int x = x0 + (int)lround(len > 0 ? dx * t / len : 0);
			int y = y0 + (int)lround(len > 0 ? dy * t / len : 0);
			pen_at(d, x, y, pen, col);
		}
	}
	*phase += len;
}

/* Series @i's marker, @r pixels from its centre to its edge. */
static void series_marker(struct km_draw *d, int x, int y, int r, unsigned i)
{
	uint32_t col = km_pal_series(i);
	int pen = r / 2 > 2 ? r / 2 : 2;
	switch (km_series_marker(i)) {
	case KM_MARK_CIRCLE:
		for (int yy = -r; yy <= r; yy++) {
			int half = (int)sqrt((double)(r * r - yy * yy));
			km_draw_fill(d, x - half, y + yy, 2 * half + 1, 1, col);
		}
		break;
	case KM_MARK_SQUARE:
		km_draw_fill(d, x - r + 1, y - r + 1, 2 * r - 1, 2 * r - 1, col);
		break;
	case KM_MARK_TRIANGLE:
	case KM_MARK_TRIANGLE_DOWN: {
		bool up = km_series_marker(i) == KM_MARK_TRIANGLE;
		for (int k = 0; k <= 2 * r; k++) {
			int half = k / 2;
			int yy = up ? y - r + k : y + r - k;
			km_draw_fill(d, x - half, yy, 2 * half + 1, 1, col);
		}
		break;
	}
	case KM_MARK_DIAMOND:
		for (int yy = -r; yy <= r; yy++) {
			int half = r - (yy < 0 ? -yy : yy);
			km_draw_fill(d, x - half, y + yy, 2 * half + 1, 1, col);
		}
		break;
	case KM_MARK_CROSS:
		for (int k = -r; k <= r; k++) {
			pen_at(d, x + k, y + k, pen, col);
			pen_at(d, x + k, y - k, pen, col);
		}
		break;
	case KM_MARK_PLUS:
	default:
		km_draw_fill(d, x - r, y - pen / 2, 2 * r + 1, pen, col);
		km_draw_fill(d, x - pen / 2, y - r, pen, 2 * r + 1, col);
		break;
	}
}

/* A figure of the table as a time: a mean of reports' waits can be
 * INT64_MAX, and 1.08 times that is no km_time (the cast is undefined). */
static km_time as_time(double v)
{
	return !(v > 0) ? 0 : v >= (double)INT64_MAX ? INT64_MAX : (km_time)v;
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
			if (s[i].have[k] && !(wait && s[i].model)) {
				double v = wait ? s[i].wait[k] : s[i].thr[k];
				if (v > ymax)
					ymax = v;
			}
	if (ymax <= 0)
		ymax = 1;
	/* round ticks: a step of 1, 2 or 5 times a power of ten (of the
	 * axis's time unit for waits), the axis up to the tick above the
	 * highest point */
	struct km_time_unit u = km_time_unit_for(as_time(ymax));
	double scale = wait && u.ns > 1 ? u.ns : 1;
	double step = nice_step(ymax / scale, 4) * scale;
	int nticks = (int)ceil(ymax / step - 1e-9);
	nticks = nticks < 1 ? 1 : nticks;
	ymax = step * nticks;
	for (int g = 0; g <= nticks; g++) {
		int gy = bottom - (int)((double)(bottom - top) * g / nticks);
		km_draw_hline(d, left, right, gy, km_pal(KM_C_GRID));
		char lab[32];
		double v = step * g;
		if (wait)	/* one unit for the axis: the top tick's */
			snprintf(lab, sizeof(lab), "%g %s", v / scale, u.ns > 1 ? u.name : "ns");
		else
			fmt_rate(v, lab, sizeof(lab));
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
		/* a label for every CPU count while they fit; of a long sweep
		 * (1..48), about 16 of them, the last always */
		int every = (nx + 15) / 16;
		if (k % every && k != nx - 1)
			continue;
		char lab[16];
		snprintf(lab, sizeof(lab), "%d", cpus[k]);
		km_text_draw(tx, KM_FONT_SMALL, lab, xs[k], bottom + km_draw_px(d, 4),
			     km_pal(KM_C_INK), KM_CENTRE);
	}
	km_text_draw(tx, KM_FONT_SMALL, "CPUs", (left + right) / 2, bottom + sh + km_draw_px(d, 8),
		     km_pal(KM_C_MUTED), KM_CENTRE);
	/* the lines, dashed by series, then the markers over them */
	int pen = km_draw_px(d, 3) > 2 ? km_draw_px(d, 3) : 2;
	int mark = km_draw_px(d, 6) > 3 ? km_draw_px(d, 6) : 3;
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < ns; i++) {
			if (wait && s[i].model)
				continue;
			int px = -1, py = -1;
			double phase = 0;
			for (int k = 0; k < nx; k++) {
				if (!s[i].have[k]) {
					px = -1;
					continue;
				}
				double v = wait ? s[i].wait[k] : s[i].thr[k];
				/* below the axis (a negative figure, or NaN): on it */
				v = v > 0 ? v : 0;
				int yy = bottom - (int)((double)(bottom - top) * v / ymax);
				if (pass == 0 && px >= 0)
					series_line(d, px, py, xs[k], yy, (unsigned)i, pen, &phase);
				if (pass == 1)
					series_marker(d, xs[k], yy, mark, (unsigned)i);
				px = xs[k];
				py = yy;
			}
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
		if (!oc || (strcmp(oc, "completed") && strcmp(oc, "time-limit"))) {
			if (!s[si].why[0])
				snprintf(s[si].why, sizeof(s[si].why), "%s", oc ? oc : "no run");
			continue;
		}
		int c = (int)json_integer_value(json_object_get(row, "cpus"));
		for (int k = 0; k < nx; k++) {
			if (cpus[k] != c)
				continue;
			s[si].have[k] = true;
			s[si].thr[k] = num(row, "acquisitions_per_s");
			s[si].wait[k] = num(row, "wait_avg_ns");
		}
	}
	/* compare --markov: the model's throughput at the same CPU counts */
	const json_t *model = json_object_get(json_object_get(table, "model"), "points");
	if (json_array_size(model) && ns < MAX_SERIES) {
		int si = ns++;
		snprintf(s[si].label, sizeof(s[si].label), "Markov model (ticket)");
		s[si].model = true;
		json_array_foreach(model, i, row) {
			int c = (int)json_integer_value(json_object_get(row, "cpus"));
			for (int k = 0; k < nx; k++)
				if (cpus[k] == c) {
					s[si].have[k] = true;
					s[si].thr[k] = num(row, "acquisitions_per_s");
				}
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
	/* legend: the lines drawn; what has no line is named after them */
	int lx = pad;
	int lh = km_text_height(d->tx, KM_FONT_BODY);
	char none[512] = "";
	for (int k = 0; k < ns; k++) {
		bool drawn = false;
		for (int x = 0; x < nx; x++)
			drawn |= s[k].have[x];
		if (!drawn) {
			size_t n = strlen(none);
			snprintf(none + n, sizeof(none) - n, "%s%.60s (%.30s)", n ? ", " : "no line: ",
				 s[k].label, s[k].why[0] ? s[k].why : "no run");
			continue;
		}
		/* a sample of the line: its dashes and its marker */
		int sw = km_draw_px(d, 44);
		int pen = km_draw_px(d, 3) > 2 ? km_draw_px(d, 3) : 2;
		double phase = 0;
		series_line(d, lx, ty + lh / 2, lx + sw, ty + lh / 2, (unsigned)k, pen, &phase);
		series_marker(d, lx + sw / 2, ty + lh / 2, km_draw_px(d, 6), (unsigned)k);
		lx += sw + km_draw_px(d, 6);
		lx += km_text_draw(d->tx, KM_FONT_BODY, s[k].label, lx, ty, km_pal(KM_C_INK),
				   KM_LEFT) + km_draw_px(d, 18);
	}
	if (none[0])
		km_text_draw(d->tx, KM_FONT_BODY, none, lx, ty, km_pal(KM_C_MUTED), KM_LEFT);
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
