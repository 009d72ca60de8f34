/*
 * view_model.c - splitting a run's trace into what the drawers ask for.
 *
 * Two passes over the trace.  The first counts, per CPU, per lock and per
 * counter, the records that change something, so that the second can
 * fill arrays of exactly the right size: one allocation per kind of
 * span, none per record.  Changes at the same instant are folded into
 * one span (the last one wins), so a release, a hand-off and a wake-up at
 * t = 10.2 us leave one lock span, not three of zero length.
 *
 * Lock holders: the trace says who acquired and who released.  A
 * semaphore may be released by someone who never took it (an interrupt
 * handler's up()); NOTE: like the core (km_op_up), the model then retires
 * the oldest holder.  Waiters: a context waits from its KM_TR_CONTEND
 * until it acquires or gives up (KM_TR_TRYFAIL, timeout); a legacy
 * semaphore's woken sleeper that loses the race and queues again stays a
 * waiter throughout, which is what it is.
 *
 * Who woke whom: a wake-up by wake_up() or complete() names its waker; a
 * lock hand-off does not (it happens inside the release), so the waker is
 * the context whose KM_TR_RELEASE of the same lock comes just before it,
 * at the same instant.
 */
#include "view_model.h"
#include "../trace_kinds.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int km_vm_lock_index(const struct km_view_model *m, uint32_t id)
{
	const struct km_sim *sim = m->sim;
	if (id < sim->locks.n)
		return (int)id;
	if (id == KM_BKL_ID)
		return (int)sim->locks.n;
	if (id == KM_GIL_ID)
		return (int)sim->locks.n + 1;
	return -1;
}

const char *km_vm_lock_name(const struct km_view_model *m, uint32_t id)
{
	int li = km_vm_lock_index(m, id);
	return li >= 0 && li < m->nlocks ? m->locks[li].lock->name : "?";
}

const char *km_vm_ctx_name(const struct km_view_model *m, uint32_t ctx)
{
	if (ctx == KM_TR_NONE || ctx >= m->sim->ctxs.n)
		return "-";
	const char *n = km_ctx_name(m->sim->ctxs.v[ctx]);
	return n ? n : "?";
}

size_t km_vm_rec_at(const struct km_view_model *m, km_time t)
{
	size_t lo = 0, hi = m->nrecs;
	while (lo < hi) {		/* first record with time > t */
		size_t mid = lo + (hi - lo) / 2;
		if (m->recs[mid].time <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : 0;
}

const struct km_vm_span *km_vm_cpu_at(const struct km_view_model *m, int cpu, km_time t)
{
	if (cpu < 0 || cpu >= m->ncpus)
		return NULL;
	size_t lo = m->cpu_first[cpu], hi = m->cpu_first[cpu + 1];
	if (lo == hi || t < m->spans[lo].t || t > m->end)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->spans[mid].t <= t)
			lo = mid;
		else
			hi = mid;
	}
	return &m->spans[lo];
}

const struct km_vm_lspan *km_vm_lock_at(const struct km_view_model *m, int li, km_time t)
{
	if (li < 0 || li >= m->nlocks)
		return NULL;
	const struct km_vm_lock *L = &m->locks[li];
	if (!L->n || t < m->lspans[L->first].t)
		return NULL;
	size_t lo = L->first, hi = L->first + L->n;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->lspans[mid].t <= t)
			lo = mid;
		else
			hi = mid;
	}
	return &m->lspans[lo];
}

/* ------------------------------------------------------------ building -- */

/* Holders of one lock while building, oldest first. */
struct holders {
	uint32_t *v;
	uint32_t n, cap;
};

static int holders_add(struct holders *h, uint32_t ctx)
{
	if (h->n == h->cap) {
		uint32_t cap = h->cap ? h->cap * 2 : 4;
		uint32_t *v = realloc(h->v, cap * sizeof(*v));
		if (!v)
			return -1;
		h->v = v;
		h->cap = cap;
	}
	h->v[h->n++] = ctx;
	return 0;
}

