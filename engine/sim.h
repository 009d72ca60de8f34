/*
 * sim.h - the simulated machine: CPUs, contexts, kernel objects, the run.
 *
 * This is the heart of lockmuseum.  A run is a discrete-event simulation
 * of one era's kernel on N CPUs.  Contexts (kernel threads, and one
 * context per interrupt-handler invocation) execute scenario code through
 * a host (the Lua layer, or a C test driver); every operation that takes
 * simulated time is a call into this core that either completes at once
 * or makes the context wait -- for a compute segment to end, a lock, a
 * wake-up -- after which the host is asked to resume it.
 *
 * Rules that keep a run reproducible and the core simple:
 *  - Only the event loop (km_sim_run) resumes contexts.  Operations never
 *    run another context's code; they schedule events.  So scenario code
 *    is never re-entered.
 *  - At most one context per CPU has a live segment event: the one on top
 *    (the innermost interrupt handler, else the current task).  Anything
 *    below it is paused, with the time it still had to run.
 *  - Objects are created before the run (declarations) or by spawn, and
 *    never freed until the run ends: their index is their identity in the
 *    trace.
 *
 * What it is not: a model of caches, memory ordering or real scheduling
 * classes.  Costs are the era's published figures; the scheduler is a
 * per-CPU FIFO run queue with tick-based round robin, idle placement and
 * idle stealing, which is enough to show every effect this museum is
 * about.
 */
#ifndef KM_ENGINE_SIM_H
#define KM_ENGINE_SIM_H

#include "cache.h"
#include "choice.h"
#include "era.h"
#include "evq.h"
#include "rng.h"
#include "stats.h"
#include "trace.h"

struct km_sim;
struct km_ctx;
struct km_lock;

/* ---------------------------------------------------------------- CPUs -- */

enum km_cpu_state {
	KM_CPU_IDLE,
	KM_CPU_BUSY,		/* a task's code */
	KM_CPU_SPIN,		/* burning cycles on a lock */
	KM_CPU_IRQ,		/* an interrupt handler */
	KM_CPU_SWITCH,		/* a context switch */
	KM_CPU_STATES
};

struct km_irqsrc;

struct km_cpu {
	int id;
	struct km_ctx *curr;		/* the task on this CPU, or NULL */
	struct km_ctx *irq_top;		/* innermost running irq context */
	struct km_ctx *rq_head, *rq_tail;
	int rq_len;
	bool need_resched;
	bool switching;			/* a context switch is under way */
	struct km_ctx *switch_to;
	struct km_ctx *leaving;		/* blocked, finishing its way to sleep */
	bool to_idle;			/* the switch under way is to the idle task */
	uint64_t token;			/* for switch and tick events */
	bool tick_armed, tick_pending;
	int irq_pending;		/* sources with an interrupt latched */
	struct km_irqsrc *irqs;		/* sources wired to this CPU */
	/* accounting */
	enum km_cpu_state state;
	struct km_ctx *state_ctx;
	km_time state_since;
	km_time acct[KM_CPU_STATES];
	bool irqoff;			/* as last shown */
	km_time irqoff_since, irqoff_ns;
	uint64_t ctxsw;
	uint64_t migrations;		/* tasks that came here from another CPU */
	km_time rq_lock_free;		/* era.rq_lock: when its run-queue lock is next free */
	km_time icr_busy_until;		/* era ipi cost: its APIC's last IPI is on the bus till then */
	km_time resched_ipi_lands;	/* era ipi cost: a reschedule IPI to this idle CPU
					 * is on its way until then (need_resched is set) */
	struct km_ctx *spin_ctx;	/* spinning for a sleeping lock's wait-list lock */
	km_time spin_until;		/* ... until then, inside its segment or tail */
	int spin_slot;			/* its place in sim->spin_heap while the window is
					 * not closed yet, or -1 */
	uint64_t spin_seq;		/* when it went on the heap: ties close the later first */
	/* the O(1) scheduler's balancing (balance.c): rebalance_tick()'s
	 * load averages over 1, 2 and 4 ticks, 128 a task; the periodic
	 * balancing's failures in a row, interval (ms) and last (jiffies) */
	uint64_t cpu_load[3];
	int balance_failed, balance_interval;
	int64_t last_balance;
	/* the queued spinlock's per-CPU MCS node (qspinlock.c's mcs_nodes[]:
	 * one 64-byte line a CPU, homed on it): where a queued waiter spins */
	struct km_line mcs_node;
	/* topology.store_buffer: when its last buffered store is visible.
	 * x86's TSO: stores drain in order, and a locked instruction waits
	 * for the buffer to drain (cache.c, km_line_store and km_line_rmw) */
	km_time sb_drained;
	/* where it sits in the machine's topology (cache.c, km_cache_setup) */
	int socket, die, core;
	/* CFS (era.scheduler, sched_fair.c): the cfs_rq's min_vruntime and
	 * its next buddy (the last task woken here), or NULL */
	int64_t min_vruntime;
	struct km_ctx *cfs_next;
	/* O(1) (era.scheduler, sched_o1.c): rq->expired_timestamp, in
	 * jiffies plus one (0: unset) */
	int64_t o1_expired_since;
};

