/*
 * choice.c - choice points and held tasks (see choice.h for the model).
 *
 * Four entry points for the event loop (sched.c): km_choice_point when
 * it is about to resume a task, km_choice_release_for when a task steps,
 * blocks or ends (whoever waited for it goes on), km_choice_release_for_irq
 * when an interrupt handler exits (likewise), km_choice_settle before
 * each event (a held task whose delay would be the next thing to happen
 * goes on at once -- nobody else has anything to do first -- unless, with
 * no bound, what it waits for is still to come: then its slice ends and
 * it waits on), and km_choice_hold_expired at a delay's end.
 *
 * A hold is a timed segment like a compute, whose end is a
 * KM_EV_HOLD_END event rather than a KM_EV_SEG_END, so that the loop
 * can tell a delay from work: an interrupt, a tick or a preemption treat
 * it as they treat any segment.  Ending a hold early re-arms the task's
 * segment for one nanosecond; the HOLD_END left in the queue is then
 * stale and dropped without moving the clock.
 *
 * Cost: a choice point scans the tasks and the interrupt sources,
 * O(tasks + sources); nothing at all runs without a chooser.
 */
#include "core.h"
#include "trace_kinds.h"

#include <stdlib.h>

static void hold_end_now(struct km_sim *sim, struct km_ctx *c)
{
	c->held_for = NULL;
	c->held_for_irq = NULL;
	sim->holds--;
	if (c->act != KM_ACT_SEG)
		return;
	if (km_ctx_on_top(sim, c))
		km_ctx_run_seg(sim, c, 1);
	else if (c->seg_left > 1)
		c->seg_left = 1;
}

/**
 * km_choice_release_for - the tasks held until @ctx stepped go on.
 * Context: the event loop, when @ctx reaches a choice point, blocks or ends.
 */
void km_choice_release_for(struct km_sim *sim, const struct km_ctx *ctx)
{
	for (uint32_t i = 0; i < sim->ctxs.n && sim->holds; i++) {
		struct km_ctx *c = sim->ctxs.v[i];
		if (c->held_for == ctx)
			hold_end_now(sim, c);
	}
}

/**
 * km_choice_release_for_irq - the tasks held until a handler of @src ran
 * go on.
 * Context: the event loop, when a handler of @src exits.
 */
void km_choice_release_for_irq(struct km_sim *sim, const struct km_irqsrc *src)
{
	for (uint32_t i = 0; i < sim->ctxs.n && sim->holds; i++) {
		struct km_ctx *c = sim->ctxs.v[i];
		if (c->held_for_irq == src)
			hold_end_now(sim, c);
	}
}


/* Could @d take a step while @ctx is held on its CPU? */
static bool may_go_first(const struct km_sim *sim, const struct km_ctx *ctx,
			 const struct km_ctx *d)
{
	if (d == ctx || d->kind != KM_CTX_TASK || d->finished || d->state == KM_CTX_DONE)
		return false;
	/* not started yet: it goes first once it starts, if it starts at all */
	if (d->state == KM_CTX_NEW && d->start_at > sim->cfg.duration)
		return false;
	/* waiting for somebody else: it cannot step on its own */
	if (d->state == KM_CTX_BLOCKED && d->deadline == KM_TIME_NEVER && d->wait != KM_WAIT_SLEEP)
		return false;
	/* queued behind @ctx on its CPU: only a preemption lets it run */
	if (d->state == KM_CTX_RUNNABLE && sim->era.preempt != KM_PREEMPT_FULL && ctx->cpu >= 0) {
		for (const struct km_ctx *q = sim->cpus[ctx->cpu].rq_head; q; q = q->rq_next)
			if (q == d)
				return false;
	}
	return true;
}

/* Does --hold-max bound the holds (else a hold lasts until its other went)? */
static bool hold_bounded(const struct km_sim *sim)
{
	return sim->cfg.hold_max > 0;
}

/* Is a handler of @src running (or interrupted by another) now? */
static bool handler_running(const struct km_sim *sim, const struct km_irqsrc *src)
{
	for (const struct km_ctx *i = sim->cpus[src->cpu].irq_top; i; i = i->below)
		if (i->irq_source == src->id)
			return true;
	return false;
}

/* Could a handler of @src run to its exit while @ctx is held (choice.h):
 * within the bound, or -- @ever, or no bound -- before the run's end? */
static bool irq_may_go_first(const struct km_sim *sim, const struct km_ctx *ctx,
			     const struct km_irqsrc *src, bool ever)
{
	if (src->cpu == ctx->cpu && ctx->irqoff > 0)
		return false;	/* it cannot come in before the task's step */
	km_time horizon = ever || !hold_bounded(sim) ? sim->cfg.duration :
			  km_sat_add(sim->now, sim->cfg.hold_max);
	return src->pending || src->next_at <= horizon || handler_running(sim, src);
}

