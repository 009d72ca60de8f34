/*
 * machine.h - the machine floor of the core: what the era's hardware
 * costs, the run queues' loads as the timer tick averages them, and
 * try_to_wake_up() (wake.c), whose cost and placement are the machine's.
 *
 * The floors of the core (docs/architecture.md, tests/check_floors.sh):
 * this one calls only the ground below it (the event queue, the trace,
 * the records); the scheduler, the locks and the operations call it.
 *
 * A newcomer may change here, without reading the floors above: what a
 * cost is made of (the accessors below are the only readers of
 * era.cost), how loads are averaged, and the wake-up's cost model --
 * as long as each function keeps its contract.
 */
#ifndef KM_ENGINE_MACHINE_H
#define KM_ENGINE_MACHINE_H

#include "core.h"
#include "cache.h"

/*
 * km_cost - the era machine's costs (era.h, struct km_costs): every
 * reader in the core goes through here, so a machine with more to say
 * (caches, topology) has one place to say it.
 */
static inline const struct km_costs *km_cost(const struct km_sim *sim)
{
	return &sim->era.cost;
}

/* ----------------------------------------------------------- loads -- */

#define KM_LOAD_SCALE	128	/* SCHED_LOAD_SCALE */
#define KM_NICE0_WEIGHT	20	/* prio_bias weight, MAX_PRIO - static_prio */
#define KM_IMBALANCE_PCT 125	/* SD_CPU_INIT: the one domain of single-CPU groups */

enum km_idle_type { KM_NOT_IDLE, KM_NEWLY_IDLE, KM_SCHED_IDLE };

/*
 * km_rq_load - source_load() (@high false) or target_load() (@high true)
 * of CPU @c with load index @idx (0: the tasks now).  With era.prio_bias,
 * 2.6.15's __source_load()/__target_load(): a queue's load times the sum
 * of its tasks' weights over their number, when it has more than one task
 * or, outside idle balancing, any.
 */
static inline uint64_t km_rq_load(const struct km_sim *sim, int c, int idx, bool high,
				  enum km_idle_type idle)
{
	const struct km_cpu *cpu = &sim->cpus[c];
	uint64_t running = (uint64_t)km_cpu_nr_running(cpu);
	uint64_t now = running * KM_LOAD_SCALE;
	uint64_t load = now;
	if (idx > 0) {
		uint64_t avg = cpu->cpu_load[idx - 1];
		load = high ? (avg > now ? avg : now) : (avg < now ? avg : now);
	}
	if (sim->era.prio_bias && (running > 1 || (idle == KM_NOT_IDLE && running)))
		load = load * (running * KM_NICE0_WEIGHT) / running;
	return load;
}

/* machine.c: the loads the O(1) scheduler reads (era.wake_affine,
 * o1_balance), averaged at each timer tick the clock passes */
bool km_loads_tracked(const struct km_sim *sim);
void km_loads_at_ticks(struct km_sim *sim, km_time next);
/* The next timer tick after now. */
km_time km_next_tick(const struct km_sim *sim);

/* The timer tick's period (0 without HZ). */
static inline km_time km_tick_period(const struct km_sim *sim)
{
	return sim->era.hz > 0 ? 1000000000LL / sim->era.hz : 0;
}

/* ------------------------------------------------------- the wake-up -- */

/**
 * km_wake_cost - what try_to_wake_up() of @wakee costs the waker on
 * @waker_cpu, which gets there at @at: the run-queue lock, the lines,
 * the wake-affine placement and the reschedule IPI (wake.c, and lock.h's
 * km_lock_wake_cost for the whole story).  Where and when the wake-up
 * lands is kept for km_wake_arrive().
 * Context: a primitive's section under a wait-list lock, before it wakes
 * @wakee.
 */
km_time km_wake_cost(struct km_sim *sim, int waker_cpu, struct km_ctx *wakee, km_time at);

/**
 * km_wake_probe_cost - try_to_wake_up() of @wakee, woken already and not
 * run yet, by a waker getting there at @at: the run-queue lock, and the
 * task found TASK_RUNNING (lock.h, km_lock_probe_cost).
 */
km_time km_wake_probe_cost(struct km_sim *sim, int waker_cpu, const struct km_ctx *wakee,
			   km_time at);

/* The CPU try_to_wake_up() on @waker_cpu puts @wakee on (wake-affine). */
int km_wake_cpu(const struct km_sim *sim, int waker_cpu, const struct km_ctx *wakee);

/**
 * km_wake_arrive - queue the arrival of @ctx's wake-up (KM_EV_WAKE, with
 * @ctx->seg_token): when km_wake_cost() said it lands, else after the
 * era's wake-up latency -- or, on machines that charge the IPI, after its
 * flight (the rest is the woken CPU's work: km_wake_switch_cost()).
 * Context: km_ctx_wake(), once @ctx is runnable.
 */
void km_wake_arrive(struct km_sim *sim, struct km_ctx *ctx);

/* The CPU try_to_wake_up() queued @ctx on, or -1: select_cpu() decides
 * (read when the wake-up lands; km_wake_clear() forgets it). */
static inline int km_wake_placed(const struct km_ctx *ctx)
{
	return ctx->wake_to;
}

static inline void km_wake_clear(struct km_ctx *ctx)
{
	ctx->wake_to = -1;
}

/*
 * km_wake_switch_cost - what the switch to a task costs a CPU that a
 * wake-up's reschedule IPI brought out of idle: where the era charges
 * the IPI, the rest of the wake-up latency (the interrupt, schedule(),
 * the switch); else the era's ctxsw.
 * NOTE: an era with ipi > wakeup makes this negative; eras are checked
 * when they are loaded, not here.
 */
static inline km_time km_wake_switch_cost(const struct km_sim *sim)
{
	if (km_cost(sim)->ipi)
		return km_cost(sim)->wakeup - km_cost(sim)->ipi;
	return km_cost(sim)->ctxsw;
}

#endif /* KM_ENGINE_MACHINE_H */
