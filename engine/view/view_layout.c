/*
 * view_layout.c - where everything goes, as a function of the output size.
 *
 *   +---------------------------------------------------------------+
 *   | top bar: exhibit, era, mode, playback                         |
 *   +-------------------------------------------+-------------------+
 *   | axis                                      | placard           |
 *   | CPU lanes (one row per CPU, or several    |                   |
 *   |   CPUs per 1-pixel row when they are many)|                   |
 *   | lock lanes (holders, waiters)             +-------------------+
 *   | task lanes (who waits, on what)           | stats             |
 *   | counter sparklines                        |                   |
 *   | legend                                    |                   |
 *   | event line                                |                   |
 *   +-------------------------------------------+-------------------+
 *   | era ribbon 1991-2023                                          |
 *   +---------------------------------------------------------------+
 *
 * Sizes are given for a 1280x800 window and multiplied by the scale u,
 * which grows with the window (1.35 at 1920x1080) and with the display's
 * pixel density, so the museum reads the same at any size.  Everything is
 * integer pixels of the renderer's output, computed once per resize or
 * run, never per frame.
 *
 * Projector mode wraps text instead of cutting it, and how many lines a
 * title or a name takes needs the fonts, which the layout has not: the
 * drawer measures them while drawing (km_view_measure) and the layout
 * takes those measures -- the top bar's height, a lane's, where the
 * figures' clickable lines are -- on the next pass (km_view_measured).
 * They depend on widths, which they do not change, so a frame settles on
 * its second drawing.
 */
#include "view_state.h"
#include "view_summary.h"

#include "../era.h"

#include <math.h>
#include <string.h>

static int px(float u, float v)
{
	int r = (int)lroundf(u * v);
	return r < 1 ? 1 : r;
}

static int imin(int a, int b) { return a < b ? a : b; }
static int imax(int a, int b) { return a > b ? a : b; }

/* Rows for @ncpus CPUs in @avail pixels, at most @max_row each. */
static void rows_for(int ncpus, int avail, int max_row, int *rows, int *row_h, int *gap,
		     int *per_row)
{
	if (ncpus < 1)
		ncpus = 1;
	if (avail < 1)
		avail = 1;
	if (avail >= ncpus) {
		int total = imin(avail / ncpus, max_row);
		*gap = total >= 8 ? imax(1, total / 8) : 0;
		*row_h = total - *gap;
		*per_row = 1;
		*rows = ncpus;
	} else {
		/* more CPUs than pixel rows: each row is the busiest of a group */
		*per_row = (ncpus + avail - 1) / avail;
		*rows = (ncpus + *per_row - 1) / *per_row;
		*row_h = 1;
		*gap = 0;
	}
}

