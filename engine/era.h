/*
 * era.h - what a kernel release offered: primitives, scheduler, costs.
 *
 * An era is data.  It is written as Lua (eras/<year>.lua, loaded through
 * the same sandbox as scenarios) and arrives in the core as this plain
 * struct, so the core never sees Lua.  Every cost is in nanoseconds and
 * is cited, with its provenance tag, in docs/ (see docs/sources.md).
 */
#ifndef KM_ENGINE_ERA_H
#define KM_ENGINE_ERA_H

#include "km.h"

enum km_preempt {
	KM_PREEMPT_NONE,	/* a task keeps its CPU until it blocks */
	KM_PREEMPT_VOLUNTARY,	/* switches at might_sleep() points */
	KM_PREEMPT_FULL,	/* switches at the tick when preempt_count is 0 */
};

enum km_spin_flavour {
	KM_SPIN_NONE = 0,	/* the era had no spinlocks */
	KM_SPIN_TAS,		/* test-and-set: a random spinner wins */
	KM_SPIN_TICKET,		/* FIFO; every spinner's line is invalidated */
	KM_SPIN_QUEUED,		/* FIFO, each spinner on its own line (MCS) */
	KM_SPIN_MCS,		/* Mellor-Crummey and Scott's queue lock: FIFO,
				 * the hand-off one write to the next waiter's
				 * node, no lock-word traffic (scenarios only:
				 * lock{ spin = "mcs" }) */
};

enum km_sem_flavour {
	KM_SEM_NONE = 0,	/* no semaphores yet (0.01) */
	KM_SEM_LEGACY,		/* per-arch: woken sleepers retry, can be robbed */
	KM_SEM_GENERIC,		/* 2.6.26+: up() hands the unit to the first waiter */
};

/* What lock_kernel() took (lib/kernel_lock.c). */
enum km_bkl_flavour {
	KM_BKL_SPIN = 0,	/* kernel_flag, a spinlock of the era's flavour (2.2 -
				 * 2.6.7; again from 2.6.26-rc2, commit 8e3e076c5a78) */
	KM_BKL_SEM_LEGACY,	/* kernel_sem on the arch's own semaphore, whose woken
				 * sleeper retries and can be robbed (CONFIG_PREEMPT_BKL,
				 * 2.6.8 - 2.6.25) */
	KM_BKL_SEM_GENERIC,	/* kernel_sem on the generic semaphore, which hands the
				 * unit to the first waiter (2.6.26-rc1, 64ac24e73882) */
};

/* Who runs next on a CPU (engine/sched.c, engine/sched_fair.c, engine/sched_o1.c). */
enum km_scheduler {
	KM_SCHEDULER_FIFO = 0,	/* a FIFO run queue per CPU, round robin at the tick:
				 * a stand-in for the schedulers before 2.5 and
				 * for CFS after 2.6.26 (docs/sources.md) */
	KM_SCHEDULER_CFS,	/* CFS (2.6.23 on): a queue ordered by vruntime,
				 * wake-up preemption, slices from sched_latency */
	KM_SCHEDULER_O1,	/* the O(1) scheduler (2.6.0 - 2.6.22) with its
				 * dynamic priorities, time slices and two arrays
				 * (sched_o1.c) */
};

struct km_costs {
	km_time cli;		/* disable or enable interrupts */
	km_time atomic;		/* one locked read-modify-write */
	km_time cacheline;	/* move one cache line between CPUs */
	km_time ctxsw;		/* switch from one task to another */
	km_time wakeup;		/* from wake-up to the wakee being runnable */
	km_time irq_entry;	/* interrupt entry plus exit */
	km_time ipi;		/* sending a reschedule IPI: the sender waits for
				 * its delivery (0: not charged, no source) */
	/* The caches (cache.h), given with a topology; without one the
	 * machine is flat and only `cacheline` is read. */
	km_time hit;		/* a line the CPU holds already */
	km_time same_core;	/* a line moved between SMT siblings */
	km_time same_die;	/* between two cores of one die */
	km_time same_socket;	/* between two dies of one socket */
	km_time hop1;		/* to a socket one link away */
	km_time hop2;		/* to a socket two links away */
	km_time invalidate;	/* invalidating the other copies of a line
				 * a store makes exclusive (the probes' round) */
	km_time bus;		/* a front-side bus (links = "bus"): how long
				 * one transaction holds the shared bus */
	km_time llc;		/* topology.llc = "socket": a load of a line
				 * another core of the socket holds clean,
				 * answered by the socket's shared cache */
};

enum km_coherence {
	KM_COH_FLAT = 0,	/* no topology: one cost between any two CPUs */
	KM_COH_MESI,		/* Intel: a read of a Modified line writes it back */
	KM_COH_MOESI,		/* AMD: the owner keeps it Owned and supplies readers */
};

enum km_links {
	KM_LINKS_FULL = 0,	/* every socket one hop from every other */
	KM_LINKS_RING,		/* sockets on a ring: hops = distance round it */
	KM_LINKS_BUS,		/* one shared front-side bus: every miss is a bus
				 * transaction, one at a time machine-wide */
	KM_LINKS_LIST,		/* the board's own links, listed: hops = the
				 * shortest path (struct km_topology.hops) */
};

/* Sockets a machine file may wire link by link (KM_LINKS_LIST): AMD's
 * glueless HyperTransport boards stopped at 8. */
#define KM_TOPO_MAX_LINKED 16

