/*
 * ctx.c - a context read from above the core.
 *
 * struct km_ctx is the core's (ctx.h); the Lua binding, the reports, the
 * view and the command line hold a context as a handle and ask these for
 * the plain facts they print or pass on: its id, name, kind and CPU, the
 * result its host resumes it with, its source if it is a handler, the
 * host's own handle, and where its time went.  The explorer's view of a
 * task's steps is choice.c's (km_choice_last_step()).
 *
 * Each is a field read, a function only so that the fields may move: what
 * lua_State's accessors are to lstate.h.
 */
#include "core.h"

uint32_t km_ctx_id(const struct km_ctx *ctx)
{
	return ctx->id;
}

const char *km_ctx_name(const struct km_ctx *ctx)
{
	return ctx->name;
}

enum km_ctx_kind km_ctx_kind(const struct km_ctx *ctx)
{
	return ctx->kind;
}

int km_ctx_cpu(const struct km_ctx *ctx)
{
	return ctx->cpu;
}

int64_t km_ctx_result(const struct km_ctx *ctx)
{
	return ctx->result;
}

uint32_t km_ctx_irq_source(const struct km_ctx *ctx)
{
	return ctx->irq_source;
}

void *km_ctx_host(const struct km_ctx *ctx)
{
	return ctx->host;
}

void km_ctx_set_host(struct km_ctx *ctx, void *host)
{
	ctx->host = host;
}

void km_ctx_stats(const struct km_ctx *ctx, struct km_ctx_stats *out)
{
	*out = (struct km_ctx_stats){
		.cpu = ctx->cpu,
		.cpu_ns = ctx->cpu_ns,
		.spin_ns = ctx->spin_ns,
		.blocked_ns = ctx->blocked_ns,
		.runnable_ns = ctx->runnable_ns,
		.finished = ctx->finished,
		.end_ns = ctx->end_ns,
		.acquisitions = ctx->acquisitions,
	};
}

const struct km_ctx *km_irqsrc_handler(const struct km_sim *sim, const struct km_irqsrc *src,
				       const struct km_ctx *after)
{
	const struct km_ctx *i;
	if (after)
		i = after->below;
	else if (src->cpu >= 0 && src->cpu < sim->ncpus)
		i = sim->cpus[src->cpu].irq_top;
	else
		return NULL;
	for (; i; i = i->below)
		if (i->irq_source == src->id)
			return i;
	return NULL;
}
