/*
 * test_time_unit.c - one unit for the times of one message.
 *
 * The unit is chosen by the largest time; a smaller time in it keeps two
 * significant digits (down to the nanosecond), a zero stays a plain zero,
 * instants (km_time_unit_exact) keep their nanoseconds in microseconds.
 */
#include "test.h"

#include "time_unit.h"

#include <string.h>

static const char *in(km_time v, struct km_time_unit u)
{
	static char buf[64];
	return km_time_in(v, u, false, buf, sizeof(buf));
}

static void test_time_unit_choice(void **state)
{
	(void)state;
	assert_string_equal(km_time_unit_for(0).name, "ns");
	assert_string_equal(km_time_unit_for(999).name, "ns");
	assert_string_equal(km_time_unit_for(1000).name, "us");
	assert_string_equal(km_time_unit_for(999999).name, "us");
	assert_string_equal(km_time_unit_for(1000000).name, "ms");
	assert_string_equal(km_time_unit_for(1000000000).name, "s");
	const km_time v[] = { 850, 1200, 3 };
	assert_string_equal(km_time_unit_of(v, 3).name, "us");
}

static void test_time_unit_format(void **state)
{
	(void)state;
	struct km_time_unit us = km_time_unit_for(1200), ms = km_time_unit_for(45510000);
	assert_string_equal(in(850, us), "0.85 us");
	assert_string_equal(in(1200, us), "1.20 us");
	assert_string_equal(in(0, ms), "0.00 ms");
	assert_string_equal(in(3200, ms), "0.0032 ms");	/* not 0.00 ms */
	assert_string_equal(in(7, ms), "0.000007 ms");	/* down to the ns */
	assert_string_equal(in(512, km_time_unit_for(512)), "512 ns");
	struct km_time_unit ex = km_time_unit_exact(3641);
	assert_string_equal(in(3500, ex), "3.500 us");
	assert_string_equal(in(3503, ex), "3.503 us");
	char buf[32];
	assert_string_equal(km_time_in(1500, us, true, buf, sizeof(buf)), "1.50 \xc2\xb5s");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_time_unit_choice),
		cmocka_unit_test(test_time_unit_format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
