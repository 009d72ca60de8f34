/*
 * lock.h - the uniform lock interface and the layer every primitive shares.
 *
 * A scenario's down(l)/up(l) reach a primitive through one method table,
 * struct km_lock_ops, in the manner of SQLite's sqlite3_mutex_methods and
 * the kernel's kernel/locking/: the mode picks the table for every lock
 * that is not pinned.  The primitive owns the policy -- who may take the
 * lock, who is next, what a hand-off costs -- and nothing else.  This
 * generic layer (lock.c) owns what is common: lock_stat accounting, the
 * trace, the holder records, timeouts, the validator's context checks,
 * and turning "wait" into sleeping or spinning.
 *
 * The protocol between the two:
 *  - acquire() either takes the lock (KM_LOCK_TAKEN, *cost set), refuses
 *    a trylock (KM_LOCK_BUSY), or queues the context on one of the lock's
 *    lists and returns KM_LOCK_SPIN or KM_LOCK_SLEEP.  A primitive whose
 *    slow path decides under a wait-list spinlock that it finds held
 *    returns KM_LOCK_WAIT_LOCK with the spin in *cost: the core runs the
 *    spin, then calls acquire() again with ctx->wl_spun set, and the
 *    decision is made then (a release that must wake under the lock calls
 *    km_lock_spin_for_wait_lock(..., KM_WL_RELEASE) and adds the spin to
 *    its cost, and the core calls release_locked() after the spin).
 *  - Later, when the primitive decides a waiter has the lock (at a
 *    release, or a hand-off window closing), it takes the waiter off its
 *    list and calls km_lock_grant(); or, for primitives whose woken
 *    sleepers must try again (semaphores before 2.6.26, mutexes), calls
 *    km_lock_wake_retry().
 *  - cancel() takes a waiter off the lists when its timeout expires or it
 *    stops spinning.
 */
#ifndef KM_ENGINE_LOCK_H
#define KM_ENGINE_LOCK_H

#include "sim.h"
#include "ctx.h"

enum km_lock_result {
	KM_LOCK_TAKEN,
	KM_LOCK_BUSY,
	KM_LOCK_SPIN,
	KM_LOCK_SLEEP,
	KM_LOCK_WAIT_LOCK,	/* spin for the wait-list lock, then decide (*cost: the spin) */
};

/*
 * Who holds a lock of a primitive, as lockdep and locktorture see it:
 * one owner (spinlock, mutex), one owner only when it counts to one
 * (a binary semaphore), or nobody in particular (cli() and the BKL are
 * one global thing each, "held" by tasks asleep with their flag or
 * depth saved).
 */
enum km_lock_owners {
	KM_OWNERS_NONE,
	KM_OWNERS_ONE,
	KM_OWNERS_ONE_IF_BINARY,
};

struct km_lock_ops {
	const char *name;		/* the mode's name: "semaphore" */
	const char *lock_verb, *unlock_verb;	/* the kernel's calls: "down", "up" */
	enum km_lock_owners owners;
	bool counting;			/* keeps units: avail starts at the count (the
					 * semaphore); else at one, or none */
	bool single_unit;		/* one owner at most: a lock declared to count
					 * past one cannot be this (not applicable) */
	bool irq_safety;		/* lockdep tracks its irq-safe and irq-unsafe
					 * use (spinlocks) */
	bool exit_report;		/* reported held at exit even though lockdep
					 * does not track it (the BKL) */
	/* Optional: is it legal for @ctx, about to take @l, to do so here
	 * (@trylock: it will not wait)?  Reports what is not; the
	 * acquisition goes on regardless, as the kernel's would. */
	void (*acquire_check)(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx,
			      bool trylock);
	/* Optional: is this release by @ctx legal?  *@h is @ctx's hold of
	 * @l, or NULL; the check reports what is not, may point *@h at the
	 * hold to end instead, and returns false when there is nothing to
	 * release at all.  Without it, any release is legal (up()). */
	bool (*release_check)(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx,
			      struct km_hold **h);
	/* Context: the caller is @ctx, on top of its CPU. */
	enum km_lock_result (*acquire)(struct km_sim *sim, struct km_lock *l,
				       struct km_ctx *ctx, bool trylock, km_time *cost);
	/* Release by @ctx (validity already checked and reported). */
	void (*release)(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx,
			km_time *cost);
	/* The rest of release() once @ctx has the wait-list lock it spun for
	 * (release() called km_lock_spin_for_wait_lock(..., KM_WL_RELEASE)). */
	void (*release_locked)(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx,
			       km_time *cost);
	/* @ctx stops waiting (timeout, or its spin was aborted). */
	void (*cancel)(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx);
	/* Optional: the owner left its CPU (blocked or was preempted). */
	void (*owner_off_cpu)(struct km_sim *sim, struct km_lock *l);
	/* Optional: a woken waiter's retry found its deadline passed, and it
	 * leaves without the lock (it is on no list of the lock's). */
	void (*give_up)(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx);
	/* Optional: a tick asked a spinner on @ctx's CPU to reschedule. */
	bool (*spin_abort)(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx);
	/* Optional, for the raw spinning lock this table drives (the BKL's
	 * kernel_flag): spinner @ctx was handed it after @delay.  Without
	 * it, the spinner is granted the lock it waits for (km_lock_grant). */
	void (*raw_granted)(struct km_sim *sim, struct km_ctx *ctx, km_time delay);
	/* Optional, for the raw lock this table drives (the global irq
	 * lock): its test-and-set window closed.  Without it, a spinner
	 * drawn by the run's generator is handed the lock. */
	void (*window_closed)(struct km_sim *sim, struct km_lock *l);
	/* Optional, for a lock its holder drops when it sleeps and takes
	 * back when it runs (the BKL, the global irq lock: schedule()'s
	 * release_kernel_lock()): drop what @ctx holds of it; take it back,
	 * true when @ctx must spin for it first. */
	void (*release_on_sleep)(struct km_sim *sim, struct km_ctx *ctx);
	bool (*reacquire)(struct km_sim *sim, struct km_ctx *ctx);
};