/* ------------------------------------------------------------ contexts -- */

enum km_ctx_kind { KM_CTX_TASK, KM_CTX_IRQ };

enum km_ctx_state {
	KM_CTX_NEW,		/* declared, not started yet */
	KM_CTX_RUNNABLE,	/* on a run queue (or about to be) */
	KM_CTX_ONCPU,		/* current on a CPU, possibly interrupted */
	KM_CTX_BLOCKED,		/* sleeping */
	KM_CTX_DONE,
};

/* What an on-CPU context is doing. */
enum km_act {
	KM_ACT_NONE,		/* executing host code right now, or off CPU */
	KM_ACT_SEG,		/* a timed segment: compute, an operation's cost */
	KM_ACT_SPIN,		/* spinning for a lock */
	KM_ACT_READY,		/* must be resumed as soon as it is on top */
};

enum km_wait {
	KM_WAIT_NONE,
	KM_WAIT_LOCK,
	KM_WAIT_SLEEP,
	KM_WAIT_WQ,
	KM_WAIT_COMPLETION,
};

/* Deferred work run by the core before the context's code resumes. */
enum km_then {
	KM_THEN_NONE,
	KM_THEN_VAR_ADD,	/* commit the write half of add() */
	KM_THEN_REDO_DOWN,	/* woken to retry (legacy semaphore, old mutex) */
	KM_THEN_IRQ_EXIT,	/* irq handler body done: leave the interrupt */
	KM_THEN_WAIT_LOCK,	/* spun for a lock's wait-list lock: its section now */
};

struct km_hold {
	struct km_lock *lock;
	struct km_ctx *ctx;
	km_time since;
	int cpu;
	struct km_hold *lnext, *lprev;	/* on the lock's holder list, oldest first */
	struct km_hold *cnext, *cprev;	/* on the context's held list */
};

#define KM_READSET 4

/*
 * struct km_ctx is the core's own (ctx.h): above the core a context is a
 * handle, read through these.  Each is O(1) and changes nothing.
 * Context: any, the context being one of the run's (sim->ctxs).
 */
uint32_t km_ctx_id(const struct km_ctx *ctx);		/* its index in sim->ctxs */
const char *km_ctx_name(const struct km_ctx *ctx);	/* a task's name; NULL for irq */
enum km_ctx_kind km_ctx_kind(const struct km_ctx *ctx);
int km_ctx_cpu(const struct km_ctx *ctx);	/* the CPU it is on or last ran on; -1 never ran */
int64_t km_ctx_result(const struct km_ctx *ctx);	/* its last operation's result */
uint32_t km_ctx_irq_source(const struct km_ctx *ctx);	/* an irq context's source's id */
/* The host's handle (a Lua thread), NULL until the host sets one. */
void *km_ctx_host(const struct km_ctx *ctx);
void km_ctx_set_host(struct km_ctx *ctx, void *host);

/* Where a task's time went, what the reports print. */
struct km_ctx_stats {
	int cpu;				/* as km_ctx_cpu() */
	km_time cpu_ns, spin_ns, blocked_ns, runnable_ns;
	bool finished;				/* its code returned */
	km_time end_ns;				/* when, if finished */
	uint64_t acquisitions;			/* locks it took */
};
void km_ctx_stats(const struct km_ctx *ctx, struct km_ctx_stats *out);

