/*
 * test_json_sink.c - the report's JSON sink (report/json_sink.c) and the
 * report described through it (report/report_json.c).
 *
 * The text sink promises the bytes jansson's dump would write for the
 * tree the tree sink builds.  Each test describes one value twice, once
 * into each sink, and compares the text with json_dumps() of the tree:
 * nesting, empty containers, every escape, text that is not UTF-8 (which
 * jansson refuses, so the member vanishes), keys that are not UTF-8, and
 * an all-or-nothing ("packed") object that fails.  Then whole reports of
 * real runs: km_report_print_json() against km_report_write_json() of
 * km_report_json(), and the small report plus its parts against the
 * whole.
 */
#include "test.h"

#include "cli/session.h"
#include "report/json_sink.h"
#include "report/report.h"
#include "unit_eras.h"

#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef void (*describe_fn)(struct km_jsink *s);

/* The text sink's output for @fn, as a string (the caller frees it). */
static char *as_text(describe_fn fn)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	struct km_jsink s;
	km_js_init_text(&s, f);
	fn(&s);
	assert_int_equal(km_js_finish_text(&s), 0);
	fclose(f);
	return buf;
}

/* jansson's dump of the tree sink's value for @fn ("" if dropped). */
static char *as_tree(describe_fn fn)
{
	struct km_jsink s;
	km_js_init_tree(&s);
	fn(&s);
	json_t *j = km_js_take_tree(&s);
	if (!j)
		return strdup("");
	char *out = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
	json_decref(j);
	return out;
}

static void same(describe_fn fn, const char *expect)
{
	char *t = as_text(fn), *j = as_tree(fn);
	assert_string_equal(t, j);
	if (expect)
		assert_string_equal(t, expect);
	free(t);
	free(j);
}

static void d_nested(struct km_jsink *s)
{
	km_js_object(s, NULL);
	km_js_str(s, "a", "x");
	km_js_int(s, "min", INT64_MIN);
	km_js_int(s, "max", INT64_MAX);
	km_js_int(s, "zero", 0);
	km_js_array(s, "empty_array");
	km_js_end(s);
	km_js_object(s, "empty_object");
	km_js_end(s);
	km_js_array(s, "list");
	km_js_int(s, NULL, -7);
	km_js_object(s, NULL);
	km_js_bool(s, "t", true);
	km_js_bool(s, "f", false);
	km_js_null(s, "n");
	km_js_end(s);
	km_js_end(s);
	km_js_end(s);
}

static void test_json_sink_nesting_matches_jansson(void **state)
{
	same(d_nested, "{\n  \"a\": \"x\",\n  \"min\": -9223372036854775808,\n"
	     "  \"max\": 9223372036854775807,\n  \"zero\": 0,\n  \"empty_array\": [],\n"
	     "  \"empty_object\": {},\n  \"list\": [\n    -7,\n    {\n      \"t\": true,\n"
	     "      \"f\": false,\n      \"n\": null\n    }\n  ]\n}");
}

