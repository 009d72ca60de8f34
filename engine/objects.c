/*
 * objects.c - the objects a run declares: locks, shared variables,
 * atomics, counters, wait queues, completions, tasks, interrupt sources
 * and measure() series.
 *
 * Declarations come before the run (from the scenario's top level) and
 * are checked here, so that a bad one is reported before any event runs;
 * a task may also be declared during the run (spawn, ops.c).  Each object
 * is kept until the run is freed: its index is its identity in the trace.
 */
#include "core.h"
#include "lock.h"
#include "machine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A lock of primitive @prim, counting to one, with no id yet (the BKL and
 * the global irq lock keep UINT32_MAX); NULL when memory ran out. */
struct km_lock *km_lock_alloc(const char *name, enum km_prim prim)
{
	struct km_lock *l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	l->name = km_strdup(name);
	if (!l->name) {
		free(l);
		return NULL;
	}
	l->kind = l->prim = prim;
	l->ops = km_lock_ops_for(prim);	/* for its raw_granted hook */
	l->count = 1;
	l->avail = 1;
	l->acq_cpu = -1;
	km_line_init(&l->line, 0);	/* allocated at boot: node 0 */
	l->id = UINT32_MAX;
	return l;
}

/* Free @l and what it keeps (NULL: nothing). */
void km_lock_free(struct km_lock *l)
{
	if (l) {
		km_counts_free(&l->st.by_task);
		free(l->after);
		free(l->name);
		free(l);
	}
}


/* ------------------------------------------------------- declarations -- */

static void *nomem(struct km_sim *sim, const char *what)
{
	snprintf(sim->errmsg, sizeof(sim->errmsg), "out of memory declaring %s", what);
	return NULL;
}

struct km_lock *km_lock_new(struct km_sim *sim, const char *name, enum km_prim kind,
			    int count, bool pinned)
{
	if (count < 0) {
		snprintf(sim->errmsg, sizeof(sim->errmsg),
			 "lock '%s': count must be 0 or more, not %d", name, count);
		return NULL;
	}
	struct km_lock *l = km_lock_alloc(name, kind);
	if (!l || KM_VEC_PUSH(sim->locks, l) < 0) {
		km_lock_free(l);
		return nomem(sim, "a lock");
	}
	l->id = sim->locks.n - 1;
	l->count = count;
	l->pinned = pinned;
	return l;
}

#define DECLARE_SIMPLE(type, vec, what)                                   \
	struct type *o = calloc(1, sizeof(*o));                           \
	if (!o || !(o->name = km_strdup(name)) || KM_VEC_PUSH(sim->vec, o) < 0) { \
		if (o)                                                    \
			free(o->name);                                    \
		free(o);                                                  \
		return nomem(sim, what);                                  \
	}                                                                 \
	o->id = sim->vec.n - 1

static struct km_dline *dline(struct km_sim *sim, const char *name)
{
	for (uint32_t i = 0; i < sim->dlines.n; i++)
		if (!strcmp(sim->dlines.v[i]->name, name))
			return sim->dlines.v[i];
	return NULL;
}

struct km_lock *km_data_line_lock(struct km_sim *sim, const char *name)
{
	struct km_dline *d = dline(sim, name);
	return d ? d->lock : NULL;
}

bool km_lock_embed(struct km_sim *sim, struct km_lock *l, const char *name)
{
	struct km_line *was = km_data_line(sim, name);
	struct km_dline *d = dline(sim, name);
	if (!was || !d)
		return false;
	d->lock = l;
	for (uint32_t i = 0; i < sim->vars.n; i++)
		if (sim->vars.v[i]->shared == was) {
			sim->vars.v[i]->shared = &l->line;
			sim->vars.v[i]->lock = l;
		}
	for (uint32_t i = 0; i < sim->atomics.n; i++)
		if (sim->atomics.v[i]->shared == was) {
			sim->atomics.v[i]->shared = &l->line;
			sim->atomics.v[i]->lock = l;
		}
	return true;
}

struct km_line *km_data_line(struct km_sim *sim, const char *name)
{
	struct km_dline *found = dline(sim, name);
	if (found)
		return found->lock ? &found->lock->line : &found->line;
	struct km_dline *d = calloc(1, sizeof(*d));
	if (!d || !(d->name = km_strdup(name)) || KM_VEC_PUSH(sim->dlines, d) < 0) {
		if (d)
			free(d->name);
		free(d);
		nomem(sim, "a cache line");
		return NULL;
	}
	km_line_init(&d->line, 0);
	return &d->line;
}

