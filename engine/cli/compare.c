/*
 * compare.c - one scenario across modes, eras and CPU counts; and the
 * search for the seed that breaks it.
 *
 * compare runs every combination of --modes x --eras x --cpus (through
 * runner.c, in parallel processes) and lays the results out as one table
 * a kernel developer can read down a column: outcome, simulated time,
 * throughput, contention, waits, the CPU split, each measure()'s p99 and
 * the violations.  A combination that cannot run says why in its row.
 *
 * explore runs one configuration under many seeds and reports the first
 * seed that reaches the goal (a violation, a deadlock) or the worst one
 * for a measure, with the command line that replays it exactly.
 */
#include "compare.h"
#include "explore_schedules.h"
#include "runner.h"
#include "out.h"
#include "sweep.h"
#include "view_lib.h"
#include "../text_escape.h"

#include <errno.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void progress_bar(int done, int total, void *ud)
{
	(void)ud;
	if (!isatty(STDERR_FILENO))
		return;
	int width = 30, fill = total ? done * width / total : width;
	fprintf(stderr, "\r  [%.*s%*s] %d/%d runs", fill, "##############################",
		width - fill, "", done, total);
	if (done == total)
		fputs("\r\033[K", stderr);
	fflush(stderr);
}

static double num(const json_t *row, const char *key)
{
	json_t *v = json_object_get(row, key);
	return json_is_real(v) ? json_real_value(v) : (double)json_integer_value(v);
}

static void violations_str(const json_t *row, char *buf, size_t len)
{
	buf[0] = 0;
	size_t off = 0;
	const char *k;
	json_t *v;
	json_object_foreach(json_object_get(row, "violations"), k, v)
		off += (size_t)snprintf(buf + off, off < len ? len - off : 0, "%s%s:%lld",
					off ? " " : "", k, (long long)json_integer_value(v));
	if (!buf[0])
		snprintf(buf, len, "-");
}

/* The swept parameters of the table (those in a row's "params"), in order. */
static int param_names(const json_t *rows, const char **names, int max)
{
	int n = 0;
	size_t i;
	json_t *row;
	json_array_foreach(rows, i, row) {
		const char *k;
		json_t *v;
		json_object_foreach(json_object_get(row, "params"), k, v) {
			bool seen = false;
			for (int j = 0; j < n; j++)
				seen |= !strcmp(names[j], k);
			if (!seen && n < max)
				names[n++] = k;
		}
	}
	return n;
}

static bool several_seeds(const json_t *rows)
{
	return json_array_size(rows) && json_object_get(json_array_get(rows, 0), "seeds");
}

static const char *param_value(const json_t *row, const char *name)
{
	const char *v = json_string_value(json_object_get(json_object_get(row, "params"), name));
	return v ? v : "-";
}

static double spread(const json_t *row, const char *key, const char *end)
{
	json_t *v = json_object_get(json_object_get(json_object_get(row, "spread"), key), end);
	return json_is_real(v) ? json_real_value(v) : (double)json_integer_value(v);
}

/* A whole number of a row as it is: through a double, INT64_MAX would
 * come back as 2^63, which no long long holds. */
static long long whole(const json_t *v)
{
	if (json_is_integer(v))
		return (long long)json_integer_value(v);
	return (long long)km_sweep_sat_round(json_real_value(v));
}

static long long inum(const json_t *row, const char *key)
{
	return whole(json_object_get(row, key));
}

static long long ispread(const json_t *row, const char *key, const char *end)
{
	return whole(json_object_get(json_object_get(json_object_get(row, "spread"), key), end));
}

