/*
 * bench_core.c - core events per second, with no Lua in the loop.
 *
 * The unit tests' C host (tests/unit/script_host.c) runs one program per
 * task: here a loop of compute / down / compute / up rounds on a few
 * spinlocks and semaphores (or mutexes), on 64 CPUs by default.  Only
 * km_sim_start + km_sim_run are timed.  The test host logs every step it
 * completes; a thin wrapper around its resume() empties that log each
 * time, so memory stays flat and the figure is the core's.
 *
 *   bench_core [--work mixed|spin|sem|mutex] [--cpus N] [--tasks N]
 *              [--iters N] [--trace] [--caches]
 *
 * --caches runs on a machine with caches (cache.h): sockets of 8 cores,
 * MOESI, on a ring, with the costs of eras/machines/2007-2008.lua, instead
 * of the test host's flat machine -- what the coherence model costs.
 *
 * Prints key=value lines: events, wall_s, events_per_s, cpu_s,
 * events_per_cpu_s (the same per second of CPU time, which a busy
 * machine disturbs less), rounds,
 * rounds_per_s, ns_per_event, peak_kib, trace_records.
 */
#include "script_host.h"
#include "bench_util.h"

#include <stdint.h>

static const struct km_host_ops *inner;
static struct sh_host host;

static int wrap_resume(void *h, struct km_sim *sim, struct km_ctx *ctx)
{
	int rc = inner->resume(h, sim, ctx);
	host.nev = 0;			/* the test host's log: not needed here */
	return rc;
}

static int wrap_irq_prepare(void *h, struct km_sim *sim, struct km_ctx *ctx,
			    struct km_irqsrc *src)
{
	return inner->irq_prepare(h, sim, ctx, src);
}

static void wrap_release(void *h, struct km_sim *sim, struct km_ctx *ctx)
{
	inner->ctx_release(h, sim, ctx);
}

static const struct km_host_ops wrap_ops = {
	.resume = wrap_resume,
	.irq_prepare = wrap_irq_prepare,
	.ctx_release = wrap_release,
};

enum work { W_MIXED, W_SPIN, W_SEM, W_MUTEX };
#define NLOCK 4			/* locks of each kind */

static void usage(void)
{
	fprintf(stderr, "usage: bench_core [--work mixed|spin|sem|mutex] [--cpus N] "
		"[--tasks N] [--iters N] [--trace] [--caches]\n");
	exit(2);
}

/* Task @i's program: @iters times, one round on a spinlock and/or one
 * on a sleeping lock, with a little compute between.  Returns the rounds
 * of one iteration. */
static int program(struct sh_step *p, enum work w, int i, int iters)
{
	int n = 0, rounds = 0;
	int spin = i % NLOCK, sleeper = NLOCK + i % NLOCK;
	p[n++] = (struct sh_step){ OP_COMPUTE, 200 + (i % 5) * 20, 0 };
	if (w == W_MIXED || w == W_SPIN) {
		p[n++] = (struct sh_step){ OP_DOWN, spin, 0 };
		p[n++] = (struct sh_step){ OP_COMPUTE, 50, 0 };
		p[n++] = (struct sh_step){ OP_UP, spin, 0 };
		p[n++] = (struct sh_step){ OP_COMPUTE, 300, 0 };
		rounds++;
	}
	if (w != W_SPIN) {
		p[n++] = (struct sh_step){ OP_DOWN, sleeper, 0 };
		p[n++] = (struct sh_step){ OP_COMPUTE, 400, 0 };
		p[n++] = (struct sh_step){ OP_UP, sleeper, 0 };
		rounds++;
	}
	p[n++] = (struct sh_step){ OP_LOOP, 0, iters };
	p[n++] = (struct sh_step){ OP_END, 0, 0 };
	return rounds;
}

