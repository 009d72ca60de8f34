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

#include <stdlib.h>
#include <string.h>


/* What km_emit() does past the hash, for runs that keep the trace, spool
 * it, or explore (a chooser notes what each step touched). */
static void emit_more(struct km_sim *sim, const struct km_trace_rec *r)
{
	if ((sim->trace.store || sim->trace.sink) && km_trace_store(&sim->trace, r) < 0)
		km_fail(sim, KM_ENOMEM, "out of memory storing the trace");
	if (sim->cfg.chooser && sim->running)
		km_choice_note(sim, r->kind, r->obj);
}

/*
 * Emit a trace record: folded into the hash always (km_trace_emit()'s
 * fast half, written out here so that a plain run tests one flag an
 * event, not three), kept and noted only where the run asked for it.
 */
void km_emit(struct km_sim *sim, int kind, int cpu, const struct km_ctx *ctx,
	     uint32_t obj, uint32_t aux, int64_t arg)
{
	struct km_trace_rec r = {
		.time = sim->now, .kind = (uint8_t)kind,
		.cpu = cpu >= 0 ? (uint16_t)cpu : 0xffff,
		.ctx = ctx ? ctx->id : KM_TR_NONE, .obj = obj, .aux = aux, .arg = arg,
	};
	km_trace_fold(&sim->trace, &r);
	sim->trace.count++;
	if (__builtin_expect(sim->emit_more, 0))
		emit_more(sim, &r);
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
