/*
 * report_json.c - the JSON report, field for field as section 4 of the
 * scenario contract, plus a few extensions at the end of each object
 * ("declared", bounces, "kernel_locks", "irqs", "params",
 * "violation_counts"): extensions are welcome, renames are not.
 *
 * The report is described once, section by section, into a JSON sink
 * (json_sink.h): printed, it streams straight out as text; for the
 * checks, compare and explore it becomes a jansson tree.  The sections
 * are a table in the contract's order, so that one of them can be made
 * on its own: the checks make r.locks, r.cpus_util and r.tasks (the
 * parts that grow with the machine) only if they read them.
 *
 * The objects that used to be made with json_pack() are opened with
 * km_js_packed(), which keeps json_pack()'s all-or-nothing rule; the
 * others with km_js_object().  Same bytes either way.
 */
#include "report.h"
#include "json_sink.h"

#include <inttypes.h>
#include <string.h>

static void minmax(struct km_jsink *o, const char *key, const struct km_minmax *m)
{
	km_js_packed(o, key);
	km_js_int(o, "min", m->min);
	km_js_int(o, "max", m->max);
	km_js_int(o, "total", m->total);
	km_js_int(o, "avg", km_minmax_avg(m));
	km_js_end(o);
}

uint32_t km_lock_fairness(const struct km_lock *l, uint64_t *total, uint64_t *max,
			  uint64_t *min)
{
	*total = *max = *min = 0;
	const struct km_counts *c = &l->st.by_task;
	for (uint32_t i = 0; i < c->cap; i++) {
		if (!c->keys[i])
			continue;
		uint64_t v = c->vals[i];
		*total = km_sat_addu(*total, v);
		if (v > *max)
			*max = v;
		if (!*min || v < *min)
			*min = v;
	}
	return c->n;
}

static void lock_json(struct km_jsink *o, const struct km_lock *l, const char *declared)
{
	km_js_object(o, NULL);
	km_js_str(o, "name", l->name);
	km_js_str(o, "kind", km_prim_name(l->prim));
	km_js_int(o, "count", l->count);
	km_js_int(o, "acquisitions", (int64_t)l->st.acquisitions);
	km_js_int(o, "contentions", (int64_t)l->st.contentions);
	km_js_int(o, "max_waiters", l->st.max_waiters);
	minmax(o, "wait_ns", &l->st.wait);
	minmax(o, "hold_ns", &l->st.hold);
	if (declared)
		km_js_str(o, "declared", declared);
	km_js_int(o, "waits", (int64_t)l->st.wait.n);
	km_js_int(o, "con_bounces", (int64_t)l->st.con_bounces);
	km_js_int(o, "acq_bounces", (int64_t)l->st.acq_bounces);
	uint64_t total, mx, mn;
	uint32_t n = km_lock_fairness(l, &total, &mx, &mn);
	km_js_int(o, "tasks_acquiring", n);
	km_js_int(o, "task_acq_max", (int64_t)mx);
	km_js_int(o, "task_acq_min", (int64_t)mn);
	km_js_int(o, "max_holders", l->st.max_holders);
	km_js_bool(o, "exclusion_broken", l->st.exclusion_broken);
	km_js_int(o, "wakeups", (int64_t)l->st.wakeups);
	km_js_int(o, "wake_lost", (int64_t)l->st.wake_lost);
	km_js_int(o, "steals", (int64_t)l->st.steals);
	km_js_end(o);
}

/* ----------------------------------------------------------- sections -- */

/* Each section writes the value of one top-level key, or nothing. */
typedef void (*section_fn)(struct km_jsink *o, const char *key, const struct km_run_info *ri);

static void sec_scenario(struct km_jsink *o, const char *key, const struct km_run_info *ri)
{
	km_js_str(o, key, ri->scenario ? ri->scenario : "");
}

static void sec_era(struct km_jsink *o, const char *key, const struct km_run_info *ri)
{
	km_js_str(o, key, ri->era ? ri->era->id : ri->era_key ? ri->era_key : "");
}

