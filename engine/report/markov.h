/*
 * markov.h - the Markov model of a ticket spinlock of Boyd-Wickizer,
 * Kaashoek, Morris and Zeldovich, "Non-scalable locks are dangerous"
 * (Linux Symposium 2012, §3), computed for the sweeps that draw it beside
 * the simulation (compare --markov).
 */
#ifndef KM_REPORT_MARKOV_H
#define KM_REPORT_MARKOV_H

#include <stdbool.h>

/* The largest core count the model is computed for. */
#define KM_MARKOV_MAX_N 4096

/* The model's figures for one core count. */
struct km_markov_point {
	double throughput;	/* operations per unit of a, s and c */
	double speedup;		/* throughput x (a + s): one core's rate is 1 */
	double waiting;		/* w: mean cores holding or waiting, sum k P_k */
};

/**
 * km_markov_ticket - the steady state of the paper's birth-death chain for
 * @n cores, each doing @a of work outside the lock between acquisitions,
 * @s inside it, and a ticket hand-off costing @c per spinner served before
 * the next holder (half the spinners on average): arrivals (n - k)/a from
 * state k, service 1/(s + c(k-1)/2) from state k >= 1.
 *
 * Every number is hostile: @n must be 1..KM_MARKOV_MAX_N, @a and @c finite
 * and >= 0, @s finite and > 0; anything else returns false and leaves
 * @out alone.  @a == 0 (cores that do nothing but take the lock) is the
 * chain's limit: every core contends.  Returns true with @out filled.
 * Context: any; pure arithmetic, no allocation.
 */
bool km_markov_ticket(int n, double a, double s, double c, struct km_markov_point *out);

#endif /* KM_REPORT_MARKOV_H */
