/*
 * view_timeline.c - the timeline: CPU lanes, lock lanes, counter
 * sparklines, wake-up arrows, the axis, the playhead, and the legend.
 *
 * The lanes are drawn as pixels, not rectangles.  For each pixel column
 * the drawer asks what happened in the column's slice of time and paints
 * the dominant answer: the CPU state that took most of the slice (the
 * running task's colour when it is "busy"), the lock's longest holder,
 * the most waiters, the counter's peak.  When there are more CPUs than
 * pixel rows, a row shows the dominant state of a group of CPUs.
 *
 * Where the CPU rows' answers come from depends on the zoom.  Zoomed out
 * (a column wider than a level-0 bucket of view_summary.h), each column
 * sums the one or two buckets of the run's summary that fall in it, so a
 * frame costs O(rows x columns) however many spans are in view.  Zoomed
 * in, the spans are walked once per CPU, left to right, from the first in
 * view (found between two of the summary's span marks, not by a search of
 * the CPU's whole array): then there are no more than a few a column.
 * The lock and counter lanes are walked (a few lanes).  The pixels go to
 * one streaming texture (drawn into it directly where its memory allows),
 * recomputed only when the window onto time, the size or the runs
 * change, never during playback: the playhead hides the future with one
 * translucent rectangle.
 *
 * "Interrupts off" is not a state but a condition on top of one (a task
 * runs with interrupts off), so it is drawn as yellow-and-black hatching
 * over the top part of the lane, leaving the state visible below it:
 * hatched where interrupts were off for most of the column, a thin yellow
 * edge where they were off for some of it -- a few microseconds of cli()
 * matter even when the column covers milliseconds.  Likewise a column
 * that is mostly idle shows its busiest other state in the lane's bottom
 * third, so that short bursts of work (a convoy, an interrupt handler)
 * do not vanish when the whole run is in view.
 *
 * Labels, arrows and the playhead are drawn over the texture with the
 * renderer; arrows only when few enough are in view to be read.
 */
#include "view_panels.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define NACC 6		/* KM_CPU_STATES + irq-off */
#define MAX_ARROWS 150
#define MAX_LABELS 400

static inline uint32_t argb(uint32_t rgb)
{
	return 0xFF000000u | rgb;
}

/* Hatching: diagonal stripes, four pixels of each colour. */
static inline uint32_t hatch(int x, int y)
{
	return (((x + y) >> 2) & 1) ? argb(km_pal(KM_C_IRQOFF)) : argb(km_pal(KM_C_INK));
}

/* The first span of [first, end) that contains @t (or the first). */
static size_t span_search(const struct km_vm_span *v, size_t first, size_t end, km_time t)
{
	size_t lo = first, hi = end;
	if (lo == hi || t <= v[lo].t)
		return lo;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid].t <= t)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static size_t lspan_search(const struct km_vm_lspan *v, size_t first, size_t end, km_time t)
{
	size_t lo = first, hi = end;
	if (lo == hi || t <= v[lo].t)
		return lo;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid].t <= t)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* A piece of [a, b) of span @sp in column @c, which it does not cover
 * whole: added to the column's accumulators. */
static inline void add_piece(struct km_draw *d, int c, const struct km_vm_span *sp, double a,
			     double b)
{
	float *acc = &d->acc[c * NACC];
	acc[sp->state] += (float)(b - a);
	if (sp->irqoff)
		acc[KM_CPU_STATES] += (float)(b - a);
	if (sp->state == KM_CPU_BUSY && (km_time)(b - a) >= d->blen[c]) {
		d->blen[c] = (km_time)(b - a) + 1;
		d->bctx[c] = sp->ctx;
	}
}

/*
 * Add CPU @cpu's spans to the row's accumulators.  A span adds its
 * pieces to the one or two columns it covers in part, and to the columns
 * it covers whole only a +1 and a -1 in d->cnt (a difference array per
 * state; no -1 past the last column), summed once per row by finish_row:
 * a long span costs the same as a short one.  Columns are [edge[c], edge[c + 1]).  A busy span that
 * covers a column whole gives the column its task unless an earlier CPU
 * of the row did (d->fctx): no piece can be longer.
 */
static void accumulate_cpu(struct km_draw *d, const struct km_view_model *m,
			   const struct km_vm_summary *sum, int cpu)
{
	int W = d->px_w;
	const double *edge = d->edge;
	/* a multiply, not a divide, for a first guess at a column: the
	 * guess is then moved onto the edges, so it need only be close */
	double per_ns = W / (edge[W] - edge[0]);
	double lim = (double)m->end < edge[W] ? (double)m->end : edge[W];
	size_t first = m->cpu_first[cpu], iend = m->cpu_first[cpu + 1];
	size_t lo = first, hi = iend;
	if (sum)
		km_vm_summary_span_range(sum, cpu, (km_time)edge[0], &lo, &hi);
	size_t i = span_search(m->spans, lo, hi, (km_time)edge[0]);
	/* the column holding the next span's start, once known: a span
	 * starts where the one before it ended, whose column was found */
	int next_c = -1;
	for (; i < iend; i++) {
		const struct km_vm_span *sp = &m->spans[i];
		double s = (double)sp->t, e = i + 1 < iend ? (double)m->spans[i + 1].t : (double)m->end;
		if (s >= lim)
			break;
		if (s < edge[0])
			s = edge[0];
		if (e > lim)
			e = lim;
		if (e <= s)
			continue;	/* before the window, or no time: next_c holds */
		/* the column holding s: the last c < W with edge[c] <= s */
		int c = next_c;
		if (c < 0) {
			c = (int)((s - edge[0]) * per_ns);
			if (c >= W)
				c = W - 1;
			while (c > 0 && edge[c] > s)
				c--;
			while (c + 1 < W && edge[c + 1] <= s)
				c++;
		}
		if (s > edge[c] || e < edge[c + 1]) {	/* in part */
			double b = e < edge[c + 1] ? e : edge[c + 1];
			add_piece(d, c, sp, s, b);
			if (b >= e) {
				/* ends in the column, or on its right edge */
				while (c + 1 < W && edge[c + 1] <= e)
					c++;
				next_c = c;
				continue;
			}
			c++;
		}
		/* whole columns [c, f), then the part of column f */
		int f = (int)((e - edge[0]) * per_ns);
		if (f > W)
			f = W;
		if (f < c)
			f = c;
		while (f > c && edge[f] > e)
			f--;
		while (f < W && edge[f + 1] <= e)
			f++;
		if (f > c) {
			int32_t *cnt = d->cnt;
			cnt[c * NACC + sp->state]++;
			if (f < W)
				cnt[f * NACC + sp->state]--;
			if (sp->irqoff) {
				cnt[c * NACC + KM_CPU_STATES]++;
				if (f < W)
					cnt[f * NACC + KM_CPU_STATES]--;
			}
			if (sp->state == KM_CPU_BUSY)
				for (int k = c; k < f; k++)
					if (d->fctx[k] == KM_VM_NONE)
						d->fctx[k] = sp->ctx;
		}
		if (f < W && e > edge[f])
			add_piece(d, f, sp, edge[f], e);
		/* f is the last column with edge[f] <= e; at W the next span
		 * starts at or past the window's end, and the walk stops */
		next_c = f;
	}
}

/* Clear the accumulators for a row walked span by span. */
static void start_row(struct km_draw *d)
{
	int W = d->px_w;
	memset(d->acc, 0, (size_t)W * NACC * sizeof(float));
	memset(d->blen, 0, (size_t)W * sizeof(km_time));
	memset(d->bctx, 0xff, (size_t)W * sizeof(uint32_t));	/* no context yet */
	memset(d->fctx, 0xff, (size_t)W * sizeof(uint32_t));
}

/* Add the whole columns counted in d->cnt to the accumulators, leaving
 * d->cnt zero for the next row (it starts zero: see ensure_buffers).
 * The six running counts are spelt out so that they stay in registers:
 * written as a loop over an array, the compiler kept them in memory, and
 * this pass over every column of every row was a fifth of the drawing
 * of the CPU lanes when zoomed in.  No test of a count being 0: adding
 * 0 leaves a sum as it was (a sum is never -0). */