void km_view_layout(struct km_view_state *s)
{
	struct km_view_layout *L = &s->lay;
	int w = s->w, h = s->h;
	float dpi = s->dpi > 0 ? s->dpi : 1.0f;
	float fit = fminf((float)w / dpi / 1280.0f, (float)h / dpi / 800.0f);
	float u = dpi * fmaxf(0.75f, fminf(fit, 2.5f));
	/* the visitor's scale (--scale); projector mode is at least 1.25:
	 * more, on a 1080p projector, leaves the side column no room */
	float k = s->scale > 0 ? s->scale : 1.0f;
	if (s->projector && k < 1.25f)
		k = 1.25f;
	u *= k;
	L->u = u;

	int m = px(u, 8);
	int top_h = imax(px(u, 40), s->projector ? s->meas.top_h : 0);
	int rib_h = px(u, 136), ev_h = px(u, 30), lg_h = px(u, 26);
	int side_w = imax(px(u, 320), imin((int)(0.30f * (float)w), px(u, 620)));
	L->rib_rows = 3;
	if (s->projector) {
		/* a lecture hall: the event line gets three lines and the
		 * legend two (text wraps rather than being cut), the panels a
		 * wider column for the larger type */
		ev_h = px(u, 66);	/* three lines (view_frame.c) */
		lg_h = px(u, 44);
		/* a short screen for its type (1280x800 at --scale 2): the
		 * ribbon keeps its line of years and eras, and the lanes
		 * take the room of its bars and milestones */
		if ((float)h / u < 600.0f) {
			L->rib_rows = 0;
			rib_h = px(u, 50);
		}
		side_w = (int)(0.40f * (float)w);
	}
	if (side_w > w / 2)
		side_w = w / 2;
	int main_w = w - side_w;

	L->top = (SDL_Rect){ 0, 0, w, top_h };
	L->ribbon = (SDL_Rect){ 0, h - rib_h, w, rib_h };
	L->side = (SDL_Rect){ main_w, top_h, side_w, h - top_h - rib_h };
	L->event = (SDL_Rect){ 0, L->ribbon.y - ev_h, main_w, ev_h };
	L->legend = (SDL_Rect){ 0, L->event.y - lg_h, main_w, lg_h };
	L->timeline = (SDL_Rect){ 0, top_h, main_w, L->legend.y - top_h };

	/* the gutter: wide enough for the lock and counter lanes' labels on
	 * a line each ("general_done_window" was cut to "general...e_window"),
	 * up to three tenths of the timeline; projector mode wraps them */
	int gutter_w = px(u, 172);
	if (!s->projector && s->meas.gutter_w > 0)
		gutter_w = imax(gutter_w, imin(s->meas.gutter_w + 2 * m + px(u, 4), main_w * 3 / 10));
	int axis_h = px(u, 46);	/* tall enough for the playback corner */
	L->axis = (SDL_Rect){ gutter_w, top_h + px(u, 4), main_w - gutter_w - m, axis_h };
	int lanes_y = L->axis.y + axis_h;
	L->lanes = (SDL_Rect){ gutter_w, lanes_y, L->axis.w, L->legend.y - m / 2 - lanes_y };
	L->gutter = (SDL_Rect){ m, lanes_y, gutter_w - 2 * m, L->lanes.h };
	if (L->lanes.w < 1)
		L->lanes.w = 1;
	if (L->lanes.h < 1)
		L->lanes.h = 1;

	int side_in = L->side.w - 2 * m;
	/* the placard gets most of the column, unless there are violations
	 * to list */
	bool viols = s->model && s->model->nviols;
	/* a run that measured latencies gets room for their distribution
	 * (view_latency.c) under the violations */
	bool lat = false;
	for (size_t i = 0; s->model && i < s->model->sim->opstats.n && !lat; i++)
		lat = s->model->sim->opstats.v[i]->hist.mm.n > 0;
	int plac_h = (int)((float)L->side.h * (lat ? 0.40f : viols ? 0.46f : 0.56f));
	if (s->play_mode)	/* the question needs the room, the placard waits */
		plac_h = (int)((float)L->side.h * 0.62f);
	L->side_tab = (SDL_Rect){ 0, 0, 0, 0 };
	L->viol_row_h = px(u, 20);
	if (s->projector) {
		/* A lecture hall: the larger type needs the whole column for
		 * either panel, so it shows one -- the placard, the lesson,
		 * unless V asked for the figures -- and names the other on a
		 * tab at its foot. */
		int tab_h = px(u, 30);
		L->side_tab = (SDL_Rect){ L->side.x + m, L->side.y + L->side.h - tab_h, side_in,
					  tab_h - m / 2 };
		SDL_Rect big = { L->side.x + m, L->side.y + m, side_in, L->side.h - tab_h - m };
		SDL_Rect none = { L->side.x + m, big.y + big.h, side_in, 0 };
		L->placard = s->figures ? none : big;
		L->stats = s->figures ? big : none;
		/* the stats panel's lines wrap: where its clickable lines
		 * are comes from the last frame (km_view_measured) */
		const struct km_view_measure *me = &s->meas;
		L->viol_item_h = 2 * L->viol_row_h;
		L->outcome_y = L->stats.h ? L->stats.y + me->outcome_y : -1;
		L->outcome_h = me->outcome_h;
		L->nviol_rows = L->stats.h ? imin(me->nviol_rows, KM_VIEW_VIOL_ROWS) : 0;
		L->viol_y = L->stats.y + me->viol_top[0];
		for (int row = 0; row <= L->nviol_rows; row++)
			L->viol_top[row] = L->stats.y + me->viol_top[row];
	} else {
		L->placard = (SDL_Rect){ L->side.x + m, L->side.y + m, side_in, plac_h - m };
		L->stats = (SDL_Rect){ L->side.x + m, L->side.y + plac_h + m / 2, side_in,
				       L->side.h - plac_h - m - m / 2 };
		/* the stats panel's violation list (view_stats.c: ten lines first) */
		L->viol_item_h = L->viol_row_h;
		L->viol_y = L->stats.y + px(u, 8) + 10 * L->viol_row_h;
		L->outcome_y = L->stats.y + px(u, 8) + 8 * L->viol_row_h;
		L->outcome_h = L->viol_row_h;
		L->nviol_rows = imax(0, (L->stats.y + L->stats.h - L->viol_y) / L->viol_item_h);
		if (lat && L->nviol_rows > 4)
			L->nviol_rows = 4;
		if (L->nviol_rows > KM_VIEW_VIOL_ROWS)
			L->nviol_rows = KM_VIEW_VIOL_ROWS;
		for (int row = 0; row <= L->nviol_rows; row++)
			L->viol_top[row] = L->viol_y + row * L->viol_item_h;
	}

	/* play mode: a title, the goal (three lines), where the run stands,
	 * then the options and the keys at the bottom; all in the placard's
	 * place.  An option is three lines (what it is, wrapped onto two,
	 * and the line it stands at) when all of them fit so, else two (its
	 * words cut), so that more of them are in sight at once.  A panel
	 * too short to show two options under the title and the goal (the
	 * question's first two: "let it go" and one other) drops them both
	 * and asks from its top, as ended() drops them for its box: the top
	 * bar still names the challenge. */
	int in_sight = imin(imax(s->play_options, 1), 2);
	for (int compact = 0; compact < 2; compact++) {
		int top = compact ? (s->projector ? 56 : 60) : (s->projector ? 190 : 160);
		L->play_compact = compact;
		L->play_y0 = L->placard.y + px(u, top);
		int play_h = L->placard.y + L->placard.h - px(u, 56) - L->play_y0;
		L->play_row_h = px(u, s->projector ? 82 : 62);
		if (imax(s->play_options, 1) * L->play_row_h > play_h)
			L->play_row_h = px(u, s->projector ? 58 : 44);
		L->play_rows = imax(0, play_h / L->play_row_h);
		if (L->play_rows >= in_sight)
			break;
	}

	L->rib_x0 = px(u, 172);
	L->rib_x1 = w - px(u, 24);
	L->rib_axis_y = L->ribbon.y + px(u, L->rib_rows ? 54 : 16);

	/* the lanes */
	const struct km_view_model *md = s->model;
	int ncpus_all = md ? md->ncpus : 1;
	/* CPUs idle through the run share one lane, unless I unfolded them
	 * (two at least: one alone keeps its own) */
	L->cpu_fold = md && md->cpu_quiet && md->nquiet >= 2 && !s->unfold_idle &&
		      ncpus_all <= KM_MAX_CPUS ? md->nquiet : 0;
	int ncpus = ncpus_all - L->cpu_fold + (L->cpu_fold ? 1 : 0);
	int nlk = md ? imin(md->nlane_locks, KM_VIEW_MAX_LOCK_LANES) : 0;
	int nct = md ? imin(md->nlane_ctrs, KM_VIEW_MAX_COUNTER_LANES) : 0;
	int ntk_all = md ? (int)md->tasks.norder : 0;
	int ntk = imin(ntk_all, KM_VIEW_TASK_LANES);
	int lock_h = px(u, 34), ctr_h = px(u, 40), gap = px(u, 12);
	int task_h = px(u, 18), task_head = px(u, 18);
	int max_row = px(u, 64);
	if (s->projector) {
		/* lanes tall enough for their names, wrapped (view_timeline.c) */
		lock_h = imax(lock_h, s->meas.lock_h);
		ctr_h = imax(ctr_h, s->meas.ctr_h);
		task_h = imax(task_h, s->meas.task_h);
		task_head = imax(task_head, s->meas.task_head);
	}
	int avail = L->lanes.h;
	/* under the lock lanes, when some are not shown, a line of its own
	 * for "+N more locks" (it once sat on the last lane's label) */
#define MORE_LK() (md && nlk > 0 && nlk < md->nlane_locks ? px(u, 18) : 0)
#define OTHER() ((nlk ? gap + nlk * lock_h + MORE_LK() : 0) + (nct ? gap + nct * ctr_h : 0) + \
		 (ntk ? gap + task_head + ntk * task_h : 0))
	/* short of room: counters go first, then tasks down to three, then
	 * locks, then the last tasks (in projector mode the hottest lock
	 * after them: it is the lesson) */
	for (;;) {
		/* projector mode: the locks' larger labels get a little more */
		int want = imin(ncpus * px(u, 30), avail * (s->projector ? 35 : 45) / 100);
		if (avail - OTHER() >= want || (nlk == 0 && nct == 0 && ntk == 0))
			break;
		if (nct > 0)
			nct--;
		else if (ntk > 3)
			ntk--;
		else if (nlk > 1 || (nlk > 0 && !s->projector))
			nlk--;
		else if (ntk > 0)
			ntk--;		/* projector mode: the hottest lock stays longest */
		else
			nlk--;
	}
	int other = OTHER();
	/* few lanes in a tall window: let them grow (the CPUs most, they are
	 * what a visitor watches), leaving a little paper at the bottom */
	int need = ncpus * max_row + other;
	if (need > 0 && need * 10 < avail * 9) {
		float grow = (float)avail * 0.9f / (float)need;
		float gl = fminf(grow, 1.4f);
		lock_h = (int)((float)lock_h * gl);
		ctr_h = (int)((float)ctr_h * gl);
		task_h = (int)((float)task_h * fminf(gl, 1.2f));
		other = OTHER();
		int rows = ((avail * 9 / 10) - other) / ncpus;
		max_row = imin(imax(max_row, rows), px(u, 180));
	}
	rows_for(ncpus, avail - other, max_row, &L->cpu_rows, &L->row_h, &L->row_gap,
		 &L->cpus_per_row);
	/* the rows' CPUs: the busy ones in order, @cpus_per_row a row, then
	 * the folded ones in the last row */
	int pos = 0, nact = ncpus_all - L->cpu_fold;
	for (int pass = 0; pass < 2 && md; pass++)
		for (int c = 0; c < ncpus_all && c < KM_MAX_CPUS; c++)
			if ((L->cpu_fold && md->cpu_quiet[c]) == (pass == 1))
				L->cpu_order[pos++] = (uint16_t)c;
	if (L->cpu_fold)
		L->cpu_rows = (nact + L->cpus_per_row - 1) / L->cpus_per_row + 1;
	for (int p = 0; p < pos; p++)
		L->cpu_row[L->cpu_order[p]] = (int16_t)(p < nact ? p / L->cpus_per_row
							     : L->cpu_rows - 1);
	/* room left under everything: more tasks, if there are more */
	int used = L->cpu_rows * (L->row_h + L->row_gap) + other;
	if (md && nct < md->nlane_ctrs)
		used += px(u, 18);	/* the "+N more counters" line */
	if (ntk && ntk < ntk_all && avail - used >= task_h)
		ntk = imin(ntk_all, ntk + (avail - used) / task_h);
	L->cpu_y = L->lanes.y;
	L->lock_y = L->cpu_y + L->cpu_rows * (L->row_h + L->row_gap) + (nlk ? gap : 0);
	L->lock_h = lock_h;
	L->nlocks = nlk;
	L->task_y = L->lock_y + nlk * lock_h + MORE_LK() + (ntk ? gap : 0);
	L->task_head = task_head;
	L->task_h = task_h;
	L->ntasks = ntk;
