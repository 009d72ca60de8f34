/*
 * sim.c - creating a run, freeing it, and starting it: the top of the
 * core, the one file that may call every floor below.
 *
 * Declarations (objects.c) come before the start.  km_sim_start() then
 * fixes each lock's primitive under the mode -- a counting lock cannot be
 * a mutex (not-applicable, with the reason) -- folds the configuration
 * into the trace's hash, and queues the tasks' starts and the first
 * interrupts.
 */
#include "core.h"
#include "lock.h"
#include "machine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/*
 * What the lower floors hand up (hooks.h): the locks' part of a switch
 * and of the loop's events, add()'s deferred write, the observers.  The
 * one place that names them all, at the top of the core.
 */
static const struct km_hooks core_hooks = {
	.owner_off_cpu = km_lock_owner_off_cpu,
	.release_on_sleep = km_bkl_release_on_sleep,
	.reacquire = km_bkl_reacquire,
	.irq_may_enter = km_gil_irq_may_enter,
	.irq_exited = km_gil_irq_exited,
	.lock_timeout = km_lock_timeout,
	.lock_redo = km_lock_redo,
	.wait_lock_turn = km_lock_wait_lock_turn,
	.window_close = km_spin_window_close,
	.var_add_commit = km_var_add_commit,
	.lockdep_acquire = km_lockdep_acquire,
	.lockdep_exit = km_lockdep_exit,
	.describe_deadlock = km_describe_deadlock,
	.choice_point = km_choice_point,
	.choice_release_for = km_choice_release_for,
	.choice_release_for_irq = km_choice_release_for_irq,
	.choice_hold_expired = km_choice_hold_expired,
	.choice_settle = km_choice_settle,
	.choice_note = km_choice_note,
	.choice_touch = km_choice_touch,
};

struct km_sim *km_sim_new(const struct km_era *era, const struct km_config *cfg,
			  const struct km_host_ops *host, void *host_data)
{
	struct km_sim *sim = calloc(1, sizeof(*sim));
	if (!sim)
		return NULL;
	sim->era = *era;
	sim->cfg = *cfg;
	sim->hooks = &core_hooks;
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
	sim->bkl = km_lock_alloc("kernel_flag", KM_PRIM_BKL);
	sim->gil = km_lock_alloc("global_irq_lock", KM_PRIM_CLI);
	if (!sim->cpus || !sim->spin_heap || !sim->bkl || !sim->gil) {
		km_sim_free(sim);
		return NULL;
	}
	for (int i = 0; i < sim->ncpus; i++) {
		sim->cpus[i].id = i;
		sim->cpus[i].spin_slot = -1;
		km_line_init(&sim->cpus[i].mcs_node, i);
		sim->cpus[i].balance_interval = 1;	/* SD_CPU_INIT min_interval, ms */
	}
	km_cache_setup(sim);	/* each CPU's place in the machine (cache.h) */
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
		km_lock_free(sim->locks.v[i]);
	for (uint32_t i = 0; i < sim->vars.n; i++) {
		free(sim->vars.v[i]->name);
		free(sim->vars.v[i]);
	}
	for (uint32_t i = 0; i < sim->dlines.n; i++) {
		free(sim->dlines.v[i]->name);
		free(sim->dlines.v[i]);
	}
	free(sim->dlines.v);
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
	free(sim->sig_map);
	km_lock_free(sim->bkl);
	km_lock_free(sim->gil);
	km_evq_free(&sim->evq);
	km_trace_free(&sim->trace);
	free(sim->cpus);
	free(sim);
}

/* ---------------------------------------------------------------- start -- */

/*
 * The BKL is kernel_sem in this run (era.bkl_lock, or the scenario's
 * what-if): named so and driven by the semaphore's table.  Folded into
 * the fingerprint only then, so that every run with the spinning BKL
 * keeps its fingerprint.  Returns 0, or the error set on @sim.
 */
static int bkl_as_semaphore(struct km_sim *sim)
{
	struct km_trace_rec b = { .kind = 0, .aux = 0x100 + sim->era.bkl_lock };
	km_trace_fold(&sim->trace, &b);
	char *name = km_strdup("kernel_sem");
	if (!name)
		return km_fail(sim, KM_ENOMEM, "out of memory naming the BKL");
	free(sim->bkl->name);
	sim->bkl->name = name;
	sim->bkl->ops = &km_bkl_sem_ops;
	return 0;
}

int km_sim_start(struct km_sim *sim)
{
	sim->loads_tracked = km_loads_tracked(sim);
	for (uint32_t i = 0; i < sim->locks.n; i++) {
		struct km_lock *l = sim->locks.v[i];
		l->prim = (sim->cfg.mode == KM_MODE_NATIVE || l->pinned) ? l->kind
									 : (enum km_prim)sim->cfg.mode;
		const struct km_lock_ops *ops = km_lock_ops_for(l->prim);
		if (ops->single_unit && l->count > 1) {
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
		if (l->prim == KM_PRIM_BKL && sim->era.bkl_lock != KM_BKL_SPIN)
			ops = &km_bkl_sem_ops;	/* kernel_sem */
		l->ops = ops;
		l->avail = ops->counting ? l->count : (l->count > 0 ? 1 : 0);
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
	if (sim->era.bkl_lock != KM_BKL_SPIN && bkl_as_semaphore(sim))
		return sim->error;
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
		/* saturated, as every later arrival is (sched.c): a start and a
		 * period of 2^62 each put the first one at a negative time */
		s->next_nominal = km_sat_add(s->start, s->every);
		km_time j = s->jitter ? km_rng_range(&sim->rng, 0, s->jitter) : 0;
		s->next_at = km_sat_add(s->next_nominal, j);
		km_push(sim, s->next_at, KM_EV_IRQ, s->id, 0);
	}
	for (int i = 0; i < sim->ncpus; i++)
		km_cpu_show(sim, &sim->cpus[i]);
	return sim->error;
}

/* ---------------------------------------------------------------- names -- */

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

