/*
 * view_stats.c - the stats panel: lock_stat for one lock, where the CPU
 * time went, how the run ended, and its violations.
 *
 * The figures are the simulator's own statistics (the same that the text
 * report and /proc/lock_stat output print), read through const pointers
 * after the run; this panel computes nothing but percentages.  The lock
 * shown is the one clicked in the timeline's gutter, else the most
 * contended.  Violations are listed with their time; a click on one moves
 * the focus there (view_state.c knows the rows' positions from the
 * layout, which is why the panel has a fixed grid of lines: ten lines of
 * figures, then one line per violation).  In projector mode every line
 * wraps onto as many rows as it needs instead, and the panel tells the
 * layout where its clickable lines ended up (km_view_measure).
 */
#include "view_panels.h"

#include "../cpu_time.h"
#include "../time_unit.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

static const char *fmt_ns(km_time ns, char *buf, size_t len)
{
	if (ns < 1000)
		snprintf(buf, len, "%lld ns", (long long)ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.1f \xc2\xb5s", (double)ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.2f ms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%.2f s", (double)ns / 1e9);
	return buf;
}

const char *km_view_headline(const struct km_view_model *m, char *buf, size_t len)
{
	const struct km_sim *sim = m->sim;
	struct km_cpu_time ct;
	km_cpu_time_of(sim, &ct);
	uint64_t cont = 0, nviol = 0;
	for (uint32_t i = 0; i < sim->locks.n; i++)
		cont += sim->locks.v[i]->st.contentions;
	for (int k = 0; k < KM_V_KINDS; k++)
		nviol += sim->violation_count[k];
	char t[32];
	snprintf(buf, len, "%s at %s  \xc2\xb7  busy %.0f%%, spinning %.0f%%, idle %.0f%%  \xc2\xb7  "
		 "%" PRIu64 " contentions  \xc2\xb7  %" PRIu64 " violation%s",
		 m->ri->outcome == KM_OUT_DEADLOCK ? "deadlocked" : "ends", fmt_ns(sim->now, t, sizeof(t)),
		 km_cpu_time_pct(&ct, KM_CPU_BUSY), km_cpu_time_pct(&ct, KM_CPU_SPIN),
		 km_cpu_time_pct(&ct, KM_CPU_IDLE), cont, nviol, nviol == 1 ? "" : "s");
	return buf;
}

/*
 * A contention is counted when a wait begins (lock_stat's lock_contended()),
 * an acquisition when the lock is had; a wait still going when the run
 * ends (or given up: a timeout, a signal) has the one and not the other,
 * so contentions may exceed acquisitions.  The share shown is of the
 * acquisitions that waited first (the wait's own count, st.wait.n), which
 * cannot pass 100%; the waits that ended in no acquisition are said.
 */
const char *km_view_lock_counts(const struct km_lockstat *s, char *buf, size_t len)
{
	uint64_t waited = s->wait.n < s->acquisitions ? s->wait.n : s->acquisitions;
	uint64_t open = s->contentions > waited ? s->contentions - waited : 0;
	int n = snprintf(buf, len, "%" PRIu64 " taken, %" PRIu64 " after a wait (%.0f%%)",
			 s->acquisitions, waited,
			 s->acquisitions ? 100.0 * (double)waited / (double)s->acquisitions : 0.0);
	if (open && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, ", %" PRIu64 " unserved", open);
	return buf;
}

/*
 * One line of the panel at *y, advancing *y: cut to @w pixels at the
 * grid's row height @lh, or in projector mode wrapped onto as many rows of
 * its font's height as it needs.  Returns the height it took.
 */