static void finish_row(struct km_draw *d)
{
	int32_t r0 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0;
	const double *edge = d->edge;
	float *acc = d->acc;
	int32_t *cnt = d->cnt;
	_Static_assert(NACC == 6, "finish_row spells out six accumulators");
	for (int c = 0; c < d->px_w; c++, acc += NACC, cnt += NACC) {
		float w = (float)(edge[c + 1] - edge[c]);
		r0 += cnt[0];
		r1 += cnt[1];
		r2 += cnt[2];
		r3 += cnt[3];
		r4 += cnt[4];
		r5 += cnt[5];
		memset(cnt, 0, NACC * sizeof(*cnt));
		acc[0] += (float)r0 * w;
		acc[1] += (float)r1 * w;
		acc[2] += (float)r2 * w;
		acc[3] += (float)r3 * w;
		acc[4] += (float)r4 * w;
		acc[5] += (float)r5 * w;
		if (d->fctx[c] != KM_VM_NONE)
			d->bctx[c] = d->fctx[c];
	}
}

const struct km_vm_summary *km_draw_summary(struct km_draw *d, const struct km_view_model *m,
					    int per_row, const uint16_t *order, int fold)
{
	if (!order)
		fold = 0;
	/* the order is the model's idle CPUs last: the fold count keys it */
	for (int i = 0; i < KM_DRAW_SUMMARIES; i++) {
		const struct km_vm_summary *s = &d->sum[i];
		if (s->b && s->m == m && s->serial == m->serial && s->per_row == per_row &&
		    s->fold == fold)
			return s;
	}
	struct km_vm_summary *s = &d->sum[d->sum_next];
	d->sum_next = (d->sum_next + 1) % KM_DRAW_SUMMARIES;
	km_vm_summary_free(s);
	if (km_vm_summary_build_fold(s, m, per_row, order, fold, NULL, 0) < 0)
		return NULL;
	return s;
}

/* Free the summaries of runs no longer shown (a run left, a layout
 * changed), so that they do not wait their turn to be replaced. */
static void summaries_prune(struct km_draw *d, const struct km_view_state *st)
{
	for (int i = 0; i < KM_DRAW_SUMMARIES; i++) {
		struct km_vm_summary *s = &d->sum[i];
		if (!s->b)
			continue;
		bool shown = false;
		if (st->lay.ncmp) {
			for (int k = 0; k < st->lay.ncmp && !shown; k++)
				shown = st->cmp[k] == s->m && st->cmp[k]->serial == s->serial &&
					st->lay.cmp_per_row[k] == s->per_row && !s->fold;
		} else {
			shown = st->model == s->m && st->model && st->model->serial == s->serial &&
				st->lay.cpus_per_row == s->per_row && st->lay.cpu_fold == s->fold;
		}
		if (!shown)
			km_vm_summary_free(s);
	}
}

/* Row @row's columns from the summary's level @lv: the buckets between
 * the column's edges (d->kidx), summed into the accumulators. */
static void accumulate_summary(struct km_draw *d, const struct km_vm_summary *sum, int lv,
			       int row)
{
	const struct km_vm_bucket *v = km_vm_summary_row(sum, lv, row);
	for (int c = 0; c < d->px_w; c++) {
		float *acc = &d->acc[c * NACC];
		size_t k0 = d->kidx[c], k1 = d->kidx[c + 1];
		if (k0 >= k1) {
			memset(acc, 0, NACC * sizeof(float));
			d->bctx[c] = KM_VM_NONE;
			continue;
		}
		struct km_vm_bucket b = v[k0];
		for (size_t k = k0 + 1; k < k1; k++) {
			for (int s = 0; s < KM_CPU_STATES; s++)
				b.t[s] += v[k].t[s];
			b.irqoff += v[k].irqoff;
			if (v[k].busy_len > b.busy_len) {
				b.busy_len = v[k].busy_len;
				b.busy_ctx = v[k].busy_ctx;
			}
		}
		memcpy(acc, b.t, KM_CPU_STATES * sizeof(float));
		acc[KM_CPU_STATES] = b.irqoff;
		d->bctx[c] = b.busy_ctx;
	}
}

/* The state with the most time in a column (the first of equals), or -1
 * if none had any.  Selects rather than branches: which state wins varies
 * from column to column, and the branches were mispredicted often enough
 * to make this an eighth of the drawing of the CPU lanes. */
static inline int dominant(const float *acc)
{
	int best = -1;
	float bv = 0;
	_Static_assert(KM_CPU_STATES == 5, "dominant spells out five states");
#define KM_PICK(s)                                         \
	do {                                               \
		bool more = acc[s] > bv;                   \
		best = more ? (s) : best;                  \
		bv = more ? acc[s] : bv;                   \
	} while (0)
	/* spelt out: as a loop it was not unrolled */
	KM_PICK(0);
	KM_PICK(1);
	KM_PICK(2);
	KM_PICK(3);
	KM_PICK(4);
#undef KM_PICK
	return best;
}

void km_draw_cpu_rows(struct km_draw *d, const struct km_view_model *m, int y, int rows,
		      int row_h, int gap, int per_row, km_time t0, km_time t1)
{
	km_draw_cpu_rows_fold(d, m, y, rows, row_h, gap, per_row, NULL, 0, t0, t1);
}

void km_draw_cpu_rows_fold(struct km_draw *d, const struct km_view_model *m, int y, int rows,
			   int row_h, int gap, int per_row, const uint16_t *order, int fold,
			   km_time t0, km_time t1)
{
	if (!order)
		fold = 0;
	int W = d->px_w;
	if (t1 <= t0 || W < 1)
		return;
	double dt = (double)(t1 - t0) / (double)W;
	int hatch_h = row_h >= 8 ? (row_h * 2 + 4) / 5 : row_h >= 3 ? 1 : 0;
	/* the colours, looked up once rather than per column */
	uint32_t state_col[KM_CPU_STATES], task_col[256];
	for (int st = 0; st < KM_CPU_STATES; st++)
		state_col[st] = argb(km_pal_state(st, 0));
	for (unsigned k = 0; k < 256; k++)
		task_col[k] = argb(km_pal_state(KM_CPU_BUSY, k));
	/* zoomed out: read the summary, its level of about a column's width */
	const struct km_vm_summary *sum = km_draw_summary(d, m, per_row < 1 ? 1 : per_row, order,
							  fold);
	int lv = sum ? km_vm_summary_level(sum, dt) : -1;
	for (int c = 0; c <= W; c++)
		d->edge[c] = (double)t0 + c * dt;
	if (lv >= 0)
		for (int c = 0; c <= W; c++)
			d->kidx[c] = km_vm_summary_index(sum, lv, d->edge[c]);
	for (int row = 0; row < rows; row++) {
		int y0 = y + row * (row_h + gap);
		if (y0 < 0 || y0 + row_h > d->px_h)
			continue;
		if (lv >= 0 && row < sum->rows) {
			accumulate_summary(d, sum, lv, row);
		} else {
			start_row(d);
			int lo, hi;
			km_vm_row_range(m->ncpus, per_row < 1 ? 1 : per_row, fold, row, &lo, &hi);
			for (int p = lo; p < hi; p++)
				accumulate_cpu(d, m, sum, order ? order[p] : p);
			finish_row(d);
		}
		for (int c = 0; c < W; c++) {
			const float *acc = &d->acc[c * NACC];
			int best = dominant(acc);
			if (best < 0)
				continue;	/* outside the run: paper */
			unsigned slot = 0;
			if (d->bctx[c] < m->nctx)
				slot = m->ctx_colour[d->bctx[c]];
			uint32_t col = best == KM_CPU_BUSY ? task_col[slot] : state_col[best];
			if (row_h < 3) {
				/* too thin for hatching or a strip: the colour alone */
				uint32_t *p = d->px + (size_t)y0 * (size_t)W + (size_t)c;
				for (int r = 0; r < row_h; r++, p += W)
					*p = col;
				continue;
			}
			/* mostly idle, but not only: the busiest other state shows in
			 * the lane's bottom third, so that a convoy's short bursts of
			 * work stay visible when zoomed out */
			int second = -1;
			float sv = 0, total = 0;
			for (int s = 0; s < KM_CPU_STATES; s++) {
				total += acc[s];
				if (s != KM_CPU_IDLE && acc[s] > sv) {
					sv = acc[s];
					second = s;
				}
			}
			int strip = best == KM_CPU_IDLE && second >= 0 && sv * 10 >= total && row_h >= 6
					    ? row_h / 3 : 0;
			uint32_t scol = strip ? argb(km_pal_state(second, slot)) : col;
			/* interrupts off for most of the column: hatched; for some of
			 * it: a yellow edge, so that a short cli() still shows */
			float cover = 0;
			for (int s = 0; s < KM_CPU_STATES; s++)
				cover += acc[s];
			float off = acc[KM_CPU_STATES];
			int hh = off * 2 >= cover ? hatch_h : off > 0 ? (hatch_h ? 2 : 0) : 0;
			if (hh > row_h)
				hh = row_h;
			uint32_t *p = d->px + (size_t)y0 * (size_t)W + (size_t)c;
			for (int r = 0; r < row_h; r++, p += W)
				*p = r < hh ? (hh > 2 ? hatch(c, y0 + r) : argb(km_pal(KM_C_IRQOFF)))
					    : r >= row_h - strip ? scol : col;
		}
	}
}

