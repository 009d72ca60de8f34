/*
 * view_summary.c - building the CPU lanes' buckets, and reading them.
 *
 * Level 0: each span of each CPU of a row is cut where it crosses a
 * bucket edge and each piece added to its bucket, so a bucket's times are
 * exact sums (floats, like the drawer's own accumulators: whole
 * nanoseconds are exact below 2^24 ns a bucket, and a relative error of
 * 1e-7 beyond, far below what a pixel can show).  Each level above is
 * the pairwise sum of the one below, down to a level of one bucket.
 *
 * How wide level 0 is: about SPANS_PER_BUCKET spans of a row a bucket,
 * on average over the run, rounded up to a power of two.  Finer would buy
 * nothing (a column that narrow holds a few spans, which the drawer then
 * walks as cheaply as it would read buckets) and would cost memory;
 * coarser would leave the whole-run view of a big run to the span walk.
 * So the buckets number about a quarter of the spans, times two for the
 * levels above: 16 bytes a span, against the model's 16 a span for the
 * spans themselves.  KM_VM_MAX_BUCKETS caps level 0 whatever the run.
 *
 * NOTE: a bucket is half-open, [k * w, (k + 1) * w), like a column; the
 * last bucket of a row may reach past the end of the run, which then
 * counts as no time at all (paper, not idle).
 */
#include "view_summary.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPANS_PER_BUCKET 4
#define KM_VM_MAX_BUCKETS ((size_t)1 << 22)
/* The span marks: about SPANS_PER_MARK spans of a CPU between two, on
 * average, so a search between two touches a few cache lines; 4 bytes a
 * mark, half a byte a span.  KM_VM_MAX_MARKS caps them whatever the run. */
#define SPANS_PER_MARK 8
#define KM_VM_MAX_MARKS ((size_t)1 << 24)

static void set_err(char *err, size_t errlen, const char *msg)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", msg);
}

static void bucket_empty(struct km_vm_bucket *b)
{
	memset(b, 0, sizeof(*b));
	b->busy_ctx = KM_VM_NONE;
}

/* Add @from to @to; the busy piece of @to wins a tie (it is earlier). */
static inline void bucket_add(struct km_vm_bucket *to, const struct km_vm_bucket *from)
{
	for (int s = 0; s < KM_CPU_STATES; s++)
		to->t[s] += from->t[s];
	to->irqoff += from->irqoff;
	if (from->busy_len > to->busy_len) {
		to->busy_len = from->busy_len;
		to->busy_ctx = from->busy_ctx;
	}
}

/* Level 0 of row @row: every piece of every span of the row's CPUs. */
static void fill_level0(struct km_vm_summary *s, int row, const uint16_t *order)
{
	const struct km_view_model *m = s->m;
	struct km_vm_bucket *v = s->b + s->off[0] + (size_t)row * s->nb[0];
	size_t nb = s->nb[0];
	km_time w = s->b0;
	int lo, hi;
	km_vm_row_range(m->ncpus, s->per_row, s->fold, row, &lo, &hi);
	for (int p = lo; p < hi; p++) {
		int cpu = order ? order[p] : p;
		for (size_t i = m->cpu_first[cpu]; i < m->cpu_first[cpu + 1]; i++) {
			const struct km_vm_span *sp = &m->spans[i];
			km_time a = sp->t < 0 ? 0 : sp->t, e = km_vm_span_end(m, cpu, i);
			size_t k = (size_t)(a / w);
			while (a < e && k < nb) {
				km_time be = (km_time)(k + 1) * w;
				km_time pe = e < be ? e : be;
				float piece = (float)(pe - a);
				struct km_vm_bucket *b = &v[k];
				b->t[sp->state] += piece;
				if (sp->irqoff)
					b->irqoff += piece;
				if (sp->state == KM_CPU_BUSY && piece > b->busy_len) {
					b->busy_len = piece;
					b->busy_ctx = sp->ctx;
				}
				a = pe;
				k++;
			}
		}
	}
}

/* The span marks of every CPU (see view_summary.h); none (NULL) when a
 * CPU has more spans than a mark can count, or no memory: then searches
 * take the CPU's whole array, which is slower and gives the same. */
static void build_marks(struct km_vm_summary *s)
{
	const struct km_view_model *m = s->m;
	if (m->ncpus < 1)
		return;
	km_time end = m->end > 0 ? m->end : 1;
	size_t nspans = m->cpu_first[m->ncpus];
	for (int cpu = 0; cpu < m->ncpus; cpu++)
		if (m->cpu_first[cpu + 1] - m->cpu_first[cpu] > UINT32_MAX)
			return;
	double want = (double)end * m->ncpus * SPANS_PER_MARK / (double)(nspans ? nspans : 1);
	double floor_w = (double)end * m->ncpus / (double)KM_VM_MAX_MARKS;
	if (want < floor_w)
		want = floor_w;
	int shift = 0;
	while ((double)((km_time)1 << shift) < want && shift < 62)
		shift++;
	size_t nmarks = (size_t)(end >> shift) + 1;
	uint32_t *mark = malloc((size_t)m->ncpus * nmarks * sizeof(*mark));
	if (!mark)
		return;
	for (int cpu = 0; cpu < m->ncpus; cpu++) {
		size_t first = m->cpu_first[cpu], n = m->cpu_first[cpu + 1] - first, i = 0;
		uint32_t *mk = mark + (size_t)cpu * nmarks;
		for (size_t g = 0; g < nmarks; g++) {
			km_time t = (km_time)g << shift;
			while (i + 1 < n && m->spans[first + i + 1].t <= t)
				i++;
			mk[g] = (uint32_t)i;
		}
	}
	s->g_shift = shift;
	s->nmarks = nmarks;
	s->mark = mark;
}

