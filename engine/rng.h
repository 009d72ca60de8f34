/*
 * rng.h - the run's one seeded random generator (xoshiro256**).
 *
 * Everything random in a run -- interrupt jitter, which test-and-set
 * spinner wins, the scenario's rand() -- draws from one generator seeded
 * from --seed, in the order the events happen.  Same seed, same draws,
 * same trace.  The state is expanded from the 64-bit seed with
 * splitmix64, as the xoshiro authors recommend.
 */
#ifndef KM_ENGINE_RNG_H
#define KM_ENGINE_RNG_H

#include "km.h"

struct km_rng {
	uint64_t s[4];
};

void km_rng_seed(struct km_rng *r, uint64_t seed);
uint64_t km_rng_next(struct km_rng *r);

/* Uniform integer in [lo, hi] (inclusive, lo <= hi), without modulo bias. */
int64_t km_rng_range(struct km_rng *r, int64_t lo, int64_t hi);

/* Uniform double in [0, 1). */
double km_rng_unit(struct km_rng *r);

#endif /* KM_ENGINE_RNG_H */
