/*
 * markov.c - the ticket spinlock's Markov model of [BW12] §3, closed form.
 *
 * The paper models n cores as a birth-death chain whose state k is the
 * number of cores holding or waiting for the lock (its Figure 7).  A core
 * outside the lock asks for it after a mean time a, so from state k the
 * chain climbs at rate (n - k)/a.  The holder spends s in the serial
 * section; then the ticket release invalidates every spinner's copy of the
 * lock's line and the spinners re-read it one at a time, served by the
 * line's home, c each: the next holder sees its number after half of them
 * on average.  So with k cores contending (k - 1 of them spinning) the
 * chain falls at rate 1/(s + c(k - 1)/2) -- the paper's
 * s_k = 1/(s + ck/2) with its index k counting the spinners.
 *
 * A birth-death chain is reversible, so its steady state follows from
 * detailed balance, P_k (n - k)/a = P_{k+1} / (s + ck/2):
 *
 *   P_k = P_0 * n!/((n - k)! a^k) * prod_{i=0..k-1} (s + ic/2)
 *
 * (the paper prints the product as prod_{i=1..k} (s + ic); see
 * docs/research/coherence.md for the difference).  Throughput is the
 * rate of departures, sum_{k>=1} P_k / (s + c(k - 1)/2), equal by flow
 * balance to the rate of arrivals, sum_k P_k (n - k)/a.  The speedup is
 * the throughput in units of one core's rate 1/(a + s); the paper's own
 * "n - w" is its value when s is small beside a.
 *
 * The products overflow a double long before n = 48 when s is large
 * beside a, so the chain is summed in logarithms and scaled by its
 * largest term.
 */
#include "markov.h"

#include <math.h>

static bool finite_ge0(double v)
{
	return isfinite(v) && v >= 0;
}

/* The service time with @k cores contending (k >= 1). */
static double service(double s, double c, int k)
{
	return s + c * (double)(k - 1) / 2.0;
}

bool km_markov_ticket(int n, double a, double s, double c, struct km_markov_point *out)
{
	if (!out || n < 1 || n > KM_MARKOV_MAX_N || !finite_ge0(a) || !finite_ge0(c) ||
	    !isfinite(s) || !(s > 0))
		return false;
	double thr, w;
	if (a == 0) {
		/* every core always contends: the chain sits in state n */
		thr = 1.0 / service(s, c, n);
		w = n;
	} else {
		/* log P_k / P_0, then the largest of them as the scale */
		double lg[KM_MARKOV_MAX_N + 1];
		double top = 0;
		lg[0] = 0;
		for (int k = 1; k <= n; k++) {
			lg[k] = lg[k - 1] + log((double)(n - k + 1) / a) + log(service(s, c, k));
			if (lg[k] > top)
				top = lg[k];
		}
		double z = 0, dep = 0, sum_k = 0;
		for (int k = 0; k <= n; k++) {
			double p = exp(lg[k] - top);
			z += p;
			sum_k += p * k;
			if (k >= 1)
				dep += p / service(s, c, k);
		}
		thr = dep / z;
		w = sum_k / z;
	}
	if (!isfinite(thr) || !isfinite(w))
		return false;
	out->throughput = thr;
	out->speedup = thr * (a + s);
	out->waiting = w;
	return true;
}
