/*
 * sim.c - creating a run, its declarations, and starting it.
 *
 * Declarations come before the run (from the scenario's top level) and
 * are checked here, so that a bad one is reported before any event runs.
 * km_sim_start() then fixes each lock's primitive under the mode: a
 * counting lock cannot be a mutex (not-applicable, with the reason).
 */
#include "core.h"
#include "lock.h"
#include "machine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

char *km_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

int km_vec_grow(void **v, uint32_t *cap, uint32_t need, size_t elsize)
{
	if (need <= *cap)
		return KM_OK;
	uint64_t ncap = *cap ? (uint64_t)*cap * 2 : 16;
	while (ncap < need)
		ncap *= 2;
	if (ncap > UINT32_MAX)
		return KM_ENOMEM;
	void *n = realloc(*v, (size_t)ncap * elsize);
	if (!n)
		return KM_ENOMEM;
	*v = n;
	*cap = (uint32_t)ncap;
	return KM_OK;
}

static struct km_lock *raw_lock_new(const char *name, enum km_prim prim)
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
	l->last_cpu = l->acq_cpu = -1;
	l->id = UINT32_MAX;
	return l;
}

struct km_sim *km_sim_new(const struct km_era *era, const struct km_config *cfg,
			  const struct km_host_ops *host, void *host_data)
{
	struct km_sim *sim = calloc(1, sizeof(*sim));
	if (!sim)
		return NULL;
	sim->era = *era;
	sim->cfg = *cfg;
	if (cfg->chooser)
		sim->cfg.no_run_ahead = true;	/* every step passes its choice point */
	sim->host = host;
	sim->host_data = host_data;
	sim->ncpus = cfg->cpus;
	if (sim->ncpus < 1 || sim->ncpus > KM_MAX_CPUS) {
		free(sim);
		return NULL;
	}
	sim->cpus = calloc((size_t)sim->ncpus, sizeof(*sim->cpus));
	sim->spin_heap = calloc((size_t)sim->ncpus, sizeof(*sim->spin_heap));
	sim->bkl = raw_lock_new("kernel_flag", KM_PRIM_BKL);
	sim->gil = raw_lock_new("global_irq_lock", KM_PRIM_CLI);
	if (!sim->cpus || !sim->spin_heap || !sim->bkl || !sim->gil) {
		km_sim_free(sim);
		return NULL;
	}
	for (int i = 0; i < sim->ncpus; i++) {
		sim->cpus[i].id = i;
		sim->cpus[i].spin_slot = -1;
		sim->cpus[i].balance_interval = 1;	/* SD_CPU_INIT min_interval, ms */
	}
	sim->bal_at = -1;
	if (km_rq_trees_init(sim) < 0) {
		km_sim_free(sim);
		return NULL;
	}
	km_evq_init(&sim->evq);
	km_rng_seed(&sim->rng, cfg->seed);
	km_trace_init(&sim->trace, cfg->store_trace, cfg->trace_limit);
	sim->trace.sink = cfg->trace_sink;
	sim->emit_more = cfg->store_trace || cfg->trace_sink || cfg->chooser;
	return sim;
}

static void lock_free(struct km_lock *l)
{
	if (l) {
		km_counts_free(&l->st.by_task);
		free(l->after);
		free(l->name);
		free(l);
	}
}

