/*
 * api.c - the operations of the scenario API (section 1 of the contract)
 * and the handle types.
 *
 * Each operation checks its arguments first and touches the simulator
 * only once they are all good, so a Lua error never leaves the engine
 * half-updated.  An operation that takes simulated time calls its km_op_*
 * and, if that says KM_STEP_WAIT, yields with a continuation that turns
 * the context's result (km_ctx_result) into the Lua return value when the
 * core resumes the task -- or, if the core can end the wait in place
 * (km_ctx_run_ahead: its segment ends before anything else happens),
 * returns it at once.
 *
 * Operations that may sleep are might_sleep() points: under voluntary
 * preemption a pending reschedule happens there first, and the operation
 * runs when the task gets its CPU back.
 */
#include "host.h"
#include "fields.h"
#include "sandbox_order.h"
#include "../text_escape.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const km_htype_name[KM_H_TYPES] = {
	"lock", "var", "atomic", "counter", "waitqueue", "completion", "task", "irq",
};

/* ------------------------------------------------------------- handles -- */

/*
 * A handle of @type at @idx, or an argument error naming the type.
 *
 * NOTE: no metatable lookup by name (luaL_checkudata interns the name on
 * every call, a seventh of a lock round's instructions).  Scenario code
 * cannot make full userdata -- no library the sandbox opens returns one --
 * so any full userdata of a handle's size is one of ours, and its type
 * field says which.
 */
void *km_check_handle(lua_State *L, int idx, enum km_htype type)
{
	/* lua_touserdata is NULL for anything but userdata, and a light
	 * userdata's raw length is 0: no lua_type needed on the hot path. */
	struct km_handle *h = lua_touserdata(L, idx);
	if (!h || lua_rawlen(L, idx) != sizeof(*h) || h->type != type)
		luaL_typeerror(L, idx, km_htype_name[type]);
	struct km_scenario *sc = km_scen(L);
	if (!sc->sim)
		luaL_error(L, "the run has not started");
	switch (type) {
	case KM_H_LOCK: return sc->sim->locks.v[h->index];
	case KM_H_VAR: return sc->sim->vars.v[h->index];
	case KM_H_ATOMIC: return sc->sim->atomics.v[h->index];
	case KM_H_COUNTER: return sc->sim->counters.v[h->index];
	case KM_H_WAITQ: return sc->sim->waitqs.v[h->index];
	case KM_H_COMPLETION: return sc->sim->completions.v[h->index];
	case KM_H_TASK: return sc->sim->ctxs.v[h->index];
	case KM_H_IRQ: return sc->sim->irqsrcs.v[h->index];
	default: return NULL;
	}
}

/*
 * km_check_handle() for a lock, its usual case in line: a lock's handle,
 * the run started.  Anything else goes the long way, which raises the
 * same error in the same order.
 */
static inline struct km_lock *check_lock(lua_State *L, int idx)
{
	const struct km_handle *h = lua_touserdata(L, idx);
	struct km_scenario *sc = km_scen(L);
	if (__builtin_expect(!h || lua_rawlen(L, idx) != sizeof(*h) || h->type != KM_H_LOCK ||
			     !sc->sim, 0))
		return km_check_handle(L, idx, KM_H_LOCK);
	return sc->sim->locks.v[h->index];
}

void km_push_handle(lua_State *L, enum km_htype type, uint32_t index)
{
	struct km_handle *h = lua_newuserdatauv(L, sizeof(*h), 0);
	h->type = type;
	h->index = index;
	luaL_setmetatable(L, km_htype_name[type]);
}

