/*
 * trace_writer.h - what the trace exporters share: the state of one walk
 * over a run's records, and what a format must provide to be walked.
 *
 * Internal to report/.  trace_export.c is the walk (pass 1, the pairing
 * of lock records into wait and hold slices, their lanes, the slice ends
 * of a spooled trace) and the skeleton both formats run in;
 * trace_chrome.c and trace_ftrace.c are the formats, each a struct writer
 * with a handler per record kind.  trace_export.c's essay says how the
 * slices are laid out, the format files what each format writes.
 *
 * The small helpers below name things by their index in the run (a lock,
 * a context, an interrupt source) the same way in both formats.
 */
#ifndef KM_REPORT_TRACE_WRITER_H
#define KM_REPORT_TRACE_WRITER_H

#include "trace_export.h"
#include "trace_spool.h"
#include "../trace_kinds.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define NONE32 UINT32_MAX
#define FT_PID_BASE 1000		/* ftrace's pids, and Chrome's tids of the lanes */

enum { SL_WAIT, SL_HOLD };

/* One lane of a track: the end times of its open slices, innermost last. */
struct lane {
	km_time *st;
	uint32_t n, cap;
	bool named;
};

struct track {
	struct lane *lanes;
	uint32_t n;
};

/* An open hold: who, which incarnation (irq contexts are recycled). */
struct ohold {
	uint32_t ctx, gen, track;
	uint64_t ord;
	int32_t lane;			/* -1: not drawn (zero length) */
};

struct holdvec {
	struct ohold *v;
	uint32_t n, cap;
};

struct owait {
	uint32_t li, track;		/* li NONE32: not waiting */
	uint64_t ord;
	int32_t lane;
};

/* A wake-up arrow on its way to being written (Chrome). */
struct flow {
	uint64_t id;
	uint32_t wakee;
	int src_cpu, dst_cpu;
	km_time src_t, s_ts, f_ts;
	bool s_done, f_done, dst_bound;
	int32_t next;			/* in a CPU's list */
};

struct cpu_st {
	int state;
	uint32_t ctx;
	km_time since;
	bool irqoff;
	km_time irqoff_since;
	bool has_last;
	km_time last_start, last_end;	/* the last slice written */
	int32_t src_head, dst_head;	/* flows anchored on the open slice */
	uint32_t ftask;			/* ftrace: the task on it, NONE32 idle */
	int irq_depth;
};

struct tx;
typedef void (*rec_fn)(struct tx *x, const struct km_trace_rec *r);

/*
 * A format: what it writes before the records, for a record of each kind
 * (on[kind], NULL: nothing), for the lock slices and counters the pairing
 * finds, and after the records.  The walk around them is the same for
 * both (km_trace_export_run()).
 */
struct writer {
	void (*begin)(struct tx *x);
	rec_fn on[KM_TR_KIND_MAX];
	/* a wait or hold slice, on @lane of @track, until @end */
	void (*slice_open)(struct tx *x, int kind, int li, uint32_t ctx,
			   const struct km_trace_rec *r, uint32_t track, uint32_t lane, km_time end);
	void (*slice_close)(struct tx *x, uint32_t track, uint32_t lane, int cpu, km_time t);
	void (*lock_counters)(struct tx *x, int li, const struct km_trace_rec *r, uint32_t held,
			      uint32_t waiting);
	void (*end)(struct tx *x);
};

struct tx {
	const struct writer *w;
	int pass;
	const struct km_run_info *ri;
	const struct km_sim *sim;
	FILE *out;
	const struct km_trace_rec *recs;	/* the stored array, or NULL: */
	struct km_trace_spool *spool;		/* the records on disk */
	uint64_t nrecs;
	bool truncated;
	struct km_trace_rec *rbuf;		/* a block of the spool */
	uint64_t rfirst;
	size_t rlen;
	int ioerr;				/* errno of a scratch read or write */
	km_time end;
	uint32_t nctx, nsrc, nlocks, ntracks;
	int ncpus;
	bool oom;
	bool stop;			/* the user asked to stop (km_trace_export_cancel) */

	/* pairing */
	struct holdvec *holds;		/* per lock */
	uint32_t *waiters;		/* per lock */
	bool *lock_used;
	bool *irqoff_used;		/* per CPU */
	struct owait *wait;		/* per context */
	uint32_t *gen, *irq_src;	/* per context */
	km_time *ends;			/* ends[ord - ends_base] */
	uint64_t nends, ends_base;
	size_t capends, ends_len;	/* ends_len: pass 2's window, spooled */
	uint64_t next_ord;