/* One lock lane: the holder band above, the waiters below. */
static void lock_lane(struct km_draw *d, const struct km_view_model *m, int li, int y, int h,
		      km_time t0, km_time t1)
{
	int W = d->px_w;
	const struct km_vm_lock *L = &m->locks[li];
	const struct km_vm_lspan *v = m->lspans;
	size_t first = L->first, iend = L->first + L->n;
	double dt = (double)(t1 - t0) / (double)W, end = (double)m->end;
	int band = h * 55 / 100, wtop = band + 2, wh = h - wtop - 2;
	uint32_t grid = argb(km_pal(KM_C_GRID));
	/* the lane's floor lines, so a free lock still reads as a lane */
	for (int c = 0; c < W; c++) {
		if ((double)t0 + c * dt >= end)
			break;
		d->px[(size_t)(y + band) * (size_t)W + (size_t)c] = grid;
		d->px[(size_t)(y + h - 1) * (size_t)W + (size_t)c] = grid;
	}
	if (!L->n)
		return;
	size_t i = lspan_search(v, first, iend, t0);
	for (int c = 0; c < W && i < iend; c++) {
		double ca = (double)t0 + c * dt, cb = ca + dt;
		if (ca >= end)
			break;
		double held = 0, cover = 0, blen = 0;
		uint32_t who = KM_VM_NONE;
		int maxh = 0, maxw = 0;
		while (i < iend) {
			double s = (double)v[i].t, e = i + 1 < iend ? (double)v[i + 1].t : end;
			if (s >= cb)
				break;
			double a = s > ca ? s : ca, b = e < cb ? e : cb;
			if (b > a) {
				cover += b - a;
				if (v[i].holders) {
					held += b - a;
					if (b - a >= blen) {
						blen = b - a;
						who = v[i].holder;
					}
				}
				if (v[i].holders > maxh)
					maxh = v[i].holders;
				if (v[i].waiters > maxw)
					maxw = v[i].waiters;
			}
			if (e <= cb)
				i++;
			else
				break;
		}
		if (held > 0 && who != KM_VM_NONE) {
			unsigned slot = who < m->nctx ? m->ctx_colour[who] : 0;
			uint32_t col = km_pal_task(slot);
			if (held * 2 < cover)
				col = km_pal_mix(col, km_pal(KM_C_BG), 140);
			int hh = band;
			if (L->max_holders > 1)
				hh = band * maxh / L->max_holders;
			if (hh < 2)
				hh = 2;
			for (int r = band - hh; r < band; r++)
				d->px[(size_t)(y + r) * (size_t)W + (size_t)c] = argb(col);
		}
		if (maxw > 0 && wh > 0) {
			int hh = wh * maxw / (L->max_waiters ? L->max_waiters : 1);
			if (hh < 1)
				hh = 1;
			for (int r = wtop + wh - hh; r < wtop + wh; r++)
				d->px[(size_t)(y + r) * (size_t)W + (size_t)c] = argb(km_pal(KM_C_WAIT));
		}
	}
}

/* A counter as a filled sparkline: the peak of each column. */
static void counter_lane(struct km_draw *d, const struct km_view_model *m, int k, int y, int h,
			 km_time t0, km_time t1)
{
	int W = d->px_w;
	const struct km_vm_counter *K = &m->counters[k];
	const struct km_vm_point *p = &m->points[K->first];
	size_t n = K->n;
	double dt = (double)(t1 - t0) / (double)W, end = (double)m->end;
	/* in double: the range of a counter that went from INT64_MIN to
	 * INT64_MAX does not fit in an int64_t */
	double lo = K->lo < 0 ? (double)K->lo : 0.0;
	double hi = (double)K->hi > lo ? (double)K->hi : lo + 1.0;
	/* the value at t0: the last point at or before it */
	size_t i = 0;
	{
		size_t a = 0, b = n;
		while (a < b) {
			size_t mid = a + (b - a) / 2;
			if (p[mid].t <= t0)
				a = mid + 1;
			else
				b = mid;
		}
		i = a;		/* first point after t0 */
	}
	int64_t cur = i ? p[i - 1].v : 0;
	uint32_t fill = argb(km_pal(KM_C_COUNTER)), line = argb(km_pal(KM_C_COUNTER_LINE));
	for (int c = 0; c < W; c++) {
		double ca = (double)t0 + c * dt, cb = ca + dt;
		if (ca >= end)
			break;
		int64_t peak = cur;
		while (i < n && (double)p[i].t < cb) {
			cur = p[i].v;
			if (cur > peak)
				peak = cur;
			i++;
		}
		double frac = ((double)peak - lo) / (hi - lo);
		/* clamped before the conversion: the bar stays inside the lane,
		 * whatever rounding did to the ends of the range */
		frac = frac < 0.0 ? 0.0 : frac > 1.0 ? 1.0 : frac;
		int hh = (int)((double)(h - 2) * frac);
		if (hh < 0)
			hh = 0;
		int base = y + h - 1;
		d->px[(size_t)base * (size_t)W + (size_t)c] = argb(km_pal(KM_C_GRID));
		for (int r = 0; r < hh; r++)
			d->px[(size_t)(base - r) * (size_t)W + (size_t)c] = r == hh - 1 ? line : fill;
	}
}

static bool ensure_buffers(struct km_draw *d, int w, int h)
{
	if (w == d->px_w && h == d->px_h && d->px)
		return true;
	km_draw_free_buffers(d);
	d->px = SDL_malloc((size_t)w * (size_t)h * sizeof(uint32_t));
	d->acc = SDL_malloc((size_t)w * NACC * sizeof(float));
	d->bctx = SDL_malloc((size_t)w * sizeof(uint32_t));
	d->blen = SDL_malloc((size_t)w * sizeof(km_time));
	d->kidx = SDL_malloc(((size_t)w + 1) * sizeof(size_t));
	d->edge = SDL_malloc(((size_t)w + 1) * sizeof(double));
	d->cnt = SDL_calloc(((size_t)w + 1) * NACC, sizeof(int32_t));
	d->fctx = SDL_malloc((size_t)w * sizeof(uint32_t));
	d->key.valid = false;
	bool ok = d->px && d->acc && d->bctx && d->blen && d->kidx && d->edge && d->cnt &&
		  d->fctx;
	/* Remember the size only when every buffer is there: after a partial
	 * failure the next frame must try again, not find d->px and go on. */
	d->px_w = ok ? w : 0;
	d->px_h = ok ? h : 0;
	return ok;
}

