/*
 * trace.h - the run's event record: fixed-size records, hashed as they go.
 *
 * Every observable thing that happens in a run -- a CPU changing what it
 * does, a lock contended, acquired or released, a wake-up, an interrupt,
 * a variable access, a violation -- is appended here as one 32-byte
 * record.  Two consumers read it: the trace hash (always on; it is the
 * run's fingerprint, the "trace_hash" of the report) and, when asked for,
 * the stored array that the view and the trace exporters read.
 *
 * Storing is optional because a sweep of hundreds of runs needs only the
 * statistics and the hash.  A third consumer, a sink, is handed every
 * record as it is emitted and keeps nothing here: a trace export spools
 * the records to a file through it, so that a run's memory does not grow
 * with its length (report/trace_spool.h).  Records never point into the heap: objects
 * are named by their index in the simulator's arrays, so the array can be
 * written out or handed to another process as it is.
 *
 * The hash folds each record as four 64-bit words built from its fields
 * (time; kind, flags, cpu, ctx; obj, aux; arg), from the FNV offset
 * basis, independent of struct layout and byte order, so it is the same
 * on any machine.
 *
 * NOTE: the fold is inline, here, on purpose.  A record is built field
 * by field (bytes, halves, words) just before it is hashed; read back
 * from memory as whole 64-bit words it stalls the processor's store
 * forwarding on every record (a tenth of a contended run's time).
 * Inline, the words are made from the fields still in registers.
 */
#ifndef KM_ENGINE_TRACE_H
#define KM_ENGINE_TRACE_H

#include "km.h"

/* The kinds of record.  What each one's fields mean is in one table,
 * trace_kinds.c; a new kind goes at the end (the numbers are hashed). */
enum km_trace_kind {
	KM_TR_CPU = 1,
	KM_TR_IRQOFF,
	KM_TR_TASK_START,
	KM_TR_TASK_EXIT,
	KM_TR_CONTEND,
	KM_TR_ACQUIRE,
	KM_TR_RELEASE,
	KM_TR_TRYFAIL,
	KM_TR_WAKE,
	KM_TR_BLOCK,
	KM_TR_IRQ_ENTER,
	KM_TR_IRQ_EXIT,
	KM_TR_VAR_READ,
	KM_TR_VAR_WRITE,
	KM_TR_ATOMIC,
	KM_TR_COUNTER,
	KM_TR_LOG,
	KM_TR_VIOLATION,
	KM_TR_PREEMPT,
	KM_TR_MIGRATE,
	KM_TR_KIND_MAX
};

/* Where a context's code was when it asked for an operation: the host's
 * source line (for a Lua scenario, the line of the call).  Noted by the
 * host, beside the trace and only when the trace is stored; never hashed,
 * so a run's trace hash does not depend on it. */
struct km_srcline {
	km_time time;
	uint32_t ctx;
	int32_t line;
};

/* No context, no object: the value of a record's ctx or obj that names
 * none.  Which array a record's obj indexes is its kind's (trace_kinds.h). */
#define KM_TR_NONE UINT32_MAX

struct km_trace_rec {
	km_time time;
	uint8_t kind;
	uint8_t flags;
	uint16_t cpu;		/* 0xffff = no CPU */
	uint32_t ctx;		/* KM_TR_NONE = no context */
	uint32_t obj;
	uint32_t aux;
	int64_t arg;
};

/*
 * A consumer of every record, as it is emitted; the stored array's limit
 * does not apply to it.  put() cannot fail the run: a sink that cannot
 * keep a record remembers why and says so when it is read.
 */
struct km_trace_sink {
	void (*put)(struct km_trace_sink *sink, const struct km_trace_rec *r);
};

struct km_trace {
	uint64_t hash;
	uint64_t count;		/* records emitted, stored or not */
	bool store;		/* keep records in recs[] */
	struct km_trace_sink *sink;	/* or NULL */
	struct km_trace_rec *recs;
	size_t len, cap;
	size_t limit;		/* 0 = unlimited; else keep only the first `limit` */
	bool truncated;
};

void km_trace_init(struct km_trace *t, bool store, size_t limit);
void km_trace_free(struct km_trace *t);

/*
 * One 64-bit word into the hash: xor, multiply by the golden-ratio odd
 * constant, fold the high half down so every bit of the word reaches
 * every bit of the state.  Four words per record, about ten instructions
 * where byte-wise FNV-1a took more than 250: the hash is on the path of
 * every event.
 */
static inline uint64_t km_trace_mix(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 32);
}

/* A record's four words, as the hash takes them (km_trace_fold): its
 * time; kind, flags, CPU and context; object and aux; arg. */
static inline uint64_t km_trace_fold_words(uint64_t h, km_time time, uint64_t head,
					   uint64_t objaux, int64_t arg)
{
	h = km_trace_mix(h, (uint64_t)time);
	h = km_trace_mix(h, head);
	h = km_trace_mix(h, objaux);
	return km_trace_mix(h, (uint64_t)arg);
}

/* Folds @r into the hash only (the run's configuration, at start). */
static inline void km_trace_fold(struct km_trace *t, const struct km_trace_rec *r)
{
	t->hash = km_trace_fold_words(t->hash, r->time,
				      (uint64_t)r->kind | (uint64_t)r->flags << 8 |
				      (uint64_t)r->cpu << 16 | (uint64_t)r->ctx << 32,
				      (uint64_t)r->obj | (uint64_t)r->aux << 32, r->arg);
}

/* Stores @r and hands it to the sink (km_trace_emit's slow half).
 * Returns 0 or KM_ENOMEM. */
int km_trace_store(struct km_trace *t, const struct km_trace_rec *r);

/* Appends a record (stored if storing) and folds it into the hash.
 * Returns 0 or KM_ENOMEM (the hash is updated either way). */
static inline int km_trace_emit(struct km_trace *t, const struct km_trace_rec *r)
{
	km_trace_fold(t, r);
	t->count++;
	if (!t->store && !t->sink)
		return KM_OK;
	return km_trace_store(t, r);
}

#endif /* KM_ENGINE_TRACE_H */
