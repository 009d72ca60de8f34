/*
 * test_sweep.c - the sweep's numbering, its rows, and reading reports back.
 *
 * --print-jobs, --slurm-array and the local compare agree on what run N
 * is only through km_sweep_cell_of(), so its order (seed fastest, then
 * mode, the --sets values with the last given fastest, CPUs, era) is
 * checked here run by run; then the grouping of seeds into one row (the
 * means, min and max, "mixed"); then km_report_read(), which must give
 * the values jansson gives, skip what is not picked, and hand what it
 * does not understand to jansson.
 */
#include "test.h"

#include "cli/sweep.h"
#include "report/report_read.h"

#include <string.h>

static void plan_of(struct km_sweep_plan *p, struct km_run_request *base, const char *seeds)
{
	km_run_request_init(base);
	struct km_sweep_spec spec = {
		.file = "x.lua", .modes = "semaphore,mutex", .cpus = "2,4", .seeds = seeds,
		.sets = { "a=1,2", "b=x,y,z" }, .nsets = 2, .base = base,
	};
	char err[256];
	assert_int_equal(km_sweep_plan_init(p, &spec, NULL, err, sizeof(err)), 0);
}

static void test_sweep_numbering(void **state)
{
	static const char *const bvals[] = { "x", "y", "z" };
	struct km_sweep_plan p;
	struct km_run_request base;
	plan_of(&p, &base, "7..9");
	assert_int_equal(p.ncells, 2 * 2 * 3 * 2);
	assert_int_equal(p.nruns, 2 * 2 * 3 * 2 * 3);
	long run = 0;
	for (int c = 0; c < 2; c++)
		for (int a = 0; a < 2; a++)
			for (int b = 0; b < 3; b++)
				for (int m = 0; m < 2; m++)
					for (int s = 0; s < 3; s++, run++) {
						struct km_sweep_cell cell;
						km_sweep_cell_of(&p, run, &cell);
						assert_int_equal(cell.cpus, c ? 4 : 2);
						assert_string_equal(cell.values[0], a ? "2" : "1");
						assert_string_equal(cell.values[1], bvals[b]);
						assert_string_equal(km_mode_name(cell.mode),
								    m ? "mutex" : "semaphore");
						assert_true(cell.has_seed);
						assert_int_equal(cell.seed, 7 + s);
						assert_null(cell.era);
					}
	km_sweep_plan_free(&p);
}

static void test_sweep_request_replaces_a_set(void **state)
{
	struct km_sweep_plan p;
	struct km_run_request base, rq;
	struct km_param_set fixed[2] = { { .name = "a", .value = "9" }, { .name = "c", .value = "3" } };
	plan_of(&p, &base, NULL);
	base.sets = fixed;
	base.nsets = 2;
	struct km_param_set sets[4];
	km_sweep_request(&p, 5, &rq, sets);	/* cpus 2, a=1, b=z, mutex */
	assert_int_equal(rq.nsets, 3);
	assert_string_equal(rq.sets[0].name, "c");
	assert_string_equal(rq.sets[1].name, "a");
	assert_string_equal(rq.sets[1].value, "1");
	assert_string_equal(rq.sets[2].value, "z");
	assert_string_equal(km_mode_name(rq.mode), "mutex");
	assert_false(rq.has_seed);
	km_sweep_plan_free(&p);
}

static void test_sweep_bad_options(void **state)
{
	struct km_run_request base;
	struct km_sweep_plan p;
	char err[256];
	km_run_request_init(&base);
	struct km_sweep_spec bad[] = {
		{ .modes = "mutex,frob", .base = &base },
		{ .cpus = "2,0", .base = &base },
		{ .seeds = "9..3", .base = &base },
		{ .sets = { "a=1", "a=2" }, .nsets = 2, .base = &base },
		{ .sets = { "=1" }, .nsets = 1, .base = &base },
		{ .seeds = "1..2000000", .base = &base },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		assert_int_equal(km_sweep_plan_init(&p, &bad[i], NULL, err, sizeof(err)), -1);
		assert_true(err[0] == '-');	/* names the option */
	}
}

