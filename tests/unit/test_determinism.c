/*
 * test_determinism.c - a run is a function of its seed.
 *
 * The trace hash is a run's fingerprint (the report's trace_hash): the
 * same scenario, era and seed must give the same hash and the same
 * records, whether or not the trace is stored.  A different seed must
 * change what happens wherever the run draws random numbers (which
 * test-and-set spinner wins, interrupt jitter) -- and only there; the
 * fingerprint itself covers the configuration, seed included.
 */
#include "test.h"

#include "script_host.h"

#include <string.h>

struct outcome {
	uint64_t hash, rec_hash, count, events;
	km_time now;
	int64_t value;
};

enum { TAS_CONTENTION, IRQ_JITTER, NO_RANDOMNESS };

/* The hash of the stored records alone (the run's hash also covers its
 * configuration). */
static uint64_t records_hash(const struct km_sim *sim)
{
	struct km_trace t;
	km_trace_init(&t, false, 0);
	for (size_t i = 0; i < sim->trace.len; i++)
		assert_int_equal(km_trace_emit(&t, &sim->trace.recs[i]), KM_OK);
	km_trace_free(&t);
	return t.hash;
}

static struct outcome run(int what, uint64_t seed, bool store, struct sh_host *keep)
{
	static const struct sh_step worker[] = {
		{ OP_DOWN, 0, 0 }, { OP_ADD, 0, 1 }, { OP_COMPUTE, 200, 0 }, { OP_UP, 0, 0 },
		{ OP_COMPUTE, 100, 0 }, { OP_LOOP, 0, 30 }, { OP_END, 0, 0 },
	};
	static const struct sh_step racer[] = {
		{ OP_READ, 0, 0 }, { OP_COMPUTE, 700, 0 }, { OP_WRITE_INC, 0, 1 },
		{ OP_COMPUTE, 300, 0 }, { OP_LOOP, 0, 40 }, { OP_END, 0, 0 },
	};
	static const struct sh_step handler[] = {
		{ OP_ADD, 0, 1000 }, { OP_COMPUTE, 50, 0 }, { OP_END, 0, 0 },
	};
	struct sh_host h;
	struct km_era era = sh_era(4);
	era.spinlock = what == TAS_CONTENTION ? KM_SPIN_TAS : KM_SPIN_TICKET;
	struct km_config cfg = sh_cfg(4, seed);
	cfg.store_trace = store;
	assert_non_null(sh_new(&h, &era, &cfg));
	assert_non_null(km_lock_new(h.sim, "l", KM_PRIM_SPIN, 1, false));
	assert_non_null(km_var_new(h.sim, "v", 0));
	if (what == IRQ_JITTER) {
		assert_non_null(sh_task(&h, "t", 0, 0, racer));
		assert_non_null(sh_irq(&h, "dev", 0, 3000, 2000, 0, handler));
	} else {
		for (int i = 0; i < 4; i++)
			assert_non_null(sh_task(&h, "w", i, 0, worker));
		if (what == NO_RANDOMNESS)
			assert_non_null(sh_irq(&h, "dev", 1, 3000, 0, 0, handler));
	}
	assert_int_equal(sh_run(&h), 0);
	assert_int_equal(h.sim->outcome, KM_OUT_COMPLETED);
	struct outcome o = {
		.hash = h.sim->trace.hash, .rec_hash = store ? records_hash(h.sim) : 0,
		.count = h.sim->trace.count,
		.events = h.sim->events, .now = h.sim->now, .value = h.sim->vars.v[0]->value,
	};
	if (store)
		assert_int_equal(h.sim->trace.len, h.sim->trace.count);
	else
		assert_int_equal(h.sim->trace.len, 0);
	if (keep) {
		*keep = h;
		keep->sim->host_data = keep;	/* the run is over; keep it tidy */
	} else {
		sh_free(&h);
	}
	return o;
}

static void assert_same(struct outcome a, struct outcome b)
{
	assert_int_equal(a.hash, b.hash);
	assert_int_equal(a.count, b.count);
	assert_int_equal(a.events, b.events);
	assert_int_equal(a.now, b.now);
	assert_int_equal(a.value, b.value);
}