/*
 * km_irqsrc_handler - the contexts running a handler of @src now (or
 * interrupted by another handler), innermost first: the one below @after
 * on @src's CPU, or the innermost if @after is NULL.  NULL when there is
 * no more.  Context: any.
 */
const struct km_ctx *km_irqsrc_handler(const struct km_sim *sim, const struct km_irqsrc *src,
				       const struct km_ctx *after);


/* ------------------------------------------------------------- objects -- */

/* enum km_prim, the five primitives, is in era.h: an era offers them. */

/* --mode: native (each lock's own kind) or one primitive for all. */
enum km_mode {
	KM_MODE_NATIVE = -1,
	/* otherwise an enum km_prim */
};

struct km_waitlist {
	struct km_ctx *head, *tail;
	uint32_t len;
};

struct km_lock_ops;
struct km_hooks;

struct km_lock {
	uint32_t id;
	char *name;
	enum km_prim kind;		/* declared */
	enum km_prim prim;		/* effective under the mode */
	int count;			/* initial count */
	bool pinned;
	int spin;			/* as a spinlock: an enum km_spin_flavour the
					 * scenario chose (lock{ spin= }), 0: the era's */
	const struct km_lock_ops *ops;

	/* primitive state, of more than one primitive */
	int avail;			/* semaphore units */
	struct km_ctx *owner;
	struct km_waitlist waiters;	/* sleepers, FIFO */
	struct km_waitlist spinners;
	struct km_ctx *woken;		/* a woken waiter on its way to retry */
	uint32_t inflight;		/* woken waiters on their way to retry */
	uint32_t reserved;		/* units up() woke a sleeper for, not yet taken */
	/*
	 * What one kind of primitive alone keeps, as Lua's lobject.h keeps a
	 * value's variants in one union: the arm is the one of the lock's
	 * method table (ops), fixed by km_sim_start() before any is written,
	 * and only that table's file touches it.  All zero at declaration.
	 */
	union {
		/* the raw spinning lock (lock_raw.c): spinlock, spinning BKL,
		 * global irq lock */
		struct {
			uint64_t token;		/* test-and-set hand-off window */
			bool window_open;
			struct km_ctx *window_next;	/* ... the spinner first to
							 * see the lock free */
			bool q_pending;		/* queued: the first spinner holds the
						 * pending bit and spins on the lock
						 * word, outside the MCS queue
						 * (qspinlock.c, 4.2) */
		} raw;
		/* semaphore (lock_sem.c) and semaphore BKL (lock_bkl_sem.c) */
		struct {
			int sleepers;		/* legacy semaphore: i386 sem->sleepers */
		} sem;
		/* mutex (lock_mutex.c) */
		struct {
			bool handoff;		/* next unlock hands to the top waiter */
			bool count_negative;	/* 2.6.16-4.9: a slow path left the count
						 * at -1, so the next unlock takes the
						 * slow path */
		} mutex;
	} u;
	struct km_line line;		/* its word (and, for the sleeping locks, the
					 * wait-list lock and list beside it) */
	int acq_cpu;			/* CPU of the previous acquisition */
	km_time since;			/* the BKLs and the global cli lock: when
					 * the owner took it (its hold time); other
					 * locks keep it per holder, km_hold */
	km_time wait_lock_free;		/* sleeping locks: when their wait_lock is next free */

	struct km_hold *holders, *holders_tail;
	int nholders;
	uint32_t nwaiting;
	bool used;
	struct km_lockstat st;

	/* lockdep: usage and the lock-order graph (lockdep.c) */
	bool used_in_irq;		/* taken in an interrupt handler */
	bool used_irqs_on;		/* taken by a task with interrupts on */
	bool irq_reported;
	uint32_t *after;		/* locks taken while holding this one */
	uint32_t nafter, capafter;
};

struct km_var {
	uint32_t id;
	char *name;
	int64_t value, initial;
	uint64_t version;
	struct km_ctx *last_writer;
	km_time last_write;
	struct km_line line;		/* alone on its line */
	struct km_line *shared;		/* var{ line = }: the named line it shares
					 * with others (km_data_line), or NULL */
	struct km_lock *lock;		/* the lock whose word is on that line
					 * (lock{ line = }), or NULL */
	uint64_t lost;
};

