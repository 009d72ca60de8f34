/*
 * test_evq.c - the event queue's ordering.
 *
 * A run is reproducible only if events come out of the heap by time and,
 * at equal times, in the order they were pushed.  These tests check both
 * directly, and then compare long random mixes of pushes and pops with a
 * reference that sorts by (time, push order): one over a few hundred
 * times, one as a run uses the queue (times ahead of the last popped,
 * often that very time, thousands of them, so that the bucket cache
 * forgets and two buckets of one time coexist), and one at the ends of
 * the time range.
 */
#include "test.h"

#include "evq.h"

#include <stdlib.h>

static void test_evq_empty_pop_fails(void **state)
{
	struct km_evq q;
	struct km_event ev;
	km_evq_init(&q);
	assert_null(km_evq_peek(&q));
	assert_false(km_evq_pop(&q, &ev));
	assert_int_equal(km_evq_push(&q, 5, 1, 2, 3), KM_OK);
	assert_true(km_evq_pop(&q, &ev));
	assert_false(km_evq_pop(&q, &ev));
	km_evq_free(&q);
}

static void test_evq_orders_by_time(void **state)
{
	static const km_time times[] = { 50, 10, 40, 30, 20, 0, 60, 5, -3 };
	enum { N = sizeof(times) / sizeof(times[0]) };
	struct km_evq q;
	km_evq_init(&q);
	for (int i = 0; i < N; i++)
		assert_int_equal(km_evq_push(&q, times[i], 7, (uint32_t)i, (uint64_t)i * 3), KM_OK);
	assert_int_equal(q.len, N);
	km_time last = INT64_MIN;
	for (int i = 0; i < N; i++) {
		struct km_event ev;
		const struct km_event *peek = km_evq_peek(&q);
		assert_non_null(peek);
		km_time peeked = peek->time;
		assert_true(km_evq_pop(&q, &ev));
		assert_int_equal(ev.time, peeked);
		assert_true(ev.time >= last);
		last = ev.time;
		/* the payload travels with its time */
		assert_int_equal(ev.time, times[ev.id]);
		assert_int_equal(ev.token, (uint64_t)ev.id * 3);
		assert_int_equal(ev.kind, 7);
	}
	assert_int_equal(last, 60);
	km_evq_free(&q);
}

static void test_evq_ties_pop_in_push_order(void **state)
{
	struct km_evq q;
	km_evq_init(&q);
	/* 200 events at three times, interleaved: within each time, FIFO. */
	for (uint32_t i = 0; i < 200; i++)
		assert_int_equal(km_evq_push(&q, (km_time)(i % 3) * 100, 1, i, 0), KM_OK);
	uint32_t prev_id = 0;
	km_time prev_t = -1;
	for (uint32_t i = 0; i < 200; i++) {
		struct km_event ev;
		assert_true(km_evq_pop(&q, &ev));
		if (ev.time == prev_t)
			assert_true(ev.id > prev_id);
		else
			assert_true(ev.time > prev_t);
		prev_t = ev.time;
		prev_id = ev.id;
	}
	km_evq_free(&q);
}

/*
 * Random pushes and pops against a reference: one FIFO list per distinct
 * time (few times, so ties are common); the reference pops from the
 * earliest non-empty list.
 */
static void test_evq_random_matches_reference(void **state)
{
	enum { OPS = 200000, TIMES = 512 };
	struct km_evq q;
	int64_t *next = malloc(OPS * sizeof(*next));
	int64_t head[TIMES], tail[TIMES];
	assert_non_null(next);
	for (int t = 0; t < TIMES; t++)
		head[t] = tail[t] = -1;
	size_t live = 0;
	uint64_t order = 0;
	km_evq_init(&q);
	srand(12345);
	for (int i = 0; i < OPS; i++) {
		if (live == 0 || rand() % 3 != 0) {
			int t = rand() % TIMES;
			assert_int_equal(km_evq_push(&q, t, 1, (uint32_t)order, order), KM_OK);
			next[order] = -1;
			if (tail[t] >= 0)
				next[tail[t]] = (int64_t)order;
			else
				head[t] = (int64_t)order;
			tail[t] = (int64_t)order;
			order++;
			live++;
		} else {
			int t = 0;
			while (head[t] < 0)
				t++;
			struct km_event ev;
			assert_true(km_evq_pop(&q, &ev));
			assert_int_equal(ev.time, t);
			assert_int_equal(ev.token, (uint64_t)head[t]);
			head[t] = next[head[t]];
			if (head[t] < 0)
				tail[t] = -1;
			live--;
		}
		assert_int_equal(q.len, live);
	}
	/* drain: what is left comes out in the same total order */
	for (int t = 0; t < TIMES; t++) {
		for (int64_t o = head[t]; o >= 0; o = next[o]) {
			struct km_event ev;
			assert_true(km_evq_pop(&q, &ev));
			assert_int_equal(ev.time, t);
			assert_int_equal(ev.token, (uint64_t)o);
		}
	}
	assert_int_equal(q.len, 0);
	km_evq_free(&q);
	free(next);
}

