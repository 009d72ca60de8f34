/*
 * test_trace_export.c - the trace exporters (report/trace_export.c, the
 * walk; trace_chrome.c and trace_ftrace.c, the formats).
 *
 * Runs tests/trace/trace4.lua (four tasks on two CPUs: a contended
 * semaphore, spinlocks held A-B-release-A, a spinner, interrupts off, a
 * semaphore an interrupt handler up()s, a wait queue, a counter, a log
 * line) with its trace stored, writes both formats to temporary files
 * and reads them back: the Chrome file with jansson, the ftrace file line
 * by line.  What must hold, whatever the scenario: valid JSON with the
 * three keys; no negative duration; the X slices of every (pid, tid)
 * track nest strictly; every flow start has its end, inside a slice of
 * its track; every pid and tid used is named; counters for the locks.
 * For ftrace: the header, a sched_switch on every CPU that ran something,
 * B/E marks balanced on every thread, time never going back.  The same
 * again for a truncated trace, and for a few scenarios of the collection.
 * A spooled trace (report/trace_spool.h, what --trace uses) is exported
 * to the same bytes as the stored one, past the spool's window of slice
 * ends too, and a spool that could not be written fails the export with
 * the reason.
 */
#include "test.h"

#include "cli/session.h"
#include "report/trace_export.h"
#include "report/trace_spool.h"
#include "unit_eras.h"

#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

struct fx {
	struct km_era_list eras;
	bool eras_loaded;
};

static struct fx FX;

static int group_setup(void **state)
{
	if (unit_load_eras(&FX.eras) < 0)
		return -1;
	FX.eras_loaded = true;
	*state = &FX;
	return 0;
}

static int group_teardown(void **state)
{
	if (FX.eras_loaded)
		km_eras_free(&FX.eras);
	return 0;
}

/* Run @file (relative to the data folder) with its trace stored (if
 * @store, up to @limit records) and handed to @sink as emitted (if any). */
static void run_into(struct km_session *s, const char *file, size_t limit, bool store,
		     struct km_trace_sink *sink)
{
	static char path[PATH_MAX + 64];
	snprintf(path, sizeof(path), "%s/%s", km_datadir(), file);
	struct km_run_request rq;
	km_run_request_init(&rq);
	rq.file = path;
	rq.store_trace = store;
	rq.trace_limit = limit;
	rq.trace_sink = sink;
	int rc = km_session_run(s, &FX.eras, &rq);
	if (rc == 2)
		fprintf(stderr, "%s: %s\n", file, s->ri.reason);
	assert_true(rc != 2);
	assert_non_null(s->ri.sim);
}

/* Run @file with its trace kept. */
static void run(struct km_session *s, const char *file, size_t limit, bool store)
{
	run_into(s, file, limit, store, NULL);
}

/* ------------------------------------------------------------- Chrome -- */

static int64_t ns_of(const json_t *v)
{
	assert_true(json_is_number(v));
	return (int64_t)llround(json_number_value(v) * 1000.0);
}

