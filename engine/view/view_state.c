/*
 * view_state.c - input and playback, as pure functions of the view state.
 *
 * Every control of the help overlay is here, and only here: the wheel,
 * dragging, clicks on lock labels, on the era ribbon and on the violation
 * list -- and the keys, through view_keys.c's table, which the help
 * overlay prints.  Nothing here draws, runs or reads a clock: requests
 * that need the outside world (a new run, a screenshot) are flags for the
 * window loop.  That is what makes the controls testable with synthetic
 * SDL events and no window.
 *
 * Playback reveals the run from left to right: the playhead moves at a
 * speed chosen so that the whole run takes about twenty seconds, doubled
 * or halved by + and -.  When the window is zoomed in, it follows the
 * playhead.  Stepping (Right/Left) moves the focus one trace record and
 * brings the playhead to it.
 */
#include "view_state.h"
#include "view.h"
#include "view_marks.h"
#include "view_keys.h"

#include "../era.h"
#include "../trace_kinds.h"

#include <math.h>
#include <string.h>

const int km_view_modes[KM_VIEW_MODES] = {
	KM_MODE_NATIVE, KM_PRIM_CLI, KM_PRIM_BKL, KM_PRIM_SPIN, KM_PRIM_SEM, KM_PRIM_MUTEX,
};

#define MIN_WINDOW_NS 200

static km_time run_end(const struct km_view_state *s)
{
	if (s->compare && s->lay.ncmp)
		return s->lay.cmp_end > 0 ? s->lay.cmp_end : 1;
	return s->model && s->model->end > 0 ? s->model->end : 1;
}

/* The scale new states start with (km_view_set_scale): a setting of the
 * program, like the data folder, not of one window. */
static float default_scale = 1.0f;

void km_view_set_scale(float scale)
{
	if (!(scale >= 0.5f))
		scale = 0.5f;
	if (scale > 4.0f)
		scale = 4.0f;
	default_scale = scale;
}

void km_view_state_init(struct km_view_state *s, const struct km_era_list *eras,
		        int w, int h, float dpi)
{
	memset(s, 0, sizeof(*s));
	s->scale = default_scale;
	s->projector = default_scale > 1.0f;
	s->eras = eras;
	s->w = w;
	s->h = h;
	s->dpi = dpi > 0 ? dpi : 1.0f;
	s->sel_lock = -1;
	s->mode = KM_MODE_NATIVE;
	s->t1 = 1;
	km_view_layout(s);
}

void km_view_state_resize(struct km_view_state *s, int w, int h, float dpi)
{
	s->w = w;
	s->h = h;
	if (dpi > 0)
		s->dpi = dpi;
	km_view_layout(s);
}

static void clamp_window(struct km_view_state *s);

/* The window a visitor starts with (see km_view_state_bind). */
static km_time initial_window(const struct km_view_state *s)
{
	km_time end = run_end(s);
	const struct km_view_model *m = s->model;
	double w = s->lay.lanes.w > 0 ? (double)s->lay.lanes.w : 800.0;
	double detail = m ? (double)m->typical_ns * w / 10.0 : (double)end;
	double in_time = (double)end * 10.0 / 90.0;
	double span = detail > in_time ? detail : in_time;
	if (span > (double)end)
		span = (double)end;
	if (span < MIN_WINDOW_NS)
		span = MIN_WINDOW_NS;
	return (km_time)span;
}

void km_view_state_bind(struct km_view_state *s, const struct km_view_model *m,
			int era, int mode)
{
	km_time old_end = s->model ? s->model->end : 0;
	bool at_end = s->model && s->play >= old_end;
	s->model = m;
	s->era = era;
	s->mode = mode;
	s->sel_lock = -1;
	s->has_hover = false;
	s->placard_scroll = 0;
	s->stats_scroll = 0;
	s->task_scroll = 0;
	s->inspect = KM_INSPECT_NONE;
	km_view_layout(s);
	km_time end = run_end(s);
	if (at_end || s->play > end)
		s->play = end;
	km_time span = initial_window(s);
	s->speed_base = (double)span / 10.0;
	s->t0 = s->play - span / 10;
	s->t1 = s->t0 + span;
	clamp_window(s);
	s->has_focus = m && m->nrecs && s->play > 0;
	s->focus = m && m->nrecs ? km_vm_rec_at(m, s->play) : 0;
	if (s->playing && s->play >= end)
		s->playing = false;
	km_view_layout(s);
}