static const char *handle_name(lua_State *L, const struct km_handle *h)
{
	struct km_scenario *sc = km_scen(L);
	if (sc->sim) {
		switch (h->type) {
		case KM_H_LOCK: return sc->sim->locks.v[h->index]->name;
		case KM_H_VAR: return sc->sim->vars.v[h->index]->name;
		case KM_H_ATOMIC: return sc->sim->atomics.v[h->index]->name;
		case KM_H_COUNTER: return sc->sim->counters.v[h->index]->name;
		case KM_H_WAITQ: return sc->sim->waitqs.v[h->index]->name;
		case KM_H_COMPLETION: return sc->sim->completions.v[h->index]->name;
		case KM_H_TASK: return km_ctx_name(sc->sim->ctxs.v[h->index]);
		case KM_H_IRQ: return sc->sim->irqsrcs.v[h->index]->name;
		default: return "?";
		}
	}
	/* before the run: find the declaration */
	int seen = 0;
	for (int i = 0; i < sc->ndecls; i++)
		if (sc->decls[i].type == h->type && seen++ == (int)h->index)
			return sc->decls[i].name;
	return "?";
}

static int h_tostring(lua_State *L)
{
	struct km_handle *h = lua_touserdata(L, 1);
	lua_pushfstring(L, "%s '%s'", km_htype_name[h->type], handle_name(L, h));
	return 1;
}

static int h_eq(lua_State *L)
{
	struct km_handle *a = lua_touserdata(L, 1), *b = lua_touserdata(L, 2);
	lua_pushboolean(L, a && b && a->type == b->type && a->index == b->index);
	return 1;
}

static int h_index(lua_State *L)
{
	struct km_handle *h = lua_touserdata(L, 1);
	const char *k = luaL_checkstring(L, 2);
	if (!strcmp(k, "name")) {
		lua_pushstring(L, handle_name(L, h));
		return 1;
	}
	if (!strcmp(k, "id")) {
		lua_pushinteger(L, h->index);
		return 1;
	}
	return luaL_error(L, "a %s handle has no field '%s' (it has: name, id)",
			  km_htype_name[h->type], k);
}

static int h_newindex(lua_State *L)
{
	struct km_handle *h = lua_touserdata(L, 1);
	return luaL_error(L, "a %s handle cannot be modified", km_htype_name[h->type]);
}

void km_handles_register(lua_State *L)
{
	static const luaL_Reg meta[] = {
		{"__tostring", h_tostring},
		{"__eq", h_eq},
		{"__index", h_index},
		{"__newindex", h_newindex},
		{NULL, NULL},
	};
	for (int t = 0; t < KM_H_TYPES; t++) {
		luaL_newmetatable(L, km_htype_name[t]);
		luaL_setfuncs(L, meta, 0);
		lua_pushliteral(L, "locked");
		lua_setfield(L, -2, "__metatable");
		lua_pop(L, 1);
	}
}

/* --------------------------------------------------------- op helpers -- */

/* Note the line @ctx calls an operation from, if it changed.  Out of
 * memory, the note is skipped: it is for the view, never for the run. */
static void note_line(lua_State *L, struct km_scenario *sc, struct km_ctx *ctx)
{
	lua_Debug ar;
	uint32_t id = km_ctx_id(ctx);
	if (!lua_getstack(L, 1, &ar) || !lua_getinfo(L, "l", &ar) || ar.currentline <= 0 ||
	    id >= sc->cap_ctx || sc->last_line[id] == ar.currentline)
		return;
	if (sc->nlines == sc->caplines) {
		size_t cap = sc->caplines ? 2 * sc->caplines : 1024;
		struct km_srcline *v = realloc(sc->lines, cap * sizeof(*v));
		if (!v)
			return;
		sc->lines = v;
		sc->caplines = cap;
	}
	sc->last_line[id] = ar.currentline;
	sc->lines[sc->nlines++] = (struct km_srcline){ sc->sim->now, id, ar.currentline };
}