static int put(struct km_draw *d, const struct km_view_state *st, enum km_font f, const char *s,
	       int x, int *y, int dy, int w, int lh, uint32_t rgb)
{
	int h = lh;
	if (st->projector) {
		/* only whole blocks: one the panel's edge would slice waits
		 * for the wheel, and a sign at the foot says so */
		const SDL_Rect *r = &st->lay.stats;
		int fh = km_text_height(d->tx, f);
		int n = km_draw_text_lines(d, f, s, w);
		int foot = r->y + r->h - km_text_height(d->tx, KM_FONT_SMALL) - km_draw_px(d, 2);
		if (*y + dy < r->y || *y + dy + n * fh > foot) {
			if (*y + dy + n * fh > foot)
				d->stats_below = true;
		} else {
			km_draw_text_wrap(d, f, s, x, *y + dy, w, INT_MAX, rgb);
		}
		h = n * fh > lh ? n * fh + (lh - fh > 0 ? lh - fh : 0) : lh;
	} else {
		km_draw_text_fit(d, f, s, x, *y + dy, w, rgb);
	}
	*y += h;
	return h;
}

/*
 * One line of the lock's figures, whole: the first of @alt (the same
 * figures, the longest wording first) that fits @w pixels of the body
 * type, else the first that fits the small type -- a narrow panel (the
 * side column at 1280x800 and 1600x1000) once cut "line bounces 332/3..."
 * through the figure.  Only a panel too narrow for even the shortest in
 * the small type cuts it.  Projector mode wraps the first.
 */
static void put_figure(struct km_draw *d, const struct km_view_state *st, const char *const *alt,
		       int nalt, int x, int *y, int w, int lh, uint32_t rgb)
{
	static const enum km_font fonts[] = { KM_FONT_BODY, KM_FONT_SMALL };
	if (!st->projector)
		for (size_t f = 0; f < sizeof(fonts) / sizeof(fonts[0]); f++)
			for (int i = 0; i < nalt; i++)
				if (km_text_width(d->tx, fonts[f], alt[i]) <= w) {
					put(d, st, fonts[f], alt[i], x, y, 0, w, lh, rgb);
					return;
				}
	put(d, st, st->projector ? KM_FONT_BODY : KM_FONT_SMALL, st->projector ? alt[0] :
	    alt[nalt - 1], x, y, 0, w, lh, rgb);
}

/* Is there room for one more row of the lock's figures under @yy? Its
 * five rows from @y, in the grid (projector mode: no grid, no limit).
 * A lock's name on two rows takes the room of the last figures. */
static bool room(const struct km_view_state *st, int yy, int y, int lh)
{
	return st->projector || yy + lh <= y + 5 * lh;
}

/*
 * The CPU split into d->line, in @w pixels of the small type if it can:
 * first with every share, then without the shares at 0%, then with the
 * gaps narrowed.  In projector mode it wraps, and has every share.
 */
static void cpu_split(struct km_draw *d, const struct km_cpu_time *ct, int w, bool projector)
{
	static const struct {
		int state;
		const char *name;
	} part[] = { { KM_CPU_BUSY, "busy" }, { KM_CPU_SPIN, "spin" }, { KM_CPU_IRQ, "irq" },
		     { KM_CPU_SWITCH, "switch" }, { KM_CPU_IDLE, "idle" } };
	for (int tries = 0; tries < 3; tries++) {
		size_t n = 0;
		d->line[0] = 0;
		for (size_t i = 0; i < sizeof(part) / sizeof(part[0]); i++) {
			double pct = km_cpu_time_pct(ct, part[i].state);
			if (tries >= 1 && pct < 0.5 && part[i].state != KM_CPU_BUSY)
				continue;
			n += (size_t)snprintf(d->line + n, sizeof(d->line) - n, "%s%s %.0f%%",
					      n ? (tries == 2 ? " " : "  ") : "", part[i].name, pct);
			if (n >= sizeof(d->line))
				n = sizeof(d->line) - 1;
		}
		if (projector || km_text_width(d->tx, KM_FONT_SMALL, d->line) <= w)
			return;
	}
}

/*
 * Lines 0-4: the lock under study (the one selected, else the hottest),
 * or the counters of a run that took none, from *@yy on.  In projector
 * mode they come after the verdict: a panel too short for both shows the
 * verdict and scrolls the lock's figures.
 */