extern const struct km_lock_ops km_cli_ops;
extern const struct km_lock_ops km_bkl_ops;
extern const struct km_lock_ops km_bkl_sem_ops;	/* the BKL as kernel_sem (era.bkl_lock) */
extern const struct km_lock_ops km_spin_ops;
extern const struct km_lock_ops km_sem_ops;
extern const struct km_lock_ops km_mutex_ops;

const struct km_lock_ops *km_lock_ops_for(enum km_prim p);

/* Does @l have one owner (lockdep tracks it; a second holder breaks
 * mutual exclusion)?  By its primitive's km_lock_ops.owners. */
static inline bool km_lock_one_owner(const struct km_lock *l)
{
	switch (l->ops->owners) {
	case KM_OWNERS_ONE:
		return true;
	case KM_OWNERS_ONE_IF_BINARY:
		return l->count == 1;
	case KM_OWNERS_NONE:
		break;
	}
	return false;
}

/* A release_check for locks whose holder must have taken them (the BKL,
 * cli()): "unlock_kernel(l) by 't', which did not take it". */
bool km_lock_release_check_taken(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx,
				 struct km_hold **h);

/* ---- for primitives ---- */

/**
 * km_lock_grant - @ctx, a waiter of @l already taken off the primitive's
 * lists, now has the lock; it continues after @delay (the hand-off).
 * Context: called by primitives, from any context's operation or event.
 */
void km_lock_grant(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx,
		   km_time delay);

/**
 * km_lock_wake_retry - wake sleeper @ctx so that it tries again when it
 * runs.  The primitive decides where it stays meanwhile: off the lists
 * (the mutex: it is put back at the head if it fails), or in its place on
 * the wait queue (the legacy semaphore, as the kernel's was).  With
 * @reserve, l->woken records it: the unit it was woken for is its own
 * (primitives decide what that means).
 */
void km_lock_wake_retry(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx,
			bool reserve);

/* A spinning waiter of @l becomes a sleeping one (mutex: owner left CPU). */
void km_lock_spin_to_sleep(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx);

/* lock_stat: @l was taken on @cpu, or its taker on @cpu had to wait
 * (each counts a bounce when the last taker was on another CPU). */
void km_lock_stat_acquired(struct km_lock *l, int cpu);
void km_lock_stat_contended(struct km_lock *l, int cpu);

/*
 * The lines of a lock's word, priced by the machine (cache.h): a locked
 * read-modify-write of it by @cpu now (lock; decb, xadd, cmpxchg: the
 * atomic's cost included), or a plain store (an x86 spin_unlock()).
 */
static inline km_time km_lock_rmw(struct km_sim *sim, struct km_lock *l, int cpu)
{
	return km_line_rmw(sim, &l->line, cpu, sim->now);
}
km_time km_lock_store(struct km_sim *sim, struct km_lock *l, int cpu);

/*
 * km_lock_wait_list_lines - what a section under a sleeping lock's
 * wait-list lock touches: spin_lock(&wait_lock), an RMW of the lock's own
 * line (the count, the wait-list lock and the list head share it), and
 * the list node of @neighbour, the waiter it links after or unlinks
 * (a struct on that task's stack, last on its CPU), if any.
 */