int main(int argc, char **argv)
{
	enum work w = W_MIXED;
	int cpus = 64, tasks = 128, iters = 20000;
	bool trace = false, caches = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--trace")) {
			trace = true;
			continue;
		}
		if (!strcmp(a, "--caches")) {
			caches = true;
			continue;
		}
		if (!v)
			usage();
		i++;
		if (!strcmp(a, "--work")) {
			w = !strcmp(v, "mixed") ? W_MIXED : !strcmp(v, "spin") ? W_SPIN :
			    !strcmp(v, "sem") ? W_SEM : !strcmp(v, "mutex") ? W_MUTEX : (usage(), W_MIXED);
		} else if (!strcmp(a, "--cpus")) {
			cpus = atoi(v);
		} else if (!strcmp(a, "--tasks")) {
			tasks = atoi(v);
		} else if (!strcmp(a, "--iters")) {
			iters = atoi(v);
		} else {
			usage();
		}
	}
	if (cpus < 1 || cpus > KM_MAX_CPUS || tasks < 1 || iters < 1)
		usage();

	struct km_era era = sh_era(cpus);
	if (caches) {
		era.topo = (struct km_topology){ .protocol = KM_COH_MOESI, .links = KM_LINKS_RING,
						 .sockets = (cpus + 7) / 8, .dies = 1, .cores = 8,
						 .threads = 1 };
		era.cost.hit = 2;
		era.cost.same_core = 2;
		era.cost.same_die = era.cost.same_socket = 50;
		era.cost.hop1 = 110;
		era.cost.hop2 = 160;
		era.cost.invalidate = 110;
	}
	struct km_config cfg = sh_cfg(cpus, 1);
	cfg.store_trace = trace;
	cfg.duration = KM_TIME_MAX;
	cfg.max_events = 0;
	if (!sh_new(&host, &era, &cfg)) {
		fprintf(stderr, "bench_core: cannot create the run\n");
		return 2;
	}
	inner = host.sim->host;
	host.sim->host = &wrap_ops;

	enum km_prim sleep_kind = w == W_MUTEX ? KM_PRIM_MUTEX : KM_PRIM_SEM;
	char name[32];
	for (int k = 0; k < NLOCK; k++) {
		snprintf(name, sizeof(name), "spin%d", k);
		km_lock_new(host.sim, name, KM_PRIM_SPIN, 1, false);
	}
	for (int k = 0; k < NLOCK; k++) {
		snprintf(name, sizeof(name), "sleep%d", k);
		km_lock_new(host.sim, name, sleep_kind, 1, false);
	}
	struct sh_step (*progs)[SH_MAX_STEPS] = calloc((size_t)tasks, sizeof(*progs));
	if (!progs)
		return 2;
	uint64_t rounds = 0;
	for (int i = 0; i < tasks; i++) {
		rounds += (uint64_t)program(progs[i], w, i, iters) * (uint64_t)iters;
		snprintf(name, sizeof(name), "t%d", i);
		if (!sh_task(&host, name, -1, 0, progs[i])) {
			fprintf(stderr, "bench_core: %s\n", host.sim->errmsg);
			return 2;
		}
	}

	double c0 = bench_cpu();
	double t0 = bench_now();
	int rc = sh_run(&host);
	double t1 = bench_now();
	double cpu_s = bench_cpu() - c0;
	struct km_sim *sim = host.sim;
	if (rc < 0 || sim->outcome != KM_OUT_COMPLETED) {
		fprintf(stderr, "bench_core: run ended %s: %s%s\n", km_outcome_name(sim->outcome),
			sim->errmsg, sim->reason);
		return 2;
	}
	double s = t1 - t0;
	BENCH_KV("events", "%llu", (unsigned long long)sim->events);
	BENCH_KV("wall_s", "%.6f", s);
	BENCH_KV("events_per_s", "%.0f", (double)sim->events / s);
	BENCH_KV("cpu_s", "%.6f", cpu_s);
	BENCH_KV("events_per_cpu_s", "%.0f", (double)sim->events / cpu_s);
	BENCH_KV("ns_per_event", "%.2f", s * 1e9 / (double)sim->events);
	BENCH_KV("rounds", "%llu", (unsigned long long)rounds);
	BENCH_KV("rounds_per_s", "%.0f", (double)rounds / s);
	BENCH_KV("trace_records", "%llu", (unsigned long long)sim->trace.count);
	BENCH_KV("sim_ns", "%lld", (long long)sim->now);
	BENCH_KV("peak_kib", "%ld", bench_peak_kib());
	sh_free(&host);
	free(progs);
	return 0;
}