static void draw_lock(struct km_draw *d, const struct km_view_state *st,
		      const struct km_view_model *m, int x, int *yyp, int y, int w, int lh)
{
	char a[32], b[32];
	uint32_t ink = km_pal(KM_C_INK), muted = km_pal(KM_C_MUTED);
	int yy = *yyp;
	int li = st->sel_lock >= 0 ? st->sel_lock : m->hot_lock;
	enum km_text_role role = km_text_role(d->tx, KM_ROLE_FIGURE);
	if (li >= 0 && li < m->nlocks) {
		const struct km_lock *l = m->locks[li].lock;
		const struct km_lockstat *s = &l->st;
		snprintf(d->line, sizeof(d->line), "%s (%s%s)", l->name, km_prim_name(l->prim),
			 l->count > 1 ? ", counting" : "");
		/* the lock's name is a heading, never cut: a long one takes
		 * two rows, and the last row of figures makes room for it */
		int head_rows = 1;
		if (!st->projector && km_text_width(d->tx, KM_FONT_HEAD, d->line) > w) {
			head_rows = km_draw_text_wrap(d, KM_FONT_HEAD, d->line, x, yy - km_draw_px(d, 2),
						      w, 2, ink);
			yy += head_rows * km_text_height(d->tx, KM_FONT_HEAD) > head_rows * lh
				      ? head_rows * km_text_height(d->tx, KM_FONT_HEAD) : head_rows * lh;
		} else {
			put(d, st, KM_FONT_HEAD, d->line, x, &yy, -km_draw_px(d, 2), w, lh, ink);
		}
		/* each line's wordings, longest first (put_figure) */
		char alt[3][160];
		const char *const v[3] = { alt[0], alt[1], alt[2] };
		uint64_t waited = s->wait.n < s->acquisitions ? s->wait.n : s->acquisitions;
		uint64_t open = s->contentions > waited ? s->contentions - waited : 0;
		double pct = s->acquisitions ? 100.0 * (double)waited / (double)s->acquisitions : 0.0;
		km_view_lock_counts(s, alt[0], sizeof(alt[0]));
		snprintf(alt[1], sizeof(alt[1]), "%" PRIu64 " taken, %" PRIu64 " waited (%.0f%%)",
			 s->acquisitions, waited, pct);
		snprintf(alt[2], sizeof(alt[2]), "%" PRIu64 " taken (%.0f%% waited)", s->acquisitions,
			 pct);
		for (int k = 1; open && k < 3; k++)
			snprintf(alt[k] + strlen(alt[k]), sizeof(alt[k]) - strlen(alt[k]),
				 ", %" PRIu64 " unserved", open);
		if (room(st, yy, y, lh))
			put_figure(d, st, v, 3, x, &yy, w, lh, ink);
		/* avg and max in one unit, the max's (time_unit.h) */
		struct km_time_unit uw = km_time_unit_for(s->wait.max);
		struct km_time_unit uh = km_time_unit_for(s->hold.max);
		km_time_in(km_minmax_avg(&s->wait), uw, true, a, sizeof(a));
		km_time_in(s->wait.max, uw, true, b, sizeof(b));
		snprintf(alt[0], sizeof(alt[0]), "wait  avg %s, max %s", a, b);
		snprintf(alt[1], sizeof(alt[1]), "wait avg %s, max %s", a, b);
		if (room(st, yy, y, lh))
			put_figure(d, st, v, 2, x, &yy, w, lh, ink);
		km_time_in(km_minmax_avg(&s->hold), uh, true, a, sizeof(a));
		km_time_in(s->hold.max, uh, true, b, sizeof(b));
		snprintf(alt[0], sizeof(alt[0]), "hold  avg %s, max %s", a, b);
		snprintf(alt[1], sizeof(alt[1]), "hold avg %s, max %s", a, b);
		if (room(st, yy, y, lh))
			put_figure(d, st, v, 2, x, &yy, w, lh, ink);
		int n = 1;
		if (s->wakeups) {	/* a sleeping lock: its herd says more than bounces */
			snprintf(alt[0], sizeof(alt[0]), "%" PRIu64 " woken, %.0f%% lost, %" PRIu64
				 " stolen", s->wakeups,
				 100.0 * (double)s->wake_lost / (double)s->wakeups, s->steals);
		} else {
			snprintf(alt[0], sizeof(alt[0]), "%u waiting at most  \xc2\xb7  line bounces %"
				 PRIu64 "/%" PRIu64, s->max_waiters, s->con_bounces, s->acq_bounces);
			snprintf(alt[1], sizeof(alt[1]), "%u waiting at most \xc2\xb7 line bounces %"
				 PRIu64 "/%" PRIu64, s->max_waiters, s->con_bounces, s->acq_bounces);
			snprintf(alt[2], sizeof(alt[2]), "%u waiting max \xc2\xb7 line bounces %"
				 PRIu64 "/%" PRIu64, s->max_waiters, s->con_bounces, s->acq_bounces);
			n = 3;
		}
		if (room(st, yy, y, lh))
			put_figure(d, st, v, n, x, &yy, w, lh, muted);
	} else {
		/* no lock: the counters are what this run is about */
		put(d, st, KM_FONT_HEAD, m->nlane_ctrs ? "No lock taken; counters" : "No lock taken",
		    x, &yy, -km_draw_px(d, 2), w, lh, ink);
		for (int k = 0; k < m->nlane_ctrs && k < 4; k++) {
			const struct km_counter *c = m->counters[m->lane_ctrs[k]].c;
			char v1[48], v2[48];
			snprintf(d->line, sizeof(d->line), "%s  %s  (peak %s)", c->name,
				 km_vm_fmt_value(c->value, c->unit, v1, sizeof(v1)),
				 km_vm_fmt_value(c->peak, c->unit, v2, sizeof(v2)));
			put(d, st, KM_FONT_BODY, d->line, x, &yy, 0, w, lh, ink);
		}
	}
	km_text_role(d->tx, role);
	*yyp = yy;
}