static bool ensure_texture(struct km_draw *d)
{
	if (d->tex && d->tex_w == d->px_w && d->tex_h == d->px_h)
		return true;
	if (d->tex)
		SDL_DestroyTexture(d->tex);
	d->tex = SDL_CreateTexture(d->r, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_STREAMING,
				   d->px_w, d->px_h);
	if (!d->tex)
		return false;	/* the next frame tries again */
	d->tex_w = d->px_w;
	d->tex_h = d->px_h;
	return true;
}

/* Is the cached texture still what the state would draw? */
static bool key_same(const struct km_draw *d, const struct km_view_state *st)
{
	/* the model's serial too: the window keeps its model at one address
	 * and copies each new run's into it */
	if (!d->key.valid || d->key.m != st->model || d->key.t0 != st->t0 || d->key.t1 != st->t1 ||
	    d->key.serial != (st->model ? st->model->serial : 0) ||
	    d->key.ncmp != st->lay.ncmp || d->key.task_scroll != st->task_scroll ||
	    d->key.cpu_fold != st->lay.cpu_fold || memcmp(&d->key.lanes, &st->lay.lanes, sizeof(SDL_Rect)))
		return false;
	for (int i = 0; i < st->lay.ncmp; i++)
		if (d->key.cmp[i] != st->cmp[i])
			return false;
	return true;
}

static void key_set(struct km_draw *d, const struct km_view_state *st)
{
	d->key.m = st->model;
	d->key.serial = st->model ? st->model->serial : 0;
	d->key.t0 = st->t0;
	d->key.t1 = st->t1;
	d->key.ncmp = st->lay.ncmp;
	d->key.task_scroll = st->task_scroll;
	d->key.cpu_fold = st->lay.cpu_fold;
	d->key.lanes = st->lay.lanes;
	for (int i = 0; i < st->lay.ncmp; i++)
		d->key.cmp[i] = st->cmp[i];
	d->key.valid = true;
}

/* Recompute the lanes' pixels if the view changed; copy them on screen. */
static void lanes_pixels(struct km_draw *d, const struct km_view_state *st)
{
	const struct km_view_layout *L = &st->lay;
	if (!ensure_buffers(d, L->lanes.w, L->lanes.h) || !ensure_texture(d))
		return;
	if (!key_same(d, st)) {
		summaries_prune(d, st);
		/* Draw straight into the texture when its memory is laid out as
		 * d->px is (a streaming texture's is, row after row): no copy of
		 * the whole lanes afterwards.  The drawers only write pixels,
		 * every one of them, so the texture's old contents, which a
		 * lock need not give back, are never read.  Otherwise draw into
		 * d->px and upload it. */
		uint32_t *own = d->px;
		void *tpx = NULL;
		int pitch = 0;
		bool direct = SDL_LockTexture(d->tex, NULL, &tpx, &pitch) == 0;
		if (direct && pitch == d->px_w * (int)sizeof(uint32_t)) {
			d->px = tpx;
		} else if (direct) {
			SDL_UnlockTexture(d->tex);
			direct = false;
		}
		uint32_t bg = argb(km_pal(KM_C_BG));
		for (size_t i = 0, n = (size_t)d->px_w * (size_t)d->px_h; i < n; i++)
			d->px[i] = bg;
		if (L->ncmp) {
			for (int k = 0; k < L->ncmp; k++) {
				if (!st->cmp[k])
					continue;
				int y = L->cmp[k].y - L->lanes.y + L->cmp_head;
				km_draw_cpu_rows(d, st->cmp[k], y, L->cmp_rows[k], L->cmp_row_h[k],
						 L->cmp_gap[k], L->cmp_per_row[k], st->t0, st->t1);
				if (L->cmp_lock_h[k])
					lock_lane(d, st->cmp[k], st->cmp[k]->hot_lock,
						  y + L->cmp_rows[k] * (L->cmp_row_h[k] + L->cmp_gap[k]) +
						  km_draw_px(d, 3), L->cmp_lock_h[k] - km_draw_px(d, 4),
						  st->t0, st->t1);
			}
		} else if (st->model) {
			const struct km_view_model *m = st->model;
			km_draw_cpu_rows_fold(d, m, L->cpu_y - L->lanes.y, L->cpu_rows, L->row_h,
					      L->row_gap, L->cpus_per_row, L->cpu_order, L->cpu_fold,
					      st->t0, st->t1);
			for (int k = 0; k < L->nlocks; k++)
				lock_lane(d, m, m->lane_locks[k], L->lock_y - L->lanes.y + k * L->lock_h,
					  L->lock_h - km_draw_px(d, 6), st->t0, st->t1);
			km_draw_task_pixels(d, st);
			for (int lane = 0; lane < L->nctrs; lane++)
				counter_lane(d, m, m->lane_ctrs[lane],
					     L->ctr_y - L->lanes.y + lane * L->ctr_h,
					     L->ctr_h - km_draw_px(d, 6), st->t0, st->t1);
		}
		if (direct) {
			SDL_UnlockTexture(d->tex);
			d->px = own;
		} else {
			SDL_UpdateTexture(d->tex, NULL, d->px, d->px_w * (int)sizeof(uint32_t));
		}
		key_set(d, st);
	}
	SDL_RenderCopy(d->r, d->tex, NULL, &L->lanes);
	/* for the record of placed text: where the picture has lanes (a
	 * compare panel's headline row is paper) */
	for (int k = 0; k < L->ncmp; k++)
		km_text_record_fill(d->r, &(SDL_Rect){ L->lanes.x, L->cmp[k].y + L->cmp_head,
						       L->lanes.w, L->cmp[k].h - L->cmp_head }, true);
	if (!L->ncmp)
		km_text_record_fill(d->r, &L->lanes, true);
}

/* ------------------------------------------------------------------ axis -- */

static km_time nice_step(km_time span, int want)
{
	double raw = (double)span / (want > 0 ? want : 1);
	double p = pow(10.0, floor(log10(raw > 1 ? raw : 1)));
	double f = raw / p;
	double n = f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10;
	km_time s = (km_time)(n * p);
	return s > 0 ? s : 1;
}

static void fmt_tick(km_time t, km_time step, char *buf, size_t len)
{
	const char *unit;
	double div;
	if (step >= 100000000) {
		unit = "s";
		div = 1e9;
	} else if (step >= 100000) {
		unit = "ms";
		div = 1e6;
	} else if (step >= 100) {
		unit = "\xc2\xb5s";
		div = 1e3;
	} else {
		unit = "ns";
		div = 1;
	}
	double v = (double)t / div;
	double sv = (double)step / div;
	int dec = sv >= 1 ? 0 : sv >= 0.1 ? 1 : sv >= 0.01 ? 2 : 3;
	snprintf(buf, len, "%.*f %s", dec, v, unit);
}

static void draw_axis(struct km_draw *d, const struct km_view_state *st)
{
	const SDL_Rect *a = &st->lay.axis;
	km_time span = st->t1 - st->t0;
	int want = a->w / km_draw_px(d, 110);
	km_time step = nice_step(span, want < 2 ? 2 : want);
	km_time t = (st->t0 / step) * step;
	if (t < st->t0)
		t += step;
	char buf[48];
	int base = a->y + a->h - 1;
	km_draw_hline(d, a->x, a->x + a->w, base, km_pal(KM_C_GRID));
	for (int n = 0; t <= st->t1 && n < 200; t += step, n++) {
		int x = km_view_x_of(st, t);
		km_draw_vline(d, x, base - km_draw_px(d, 5), base, km_pal(KM_C_MUTED));
		fmt_tick(t, step, buf, sizeof(buf));
		if (x + km_draw_px(d, 3) + km_text_width(d->tx, KM_FONT_SMALL, buf) > a->x + a->w)
			continue;
		km_text_draw(d->tx, KM_FONT_SMALL, buf, x + km_draw_px(d, 3),
			     base - km_draw_px(d, 3) - km_text_height(d->tx, KM_FONT_SMALL),
			     km_pal(KM_C_MUTED), KM_LEFT);
	}
}

