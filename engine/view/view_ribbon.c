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
 * spinlocks, mutexes...), on three rows, each label placed so that
 * neither it nor its leader line crosses another (milestones_place);
 * what a width cannot hold is counted under "milestones".
 *
 * The counts come from the era files (era.semaphores) when they have
 * one, else from the table below, which cites the same source as the
 * history.  "Over 100" is drawn as 100 with a "+".
 */
#include "view_panels.h"

#include "../era.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

static const struct {
	double when;
	const char *what;
} milestones[] = {
	{ 1991.7, "cli()/sti()" },
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

#define NMS ((int)(sizeof(milestones) / sizeof(milestones[0])))

const char *km_view_milestone(int i)
{
	return i >= 0 && i < NMS ? milestones[i].what : NULL;
}

/* Where a milestone's label goes: its row (-1: left out) and left x. */
struct ms_place {
	int row, x0, x1, x;
};

struct ms_search {
	struct ms_place cur[NMS], best[NMS];
	int best_out, nodes;
	int tw[NMS], xs[NMS];
	int pad, gap, lo, hi;
};

/* Whether label [a, b) in @row with its leader at @x collides with the
 * first @n placed: two labels of a row too close, or a leader through a
 * label of a row above its own. */
static bool ms_collides(const struct ms_search *m, int n, int row, int a, int b, int x)
{
	for (int k = 0; k < n; k++) {
		const struct ms_place *p = &m->cur[k];
		if (p->row < 0)
			continue;
		if (p->row == row && a < p->x1 + m->gap && p->x0 < b + m->gap)
			return true;
		if (p->row < row && x >= p->x0 - 2 && x <= p->x1 + 2)
			return true;	/* my leader through its label */
		if (p->row > row && p->x >= a - 2 && p->x <= b + 2)
			return true;	/* its leader through mine */
	}
	return false;
}

/* Depth first, at most @allow left out: a dead end is found at once and
 * the search backs up to the label that can move.  Each label goes right
 * of its marker, else left of it, in the first row that takes it. */
static void ms_search(struct ms_search *m, int i, int out, int allow, int rows)
{
	if (out > allow || m->best_out <= allow || ++m->nodes > 50000)
		return;
	if (i == NMS) {
		m->best_out = out;
		memcpy(m->best, m->cur, sizeof(m->best));
		return;
	}
	int x = m->xs[i];
	for (int side = 0; side < 2; side++) {
		int a = side ? x - m->pad - m->tw[i] : x + m->pad;
		int b = a + m->tw[i];
		if (a < m->lo || b > m->hi)
			continue;
		for (int row = 0; row < rows; row++) {
			if (ms_collides(m, i, row, a, b, x))
				continue;
			m->cur[i] = (struct ms_place){ row, a, b, x };
			ms_search(m, i + 1, out, allow, rows);
			if (m->best_out <= allow)
				return;
		}
	}
	m->cur[i] = (struct ms_place){ -1, 0, 0, x };
	ms_search(m, i + 1, out + 1, allow, rows);
}

/*
 * The milestones' rows.  A label and its leader (a line from the line of
 * years down to the label's row) must not cross another label: a leader
 * through the letters above it made the first, cli()/sti(), unreadable.  So
 * a label in a lower row needs every label above it to be clear of its
 * leader, and close milestones climb a stair: the first of a cluster in
 * the bottom row, the next above it.  Found by a short search (15 labels,
 * a few hundred steps at the supported sizes), deterministic; what does
 * not fit is counted, and the ribbon says how many.  Returns that count.
 */
static int milestones_place(struct km_draw *d, const struct km_view_state *st,
			    struct ms_place *out)
{
	static struct ms_search m;	/* the drawer runs on one thread */
	memset(&m, 0, sizeof(m));
	m.pad = km_draw_px(d, 3);
	m.gap = km_draw_px(d, 8);
	m.lo = st->lay.rib_x0 - km_draw_px(d, 40);
	m.hi = st->lay.ribbon.x + st->lay.ribbon.w - km_draw_px(d, 2);
	for (int i = 0; i < NMS; i++) {
		m.xs[i] = km_view_year_x(st, milestones[i].when);
		m.tw[i] = km_text_width(d->tx, KM_FONT_SMALL, milestones[i].what);
	}
	/* none left out, else one, ...; a budget of steps in all keeps a
	 * hopeless width (very large type) from searching long: then the
	 * labels that fit, left to right, one a row, and the rest counted */
	m.best_out = NMS + 1;
	int rows = st->lay.rib_rows > 3 ? 3 : st->lay.rib_rows;
	for (int allow = 0; allow <= NMS && m.best_out > NMS && m.nodes <= 50000; allow++)
		ms_search(&m, 0, 0, allow, rows);
	if (m.best_out > NMS) {
		m.best_out = 0;
		int end = INT_MIN;
		for (int i = 0; i < NMS; i++) {
			int a = m.xs[i] + m.pad;
			bool fits = rows > 0 && a >= end && a + m.tw[i] <= m.hi;
			m.best[i] = (struct ms_place){ fits ? 0 : -1, a, a + m.tw[i], m.xs[i] };
			if (fits)
				end = a + m.tw[i] + m.gap;
			else
				m.best_out++;
		}
	}
	memcpy(out, m.best, sizeof(m.best));
	return m.best_out;
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

	/* milestones: in three rows, leaders clear of every label (below) */
	struct ms_place pl[NMS];
	int ml = milestones_place(d, st, pl);
	int my = ay + lh + km_draw_px(d, 9);
	int pitch = lh;
	for (int i = 0; i < NMS; i++) {
		int x = km_view_year_x(st, milestones[i].when);
		if (pl[i].row < 0) {
			/* left out: a tick under the line still marks it */
			km_draw_fill(d, x, ay + km_draw_px(d, 4), 1, km_draw_px(d, 5), km_pal(KM_C_MUTED));
			continue;
		}
		int y = my + pl[i].row * pitch;
		/* the leader as a 1-pixel fill: the record of placed text sees it */
		km_draw_fill(d, x, ay + km_draw_px(d, 4), 1, y + lh / 2 - ay - km_draw_px(d, 4),
			     km_pal(KM_C_GRID));
		km_draw_fill(d, x - 1, y + lh / 2 - 1, 3, 3, km_pal(KM_C_MUTED));
		km_text_draw(d->tx, KM_FONT_SMALL, milestones[i].what, pl[i].x0, y, km_pal(KM_C_INK),
			     KM_LEFT);
	}
	if (ml) {
		/* the visible sign of what did not fit: the history has them */
		snprintf(d->line, sizeof(d->line), "+%d not shown", ml);
		km_text_draw(d->tx, KM_FONT_SMALL, d->line, left, my + pitch, km_pal(KM_C_MUTED),
			     KM_LEFT);
	}
}