static const char *str_of(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

struct xs {
	int64_t pid, tid, ts, end;
	const char *name;
};

static int cmp_xs(const void *a, const void *b)
{
	const struct xs *x = a, *y = b;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;	/* the longer one is the parent */
	return 0;
}

/* Is there an X slice on (pid, tid) with ts strictly inside it (or at
 * its start when it is too short to have an inside)? */
static bool inside_slice(const struct xs *v, size_t n, int64_t pid, int64_t tid, int64_t ts)
{
	for (size_t i = 0; i < n; i++) {
		if (v[i].pid != pid || v[i].tid != tid)
			continue;
		if (v[i].end - v[i].ts >= 2 ? (ts > v[i].ts && ts < v[i].end) : ts == v[i].ts)
			return true;
	}
	return false;
}

struct chrome_facts {
	size_t nx, nflows, ncounters_lock, ninstants;
	int64_t max_end;
};

/* Write @ri as Chrome JSON, parse it back, check every invariant; the
 * caller gets the root (to look closer) and owns it. */
static json_t *check_chrome(const struct km_run_info *ri, struct chrome_facts *facts)
{
	char err[256] = "";
	FILE *f = tmpfile();
	assert_non_null(f);
	int rc = km_trace_write_chrome(ri, NULL, f, err, sizeof(err));
	if (rc)
		fprintf(stderr, "chrome: %s\n", err);
	assert_int_equal(rc, 0);
	rewind(f);
	json_error_t jerr;
	json_t *root = json_loadf(f, 0, &jerr);
	if (!root)
		fprintf(stderr, "json: line %d: %s\n", jerr.line, jerr.text);
	fclose(f);
	assert_non_null(root);
	assert_true(json_is_object(root));
	json_t *evs = json_object_get(root, "traceEvents");
	assert_true(json_is_array(evs));
	assert_string_equal(str_of(root, "displayTimeUnit"), "ns");
	json_t *od = json_object_get(root, "otherData");
	assert_true(json_is_object(od));
	assert_non_null(json_object_get(od, "trace_hash"));
	assert_non_null(json_object_get(od, "scenario"));
	assert_non_null(json_object_get(od, "era"));
	assert_non_null(json_object_get(od, "mode"));
	assert_true(json_is_boolean(json_object_get(od, "truncated")));

	size_t n = json_array_size(evs);
	struct xs *xs = calloc(n + 1, sizeof(*xs));
	assert_non_null(xs);
	memset(facts, 0, sizeof(*facts));
	/* names: (pid) and (pid, tid) pairs, linear lists (small runs) */
	int64_t *procs = calloc(n + 1, sizeof(int64_t)), *threads = calloc(2 * n + 2, sizeof(int64_t));
	assert_non_null(procs);
	assert_non_null(threads);
	size_t nprocs = 0, nthreads = 0;
	for (size_t i = 0; i < n; i++) {
		json_t *e = json_array_get(evs, i);
		if (strcmp(str_of(e, "ph"), "M"))
			continue;
		const char *what = str_of(e, "name");
		json_t *args = json_object_get(e, "args");
		assert_true(json_is_object(args));
		if (!strcmp(what, "process_name")) {
			assert_true(strlen(str_of(args, "name")) > 0);
			procs[nprocs++] = json_integer_value(json_object_get(e, "pid"));
		} else if (!strcmp(what, "thread_name")) {
			assert_true(strlen(str_of(args, "name")) > 0);
			threads[2 * nthreads] = json_integer_value(json_object_get(e, "pid"));
			threads[2 * nthreads + 1] = json_integer_value(json_object_get(e, "tid"));
			nthreads++;
		}
	}

	/* flows: ids seen as s and as f */
	json_t *s_ids = json_object(), *f_ids = json_object();
	for (size_t i = 0; i < n; i++) {
		json_t *e = json_array_get(evs, i);
		const char *ph = str_of(e, "ph");
		if (!strcmp(ph, "M"))
			continue;
		assert_true(json_is_integer(json_object_get(e, "pid")));
		int64_t pid = json_integer_value(json_object_get(e, "pid"));
		bool named = false;
		for (size_t k = 0; k < nprocs; k++)
			named |= procs[k] == pid;
		assert_true(named);
		json_t *tidv = json_object_get(e, "tid");
		bool thread_scoped = strcmp(ph, "C") && !(!strcmp(ph, "i") &&
							  strcmp(str_of(e, "s"), "t"));
		if (thread_scoped) {
			assert_true(json_is_integer(tidv));
			int64_t tid = json_integer_value(tidv);
			named = false;
			for (size_t k = 0; k < nthreads; k++)
				named |= threads[2 * k] == pid && threads[2 * k + 1] == tid;
			if (!named)
				fprintf(stderr, "no thread_name for pid %lld tid %lld\n",
					(long long)pid, (long long)tid);
			assert_true(named);
		}
		int64_t ts = ns_of(json_object_get(e, "ts"));
		assert_true(ts >= 0);
		if (!strcmp(ph, "X")) {
			int64_t dur = ns_of(json_object_get(e, "dur"));
			assert_true(dur >= 0);
			xs[facts->nx++] = (struct xs){ pid, json_integer_value(tidv), ts, ts + dur,
						       str_of(e, "name") };
			if (ts + dur > facts->max_end)
				facts->max_end = ts + dur;
		} else if (!strcmp(ph, "s") || !strcmp(ph, "f")) {
			char id[32];
			assert_true(json_is_integer(json_object_get(e, "id")));
			snprintf(id, sizeof(id), "%lld",
				 (long long)json_integer_value(json_object_get(e, "id")));
			json_t *set = ph[0] == 's' ? s_ids : f_ids;
			assert_null(json_object_get(set, id));	/* one of each per id */
			json_object_set_new(set, id, json_integer(i));
			if (ph[0] == 'f')
				assert_string_equal(str_of(e, "bp"), "e");
		} else if (!strcmp(ph, "C")) {
			if (!strncmp(str_of(e, "name"), "lock ", 5)) {
				json_t *args = json_object_get(e, "args");
				assert_true(json_is_integer(json_object_get(args, "held")));
				assert_true(json_is_integer(json_object_get(args, "waiters")));
				facts->ncounters_lock++;
			}
		} else if (!strcmp(ph, "i")) {
			facts->ninstants++;
		}
	}

	/* every (pid, tid) track: X slices nest strictly */
	qsort(xs, facts->nx, sizeof(*xs), cmp_xs);
	struct xs *stack = calloc(facts->nx + 1, sizeof(*stack));
	assert_non_null(stack);
	size_t sp = 0;
	for (size_t i = 0; i < facts->nx; i++) {
		const struct xs *s = &xs[i];
		if (i && (s->pid != xs[i - 1].pid || s->tid != xs[i - 1].tid))
			sp = 0;
		while (sp && stack[sp - 1].end <= s->ts && !(stack[sp - 1].end == s->ts &&
							     stack[sp - 1].ts == s->ts))
			sp--;
		if (sp && s->end > stack[sp - 1].end) {
			fprintf(stderr, "pid %lld tid %lld: '%s' [%lld, %lld] crosses '%s' [%lld, "
				"%lld]\n", (long long)s->pid, (long long)s->tid, s->name,
				(long long)s->ts, (long long)s->end, stack[sp - 1].name,
				(long long)stack[sp - 1].ts, (long long)stack[sp - 1].end);
			fail();
		}
		stack[sp++] = *s;
	}
	free(stack);

	/* flows: paired, each end inside a slice of its track */
	const char *key;
	json_t *val;
	json_object_foreach(s_ids, key, val) {
		json_t *fi = json_object_get(f_ids, key);
		if (!fi)
			fprintf(stderr, "flow %s has no end\n", key);
		assert_non_null(fi);
		for (int k = 0; k < 2; k++) {
			json_t *e = json_array_get(evs, (size_t)json_integer_value(k ? fi : val));
			assert_true(inside_slice(xs, facts->nx,
						 json_integer_value(json_object_get(e, "pid")),
						 json_integer_value(json_object_get(e, "tid")),
						 ns_of(json_object_get(e, "ts"))));
		}
		facts->nflows++;
	}
	json_object_foreach(f_ids, key, val)
		assert_non_null(json_object_get(s_ids, key));
	json_decref(s_ids);
	json_decref(f_ids);
	free(procs);
	free(threads);
	free(xs);
	return root;
}

/* Count the events of @root with phase @ph and name @name on @pid (-1: any). */
static size_t count(json_t *root, const char *ph, const char *name, int pid)
{
	json_t *evs = json_object_get(root, "traceEvents");
	size_t n = 0, i;
	json_t *e;
	json_array_foreach(evs, i, e) {
		if (strcmp(str_of(e, "ph"), ph) || (name && strcmp(str_of(e, "name"), name)))
			continue;
		if (pid >= 0 && json_integer_value(json_object_get(e, "pid")) != pid)
			continue;
		n++;
	}
	return n;
}

/* The first event with phase @ph and name @name, or NULL. */
static json_t *find(json_t *root, const char *ph, const char *name)
{
	json_t *evs = json_object_get(root, "traceEvents");
	size_t i;
	json_t *e;
	json_array_foreach(evs, i, e)
		if (!strcmp(str_of(e, "ph"), ph) && !strcmp(str_of(e, "name"), name))
			return e;
	return NULL;
}

/* The tid named @name in process @pid, or -1. */
static int64_t tid_named(json_t *root, int pid, const char *name)
{
	json_t *evs = json_object_get(root, "traceEvents");
	size_t i;
	json_t *e;
	json_array_foreach(evs, i, e) {
		if (!strcmp(str_of(e, "ph"), "M") && !strcmp(str_of(e, "name"), "thread_name") &&
		    json_integer_value(json_object_get(e, "pid")) == pid &&
		    !strcmp(str_of(json_object_get(e, "args"), "name"), name))
			return json_integer_value(json_object_get(e, "tid"));
	}
	return -1;
}

/* ------------------------------------------------------------- ftrace -- */

struct ftrace_facts {
	size_t lines, marks, switches;
	bool switched_on[64];
	bool truncated_note;
};

/* Write @ri as ftrace text and check it line by line. */
static void check_ftrace(const struct km_run_info *ri, struct ftrace_facts *facts)
{
	char err[256] = "";
	FILE *f = tmpfile();
	assert_non_null(f);
	int rc = km_trace_write_ftrace(ri, NULL, f, err, sizeof(err));
	if (rc)
		fprintf(stderr, "ftrace: %s\n", err);
	assert_int_equal(rc, 0);
	rewind(f);
	memset(facts, 0, sizeof(*facts));
	char line[4096];
	assert_non_null(fgets(line, sizeof(line), f));
	assert_string_equal(line, "# tracer: nop\n");
	/* B/E depth per pid: pids are small in these runs, a map by value */
	json_t *depth = json_object();
	double last_ts = -1;
	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);
		assert_true(len > 0 && line[len - 1] == '\n');	/* one event, one line */
		if (line[0] == '#') {
			facts->truncated_note |= strstr(line, "TRUNCATED") != NULL;
			continue;
		}
		facts->lines++;
		/* "<comm>-<pid> (<tgid>) [<cpu>] <flags> <secs>: <event>: <body>" */
		char *cpu_at = strstr(line, ") [");
		assert_non_null(cpu_at);
		char *open = cpu_at;
		while (open > line && *open != '(')
			open--;
		assert_true(open > line);
		char *dash = open;
		while (dash > line && *dash != '-')
			dash--;
		assert_true(dash > line);
		long pid = strtol(dash + 1, NULL, 10);
		int cpu = atoi(cpu_at + 3);
		assert_true(cpu >= 0 && cpu < ri->sim->ncpus);
		char *p = cpu_at + 3;
		while (*p && *p != ']')
			p++;
		assert_int_equal(*p, ']');
		char flags[8] = "";
		double ts = 0;
		char event[64] = "";
		assert_int_equal(sscanf(p + 1, " %7s %lf: %63[^:]:", flags, &ts, event), 3);
		assert_int_equal(strlen(flags), 4);
		assert_true(ts >= last_ts);
		last_ts = ts;
		char *body = strstr(p, event) + strlen(event) + 2;
		if (!strcmp(event, "sched_switch")) {
			assert_non_null(strstr(body, "prev_comm="));
			assert_non_null(strstr(body, " ==> next_comm="));
			long next = strtol(strstr(body, "next_pid=") + 9, NULL, 10);
			if (next != 0 && cpu < 64)
				facts->switched_on[cpu] = true;
			facts->switches++;
		} else if (!strcmp(event, "tracing_mark_write")) {
			facts->marks++;
			char k[32];
			snprintf(k, sizeof(k), "%ld", pid);
			json_int_t d = json_integer_value(json_object_get(depth, k));
			if (!strncmp(body, "B|", 2))
				d++;
			else if (!strncmp(body, "E|", 2))
				d--;
			else
				assert_true(!strncmp(body, "C|", 2));
			if (d < 0)
				fprintf(stderr, "ftrace: E without B on pid %ld: %s", pid, line);
			assert_true(d >= 0);
			json_object_set_new(depth, k, json_integer(d));
		}
	}
	const char *key;
	json_t *val;
	json_object_foreach(depth, key, val) {
		if (json_integer_value(val))
			fprintf(stderr, "ftrace: pid %s left %lld slices open\n", key,
				(long long)json_integer_value(val));
		assert_int_equal(json_integer_value(val), 0);
	}
	json_decref(depth);
	fclose(f);
}

