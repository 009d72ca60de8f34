/*
 * test_view_summary.c - the CPU lanes' summary (view_summary.h), and the
 * colours the drawer paints from it and from the spans.
 *
 * The runs here are written by hand as models (no simulator): a few CPUs
 * whose spans are chosen so that the answer is known.  Five things are
 * held:
 *
 *   - the summary's sums agree exactly with a plain walk over the spans
 *     of the same buckets, for every level and many windows, on a
 *     pseudo-random run (whole nanoseconds below 2^24 are exact floats,
 *     so "exactly" means bit for bit); the busy context follows the
 *     documented tie rule;
 *   - the drawer paints a column the colour its dominant state says, at
 *     a zoom where it reads the summary and at one where it walks the
 *     spans, and the two agree;
 *   - short spinning in a mostly idle column and a short irq-off stretch
 *     still show when zoomed out (the strip and the yellow edge);
 *   - the span marks narrow a search to a range that holds the span a
 *     search of the CPU's whole array finds, at any time;
 *   - a CPU with no spans at all (a hand-built model; the simulator's
 *     always start idle) gets an empty range, and the drawer reads
 *     nothing past the array for it.
 */
#include "test.h"

#include <math.h>

#include "view/view_panels.h"
#include "view/view_summary.h"

#include <stdlib.h>
#include <string.h>

#define MAXSP 4096
#define MAXCPU 8

/* A hand-made model: spans appended CPU by CPU. */
struct synth {
	struct km_view_model m;
	struct km_vm_span sp[MAXSP];
	size_t first[MAXCPU + 1];
	uint8_t colour[64];
	int cpu;			/* the CPU being written */
	size_t n;
};

static void synth_init(struct synth *s, int ncpus, km_time end)
{
	memset(s, 0, sizeof(*s));
	s->m.ncpus = ncpus;
	s->m.end = end;
	s->m.spans = s->sp;
	s->m.cpu_first = s->first;
	s->m.nctx = 64;
	s->m.ctx_colour = s->colour;
	s->m.serial = 1000 + (uint64_t)ncpus;
	for (int i = 0; i < 64; i++)
		s->colour[i] = (uint8_t)i;
	s->cpu = -1;
}

/* From @t on, CPU @cpu (the current one or the next) is in @state. */
static void synth_span(struct synth *s, int cpu, km_time t, int state, uint32_t ctx, int irqoff)
{
	while (s->cpu < cpu)
		s->first[++s->cpu] = s->n;
	assert_true(s->n < MAXSP);
	s->sp[s->n++] = (struct km_vm_span){ .t = t, .ctx = ctx, .state = (uint8_t)state,
					      .irqoff = (uint8_t)irqoff };
}

static void synth_done(struct synth *s)
{
	while (s->cpu < s->m.ncpus)
		s->first[++s->cpu] = s->n;
}

/* The reference: bucket by bucket of level 0 within [a, b) (multiples of
 * b0), CPU by CPU, span by span, each piece cut at the bucket's edges. */
static void walk_ref(const struct km_view_model *m, int per_row, int row, km_time b0, km_time a,
		     km_time b, struct km_vm_bucket *out)
{
	memset(out, 0, sizeof(*out));
	out->busy_ctx = KM_VM_NONE;
	int lo = row * per_row, hi = lo + per_row < m->ncpus ? lo + per_row : m->ncpus;
	for (km_time ba = a; ba < b; ba += b0) {
		km_time be = ba + b0;
		for (int cpu = lo; cpu < hi; cpu++) {
			for (size_t i = m->cpu_first[cpu]; i < m->cpu_first[cpu + 1]; i++) {
				km_time s = m->spans[i].t, e = km_vm_span_end(m, cpu, i);
				km_time x = s > ba ? s : ba, y = e < be ? e : be;
				if (y <= x)
					continue;
				float piece = (float)(y - x);
				out->t[m->spans[i].state] += piece;
				if (m->spans[i].irqoff)
					out->irqoff += piece;
				if (m->spans[i].state == KM_CPU_BUSY && piece > out->busy_len) {
					out->busy_len = piece;
					out->busy_ctx = m->spans[i].ctx;
				}
			}
		}
	}
}

static uint32_t lcg(uint32_t *x)
{
	*x = *x * 1664525u + 1013904223u;
	return *x >> 8;
}

