/*
 * bench_scen.h - run a scenario the way a session does, phase by phase,
 * so that the drivers can time the simulation alone.
 *
 * km_session_run (engine/cli/session.c) loads, instantiates, runs and
 * checks in one call.  The drivers need the run's own wall time, the
 * memory before and after it, and the finished simulator, so they make
 * the same calls themselves: km_scenario_load, km_scenario_instantiate,
 * km_scenario_run (timed), then the JSON report and the checks, as the
 * session does.  The era check of the session (an anachronism refused)
 * is left out: the benchmark scenarios ask only for what their era had.
 *
 * Options, after the scenario file:
 *   --cpus N --mode M --era E --seed S --set NAME=VALUE (repeatable)
 *   --trace            store the trace (store_trace)
 *   --trace-limit N    keep at most N records
 *   --max-memory B     the Lua memory budget, bytes
 */
#ifndef KM_TESTS_BENCH_SCEN_H
#define KM_TESTS_BENCH_SCEN_H

#include "cli/session.h"
#include "lua/sandbox.h"
#include "bench_util.h"

#include <jansson.h>

#define BENCH_MAX_SETS 32

struct bench_scen {
	const char *file;
	const char *era_key;
	int cpus, mode;
	uint64_t seed;
	bool has_seed, store_trace;
	size_t trace_limit, max_memory;
	struct km_param_set sets[BENCH_MAX_SETS];
	int nsets;

	struct km_scenario *sc;
	struct km_sim *sim;
	struct km_run_info ri;
	double load_s, inst_s, run_s, check_s;
	double run_cpu_s;		/* CPU time of the run */
	long rss_before_kib, rss_after_kib;
	int status;			/* the exit status a session would give */
	char err[1024];
};

/* Parse one option at argv[*i]; returns 1 if it was one of ours, 0 if
 * not, -1 if malformed. */
static inline int bench_scen_opt(struct bench_scen *b, int argc, char **argv, int *i)
{
	const char *a = argv[*i];
	const char *v = *i + 1 < argc ? argv[*i + 1] : NULL;
	if (!strcmp(a, "--trace")) {
		b->store_trace = true;
		return 1;
	}
	if (strcmp(a, "--cpus") && strcmp(a, "--mode") && strcmp(a, "--era") &&
	    strcmp(a, "--seed") && strcmp(a, "--set") && strcmp(a, "--trace-limit") &&
	    strcmp(a, "--max-memory"))
		return 0;
	if (!v)
		return -1;
	++*i;
	if (!strcmp(a, "--cpus")) {
		b->cpus = atoi(v);
	} else if (!strcmp(a, "--mode")) {
		b->mode = km_mode_parse(v);
		if (b->mode == -2)
			return -1;
	} else if (!strcmp(a, "--era")) {
		b->era_key = v;
	} else if (!strcmp(a, "--seed")) {
		b->seed = strtoull(v, NULL, 10);
		b->has_seed = true;
	} else if (!strcmp(a, "--trace-limit")) {
		b->trace_limit = strtoull(v, NULL, 10);
	} else if (!strcmp(a, "--max-memory")) {
		b->max_memory = strtoull(v, NULL, 10);
	} else {
		const char *eq = strchr(v, '=');
		if (!eq || b->nsets == BENCH_MAX_SETS)
			return -1;
		char *name = strndup(v, (size_t)(eq - v));
		b->sets[b->nsets++] = (struct km_param_set){ name, eq + 1, false };
	}
	return 1;
}

static inline void bench_scen_init(struct bench_scen *b)
{
	memset(b, 0, sizeof(*b));
	b->mode = KM_MODE_NATIVE;
}

static inline void *bench_report_part(void *ud, const char *key)
{
	return km_report_json_part(ud, key);
}

/* Load, build and run @b->file.  Returns 0 (see b->status), or -1 with
 * b->err when the scenario could not run at all. */