/* op_ctx()'s questions in full: an error naming @op, or the line noted. */
static __attribute__((noinline)) struct km_ctx *op_ctx_slow(lua_State *L, const char *op,
							   bool waits)
{
	struct km_scenario *sc = km_scen(L);
	if (sc->phase != KM_PHASE_RUN || !sc->current)
		luaL_error(L, "%s() called outside a task or interrupt handler (operations run "
			   "inside task.run, irq.handler or functions they call)", op);
	if (L != sc->current_co)
		luaL_error(L, "%s() called from a thread that is not the running task", op);
	if (waits && !lua_isyieldable(L))
		luaL_error(L, "%s() cannot wait here (inside a metamethod, an iterator, a "
			   "sort comparator or a finalizer)", op);
	if (sc->note_lines)
		note_line(L, sc, sc->current);
	return sc->current;
}

/*
 * The running context, or an error naming @op if there is none.  The
 * usual answer (a task's own coroutine, able to wait, no lines to note)
 * in line; every other case, and the errors in their order, out of line.
 */
static inline struct km_ctx *op_ctx(lua_State *L, const char *op, bool waits)
{
	struct km_scenario *sc = km_scen(L);
	if (__builtin_expect(sc->phase != KM_PHASE_RUN || !sc->current || L != sc->current_co ||
			     sc->note_lines || (waits && !lua_isyieldable(L)), 0))
		return op_ctx_slow(L, op, waits);
	return sc->current;
}

/* A core operation failed: the scenario misused the API.  Fatal. */
static int op_fail(lua_State *L)
{
	struct km_scenario *sc = km_scen(L);
	luaL_where(L, 1);
	lua_pushstring(L, sc->sim->errmsg);
	lua_concat(L, 2);
	km_sandbox_set_fatal(&sc->sb, lua_tostring(L, -1));
	return lua_error(L);
}

typedef int (*km_result_fn)(lua_State *L, struct km_ctx *ctx);

static int res_none(lua_State *L, struct km_ctx *ctx) { return 0; }

static int res_bool(lua_State *L, struct km_ctx *ctx)
{
	lua_pushboolean(L, km_ctx_result(ctx) != 0);
	return 1;
}

static int res_int(lua_State *L, struct km_ctx *ctx)
{
	lua_pushinteger(L, km_ctx_result(ctx));
	return 1;
}

static int k_result(lua_State *L, int status, lua_KContext k)
{
	struct km_scenario *sc = km_scen(L);
	return ((km_result_fn)k)(L, sc->current);
}

/*
 * Finish an operation: error, result now, or wait for it.  Waiting for
 * the end of a segment that nothing else can come before is done in place
 * (the run-ahead, km_ctx_run_ahead): the coroutine yields only when
 * another event must come first.  Not after a budget overrun caught by a
 * pcall: the host must see it at the next resume, as without run-ahead.
 */
static int op_finish(lua_State *L, struct km_ctx *ctx, int r, km_result_fn res)
{
	if (r < 0)
		return op_fail(L);
	if (r == KM_STEP_DONE)
		return res(L, ctx);
	struct km_scenario *sc = km_scen(L);
	if (!sc->sb.fatal && km_ctx_run_ahead(sc->sim, ctx))
		return res(L, ctx);
	return lua_yieldk(L, 0, (lua_KContext)res, k_result);
}

/* might_sleep(): yield for a voluntary reschedule, then redo the call. */
static int k_redo(lua_State *L, int status, lua_KContext k)
{
	return ((lua_CFunction)k)(L);
}

#define MIGHT_SLEEP(L, ctx, self)                                              \
	do {                                                                   \
		if (km_op_might_sleep(km_scen(L)->sim, (ctx)) == KM_STEP_WAIT) \
			return lua_yieldk((L), 0, (lua_KContext)(self), k_redo);   \
	} while (0)

/* ---------------------------------------------------------- operations -- */

static int l_compute(lua_State *L)
{
	struct km_ctx *ctx = op_ctx(L, "compute", true);
	km_time t = km_check_time(L, 1, "compute(): the duration");
	return op_finish(L, ctx, km_op_compute(km_scen(L)->sim, ctx, t), res_none);
}

