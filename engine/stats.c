/*
 * stats.c - log-bucketed latency histograms.  See stats.h.
 *
 * Bucket of v: the position of its top bit (the octave) times 16, plus
 * the next four bits below the top one.  Values under 16 get their own
 * exact buckets.
 */
#include "stats.h"

#include <stdlib.h>
#include <string.h>

static unsigned bucket_of(uint64_t v)
{
	if (v < KM_HIST_SUB)
		return (unsigned)v;
	unsigned top = 63 - (unsigned)__builtin_clzll(v);	/* >= 4 */
	unsigned sub = (unsigned)(v >> (top - 4)) & (KM_HIST_SUB - 1);
	return (top - 3) * KM_HIST_SUB + sub;
}

/* The lowest value that falls in bucket b. */
static uint64_t bucket_low(unsigned b)
{
	if (b < KM_HIST_SUB)
		return b;
	unsigned top = b / KM_HIST_SUB + 3;
	unsigned sub = b % KM_HIST_SUB;
	return ((uint64_t)(KM_HIST_SUB + sub)) << (top - 4);
}

int km_hist_add(struct km_hist *h, km_time v)
{
	if (v < 0)
		v = 0;
	if (!h->bucket) {
		h->bucket = calloc(KM_HIST_BUCKETS, sizeof(*h->bucket));
		if (!h->bucket)
			return KM_ENOMEM;
	}
	km_minmax_add(&h->mm, v);
	h->bucket[bucket_of((uint64_t)v)]++;
	return KM_OK;
}

km_time km_hist_quantile(const struct km_hist *h, double q)
{
	if (!h->mm.n || !h->bucket)
		return 0;
	/* The rank of the sample asked for, 1-based: ceil(q * n). */
	uint64_t rank = (uint64_t)(q * (double)h->mm.n);
	if ((double)rank < q * (double)h->mm.n)
		rank++;
	if (rank < 1)
		rank = 1;
	uint64_t seen = 0;
	for (unsigned b = 0; b < KM_HIST_BUCKETS; b++) {
		seen += h->bucket[b];
		if (seen >= rank) {
			/* Report the middle of the bucket. */
			uint64_t lo = bucket_low(b);
			uint64_t hi = b + 1 < KM_HIST_BUCKETS ? bucket_low(b + 1) : lo;
			km_time v = (km_time)(lo + (hi - lo) / 2);
			if (v < h->mm.min)
				v = h->mm.min;
			if (v > h->mm.max)
				v = h->mm.max;
			return v;
		}
	}
	return h->mm.max;
}

void km_hist_free(struct km_hist *h)
{
	free(h->bucket);
	h->bucket = NULL;
}

/* ------------------------------------------------------------- counts -- */

static uint32_t slot_of(uint32_t key, uint32_t cap)
{
	return (key * 2654435761u) & (cap - 1);
}

int km_counts_add_slow(struct km_counts *c, uint32_t id, uint64_t n)
{
	uint32_t key = id + 1;
	if ((c->n + 1) * 4 > c->cap * 3) {
		uint32_t ncap = c->cap ? c->cap * 2 : 16;
		uint32_t *nk = calloc(ncap, sizeof(*nk));
		uint64_t *nv = calloc(ncap, sizeof(*nv));
		if (!nk || !nv) {
			free(nk);
			free(nv);
			return KM_ENOMEM;
		}
		for (uint32_t i = 0; i < c->cap; i++) {
			if (!c->keys[i])
				continue;
			uint32_t j = slot_of(c->keys[i], ncap);
			while (nk[j])
				j = (j + 1) & (ncap - 1);
			nk[j] = c->keys[i];
			nv[j] = c->vals[i];
		}
		free(c->keys);
		free(c->vals);
		c->keys = nk;
		c->vals = nv;
		c->cap = ncap;
	}
	uint32_t j = slot_of(key, c->cap);
	while (c->keys[j] && c->keys[j] != key)
		j = (j + 1) & (c->cap - 1);
	if (!c->keys[j]) {
		c->keys[j] = key;
		c->n++;
	}
	c->vals[j] += n;
	return KM_OK;
}

void km_counts_free(struct km_counts *c)
{
	free(c->keys);
	free(c->vals);
	memset(c, 0, sizeof(*c));
}