km_time km_lock_wait_list_lines(struct km_sim *sim, struct km_lock *l, int cpu,
				const struct km_ctx *neighbour);

/**
 * km_lock_wait_lock - the caller takes the spinlock that guards the wait
 * list of sleeping lock @l (a semaphore's wait.lock, a mutex's wait_lock),
 * holds it for @hold and lets it go.  Holders are served in the order they
 * come: who comes while it is held spins until it is free.
 * Returns what it costs the caller: the spinning, then @hold (the caller
 * runs it as part of its operation's cost).  The spinning is also noted
 * in sim->wait_lock_spin, so that the operation's segment shows it as
 * spin and the rest as busy time.
 * Context: called by the sleeping primitives from their slow paths.
 */
km_time km_lock_wait_lock(struct km_sim *sim, struct km_lock *l, km_time hold);

/**
 * km_lock_wait_lock_spin - the caller finds @l's wait-list lock held and
 * spins until it is free, deciding nothing meanwhile (KM_LOCK_WAIT_LOCK).
 * Returns how long, also noted in sim->wait_lock_spin.
 */
km_time km_lock_wait_lock_spin(struct km_sim *sim, const struct km_lock *l);

/**
 * km_lock_wake_cost - what try_to_wake_up() of @wakee costs the waker on
 * @waker_cpu, in CPU time: taking the wakee's run-queue lock (on eras with
 * per-CPU run-queue locks, waiting while that CPU is in a context switch
 * or another waker holds it), fetching the lines the wakee's CPU wrote
 * last (era.ttwu_lines, two where not counted), and, when the wakee's CPU
 * is another one running the idle task, starting the reschedule IPI (on
 * a CPU running a task of the same priority nothing preempts, so no IPI:
 * the wakee is queued there when the waker is done).  The waker waits only
 * while its own APIC is still sending an earlier IPI (i386's
 * apic_wait_icr_idle() comes before the write that fires the new one);
 * the IPI itself crosses the APIC bus after the ones already queued there,
 * and reaches the wakee's CPU when it has crossed.  Either time is
 * kept by wake.c, whose km_wake_arrive() (from km_ctx_wake()) queues the
 * wake-up's arrival.
 * Context: called by primitives inside their section under @l's wait-list
 * lock (km_lock_wait_lock), where the kernel woke with interrupts off,
 * before they wake @wakee; the wake-up starts when that lock is next free.
 */
km_time km_lock_wake_cost(struct km_sim *sim, const struct km_lock *l, int waker_cpu,
			  struct km_ctx *wakee);
/* The same, @after the waker took the wait-list lock (what it did first
 * in the section, such as probing woken waiters). */
km_time km_lock_wake_cost_after(struct km_sim *sim, const struct km_lock *l, int waker_cpu,
				struct km_ctx *wakee, km_time after);

/**
 * km_lock_probe_cost - what try_to_wake_up() costs the waker when @wakee
 * was woken already and has not run yet: it takes the wakee's run-queue
 * lock (waiting while that CPU is in a context switch -- often the one
 * to the wakee itself), finds the task TASK_RUNNING, and returns 0.  The
 * semaphore's exclusive wake_up() does this for each woken waiter ahead
 * in its queue before it wakes a fresh one, and the 2.6.16 mutex's
 * unlock for its first waiter.  Charged on eras with per-CPU run-queue
 * locks (era.rq_lock); 0 elsewhere.
 * @waker_cpu: the CPU that probes (the lines come to it).
 * @after: how long after the waker took the wait-list lock it probes.
 * Context: as km_lock_wake_cost(), inside the wait-list lock's section.
 */
km_time km_lock_probe_cost(struct km_sim *sim, const struct km_lock *l, int waker_cpu,
			   const struct km_ctx *wakee, km_time after);

/* Raw spinning locks (spinlock mode, the BKL, the global irq lock):
 * choose the next owner among l->spinners by the era's flavour and say
 * what the hand-off costs.  Returns NULL when nobody spins. */
struct km_ctx *km_spin_pick_next(struct km_sim *sim, struct km_lock *l,
				 km_time *delay);
enum km_spin_flavour km_spin_flavour_of(const struct km_sim *sim);
/* @l's flavour: the one its scenario chose (lock{ spin= }), else the era's. */
enum km_spin_flavour km_lock_spin_flavour(const struct km_sim *sim, const struct km_lock *l);
/* Release a raw spinning lock and pass it on (test-and-set: open the
 * window in which any asker may take it). */