/* Same seed: same hash, same stored records, byte for byte. */
static void test_determinism_same_seed_same_trace(void **state)
{
	for (int what = TAS_CONTENTION; what <= NO_RANDOMNESS; what++) {
		struct sh_host a, b;
		struct outcome oa = run(what, 42, true, &a);
		struct outcome ob = run(what, 42, true, &b);
		assert_same(oa, ob);
		assert_int_equal(a.sim->trace.len, b.sim->trace.len);
		assert_memory_equal(a.sim->trace.recs, b.sim->trace.recs,
				    a.sim->trace.len * sizeof(struct km_trace_rec));
		sh_free(&a);
		sh_free(&b);
	}
}

/* Storing the trace does not change the run or its hash. */
static void test_determinism_store_does_not_matter(void **state)
{
	for (int what = TAS_CONTENTION; what <= NO_RANDOMNESS; what++)
		assert_same(run(what, 9, true, NULL), run(what, 9, false, NULL));
}

/* A different seed changes what happens in a run that draws random
 * numbers. */
static void test_determinism_seed_changes_random_runs(void **state)
{
	for (int what = TAS_CONTENTION; what <= IRQ_JITTER; what++) {
		struct outcome base = run(what, 1, true, NULL);
		for (uint64_t seed = 2; seed <= 4; seed++) {
			struct outcome o = run(what, seed, true, NULL);
			assert_int_not_equal(o.rec_hash, base.rec_hash);
			assert_int_not_equal(o.hash, base.hash);
		}
	}
}

/* ... and only such a run: ticket spinlocks and a jitter-free interrupt
 * draw nothing, so every seed gives the same records.  The fingerprint
 * still tells the runs apart: it covers the seed. */
static void test_determinism_seed_irrelevant_without_randomness(void **state)
{
	struct sh_host a, b;
	struct outcome base = run(NO_RANDOMNESS, 1, true, &a);
	for (uint64_t seed = 2; seed <= 4; seed++) {
		struct outcome o = run(NO_RANDOMNESS, seed, true, &b);
		assert_int_equal(o.rec_hash, base.rec_hash);
		assert_int_equal(o.count, base.count);
		assert_int_equal(o.now, base.now);
		assert_int_equal(o.value, base.value);
		assert_int_equal(a.sim->trace.len, b.sim->trace.len);
		assert_memory_equal(a.sim->trace.recs, b.sim->trace.recs,
				    a.sim->trace.len * sizeof(struct km_trace_rec));
		assert_int_not_equal(o.hash, base.hash);
		sh_free(&b);
	}
	sh_free(&a);
}

/* The trace's hash folds each record as four 64-bit words (time; kind,
 * flags, cpu, ctx; obj, aux; arg): check one record folded by hand. */
static uint64_t fold_by_hand(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 32);
}

static void test_determinism_record_hash_known_answer(void **state)
{
	struct km_trace one;
	km_trace_init(&one, true, 0);
	struct km_trace_rec r;
	memset(&r, 0, sizeof(r));
	r.time = 1;
	r.kind = 2;
	r.cpu = 3;
	r.ctx = 4;
	r.obj = 5;
	r.aux = 6;
	r.arg = -1;
	assert_int_equal(km_trace_emit(&one, &r), KM_OK);
	uint64_t x = 0xcbf29ce484222325ULL;
	x = fold_by_hand(x, 1);
	x = fold_by_hand(x, 2 | (uint64_t)3 << 16 | (uint64_t)4 << 32);
	x = fold_by_hand(x, 5 | (uint64_t)6 << 32);
	x = fold_by_hand(x, UINT64_MAX);
	assert_int_equal(one.hash, x);
	assert_int_equal(one.count, 1);
	assert_int_equal(one.len, 1);
	assert_memory_equal(&one.recs[0], &r, sizeof(r));
	km_trace_free(&one);

	/* a limit keeps the first records and still hashes them all */
	struct km_trace lim, all;
	km_trace_init(&lim, true, 2);
	km_trace_init(&all, false, 0);
	for (int i = 0; i < 5; i++) {
		r.time = i;
		km_trace_emit(&lim, &r);
		km_trace_emit(&all, &r);
	}
	assert_int_equal(lim.len, 2);
	assert_true(lim.truncated);
	assert_int_equal(lim.count, 5);
	assert_int_equal(lim.hash, all.hash);
	km_trace_free(&lim);
	km_trace_free(&all);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_determinism_same_seed_same_trace),
		cmocka_unit_test(test_determinism_store_does_not_matter),
		cmocka_unit_test(test_determinism_seed_changes_random_runs),
		cmocka_unit_test(test_determinism_seed_irrelevant_without_randomness),
		cmocka_unit_test(test_determinism_record_hash_known_answer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
