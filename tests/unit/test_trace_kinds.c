/*
 * test_trace_kinds.c - the table of trace record kinds (trace_kinds.c).
 *
 * Every kind has a row, with a name of its own; nothing outside the kinds
 * has one.  Then the table is held to what the core emits: a few real
 * runs that make every kind (the exporters' test scenario, the BKL, cli()
 * on SMP, wait queues, completions, a preemption) are run with their traces stored,
 * and every record must fit its kind's row -- obj inside the namespace
 * the row names, aux and arg 0 where the row says they are unused.  A
 * row that lies about a field fails here.
 */
#include "test.h"

#include "cli/session.h"
#include "trace_kinds.h"
#include "unit_eras.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static struct km_era_list ERAS;

static int group_setup(void **state)
{
	return unit_load_eras(&ERAS) < 0 ? -1 : 0;
}

static int group_teardown(void **state)
{
	km_eras_free(&ERAS);
	return 0;
}

static void test_kinds_every_row(void **state)
{
	assert_null(km_trace_kind_info(0));
	assert_null(km_trace_kind_info(KM_TR_KIND_MAX));
	assert_null(km_trace_kind_info(255));
	for (unsigned k = 1; k < KM_TR_KIND_MAX; k++) {
		const struct km_trace_kind_info *d = km_trace_kind_info(k);
		if (!d)
			fail_msg("kind %u has no row in trace_kinds.c", k);
		assert_true(d->name[0] && d->ctx && d->ctx[0]);
		for (const char *c = d->name; *c; c++)
			assert_true((*c >= 'a' && *c <= 'z') || *c == '_');
		for (unsigned j = 1; j < k; j++)
			if (!strcmp(km_trace_kind_info(j)->name, d->name))
				fail_msg("kinds %u and %u are both '%s'", j, k, d->name);
	}
	/* the lock's own records, which the exporters and the view pair */
	unsigned lock_kinds = 0;
	for (unsigned k = 0; k <= KM_TR_KIND_MAX; k++)
		lock_kinds += km_trace_kind_is_lock(k);
	assert_int_equal(lock_kinds, 4);
	assert_true(km_trace_kind_is_lock(KM_TR_CONTEND) && km_trace_kind_is_lock(KM_TR_ACQUIRE) &&
		    km_trace_kind_is_lock(KM_TR_RELEASE) && km_trace_kind_is_lock(KM_TR_TRYFAIL));
	/* what a record does to its object (the explorer's footprints): a
	 * kind that names no object touches none; a lock's records change
	 * the lock; a read is a variable's */
	for (unsigned k = 1; k < KM_TR_KIND_MAX; k++) {
		const struct km_trace_kind_info *d = km_trace_kind_info(k);
		if (d->ns == KM_TNS_NONE)
			assert_int_equal(d->access, KM_TACC_NONE);
		if (d->ns == KM_TNS_LOCK)
			assert_int_equal(d->access, KM_TACC_WRITE);
		if (d->access == KM_TACC_READ)
			assert_int_equal(d->ns, KM_TNS_VAR);
		if (d->access == KM_TACC_SCHED)
			assert_int_equal(d->ns, KM_TNS_WAIT);
	}
	assert_int_equal(km_trace_kind_info(KM_TR_VAR_READ)->access, KM_TACC_READ);
	assert_int_equal(km_trace_kind_info(KM_TR_VAR_WRITE)->access, KM_TACC_WRITE);
	assert_int_equal(km_trace_kind_info(KM_TR_ATOMIC)->access, KM_TACC_WRITE);
}

