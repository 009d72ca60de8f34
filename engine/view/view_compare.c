/*
 * view_compare.c - small multiples: one scenario under several modes.
 *
 * The point of the museum is contrast: the same code under a semaphore
 * and under a mutex, under the BKL and under spinlocks.  Side by side on
 * one time axis, the run that finishes first ends first on the page, and
 * the colours show where the others spent the difference (vermillion:
 * spinning; pale grey: asleep, waiting).  Each panel carries its mode and
 * its headline figures, and under its CPUs a lane of its hottest lock
 * (holders above, waiters below, as in the single view), so the convoy
 * is seen, not only its cost.  The CPU rows themselves are bucketed with the
 * timeline's code (km_draw_cpu_rows) into the same texture; this file
 * draws only what goes over them.
 */
#include "view_panels.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

/*
 * A deadlocked run's lead: "DEADLOCK at T", in bold red, for the
 * headline's first figure "deadlocked at T", at (x, y) in @w pixels
 * (wrapped when @wrap).  In *@h its height when wrapped, else its
 * width; returns the rest of the headline, after the figure's " · ".
 */
static char *dead_lead(struct km_draw *d, char *head, int x, int y, int w, bool wrap, int *h)
{
	static const char sep[] = "  \xc2\xb7  ", was[] = "deadlocked at ";
	char lead[96];
	char *dot = strstr(head, sep);
	const char *t = strncmp(head, was, sizeof(was) - 1) ? "" : head + sizeof(was) - 1;
	snprintf(lead, sizeof(lead), "DEADLOCK%s%.*s", *t ? " at " : "",
		 (int)(dot ? (size_t)(dot - t) : strlen(t)), t);
	/* bold if it fits on the row, else in the headline's small type */
	enum km_font f = km_text_width(d->tx, KM_FONT_BOLD, lead) <= w ? KM_FONT_BOLD : KM_FONT_SMALL;
	if (wrap) {
		int n = km_draw_text_wrap(d, f, lead, x, y, w, INT_MAX, km_pal(KM_C_BAD));
		*h = n * km_text_height(d->tx, f);
	} else {
		*h = km_text_draw(d->tx, f, lead, x, y, km_pal(KM_C_BAD), KM_LEFT);
	}
	return dot ? dot + sizeof(sep) - 1 : head + strlen(head);
}

/*
 * Projector mode: a panel's mode in the gutter and its headline, with its
 * hottest lock, over the panel, both wrapped; the tallest headline is the
 * layout's measure for every panel (d->meas.cmp_head).  The CPU count
 * and the end marker are drawn by the caller's loop as usual.
 */
static void wrap_head(struct km_draw *d, const struct km_view_state *st,
		      const struct km_view_model *m, char *head, size_t len, const SDL_Rect *p)
{
	const struct km_view_layout *L = &st->lay;
	if (m->hot_lock >= 0) {
		size_t n = strlen(head);
		snprintf(head + n, len - n, "  \xc2\xb7  lock %s: %u waited at most",
			 m->locks[m->hot_lock].lock->name, m->locks[m->hot_lock].max_waiters);
	}
	int lh = km_text_height(d->tx, KM_FONT_SMALL);
	/* a deadlock is said first, in red: "DEADLOCK at T" for the
	 * headline's "deadlocked at T"; the rest of the headline under it */
	int dead = 0;
	char *rest = head;
	if (m->ri->outcome == KM_OUT_DEADLOCK)
		rest = dead_lead(d, head, p->x, p->y + km_draw_px(d, 3), p->w, true, &dead);
	/* at most half the panel for words: when the whole headline takes
	 * more (six modes on a small screen), its first figure, when the run
	 * ended, which is what the panels compare; the figures panel and
	 * the single view have the rest (a deadlock's lead is that figure) */
	if (km_draw_text_lines(d, KM_FONT_SMALL, rest, p->w) * lh + dead + km_draw_px(d, 8) >
	    p->h / 2) {
		char *dot = strstr(rest, "  \xc2\xb7  ");
		if (dead)
			*rest = 0;
		else if (dot)
			*dot = 0;
	}
	int n = *rest ? km_draw_text_wrap(d, KM_FONT_SMALL, rest, p->x,
					  p->y + km_draw_px(d, 4) + dead, p->w, INT_MAX,
					  km_pal(KM_C_INK)) : 0;
	km_draw_text_wrap_right(d, KM_FONT_BOLD, km_mode_name(m->ri->mode), L->gutter.x,
				p->y + km_draw_px(d, 3), L->gutter.w, INT_MAX, km_pal(KM_C_INK));
	int h = n * lh + dead + km_draw_px(d, 8);
	if (h > d->meas.cmp_head)
		d->meas.cmp_head = h;
}