/* -------------------------------------------------------------- tests -- */

static void test_trace_chrome(void **state)
{
	struct km_session s;
	run(&s, "tests/trace/trace4.lua", 0, true);
	assert_false(s.ri.sim->trace.truncated);
	struct chrome_facts cf;
	json_t *root = check_chrome(&s.ri, &cf);
	json_t *od = json_object_get(root, "otherData");
	assert_string_equal(str_of(od, "scenario"), "trace4");
	assert_string_equal(str_of(od, "era"), "2009");
	assert_int_equal(json_integer_value(json_object_get(od, "cpus")), 2);
	assert_int_equal(json_integer_value(json_object_get(od, "seed")), 1);
	assert_true(json_is_false(json_object_get(od, "truncated")));
	char hash[17];
	snprintf(hash, sizeof(hash), "%016llx", (unsigned long long)s.ri.sim->trace.hash);
	assert_string_equal(str_of(od, "trace_hash"), hash);

	/* processes and CPU threads */
	assert_int_equal(count(root, "M", "process_name", 1), 1);
	assert_int_equal(count(root, "M", "process_name", 2), 1);
	assert_int_equal(tid_named(root, 1, "CPU0"), 1);	/* CPU N is tid N + 1 */
	assert_int_equal(tid_named(root, 1, "CPU1"), 2);
	assert_true(tid_named(root, 1, "CPU1 irqs off") >= 0);
	assert_true(count(root, "M", "thread_sort_index", 1) >= 2);

	/* what ran: tasks by name, spinning, the interrupt, interrupts off */
	assert_true(count(root, "X", "holder", 1) > 0);
	assert_true(count(root, "X", "sleeper", 1) > 0);
	assert_true(count(root, "X", "spinning", 1) > 0);
	assert_true(count(root, "X", "irq: disk", 1) > 0);
	assert_true(count(root, "X", "irqs off", 1) > 0);
	assert_true(count(root, "i", "irq disk", 1) >= 2);
	assert_true(count(root, "i", "sleeper saw ready", 2) == 1);

	/* lock slices on the scenario's tasks */
	int64_t holder = tid_named(root, 2, "holder");
	assert_true(holder >= 0);
	json_t *sem_wait = find(root, "X", "wait the_sem");
	assert_non_null(sem_wait);
	assert_int_equal(json_integer_value(json_object_get(sem_wait, "tid")),
			 tid_named(root, 2, "sleeper"));
	/* holds A and B overlap without nesting: B went to a lane of its own */
	json_t *ha = NULL, *hb = find(root, "X", "hold lock_b");
	json_t *evs = json_object_get(root, "traceEvents");
	size_t i;
	json_t *e;
	json_array_foreach(evs, i, e)
		if (!strcmp(str_of(e, "name"), "hold lock_a") &&
		    !strcmp(str_of(json_object_get(e, "args"), "by"), "holder"))
			ha = e;
	assert_non_null(ha);
	assert_non_null(hb);
	assert_int_equal(json_integer_value(json_object_get(ha, "tid")), holder);
	assert_int_equal(json_integer_value(json_object_get(hb, "tid")),
			 tid_named(root, 2, "holder[2]"));
	int64_t a0 = ns_of(json_object_get(ha, "ts")), b0 = ns_of(json_object_get(hb, "ts"));
	int64_t a1 = a0 + ns_of(json_object_get(ha, "dur"));
	int64_t b1 = b0 + ns_of(json_object_get(hb, "dur"));
	assert_true(a0 < b0 && b0 < a1 && a1 < b1);
	/* the interrupt's up() retires the issuer's hold of cmd_done */
	json_t *hc = find(root, "X", "hold cmd_done");
	assert_non_null(hc);
	assert_int_equal(json_integer_value(json_object_get(hc, "tid")),
			 tid_named(root, 2, "issuer"));
	assert_true(ns_of(json_object_get(hc, "dur")) > 20000);

	/* counters: the locks and the scenario's */
	assert_true(cf.ncounters_lock >= 8);
	bool held1 = false;
	json_array_foreach(evs, i, e)
		if (!strcmp(str_of(e, "ph"), "C") && !strcmp(str_of(e, "name"), "lock the_sem"))
			held1 |= json_integer_value(json_object_get(json_object_get(e, "args"),
								    "held")) == 1;
	assert_true(held1);
	assert_true(count(root, "C", "in_critical", 2) >= 3);

	/* wake-ups: the semaphore hand-off and the interrupt's up() */
	assert_true(cf.nflows >= 2);
	json_decref(root);
	km_session_free(&s);
}

