/*
 * view_tasks.c - per-context state spans, for the task lanes.
 *
 * One state machine walks the trace twice: the first walk counts each
 * context's spans, the second writes them where the counts say, so the
 * spans of a context are contiguous without a sort and without a
 * temporary copy of the trace.  Both walks make the same decisions, so
 * the counts are exact.  Changes at the same instant replace each other
 * (a context that is woken and runs at once never shows a runnable span
 * of no width).
 *
 * The rules (see view_tasks.h for why they are inferred):
 *   - a CPU record shows a context on a CPU: busy is running, spin is
 *     spinning (on the lock it last contended for), a handler's irq state
 *     is the handler running; a context switch changes nobody;
 *   - the context that the CPU showed before, if another, left it: a
 *     task taken over by an interrupt handler is "in irq" until its CPU
 *     shows a task again; any other task that was running is runnable; a
 *     handler that leaves is done (it is not queued anywhere);
 *   - block is asleep on its object; a wake-up of a sleeper makes it
 *     runnable; start is runnable; exit is done; preemption is runnable.
 *
 * Cost: two passes over the records, O(1) each, and a sort of the
 * contexts by time spent waiting.
 */
#include "view_tasks.h"

#include "../sim.h"
#include "../trace.h"

#include <stdlib.h>
#include <string.h>

#define NO_CPU 0xffff
#define NONE UINT32_MAX

struct tcur {
	struct km_vm_tspan s;		/* the context's current state */
	km_time last_t;			/* when its last span began, or -1 */
	uint32_t waitlock;		/* last lock contended for, not acquired */
};

struct walk {
	const struct km_sim *sim;
	struct km_vm_tasks *t;
	struct tcur *cur;		/* per context */
	size_t *n;			/* per context: spans so far */
	uint32_t *occ;			/* per CPU: the context it shows */
	uint32_t *intr;			/* per CPU: the task a handler interrupted */
	int ncpus;
	bool fill;			/* second pass: write the spans */
};

static bool is_irq_ctx(const struct walk *w, uint32_t ctx)
{
	return ctx < w->sim->ctxs.n && km_ctx_kind(w->sim->ctxs.v[ctx]) == KM_CTX_IRQ;
}

/* @ctx is in @state from @at on. */
static void set(struct walk *w, uint32_t ctx, km_time at, uint8_t state, uint16_t cpu,
		uint32_t obj, uint8_t wait)
{
	if (ctx >= w->t->nctx)
		return;
	struct tcur *c = &w->cur[ctx];
	if (c->last_t >= 0 && c->s.state == state && c->s.cpu == cpu && c->s.obj == obj &&
	    c->s.wait == wait)
		return;
	c->s = (struct km_vm_tspan){ .t = at, .obj = obj, .cpu = cpu, .state = state, .wait = wait };
	if (c->last_t != at || w->n[ctx] == 0)
		w->n[ctx]++;		/* a new span; else the one begun at @at changes */
	c->last_t = at;
	if (w->fill)
		w->t->spans[w->t->first[ctx] + w->n[ctx] - 1] = c->s;
}

