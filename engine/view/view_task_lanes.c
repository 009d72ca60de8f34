/*
 * view_task_lanes.c - one lane per task, under the lock lanes: who runs,
 * who is runnable, who spins or sleeps, and on which lock.
 *
 * A lock lane says how many wait; these say who.  Each lane is a task's
 * time (view_tasks.h), painted column by column like the lock lanes: the
 * state that took most of the column's slice of time, in the colour the
 * CPU lanes use for it (the task's own colour running, vermillion
 * spinning, orange asleep on a lock -- the lock lane's waiter colour --,
 * purple when an interrupt handler has its CPU).  Being ready without a
 * CPU (runnable) and sleeping on something that is not a lock (a timer, a
 * wait queue) are thin bars: they are waiting too, but not for a lock.
 * Over a wait wide enough to hold it the lock's name is written, so the
 * lane reads "spins on dcache_lock", "sleeps on i_sem".
 *
 * Which tasks: all of them in order of the time they spent waiting for a
 * lock, most first (the ones a lesson is about), as many as the layout
 * gives lanes; with more tasks than lanes, the wheel over the lanes
 * scrolls through the rest and the heading says which are shown.
 *
 * Cost: the spans of the shown tasks that fall in view, once per change
 * of the window onto time (the pixels are cached with the CPU lanes'),
 * whatever the number of tasks or CPUs.
 */
#include "view_panels.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

static inline uint32_t argb(uint32_t rgb)
{
	return 0xFF000000u | rgb;
}

static unsigned slot_of(const struct km_view_model *m, uint32_t ctx)
{
	return ctx < m->nctx ? m->ctx_colour[ctx] : 0;
}

/* The colour and height (of @h) of @state for task @ctx. */
static uint32_t state_look(const struct km_view_model *m, uint32_t ctx, int state, uint8_t wait,
			   int h, int *hh)
{
	uint32_t task = km_pal_task(slot_of(m, ctx));
	*hh = h;
	switch (state) {
	case KM_TS_RUNNING:
		return task;
	case KM_TS_SPIN:
		return km_pal_state(KM_CPU_SPIN, 0);
	case KM_TS_ASLEEP:
		if (wait == KM_WAIT_LOCK)
			return km_pal(KM_C_WAIT);
		*hh = h / 2;
		return km_pal_mix(km_pal(KM_C_WAIT), km_pal(KM_C_BG), 110);
	case KM_TS_IRQ:
		*hh = h * 2 / 3;
		return km_pal_state(KM_CPU_IRQ, 0);
	case KM_TS_RUNNABLE:
		*hh = h / 3;
		return km_pal_mix(task, km_pal(KM_C_BG), 120);
	default:
		*hh = 0;
		return km_pal(KM_C_BG);
	}
}

/* Lane of task @ctx, @h pixels from row @y of d->px. */
static void task_lane(struct km_draw *d, const struct km_view_model *m, uint32_t ctx, int y,
		      int h, km_time t0, km_time t1)
{
	const struct km_vm_tasks *T = &m->tasks;
	int W = d->px_w;
	if (ctx >= T->nctx || h < 1 || y < 0 || y + h > d->px_h)
		return;
	double dt = (double)(t1 - t0) / (double)W, end = (double)m->end;
	uint32_t grid = argb(km_pal(KM_C_GRID));
	size_t first = T->first[ctx], iend = T->first[ctx + 1];
	for (int c = 0; c < W; c++) {
		if ((double)t0 + c * dt >= end)
			break;
		d->px[(size_t)(y + h - 1) * (size_t)W + (size_t)c] = grid;
	}
	if (first == iend)
		return;
	/* the first span in view */
	size_t lo = first, hi = iend;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (T->spans[mid].t <= t0)
			lo = mid;
		else
			hi = mid;
	}
	size_t i = lo;
	int band = h - 1;
	for (int c = 0; c < W && i < iend; c++) {
		double ca = (double)t0 + c * dt, cb = ca + dt;
		if (ca >= end)
			break;
		double acc[KM_TS_STATES] = {0};
		uint8_t wait = 0;
		double wlen = -1;
		while (i < iend) {
			const struct km_vm_tspan *sp = &T->spans[i];
			double s = (double)sp->t, e = i + 1 < iend ? (double)T->spans[i + 1].t : end;
			if (s >= cb)
				break;
			double a = s > ca ? s : ca, b = e < cb ? e : cb;
			if (b > a) {
				acc[sp->state] += b - a;
				if (sp->state == KM_TS_ASLEEP && b - a > wlen) {
					wlen = b - a;
					wait = sp->wait;
				}
			}
			if (e <= cb)
				i++;
			else
				break;
		}
		/* the dominant state, a wait or a run beating "not started" */
		int best = -1;
		for (int s = KM_TS_RUNNING; s < KM_TS_STATES; s++)
			if (acc[s] > 0 && (best < 0 || acc[s] > acc[best]))
				best = s;
		if (best < 0)
			continue;
		int hh;
		uint32_t col = argb(state_look(m, ctx, best, wait, band, &hh));
		if (hh < 1)
			hh = 1;
		int top = y + (band - hh) / 2;
		for (int r = top; r < top + hh; r++)
			d->px[(size_t)r * (size_t)W + (size_t)c] = col;
	}
}