/* Retire @ctx's hold, else the oldest (see the essay). */
static void holders_remove(struct holders *h, uint32_t ctx)
{
	if (!h->n)
		return;
	uint32_t at = 0;
	for (uint32_t i = 0; i < h->n; i++) {
		if (h->v[i] == ctx) {
			at = i;
			break;
		}
	}
	memmove(&h->v[at], &h->v[at + 1], (h->n - at - 1) * sizeof(h->v[0]));
	h->n--;
}

static bool is_lock_change(const struct km_trace_rec *r)
{
	switch (r->kind) {
	case KM_TR_CONTEND:
	case KM_TR_ACQUIRE:
	case KM_TR_RELEASE:
		return true;
	case KM_TR_TRYFAIL:
		return r->arg == 1;
	default:
		return false;
	}
}

static void push_span(struct km_view_model *m, size_t *fill, int cpu, km_time t,
		      uint32_t ctx, uint8_t state, uint8_t irqoff)
{
	size_t first = m->cpu_first[cpu], n = fill[cpu];
	struct km_vm_span *last = n ? &m->spans[first + n - 1] : NULL;
	if (last && last->t == t) {
		last->ctx = ctx;	/* same instant: the last word wins */
		last->state = state;
		last->irqoff = irqoff;
		/* fold into the previous span if it now says the same */
		if (n > 1) {
			struct km_vm_span *prev = last - 1;
			if (prev->ctx == ctx && prev->state == state && prev->irqoff == irqoff)
				fill[cpu]--;
		}
		return;
	}
	if (last && last->ctx == ctx && last->state == state && last->irqoff == irqoff)
		return;
	m->spans[first + n] = (struct km_vm_span){ .t = t, .ctx = ctx, .state = state,
						   .irqoff = irqoff };
	fill[cpu]++;
}

static void push_lspan(struct km_view_model *m, int li, km_time t, const struct holders *h,
		       uint16_t waiters)
{
	struct km_vm_lock *L = &m->locks[li];
	struct km_vm_lspan s = {
		.t = t, .holder = h->n ? h->v[0] : KM_VM_NONE,
		.holders = (uint16_t)(h->n > UINT16_MAX ? UINT16_MAX : h->n), .waiters = waiters,
	};
	if (s.holders > L->max_holders)
		L->max_holders = s.holders;
	if (s.waiters > L->max_waiters)
		L->max_waiters = s.waiters;
	if (L->n && m->lspans[L->first + L->n - 1].t == t) {
		m->lspans[L->first + L->n - 1] = s;
		return;
	}
	m->lspans[L->first + L->n++] = s;
}

static int cmp_hot(const void *a, const void *b, const struct km_view_model *m)
{
	const struct km_lock *la = m->locks[*(const int *)a].lock;
	const struct km_lock *lb = m->locks[*(const int *)b].lock;
	if (la->st.contentions != lb->st.contentions)
		return la->st.contentions > lb->st.contentions ? -1 : 1;
	if (la->st.acquisitions != lb->st.acquisitions)
		return la->st.acquisitions > lb->st.acquisitions ? -1 : 1;
	return *(const int *)a - *(const int *)b;
}

/* A few lanes, most contended first: insertion sort, there are few. */
static void sort_lanes(struct km_view_model *m)
{
	for (int i = 1; i < m->nlane_locks; i++) {
		int x = m->lane_locks[i], j = i;
		while (j > 0 && cmp_hot(&x, &m->lane_locks[j - 1], m) < 0) {
			m->lane_locks[j] = m->lane_locks[j - 1];
			j--;
		}
		m->lane_locks[j] = x;
	}
}

/* Which counters make the most telling sparklines: quantities (they have
 * a unit: bytes, pages) before counts, levels that go down as well as up
 * (in use, waiting) before totals that only grow, then the busiest. */
static int counter_score(const struct km_vm_counter *k)
{
	return (k->c->unit && *k->c->unit ? 2 : 0) + (k->falls ? 2 : 0);
}