static void test_trace_ftrace(void **state)
{
	struct km_session s;
	run(&s, "tests/trace/trace4.lua", 0, true);
	struct ftrace_facts ff;
	check_ftrace(&s.ri, &ff);
	assert_false(ff.truncated_note);
	assert_true(ff.switches >= 4);
	assert_true(ff.marks > 10);
	for (int c = 0; c < s.ri.sim->ncpus; c++)
		if (s.ri.sim->cpus[c].acct[KM_CPU_BUSY] > 0)
			assert_true(ff.switched_on[c]);
	km_session_free(&s);
}

static void test_trace_truncated(void **state)
{
	struct km_session full, s;
	run(&full, "tests/trace/trace4.lua", 0, true);
	size_t limit = full.ri.sim->trace.len / 2;
	km_session_free(&full);
	run(&s, "tests/trace/trace4.lua", limit, true);
	const struct km_sim *sim = s.ri.sim;
	assert_true(sim->trace.truncated);
	assert_int_equal(sim->trace.len, limit);
	struct chrome_facts cf;
	json_t *root = check_chrome(&s.ri, &cf);
	json_t *od = json_object_get(root, "otherData");
	assert_true(json_is_true(json_object_get(od, "truncated")));
	assert_true(strlen(str_of(od, "truncated_note")) > 0);
	/* open slices end at the last record kept */
	km_time last = sim->trace.recs[sim->trace.len - 1].time;
	assert_int_equal(json_integer_value(json_object_get(od, "end_ns")), last);
	assert_true(cf.max_end <= last);
	assert_true(cf.nx > 0);
	json_decref(root);
	struct ftrace_facts ff;
	check_ftrace(&s.ri, &ff);
	assert_true(ff.truncated_note);
	km_session_free(&s);
}