struct km_var *km_var_new(struct km_sim *sim, const char *name, int64_t value)
{
	DECLARE_SIMPLE(km_var, vars, "a var");
	o->value = o->initial = value;
	km_line_init(&o->line, 0);
	return o;
}

struct km_atomic *km_atomic_new(struct km_sim *sim, const char *name, int64_t value)
{
	DECLARE_SIMPLE(km_atomic, atomics, "an atomic");
	o->value = value;
	km_line_init(&o->line, 0);
	return o;
}

struct km_counter *km_counter_new(struct km_sim *sim, const char *name, const char *unit)
{
	char *u = km_strdup(unit ? unit : "");
	if (!u)
		return nomem(sim, "a counter");
	struct km_counter *o = calloc(1, sizeof(*o));
	if (!o || !(o->name = km_strdup(name)) || KM_VEC_PUSH(sim->counters, o) < 0) {
		if (o)
			free(o->name);
		free(o);
		free(u);
		return nomem(sim, "a counter");
	}
	o->id = sim->counters.n - 1;
	o->unit = u;
	return o;
}

struct km_waitq *km_waitq_new(struct km_sim *sim, const char *name)
{
	DECLARE_SIMPLE(km_waitq, waitqs, "a wait queue");
	return o;
}

struct km_completion *km_completion_new(struct km_sim *sim, const char *name)
{
	DECLARE_SIMPLE(km_completion, completions, "a completion");
	return o;
}

struct km_ctx *km_task_new(struct km_sim *sim, const char *name, int cpu, km_time start)
{
	if (cpu >= KM_MAX_CPUS || cpu < -1) {
		snprintf(sim->errmsg, sizeof(sim->errmsg), "task '%s': no CPU %d", name, cpu);
		return NULL;
	}
	if (sim->started && cpu >= sim->ncpus) {
		snprintf(sim->errmsg, sizeof(sim->errmsg),
			 "task '%s' is pinned to CPU %d, but the run has %d CPU%s", name, cpu,
			 sim->ncpus, sim->ncpus == 1 ? "" : "s");
		return NULL;
	}
	struct km_ctx *c = calloc(1, sizeof(*c));
	if (!c || !(c->name = km_strdup(name)) || KM_VEC_PUSH(sim->ctxs, c) < 0) {
		if (c)
			free(c->name);
		free(c);
		return nomem(sim, "a task");
	}
	c->id = sim->ctxs.n - 1;
	c->kind = KM_CTX_TASK;
	c->state = KM_CTX_NEW;
	c->cpu = -1;
	c->pinned = cpu;
	km_wake_clear(c);
	c->start_at = start;
	c->deadline = KM_TIME_NEVER;
	sim->live_tasks++;
	if (sim->started)
		km_push(sim, start, KM_EV_START, c->id, 0);
	return c;
}

struct km_irqsrc *km_irqsrc_new(struct km_sim *sim, const char *name, int cpu,
				km_time every, km_time jitter, km_time start)
{
	if (every <= 0) {
		snprintf(sim->errmsg, sizeof(sim->errmsg),
			 "irq '%s': 'every' must be a positive duration", name);
		return NULL;
	}
	if (cpu < 0 || cpu >= KM_MAX_CPUS) {
		snprintf(sim->errmsg, sizeof(sim->errmsg), "irq '%s': no CPU %d", name, cpu);
		return NULL;
	}
	DECLARE_SIMPLE(km_irqsrc, irqsrcs, "an irq");
	o->cpu = cpu;
	o->every = every;
	o->jitter = jitter;
	o->start = start;
	return o;
}

struct km_opstat *km_opstat_get(struct km_sim *sim, const char *name)
{
	for (uint32_t i = 0; i < sim->opstats.n; i++)
		if (!strcmp(sim->opstats.v[i]->name, name))
			return sim->opstats.v[i];
	if (sim->opstats.n >= KM_MAX_OPSTATS)
		return NULL;
	struct km_opstat *o = calloc(1, sizeof(*o));
	if (!o || !(o->name = km_strdup(name)) || KM_VEC_PUSH(sim->opstats, o) < 0) {
		if (o)
			free(o->name);
		free(o);
		return NULL;
	}
	return o;
}