struct km_atomic {
	uint32_t id;
	char *name;
	int64_t value;
	struct km_line line;
	struct km_line *shared;		/* as struct km_var's */
	struct km_lock *lock;		/* as struct km_var's */
};

/*
 * struct km_dline - a cache line the scenario named for its variables
 * (var{ line = "NAME" }): every var and atomic naming it lives on it --
 * false sharing, or a structure's fields together.
 */
struct km_dline {
	char *name;
	struct km_line line;
	struct km_lock *lock;	/* lock{ line = }: the lock whose word is on
				 * it -- then the line is the lock's own */
};

/* The line a variable's accesses move: the named one it shares, else its
 * own. */
static inline struct km_line *km_var_line(struct km_var *v)
{
	return v->shared ? v->shared : &v->line;
}

static inline struct km_line *km_atomic_line(struct km_atomic *a)
{
	return a->shared ? a->shared : &a->line;
}

struct km_counter {
	uint32_t id;
	char *name;
	char *unit;
	int64_t value, peak;
};

struct km_waitq {
	uint32_t id;
	char *name;
	struct km_waitlist waiters;
	uint64_t wakeups;
};

struct km_completion {
	uint32_t id;
	char *name;
	uint64_t done;			/* UINT64_MAX after complete_all */
	struct km_waitlist waiters;
};

struct km_irqsrc {
	uint32_t id;
	char *name;
	int cpu;
	km_time every, jitter, start;
	km_time next_nominal;
	km_time next_at;		/* when its next firing is due (jitter drawn) */
	bool pending;
	uint64_t fired, coalesced;
	struct km_irqsrc *cpu_next;
	struct km_minmax handler;	/* entry to exit */
	void *host;
};

struct km_opstat {
	char *name;
	struct km_hist hist;
};

/* --------------------------------------------------------- violations -- */

enum km_violation_kind {
	KM_V_LOST_UPDATE,
	KM_V_SLEEP_IN_ATOMIC,
	KM_V_MUTEX_UNLOCK_IN_IRQ,
	KM_V_MUTEX_UNLOCK_NOT_OWNER,
	KM_V_UNLOCK_NOT_HELD,
	KM_V_LOCK_ORDER,
	KM_V_IRQ_UNSAFE,
	KM_V_DEADLOCK,
	KM_V_RECURSIVE_LOCK,
	KM_V_HELD_AT_EXIT,
	KM_V_KINDS
};

struct km_violation {
	enum km_violation_kind kind;
	km_time time;
	int32_t ctx;			/* -1 none */
	int32_t lock;			/* -1 none */
	int32_t var;			/* -1 none */
	char *message;			/* one line */
	char *splat;			/* lockdep-style report, several lines, or NULL */
};

/* log() lines kept per run; later ones are only counted. */
#define KM_LOGS_KEPT 100000

/* Distinct measure() names per run: each keeps a 4 KiB histogram outside
 * the Lua budget, so a name per call must end, not grow without bound. */
#define KM_MAX_OPSTATS 1024

/* Only the first few of each kind keep their message; all are counted. */
#define KM_VIOLATIONS_KEPT 64

/* --------------------------------------------------------------- host -- */

/*
 * What the core needs from whoever runs scenario code.  All three are
 * called only from the event loop, never from inside an operation.
 */
struct km_host_ops {
	/* Run ctx's code from where it stopped until it waits (an operation
	 * returned KM_STEP_WAIT, and km_ctx_run_ahead, if the host asks it,
	 * could not end the wait in place) or ends (the host then calls
	 * km_ctx_finish).  Returns 0, or a negative code after setting
	 * sim->errmsg, which ends the run as an error. */
	int (*resume)(void *host, struct km_sim *sim, struct km_ctx *ctx);
	/* Make ctx ready to run one invocation of src's handler. */
	int (*irq_prepare)(void *host, struct km_sim *sim, struct km_ctx *ctx,
			   struct km_irqsrc *src);
	/* ctx will not run again: release what the host keeps for it. */
	void (*ctx_release)(void *host, struct km_sim *sim, struct km_ctx *ctx);
};

