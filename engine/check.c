/*
 * check.c - recording violations (an error, which ends the run, is
 * km_fail(), core.c).
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
 *
 * On the ground floor of the core (core.h): whoever detects a violation
 * -- a lock's rules, an operation, lockdep, the deadlock watch -- records
 * it here; this file judges nothing.
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