/* Five CPUs of random spans, up to ~2^20 ns: sums stay exact floats. */
static void synth_random(struct synth *s, uint32_t seed)
{
	synth_init(s, 5, 0);
	uint32_t x = seed;
	km_time end = 0;
	for (int cpu = 0; cpu < 5; cpu++) {
		km_time t = 0;
		for (int k = 0; k < 600; k++) {
			int state = (int)(lcg(&x) % KM_CPU_STATES);
			synth_span(s, cpu, t, state, lcg(&x) % 40, (int)(lcg(&x) % 4 == 0));
			t += 1 + (km_time)(lcg(&x) % (k % 50 == 0 ? 20000 : 900));
		}
		if (t > end)
			end = t;
	}
	s->m.end = end;
	synth_done(s);
}

static void test_view_summary_agrees_with_walk(void **state)
{
	(void)state;
	static struct synth s;
	for (uint32_t seed = 1; seed <= 3; seed++) {
		synth_random(&s, seed);
		for (int per_row = 1; per_row <= 3; per_row++) {
			struct km_vm_summary sum;
			assert_int_equal(km_vm_summary_build(&sum, &s.m, per_row, NULL, 0), 0);
			assert_int_equal(sum.rows, (5 + per_row - 1) / per_row);
			/* a power of two, and the top level one bucket wide */
			assert_true(sum.b0 > 0 && (sum.b0 & (sum.b0 - 1)) == 0);
			assert_int_equal(sum.nb[sum.nlevels - 1], 1);
			assert_true(km_vm_summary_width(&sum, sum.nlevels - 1) >= s.m.end);
			uint32_t x = seed * 77;
			for (int lv = 0; lv < sum.nlevels; lv++) {
				km_time w = km_vm_summary_width(&sum, lv);
				for (int probe = 0; probe < 40; probe++) {
					int row = (int)(lcg(&x) % (uint32_t)sum.rows);
					double a = (double)(lcg(&x) % (uint32_t)(s.m.end + 1));
					double b = a + (double)(lcg(&x) % (uint32_t)(4 * w + 1));
					size_t k0 = km_vm_summary_index(&sum, lv, a);
					size_t k1 = km_vm_summary_index(&sum, lv, b);
					assert_true(k0 <= k1 && k1 <= sum.nb[lv]);
					struct km_vm_bucket got, want;
					km_vm_summary_sum(&sum, lv, row, k0, k1, &got);
					walk_ref(&s.m, per_row, row, sum.b0, (km_time)k0 * w,
						 (km_time)k1 * w, &want);
					for (int st = 0; st < KM_CPU_STATES; st++)
						assert_true(got.t[st] == want.t[st]);
					assert_true(got.irqoff == want.irqoff);
					assert_true(got.busy_len == want.busy_len);
					assert_int_equal(got.busy_ctx, want.busy_ctx);
				}
				/* the whole run, at every level: every nanosecond of
				 * every CPU of the row counted once */
				struct km_vm_bucket all;
				km_vm_summary_sum(&sum, lv, 0, 0, sum.nb[lv], &all);
				float total = 0;
				for (int st = 0; st < KM_CPU_STATES; st++)
					total += all.t[st];
				int ncpu = per_row < 5 ? per_row : 5;
				km_time cover = 0;
				for (int cpu = 0; cpu < ncpu; cpu++)
					cover += s.m.end - s.m.spans[s.m.cpu_first[cpu]].t;
				assert_true(total == (float)cover);
			}
			km_vm_summary_free(&sum);
		}
	}
}

/* Idle CPUs folded (view_layout.c): the rows follow an order, its last
 * CPUs in one row of their own; each row's whole run is the sum of its
 * CPUs' own, as a summary of one CPU a row counts them. */
