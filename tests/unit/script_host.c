/*
 * script_host.c - the unit tests' C host for the simulator core.  See
 * script_host.h.
 *
 * It plays the part the Lua layer plays in the program: resume() runs a
 * context's steps from its program counter until an operation makes it
 * wait, and the result of that operation is collected at the next
 * resume.  Nothing here decides anything the core should decide; it only
 * calls km_op_* in order and writes down what came back.
 */
#include "script_host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct km_era sh_era(int cpus)
{
	struct km_era e;
	memset(&e, 0, sizeof(e));
	snprintf(e.id, sizeof(e.id), "test");
	snprintf(e.version, sizeof(e.version), "2.6.26");
	snprintf(e.title, sizeof(e.title), "unit-test era");
	e.year = 2008;
	e.cpus = cpus;
	e.smp = cpus > 1;
	e.hz = 1000;
	e.preempt = KM_PREEMPT_NONE;
	e.global_cli = false;
	e.bkl = true;
	e.spinlock = KM_SPIN_TICKET;
	e.semaphore = KM_SEM_GENERIC;
	e.mutex = true;
	e.mutex_spin = false;
	e.mutex_handoff = false;
	e.sleep_check = true;
	e.semaphores = -1;
	e.cost = (struct km_costs){
		.cli = 2, .atomic = 1, .cacheline = 10, .ctxsw = 100, .wakeup = 100,
		.irq_entry = 50,
	};
	return e;
}

struct km_config sh_cfg(int cpus, uint64_t seed)
{
	struct km_config c;
	memset(&c, 0, sizeof(c));
	c.cpus = cpus;
	c.seed = seed;
	c.duration = 1000000000;	/* one simulated second */
	c.mode = KM_MODE_NATIVE;
	c.store_trace = true;
	c.max_events = 20000000;
	return c;
}

/* ------------------------------------------------------------- state -- */

static struct sh_ctx *state(struct sh_host *h, uint32_t id)
{
	if (id >= h->ncs) {
		uint32_t n = h->ncs ? h->ncs : 16;
		while (n <= id)
			n *= 2;
		struct sh_ctx *cs = realloc(h->cs, n * sizeof(*cs));
		if (!cs)
			return NULL;
		memset(cs + h->ncs, 0, (n - h->ncs) * sizeof(*cs));
		h->cs = cs;
		h->ncs = n;
	}
	return &h->cs[id];
}

static int log_step(struct sh_host *h, struct km_ctx *ctx, struct sh_ctx *st,
		    const struct sh_step *s, int64_t result)
{
	if (h->nev == h->cap) {
		size_t n = h->cap ? h->cap * 2 : 256;
		struct sh_event *ev = realloc(h->ev, n * sizeof(*ev));
		if (!ev)
			return km_fail(h->sim, KM_ENOMEM, "test host: out of memory");
		h->ev = ev;
		h->cap = n;
	}
	h->ev[h->nev++] = (struct sh_event){
		.ctx = km_ctx_id(ctx), .irq = st->irq, .inv = st->inv, .pc = st->pc, .op = s->op,
		.a = s->a, .b = s->b, .issued = st->issued, .done = h->sim->now,
		.result = result,
	};
	if (s->op == OP_READ)
		st->last_read = result;
	if (s->op != OP_MARK)
		st->last_result = result;
	return 0;
}

static bool might_sleep_op(int op)
{
	return op == OP_SLEEP || op == OP_DOWN || op == OP_DOWN_TIMEOUT ||
	       op == OP_WQ_WAIT || op == OP_WAIT_COMPLETION;
}

static int bad_index(struct sh_host *h, const struct sh_step *s, uint32_t n,
		     const char *what)
{
	if (s->a >= 0 && (uint64_t)s->a < n)
		return 0;
	return km_fail(h->sim, KM_EINVAL, "test host: no %s %lld", what, (long long)s->a);
}

