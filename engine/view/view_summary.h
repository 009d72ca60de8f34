/*
 * view_summary.h - the CPU lanes summed at every power-of-two width of
 * time, so that a zoomed-out frame reads a bucket or two per pixel
 * instead of every span in view.
 *
 * Drawing a CPU row means asking, for each pixel column, how long the
 * row's CPUs spent in each state during the column's slice of time.
 * Walking the spans answers that exactly but costs O(spans in view): at
 * 10 million events with the whole run in view, several spans per CPU
 * per column, for 1024 CPUs.  The summary answers it from buckets:
 *
 *   - level 0 cuts time into buckets of b0 ns (a power of two chosen so
 *     that a bucket holds a few spans of a row, see view_summary.c);
 *     level k into buckets of b0 << k, each the sum of two of level k-1;
 *   - a bucket holds, for one row (a group of @per_row CPUs, as the
 *     layout groups them), the time spent in each state, the time with
 *     interrupts off, and the longest stretch of running code with its
 *     context (the task whose colour a "busy" column takes).
 *
 * A column of width w reads the coarsest level whose buckets are no wider
 * than w: the buckets whose middle falls in the column, one or two.  So
 * every instant is counted in exactly one column, at most half a column
 * from where it happened, and a frame costs O(rows x columns) at any zoom
 * out.  Zoomed in further than b0 (a few spans a column), the drawer
 * walks the spans instead, which is then as cheap.
 *
 * The rule a column's colour follows is the drawer's (view_timeline.c):
 * the state with the most time, the busiest other state underneath a
 * mostly idle column, irq-off hatching.  The summary changes only where
 * the slice's edges fall (on bucket edges) and one detail of the task
 * colour: a stretch of running code is measured within a level-0 bucket,
 * so the longest stretch is the longest piece of one; on a tie the
 * earliest bucket wins, then the lowest CPU, then the earliest piece.
 *
 * The summary also keeps, for each CPU, where its spans stand at every
 * multiple of a coarser width g_w (a few spans of the CPU apart): a
 * zoomed-in frame finds the first span of each CPU in view by a short
 * search between two of these marks, not across the CPU's whole array
 * (km_vm_summary_span_range).  At 10 million events that search was a
 * cache and TLB miss at every step, for every CPU, every frame.
 *
 * Plain data, no SDL: built from a model, immutable afterwards.  It is
 * not part of the model because it depends on the layout (the CPUs a
 * row); the drawing context keeps one per run shown (km_draw_summary in
 * view_timeline.c).
 */
#ifndef KM_VIEW_VIEW_SUMMARY_H
#define KM_VIEW_VIEW_SUMMARY_H

#include "view_model.h"

#define KM_VM_LEVELS 48

/* One row's time in one bucket (or in one column: the same sums). */
struct km_vm_bucket {
	float t[KM_CPU_STATES];		/* ns in each state, over the row's CPUs */
	float irqoff;			/* ns with interrupts off */
	float busy_len;			/* the longest piece of running code */
	uint32_t busy_ctx;		/* its context, or KM_VM_NONE */
};

struct km_vm_summary {
	const struct km_view_model *m;
	uint64_t serial;		/* the model's, see km_vm_build */
	int per_row, rows;
	int fold;			/* CPUs folded into the last row, or 0 */
	km_time b0;			/* width of a level-0 bucket: a power of two */
	int nlevels;
	size_t nb[KM_VM_LEVELS];	/* buckets a row at each level */
	size_t off[KM_VM_LEVELS];	/* first bucket of the level's row 0 */
	struct km_vm_bucket *b;		/* level by level, row by row, in time */
	/* where each CPU's spans stand: mark[cpu * nmarks + g] is the index,
	 * from m->cpu_first[cpu], of the CPU's last span starting at or
	 * before g << g_shift (0 if none).  NULL when there are none (no
	 * CPUs, too many spans, or no memory): a search then takes the
	 * CPU's whole array */
	int g_shift;
	size_t nmarks;
	uint32_t *mark;
};