/* ---------------------------------------------------------------- run -- */

enum km_outcome {
	KM_OUT_NONE,
	KM_OUT_COMPLETED,
	KM_OUT_DEADLOCK,
	KM_OUT_TIME_LIMIT,
	KM_OUT_NOT_APPLICABLE,
	KM_OUT_ERROR,
};

struct km_config {
	int cpus;			/* 1 .. KM_MAX_CPUS */
	uint64_t seed;
	km_time duration;		/* simulated-time bound */
	int mode;			/* KM_MODE_NATIVE or enum km_prim */
	bool anachronism;
	bool store_trace;
	size_t trace_limit;		/* 0: keep every record */
	/* Handed every record as it is emitted, stored or not (a trace
	 * export's spool); NULL: none.  Never hashed: it changes nothing
	 * in the run. */
	struct km_trace_sink *trace_sink;
	uint64_t max_events;		/* 0: no bound */
	double max_wall;		/* seconds; 0: no bound */
	/* When the wall-clock budget started, in CLOCK_MONOTONIC seconds; 0:
	 * at km_sim_run.  A host that ran code before the run (a scenario's
	 * top level) passes its own start, so the budget covers the whole
	 * session and not each phase afresh. */
	double wall_origin;
	/* Set (by a signal handler, say) to stop the run early: it ends as an
	 * error with KM_EINTR.  May be NULL. */
	volatile const int *stop;
	/* Refuse every run-ahead (km_ctx_run_ahead): each operation waits for
	 * the event loop.  For tests only: a run must not differ in any byte. */
	bool no_run_ahead;
	/* A decision source at every choice point (choice.h), or NULL: the
	 * run's own timing, exactly.  Implies no_run_ahead. */
	const struct km_chooser *chooser;
	/* The longest a chooser may hold a task (choice.h); 0: no bound, a
	 * hold lasts until the one it let go first has gone. */
	km_time hold_max;
};

#define KM_VEC(type) struct { type *v; uint32_t n, cap; }

struct km_sim {
	struct km_era era;
	struct km_config cfg;
	km_time now;
	km_time apic_bus_free;		/* P6 serial APIC bus: when it is next free */
	struct km_bookings fsb;		/* a front-side bus (links = "bus", cache.c):
					 * when it is busy with a transaction */
	struct km_evq evq;
	struct km_rng rng;
	struct km_trace trace;

	int ncpus;
	int nsockets;			/* sockets the run's CPUs span (cache.c) */
	struct km_cpu *cpus;
	uint64_t idle_mask[KM_MAX_CPUS / 64];	/* CPUs with no task and no switch */
	/* Above KM_RQ_TREE_MIN CPUs, two tournament trees over the run-queue
	 * lengths (rq.c): node n holds the CPU with the shortest (rq_short)
	 * or longest (rq_long) queue below it, the lower id on a tie; leaves
	 * start at rq_tree_size.  NULL below the threshold: a scan is cheaper. */
	int *rq_short, *rq_long;
	int rq_tree_size;
	int *rq_dirty;			/* CPUs whose queue changed since the trees */
	int rq_ndirty;			/*   were last brought up to date */
	uint8_t *rq_is_dirty;
	uint32_t queued;			/* tasks on all run queues */
	bool balance_armed;		/* era.o1_balance: a KM_EV_BALANCE is queued */
	/* A tick's balancing reads every CPU's load for each idle CPU: the
	 * same loads, so balance.c reads them once per tick and pull --
	 * the total, the highest, and the CPUs at it in id order. */
	int *bal_at_max;
	int bal_n_at_max;
	uint64_t bal_max, bal_total;
	km_time bal_at;			/* when read (-1: never) */
	uint64_t bal_gen, bal_gen_at;	/* pulls so far; when read */

	KM_VEC(struct km_ctx *) ctxs;
	KM_VEC(struct km_lock *) locks;
	KM_VEC(struct km_var *) vars;
	KM_VEC(struct km_atomic *) atomics;
	KM_VEC(struct km_dline *) dlines;
	KM_VEC(struct km_counter *) counters;
	KM_VEC(struct km_waitq *) waitqs;
	KM_VEC(struct km_completion *) completions;
	KM_VEC(struct km_irqsrc *) irqsrcs;
	KM_VEC(struct km_opstat *) opstats;
	KM_VEC(char *) logs;
	uint64_t logs_dropped;
	KM_VEC(struct km_violation) violations;
	uint64_t violation_count[KM_V_KINDS];

