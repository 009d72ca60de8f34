/*
 * test_stats.c - min/max/total and the log-bucketed histogram.
 *
 * The report's lock_stat columns are exact; measure() percentiles are
 * promised within bucket precision (16 sub-buckets per octave, so under
 * 1/16 relative error) and clamped to the exact min and max.  These
 * tests hold the histogram to that promise against exact quantiles.
 */
#include "test.h"

#include "stats.h"

#include <stdlib.h>

static void test_stats_minmax_exact(void **state)
{
	struct km_minmax m = { 0 };
	assert_int_equal(km_minmax_avg(&m), 0);
	static const km_time v[] = { 50, 7, 1000, 7, 300, 0, 999 };
	km_time total = 0;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		km_minmax_add(&m, v[i]);
		total += v[i];
	}
	assert_int_equal(m.min, 0);
	assert_int_equal(m.max, 1000);
	assert_int_equal(m.n, 7);
	assert_int_equal(m.total, total);
	assert_int_equal(km_minmax_avg(&m), total / 7);

	/* the first sample sets both ends, even when it is large */
	struct km_minmax one = { 0 };
	km_minmax_add(&one, 123456);
	assert_int_equal(one.min, 123456);
	assert_int_equal(one.max, 123456);
}

static void test_stats_hist_empty(void **state)
{
	struct km_hist h = { 0 };
	assert_int_equal(km_hist_quantile(&h, 0.5), 0);
	km_hist_free(&h);
}

/* Small values have exact buckets: quantiles are exact. */
static void test_stats_hist_small_values_exact(void **state)
{
	struct km_hist h = { 0 };
	for (int v = 1; v <= 10; v++)
		assert_int_equal(km_hist_add(&h, v), KM_OK);
	assert_int_equal(km_hist_quantile(&h, 0.0), 1);
	assert_int_equal(km_hist_quantile(&h, 0.1), 1);
	assert_int_equal(km_hist_quantile(&h, 0.5), 5);
	assert_int_equal(km_hist_quantile(&h, 0.55), 6);
	assert_int_equal(km_hist_quantile(&h, 0.9), 9);
	assert_int_equal(km_hist_quantile(&h, 1.0), 10);
	km_hist_free(&h);
}

static int cmp_time(const void *a, const void *b)
{
	km_time x = *(const km_time *)a, y = *(const km_time *)b;
	return (x > y) - (x < y);
}

/* Wide random data: every quantile within 1/16 of the exact one; min and
 * max exact. */
static void test_stats_hist_quantiles_within_bucket(void **state)
{
	enum { N = 100000 };
	km_time *v = malloc(N * sizeof(*v));
	assert_non_null(v);
	struct km_hist h = { 0 };
	srand(99);
	for (int i = 0; i < N; i++) {
		/* log-uniform over 1 ns .. ~1 s */
		int octave = rand() % 30;
		v[i] = ((km_time)1 << octave) + rand() % ((km_time)1 << octave);
		assert_int_equal(km_hist_add(&h, v[i]), KM_OK);
	}
	qsort(v, N, sizeof(*v), cmp_time);
	assert_int_equal(h.mm.min, v[0]);
	assert_int_equal(h.mm.max, v[N - 1]);
	assert_int_equal(h.mm.n, N);
	/* the extremes: never outside the exact min and max */
	assert_int_equal(km_hist_quantile(&h, 0.0), v[0]);
	km_time top = km_hist_quantile(&h, 1.0);
	assert_true(top <= v[N - 1]);
	assert_true((double)(v[N - 1] - top) / (double)v[N - 1] <= 1.0 / 16);
	static const double qs[] = { 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999 };
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		km_time exact = v[(size_t)(qs[i] * N + 0.999999) - 1];
		km_time got = km_hist_quantile(&h, qs[i]);
		double err = (double)llabs(got - exact) / (double)exact;
		if (err > 1.0 / 16)
			fail_msg("q=%g: histogram says %lld, exact %lld", qs[i],
				 (long long)got, (long long)exact);
	}
	km_hist_free(&h);
	free(v);
}

/* One value repeated: every quantile is that value (clamped to min/max). */
static void test_stats_hist_clamped_to_min_max(void **state)
{
	struct km_hist h = { 0 };
	for (int i = 0; i < 1000; i++)
		km_hist_add(&h, 1000003);
	for (double q = 0; q <= 1.0; q += 0.125)
		assert_int_equal(km_hist_quantile(&h, q), 1000003);
	/* negative samples count as zero */
	km_hist_add(&h, -5);
	assert_int_equal(h.mm.min, 0);
	assert_int_equal(km_hist_quantile(&h, 0.0), 0);
	km_hist_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats_minmax_exact),
		cmocka_unit_test(test_stats_hist_empty),
		cmocka_unit_test(test_stats_hist_small_values_exact),
		cmocka_unit_test(test_stats_hist_quantiles_within_bucket),
		cmocka_unit_test(test_stats_hist_clamped_to_min_max),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
