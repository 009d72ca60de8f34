/*
 * bench_lua.c - one scenario run, timed: Lua-driven lock operations per
 * second, the growth of time and memory with the number of events, and
 * the memory of a stored trace.
 *
 *   bench_lua FILE.lua [--count NAME] [scenario options, see bench_scen.h]
 *
 * --count NAME names the counter that holds the number of operations
 * (default "rounds"; tests/bench/lockops.lua keeps it).  Only the run
 * itself (km_scenario_run: the event loop and the Lua it resumes) is
 * timed; loading the file, building the machine and the checks are
 * printed apart.
 *
 * Prints key=value lines: events, events_ahead (of which run ahead in
 * place, without a yield), ops, run_s, ops_per_s, run_cpu_s,
 * ops_per_cpu_s (per second of CPU time), events_per_s,
 * ns_per_event, load_s, inst_s, check_s, trace_records, trace_stored,
 * trace_cap, trace_rec_bytes, trace_hash, rss_before_kib, rss_after_kib, peak_kib,
 * status.
 */
#include "bench_scen.h"

int main(int argc, char **argv)
{
	struct bench_scen b;
	bench_scen_init(&b);
	const char *count = "rounds";
	for (int i = 1; i < argc; i++) {
		int r = bench_scen_opt(&b, argc, argv, &i);
		if (r == 1)
			continue;
		if (r == 0 && !strcmp(argv[i], "--count") && i + 1 < argc) {
			count = argv[++i];
			continue;
		}
		if (r == 0 && argv[i][0] != '-' && !b.file) {
			b.file = argv[i];
			continue;
		}
		fprintf(stderr, "usage: bench_lua FILE.lua [--count NAME] [--cpus N] [--mode M] "
			"[--era E] [--seed S] [--set NAME=VALUE]... [--trace] [--trace-limit N] "
			"[--max-memory BYTES]\n");
		return 2;
	}
	if (!b.file) {
		fprintf(stderr, "bench_lua: no scenario file\n");
		return 2;
	}
	struct km_era_list eras = { 0 };
	char err[1024];
	if (km_load_eras(&eras, err, sizeof(err)) < 0) {
		fprintf(stderr, "bench_lua: %s\n", err);
		return 2;
	}
	if (bench_scen_run(&b, &eras) < 0) {
		fprintf(stderr, "bench_lua: %s\n", b.err);
		return 2;
	}
	struct km_sim *sim = b.sim;
	if (sim->outcome != KM_OUT_COMPLETED || b.status != 0) {
		fprintf(stderr, "bench_lua: the run ended %s (status %d): %s\n",
			km_outcome_name(sim->outcome), b.status, sim->reason);
		return 2;
	}
	int64_t ops = bench_counter(sim, count);
	BENCH_KV("events", "%llu", (unsigned long long)sim->events);
	BENCH_KV("events_ahead", "%llu", (unsigned long long)sim->events_ahead);
	BENCH_KV("ops", "%lld", (long long)ops);
	BENCH_KV("run_s", "%.6f", b.run_s);
	if (ops > 0)
		BENCH_KV("ops_per_s", "%.0f", (double)ops / b.run_s);
	BENCH_KV("run_cpu_s", "%.6f", b.run_cpu_s);
	if (ops > 0)
		BENCH_KV("ops_per_cpu_s", "%.0f", (double)ops / b.run_cpu_s);
	BENCH_KV("events_per_s", "%.0f", (double)sim->events / b.run_s);
	BENCH_KV("ns_per_event", "%.2f", b.run_s * 1e9 / (double)sim->events);
	BENCH_KV("load_s", "%.6f", b.load_s);
	BENCH_KV("inst_s", "%.6f", b.inst_s);
	BENCH_KV("check_s", "%.6f", b.check_s);
	BENCH_KV("tasks", "%u", sim->ctxs.n);
	BENCH_KV("sim_ns", "%lld", (long long)sim->now);
	BENCH_KV("trace_records", "%llu", (unsigned long long)sim->trace.count);
	BENCH_KV("trace_stored", "%zu", sim->trace.len);
	BENCH_KV("trace_cap", "%zu", sim->trace.cap);
	BENCH_KV("trace_rec_bytes", "%zu", sizeof(struct km_trace_rec));
	BENCH_KV("trace_hash", "%016llx", (unsigned long long)sim->trace.hash);
	BENCH_KV("rss_before_kib", "%ld", b.rss_before_kib);
	BENCH_KV("rss_after_kib", "%ld", b.rss_after_kib);
	BENCH_KV("peak_kib", "%ld", bench_peak_kib());
	BENCH_KV("status", "%d", b.status);
	bench_scen_free(&b);
	km_eras_free(&eras);
	return 0;
}