static void test_trace_refusals(void **state)
{
	char err[256] = "";
	struct km_run_info none = { 0 };
	assert_int_equal(km_trace_write_chrome(&none, NULL, stdout, err, sizeof(err)), -1);
	assert_true(strlen(err) > 0);
	struct km_session s;
	run(&s, "tests/trace/trace4.lua", 0, false);
	FILE *f = tmpfile();
	assert_non_null(f);
	err[0] = 0;
	assert_int_equal(km_trace_write_chrome(&s.ri, NULL, f, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "store_trace"));
	err[0] = 0;
	assert_int_equal(km_trace_write_ftrace(&s.ri, NULL, f, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "store_trace"));
	fclose(f);
	km_session_free(&s);
}

/* The invariants hold on the collection too: the BKL (recursion, drops
 * on sleep), an interrupt's up() of a semaphore, spinlock fairness. */
static void test_trace_collection(void **state)
{
	static const char *const files[] = {
		"scripts/bkl.lua", "scripts/scsi_host.lua", "scripts/spin_fairness.lua",
		"docs/examples/scsi_1992.lua", "tests/view/sem2.lua",
	};
	for (size_t k = 0; k < sizeof(files) / sizeof(files[0]); k++) {
		char path[PATH_MAX + 64];
		snprintf(path, sizeof(path), "%s/%s", km_datadir(), files[k]);
		if (access(path, R_OK) != 0)
			continue;
		struct km_session s;
		run(&s, files[k], 200000, true);
		struct chrome_facts cf;
		json_t *root = check_chrome(&s.ri, &cf);
		assert_true(cf.nx > 0);
		json_decref(root);
		struct ftrace_facts ff;
		check_ftrace(&s.ri, &ff);
		km_session_free(&s);
	}
}