static void sort_counters(struct km_view_model *m)
{
	for (int i = 1; i < m->nlane_ctrs; i++) {
		int x = m->lane_ctrs[i], j = i;
		const struct km_vm_counter *kx = &m->counters[x];
		while (j > 0) {
			const struct km_vm_counter *ky = &m->counters[m->lane_ctrs[j - 1]];
			int sx = counter_score(kx), sy = counter_score(ky);
			if (sx < sy || (sx == sy && kx->n <= ky->n))
				break;
			m->lane_ctrs[j] = m->lane_ctrs[j - 1];
			j--;
		}
		m->lane_ctrs[j] = x;
	}
}

static void set_err(char *err, size_t errlen, const char *msg)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", msg);
}

/*
 * Building the model: count, allocate, fill.  Pass 1 counts what each
 * CPU, lock and counter has in the trace; then every array of the model
 * is allocated once at its final size; pass 2 fills them, following the
 * trace with a little state (who holds each lock, who waits, which wake
 * -up's arrow is still open), kept in struct build and freed at the end.
 */
struct build {
	size_t *cpu_n;			/* pass 1: records per CPU; pass 2: filled */
	size_t *lock_n;			/* records per lock lane */
	size_t *ctr_n;			/* records per counter */
	size_t nwake, nviol;
	struct holders *hold;		/* per lock: who holds it now */
	uint16_t *waiting;		/* per lock: how many wait */
	uint32_t *pending;		/* per context: the lock it waits for */
	size_t *arrow_of;		/* per context: its open wake-up arrow */
	uint8_t *irqoff;		/* per CPU: interrupts off now */
	uint32_t *viol_seen;		/* per violation kind: seen so far */
	/* per kind, the violation messages the core kept (the first
	 * KM_VIOLATIONS_KEPT of each kind, in trace order) */
	int32_t kept[KM_V_KINDS][KM_VIOLATIONS_KEPT];
};

static void build_free(struct build *b, int nlocks)
{
	if (b->hold)
		for (int li = 0; li < nlocks; li++)
			free(b->hold[li].v);
	free(b->cpu_n);
	free(b->lock_n);
	free(b->ctr_n);
	free(b->hold);
	free(b->waiting);
	free(b->pending);
	free(b->arrow_of);
	free(b->irqoff);
	free(b->viol_seen);
}

/* The model's fixed-size arrays and the build's state.  0, or -1. */
static int allocate_tables(struct km_view_model *m, struct build *b)
{
	int nc = m->ncpus;
	b->cpu_n = calloc((size_t)nc + 1, sizeof(size_t));
	b->lock_n = calloc((size_t)m->nlocks, sizeof(size_t));
	b->ctr_n = calloc((size_t)m->ncounters + 1, sizeof(size_t));
	b->hold = calloc((size_t)m->nlocks, sizeof(*b->hold));
	b->waiting = calloc((size_t)m->nlocks, sizeof(uint16_t));
	b->pending = malloc(((size_t)m->nctx + 1) * sizeof(uint32_t));
	b->arrow_of = malloc(((size_t)m->nctx + 1) * sizeof(size_t));
	b->irqoff = calloc((size_t)nc + 1, 1);
	b->viol_seen = calloc(KM_V_KINDS, sizeof(uint32_t));
	m->cpu_first = calloc((size_t)nc + 1, sizeof(size_t));
	m->locks = calloc((size_t)m->nlocks, sizeof(*m->locks));
	m->lane_locks = calloc((size_t)m->nlocks, sizeof(int));
	m->counters = calloc((size_t)m->ncounters + 1, sizeof(*m->counters));
	m->lane_ctrs = calloc((size_t)m->ncounters + 1, sizeof(int));
	m->ctx_colour = calloc((size_t)m->nctx + 1, 1);
	if (!b->cpu_n || !b->lock_n || !b->ctr_n || !b->hold || !b->waiting || !b->pending ||
	    !b->arrow_of || !b->irqoff || !b->viol_seen || !m->cpu_first || !m->locks ||
	    !m->lane_locks || !m->counters || !m->lane_ctrs || !m->ctx_colour)
		return -1;
	return 0;
}

