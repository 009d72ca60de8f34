/*
 * test_cpu_time.c - one definition of "busy" for every output.
 *
 * One run (tests/view/sem2.lua: a sleeper woken by up(), so its CPUs
 * spend time switching), and its busy share as four outputs say it: the
 * text report's "all" row, the JSON report's cpus_util, the compare
 * table's row made from that JSON, and the window's headline (the line
 * the compare view prints over each panel and a picture under its
 * lanes).  They must agree to the printed precision, and the run must
 * switch, or the test would not tell "busy" from "busy + switch" (which
 * compare once printed).
 */
#include "test.h"

#include "../view/view_fixture.h"
#include "cpu_time.h"
#include "cli/sweep.h"
#include "report/report.h"

#include <math.h>

static int setup(void **state)
{
	static struct vfx f;
	*state = &f;
	return vfx_setup(&f, "sem2.lua", NULL, KM_MODE_NATIVE);
}

static int teardown(void **state)
{
	vfx_teardown(*state);
	return 0;
}

/* The "all" row's first column of the text report. */
static double text_busy(const struct km_run_info *ri)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	assert_non_null(mem);
	km_report_text(mem, ri);
	assert_int_equal(fclose(mem), 0);
	const char *all = strstr(buf, "\n  all ");
	assert_non_null(all);
	double busy = -1;
	assert_int_equal(sscanf(all, " all %lf%%", &busy), 1);
	free(buf);
	return busy;
}

static void test_cpu_time_one_busy_everywhere(void **state)
{
	struct vfx *f = *state;
	const struct km_run_info *ri = &f->s.ri;
	struct km_cpu_time ct;
	km_cpu_time_of(ri->sim, &ct);
	/* the run switches: otherwise the outputs could agree by luck */
	assert_true(ct.ns[KM_CPU_SWITCH] > 0);
	/* the five states are the whole: CPUs times the run's length */
	assert_true(km_cpu_time_all(&ct) == (double)ri->sim->now * ri->sim->ncpus);
	double busy = km_cpu_time_pct(&ct, KM_CPU_BUSY);
	assert_true(busy > 0 && busy < 100);

	/* text */
	assert_true(fabs(text_busy(ri) - busy) < 0.051);

	/* JSON: busy_ns over the sum of the states */
	json_t *rep = km_report_json(ri);
	assert_non_null(rep);
	double b = 0, all = 0;
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(rep, "cpus_util"), i, c) {
		b += (double)json_integer_value(json_object_get(c, "busy_ns"));
		all += (double)(json_integer_value(json_object_get(c, "busy_ns")) +
				json_integer_value(json_object_get(c, "spin_ns")) +
				json_integer_value(json_object_get(c, "irq_ns")) +
				json_integer_value(json_object_get(c, "idle_ns")) +
				json_integer_value(json_object_get(c, "switch_ns")));
	}
	assert_true(fabs(100.0 * b / all - busy) < 1e-9);

	/* compare's row, made from the same JSON */
	json_t *row = km_sweep_summarise(rep, km_report_exit_status(ri), "native", "2009", 2);
	assert_non_null(row);
	assert_true(fabs(json_real_value(json_object_get(row, "busy_pct")) - busy) < 1e-9);
	assert_true(fabs(json_real_value(json_object_get(row, "switch_pct")) -
			 km_cpu_time_pct(&ct, KM_CPU_SWITCH)) < 1e-9);
	json_decref(row);
	json_decref(rep);

	/* the window's headline: "busy N%" with N rounded */
	char head[256];
	km_view_headline(&f->m, head, sizeof(head));
	const char *at = strstr(head, "busy ");
	assert_non_null(at);
	int shown = -1;
	assert_int_equal(sscanf(at, "busy %d%%", &shown), 1);
	char want[16];
	snprintf(want, sizeof(want), "%.0f", busy);
	assert_int_equal(shown, atoi(want));
}

static void test_cpu_time_empty_run_is_zero(void **state)
{
	(void)state;
	struct km_cpu_time ct = { { 0 }, 0 };
	assert_true(km_cpu_time_all(&ct) == 0.0);
	assert_true(km_cpu_time_pct(&ct, KM_CPU_BUSY) == 0.0);
	ct.ns[KM_CPU_IDLE] = 3;
	ct.ns[KM_CPU_BUSY] = 1;
	assert_true(km_cpu_time_pct(&ct, KM_CPU_BUSY) == 25.0);
	assert_true(km_cpu_time_pct(&ct, -1) == 0.0);
	assert_true(km_cpu_time_pct(&ct, KM_CPU_STATES + 1) == 0.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cpu_time_one_busy_everywhere, setup, teardown),
		cmocka_unit_test(test_cpu_time_empty_run_is_zero),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