/* ------------------------------------------------------------- spool -- */

/* Run @file with its trace stored (if @store, up to @limit records) and
 * spooled (up to @limit records) into @sp. */
static void run_spooled(struct km_session *s, const char *file, size_t limit, bool store,
			struct km_trace_spool *sp)
{
	static char dest[PATH_MAX];
	const char *tmp = getenv("TMPDIR");
	snprintf(dest, sizeof(dest), "%s/lockmuseum-unit-trace.json", tmp && *tmp ? tmp : "/tmp");
	char err[256] = "";
	if (km_trace_spool_open(sp, dest, limit, err, sizeof(err)) < 0)
		fail_msg("spool: %s", err);
	run_into(s, file, limit, store, &sp->sink);
}

/* The bytes of an export, from @sp or (NULL) the stored trace. */
static char *export_bytes(const struct km_run_info *ri, struct km_trace_spool *sp, bool ftrace,
			  size_t *len)
{
	char err[256] = "";
	FILE *f = tmpfile();
	assert_non_null(f);
	int rc = ftrace ? km_trace_write_ftrace(ri, sp, f, err, sizeof(err))
			: km_trace_write_chrome(ri, sp, f, err, sizeof(err));
	if (rc)
		fail_msg("export: %s", err);
	long n = ftell(f);
	assert_true(n > 0);
	char *b = malloc((size_t)n + 1);
	assert_non_null(b);
	rewind(f);
	assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
	b[n] = 0;
	fclose(f);
	*len = (size_t)n;
	return b;
}

