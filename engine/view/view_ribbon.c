/*
 * view_ribbon.c - the era ribbon: 1991 to 2023 along the bottom.
 *
 * Three layers on one line of years.  Above it, bars: how many
 * `struct semaphore`s the kernel declared at each release that was
 * counted (71 in 2.2, 138 in 2.4.0, 332 in 2.6.0, 483 in 2.6.14, "over
 * 100" in 2023) -- the rise and fall the museum is about.  On it, the
 * eras of the collection, one tick each, the current one in a yellow
 * spotlight band; a click on one re-runs the exhibit there.  Below it,
 * the milestones of the history (the first semaphores, the BKL, ticket
 * spinlocks, mutexes...), staggered on two rows so their labels do not
 * collide.
 *
 * The counts come from the era files (era.semaphores) when they have
 * one, else from the table below, which cites the same source as the
 * history.  "Over 100" is drawn as 100 with a "+".
 */
#include "view_panels.h"

#include "../era.h"

#include <limits.h>
#include <stdio.h>

static const struct {
	double when;
	const char *what;
} milestones[] = {
	{ 1991.7, "0.01: cli()/sti()" },
	{ 1992.4, "first semaphores" },
	{ 1994.2, "inode i_sem" },
	{ 1996.5, "SMP, BKL" },
	{ 1997.3, "spinlocks" },
	{ 2002.6, "global cli() gone" },
	{ 2003.95, "preemptible" },
	{ 2006.2, "mutexes" },
	{ 2008.3, "ticket spinlocks" },
	{ 2009.5, "mutex spinning" },
	{ 2011.4, "BKL removed" },
	{ 2015.5, "qspinlock" },
	{ 2016.95, "mutex handoff" },
	{ 2022.6, "mlx5 throttle" },
	{ 2023.5, "DEFINE_SEMAPHORE(n)" },
};

/* struct semaphore declarations per counted release (history.md). */
static const struct {
	int year;
	int count;
	const char *release;
} sem_counts[] = {
	{ 1999, 71, "2.2" },
	{ 2001, 138, "2.4.0" },
	{ 2003, 332, "2.6.0" },
	{ 2005, 483, "2.6.14" },
	{ 2023, 100, "6.4" },
};

#define SEM_MAX 483

/* The line of years, labelled below, and on it the eras of the
 * collection: a dot each, the current one larger. */
static void years_and_eras(struct km_draw *d, const struct km_era_list *eras,
			   const struct km_view_state *st, int ay, int yw)
{
	const struct km_view_layout *L = &st->lay;
	/* the line of years, labelled below */
	km_draw_hline(d, L->rib_x0, L->rib_x1, ay, km_pal(KM_C_INK));
	int yearw = km_text_width(d->tx, KM_FONT_SMALL, "2000") + km_draw_px(d, 6);
	int every = yw >= yearw ? 1 : 2 * yw >= yearw ? 2 : 4;
	for (int y = 1991; y <= 2024; y++) {
		int x = km_view_year_x(st, y);
		km_draw_vline(d, x, ay, ay + km_draw_px(d, 4), km_pal(KM_C_INK));
		if (y <= 2023 && (y - 1991) % every == 0) {
			snprintf(d->line, sizeof(d->line), "%d", y);
			km_text_draw(d->tx, KM_FONT_SMALL, d->line, km_view_year_x(st, y + 0.5),
				     ay + km_draw_px(d, 7), km_pal(KM_C_MUTED), KM_CENTRE);
		}
	}

	/* the eras of the collection: a dot each, the current one larger */
	if (eras) {
		for (int k = 0; k < eras->n; k++) {
			int x = km_view_year_x(st, eras->v[k].year + 0.5);
			int s = km_draw_px(d, k == st->era ? 5 : 3);
			km_draw_fill(d, x - s, ay - s, 2 * s + 1, 2 * s + 1,
				     k == st->era ? km_pal(KM_C_INK) : km_pal(KM_C_FOCUS));
		}
	}
}