static void sec_mode(struct km_jsink *o, const char *key, const struct km_run_info *ri)
{
	km_js_str(o, key, km_mode_name(ri->mode));
}

static void sec_cpus(struct km_jsink *o, const char *key, const struct km_run_info *ri)
{
	km_js_int(o, key, ri->cpus);
}

static void sec_seed(struct km_jsink *o, const char *key, const struct km_run_info *ri)
{
	km_js_int(o, key, (int64_t)ri->seed);
}

static void sec_outcome(struct km_jsink *o, const char *key, const struct km_run_info *ri)
{
	km_js_str(o, key, km_outcome_name(ri->outcome));
}

static void sec_reason(struct km_jsink *o, const char *key, const struct km_run_info *ri)
{
	if (ri->reason && ri->reason[0])
		km_js_str(o, key, ri->reason);
	else
		km_js_null(o, key);
}

static void sec_sim_time(struct km_jsink *o, const char *key, const struct km_run_info *ri)
{
	km_js_int(o, key, ri->sim ? ri->sim->now : 0);
}

static void sec_events(struct km_jsink *o, const char *key, const struct km_run_info *ri)
{
	km_js_int(o, key, ri->sim ? (int64_t)ri->sim->events : 0);
}

static void sec_hash(struct km_jsink *o, const char *key, const struct km_run_info *ri)
{
	char hash[17] = "0000000000000000";
	if (ri->sim)
		snprintf(hash, sizeof(hash), "%016" PRIx64, ri->sim->trace.hash);
	km_js_str(o, key, hash);
}

static void sec_locks(struct km_jsink *o, const char *key, const struct km_run_info *ri)
{
	const struct km_sim *sim = ri->sim;
	km_js_array(o, key);
	for (uint32_t i = 0; sim && i < sim->locks.n; i++) {
		const struct km_lock *l = sim->locks.v[i];
		lock_json(o, l, km_prim_name(l->kind));
	}
	km_js_end(o);
}

static void sec_cpus_util(struct km_jsink *o, const char *key, const struct km_run_info *ri)
{
	const struct km_sim *sim = ri->sim;
	km_js_array(o, key);
	for (int i = 0; sim && i < sim->ncpus; i++) {
		const struct km_cpu *c = &sim->cpus[i];
		km_js_packed(o, NULL);
		km_js_int(o, "cpu", i);
		km_js_int(o, "busy_ns", c->acct[KM_CPU_BUSY]);
		km_js_int(o, "spin_ns", c->acct[KM_CPU_SPIN]);
		km_js_int(o, "irq_ns", c->acct[KM_CPU_IRQ]);
		km_js_int(o, "irqoff_ns", c->irqoff_ns);
		km_js_int(o, "idle_ns", c->acct[KM_CPU_IDLE]);
		km_js_int(o, "ctxsw", (int64_t)c->ctxsw);
		km_js_int(o, "switch_ns", c->acct[KM_CPU_SWITCH]);
		km_js_int(o, "migrations", (int64_t)c->migrations);
		km_js_end(o);
	}
	km_js_end(o);
}

static void sec_tasks(struct km_jsink *o, const char *key, const struct km_run_info *ri)
{
	const struct km_sim *sim = ri->sim;
	km_js_array(o, key);
	for (uint32_t i = 0; sim && i < sim->ctxs.n; i++) {
		const struct km_ctx *t = sim->ctxs.v[i];
		if (km_ctx_kind(t) != KM_CTX_TASK)
			continue;
		struct km_ctx_stats st;
		km_ctx_stats(t, &st);
		km_js_packed(o, NULL);
		km_js_str(o, "name", km_ctx_name(t));
		km_js_int(o, "cpu", st.cpu);
		km_js_int(o, "cpu_ns", st.cpu_ns);
		km_js_int(o, "spin_ns", st.spin_ns);
		km_js_int(o, "blocked_ns", st.blocked_ns);
		km_js_int(o, "end_ns", st.finished ? st.end_ns : sim->now);
		km_js_bool(o, "finished", st.finished);
		km_js_int(o, "runnable_ns", st.runnable_ns);
		km_js_int(o, "acquisitions", (int64_t)st.acquisitions);
		km_js_end(o);
	}
	km_js_end(o);
}