/* Does @id name something of namespace @ns in @sim? */
static bool in_ns(const struct km_sim *sim, enum km_trace_ns ns, const struct km_trace_rec *r)
{
	uint32_t id = r->obj;
	bool lock = id < sim->locks.n || (id == KM_BKL_ID && sim->bkl) || (id == KM_GIL_ID && sim->gil);
	switch (ns) {
	case KM_TNS_NONE:
		return id == KM_TR_NONE;
	case KM_TNS_LOCK:
		return lock;
	case KM_TNS_IRQSRC:
		return id < sim->irqsrcs.n;
	case KM_TNS_VAR:
		return id < sim->vars.n;
	case KM_TNS_ATOMIC:
		return id < sim->atomics.n;
	case KM_TNS_COUNTER:
		return id < sim->counters.n;
	case KM_TNS_LOG:
		return id < sim->logs.n;
	case KM_TNS_WAIT:
		return id == KM_TR_NONE || lock || id < sim->waitqs.n || id < sim->completions.n;
	case KM_TNS_CHECKED:
		return id == KM_TR_NONE || lock || id < sim->vars.n;
	}
	return false;
}

/* Run @file in @era, @mode, on @cpus; every record must fit its row. */
static void check_run(const char *file, const char *era, int mode, int cpus, unsigned *seen)
{
	char path[PATH_MAX + 64];
	snprintf(path, sizeof(path), "%s/%s", km_datadir(), file);
	if (access(path, R_OK) != 0)
		fail_msg("%s: missing", file);
	struct km_run_request rq;
	km_run_request_init(&rq);
	rq.file = path;
	rq.era = era;
	rq.mode = mode;
	rq.cpus = cpus;
	rq.anachronism = true;
	rq.store_trace = true;
	rq.trace_limit = 200000;
	struct km_session s;
	int rc = km_session_run(&s, &ERAS, &rq);
	if (rc == 2)
		fail_msg("%s: %s", file, s.ri.reason);
	const struct km_sim *sim = s.ri.sim;
	assert_non_null(sim);
	assert_true(sim->trace.len > 0);
	for (size_t i = 0; i < sim->trace.len; i++) {
		const struct km_trace_rec *r = &sim->trace.recs[i];
		const struct km_trace_kind_info *d = km_trace_kind_info(r->kind);
		if (!d)
			fail_msg("%s: record %zu has kind %u, which has no row", file, i, r->kind);
		seen[r->kind]++;
		if (!in_ns(sim, d->ns, r))
			fail_msg("%s: record %zu (%s): obj %u is not in its namespace", file, i,
				 d->name, r->obj);
		if (!d->aux && r->aux != 0)
			fail_msg("%s: record %zu (%s): aux %u, but the table says unused", file, i,
				 d->name, r->aux);
		if (!d->arg && r->arg != 0)
			fail_msg("%s: record %zu (%s): arg %lld, but the table says unused", file,
				 i, d->name, (long long)r->arg);
	}
	km_session_free(&s);
}

static void test_kinds_fit_the_records(void **state)
{
	unsigned seen[KM_TR_KIND_MAX + 1] = { 0 };
	check_run("tests/trace/trace4.lua", NULL, KM_MODE_NATIVE, 0, seen);
	check_run("scripts/bkl.lua", NULL, KM_MODE_NATIVE, 0, seen);
	check_run("scripts/uniproc_cli.lua", "2003", KM_PRIM_CLI, 2, seen);
	check_run("scripts/printk.lua", NULL, KM_MODE_NATIVE, 0, seen);
	check_run("docs/examples/completion_2009.lua", NULL, KM_MODE_NATIVE, 0, seen);
	check_run("docs/examples/sleep_on_1991.lua", NULL, KM_MODE_NATIVE, 0, seen);
	check_run("docs/examples/cli_smp_1996.lua", NULL, KM_MODE_NATIVE, 0, seen);
	check_run("docs/examples/preemption.lua", NULL, KM_MODE_NATIVE, 0, seen);
	/* the runs make every kind, or a row goes unchecked */
	for (unsigned k = 1; k < KM_TR_KIND_MAX; k++)
		if (!seen[k])
			fail_msg("no run makes a '%s' record: add one that does", km_trace_kind_info(k)->name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds_every_row),
		cmocka_unit_test(test_kinds_fit_the_records),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
