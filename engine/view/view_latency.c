/*
 * view_latency.c - the distribution of each measure(), as a CDF.
 *
 * An exhibit that names latencies ("critical p99 falls eightfold") is
 * about a distribution, not an average: a tail is a shape.  Each series a
 * scenario measured is drawn as its cumulative distribution -- the share
 * of calls (up) that took at most a time (across, on a log scale, since
 * latencies span decades) -- one line per name, in the task colours with
 * a different dash each, so that they stay apart in grey print too, and
 * p50 and p99 written beside the name.  The points come from the core's
 * histogram (km_hist_quantile), so the curve is exact to a bucket.
 *
 * It goes in the stats panel, under the violations, when there is room;
 * a run with no measure() has none.
 */
#include "view_panels.h"

#include <math.h>
#include <stdio.h>

#define MAX_SERIES 4
#define STEPS 64

static const char *fmt_t(km_time t, char *buf, size_t len)
{
	if (t >= 1000000000)
		snprintf(buf, len, "%.3g s", (double)t / 1e9);
	else if (t >= 1000000)
		snprintf(buf, len, "%.3g ms", (double)t / 1e6);
	else if (t >= 1000)
		snprintf(buf, len, "%.3g \xc2\xb5s", (double)t / 1e3);
	else
		snprintf(buf, len, "%lld ns", (long long)t);
	return buf;
}

/*
 * A series' line of the legend: its name, p50 and p99 and the number of
 * calls, in the longest of three wordings that fits the width -- the
 * calls dropped first, then p50 -- and only then cut (a name alone too
 * long for the panel).  The figures it keeps are whole: they are what
 * the lesson reads.
 */
static void legend_line(struct km_draw *d, const struct km_opstat *s, int x, int y, int w)
{
	char a[32], b[32];
	fmt_t(km_hist_quantile(&s->hist, 0.5), a, sizeof(a));
	fmt_t(km_hist_quantile(&s->hist, 0.99), b, sizeof(b));
	enum km_text_role role = km_text_role(d->tx, KM_ROLE_FIGURE);
	for (int form = 0; form < 3; form++) {
		if (form == 0)
			snprintf(d->line, sizeof(d->line), "%s  p50 %s  p99 %s  (%llu calls)",
				 s->name, a, b, (unsigned long long)s->hist.mm.n);
		else if (form == 1)
			snprintf(d->line, sizeof(d->line), "%s  p50 %s  p99 %s", s->name, a, b);
		else
			snprintf(d->line, sizeof(d->line), "%s  p99 %s", s->name, b);
		if (km_text_width(d->tx, KM_FONT_SMALL, d->line) <= w) {
			km_text_draw(d->tx, KM_FONT_SMALL, d->line, x, y, km_pal(KM_C_INK), KM_LEFT);
			km_text_role(d->tx, role);
			return;
		}
	}
	km_text_role(d->tx, KM_ROLE_FREE);
	km_draw_text_fit(d, KM_FONT_SMALL, d->line, x, y, w, km_pal(KM_C_INK));
	km_text_role(d->tx, role);
}