void km_draw_ribbon(struct km_draw *d, const struct km_view_frame *f,
		    const struct km_view_state *st)
{
	const struct km_view_layout *L = &st->lay;
	const SDL_Rect *r = &L->ribbon;
	const struct km_era_list *eras = f->eras;
	km_draw_fill(d, r->x, r->y, r->w, r->h, km_pal(KM_C_PANEL));
	km_draw_hline(d, r->x, r->x + r->w, r->y, km_pal(KM_C_GRID));
	int ay = L->rib_axis_y;
	int yw = km_view_year_x(st, 1992) - km_view_year_x(st, 1991);
	int lh = km_text_height(d->tx, KM_FONT_SMALL);
	int left = r->x + km_draw_px(d, 12);
	bool have_era = eras && st->era >= 0 && st->era < eras->n;

	/* the current era's spotlight, under everything else */
	if (have_era) {
		int x = km_view_year_x(st, eras->v[st->era].year);
		km_draw_fill(d, x, r->y + km_draw_px(d, 3), yw > 2 ? yw : 2, r->h - km_draw_px(d, 6),
			     km_pal(KM_C_HILITE));
	}

	/* the left column: where we are, and what the layers are */
	if (have_era && L->rib_rows) {
		const struct km_era *e = &eras->v[st->era];
		snprintf(d->line, sizeof(d->line), "%d \xc2\xb7 Linux %s", e->year, e->version);
		km_text_draw(d->tx, KM_FONT_BOLD, d->line, left, r->y + km_draw_px(d, 6),
			     km_pal(KM_C_INK), KM_LEFT);
	}
	if (!L->rib_rows) {
		/* a short screen in projector mode (view_layout.c): the line
		 * of years and the eras; the history has the rest */
		years_and_eras(d, eras, st, ay, yw);
		return;
	}
	int hint_y = r->y + km_draw_px(d, 6) + km_text_height(d->tx, KM_FONT_BOLD);
	if (!f->still && hint_y + lh <= ay - lh - km_draw_px(d, 2))
		/* only where it does not run into the label below (H has it) */
		km_text_draw(d->tx, KM_FONT_SMALL, "[ ] or click: era", left, hint_y,
			     km_pal(KM_C_MUTED), KM_LEFT);
	km_text_draw(d->tx, KM_FONT_SMALL, "semaphores in tree", left, ay - lh - km_draw_px(d, 2),
		     km_pal(KM_C_COUNTER_LINE), KM_LEFT);
	km_text_draw(d->tx, KM_FONT_SMALL, "milestones", left, ay + lh + km_draw_px(d, 8),
		     km_pal(KM_C_MUTED), KM_LEFT);

	/* semaphore counts, as bars standing on the line of years */
	int bar_max = ay - r->y - lh - km_draw_px(d, 10);
	int next_bar = INT_MIN;		/* where the next bar starts, for the labels */
	for (size_t i = 0; i < sizeof(sem_counts) / sizeof(sem_counts[0]); i++) {
		int count = sem_counts[i].count;
		if (eras)
			for (int k = 0; k < eras->n; k++)
				if (eras->v[k].year == sem_counts[i].year && eras->v[k].semaphores > 0)
					count = eras->v[k].semaphores;
		int h = bar_max * count / SEM_MAX;
		int x = km_view_year_x(st, sem_counts[i].year + 0.5);
		int bw = yw / 2 > 4 ? yw / 2 : 4;
		km_draw_fill(d, x - bw / 2, ay - h, bw, h, km_pal(KM_C_COUNTER_LINE));
		snprintf(d->line, sizeof(d->line), "%d%s", count, sem_counts[i].year == 2023 ? "+" : "");
		int lx = x + bw / 2 + km_draw_px(d, 3);
		int tw = km_text_width(d->tx, KM_FONT_SMALL, d->line);
		bool fits = lx + tw < r->x + r->w;
		next_bar = i + 1 < sizeof(sem_counts) / sizeof(sem_counts[0])
				   ? km_view_year_x(st, sem_counts[i + 1].year + 0.5) - bw / 2 : INT_MAX;
		if (fits && lx + tw > next_bar && h + lh <= bar_max + lh) {
			/* no room beside it before the next bar (large type):
			 * on top of the bar instead, not over its neighbour */
			km_text_draw(d->tx, KM_FONT_SMALL, d->line, x, ay - h - lh, km_pal(KM_C_INK),
				     KM_CENTRE);
			continue;
		}
		km_text_draw(d->tx, KM_FONT_SMALL, d->line, fits ? lx : x - bw / 2 - km_draw_px(d, 3),
			     ay - lh, km_pal(KM_C_INK), fits ? KM_LEFT : KM_RIGHT);
	}

	years_and_eras(d, eras, st, ay, yw);

	/* milestones: each in the first of three rows where it fits */
	int row_end[3] = { INT_MIN, INT_MIN, INT_MIN };
	int my = ay + lh + km_draw_px(d, 9);
	for (size_t i = 0; i < sizeof(milestones) / sizeof(milestones[0]); i++) {
		int x = km_view_year_x(st, milestones[i].when);
		int tw = km_text_width(d->tx, KM_FONT_SMALL, milestones[i].what);
		int x0 = x + tw > L->rib_x1 ? x - tw : x;
		int row = 0;
		while (row < 3 && row_end[row] > x0 - km_draw_px(d, 8))
			row++;
		if (row == 3)
			continue;	/* no room at this width: the history has it */
		row_end[row] = x0 + tw;
		int y = my + row * (lh - km_draw_px(d, 1));
		km_draw_vline(d, x, ay + km_draw_px(d, 4), y + lh / 2, km_pal(KM_C_GRID));
		km_draw_fill(d, x - 1, y + lh / 2 - 1, 3, 3, km_pal(KM_C_MUTED));
		km_text_draw(d->tx, KM_FONT_SMALL, milestones[i].what, x0 == x ? x + km_draw_px(d, 3) : x0 - km_draw_px(d, 3),
			     y, km_pal(KM_C_INK), KM_LEFT);
	}
}