	struct km_lock *bkl;		/* the Big Kernel Lock (kernel_flag) */
	struct km_lock *gil;		/* the global irq lock of SMP cli(), the kernel's
					 * global_irq_lock (era.global_cli) */
	int irqs_running;		/* handlers past irq_enter, all CPUs */

	struct km_ctx *free_irq_ctx;	/* recycled irq contexts */
	struct km_hold *free_hold;
	KM_VEC(struct km_hold *) hold_chunks;

	const struct km_host_ops *host;
	void *host_data;
	/* what the lower floors of the core hand up (hooks.h), set by
	 * km_sim_new() */
	const struct km_hooks *hooks;

	struct km_ctx *running;		/* whose code or operation runs now, or NULL */
	int live_tasks;
	int64_t productive;		/* pending events that move a task */
	km_time sleep_release;		/* what schedule()'s release_kernel_lock() of
					 * a semaphore BKL cost the task leaving */
	km_time wait_lock_spin;		/* lock.c: the wait-list spin of the primitive
					 * call under way, shown as spin (km_cpu_spin_for) */
	/* CPUs whose spin window is not closed yet: a min-heap by window end
	 * (ties: the later listed first), so that the check made before each
	 * event is one comparison (loop.c, spin_windows_close()) */
	int *spin_heap;
	int spin_open;			/* how many are on it */
	uint64_t spin_seq;		/* windows listed so far */
	bool emit_more;			/* km_emit() keeps or notes records, not only hashes */
	bool loads_tracked;		/* km_loads_tracked(), fixed with the era at the start */
	uint64_t event_budget;		/* cfg.max_events, or UINT64_MAX for none (loop.c) */
	uint64_t wall_mask;		/* events & this == 0: look at the wall clock */
	km_time stall_since;
	uint64_t stall_fires;
	bool started;
	uint64_t events;
	uint64_t events_ahead;		/* of which run ahead in place (no yield) */
	double wall_start;

	/* choice points (choice.c) */
	uint32_t choice_points;		/* asked so far */
	uint32_t holds;			/* tasks held now */
	uint32_t holds_cut;		/* holds the bound ended before their other went */
	KM_VEC(const struct km_ctx *) choice_others;
	KM_VEC(const struct km_irqsrc *) choice_irqs;
	struct km_footprint irq_step;	/* handlers' footprint since the last point */
	/* The run's Mazurkiewicz trace, as a hash (choice.c): the order of
	 * the writes to each shared object, and where each read fell between
	 * them.  Two runs with the same trace have the same one. */
	uint64_t trace_sig;
	struct km_sig_slot { uint64_t key; uint32_t writes; } *sig_map;	/* by object */
	uint32_t sig_cap, sig_n;

	enum km_outcome outcome;
	char reason[512];
	char errmsg[512];
	int error;			/* the KM_E* that ended the run */
};

/* Event ids of the two locks that are not declared by the scenario. */
#define KM_BKL_ID (UINT32_MAX - 1)
#define KM_GIL_ID (UINT32_MAX - 2)

/* Event kinds of the queue. */
enum km_event_kind {
	KM_EV_SEG_END = 1,	/* id = ctx: its segment is over */
	KM_EV_TIMEOUT,		/* id = ctx: its wait's deadline passed */
	KM_EV_WAKE,		/* id = ctx: woken, now runnable */
	KM_EV_START,		/* id = ctx: a task's start time */
	KM_EV_SWITCH,		/* id = cpu: context switch done */
	KM_EV_TICK,		/* id = cpu */
	KM_EV_IRQ,		/* id = irq source */
	KM_EV_HANDOFF,		/* id = lock: test-and-set window closes */
	KM_EV_HOLD_END,		/* id = ctx: the delay of a held task is over */
	KM_EV_BALANCE,		/* id = 0: a timer tick's balancing by idle CPUs */
};

/* ------------------------------------------------------------- set-up -- */

/**
 * km_sim_new - create a run of @era under @cfg.
 * Returns NULL when out of memory.  The era is copied.
 */