static void assert_same_exports(const struct km_run_info *ri, struct km_trace_spool *sp)
{
	for (int ftrace = 0; ftrace < 2; ftrace++) {
		size_t lm, ls;
		char *m = export_bytes(ri, NULL, ftrace, &lm);
		char *d = export_bytes(ri, sp, ftrace, &ls);
		assert_int_equal(lm, ls);
		assert_memory_equal(m, d, lm);
		free(m);
		free(d);
	}
}

/* The spool gives the stored trace's bytes: on the exporters' own test
 * run, on long_hold.lua (140,001 lock slices, past the window of 65,536
 * slice ends, with one hold open across all of them, whose end is
 * patched on disk), and on a few of the collection. */
static void test_trace_spool_same_bytes(void **state)
{
	static const char *const files[] = {
		"tests/trace/trace4.lua", "tests/trace/long_hold.lua", "scripts/bkl.lua",
		"scripts/scsi_host.lua",
	};
	for (size_t k = 0; k < sizeof(files) / sizeof(files[0]); k++) {
		struct km_session s;
		struct km_trace_spool sp;
		run_spooled(&s, files[k], 0, true, &sp);
		const struct km_sim *sim = s.ri.sim;
		assert_false(sim->trace.truncated);
		assert_int_equal(sp.n, sim->trace.len);
		assert_int_equal(sp.n, sim->trace.count);
		if (k == 1)
			assert_true(sim->trace.count > 300000);
		assert_same_exports(&s.ri, &sp);
		km_trace_spool_close(&sp);
		km_session_free(&s);
	}
}