/*
 * Is what the held @c waits for still to come: may its task still step
 * (or the handler of its source still run) while it waits?  @ever: with
 * no bound on the wait (when a bounded hold ends, was it cut?).
 */
static bool hold_worth(const struct km_sim *sim, const struct km_ctx *c, bool ever)
{
	if (c->held_for)
		return may_go_first(sim, c, c->held_for);
	if (c->held_for_irq)
		return irq_may_go_first(sim, c, c->held_for_irq, ever);
	return false;
}

/*
 * How long an unbounded hold of @c waits before it looks again: until
 * just after its task's start or its source's next firing when those are
 * ahead, else KM_HOLD_MAX.  A slice's end is a real event, so the run
 * never stalls on a hold, and a stale one is never far ahead.
 */
static km_time hold_slice(const struct km_sim *sim, const struct km_ctx *c)
{
	if (hold_bounded(sim))
		return sim->cfg.hold_max;
	km_time at = KM_TIME_NEVER;
	if (c->held_for && c->held_for->state == KM_CTX_NEW)
		at = c->held_for->start_at;
	else if (c->held_for_irq && !c->held_for_irq->pending)
		at = c->held_for_irq->next_at;
	if (at != KM_TIME_NEVER && at > sim->now && at - sim->now < KM_TIME_NEVER / 2)
		return at - sim->now + 1;
	return KM_HOLD_MAX;
}

/**
 * km_choice_hold_expired - the delay of the held @ctx ran out.  With no
 * bound, while what it waits for can still come, it waits another slice;
 * else it is no longer held (with a bound: a cut hold, when what it
 * waited for could still have come).
 * Returns true when it waits on (its step does not follow yet).
 * Context: the event loop, at the task's KM_EV_HOLD_END.
 */
bool km_choice_hold_expired(struct km_sim *sim, struct km_ctx *ctx)
{
	if (!km_ctx_held(ctx))
		return false;
	if (!hold_bounded(sim) && hold_worth(sim, ctx, false)) {
		km_ctx_run_seg(sim, ctx, hold_slice(sim, ctx));
		return true;
	}
	if (hold_bounded(sim) && hold_worth(sim, ctx, true))
		sim->holds_cut++;
	ctx->held_for = NULL;
	ctx->held_for_irq = NULL;
	sim->holds--;
	return false;
}

/**
 * km_choice_settle - before the loop takes its next event: drop stale
 * hold ends, and end at once a hold whose end would come next.
 * Context: the event loop, between events, only under a chooser.
 */
void km_choice_settle(struct km_sim *sim)
{
	const struct km_event *top;
	while ((top = km_evq_peek(&sim->evq)) && top->kind == KM_EV_HOLD_END) {
		struct km_ctx *c = sim->ctxs.v[top->id];
		bool live = top->token == c->seg_token && c->act == KM_ACT_SEG && km_ctx_held(c) &&
			    km_ctx_on_top(sim, c);
		/* an unbounded hold waits on while its other can still go */
		if (live && !hold_bounded(sim) && hold_worth(sim, c, false))
			break;
		struct km_event ev;
		km_evq_pop(&sim->evq, &ev);
		sim->productive--;
		if (live) {
			if (hold_bounded(sim) && hold_worth(sim, c, true))
				sim->holds_cut++;
			hold_end_now(sim, c);
		}
	}
}


/**
 * km_choice_point - @ctx is about to step: ask the chooser.
 * Returns true when @ctx is held (its delay runs; the loop resumes it
 * later without asking again) or the chooser failed the run; false when
 * it goes now.
 * Context: the event loop, about to resume the code of task @ctx.
 */
