/*
 * balance.c - where the O(1) scheduler of 2.6.12-2.6.16 put a task that
 * could run on another CPU: the wake-affine choice of try_to_wake_up()
 * (era.wake_affine), and the load balancing of a CPU that goes idle or
 * is idle (era.o1_balance).  Other eras place a woken task by select_cpu()
 * and let a CPU about to idle take any queued task (km_balance_steal(),
 * at the end of this file, with what looking costs it).
 *
 * Both decisions read a run queue's load as that kernel did: 128
 * (SCHED_LOAD_SCALE) for each runnable task, now and as rebalance_tick()
 * last averaged it at a timer tick -- cpu_load[0..2], the averages over 1,
 * 2 and 4 ticks.  A CPU a task would leave counts the lower of the two
 * (source_load()), one it would join the higher (target_load()); so a
 * task queued since the last tick does not yet weigh on the CPU it waits
 * on.  2.6.15 alone scaled a busy queue's load by its tasks' nice weights
 * (era.prio_bias), against thresholds it left unscaled.
 *
 * Balancing here has the one domain of single-CPU groups that
 * SD_CPU_INIT builds on an SMP without hyper-threads or NUMA nodes.
 * find_busiest_group() picks the CPU with the highest load and decides
 * whether pulling is worth it (imbalance_pct 125; two tasks' difference,
 * or a gain in CPU power used); move_tasks() takes tasks from the tail of
 * its queue, but never the running one, and none that ran less than
 * cache_hot_time ago -- unless balancing from this CPU failed more than
 * cache_nice_tries (1) times in a row, which only the periodic balancing
 * counts.  A CPU going idle balances once (idle_balance(), under its own
 * run-queue lock: the scan's cost is in sched.c); an idle CPU balances
 * from its timer tick (rebalance_tick() with SCHED_IDLE, every
 * balance_interval, 1 to 4 ms and at least a jiffy).
 *
 * Not modelled: busy CPUs' periodic balancing (every 64-256 ms), the
 * migration thread's active balancing after repeated failures, the
 * expired array (the engine has no timeslices), and the scan's cost on
 * an idle CPU's tick (a microsecond of an idle CPU).
 *
 * Sources: docs/sources.md, [O1SCHED15] and [TOPO15]; the arithmetic is
 * spelt out in docs/design-o1-wakeup.md.
 */
#include "sched_floor.h"
#include "machine.h"

#include <stdlib.h>

#define KM_CACHE_NICE_TRIES 1
#define KM_MIN_INTERVAL	1	/* ms */
#define KM_MAX_INTERVAL	4
#define KM_IDLE_IDX	1	/* the cpu_load[] a balance reads, plus one */
#define KM_NEWIDLE_IDX	2

/*
 * The busiest CPU for @this, the first at the highest load @max after
 * @this in circular order -- the kernel's walk of the domain's groups
 * starts at this CPU's own, and a later one must be strictly busier --
 * by a scan of every CPU; *@total gets the sum of their loads, @this's
 * counted as a target.
 */
static int scan_busiest(const struct km_sim *sim, int this, int idx, enum km_idle_type idle,
			uint64_t this_load, uint64_t *max, uint64_t *total)
{
	int busiest = -1;
	*max = 0;
	*total = this_load;
	for (int k = 1; k < sim->ncpus; k++) {
		int i = (this + k) % sim->ncpus;
		uint64_t load = km_rq_load(sim, i, idx, false, idle);
		*total += load;
		if (load > *max) {
			*max = load;
			busiest = i;
		}
	}
	return busiest;
}

/*
 * The same for an idle CPU at a tick, from loads read once per tick: an
 * idle CPU's own load as a source is 0 (the lower of its averages and
 * nothing), so it is never at the highest when that is worth a pull, and
 * the rest is the same sum and the same walk.  1024 idle CPUs then cost
 * one pass per tick, not 1024.
 */
static int cached_busiest(struct km_sim *sim, int this, uint64_t this_load, uint64_t *max,
			  uint64_t *total)
{
	if (sim->bal_at != sim->now || sim->bal_gen_at != sim->bal_gen) {
		sim->bal_max = sim->bal_total = 0;
		sim->bal_n_at_max = 0;
		for (int i = 0; i < sim->ncpus; i++) {
			uint64_t load = km_rq_load(sim, i, KM_IDLE_IDX, false, KM_SCHED_IDLE);
			sim->bal_total += load;
			if (load > sim->bal_max) {
				sim->bal_max = load;
				sim->bal_n_at_max = 0;
			}
			if (load == sim->bal_max && load)
				sim->bal_at_max[sim->bal_n_at_max++] = i;
		}
		sim->bal_at = sim->now;
		sim->bal_gen_at = sim->bal_gen;
	}
	*max = sim->bal_max;
	*total = sim->bal_total + this_load;
	if (!sim->bal_n_at_max)
		return -1;
	/* the first at the highest after @this, wrapping round */
	int lo = 0, hi = sim->bal_n_at_max;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (sim->bal_at_max[mid] > this)
			hi = mid;
		else
			lo = mid + 1;
	}
	return sim->bal_at_max[lo < sim->bal_n_at_max ? lo : 0];
}

