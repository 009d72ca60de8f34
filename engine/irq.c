/*
 * irq.c - interrupt delivery.
 *
 * A source fires at its period plus seeded jitter.  If the CPU has
 * interrupts off (the running context's irqoff count) or is already in a
 * handler, the interrupt is latched and delivered when they come back on;
 * a second firing while latched is coalesced, as a real interrupt
 * controller does.  Delivery pauses whatever runs on the CPU, pushes a
 * fresh irq context that pays irq_entry and runs the handler; its exit
 * resumes what it interrupted, or schedules.
 *
 * On the sched floor (sched_floor.h), above sched.c: it pauses and resumes
 * contexts and asks the scheduler for a tick or a switch.
 */
#include "sched_floor.h"
#include "lock.h"
#include "machine.h"

#include <stdlib.h>
#include <string.h>


static struct km_ctx *irq_ctx_alloc(struct km_sim *sim)
{
	struct km_ctx *ctx = sim->free_irq_ctx;
	if (ctx) {
		sim->free_irq_ctx = ctx->rq_next;
		uint32_t id = ctx->id;
		uint64_t st = ctx->seg_token, wt = ctx->wait_token;
		memset(ctx, 0, sizeof(*ctx));
		ctx->id = id;
		ctx->seg_token = st;	/* stale events must stay stale */
		ctx->wait_token = wt;
	} else {
		ctx = calloc(1, sizeof(*ctx));
		if (!ctx || KM_VEC_PUSH(sim->ctxs, ctx) < 0) {
			free(ctx);
			km_fail(sim, KM_ENOMEM, "out of memory for an interrupt context");
			return NULL;
		}
		ctx->id = sim->ctxs.n - 1;
	}
	ctx->kind = KM_CTX_IRQ;
	ctx->pinned = -1;
	km_wake_clear(ctx);
	ctx->deadline = KM_TIME_NEVER;
	return ctx;
}

static void irq_deliver(struct km_sim *sim, struct km_cpu *cpu, struct km_irqsrc *src)
{
	src->pending = false;
	cpu->irq_pending--;
	struct km_ctx *ictx = irq_ctx_alloc(sim);
	if (!ictx)
		return;
	struct km_ctx *top = km_cpu_top(cpu);
	if (top)
		km_ctx_pause(sim, top);
	ictx->name = src->name;
	ictx->irq_source = src->id;
	ictx->cpu = cpu->id;
	ictx->state = KM_CTX_ONCPU;
	ictx->start_at = sim->now;
	ictx->below = cpu->irq_top;
	cpu->irq_top = ictx;
	km_emit(sim, KM_TR_IRQ_ENTER, cpu->id, ictx, src->id, 0, 0);
	if (sim->host->irq_prepare(sim->host_data, sim, ictx, src) < 0) {
		if (!sim->error)
			km_fail(sim, KM_EINVAL, "cannot start the handler of irq '%s'", src->name);
		return;
	}
	if (sim->hooks->irq_may_enter(sim, ictx)) {
		sim->irqs_running++;
		km_ctx_run_seg(sim, ictx, km_cost(sim)->irq_entry);
	} else {
		km_cpu_show(sim, cpu);
	}
}

/* Deliver what was latched while interrupts were off, take a latched
 * tick, and preempt if that was asked for.  Called whenever interrupts
 * may have come back on: local_irq_enable, cli-mode up(), irq exit. */
void km_cpu_irqs_maybe_enabled(struct km_sim *sim, struct km_cpu *cpu)
{
	if (!km_irq_deliverable(cpu))
		return;
	if (cpu->irq_pending) {
		for (struct km_irqsrc *s = cpu->irqs; s; s = s->cpu_next) {
			if (s->pending) {
				irq_deliver(sim, cpu, s);
				return;
			}
		}
	}
	if (cpu->tick_pending) {
		cpu->tick_pending = false;
		km_sched_tick(sim, cpu);
		if (cpu->rq_len)
			km_tick_arm(sim, cpu);
		return;
	}
	km_cpu_maybe_preempt(sim, cpu);
}

void km_irq_fire(struct km_sim *sim, struct km_irqsrc *src)
{
	/* Schedule the next firing first: jitter draws stay in event order. */
	src->next_nominal = km_sat_add(src->next_nominal, src->every);
	km_time j = src->jitter ? km_rng_range(&sim->rng, 0, src->jitter) : 0;
	src->next_at = km_sat_add(src->next_nominal, j);
	km_push(sim, src->next_at, KM_EV_IRQ, src->id, 0);

	src->fired++;
	sim->stall_fires++;
	if (src->pending) {
		src->coalesced++;
		return;
	}
	struct km_cpu *cpu = &sim->cpus[src->cpu];
	src->pending = true;
	cpu->irq_pending++;
	if (km_irq_deliverable(cpu))
		irq_deliver(sim, cpu, src);
}

void km_irq_exit(struct km_sim *sim, struct km_ctx *ictx)
{
	struct km_cpu *cpu = km_cpu_of(sim, ictx);
	struct km_irqsrc *src = sim->irqsrcs.v[ictx->irq_source];

	if (sim->holds)
		sim->hooks->choice_release_for_irq(sim, src);
	km_minmax_add(&src->handler, sim->now - ictx->start_at);
	km_emit(sim, KM_TR_IRQ_EXIT, cpu->id, ictx, src->id, 0, 0);
	cpu->irq_top = ictx->below;
	sim->irqs_running--;
	ictx->state = KM_CTX_DONE;
	ictx->act = KM_ACT_NONE;
	ictx->seg_token++;
	km_ctx_cancel_timeout(ictx);
	sim->host->ctx_release(sim->host_data, sim, ictx);
	ictx->host = NULL;
	ictx->rq_next = sim->free_irq_ctx;
	sim->free_irq_ctx = ictx;

	sim->hooks->irq_exited(sim);
	struct km_ctx *top = km_cpu_top(cpu);
	if (!cpu->irq_top && !cpu->curr && !cpu->switching) {
		km_cpu_schedule(sim, cpu);
	} else if (top) {
		/* Resume the interrupted context, then see what else is due. */
		if (top->kind == KM_CTX_TASK && top->state == KM_CTX_ONCPU)
			km_ctx_unpause(sim, top);
		else if (top->kind == KM_CTX_IRQ)
			km_ctx_unpause(sim, top);
	}
	km_cpu_show(sim, cpu);
	km_cpu_irqs_maybe_enabled(sim, cpu);
}