static void test_view_summary_folded_rows(void **state)
{
	(void)state;
	static struct synth s;
	synth_random(&s, 4);
	const uint16_t order[5] = { 1, 3, 0, 2, 4 };	/* 2 and 4 folded */
	const int rows_of[3][3] = { { 1, 3, -1 }, { 0, -1, -1 }, { 2, 4, -1 } };
	struct km_vm_summary one, fold;
	assert_int_equal(km_vm_summary_build(&one, &s.m, 1, NULL, 0), 0);
	assert_int_equal(km_vm_summary_build_fold(&fold, &s.m, 2, order, 2, NULL, 0), 0);
	assert_int_equal(fold.rows, 3);
	int lo, hi;
	km_vm_row_range(5, 2, 2, 2, &lo, &hi);
	assert_true(lo == 3 && hi == 5);
	for (int row = 0; row < 3; row++) {
		struct km_vm_bucket got, want, c;
		km_vm_summary_sum(&fold, fold.nlevels - 1, row, 0, 1, &got);
		memset(&want, 0, sizeof(want));
		for (int k = 0; k < 3 && rows_of[row][k] >= 0; k++) {
			km_vm_summary_sum(&one, one.nlevels - 1, rows_of[row][k], 0, 1, &c);
			for (int st = 0; st < KM_CPU_STATES; st++)
				want.t[st] += c.t[st];
		}
		for (int st = 0; st < KM_CPU_STATES; st++)
			assert_true(fabsf(got.t[st] - want.t[st]) <= 1e-4f * (want.t[st] + 1));
	}
	km_vm_summary_free(&one);
	km_vm_summary_free(&fold);
}

/* A buckets' midpoint rule: each bucket lands in exactly one column. */
static void test_view_summary_columns_tile(void **state)
{
	(void)state;
	static struct synth s;
	synth_random(&s, 9);
	struct km_vm_summary sum;
	assert_int_equal(km_vm_summary_build(&sum, &s.m, 1, NULL, 0), 0);
	/* no level for columns narrower than b0; the coarsest that fits else */
	assert_int_equal(km_vm_summary_level(&sum, (double)sum.b0 - 1), -1);
	assert_int_equal(km_vm_summary_level(&sum, (double)sum.b0), 0);
	assert_int_equal(km_vm_summary_level(&sum, (double)sum.b0 * 3), 1);
	int lv = km_vm_summary_level(&sum, (double)sum.b0 * 2.5);
	double dt = (double)sum.b0 * 2.5;
	size_t prev = km_vm_summary_index(&sum, lv, 0);
	assert_int_equal(prev, 0);
	for (int c = 1; c < 400; c++) {
		size_t k = km_vm_summary_index(&sum, lv, c * dt);
		/* one or two buckets a column, none skipped, none twice */
		assert_true(k == sum.nb[lv] || (k - prev >= 1 && k - prev <= 2));
		prev = k;
	}
	km_vm_summary_free(&sum);
}

/* ------------------------------------------------------------ drawing -- */

/* A drawing context with only the lanes' buffers: km_draw_cpu_rows
 * needs no renderer. */
static struct km_draw *bare_draw(int w, int h)
{
	struct km_draw *d = calloc(1, sizeof(*d));
	assert_non_null(d);
	d->px_w = w;
	d->px_h = h;
	d->px = calloc((size_t)w * (size_t)h, sizeof(uint32_t));
	d->acc = calloc((size_t)w * 6, sizeof(float));
	d->bctx = calloc((size_t)w, sizeof(uint32_t));
	d->blen = calloc((size_t)w, sizeof(km_time));
	d->kidx = calloc((size_t)w + 1, sizeof(size_t));
	d->edge = calloc((size_t)w + 1, sizeof(double));
	d->cnt = calloc(((size_t)w + 1) * 6, sizeof(int32_t));
	d->fctx = calloc((size_t)w, sizeof(uint32_t));
	assert_true(d->px && d->acc && d->bctx && d->blen && d->kidx && d->edge && d->cnt &&
		    d->fctx);
	return d;
}

static void bare_free(struct km_draw *d)
{
	free(d->px);
	free(d->acc);
	free(d->bctx);
	free(d->blen);
	free(d->kidx);
	free(d->edge);
	free(d->cnt);
	free(d->fctx);
	for (int i = 0; i < KM_DRAW_SUMMARIES; i++)
		km_vm_summary_free(&d->sum[i]);
	free(d);
}

static uint32_t px_at(const struct km_draw *d, int x, int y)
{
	return d->px[(size_t)y * (size_t)d->px_w + (size_t)x] & 0xFFFFFF;
}

/*
 * Two CPUs, 2^20 ns, repeating every 4096 ns:
 *   CPU0: busy (task 3) 3000 ns, then spinning 1096 ns: busy dominates;
 *   CPU1: idle 3600 ns, then spinning 496 ns (12%): idle dominates, the
 *         spinning shows underneath; interrupts off for 40 ns of each
 *         period (1%): a yellow edge.
 * Plenty of spans (512 periods), so that level 0 is a few periods wide.
 */