/* ---------------------------------------------------------------- labels -- */

/* A gutter label, right-aligned against the lanes, cut in the middle if
 * too long: the layout widens the gutter for the lanes' names first
 * (measure_names), so only a name wider than its limit is. */
static void right_label(struct km_draw *d, enum km_font f, const char *s, const SDL_Rect *g, int y,
			uint32_t rgb)
{
	int tw = km_text_width(d->tx, f, s);
	if (tw <= g->w) {
		km_text_draw(d->tx, f, s, g->x + g->w, y, rgb, KM_RIGHT);
		return;
	}
	/* too long: keep the end, which tells names like "x/cpu3" apart */
	char buf[160];
	size_t n = strlen(s), tail = n > 8 ? 8 : n / 2;
	const char *slash = strrchr(s, '/');
	if (slash && (size_t)(s + n - slash) <= 12)
		tail = (size_t)(s + n - slash);
	while (tail < n && ((unsigned char)s[n - tail] & 0xC0) == 0x80)
		tail++;
	int tailw = km_text_width(d->tx, f, s + n - tail) +
		    km_text_width(d->tx, f, "\xe2\x80\xa6");
	size_t head = km_text_fit(d->tx, f, s, n - tail, g->w - tailw);
	if (head + tail + 4 > sizeof(buf)) {
		km_draw_text_fit(d, f, s, g->x, y, g->w, rgb);
		return;
	}
	memcpy(buf, s, head);
	memcpy(buf + head, "\xe2\x80\xa6", 3);
	memcpy(buf + head + 3, s + n - tail, tail + 1);
	km_text_mark_cut(d->tx);
	km_text_draw(d->tx, f, buf, g->x + g->w, y, rgb, KM_RIGHT);
}

/* A gutter label cut at its end (for descriptions, not names). */
static void right_label_end(struct km_draw *d, enum km_font f, const char *s, const SDL_Rect *g,
			    int y, uint32_t rgb)
{
	if (km_text_width(d->tx, f, s) <= g->w)
		km_text_draw(d->tx, f, s, g->x + g->w, y, rgb, KM_RIGHT);
	else
		km_draw_text_fit(d, f, s, g->x, y, g->w, rgb);
}

/*
 * Projector mode: a gutter label wrapped onto as many lines as it needs,
 * each right-aligned against the lanes.  Returns its height; with @draw
 * false it only measures (the layout makes the lanes that tall).
 */
static int wrapped_label(struct km_draw *d, enum km_font f, const char *s, const SDL_Rect *g,
			 int y, uint32_t rgb, bool draw)
{
	int lh = km_text_height(d->tx, f);
	if (!draw)
		return km_draw_text_lines(d, f, s, g->w) * lh;
	return km_draw_text_wrap_right(d, f, s, g->x, y, g->w, INT_MAX, rgb) * lh;
}

static void cpu_labels(struct km_draw *d, const struct km_view_state *st, bool still)
{
	const struct km_view_layout *L = &st->lay;
	int lh = km_text_height(d->tx, KM_FONT_SMALL);
	int pitch = L->row_h + L->row_gap;
	int every = 1;
	while (every * pitch < lh)
		every *= 2;
	char buf[48];
	/* the busy CPUs' rows; the idle ones folded into the last */
	int rows = L->cpu_rows - (L->cpu_fold ? 1 : 0);
	bool fold_small = L->cpu_fold && pitch < lh;
	/* with several CPUs a row, the last line of the gutter says so (and
	 * the folded row's name, when a row is too thin for it, is under it) */
	int bottom = L->cpu_y + rows * pitch - (L->cpus_per_row > 1 ? lh : 0) -
		     (fold_small ? lh : 0);
	for (int row = 0; row < rows; row += every) {
		int lo, hi;
		km_view_row_cpus(st, row, &lo, &hi);
		if (lo >= hi)
			break;
		int y = L->cpu_y + row * pitch + L->row_h / 2 - lh / 2;
		if (every > 1 || L->cpus_per_row > 1)
			y = L->cpu_y + row * pitch;
		if (y + lh > bottom)
			break;
		snprintf(buf, sizeof(buf), "CPU%d", L->cpu_order[lo]);
		km_text_draw(d->tx, pitch >= lh ? KM_FONT_BODY : KM_FONT_SMALL, buf,
			     L->gutter.x + L->gutter.w, y, km_pal(KM_C_INK), KM_RIGHT);
	}
	if (L->cpus_per_row > 1) {
		snprintf(buf, sizeof(buf), "%d CPUs a row", L->cpus_per_row);
		km_text_draw(d->tx, KM_FONT_SMALL, buf, L->gutter.x + L->gutter.w, bottom,
			     km_pal(KM_C_MUTED), KM_RIGHT);
	}
	if (L->cpu_fold) {
		/* the folded row: how many, and (room allowing, in the window)
		 * the key that unfolds them */
		int y0 = L->cpu_y + rows * pitch;
		snprintf(buf, sizeof(buf), "%d idle CPUs", L->cpu_fold);
		if (fold_small) {
			km_text_draw(d->tx, KM_FONT_SMALL, buf, L->gutter.x + L->gutter.w,
				     y0 + L->row_h - lh, km_pal(KM_C_INK), KM_RIGHT);
			return;
		}
		int bh = km_text_height(d->tx, KM_FONT_BODY);
		bool hint = !still && L->row_h >= bh + lh;
		int y = y0 + L->row_h / 2 - (hint ? (bh + lh) / 2 : bh / 2);
		km_text_draw(d->tx, KM_FONT_BODY, buf, L->gutter.x + L->gutter.w, y,
			     km_pal(KM_C_INK), KM_RIGHT);
		if (hint)
			km_text_draw(d->tx, KM_FONT_SMALL, "folded: I unfolds",
				     L->gutter.x + L->gutter.w, y + bh, km_pal(KM_C_MUTED), KM_RIGHT);
	}
}

/* A lock lane's second line: its kind and its longest queue. */
static void lock_sub(const struct km_view_model *m, int li, char *sub, size_t n)
{
	const struct km_lock *l = m->locks[li].lock;
	if (m->locks[li].max_waiters)
		snprintf(sub, n, "%s \xc2\xb7 %u wait", km_prim_name(l->prim),
			 m->locks[li].max_waiters);
	else
		snprintf(sub, n, "%s \xc2\xb7 no wait", km_prim_name(l->prim));
}

/* A counter lane's second line: its peak. */
static void counter_sub(const struct km_vm_counter *K, char *sub, size_t n)
{
	char v[48];
	snprintf(sub, n, "peak %s", km_vm_fmt_value(K->hi, K->c->unit, v, sizeof(v)));
}

static int wider(int a, int b) { return a > b ? a : b; }

/*
 * The gutter's width for the lock and counter lanes' labels on one line
 * each (d->meas.gutter_w, for the layout): the widest name (a lock's in
 * bold, as when selected) or second line of every lane that could be
 * shown, so that showing fewer does not change it.  Projector mode wraps
 * them instead.
 */
static void measure_names(struct km_draw *d, const struct km_view_state *st)
{
	const struct km_view_model *m = st->model;
	char sub[96];
	int w = 0;
	for (int k = 0; k < m->nlane_locks && k < KM_VIEW_MAX_LOCK_LANES; k++) {
		int li = m->lane_locks[k];
		lock_sub(m, li, sub, sizeof(sub));
		w = wider(w, km_text_width(d->tx, KM_FONT_BOLD, m->locks[li].lock->name));
		w = wider(w, km_text_width(d->tx, KM_FONT_SMALL, sub));
	}
	for (int k = 0; k < m->nlane_ctrs && k < KM_VIEW_MAX_COUNTER_LANES; k++) {
		const struct km_vm_counter *K = &m->counters[m->lane_ctrs[k]];
		counter_sub(K, sub, sizeof(sub));
		w = wider(w, km_text_width(d->tx, KM_FONT_BODY, K->c->name));
		w = wider(w, km_text_width(d->tx, KM_FONT_SMALL, sub));
	}
	d->meas.gutter_w = w;
}

