/*
 * test_markov.c - the ticket spinlock's Markov model ([BW12] §3).
 *
 * Known values computed by hand, not by the module: one core is one
 * core's rate, 1/(a + s); two cores solved on paper from the chain's three
 * states; the limits the paper's Figure 8 shows (a model that scales while
 * the serial section is a small share, then collapses); and every hostile
 * input refused.
 */
#include "test.h"

#include "report/markov.h"

#include <math.h>

static void test_markov_one_core(void **state)
{
	(void)state;
	struct km_markov_point p;
	assert_true(km_markov_ticket(1, 1000, 100, 50, &p));
	/* states 0 and 1: P1/P0 = s/a, throughput P1/s = 1/(a + s) */
	assert_true(fabs(p.throughput - 1.0 / 1100) < 1e-15);
	assert_true(fabs(p.speedup - 1.0) < 1e-12);
	assert_true(fabs(p.waiting - 100.0 / 1100) < 1e-12);
}

static void test_markov_two_cores_by_hand(void **state)
{
	(void)state;
	/* a = 1000, s = 100, c = 50.  P1 = P0 (2/a) s, P2 = P1 (1/a)(s + c/2):
	 * P0 : P1 : P2 = 1 : 0.2 : 0.025.  Throughput P1/s + P2/(s + c/2)
	 * = 2(a + s)/(a^2 + 2as + 2s^2 + sc) = 2200/1225000. */
	struct km_markov_point p;
	assert_true(km_markov_ticket(2, 1000, 100, 50, &p));
	assert_true(fabs(p.throughput - 2200.0 / 1225000.0) < 1e-15);
	assert_true(fabs(p.speedup - 2200.0 * 1100 / 1225000.0) < 1e-12);
	/* w = (0.2 + 2 x 0.025) / 1.225 */
	assert_true(fabs(p.waiting - 0.25 / 1.225) < 1e-12);
}

/* Without hand-off cost the chain is the machine-repairman queue: with a
 * tiny serial section every core runs (speedup ~n); with c the ticket
 * lock collapses past the knee, as in the paper's Figure 8. */
static void test_markov_collapse(void **state)
{
	(void)state;
	struct km_markov_point p;
	double s = 400, a = s * (1 - 0.032) / 0.032;	/* 3.2% serial */
	assert_true(km_markov_ticket(10, a, s, 0, &p));
	assert_true(p.speedup > 9.5 && p.speedup <= 10.0);
	/* with no hand-off cost the lock saturates at (a + s)/s = 31.25 */
	assert_true(km_markov_ticket(48, a, s, 0, &p));
	assert_true(p.speedup > 29 && p.speedup < 31.25);
	double peak = 0;
	int at = 0;
	for (int n = 1; n <= 48; n++) {
		assert_true(km_markov_ticket(n, a, s, 1000, &p));
		if (p.speedup > peak) {
			peak = p.speedup;
			at = n;
		}
	}
	assert_true(km_markov_ticket(48, a, s, 1000, &p));
	assert_true(at > 4 && at < 16);
	assert_true(p.speedup < peak / 2);
}

/* Throughput equals the arrival rate (n - w')/a by flow balance: checked
 * through speedup = throughput (a + s) and a large n where logarithms
 * matter (the plain products overflow a double). */
static void test_markov_large_n_finite(void **state)
{
	(void)state;
	struct km_markov_point p;
	assert_true(km_markov_ticket(KM_MARKOV_MAX_N, 1, 1e6, 1e6, &p));
	assert_true(isfinite(p.throughput) && p.throughput > 0);
	assert_true(p.waiting > KM_MARKOV_MAX_N - 1 && p.waiting <= KM_MARKOV_MAX_N);
	/* all contend: departures 1/(s + c(n - 1)/2) */
	assert_true(fabs(p.throughput * (1e6 + 1e6 * (KM_MARKOV_MAX_N - 1) / 2.0) - 1) < 1e-3);
}

static void test_markov_a_zero(void **state)
{
	(void)state;
	struct km_markov_point p;
	assert_true(km_markov_ticket(5, 0, 100, 40, &p));
	assert_true(fabs(p.throughput - 1.0 / (100 + 40 * 4 / 2.0)) < 1e-15);
	assert_true(fabs(p.waiting - 5) < 1e-12);
}

static void test_markov_hostile(void **state)
{
	(void)state;
	struct km_markov_point p = { .throughput = 7, .speedup = 7, .waiting = 7 };
	assert_false(km_markov_ticket(0, 1, 1, 1, &p));
	assert_false(km_markov_ticket(-3, 1, 1, 1, &p));
	assert_false(km_markov_ticket(KM_MARKOV_MAX_N + 1, 1, 1, 1, &p));
	assert_false(km_markov_ticket(4, -1, 1, 1, &p));
	assert_false(km_markov_ticket(4, 1, 0, 1, &p));
	assert_false(km_markov_ticket(4, 1, -5, 1, &p));
	assert_false(km_markov_ticket(4, 1, 1, -1, &p));
	assert_false(km_markov_ticket(4, NAN, 1, 1, &p));
	assert_false(km_markov_ticket(4, 1, INFINITY, 1, &p));
	assert_false(km_markov_ticket(4, 1, 1, NAN, &p));
	assert_false(km_markov_ticket(4, INFINITY, 1, 1, &p));
	assert_false(km_markov_ticket(4, 1, 1, 1, NULL));
	assert_true(p.throughput == 7 && p.speedup == 7 && p.waiting == 7);
	/* huge but finite: refused rather than answered with inf or NaN */
	assert_false(km_markov_ticket(4, 1e-300, 1e300, 1e300, &p) && !isfinite(p.throughput));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_markov_one_core),
		cmocka_unit_test(test_markov_two_cores_by_hand),
		cmocka_unit_test(test_markov_collapse),
		cmocka_unit_test(test_markov_large_n_finite),
		cmocka_unit_test(test_markov_a_zero),
		cmocka_unit_test(test_markov_hostile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