static void synth_pattern(struct synth *s)
{
	synth_init(s, 2, 1 << 20);
	for (km_time t = 0; t < (1 << 20); t += 4096) {
		synth_span(s, 0, t, KM_CPU_BUSY, 3, 0);
		synth_span(s, 0, t + 3000, KM_CPU_SPIN, 3, 0);
	}
	for (km_time t = 0; t < (1 << 20); t += 4096) {
		synth_span(s, 1, t, KM_CPU_IDLE, KM_VM_NONE, 0);
		synth_span(s, 1, t + 3600, KM_CPU_SPIN, 5, 0);
		synth_span(s, 1, t + 3600 + 100, KM_CPU_SPIN, 5, 1);
		synth_span(s, 1, t + 3600 + 140, KM_CPU_SPIN, 5, 0);
	}
	synth_done(s);
}

static void test_view_summary_colours_at_two_zooms(void **state)
{
	(void)state;
	static struct synth s;
	synth_pattern(&s);
	const int W = 64, row_h = 12, H = 2 * row_h;
	uint32_t busy = km_pal_state(KM_CPU_BUSY, 3), idle = km_pal_state(KM_CPU_IDLE, 0);
	uint32_t spin = km_pal_state(KM_CPU_SPIN, 0), yellow = km_pal(KM_C_IRQOFF);
	struct {
		km_time t0, t1;
		bool summary;
	} zoom[] = {
		{ 0, 1 << 20, true },		/* 16 periods a column: buckets */
		{ 8192, 8192 + 64 * 64, false },	/* 64 ns a column: spans */
	};
	for (size_t z = 0; z < 2; z++) {
		struct km_draw *d = bare_draw(W, H);
		km_draw_cpu_rows(d, &s.m, 0, 2, row_h, 0, 1, zoom[z].t0, zoom[z].t1);
		const struct km_vm_summary *sum = km_draw_summary(d, &s.m, 1, NULL, 0);
		assert_non_null(sum);
		double dt = (double)(zoom[z].t1 - zoom[z].t0) / W;
		assert_int_equal(km_vm_summary_level(sum, dt) >= 0, zoom[z].summary);
		if (zoom[z].summary) {
			for (int c = 0; c < W; c++) {
				/* CPU0: busy in task 3's colour, top to bottom */
				assert_int_equal(px_at(d, c, 0), busy);
				assert_int_equal(px_at(d, c, row_h - 1), busy);
				/* CPU1: idle above, the spinning in the bottom
				 * third, a yellow edge on top */
				assert_int_equal(px_at(d, c, row_h), yellow);
				assert_int_equal(px_at(d, c, row_h + row_h / 2), idle);
				assert_int_equal(px_at(d, c, H - 1), spin);
			}
		} else {
			/* 8192 + 64 * c: busy below 3000 ns into the period
			 * (columns 0..46), spinning from column 47 on */
			assert_int_equal(px_at(d, 10, 5), busy);
			assert_int_equal(px_at(d, 46, 5), busy);
			assert_int_equal(px_at(d, 48, 5), spin);
			/* CPU1 idle, then the spinning from 3600 ns (column 56) */
			assert_int_equal(px_at(d, 10, row_h + 5), idle);
			assert_int_equal(px_at(d, 58, row_h + 5), spin);
		}
		bare_free(d);
	}
}

/* One-pixel rows: no hatching, no strip, just the dominant state; two
 * CPUs a row sum their time (busy 3000 + idle 3600 + spinning 1592 ns a
 * period: idle). */
static void test_view_summary_thin_rows(void **state)
{
	(void)state;
	static struct synth s;
	synth_pattern(&s);
	struct km_draw *d = bare_draw(32, 2);
	km_draw_cpu_rows(d, &s.m, 0, 2, 1, 0, 1, 0, 1 << 20);
	km_draw_cpu_rows(d, &s.m, 1, 1, 1, 0, 2, 0, 1 << 20);
	for (int c = 0; c < 32; c++) {
		assert_int_equal(px_at(d, c, 0), km_pal_state(KM_CPU_BUSY, 3));
		assert_int_equal(px_at(d, c, 1), km_pal_state(KM_CPU_IDLE, 0));
	}
	/* and the same from the spans, zoomed in on one period */
	km_draw_cpu_rows(d, &s.m, 0, 2, 1, 0, 1, 4096, 8192);
	assert_int_equal(px_at(d, 1, 0), km_pal_state(KM_CPU_BUSY, 3));
	assert_int_equal(px_at(d, 31, 0), km_pal_state(KM_CPU_SPIN, 0));
	assert_int_equal(px_at(d, 1, 1), km_pal_state(KM_CPU_IDLE, 0));
	bare_free(d);
}