static void sec_vars(struct km_jsink *o, const char *key, const struct km_run_info *ri)
{
	const struct km_sim *sim = ri->sim;
	km_js_object(o, key);
	for (uint32_t i = 0; sim && i < sim->vars.n; i++)
		km_js_int(o, sim->vars.v[i]->name, sim->vars.v[i]->value);
	km_js_end(o);
}

static void sec_atomics(struct km_jsink *o, const char *key, const struct km_run_info *ri)
{
	const struct km_sim *sim = ri->sim;
	km_js_object(o, key);
	for (uint32_t i = 0; sim && i < sim->atomics.n; i++)
		km_js_int(o, sim->atomics.v[i]->name, sim->atomics.v[i]->value);
	km_js_end(o);
}

static void sec_counters(struct km_jsink *o, const char *key, const struct km_run_info *ri)
{
	const struct km_sim *sim = ri->sim;
	km_js_object(o, key);
	for (uint32_t i = 0; sim && i < sim->counters.n; i++) {
		const struct km_counter *c = sim->counters.v[i];
		km_js_packed(o, c->name);
		km_js_int(o, "value", c->value);
		km_js_int(o, "peak", c->peak);
		km_js_str(o, "unit", c->unit);
		km_js_end(o);
	}
	km_js_end(o);
}

static void sec_ops(struct km_jsink *o, const char *key, const struct km_run_info *ri)
{
	const struct km_sim *sim = ri->sim;
	km_js_object(o, key);
	for (uint32_t i = 0; sim && i < sim->opstats.n; i++) {
		const struct km_opstat *s = sim->opstats.v[i];
		km_js_packed(o, s->name);
		km_js_int(o, "count", (int64_t)s->hist.mm.n);
		km_js_int(o, "min_ns", s->hist.mm.min);
		km_js_int(o, "p50_ns", km_hist_quantile(&s->hist, 0.50));
		km_js_int(o, "p99_ns", km_hist_quantile(&s->hist, 0.99));
		km_js_int(o, "max_ns", s->hist.mm.max);
		km_js_end(o);
	}
	km_js_end(o);
}

static void sec_violations(struct km_jsink *o, const char *key, const struct km_run_info *ri)
{
	const struct km_sim *sim = ri->sim;
	km_js_array(o, key);
	for (uint32_t i = 0; sim && i < sim->violations.n; i++) {
		const struct km_violation *v = &sim->violations.v[i];
		km_js_object(o, NULL);
		km_js_str(o, "kind", km_violation_name(v->kind));
		km_js_str(o, "message", v->message);
		km_js_int(o, "time_ns", v->time);
		if (v->ctx >= 0)
			km_js_str(o, "task", km_ctx_name(sim->ctxs.v[v->ctx]) ?
				  km_ctx_name(sim->ctxs.v[v->ctx]) : "");
		else
			km_js_null(o, "task");
		if (v->lock >= 0)
			km_js_str(o, "lock", sim->locks.v[v->lock]->name);
		else
			km_js_null(o, "lock");
		if (v->var >= 0)
			km_js_str(o, "var", sim->vars.v[v->var]->name);
		if (v->splat)
			km_js_str(o, "splat", v->splat);
		km_js_end(o);
	}
	km_js_end(o);
}

static void sec_checks(struct km_jsink *o, const char *key, const struct km_run_info *ri)
{
	km_js_array(o, key);
	for (int i = 0; i < ri->nchecks; i++) {
		km_js_packed(o, NULL);
		km_js_bool(o, "ok", ri->checks[i].ok);
		km_js_str(o, "message", ri->checks[i].message);
		km_js_end(o);
	}
	km_js_end(o);
}

