/*
 * report_json.c - the JSON report, field for field as section 4 of the
 * scenario contract, plus a few extensions at the end of each object
 * ("declared", bounces, "kernel_locks", "irqs", "params",
 * "violation_counts"): extensions are welcome, renames are not.
 */
#include "report.h"

#include <inttypes.h>
#include <string.h>

static json_t *minmax(const struct km_minmax *m)
{
	return json_pack("{s:I, s:I, s:I, s:I}", "min", (json_int_t)m->min,
			 "max", (json_int_t)m->max, "total", (json_int_t)m->total,
			 "avg", (json_int_t)km_minmax_avg(m));
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
		*total += v;
		if (v > *max)
			*max = v;
		if (!*min || v < *min)
			*min = v;
	}
	return c->n;
}

static json_t *lock_json(const struct km_lock *l, const char *declared)
{
	json_t *o = json_object();
	json_object_set_new(o, "name", json_string(l->name));
	json_object_set_new(o, "kind", json_string(km_prim_name(l->prim)));
	json_object_set_new(o, "count", json_integer(l->count));
	json_object_set_new(o, "acquisitions", json_integer((json_int_t)l->st.acquisitions));
	json_object_set_new(o, "contentions", json_integer((json_int_t)l->st.contentions));
	json_object_set_new(o, "max_waiters", json_integer(l->st.max_waiters));
	json_object_set_new(o, "wait_ns", minmax(&l->st.wait));
	json_object_set_new(o, "hold_ns", minmax(&l->st.hold));
	if (declared)
		json_object_set_new(o, "declared", json_string(declared));
	json_object_set_new(o, "waits", json_integer((json_int_t)l->st.wait.n));
	json_object_set_new(o, "con_bounces", json_integer((json_int_t)l->st.con_bounces));
	json_object_set_new(o, "acq_bounces", json_integer((json_int_t)l->st.acq_bounces));
	uint64_t total, mx, mn;
	uint32_t n = km_lock_fairness(l, &total, &mx, &mn);
	json_object_set_new(o, "tasks_acquiring", json_integer(n));
	json_object_set_new(o, "task_acq_max", json_integer((json_int_t)mx));
	json_object_set_new(o, "task_acq_min", json_integer((json_int_t)mn));
	json_object_set_new(o, "max_holders", json_integer(l->st.max_holders));
	json_object_set_new(o, "exclusion_broken", json_boolean(l->st.exclusion_broken));
	return o;
}