void km_view_state_set_compare(struct km_view_state *s, const struct km_view_model *const *m,
			       int n)
{
	if (n > KM_VIEW_MAX_COMPARE)
		n = KM_VIEW_MAX_COMPARE;
	for (int i = 0; i < n; i++)
		s->cmp[i] = m[i];
	s->ncmp = n;
	km_view_layout(s);
	if (s->compare) {
		s->t0 = 0;
		s->t1 = run_end(s);
		/* small multiples are for comparing outcomes: show them whole,
		 * unless the visitor is watching them unfold */
		if (!s->playing)
			s->play = run_end(s);
	}
}

int km_view_wrap(int cur, int d, int n)
{
	if (n <= 0)
		return 0;
	return ((cur + d) % n + n) % n;
}

double km_view_speed_ns(const struct km_view_state *s)
{
	double base = s->speed_base > 0 ? s->speed_base : (double)run_end(s) / 20.0;
	return base * pow(2.0, s->speed);
}

/* ------------------------------------------------------------ the window -- */

static void clamp_window(struct km_view_state *s)
{
	km_time end = run_end(s);
	km_time span = s->t1 - s->t0;
	km_time min = MIN_WINDOW_NS;
	if (min > end)
		min = end;
	if (span < min)
		span = min;
	if (span > end)
		span = end;
	if (s->t0 < 0)
		s->t0 = 0;
	if (s->t0 + span > end)
		s->t0 = end - span;
	if (s->t0 < 0)
		s->t0 = 0;
	s->t1 = s->t0 + span;
}

/* Zoom by @factor (< 1: in) keeping the time under @x where it is. */
static void zoom_at(struct km_view_state *s, int x, double factor)
{
	const SDL_Rect *r = &s->lay.lanes;
	if (x < r->x)
		x = r->x;
	if (x > r->x + r->w)
		x = r->x + r->w;
	double frac = (double)(x - r->x) / (double)(r->w > 0 ? r->w : 1);
	double span = (double)(s->t1 - s->t0);
	double anchor = (double)s->t0 + frac * span;
	double nspan = span * factor;
	if (nspan < MIN_WINDOW_NS)
		nspan = MIN_WINDOW_NS;
	s->t0 = (km_time)llround(anchor - frac * nspan);
	s->t1 = s->t0 + (km_time)llround(nspan);
	clamp_window(s);
}

/* Make @t visible, keeping the zoom. */
static void show_time(struct km_view_state *s, km_time t)
{
	km_time span = s->t1 - s->t0;
	if (t >= s->t0 && t <= s->t1)
		return;
	s->t0 = t - span / 5;
	s->t1 = s->t0 + span;
	clamp_window(s);
}

static void set_focus(struct km_view_state *s, size_t i)
{
	const struct km_view_model *m = s->model;
	if (!m || !m->nrecs)
		return;
	if (i >= m->nrecs)
		i = m->nrecs - 1;
	s->focus = i;
	s->has_focus = true;
	if (m->recs[i].time > s->play)
		s->play = m->recs[i].time;
	show_time(s, m->recs[i].time);
}

static void step(struct km_view_state *s, int d)
{
	const struct km_view_model *m = s->model;
	if (!m || !m->nrecs)
		return;
	s->playing = false;
	size_t i = s->has_focus ? s->focus : km_vm_rec_at(m, s->play);
	if (d > 0 && s->has_focus && i + 1 < m->nrecs)
		i++;
	else if (d < 0 && i > 0)
		i--;
	set_focus(s, i);
	/* stepping back hides what comes after again */
	s->play = m->recs[i].time;
}

void km_view_show_key_moment(struct km_view_state *s)
{
	const struct km_view_model *m = s->model;
	s->whole = false;
	s->playing = false;
	size_t rec = 0;
	if (!m || km_vm_key_moment(m, &rec) == KM_VM_KEY_NONE) {
		s->play = 0;
		s->has_focus = false;
		s->t0 = 0;
		s->t1 = initial_window(s);
		clamp_window(s);
		return;
	}
	/* the moment a third of the way in, what led to it before, and
	 * revealed a little past it, so that the lesson is on screen */
	km_time t = m->recs[rec].time, span = initial_window(s);
	s->t0 = t - span / 3;
	s->t1 = s->t0 + span;
	clamp_window(s);
	s->play = t + span / 10 < m->end ? t + span / 10 : m->end;
	s->focus = rec;
	s->has_focus = true;
}

