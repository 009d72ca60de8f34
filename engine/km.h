/*
 * km.h - the few types every part of the simulator core shares.
 *
 * lockmuseum's core is a discrete-event simulator: time is an integer
 * count of simulated nanoseconds, nothing in it reads a wall clock, and
 * every error is a negative KM_E* code returned to the caller.  This
 * header holds just those conventions so that the small headers of the
 * core (evq.h, rng.h, trace.h, ...) can include it without dragging in
 * the rest.
 */
#ifndef KM_ENGINE_KM_H
#define KM_ENGINE_KM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Simulated time in nanoseconds.  Signed so differences are natural. */
typedef int64_t km_time;

#define KM_TIME_NEVER INT64_MAX
/* Largest duration a scenario may ask for: about 146 years, and far
 * enough from INT64_MAX that now + duration can never overflow. */
#define KM_TIME_MAX ((km_time)1 << 62)
/* The most one cost of a machine file may be (era.h's struct km_costs):
 * 2^40 ns, about 18 minutes.  Sums of a few hundred such costs stay far
 * below KM_TIME_MAX, so the floors add them without overflow checks. */
#define KM_COST_MAX ((km_time)1 << 40)

/*
 * Saturating arithmetic, for every sum, difference and product of numbers
 * a scenario controls (times, durations, counters, variables, measures):
 * a total of 1024 CPUs' 2^62 ns, or a counter that went from INT64_MIN to
 * INT64_MAX, is pinned at the end of the range instead of overflowing,
 * which C leaves undefined and which once drew outside the view's pixel
 * buffer.  A report then shows the largest number it can, which is the
 * honest answer to "how much": more than this.
 */
static inline int64_t km_sat_add(int64_t a, int64_t b)
{
	int64_t r;
	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

static inline int64_t km_sat_sub(int64_t a, int64_t b)
{
	int64_t r;
	if (__builtin_sub_overflow(a, b, &r))
		return b < 0 ? INT64_MAX : INT64_MIN;
	return r;
}

static inline int64_t km_sat_mul(int64_t a, int64_t b)
{
	int64_t r;
	if (__builtin_mul_overflow(a, b, &r))
		return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
	return r;
}

static inline uint64_t km_sat_addu(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Error codes: 0 is success, failures are negative. */
enum {
	KM_OK = 0,
	KM_ENOMEM = -1,		/* the host allocator refused */
	KM_EINVAL = -2,		/* bad argument (message in sim->errmsg) */
	KM_EMISUSE = -3,	/* API used in the wrong context */
	KM_ENOTAPPLICABLE = -4,	/* combination that cannot run */
	KM_EBUDGET = -5,	/* a run budget was exceeded */
	KM_EDEPTH = -6,		/* too many locks held at once */
	KM_EINTR = -7,		/* stopped from outside (Ctrl-C) */
};

/*
 * What an operation asks of its caller.  KM_STEP_DONE: the result is in
 * ctx->result and the caller may go on at once.  KM_STEP_WAIT: the
 * context now waits (for simulated time, a lock, a wake-up); the caller
 * must yield, and will be resumed with ctx->result set -- unless
 * km_ctx_run_ahead() (sim.h) can end the wait at once, in place.
 */
enum km_step {
	KM_STEP_DONE = 0,
	KM_STEP_WAIT = 1,
};

#define KM_MAX_CPUS 1024
#define KM_MAX_LOCK_DEPTH 48	/* as lockdep's MAX_LOCK_DEPTH */

#endif /* KM_ENGINE_KM_H */