json_t *km_report_json(const struct km_run_info *ri)
{
	const struct km_sim *sim = ri->sim;
	json_t *r = json_object();
	char hash[17] = "0000000000000000";
	if (sim)
		snprintf(hash, sizeof(hash), "%016" PRIx64, sim->trace.hash);

	json_object_set_new(r, "scenario", json_string(ri->scenario ? ri->scenario : ""));
	json_object_set_new(r, "era", json_string(ri->era ? ri->era->id :
						  ri->era_key ? ri->era_key : ""));
	json_object_set_new(r, "mode", json_string(km_mode_name(ri->mode)));
	json_object_set_new(r, "cpus", json_integer(ri->cpus));
	json_object_set_new(r, "seed", json_integer((json_int_t)ri->seed));
	json_object_set_new(r, "outcome", json_string(km_outcome_name(ri->outcome)));
	json_object_set_new(r, "reason", ri->reason && ri->reason[0] ?
				 json_string(ri->reason) : json_null());
	json_object_set_new(r, "sim_time_ns", json_integer(sim ? sim->now : 0));
	json_object_set_new(r, "events", json_integer(sim ? (json_int_t)sim->events : 0));
	json_object_set_new(r, "trace_hash", json_string(hash));

	json_t *locks = json_array();
	json_t *cpus = json_array();
	json_t *tasks = json_array();
	json_t *vars = json_object();
	json_t *atomics = json_object();
	json_t *counters = json_object();
	json_t *ops = json_object();
	json_t *violations = json_array();
	json_t *checks = json_array();

	if (sim) {
		for (uint32_t i = 0; i < sim->locks.n; i++) {
			const struct km_lock *l = sim->locks.v[i];
			json_array_append_new(locks, lock_json(l, km_prim_name(l->kind)));
		}
		for (int i = 0; i < sim->ncpus; i++) {
			const struct km_cpu *c = &sim->cpus[i];
			json_array_append_new(cpus, json_pack(
				"{s:i, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "cpu", i,
				"busy_ns", (json_int_t)c->acct[KM_CPU_BUSY],
				"spin_ns", (json_int_t)c->acct[KM_CPU_SPIN],
				"irq_ns", (json_int_t)c->acct[KM_CPU_IRQ],
				"irqoff_ns", (json_int_t)c->irqoff_ns,
				"idle_ns", (json_int_t)c->acct[KM_CPU_IDLE],
				"ctxsw", (json_int_t)c->ctxsw,
				"switch_ns", (json_int_t)c->acct[KM_CPU_SWITCH]));
		}
		for (uint32_t i = 0; i < sim->ctxs.n; i++) {
			const struct km_ctx *t = sim->ctxs.v[i];
			if (t->kind != KM_CTX_TASK)
				continue;
			json_array_append_new(tasks, json_pack(
				"{s:s, s:i, s:I, s:I, s:I, s:I, s:b, s:I, s:I}", "name", t->name,
				"cpu", t->cpu, "cpu_ns", (json_int_t)t->cpu_ns,
				"spin_ns", (json_int_t)t->spin_ns,
				"blocked_ns", (json_int_t)t->blocked_ns,
				"end_ns", (json_int_t)(t->finished ? t->end_ns : sim->now),
				"finished", t->finished,
				"runnable_ns", (json_int_t)t->runnable_ns,
				"acquisitions", (json_int_t)t->acquisitions));
		}
		for (uint32_t i = 0; i < sim->vars.n; i++)
			json_object_set_new(vars, sim->vars.v[i]->name,
					    json_integer(sim->vars.v[i]->value));
		for (uint32_t i = 0; i < sim->atomics.n; i++)
			json_object_set_new(atomics, sim->atomics.v[i]->name,
					    json_integer(sim->atomics.v[i]->value));
		for (uint32_t i = 0; i < sim->counters.n; i++) {
			const struct km_counter *c = sim->counters.v[i];
			json_object_set_new(counters, c->name, json_pack("{s:I, s:I, s:s}",
				"value", (json_int_t)c->value, "peak", (json_int_t)c->peak,
				"unit", c->unit));
		}
		for (uint32_t i = 0; i < sim->opstats.n; i++) {
			const struct km_opstat *o = sim->opstats.v[i];
			json_object_set_new(ops, o->name, json_pack("{s:I, s:I, s:I, s:I, s:I}",
				"count", (json_int_t)o->hist.mm.n,
				"min_ns", (json_int_t)o->hist.mm.min,
				"p50_ns", (json_int_t)km_hist_quantile(&o->hist, 0.50),
				"p99_ns", (json_int_t)km_hist_quantile(&o->hist, 0.99),
				"max_ns", (json_int_t)o->hist.mm.max));
		}
		for (uint32_t i = 0; i < sim->violations.n; i++) {
			const struct km_violation *v = &sim->violations.v[i];
			json_t *o = json_object();
			json_object_set_new(o, "kind", json_string(km_violation_name(v->kind)));
			json_object_set_new(o, "message", json_string(v->message));
			json_object_set_new(o, "time_ns", json_integer(v->time));
			json_object_set_new(o, "task", v->ctx >= 0 ?
				json_string(sim->ctxs.v[v->ctx]->name ? sim->ctxs.v[v->ctx]->name : "")
				: json_null());
			json_object_set_new(o, "lock", v->lock >= 0 ?
				json_string(sim->locks.v[v->lock]->name) : json_null());
			if (v->var >= 0)
				json_object_set_new(o, "var", json_string(sim->vars.v[v->var]->name));
			if (v->splat)
				json_object_set_new(o, "splat", json_string(v->splat));
			json_array_append_new(violations, o);
		}
	}
	for (int i = 0; i < ri->nchecks; i++)
		json_array_append_new(checks, json_pack("{s:b, s:s}", "ok", ri->checks[i].ok,
							"message", ri->checks[i].message));

	json_object_set_new(r, "locks", locks);
	json_object_set_new(r, "cpus_util", cpus);
	json_object_set_new(r, "tasks", tasks);
	json_object_set_new(r, "vars", vars);
	json_object_set_new(r, "atomics", atomics);
	json_object_set_new(r, "counters", counters);
	json_object_set_new(r, "ops", ops);
	json_object_set_new(r, "violations", violations);
	json_object_set_new(r, "checks", checks);

	/* extensions */
	if (ri->era)
		json_object_set_new(r, "era_version", json_string(ri->era->version));
	json_object_set_new(r, "file", json_string(ri->file ? ri->file : ""));
	json_t *params = json_object();
	for (int i = 0; i < ri->nparams; i++)
		json_object_set_new(params, ri->params[i].name, json_string(ri->params[i].value));
	json_object_set_new(r, "params", params);
	if (sim) {
		json_t *klocks = json_array();
		if (sim->bkl->used)
			json_array_append_new(klocks, lock_json(sim->bkl, NULL));
		if (sim->gil->used)
			json_array_append_new(klocks, lock_json(sim->gil, NULL));
		json_object_set_new(r, "kernel_locks", klocks);
		json_t *irqs = json_array();
		for (uint32_t i = 0; i < sim->irqsrcs.n; i++) {
			const struct km_irqsrc *s = sim->irqsrcs.v[i];
			json_array_append_new(irqs, json_pack("{s:s, s:i, s:I, s:I, s:I, s:I}",
				"name", s->name, "cpu", s->cpu, "fired", (json_int_t)s->fired,
				"coalesced", (json_int_t)s->coalesced,
				"handler_avg_ns", (json_int_t)km_minmax_avg(&s->handler),
				"handler_max_ns", (json_int_t)s->handler.max));
		}
		json_object_set_new(r, "irqs", irqs);
		json_t *vc = json_object();
		for (int k = 0; k < KM_V_KINDS; k++)
			if (sim->violation_count[k])
				json_object_set_new(vc, km_violation_name((enum km_violation_kind)k),
						    json_integer((json_int_t)sim->violation_count[k]));
		json_object_set_new(r, "violation_counts", vc);
		json_object_set_new(r, "trace_records", json_integer((json_int_t)sim->trace.count));
	}
	return r;
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