int km_vm_summary_build(struct km_vm_summary *s, const struct km_view_model *m, int per_row,
			char *err, size_t errlen)
{
	return km_vm_summary_build_fold(s, m, per_row, NULL, 0, err, errlen);
}

int km_vm_summary_build_fold(struct km_vm_summary *s, const struct km_view_model *m, int per_row,
			     const uint16_t *order, int fold, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	if (per_row < 1)
		per_row = 1;
	if (fold < 0 || fold > m->ncpus || !order)
		fold = 0;
	s->m = m;
	s->serial = m->serial;
	s->per_row = per_row;
	s->fold = fold;
	s->rows = (m->ncpus - fold + per_row - 1) / per_row + (fold ? 1 : 0);
	km_time end = m->end > 0 ? m->end : 1;
	size_t nspans = m->ncpus > 0 ? m->cpu_first[m->ncpus] : 0;
	/* about SPANS_PER_BUCKET spans of a row a bucket, and no more than
	 * KM_VM_MAX_BUCKETS buckets at level 0 in all */
	double want = (double)end * s->rows * SPANS_PER_BUCKET / (double)(nspans ? nspans : 1);
	double floor_w = (double)end * s->rows / (double)KM_VM_MAX_BUCKETS;
	if (want < floor_w)
		want = floor_w;
	km_time b0 = 1;
	while ((double)b0 < want && b0 < ((km_time)1 << 62))
		b0 <<= 1;
	s->b0 = b0;
	/* rounded up without end + b0, which overflows near 2^62 */
	size_t nb = (size_t)(end / b0 + (end % b0 != 0)), total = 0;
	for (int lv = 0; lv < KM_VM_LEVELS; lv++) {
		s->nb[lv] = nb;
		s->off[lv] = total;
		total += nb * (size_t)s->rows;
		s->nlevels = lv + 1;
		if (nb <= 1)
			break;
		nb = (nb + 1) / 2;
	}
	s->b = malloc((total ? total : 1) * sizeof(*s->b));
	if (!s->b) {
		km_vm_summary_free(s);
		set_err(err, errlen, "out of memory summarising the CPU lanes");
		return -1;
	}
	for (size_t i = 0; i < total; i++)
		bucket_empty(&s->b[i]);
	for (int row = 0; row < s->rows; row++)
		fill_level0(s, row, order);
	for (int lv = 1; lv < s->nlevels; lv++) {
		for (int row = 0; row < s->rows; row++) {
			const struct km_vm_bucket *below = km_vm_summary_row(s, lv - 1, row);
			struct km_vm_bucket *v = s->b + s->off[lv] + (size_t)row * s->nb[lv];
			size_t nbelow = s->nb[lv - 1];
			for (size_t k = 0; k < s->nb[lv]; k++) {
				v[k] = below[2 * k];
				if (2 * k + 1 < nbelow)
					bucket_add(&v[k], &below[2 * k + 1]);
			}
		}
	}
	build_marks(s);
	return 0;
}

void km_vm_summary_free(struct km_vm_summary *s)
{
	free(s->b);
	free(s->mark);
	memset(s, 0, sizeof(*s));
}

int km_vm_summary_level(const struct km_vm_summary *s, double w)
{
	if (!s->b || w < (double)s->b0)
		return -1;
	int lv = 0;
	while (lv + 1 < s->nlevels && (double)km_vm_summary_width(s, lv + 1) <= w)
		lv++;
	return lv;
}

size_t km_vm_summary_index(const struct km_vm_summary *s, int lv, double t)
{
	/* bucket k's middle is (k + 0.5) * width: the first k with that >= t */
	double k = ceil(t / (double)km_vm_summary_width(s, lv) - 0.5);
	if (k <= 0)
		return 0;
	if (k >= (double)s->nb[lv])
		return s->nb[lv];
	return (size_t)k;
}

void km_vm_summary_sum(const struct km_vm_summary *s, int lv, int row, size_t k0, size_t k1,
		       struct km_vm_bucket *out)
{
	bucket_empty(out);
	const struct km_vm_bucket *v = km_vm_summary_row(s, lv, row);
	for (size_t k = k0; k < k1; k++)
		bucket_add(out, &v[k]);
}