/* Z: the whole run, or back to the key moment. */
static void toggle_whole(struct km_view_state *s)
{
	if (s->whole) {
		km_time play = s->play;
		km_view_show_key_moment(s);
		if (play > s->play)
			s->play = play;	/* do not hide again what was seen */
		return;
	}
	s->whole = true;
	s->t0 = 0;
	s->t1 = run_end(s);
}

/* ------------------------------------------------------------- hovering -- */

static bool in_rect(const SDL_Rect *r, int x, int y)
{
	return x >= r->x && x < r->x + r->w && y >= r->y && y < r->y + r->h;
}

/* Lower rank = more telling to a visitor. */
static int rank(const struct km_trace_rec *r)
{
	switch (r->kind) {
	case KM_TR_VIOLATION: return 0;
	case KM_TR_CONTEND: case KM_TR_WAKE: return 1;
	case KM_TR_ACQUIRE: case KM_TR_RELEASE: case KM_TR_TRYFAIL: return 2;
	case KM_TR_IRQ_ENTER: case KM_TR_IRQOFF: case KM_TR_BLOCK: return 3;
	case KM_TR_CPU: return 4;
	default: return 5;
	}
}

/* The record to describe under the mouse: on CPU row @row (or any, -1)
 * or about lock @lock (or any, KM_TR_NONE), within a few pixels of @x. */
static bool pick(const struct km_view_state *s, int x, int row, uint32_t lock, size_t *out)
{
	/* a row of one CPU: when nothing happened, what that CPU was doing */
	int cpu_lo = -1, cpu_hi = -1;
	if (row >= 0) {
		km_view_row_cpus(s, row, &cpu_lo, &cpu_hi);
		cpu_lo = cpu_hi == cpu_lo + 1 ? s->lay.cpu_order[cpu_lo] : -1;
		cpu_hi = cpu_lo + 1;
	}
	const struct km_view_model *m = s->model;
	if (!m || !m->nrecs)
		return false;
	km_time a = km_view_time_of(s, x - 3), b = km_view_time_of(s, x + 4);
	km_time t = km_view_time_of(s, x);
	size_t i = km_vm_rec_at(m, a);
	size_t best = SIZE_MAX;
	int best_rank = 99;
	km_time best_d = 0;
	for (size_t k = i, steps = 0; k < m->nrecs && steps < 4096; k++, steps++) {
		const struct km_trace_rec *r = &m->recs[k];
		if (r->time > b)
			break;
		if (r->time < a)
			continue;
		if (lock != KM_TR_NONE) {
			if (r->obj != lock ||
			    (!km_trace_kind_is_lock(r->kind) && r->kind != KM_TR_WAKE))
				continue;
		} else if (row >= 0 && km_view_cpu_row(s, r->cpu) != row) {
			continue;
		}
		int rk = rank(r);
		km_time d = r->time > t ? r->time - t : t - r->time;
		if (rk < best_rank || (rk == best_rank && d < best_d)) {
			best = k;
			best_rank = rk;
			best_d = d;
		}
	}
	if (best == SIZE_MAX && cpu_lo >= 0 && cpu_hi == cpu_lo + 1 && lock == KM_TR_NONE) {
		/* nothing happened here: describe what the CPU was doing */
		const struct km_vm_span *sp = km_vm_cpu_at(m, cpu_lo, t);
		if (!sp)
			return false;
		size_t k = km_vm_rec_at(m, sp->t);
		for (size_t steps = 0; steps < 4096; steps++, k--) {
			const struct km_trace_rec *r = &m->recs[k];
			if (r->time < sp->t)
				break;
			if ((r->kind == KM_TR_CPU || r->kind == KM_TR_IRQOFF) && r->cpu == cpu_lo) {
				best = k;
				break;
			}
			if (k == 0)
				break;
		}
	}
	if (best == SIZE_MAX)
		return false;
	*out = best;
	return true;
}