/* A lock lane's label: its name, then its kind and its longest queue;
 * in projector mode both wrap (the height taken is returned). */
static int lock_label(struct km_draw *d, const struct km_view_state *st, int li, int y, bool draw)
{
	const struct km_view_layout *L = &st->lay;
	const struct km_view_model *m = st->model;
	int sel = st->sel_lock >= 0 ? st->sel_lock : m->hot_lock;
	const struct km_lock *l = m->locks[li].lock;
	/* measured in bold, the wider, so that selecting a lock does not
	 * change the lanes' height */
	enum km_font f = li == sel || !draw ? KM_FONT_BOLD : KM_FONT_BODY;
	char sub[96];
	lock_sub(m, li, sub, sizeof(sub));
	enum km_text_role role = km_text_role(d->tx, KM_ROLE_NAME);
	if (st->projector) {
		int h = wrapped_label(d, f, l->name, &L->gutter, y - km_draw_px(d, 1), km_pal(KM_C_INK),
				      draw);
		h += wrapped_label(d, KM_FONT_SMALL, sub, &L->gutter, y - km_draw_px(d, 1) + h,
				   km_pal(KM_C_MUTED), draw);
		km_text_role(d->tx, role);
		return h;
	}
	int nh = km_text_height(d->tx, KM_FONT_BODY);
	right_label(d, f, l->name, &L->gutter, y - km_draw_px(d, 1), km_pal(KM_C_INK));
	right_label_end(d, KM_FONT_SMALL, sub, &L->gutter, y - km_draw_px(d, 1) + nh,
			km_pal(KM_C_MUTED));
	km_text_role(d->tx, role);
	return nh + km_text_height(d->tx, KM_FONT_SMALL);
}

static void lock_labels(struct km_draw *d, const struct km_view_state *st)
{
	const struct km_view_layout *L = &st->lay;
	const struct km_view_model *m = st->model;
	/* projector mode: every lane as tall as the tallest label needs,
	 * measured over all the lanes that could be shown, so that showing
	 * fewer does not change it */
	for (int k = 0; st->projector && k < m->nlane_locks && k < KM_VIEW_MAX_LOCK_LANES; k++) {
		int h = lock_label(d, st, m->lane_locks[k], 0, false) + km_draw_px(d, 4);
		if (h > d->meas.lock_h)
			d->meas.lock_h = h;
	}
	for (int k = 0; k < L->nlocks; k++)
		lock_label(d, st, m->lane_locks[k], L->lock_y + k * L->lock_h, true);
	/* on the line the layout keeps for it under the last lane's label */
	int bottom = L->lanes.y + L->lanes.h;
	int y = L->lock_y + L->nlocks * L->lock_h;
	if (m->nlane_locks > L->nlocks && y + km_text_height(d->tx, KM_FONT_SMALL) <= bottom) {
		snprintf(d->line, sizeof(d->line), "+%d more lock%s", m->nlane_locks - L->nlocks,
			 m->nlane_locks - L->nlocks == 1 ? "" : "s");
		km_text_draw(d->tx, KM_FONT_SMALL, d->line, L->gutter.x, y, km_pal(KM_C_MUTED),
			     KM_LEFT);
	}
}

/* A counter lane's label: its name and its peak (wrapped, as above). */
static int counter_label(struct km_draw *d, const struct km_view_state *st, int k, int y, bool draw)
{
	const struct km_view_layout *L = &st->lay;
	const struct km_view_model *m = st->model;
	const struct km_vm_counter *K = &m->counters[m->lane_ctrs[k]];
	char sub[96];
	counter_sub(K, sub, sizeof(sub));
	enum km_text_role role = km_text_role(d->tx, KM_ROLE_NAME);
	if (st->projector) {
		int h = wrapped_label(d, KM_FONT_BODY, K->c->name, &L->gutter, y, km_pal(KM_C_INK), draw);
		h += wrapped_label(d, KM_FONT_SMALL, sub, &L->gutter, y + h, km_pal(KM_C_MUTED), draw);
		km_text_role(d->tx, role);
		return h;
	}
	right_label(d, KM_FONT_BODY, K->c->name, &L->gutter, y, km_pal(KM_C_INK));
	right_label_end(d, KM_FONT_SMALL, sub, &L->gutter, y + km_text_height(d->tx, KM_FONT_BODY),
			km_pal(KM_C_MUTED));
	km_text_role(d->tx, role);
	return 0;
}

static void counter_labels(struct km_draw *d, const struct km_view_state *st)
{
	const struct km_view_layout *L = &st->lay;
	const struct km_view_model *m = st->model;
	for (int k = 0; st->projector && k < m->nlane_ctrs && k < KM_VIEW_MAX_COUNTER_LANES; k++) {
		int h = counter_label(d, st, k, 0, false) + km_draw_px(d, 4);
		if (h > d->meas.ctr_h)
			d->meas.ctr_h = h;
	}
	for (int lane = 0; lane < L->nctrs; lane++)
		counter_label(d, st, lane, L->ctr_y + lane * L->ctr_h, true);
	if (m->nlane_ctrs > L->nctrs) {
		snprintf(d->line, sizeof(d->line), "+%d more counters", m->nlane_ctrs - L->nctrs);
		/* under the last lane; with no counter lane, under the task lanes */
		int y = L->ctr_y + L->nctrs * L->ctr_h - (L->nctrs ? km_draw_px(d, 4) : 0);
		/* under "+N more locks" (the layout keeps its line when a lock
		 * lane is shown) */
		if (!L->nctrs && !L->ntasks && !L->nlocks && m->nlane_locks > 0)
			y += km_text_height(d->tx, KM_FONT_SMALL);
		if (y + km_text_height(d->tx, KM_FONT_SMALL) > L->lanes.y + L->lanes.h)
			return;		/* no room: the lanes came first */
		right_label_end(d, KM_FONT_SMALL, d->line, &L->gutter, y, km_pal(KM_C_MUTED));
	}
}

/* The narrowest a name can be: one of the narrowest characters.  A span
 * narrower than this plus the padding cannot hold any name, so its name
 * is not measured (measuring shapes the text: thousands of spans in view
 * made it the bulk of an unchanged frame). */
static int label_min_w(struct km_draw *d)
{
	static const char narrow[] = "ijl.,:;'|!";
	int w = INT_MAX;
	for (const char *c = narrow; *c; c++) {
		char one[2] = { *c, 0 };
		int cw = km_text_width(d->tx, KM_FONT_SMALL, one);
		if (cw < w)
			w = cw;
	}
	return w;
}

