/*
 * sweep_table.c - the rows of compare's table, from the runs' reports.
 *
 * A run's report becomes a summary (the figures compare has always
 * shown: outcome, simulated time, throughput, contention, waits, the CPU
 * split, each measure()'s p99, the violations), and the summaries of the
 * seeds of one combination become one row: the means, the seeds'
 * outcomes counted, and the spread (min and max) of the figures that
 * move most.  Local compare and `compare --from` both go through here,
 * in the same order of runs, so the same runs give the same bytes
 * whichever machine ran them.
 *
 * The row keeps the members of a one-seed row in their order, so that a
 * table without seeds and swept parameters is exactly the one compare
 * printed before sweeps existed; "params", "seeds", "outcomes" and
 * "spread" are at the end, and km_sweep_table() keeps them only when
 * they say something.
 */
#include "sweep.h"
#include "../cpu_time.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * Every figure here comes from reports, and a report comes from anywhere
 * (a sweep's job on another machine, a file anyone can edit): each is
 * hostile, as a scenario's numbers are to the engine.  Integer sums
 * saturate (km_sat_add), a division divides only by a count above zero,
 * and a mean summed in double comes back through km_sweep_sat_round().
 */
json_int_t km_sweep_sat_round(double d)
{
	if (isnan(d))
		return 0;
	/* (double)INT64_MAX is 2^63: everything below it fits */
	if (d >= (double)INT64_MAX)
		return INT64_MAX;
	if (d <= (double)INT64_MIN)
		return INT64_MIN;
	return (json_int_t)llround(d);
}

/* A real a table can hold: jansson has no NaN and no infinity. */
static double finite_or_clamped(double d)
{
	return isnan(d) ? 0 : d > DBL_MAX ? DBL_MAX : d < -DBL_MAX ? -DBL_MAX : d;
}

json_t *km_sweep_summarise(const json_t *rep, int status, const char *mode, const char *era,
			   int cpus)
{
	json_t *row = json_object();
	json_object_set_new(row, "mode", json_string(mode));
	json_object_set_new(row, "era", json_string(era ? era : ""));
	json_object_set_new(row, "cpus", json_integer(cpus));
	json_object_set_new(row, "exit", json_integer(status));
	if (!rep) {
		json_object_set_new(row, "outcome", json_string("error"));
		json_object_set_new(row, "reason", json_string("the run crashed"));
		return row;
	}
	const char *outcome = json_string_value(json_object_get(rep, "outcome"));
	json_object_set(row, "outcome", json_object_get(rep, "outcome"));
	json_object_set(row, "reason", json_object_get(rep, "reason"));
	json_object_set(row, "era", json_object_get(rep, "era"));
	json_object_set(row, "cpus", json_object_get(rep, "cpus"));
	json_t *params = json_object_get(rep, "params");
	if (outcome && (!strcmp(outcome, "error") || !strcmp(outcome, "not-applicable"))) {
		if (json_is_object(params))
			json_object_set_new(row, "params", json_copy(params));
		return row;
	}

	json_int_t t = json_integer_value(json_object_get(rep, "sim_time_ns"));
	json_int_t acq = 0, cont = 0, wtot = 0, wn = 0, wmax = 0;
	size_t i;
	json_t *l;
	json_array_foreach(json_object_get(rep, "locks"), i, l) {
		/* saturating: the sums of many locks' totals of 2^62 ns */
		acq = km_sat_add(acq, json_integer_value(json_object_get(l, "acquisitions")));
		cont = km_sat_add(cont, json_integer_value(json_object_get(l, "contentions")));
		json_t *w = json_object_get(l, "wait_ns");
		wtot = km_sat_add(wtot, json_integer_value(json_object_get(w, "total")));
		wn = km_sat_add(wn, json_integer_value(json_object_get(l, "waits")));
		json_int_t mx = json_integer_value(json_object_get(w, "max"));
		if (mx > wmax)
			wmax = mx;
	}
	/* in double: 1024 CPUs of 2^62 ns do not fit in an int64_t, and
	 * these sums only ever become shares */
	/* the report's own figures, through the one definition of the
	 * shares (cpu_time.h): "busy" is the same here as in run's report */
	struct km_cpu_time ct = { { 0 }, 0 };
	json_t *c;
	json_array_foreach(json_object_get(rep, "cpus_util"), i, c) {
		ct.ns[KM_CPU_BUSY] += (double)json_integer_value(json_object_get(c, "busy_ns"));
		ct.ns[KM_CPU_SPIN] += (double)json_integer_value(json_object_get(c, "spin_ns"));
		ct.ns[KM_CPU_IRQ] += (double)json_integer_value(json_object_get(c, "irq_ns"));
		ct.ns[KM_CPU_IDLE] += (double)json_integer_value(json_object_get(c, "idle_ns"));
		ct.ns[KM_CPU_SWITCH] += (double)json_integer_value(json_object_get(c, "switch_ns"));
		ct.irqoff += (double)json_integer_value(json_object_get(c, "irqoff_ns"));
	}
	json_object_set_new(row, "sim_time_ns", json_integer(t));
	json_object_set_new(row, "acquisitions_per_s",
			    json_real(t > 0 ? (double)acq * 1e9 / (double)t : 0));
	/* the first counter as the scenario's own measure of work */
	const char *cname;
	json_t *cv;
	json_object_foreach(json_object_get(rep, "counters"), cname, cv) {
		json_object_set_new(row, "counter", json_string(cname));
		json_object_set_new(row, "counter_per_s", json_real(t > 0 ?
			(double)json_integer_value(json_object_get(cv, "value")) * 1e9 / (double)t : 0));
		break;
	}
	json_object_set_new(row, "contentions", json_integer(cont));
	/* a count of waits above zero: INT64_MIN / -1 traps (SIGFPE) */
	json_object_set_new(row, "wait_avg_ns", json_integer(wn > 0 ? wtot / wn : 0));
	json_object_set_new(row, "wait_max_ns", json_integer(wmax));
	json_object_set_new(row, "busy_pct", json_real(km_cpu_time_pct(&ct, KM_CPU_BUSY)));
	json_object_set_new(row, "spin_pct", json_real(km_cpu_time_pct(&ct, KM_CPU_SPIN)));
	json_object_set_new(row, "irq_pct", json_real(km_cpu_time_pct(&ct, KM_CPU_IRQ)));
	json_object_set_new(row, "switch_pct", json_real(km_cpu_time_pct(&ct, KM_CPU_SWITCH)));
	json_object_set_new(row, "idle_pct", json_real(km_cpu_time_pct(&ct, KM_CPU_IDLE)));
	json_t *p99 = json_object();
	const char *oname;
	json_t *ov;
	json_object_foreach(json_object_get(rep, "ops"), oname, ov)
		json_object_set(p99, oname, json_object_get(ov, "p99_ns"));
	json_object_set_new(row, "p99_ns", p99);
	json_object_set(row, "violations", json_object_get(rep, "violation_counts"));
	int ok = 0, n = 0;
	json_t *ck;
	json_array_foreach(json_object_get(rep, "checks"), i, ck) {
		n++;
		ok += json_is_true(json_object_get(ck, "ok"));
	}
	json_object_set_new(row, "checks_ok", json_integer(ok));
	json_object_set_new(row, "checks", json_integer(n));
	if (json_is_object(params))
		json_object_set_new(row, "params", json_copy(params));
	return row;
}

int km_sweep_report_status(const json_t *rep)
{
	const char *oc = json_string_value(json_object_get(rep, "outcome"));
	if (!oc || !strcmp(oc, "error") || !strcmp(oc, "not-applicable") || !strcmp(oc, "none"))
		return 2;
	if (!strcmp(oc, "deadlock"))
		return 3;
	size_t i;
	json_t *ck;
	json_array_foreach(json_object_get(rep, "checks"), i, ck)
		if (!json_is_true(json_object_get(ck, "ok")))
			return 1;
	const char *k;
	json_t *v;
	json_object_foreach(json_object_get(rep, "violation_counts"), k, v)
		if (json_integer_value(v))
			return 1;
	return 0;
}

/* ------------------------------------------------------------ grouping -- */

static double num(const json_t *row, const char *key)
{
	json_t *v = json_object_get(row, key);
	return json_is_real(v) ? json_real_value(v) : (double)json_integer_value(v);
}

static bool has_figures(const json_t *row)
{
	return json_object_get(row, "sim_time_ns") != NULL;
}

/* @key of @row becomes the mean over the rows that have it. */
static void mean_of(json_t *row, const char *key, json_t *const *rows, int n)
{
	json_t *v = json_object_get(row, key);
	if (!v)
		return;
	double sum = 0;
	int k = 0;
	for (int i = 0; i < n; i++)
		if (json_object_get(rows[i], key)) {
			sum += num(rows[i], key);
			k++;
		}
	double mean = k ? sum / k : 0;
	if (json_is_real(v))
		json_object_set_new(row, key, json_real(finite_or_clamped(mean)));
	else
		json_object_set_new(row, key, json_integer(km_sweep_sat_round(mean)));
}

static json_t *spread_of(const char *key, json_t *const *rows, int n)
{
	double lo = 0, hi = 0;
	bool any = false, real = false;
	for (int i = 0; i < n; i++) {
		json_t *v = json_object_get(rows[i], key);
		if (!v || !has_figures(rows[i]))
			continue;
		double x = num(rows[i], key);
		real |= json_is_real(v);
		lo = !any || x < lo ? x : lo;
		hi = !any || x > hi ? x : hi;
		any = true;
	}
	if (!any)
		return NULL;
	json_t *s = json_object();
	json_object_set_new(s, "min", real ? json_real(finite_or_clamped(lo)) :
			    json_integer(km_sweep_sat_round(lo)));
	json_object_set_new(s, "max", real ? json_real(finite_or_clamped(hi)) :
			    json_integer(km_sweep_sat_round(hi)));
	return s;
}

json_t *km_sweep_group(json_t *const *rows, int n)
{
	/* the first seed with figures gives the row its members and order */
	int t = 0;
	for (int i = 0; i < n; i++)
		if (has_figures(rows[i])) {
			t = i;
			break;
		}
	json_t *row = json_deep_copy(rows[t]);
	json_t *outcomes = json_object();
	json_int_t worst = 0;
	bool same = true;
	const char *oc0 = json_string_value(json_object_get(rows[0], "outcome"));
	for (int i = 0; i < n; i++) {
		const char *oc = json_string_value(json_object_get(rows[i], "outcome"));
		oc = oc ? oc : "none";
		json_object_set_new(outcomes, oc, json_integer(
			json_integer_value(json_object_get(outcomes, oc)) + 1));
		same &= oc0 && !strcmp(oc, oc0);
		json_int_t ex = json_integer_value(json_object_get(rows[i], "exit"));
		worst = ex > worst ? ex : worst;
	}
	json_object_set_new(row, "exit", json_integer(worst));
	if (!same) {
		json_object_set_new(row, "outcome", json_string("mixed"));
		json_object_set_new(row, "reason", json_null());
	}
	if (n > 1 && has_figures(row)) {
		json_t **fig = malloc((size_t)n * sizeof(*fig));
		if (!fig) {
			json_decref(outcomes);
			json_decref(row);
			return NULL;
		}
		int k = 0;
		for (int i = 0; i < n; i++)
			if (has_figures(rows[i]))
				fig[k++] = rows[i];
		static const char *const means[] = {
			"sim_time_ns", "acquisitions_per_s", "counter_per_s", "contentions",
			"wait_avg_ns", "wait_max_ns", "busy_pct", "spin_pct", "irq_pct",
			"switch_pct", "idle_pct", NULL,
		};
		for (const char *const *m = means; *m; m++)
			mean_of(row, *m, fig, k);
		json_t *p99 = json_object_get(row, "p99_ns");
		const char *name;
		json_t *v;
		void *tmp;
		json_object_foreach_safe(p99, tmp, name, v) {
			double sum = 0;
			int c = 0;
			for (int i = 0; i < k; i++) {
				json_t *x = json_object_get(json_object_get(fig[i], "p99_ns"), name);
				if (x) {
					sum += (double)json_integer_value(x);
					c++;
				}
			}
			json_object_set_new(p99, name, json_integer(km_sweep_sat_round(sum / c)));
		}
		/* violations and checks add up over the seeds */
		json_t *viol = json_object();
		json_int_t ok = 0, checks = 0;
		for (int i = 0; i < k; i++) {
			json_object_foreach(json_object_get(fig[i], "violations"), name, v)
				json_object_set_new(viol, name, json_integer(km_sat_add(
					json_integer_value(json_object_get(viol, name)),
					json_integer_value(v))));
			ok = km_sat_add(ok, json_integer_value(json_object_get(fig[i], "checks_ok")));
			checks = km_sat_add(checks, json_integer_value(json_object_get(fig[i],
											 "checks")));
		}
		json_object_set_new(row, "violations", viol);
		json_object_set_new(row, "checks_ok", json_integer(ok));
		json_object_set_new(row, "checks", json_integer(checks));
		free(fig);
	}
	json_object_set_new(row, "seeds", json_integer(n));
	json_object_set_new(row, "outcomes", outcomes);
	if (has_figures(row)) {
		json_t *spread = json_object();
		static const char *const spreads[] = {
			"sim_time_ns", "acquisitions_per_s", "contentions", "wait_avg_ns",
			"wait_max_ns", NULL,
		};
		for (const char *const *m = spreads; *m; m++) {
			json_t *s = spread_of(*m, rows, n);
			if (s)
				json_object_set_new(spread, *m, s);
		}
		json_object_set_new(row, "spread", spread);
	}
	return row;
}

/* ---------------------------------------------------------- the table -- */

json_t *km_sweep_table(const char *scenario, const char *file, json_t *rows)
{
	/* the parameters whose value is not the same in every row */
	json_t *first = NULL, *varying = json_object();
	bool several_seeds = false;
	size_t i;
	json_t *row;
	json_array_foreach(rows, i, row) {
		several_seeds |= json_integer_value(json_object_get(row, "seeds")) > 1;
		json_t *params = json_object_get(row, "params");
		if (!json_object_size(params))
			continue;	/* a run that never read its parameters */
		if (!first) {
			first = params;
			continue;
		}
		const char *name;
		json_t *v;
		json_object_foreach(params, name, v) {
			json_t *f = json_object_get(first, name);
			if (!f || strcmp(json_string_value(f) ? json_string_value(f) : "",
					 json_string_value(v) ? json_string_value(v) : ""))
				json_object_set_new(varying, name, json_true());
		}
		json_object_foreach(first, name, v)
			if (!json_object_get(params, name))
				json_object_set_new(varying, name, json_true());
	}
	json_array_foreach(rows, i, row) {
		json_t *params = json_object_get(row, "params");
		if (params && json_object_size(varying)) {
			json_t *kept = json_object();
			const char *name;
			json_t *v;
			json_object_foreach(params, name, v)
				if (json_object_get(varying, name))
					json_object_set(kept, name, v);
			json_object_set_new(row, "params", kept);
		} else if (params) {
			json_object_del(row, "params");
		}
		if (!several_seeds) {
			json_object_del(row, "seeds");
			json_object_del(row, "outcomes");
			json_object_del(row, "spread");
		}
	}
	json_decref(varying);
	json_t *table = json_object();
	json_object_set_new(table, "scenario", json_string(scenario));
	json_object_set_new(table, "file", json_string(file));
	json_object_set_new(table, "runs", rows);
	return table;
}