void km_draw_task_pixels(struct km_draw *d, const struct km_view_state *st)
{
	const struct km_view_layout *L = &st->lay;
	const struct km_view_model *m = st->model;
	const struct km_vm_tasks *T = &m->tasks;
	int gap = L->task_h >= 6 ? km_draw_px(d, 3) : 0;
	for (int k = 0; k < L->ntasks; k++) {
		uint32_t idx = (uint32_t)(st->task_scroll + k);
		if (idx >= T->norder)
			break;
		int y = L->task_y + L->task_head + k * L->task_h - L->lanes.y;
		task_lane(d, m, T->order[idx], y, L->task_h - gap, st->t0, st->t1);
	}
}

/* "spins on L" / "sleeps on L" over the waits wide enough to hold it. */
static void wait_labels(struct km_draw *d, const struct km_view_state *st, uint32_t ctx, int y,
			int h, int xplay)
{
	const struct km_view_layout *L = &st->lay;
	const struct km_view_model *m = st->model;
	const struct km_vm_tasks *T = &m->tasks;
	size_t first = T->first[ctx], iend = T->first[ctx + 1];
	int lh = km_text_height(d->tx, KM_FONT_SMALL), pad = km_draw_px(d, 8);
	if (h < lh - km_draw_px(d, 4))
		return;
	const struct km_vm_tspan *s0 = km_vm_task_at(T, ctx, st->t0);
	size_t i = s0 ? (size_t)(s0 - T->spans) : first;
	for (int drawn = 0, steps = 0; i < iend && steps < 5000 && drawn < 100; i++, steps++) {
		const struct km_vm_tspan *sp = &T->spans[i];
		if (sp->t > st->t1)
			break;
		size_t j = i;
		while (j + 1 < iend && T->spans[j + 1].state == sp->state &&
		       T->spans[j + 1].obj == sp->obj)
			j++;
		km_time e = j + 1 < iend ? T->spans[j + 1].t : m->end;
		bool lockwait = sp->state == KM_TS_SPIN ||
				(sp->state == KM_TS_ASLEEP && sp->wait == KM_WAIT_LOCK);
		if (lockwait && sp->obj != KM_VM_NONE) {
			int x0 = km_view_x_of(st, sp->t), x1 = km_view_x_of(st, e);
			if (x0 < L->lanes.x)
				x0 = L->lanes.x;
			if (x1 > xplay)
				x1 = xplay;
			x1 = km_draw_slice_end(d, st, y + (h - lh) / 2, lh, x1);
			if (x1 - x0 > pad * 3) {
				snprintf(d->line, sizeof(d->line), "%s %s",
					 sp->state == KM_TS_SPIN ? "spins on" : "sleeps on",
					 km_vm_lock_name(m, sp->obj));
				int tw = km_text_width(d->tx, KM_FONT_SMALL, d->line);
				if (tw + pad > x1 - x0) {
					snprintf(d->line, sizeof(d->line), "%s", km_vm_lock_name(m, sp->obj));
					tw = km_text_width(d->tx, KM_FONT_SMALL, d->line);
				}
				if (tw + pad <= x1 - x0) {
					int hh;
					uint32_t bg = state_look(m, ctx, sp->state, sp->wait, h, &hh);
					enum km_text_role role = km_text_role(d->tx, KM_ROLE_SLICE);
					km_text_draw(d->tx, KM_FONT_SMALL, d->line, (x0 + x1) / 2,
						     y + (h - lh) / 2, km_pal_text_on(bg), KM_CENTRE);
					km_text_role(d->tx, role);
					drawn++;
				}
			}
		}
		i = j;
	}
}

/* The task lanes' heading: which tasks are shown, or what the lanes show. */
static void heading(char *buf, size_t len, int first, int last, unsigned n, bool all)
{
	if (!all)
		snprintf(buf, len, "tasks %d-%d of %u, longest waiting for a lock first \xc2\xb7 "
			 "wheel over the names scrolls", first, last, n);
	else
		snprintf(buf, len, "running \xc2\xb7 runnable (thin) \xc2\xb7 "
			 "spinning or asleep on a lock (named) \xc2\xb7 in irq");
}

/*
 * Projector mode: how tall the heading and a lane must be for the
 * wrapped heading and names (d->meas, for the layout).  Measured whether
 * or not the lanes are shown, and for the widest heading and the first
 * tasks of the order, so that what the layout shows does not change it.
 */
