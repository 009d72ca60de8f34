/*
 * script_host.h - a small C host that drives the simulator core without
 * Lua, for the unit tests.
 *
 * The core runs scenario code through struct km_host_ops.  Here that code
 * is a "program": an array of steps ({OP_DOWN, lock}, {OP_COMPUTE, ns},
 * ...) ending with OP_END.  Each task, and each interrupt source's
 * handler, runs one.  The host keeps a program counter per context and
 * records every completed step (who, what, when it was issued, when it
 * returned, its result) in an ordered log, so that a test can assert on
 * what happened and when -- or read the core's trace with store_trace.
 *
 * Operations that may sleep (down, down_timeout, sleep, wait_event,
 * wait_for_completion) are might_sleep() points, as in the Lua layer: if
 * km_op_might_sleep() asks for a voluntary reschedule, the step is
 * re-issued once the task runs again.
 *
 * Objects are named by their index in the simulator's arrays (the order
 * they were declared in), which is what a step's first argument holds.
 */
#ifndef KM_TESTS_UNIT_SCRIPT_HOST_H
#define KM_TESTS_UNIT_SCRIPT_HOST_H

#include "sim.h"

enum sh_op {
	OP_END = 0,		/* the program returns */
	OP_COMPUTE,		/* a = ns */
	OP_SLEEP,		/* a = ns */
	OP_DOWN,		/* a = lock */
	OP_UP,			/* a = lock */
	OP_TRYLOCK,		/* a = lock; result 1 taken, 0 busy */
	OP_DOWN_TIMEOUT,	/* a = lock, b = ns; result 1 taken, 0 timed out */
	OP_IRQ_DISABLE,
	OP_IRQ_ENABLE,
	OP_READ,		/* a = var; result the value */
	OP_WRITE,		/* a = var, b = value */
	OP_WRITE_INC,		/* a = var, b = n: write (the last value read) + n */
	OP_ADD,			/* a = var, b = n: non-atomic read-modify-write */
	OP_ATOMIC_ADD,		/* a = atomic, b = n */
	OP_WQ_WAIT,		/* a = wait queue, b = timeout ns (< 0: none); 1 woken */
	OP_WAKE_UP,		/* a = wait queue, b = all */
	OP_WAIT_COMPLETION,	/* a = completion */
	OP_COMPLETE,		/* a = completion, b = all */
	OP_LOOP,		/* run steps a .. here-1 b times in all, then go on */
	OP_MARK,		/* log a marker (a = tag); takes no simulated time */
	OP_UP_IF_TAKEN,		/* a = lock: up() only if the last result was true */
	OP_COUNT
};

struct sh_step {
	int op;
	int64_t a, b;
};

/* One completed step. */
struct sh_event {
	uint32_t ctx;		/* context id (irq contexts are recycled) */
	int32_t irq;		/* irq source id, or -1 for a task */
	uint32_t inv;		/* irq: which invocation of the host, from 0 */
	int pc;
	int op;
	int64_t a, b;
	km_time issued;		/* when the operation was called */
	km_time done;		/* when the program went on after it */
	int64_t result;
};

#define SH_MAX_STEPS 64

struct sh_ctx {
	const struct sh_step *prog;
	int32_t irq;
	uint32_t inv;
	int pc;
	bool waiting;		/* the step at pc was issued; collect its result */
	bool done;
	int loops[SH_MAX_STEPS];
	int64_t last_read;
	int64_t last_result;
	km_time issued;
};

struct sh_host {
	struct km_sim *sim;
	struct sh_ctx *cs;
	uint32_t ncs;
	const struct sh_step **irq_prog;
	uint32_t nirq;
	uint32_t irq_invocations;
	struct sh_event *ev;
	size_t nev, cap;
	uint32_t released;	/* ctx_release calls */
	bool run_ahead;		/* after KM_STEP_WAIT, try km_ctx_run_ahead (off
				 * unless a test sets it after sh_new) */
};

/* Wildcard for the query helpers. */
#define SH_ANY (-1)

/* A neutral 2008-like SMP era: no preemption, HZ 1000, ticket spinlocks,
 * generic semaphores, mutexes without spinning, the BKL, might_sleep()
 * checks; small round costs (cli 2, atomic 1, cacheline 10, ctxsw 100,
 * wakeup 100, irq_entry 50).  Tests change the fields they are about. */
struct km_era sh_era(int cpus);
/* @cpus CPUs, @seed, one simulated second, native mode, trace stored. */
struct km_config sh_cfg(int cpus, uint64_t seed);

/* Create the run (NULL on failure); the host owns it until sh_free. */
struct km_sim *sh_new(struct sh_host *h, const struct km_era *era,
		      const struct km_config *cfg);
struct km_ctx *sh_task(struct sh_host *h, const char *name, int cpu, km_time start,
		       const struct sh_step *prog);
struct km_irqsrc *sh_irq(struct sh_host *h, const char *name, int cpu, km_time every,
			 km_time jitter, km_time start, const struct sh_step *prog);
/* km_sim_start, then (if it succeeded) km_sim_run: the first error. */
int sh_run(struct sh_host *h);
void sh_free(struct sh_host *h);

/* The @nth (from 0) completed step of task @ctx with this op and first
 * argument (SH_ANY: any), or NULL. */
const struct sh_event *sh_ev(const struct sh_host *h, int ctx, int op, int64_t a, int nth);
/* The same for the handlers of irq source @src. */
const struct sh_event *sh_irq_ev(const struct sh_host *h, int src, int op, int64_t a,
				 int nth);
int sh_count(const struct sh_host *h, int ctx, int op, int64_t a);
int sh_irq_count(const struct sh_host *h, int src, int op, int64_t a);

/* ---- the stored trace (cfg.store_trace) ---- */

/* Records of @kind matching ctx and obj (SH_ANY: any). */
int sh_trace_count(const struct km_sim *sim, int kind, int64_t ctx, int64_t obj);
/* The @nth record of @kind matching, or NULL. */
const struct km_trace_rec *sh_trace_find(const struct km_sim *sim, int kind, int64_t ctx,
					 int64_t obj, int nth);
/* Context ids in the order they acquired lock @obj; returns how many
 * (all of them, even past @max). */
int sh_acquire_order(const struct km_sim *sim, uint32_t obj, uint32_t *out, int max);
/* Most holders of @obj at once, from its acquire and release records. */
int sh_max_holders(const struct km_sim *sim, uint32_t obj);
/* Grants of @obj to a waiter while another, which contended earlier,
 * kept waiting: the unfair hand-offs. */
int sh_unfair_grants(const struct km_sim *sim, uint32_t obj);

#endif /* KM_TESTS_UNIT_SCRIPT_HOST_H */