/* Issue step @s; returns KM_STEP_* or a negative code. */
static int issue(struct sh_host *h, struct km_ctx *ctx, struct sh_ctx *st,
		 const struct sh_step *s)
{
	struct km_sim *sim = h->sim;
	int r;
	switch (s->op) {
	case OP_COMPUTE:
		return km_op_compute(sim, ctx, s->a);
	case OP_SLEEP:
		return km_op_sleep(sim, ctx, s->a);
	case OP_DOWN:
	case OP_UP:
	case OP_UP_IF_TAKEN:
	case OP_TRYLOCK:
	case OP_DOWN_TIMEOUT: {
		if ((r = bad_index(h, s, sim->locks.n, "lock")) < 0)
			return r;
		struct km_lock *l = sim->locks.v[s->a];
		if (s->op == OP_DOWN)
			return km_op_down(sim, ctx, l);
		if (s->op == OP_UP || s->op == OP_UP_IF_TAKEN)
			return km_op_up(sim, ctx, l);
		if (s->op == OP_TRYLOCK)
			return km_op_down_trylock(sim, ctx, l);
		return km_op_down_timeout(sim, ctx, l, s->b);
	}
	case OP_IRQ_DISABLE:
		return km_op_irq_disable(sim, ctx);
	case OP_IRQ_ENABLE:
		return km_op_irq_enable(sim, ctx);
	case OP_READ:
	case OP_WRITE:
	case OP_WRITE_INC:
	case OP_ADD: {
		if ((r = bad_index(h, s, sim->vars.n, "var")) < 0)
			return r;
		struct km_var *v = sim->vars.v[s->a];
		if (s->op == OP_READ)
			return km_op_read(sim, ctx, v);
		if (s->op == OP_WRITE)
			return km_op_write(sim, ctx, v, s->b);
		if (s->op == OP_WRITE_INC)
			return km_op_write(sim, ctx, v, st->last_read + s->b);
		return km_op_add(sim, ctx, v, s->b);
	}
	case OP_ATOMIC_ADD:
		if ((r = bad_index(h, s, sim->atomics.n, "atomic")) < 0)
			return r;
		return km_op_atomic(sim, ctx, sim->atomics.v[s->a], KM_ATOMIC_ADD_RETURN, s->b);
	case OP_WQ_WAIT:
		if ((r = bad_index(h, s, sim->waitqs.n, "wait queue")) < 0)
			return r;
		return km_op_wq_wait(sim, ctx, sim->waitqs.v[s->a],
				     s->b < 0 ? KM_TIME_NEVER : sim->now + s->b);
	case OP_WAKE_UP:
		if ((r = bad_index(h, s, sim->waitqs.n, "wait queue")) < 0)
			return r;
		return km_op_wake_up(sim, ctx, sim->waitqs.v[s->a], s->b != 0);
	case OP_WAIT_COMPLETION:
		if ((r = bad_index(h, s, sim->completions.n, "completion")) < 0)
			return r;
		return km_op_wait_for_completion(sim, ctx, sim->completions.v[s->a]);
	case OP_COMPLETE:
		if ((r = bad_index(h, s, sim->completions.n, "completion")) < 0)
			return r;
		return km_op_complete(sim, ctx, sim->completions.v[s->a], s->b != 0);
	default:
		return km_fail(sim, KM_EINVAL, "test host: bad op %d", s->op);
	}
}

static int host_resume(void *hp, struct km_sim *sim, struct km_ctx *ctx)
{
	struct sh_host *h = hp;
	struct sh_ctx *st = state(h, km_ctx_id(ctx));
	if (!st)
		return km_fail(sim, KM_ENOMEM, "test host: out of memory");
	if (!st->prog)
		return km_fail(sim, KM_EINVAL, "test host: context %u has no program", km_ctx_id(ctx));
	if (st->waiting) {
		st->waiting = false;
		if (log_step(h, ctx, st, &st->prog[st->pc], km_ctx_result(ctx)) < 0)
			return sim->error;
		st->pc++;
	}
	for (;;) {
		if (st->pc >= SH_MAX_STEPS)
			return km_fail(sim, KM_EINVAL, "test host: program too long");
		const struct sh_step *s = &st->prog[st->pc];
		switch (s->op) {
		case OP_END:
			st->done = true;
			km_ctx_finish(sim, ctx);
			return 0;
		case OP_LOOP:
			if (++st->loops[st->pc] < s->b) {
				st->pc = (int)s->a;
			} else {
				st->loops[st->pc] = 0;
				st->pc++;
			}
			continue;
		case OP_UP_IF_TAKEN:
			if (!st->last_result) {
				st->pc++;
				continue;
			}
			break;
		case OP_MARK:
			st->issued = sim->now;
			if (log_step(h, ctx, st, s, 0) < 0)
				return sim->error;
			st->pc++;
			continue;
		default:
			break;
		}
		if (might_sleep_op(s->op) && km_op_might_sleep(sim, ctx) == KM_STEP_WAIT)
			return 0;	/* re-issued when the task runs again */
		st->issued = sim->now;
		int r = issue(h, ctx, st, s);
		if (r < 0)
			return r;
		/* As the Lua layer does: wait, unless the segment can end in
		 * place (h->run_ahead) -- then the step is done now. */
		if (r == KM_STEP_WAIT && !(h->run_ahead && km_ctx_run_ahead(sim, ctx))) {
			st->waiting = true;
			return 0;
		}
		if (log_step(h, ctx, st, s, km_ctx_result(ctx)) < 0)
			return sim->error;
		st->pc++;
	}
}