void km_draw_latency(struct km_draw *d, const struct km_view_model *m, const SDL_Rect *r)
{
	const struct km_sim *sim = m->sim;
	int n = 0;
	const struct km_opstat *ser[MAX_SERIES];
	for (size_t i = 0; i < sim->opstats.n && n < MAX_SERIES; i++)
		if (sim->opstats.v[i]->hist.mm.n)
			ser[n++] = sim->opstats.v[i];
	int lh = km_text_height(d->tx, KM_FONT_SMALL);
	if (!n || r->h < lh * (n + 4) || r->w < km_draw_px(d, 120))
		return;
	km_time lo = 0, hi = 0;
	for (int k = 0; k < n; k++) {
		const struct km_minmax *mm = &ser[k]->hist.mm;
		if (k == 0 || mm->min < lo)
			lo = mm->min;
		if (k == 0 || mm->max > hi)
			hi = mm->max;
	}
	double l0 = log10((double)(lo > 1 ? lo : 1)), l1 = log10((double)(hi > 1 ? hi : 1));
	if (l1 - l0 < 0.5) {
		l0 -= 0.25;
		l1 += 0.25;
	}
	/* a heading, never cut: the longest wording that fits */
	static const char *const heads[] = { "Latency: share of calls done within a time",
					     "Latency: calls done within a time", "Latency" };
	size_t hk = 0;
	while (hk + 1 < sizeof(heads) / sizeof(heads[0]) &&
	       km_text_width(d->tx, KM_FONT_BOLD, heads[hk]) > r->w)
		hk++;
	enum km_text_role role = km_text_role(d->tx, KM_ROLE_HEADING);
	km_text_draw(d->tx, KM_FONT_BOLD, heads[hk], r->x, r->y, km_pal(KM_C_INK), KM_LEFT);
	km_text_role(d->tx, role);
	/* the names, with p50 and p99 */
	int y = r->y + lh + km_draw_px(d, 2);
	char a[32], b[32];
	for (int k = 0; k < n; k++) {
		uint32_t col = km_pal_task((unsigned)k);
		int sw = km_draw_px(d, 18);
		for (int x = 0; x < sw; x++)
			if ((x / (k + 2)) % 2 == 0 || k == 0)
				km_draw_fill(d, r->x + x, y + lh / 2 - 1, 1, km_draw_px(d, 3), col);
		legend_line(d, ser[k], r->x + sw + km_draw_px(d, 4), y, r->w - sw - km_draw_px(d, 4));
		y += lh;
	}
	/* the chart: 0..100% up, log time across; its "100%" is written half
	 * a line above its top, so the top is that much below the legend */
	y += lh / 2;
	SDL_Rect c = { r->x + km_draw_px(d, 30), y + km_draw_px(d, 4), r->w - km_draw_px(d, 34),
		       r->y + r->h - y - km_draw_px(d, 8) - lh };
	if (c.h < km_draw_px(d, 30))
		return;
	km_draw_frame_rect(d, c.x, c.y, c.w, c.h, km_pal(KM_C_GRID));
	km_text_draw(d->tx, KM_FONT_SMALL, "100%", c.x - km_draw_px(d, 2), c.y - lh / 2,
		     km_pal(KM_C_MUTED), KM_RIGHT);
	km_text_draw(d->tx, KM_FONT_SMALL, "0", c.x - km_draw_px(d, 2), c.y + c.h - lh / 2,
		     km_pal(KM_C_MUTED), KM_RIGHT);
	km_text_draw(d->tx, KM_FONT_SMALL, fmt_t((km_time)pow(10, l0), a, sizeof(a)), c.x,
		     c.y + c.h + 1, km_pal(KM_C_MUTED), KM_LEFT);
	km_text_draw(d->tx, KM_FONT_SMALL, fmt_t((km_time)pow(10, l1), b, sizeof(b)), c.x + c.w,
		     c.y + c.h + 1, km_pal(KM_C_MUTED), KM_RIGHT);
	/* p99: the tail a lesson names */
	int y99 = c.y + c.h - (int)lround(0.99 * (double)c.h);
	for (int x = c.x; x < c.x + c.w; x += km_draw_px(d, 6))
		km_draw_fill(d, x, y99, km_draw_px(d, 3), 1, km_pal(KM_C_MUTED));
	SDL_RenderSetClipRect(d->r, &c);
	for (int k = 0; k < n; k++) {
		km_draw_colour(d, km_pal_task((unsigned)k), 255);
		int px0 = 0, py0 = 0;
		for (int s = 0; s <= STEPS; s++) {
			double q = (double)s / STEPS;
			km_time v = km_hist_quantile(&ser[k]->hist, q);
			double lx = (log10((double)(v > 1 ? v : 1)) - l0) / (l1 - l0);
			int px = c.x + (int)lround(lx * (double)(c.w - 1));
			int py = c.y + c.h - 1 - (int)lround(q * (double)(c.h - 1));
			/* dashed for all but the first series: every other step */
			if (s > 0 && (k == 0 || s % 2 == 0)) {
				SDL_RenderDrawLine(d->r, px0, py0, px, py);
				SDL_RenderDrawLine(d->r, px0, py0 - 1, px, py - 1);
			}
			px0 = px;
			py0 = py;
		}
	}
	SDL_RenderSetClipRect(d->r, NULL);
}