static void on_cpu(struct walk *w, const struct km_trace_rec *r)
{
	int cpu = r->cpu;
	if (cpu >= w->ncpus)
		return;
	uint32_t x = r->ctx, p = w->occ[cpu];
	uint8_t st = (uint8_t)r->arg;
	w->occ[cpu] = st == KM_CPU_IDLE ? NONE : x;
	bool handler = st == KM_CPU_IRQ && is_irq_ctx(w, x);
	if (p != NONE && p != x && p < w->t->nctx) {
		const struct km_vm_tspan *ps = &w->cur[p].s;
		bool on = (ps->state == KM_TS_RUNNING || ps->state == KM_TS_SPIN) && ps->cpu == cpu;
		if (is_irq_ctx(w, p)) {
			if (on)
				set(w, p, r->time, KM_TS_NONE, NO_CPU, NONE, 0);
		} else if (on && handler) {
			set(w, p, r->time, KM_TS_IRQ, (uint16_t)cpu, ps->obj, 0);
			w->intr[cpu] = p;
		} else if (on) {
			set(w, p, r->time, KM_TS_RUNNABLE, NO_CPU, NONE, 0);
		}
	}
	/* a task again on a CPU whose task a handler interrupted: that one
	 * is back, or was preempted on the way out of the interrupt */
	uint32_t it = w->intr[cpu];
	if (it != NONE && !handler && st != KM_CPU_SWITCH) {
		w->intr[cpu] = NONE;
		if (it != x && w->cur[it].s.state == KM_TS_IRQ)
			set(w, it, r->time, KM_TS_RUNNABLE, NO_CPU, NONE, 0);
	}
	if (x >= w->t->nctx)
		return;
	switch (st) {
	case KM_CPU_BUSY:
	case KM_CPU_IRQ:
		set(w, x, r->time, KM_TS_RUNNING, (uint16_t)cpu, NONE, 0);
		break;
	case KM_CPU_SPIN:
		set(w, x, r->time, KM_TS_SPIN, (uint16_t)cpu, w->cur[x].waitlock, 0);
		break;
	default:
		break;		/* a switch, or idle: nobody changes */
	}
}

static void step(struct walk *w, const struct km_trace_rec *r)
{
	uint32_t x = r->ctx;
	struct tcur *c = x < w->t->nctx ? &w->cur[x] : NULL;
	switch (r->kind) {
	case KM_TR_CPU:
		on_cpu(w, r);
		break;
	case KM_TR_TASK_START:
		if (c)
			set(w, x, r->time, KM_TS_RUNNABLE, NO_CPU, NONE, 0);
		break;
	case KM_TR_TASK_EXIT:
		if (c)
			set(w, x, r->time, KM_TS_NONE, NO_CPU, NONE, 0);
		break;
	case KM_TR_CONTEND:
		if (c) {
			c->waitlock = r->obj;
			if (c->s.state == KM_TS_SPIN)
				set(w, x, r->time, KM_TS_SPIN, c->s.cpu, r->obj, 0);
		}
		break;
	case KM_TR_ACQUIRE:
		if (c) {
			c->waitlock = NONE;
			if (c->s.state == KM_TS_SPIN)
				set(w, x, r->time, KM_TS_RUNNING, c->s.cpu, NONE, 0);
		}
		break;
	case KM_TR_BLOCK:
		if (c)
			set(w, x, r->time, KM_TS_ASLEEP, NO_CPU, r->obj, (uint8_t)r->aux);
		break;
	case KM_TR_WAKE:
		if (r->aux < w->t->nctx && w->cur[r->aux].s.state == KM_TS_ASLEEP)
			set(w, r->aux, r->time, KM_TS_RUNNABLE, NO_CPU, NONE, 0);
		break;
	case KM_TR_PREEMPT:
		if (c && c->s.state == KM_TS_RUNNING)
			set(w, x, r->time, KM_TS_RUNNABLE, NO_CPU, NONE, 0);
		break;
	default:
		break;
	}
}

static void walk_reset(struct walk *w)
{
	for (uint32_t i = 0; i < w->t->nctx; i++) {
		w->cur[i] = (struct tcur){ .s = { .obj = NONE, .cpu = NO_CPU }, .last_t = -1,
					   .waitlock = NONE };
		w->n[i] = 0;
	}
	for (int c = 0; c < w->ncpus; c++)
		w->occ[c] = w->intr[c] = NONE;
}

struct rank {
	km_time waited;
	uint32_t ctx;
};

static int cmp_rank(const void *a, const void *b)
{
	const struct rank *x = a, *y = b;
	if (x->waited != y->waited)
		return x->waited > y->waited ? -1 : 1;
	return x->ctx < y->ctx ? -1 : x->ctx > y->ctx;
}