	/* pass 2 */
	struct track *tracks;
	struct cpu_st *cpus;
	uint32_t *c_held, *c_wait;	/* last counter values written */
	km_time *rel_t;			/* per lock: last release/give-up */
	int *rel_cpu;
	struct flow *flows;
	uint32_t nflows, capflows;
	int32_t free_flow;
	int32_t *flow_of;		/* per context */
	uint64_t next_flow_id;
	uint8_t *pstate;		/* per context (ftrace) */
	int *last_cpu;			/* per context */
	uint64_t nev;			/* Chrome events written */
	char ft_comm[24];		/* ftrace: the scenario's process's comm */
	int32_t kept[KM_V_KINDS][KM_VIOLATIONS_KEPT];
	uint32_t nkept[KM_V_KINDS], vseen[KM_V_KINDS];
};

/* ------------------------------------------------------------- helpers -- */

static inline int lock_index(const struct tx *x, uint32_t id)
{
	if (id < x->sim->locks.n)
		return (int)id;
	if (id == KM_BKL_ID)
		return (int)x->sim->locks.n;
	if (id == KM_GIL_ID)
		return (int)x->sim->locks.n + 1;
	return -1;
}

static inline const char *lock_name(const struct tx *x, int li)
{
	const struct km_sim *sim = x->sim;
	const struct km_lock *l = li < (int)sim->locks.n ? sim->locks.v[li] :
				  li == (int)sim->locks.n ? sim->bkl : sim->gil;
	return l && l->name ? l->name : "?";
}

static inline const char *src_name(const struct tx *x, uint32_t src)
{
	if (src < x->nsrc && x->sim->irqsrcs.v[src]->name)
		return x->sim->irqsrcs.v[src]->name;
	return "?";
}

static inline bool is_irq(const struct tx *x, uint32_t ctx)
{
	return ctx < x->nctx && km_ctx_kind(x->sim->ctxs.v[ctx]) == KM_CTX_IRQ;
}

/* What to call a context now: a task's name, an interrupt's source. */
static inline const char *ctx_name(const struct tx *x, uint32_t ctx)
{
	if (ctx >= x->nctx)
		return "-";
	if (is_irq(x, ctx) && x->irq_src[ctx] != NONE32)
		return src_name(x, x->irq_src[ctx]);
	const char *n = km_ctx_name(x->sim->ctxs.v[ctx]);
	return n ? n : "?";
}

/* The track of a context's lock slices: its own, or its irq source's. */
static inline uint32_t track_of(const struct tx *x, uint32_t ctx)
{
	if (is_irq(x, ctx) && x->irq_src[ctx] != NONE32 && x->irq_src[ctx] < x->nsrc)
		return x->nctx + x->irq_src[ctx];
	return ctx;
}

static inline uint64_t lane_tid(const struct tx *x, uint32_t track, uint32_t lane)
{
	return FT_PID_BASE + (uint64_t)lane * x->ntracks + track;
}

static inline void *grow(void *v, uint32_t *cap, uint32_t need, size_t el, bool *oom)
{
	if (need <= *cap)
		return v;
	uint32_t ncap = *cap ? *cap * 2 : 8;
	while (ncap < need)
		ncap *= 2;
	void *n = realloc(v, (size_t)ncap * el);
	if (!n) {
		*oom = true;
		return NULL;
	}
	*cap = ncap;
	return n;
}

static inline struct lane *lane_get(struct tx *x, uint32_t track, uint32_t k)
{
	struct track *T = &x->tracks[track];
	if (k >= T->n) {
		struct lane *n = realloc(T->lanes, (size_t)(k + 1) * sizeof(*n));
		if (!n) {
			x->oom = true;
			return NULL;
		}
		memset(n + T->n, 0, (size_t)(k + 1 - T->n) * sizeof(*n));
		T->lanes = n;
		T->n = k + 1;
	}
	return &T->lanes[k];
}

static inline const char *violation_msg(struct tx *x, const struct km_trace_rec *r)
{
	uint32_t k = r->aux;
	if (k >= KM_V_KINDS)
		return NULL;
	uint32_t n = x->vseen[k]++;
	if (n < x->nkept[k] && x->kept[k][n] >= 0)
		return x->sim->violations.v[x->kept[k][n]].message;
	return NULL;
}

static inline const char *log_msg(const struct tx *x, const struct km_trace_rec *r)
{
	if (r->obj < x->sim->logs.n && x->sim->logs.v[r->obj])
		return x->sim->logs.v[r->obj];
	return "";
}

static inline const char *counter_name(const struct tx *x, uint32_t id)
{
	if (id < x->sim->counters.n && x->sim->counters.v[id]->name)
		return x->sim->counters.v[id]->name;
	return "?";
}

/*
 * km_trace_export_run - the skeleton: set up @x and run pass 1, then
 * @w's head, the walk handing @w each record, @w's tail; 0, or -1 with
 * @err.  @x is the caller's (it lives on the caller's stack).
 * Context: the thread that ran the run, after it.
 */
int km_trace_export_run(struct tx *x, const struct writer *w, const struct km_run_info *ri,
			struct km_trace_spool *spool, FILE *out, char *err, size_t errlen);

#endif /* KM_REPORT_TRACE_WRITER_H */