#undef OTHER
#undef MORE_LK
	L->ctr_y = L->task_y + (ntk ? task_head + ntk * task_h : 0) + (nct ? gap : 0);
	L->ctr_h = ctr_h;
	L->nctrs = nct;
	if (s->task_scroll > ntk_all - ntk)
		s->task_scroll = imax(0, ntk_all - ntk);

	/* compare: panels stacked, one per run, sharing the time axis */
	L->ncmp = s->compare ? s->ncmp : 0;
	L->cmp_head = imax(px(u, 20), s->projector ? s->meas.cmp_head : 0);
	L->cmp_end = 1;
	if (L->ncmp) {
		int ph = L->lanes.h / L->ncmp;
		for (int i = 0; i < L->ncmp; i++) {
			L->cmp[i] = (SDL_Rect){ L->lanes.x, L->lanes.y + i * ph, L->lanes.w, ph };
			int n = s->cmp[i] ? s->cmp[i]->ncpus : 1;
			/* under the CPUs, the run's hottest lock: holders and waiters */
			int lk = s->cmp[i] && s->cmp[i]->hot_lock >= 0 ? px(u, 26) : 0;
			if (lk && ph - L->cmp_head - px(u, 6) - lk < px(u, 16))
				lk = 0;		/* no room: the CPUs come first */
			L->cmp_lock_h[i] = lk;
			rows_for(n, ph - L->cmp_head - px(u, 6) - lk, px(u, 40), &L->cmp_rows[i],
				 &L->cmp_row_h[i], &L->cmp_gap[i], &L->cmp_per_row[i]);
			if (s->cmp[i] && s->cmp[i]->end > L->cmp_end)
				L->cmp_end = s->cmp[i]->end;
		}
	}
}

