/*
 * ctx.h - struct km_ctx whole: a context's state, the core's own.
 *
 * A context (a task, or one invocation of an interrupt handler) is the
 * most written structure of a run: the scheduler, the locks, the wake-up
 * and the explorer's choice points each keep fields in it.  Those fields
 * are the core's business and change with it, so the layers above see the
 * struct only by name, as Lua's lua.h shows lua_State while lstate.h holds
 * its fields: they read a context through the accessors of sim.h
 * (km_ctx_id(), km_ctx_name(), km_ctx_stats(), ...; engine/ctx.c) and a
 * task's last step through choice.h (km_choice_last_step()).
 *
 * Included by core.h and lock.h, so every file of the core sees it; no
 * file of lua/, report/, view/ or cli/ may include it, or a header that
 * does (tests/check_layers.sh refuses it).  The white-box unit tests may.
 */
#ifndef KM_ENGINE_CTX_H
#define KM_ENGINE_CTX_H

#include "sim.h"

struct km_ctx {
	uint32_t id;
	enum km_ctx_kind kind;
	enum km_ctx_state state;
	enum km_act act;
	char *name;
	int cpu;			/* CPU it is on or last ran on; -1 never ran */
	int pinned;			/* -1: any CPU */
	km_time start_at;
	uint32_t irq_source;		/* for irq contexts */

	/* the current segment */
	km_time seg_end, seg_left;
	uint64_t seg_token;
	/* wake.c's own (try_to_wake_up()), read and written nowhere else: */
	km_time wake_lands;		/* a wake-up reaches its CPU then: its IPI has crossed,
					 * or the waker has queued it there (0: not set) */
	int wake_to;			/* the CPU try_to_wake_up() chose, or -1: where
					 * its wake-up queues it (select_cpu) */
	/* A wake-up (EV_WAKE) that arrived while the CPU it blocked on was
	 * still spending its way-to-sleep tail (km_ctx_block_after): it is
	 * replayed when that tail ends, as try_to_wake_up() waits for
	 * p->on_cpu to clear.  wake_deferred_token is the event's token. */
	bool wake_deferred;
	uint64_t wake_deferred_token;
	enum km_cpu_state seg_shows;	/* what the CPU lane shows during it */
	int64_t result;			/* handed to the host on resume */

	/* what it waits on */
	enum km_wait wait;
	void *wait_obj;
	km_time wait_since;
	km_time deadline;		/* KM_TIME_NEVER: none */
	uint64_t wait_token;
	struct km_ctx *wnext, *wprev;	/* on a lock's or queue's waiter list */
	/* spinning for a lock's wait-list lock, and as what (lock.c) */
	enum km_wl_spin { KM_WL_NONE, KM_WL_ENTER, KM_WL_RETRY, KM_WL_RELEASE } wl_spun;
	bool wl_trylock;		/* ... for a trylock */
	km_time wl_deadline;		/* ... keeping this deadline */
	bool lock_retry;		/* re-queue at the head (kept its place) */
	bool contended;			/* this acquisition was already counted */
	bool has_unit;			/* woken by up() for a unit kept for it */
	bool wq_woken;			/* on a legacy semaphore's wait queue, woken
					 * and not yet back (try_to_wake_up fails) */
	bool reacquiring;		/* spinning to retake the BKL / irq lock */
	enum km_act saved_act;		/* what it was doing before that */
	bool bkl_asleep;		/* semaphore BKL: in __reacquire_kernel_lock()'s
					 * down(), asleep or woken and not yet back */
	int64_t saved_result;		/*   and the result its resume will hand */
	bool spin_irq_entry;		/* irq context waiting at irq_enter */

	/* deferred work */
	enum km_then then;
	void *then_obj;
	int64_t then_arg;

	struct km_ctx *rq_next;
	struct km_ctx *below;		/* irq context: what it interrupted */

	int irqoff;			/* local_irq_disable nesting */
	int preempt_count;
	int bkl_depth, bkl_saved;
	/* CFS (sched_fair.c): the sched_entity's vruntime, and its
	 * sum_exec_runtime, prev_sum_exec_runtime and exec_start */
	int64_t vruntime;
	km_time sum_exec, prev_sum_exec, exec_start;
	/* O(1) (sched_o1.c): sleep_avg, timestamp, the dynamic priority,
	 * activated; the time slice used and since when, the granularity
	 * requeues done; which array it is queued on and where in its list */
	km_time o1_sleep_avg, o1_timestamp, o1_slice_used, o1_slice_from;
	int o1_prio, o1_activated;
	int64_t o1_gran_mark;
	bool o1_started, o1_expired, o1_to_tail, o1_front;
	int gil_depth, gil_saved;	/* the global irq lock, sim->gil (era.global_cli:
					 * 2.0 - 2.5.27) */
	struct km_hold *held;
	int nheld;

	struct { uint32_t var; uint64_t version; km_time at; } readset[KM_READSET];
	int nreads;

	/* accounting */
	int acct;			/* enum km_acct (core.h) */
	km_time acct_since;
	km_time last_ran;		/* when it last left a CPU (schedule()'s p->last_ran) */
	bool ran;			/* it has run: last_ran means something */
	km_time cpu_ns, spin_ns, blocked_ns, runnable_ns, end_ns;
	uint64_t acquisitions;
	bool finished;

	void *host;			/* the host's handle (a Lua thread) */

	/* choice points (choice.h), only under a chooser */
	struct km_ctx *held_for;	/* held until this one steps, or NULL */
	const struct km_irqsrc *held_for_irq;	/* held until its handler ran, or NULL */
	bool choice_passed;		/* decided: the next resume is its step */
	bool step_shared;		/* its step since then touched a shared object */
	struct km_footprint step;	/* which ones (choice.h) */
	struct km_footprint step_late;	/* of those, after its operations' costs */
	bool in_then;			/* running its deferred work (loop.c) */
	uint64_t last_choice;		/* 1 + index of its last choice point; 0: none */
};

static inline bool km_in_irq(const struct km_ctx *ctx)
{
	return ctx->kind == KM_CTX_IRQ;
}

#endif /* KM_ENGINE_CTX_H */