static void test_sweep_values_order_as_numbers(void **state)
{
	assert_true(km_sweep_value_cmp("8", "16") < 0);
	assert_true(km_sweep_value_cmp("16", "8") > 0);
	assert_true(km_sweep_value_cmp("8", "abc") < 0);
	assert_true(km_sweep_value_cmp("false", "true") < 0);
	assert_true(km_sweep_value_eq("8", "8.0"));
	assert_false(km_sweep_value_eq("8", "9"));
	assert_true(km_sweep_value_eq("on", "on"));
}

static json_t *summary(const char *outcome, json_int_t t, double acq, json_int_t exit_status)
{
	json_t *r = json_pack("{s:s, s:s, s:i, s:I, s:s, s:n, s:I, s:f, s:I, s:I, s:I, s:f, s:f, "
			      "s:f, s:f, s:{s:I}, s:{s:i}, s:i, s:i}",
			      "mode", "mutex", "era", "2009", "cpus", 4, "exit", exit_status,
			      "outcome", outcome, "reason", "sim_time_ns", t,
			      "acquisitions_per_s", acq, "contentions", (json_int_t)3,
			      "wait_avg_ns", t / 10, "wait_max_ns", t / 5, "busy_pct", 50.0,
			      "spin_pct", 10.0, "irq_pct", 0.0, "idle_pct", 40.0, "p99_ns", "op", t,
			      "violations", "lock-order", 1, "checks_ok", 1, "checks", 2);
	assert_non_null(r);
	return r;
}

static void test_sweep_group_means_and_spread(void **state)
{
	json_t *rows[3] = {
		summary("completed", 100, 10.0, 0), summary("completed", 200, 40.0, 0),
		summary("deadlock", 600, 100.0, 3),
	};
	json_t *row = km_sweep_group(rows, 3);
	assert_non_null(row);
	assert_string_equal(json_string_value(json_object_get(row, "outcome")), "mixed");
	assert_int_equal(json_integer_value(json_object_get(row, "exit")), 3);
	assert_int_equal(json_integer_value(json_object_get(row, "sim_time_ns")), 300);
	assert_true(json_real_value(json_object_get(row, "acquisitions_per_s")) == 50.0);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(row, "p99_ns"), "op")),
			 300);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(row, "violations"),
							     "lock-order")), 3);
	assert_int_equal(json_integer_value(json_object_get(row, "checks")), 6);
	assert_int_equal(json_integer_value(json_object_get(row, "seeds")), 3);
	json_t *outcomes = json_object_get(row, "outcomes");
	assert_int_equal(json_integer_value(json_object_get(outcomes, "completed")), 2);
	assert_int_equal(json_integer_value(json_object_get(outcomes, "deadlock")), 1);
	json_t *acq = json_object_get(json_object_get(row, "spread"), "acquisitions_per_s");
	assert_true(json_real_value(json_object_get(acq, "min")) == 10.0);
	assert_true(json_real_value(json_object_get(acq, "max")) == 100.0);
	/* the members of a one-seed row, in their order, then the new ones */
	const char *first = NULL;
	const char *key;
	json_t *v;
	json_object_foreach(row, key, v) {
		first = key;
		break;
	}
	assert_string_equal(first, "mode");
	json_decref(row);
	for (int i = 0; i < 3; i++)
		json_decref(rows[i]);
}

static void test_sweep_table_drops_what_says_nothing(void **state)
{
	json_t *rows = json_array();
	for (int i = 0; i < 2; i++) {
		json_t *r = summary("completed", 100, 1.0, 0);
		json_object_set_new(r, "params", json_pack("{s:s, s:s}", "a", i ? "2" : "1", "b", "x"));
		json_t *g = km_sweep_group(&r, 1);
		json_array_append_new(rows, g);
		json_decref(r);
	}
	json_t *table = km_sweep_table("s", "s.lua", rows);
	json_t *row = json_array_get(json_object_get(table, "runs"), 0);
	assert_null(json_object_get(row, "seeds"));
	assert_null(json_object_get(row, "spread"));
	json_t *params = json_object_get(row, "params");
	assert_int_equal(json_object_size(params), 1);
	assert_string_equal(json_string_value(json_object_get(params, "a")), "1");
	json_decref(table);
}

static const struct km_pick inner[] = { { "keep", NULL }, { NULL, NULL } };
static const struct km_pick pick[] = {
	{ "a", NULL }, { "list", inner }, { "map", NULL }, { "s", NULL }, { NULL, NULL },
};

