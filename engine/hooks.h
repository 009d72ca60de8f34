/*
 * hooks.h - what the lower floors of the core hand up, through functions
 * registered at set-up (sim.c), never by a call up.
 *
 * The event loop is on the sched floor, yet what an event means may be a
 * lock's business (a waiter's timeout, a test-and-set window closing, a
 * woken waiter's retry), an operation's (add()'s write at the end of its
 * segment) or an observer's (lockdep at a task's exit, the chooser at a
 * step).  The scheduler must tell the locks when a task leaves or comes
 * back to its CPU; the locks must tell the validator of each acquire.
 * Those calls go through this table, as the kernel's scheduler reaches a
 * scheduling class or a notifier: the floor below knows the slot, the
 * floor above fills it.  So a floor can be read, tested and changed with
 * only the floors below it in mind (tests/check_floors.sh checks that no
 * symbol is called the other way).
 *
 * Every slot is set by km_sim_new(); none is optional.
 */
#ifndef KM_ENGINE_HOOKS_H
#define KM_ENGINE_HOOKS_H

#include "choice.h"
#include "km.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct km_sim;
struct km_ctx;
struct km_lock;
struct km_irqsrc;
struct km_trace_rec;

struct km_hooks {
	/* ---- the locks floor, for the scheduler and the loop ---- */
	/* @ctx leaves its CPU (blocks, is preempted, ends): the locks it
	 * owns are told (a mutex's spinners) ... */
	void (*owner_off_cpu)(struct km_sim *sim, struct km_ctx *ctx);
	/* ... and the BKL and the global irq lock are dropped (schedule()'s
	 * release_kernel_lock()), */
	void (*release_on_sleep)(struct km_sim *sim, struct km_ctx *ctx);
	/* to be retaken when it runs again: true when it must spin first. */
	bool (*reacquire)(struct km_sim *sim, struct km_ctx *ctx);
	/* May an interrupt handler start (the global irq lock)?  If not, it
	 * spins at irq_enter, and the lock lets it in. */
	bool (*irq_may_enter)(struct km_sim *sim, struct km_ctx *irqctx);
	/* A handler left irq context. */
	void (*irq_exited)(struct km_sim *sim);
	/* A lock waiter's deadline passed (KM_WAIT_LOCK). */
	void (*lock_timeout)(struct km_sim *sim, struct km_ctx *ctx);
	/* Deferred work: a woken waiter's retry (KM_THEN_REDO_DOWN), a spin
	 * for a wait-list lock ended (KM_THEN_WAIT_LOCK); return as an
	 * operation does (KM_STEP_DONE goes on to the code). */
	int (*lock_redo)(struct km_sim *sim, struct km_ctx *ctx);
	int (*wait_lock_turn)(struct km_sim *sim, struct km_ctx *ctx);
	/* A test-and-set window of @l closes (KM_EV_HANDOFF). */
	void (*window_close)(struct km_sim *sim, struct km_lock *l, uint64_t token);

	/* ---- the operations floor ---- */
	/* add()'s write, at the end of its segment (KM_THEN_VAR_ADD). */
	void (*var_add_commit)(struct km_sim *sim, struct km_ctx *ctx);

	/* ---- the observers ---- */
	/* lockdep: @ctx is about to take @l (before the primitive runs). */
	void (*lockdep_acquire)(struct km_sim *sim, struct km_ctx *ctx, struct km_lock *l,
				bool trylock);
	/* lockdep: @ctx's code has ended (what it still holds). */
	void (*lockdep_exit)(struct km_sim *sim, struct km_ctx *ctx);
	/* The deadlock's reason: what each live task waits on. */
	void (*describe_deadlock)(struct km_sim *sim, char *buf, size_t len);

	/* ---- the explorer (choice.c), only under a chooser ---- */
	bool (*choice_point)(struct km_sim *sim, struct km_ctx *ctx);
	void (*choice_release_for)(struct km_sim *sim, const struct km_ctx *ctx);
	void (*choice_release_for_irq)(struct km_sim *sim, const struct km_irqsrc *src);
	bool (*choice_hold_expired)(struct km_sim *sim, struct km_ctx *ctx);
	void (*choice_settle)(struct km_sim *sim);
	void (*choice_note)(struct km_sim *sim, const struct km_trace_rec *r);
	void (*choice_touch)(struct km_sim *sim, enum km_choice_obj kind, uint32_t id,
			     bool write);
};

#endif /* KM_ENGINE_HOOKS_H */