static int l_sleep(lua_State *L)
{
	struct km_ctx *ctx = op_ctx(L, "sleep", true);
	km_time t = km_check_time(L, 1, "sleep(): the duration");
	if (km_ctx_kind(ctx) == KM_CTX_IRQ)
		return luaL_error(L, "sleep() called from interrupt handler '%s': an interrupt "
				  "handler must not sleep", km_ctx_name(ctx));
	MIGHT_SLEEP(L, ctx, l_sleep);
	return op_finish(L, ctx, km_op_sleep(km_scen(L)->sim, ctx, t), res_none);
}

static int l_down(lua_State *L)
{
	struct km_ctx *ctx = op_ctx(L, "down", true);
	struct km_lock *l = check_lock(L, 1);
	MIGHT_SLEEP(L, ctx, l_down);
	return op_finish(L, ctx, km_op_down(km_scen(L)->sim, ctx, l), res_none);
}

static int l_down_trylock(lua_State *L)
{
	struct km_ctx *ctx = op_ctx(L, "down_trylock", true);
	struct km_lock *l = check_lock(L, 1);
	return op_finish(L, ctx, km_op_down_trylock(km_scen(L)->sim, ctx, l), res_bool);
}

static int l_down_timeout(lua_State *L)
{
	struct km_ctx *ctx = op_ctx(L, "down_timeout", true);
	struct km_lock *l = check_lock(L, 1);
	km_time t = km_check_time(L, 2, "down_timeout(): the timeout");
	MIGHT_SLEEP(L, ctx, l_down_timeout);
	return op_finish(L, ctx, km_op_down_timeout(km_scen(L)->sim, ctx, l, t), res_bool);
}

static int l_up(lua_State *L)
{
	struct km_ctx *ctx = op_ctx(L, "up", true);
	struct km_lock *l = check_lock(L, 1);
	return op_finish(L, ctx, km_op_up(km_scen(L)->sim, ctx, l), res_none);
}

static int l_irq_disable(lua_State *L)
{
	struct km_ctx *ctx = op_ctx(L, "local_irq_disable", true);
	return op_finish(L, ctx, km_op_irq_disable(km_scen(L)->sim, ctx), res_none);
}

static int l_irq_enable(lua_State *L)
{
	struct km_ctx *ctx = op_ctx(L, "local_irq_enable", true);
	return op_finish(L, ctx, km_op_irq_enable(km_scen(L)->sim, ctx), res_none);
}

static int l_read(lua_State *L)
{
	struct km_ctx *ctx = op_ctx(L, "read", true);
	struct km_var *v = km_check_handle(L, 1, KM_H_VAR);
	return op_finish(L, ctx, km_op_read(km_scen(L)->sim, ctx, v), res_int);
}

static int l_write(lua_State *L)
{
	struct km_ctx *ctx = op_ctx(L, "write", true);
	struct km_var *v = km_check_handle(L, 1, KM_H_VAR);
	int64_t x = km_check_int(L, 2, "write(): the value");
	return op_finish(L, ctx, km_op_write(km_scen(L)->sim, ctx, v, x), res_none);
}

static int l_add(lua_State *L)
{
	struct km_ctx *ctx = op_ctx(L, "add", true);
	struct km_var *v = km_check_handle(L, 1, KM_H_VAR);
	int64_t n = lua_isnoneornil(L, 2) ? 1 : km_check_int(L, 2, "add(): the amount");
	return op_finish(L, ctx, km_op_add(km_scen(L)->sim, ctx, v, n), res_int);
}

static int atomic_op(lua_State *L, const char *name, enum km_atomic_op op, int64_t n,
		     km_result_fn res)
{
	struct km_ctx *ctx = op_ctx(L, name, true);
	struct km_atomic *a = km_check_handle(L, 1, KM_H_ATOMIC);
	return op_finish(L, ctx, km_op_atomic(km_scen(L)->sim, ctx, a, op, n), res);
}