/*
 * The headline on one row of @w pixels: when it does not fit, its last
 * figures go (they are in the figures panel, and pointing tells them), a
 * whole figure at a time at the " · " between them -- never cut through
 * the one that says when the run ended.
 */
static void fit_headline(struct km_draw *d, char *head, int x, int y, int w)
{
	static const char sep[] = "  \xc2\xb7  ";
	while (km_text_width(d->tx, KM_FONT_SMALL, head) > w) {
		char *last = NULL;
		for (char *p = strstr(head, sep); p; p = strstr(p + 1, sep))
			last = p;
		if (!last)
			break;
		*last = 0;
	}
	km_draw_text_fit(d, KM_FONT_SMALL, head, x, y, w, km_pal(KM_C_INK));
}

void km_draw_compare(struct km_draw *d, const struct km_view_frame *f,
		     const struct km_view_state *st)
{
	const struct km_view_layout *L = &st->lay;
	char head[320];
	for (int k = 0; k < L->ncmp; k++) {
		const SDL_Rect *p = &L->cmp[k];
		const struct km_view_model *m = st->cmp[k];
		km_draw_hline(d, L->gutter.x, p->x + p->w, p->y, km_pal(KM_C_GRID));
		if (!m) {
			const char *why = f && f->cmp_why && k < f->ncmp && f->cmp_why[k]
						  ? f->cmp_why[k] : "did not run";
			if (st->projector)
				km_draw_text_wrap(d, KM_FONT_BODY, why, p->x, p->y + km_draw_px(d, 3),
						  p->w, INT_MAX, km_pal(KM_C_MUTED));
			else
				km_draw_text_fit(d, KM_FONT_BODY, why, p->x, p->y + km_draw_px(d, 3),
						 p->w, km_pal(KM_C_MUTED));
			continue;
		}
		const struct km_run_info *ri = m->ri;
		km_view_headline(m, head, sizeof(head));
		/* the mode and how its run ended: what the panels compare */
		enum km_text_role role = km_text_role(d->tx, KM_ROLE_VERDICT);
		if (st->projector) {
			/* a lecture hall: the mode's name and the headline wrap,
			 * and the hottest lock is named in the headline rather
			 * than cut in the gutter */
			wrap_head(d, st, m, head, sizeof(head), p);
		} else {
			km_draw_text_fit(d, KM_FONT_BOLD, km_mode_name(ri->mode), L->gutter.x,
					 p->y + km_draw_px(d, 3), L->gutter.w, km_pal(KM_C_INK));
			/* a deadlock is said first, in red, on the headline's
			 * row: over the lanes it was lost in a spinning run's
			 * vermillion */
			int dx = 0;
			char *rest = head;
			if (ri->outcome == KM_OUT_DEADLOCK) {
				rest = dead_lead(d, head, p->x, p->y + km_draw_px(d, 2), p->w, false, &dx);
				dx += km_draw_px(d, 12);
			}
			if (*rest)
				fit_headline(d, rest, p->x + dx, p->y + km_draw_px(d, 4), p->w - dx);
		}
		km_text_role(d->tx, role);
		/* a few CPU labels, and where this run ended */
		int pitch = L->cmp_row_h[k] + L->cmp_gap[k];
		int y0 = p->y + L->cmp_head;
		int lh = km_text_height(d->tx, KM_FONT_SMALL);
		char buf[32];
		snprintf(buf, sizeof(buf), "%d CPU%s", m->ncpus, m->ncpus == 1 ? "" : "s");
		/* not where it would run into the next panel's name: the
		 * title bar has the count */
		if (!st->projector || L->cmp_rows[k] * pitch >= lh)
			km_text_draw(d->tx, KM_FONT_SMALL, buf, L->gutter.x + L->gutter.w,
				     y0 + (L->cmp_rows[k] * pitch - lh) / 2, km_pal(KM_C_MUTED),
				     KM_RIGHT);
		if (L->cmp_lock_h[k] && m->hot_lock >= 0 && !st->projector) {
			/* the lock lane: its name, and how many waited at most */
			const struct km_vm_lock *K = &m->locks[m->hot_lock];
			int ly = y0 + L->cmp_rows[k] * pitch + km_draw_px(d, 3);
			snprintf(d->line, sizeof(d->line), "%s \xc2\xb7 %u wait", K->lock->name,
				 K->max_waiters);
			km_draw_text_fit(d, KM_FONT_SMALL, d->line, L->gutter.x, ly, L->gutter.w,
					 km_pal(KM_C_INK));
		}
		int xe = km_view_x_of(st, m->end);
		if (xe >= L->lanes.x && xe < L->lanes.x + L->lanes.w) {
			km_draw_fill(d, xe, y0 - km_draw_px(d, 2), km_draw_px(d, 2),
				     L->cmp_rows[k] * pitch + km_draw_px(d, 4), km_pal(KM_C_INK));
		}
	}
}