/* Pass 1: how many of everything. */
static void count_records(const struct km_view_model *m, struct build *b)
{
	for (size_t i = 0; i < m->nrecs; i++) {
		const struct km_trace_rec *r = &m->recs[i];
		if ((r->kind == KM_TR_CPU || r->kind == KM_TR_IRQOFF) && r->cpu < m->ncpus)
			b->cpu_n[r->cpu]++;
		else if (is_lock_change(r)) {
			int li = km_vm_lock_index(m, r->obj);
			if (li >= 0)
				b->lock_n[li]++;
		} else if (r->kind == KM_TR_COUNTER && r->obj < (uint32_t)m->ncounters)
			b->ctr_n[r->obj]++;
		else if (r->kind == KM_TR_WAKE)
			b->nwake++;
		else if (r->kind == KM_TR_VIOLATION)
			b->nviol++;
	}
}

/* The arrays that grow with the trace, at the sizes pass 1 found, and
 * where each CPU's, lock's and counter's part of them begins.  0 or -1. */
static int allocate_spans(struct km_view_model *m, const struct build *b)
{
	const struct km_sim *sim = m->sim;
	int nc = m->ncpus;
	size_t total = 0;
	for (int c = 0; c < nc; c++) {
		m->cpu_first[c] = total;
		total += b->cpu_n[c] + 1;	/* + the idle span at t = 0 */
	}
	m->cpu_first[nc] = total;
	m->spans = malloc((total ? total : 1) * sizeof(*m->spans));
	size_t ltotal = 0;
	for (int li = 0; li < m->nlocks; li++) {
		m->locks[li].lock = li < (int)sim->locks.n ? sim->locks.v[li] :
				    li == (int)sim->locks.n ? sim->bkl : sim->gil;
		m->locks[li].id = li < (int)sim->locks.n ? (uint32_t)li :
				  li == (int)sim->locks.n ? KM_BKL_ID : KM_GIL_ID;
		m->locks[li].first = ltotal;
		ltotal += b->lock_n[li];
	}
	m->lspans = malloc((ltotal ? ltotal : 1) * sizeof(*m->lspans));
	size_t ptotal = 0;
	for (int k = 0; k < m->ncounters; k++) {
		m->counters[k].c = sim->counters.v[k];
		m->counters[k].first = ptotal;
		ptotal += b->ctr_n[k];
	}
	m->points = malloc((ptotal ? ptotal : 1) * sizeof(*m->points));
	m->arrows = malloc((b->nwake ? b->nwake : 1) * sizeof(*m->arrows));
	m->viols = malloc((b->nviol ? b->nviol : 1) * sizeof(*m->viols));
	m->viol_msg = malloc((b->nviol ? b->nviol : 1) * sizeof(*m->viol_msg));
	if (!m->spans || !m->lspans || !m->points || !m->arrows || !m->viols || !m->viol_msg)
		return -1;
	return 0;
}

/* Pass 2, before the first record: the idle span every CPU starts with,
 * nobody waiting, and which violation messages the core kept. */
static void fill_start(struct km_view_model *m, struct build *b)
{
	const struct km_sim *sim = m->sim;
	/* task colours: tasks in order of creation, interrupts apart */
	int slot = 0;
	for (uint32_t i = 0; i < m->nctx; i++)
		m->ctx_colour[i] = km_ctx_kind(sim->ctxs.v[i]) == KM_CTX_IRQ ? 255 : (uint8_t)(slot++ % 250);

	size_t *fill = b->cpu_n;	/* reused as fill counters */
	memset(fill, 0, ((size_t)m->ncpus + 1) * sizeof(size_t));
	for (int c = 0; c < m->ncpus; c++)
		push_span(m, fill, c, 0, KM_VM_NONE, KM_CPU_IDLE, 0);
	for (uint32_t i = 0; i <= m->nctx; i++) {
		b->pending[i] = KM_VM_NONE;
		b->arrow_of[i] = SIZE_MAX;
	}
	uint32_t nkept[KM_V_KINDS] = {0};
	memset(b->kept, 0xff, sizeof(b->kept));
	for (uint32_t j = 0; j < sim->violations.n; j++) {
		uint32_t k = (uint32_t)sim->violations.v[j].kind;
		if (k < KM_V_KINDS && nkept[k] < KM_VIOLATIONS_KEPT)
			b->kept[k][nkept[k]++] = (int32_t)j;
	}
}