bool km_view_measured(struct km_view_state *s, const struct km_view_measure *m)
{
	if (!memcmp(&s->meas, m, sizeof(*m)))
		return false;
	s->meas = *m;
	km_view_layout(s);
	return true;
}

int km_view_x_of(const struct km_view_state *s, km_time t)
{
	const SDL_Rect *r = &s->lay.lanes;
	double span = (double)s->t1 - (double)s->t0;
	if (span <= 0)
		return r->x;
	/* A time far off screen (2^62 ns when a few ns are shown) is pinned a
	 * little way past the edge, so that converting it and the callers'
	 * differences of two such x stay within int. */
	double x = floor(((double)t - (double)s->t0) * (double)r->w / span);
	double lim = (double)r->w + (double)(1 << 20);
	x = x < -lim ? -lim : x > lim ? lim : x;
	return r->x + (int)x;
}

km_time km_view_time_of(const struct km_view_state *s, int x)
{
	const SDL_Rect *r = &s->lay.lanes;
	double span = (double)s->t1 - (double)s->t0;
	double t = (double)s->t0 + (double)(x - r->x) * span / (double)(r->w > 0 ? r->w : 1);
	/* in range before the conversion, which is undefined outside it */
	return t <= -(double)KM_TIME_MAX ? -KM_TIME_MAX : t >= (double)KM_TIME_MAX ? KM_TIME_MAX
										    : (km_time)t;
}