/**
 * km_vm_summary_build - sum @m's CPU spans into buckets, @per_row CPUs a
 * row (CPU r * per_row .. r * per_row + per_row - 1 in row r).
 * Returns 0, or -1 with @err (out of memory); on failure @s is empty and
 * km_vm_summary_free is still safe.  Cost: O(spans + buckets), and the
 * buckets are about a quarter of the spans (at most KM_VM_MAX_BUCKETS
 * at level 0), 32 bytes each, twice over for the levels above.
 */
int km_vm_summary_build(struct km_vm_summary *s, const struct km_view_model *m, int per_row,
			char *err, size_t errlen);

/*
 * km_vm_row_range - the CPUs of row @row when @ncpus are shown @per_row a
 * row, the last @fold of them (in the rows' order) folded into a last row
 * of their own: positions [*lo, *hi) of that order.
 */
static inline void km_vm_row_range(int ncpus, int per_row, int fold, int row, int *lo, int *hi)
{
	int nact = ncpus - fold;
	if (per_row < 1)
		per_row = 1;
	if (fold && row == (nact + per_row - 1) / per_row) {
		*lo = nact;
		*hi = ncpus;
		return;
	}
	*lo = row * per_row;
	*hi = *lo + per_row;
	if (*hi > nact)
		*hi = nact;
	if (*lo > *hi)
		*lo = *hi;
}

/*
 * km_vm_summary_build_fold - as km_vm_summary_build, the CPUs in rows in
 * the order @order (ncpus of them; NULL: 0, 1, 2, ...), the last @fold of
 * them in one last row (km_vm_row_range): the window's idle CPUs folded.
 */
int km_vm_summary_build_fold(struct km_vm_summary *s, const struct km_view_model *m, int per_row,
			     const uint16_t *order, int fold, char *err, size_t errlen);
void km_vm_summary_free(struct km_vm_summary *s);

/* The coarsest level whose buckets are at most @w ns wide, or -1 if even
 * level 0's are wider (then walk the spans). */
int km_vm_summary_level(const struct km_vm_summary *s, double w);

/* Width of a bucket of level @lv. */
static inline km_time km_vm_summary_width(const struct km_vm_summary *s, int lv)
{
	return lv < 63 && s->b0 <= (INT64_MAX >> lv) ? s->b0 << lv : INT64_MAX;
}

/* The first bucket of level @lv whose middle is at or after @t (0..nb). */
size_t km_vm_summary_index(const struct km_vm_summary *s, int lv, double t);

/* Row @row's buckets at level @lv (nb[lv] of them). */
static inline const struct km_vm_bucket *km_vm_summary_row(const struct km_vm_summary *s, int lv,
							   int row)
{
	return s->b + s->off[lv] + (size_t)row * s->nb[lv];
}

/**
 * km_vm_summary_span_range - where to search for the span of @cpu holding
 * @t (the last span starting at or before it): *@lo..*@hi, a range of
 * m->spans within the CPU's, which holds it if any span does.  A search
 * of the range gives the same span as one of the CPU's whole array.
 * O(1); the whole array when there are no marks.
 */
static inline void km_vm_summary_span_range(const struct km_vm_summary *s, int cpu, km_time t,
					    size_t *lo, size_t *hi)
{
	const struct km_view_model *m = s->m;
	size_t first = m->cpu_first[cpu], end = m->cpu_first[cpu + 1];
	*lo = first;
	*hi = end;
	if (!s->mark || t < 0 || first == end)
		return;		/* no marks, before the run, or a CPU with no spans */
	size_t g = (size_t)(t >> s->g_shift);
	const uint32_t *mk = s->mark + (size_t)cpu * s->nmarks;
	if (g >= s->nmarks) {
		*lo = first + mk[s->nmarks - 1];
		return;
	}
	*lo = first + mk[g];
	if (g + 1 < s->nmarks && first + mk[g + 1] + 1 < end)
		*hi = first + mk[g + 1] + 1;
}

/**
 * km_vm_summary_sum - the sums of row @row over buckets [k0, k1) of level
 * @lv, into @out (which it overwrites).  The busy context is the one of
 * the longest piece; on a tie the earlier bucket's.
 */
void km_vm_summary_sum(const struct km_vm_summary *s, int lv, int row, size_t k0, size_t k1,
		       struct km_vm_bucket *out);

#endif /* KM_VIEW_VIEW_SUMMARY_H */