/*
 * struct km_topology - the machine's shape: CPUs are numbered socket by
 * socket, die by die, core by core, SMT siblings adjacent.  A run with
 * more CPUs than the machine has adds sockets of the same shape.
 */
struct km_topology {
	enum km_coherence protocol;	/* KM_COH_FLAT: no topology */
	enum km_links links;
	int sockets;
	int dies;		/* per socket */
	int cores;		/* per die */
	int threads;		/* per core */
	bool socket_llc;	/* llc = "socket": an inclusive last-level cache
				 * a socket, which answers its cores' misses on
				 * lines the socket holds and knows which copies
				 * an upgrade must invalidate (cache.c) */
	bool store_buffer;	/* store_buffer = true: a plain store waits in
				 * the CPU's store buffer, not the CPU (x86) */
	/* KM_LINKS_LIST: links between sockets a and b on the shortest
	 * path (0 on the diagonal), computed from the file's list */
	uint8_t hops[KM_TOPO_MAX_LINKED][KM_TOPO_MAX_LINKED];
};

struct km_era {
	char id[32];		/* "1996" */
	char version[32];	/* "2.0" */
	char title[128];
	char placard[256];	/* path under docs/ */
	int year;
	int cpus;		/* typical CPU count of the period */
	bool smp;
	int hz;
	enum km_preempt preempt;
	bool global_cli;	/* SMP cli() is the global irq lock (2.0 - 2.5.27) */
	bool bkl;
	enum km_bkl_flavour bkl_lock;	/* what the BKL is made of */
	enum km_spin_flavour spinlock;
	enum km_sem_flavour semaphore;
	bool mutex;
	bool mutex_spin;	/* optimistic spinning (2.6.30+) */
	bool mutex_handoff;	/* hand-off to the top waiter (4.10+) */
	bool sleep_check;	/* might_sleep(): sleeping with irqs off is a bug */
	bool wake_prev_cpu;	/* a woken task goes back to its previous CPU,
				 * idle or not (no SD_WAKE_IDLE, 2.6.13 - 2.6.15) */
	bool rq_lock;		/* per-CPU run-queue locks: schedule() holds its
				 * own across the switch, try_to_wake_up() takes
				 * the wakee's (2.6.0 - 2.6.39) */
	bool wake_affine;	/* try_to_wake_up()'s wake-affine tests may pull a
				 * woken task to the waker's CPU (2.6.12 - 2.6.16
				 * arithmetic, on tick-sampled loads) */
	bool o1_balance;	/* balancing by CPUs going idle and idle, as
				 * 2.6.12 - 2.6.16's load_balance(): tick-sampled
				 * loads, cache-hot tasks left where they are */
	bool prio_bias;		/* 2.6.15's run-queue loads scaled by the tasks'
				 * nice weight (20 a nice-0 task) */
	int ttwu_lines;		/* lines try_to_wake_up() fetches from the wakee's
				 * CPU; 0: the two the model always charged */
	bool newidle_balance;	/* a CPU whose task blocks with nothing left to
				 * run reads every other run queue's load under
				 * its own run-queue lock before it idles
				 * (2.6.0 - 2.6.31; rate-limited from 2.6.32) */
	enum km_scheduler scheduler;
	km_time cfs_latency;	/* CFS's sysctl_sched_latency, */
	km_time cfs_min_gran;	/* sysctl_sched_min_granularity and */
	km_time cfs_wakeup_gran;	/* sysctl_sched_wakeup_granularity as
				 * sched_fair.c sets them, before
				 * sched_init_granularity() scales them by
				 * 1 + ilog2(CPUs) */
	km_time cache_hot;	/* o1_balance leaves a task that ran on its CPU
				 * less than this long ago (cache_hot_time) */
	int semaphores;		/* struct semaphore count in the tree, or -1 */
	struct km_costs cost;
	struct km_topology topo;	/* the machine's shape and protocol */
	char machine[64];	/* the machine whose costs these are (a file of
				 * eras/machines/), or "": the era's own */
};

/* The five lock primitives a scenario's locks can be, in mode order. */
enum km_prim {
	KM_PRIM_CLI,
	KM_PRIM_BKL,
	KM_PRIM_SPIN,
	KM_PRIM_SEM,
	KM_PRIM_MUTEX,
	KM_PRIM_COUNT
};

/* Does @era have primitive @p?  (cli always; the others by field.) */
bool km_era_has(const struct km_era *era, enum km_prim p);

/*
 * The collection of eras, in chronological order: the order of
 * `lockmuseum list`, of the view's era ribbon, and how "which era did
 * the mutex arrive in" is answered.  The Lua layer fills it from eras/
 * (lua/eras.h); what follows only reads it.
 */
struct km_era_list {
	struct km_era *v;
	int n;
};

void km_eras_free(struct km_era_list *list);

/* "spinlock", "legacy-semaphore", "generic-semaphore": 0 and *@out set,
 * or -1 for any other text. */
int km_bkl_flavour_parse(const char *s, enum km_bkl_flavour *out);

/* The era whose id, version or year is @key, or NULL. */
const struct km_era *km_eras_find(const struct km_era_list *list, const char *key);

/* The first era (chronologically) that has primitive @p, and the first
 * after that which no longer has it; either may be NULL. */
const struct km_era *km_eras_arrival(const struct km_era_list *list, enum km_prim p);
const struct km_era *km_eras_removal(const struct km_era_list *list, enum km_prim p);

#endif /* KM_ENGINE_ERA_H */
