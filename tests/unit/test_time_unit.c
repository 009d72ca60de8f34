/*
 * test_time_unit.c - one unit for the times of one message.
 *
 * The unit is chosen by the largest time; a smaller time in it keeps two
 * significant digits (down to the nanosecond), a zero stays a plain zero,
 * instants (km_time_unit_exact) keep their nanoseconds in microseconds;
 * and the window's event line says a wait in the unit of its own time.
 */
#include "test.h"

#include "time_unit.h"

#include "../view/view_fixture.h"

#include <regex.h>
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

/* Every event of the 2006 inode run under mutexes (47 ms long, locks held
 * for 3 us), described: one unit a sentence. */
static void test_time_unit_event_line(void **state)
{
	(void)state;
	static struct vfx f;
	assert_int_equal(vfx_setup(&f, "../../scripts/inode.lua", NULL, KM_PRIM_MUTEX), 0);
	regex_t re;
	assert_int_equal(regcomp(&re, "[0-9] (ns|\xc2\xb5s|ms|s)([^a-z]|$)", REG_EXTENDED), 0);
	int waits = 0;
	for (size_t i = 0; i < f.m.nrecs; i++) {
		char desc[512];
		km_vm_describe(&f.m, i, desc, sizeof(desc));
		char unit[8] = "";
		const char *p = desc;
		regmatch_t mt[2];
		while (regexec(&re, p, 2, mt, 0) == 0) {
			char u[8];
			int n = (int)(mt[1].rm_eo - mt[1].rm_so);
			snprintf(u, sizeof(u), "%.*s", n, p + mt[1].rm_so);
			if (!*unit)
				snprintf(unit, sizeof(unit), "%s", u);
			else if (strcmp(unit, u))
				fail_msg("two units in \"%s\"", desc);
			p += mt[0].rm_eo;
		}
		waits += strstr(desc, "after holding") != NULL;
	}
	assert_true(waits > 0);	/* the sentences that used to mix */
	regfree(&re);
	vfx_teardown(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_time_unit_choice),
		cmocka_unit_test(test_time_unit_format),
		cmocka_unit_test(test_time_unit_event_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
