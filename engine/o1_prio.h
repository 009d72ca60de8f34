/*
 * o1_prio.h - the O(1) scheduler's priority arithmetic (2.6.15's
 * kernel/sched.c macros and recalc_task_prio(), docs/sources.md,
 * [O1SCHED15]): pure functions of the era and a task's sleep_avg, for
 * sched_o1.c, which keeps the state, and for wake.c, which must know at
 * a wake-up whether the wakee will preempt the task running on its CPU
 * (TASK_PREEMPTS_CURR decides the reschedule IPI).
 *
 * Nice 0 only: static_prio 120, DELTA 2, task_timeslice() DEF_TIMESLICE.
 */
#ifndef KM_ENGINE_O1_PRIO_H
#define KM_ENGINE_O1_PRIO_H

#include "sim.h"

#define O1_MAX_RT_PRIO		100
#define O1_MAX_PRIO		140
#define O1_STATIC_PRIO		120	/* nice 0 */
#define O1_MAX_BONUS		10	/* MAX_USER_PRIO * PRIO_BONUS_RATIO / 100 */
#define O1_INTERACTIVE_DELTA	2
#define O1_ON_RUNQUEUE_WEIGHT	30

/* The era's jiffy in ns (HZ; 250 when the era has none). */
static inline km_time km_o1p_jiffy(const struct km_sim *sim)
{
	return 1000000000LL / (sim->era.hz > 0 ? sim->era.hz : 250);
}

/* DEF_TIMESLICE (100 * HZ / 1000 jiffies), in jiffies, at least 1. */
static inline km_time km_o1p_def_timeslice_j(const struct km_sim *sim)
{
	km_time j = (km_time)100 * (sim->era.hz > 0 ? sim->era.hz : 250) / 1000;
	return j > 0 ? j : 1;
}

/* MAX_SLEEP_AVG = DEF_TIMESLICE * MAX_BONUS jiffies. */
static inline km_time km_o1p_max_sleep_avg_j(const struct km_sim *sim)
{
	return km_o1p_def_timeslice_j(sim) * O1_MAX_BONUS;
}

static inline km_time km_o1p_ns_max_sleep_avg(const struct km_sim *sim)
{
	return km_o1p_max_sleep_avg_j(sim) * km_o1p_jiffy(sim);
}

/* CURRENT_BONUS(p): NS_TO_JIFFIES(sleep_avg) * MAX_BONUS / MAX_SLEEP_AVG */
static inline int km_o1p_current_bonus(const struct km_sim *sim, km_time sleep_avg)
{
	return (int)((sleep_avg / km_o1p_jiffy(sim)) * O1_MAX_BONUS / km_o1p_max_sleep_avg_j(sim));
}

/* INTERACTIVE_SLEEP(p) at nice 0 (DELTA 2):
 * JIFFIES_TO_NS(MAX_SLEEP_AVG * (MAX_BONUS / 2 + DELTA + 1) / MAX_BONUS - 1) */
static inline km_time km_o1p_interactive_sleep(const struct km_sim *sim)
{
	km_time j = km_o1p_max_sleep_avg_j(sim) * (O1_MAX_BONUS / 2 + O1_INTERACTIVE_DELTA + 1) /
		    O1_MAX_BONUS - 1;
	return j * km_o1p_jiffy(sim);
}

/* km_o1p_effective_prio() */
static inline int km_o1p_effective_prio(const struct km_sim *sim, km_time sleep_avg)
{
	int prio = O1_STATIC_PRIO - (km_o1p_current_bonus(sim, sleep_avg) - O1_MAX_BONUS / 2);
	if (prio < O1_MAX_RT_PRIO)
		prio = O1_MAX_RT_PRIO;
	if (prio > O1_MAX_PRIO - 1)
		prio = O1_MAX_PRIO - 1;
	return prio;
}

/* TASK_INTERACTIVE(p): prio <= static_prio - DELTA(p) */
static inline bool km_o1p_task_interactive(const struct km_ctx *p)
{
	return p->o1_prio <= O1_STATIC_PRIO - O1_INTERACTIVE_DELTA;
}

/* recalc_task_prio(p, now) on a copy of its sleep_avg; returns the new
 * sleep_avg, *@prio its priority. */
static inline km_time km_o1p_recalc(const struct km_sim *sim, const struct km_ctx *p, km_time now,
		      int activated, int *prio)
{
	km_time sa = p->o1_sleep_avg;
	km_time st = now - p->o1_timestamp;
	if (st > km_o1p_ns_max_sleep_avg(sim))
		st = km_o1p_ns_max_sleep_avg(sim);
	if (st > 0) {
		if (activated != -1 && st > km_o1p_interactive_sleep(sim)) {
			sa = (km_o1p_max_sleep_avg_j(sim) - km_o1p_def_timeslice_j(sim)) * km_o1p_jiffy(sim);
		} else {
			int f = O1_MAX_BONUS - km_o1p_current_bonus(sim, sa);
			st = km_sat_mul(st, f > 0 ? f : 1);
			if (activated == -1) {
				if (sa >= km_o1p_interactive_sleep(sim)) {
					st = 0;
				} else if (km_sat_add(sa, st) >= km_o1p_interactive_sleep(sim)) {
					sa = km_o1p_interactive_sleep(sim);
					st = 0;
				}
			}
			sa = km_sat_add(sa, st);
			if (sa > km_o1p_ns_max_sleep_avg(sim))
				sa = km_o1p_ns_max_sleep_avg(sim);
		}
	}
	*prio = km_o1p_effective_prio(sim, sa);
	return sa;
}

#endif /* KM_ENGINE_O1_PRIO_H */