/* extensions */

static void sec_era_version(struct km_jsink *o, const char *key, const struct km_run_info *ri)
{
	if (ri->era)
		km_js_str(o, key, ri->era->version);
}

static void sec_file(struct km_jsink *o, const char *key, const struct km_run_info *ri)
{
	km_js_str(o, key, ri->file ? ri->file : "");
}

static void sec_params(struct km_jsink *o, const char *key, const struct km_run_info *ri)
{
	km_js_object(o, key);
	for (int i = 0; i < ri->nparams; i++)
		km_js_str(o, ri->params[i].name, ri->params[i].value);
	km_js_end(o);
}

static void sec_kernel_locks(struct km_jsink *o, const char *key, const struct km_run_info *ri)
{
	const struct km_sim *sim = ri->sim;
	if (!sim)
		return;
	km_js_array(o, key);
	if (sim->bkl->used)
		lock_json(o, sim->bkl, NULL);
	if (sim->gil->used)
		lock_json(o, sim->gil, NULL);
	km_js_end(o);
}

static void sec_irqs(struct km_jsink *o, const char *key, const struct km_run_info *ri)
{
	const struct km_sim *sim = ri->sim;
	if (!sim)
		return;
	km_js_array(o, key);
	for (uint32_t i = 0; i < sim->irqsrcs.n; i++) {
		const struct km_irqsrc *s = sim->irqsrcs.v[i];
		km_js_packed(o, NULL);
		km_js_str(o, "name", s->name);
		km_js_int(o, "cpu", s->cpu);
		km_js_int(o, "fired", (int64_t)s->fired);
		km_js_int(o, "coalesced", (int64_t)s->coalesced);
		km_js_int(o, "handler_avg_ns", km_minmax_avg(&s->handler));
		km_js_int(o, "handler_max_ns", s->handler.max);
		km_js_end(o);
	}
	km_js_end(o);
}

static void sec_violation_counts(struct km_jsink *o, const char *key,
				 const struct km_run_info *ri)
{
	const struct km_sim *sim = ri->sim;
	if (!sim)
		return;
	km_js_object(o, key);
	for (int k = 0; k < KM_V_KINDS; k++)
		if (sim->violation_count[k])
			km_js_int(o, km_violation_name((enum km_violation_kind)k),
				  (int64_t)sim->violation_count[k]);
	km_js_end(o);
}

/* "violations" keeps the first KM_VIOLATIONS_KEPT of each kind; this says
 * how many it left out, so that nothing is dropped silently. */
static void sec_violations_dropped(struct km_jsink *o, const char *key,
				   const struct km_run_info *ri)
{
	const struct km_sim *sim = ri->sim;
	if (!sim)
		return;
	uint64_t all = 0;
	for (int k = 0; k < KM_V_KINDS; k++)
		all += sim->violation_count[k];
	km_js_int(o, key, (int64_t)(all > sim->violations.n ? all - sim->violations.n : 0));
}

static void sec_trace_records(struct km_jsink *o, const char *key, const struct km_run_info *ri)
{
	if (ri->sim)
		km_js_int(o, key, (int64_t)ri->sim->trace.count);
}

/*
 * The scenario file's content hash (FNV-1a 64 of its bytes), null when
 * the file could not be read: merging a sweep's reports refuses two of
 * one scenario name from different contents.  Not part of trace_hash.
 */
static void sec_scenario_hash(struct km_jsink *o, const char *key,
			      const struct km_run_info *ri)
{
	char hash[17];
	if (!ri->has_scenario_hash) {
		km_js_null(o, key);
		return;
	}
	snprintf(hash, sizeof(hash), "%016" PRIx64, ri->scenario_hash);
	km_js_str(o, key, hash);
}

