/*
 * core.c - the ground floor of the core: what every floor above uses to
 * record what happens -- a trace record (km_emit), an event in the queue
 * (km_push), growing a vector, copying a string.
 *
 * Nothing here knows a CPU's state, a lock or an operation: a record is
 * hashed and, where the run asked, kept or shown to the chooser's note
 * hook; an event is queued and counted as productive when it moves a task.
 */
#include "core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* An error ends the run (sim.h): the first cause is kept. */
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

/* What km_emit() does past the hash, for runs that keep the trace, spool
 * it, or explore (a chooser notes what each step touched): the record is
 * built here, only for them. */
void km_emit_more(struct km_sim *sim, int kind, uint16_t cpu, uint32_t ctx, uint32_t obj,
		  uint32_t aux, int64_t arg)
{
	struct km_trace_rec r = {
		.time = sim->now, .kind = (uint8_t)kind, .cpu = cpu,
		.ctx = ctx, .obj = obj, .aux = aux, .arg = arg,
	};
	if ((sim->trace.store || sim->trace.sink) && km_trace_store(&sim->trace, &r) < 0)
		km_fail(sim, KM_ENOMEM, "out of memory storing the trace");
	if (sim->cfg.chooser && sim->running)
		sim->hooks->choice_note(sim, &r);
}

void km_push(struct km_sim *sim, km_time t, int kind, uint32_t id, uint64_t token)
{
	if (km_evq_push(&sim->evq, t, (uint32_t)kind, id, token) < 0) {
		km_fail(sim, KM_ENOMEM, "out of memory growing the event queue");
		return;
	}
	if (km_ev_productive(sim, kind, id))
		sim->productive++;
}

/* ----------------------------------------------------------- waitlists -- */

void km_waitlist_append(struct km_waitlist *wl, struct km_ctx *ctx)
{
	ctx->wnext = NULL;
	ctx->wprev = wl->tail;
	if (wl->tail)
		wl->tail->wnext = ctx;
	else
		wl->head = ctx;
	wl->tail = ctx;
	wl->len++;
}

void km_waitlist_prepend(struct km_waitlist *wl, struct km_ctx *ctx)
{
	ctx->wprev = NULL;
	ctx->wnext = wl->head;
	if (wl->head)
		wl->head->wprev = ctx;
	else
		wl->tail = ctx;
	wl->head = ctx;
	wl->len++;
}

bool km_waitlist_contains(const struct km_waitlist *wl, const struct km_ctx *ctx)
{
	for (const struct km_ctx *c = wl->head; c; c = c->wnext)
		if (c == ctx)
			return true;
	return false;
}

void km_waitlist_remove(struct km_waitlist *wl, struct km_ctx *ctx)
{
	if (!km_waitlist_contains(wl, ctx))
		return;
	if (ctx->wprev)
		ctx->wprev->wnext = ctx->wnext;
	else
		wl->head = ctx->wnext;
	if (ctx->wnext)
		ctx->wnext->wprev = ctx->wprev;
	else
		wl->tail = ctx->wprev;
	ctx->wnext = ctx->wprev = NULL;
	wl->len--;
}

struct km_ctx *km_waitlist_pop(struct km_waitlist *wl)
{
	struct km_ctx *ctx = wl->head;
	if (ctx)
		km_waitlist_remove(wl, ctx);
	return ctx;
}

/* ------------------------------------------------------------- vectors -- */

char *km_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

int km_vec_grow(void **v, uint32_t *cap, uint32_t need, size_t elsize)
{
	if (need <= *cap)
		return KM_OK;
	uint64_t ncap = *cap ? (uint64_t)*cap * 2 : 16;
	while (ncap < need)
		ncap *= 2;
	if (ncap > UINT32_MAX)
		return KM_ENOMEM;
	void *n = realloc(*v, (size_t)ncap * elsize);
	if (!n)
		return KM_ENOMEM;
	*v = n;
	*cap = (uint32_t)ncap;
	return KM_OK;
}