static int host_irq_prepare(void *hp, struct km_sim *sim, struct km_ctx *ctx,
			    struct km_irqsrc *src)
{
	struct sh_host *h = hp;
	struct sh_ctx *st = state(h, km_ctx_id(ctx));
	if (!st || src->id >= h->nirq || !h->irq_prog[src->id])
		return km_fail(sim, KM_EINVAL, "test host: irq '%s' has no handler", src->name);
	memset(st, 0, sizeof(*st));
	st->prog = h->irq_prog[src->id];
	st->irq = (int32_t)src->id;
	st->inv = h->irq_invocations++;
	return 0;
}

static void host_release(void *hp, struct km_sim *sim, struct km_ctx *ctx)
{
	struct sh_host *h = hp;
	h->released++;
	km_ctx_set_host(ctx, NULL);
}

static const struct km_host_ops sh_ops = {
	.resume = host_resume,
	.irq_prepare = host_irq_prepare,
	.ctx_release = host_release,
};

/* ------------------------------------------------------------ set-up -- */

struct km_sim *sh_new(struct sh_host *h, const struct km_era *era,
		      const struct km_config *cfg)
{
	memset(h, 0, sizeof(*h));
	h->sim = km_sim_new(era, cfg, &sh_ops, h);
	return h->sim;
}

struct km_ctx *sh_task(struct sh_host *h, const char *name, int cpu, km_time start,
		       const struct sh_step *prog)
{
	struct km_ctx *c = km_task_new(h->sim, name, cpu, start);
	if (!c)
		return NULL;
	struct sh_ctx *st = state(h, km_ctx_id(c));
	if (!st)
		return NULL;
	memset(st, 0, sizeof(*st));
	st->prog = prog;
	st->irq = -1;
	return c;
}

struct km_irqsrc *sh_irq(struct sh_host *h, const char *name, int cpu, km_time every,
			 km_time jitter, km_time start, const struct sh_step *prog)
{
	struct km_irqsrc *s = km_irqsrc_new(h->sim, name, cpu, every, jitter, start);
	if (!s)
		return NULL;
	if (s->id >= h->nirq) {
		uint32_t n = s->id + 8;
		const struct sh_step **p = realloc(h->irq_prog, n * sizeof(*p));
		if (!p)
			return NULL;
		for (uint32_t i = h->nirq; i < n; i++)
			p[i] = NULL;
		h->irq_prog = p;
		h->nirq = n;
	}
	h->irq_prog[s->id] = prog;
	return s;
}

int sh_run(struct sh_host *h)
{
	int r = km_sim_start(h->sim);
	if (r < 0)
		return r;
	return km_sim_run(h->sim);
}

void sh_free(struct sh_host *h)
{
	km_sim_free(h->sim);
	free(h->cs);
	free(h->irq_prog);
	free(h->ev);
	memset(h, 0, sizeof(*h));
}

/* ----------------------------------------------------------- queries -- */

static bool ev_match(const struct sh_event *e, int op, int64_t a)
{
	return (op == SH_ANY || e->op == op) && (a == SH_ANY || e->a == a);
}