static const struct section {
	const char *key;
	section_fn emit;
	bool grows;		/* with the machine: made for the checks on demand */
} sections[] = {
	{ "scenario", sec_scenario, false },
	{ "era", sec_era, false },
	{ "mode", sec_mode, false },
	{ "cpus", sec_cpus, false },
	{ "seed", sec_seed, false },
	{ "outcome", sec_outcome, false },
	{ "reason", sec_reason, false },
	{ "sim_time_ns", sec_sim_time, false },
	{ "events", sec_events, false },
	{ "trace_hash", sec_hash, false },
	{ "locks", sec_locks, true },
	{ "cpus_util", sec_cpus_util, true },
	{ "tasks", sec_tasks, true },
	{ "vars", sec_vars, false },
	{ "atomics", sec_atomics, false },
	{ "counters", sec_counters, false },
	{ "ops", sec_ops, false },
	{ "violations", sec_violations, false },
	{ "checks", sec_checks, false },
	{ "era_version", sec_era_version, false },
	{ "file", sec_file, false },
	{ "params", sec_params, false },
	{ "kernel_locks", sec_kernel_locks, false },
	{ "irqs", sec_irqs, false },
	{ "violation_counts", sec_violation_counts, false },
	{ "trace_records", sec_trace_records, false },
	{ "scenario_hash", sec_scenario_hash, false },
	{ "violations_dropped", sec_violations_dropped, false },
};

#define NSECTIONS (sizeof(sections) / sizeof(sections[0]))

const char *const km_report_grown_keys[] = { "locks", "cpus_util", "tasks", NULL };

static void emit_report(struct km_jsink *o, const struct km_run_info *ri, bool grown)
{
	km_js_object(o, NULL);
	for (size_t i = 0; i < NSECTIONS; i++)
		if (grown || !sections[i].grows)
			sections[i].emit(o, sections[i].key, ri);
	km_js_end(o);
}

json_t *km_report_json(const struct km_run_info *ri)
{
	struct km_jsink o;
	km_js_init_tree(&o);
	emit_report(&o, ri, true);
	return km_js_take_tree(&o);
}

json_t *km_report_json_small(const struct km_run_info *ri)
{
	struct km_jsink o;
	km_js_init_tree(&o);
	emit_report(&o, ri, false);
	return km_js_take_tree(&o);
}

json_t *km_report_json_part(const struct km_run_info *ri, const char *key)
{
	for (size_t i = 0; i < NSECTIONS; i++) {
		if (strcmp(sections[i].key, key))
			continue;
		struct km_jsink o;
		km_js_init_tree(&o);
		sections[i].emit(&o, NULL, ri);
		return km_js_take_tree(&o);
	}
	return NULL;
}

int km_report_print_json(FILE *out, const struct km_run_info *ri)
{
	struct km_jsink o;
	km_js_init_text(&o, out);
	emit_report(&o, ri, true);
	bool oom = o.oom;
	if (km_js_finish_text(&o) < 0) {
		/* Nothing written yet: stdout can still be one JSON object. */
		if (oom && !o.written)
			fprintf(out, "{\"outcome\": \"error\", \"reason\": \"out of memory "
				"writing the report\"}\n");
		return -1;
	}
	if (fputc('\n', out) == EOF)
		return -1;
	return 0;
}

int km_report_write_json(FILE *out, const json_t *j)
{
	if (json_dumpf(j, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER) < 0)
		return -1;
	fputc('\n', out);
	return 0;
}

int km_report_exit_status(const struct km_run_info *ri)
{
	switch (ri->outcome) {
	case KM_OUT_ERROR:
	case KM_OUT_NOT_APPLICABLE:
	case KM_OUT_NONE:
		return 2;
	case KM_OUT_DEADLOCK:
		return 3;
	default:
		break;
	}
	for (int i = 0; i < ri->nchecks; i++)
		if (!ri->checks[i].ok)
			return 1;
	if (ri->sim)
		for (int k = 0; k < KM_V_KINDS; k++)
			if (ri->sim->violation_count[k])
				return 1;
	return 0;
}
