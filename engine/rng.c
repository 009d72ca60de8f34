/*
 * rng.c - xoshiro256** by Blackman and Vigna (public domain reference),
 * seeded through splitmix64.  See rng.h.
 */
#include "rng.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void km_rng_seed(struct km_rng *r, uint64_t seed)
{
	uint64_t x = seed;
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t km_rng_next(struct km_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

int64_t km_rng_range(struct km_rng *r, int64_t lo, int64_t hi)
{
	uint64_t span = (uint64_t)hi - (uint64_t)lo;	/* hi - lo, no overflow */
	if (span == UINT64_MAX)
		return (int64_t)km_rng_next(r);
	uint64_t n = span + 1;
	/* Reject the top sliver that would bias the modulo. */
	uint64_t limit = UINT64_MAX - (UINT64_MAX % n);
	uint64_t x;
	do
		x = km_rng_next(r);
	while (x >= limit);
	return (int64_t)((uint64_t)lo + x % n);
}

double km_rng_unit(struct km_rng *r)
{
	return (double)(km_rng_next(r) >> 11) * 0x1.0p-53;
}