static void d_escapes(struct km_jsink *s)
{
	km_js_object(s, NULL);
	km_js_str(s, "quote\"back\\slash/", "\"\\/\b\f\n\r\t\x01\x1f\x7f end");
	km_js_str(s, "utf8", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\x92");
	km_js_str(s, "empty", "");
	km_js_end(s);
}

static void test_json_sink_escapes_match_jansson(void **state)
{
	same(d_escapes, NULL);
}

static const char *const bad_utf8[] = {
	"\xff", "\x80", "\xc0\xaf", "\xc1\xbf", "\xe0\x80\xaf", "\xed\xa0\x80",
	"\xf0\x80\x80\xaf", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "ab\xc3", "\xe2\x82",
};
/* ... each as written: every byte outside a well-formed sequence as U+FFFD */
#define F "\xef\xbf\xbd"
static const char *const bad_utf8_fixed[] = {
	F, F, F F, F F, F F F, F F F, F F F F, F F F F, F F F F, "ab" F, F F,
};
#undef F
static int bad_i;

static void d_bad_value(struct km_jsink *s)
{
	char k1[32], k2[32];
	snprintf(k1, sizeof(k1), "k%s", bad_utf8[bad_i]);
	snprintf(k2, sizeof(k2), "o%s", bad_utf8[bad_i]);
	km_js_object(s, NULL);
	km_js_str(s, "before", "ok");
	km_js_str(s, "bad", bad_utf8[bad_i]);
	km_js_str(s, "null", NULL);
	km_js_array(s, "arr");
	km_js_str(s, NULL, bad_utf8[bad_i]);
	km_js_int(s, NULL, 1);
	km_js_end(s);
	km_js_int(s, k1, 5);
	km_js_object(s, k2);
	km_js_int(s, "inside", 1);
	km_js_end(s);
	km_js_str(s, "after", "ok");
	km_js_end(s);
}

/* Text that is not UTF-8 is written with U+FFFD, never dropped: a lock,
 * a task or a failed check once vanished from the report that way; and a
 * missing string is null. */
static void test_json_sink_bad_utf8_never_dropped(void **state)
{
	for (bad_i = 0; bad_i < (int)(sizeof(bad_utf8) / sizeof(bad_utf8[0])); bad_i++) {
		const char *r = bad_utf8_fixed[bad_i];
		char want[512];
		snprintf(want, sizeof(want), "{\n  \"before\": \"ok\",\n  \"bad\": \"%s\",\n"
			 "  \"null\": null,\n  \"arr\": [\n    \"%s\",\n    1\n  ],\n"
			 "  \"k%s\": 5,\n  \"o%s\": {\n    \"inside\": 1\n  },\n"
			 "  \"after\": \"ok\"\n}", r, r, r, r);
		same(d_bad_value, want);
	}
}

static void d_packed(struct km_jsink *s)
{
	km_js_object(s, NULL);
	km_js_array(s, "tasks");
	for (int i = 0; i < 3; i++) {
		km_js_packed(s, NULL);
		km_js_str(s, "name", i == 1 ? "bad\xff" : "good");
		km_js_int(s, "cpu", i);
		km_js_end(s);
	}
	km_js_end(s);
	km_js_packed(s, "gone");
	km_js_int(s, "v", 1);
	km_js_str(s, "unit", NULL);
	km_js_end(s);
	km_js_packed(s, "kept");
	km_js_int(s, "v", 2);
	km_js_end(s);
	km_js_end(s);
}

static void test_json_sink_packed_keeps_every_member(void **state)
{
	same(d_packed, "{\n  \"tasks\": [\n    {\n      \"name\": \"good\",\n      \"cpu\": 0\n"
	     "    },\n    {\n      \"name\": \"bad\xef\xbf\xbd\",\n      \"cpu\": 1\n    },\n"
	     "    {\n      \"name\": \"good\",\n      \"cpu\": 2\n    }\n  ],\n"
	     "  \"gone\": {\n    \"v\": 1,\n    \"unit\": null\n  },\n"
	     "  \"kept\": {\n    \"v\": 2\n  }\n}");
}

/* Long enough to flush several times on the way. */
static void d_big(struct km_jsink *s)
{
	km_js_array(s, NULL);
	for (int i = 0; i < 200000; i++) {
		km_js_packed(s, NULL);
		km_js_str(s, "name", i % 1000 == 7 ? "\xc3" : "w");
		km_js_int(s, "i", i);
		km_js_end(s);
	}
	km_js_end(s);
}

static void test_json_sink_large_value_flushes_and_rolls_back(void **state)
{
	same(d_big, NULL);
}

static void d_too_deep(struct km_jsink *s)
{
	for (int i = 0; i < KM_JS_DEPTH + 3; i++)
		km_js_array(s, NULL);
	km_js_int(s, NULL, 1);
	for (int i = 0; i < KM_JS_DEPTH + 3; i++)
		km_js_end(s);
}

static void test_json_sink_refuses_too_deep(void **state)
{
	struct km_jsink s;
	km_js_init_tree(&s);
	d_too_deep(&s);
	assert_null(km_js_take_tree(&s));
	FILE *f = tmpfile();
	assert_non_null(f);
	km_js_init_text(&s, f);
	d_too_deep(&s);
	assert_int_equal(km_js_finish_text(&s), -1);
	fclose(f);
}

/* ------------------------------------------------------- whole reports -- */

static struct km_era_list eras;

static int group_setup(void **state)
{
	return unit_load_eras(&eras);
}

static int group_teardown(void **state)
{
	km_eras_free(&eras);
	return 0;
}

static char *printed(const struct km_run_info *ri)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(km_report_print_json(f, ri), 0);
	fclose(f);
	return buf;
}

static char *dumped(const json_t *j)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(km_report_write_json(f, j), 0);
	fclose(f);
	return buf;
}

static void test_report_printed_equals_built(void **state)
{
	static const char *const files[] = {
		"scripts/kmod.lua", "scripts/printk.lua", "scripts/bkl.lua",
		"tests/scenarios/deadlock_abba.lua", "tests/scenarios/measure_ops.lua",
		"tests/scenarios/lost_update_cli_smp.lua", "tests/scenarios/bad_syntax.lua",
	};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[PATH_MAX + 64];
		snprintf(path, sizeof(path), "%s/%s", km_datadir(), files[i]);
		struct km_run_request rq;
		km_run_request_init(&rq);
		rq.file = path;
		struct km_session s;
		km_session_run(&s, &eras, &rq);
		json_t *whole = km_report_json(&s.ri);
		assert_non_null(whole);
		char *a = printed(&s.ri), *b = dumped(whole);
		assert_string_equal(a, b);
		free(a);
		free(b);

		/* the checks' report: the small one and its parts make the whole */
		json_t *small = km_report_json_small(&s.ri);
		assert_non_null(small);
		for (int k = 0; km_report_grown_keys[k]; k++) {
			assert_null(json_object_get(small, km_report_grown_keys[k]));
			json_t *part = km_report_json_part(&s.ri, km_report_grown_keys[k]);
			assert_non_null(part);
			assert_true(json_equal(part, json_object_get(whole, km_report_grown_keys[k])));
			json_object_set_new(small, km_report_grown_keys[k], part);
		}
		assert_true(json_equal(small, whole));
		assert_null(km_report_json_part(&s.ri, "no such key"));
		json_decref(small);
		json_decref(whole);
		km_session_free(&s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_sink_nesting_matches_jansson),
		cmocka_unit_test(test_json_sink_escapes_match_jansson),
		cmocka_unit_test(test_json_sink_bad_utf8_never_dropped),
		cmocka_unit_test(test_json_sink_packed_keeps_every_member),
		cmocka_unit_test(test_json_sink_large_value_flushes_and_rolls_back),
		cmocka_unit_test(test_json_sink_refuses_too_deep),
		cmocka_unit_test(test_report_printed_equals_built),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
