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
#include "view_draw.h"

#include "../lua/eras.h"

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

void km_draw_ribbon(struct km_draw *d, const struct km_view_frame *f,
		    const struct km_view_state *st)
{
	const struct km_view_layout *L = &st->lay;
	const SDL_Rect *r = &L->ribbon;
	km_draw_fill(d, r->x, r->y, r->w, r->h, km_pal(KM_C_PANEL));
	km_draw_hline(d, r->x, r->x + r->w, r->y, km_pal(KM_C_GRID));
	int ay = L->rib_axis_y;
	int yw = km_view_year_x(st, 1992) - km_view_year_x(st, 1991);
	int lh = km_text_height(d->tx, KM_FONT_SMALL);

	/* the current era's spotlight, under everything else */
	const struct km_era_list *eras = f->eras;
	if (eras && st->era >= 0 && st->era < eras->n) {
		int x = km_view_year_x(st, eras->v[st->era].year);
		km_draw_fill(d, x, r->y + km_draw_px(d, 4), yw > 2 ? yw : 2,
			     r->h - km_draw_px(d, 8), km_pal(KM_C_HILITE));
	}

	/* title at the left */
	km_text_draw(d->tx, KM_FONT_BOLD, "1991-2023", r->x + km_draw_px(d, 10),
		     r->y + km_draw_px(d, 8), km_pal(KM_C_INK), KM_LEFT);
	km_text_draw(d->tx, KM_FONT_SMALL, "semaphores", r->x + km_draw_px(d, 10),
		     r->y + km_draw_px(d, 8) + lh + 2, km_pal(KM_C_MUTED), KM_LEFT);
	km_text_draw(d->tx, KM_FONT_SMALL, "in the tree", r->x + km_draw_px(d, 10),
		     r->y + km_draw_px(d, 8) + 2 * lh + 2, km_pal(KM_C_MUTED), KM_LEFT);
	km_text_draw(d->tx, KM_FONT_SMALL, "milestones", r->x + km_draw_px(d, 10), ay + km_draw_px(d, 16),
		     km_pal(KM_C_MUTED), KM_LEFT);

	/* semaphore counts */
	int bar_top = r->y + km_draw_px(d, 20), bar_h = ay - bar_top - km_draw_px(d, 14);
	for (size_t i = 0; i < sizeof(sem_counts) / sizeof(sem_counts[0]); i++) {
		int count = sem_counts[i].count;
		if (eras)
			for (int k = 0; k < eras->n; k++)
				if (eras->v[k].year == sem_counts[i].year && eras->v[k].semaphores > 0)
					count = eras->v[k].semaphores;
		int h = bar_h * count / SEM_MAX;
		int x = km_view_year_x(st, sem_counts[i].year + 0.5);
		int bw = yw * 2 / 3;
		km_draw_fill(d, x - bw / 2, ay - km_draw_px(d, 12) - h, bw, h, km_pal(KM_C_COUNTER_LINE));
		snprintf(d->line, sizeof(d->line), "%d%s", count, sem_counts[i].year == 2023 ? "+" : "");
		km_text_draw(d->tx, KM_FONT_SMALL, d->line, x, ay - km_draw_px(d, 12) - h - lh,
			     km_pal(KM_C_INK), KM_CENTRE);
	}

	/* the line of years */
	km_draw_hline(d, L->rib_x0, L->rib_x1, ay, km_pal(KM_C_INK));
	int label_every = yw >= km_draw_px(d, 34) ? 1 : yw >= km_draw_px(d, 17) ? 2 : 4;
	for (int y = 1991; y <= 2024; y++) {
		int x = km_view_year_x(st, y);
		km_draw_vline(d, x, ay - km_draw_px(d, 3), ay + km_draw_px(d, 3), km_pal(KM_C_INK));
		if (y <= 2023 && (y - 1991) % label_every == 0) {
			snprintf(d->line, sizeof(d->line), "%d", y);
			km_text_draw(d->tx, KM_FONT_SMALL, d->line, km_view_year_x(st, y + 0.5),
				     ay - km_draw_px(d, 12) - (y == 2023 || y == 1999 || y == 2001 ||
								 y == 2003 || y == 2005 ? 0 : 0) - lh,
				     km_pal(KM_C_MUTED), KM_CENTRE);
		}
	}

	/* the eras of the collection: a dot each, the current one bold */
	if (eras) {
		for (int k = 0; k < eras->n; k++) {
			int x = km_view_year_x(st, eras->v[k].year + 0.5);
			int s = km_draw_px(d, k == st->era ? 5 : 3);
			km_draw_fill(d, x - s, ay - s, 2 * s + 1, 2 * s + 1,
				     k == st->era ? km_pal(KM_C_INK) : km_pal(KM_C_FOCUS));
		}
		if (st->era >= 0 && st->era < eras->n) {
			const struct km_era *e = &eras->v[st->era];
			snprintf(d->line, sizeof(d->line), "%s (%d)", e->version, e->year);
			int x = km_view_year_x(st, e->year + 0.5);
			km_text_draw(d->tx, KM_FONT_BOLD, d->line, x, r->y + r->h - lh - km_draw_px(d, 4),
				     km_pal(KM_C_INK), x > L->rib_x1 - km_draw_px(d, 60) ? KM_RIGHT : KM_CENTRE);
		}
	}

	/* milestones, staggered */
	for (size_t i = 0; i < sizeof(milestones) / sizeof(milestones[0]); i++) {
		int x = km_view_year_x(st, milestones[i].when);
		int row = (int)(i % 2);
		int y = ay + km_draw_px(d, 6) + row * (lh - km_draw_px(d, 1));
		km_draw_vline(d, x, ay, y + km_draw_px(d, 3), km_pal(KM_C_MUTED));
		enum km_align a = x > L->rib_x1 - km_draw_px(d, 100) ? KM_RIGHT : KM_LEFT;
		km_text_draw(d->tx, KM_FONT_SMALL, milestones[i].what, x + (a == KM_LEFT ? 2 : -2), y,
			     km_pal(KM_C_INK), a);
	}
}