static inline int bench_scen_run(struct bench_scen *b, const struct km_era_list *eras)
{
	struct km_load_opts lo = {
		.sets = b->sets, .nsets = b->nsets,
		.max_instructions = 0,	/* no instruction budget: runs are long */
		.max_memory = b->max_memory ? b->max_memory : KM_DEFAULT_MAX_MEMORY,
		.max_wall = 0, .seed = b->has_seed ? b->seed : 1, .seed_given = b->has_seed,
		.cpus = b->cpus,
	};
	double t0 = bench_now();
	b->sc = km_scenario_load(b->file, &lo, b->err, sizeof(b->err));
	if (!b->sc)
		return -1;
	double t1 = bench_now();
	const struct km_scenario_meta *m = km_scenario_meta(b->sc);
	const char *key = b->era_key ? b->era_key : m->era[0] ? m->era : NULL;
	const struct km_era *era = key ? km_eras_find(eras, key) : &eras->v[eras->n - 1];
	if (!era) {
		snprintf(b->err, sizeof(b->err), "unknown era '%s'", key);
		return -1;
	}
	int cpus = b->cpus ? b->cpus : m->cpus ? m->cpus : era->cpus;
	uint64_t seed = b->has_seed ? b->seed : m->has_seed ? m->seed : 1;
	km_time duration = m->duration ? m->duration : (km_time)60 * 1000000000LL;
	struct km_config cfg = {
		.cpus = cpus, .seed = seed, .duration = duration, .mode = b->mode,
		.store_trace = b->store_trace, .trace_limit = b->trace_limit,
	};
	b->sim = km_scenario_instantiate(b->sc, era, &cfg, b->err, sizeof(b->err));
	if (!b->sim)
		return -1;
	double t2 = bench_now();
	b->ri = (struct km_run_info){
		.scenario = m->name, .title = m->title, .file = b->file, .era = era,
		.era_key = key, .mode = b->mode, .cpus = cpus, .seed = seed,
		.duration = duration, .sim = b->sim,
	};
	b->ri.nparams = km_scenario_params(b->sc, &b->ri.params);

	b->rss_before_kib = bench_rss_kib();
	double c3 = bench_cpu();
	double t3 = bench_now();
	int rc = km_scenario_run(b->sc, b->err, sizeof(b->err));
	double t4 = bench_now();
	b->run_cpu_s = bench_cpu() - c3;
	b->rss_after_kib = bench_rss_kib();
	if (rc < 0)
		return -1;
	b->ri.outcome = b->sim->outcome;
	b->ri.reason = b->sim->reason;
	/* as the session does: the small report, the rest if a check asks */
	json_t *j = km_report_json_small(&b->ri);
	if (!j) {
		snprintf(b->err, sizeof(b->err), "out of memory building the report");
		return -1;
	}
	const struct km_check_report rep = {
		.small = j, .lazy = km_report_grown_keys, .part = bench_report_part,
		.ud = &b->ri,
	};
	const struct km_check_result *checks;
	int nchecks;
	rc = km_scenario_checks(b->sc, &rep, &checks, &nchecks, b->err, sizeof(b->err));
	json_decref(j);
	double t5 = bench_now();
	if (rc < 0)
		return -1;
	b->ri.checks = checks;
	b->ri.nchecks = nchecks;
	b->status = km_report_exit_status(&b->ri);
	b->load_s = t1 - t0;
	b->inst_s = t2 - t1;
	b->run_s = t4 - t3;
	b->check_s = t5 - t4;
	return 0;
}

/* The value of counter @name, or -1 if there is none. */
static inline int64_t bench_counter(const struct km_sim *sim, const char *name)
{
	for (uint32_t i = 0; i < sim->counters.n; i++)
		if (!strcmp(sim->counters.v[i]->name, name))
			return sim->counters.v[i]->value;
	return -1;
}

static inline void bench_scen_free(struct bench_scen *b)
{
	km_scenario_free(b->sc);
	for (int i = 0; i < b->nsets; i++)
		free((char *)b->sets[i].name);
	b->sc = NULL;
	b->sim = NULL;
}

#endif /* KM_TESTS_BENCH_SCEN_H */