static int l_atomic_read(lua_State *L)
{
	return atomic_op(L, "atomic_read", KM_ATOMIC_READ, 0, res_int);
}

static int l_atomic_add_return(lua_State *L)
{
	int64_t n = km_check_int(L, 2, "atomic_add_return(): the amount");
	return atomic_op(L, "atomic_add_return", KM_ATOMIC_ADD_RETURN, n, res_int);
}

static int l_atomic_inc(lua_State *L)
{
	return atomic_op(L, "atomic_inc", KM_ATOMIC_ADD_RETURN, 1, res_none);
}

static int l_atomic_dec(lua_State *L)
{
	return atomic_op(L, "atomic_dec", KM_ATOMIC_ADD_RETURN, -1, res_none);
}

static int l_atomic_dec_if_positive(lua_State *L)
{
	return atomic_op(L, "atomic_dec_if_positive", KM_ATOMIC_DEC_IF_POSITIVE, 0, res_int);
}

static int l_atomic_set(lua_State *L)
{
	int64_t n = km_check_int(L, 2, "atomic_set(): the value");
	return atomic_op(L, "atomic_set", KM_ATOMIC_SET, n, res_none);
}

static int l_counter_add(lua_State *L)
{
	struct km_ctx *ctx = op_ctx(L, "counter_add", false);
	struct km_counter *c = km_check_handle(L, 1, KM_H_COUNTER);
	int64_t n = km_check_int(L, 2, "counter_add(): the amount");
	km_op_counter_add(km_scen(L)->sim, ctx, c, n);
	return 0;
}

/*
 * wait_event(wq, fn) / wait_event_timeout(wq, fn, t): evaluate fn; if
 * false, sleep on wq until woken (or the deadline), then evaluate again.
 * fn may itself call operations (it runs in the task), so both the call
 * and the sleep are continuations.  Stack: wq, fn, deadline.
 */
enum { WE_EVAL = 1, WE_WAIT = 2 };

static int we_k(lua_State *L, int status, lua_KContext k);

static int we_after_eval(lua_State *L, int timed)
{
	struct km_scenario *sc = km_scen(L);
	struct km_ctx *ctx = sc->current;
	bool cond = lua_toboolean(L, -1);
	lua_pop(L, 1);
	km_time deadline = lua_tointeger(L, 3);
	if (cond) {
		lua_pushboolean(L, 1);
		return timed;
	}
	if (deadline != KM_TIME_NEVER && sc->sim->now >= deadline) {
		lua_pushboolean(L, 0);
		return timed;
	}
	struct km_waitq *wq = km_check_handle(L, 1, KM_H_WAITQ);
	int r = km_op_wq_wait(sc->sim, ctx, wq, deadline);
	if (r < 0)
		return op_fail(L);
	if (r == KM_STEP_DONE) {
		lua_pushboolean(L, 0);
		return timed;
	}
	return lua_yieldk(L, 0, WE_WAIT | (timed << 4), we_k);
}

static int we_k(lua_State *L, int status, lua_KContext k)
{
	int timed = (int)(k >> 4);
	if ((k & 0xf) == WE_EVAL)
		return we_after_eval(L, timed);
	lua_settop(L, 3);
	lua_pushvalue(L, 2);
	lua_callk(L, 0, 1, WE_EVAL | (timed << 4), we_k);
	return we_after_eval(L, timed);
}