int km_view_cpu_y(const struct km_view_state *s, int cpu)
{
	const struct km_view_layout *L = &s->lay;
	if (!s->model || cpu < 0 || cpu >= s->model->ncpus || L->ncmp)
		return -1;
	int row = km_view_cpu_row(s, cpu);
	return L->cpu_y + row * (L->row_h + L->row_gap) + L->row_h / 2;
}

int km_view_cpu_row(const struct km_view_state *s, int cpu)
{
	const struct km_view_layout *L = &s->lay;
	if (!s->model || cpu < 0 || cpu >= s->model->ncpus || cpu >= KM_MAX_CPUS)
		return -1;
	return L->cpu_row[cpu];
}

void km_view_row_cpus(const struct km_view_state *s, int row, int *lo, int *hi)
{
	const struct km_view_layout *L = &s->lay;
	km_vm_row_range(s->model ? s->model->ncpus : 0, L->cpus_per_row, L->cpu_fold, row, lo, hi);
}

int km_view_lock_y(const struct km_view_state *s, int lane)
{
	const struct km_view_layout *L = &s->lay;
	if (lane < 0 || lane >= L->nlocks || L->ncmp)
		return -1;
	return L->lock_y + lane * L->lock_h + L->lock_h * 3 / 10;
}

int km_view_task_y(const struct km_view_state *s, int lane)
{
	const struct km_view_layout *L = &s->lay;
	if (lane < 0 || lane >= L->ntasks || L->ncmp)
		return -1;
	return L->task_y + L->task_head + lane * L->task_h + L->task_h / 2;
}

int km_view_year_x(const struct km_view_state *s, double year)
{
	const struct km_view_layout *L = &s->lay;
	return L->rib_x0 + (int)lround((year - 1991.0) / (2024.0 - 1991.0) *
				       (double)(L->rib_x1 - L->rib_x0));
}