static void hover(struct km_view_state *s, int x, int y)
{
	const struct km_view_layout *L = &s->lay;
	s->has_hover = false;
	if (!s->model || L->ncmp || !in_rect(&L->lanes, x, y))
		return;
	if (km_view_time_of(s, x) > s->play)
		return;		/* the future is not told */
	if (y >= L->cpu_y && y < L->cpu_y + L->cpu_rows * (L->row_h + L->row_gap)) {
		int row = (y - L->cpu_y) / (L->row_h + L->row_gap);
		s->has_hover = pick(s, x, row, KM_TR_NONE, &s->hover);
	} else if (y >= L->lock_y && y < L->lock_y + L->nlocks * L->lock_h) {
		int lane = (y - L->lock_y) / L->lock_h;
		int li = s->model->lane_locks[lane];
		s->has_hover = pick(s, x, -1, s->model->locks[li].id, &s->hover);
	}
}

/* ---------------------------------------------------------------- clicks -- */

/* Violation @k: the focus on it, and its whole explanation open. */
static void open_violation(struct km_view_state *s, size_t k)
{
	set_focus(s, s->model->viols[k]);
	s->playing = false;
	s->inspect = KM_INSPECT_VIOLATION;
	s->inspect_viol = k;
	s->inspect_serial++;
}

static void play_request(struct km_view_state *s, int cmd, int arg)
{
	s->play_cmd = cmd;
	s->play_arg = arg;
	s->req |= KM_VREQ_PLAY;
}

int km_view_play_row_y(const struct km_view_state *s, int i)
{
	const struct km_view_layout *L = &s->lay;
	if (!s->play_mode || i < 0 || i >= s->play_options || i < s->play_scroll ||
	    i >= s->play_scroll + L->play_rows)
		return -1;
	return L->play_y0 + (i - s->play_scroll) * L->play_row_h;
}

void km_view_play_question(struct km_view_state *s, int options)
{
	bool resize = s->play_options != options;
	s->play_options = options;
	if (resize)	/* the rows are sized for the number of options */
		km_view_layout(s);
	s->play_typed = 0;
	s->play_scroll = 0;
}

/* Scroll the options by @d rows, within what there is. */
void km_view_play_scroll_by(struct km_view_state *s, int d)
{
	int most = s->play_options - s->lay.play_rows;
	s->play_scroll += d;
	if (s->play_scroll > most)
		s->play_scroll = most;
	if (s->play_scroll < 0)
		s->play_scroll = 0;
}

/*
 * A digit typed at a question.  A number that no longer option begins
 * with answers at once -- with at most nine options past Enter, every
 * digit does, as it always did; otherwise the digits gather (the panel
 * shows them) until one completes such a number or Enter answers with
 * them, and the row they name is brought into sight.
 */
static void play_digit(struct km_view_state *s, int digit)
{
	int n = s->play_typed * 10 + digit;
	if (n >= 1000 || (long)n * 10 >= s->play_options) {
		s->play_typed = 0;
		play_request(s, KM_VPLAY_ANSWER, n);
		return;
	}
	s->play_typed = n;
	if (km_view_play_row_y(s, n) < 0)
		km_view_play_scroll_by(s, n - s->play_scroll - s->lay.play_rows / 2);
}