/* A reference: the live events, the least (time, seq) found by a scan. */
struct ref_event {
	km_time time;
	uint64_t seq;
	uint64_t token;
};

static uint64_t xorshift(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* @spread: how far ahead of "now" a push may be; @extremes: times at both
 * ends of the km_time range instead */
static void random_against_scan(uint64_t seed, km_time spread, bool extremes)
{
	enum { OPS = 20000 };
	struct ref_event *ref = malloc(OPS * sizeof(*ref));
	assert_non_null(ref);
	size_t live = 0;
	uint64_t seq = 0, x = seed;
	km_time now = 0;
	struct km_evq q;
	km_evq_init(&q);
	for (int op = 0; op < OPS; op++) {
		if (live == 0 || xorshift(&x) % 100 < 55) {
			km_time t = now + (km_time)(xorshift(&x) % (uint64_t)spread);
			if (extremes)
				t = (xorshift(&x) & 1) ? INT64_MIN + (km_time)(xorshift(&x) % 8)
						       : INT64_MAX - (km_time)(xorshift(&x) % 8);
			else if (xorshift(&x) % 10 == 0)
				t = now;	/* at the time being popped */
			uint64_t token = xorshift(&x);
			assert_int_equal(km_evq_push(&q, t, 1, 7, token), KM_OK);
			ref[live++] = (struct ref_event){ t, seq++, token };
		} else {
			size_t b = 0;
			for (size_t i = 1; i < live; i++)
				if (ref[i].time < ref[b].time ||
				    (ref[i].time == ref[b].time && ref[i].seq < ref[b].seq))
					b = i;
			const struct km_event *peek = km_evq_peek(&q);
			struct km_event ev;
			assert_non_null(peek);
			uint64_t peek_seq = peek->seq;
			assert_true(km_evq_pop(&q, &ev));
			assert_int_equal(ev.seq, peek_seq);
			assert_int_equal(ev.time, ref[b].time);
			assert_int_equal(ev.token, ref[b].token);
			now = ev.time;
			ref[b] = ref[--live];
		}
		assert_int_equal(q.len, live);
	}
	struct km_event ev;
	while (live) {
		assert_true(km_evq_pop(&q, &ev));
		live--;
	}
	assert_false(km_evq_pop(&q, &ev));
	km_evq_free(&q);
	free(ref);
}

static void test_evq_run_like_mix_matches_reference(void **state)
{
	random_against_scan(88172645463325252ULL, 4, false);	/* few times */
	random_against_scan(2463534242ULL, 5000, false);	/* the cache forgets */
}

static void test_evq_extreme_times_match_reference(void **state)
{
	random_against_scan(123456789ULL, 1, true);
}

/* A large heap of distinct random times comes out sorted. */
static void test_evq_large_heap_sorted(void **state)
{
	enum { N = 100000 };
	struct km_evq q;
	km_evq_init(&q);
	srand(777);
	for (int i = 0; i < N; i++) {
		km_time t = ((km_time)rand() << 20) ^ rand();
		assert_int_equal(km_evq_push(&q, t, 2, (uint32_t)i, 0), KM_OK);
	}
	km_time last = INT64_MIN;
	for (int i = 0; i < N; i++) {
		struct km_event ev;
		assert_true(km_evq_pop(&q, &ev));
		assert_true(ev.time >= last);
		last = ev.time;
	}
	assert_null(km_evq_peek(&q));
	km_evq_free(&q);
}

/* Sequence numbers keep counting across pops: a late push at an early
 * time still comes after an earlier push at that time. */
static void test_evq_seq_survives_pops(void **state)
{
	struct km_evq q;
	struct km_event ev;
	km_evq_init(&q);
	assert_int_equal(km_evq_push(&q, 10, 1, 1, 0), KM_OK);
	assert_int_equal(km_evq_push(&q, 5, 1, 2, 0), KM_OK);
	assert_true(km_evq_pop(&q, &ev));
	assert_int_equal(ev.id, 2);
	assert_int_equal(km_evq_push(&q, 10, 1, 3, 0), KM_OK);
	assert_true(km_evq_pop(&q, &ev));
	assert_int_equal(ev.id, 1);
	assert_true(km_evq_pop(&q, &ev));
	assert_int_equal(ev.id, 3);
	km_evq_free(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_evq_empty_pop_fails),
		cmocka_unit_test(test_evq_orders_by_time),
		cmocka_unit_test(test_evq_ties_pop_in_push_order),
		cmocka_unit_test(test_evq_random_matches_reference),
		cmocka_unit_test(test_evq_run_like_mix_matches_reference),
		cmocka_unit_test(test_evq_extreme_times_match_reference),
		cmocka_unit_test(test_evq_large_heap_sorted),
		cmocka_unit_test(test_evq_seq_survives_pops),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