const struct sh_event *sh_ev(const struct sh_host *h, int ctx, int op, int64_t a, int nth)
{
	for (size_t i = 0; i < h->nev; i++) {
		const struct sh_event *e = &h->ev[i];
		if (e->irq < 0 && (ctx == SH_ANY || e->ctx == (uint32_t)ctx) &&
		    ev_match(e, op, a) && nth-- == 0)
			return e;
	}
	return NULL;
}

const struct sh_event *sh_irq_ev(const struct sh_host *h, int src, int op, int64_t a,
				 int nth)
{
	for (size_t i = 0; i < h->nev; i++) {
		const struct sh_event *e = &h->ev[i];
		if (e->irq >= 0 && (src == SH_ANY || e->irq == src) && ev_match(e, op, a) &&
		    nth-- == 0)
			return e;
	}
	return NULL;
}

int sh_count(const struct sh_host *h, int ctx, int op, int64_t a)
{
	int n = 0;
	while (sh_ev(h, ctx, op, a, n))
		n++;
	return n;
}

int sh_irq_count(const struct sh_host *h, int src, int op, int64_t a)
{
	int n = 0;
	while (sh_irq_ev(h, src, op, a, n))
		n++;
	return n;
}

/* ------------------------------------------------------------- trace -- */

static bool rec_match(const struct km_trace_rec *r, int kind, int64_t ctx, int64_t obj)
{
	return r->kind == kind && (ctx == SH_ANY || r->ctx == (uint32_t)ctx) &&
	       (obj == SH_ANY || r->obj == (uint32_t)obj);
}

int sh_trace_count(const struct km_sim *sim, int kind, int64_t ctx, int64_t obj)
{
	int n = 0;
	for (size_t i = 0; i < sim->trace.len; i++)
		n += rec_match(&sim->trace.recs[i], kind, ctx, obj);
	return n;
}

const struct km_trace_rec *sh_trace_find(const struct km_sim *sim, int kind, int64_t ctx,
					 int64_t obj, int nth)
{
	for (size_t i = 0; i < sim->trace.len; i++)
		if (rec_match(&sim->trace.recs[i], kind, ctx, obj) && nth-- == 0)
			return &sim->trace.recs[i];
	return NULL;
}

int sh_acquire_order(const struct km_sim *sim, uint32_t obj, uint32_t *out, int max)
{
	int n = 0;
	for (size_t i = 0; i < sim->trace.len; i++) {
		const struct km_trace_rec *r = &sim->trace.recs[i];
		if (r->kind == KM_TR_ACQUIRE && r->obj == obj) {
			if (n < max)
				out[n] = r->ctx;
			n++;
		}
	}
	return n;
}

int sh_max_holders(const struct km_sim *sim, uint32_t obj)
{
	int cur = 0, max = 0;
	for (size_t i = 0; i < sim->trace.len; i++) {
		const struct km_trace_rec *r = &sim->trace.recs[i];
		if (r->obj != obj)
			continue;
		if (r->kind == KM_TR_ACQUIRE && ++cur > max)
			max = cur;
		else if (r->kind == KM_TR_RELEASE)
			cur--;
	}
	return max;
}

int sh_unfair_grants(const struct km_sim *sim, uint32_t obj)
{
	enum { MAXW = 256 };
	uint32_t waiting[MAXW];
	int nw = 0, unfair = 0;
	for (size_t i = 0; i < sim->trace.len; i++) {
		const struct km_trace_rec *r = &sim->trace.recs[i];
		if (r->obj != obj)
			continue;
		int at = -1;
		for (int k = 0; k < nw; k++)
			if (waiting[k] == r->ctx)
				at = k;
		if (r->kind == KM_TR_CONTEND && at < 0 && nw < MAXW) {
			waiting[nw++] = r->ctx;
		} else if (r->kind == KM_TR_ACQUIRE || (r->kind == KM_TR_TRYFAIL && r->arg == 1)) {
			if (r->kind == KM_TR_ACQUIRE && nw > 0 && at != 0)
				unfair++;
			if (at >= 0) {
				memmove(&waiting[at], &waiting[at + 1],
					sizeof(waiting[0]) * (size_t)(nw - at - 1));
				nw--;
			}
		}
	}
	return unfair;
}