/* A spool limit truncates as the stored trace's does, to the same bytes. */
static void test_trace_spool_limit(void **state)
{
	struct km_session s;
	struct km_trace_spool sp;
	run_spooled(&s, "tests/trace/long_hold.lua", 5000, true, &sp);
	assert_true(sp.truncated);
	assert_int_equal(sp.n, 5000);
	assert_true(s.ri.sim->trace.count > 5000);
	assert_same_exports(&s.ri, &sp);
	size_t len;
	char *b = export_bytes(&s.ri, &sp, false, &len);
	assert_non_null(strstr(b, "\"records\":5000,"));
	assert_non_null(strstr(b, "\"truncated\":true"));
	free(b);
	km_trace_spool_close(&sp);
	km_session_free(&s);
}

/* Spooled only (what --trace alone does): nothing is kept in memory, and
 * the file is what a stored run of the same seed gives. */
static void test_trace_spool_keeps_nothing(void **state)
{
	struct km_session s, t;
	struct km_trace_spool sp, sq;
	run_spooled(&s, "tests/trace/long_hold.lua", 0, false, &sp);
	assert_false(s.ri.sim->trace.store);
	assert_null(s.ri.sim->trace.recs);
	assert_int_equal(s.ri.sim->trace.len, 0);
	assert_int_equal(sp.n, s.ri.sim->trace.count);
	run_spooled(&t, "tests/trace/long_hold.lua", 0, true, &sq);
	assert_true(s.ri.sim->trace.hash == t.ri.sim->trace.hash);
	for (int ftrace = 0; ftrace < 2; ftrace++) {
		size_t la, lb;
		char *a = export_bytes(&s.ri, &sp, ftrace, &la);
		char *b = export_bytes(&t.ri, NULL, ftrace, &lb);
		assert_int_equal(la, lb);
		assert_memory_equal(a, b, la);
		free(a);
		free(b);
	}
	km_trace_spool_close(&sp);
	km_trace_spool_close(&sq);
	km_session_free(&s);
	km_session_free(&t);
}

/* A spool on a full disk (/dev/full: every write is ENOSPC): the run is
 * unchanged, and the export fails saying why, writing nothing. */
static void test_trace_spool_full_disk(void **state)
{
	int full = open("/dev/full", O_WRONLY | O_CLOEXEC);
	if (full < 0)
		skip();
	struct km_trace_spool sp;
	char err[256] = "";
	const char *tmp = getenv("TMPDIR");
	char dest[PATH_MAX];
	snprintf(dest, sizeof(dest), "%s/lockmuseum-unit-trace.json", tmp && *tmp ? tmp : "/tmp");
	assert_int_equal(km_trace_spool_open(&sp, dest, 0, err, sizeof(err)), 0);
	assert_true(dup2(full, sp.fd) == sp.fd);
	close(full);
	static char path[PATH_MAX + 64];
	snprintf(path, sizeof(path), "%s/tests/trace/long_hold.lua", km_datadir());
	struct km_run_request rq;
	km_run_request_init(&rq);
	rq.file = path;
	rq.trace_sink = &sp.sink;
	struct km_session s;
	assert_int_equal(km_session_run(&s, &FX.eras, &rq), 0);
	assert_int_equal(sp.err, ENOSPC);
	assert_int_equal(sp.n, s.ri.sim->trace.count);
	FILE *f = tmpfile();
	assert_non_null(f);
	assert_int_equal(km_trace_write_chrome(&s.ri, &sp, f, err, sizeof(err)), -1);
	assert_non_null(strstr(err, strerror(ENOSPC)));
	assert_int_equal(ftell(f), 0);
	err[0] = 0;
	assert_int_equal(km_trace_write_ftrace(&s.ri, &sp, f, err, sizeof(err)), -1);
	assert_non_null(strstr(err, strerror(ENOSPC)));
	fclose(f);
	km_trace_spool_close(&sp);
	km_session_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trace_chrome),
		cmocka_unit_test(test_trace_ftrace),
		cmocka_unit_test(test_trace_truncated),
		cmocka_unit_test(test_trace_refusals),
		cmocka_unit_test(test_trace_collection),
		cmocka_unit_test(test_trace_spool_same_bytes),
		cmocka_unit_test(test_trace_spool_limit),
		cmocka_unit_test(test_trace_spool_keeps_nothing),
		cmocka_unit_test(test_trace_spool_full_disk),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