/*
 * find_busiest - find_busiest_group() and find_busiest_queue() for @this:
 * the CPU to pull from and how many tasks (*@imbalance), or -1 when the
 * domain counts as balanced.  Every group is one CPU of cpu_power 128.
 * With no task queued anywhere no CPU has two, and no source counts more
 * than one task: balanced, without reading a load.
 */
static int find_busiest(struct km_sim *sim, int this, enum km_idle_type idle,
			uint64_t *imbalance)
{
	*imbalance = 0;
	if (!sim->queued)
		return -1;
	int idx = idle == KM_NEWLY_IDLE ? KM_NEWIDLE_IDX : KM_IDLE_IDX;
	uint64_t this_load = km_rq_load(sim, this, idx, true, idle);
	uint64_t max_load, total;
	int busiest;
	if (idle == KM_SCHED_IDLE && km_cpu_nr_running(&sim->cpus[this]) == 0 &&
	    (sim->bal_at_max ||
	     (sim->bal_at_max = malloc((size_t)sim->ncpus * sizeof(*sim->bal_at_max)))))
		busiest = cached_busiest(sim, this, this_load, &max_load, &total);
	else
		busiest = scan_busiest(sim, this, idx, idle, this_load, &max_load, &total);
	if (busiest < 0 || this_load >= max_load || max_load <= KM_LOAD_SCALE)
		return -1;
	uint64_t avg = total / (uint64_t)sim->ncpus;
	if (this_load >= avg || 100 * max_load <= KM_IMBALANCE_PCT * this_load)
		return -1;
	uint64_t max_pull = max_load - avg;
	if (max_load - KM_LOAD_SCALE < max_pull)
		max_pull = max_load - KM_LOAD_SCALE;
	uint64_t imb = max_pull < avg - this_load ? max_pull : avg - this_load;
	if (imb < KM_LOAD_SCALE) {
		if (max_load - this_load < 2 * KM_LOAD_SCALE) {
			/* not two tasks apart: move one only if more CPU
			 * power gets used */
			uint64_t pwr_now = (max_load < KM_LOAD_SCALE ? max_load : KM_LOAD_SCALE) +
					   (this_load < KM_LOAD_SCALE ? this_load : KM_LOAD_SCALE);
			uint64_t pwr_move = 0;
			if (max_load > KM_LOAD_SCALE)
				pwr_move += max_load - KM_LOAD_SCALE < KM_LOAD_SCALE ?
						    max_load - KM_LOAD_SCALE : KM_LOAD_SCALE;
			uint64_t add = max_load < KM_LOAD_SCALE ? max_load : KM_LOAD_SCALE;
			pwr_move += this_load + add < KM_LOAD_SCALE ? this_load + add : KM_LOAD_SCALE;
			if (pwr_move <= pwr_now)
				return -1;
		}
		imb = KM_LOAD_SCALE;
	}
	/* find_busiest_queue(): the group's one CPU, if it has any task */
	if (km_cpu_nr_running(&sim->cpus[busiest]) == 0)
		return -1;
	*imbalance = imb / KM_LOAD_SCALE;
	return busiest;
}

/* task_hot(): ran on its CPU less than cache_hot_time before that CPU's
 * last tick (a task switched out after the tick is hot too). */
static bool task_hot(const struct km_sim *sim, const struct km_ctx *t)
{
	km_time period = km_tick_period(sim);
	km_time last_tick = period ? sim->now / period * period : sim->now;
	return t->ran && last_tick - t->last_ran < sim->era.cache_hot;
}

/*
 * km_o1_balance - load_balance_newidle() (@newly) or load_balance() from
 * an idle CPU's tick, run by @cpu, which has nothing to run.  Pulls tasks
 * from the busiest queue onto @cpu's and returns how many; *@cost gets
 * what the pull cost @cpu beyond the scan: taking the busiest run
 * queue's lock (an atomic and its line, after any holder), and per task
 * moved, pull_task()'s lines of that queue's priority array and of the
 * task (three: an estimate, docs/sources.md).
 *
 * Context: @cpu is idle or about to be; its own run-queue lock is held.
 */
