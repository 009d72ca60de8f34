/*
 * test_rng.c - the run's random generator.
 *
 * Everything random in a run draws from this one generator, so a seed must
 * give the same draws everywhere (known answers of splitmix64 and
 * xoshiro256**, computed from the authors' reference algorithms), ranges
 * must stay inside their bounds, and km_rng_range must not favour any
 * value.
 */
#include "test.h"

#include "rng.h"

#include <math.h>
#include <string.h>

static void test_rng_known_answers(void **state)
{
	struct km_rng r;
	/* splitmix64 from 0: the state words */
	km_rng_seed(&r, 0);
	assert_int_equal(r.s[0], 0xe220a8397b1dcdafULL);
	assert_int_equal(r.s[1], 0x6e789e6aa1b965f4ULL);
	assert_int_equal(r.s[2], 0x06c45d188009454fULL);
	assert_int_equal(r.s[3], 0xf88bb8a8724c81ecULL);
	/* xoshiro256** outputs */
	assert_int_equal(km_rng_next(&r), 0x99ec5f36cb75f2b4ULL);
	assert_int_equal(km_rng_next(&r), 0xbf6e1f784956452aULL);
	assert_int_equal(km_rng_next(&r), 0x1a5f849d4933e6e0ULL);
	km_rng_seed(&r, 42);
	assert_int_equal(km_rng_next(&r), 0x15780b2e0c2ec716ULL);
	assert_int_equal(km_rng_next(&r), 0x6104d9866d113a7eULL);
	assert_int_equal(km_rng_next(&r), 0xae17533239e499a1ULL);
}

static void test_rng_same_seed_same_sequence(void **state)
{
	struct km_rng a, b, c;
	km_rng_seed(&a, 1234);
	km_rng_seed(&b, 1234);
	km_rng_seed(&c, 1235);
	int differ = 0;
	for (int i = 0; i < 10000; i++) {
		uint64_t x = km_rng_next(&a);
		assert_int_equal(x, km_rng_next(&b));
		differ += x != km_rng_next(&c);
	}
	/* a neighbouring seed gives an unrelated sequence */
	assert_true(differ > 9990);
	/* reseeding restarts the sequence */
	km_rng_seed(&a, 1234);
	km_rng_seed(&b, 1234);
	for (int i = 0; i < 100; i++)
		assert_int_equal(km_rng_range(&a, -5, 5), km_rng_range(&b, -5, 5));
}

static void test_rng_range_bounds(void **state)
{
	struct km_rng r;
	km_rng_seed(&r, 7);
	bool seen_lo = false, seen_hi = false;
	for (int i = 0; i < 20000; i++) {
		int64_t x = km_rng_range(&r, -3, 4);
		assert_true(x >= -3 && x <= 4);
		seen_lo |= x == -3;
		seen_hi |= x == 4;
	}
	assert_true(seen_lo);
	assert_true(seen_hi);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(km_rng_range(&r, 99, 99), 99);
	/* extreme bounds: no overflow, stays inside */
	for (int i = 0; i < 1000; i++) {
		int64_t x = km_rng_range(&r, INT64_MAX - 2, INT64_MAX);
		assert_true(x >= INT64_MAX - 2);
		int64_t y = km_rng_range(&r, INT64_MIN, INT64_MIN + 1);
		assert_true(y <= INT64_MIN + 1);
	}
	/* the full range is allowed */
	(void)km_rng_range(&r, INT64_MIN, INT64_MAX);
	for (int i = 0; i < 10000; i++) {
		double u = km_rng_unit(&r);
		assert_true(u >= 0.0 && u < 1.0);
	}
}

/* Chi-square over 10 values, and over a span that does not divide 2^64
 * evenly enough for a naive modulo to hide its bias at this size. */
static void test_rng_range_unbiased(void **state)
{
	enum { K = 10, N = 200000 };
	struct km_rng r;
	km_rng_seed(&r, 2024);
	uint32_t count[K];
	memset(count, 0, sizeof(count));
	for (int i = 0; i < N; i++)
		count[km_rng_range(&r, 0, K - 1)]++;
	double expect = (double)N / K, chi = 0;
	for (int k = 0; k < K; k++)
		chi += (count[k] - expect) * (count[k] - expect) / expect;
	/* 9 degrees of freedom: p = 0.001 at 27.9 */
	assert_true(chi < 27.9);

	/* span of 3 * 2^62: a plain modulo would put half again as many draws
	 * in the lower third as in each of the upper two. */
	uint64_t thirds[3] = { 0, 0, 0 };
	int64_t lo = INT64_MIN, hi = (int64_t)((uint64_t)INT64_MIN + (3ULL << 62) - 1);
	uint64_t third = 1ULL << 62;
	for (int i = 0; i < 30000; i++) {
		uint64_t off = (uint64_t)km_rng_range(&r, lo, hi) - (uint64_t)lo;
		thirds[off / third]++;
	}
	for (int k = 0; k < 3; k++)
		assert_true(thirds[k] > 9400 && thirds[k] < 10600);

	double sum = 0;
	for (int i = 0; i < N; i++)
		sum += km_rng_unit(&r);
	assert_true(fabs(sum / N - 0.5) < 0.005);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rng_known_answers),
		cmocka_unit_test(test_rng_same_seed_same_sequence),
		cmocka_unit_test(test_rng_range_bounds),
		cmocka_unit_test(test_rng_range_unbiased),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
