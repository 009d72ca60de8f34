/*
 * cpu_time.h - where the CPUs' time went, in shares: one definition.
 *
 * Every output that says "busy 40%" (the text report, the compare table
 * and CSV, the tour's line, the window's panel and headline) takes the
 * figure from here, so that one run says the same thing everywhere.  The
 * definition (docs/scenarios.md, "Where the CPU time went"):
 *
 *   busy    a task's own code (compute, and the cost of its operations);
 *   spin    burning cycles on a lock that is not free;
 *   irq     running an interrupt handler;
 *   switch  a context switch under way (not busy: no task's code runs);
 *   idle    nothing to run.
 *
 * The five add up to the whole: every CPU is in exactly one state at each
 * instant, so the whole is the sum of the five (which is the run's length
 * times the CPUs).  "irqs off" overlaps them and is a share of the same
 * whole.  Sums are in double: 1024 CPUs of 2^62 ns do not fit in an
 * int64_t, and these sums only ever become shares.
 */
#ifndef KM_ENGINE_CPU_TIME_H
#define KM_ENGINE_CPU_TIME_H

#include "sim.h"

struct km_cpu_time {
	double ns[KM_CPU_STATES];	/* summed over the CPUs */
	double irqoff;			/* overlaps the states */
};

/**
 * km_cpu_time_of() - sum the CPUs' time per state of a finished run.
 * @sim: the run
 * @ct: filled in
 *
 * Context: any; reads @sim only.  O(CPUs).
 */
void km_cpu_time_of(const struct km_sim *sim, struct km_cpu_time *ct);

/**
 * km_cpu_time_pct() - the share of one state in the whole, in percent.
 * @ct: the sums, from km_cpu_time_of() or from a report's cpus_util
 * @state: a state, or KM_CPU_STATES for "irqs off"
 *
 * Return: 0 to 100; 0 for a run of no time.
 */
double km_cpu_time_pct(const struct km_cpu_time *ct, int state);

/* The whole: the sum of the five states, CPUs times the run's length. */
double km_cpu_time_all(const struct km_cpu_time *ct);

#endif /* KM_ENGINE_CPU_TIME_H */