/* Time waited per context, and the contexts that ever ran, most waiting first. */
static int rank_contexts(struct km_vm_tasks *t, km_time end)
{
	struct rank *r = malloc(((size_t)t->nctx + 1) * sizeof(*r));
	if (!r)
		return -1;
	uint32_t n = 0;
	for (uint32_t c = 0; c < t->nctx; c++) {
		km_time sum = 0;
		for (size_t i = t->first[c]; i < t->first[c + 1]; i++) {
			const struct km_vm_tspan *s = &t->spans[i];
			km_time e = i + 1 < t->first[c + 1] ? t->spans[i + 1].t : end;
			if (s->state == KM_TS_SPIN ||
			    (s->state == KM_TS_ASLEEP && s->wait == KM_WAIT_LOCK))
				sum = km_sat_add(sum, e - s->t);
		}
		t->waited[c] = sum;
		if (t->first[c + 1] > t->first[c])
			r[n++] = (struct rank){ sum, c };
	}
	qsort(r, n, sizeof(*r), cmp_rank);
	for (uint32_t i = 0; i < n; i++)
		t->order[i] = r[i].ctx;
	t->norder = n;
	free(r);
	return 0;
}

int km_vm_tasks_build(struct km_vm_tasks *t, const struct km_sim *sim,
		      const struct km_trace_rec *recs, size_t n, km_time end)
{
	memset(t, 0, sizeof(*t));
	struct walk w = { .sim = sim, .t = t, .ncpus = sim->ncpus };
	t->nctx = (uint32_t)sim->ctxs.n;
	size_t nc = (size_t)t->nctx + 1;
	w.cur = malloc(nc * sizeof(*w.cur));
	w.n = malloc(nc * sizeof(*w.n));
	w.occ = malloc(((size_t)w.ncpus + 1) * sizeof(*w.occ));
	w.intr = malloc(((size_t)w.ncpus + 1) * sizeof(*w.intr));
	t->first = calloc(nc, sizeof(*t->first));
	t->waited = calloc(nc, sizeof(*t->waited));
	t->order = malloc(nc * sizeof(*t->order));
	int rc = -1;
	if (!w.cur || !w.n || !w.occ || !w.intr || !t->first || !t->waited || !t->order)
		goto out;
	walk_reset(&w);
	for (size_t i = 0; i < n; i++)
		step(&w, &recs[i]);
	size_t total = 0;
	for (uint32_t c = 0; c < t->nctx; c++) {
		t->first[c] = total;
		total += w.n[c];
	}
	t->first[t->nctx] = total;
	t->spans = malloc((total ? total : 1) * sizeof(*t->spans));
	if (!t->spans)
		goto out;
	walk_reset(&w);
	w.fill = true;
	for (size_t i = 0; i < n; i++)
		step(&w, &recs[i]);
	rc = rank_contexts(t, end);
out:
	free(w.cur);
	free(w.n);
	free(w.occ);
	free(w.intr);
	if (rc < 0)
		km_vm_tasks_free(t);
	return rc;
}

void km_vm_tasks_free(struct km_vm_tasks *t)
{
	free(t->spans);
	free(t->first);
	free(t->waited);
	free(t->order);
	memset(t, 0, sizeof(*t));
}

const struct km_vm_tspan *km_vm_task_at(const struct km_vm_tasks *t, uint32_t ctx, km_time at)
{
	if (!t->first || ctx >= t->nctx)
		return NULL;
	size_t lo = t->first[ctx], hi = t->first[ctx + 1];
	if (lo == hi || at < t->spans[lo].t)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->spans[mid].t <= at)
			lo = mid;
		else
			hi = mid;
	}
	return &t->spans[lo];
}

const char *km_task_state_name(enum km_task_state s)
{
	static const char *const names[KM_TS_STATES] = {
		[KM_TS_NONE] = "",
		[KM_TS_RUNNING] = "running",
		[KM_TS_RUNNABLE] = "runnable",
		[KM_TS_SPIN] = "spinning",
		[KM_TS_ASLEEP] = "asleep",
		[KM_TS_IRQ] = "in irq",
	};
	return (unsigned)s < KM_TS_STATES ? names[s] : "";
}