static void click(struct km_view_state *s, int x, int y)
{
	const struct km_view_layout *L = &s->lay;
	const struct km_view_model *m = s->model;
	if (s->play_mode && in_rect(&L->placard, x, y)) {
		/* a click on an option of the question answers it */
		for (int i = 0; i < s->play_options; i++) {
			int ry = km_view_play_row_y(s, i);
			if (ry >= 0 && y >= ry && y < ry + L->play_row_h) {
				play_request(s, KM_VPLAY_ANSWER, i);
				break;
			}
		}
		return;
	}
	if (s->play_mode && in_rect(&L->ribbon, x, y))
		return;		/* play mode keeps its era */
	if (in_rect(&L->ribbon, x, y) && s->eras && s->eras->n) {
		/* the era whose year is nearest the click */
		int best = -1, bd = 0;
		for (int i = 0; i < s->eras->n; i++) {
			int ex = km_view_year_x(s, s->eras->v[i].year + 0.5);
			int d = ex > x ? ex - x : x - ex;
			if (best < 0 || d < bd) {
				best = i;
				bd = d;
			}
		}
		if (best >= 0 && bd <= (L->rib_x1 - L->rib_x0) / 33) {
			s->want_era = best;
			s->want_mode = s->mode;
			s->req |= KM_VREQ_RERUN;
		}
		return;
	}
	if (!m)
		return;
	s->inspect = KM_INSPECT_NONE;	/* a click elsewhere closes it */
	if (in_rect(&L->axis, x, y) && !L->ncmp && m->nviols) {
		/* a violation marker under the axis */
		int tol = (int)(8.0f * L->u);
		for (size_t k = 0; k < m->nviols; k++) {
			km_time t = m->recs[m->viols[k]].time;
			if (t > s->play)
				break;
			int vx = km_view_x_of(s, t);
			if (vx >= x - tol && vx <= x + tol) {
				open_violation(s, k);
				return;
			}
			if (vx > x + tol)
				break;
		}
		return;
	}
	if (in_rect(&L->gutter, x, y) && y >= L->lock_y && y < L->lock_y + L->nlocks * L->lock_h) {
		s->sel_lock = m->lane_locks[(y - L->lock_y) / L->lock_h];
		return;
	}
	if (in_rect(&L->side_tab, x, y)) {
		s->figures = !s->figures;
		km_view_layout(s);
		return;
	}
	if (in_rect(&L->stats, x, y) && y >= L->outcome_y && y < L->outcome_y + L->outcome_h &&
	    m->ri && m->ri->nchecks) {
		s->inspect = KM_INSPECT_CHECKS;
		s->inspect_serial++;
		return;
	}
	if (in_rect(&L->stats, x, y) && y >= L->viol_y) {
		for (int row = 0; row < L->nviol_rows && (size_t)row < m->nviols; row++)
			if (y >= L->viol_top[row] && y < L->viol_top[row + 1])
				open_violation(s, (size_t)row);
		return;
	}
	if (in_rect(&L->lanes, x, y) && !L->ncmp) {
		hover(s, x, y);
		if (s->has_hover) {
			s->focus = s->hover;
			s->has_focus = true;
			if (m->recs[s->hover].kind == KM_TR_VIOLATION) {
				for (size_t k = 0; k < m->nviols; k++)
					if (m->viols[k] == s->hover)
						open_violation(s, k);
				return;
			}
			if (y < L->cpu_y + L->cpu_rows * (L->row_h + L->row_gap)) {
				/* an event on a CPU lane: told whole, with its line */
				s->inspect = KM_INSPECT_EVENT;
				s->inspect_serial++;
				return;
			}
		}
		if (y >= L->lock_y && y < L->lock_y + L->nlocks * L->lock_h) {
			s->sel_lock = m->lane_locks[(y - L->lock_y) / L->lock_h];
			km_time t = km_view_time_of(s, x);
			if (t <= s->play && t >= 0) {
				/* who holds it and who waits, at that instant */
				s->inspect = KM_INSPECT_LOCK;
				s->inspect_lock = s->sel_lock;
				s->inspect_t = t;
				s->inspect_serial++;
			}
		}
	}
}

/* ------------------------------------------------------------------ keys -- */

/* The moves the keys make (view_keys.c: the keys are a table there). */
km_time km_view_run_end(const struct km_view_state *s)
{
	return run_end(s);
}

void km_view_step(struct km_view_state *s, int d)
{
	step(s, d);
}

void km_view_show_time(struct km_view_state *s, km_time t)
{
	show_time(s, t);
}

void km_view_toggle_whole(struct km_view_state *s)
{
	toggle_whole(s);
}

void km_view_play_request(struct km_view_state *s, int cmd, int arg)
{
	play_request(s, cmd, arg);
}

void km_view_play_digit(struct km_view_state *s, int digit)
{
	play_digit(s, digit);
}

