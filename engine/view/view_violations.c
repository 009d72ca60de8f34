/*
 * view_violations.c - violations drawn where they happened.
 *
 * Each violation gets a red marker under the time axis, where a visitor
 * scanning the run finds it, and a red diamond on the lane of the CPU it
 * happened on.  A lost update is more than a moment: task A read the
 * variable, task B wrote it, A wrote its stale value over B's.  When few
 * enough are in view to be read, the three accesses are dots on their
 * CPUs' lanes, labelled with the values, joined by arrows that meet at
 * the overwrite: A's read carried into A's write, B's write destroyed by
 * it.  Overlapping stories tell nothing, so when several are in view
 * closer than a label's width only the one inspected or in focus is
 * told.  A click on a marker or a diamond opens the violation's whole
 * explanation (view_inspect.c).
 *
 * Like the playhead's veil, the future is not shown: markers only up to
 * the playhead.  Cost: the violations in view (a binary search finds the
 * first), markers deduplicated per pixel column.
 */
#include "view_marks.h"
#include "view_panels.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_STORIES 12

/* The first violation at or after @t (index into m->viols). */
static size_t first_viol(const struct km_view_model *m, km_time t)
{
	size_t lo = 0, hi = m->nviols;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->recs[m->viols[mid]].time < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void line2(struct km_draw *d, int x0, int y0, int x1, int y1)
{
	SDL_RenderDrawLine(d->r, x0, y0, x1, y1);
	if (abs(x1 - x0) > abs(y1 - y0))
		SDL_RenderDrawLine(d->r, x0, y0 + 1, x1, y1 + 1);
	else
		SDL_RenderDrawLine(d->r, x0 + 1, y0, x1 + 1, y1);
}

static void head(struct km_draw *d, int x0, int y0, int x1, int y1)
{
	double dx = x1 - x0, dy = y1 - y0, len = sqrt(dx * dx + dy * dy);
	if (len < 1)
		return;
	double ux = dx / len, uy = dy / len, s = km_draw_px(d, 8);
	for (int side = -1; side <= 1; side += 2)
		line2(d, x1, y1, (int)lround(x1 - s * ux + side * s * 0.5 * uy),
		      (int)lround(y1 - s * uy - side * s * 0.5 * ux));
}

static void dot(struct km_draw *d, int x, int y, uint32_t rgb)
{
	int r = km_draw_px(d, 4);
	km_draw_fill(d, x - r, y - r, 2 * r + 1, 2 * r + 1, km_pal(KM_C_INK));
	km_draw_fill(d, x - r + 1, y - r + 1, 2 * r - 1, 2 * r - 1, rgb);
}

/* The arrow from access (x0, y0) to the overwrite at (x1, y1): on one
 * lane, a bracket above it, else a straight line. */
static void story_arrow(struct km_draw *d, int x0, int y0, int x1, int y1, int row_h)
{
	if (y0 == y1) {
		int up = y0 - row_h / 2 - km_draw_px(d, 3);
		line2(d, x0, y0, x0, up);
		line2(d, x0, up, x1, up);
		line2(d, x1, up, x1, y1 - km_draw_px(d, 5));
		head(d, x1, up, x1, y1 - km_draw_px(d, 5));
	} else {
		line2(d, x0, y0, x1, y1);
		head(d, x0, y0, x1, y1);
	}
}

static void label(struct km_draw *d, const char *s, int x, int y, int left, int right)
{
	int tw = km_text_width(d->tx, KM_FONT_SMALL, s), th = km_text_height(d->tx, KM_FONT_SMALL);
	int lx = x - tw / 2;
	if (lx < left)
		lx = left;
	if (lx + tw > right)
		lx = right - tw;
	km_draw_fill(d, lx - 2, y, tw + 4, th, 0xFFFFFF);
	km_text_draw(d->tx, KM_FONT_SMALL, s, lx, y, km_pal(KM_C_BAD), KM_LEFT);
}

/* Read, other write and overwrite of the lost update at violation @k. */
static void story(struct km_draw *d, const struct km_view_state *st, size_t k)
{
	const struct km_view_model *m = st->model;
	const struct km_view_layout *L = &st->lay;
	struct km_vm_lost lu;
	if (km_vm_lost_update(m, m->viols[k], &lu) < 0)
		return;
	const struct km_trace_rec *r[3] = { &m->recs[lu.read], &m->recs[lu.other],
					    &m->recs[lu.over] };
	int x[3], y[3];
	for (int i = 0; i < 3; i++) {
		if (r[i]->time > st->play)
			return;
		x[i] = km_view_x_of(st, r[i]->time);
		y[i] = km_view_cpu_y(st, r[i]->cpu);
		if (y[i] < 0)
			return;
	}
	km_draw_colour(d, km_pal(KM_C_BAD), 255);
	story_arrow(d, x[0], y[0], x[2], y[2], L->row_h);
	story_arrow(d, x[1], y[1], x[2], y[2], L->row_h);
	dot(d, x[0], y[0], 0xFFFFFF);
	dot(d, x[1], y[1], 0xFFFFFF);
	dot(d, x[2], y[2], km_pal(KM_C_BAD));
	/* the values, when the three are far enough apart to be read */
	if (abs(x[2] - x[0]) < km_draw_px(d, 60) && abs(x[2] - x[1]) < km_draw_px(d, 60))
		return;
	char s[96];
	int below = km_draw_px(d, 6), left = L->lanes.x, right = L->lanes.x + L->lanes.w;
	snprintf(s, sizeof(s), "%s reads %lld", km_vm_ctx_name(m, r[0]->ctx), (long long)r[0]->arg);
	label(d, s, x[0], y[0] + below, left, right);
	snprintf(s, sizeof(s), "%s writes %lld", km_vm_ctx_name(m, r[1]->ctx), (long long)r[1]->arg);
	label(d, s, x[1], y[1] + below, left, right);
	snprintf(s, sizeof(s), "writes %lld over it: lost", (long long)r[2]->arg);
	label(d, s, x[2], y[2] - below - km_text_height(d->tx, KM_FONT_SMALL) -
	      (y[0] == y[2] ? L->row_h / 2 : 0), left, right);
}

void km_draw_violations(struct km_draw *d, const struct km_view_state *st, int xplay)
{
	const struct km_view_model *m = st->model;
	const struct km_view_layout *L = &st->lay;
	if (!m || !m->nviols || L->ncmp)
		return;
	km_time until = st->t1 < st->play ? st->t1 : st->play;
	size_t a = first_viol(m, st->t0), b = first_viol(m, until + 1);
	int base = L->axis.y + L->axis.h - 1, s = km_draw_px(d, 6);
	int lastx = INT32_MIN;
	bool rows = L->cpus_per_row == 1 && L->row_h >= km_draw_px(d, 6);
	SDL_RenderSetClipRect(d->r, &(SDL_Rect){ L->lanes.x - s, L->axis.y, L->lanes.w + 2 * s,
						 L->lanes.y + L->lanes.h - L->axis.y });
	for (size_t k = a; k < b; k++) {
		const struct km_trace_rec *r = &m->recs[m->viols[k]];
		int x = km_view_x_of(st, r->time);
		if (x > xplay)
			break;
		if (x == lastx)
			continue;
		lastx = x;
		/* under the axis: a red triangle pointing down at the lanes */
		for (int i = 0; i <= s; i++)
			km_draw_hline(d, x - (s - i), x + (s - i), base - s + i, km_pal(KM_C_BAD));
		int y = rows ? km_view_cpu_y(st, r->cpu) : -1;
		if (y >= 0) {
			int q = s - 1;
			for (int i = -q; i <= q; i++)
				km_draw_hline(d, x - (q - abs(i)), x + (q - abs(i)), y + i, km_pal(KM_C_BAD));
		}
	}
	/* the stories: all of them when few are in view and far apart,
	 * else the one inspected or in focus only -- overlapping arrows
	 * tell nothing */
	if (rows) {
		bool apart = b - a <= MAX_STORIES;
		for (size_t k = a + 1; k < b && apart; k++)
			apart = km_view_x_of(st, m->recs[m->viols[k]].time) -
				km_view_x_of(st, m->recs[m->viols[k - 1]].time) >= km_draw_px(d, 120);
		if (apart) {
			for (size_t k = a; k < b; k++)
				story(d, st, k);
		} else if (st->inspect == KM_INSPECT_VIOLATION && st->inspect_viol < m->nviols) {
			story(d, st, st->inspect_viol);
		} else if (st->has_focus && st->focus < m->nrecs &&
			   m->recs[st->focus].kind == KM_TR_VIOLATION) {
			size_t k = first_viol(m, m->recs[st->focus].time);
			while (k < m->nviols && m->viols[k] != st->focus)
				k++;
			if (k < m->nviols)
				story(d, st, k);
		}
	}
	SDL_RenderSetClipRect(d->r, NULL);
}
