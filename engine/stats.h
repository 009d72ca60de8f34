/*
 * stats.h - statistics gathered as the run goes.
 *
 * In the spirit of /proc/lock_stat: per lock the acquisitions,
 * contentions, bounces and min/max/total of wait and hold times.  Latency
 * distributions for measure() are log-bucketed (16 sub-buckets per power
 * of two: under 6% error on any percentile) so that a million samples cost
 * the same memory as ten.  Nothing here allocates per sample.
 */
#ifndef KM_ENGINE_STATS_H
#define KM_ENGINE_STATS_H

#include "km.h"

struct km_minmax {
	km_time min, max, total;
	uint64_t n;
};

static inline void km_minmax_add(struct km_minmax *m, km_time v)
{
	if (!m->n || v < m->min)
		m->min = v;
	if (!m->n || v > m->max)
		m->max = v;
	m->total = km_sat_add(m->total, v);
	m->n++;
}

static inline km_time km_minmax_avg(const struct km_minmax *m)
{
	return m->n ? m->total / (km_time)m->n : 0;
}

/* A small open-addressing map from a context id to a count: who took a
 * lock how often, for the locktorture-style fairness line. */
struct km_counts {
	uint32_t *keys;		/* id + 1; 0 = empty */
	uint64_t *vals;
	uint32_t cap, n;
};

int km_counts_add_slow(struct km_counts *c, uint32_t id, uint64_t n);

/* Add @n to @id's count.  KM_ENOMEM if the map could not grow.
 * NOTE: an id already in its home slot (the same task taking the same
 * lock again) is counted in line; anything else, out of line.  The map
 * grows only on an insertion then, never on a count already kept: its
 * contents are the same, and nothing reads its order. */
static inline int km_counts_add(struct km_counts *c, uint32_t id, uint64_t n)
{
	if (c->cap) {
		uint32_t j = ((id + 1) * 2654435761u) & (c->cap - 1);
		if (c->keys[j] == id + 1) {
			c->vals[j] += n;
			return KM_OK;
		}
	}
	return km_counts_add_slow(c, id, n);
}
void km_counts_free(struct km_counts *c);

struct km_lockstat {
	uint64_t acquisitions;
	uint64_t contentions;
	uint64_t con_bounces;	/* contended, last holder on another CPU */
	uint64_t acq_bounces;	/* acquired, line last touched elsewhere */
	uint32_t max_waiters;
	uint32_t max_holders;	/* at once */
	/* The thundering herd, for sleeping locks whose woken waiters retry
	 * (the legacy semaphore, the mutex): wake-ups issued, wake-ups that
	 * lost (woken, retried, slept again), and steals (a task that was not
	 * woken took the lock while a woken waiter was on its way). */
	uint64_t wakeups;
	uint64_t wake_lost;
	uint64_t steals;
	bool exclusion_broken;	/* two holders ran inside at the same time */
	struct km_counts by_task;
	struct km_minmax wait;	/* only contended acquisitions */
	struct km_minmax hold;
};

#define KM_HIST_SUB 16
#define KM_HIST_BUCKETS (64 * KM_HIST_SUB)

struct km_hist {
	struct km_minmax mm;
	uint32_t *bucket;	/* KM_HIST_BUCKETS counters, allocated on first add */
};

int km_hist_add(struct km_hist *h, km_time v);
/* The value at quantile q (0..1), within bucket precision, clamped to the
 * exact min and max. */
km_time km_hist_quantile(const struct km_hist *h, double q);
void km_hist_free(struct km_hist *h);

#endif /* KM_ENGINE_STATS_H */