static void fill_cpu(struct km_view_model *m, struct build *b, const struct km_trace_rec *r)
{
	if (r->cpu >= m->ncpus)
		return;
	if (r->kind == KM_TR_IRQOFF) {
		b->irqoff[r->cpu] = r->arg ? 1 : 0;
		size_t n = b->cpu_n[r->cpu];
		const struct km_vm_span *last = &m->spans[m->cpu_first[r->cpu] + n - 1];
		push_span(m, b->cpu_n, r->cpu, r->time, last->ctx, last->state, b->irqoff[r->cpu]);
		return;
	}
	push_span(m, b->cpu_n, r->cpu, r->time, r->ctx, (uint8_t)r->arg, b->irqoff[r->cpu]);
	if (r->arg == KM_CPU_BUSY && r->ctx < m->nctx && b->arrow_of[r->ctx] != SIZE_MAX) {
		struct km_vm_arrow *a = &m->arrows[b->arrow_of[r->ctx]];
		a->t1 = r->time;
		a->cpu1 = r->cpu;
		b->arrow_of[r->ctx] = SIZE_MAX;
	}
}

/* A lock's lane: holders and waiters after @r.  0, or -1 out of memory. */
static int fill_lock(struct km_view_model *m, struct build *b, const struct km_trace_rec *r)
{
	if (!is_lock_change(r))
		return 0;
	int li = km_vm_lock_index(m, r->obj);
	if (li < 0)
		return 0;
	uint32_t c = r->ctx < m->nctx ? r->ctx : m->nctx;
	if (r->kind == KM_TR_CONTEND) {
		if (b->pending[c] != (uint32_t)li) {
			b->pending[c] = (uint32_t)li;
			b->waiting[li]++;
		}
	} else if (r->kind == KM_TR_ACQUIRE) {
		if (b->pending[c] == (uint32_t)li) {
			b->pending[c] = KM_VM_NONE;
			b->waiting[li]--;
		}
		if (holders_add(&b->hold[li], r->ctx) < 0)
			return -1;
		m->locks[li].acquisitions++;
	} else if (r->kind == KM_TR_RELEASE) {
		if (r->arg >= 0)
			holders_remove(&b->hold[li], r->ctx);
	} else if (b->pending[c] == (uint32_t)li) {	/* timed out */
		b->pending[c] = KM_VM_NONE;
		b->waiting[li]--;
	}
	push_lspan(m, li, r->time, &b->hold[li], b->waiting[li]);
	return 0;
}

static void fill_counter(struct km_view_model *m, const struct km_trace_rec *r)
{
	if (r->obj >= (uint32_t)m->ncounters)
		return;
	struct km_vm_counter *k = &m->counters[r->obj];
	struct km_vm_point *p = &m->points[k->first];
	if (k->n && r->arg < p[k->n - 1].v)
		k->falls = true;
	if (k->n && p[k->n - 1].t == r->time)
		p[k->n - 1].v = r->arg;
	else
		p[k->n++] = (struct km_vm_point){ r->time, r->arg };
	if (k->n == 1 || r->arg < k->lo)
		k->lo = r->arg;
	if (k->n == 1 || r->arg > k->hi)
		k->hi = r->arg;
}

/* A wake-up: an arrow from the waker, closed when the wakee next runs. */
static void fill_wake(struct km_view_model *m, struct build *b, size_t i)
{
	const struct km_trace_rec *r = &m->recs[i];
	struct km_vm_arrow a = {
		.t0 = r->time, .t1 = -1, .waker = r->ctx, .wakee = r->aux,
		.cpu0 = 0xffff, .cpu1 = 0xffff, .obj = r->obj,
		.how = (uint8_t)(r->arg >= 0 && r->arg <= 3 ? r->arg : 2), .rec = i,
	};
	if (r->ctx != KM_TR_NONE) {
		a.cpu0 = r->cpu;
	} else {
		/* a hand-off inside a release: find that release */
		for (size_t k = i, steps = 0; k-- > 0 && steps < 64; steps++) {
			const struct km_trace_rec *q = &m->recs[k];
			if (q->time != r->time)
				break;
			if (q->kind == KM_TR_RELEASE && q->obj == r->obj) {
				a.waker = q->ctx;
				a.cpu0 = q->cpu;
				break;
			}
		}
	}
	if (a.wakee < m->nctx)
		b->arrow_of[a.wakee] = m->narrows;
	m->arrows[m->narrows++] = a;
}