static int wait_event_common(lua_State *L, bool timed)
{
	const char *name = timed ? "wait_event_timeout" : "wait_event";
	struct km_ctx *ctx = op_ctx(L, name, true);
	km_check_handle(L, 1, KM_H_WAITQ);
	luaL_checktype(L, 2, LUA_TFUNCTION);
	km_time deadline = KM_TIME_NEVER;
	if (timed)
		deadline = km_sat_add(km_scen(L)->sim->now,
				      km_check_time(L, 3, "wait_event_timeout(): the timeout"));
	if (km_ctx_kind(ctx) == KM_CTX_IRQ)
		return luaL_error(L, "%s() called from interrupt handler '%s': an interrupt "
				  "handler must not sleep", name, km_ctx_name(ctx));
	lua_settop(L, 2);
	lua_pushinteger(L, deadline);
	lua_pushvalue(L, 2);
	lua_callk(L, 0, 1, WE_EVAL | ((int)timed << 4), we_k);
	return we_after_eval(L, timed);
}

static int l_wait_event(lua_State *L)
{
	return wait_event_common(L, false);
}

static int l_wait_event_timeout(lua_State *L)
{
	return wait_event_common(L, true);
}

static int wake_common(lua_State *L, bool all)
{
	struct km_ctx *ctx = op_ctx(L, all ? "wake_up_all" : "wake_up", true);
	struct km_waitq *wq = km_check_handle(L, 1, KM_H_WAITQ);
	return op_finish(L, ctx, km_op_wake_up(km_scen(L)->sim, ctx, wq, all), res_none);
}

static int l_wake_up(lua_State *L) { return wake_common(L, false); }
static int l_wake_up_all(lua_State *L) { return wake_common(L, true); }

static int l_wait_for_completion(lua_State *L)
{
	struct km_ctx *ctx = op_ctx(L, "wait_for_completion", true);
	struct km_completion *c = km_check_handle(L, 1, KM_H_COMPLETION);
	if (km_ctx_kind(ctx) == KM_CTX_IRQ)
		return luaL_error(L, "wait_for_completion() called from interrupt handler '%s': "
				  "an interrupt handler must not sleep", km_ctx_name(ctx));
	MIGHT_SLEEP(L, ctx, l_wait_for_completion);
	return op_finish(L, ctx, km_op_wait_for_completion(km_scen(L)->sim, ctx, c), res_none);
}

static int complete_common(lua_State *L, bool all)
{
	struct km_ctx *ctx = op_ctx(L, all ? "complete_all" : "complete", true);
	struct km_completion *c = km_check_handle(L, 1, KM_H_COMPLETION);
	return op_finish(L, ctx, km_op_complete(km_scen(L)->sim, ctx, c, all), res_none);
}

static int l_complete(lua_State *L) { return complete_common(L, false); }
static int l_complete_all(lua_State *L) { return complete_common(L, true); }

static int l_spawn(lua_State *L)
{
	static const char *const fields[] = { "name", "run", "cpu", NULL };
	struct km_scenario *sc = km_scen(L);
	struct km_ctx *ctx = op_ctx(L, "spawn", false);
	luaL_checktype(L, 1, LUA_TTABLE);
	km_fields_only(L, 1, "spawn", fields);
	const char *name = km_field_string(L, 1, "spawn", "name", NULL, true);
	int cpu = (int)km_field_int(L, 1, "spawn", "cpu", -1, 0, sc->sim->ncpus - 1);
	lua_getfield(L, 1, "run");
	if (!lua_isfunction(L, -1))
		return luaL_error(L, "spawn{}: 'run' must be a function, got %s",
				  luaL_typename(L, -1));
	if (sc->sim->ctxs.n >= 2000000)
		return luaL_error(L, "spawn{}: more than 2,000,000 contexts");
	km_sandbox_anchor_function(L, -1);
	int ref = luaL_ref(L, LUA_REGISTRYINDEX);
	struct km_ctx *t = km_op_spawn(sc->sim, ctx, name, cpu);
	if (!t || km_host_reserve(sc, km_ctx_id(t)) < 0)
		return luaL_error(L, "spawn{}: %s", sc->sim->errmsg[0] ? sc->sim->errmsg :
				  "out of memory");
	sc->task_fn[km_ctx_id(t)] = ref;
	km_push_handle(L, KM_H_TASK, km_ctx_id(t));
	return 1;
}