bool km_choice_point(struct km_sim *sim, struct km_ctx *ctx)
{
	if (ctx->choice_passed) {
		ctx->choice_passed = false;
		return false;
	}
	if (sim->holds)
		km_choice_release_for(sim, ctx);
	sim->choice_others.n = 0;
	for (uint32_t i = 0; i < sim->ctxs.n; i++) {
		const struct km_ctx *d = sim->ctxs.v[i];
		if (may_go_first(sim, ctx, d) && KM_VEC_PUSH(sim->choice_others, d) < 0) {
			km_fail(sim, KM_ENOMEM, "out of memory at a choice point");
			return true;
		}
	}
	sim->choice_irqs.n = 0;
	for (uint32_t i = 0; i < sim->irqsrcs.n; i++) {
		const struct km_irqsrc *src = sim->irqsrcs.v[i];
		if (irq_may_go_first(sim, ctx, src, false) && KM_VEC_PUSH(sim->choice_irqs, src) < 0) {
			km_fail(sim, KM_ENOMEM, "out of memory at a choice point");
			return true;
		}
	}
	struct km_choice_point cp = {
		.index = sim->choice_points++, .ctx = ctx,
		.others = sim->choice_others.v, .nothers = (int)sim->choice_others.n,
		.irqs = sim->choice_irqs.v, .nirqs = (int)sim->choice_irqs.n,
		.prev_index = (int64_t)ctx->last_choice - 1, .prev_shared = ctx->step_shared,
		.prev = ctx->step, .prev_late = ctx->step_late, .irq = sim->irq_step,
	};
	ctx->last_choice = (uint64_t)cp.index + 1;
	ctx->step_shared = false;
	ctx->step = ctx->step_late = sim->irq_step = (struct km_footprint){ 0, 0 };
	char err[400];
	err[0] = 0;	/* not "" as an initialiser: that zeroes all 400 bytes, every choice point */
	const struct km_chooser *ch = sim->cfg.chooser;
	int pick = ch->choose(ch->ud, sim, &cp, err, sizeof(err));
	if (pick == KM_CHOOSE_GO)
		return false;
	if (pick < 0 || pick >= cp.nothers + cp.nirqs) {
		km_fail(sim, KM_EINVAL, "%s", err[0] ? err : "internal: a chooser chose no task");
		return true;
	}
	if (pick < cp.nothers)
		ctx->held_for = (struct km_ctx *)cp.others[pick];
	else
		ctx->held_for_irq = cp.irqs[pick - cp.nothers];
	ctx->choice_passed = true;
	sim->holds++;
	km_ctx_run_seg(sim, ctx, hold_slice(sim, ctx));
	return true;
}

int km_choice_answer_for(const struct km_choice_point *cp, uint32_t other)
{
	if (other & KM_CHOICE_IRQ) {
		for (int i = 0; i < cp->nirqs; i++)
			if (cp->irqs[i]->id == (other & ~KM_CHOICE_IRQ))
				return cp->nothers + i;
		return -1;
	}
	for (int i = 0; i < cp->nothers; i++)
		if (cp->others[i]->id == other)
			return i;
	return -1;
}

bool km_choice_last_step(const struct km_ctx *ctx, struct km_choice_last *out)
{
	if (ctx->kind != KM_CTX_TASK || !ctx->last_choice)
		return false;
	*out = (struct km_choice_last){
		.index = (uint32_t)(ctx->last_choice - 1),
		.blocked = ctx->state == KM_CTX_BLOCKED,
		.finished = ctx->finished,
		.fp = ctx->step,
		.late = ctx->step_late,
	};
	return true;
}

/* The footprint bit of object @id of @kind. */
static uint64_t obj_bit(enum km_choice_obj kind, uint32_t id)
{
	uint64_t h = ((uint64_t)kind << 32 | id) * 0x9e3779b97f4a7c15ULL;
	return 1ULL << (h >> 58);
}

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/*
 * The Mazurkiewicz trace of the run (sim->trace_sig): sim->running made
 * access @op (a write when @write) to object @kind/@id.  A trace is fixed
 * by the order of each object's writes and by which writes each read
 * came between (reads between the same two writes commute), so the hash
 * sums, over the accesses, one of (object, its writes before, who, what):
 * the same for two runs that order every object's conflicting accesses
 * alike, whatever the order of independent ones.  The dependency it
 * uses is a part of the footprints' (a wake-up or a block orders only
 * the accesses to its own object here), so two runs the reduction
 * counts as one trace have one hash.  Out of memory: the hash takes the
 * access with no position, which can only split a trace in two.
 */
static void sig_add(struct km_sim *sim, uint32_t kind, uint32_t id, uint32_t op, bool write)
{
	uint64_t key = mix64((uint64_t)kind << 32 | id) | 1;
	struct km_sig_slot *slot = NULL;
	if ((sim->sig_n + 1) * 2 > sim->sig_cap) {
		uint32_t cap = sim->sig_cap ? sim->sig_cap * 2 : 64;
		struct km_sig_slot *m = cap > sim->sig_cap ? calloc(cap, sizeof(*m)) : NULL;
		if (m) {
			for (uint32_t i = 0; i < sim->sig_cap; i++)
				for (uint32_t j = (uint32_t)sim->sig_map[i].key & (cap - 1);
				     sim->sig_map[i].key; j = (j + 1) & (cap - 1))
					if (!m[j].key) {
						m[j] = sim->sig_map[i];
						break;
					}
			free(sim->sig_map);
			sim->sig_map = m;
			sim->sig_cap = cap;
		}
	}
	for (uint32_t j = sim->sig_cap ? (uint32_t)key & (sim->sig_cap - 1) : 0;
	     sim->sig_cap && sim->sig_n * 2 < sim->sig_cap; j = (j + 1) & (sim->sig_cap - 1)) {
		if (sim->sig_map[j].key == key) {
			slot = &sim->sig_map[j];
			break;
		}
		if (!sim->sig_map[j].key) {
			slot = &sim->sig_map[j];
			slot->key = key;
			slot->writes = 0;
			sim->sig_n++;
			break;
		}
	}
	uint32_t writes = slot ? slot->writes : UINT32_MAX;
	sim->trace_sig += mix64(key ^ mix64((uint64_t)writes << 1 | write) ^
				mix64((uint64_t)sim->running->id << 32 | op));
	if (slot && write)
		slot->writes++;
}