/* "4/4", "3/4" (passed of all), or "-" for a run without checks */
static const char *checks_str(const json_t *row, char *buf, size_t len)
{
	long long n = inum(row, "checks"), ok = inum(row, "checks_ok");
	if (n <= 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%lld/%lld", ok, n);
	return buf;
}

static void print_text(const json_t *table)
{
	const json_t *rows = json_object_get(table, "runs");
	/* the measure() names, in the order first seen */
	const char *names[8], *params[KM_SWEEP_MAX_PARAMS];
	int nn = 0, np = param_names(rows, params, KM_SWEEP_MAX_PARAMS), pw[KM_SWEEP_MAX_PARAMS];
	bool seeds = several_seeds(rows);
	size_t i;
	json_t *row;
	json_array_foreach(rows, i, row) {
		const char *k;
		json_t *v;
		json_object_foreach(json_object_get(row, "p99_ns"), k, v) {
			bool seen = false;
			for (int j = 0; j < nn; j++)
				seen |= !strcmp(names[j], k);
			if (!seen && nn < 8)
				names[nn++] = k;
		}
	}
	for (int j = 0; j < np; j++) {
		pw[j] = (int)strlen(params[j]);
		json_array_foreach(rows, i, row)
			if ((int)strlen(param_value(row, params[j])) > pw[j])
				pw[j] = (int)strlen(param_value(row, params[j]));
		pw[j] = pw[j] > 16 ? 16 : pw[j];
	}
	printf("%-10s %-6s %5s", "mode", "era", "cpus");
	for (int j = 0; j < np; j++)
		printf(" %-*.*s", pw[j], pw[j], params[j]);
	if (seeds)
		printf(" %5s", "seeds");
	printf(" %-10s %10s %12s", "outcome", "sim time", "acq/s");
	if (seeds)
		printf(" %12s %12s", "acq/s min", "acq/s max");
	printf(" %9s %10s %10s %6s %6s %6s", "contended", "wait avg", "wait max", "busy", "spin",
	       "idle");
	for (int j = 0; j < nn; j++)
		printf(" %11.11s", names[j]);
	printf(" %7s  %s\n", "checks", "violations");
	json_array_foreach(rows, i, row) {
		const char *outcome = json_string_value(json_object_get(row, "outcome"));
		printf("%-10s %-6s %5lld", json_string_value(json_object_get(row, "mode")),
		       json_string_value(json_object_get(row, "era")),
		       (long long)json_integer_value(json_object_get(row, "cpus")));
		for (int j = 0; j < np; j++)
			printf(" %-*.*s", pw[j], pw[j], param_value(row, params[j]));
		if (seeds)
			printf(" %5lld", (long long)json_integer_value(json_object_get(row, "seeds")));
		printf(" %-10s", outcome);
		if (!json_object_get(row, "sim_time_ns")) {
			const char *why = json_string_value(json_object_get(row, "reason"));
			printf("  %s\n", why ? why : "");
			continue;
		}
		char t[32], w1[32], w2[32], v[256];
		printf(" %10s %12.0f", km_fmt_ns((km_time)inum(row, "sim_time_ns"), t, sizeof(t)),
		       num(row, "acquisitions_per_s"));
		if (seeds)
			printf(" %12.0f %12.0f", spread(row, "acquisitions_per_s", "min"),
			       spread(row, "acquisitions_per_s", "max"));
		printf(" %9lld %10s %10s %5.1f%% %5.1f%% %5.1f%%", inum(row, "contentions"),
		       km_fmt_ns((km_time)inum(row, "wait_avg_ns"), w1, sizeof(w1)),
		       km_fmt_ns((km_time)inum(row, "wait_max_ns"), w2, sizeof(w2)),
		       num(row, "busy_pct"), num(row, "spin_pct"), num(row, "idle_pct"));
		for (int j = 0; j < nn; j++) {
			json_t *p = json_object_get(json_object_get(row, "p99_ns"), names[j]);
			char b[32];
			printf(" %11s", p ? km_fmt_ns((km_time)json_integer_value(p), b, sizeof(b)) : "-");
		}
		violations_str(row, v, sizeof(v));
		printf(" %7s  %s\n", checks_str(row, t, sizeof(t)), v);
	}
	if (nn)
		printf("(the columns after idle are the p99 of each measure())\n");
	if (seeds)
		printf("(each row: the mean over its seeds, acq/s also the lowest and highest; "
		       "violations add up; \"mixed\": the seeds' outcomes differ)\n");
}

static void csv_quoted(const char *s, char *r, size_t len)
{
	size_t k = 0;
	for (const char *p = s ? s : ""; *p && k + 2 < len; p++) {
		if (*p == '"')
			r[k++] = '"';
		r[k++] = *p;
	}
	r[k] = 0;
}

/* "a=1 b=2" of the members of @obj */
static void pairs_str(const json_t *obj, char *buf, size_t len)
{
	size_t off = 0;
	const char *key;
	json_t *val;
	buf[0] = 0;
	json_object_foreach((json_t *)obj, key, val) {
		if (json_is_string(val))
			off += (size_t)snprintf(buf + off, off < len ? len - off : 0, "%s%s=%s",
						off ? " " : "", key, json_string_value(val));
		else
			off += (size_t)snprintf(buf + off, off < len ? len - off : 0, "%s%s=%lld",
						off ? " " : "", key,
						(long long)json_integer_value(val));
	}
}

static void print_csv(const json_t *table)
{
	const json_t *rows = json_object_get(table, "runs");
	const char *params[KM_SWEEP_MAX_PARAMS];
	bool swept = param_names(rows, params, KM_SWEEP_MAX_PARAMS) > 0;
	bool seeds = several_seeds(rows);
	printf("mode,era,cpus,outcome,reason,sim_time_ns,acquisitions_per_s,contentions,"
	       "wait_avg_ns,wait_max_ns,busy_pct,spin_pct,idle_pct,p99,violations,checks_ok,"
	       "checks%s%s\n",
	       swept ? ",params" : "", seeds ? ",seeds,outcomes,sim_time_ns_min,sim_time_ns_max,"
	       "acquisitions_per_s_min,acquisitions_per_s_max" : "");
	size_t i;
	json_t *row;
	json_array_foreach(rows, i, row) {
		char r[600], p99[256], v[256], q[600];
		csv_quoted(json_string_value(json_object_get(row, "reason")), r, sizeof(r));
		pairs_str(json_object_get(row, "p99_ns"), p99, sizeof(p99));
		violations_str(row, v, sizeof(v));
		printf("%s,%s,%lld,%s,\"%s\",%lld,%.1f,%lld,%lld,%lld,%.2f,%.2f,%.2f,\"%s\",\"%s\"",
		       json_string_value(json_object_get(row, "mode")),
		       json_string_value(json_object_get(row, "era")),
		       (long long)json_integer_value(json_object_get(row, "cpus")),
		       json_string_value(json_object_get(row, "outcome")), r,
		       inum(row, "sim_time_ns"), num(row, "acquisitions_per_s"),
		       inum(row, "contentions"), inum(row, "wait_avg_ns"),
		       inum(row, "wait_max_ns"), num(row, "busy_pct"),
		       num(row, "spin_pct"), num(row, "idle_pct"), p99, v);
		printf(",%lld,%lld", inum(row, "checks_ok"), inum(row, "checks"));
		if (swept) {
			pairs_str(json_object_get(row, "params"), p99, sizeof(p99));
			csv_quoted(p99, q, sizeof(q));
			printf(",\"%s\"", q);
		}
		if (seeds) {
			pairs_str(json_object_get(row, "outcomes"), v, sizeof(v));
			printf(",%lld,\"%s\",%lld,%lld,%.1f,%.1f",
			       (long long)json_integer_value(json_object_get(row, "seeds")), v,
			       ispread(row, "sim_time_ns", "min"),
			       ispread(row, "sim_time_ns", "max"),
			       spread(row, "acquisitions_per_s", "min"),
			       spread(row, "acquisitions_per_s", "max"));
		}
		putchar('\n');
	}
}

/*
 * A copy of @v whose every string and key has its control characters
 * escaped (text_escape.h): the table's text comes from reports, which
 * `compare --from` reads from anywhere, and its reason, file, params...
 * must not steer the terminal the table is printed on.  NULL: out of
 * memory.
 */
static json_t *escaped_copy(const json_t *v)
{
	char buf[4096];
	if (json_is_string(v)) {
		km_escape(buf, sizeof(buf), json_string_value(v));
		return json_string_nocheck(buf);	/* bytes as they were, escaped */
	}
	if (json_is_array(v)) {
		json_t *a = json_array();
		size_t i;
		json_t *e;
		json_array_foreach(v, i, e)
			json_array_append_new(a, escaped_copy(e));
		return a;
	}
	if (json_is_object(v)) {
		json_t *o = json_object();
		const char *k;
		json_t *e;
		json_object_foreach((json_t *)v, k, e) {
			km_escape(buf, sizeof(buf), k);
			json_object_set_new_nocheck(o, buf, escaped_copy(e));
		}
		return o;
	}
	return json_deep_copy(v);
}

int km_compare_print(json_t *table, enum km_table_format format, int nruns, const char *plot)
{
	if (km_interrupted) {
		/* runs stopped by a Ctrl-C are no table: with --report json,
		 * the interrupted object (km_out_json_fallback) */
		fprintf(stderr, "lockmuseum: interrupted\n");
		return 130;
	}
	const char *scen = json_string_value(json_object_get(table, "scenario"));
	const char *file = json_string_value(json_object_get(table, "file"));
	int status = 0;
	/* the plot first: with --report json, its failure is the outcome */
	char why[1200] = "", err[1024];
	if (plot) {
		km_writing_output++;
		/* the view sets its data folder, for the fonts, when opened */
		const struct km_view_api *view = km_view_lib(err, sizeof(err));
		if (!view || view->plot_png(table, plot, 1600, 800, err, sizeof(err)) < 0) {
			snprintf(why, sizeof(why), "--plot %s: %s", plot, err);
			status = 2;
		}
		km_writing_output--;
	}
	size_t i;
	json_t *row;
	bool errors = false;
	json_array_foreach(json_object_get(table, "runs"), i, row) {
		const char *oc = json_string_value(json_object_get(row, "outcome"));
		errors |= (oc && !strcmp(oc, "error")) ||
			  json_object_get(json_object_get(row, "outcomes"), "error");
	}
	/* Otherwise the worst run decides, as `run` would have: a deadlock
	 * (3), else a failed check or a violation (1).  A combination the era
	 * did not have (not-applicable) is no failure of the others. */
	int worst = 0;
	json_array_foreach(json_object_get(table, "runs"), i, row) {
		const char *oc = json_string_value(json_object_get(row, "outcome"));
		json_int_t ex = json_integer_value(json_object_get(row, "exit"));
		if (oc && !strcmp(oc, "not-applicable"))
			continue;
		if (ex == 3 || (ex == 1 && worst == 0))
			worst = (int)ex;
	}
	if (errors)
		status = 2;
	else if (status == 0)
		status = worst;
	json_object_set_new(table, "outcome", json_string(status == 2 ? "error" : status == 3 ?
							   "deadlock" : "completed"));
	json_object_set_new(table, "reason", why[0] ? json_string(why) : errors ?
			    json_string("some runs ended in an error (see the table)") : json_null());
	switch (format) {
	case KM_TABLE_JSON: {
		/* whole or not at all: json_dumpf() stops half-way on a string
		 * it cannot write, and the fallback prints the error object */
		char *text = json_dumps(table, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		if (!text) {
			snprintf(why, sizeof(why), "the table cannot be written as JSON");
			status = 2;
			break;
		}
		printf("%s\n", text);
		free(text);
		km_out_json_sent();
		break;
	}
	case KM_TABLE_CSV:
	case KM_TABLE_TEXT: {
		json_t *shown = escaped_copy(table);
		if (!shown) {
			km_out_fail("out of memory");
			return 2;
		}
		if (format == KM_TABLE_CSV) {
			print_csv(shown);
		} else {
			scen = json_string_value(json_object_get(shown, "scenario"));
			file = json_string_value(json_object_get(shown, "file"));
			printf("%s (%s): %d runs\n\n", scen, file, nruns);
			print_text(shown);
		}
		json_decref(shown);
		break;
	}
	}
	bool lost = false;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		km_out_stdout_failed("the table", errno);
		status = 2;
		lost = true;
	}
	if (why[0])
		km_out_fail("%s", why);
	/* a combination that could not even start is worth a line on stderr
	 * (when there is a table to see) */
	else if (errors && !lost)
		km_out_fail("some runs ended in an error (see the table)");
	return status;
}

int km_compare_command(const struct km_compare_opts *o)
{
	struct km_era_list list;
	char err[1024];
	if (km_load_eras(&list, err, sizeof(err)) < 0) {
		km_out_fail("%s", err);
		return 2;
	}
	int status = 2;
	if (o->from) {
		int nruns = 0;
		json_t *table = km_sweep_merge(o->from, &list, &nruns, err, sizeof(err));
		if (!table)
			km_out_fail("%s", err);
		else
			status = km_compare_print(table, o->format, nruns, o->plot);
		json_decref(table);
		km_eras_free(&list);
		return status;
	}
	struct km_sweep_plan plan;
	if (km_sweep_plan_init(&plan, o->spec, &list, err, sizeof(err)) < 0) {
		km_out_fail("%s", err);
		km_eras_free(&list);
		return 2;
	}
	if (o->jobs_out) {
		status = km_sweep_print_jobs(&plan, o->jobs_out);
		goto out_plan;
	}
	long n = plan.nruns;
	int nsets = o->spec->base->nsets + plan.np;
	struct km_run_request *rqs = calloc((size_t)n, sizeof(*rqs));
	struct km_run_result *res = calloc((size_t)n, sizeof(*res));
	struct km_param_set *sets = calloc((size_t)n * (size_t)(nsets ? nsets : 1), sizeof(*sets));
	json_t *rows = json_array(), **seeds = calloc((size_t)plan.nseeds, sizeof(*seeds));
	if (!rqs || !res || !sets || !rows || !seeds) {
		km_out_fail("out of memory for %ld runs", n);
		goto out;
	}
	for (long k = 0; k < n; k++)
		km_sweep_request(&plan, k, &rqs[k], sets + k * nsets);
	km_run_parallel(&list, rqs, (int)n, o->jobs, res, progress_bar, NULL);

	const char *scen = NULL;
	for (long cell = 0, k = 0; cell < plan.ncells; cell++) {
		for (long s = 0; s < plan.nseeds; s++, k++) {
			seeds[s] = km_sweep_summarise(res[k].report, res[k].status,
						      km_mode_name(rqs[k].mode), rqs[k].era,
						      rqs[k].cpus);
			if (res[k].report && !scen)
				scen = json_string_value(json_object_get(res[k].report, "scenario"));
		}
		json_t *row = km_sweep_group(seeds, (int)plan.nseeds);
		for (long s = 0; s < plan.nseeds; s++)
			json_decref(seeds[s]);
		if (!row || json_array_append_new(rows, row) < 0) {
			km_out_fail("out of memory");
			goto out;
		}
	}
	json_t *table = km_sweep_table(scen ? scen : o->spec->file, o->spec->file, rows);
	rows = NULL;
	status = km_compare_print(table, o->format, (int)n, o->plot);
	json_decref(table);
out:
	json_decref(rows);
	free(seeds);
	if (res)
		km_run_results_free(res, (int)n);
	free(rqs);
	free(res);
	free(sets);
out_plan:
	km_sweep_plan_free(&plan);
	km_eras_free(&list);
	return status;
}

/* -------------------------------------------------------------- explore -- */

static bool hits(const json_t *rep, const char *goal)
{
	if (!rep)
		return false;
	if (!strcmp(goal, "deadlock"))
		return !strcmp(json_string_value(json_object_get(rep, "outcome")), "deadlock");
	if (!strcmp(goal, "violation"))
		return json_object_size(json_object_get(rep, "violation_counts")) > 0;
	if (!strcmp(goal, "check")) {
		size_t i;
		json_t *c;
		json_array_foreach(json_object_get(rep, "checks"), i, c)
			if (json_is_false(json_object_get(c, "ok")))
				return true;
	}
	return false;
}

/* max:ops.NAME.p99 (or .p50, .max): the value, or -1 */
static double measure_of(const json_t *rep, const char *goal)
{
	char name[256];
	const char *p = goal + 4;
	if (strncmp(p, "ops.", 4))
		return -1;
	p += 4;
	const char *dot = strrchr(p, '.');
	if (!dot || (size_t)(dot - p) >= sizeof(name))
		return -1;
	memcpy(name, p, (size_t)(dot - p));
	name[dot - p] = 0;
	char field[32];
	snprintf(field, sizeof(field), "%s_ns", dot + 1);
	if (!strcmp(dot + 1, "max"))
		snprintf(field, sizeof(field), "max_ns");
	json_t *op = json_object_get(json_object_get(rep, "ops"), name);
	json_t *v = json_object_get(op, field);
	return v ? (double)json_integer_value(v) : -1;
}

static void replay_line(const struct km_explore_opts *o, uint64_t seed)
{
	if (km_out_json)
		return;
	printf("replay: lockmuseum run %s", o->file);
	/* every option of the explore command line but --seeds, --goal, --jobs */
	for (int i = 2; i < o->argc; i++) {
		const char *a = o->argv[i];
		if (!strcmp(a, o->file))
			continue;
		if (!strcmp(a, "--seeds") || !strcmp(a, "--goal") || !strcmp(a, "--jobs")) {
			i++;
			continue;
		}
		if (!strncmp(a, "--seeds=", 8) || !strncmp(a, "--goal=", 7) ||
		    !strncmp(a, "--jobs=", 7))
			continue;
		printf(" %s", a);
	}
	printf(" --seed %" PRIu64 "\n", seed);
}

int km_explore_command(const struct km_explore_opts *o)
{
	if (o->strategy) {
		struct km_strategy st;
		char why[256];
		if (km_strategy_parse(o->strategy, &st, why, sizeof(why)) < 0) {
			km_out_fail("--strategy %s: %s", o->strategy, why);
			return 2;
		}
		return km_explore_schedules(o, &st);
	}
	if (o->out) {
		km_out_fail("--out: explore saves a schedule only with --strategy");
		return 2;
	}
	const char *goal = o->goal ? o->goal : "violation";
	bool is_max = !strncmp(goal, "max:", 4);
	if (!is_max && strcmp(goal, "violation") && strcmp(goal, "deadlock") && strcmp(goal, "check")) {
		km_out_fail("--goal %s: must be violation, deadlock, check or "
			"max:ops.NAME.p99", goal);
		return 2;
	}
	/* how many seeds, minus one: the full 64-bit range must not wrap */
	uint64_t span = o->seed_hi >= o->seed_lo ? o->seed_hi - o->seed_lo : 0;
	if (o->seed_hi < o->seed_lo || span >= 1000000) {
		km_out_fail("--seeds: give a range A..B of at most 1,000,000 seeds");
		return 2;
	}
	struct km_era_list list;
	char err[1024];
	if (km_load_eras(&list, err, sizeof(err)) < 0) {
		km_out_fail("%s", err);
		return 2;
	}
	/* in batches, so that a hit early on stops the search early */
	int batch = o->jobs > 1 ? o->jobs * 4 : 16;
	struct km_run_request *rqs = calloc((size_t)batch, sizeof(*rqs));
	struct km_run_result *res = calloc((size_t)batch, sizeof(*res));
	int status = 1;
	double worst = -1;
	uint64_t worst_seed = 0, ran = 0;
	uint64_t count = span + 1, left = count;
	bool found = false;
	uint64_t found_seed = 0;
	json_t *hit = NULL;
	for (uint64_t s = o->seed_lo; rqs && res && left && status == 1 && !km_interrupted;) {
		int n = 0;
		for (; n < batch && left; n++, s++, left--) {
			rqs[n] = *o->base;
			rqs[n].file = o->file;
			rqs[n].seed = s;
			rqs[n].has_seed = true;
		}
		km_run_parallel(&list, rqs, n, o->jobs, res, NULL, NULL);
		for (int i = 0; i < n; i++, ran++) {
			if (km_interrupted)
				break;
			const json_t *rep = res[i].report;
			const char *oc = rep ? json_string_value(json_object_get(rep, "outcome")) : NULL;
			if (!rep || (oc && (!strcmp(oc, "error") || !strcmp(oc, "not-applicable")))) {
				km_out_fail("seed %" PRIu64 ": %s", rqs[i].seed,
					rep ? json_string_value(json_object_get(rep, "reason")) :
					"the run crashed");
				status = 2;
				break;
			}
			if (is_max) {
				double v = measure_of(rep, goal);
				if (v > worst) {
					worst = v;
					worst_seed = rqs[i].seed;
				}
			} else if (hits(rep, goal)) {
				if (!km_out_json)
					printf("seed %" PRIu64 " reaches the goal (%s) after %" PRIu64
					       " run%s: outcome %s\n", rqs[i].seed, goal, ran + 1,
					       ran ? "s" : "", oc);
				found = true;
				found_seed = rqs[i].seed;
				json_decref(hit);
				hit = json_incref(res[i].report);
				replay_line(o, rqs[i].seed);
				status = 0;
				break;
			}
		}
		km_run_results_free(res, n);
		if (isatty(STDERR_FILENO))
			progress_bar((int)(s - o->seed_lo), (int)count, NULL);
	}
	if (km_interrupted && status == 1) {
		/* stopped before its seeds were all run: nothing to claim */
		fprintf(stderr, "lockmuseum: interrupted\n");
		status = 130;
	} else if (is_max && status != 2) {
		if (worst < 0) {
			km_out_fail("--goal %s: no such measure in the report", goal);
			status = 2;
		} else {
			char b[32];
			if (!km_out_json)
				printf("worst seed %" PRIu64 " of %" PRIu64 ": %s = %s\n", worst_seed,
				       count, goal + 4, km_fmt_ns((km_time)worst, b, sizeof(b)));
			found = true;
			found_seed = worst_seed;
			replay_line(o, worst_seed);
			status = 0;
		}
	} else if (status == 1 && !km_out_json) {
		printf("no seed in %" PRIu64 "..%" PRIu64 " reaches the goal (%s)\n", o->seed_lo,
		       o->seed_hi, goal);
	}
	if (km_out_json && !km_interrupted && status != 2) {
		/* one object: what was searched, what was found, and the report
		 * of the run that reached the goal; exit 0 found, 1 not */
		json_t *j = json_object();
		json_object_set_new(j, "command", json_string("explore"));
		json_object_set_new(j, "goal", json_string(goal));
		json_object_set_new(j, "seed_lo", json_integer((json_int_t)o->seed_lo));
		json_object_set_new(j, "seed_hi", json_integer((json_int_t)o->seed_hi));
		json_object_set_new(j, "runs", json_integer((json_int_t)ran));
		json_object_set_new(j, "outcome", json_string("completed"));
		json_object_set_new(j, "reason", json_null());
		json_object_set_new(j, "found", json_boolean(found));
		json_object_set_new(j, "seed", found ? json_integer((json_int_t)found_seed) : json_null());
		if (is_max && found)
			json_object_set_new(j, "value_ns", json_integer((json_int_t)worst));
		json_object_set_new(j, "report", hit ? json_incref(hit) : json_null());
		km_report_write_json(stdout, j);
		km_out_json_sent();
		json_decref(j);
	}
	json_decref(hit);
	free(rqs);
	free(res);
	km_eras_free(&list);
	return status;
}