struct km_sim *km_sim_new(const struct km_era *era, const struct km_config *cfg,
			  const struct km_host_ops *host, void *host_data);
void km_sim_free(struct km_sim *sim);

/* Declarations: before km_sim_start (tasks also by spawn, during the run).
 * Each returns the new object, or NULL with sim->errmsg set.  Names are
 * the host's to keep unique (the Lua layer does); the core does not look. */
struct km_lock *km_lock_new(struct km_sim *sim, const char *name,
			    enum km_prim kind, int count, bool pinned);
struct km_var *km_var_new(struct km_sim *sim, const char *name, int64_t value);
struct km_atomic *km_atomic_new(struct km_sim *sim, const char *name, int64_t value);
/*
 * km_data_line - the cache line named @name, made on first use, homed on
 * CPU 0's node.  Variables and atomics that point at one line share it:
 * each access moves the whole line.  Returns NULL when out of memory (the
 * run fails).
 */
struct km_line *km_data_line(struct km_sim *sim, const char *name);
/* The lock declared on the line named @name (lock{ line = }), or NULL. */
struct km_lock *km_data_line_lock(struct km_sim *sim, const char *name);
/*
 * km_lock_embed - @l's word lives on the line named @name, with the data it
 * protects: the variables on that line (declared before or after) share
 * the lock's own line.  Returns false when out of memory.
 */
bool km_lock_embed(struct km_sim *sim, struct km_lock *l, const char *name);
struct km_counter *km_counter_new(struct km_sim *sim, const char *name, const char *unit);
struct km_waitq *km_waitq_new(struct km_sim *sim, const char *name);
struct km_completion *km_completion_new(struct km_sim *sim, const char *name);
struct km_ctx *km_task_new(struct km_sim *sim, const char *name, int cpu, km_time start);
struct km_irqsrc *km_irqsrc_new(struct km_sim *sim, const char *name, int cpu,
				km_time every, km_time jitter, km_time start);
/* The measure() series called @name, created on first use; NULL on ENOMEM. */
/* The statistics of measure() name @name, made on first use; NULL when
 * memory ran out or KM_MAX_OPSTATS names exist already. */
struct km_opstat *km_opstat_get(struct km_sim *sim, const char *name);

/**
 * km_sim_start - resolve each lock's primitive under the mode, check the
 * combination, and schedule the tasks and interrupts.
 * Returns 0; KM_ENOTAPPLICABLE with sim->reason (a counting lock as a
 * mutex); KM_EINVAL with sim->errmsg.
 */
int km_sim_start(struct km_sim *sim);

/**
 * km_sim_run - run events until every task has finished, the duration
 * bound, a deadlock, a budget, or an error.  Sets sim->outcome.
 * Returns 0, or the negative code of an error or exceeded budget.
 */
int km_sim_run(struct km_sim *sim);

/* Close the accounting intervals still open at sim->now (called by run). */
void km_sim_finish_accounting(struct km_sim *sim);

/* ---------------------------------------------------------- operations -- */
/*
 * Called by the host on behalf of @ctx, which must be the context whose
 * code is running (on top of its CPU).  Each returns KM_STEP_DONE (the
 * result in km_ctx_result(), go on), KM_STEP_WAIT (yield; resumed later
 * with km_ctx_result()), or a negative code with sim->errmsg set (misuse:
 * the scenario is wrong and the run ends with an error).
 */
int km_op_compute(struct km_sim *sim, struct km_ctx *ctx, km_time t);
int km_op_sleep(struct km_sim *sim, struct km_ctx *ctx, km_time t);
int km_op_down(struct km_sim *sim, struct km_ctx *ctx, struct km_lock *l);
int km_op_down_trylock(struct km_sim *sim, struct km_ctx *ctx, struct km_lock *l);
int km_op_down_timeout(struct km_sim *sim, struct km_ctx *ctx, struct km_lock *l,
		       km_time t);