/* At a zoom both ways can draw (columns of exactly b0 << k ns, aligned
 * on buckets), the summary and the span walk paint the same pixels. */
static void test_view_summary_same_pixels_as_walk(void **state)
{
	(void)state;
	static struct synth s;
	synth_random(&s, 5);
	const int W = 50, row_h = 9;
	/* busy only in task 0, so that the task colour cannot differ */
	for (size_t i = 0; i < s.n; i++)
		s.sp[i].ctx = 0;
	for (int per_row = 1; per_row <= 2; per_row++) {
		int rows = (5 + per_row - 1) / per_row;
		struct km_draw *a = bare_draw(W, rows * row_h);
		struct km_draw *b = bare_draw(W, rows * row_h);
		const struct km_vm_summary *sum = km_draw_summary(a, &s.m, per_row, NULL, 0);
		assert_non_null(sum);
		/* columns one level-1 bucket wide, on bucket edges */
		km_time w = sum->b0 << 1, t0 = 4 * w, t1 = t0 + W * w;
		km_draw_cpu_rows(a, &s.m, 0, rows, row_h, 0, per_row, t0, t1);
		/* the same from the spans: b's summary made too coarse to use */
		struct km_vm_summary *bs = (struct km_vm_summary *)km_draw_summary(b, &s.m, per_row, NULL, 0);
		bs->b0 = (km_time)1 << 60;
		km_draw_cpu_rows(b, &s.m, 0, rows, row_h, 0, per_row, t0, t1);
		/* whole nanoseconds: both sums exact, so every pixel agrees */
		int n = W * rows * row_h, hatched = 0;
		for (int i = 0; i < n; i++) {
			assert_int_equal(a->px[i], b->px[i]);
			hatched += (a->px[i] & 0xFFFFFF) == km_pal(KM_C_IRQOFF);
		}
		assert_true(hatched > 0);	/* the run has irq-off in view */
		bare_free(a);
		bare_free(b);
	}
}

/* Zoomed in, the span walk's sums for each column are those of a plain
 * walk over the column (whole-nanosecond edges: exact), and its task is
 * the same: a whole column's first CPU, else the longest piece. */
static void test_view_summary_walk_matches_reference(void **state)
{
	(void)state;
	static struct synth s;
	synth_random(&s, 7);
	const int W = 37;
	const km_time widths[] = { 7, 300, 901 };
	int busy = 0;
	for (size_t z = 0; z < sizeof(widths) / sizeof(widths[0]); z++) {
		struct km_draw *d = bare_draw(W, 4);
		km_time dt = widths[z], t0 = 12345, t1 = t0 + W * dt;
		km_draw_cpu_rows(d, &s.m, 0, 1, 4, 0, 5, t0, t1);
		const struct km_vm_summary *sum = km_draw_summary(d, &s.m, 5, NULL, 0);
		assert_int_equal(km_vm_summary_level(sum, (double)dt), -1);
		/* d->acc holds the last row drawn: the only one */
		for (int c = 0; c < W; c++) {
			struct km_vm_bucket want;
			walk_ref(&s.m, 5, 0, dt, t0 + c * dt, t0 + (c + 1) * dt, &want);
			const float *acc = &d->acc[c * 6];
			for (int st = 0; st < KM_CPU_STATES; st++)
				assert_true(acc[st] == want.t[st]);
			assert_true(acc[KM_CPU_STATES] == want.irqoff);
			assert_int_equal(d->bctx[c], want.busy_ctx);
			busy += want.busy_ctx != KM_VM_NONE;
		}
		bare_free(d);
	}
	assert_true(busy > 10);		/* the task rule was exercised */
}

/* The span a search of CPU @cpu's whole array finds for @t: the last
 * starting at or before it, else the first. */
static size_t span_at_ref(const struct km_view_model *m, int cpu, km_time t)
{
	size_t first = m->cpu_first[cpu], ans = first;
	for (size_t i = first; i < m->cpu_first[cpu + 1]; i++)
		if (m->spans[i].t <= t)
			ans = i;
	return ans;
}