static void test_report_read_picks_like_jansson(void **state)
{
	static const char text[] =
		"{\n  \"skip\": [1, {\"x\": \"]}\"}, [2]],\n  \"a\": -12,\n"
		"  \"list\": [{\"keep\": 1.5e3, \"drop\": {\"y\": [true]}}, {\"keep\": null}],\n"
		"  \"map\": {\"k\": false, \"z\": \"v\"},\n  \"s\": \"plain\", \"tail\": 0 }\n";
	json_error_t err;
	json_t *got = km_report_read(text, strlen(text), pick, &err);
	json_t *want = json_pack("{s:i, s:[{s:f}, {s:n}], s:{s:b, s:s}, s:s}", "a", -12, "list",
				 "keep", 1500.0, "keep", "map", "k", 0, "z", "v", "s", "plain");
	assert_non_null(got);
	assert_true(json_equal(got, want));
	json_decref(got);
	json_decref(want);
}

static void test_report_read_hands_the_rest_to_jansson(void **state)
{
	/* an escape: jansson reads it, the picked members are kept */
	static const char esc[] = "{\"s\": \"a\\\"b\", \"other\": 1}";
	json_error_t err;
	json_t *got = km_report_read(esc, strlen(esc), pick, &err);
	assert_non_null(got);
	assert_string_equal(json_string_value(json_object_get(got, "s")), "a\"b");
	assert_null(json_object_get(got, "other"));
	json_decref(got);
	/* broken: jansson's error, with its line */
	static const char broken[] = "{\n\"a\": 1,\n\"list\": [1,\n";
	assert_null(km_report_read(broken, strlen(broken), pick, &err));
	assert_true(err.line >= 3);
	/* not an object: as jansson reads it */
	got = km_report_read("[1]", 3, pick, &err);
	assert_true(json_is_array(got));
	json_decref(got);
}

/*
 * What jansson refuses, the reader refuses, in a member it does not pick
 * as much as in one it does (issue 28, class 8: the reader of its own it
 * replaced took all of these, and overflowed the stack on the first).
 */
static void test_report_read_refuses_what_jansson_refuses(void **state)
{
	enum { DEEP = 100000 };
	char *deep = malloc(2 * DEEP + 64);
	assert_non_null(deep);
	size_t n = (size_t)sprintf(deep, "{\"a\": 1, \"params\": ");
	memset(deep + n, '[', DEEP);
	memset(deep + n + DEEP, ']', DEEP);
	n += 2 * DEEP;
	deep[n++] = '}';
	json_error_t err;
	assert_null(km_report_read(deep, n, pick, &err));
	assert_non_null(strstr(err.text, "depth"));
	free(deep);
	static const char *const bad[] = {
		"{\"a\": 1, \"skip\": \"raw\001control\"}",	/* a raw control byte */
		"{\"a\": 1, \"s\": \"tab\there\"}",		/* a raw tab, picked */
		"{\"a\": 1, \"skip\": [1, 2}}",			/* brackets that do not match */
		"{\"a\": 1, \"skip\": NaN}",				/* not a JSON number */
		"{\"a\": 1, \"skip\": [Infinity]}",
		"{\"a\": 1, \"skip\": 01}",				/* a leading zero */
		"{\"a\": 1, \"k\xff\": 2}",			/* a key that is not UTF-8 */
		"{\"a\": 1, \"a\": 2}",				/* a key given twice */
		"{\"a\": 1, \"skip\": tru}",
		"{\"a\": 1} trailing",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_t *got = km_report_read(bad[i], strlen(bad[i]), pick, &err);
		if (got)
			fail_msg("accepted: %s", bad[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sweep_numbering),
		cmocka_unit_test(test_sweep_request_replaces_a_set),
		cmocka_unit_test(test_sweep_bad_options),
		cmocka_unit_test(test_sweep_values_order_as_numbers),
		cmocka_unit_test(test_sweep_group_means_and_spread),
		cmocka_unit_test(test_sweep_table_drops_what_says_nothing),
		cmocka_unit_test(test_report_read_picks_like_jansson),
		cmocka_unit_test(test_report_read_hands_the_rest_to_jansson),
		cmocka_unit_test(test_report_read_refuses_what_jansson_refuses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