int km_o1_balance(struct km_sim *sim, struct km_cpu *cpu, bool newly, km_time *cost)
{
	uint64_t imbalance;
	*cost = 0;
	int b = find_busiest(sim, cpu->id, newly ? KM_NEWLY_IDLE : KM_SCHED_IDLE, &imbalance);
	if (b < 0) {
		cpu->balance_failed = 0;
		if (!newly && cpu->balance_interval < KM_MAX_INTERVAL)
			cpu->balance_interval *= 2;
		return 0;
	}
	struct km_cpu *busiest = &sim->cpus[b];
	int moved = 0;
	if (km_cpu_nr_running(busiest) > 1) {
		/* double_lock_balance()/double_rq_lock() */
		km_time at = sim->now;
		if (busiest->rq_lock_free > at)
			*cost += busiest->rq_lock_free - at;
		*cost += km_cost(sim)->atomic + km_cpu_distance_cost(sim, b, cpu->id);
		bool aggressive = cpu->balance_failed > KM_CACHE_NICE_TRIES;
		/* move_tasks(): from the tail of the queue, leaving pinned
		 * and (unless aggressive) cache-hot tasks */
		while ((uint64_t)moved < imbalance) {
			struct km_ctx *pick = NULL, *pick_prev = NULL, *prev = NULL;
			for (struct km_ctx *t = busiest->rq_head; t; prev = t, t = t->rq_next) {
				if (t->pinned >= 0 || (!aggressive && task_hot(sim, t)))
					continue;
				pick = t;
				pick_prev = prev;
			}
			if (!pick)
				break;
			km_rq_unlink(sim, busiest, pick, pick_prev);
			pick->cpu = cpu->id;	/* set_task_cpu() */
			km_cpu_migrated(sim, cpu, pick);
			km_rq_append(sim, cpu, pick);
			sim->bal_gen++;
			/* the task's struct, its thread_info, its place in
			 * the array: three lines from the busiest CPU */
			*cost += 3 * km_cpu_distance_cost(sim, b, cpu->id);
			moved++;
		}
		busiest->rq_lock_free = sim->now + *cost;
	}
	if (moved) {
		cpu->balance_failed = 0;
	} else if (!newly) {
		cpu->balance_failed++;
	}
	if (!newly)
		cpu->balance_interval = KM_MIN_INTERVAL;
	return moved;
}

/* Is @cpu's periodic balance due at this tick (rebalance_tick() with
 * SCHED_IDLE: j - last_balance >= balance_interval in jiffies)? */
bool km_o1_balance_due(const struct km_sim *sim, const struct km_cpu *cpu)
{
	int64_t interval = ((int64_t)cpu->balance_interval * sim->era.hz + 999) / 1000;
	if (interval < 1)
		interval = 1;
	return sim->now / km_tick_period(sim) - cpu->last_balance >= interval;
}

/* Record that @cpu balanced at this tick (rebalance_tick()'s last_balance). */
void km_o1_balance_stamp(const struct km_sim *sim, struct km_cpu *cpu)
{
	cpu->last_balance = sim->now / km_tick_period(sim);
}

/* ------------------------------------------- a CPU about to go idle -- */

/*
 * km_balance_newidle_cost - what schedule() spends, on a CPU whose task just
 * blocked and whose run queue is empty, looking for work elsewhere before
 * it idles (era.newidle_balance).  2.6.0's schedule() calls load_balance()
 * with idle set, and from 2.6.7 idle_balance() calls load_balance_newidle()
 * for each domain with SD_BALANCE_NEWIDLE (SD_CPU_INIT has it); both run
 * with this CPU's run-queue lock held and read every other CPU's run-queue
 * load (find_busiest_queue(), find_busiest_group()): a line each, written
 * by its own CPU at every enqueue and dequeue (docs/sources.md, [NEWIDLE]).
 * The engine has no NUMA domains, so the scan covers the whole machine.
 * From 2.6.32 it is skipped while the CPU's average idle time is short
 * (not modelled: those eras leave the field off).
 */
km_time km_balance_newidle_cost(const struct km_sim *sim, int me)
{
	if (!sim->era.newidle_balance || sim->ncpus < 2)
		return 0;
	if (!km_machine_has_caches(sim))	/* every line one flat transfer away */
		return km_sat_mul(sim->ncpus - 1, km_cpu_distance_cost(sim, 0, 1));
	km_time c = 0;
	for (int i = 0; i < sim->ncpus; i++)
		if (i != me)
			c = km_sat_add(c, km_cpu_distance_cost(sim, i, me));
	return c;
}

/* Take the first unpinned task off the longest other run queue. */
struct km_ctx *km_balance_steal(struct km_sim *sim, struct km_cpu *thief)
{
	struct km_cpu *busiest = NULL;
	if (!sim->queued)
		return NULL;	/* nothing waits anywhere: no need to look */
	if (sim->rq_long)
		km_rq_trees_refresh(sim);
	int longest = sim->rq_long ? sim->rq_long[1] : -1;
	if (longest >= 0 && longest != thief->id) {
		busiest = &sim->cpus[longest];	/* the scan's choice: see rq_pick */
		if (!busiest->rq_len)
			busiest = NULL;
	} else {
		for (int i = 0; i < sim->ncpus; i++) {
			struct km_cpu *c = &sim->cpus[i];
			if (c != thief && c->rq_len > 0 &&
			    (!busiest || c->rq_len > busiest->rq_len))
				busiest = c;
		}
	}
	if (!busiest)
		return NULL;
	struct km_ctx *prev = NULL;
	for (struct km_ctx *t = busiest->rq_head; t; prev = t, t = t->rq_next) {
		if (t->pinned >= 0)
			continue;
		km_rq_unlink(sim, busiest, t, prev);
		km_cpu_migrated(sim, thief, t);
		if (km_cfs(sim)) {	/* set_task_cpu(), then set_next_entity() */
			km_fair_migrate(busiest, thief, t);
			t->prev_sum_exec = t->sum_exec;
			t->exec_start = sim->now;
		}
		return t;
	}
	return NULL;
}
