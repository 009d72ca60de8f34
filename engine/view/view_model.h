/*
 * view_model.h - a finished run, indexed once for drawing.
 *
 * The trace is a flat, time-ordered list of 32-byte records: right for
 * hashing and exporting, wrong for drawing, where the question is "what
 * was CPU 7 doing between 1.20 and 1.21 ms?".  The model answers such
 * questions by splitting the trace, once per run, into:
 *
 *   - per-CPU state spans: (start, state, context, interrupts off), the
 *     span ending where the next one starts;
 *   - per-lock spans: (start, holders, first holder, waiters);
 *   - per-context spans: running, runnable, spinning or asleep on what
 *     (view_tasks.h), for the task lanes;
 *   - per-counter points: (time, value);
 *   - wake-up arrows: from the context that released or woke, on its CPU,
 *     to the moment and CPU where the woken context next runs;
 *   - the record index of every violation.
 *
 * Everything here is plain data with no SDL, built with a few passes over
 * the trace (O(records)), immutable afterwards: the drawers, the event
 * line and the tests read it through const pointers.  A model points into
 * the run it was built from (the simulator, its trace), so the run must
 * outlive it.
 *
 * What it is not: a second simulator.  Where the trace does not say
 * something (which holder a semaphore's up() released), the model follows
 * the core's own rule and says so in a NOTE.
 */
#ifndef KM_VIEW_VIEW_MODEL_H
#define KM_VIEW_VIEW_MODEL_H

#include "../report/report.h"
#include "view_tasks.h"
#include "view_source.h"

#define KM_VM_NONE UINT32_MAX

/* One stretch of a CPU's time.  `irqoff` is shown as an overlay, since a
 * task runs with interrupts off as much as it runs with them on. */
struct km_vm_span {
	km_time t;
	uint32_t ctx;			/* KM_VM_NONE when idle */
	uint8_t state;			/* enum km_cpu_state */
	uint8_t irqoff;
	uint16_t pad;
};

/* One stretch of a lock's life. */
struct km_vm_lspan {
	km_time t;
	uint32_t holder;		/* the oldest holder, or KM_VM_NONE */
	uint16_t holders;
	uint16_t waiters;
};

struct km_vm_point {
	km_time t;
	int64_t v;
};

/* How a wake-up happened (KM_TR_WAKE's arg). */
enum km_vm_wake {
	KM_VM_WAKE_GRANT,		/* a lock passed straight to the wakee */
	KM_VM_WAKE_RETRY,		/* woken to try again (legacy semaphores) */
	KM_VM_WAKE_WAITQ,		/* wake_up() */
	KM_VM_WAKE_COMPLETION,		/* complete() */
};

struct km_vm_arrow {
	km_time t0, t1;			/* t1 < 0: the wakee never ran again */
	uint32_t waker, wakee;		/* ctx ids; waker may be KM_VM_NONE */
	uint16_t cpu0, cpu1;		/* 0xffff: unknown */
	uint32_t obj;
	uint8_t how;			/* enum km_vm_wake */
	size_t rec;			/* the KM_TR_WAKE record */
};

struct km_vm_lock {
	const struct km_lock *lock;
	uint32_t id;			/* as in the trace (KM_BKL_ID, ...) */
	size_t first, n;		/* into lspans */
	uint16_t max_holders, max_waiters;
	uint64_t acquisitions;		/* from the trace */
};

struct km_vm_counter {
	const struct km_counter *c;
	size_t first, n;		/* into points */
	int64_t lo, hi;
	bool falls;			/* goes down as well as up */
};

struct km_view_model {
	const struct km_run_info *ri;
	const struct km_sim *sim;
	const struct km_trace_rec *recs;
	size_t nrecs;
	km_time end;			/* last instant the trace describes */
	bool truncated;
	int ncpus;

	struct km_vm_span *spans;	/* all CPUs, CPU by CPU */
	size_t *cpu_first;		/* ncpus + 1 offsets into spans */