static void fill_violation(struct km_view_model *m, struct build *b, size_t i)
{
	const struct km_trace_rec *r = &m->recs[i];
	uint32_t kind = r->aux < KM_V_KINDS ? r->aux : 0;
	uint32_t nth = b->viol_seen[kind]++;
	/* the nth kept message of this kind, if it was kept */
	int32_t msg = nth < KM_VIOLATIONS_KEPT ? b->kept[kind][nth] : -1;
	m->viols[m->nviols] = i;
	m->viol_msg[m->nviols++] = msg;
}

/* Pass 2: every record into its lane.  0, or -1 out of memory. */
static int fill_records(struct km_view_model *m, struct build *b)
{
	fill_start(m, b);
	for (size_t i = 0; i < m->nrecs; i++) {
		const struct km_trace_rec *r = &m->recs[i];
		if (km_trace_kind_is_lock(r->kind)) {
			if (fill_lock(m, b, r) < 0)
				return -1;
			continue;
		}
		switch (r->kind) {
		case KM_TR_CPU:
		case KM_TR_IRQOFF:
			fill_cpu(m, b, r);
			break;
		case KM_TR_COUNTER:
			fill_counter(m, r);
			break;
		case KM_TR_WAKE:
			fill_wake(m, b, i);
			break;
		case KM_TR_VIOLATION:
			fill_violation(m, b, i);
			break;
		default:
			break;
		}
	}
	/* close up: spans are contiguous per CPU, with gaps left by folding */
	size_t w = 0;
	for (int c = 0; c < m->ncpus; c++) {
		size_t first = m->cpu_first[c], n = b->cpu_n[c];
		memmove(&m->spans[w], &m->spans[first], n * sizeof(*m->spans));
		m->cpu_first[c] = w;
		w += n;
	}
	m->cpu_first[m->ncpus] = w;
	return 0;
}

/* How long things take on a CPU, typically: the median non-idle span, to
 * a power of two (a histogram of log2 lengths: no sorting). */
static void find_typical_span(struct km_view_model *m)
{
	uint64_t lg[64] = {0}, nspan = 0;
	for (int c = 0; c < m->ncpus; c++) {
		for (size_t i = m->cpu_first[c]; i < m->cpu_first[c + 1]; i++) {
			if (m->spans[i].state == KM_CPU_IDLE)
				continue;
			km_time len = km_vm_span_end(m, c, i) - m->spans[i].t;
			if (len <= 0)
				continue;
			int bit = 63 - __builtin_clzll((unsigned long long)len);
			lg[bit]++;
			nspan++;
		}
	}
	uint64_t below = 0;
	for (int bit = 0; bit < 64 && nspan; bit++) {
		below += lg[bit];
		if (below * 2 >= nspan) {
			m->typical_ns = (km_time)1 << bit;
			break;
		}
	}
}

/* The CPUs idle through the run (view_model.h): what a visitor reads as
 * 0% busy, and idle at least 90% of it.  Context switches do not count as
 * busy, they are the kernel's own bookkeeping and every CPU that ever woke
 * a task has some; but a CPU switching all along (the first microseconds
 * of a run, all CPUs starting their tasks) is not idle. */