int km_op_up(struct km_sim *sim, struct km_ctx *ctx, struct km_lock *l);
int km_op_irq_disable(struct km_sim *sim, struct km_ctx *ctx);
int km_op_irq_enable(struct km_sim *sim, struct km_ctx *ctx);
int km_op_read(struct km_sim *sim, struct km_ctx *ctx, struct km_var *v);
int km_op_write(struct km_sim *sim, struct km_ctx *ctx, struct km_var *v, int64_t x);
int km_op_add(struct km_sim *sim, struct km_ctx *ctx, struct km_var *v, int64_t n);
enum km_atomic_op { KM_ATOMIC_READ, KM_ATOMIC_ADD_RETURN, KM_ATOMIC_DEC_IF_POSITIVE,
		    KM_ATOMIC_SET };
int km_op_atomic(struct km_sim *sim, struct km_ctx *ctx, struct km_atomic *a,
		 enum km_atomic_op op, int64_t n);
/* Wait on @wq until woken or @t (KM_TIME_NEVER: no timeout) passes;
 * result 1 woken, 0 timed out.  The caller re-checks its condition. */
int km_op_wq_wait(struct km_sim *sim, struct km_ctx *ctx, struct km_waitq *wq,
		  km_time deadline);
int km_op_wake_up(struct km_sim *sim, struct km_ctx *ctx, struct km_waitq *wq,
		  bool all);
int km_op_wait_for_completion(struct km_sim *sim, struct km_ctx *ctx,
			      struct km_completion *c);
int km_op_complete(struct km_sim *sim, struct km_ctx *ctx, struct km_completion *c,
		   bool all);
void km_op_counter_add(struct km_sim *sim, struct km_ctx *ctx, struct km_counter *c,
		       int64_t n);
/* Record a log line (copied); never fails the run. */
void km_op_log(struct km_sim *sim, struct km_ctx *ctx, const char *msg);
/* Start a task from a running context; NULL with sim->errmsg on error. */
struct km_ctx *km_op_spawn(struct km_sim *sim, struct km_ctx *ctx, const char *name,
			   int cpu);

/**
 * km_ctx_run_ahead - finish @ctx's segment in place, if nothing else can
 * happen first.
 *
 * An operation just returned KM_STEP_WAIT and left @ctx running a timed
 * segment (a compute, the cost of an uncontended down or of an up).  If
 * that segment's end is the very next event of the run -- strictly before
 * every other pending event, within the duration and the budgets -- this
 * does here what the event loop would do next: the checks after the
 * current event, then that event (the clock moves to the segment's end,
 * the event is counted, deferred work such as add()'s write is done).
 * The run is then exactly where it would be when the loop resumed @ctx,
 * and the host goes on with km_ctx_result() without yielding.
 *
 * Returns true if it did so, false if the host must yield as usual
 * (another event comes first, a check would end the run, or
 * cfg.no_run_ahead).
 *
 * Context: the host, in the code of @ctx (which the loop is running),
 * right after an operation of @ctx returned KM_STEP_WAIT.
 */
bool km_ctx_run_ahead(struct km_sim *sim, struct km_ctx *ctx);

/* A might_sleep() point (down, sleep, wait_*): under voluntary preemption
 * a pending reschedule happens here.  KM_STEP_WAIT: yield, then call the
 * operation again when resumed. */
int km_op_might_sleep(struct km_sim *sim, struct km_ctx *ctx);

/**
 * km_fail - end the run with an error: @code (negative) and a message,
 * kept in sim->errmsg.  The first cause wins.  Returns sim->error.
 * Context: any; for the core and for hosts.
 */
int km_fail(struct km_sim *sim, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The host says ctx's code has returned. */
void km_ctx_finish(struct km_sim *sim, struct km_ctx *ctx);


/* ------------------------------------------------------------- names -- */

const char *km_prim_name(enum km_prim p);
const char *km_prim_lock_verb(enum km_prim p);	/* "down", "spin_lock", ... */
const char *km_prim_unlock_verb(enum km_prim p);	/* "up", "spin_unlock", ... */
int km_prim_parse(const char *s);		/* -1 if unknown */
const char *km_mode_name(int mode);
int km_mode_parse(const char *s);		/* KM_MODE_NATIVE, prim, or -2 */
const char *km_outcome_name(enum km_outcome o);
const char *km_violation_name(enum km_violation_kind k);
const char *km_cpu_state_name(enum km_cpu_state s);

#endif /* KM_ENGINE_SIM_H */