void km_sim_free(struct km_sim *sim)
{
	if (!sim)
		return;
	free(sim->spin_heap);
	free(sim->choice_others.v);
	free(sim->choice_irqs.v);
	free(sim->rq_short);
	free(sim->rq_long);
	free(sim->rq_dirty);
	free(sim->rq_is_dirty);
	free(sim->bal_at_max);
	for (uint32_t i = 0; i < sim->ctxs.n; i++) {
		struct km_ctx *c = sim->ctxs.v[i];
		if (c->kind == KM_CTX_TASK)
			free(c->name);
		free(c);
	}
	for (uint32_t i = 0; i < sim->locks.n; i++)
		lock_free(sim->locks.v[i]);
	for (uint32_t i = 0; i < sim->vars.n; i++) {
		free(sim->vars.v[i]->name);
		free(sim->vars.v[i]);
	}
	for (uint32_t i = 0; i < sim->atomics.n; i++) {
		free(sim->atomics.v[i]->name);
		free(sim->atomics.v[i]);
	}
	for (uint32_t i = 0; i < sim->counters.n; i++) {
		free(sim->counters.v[i]->name);
		free(sim->counters.v[i]->unit);
		free(sim->counters.v[i]);
	}
	for (uint32_t i = 0; i < sim->waitqs.n; i++) {
		free(sim->waitqs.v[i]->name);
		free(sim->waitqs.v[i]);
	}
	for (uint32_t i = 0; i < sim->completions.n; i++) {
		free(sim->completions.v[i]->name);
		free(sim->completions.v[i]);
	}
	for (uint32_t i = 0; i < sim->irqsrcs.n; i++) {
		free(sim->irqsrcs.v[i]->name);
		free(sim->irqsrcs.v[i]);
	}
	for (uint32_t i = 0; i < sim->opstats.n; i++) {
		km_hist_free(&sim->opstats.v[i]->hist);
		free(sim->opstats.v[i]->name);
		free(sim->opstats.v[i]);
	}
	for (uint32_t i = 0; i < sim->logs.n; i++)
		free(sim->logs.v[i]);
	for (uint32_t i = 0; i < sim->violations.n; i++) {
		free(sim->violations.v[i].message);
		free(sim->violations.v[i].splat);
	}
	for (uint32_t i = 0; i < sim->hold_chunks.n; i++)
		free(sim->hold_chunks.v[i]);
	free(sim->ctxs.v);
	free(sim->locks.v);
	free(sim->vars.v);
	free(sim->atomics.v);
	free(sim->counters.v);
	free(sim->waitqs.v);
	free(sim->completions.v);
	free(sim->irqsrcs.v);
	free(sim->opstats.v);
	free(sim->logs.v);
	free(sim->violations.v);
	free(sim->hold_chunks.v);
	lock_free(sim->bkl);
	lock_free(sim->gil);
	km_evq_free(&sim->evq);
	km_trace_free(&sim->trace);
	free(sim->cpus);
	free(sim);
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
	struct km_lock *l = raw_lock_new(name, kind);
	if (!l || KM_VEC_PUSH(sim->locks, l) < 0) {
		lock_free(l);
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

struct km_var *km_var_new(struct km_sim *sim, const char *name, int64_t value)
{
	DECLARE_SIMPLE(km_var, vars, "a var");
	o->value = o->initial = value;
	o->last_cpu = -1;
	return o;
}

struct km_atomic *km_atomic_new(struct km_sim *sim, const char *name, int64_t value)
{
	DECLARE_SIMPLE(km_atomic, atomics, "an atomic");
	o->value = value;
	o->last_cpu = -1;
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

/* ---------------------------------------------------------------- start -- */

int km_sim_start(struct km_sim *sim)
{
	sim->loads_tracked = km_loads_tracked(sim);
	for (uint32_t i = 0; i < sim->locks.n; i++) {
		struct km_lock *l = sim->locks.v[i];
		l->prim = (sim->cfg.mode == KM_MODE_NATIVE || l->pinned) ? l->kind
									 : (enum km_prim)sim->cfg.mode;
		if (l->prim == KM_PRIM_MUTEX && l->count > 1) {
			snprintf(sim->reason, sizeof(sim->reason),
				 "lock '%s' counts to %d: a counting semaphore cannot become "
				 "a mutex, which has exactly one owner", l->name, l->count);
			sim->outcome = KM_OUT_NOT_APPLICABLE;
			return KM_ENOTAPPLICABLE;
		}
		if (!sim->cfg.anachronism && !km_era_has(&sim->era, l->prim)) {
			snprintf(sim->errmsg, sizeof(sim->errmsg),
				 "the %s kernel (%s) had no %s; use --anachronism to run it anyway",
				 sim->era.version, sim->era.id, km_prim_name(l->prim));
			return KM_EINVAL;
		}
		l->ops = km_lock_ops_for(l->prim);
		l->avail = l->prim == KM_PRIM_SEM ? l->count : (l->count > 0 ? 1 : 0);
	}
	for (uint32_t i = 0; i < sim->ctxs.n; i++) {
		struct km_ctx *c = sim->ctxs.v[i];
		if (c->pinned >= sim->ncpus) {
			snprintf(sim->errmsg, sizeof(sim->errmsg),
				 "task '%s' is pinned to CPU %d, but the run has %d CPU%s",
				 c->name, c->pinned, sim->ncpus, sim->ncpus == 1 ? "" : "s");
			return KM_EINVAL;
		}
	}
	for (uint32_t i = 0; i < sim->irqsrcs.n; i++) {
		struct km_irqsrc *s = sim->irqsrcs.v[i];
		if (s->cpu >= sim->ncpus) {
			snprintf(sim->errmsg, sizeof(sim->errmsg),
				 "irq '%s' is wired to CPU %d, but the run has %d CPU%s",
				 s->name, s->cpu, sim->ncpus, sim->ncpus == 1 ? "" : "s");
			return KM_EINVAL;
		}
	}
	/* The fingerprint covers the configuration too, not only the events:
	 * two runs that differ in a primitive or an initial value differ. */
	struct km_trace_rec cfg = { .kind = 0, .cpu = (uint16_t)sim->ncpus,
				    .ctx = (uint32_t)sim->cfg.mode, .arg = (int64_t)sim->cfg.seed };
	km_trace_fold(&sim->trace, &cfg);
	for (uint32_t i = 0; i < sim->locks.n; i++) {
		struct km_trace_rec r = { .obj = i, .aux = sim->locks.v[i]->prim,
					  .arg = sim->locks.v[i]->count };
		km_trace_fold(&sim->trace, &r);
	}
	for (uint32_t i = 0; i < sim->vars.n; i++) {
		struct km_trace_rec r = { .obj = i, .arg = sim->vars.v[i]->initial };
		km_trace_fold(&sim->trace, &r);
	}
	for (uint32_t i = 0; i < sim->atomics.n; i++) {
		struct km_trace_rec r = { .obj = i, .aux = 1, .arg = sim->atomics.v[i]->value };
		km_trace_fold(&sim->trace, &r);
	}
	sim->started = true;
	/* Tasks first, in declaration order, then interrupt sources. */
	for (uint32_t i = 0; i < sim->ctxs.n; i++)
		km_push(sim, sim->ctxs.v[i]->start_at, KM_EV_START, i, 0);
	for (uint32_t i = 0; i < sim->irqsrcs.n; i++) {
		struct km_irqsrc *s = sim->irqsrcs.v[i];
		s->cpu_next = NULL;
		struct km_irqsrc **pp = &sim->cpus[s->cpu].irqs;
		while (*pp)
			pp = &(*pp)->cpu_next;
		*pp = s;
		s->next_nominal = s->start + s->every;
		km_time j = s->jitter ? km_rng_range(&sim->rng, 0, s->jitter) : 0;
		s->next_at = s->next_nominal + j;
		km_push(sim, s->next_at, KM_EV_IRQ, s->id, 0);
	}
	for (int i = 0; i < sim->ncpus; i++)
		km_cpu_show(sim, &sim->cpus[i]);
	return sim->error;
}

/* ---------------------------------------------------------------- names -- */

/* A primitive's name is its method table's. */
const char *km_prim_name(enum km_prim p)
{
	const struct km_lock_ops *ops = km_lock_ops_for(p);
	return ops ? ops->name : "?";
}

/* The kernel's names for taking and releasing @p: "down", "up". */
const char *km_prim_lock_verb(enum km_prim p)
{
	const struct km_lock_ops *ops = km_lock_ops_for(p);
	return ops ? ops->lock_verb : "lock";
}

const char *km_prim_unlock_verb(enum km_prim p)
{
	const struct km_lock_ops *ops = km_lock_ops_for(p);
	return ops ? ops->unlock_verb : "unlock";
}

int km_prim_parse(const char *s)
{
	for (int i = 0; i < KM_PRIM_COUNT; i++)
		if (!strcmp(s, km_lock_ops_for((enum km_prim)i)->name))
			return i;
	return -1;
}

const char *km_mode_name(int mode)
{
	return mode == KM_MODE_NATIVE ? "native" : km_prim_name((enum km_prim)mode);
}

/* A mode as a person types it: "Mutex" and "MUTEX" are "mutex". */
int km_mode_parse(const char *s)
{
	if (!strcasecmp(s, "native"))
		return KM_MODE_NATIVE;
	for (int i = 0; i < KM_PRIM_COUNT; i++)
		if (!strcasecmp(s, km_lock_ops_for((enum km_prim)i)->name))
			return i;
	return -2;
}

const char *km_outcome_name(enum km_outcome o)
{
	switch (o) {
	case KM_OUT_COMPLETED: return "completed";
	case KM_OUT_DEADLOCK: return "deadlock";
	case KM_OUT_TIME_LIMIT: return "time-limit";
	case KM_OUT_NOT_APPLICABLE: return "not-applicable";
	case KM_OUT_ERROR: return "error";
	default: return "none";
	}
}

const char *km_violation_name(enum km_violation_kind k)
{
	static const char *const names[KM_V_KINDS] = {
		"lost-update", "sleep-in-atomic", "mutex-unlock-in-irq",
		"mutex-unlock-not-owner", "unlock-not-held", "lock-order",
		"irq-unsafe", "deadlock", "recursive-lock", "held-at-exit",
	};
	return (unsigned)k < KM_V_KINDS ? names[k] : "?";
}

const char *km_cpu_state_name(enum km_cpu_state s)
{
	static const char *const names[KM_CPU_STATES] = {
		"idle", "busy", "spin", "irq", "switch",
	};
	return (unsigned)s < KM_CPU_STATES ? names[s] : "?";
}