void km_draw_stats(struct km_draw *d, const struct km_view_frame *f,
		   const struct km_view_state *st)
{
	const struct km_view_layout *L = &st->lay;
	const SDL_Rect *r = &L->stats;
	if (r->w <= 0 || r->h <= 0)
		return;		/* projector mode, the placard's turn */
	km_draw_fill(d, r->x, r->y, r->w, r->h, km_pal(KM_C_PANEL));
	const struct km_view_model *m = st->model;
	if (!m)
		return;
	const struct km_sim *sim = m->sim;
	int pad = km_draw_px(d, 10), lh = L->viol_row_h;
	int x = r->x + pad, w = r->w - 2 * pad;
	/* projector mode: the wheel scrolls the figures (stats_scroll) */
	int scroll = st->projector ? st->stats_scroll : 0;
	int y = r->y + km_draw_px(d, 8) - scroll;
	int yy = y;			/* the next line's top */
	char a[32];
	uint32_t ink = km_pal(KM_C_INK);
	SDL_RenderSetClipRect(d->r, r);
	d->stats_below = false;

	if (!st->projector)
		draw_lock(d, st, m, x, &yy, y, w, lh);

	/* lines 5-7: CPU time */
	struct km_cpu_time ct;
	km_cpu_time_of(sim, &ct);
	double all = km_cpu_time_all(&ct);
	snprintf(d->line, sizeof(d->line), "CPU time, %d CPU%s  \xc2\xb7  irqs off %.1f%%", sim->ncpus,
		 sim->ncpus == 1 ? "" : "s", km_cpu_time_pct(&ct, KM_CPU_STATES));
	if (!st->projector)
		yy = y + 5 * lh;	/* the grid: CPU time on line 5 */
	else
		yy += lh / 2;
	/* from here to the violations' count: the run's verdict, never cut */
	enum km_text_role role = km_text_role(d->tx, KM_ROLE_VERDICT);
	put(d, st, KM_FONT_BOLD, d->line, x, &yy, 0, w, lh, ink);
	static const int order[] = { KM_CPU_BUSY, KM_CPU_SPIN, KM_CPU_IRQ, KM_CPU_SWITCH, KM_CPU_IDLE };
	int bx = x, by = yy + km_draw_px(d, 3), bh = lh - km_draw_px(d, 7);
	yy += lh;
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		int bw = all > 0 ? (int)((double)w * ct.ns[order[i]] / all + 0.5) : 0;
		if (bx + bw > x + w)
			bw = x + w - bx;
		km_draw_fill(d, bx, by, bw, bh, km_pal_state(order[i], 0));
		bx += bw;
	}
	cpu_split(d, &ct, w, st->projector);
	put(d, st, KM_FONT_SMALL, d->line, x, &yy, 0, w, lh, ink);

	/* line 8: the outcome */
	const struct km_run_info *ri = m->ri;
	int ok = 0;
	for (int i = 0; i < ri->nchecks; i++)
		ok += ri->checks[i].ok;
	if (ri->outcome == KM_OUT_NONE)	/* play mode: stopped for a question */
		snprintf(d->line, sizeof(d->line), "paused at %s: your move",
			 fmt_ns(sim->now, a, sizeof(a)));
	else
		snprintf(d->line, sizeof(d->line), "%s at %s  \xc2\xb7  checks %d/%d%s",
			 km_outcome_name(ri->outcome), fmt_ns(sim->now, a, sizeof(a)), ok,
			 ri->nchecks, m->truncated ? "  \xc2\xb7  trace truncated" : "");
	/* a failed check is named after the verdict, in what room is left
	 * on its row (cut there: a click on the line lists them all) */
	const char *failed = NULL;
	for (int i = 0; i < ri->nchecks && ok < ri->nchecks && !failed; i++)
		if (!ri->checks[i].ok)
			failed = ri->checks[i].message ? ri->checks[i].message : "?";
	uint32_t oc = ri->outcome == KM_OUT_DEADLOCK || ok < ri->nchecks ? km_pal(KM_C_BAD) : ink;
	if (f && f->play && f->play->reached) {
		/* the player's goal: a success, said as one (the run's own
		 * outcome stays on the line) */
		size_t n = strlen(d->line);
		char *dot = strstr(d->line, "  \xc2\xb7  checks");
		if (dot)
			n = (size_t)(dot - d->line);
		snprintf(d->line + n, sizeof(d->line) - n, "  \xc2\xb7  goal reached");
		failed = NULL;
		oc = km_pal(KM_C_GOOD);
	}
	int outcome_y = yy - r->y;
	int outcome_h;
	if (st->projector || !failed) {
		if (failed) {
			size_t n = strlen(d->line);
			snprintf(d->line + n, sizeof(d->line) - n, ", failed: %s (click)", failed);
		}
		outcome_h = put(d, st, KM_FONT_BODY, d->line, x, &yy, 0, w, lh, oc);
	} else {
		int vw = km_text_width(d->tx, KM_FONT_BODY, d->line);
		outcome_h = lh;
		if (vw > w) {
			/* not even the verdict fits: it takes the row alone */
			put(d, st, KM_FONT_BODY, d->line, x, &yy, 0, w, lh, oc);
		} else {
			km_text_draw(d->tx, KM_FONT_BODY, d->line, x, yy, oc, KM_LEFT);
			enum km_text_role was = km_text_role(d->tx, KM_ROLE_FREE);
			char more[600];
			snprintf(more, sizeof(more), ", failed: %s (click)", failed);
			km_draw_text_fit(d, KM_FONT_BODY, more, x + vw, yy, w - vw, oc);
			km_text_role(d->tx, was);
			yy += lh;
		}
	}
	if (st->projector) {	/* for clicks: the layout's is the grid's otherwise */
		d->meas.outcome_y = outcome_y;
		d->meas.outcome_h = outcome_h;
	}

	/* line 9 on: violations */
	uint64_t nv = 0;
	for (int k = 0; k < KM_V_KINDS; k++)
		nv += sim->violation_count[k];
	if (nv)
		snprintf(d->line, sizeof(d->line), "Violations: %" PRIu64 " (click one to see it)", nv);
	else
		snprintf(d->line, sizeof(d->line), "Violations: none");
	put(d, st, KM_FONT_BOLD, d->line, x, &yy, 0, w, lh, nv ? km_pal(KM_C_BAD) : ink);
	km_text_role(d->tx, role);
	/* in projector mode each violation wraps onto the rows it needs,
	 * as many as the panel holds, and the layout learns where they are */
	int nrows = st->projector ? KM_VIEW_VIOL_ROWS : L->nviol_rows;
	int bottom = r->y + r->h - km_draw_px(d, 6);
	int shown = 0, more = 0;
	for (int row = 0; row < nrows && (size_t)row < m->nviols; row++) {
		size_t ri_ = m->viols[row];
		const struct km_trace_rec *rec = &m->recs[ri_];
		int32_t msg = m->viol_msg[row];
		char t[32];
		km_vm_fmt_time(m, rec->time, t, sizeof(t));
		char mu[600];
		snprintf(d->line, sizeof(d->line), "%s  %s", t,
			 msg >= 0 ? km_vm_micro(sim->violations.v[msg].message, mu, sizeof(mu))
				  : km_violation_name((enum km_violation_kind)rec->aux));
		bool focused = st->has_focus && st->focus == ri_;
		int top = st->projector ? yy : L->viol_top[row];
		int ih = L->viol_item_h;
		if (st->projector) {
			int slh = km_text_height(d->tx, KM_FONT_SMALL);
			ih = km_draw_text_lines(d, KM_FONT_SMALL, d->line, w) * slh + km_draw_px(d, 4);
			if (top + ih > bottom) {
				/* the rest: on the timeline's markers, and
				 * the next one a turn of the wheel away */
				more = top + ih;
				break;
			}
			d->meas.viol_top[row] = top - r->y;
			d->meas.viol_top[row + 1] = top + ih - r->y;
			d->meas.nviol_rows = row + 1;
		}
		if (focused)
			km_draw_fill(d, x - km_draw_px(d, 4), top, w + km_draw_px(d, 8), ih,
				     km_pal(KM_C_HILITE));
		km_draw_text_wrap(d, KM_FONT_SMALL, d->line, x, top + km_draw_px(d, 1), w,
				  st->projector ? INT_MAX : ih / lh, km_pal(KM_C_BAD));
		yy = top + ih;
		shown++;
	}
	if (st->projector)
		draw_lock(d, st, m, x, &yy, y, w, lh);
	/* under the violations, the latencies measure() took */
	if (!st->projector)
		yy = L->viol_y + shown * lh;
	SDL_Rect lat = { x, yy + km_draw_px(d, 6), w, 0 };
	lat.h = r->y + r->h - km_draw_px(d, 6) - lat.y;
	if (st->projector) {
		d->meas.stats_h = (more > yy ? more : yy) + scroll - r->y;
		if (d->meas.stats_h > r->h) {
			/* a scroll hint, as the placard's */
			int bar = r->h * r->h / (d->meas.stats_h + 1);
			int bar_y = r->y + (int)((long long)(r->h - bar) * scroll /
						 (d->meas.stats_h - r->h / 2 + 1));
			km_draw_fill(d, r->x + r->w - km_draw_px(d, 4), bar_y, km_draw_px(d, 3), bar,
				     km_pal(KM_C_GRID));
		}
	}
	if (st->projector && d->stats_below) {
		int sh = km_text_height(d->tx, KM_FONT_SMALL) + km_draw_px(d, 2);
		int sy = r->y + r->h - sh;
		km_draw_fill(d, r->x, sy, r->w - km_draw_px(d, 6), sh, km_pal(KM_C_PANEL));
		km_text_draw(d->tx, KM_FONT_SMALL, "\xe2\x96\xbc more below: scroll", x + w, sy,
			     km_pal(KM_C_MUTED), KM_RIGHT);
	}
	SDL_RenderSetClipRect(d->r, NULL);
	km_draw_latency(d, m, &lat);
}