/* Task names on the spans wide enough to hold them. */
static void task_labels(struct km_draw *d, const struct km_view_state *st, int xplay)
{
	const struct km_view_layout *L = &st->lay;
	const struct km_view_model *m = st->model;
	int lh = km_text_height(d->tx, KM_FONT_SMALL);
	if (L->cpus_per_row != 1 || L->row_h < lh)
		return;
	int drawn = 0, pad = km_draw_px(d, 8), min_w = pad + label_min_w(d);
	for (int cpu = 0; cpu < m->ncpus && drawn < MAX_LABELS; cpu++) {
		int row = km_view_cpu_row(st, cpu);
		if (row < 0 || (L->cpu_fold && row == L->cpu_rows - 1))
			continue;	/* folded: the names would fall on each other */
		size_t first = m->cpu_first[cpu], iend = m->cpu_first[cpu + 1];
		size_t i = span_search(m->spans, first, iend, st->t0);
		int y = L->cpu_y + row * (L->row_h + L->row_gap) + L->row_h - lh;
		for (size_t steps = 0; i < iend && steps < 5000 && drawn < MAX_LABELS; i++, steps++) {
			const struct km_vm_span *sp = &m->spans[i];
			if (sp->t > st->t1)
				break;
			/* merge the following spans of the same task (irq-off changes) */
			size_t j = i;
			while (j + 1 < iend && m->spans[j + 1].state == sp->state &&
			       m->spans[j + 1].ctx == sp->ctx)
				j++;
			km_time e = j + 1 < iend ? m->spans[j + 1].t : m->end;
			if (sp->state == KM_CPU_BUSY || sp->state == KM_CPU_SPIN) {
				int x0 = km_view_x_of(st, sp->t), x1 = km_view_x_of(st, e);
				if (x0 < L->lanes.x)
					x0 = L->lanes.x;
				if (x1 > xplay)
					x1 = xplay;
				x1 = km_draw_slice_end(d, st, y, lh, x1);
				/* measure only what could hold a name: most spans are
				 * narrower than one letter when zoomed out */
				const char *name = km_vm_ctx_name(m, sp->ctx);
				if (x1 - x0 >= min_w &&
				    x1 - x0 >= km_text_width(d->tx, KM_FONT_SMALL, name) + pad) {
					unsigned slot = sp->ctx < m->nctx ? m->ctx_colour[sp->ctx] : 0;
					uint32_t bg = km_pal_state(sp->state, slot);
					enum km_text_role role = km_text_role(d->tx, KM_ROLE_SLICE);
					km_text_draw(d->tx, KM_FONT_SMALL, name, (x0 + x1) / 2, y,
						     km_pal_text_on(bg), KM_CENTRE);
					km_text_role(d->tx, role);
					drawn++;
				}
			}
			i = j;
		}
	}
}

/* Holder names on the lock lanes. */
static void holder_labels(struct km_draw *d, const struct km_view_state *st, int xplay)
{
	const struct km_view_layout *L = &st->lay;
	const struct km_view_model *m = st->model;
	int lh = km_text_height(d->tx, KM_FONT_SMALL);
	int band = (L->lock_h - km_draw_px(d, 6)) * 55 / 100;
	if (band < lh - km_draw_px(d, 4))
		return;
	int drawn = 0, pad = km_draw_px(d, 8), min_w = pad + label_min_w(d);
	for (int k = 0; k < L->nlocks; k++) {
		const struct km_vm_lock *K = &m->locks[m->lane_locks[k]];
		if (K->max_holders > 1)
			continue;	/* counting: the band's height says it */
		size_t iend = K->first + K->n;
		size_t i = lspan_search(m->lspans, K->first, iend, st->t0);
		int y = L->lock_y + k * L->lock_h + band / 2 - lh / 2;
		for (size_t steps = 0; i < iend && steps < 5000 && drawn < MAX_LABELS; i++, steps++) {
			const struct km_vm_lspan *sp = &m->lspans[i];
			if (sp->t > st->t1)
				break;
			size_t j = i;
			while (j + 1 < iend && m->lspans[j + 1].holder == sp->holder &&
			       m->lspans[j + 1].holders == sp->holders)
				j++;
			if (sp->holders) {
				km_time e = j + 1 < iend ? m->lspans[j + 1].t : m->end;
				int x0 = km_view_x_of(st, sp->t), x1 = km_view_x_of(st, e);
				if (x0 < L->lanes.x)
					x0 = L->lanes.x;
				if (x1 > xplay)
					x1 = xplay;
				x1 = km_draw_slice_end(d, st, y, lh, x1);
				const char *name = km_vm_ctx_name(m, sp->holder);
				if (x1 - x0 >= min_w &&
				    x1 - x0 >= km_text_width(d->tx, KM_FONT_SMALL, name) + pad) {
					unsigned slot = sp->holder < m->nctx ? m->ctx_colour[sp->holder] : 0;
					enum km_text_role role = km_text_role(d->tx, KM_ROLE_SLICE);
					km_text_draw(d->tx, KM_FONT_SMALL, name, (x0 + x1) / 2, y,
						     km_pal_text_on(km_pal_task(slot)), KM_CENTRE);
					km_text_role(d->tx, role);
					drawn++;
				}
			}
			i = j;
		}
	}
}

/* --------------------------------------------------------------- arrows -- */

static void arrowhead(struct km_draw *d, int x0, int y0, int x1, int y1)
{
	double dx = x1 - x0, dy = y1 - y0, len = sqrt(dx * dx + dy * dy);
	if (len < 1)
		return;
	double ux = dx / len, uy = dy / len, s = km_draw_px(d, 7);
	for (int side = -1; side <= 1; side += 2) {
		double hx = x1 - s * ux + side * s * 0.5 * uy;
		double hy = y1 - s * uy - side * s * 0.5 * ux;
		SDL_RenderDrawLine(d->r, x1, y1, (int)lround(hx), (int)lround(hy));
	}
}

static void thick_line(struct km_draw *d, int x0, int y0, int x1, int y1)
{
	SDL_RenderDrawLine(d->r, x0, y0, x1, y1);
	if (abs(x1 - x0) > abs(y1 - y0))
		SDL_RenderDrawLine(d->r, x0, y0 + 1, x1, y1 + 1);
	else
		SDL_RenderDrawLine(d->r, x0 + 1, y0, x1 + 1, y1);
}

/* Returns false when too many are in view to draw. */
static bool arrows(struct km_draw *d, const struct km_view_state *st)
{
	const struct km_view_layout *L = &st->lay;
	const struct km_view_model *m = st->model;
	if (L->cpus_per_row != 1 || L->row_h < km_draw_px(d, 6) || !m->narrows)
		return true;
	km_time span = st->t1 - st->t0;
	km_time from = st->t0 - span / 2;
	/* first arrow with t0 >= from */
	size_t lo = 0, hi = m->narrows;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->arrows[mid].t0 < from)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* count no further than the limit: zoomed out, millions are in view */
	size_t n = 0;
	for (size_t i = lo; i < m->narrows && m->arrows[i].t0 <= st->t1 && n <= MAX_ARROWS; i++)
		n++;
	if (n > MAX_ARROWS)
		return false;
	SDL_Rect clip = L->lanes;
	SDL_RenderSetClipRect(d->r, &clip);
	km_draw_colour(d, km_pal(KM_C_ARROW), 255);
	for (size_t i = lo; i < m->narrows && m->arrows[i].t0 <= st->t1; i++) {
		const struct km_vm_arrow *a = &m->arrows[i];
		if (a->t1 < 0 || a->cpu0 >= m->ncpus || a->cpu1 >= m->ncpus || a->t0 > st->play)
			continue;
		int x0 = km_view_x_of(st, a->t0), x1 = km_view_x_of(st, a->t1);
		if (x1 < L->lanes.x)
			continue;
		int y0 = km_view_cpu_y(st, a->cpu0), y1 = km_view_cpu_y(st, a->cpu1);
		if (a->cpu0 == a->cpu1) {
			/* same lane: a bracket over the lane, down onto the wakee */
			int top = y0 - L->row_h / 2 + 1, up = top - km_draw_px(d, 4);
			if (x1 - x0 < km_draw_px(d, 4))
				x1 = x0 + km_draw_px(d, 4);
			SDL_RenderDrawLine(d->r, x0, top, x0, up);
			thick_line(d, x0, up, x1, up);
			SDL_RenderDrawLine(d->r, x1, up, x1, top + km_draw_px(d, 4));
			arrowhead(d, x1, up, x1, top + km_draw_px(d, 4));
		} else {
			thick_line(d, x0, y0, x1, y1);
			arrowhead(d, x0, y0, x1, y1);
		}
	}
	SDL_RenderSetClipRect(d->r, NULL);
	return true;
}

/* ------------------------------------------------------------- the rest -- */