/* measure(name, fn): run fn, record its simulated latency under name. */
static int measure_k(lua_State *L, int status, lua_KContext start)
{
	struct km_scenario *sc = km_scen(L);
	const char *name = lua_tostring(L, 1);
	struct km_opstat *o = km_opstat_get(sc->sim, name);
	if (!o && sc->sim->opstats.n >= KM_MAX_OPSTATS)
		return luaL_error(L, "measure(): more than %d names (keep a few names, and log() "
				  "what varies)", KM_MAX_OPSTATS);
	if (!o || km_hist_add(&o->hist, sc->sim->now - (km_time)start) < 0)
		return luaL_error(L, "measure(): out of memory");
	return lua_gettop(L) - 2;	/* fn's results */
}

static int l_measure(lua_State *L)
{
	op_ctx(L, "measure", true);
	size_t len;
	const char *name = luaL_checklstring(L, 1, &len);
	if (len == 0 || len > KM_NAME_MAX || !km_utf8_valid(name, len))
		return luaL_argerror(L, 1, "a name of 1 to 128 bytes of UTF-8");
	if (km_has_control(name, len))
		return luaL_argerror(L, 1, "a name without control characters");
	luaL_checktype(L, 2, LUA_TFUNCTION);
	lua_settop(L, 2);
	lua_KContext start = (lua_KContext)km_scen(L)->sim->now;
	lua_pushvalue(L, 2);
	lua_callk(L, 0, LUA_MULTRET, start, measure_k);
	return measure_k(L, LUA_OK, start);
}

static int l_now(lua_State *L)
{
	op_ctx(L, "now", false);
	lua_pushinteger(L, km_scen(L)->sim->now);
	return 1;
}

static int l_cpu(lua_State *L)
{
	struct km_ctx *ctx = op_ctx(L, "cpu", false);
	lua_pushinteger(L, km_ctx_cpu(ctx));
	return 1;
}

static int l_current(lua_State *L)
{
	struct km_ctx *ctx = op_ctx(L, "current", false);
	if (km_ctx_kind(ctx) == KM_CTX_IRQ)
		km_push_handle(L, KM_H_IRQ, km_ctx_irq_source(ctx));
	else
		km_push_handle(L, KM_H_TASK, km_ctx_id(ctx));
	return 1;
}

/* ncpus(): the run's CPU count (an extension: spread work over CPUs). */
static int l_ncpus(lua_State *L)
{
	struct km_scenario *sc = km_scen(L);
	if (sc->phase == KM_PHASE_LOAD) {
		lua_pushinteger(L, km_top_ncpus(L));
		return 1;
	}
	if (sc->phase == KM_PHASE_CHECK && sc->sim) {
		lua_pushinteger(L, sc->sim->ncpus);
		return 1;
	}
	op_ctx(L, "ncpus", false);
	lua_pushinteger(L, sc->sim->ncpus);
	return 1;
}

static int l_in_irq(lua_State *L)
{
	struct km_ctx *ctx = op_ctx(L, "in_irq", false);
	lua_pushboolean(L, km_ctx_kind(ctx) == KM_CTX_IRQ);
	return 1;
}

/* rand(a, b): in a task or handler, the run's generator; at the top level
 * (and in checks), the generator math.random() uses there, seeded by the
 * run's seed too -- scenario authors reach for it there as well. */
static int l_rand(lua_State *L)
{
	struct km_scenario *sc = km_scen(L);
	struct km_rng *rng = sc->sb.rng;
	if (sc->phase == KM_PHASE_RUN) {
		op_ctx(L, "rand", false);
		rng = &sc->sim->rng;
	}
	int64_t a = km_check_int(L, 1, "rand(): the low bound");
	int64_t b = km_check_int(L, 2, "rand(): the high bound");
	if (a > b)
		return luaL_error(L, "rand(%I, %I): the interval is empty", (lua_Integer)a,
				  (lua_Integer)b);
	lua_pushinteger(L, km_rng_range(rng, a, b));
	return 1;
}