void km_raw_spin_unlock(struct km_sim *sim, struct km_lock *l);
/* The same, the unlock's store visible @visible ns from now (a store
 * buffer's drain, cache.h km_line_store()). */
void km_raw_spin_unlock_after(struct km_sim *sim, struct km_lock *l, km_time visible);
/* May a newcomer take @l now?  (FIFO flavours: not past spinners.) */
bool km_raw_spin_free_for_newcomer(const struct km_sim *sim, const struct km_lock *l);
void km_raw_spin_take(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx);
/* @ctx starts to spin for @l: its atomic on the lock's line (lock_raw.c). */
void km_raw_spin_arrive(struct km_sim *sim, struct km_lock *l, struct km_ctx *ctx);
/* A store to @l's own line (the data it protects, lock{ line = }) is
 * visible at @at: the CPUs spinning on the line read it again. */
void km_raw_spin_line_written(struct km_sim *sim, struct km_lock *l, km_time at);
/* The test-and-set window of @l closes (event KM_EV_HANDOFF). */
void km_spin_window_close(struct km_sim *sim, struct km_lock *l, uint64_t token);

/* ---- for the core ---- */

/* @ctx leaves its CPU (blocks, is preempted): tell the locks it owns. */
void km_lock_owner_off_cpu(struct km_sim *sim, struct km_ctx *ctx);
/* A waiter's deadline passed. */
void km_lock_timeout(struct km_sim *sim, struct km_ctx *ctx);
/* Re-run a down() that was woken to retry.  Returns like km_op_down. */
int km_lock_redo(struct km_sim *sim, struct km_ctx *ctx);
/* @ctx spins for @l's wait-list lock (the spin is its next segment), then
 * km_lock_wait_lock_turn() runs its section: as @as says, acquire() again
 * or release_locked(). */
void km_lock_spin_for_wait_lock(struct km_lock *l, struct km_ctx *ctx, enum km_wl_spin as);
int km_lock_wait_lock_turn(struct km_sim *sim, struct km_ctx *ctx);

/* BKL and global irq lock: dropped when their holder sleeps, retaken
 * when it runs again (schedule()'s release_kernel_lock). */
void km_bkl_release_on_sleep(struct km_sim *sim, struct km_ctx *ctx);
/* Returns true when @ctx must first spin to retake what it dropped. */
bool km_bkl_reacquire(struct km_sim *sim, struct km_ctx *ctx);
/* The same for a BKL that is a semaphore (lock_bkl_sem.c): the up() in
 * schedule() adds its cost to sim->sleep_release; the reacquire returns
 * true when @ctx went back to sleep for it. */
void km_bkl_sem_release_on_sleep(struct km_sim *sim, struct km_ctx *ctx);
bool km_bkl_sem_reacquire(struct km_sim *sim, struct km_ctx *ctx);
/*
 * km_bkl_depth_drop - unlock_kernel()'s lock_depth bookkeeping, the same
 * for every BKL (lib/kernel_lock.c repeats it in each variant): returns
 * true when @ctx held the BKL @B and this was its outermost unlock, so the
 * lock itself must now be released; false for a nested unlock (the depth
 * only counts down) or an unlock by a task that does not hold it.
 * Context: unlock_kernel(), by the caller @ctx.
 */
static inline bool km_bkl_depth_drop(const struct km_lock *B, struct km_ctx *ctx)
{
	if (B->owner != ctx || ctx->bkl_depth <= 0)
		return false;
	return --ctx->bkl_depth == 0;
}

/*
 * km_bkl_depth_save - schedule()'s half of the same bookkeeping: when
 * @ctx holds the BKL @B, its depth is saved for the reacquire and zeroed,
 * and true is returned (the lock must be released); else false.
 * Context: schedule(), for the task leaving its CPU.
 */
static inline bool km_bkl_depth_save(const struct km_lock *B, struct km_ctx *ctx)
{
	if (B->owner != ctx || ctx->bkl_depth <= 0)
		return false;
	ctx->bkl_saved = ctx->bkl_depth;
	ctx->bkl_depth = 0;
	return true;
}

/* Called when a handler leaves irq context (global cli waits for them). */
void km_gil_irq_exited(struct km_sim *sim);
/* May an interrupt handler on @cpu start now (no other CPU holds the
 * global irq lock)?  If not, it spins at irq_enter until it may. */
bool km_gil_irq_may_enter(struct km_sim *sim, struct km_ctx *irqctx);

#endif /* KM_ENGINE_LOCK_H */