static int find_quiet_cpus(struct km_view_model *m)
{
	m->cpu_quiet = calloc((size_t)(m->ncpus > 0 ? m->ncpus : 1), 1);
	if (!m->cpu_quiet)
		return -1;
	double end = m->end > 0 ? (double)m->end : 1;
	for (int c = 0; c < m->ncpus; c++) {
		double work = 0, idle = 0;
		for (size_t i = m->cpu_first[c]; i < m->cpu_first[c + 1]; i++) {
			int st = m->spans[i].state;
			double len = (double)(km_vm_span_end(m, c, i) - m->spans[i].t);
			if (st == KM_CPU_BUSY || st == KM_CPU_SPIN || st == KM_CPU_IRQ)
				work += len;
			else if (st == KM_CPU_IDLE)
				idle += len;
		}
		if (work * 200 < end && idle * 10 >= end * 9) {
			m->cpu_quiet[c] = 1;
			m->nquiet++;
		}
	}
	return 0;
}

/* A lane for each lock the trace shows taken and each counter that
 * moved; the stats panel starts on the most contended lock, which may
 * have none (the BKL's figures are kept on kernel_flag while the trace
 * names the declared lock). */
static void choose_lanes(struct km_view_model *m)
{
	for (int li = 0; li < m->nlocks; li++)
		if (m->locks[li].n)
			m->lane_locks[m->nlane_locks++] = li;
	sort_lanes(m);
	for (int k = 0; k < m->ncounters; k++)
		if (m->counters[k].n)
			m->lane_ctrs[m->nlane_ctrs++] = k;
	sort_counters(m);
	for (int li = 0; li < m->nlocks; li++) {
		const struct km_lock *l = m->locks[li].lock;
		if (!l->st.acquisitions && !l->st.contentions)
			continue;
		if (m->hot_lock < 0 || cmp_hot(&li, &m->hot_lock, m) < 0)
			m->hot_lock = li;
	}
}

int km_vm_build(struct km_view_model *m, const struct km_run_info *ri, char *err, size_t errlen)
{
	memset(m, 0, sizeof(*m));
	m->hot_lock = -1;
	if (!ri || !ri->sim) {
		set_err(err, errlen, "the run never started: nothing to show");
		return -1;
	}
	/* NOTE: a plain counter: the view runs on one thread */
	static uint64_t builds;
	m->serial = ++builds;
	const struct km_sim *sim = ri->sim;
	m->ri = ri;
	m->sim = sim;
	m->recs = sim->trace.recs;
	m->nrecs = sim->trace.len;
	m->truncated = sim->trace.truncated;
	m->ncpus = sim->ncpus;
	m->end = sim->now;
	if (m->truncated && m->nrecs)
		m->end = m->recs[m->nrecs - 1].time;
	if (!sim->trace.store) {
		set_err(err, errlen, "the run did not store its trace (store_trace)");
		return -1;
	}
	m->nctx = sim->ctxs.n;
	m->nlocks = (int)sim->locks.n + 2;
	m->ncounters = (int)sim->counters.n;

	struct build *b = calloc(1, sizeof(*b));
	if (!b || allocate_tables(m, b) < 0)
		goto oom;
	count_records(m, b);
	if (allocate_spans(m, b) < 0 || fill_records(m, b) < 0)
		goto oom;
	find_typical_span(m);
	choose_lanes(m);
	if (find_quiet_cpus(m) < 0 ||
	    km_vm_tasks_build(&m->tasks, sim, m->recs, m->nrecs, m->end) < 0 ||
	    km_vm_source_build(&m->src, ri->lines, ri->nlines, m->nctx, ri->file) < 0)
		goto oom;
	build_free(b, m->nlocks);
	free(b);
	return 0;
oom:
	if (b)
		build_free(b, m->nlocks);
	free(b);
	km_vm_free(m);
	set_err(err, errlen, "out of memory indexing the trace for the view");
	return -1;
}

void km_vm_free(struct km_view_model *m)
{
	free(m->spans);
	free(m->cpu_first);
	free(m->locks);
	free(m->lane_locks);
	free(m->lspans);
	free(m->counters);
	free(m->lane_ctrs);
	free(m->points);
	free(m->arrows);
	free(m->viols);
	free(m->viol_msg);
	free(m->ctx_colour);
	free(m->cpu_quiet);
	km_vm_tasks_free(&m->tasks);
	km_vm_source_free(&m->src);
	memset(m, 0, sizeof(*m));
	m->hot_lock = -1;
}