/* log(fmt, ...) as string.format; print(...) as tab-separated values. */
static void log_string(lua_State *L, const char *s, size_t len)
{
	struct km_scenario *sc = km_scen(L);
	char buf[512];
	size_t n = len < sizeof(buf) - 1 ? len : sizeof(buf) - 1;
	memcpy(buf, s, n);
	buf[n] = 0;
	/* keep the log valid UTF-8 (and without NULs) for JSON and the view */
	bool valid = km_utf8_valid(buf, n);
	for (size_t i = 0; i < n; i++) {
		if (buf[i] == 0)
			buf[i] = ' ';
		else if (!valid && (unsigned char)buf[i] >= 0x80)
			buf[i] = '?';
	}
	if (sc->phase == KM_PHASE_RUN && sc->current) {
		km_op_log(sc->sim, sc->current, buf);
		if (getenv("LOCKMUSEUM_LOG")) {
			km_put_escaped(buf, stderr);
			fputc('\n', stderr);
		}
	} else {
		fprintf(stderr, "%s: ", sc->path);
		km_put_escaped(buf, stderr);
		fputc('\n', stderr);
	}
}

static int l_log(lua_State *L)
{
	int n = lua_gettop(L);
	/* the sandbox's string.format as built, not the global a scenario
	 * may have replaced: it always returns a string */
	km_sandbox_push_format(L);
	lua_insert(L, 1);
	lua_call(L, n, 1);
	size_t len;
	const char *s = lua_tolstring(L, -1, &len);
	if (!s)
		return luaL_error(L, "log(): the format did not make a string");
	log_string(L, s, len);
	return 0;
}

static int l_print(lua_State *L)
{
	int n = lua_gettop(L);
	luaL_Buffer b;
	luaL_buffinit(L, &b);
	for (int i = 1; i <= n; i++) {
		if (i > 1)
			luaL_addchar(&b, '\t');
		km_sandbox_tolstring(L, i);
		luaL_addvalue(&b);
	}
	luaL_pushresult(&b);
	size_t len;
	const char *s = lua_tolstring(L, -1, &len);
	log_string(L, s, len);
	return 0;
}

static const luaL_Reg api_funcs[] = {
	{"compute", l_compute},
	{"sleep", l_sleep},
	{"down", l_down},
	{"up", l_up},
	{"down_trylock", l_down_trylock},
	{"down_timeout", l_down_timeout},
	{"local_irq_disable", l_irq_disable},
	{"local_irq_enable", l_irq_enable},
	{"read", l_read},
	{"write", l_write},
	{"add", l_add},
	{"atomic_read", l_atomic_read},
	{"atomic_add_return", l_atomic_add_return},
	{"atomic_inc", l_atomic_inc},
	{"atomic_dec", l_atomic_dec},
	{"atomic_dec_if_positive", l_atomic_dec_if_positive},
	{"atomic_set", l_atomic_set},
	{"counter_add", l_counter_add},
	{"wait_event", l_wait_event},
	{"wait_event_timeout", l_wait_event_timeout},
	{"wake_up", l_wake_up},
	{"wake_up_all", l_wake_up_all},
	{"wait_for_completion", l_wait_for_completion},
	{"complete", l_complete},
	{"complete_all", l_complete_all},
	{"spawn", l_spawn},
	{"measure", l_measure},
	{"now", l_now},
	{"cpu", l_cpu},
	{"current", l_current},
	{"in_irq", l_in_irq},
	{"ncpus", l_ncpus},
	{"rand", l_rand},
	{"log", l_log},
	{"print", l_print},
	{NULL, NULL},
};

void km_api_register(lua_State *L)
{
	for (const luaL_Reg *f = api_funcs; f->name; f++)
		lua_register(L, f->name, f->func);
}
