/*
 * cpu_time.c - the CPU time split, one definition for every output (see
 * cpu_time.h for the definition and why the whole is the sum of states).
 */
#include "cpu_time.h"

void km_cpu_time_of(const struct km_sim *sim, struct km_cpu_time *ct)
{
	for (int s = 0; s < KM_CPU_STATES; s++)
		ct->ns[s] = 0.0;
	ct->irqoff = 0.0;
	for (int i = 0; i < sim->ncpus; i++) {
		for (int s = 0; s < KM_CPU_STATES; s++)
			ct->ns[s] += (double)sim->cpus[i].acct[s];
		ct->irqoff += (double)sim->cpus[i].irqoff_ns;
	}
}

double km_cpu_time_all(const struct km_cpu_time *ct)
{
	double all = 0.0;
	for (int s = 0; s < KM_CPU_STATES; s++)
		all += ct->ns[s];
	return all;
}

double km_cpu_time_pct(const struct km_cpu_time *ct, int state)
{
	double all = km_cpu_time_all(ct);
	if (!(all > 0.0) || state < 0 || state > KM_CPU_STATES)
		return 0.0;
	double part = state == KM_CPU_STATES ? ct->irqoff : ct->ns[state];
	return 100.0 * part / all;
}