static void measure(struct km_draw *d, const struct km_view_state *st)
{
	const struct km_view_layout *L = &st->lay;
	const struct km_view_model *m = st->model;
	const struct km_vm_tasks *T = &m->tasks;
	if (d->task_meas.m == m && d->task_meas.serial == m->serial &&
	    d->task_meas.gutter_w == L->gutter.w && d->task_meas.lanes_w == L->lanes.w &&
	    d->task_meas.u == d->u) {
		d->meas.task_h = d->task_meas.task_h;
		d->meas.task_head = d->task_meas.task_head;
		return;
	}
	int slh = km_text_height(d->tx, KM_FONT_SMALL), lh = km_text_height(d->tx, KM_FONT_BODY);
	int w = L->lanes.w - km_draw_px(d, 8), n = 0;
	for (int all = 0; all < 2; all++) {
		heading(d->line, sizeof(d->line), (int)T->norder, (int)T->norder, T->norder, all);
		int k = km_draw_text_lines(d, KM_FONT_SMALL, d->line, w);
		n = k > n ? k : n;
	}
	d->meas.task_head = n * slh + km_draw_px(d, 4);
	for (uint32_t k = 0; k < T->norder && k < 256; k++) {
		int h = km_draw_text_lines(d, KM_FONT_BODY, km_vm_ctx_name(m, T->order[k]), L->gutter.w) *
			lh + km_draw_px(d, 3) + km_draw_px(d, 2);
		if (h > d->meas.task_h)
			d->meas.task_h = h;
	}
	d->task_meas.m = m;
	d->task_meas.serial = m->serial;
	d->task_meas.gutter_w = L->gutter.w;
	d->task_meas.lanes_w = L->lanes.w;
	d->task_meas.u = d->u;
	d->task_meas.task_h = d->meas.task_h;
	d->task_meas.task_head = d->meas.task_head;
}

void km_draw_task_labels(struct km_draw *d, const struct km_view_state *st, int xplay)
{
	const struct km_view_layout *L = &st->lay;
	const struct km_view_model *m = st->model;
	const struct km_vm_tasks *T = &m->tasks;
	if (st->projector && T->norder)
		measure(d, st);
	if (!L->ntasks)
		return;
	int gap = L->task_h >= 6 ? km_draw_px(d, 3) : 0;
	int hy = L->task_y + (L->task_head - km_text_height(d->tx, KM_FONT_SMALL)) / 2;
	km_draw_text_fit(d, KM_FONT_BOLD, "Tasks", L->gutter.x, L->task_y, L->gutter.w,
			 km_pal(KM_C_INK));
	int shown = L->ntasks < (int)T->norder - st->task_scroll ? L->ntasks
								  : (int)T->norder - st->task_scroll;
	heading(d->line, sizeof(d->line), st->task_scroll + 1, st->task_scroll + shown, T->norder,
		(int)T->norder <= L->ntasks);
	if (st->projector) {
		/* wrapped; the layout made the heading as tall (measure) */
		km_draw_text_wrap(d, KM_FONT_SMALL, d->line, L->lanes.x + km_draw_px(d, 4),
				  L->task_y + km_draw_px(d, 2), L->lanes.w - km_draw_px(d, 8), INT_MAX,
				  km_pal(KM_C_MUTED));
	} else {
		km_draw_text_fit(d, KM_FONT_SMALL, d->line, L->lanes.x + km_draw_px(d, 4), hy,
				 L->lanes.w - km_draw_px(d, 8), km_pal(KM_C_MUTED));
	}
	enum km_font f = L->task_h >= km_text_height(d->tx, KM_FONT_BODY) ? KM_FONT_BODY
									  : KM_FONT_SMALL;
	if (st->projector)
		f = KM_FONT_BODY;	/* the lanes are as tall as it needs */
	int lh = km_text_height(d->tx, f);
	for (int k = 0; k < shown; k++) {
		uint32_t ctx = T->order[st->task_scroll + k];
		int y = L->task_y + L->task_head + k * L->task_h;
		const char *name = km_vm_ctx_name(m, ctx);
		int tw = km_text_width(d->tx, f, name);
		int ty = y + (L->task_h - gap - lh) / 2;
		if (st->projector && tw > L->gutter.w) {
			int n = km_draw_text_lines(d, f, name, L->gutter.w);
			km_draw_text_wrap_right(d, f, name, L->gutter.x, y + (L->task_h - gap - n * lh) / 2,
						L->gutter.w, INT_MAX, km_pal(KM_C_INK));
		} else if (tw <= L->gutter.w)
			km_text_draw(d->tx, f, name, L->gutter.x + L->gutter.w, ty, km_pal(KM_C_INK),
				     KM_RIGHT);
		else
			km_draw_text_fit(d, f, name, L->gutter.x, ty, L->gutter.w, km_pal(KM_C_INK));
		wait_labels(d, st, ctx, y, L->task_h - gap, xplay);
	}
}