	struct km_vm_lock *locks;	/* declared locks, then the BKL, the GIL */
	int nlocks;
	int *lane_locks;		/* locks worth a lane, most contended first */
	int nlane_locks;
	struct km_vm_lspan *lspans;

	struct km_vm_counter *counters;
	int ncounters;
	int *lane_ctrs;			/* counters worth a sparkline, best first */
	int nlane_ctrs;
	struct km_vm_point *points;

	struct km_vm_arrow *arrows;
	size_t narrows;

	struct km_vm_tasks tasks;	/* per-context spans (view_tasks.h) */
	struct km_vm_source src;	/* the lines tasks ran (view_source.h) */

	size_t *viols;			/* record index of each violation */
	int32_t *viol_msg;		/* index into sim->violations, or -1 */
	size_t nviols;

	km_time typical_ns;		/* median length of a non-idle CPU span */
	/* per CPU, 1 when it is idle through the run: running, spinning and
	 * interrupts under 0.5% of it (the figures' "busy 0%"), idle 90% of
	 * it at least; the window folds such CPUs into one lane */
	uint8_t *cpu_quiet;
	int nquiet;
	uint8_t *ctx_colour;		/* per ctx id: task colour slot */
	uint32_t nctx;
	int hot_lock;			/* most contended lock, or -1 */
	uint64_t serial;		/* unique to this build: what a cache of
					 * things drawn from it checks, since a
					 * model may be rebuilt at the same address */
};

/**
 * km_vm_build - index @ri's run (its trace must have been stored).
 * Returns 0, or -1 with @err (no trace, out of memory).  On failure the
 * model is left empty and km_vm_free is still safe.  Cost: O(records).
 */
int km_vm_build(struct km_view_model *m, const struct km_run_info *ri, char *err, size_t errlen);
void km_vm_free(struct km_view_model *m);

/* The lock entry of a trace lock id, or -1. */
int km_vm_lock_index(const struct km_view_model *m, uint32_t id);
const char *km_vm_lock_name(const struct km_view_model *m, uint32_t id);
const char *km_vm_ctx_name(const struct km_view_model *m, uint32_t ctx);

/* Index of the last record at or before @t, or 0 (O(log n)). */
size_t km_vm_rec_at(const struct km_view_model *m, km_time t);

/* What CPU @cpu was doing at @t (the span containing it), or NULL. */
const struct km_vm_span *km_vm_cpu_at(const struct km_view_model *m, int cpu, km_time t);

/* The span of @m->locks[@li] containing @t, or NULL before the first. */
const struct km_vm_lspan *km_vm_lock_at(const struct km_view_model *m, int li, km_time t);

/* End of span @i of CPU @cpu (the next span's start, or m->end). */
static inline km_time km_vm_span_end(const struct km_view_model *m, int cpu, size_t i)
{
	return i + 1 < m->cpu_first[cpu + 1] ? m->spans[i + 1].t : m->end;
}

/**
 * km_vm_describe - the record @i in words, as the event line shows it:
 * "t=12.345 ms CPU1 creat/3 down(dir->i_sem): contended, sleeps (2 waiters)".
 * Returns @buf.
 */
const char *km_vm_describe(const struct km_view_model *m, size_t i, char *buf, size_t len);

/* @s with the simulator's " us" after a number written " \u00b5s", as the
 * view writes it everywhere, so that one line never has both (a
 * violation's message, made by the core, in the view's event line). */
const char *km_vm_micro(const char *s, char *buf, size_t len);

/* "12.345 ms" in the unit that suits the run's length. */
const char *km_vm_fmt_time(const struct km_view_model *m, km_time t, char *buf, size_t len);

/* A counter's value with its unit: bytes in KiB/MiB/GiB, else as is. */
const char *km_vm_fmt_value(int64_t v, const char *unit, char *buf, size_t len);

#endif /* KM_VIEW_VIEW_MODEL_H */
