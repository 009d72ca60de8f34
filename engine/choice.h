/*
 * choice.h - choice points: where a strategy may decide who goes next.
 *
 * The simulator is exact about time: with fixed timings a scenario has
 * one interleaving.  A real CPU, though, can always be late -- a cache
 * miss, an NMI, an SMI -- so any interleaving that some delays could
 * produce is one a kernel could have run.  A chooser (a strategy of
 * `explore`, a replayed schedule file, later a player at the keyboard)
 * turns that into decisions.
 *
 * A choice point is a task about to take its next step: the event loop
 * is about to resume its code (after its start, a compute, an operation's
 * cost, a wake-up).  The chooser sees the task, the other tasks that
 * could move while it waits, and the interrupts that could come first,
 * and answers either "go" (the default: what real timing does) or "let
 * that one go first".  The task is then *held*: it keeps its CPU, as a
 * stalled CPU does, for a delay that ends when the one it let go has gone
 * (plus one nanosecond), however long that takes -- a task not started
 * yet goes first once it starts -- or when it no longer can go (it ended,
 * it waits behind the held task on a CPU the era does not preempt).  With
 * a hold bound (hold_max) the delay is at most that, and a hold the bound
 * ends while its other could still go is counted as cut (sim->holds_cut):
 * a branch of the search not run.  Nothing else changes: locks, interrupts, ticks and
 * preemption run their ordinary code on that delay, so lock semantics and
 * the era's rules stay exact.  A held task's next resume is no new choice
 * point; its step follows.
 *
 * "Go first" means, for a task, that it reaches its own next choice point,
 * blocks or ends.  For an interrupt source it means that a handler of that
 * source runs to its exit: the task is held until then.  The source fires
 * when the scenario says (its period and jitter are not moved); what moves
 * is the task, as late as it takes, so the interrupt falls between two
 * of its steps -- or, on the task's own CPU with interrupts on, between
 * two of its instructions.  A source is offered only when that can happen:
 * its handler runs now, it is latched, or its next firing is due before
 * the run's end (within the bound, if there is one); on the task's own
 * CPU only if the task has interrupts on.  Handlers themselves are no
 * choice points.
 *
 * An unbounded hold is a chain of timed slices (KM_HOLD_MAX, or up to the
 * other's start or the source's firing): at each slice's end the task
 * looks again, so a hold is always a real event in the queue and the
 * deadlock watch never mistakes it for a stall.  hold_max 0 is no bound
 * (the default); `explore --hold-max` gives one.
 *
 * With no chooser (cfg.chooser NULL) none of this runs, and every run is
 * byte for byte what it was.
 */
#ifndef KM_ENGINE_CHOICE_H
#define KM_ENGINE_CHOICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct km_sim;
struct km_ctx;
struct km_irqsrc;

/* 1 ms, the order of a long SMI: an unbounded hold's slice, and the bound
 * of a schedule file made before holds were unbounded (no hold-max line). */
#define KM_HOLD_MAX 1000000

/* In a decision's "other" (schedule.h), this bit marks an interrupt
 * source's id rather than a task's. */
#define KM_CHOICE_IRQ 0x80000000u

/*
 * Which shared objects a step read and wrote, as a footprint: one bit
 * per object (a hash of its kind and id, so two objects may share a bit
 * -- a conflict that is not one, never the reverse).  A wake-up or a
 * block writes what it sleeps on and the scheduler (KM_OBJ_SCHED: who
 * is runnable, who gets a freed CPU), so it is ordered against every
 * other block and wake-up but not against a step on another object
 * (choice.c, km_choice_note).  Two steps commute when neither writes a
 * bit the other reads or writes.
 */
struct km_footprint {
	uint64_t rd, wr;
};

/* What the chooser is asked at a choice point. */
struct km_choice_point {
	uint32_t index;			/* 0, 1, ... in the order of the run */
	const struct km_ctx *ctx;	/* the task about to step */
	const struct km_ctx *const *others;	/* may go first instead */
	int nothers;
	const struct km_irqsrc *const *irqs;	/* interrupts that may come first */
	int nirqs;
	/* The index of this task's previous choice point (-1: none), and
	 * whether the step that followed it touched a shared object (a lock,
	 * a var, an atomic, a queue, a completion): a chooser that prunes
	 * learns here that holding the task there was no real choice. */
	int64_t prev_index;
	bool prev_shared;
	/* Which shared objects that step read and wrote; of those, what it
	 * did after its operations' costs (a non-atomic add()'s write, a lock
	 * taken on a retry), just before this point; and what interrupt
	 * handlers did since the previous choice point of any task. */
	struct km_footprint prev, prev_late, irq;
};

/*
 * km_choice_answer_for - the answer to @cp that lets @other go first: a
 * task id, or an interrupt source's id | KM_CHOICE_IRQ, as a recorded
 * decision names it.  -1 when @other is not among those that may.
 */
int km_choice_answer_for(const struct km_choice_point *cp, uint32_t other);

/*
 * Where a task's last step stands, read once the run is over (or paused):
 * the explorer and the schedule files learn from it what a held task did
 * after its last choice point, without the fields the choice points keep
 * in a context (ctx.h).
 */
struct km_choice_last {
	uint32_t index;			/* its last choice point */
	bool blocked;			/* it sleeps: its step stopped in a wait */
	bool finished;			/* its code returned: its step is whole */
	struct km_footprint fp;		/* that step's footprint, as cp->prev */
	struct km_footprint late;	/* ... of it after its costs, as cp->prev_late */
};

/*
 * km_choice_last_step - fill @out for @ctx's last choice point.  Returns
 * false, @out untouched, when @ctx is an interrupt context or reached no
 * choice point.  Context: any; a run with a chooser.
 */
bool km_choice_last_step(const struct km_ctx *ctx, struct km_choice_last *out);

/* Do two steps with these footprints conflict (not commute)? */
static inline bool km_choice_conflict(struct km_footprint a, struct km_footprint b)
{
	return (a.wr & (b.rd | b.wr)) || (b.wr & a.rd);
}

/* The kinds of shared object a footprint tells apart. */
enum km_choice_obj { KM_OBJ_LOCK = 1, KM_OBJ_VAR, KM_OBJ_ATOMIC, KM_OBJ_WAITQ, KM_OBJ_COMPLETION,
		     KM_OBJ_SCHED };

/*
 * A decision source.  choose() returns -1 to let cp->ctx go, an index
 * into cp->others (that task goes first), or cp->nothers + i: the
 * interrupt source cp->irqs[i] goes first.  It may keep state in @ud; it
 * must not change the simulation (it gets it const).  KM_CHOOSE_FAIL,
 * with one line in @err, ends the run as an error.
 */
struct km_chooser {
	int (*choose)(void *ud, const struct km_sim *sim, const struct km_choice_point *cp,
		      char *err, size_t errlen);
	void *ud;
};

#define KM_CHOOSE_GO (-1)
#define KM_CHOOSE_FAIL (-2)

#endif /* KM_ENGINE_CHOICE_H */
