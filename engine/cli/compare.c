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
#include "runner.h"
#include "out.h"
#include "../view/view_plot.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Split "a,b,c" into at most @max pieces (copied into @buf). */
static int split(const char *list, char *buf, size_t buflen, char **out, int max)
{
	snprintf(buf, buflen, "%s", list);
	int n = 0;
	for (char *tok = strtok(buf, ","); tok && n < max; tok = strtok(NULL, ","))
		if (*tok)
			out[n++] = tok;
	return n;
}

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

/* ---------------------------------------------------------- the summary -- */

/* The figures of one run, from its JSON report, for the table. */
static json_t *summarise(const json_t *rep, int status, const char *mode, const char *era,
			 int cpus)
{
	json_t *row = json_object();
	json_object_set_new(row, "mode", json_string(mode));
	json_object_set_new(row, "era", json_string(era ? era : ""));
	json_object_set_new(row, "cpus", json_integer(cpus));
	json_object_set_new(row, "exit", json_integer(status));
	if (!rep) {
		json_object_set_new(row, "outcome", json_string("error"));
		json_object_set_new(row, "reason", json_string("the run crashed"));
		return row;
	}
	const char *outcome = json_string_value(json_object_get(rep, "outcome"));
	json_object_set(row, "outcome", json_object_get(rep, "outcome"));
	json_object_set(row, "reason", json_object_get(rep, "reason"));
	json_object_set(row, "era", json_object_get(rep, "era"));
	json_object_set(row, "cpus", json_object_get(rep, "cpus"));
	if (outcome && (!strcmp(outcome, "error") || !strcmp(outcome, "not-applicable")))
		return row;

	json_int_t t = json_integer_value(json_object_get(rep, "sim_time_ns"));
	json_int_t acq = 0, cont = 0, wtot = 0, wn = 0, wmax = 0;
	size_t i;
	json_t *l;
	json_array_foreach(json_object_get(rep, "locks"), i, l) {
		/* saturating: the sums of many locks' totals of 2^62 ns */
		acq = km_sat_add(acq, json_integer_value(json_object_get(l, "acquisitions")));
		cont = km_sat_add(cont, json_integer_value(json_object_get(l, "contentions")));
		json_t *w = json_object_get(l, "wait_ns");
		wtot = km_sat_add(wtot, json_integer_value(json_object_get(w, "total")));
		wn = km_sat_add(wn, json_integer_value(json_object_get(l, "waits")));
		json_int_t mx = json_integer_value(json_object_get(w, "max"));
		if (mx > wmax)
			wmax = mx;
	}
	/* in double: 1024 CPUs of 2^62 ns do not fit in an int64_t, and
	 * these sums only ever become shares */
	double busy = 0, spin = 0, irq = 0, idle = 0, sw = 0;
	json_t *c;
	json_array_foreach(json_object_get(rep, "cpus_util"), i, c) {
		busy += (double)json_integer_value(json_object_get(c, "busy_ns"));
		spin += (double)json_integer_value(json_object_get(c, "spin_ns"));
		irq += (double)json_integer_value(json_object_get(c, "irq_ns"));
		idle += (double)json_integer_value(json_object_get(c, "idle_ns"));
		sw += (double)json_integer_value(json_object_get(c, "switch_ns"));
	}
	double all = busy + spin + irq + idle + sw;
	json_object_set_new(row, "sim_time_ns", json_integer(t));
	json_object_set_new(row, "acquisitions_per_s",
			    json_real(t > 0 ? (double)acq * 1e9 / (double)t : 0));
	/* the first counter as the scenario's own measure of work */
	const char *cname;
	json_t *cv;
	json_object_foreach(json_object_get(rep, "counters"), cname, cv) {
		json_object_set_new(row, "counter", json_string(cname));
		json_object_set_new(row, "counter_per_s", json_real(t > 0 ?
			(double)json_integer_value(json_object_get(cv, "value")) * 1e9 / (double)t : 0));
		break;
	}
	json_object_set_new(row, "contentions", json_integer(cont));
	json_object_set_new(row, "wait_avg_ns", json_integer(wn ? wtot / wn : 0));
	json_object_set_new(row, "wait_max_ns", json_integer(wmax));
	json_object_set_new(row, "busy_pct", json_real(all > 0 ? 100.0 * (busy + sw) / all : 0));
	json_object_set_new(row, "spin_pct", json_real(all > 0 ? 100.0 * spin / all : 0));
	json_object_set_new(row, "irq_pct", json_real(all > 0 ? 100.0 * irq / all : 0));
	json_object_set_new(row, "idle_pct", json_real(all > 0 ? 100.0 * idle / all : 0));
	json_t *p99 = json_object();
	const char *oname;
	json_t *ov;
	json_object_foreach(json_object_get(rep, "ops"), oname, ov)
		json_object_set(p99, oname, json_object_get(ov, "p99_ns"));
	json_object_set_new(row, "p99_ns", p99);
	json_object_set(row, "violations", json_object_get(rep, "violation_counts"));
	int ok = 0, n = 0;
	json_t *ck;
	json_array_foreach(json_object_get(rep, "checks"), i, ck) {
		n++;
		ok += json_is_true(json_object_get(ck, "ok"));
	}
	json_object_set_new(row, "checks_ok", json_integer(ok));
	json_object_set_new(row, "checks", json_integer(n));
	return row;
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

static void print_text(const json_t *table)
{
	const json_t *rows = json_object_get(table, "runs");
	/* the measure() names, in the order first seen */
	const char *names[8];
	int nn = 0;
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
	printf("%-10s %-6s %5s %-10s %10s %12s %9s %10s %10s %6s %6s %6s",
	       "mode", "era", "cpus", "outcome", "sim time", "acq/s", "contended",
	       "wait avg", "wait max", "busy", "spin", "idle");
	for (int j = 0; j < nn; j++)
		printf(" %11.11s", names[j]);
	printf("  %s\n", "violations");
	json_array_foreach(rows, i, row) {
		const char *outcome = json_string_value(json_object_get(row, "outcome"));
		printf("%-10s %-6s %5lld %-10s", json_string_value(json_object_get(row, "mode")),
		       json_string_value(json_object_get(row, "era")),
		       (long long)json_integer_value(json_object_get(row, "cpus")), outcome);
		if (!json_object_get(row, "sim_time_ns")) {
			const char *why = json_string_value(json_object_get(row, "reason"));
			printf("  %s\n", why ? why : "");
			continue;
		}
		char t[32], w1[32], w2[32], v[256];
		printf(" %10s %12.0f %9lld %10s %10s %5.1f%% %5.1f%% %5.1f%%",
		       km_fmt_ns((km_time)num(row, "sim_time_ns"), t, sizeof(t)),
		       num(row, "acquisitions_per_s"), (long long)num(row, "contentions"),
		       km_fmt_ns((km_time)num(row, "wait_avg_ns"), w1, sizeof(w1)),
		       km_fmt_ns((km_time)num(row, "wait_max_ns"), w2, sizeof(w2)),
		       num(row, "busy_pct"), num(row, "spin_pct"), num(row, "idle_pct"));
		for (int j = 0; j < nn; j++) {
			json_t *p = json_object_get(json_object_get(row, "p99_ns"), names[j]);
			char b[32];
			printf(" %11s", p ? km_fmt_ns((km_time)json_integer_value(p), b, sizeof(b)) : "-");
		}
		violations_str(row, v, sizeof(v));
		printf("  %s\n", v);
	}
	if (nn)
		printf("(the columns after idle are the p99 of each measure())\n");
}

static void print_csv(const json_t *table)
{
	printf("mode,era,cpus,outcome,reason,sim_time_ns,acquisitions_per_s,contentions,"
	       "wait_avg_ns,wait_max_ns,busy_pct,spin_pct,idle_pct,p99,violations\n");
	size_t i;
	json_t *row;
	json_array_foreach(json_object_get(table, "runs"), i, row) {
		const char *reason = json_string_value(json_object_get(row, "reason"));
		char r[600] = "";
		size_t k = 0;
		for (const char *p = reason ? reason : ""; *p && k + 2 < sizeof(r); p++) {
			if (*p == '"')
				r[k++] = '"';
			r[k++] = *p;
		}
		r[k] = 0;
		char p99[256] = "", v[256];
		size_t off = 0;
		const char *key;
		json_t *val;
		json_object_foreach(json_object_get(row, "p99_ns"), key, val)
			off += (size_t)snprintf(p99 + off, off < sizeof(p99) ? sizeof(p99) - off : 0,
						"%s%s=%lld", off ? " " : "", key,
						(long long)json_integer_value(val));
		violations_str(row, v, sizeof(v));
		printf("%s,%s,%lld,%s,\"%s\",%lld,%.1f,%lld,%lld,%lld,%.2f,%.2f,%.2f,\"%s\",\"%s\"\n",
		       json_string_value(json_object_get(row, "mode")),
		       json_string_value(json_object_get(row, "era")),
		       (long long)json_integer_value(json_object_get(row, "cpus")),
		       json_string_value(json_object_get(row, "outcome")), r,
		       (long long)num(row, "sim_time_ns"), num(row, "acquisitions_per_s"),
		       (long long)num(row, "contentions"), (long long)num(row, "wait_avg_ns"),
		       (long long)num(row, "wait_max_ns"), num(row, "busy_pct"),
		       num(row, "spin_pct"), num(row, "idle_pct"), p99, v);
	}
}

int km_compare_command(const struct km_compare_opts *o)
{
	static const char *const all_modes = "native,cli,bkl,spinlock,semaphore,mutex";
	char mbuf[256], ebuf[512], cbuf[512];
	char *modes[16], *eras[64], *cpus[32];
	int nm = split(o->modes ? o->modes : all_modes, mbuf, sizeof(mbuf), modes, 16);
	int ne = o->eras ? split(o->eras, ebuf, sizeof(ebuf), eras, 64) : 1;
	int nc = o->cpus ? split(o->cpus, cbuf, sizeof(cbuf), cpus, 32) : 1;
	if (!nm || !ne || !nc) {
		km_out_fail("%s: an empty list", !nm ? "--modes" : !ne ? "--eras" :
			"--cpus");
		return 2;
	}
	if (!o->eras)
		eras[0] = NULL;
	if (!o->cpus)
		cpus[0] = NULL;
	int modev[16], cpuv[32];
	for (int i = 0; i < nm; i++) {
		modev[i] = km_mode_parse(modes[i]);
		if (modev[i] == -2) {
			km_out_fail("--modes: unknown mode '%s' (modes: native, cli, "
				"bkl, spinlock, semaphore, mutex)", modes[i]);
			return 2;
		}
	}
	for (int i = 0; i < nc; i++) {
		char *end;
		long v = cpus[i] ? strtol(cpus[i], &end, 10) : 0;
		if (cpus[i] && (*end || v < 1 || v > KM_MAX_CPUS)) {
			km_out_fail("--cpus: '%s' is not a CPU count from 1 to %d",
				cpus[i], KM_MAX_CPUS);
			return 2;
		}
		cpuv[i] = (int)v;
	}
	struct km_era_list list;
	char err[1024];
	if (km_load_eras(&list, err, sizeof(err)) < 0) {
		km_out_fail("%s", err);
		return 2;
	}
	for (int i = 0; i < ne; i++) {
		if (eras[i] && !km_eras_find(&list, eras[i])) {
			km_out_fail("--eras: unknown era '%s'", eras[i]);
			km_eras_free(&list);
			return 2;
		}
	}
	int n = nm * ne * nc;
	struct km_run_request *rqs = calloc((size_t)n, sizeof(*rqs));
	struct km_run_result *res = calloc((size_t)n, sizeof(*res));
	if (!rqs || !res) {
		free(rqs);
		free(res);
		km_eras_free(&list);
		return 2;
	}
	int k = 0;
	for (int e = 0; e < ne; e++)
		for (int c = 0; c < nc; c++)
			for (int m = 0; m < nm; m++, k++) {
				rqs[k] = *o->base;
				rqs[k].file = o->file;
				rqs[k].era = eras[e];
				rqs[k].cpus = cpuv[c];
				rqs[k].mode = modev[m];
			}
	km_run_parallel(&list, rqs, n, o->jobs, res, progress_bar, NULL);

	json_t *table = json_object();
	json_t *rows = json_array();
	const char *scen = NULL;
	int status = 0;
	k = 0;
	for (int e = 0; e < ne; e++)
		for (int c = 0; c < nc; c++)
			for (int m = 0; m < nm; m++, k++) {
				json_array_append_new(rows, summarise(res[k].report, res[k].status,
					km_mode_name(modev[m]), eras[e], cpuv[c]));
				if (res[k].report && !scen)
					scen = json_string_value(json_object_get(res[k].report, "scenario"));
				const char *oc = res[k].report ? json_string_value(
					json_object_get(res[k].report, "outcome")) : "error";
				if (oc && !strcmp(oc, "error"))
					status = 2;
			}
	json_object_set_new(table, "scenario", json_string(scen ? scen : o->file));
	json_object_set_new(table, "file", json_string(o->file));
	json_object_set_new(table, "runs", rows);
	/* the plot first: with --report json, its failure is the outcome */
	char why[1200] = "";
	km_writing_output++;
	if (o->plot && km_view_plot_png(table, o->plot, 1600, 800, err, sizeof(err)) < 0) {
		snprintf(why, sizeof(why), "--plot %s: %s", o->plot, err);
		status = 2;
	}
	km_writing_output--;
	json_object_set_new(table, "outcome", json_string(status == 2 ? "error" : "completed"));
	json_object_set_new(table, "reason", why[0] ? json_string(why) : status == 2 ?
			    json_string("some runs ended in an error (see the table)") : json_null());
	switch (o->format) {
	case KM_TABLE_JSON:
		km_report_write_json(stdout, table);
		km_out_json_sent();
		break;
	case KM_TABLE_CSV:
		print_csv(table);
		break;
	case KM_TABLE_TEXT:
		printf("%s (%s): %d runs\n\n", scen ? scen : o->file, o->file, n);
		print_text(table);
		break;
	}
	if (why[0])
		km_out_fail("%s", why);
	/* a combination that could not even start is worth a line on stderr */
	else if (status == 2)
		km_out_fail("some runs ended in an error (see the table)");
	json_decref(table);
	km_run_results_free(res, n);
	free(rqs);
	free(res);
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
	const char *goal = o->goal ? o->goal : "violation";
	bool is_max = !strncmp(goal, "max:", 4);
	if (!is_max && strcmp(goal, "violation") && strcmp(goal, "deadlock")) {
		km_out_fail("--goal %s: must be violation, deadlock or "
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
	if (is_max && status != 2) {
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
