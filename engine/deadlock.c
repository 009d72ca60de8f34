/*
 * deadlock.c - the reason of a deadlock: what each live task waits on,
 * and which interrupt handlers spin on a CPU.
 *
 * The event loop finds the run stalled (loop.c, stalled()); this writes
 * the one line the report gives as the outcome's reason, in the words of
 * the locks (a primitive's name, the holder).  An observer: the loop
 * calls it through the describe_deadlock hook (hooks.h).
 */
#include "core.h"

#include <stdio.h>

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
	if (c->state == KM_CTX_ONCPU && c->cpu >= 0)
		return "is interrupted";	/* on its CPU yet not moving: something
						 * runs above it */
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
