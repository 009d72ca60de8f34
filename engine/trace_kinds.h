/*
 * trace_kinds.h - what each kind of trace record means: one row a kind.
 *
 * A trace record (trace.h) is five numbers -- cpu, ctx, obj, aux, arg --
 * whose meaning depends on its kind: obj is a lock in one kind, a
 * variable or an interrupt source in another, and arg is a CPU state, a
 * wait in nanoseconds or a value.  This table says it once, for every
 * reader: the name of the kind, which of the simulator's arrays obj
 * indexes (its namespace), what ctx, aux and arg hold, and whether it
 * reads or changes its object.  It is data
 * and nothing else, as the core is: how a kind is drawn is the view's
 * business (view_describe.c, view_model.c), how it is exported the
 * report's (trace_chrome.c and trace_ftrace.c each keep a small table of
 * their own, keyed on the same kind).
 *
 * To add a kind: its enum entry in trace.h (at the end: the kind's number
 * is folded into every trace hash), its row in trace_kinds.c, then where
 * it is emitted, and what the view and the exporters make of it.  A kind
 * without a row here fails the unit test test_trace_kinds.
 */
#ifndef KM_ENGINE_TRACE_KINDS_H
#define KM_ENGINE_TRACE_KINDS_H

#include "trace.h"

/* Which of the simulator's arrays a record's obj indexes. */
enum km_trace_ns {
	KM_TNS_NONE,		/* none: obj is KM_TR_NONE */
	KM_TNS_LOCK,		/* sim->locks, or KM_BKL_ID, KM_GIL_ID */
	KM_TNS_IRQSRC,		/* sim->irqsrcs */
	KM_TNS_VAR,		/* sim->vars */
	KM_TNS_ATOMIC,		/* sim->atomics */
	KM_TNS_COUNTER,		/* sim->counters */
	KM_TNS_LOG,		/* sim->logs, the log() messages */
	KM_TNS_WAIT,		/* what a context sleeps on: a lock, a wait queue or a
				 * completion, or none; the record says which (its arg
				 * for a wake-up, its aux for a block) */
	KM_TNS_CHECKED,		/* the lock a violation is about, else its variable,
				 * else none */
};

/* What a record does to the object obj names, as one who asks "could
 * these two steps be swapped?" sees it (the explorer, choice.c). */
enum km_trace_access {
	KM_TACC_NONE,		/* nothing that another step could see */
	KM_TACC_READ,		/* reads it */
	KM_TACC_WRITE,		/* changes it; every record of a lock counts so (its
				 * owner, its queue or its waiters change; a trylock
				 * that fails, conservatively, too) */
	KM_TACC_SCHED,		/* puts a context to sleep or wakes one: writes what
				 * it sleeps on and the scheduler, so it conflicts with
				 * the steps on that object and every other block or
				 * wake-up (choice.c) */
};

/*
 * One kind.  ctx, aux and arg say what those fields hold, in a few words;
 * NULL for aux or arg: unused, always 0.
 */
struct km_trace_kind_info {
	const char *name;	/* short and lower case: "contend" */
	enum km_trace_ns ns;	/* what obj names */
	const char *ctx;
	const char *aux;
	const char *arg;
	enum km_trace_access access;	/* what it does to obj */
};

/* The row of @kind, or NULL when @kind is no kind (0, or past the last).
 * Context: any; the table is constant. */
const struct km_trace_kind_info *km_trace_kind_info(unsigned kind);

/* Is @kind one of a lock's own records (contend, acquire, release,
 * tryfail), whose obj is the lock and whose ctx is the context it acts
 * for?  What the exporters and the view pair into waits and holds. */
static inline bool km_trace_kind_is_lock(unsigned kind)
{
	const struct km_trace_kind_info *k = km_trace_kind_info(kind);
	return k && k->ns == KM_TNS_LOCK;
}

#endif /* KM_ENGINE_TRACE_KINDS_H */
