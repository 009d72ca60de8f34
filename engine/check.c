/*
 * check.c - recording violations and errors.
 *
 * A violation is a bug the scenario's code would have in a real kernel
 * (a lost update, sleeping while atomic, a mutex unlocked from an
 * interrupt): the run goes on, as the kernel goes on after a warning, and
 * the report lists it.  An error is a bug in the scenario itself (misuse
 * of the API, a budget exceeded): the run stops.
 *
 * Every violation is counted and traced; the first KM_VIOLATIONS_KEPT of
 * each kind keep their message, so a run that loses a million updates
 * does not keep a million strings.
 */
#include "core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void record(struct km_sim *sim, enum km_violation_kind kind,
		   const struct km_ctx *ctx, const struct km_lock *l, const struct km_var *v,
		   const char *splat, const char *fmt, va_list ap)
{
	sim->violation_count[kind]++;
	km_emit(sim, KM_TR_VIOLATION, ctx ? ctx->cpu : -1, ctx,
		l && l->id != UINT32_MAX ? l->id : v ? v->id : KM_TR_NONE, (uint32_t)kind, 0);
	if (sim->violation_count[kind] > KM_VIOLATIONS_KEPT)
		return;
	char buf[512];
	vsnprintf(buf, sizeof(buf), fmt, ap);
	struct km_violation vi = {
		.kind = kind, .time = sim->now,
		.ctx = ctx ? (int32_t)ctx->id : -1,
		.lock = l && l->id != UINT32_MAX ? (int32_t)l->id : -1,
		.var = v ? (int32_t)v->id : -1,
		.message = km_strdup(buf),
		.splat = splat ? km_strdup(splat) : NULL,
	};
	if (!vi.message || KM_VEC_PUSH(sim->violations, vi) < 0) {
		free(vi.message);
		free(vi.splat);
	}
}

void km_violation(struct km_sim *sim, enum km_violation_kind kind,
		  const struct km_ctx *ctx, const struct km_lock *l,
		  const struct km_var *v, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	record(sim, kind, ctx, l, v, NULL, fmt, ap);
	va_end(ap);
}

void km_violation_splat(struct km_sim *sim, enum km_violation_kind kind,
			const struct km_ctx *ctx, const struct km_lock *l, const char *splat,
			const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	record(sim, kind, ctx, l, NULL, splat, fmt, ap);
	va_end(ap);
}

int km_fail(struct km_sim *sim, int code, const char *fmt, ...)
{
	if (sim->error)
		return sim->error;	/* keep the first cause */
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(sim->errmsg, sizeof(sim->errmsg), fmt, ap);
	va_end(ap);
	sim->error = code < 0 ? code : KM_EINVAL;
	return sim->error;
}

static bool sim_irq_on(const struct km_ctx *c)
{
	(void)c;
	return true;	/* on its CPU yet not moving: something runs above it */
}

static const char *wait_what(const struct km_ctx *c, char *buf, size_t len)
{
	switch (c->wait) {
	case KM_WAIT_LOCK: {
		const struct km_lock *l = c->wait_obj;
		const struct km_ctx *o = l->owner;
		if (!o && l->holders)
			o = l->holders->ctx;
		snprintf(buf, len, "%s %s '%s'%s%s%s", c->act == KM_ACT_SPIN ? "spins on" :
			 "waits for", km_prim_name(l->prim), l->name, o ? " held by '" : "",
			 o ? o->name : "", o ? "'" : "");
		return buf;
	}
	case KM_WAIT_WQ:
		snprintf(buf, len, "waits on wait queue '%s'",
			 ((const struct km_waitq *)c->wait_obj)->name);
		return buf;
	case KM_WAIT_COMPLETION:
		snprintf(buf, len, "waits for completion '%s'",
			 ((const struct km_completion *)c->wait_obj)->name);
		return buf;
	case KM_WAIT_SLEEP:
		return "sleeps";
	default:
		break;
	}
	if (c->reacquiring)
		return "spins to retake the BKL";
	if (c->state == KM_CTX_RUNNABLE)
		return "is runnable but its CPU never comes free";
	if (c->state == KM_CTX_ONCPU && c->cpu >= 0 && sim_irq_on(c))
		return "is interrupted";
	return "is stuck";
}

void km_describe_deadlock(struct km_sim *sim, char *buf, size_t len)
{
	size_t off = (size_t)snprintf(buf, len, "deadlock: ");
	int shown = 0, live = 0;
	for (uint32_t i = 0; i < sim->ctxs.n; i++) {
		const struct km_ctx *c = sim->ctxs.v[i];
		if (c->kind != KM_CTX_TASK || c->state == KM_CTX_DONE || c->state == KM_CTX_NEW)
			continue;
		live++;
		if (shown >= 4 || off >= len)
			continue;
		char what[160];
		off += (size_t)snprintf(buf + off, len - off, "%s'%s' %s", shown ? "; " : "",
					c->name, wait_what(c, what, sizeof(what)));
		shown++;
	}
	/* Interrupt handlers stuck on a CPU (spinning on a lock held by the
	 * task they interrupted is the classic one). */
	for (int i = 0; i < sim->ncpus && off < len; i++) {
		const struct km_ctx *ic = sim->cpus[i].irq_top;
		if (!ic || ic->act != KM_ACT_SPIN)
			continue;
		char what[160];
		const struct km_ctx *under = sim->cpus[i].curr;
		off += (size_t)snprintf(buf + off, len - off, "; irq '%s' on CPU%d %s%s%s%s",
					ic->name, i, ic->spin_irq_entry ?
					"waits in irq_enter for the global irq lock" :
					wait_what(ic, what, sizeof(what)),
					under ? ", having interrupted '" : "",
					under ? under->name : "", under ? "'" : "");
	}
	if (live > shown && off < len)
		snprintf(buf + off, len - off, "; and %d more", live - shown);
	if (!live)
		snprintf(buf, len, "deadlock: nothing left to run");
}
