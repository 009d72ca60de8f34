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

#include <stdio.h>

void km_draw_compare(struct km_draw *d, const struct km_view_frame *f,
		     const struct km_view_state *st)
{
	const struct km_view_layout *L = &st->lay;
	char head[160];
	for (int k = 0; k < L->ncmp; k++) {
		const SDL_Rect *p = &L->cmp[k];
		const struct km_view_model *m = st->cmp[k];
		km_draw_hline(d, L->gutter.x, p->x + p->w, p->y, km_pal(KM_C_GRID));
		if (!m) {
			const char *why = f && f->cmp_why && k < f->ncmp && f->cmp_why[k]
						  ? f->cmp_why[k] : "did not run";
			km_draw_text_fit(d, KM_FONT_BODY, why, p->x, p->y + km_draw_px(d, 3), p->w,
					 km_pal(KM_C_MUTED));
			continue;
		}
		const struct km_run_info *ri = m->ri;
		km_draw_text_fit(d, KM_FONT_BOLD, km_mode_name(ri->mode), L->gutter.x,
				 p->y + km_draw_px(d, 3), L->gutter.w, km_pal(KM_C_INK));
		km_view_headline(m, head, sizeof(head));
		km_draw_text_fit(d, KM_FONT_SMALL, head, p->x, p->y + km_draw_px(d, 4), p->w,
				 km_pal(KM_C_INK));
		/* a few CPU labels, and where this run ended */
		int pitch = L->cmp_row_h[k] + L->cmp_gap[k];
		int y0 = p->y + L->cmp_head;
		int lh = km_text_height(d->tx, KM_FONT_SMALL);
		char buf[32];
		snprintf(buf, sizeof(buf), "%d CPU%s", m->ncpus, m->ncpus == 1 ? "" : "s");
		km_text_draw(d->tx, KM_FONT_SMALL, buf, L->gutter.x + L->gutter.w,
			     y0 + (L->cmp_rows[k] * pitch - lh) / 2, km_pal(KM_C_MUTED), KM_RIGHT);
		if (L->cmp_lock_h[k] && m->hot_lock >= 0) {
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
		if (ri->outcome == KM_OUT_DEADLOCK)
			km_text_draw(d->tx, KM_FONT_BOLD, "DEADLOCK", L->lanes.x + L->lanes.w, y0,
				     km_pal(KM_C_BAD), KM_RIGHT);
	}
}