static void test_view_summary_marks_narrow_the_search(void **state)
{
	(void)state;
	static struct synth s;
	for (uint32_t seed = 11; seed <= 13; seed++) {
		synth_random(&s, seed);
		/* some spans of no length (two starts at one time), as a
		 * context switch at an instant gives */
		for (int cpu = 0; cpu < 5; cpu++)
			for (size_t i = s.first[cpu] + 1; i < s.first[cpu + 1]; i += 17)
				s.sp[i].t = s.sp[i - 1].t;
		struct km_vm_summary sum;
		assert_int_equal(km_vm_summary_build(&sum, &s.m, 2, NULL, 0), 0);
		assert_non_null(sum.mark);
		assert_true(sum.nmarks >= 2);
		uint32_t x = seed;
		int narrowed = 0;
		for (int probe = 0; probe < 3000; probe++) {
			int cpu = (int)(lcg(&x) % 5);
			km_time t = (km_time)(lcg(&x) % (uint32_t)(s.m.end + 5000)) - 1000;
			if (probe % 7 == 0)	/* on a mark */
				t = (km_time)(lcg(&x) % (uint32_t)sum.nmarks) << sum.g_shift;
			size_t lo, hi, want = span_at_ref(&s.m, cpu, t);
			km_vm_summary_span_range(&sum, cpu, t, &lo, &hi);
			assert_true(lo >= s.m.cpu_first[cpu] && hi <= s.m.cpu_first[cpu + 1]);
			/* the span is in the range, and a search of the range
			 * (the last start at or before t, else the range's
			 * first) finds it */
			assert_true(lo <= want && want < hi);
			size_t got = lo;
			for (size_t i = lo; i < hi; i++)
				if (s.m.spans[i].t <= t)
					got = i;
			assert_int_equal(got, want);
			narrowed += hi - lo < (s.m.cpu_first[cpu + 1] - s.m.cpu_first[cpu]) / 4;
		}
		assert_true(narrowed > 1000);
		km_vm_summary_free(&sum);
	}
}

/* CPUs 1 and 2 have no spans and the array is sized exactly, so a range
 * one past a CPU's spans reads past the allocation (ASan says where). */
static void test_view_summary_cpu_without_spans(void **state)
{
	(void)state;
	struct km_view_model m;
	memset(&m, 0, sizeof(m));
	m.ncpus = 3;
	m.end = 1000000;
	m.serial = 77;
	uint8_t colour[4] = { 0 };
	m.nctx = 4;
	m.ctx_colour = colour;
	size_t n = 200;
	m.spans = malloc(n * sizeof(*m.spans));
	assert_non_null(m.spans);
	for (size_t i = 0; i < n; i++)
		m.spans[i] = (struct km_vm_span){ .t = (km_time)i * 5000, .ctx = 1,
						  .state = (uint8_t)(i % 3) };
	size_t first[4] = { 0, n, n, n };
	m.cpu_first = first;

	struct km_vm_summary sum;
	assert_int_equal(km_vm_summary_build(&sum, &m, 1, NULL, 0), 0);
	assert_non_null(sum.mark);
	for (int cpu = 1; cpu < 3; cpu++)
		for (km_time t = 0; t <= m.end; t += 12345) {
			size_t lo, hi;
			km_vm_summary_span_range(&sum, cpu, t, &lo, &hi);
			assert_int_equal(lo, n);
			assert_int_equal(hi, n);
		}
	km_vm_summary_free(&sum);

	/* zoomed in, so the drawer walks spans: rows for CPUs 0, 1, 2 */
	struct km_draw *d = bare_draw(40, 3);
	km_draw_cpu_rows(d, &m, 0, 3, 1, 0, 1, 10000, 10400);
	bare_free(d);
	free(m.spans);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_view_summary_agrees_with_walk),
		cmocka_unit_test(test_view_summary_folded_rows),
		cmocka_unit_test(test_view_summary_columns_tile),
		cmocka_unit_test(test_view_summary_colours_at_two_zooms),
		cmocka_unit_test(test_view_summary_thin_rows),
		cmocka_unit_test(test_view_summary_same_pixels_as_walk),
		cmocka_unit_test(test_view_summary_walk_matches_reference),
		cmocka_unit_test(test_view_summary_marks_narrow_the_search),
		cmocka_unit_test(test_view_summary_cpu_without_spans),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