static void playhead(struct km_draw *d, const struct km_view_state *st, int xplay)
{
	const struct km_view_layout *L = &st->lay;
	int right = L->lanes.x + L->lanes.w;
	if (xplay < right) {
		/* the future: there, but veiled */
		SDL_SetRenderDrawBlendMode(d->r, SDL_BLENDMODE_BLEND);
		km_draw_colour(d, km_pal(KM_C_BG), 175);
		SDL_Rect r = { xplay, L->lanes.y, right - xplay, L->lanes.h };
		if (r.x < L->lanes.x) {
			r.w -= L->lanes.x - r.x;
			r.x = L->lanes.x;
		}
		SDL_RenderFillRect(d->r, &r);
		SDL_SetRenderDrawBlendMode(d->r, SDL_BLENDMODE_NONE);
	}
	if (xplay >= L->lanes.x && xplay < right) {
		km_draw_fill(d, xplay - 1, L->axis.y, km_draw_px(d, 2) + 1,
			     L->lanes.y + L->lanes.h - L->axis.y, km_pal(KM_C_INK));
	}
	/* the focus: the event the event line describes */
	const struct km_view_model *m = st->model;
	if (m && !L->ncmp && (st->has_focus || st->has_hover) && m->nrecs) {
		size_t i = st->has_hover ? st->hover : st->focus;
		int x = km_view_x_of(st, m->recs[i].time);
		if (x >= L->lanes.x && x < right) {
			km_draw_colour(d, km_pal(KM_C_FOCUS), 255);
			for (int y = L->lanes.y; y < L->lanes.y + L->lanes.h; y += km_draw_px(d, 6))
				SDL_RenderDrawLine(d->r, x, y, x, y + km_draw_px(d, 3));
			int s = km_draw_px(d, 6);
			int ya = L->axis.y + L->axis.h;
			for (int k = 0; k < s; k++)
				km_draw_hline(d, x - (s - k), x + (s - k), ya - s + k, km_pal(KM_C_FOCUS));
			int cpu = m->recs[i].cpu;
			int y = km_view_cpu_y(st, cpu);
			if (y >= 0 && L->row_h >= km_draw_px(d, 6)) {
				int hh = L->row_h / 2 + 2;
				km_draw_frame_rect(d, x - 3, y - hh, 7, 2 * hh, km_pal(KM_C_FOCUS));
			}
		}
	}
}

void km_draw_timeline(struct km_draw *d, const struct km_view_frame *f,
		      const struct km_view_state *st)
{
	(void)f;
	const struct km_view_layout *L = &st->lay;
	if (!st->model)
		return;
	lanes_pixels(d, st);
	draw_axis(d, st);
	int xplay = km_view_x_of(st, st->play);
	if (L->ncmp) {
		d->arrows_hidden = false;
		playhead(d, st, xplay);
		km_draw_compare(d, f, st);	/* the figures stay legible over the veil */
		return;
	}
	if (!st->projector)
		measure_names(d, st);
	cpu_labels(d, st, f && f->still);
	lock_labels(d, st);
	counter_labels(d, st);
	task_labels(d, st, xplay);
	holder_labels(d, st, xplay);
	km_draw_task_labels(d, st, xplay);
	bool shown = arrows(d, st);
	km_draw_violations(d, st, xplay);
	playhead(d, st, xplay);
	d->arrows_hidden = !shown;
}

/* ---------------------------------------------------------------- legend -- */

void km_draw_legend(struct km_draw *d, const struct km_view_state *st)
{
	const SDL_Rect *r = &st->lay.legend;
	int x = st->lay.gutter.x, sw = km_draw_px(d, 16), sh = km_draw_px(d, 12);
	int y = r->y + (r->h - sh) / 2;
	int ty = r->y + (r->h - km_text_height(d->tx, KM_FONT_SMALL)) / 2;
	int gap = km_draw_px(d, 5), sep = km_draw_px(d, 14);
	/* What a legend item's swatch shows. */
	enum swatch { SW_STATE, SW_HATCH, SW_WAITERS, SW_ARROW, SW_TASKS, SW_SPLIT };
	static const struct {
		enum swatch swatch;
		int state;		/* for SW_STATE */
		const char *label, *brief;	/* brief: when the long ones do not fit */
	} items[] = {
		{ SW_TASKS, KM_CPU_BUSY, "running (task colours)", "running" },
		{ SW_STATE, KM_CPU_SPIN, "spinning", "spin" },
		{ SW_STATE, KM_CPU_IRQ, "in irq", "irq" },
		{ SW_HATCH, 0, "irqs off", "irqs off" },
		{ SW_STATE, KM_CPU_SWITCH, "switch", "switch" },
		{ SW_STATE, KM_CPU_IDLE, "idle", "idle" },
		{ SW_SPLIT, 0, "mostly idle: the strip at its foot shows what ran",
		  "mostly idle, strip: what ran" },
		{ SW_WAITERS, 0, "lock waiters", "waiting" },
		{ SW_ARROW, 0, "wakes", "wakes" },
	};
	int n = (int)(sizeof(items) / sizeof(items[0]));
	int row_h = km_text_height(d->tx, KM_FONT_SMALL) + km_draw_px(d, 2);
	bool two_rows = r->h >= 2 * row_h;	/* projector mode: wrap, from the top */
	if (two_rows) {
		y = r->y + (row_h - sh) / 2;
		ty = r->y;
	}
	int full = 0;
	for (int i = 0; i < n; i++)
		full += sw + gap + sep + km_text_width(d->tx, KM_FONT_SMALL, items[i].label);
	bool brief = !two_rows && x + full > r->x + r->w;
	for (int i = 0; i < n; i++) {
		const char *label = brief ? items[i].brief : items[i].label;
		int iw = sw + gap + km_text_width(d->tx, KM_FONT_SMALL, label);
		/* an item that does not fit goes to the next row, if there is one */
		if (x + iw > r->x + r->w && ty + 2 * row_h <= r->y + r->h) {
			x = st->lay.gutter.x;
			y += row_h;
			ty += row_h;
		}
		if (x + iw > r->x + r->w)
			break;	/* a cut legend, never a label over the edge */
		switch (items[i].swatch) {
		case SW_STATE:
			km_draw_fill(d, x, y, sw, sh, km_pal_state(items[i].state, 0));
			break;
		case SW_HATCH:
			for (int yy = 0; yy < sh; yy++)
				for (int xx = 0; xx < sw; xx++) {
					uint32_t c = hatch(xx, yy) & 0xFFFFFF;
					km_draw_fill(d, x + xx, y + yy, 1, 1, c);
				}
			break;
		case SW_SPLIT:
			/* as a lane draws it: idle above, a third of spinning below */
			km_draw_fill(d, x, y, sw, sh, km_pal_state(KM_CPU_IDLE, 0));
			km_draw_fill(d, x, y + sh - sh / 3, sw, sh / 3, km_pal_state(KM_CPU_SPIN, 0));
			break;
		case SW_WAITERS:
			km_draw_fill(d, x, y, sw, sh, km_pal(KM_C_WAIT));
			break;
		case SW_ARROW:
			km_draw_colour(d, km_pal(KM_C_ARROW), 255);
			thick_line(d, x, y + sh / 2, x + sw, y + sh / 2);
			arrowhead(d, x, y + sh / 2, x + sw, y + sh / 2);
			break;
		case SW_TASKS:
			for (int k = 0; k < 3; k++)
				km_draw_fill(d, x + k * sw / 3, y, sw / 3 + 1, sh, km_pal_task((unsigned)k));
			break;
		}
		x += sw + gap;
		x += km_text_draw(d->tx, KM_FONT_SMALL, label, x, ty, km_pal(KM_C_INK), KM_LEFT);
		x += sep;
	}
	/* why no arrows are drawn, if that is the case and there is room */
	static const char hint[] = "(zoom in to see them)";
	if (d->arrows_hidden && x + km_text_width(d->tx, KM_FONT_SMALL, hint) < r->x + r->w)
		km_text_draw(d->tx, KM_FONT_SMALL, hint, x - sep + gap, ty, km_pal(KM_C_MUTED), KM_LEFT);
}