/* sim->running read (@rd) and wrote (@wr) these: note it in its step's
 * footprint, or in the handlers' when it is an interrupt handler. */
static void note(struct km_sim *sim, uint64_t rd, uint64_t wr)
{
	struct km_ctx *c = sim->running;
	if (c->kind == KM_CTX_IRQ) {
		sim->irq_step.rd |= rd;
		sim->irq_step.wr |= wr;
		return;
	}
	c->step_shared = true;
	c->step.rd |= rd;
	c->step.wr |= wr;
	if (c->in_then) {
		c->step_late.rd |= rd;
		c->step_late.wr |= wr;
	}
}

/* The shared objects of the explorer, by the namespace of a record's
 * obj (trace_kinds.h); 0: none the explorer tracks (a counter is only
 * counted, an interrupt source or a log message is no shared state). */
static enum km_choice_obj shared_obj(enum km_trace_ns ns)
{
	switch (ns) {
	case KM_TNS_LOCK:
		return KM_OBJ_LOCK;
	case KM_TNS_VAR:
		return KM_OBJ_VAR;
	case KM_TNS_ATOMIC:
		return KM_OBJ_ATOMIC;
	default:
		return 0;
	}
}

/* What a block or a wake-up record @r sleeps on, as a shared object
 * (0: nothing shared -- a sleep for a time).  A block names it in aux
 * (enum km_wait), a wake-up in arg (why it woke). */
static enum km_choice_obj wait_obj(const struct km_trace_rec *r)
{
	if (r->obj == KM_TR_NONE)
		return 0;
	if (r->kind == KM_TR_BLOCK)
		return r->aux == KM_WAIT_LOCK ? KM_OBJ_LOCK : r->aux == KM_WAIT_WQ ? KM_OBJ_WAITQ :
		       r->aux == KM_WAIT_COMPLETION ? KM_OBJ_COMPLETION : 0;
	return r->arg == 0 || r->arg == 1 ? KM_OBJ_LOCK : r->arg == 2 ? KM_OBJ_WAITQ :
	       r->arg == 3 ? KM_OBJ_COMPLETION : 0;
}

/**
 * km_choice_note - a trace record @r was made while sim->running ran: if
 * it is about a shared object, its step was no local one, and its
 * footprint says which -- read or written, as the kind's row of
 * trace_kinds.c says.
 *
 * A block or a wake-up writes what it sleeps on (the lock, the queue,
 * the completion) and the scheduler (KM_OBJ_SCHED): who is runnable and
 * who gets a freed CPU change, so it is ordered against every other
 * block and wake-up (which task a freed CPU takes next can depend on
 * their order), but not against a step that only takes or drops another
 * lock or reads or writes a variable, which leaves the scheduler as it
 * was.  The CPU a held task keeps is checked apart (hold_commutes).
 * Context: km_emit, under a chooser.
 */
void km_choice_note(struct km_sim *sim, const struct km_trace_rec *r)
{
	int kind = r->kind;
	uint32_t obj = r->obj;
	const struct km_trace_kind_info *k = km_trace_kind_info((unsigned)kind);
	if (!k || k->access == KM_TACC_NONE)
		return;
	if (k->access == KM_TACC_SCHED) {
		enum km_choice_obj w = wait_obj(r);
		note(sim, 0, obj_bit(KM_OBJ_SCHED, 0) | (w ? obj_bit(w, obj) : 0));
		sig_add(sim, 0x100u + (uint32_t)kind, obj, (uint32_t)kind, true);
		return;
	}
	enum km_choice_obj o = shared_obj(k->ns);
	if (!o)
		return;
	bool write = k->access == KM_TACC_WRITE;
	note(sim, write ? 0 : obj_bit(o, obj), write ? obj_bit(o, obj) : 0);
	sig_add(sim, o, obj, (uint32_t)kind, write);
}

/**
 * km_choice_touch - sim->running used a shared object in a way that
 * leaves no trace record (an atomic_read(), a wake_up() of an empty
 * queue, a completion taken without waiting): its step is no local one.
 * Context: the operations (ops.c), under a chooser.
 */
void km_choice_touch(struct km_sim *sim, enum km_choice_obj kind, uint32_t id, bool write)
{
	if (!sim->running)
		return;
	uint64_t b = obj_bit(kind, id);
	note(sim, write ? 0 : b, write ? b : 0);
	sig_add(sim, kind, id, 0x200u, write);
}
