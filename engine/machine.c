/*
 * machine.c - the run queues' loads as the O(1) scheduler's timer tick
 * averaged them (era.wake_affine, o1_balance: 2.6.12-2.6.16), on the
 * machine floor of the core (machine.h) because both the wake-up's
 * placement (wake.c) and the balancing (balance.c) read them.
 *
 * rebalance_tick() kept cpu_load[0..2], the averages over 1, 2 and 4
 * ticks of 128 (SCHED_LOAD_SCALE) per runnable task.  The engine has no
 * tick event for this: before the clock moves past a tick, the event
 * loop asks km_loads_at_ticks() to average what every tick in between
 * saw.  O(CPUs) per tick crossed, at most 40 a step.
 */
#include "machine.h"

bool km_loads_tracked(const struct km_sim *sim)
{
	return (sim->era.wake_affine || sim->era.o1_balance) && sim->era.hz > 0;
}

/* rebalance_tick()'s averaging, once, with @nr tasks runnable. */
static void load_tick(struct km_cpu *cpu, int nr)
{
	uint64_t now = (uint64_t)nr * KM_LOAD_SCALE;
	for (int i = 0; i < 3; i++) {
		uint64_t scale = 1u << i, load = now;
		if (load > cpu->cpu_load[i])
			load += scale - 1;	/* round up while rising */
		cpu->cpu_load[i] = (cpu->cpu_load[i] * (scale - 1) + load) / scale;
	}
}

void km_loads_at_ticks(struct km_sim *sim, km_time next)
{
	km_time period = km_tick_period(sim);
	km_time ticks = next / period - sim->now / period;
	if (ticks <= 0)
		return;
	/* no event came between the last one and these ticks, so the run
	 * queues now are what every one of them saw; after 40 identical
	 * ticks the averages no longer move */
	if (ticks > 40)
		ticks = 40;
	for (int i = 0; i < sim->ncpus; i++) {
		int nr = km_cpu_nr_running(&sim->cpus[i]);
		for (km_time t = 0; t < ticks; t++)
			load_tick(&sim->cpus[i], nr);
	}
}

/* The next timer tick after now. */
km_time km_next_tick(const struct km_sim *sim)
{
	km_time period = km_tick_period(sim);
	return (sim->now / period + 1) * period;
}