void km_view_handle_event(struct km_view_state *s, const SDL_Event *e)
{
	const struct km_view_layout *L = &s->lay;
	switch (e->type) {
	case SDL_QUIT:
		s->quit = true;
		break;
	case SDL_KEYDOWN:
		km_view_key(s, e->key.keysym.sym);
		break;
	case SDL_MOUSEWHEEL: {
		int x = (int)((float)e->wheel.mouseX * s->dpi);
		int y = (int)((float)e->wheel.mouseY * s->dpi);
		float dy = e->wheel.preciseY != 0.0f ? e->wheel.preciseY : (float)e->wheel.y;
		if (e->wheel.direction == SDL_MOUSEWHEEL_FLIPPED)
			dy = -dy;
		int ttop = L->task_y + L->task_head;
		int nall = s->model ? (int)s->model->tasks.norder : 0;
		if (L->ntasks && nall > L->ntasks && !L->ncmp && x < L->lanes.x && y >= L->task_y &&
		    y < ttop + L->ntasks * L->task_h) {
			/* the task names: scroll through the tasks */
			int d = dy > 0 ? -3 : dy < 0 ? 3 : 0;
			s->task_scroll += d;
			if (s->task_scroll > nall - L->ntasks)
				s->task_scroll = nall - L->ntasks;
			if (s->task_scroll < 0)
				s->task_scroll = 0;
		} else if (s->play_mode && in_rect(&L->placard, x, y)) {
			/* the options of a question longer than its place */
			km_view_play_scroll_by(s, dy > 0 ? -1 : dy < 0 ? 1 : 0);
		} else if (in_rect(&L->placard, x, y)) {
			s->placard_scroll -= (int)(dy * 40.0f * L->u);
			if (s->placard_scroll < 0)
				s->placard_scroll = 0;
		} else if (in_rect(&L->stats, x, y) && s->projector) {
			/* the figures, wrapped, may be taller than the column */
			int most = s->meas.stats_h - L->stats.h / 2;
			s->stats_scroll -= (int)(dy * 40.0f * L->u);
			if (s->stats_scroll > most)
				s->stats_scroll = most;
			if (s->stats_scroll < 0)
				s->stats_scroll = 0;
		} else if (in_rect(&L->timeline, x, y) && dy != 0.0f) {
			zoom_at(s, x, pow(0.8, dy));	/* up: zoom in */
		}
		break;
	}
	case SDL_MOUSEBUTTONDOWN:
		if (e->button.button == SDL_BUTTON_LEFT) {
			int x = (int)((float)e->button.x * s->dpi);
			int y = (int)((float)e->button.y * s->dpi);
			s->mouse_x = x;
			s->mouse_y = y;
			if (in_rect(&L->lanes, x, y) || in_rect(&L->axis, x, y)) {
				s->drag = true;
				s->dragged = false;
				s->drag_x = x;
				s->drag_t0 = s->t0;
				s->drag_t1 = s->t1;
			} else {
				click(s, x, y);
			}
		}
		break;
	case SDL_MOUSEBUTTONUP:
		if (e->button.button == SDL_BUTTON_LEFT && s->drag) {
			int x = (int)((float)e->button.x * s->dpi);
			int y = (int)((float)e->button.y * s->dpi);
			s->drag = false;
			if (!s->dragged)
				click(s, x, y);
		}
		break;
	case SDL_MOUSEMOTION: {
		int x = (int)((float)e->motion.x * s->dpi);
		int y = (int)((float)e->motion.y * s->dpi);
		s->mouse_x = x;
		s->mouse_y = y;
		if (s->drag) {
			int dx = x - s->drag_x;
			if (dx > 3 || dx < -3)
				s->dragged = true;
			if (s->dragged) {
				double ns_px = (double)(s->drag_t1 - s->drag_t0) /
					       (double)(L->lanes.w > 0 ? L->lanes.w : 1);
				km_time shift = (km_time)llround((double)dx * ns_px);
				s->t0 = s->drag_t0 - shift;
				s->t1 = s->drag_t1 - shift;
				clamp_window(s);
			}
		}
		hover(s, x, y);
		break;
	}
	case SDL_WINDOWEVENT:
		if (e->window.event == SDL_WINDOWEVENT_LEAVE) {
			s->has_hover = false;
			s->mouse_x = s->mouse_y = -1;	/* no hint either */
		}
		break;
	default:
		break;
	}
}

void km_view_tick(struct km_view_state *s, double seconds)
{
	if (!s->playing || !s->model)
		return;
	km_time end = run_end(s);
	double adv = km_view_speed_ns(s) * seconds;
	km_time d = (km_time)adv;
	if (d < 1)
		d = 1;
	s->play += d;
	if (s->play >= end) {
		s->play = end;
		s->playing = false;
	}
	if (s->model->nrecs && !s->compare) {
		s->focus = km_vm_rec_at(s->model, s->play);
		s->has_focus = true;
	}
	/* follow the playhead when zoomed in */
	if (s->play > s->t1) {
		km_time span = s->t1 - s->t0;
		s->t0 = s->play - span / 10;
		s->t1 = s->t0 + span;
		clamp_window(s);
	}
}
