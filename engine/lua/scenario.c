/*
 * scenario.c - declarations, instantiation, and the host that runs task
 * and interrupt code as Lua coroutines.  See scenario.h.
 *
 * Coroutines: a task's thread is created when it first runs (100,000
 * declared tasks cost nothing until they start) and released when it
 * ends; an interrupt handler gets a fresh thread per invocation.  An
 * operation that must wait yields from C (lua_yieldk); the core resumes
 * the thread through km_host_ops.resume, and the operation's continuation
 * turns ctx->result into its Lua return value.  One whose wait is only
 * the end of its own segment, with nothing else due first, does not
 * yield at all (the run-ahead, api.c's op_finish): one resume here then
 * runs the task through many operations.
 *
 * Errors: a Lua error that escapes a task or handler ends the run with
 * that message (file:line).  Budget overruns and API misuse are "fatal"
 * in the sandbox: checked after every resume, so a scenario's pcall
 * cannot hide them.
 */
#include "host.h"
#include "fields.h"
#include "eras.h"
#include "sandbox_order.h"

#include <jansson.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <time.h>

/* ---------------------------------------------------------- decl store -- */

static struct km_decl *decl_add(lua_State *L, enum km_htype type, const char *name)
{
	struct km_scenario *sc = km_scen(L);
	if (sc->phase != KM_PHASE_LOAD)
		luaL_error(L, "%s{} must be called at the top level of the scenario, before "
			   "the run starts", km_htype_name[type]);
	if (sc->ndecls == sc->capdecls) {
		int ncap = sc->capdecls ? sc->capdecls * 2 : 64;
		if (ncap > 4000000)
			luaL_error(L, "too many declarations (more than 4,000,000)");
		struct km_decl *n = realloc(sc->decls, (size_t)ncap * sizeof(*n));
		if (!n)
			luaL_error(L, "out of memory");
		sc->decls = n;
		sc->capdecls = ncap;
	}
	struct km_decl *d = &sc->decls[sc->ndecls];
	memset(d, 0, sizeof(*d));
	d->type = type;
	d->fnref = LUA_NOREF;
	d->name = strdup(name);
	if (!d->name)
		luaL_error(L, "out of memory");
	sc->ndecls++;
	return d;
}

/*
 * Names must be unique among declarations of the same type (but tasks).
 * A registry table per type maps each name to true: one lookup, not a
 * scan of every earlier declaration (50,000 locks must not be quadratic).
 */
static void unique_name(lua_State *L, enum km_htype type, const char *name)
{
	if (type == KM_H_TASK)
		return;
	char key[32];
	snprintf(key, sizeof(key), "km.names.%d", (int)type);
	if (lua_getfield(L, LUA_REGISTRYINDEX, key) != LUA_TTABLE) {
		lua_pop(L, 1);
		lua_newtable(L);
		lua_pushvalue(L, -1);
		lua_setfield(L, LUA_REGISTRYINDEX, key);
	}
	if (lua_getfield(L, -1, name) != LUA_TNIL)
		luaL_error(L, "%s{}: a %s named '%s' is already declared",
			   km_htype_name[type], km_htype_name[type], name);
	lua_pop(L, 1);
	lua_pushboolean(L, 1);
	lua_setfield(L, -2, name);
	lua_pop(L, 1);
}

static uint32_t next_index(lua_State *L, enum km_htype type)
{
	return (uint32_t)km_scen(L)->count[type]++;
}

/* ------------------------------------------------------ declarations -- */

/*
 * ncpus() at the top level.  The CPU count is decided, in this order, by
 * --cpus, scenario{ cpus }, then the era's own count (--era, else
 * scenario{ era }, else the newest era): all known once scenario{} has
 * run, and the session decides the same way after loading.  scenario{}
 * may not come after an ncpus() that could have read it.
 */
int km_top_ncpus(lua_State *L)
{
	struct km_scenario *sc = km_scen(L);
	int n = sc->cpus_opt ? sc->cpus_opt : sc->meta.cpus;
	if (!n) {
		if (!sc->eras)
			return luaL_error(L, "ncpus(): the CPU count is not known at the top level "
					  "here (give --cpus or scenario{ cpus })");
		const char *key = sc->era_opt ? sc->era_opt : sc->meta.era[0] ? sc->meta.era : NULL;
		const struct km_era *e;
		char err[512];
		if (km_era_shelf_find(sc->eras, key, &e, err, sizeof(err)) < 0)
			return luaL_error(L, "ncpus(): %s", err);
		if (!e && !key)
			return luaL_error(L, "ncpus(): the CPU count is not known at the top level "
					  "here (give --cpus or scenario{ cpus })");
		if (!e)
			return luaL_error(L, "ncpus(): unknown era '%s'", key);
		n = e->cpus;
	}
	sc->top_ncpus = n;
	return n;
}

static int l_scenario(lua_State *L)
{
	static const char *const fields[] = {
		"name", "title", "era", "cpus", "duration", "seed", "description", "bkl", NULL,
	};
	struct km_scenario *sc = km_scen(L);
	if (sc->phase != KM_PHASE_LOAD)
		return luaL_error(L, "scenario{} must be called at the top level");
	if (sc->declared)
		return luaL_error(L, "scenario{} may be called only once");
	if (sc->top_ncpus)
		return luaL_error(L, "scenario{} must come before ncpus(): its cpus and era "
				  "decide the CPU count");
	luaL_checktype(L, 1, LUA_TTABLE);
	km_fields_only(L, 1, "scenario", fields);
	struct km_scenario_meta *m = &sc->meta;
	snprintf(m->name, sizeof(m->name), "%s",
		 km_field_string(L, 1, "scenario", "name", NULL, true));
	snprintf(m->title, sizeof(m->title), "%s",
		 km_field_string(L, 1, "scenario", "title", "", false));
	snprintf(m->description, sizeof(m->description), "%s",
		 km_field_string(L, 1, "scenario", "description", "", false));
	lua_getfield(L, 1, "era");
	if (lua_type(L, -1) == LUA_TNUMBER && lua_isinteger(L, -1))
		snprintf(m->era, sizeof(m->era), "%lld", (long long)lua_tointeger(L, -1));
	lua_pop(L, 1);
	if (!m->era[0])
		snprintf(m->era, sizeof(m->era), "%s",
			 km_field_string(L, 1, "scenario", "era", "", false));
	m->cpus = (int)km_field_int(L, 1, "scenario", "cpus", 0, 1, KM_MAX_CPUS);
	m->duration = km_field_time(L, 1, "scenario", "duration", 0);
	lua_getfield(L, 1, "seed");
	m->has_seed = !lua_isnil(L, -1);
	lua_pop(L, 1);
	m->seed = (uint64_t)km_field_int(L, 1, "scenario", "seed", 1, 0, INT64_MAX);
	const char *bkl = km_field_string(L, 1, "scenario", "bkl", "era", false);
	m->bkl_given = strcmp(bkl, "era") != 0;
	if (m->bkl_given && km_bkl_flavour_parse(bkl, &m->bkl_lock) < 0)
		return luaL_error(L, "scenario{}: 'bkl' must be \"era\", \"spinlock\", "
				  "\"legacy-semaphore\" or \"generic-semaphore\", got \"%s\"", bkl);
	/* Top-level draws (math.random) follow the run's seed from here on. */
	if (m->has_seed && !sc->seed_given)
		km_rng_seed(&sc->sb.own_rng, m->seed);
	sc->declared = true;
	return 0;
}

/* A cache line's name (var{ line = }, lock{ line = }): 1 to 63 printable
 * characters. */
static bool line_name_ok(const char *line)
{
	size_t n = strlen(line);
	bool printable = n > 0 && n < 64;
	for (size_t i = 0; printable && i < n; i++)
		printable = (unsigned char)line[i] >= 0x20 && line[i] != 0x7f;
	return printable;
}

static int l_lock(lua_State *L)
{
	static const char *const fields[] = { "name", "count", "kind", "pinned", "spin", "line",
					      NULL };
	luaL_checktype(L, 1, LUA_TTABLE);
	km_fields_only(L, 1, "lock", fields);
	const char *name = km_field_string(L, 1, "lock", "name", NULL, true);
	const char *kind = km_field_string(L, 1, "lock", "kind", "semaphore", false);
	int k = km_prim_parse(kind);
	if (k < 0)
		return luaL_error(L, "lock{}: unknown kind '%s' (kinds: cli, bkl, spinlock, "
				  "semaphore, mutex)", kind);
	int64_t count = km_field_int(L, 1, "lock", "count", 1, 0, 1000000);
	bool pinned = km_field_bool(L, 1, "lock", "pinned", false);
	/* which spinlock it is when it spins: the era's unless the scenario
	 * says (the 2012 exhibit's MCS lock on a ticket-lock kernel) */
	const char *spin = km_field_string(L, 1, "lock", "spin", "era", false);
	int sf;
	if (!strcmp(spin, "era"))
		sf = KM_SPIN_NONE;
	else if (!strcmp(spin, "tas"))
		sf = KM_SPIN_TAS;
	else if (!strcmp(spin, "ticket"))
		sf = KM_SPIN_TICKET;
	else if (!strcmp(spin, "queued"))
		sf = KM_SPIN_QUEUED;
	else if (!strcmp(spin, "mcs"))
		sf = KM_SPIN_MCS;
	else
		return luaL_error(L, "lock{}: unknown spin '%s' (era, tas, ticket, mcs, queued)",
				  spin);
	/* the cache line its word lives on, with the data it protects
	 * (var{ line = } naming the same line): one lock a line */
	const char *line = km_field_string(L, 1, "lock", "line", NULL, false);
	if (line) {
		if (!line_name_ok(line))
			return luaL_error(L, "lock{}: 'line' must name a cache line in 1 to 63 "
					  "printable characters");
		struct km_scenario *sc = km_scen(L);
		for (int i = 0; i < sc->ndecls; i++)
			if (sc->decls[i].type == KM_H_LOCK && sc->decls[i].u.lock.line &&
			    !strcmp(sc->decls[i].u.lock.line, line))
				return luaL_error(L, "lock{}: line '%s' holds lock '%s' already; "
						  "one lock a line", line, sc->decls[i].name);
	}
	unique_name(L, KM_H_LOCK, name);
	struct km_decl *d = decl_add(L, KM_H_LOCK, name);
	if (line && !(d->u.lock.line = strdup(line)))
		return luaL_error(L, "out of memory");
	d->u.lock.count = (int)count;
	d->u.lock.kind = (enum km_prim)k;
	d->u.lock.pinned = pinned;
	d->u.lock.spin = sf;
	km_push_handle(L, KM_H_LOCK, next_index(L, KM_H_LOCK));
	return 1;
}

static int value_decl(lua_State *L, enum km_htype type)
{
	static const char *const fields[] = { "name", "value", "line", NULL };
	const char *decl = km_htype_name[type];
	luaL_checktype(L, 1, LUA_TTABLE);
	km_fields_only(L, 1, decl, fields);
	const char *name = km_field_string(L, 1, decl, "name", NULL, true);
	int64_t value = km_field_int(L, 1, decl, "value", 0, INT64_MIN, INT64_MAX);
	/* the cache line it lives on, shared with every var and atomic that
	 * names the same one: a name of 1 to 63 printable characters */
	const char *line = km_field_string(L, 1, decl, "line", NULL, false);
	if (line && !line_name_ok(line))
		return luaL_error(L, "%s{}: 'line' must name a cache line in 1 to 63 "
				  "printable characters", decl);
	unique_name(L, type, name);
	struct km_decl *d = decl_add(L, type, name);
	d->u.var.value = value;
	if (line && !(d->u.var.line = strdup(line)))
		return luaL_error(L, "out of memory");
	km_push_handle(L, type, next_index(L, type));
	return 1;
}

static int l_var(lua_State *L) { return value_decl(L, KM_H_VAR); }
static int l_atomic(lua_State *L) { return value_decl(L, KM_H_ATOMIC); }

static int l_counter(lua_State *L)
{
	static const char *const fields[] = { "name", "unit", NULL };
	luaL_checktype(L, 1, LUA_TTABLE);
	km_fields_only(L, 1, "counter", fields);
	const char *name = km_field_string(L, 1, "counter", "name", NULL, true);
	const char *unit = km_field_string(L, 1, "counter", "unit", "", false);
	unique_name(L, KM_H_COUNTER, name);
	struct km_decl *d = decl_add(L, KM_H_COUNTER, name);
	d->u.counter.unit = strdup(unit);
	if (!d->u.counter.unit)
		return luaL_error(L, "out of memory");
	km_push_handle(L, KM_H_COUNTER, next_index(L, KM_H_COUNTER));
	return 1;
}

static int named_decl(lua_State *L, enum km_htype type)
{
	static const char *const fields[] = { "name", NULL };
	const char *decl = km_htype_name[type];
	luaL_checktype(L, 1, LUA_TTABLE);
	km_fields_only(L, 1, decl, fields);
	const char *name = km_field_string(L, 1, decl, "name", NULL, true);
	unique_name(L, type, name);
	decl_add(L, type, name);
	km_push_handle(L, type, next_index(L, type));
	return 1;
}

static int l_waitqueue(lua_State *L) { return named_decl(L, KM_H_WAITQ); }
static int l_completion(lua_State *L) { return named_decl(L, KM_H_COMPLETION); }

static int fn_ref(lua_State *L, const char *decl, const char *field)
{
	lua_getfield(L, 1, field);
	if (!lua_isfunction(L, -1))
		luaL_error(L, "%s{}: '%s' must be a function, got %s", decl, field,
			   luaL_typename(L, -1));
	km_sandbox_anchor_function(L, -1);
	return luaL_ref(L, LUA_REGISTRYINDEX);
}

static int l_task(lua_State *L)
{
	static const char *const fields[] = { "name", "cpu", "start", "run", NULL };
	luaL_checktype(L, 1, LUA_TTABLE);
	km_fields_only(L, 1, "task", fields);
	const char *name = km_field_string(L, 1, "task", "name", NULL, true);
	int64_t cpu = km_field_int(L, 1, "task", "cpu", -1, 0, KM_MAX_CPUS - 1);
	km_time start = km_field_time(L, 1, "task", "start", 0);
	struct km_scenario *sc = km_scen(L);
	if (sc->count[KM_H_TASK] >= 1000000)
		return luaL_error(L, "task{}: more than 1,000,000 tasks");
	int ref = fn_ref(L, "task", "run");
	struct km_decl *d = decl_add(L, KM_H_TASK, name);
	d->u.task.cpu = (int)cpu;
	d->u.task.start = start;
	d->fnref = ref;
	km_push_handle(L, KM_H_TASK, next_index(L, KM_H_TASK));
	return 1;
}

static int l_irq(lua_State *L)
{
	static const char *const fields[] = {
		"name", "cpu", "every", "jitter", "start", "handler", NULL,
	};
	luaL_checktype(L, 1, LUA_TTABLE);
	km_fields_only(L, 1, "irq", fields);
	const char *name = km_field_string(L, 1, "irq", "name", NULL, true);
	int64_t cpu = km_field_int(L, 1, "irq", "cpu", 0, 0, KM_MAX_CPUS - 1);
	lua_getfield(L, 1, "every");
	if (lua_isnil(L, -1))
		return luaL_error(L, "irq{}: field 'every' is required (the period, in ns)");
	lua_pop(L, 1);
	km_time every = km_field_time(L, 1, "irq", "every", 0);
	if (every < 100)
		return luaL_error(L, "irq{}: 'every' must be at least 100 ns, got %I",
				  (lua_Integer)every);
	km_time jitter = km_field_time(L, 1, "irq", "jitter", 0);
	km_time start = km_field_time(L, 1, "irq", "start", 0);
	unique_name(L, KM_H_IRQ, name);
	int ref = fn_ref(L, "irq", "handler");
	struct km_decl *d = decl_add(L, KM_H_IRQ, name);
	d->u.irq.cpu = (int)cpu;
	d->u.irq.every = every;
	d->u.irq.jitter = jitter;
	d->u.irq.start = start;
	d->fnref = ref;
	km_push_handle(L, KM_H_IRQ, next_index(L, KM_H_IRQ));
	return 1;
}

static int l_check(lua_State *L)
{
	struct km_scenario *sc = km_scen(L);
	if (sc->phase != KM_PHASE_LOAD)
		return luaL_error(L, "check() must be called at the top level");
	luaL_checktype(L, 1, LUA_TFUNCTION);
	int *n = realloc(sc->checks, (size_t)(sc->nchecks + 1) * sizeof(*n));
	if (!n)
		return luaL_error(L, "out of memory");
	sc->checks = n;
	lua_pushvalue(L, 1);
	km_sandbox_anchor_function(L, -1);
	sc->checks[sc->nchecks++] = luaL_ref(L, LUA_REGISTRYINDEX);
	return 0;
}

/* param(name, default): --set name=value converted to default's type. */
static int l_param(lua_State *L)
{
	struct km_scenario *sc = km_scen(L);
	size_t name_len;
	const char *name = luaL_checklstring(L, 1, &name_len);
	/* The report keys parameters by name: two names equal in their first
	 * 128 bytes would be one key cut short, printed twice. */
	if (name_len == 0 || name_len > KM_NAME_MAX || !km_utf8_valid(name, name_len))
		return luaL_argerror(L, 1, "a name of 1 to 128 bytes of UTF-8");
	if (km_has_control(name, name_len))
		return luaL_argerror(L, 1, "a name without control characters");
	luaL_checkany(L, 2);
	int t = lua_type(L, 2);
	if (t != LUA_TNUMBER && t != LUA_TSTRING && t != LUA_TBOOLEAN)
		return luaL_argerror(L, 2, "default must be a number, string or boolean");
	const char *value = NULL;
	for (int i = 0; i < sc->nsets; i++) {
		if (!strcmp(sc->sets[i].name, name)) {
			value = sc->sets[i].value;
			sc->sets[i].used = true;
		}
	}
	if (!value) {
		lua_pushvalue(L, 2);
	} else if (t == LUA_TSTRING) {
		if (!km_utf8_valid(value, strlen(value)))
			return luaL_error(L, "--set %s: the value is not valid UTF-8 text", name);
		lua_pushstring(L, value);
	} else if (t == LUA_TBOOLEAN) {
		if (!strcmp(value, "true") || !strcmp(value, "1") || !strcmp(value, "yes"))
			lua_pushboolean(L, 1);
		else if (!strcmp(value, "false") || !strcmp(value, "0") || !strcmp(value, "no"))
			lua_pushboolean(L, 0);
		else
			return luaL_error(L, "--set %s=%s: '%s' is true or false", name, value, name);
	} else {
		char *end;
		if (lua_isinteger(L, 2)) {
			errno = 0;
			long long v = strtoll(value, &end, 10);
			if (*value && !*end && errno == ERANGE)
				return luaL_error(L, "--set %s=%s: '%s' is an integer, and this one does "
						  "not fit in 64 bits", name, value, name);
			if (*value && !*end) {
				lua_pushinteger(L, v);
			} else {
				double dv = strtod(value, &end);
				if (!*value || *end || !isfinite(dv) || dv != floor(dv) ||
				    fabs(dv) > 9e18)
					return luaL_error(L, "--set %s=%s: '%s' is an integer", name,
							  value, name);
				lua_pushinteger(L, (lua_Integer)dv);
			}
		} else {
			double dv = strtod(value, &end);
			if (!*value || *end || !isfinite(dv))
				return luaL_error(L, "--set %s=%s: '%s' is a number", name, value,
						  name);
			lua_pushnumber(L, dv);
		}
	}
	/* Remember it for `check`, the report and `list` -- at the top level
	 * only: the reports hold the list once the run has begun. */
	if (sc->phase != KM_PHASE_LOAD)
		return 1;
	bool known = false;
	for (int i = 0; i < sc->nparams; i++)
		if (!strcmp(sc->params[i].name, name))
			known = true;
	if (!known && sc->nparams < 256) {
		struct km_param_info *n = realloc(sc->params,
						  (size_t)(sc->nparams + 1) * sizeof(*n));
		if (n) {
			sc->params = n;
			struct km_param_info *p = &sc->params[sc->nparams++];
			snprintf(p->name, sizeof(p->name), "%s", name);
			snprintf(p->def, sizeof(p->def), "%s", luaL_tolstring(L, 2, NULL));
			lua_pop(L, 1);
			snprintf(p->value, sizeof(p->value), "%s", luaL_tolstring(L, -1, NULL));
			lua_pop(L, 1);
		}
	}
	return 1;
}

/* Durations: ns(x), us(x), ms(x), sec(x) -> integer nanoseconds. */
static int scale(lua_State *L, double mult, const char *fn)
{
	lua_Number x = luaL_checknumber(L, 1);
	double v = x * mult;
	if (!isfinite(v) || v < 0 || v > (double)KM_TIME_MAX)
		return luaL_error(L, "%s(%s): not a duration (must be finite, >= 0, and at most "
				  "146 years)", fn, lua_tostring(L, 1));
	lua_pushinteger(L, (lua_Integer)llround(v));
	return 1;
}

static int l_ns(lua_State *L) { return scale(L, 1, "ns"); }
static int l_us(lua_State *L) { return scale(L, 1e3, "us"); }
static int l_ms(lua_State *L) { return scale(L, 1e6, "ms"); }
static int l_sec(lua_State *L) { return scale(L, 1e9, "sec"); }

static const luaL_Reg decl_funcs[] = {
	{"scenario", l_scenario},
	{"lock", l_lock},
	{"var", l_var},
	{"atomic", l_atomic},
	{"counter", l_counter},
	{"waitqueue", l_waitqueue},
	{"completion", l_completion},
	{"task", l_task},
	{"irq", l_irq},
	{"check", l_check},
	{"param", l_param},
	{"ns", l_ns},
	{"us", l_us},
	{"ms", l_ms},
	{"sec", l_sec},
	{NULL, NULL},
};

/* ----------------------------------------------------------------- load -- */

struct km_scenario *km_scenario_load(const char *path, const struct km_load_opts *o,
				     char *err, size_t errlen)
{
	struct km_scenario *sc = calloc(1, sizeof(*sc));
	if (!sc || !(sc->path = strdup(path))) {
		free(sc);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (km_sandbox_open(&sc->sb, o->max_instructions, o->max_memory, o->max_wall,
			    o->seed) < 0) {
		snprintf(err, errlen, "%s: cannot start Lua", path);
		km_scenario_free(sc);
		return NULL;
	}
	sc->sets = o->sets;
	sc->nsets = o->nsets;
	sc->seed_given = o->seed_given;
	sc->sb.stop = o->stop;
	sc->cpus_opt = o->cpus;
	sc->era_opt = o->era;
	sc->eras = o->eras;
	lua_State *L = sc->sb.L;
	km_handles_register(L);
	for (const luaL_Reg *f = decl_funcs; f->name; f++)
		lua_register(L, f->name, f->func);
	km_api_register(L);

	int st = km_sandbox_loadfile(&sc->sb, path);
	if (st == LUA_OK)
		st = km_sandbox_pcall(L, 0, 0);
	if (st != LUA_OK) {
		if (sc->sb.fatal && !strncmp(sc->sb.fatal_msg, path, strlen(path)))
			snprintf(err, errlen, "%s", sc->sb.fatal_msg);
		else if (sc->sb.fatal)
			snprintf(err, errlen, "%s: %s", path, sc->sb.fatal_msg);
		else
			km_sandbox_errmsg(L, -1, err, errlen);
		lua_pop(L, 1);
		km_scenario_free(sc);
		return NULL;
	}
	if (!sc->declared) {
		snprintf(err, errlen, "%s: the scenario never calls scenario{ name = ... }", path);
		km_scenario_free(sc);
		return NULL;
	}
	for (int i = 0; i < sc->nsets; i++) {
		if (sc->sets[i].used)
			continue;
		char known[512] = "";
		size_t off = 0;
		for (int j = 0; j < sc->nparams && off < sizeof(known); j++)
			off += (size_t)snprintf(known + off, sizeof(known) - off, "%s%s",
						j ? ", " : "", sc->params[j].name);
		snprintf(err, errlen, "--set %s: %s has no parameter '%s' (%s%s)", sc->sets[i].name,
			 path, sc->sets[i].name, sc->nparams ? "its parameters: " : "it has none",
			 known);
		km_scenario_free(sc);
		return NULL;
	}
	sc->phase = KM_PHASE_READY;
	return sc;
}

void km_scenario_wall_restart(struct km_scenario *sc)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	sc->sb.wall_start = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
	if (sc->sim)
		sc->sim->wall_start = sc->sb.wall_start;
}

void km_scenario_free(struct km_scenario *sc)
{
	if (!sc)
		return;
	km_sim_free(sc->sim);
	km_sandbox_close(&sc->sb);
	for (int i = 0; i < sc->ndecls; i++) {
		free(sc->decls[i].name);
		if (sc->decls[i].type == KM_H_COUNTER)
			free(sc->decls[i].u.counter.unit);
		if (sc->decls[i].type == KM_H_VAR || sc->decls[i].type == KM_H_ATOMIC)
			free(sc->decls[i].u.var.line);
		if (sc->decls[i].type == KM_H_LOCK)
			free(sc->decls[i].u.lock.line);
	}
	for (int i = 0; i < sc->nresults; i++)
		free(sc->results[i].message);
	free(sc->results);
	free(sc->decls);
	free(sc->params);
	free(sc->checks);
	free(sc->task_fn);
	free(sc->thread_ref);
	free(sc->last_line);
	free(sc->lines);
	free(sc->idle_threads);
	free(sc->path);
	free(sc);
}

const struct km_srcline *km_scenario_lines(const struct km_scenario *sc, size_t *n)
{
	*n = sc->nlines;
	return sc->lines;
}

const struct km_scenario_meta *km_scenario_meta(const struct km_scenario *sc)
{
	return &sc->meta;
}

int km_scenario_params(const struct km_scenario *sc, const struct km_param_info **out)
{
	*out = sc->params;
	return sc->nparams;
}

uint64_t km_scenario_source_hash(const struct km_scenario *sc)
{
	return sc->sb.source_hash;
}

int km_scenario_lock_kinds(const struct km_scenario *sc, enum km_prim *kinds,
			   bool *pinned, int max)
{
	int n = 0;
	for (int i = 0; i < sc->ndecls && n < max; i++) {
		if (sc->decls[i].type != KM_H_LOCK)
			continue;
		kinds[n] = sc->decls[i].u.lock.kind;
		pinned[n] = sc->decls[i].u.lock.pinned;
		n++;
	}
	return n;
}

/* ----------------------------------------------------------------- host -- */

int km_host_reserve(struct km_scenario *sc, uint32_t id)
{
	if (id < sc->cap_ctx)
		return 0;
	uint32_t ncap = sc->cap_ctx ? sc->cap_ctx * 2 : 64;
	while (ncap <= id)
		ncap *= 2;
	int *a = realloc(sc->task_fn, ncap * sizeof(*a));
	if (!a)
		return -1;
	sc->task_fn = a;
	int *b = realloc(sc->thread_ref, ncap * sizeof(*b));
	if (!b)
		return -1;
	sc->thread_ref = b;
	int32_t *c = realloc(sc->last_line, ncap * sizeof(*c));
	if (!c)
		return -1;
	sc->last_line = c;
	for (uint32_t i = sc->cap_ctx; i < ncap; i++) {
		sc->task_fn[i] = LUA_NOREF;
		sc->thread_ref[i] = LUA_NOREF;
		sc->last_line[i] = 0;
	}
	sc->cap_ctx = ncap;
	return 0;
}

/*
 * Threads are reused.  A task or interrupt handler that returns leaves a
 * thread whose stack is empty; the next task or handler to start takes it
 * instead of a new one.  Besides sparing an allocation per interrupt, this
 * is what makes the instruction budget hold: the budget hook fires every
 * KM_HOOK_EVERY instructions *of a thread*, and lua_sethook on a new
 * thread starts that count again, so a stream of short handlers, each
 * under KM_HOOK_EVERY instructions, on fresh threads, would never be
 * charged.  A reused thread keeps its count running from one handler to
 * the next, and a thread that finishes is charged the rest of its period
 * (km_sandbox_thread_done), so no instruction goes uncharged.
 */
static lua_State *take_idle_thread(struct km_scenario *sc, int *ref)
{
	if (!sc->nidle)
		return NULL;
	*ref = sc->idle_threads[--sc->nidle];
	lua_rawgeti(sc->sb.L, LUA_REGISTRYINDEX, *ref);
	lua_State *co = lua_tothread(sc->sb.L, -1);
	lua_pop(sc->sb.L, 1);
	return co;
}

/* Keep a finished thread for reuse; false if it cannot be reused. */
static bool keep_idle_thread(struct km_scenario *sc, lua_State *co, int ref)
{
	if (lua_status(co) != LUA_OK || lua_gettop(co) != 0 || sc->sb.fatal)
		return false;
	if (sc->nidle == sc->capidle) {
		int ncap = sc->capidle ? sc->capidle * 2 : 64;
		int *v = realloc(sc->idle_threads, (size_t)ncap * sizeof(*v));
		if (!v)
			return false;
		sc->idle_threads = v;
		sc->capidle = ncap;
	}
	sc->idle_threads[sc->nidle++] = ref;
	return true;
}

/* Create (or reuse) the thread that will run function @fnref for @ctx. */
static int make_thread(struct km_scenario *sc, struct km_ctx *ctx, int fnref)
{
	lua_State *L = sc->sb.L;
	uint32_t id = km_ctx_id(ctx);
	if (!lua_checkstack(L, 4) || km_host_reserve(sc, id) < 0)
		return -1;
	int ref;
	lua_State *co = take_idle_thread(sc, &ref);
	if (!co) {
		co = lua_newthread(L);	/* may raise on ENOMEM: callers are protected */
		km_sandbox_hook(&sc->sb, co);
		ref = luaL_ref(L, LUA_REGISTRYINDEX);
	}
	lua_rawgeti(L, LUA_REGISTRYINDEX, fnref);
	lua_xmove(L, co, 1);
	sc->thread_ref[id] = ref;
	km_ctx_set_host(ctx, co);
	return 0;
}

/* lua_newthread can raise on memory exhaustion: run it protected. */
struct mk_args {
	struct km_scenario *sc;
	struct km_ctx *ctx;
	int fnref;
	int rc;
};

static int mk_thread_protected(lua_State *L)
{
	struct mk_args *a = lua_touserdata(L, 1);
	a->rc = make_thread(a->sc, a->ctx, a->fnref);
	return 0;
}

static int host_make_thread(struct km_scenario *sc, struct km_ctx *ctx, int fnref)
{
	lua_State *L = sc->sb.L;
	struct mk_args a = { sc, ctx, fnref, -1 };
	lua_pushcfunction(L, mk_thread_protected);
	lua_pushlightuserdata(L, &a);
	if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
		lua_pop(L, 1);
		return -1;
	}
	return a.rc;
}

static void fail_from(struct km_scenario *sc, const char *msg)
{
	km_sandbox_set_fatal(&sc->sb, msg);
	km_fail(sc->sim, KM_EINVAL, "%s", msg);
}

static int host_resume(void *h, struct km_sim *sim, struct km_ctx *ctx)
{
	struct km_scenario *sc = h;
	if (!km_ctx_host(ctx)) {
		uint32_t id = km_ctx_id(ctx);
		int fnref = id < sc->cap_ctx ? sc->task_fn[id] : LUA_NOREF;
		if (fnref == LUA_NOREF || host_make_thread(sc, ctx, fnref) < 0) {
			fail_from(sc, sc->sb.fatal ? sc->sb.fatal_msg :
				  "out of memory starting a task");
			return -1;
		}
	}
	lua_State *co = km_ctx_host(ctx);
	sc->current = ctx;
	sc->current_co = co;
	int nres = 0;
	sc->sb.running = co;
	int st = lua_resume(co, sc->sb.L, 0, &nres);
	sc->sb.running = NULL;
	sc->current = NULL;
	sc->current_co = NULL;
	if (st == LUA_OK)
		km_sandbox_thread_done(&sc->sb, co);

	if (sc->sb.fatal) {
		char msg[sizeof(sc->sb.fatal_msg)];
		snprintf(msg, sizeof(msg), "%s", sc->sb.fatal_msg);
		if (!strchr(msg, ':') || strncmp(msg, sc->path, strlen(sc->path))) {
			/* add where it happened, if the coroutine still knows */
			char where[sizeof(msg) + 400];
			lua_Debug ar;
			where[0] = 0;
			for (int lv = 0; lua_getstack(co, lv, &ar); lv++) {
				if (lua_getinfo(co, "Sl", &ar) && ar.currentline > 0) {
					snprintf(where, sizeof(where), "%s:%d: %s", ar.short_src,
						 ar.currentline, msg);
					break;
				}
			}
			if (where[0])
				snprintf(msg, sizeof(msg), "%.*s", (int)sizeof(msg) - 1, where);
		}
		km_fail(sim, KM_EBUDGET, "%s", msg);
		return -1;
	}
	if (st == LUA_YIELD) {
		lua_pop(co, nres);
		return 0;
	}
	if (st == LUA_OK) {
		lua_pop(co, nres);
		km_ctx_finish(sim, ctx);
		return 0;
	}
	char msg[600];
	km_sandbox_errmsg(co, -1, msg, sizeof(msg));
	km_fail(sim, KM_EINVAL, "%s", msg);
	return -1;
}

static int host_irq_prepare(void *h, struct km_sim *sim, struct km_ctx *ctx,
			    struct km_irqsrc *src)
{
	struct km_scenario *sc = h;
	if (host_make_thread(sc, ctx, (int)(intptr_t)src->host) < 0) {
		fail_from(sc, sc->sb.fatal ? sc->sb.fatal_msg :
			  "out of memory starting an interrupt handler");
		return -1;
	}
	return 0;
}

static void host_release(void *h, struct km_sim *sim, struct km_ctx *ctx)
{
	struct km_scenario *sc = h;
	uint32_t id = km_ctx_id(ctx);
	lua_State *co = km_ctx_host(ctx);
	if (id < sc->cap_ctx && sc->thread_ref[id] != LUA_NOREF) {
		int ref = sc->thread_ref[id];
		if (!co || !keep_idle_thread(sc, co, ref))
			luaL_unref(sc->sb.L, LUA_REGISTRYINDEX, ref);
		sc->thread_ref[id] = LUA_NOREF;
	}
	km_ctx_set_host(ctx, NULL);
}

/* The first line of the function registered as @fnref, 0 when unknown. */
static int fn_line(const struct km_scenario *sc, int fnref)
{
	lua_Debug ar;
	if (fnref == LUA_NOREF || !lua_checkstack(sc->sb.L, 2))
		return 0;
	lua_rawgeti(sc->sb.L, LUA_REGISTRYINDEX, fnref);
	if (!lua_isfunction(sc->sb.L, -1)) {
		lua_pop(sc->sb.L, 1);
		return 0;
	}
	/* the first line of its body that runs (activelines, "L"), not the
	 * `function()` of its declaration: what play offers to let run is
	 * the handler's or the task's first operation.  ">": lua_getinfo
	 * pops the function. */
	if (!lua_checkstack(sc->sb.L, 4) || !lua_getinfo(sc->sb.L, ">SL", &ar))
		return 0;
	int first = 0;
	if (lua_istable(sc->sb.L, -1)) {
		lua_pushnil(sc->sb.L);
		while (lua_next(sc->sb.L, -2)) {
			lua_pop(sc->sb.L, 1);
			if (lua_isinteger(sc->sb.L, -1)) {
				lua_Integer l = lua_tointeger(sc->sb.L, -1);
				if (l > ar.linedefined && l < INT_MAX && (!first || l < first))
					first = (int)l;
			}
		}
	}
	lua_pop(sc->sb.L, 1);
	return first ? first : ar.linedefined;
}

/* The first line of the function task @ctx runs, 0 when unknown. */
static int task_fn_line(const struct km_scenario *sc, const struct km_ctx *ctx)
{
	uint32_t id = km_ctx_id(ctx);
	return fn_line(sc, id < sc->cap_ctx ? sc->task_fn[id] : LUA_NOREF);
}

int km_scenario_ctx_where(const struct km_scenario *sc, const struct km_ctx *ctx, bool *started)
{
	int line = km_scenario_ctx_line(sc, ctx);
	*started = line > 0 && km_ctx_host(ctx);
	if (line <= 0)	/* a thread made, its body not yet entered */
		line = task_fn_line(sc, ctx);
	return line;
}

int km_scenario_ctx_line(const struct km_scenario *sc, const struct km_ctx *ctx)
{
	lua_Debug ar;
	lua_State *co = km_ctx_host(ctx);
	if (!co)
		return task_fn_line(sc, ctx);
	for (int lv = 0; lua_getstack(co, lv, &ar); lv++)
		if (lua_getinfo(co, "l", &ar) && ar.currentline > 0)
			return ar.currentline;
	return 0;
}

int km_scenario_irq_line(const struct km_scenario *sc, const struct km_sim *sim,
			 const struct km_irqsrc *src)
{
	for (const struct km_ctx *i = km_irqsrc_handler(sim, src, NULL); i;
	     i = km_irqsrc_handler(sim, src, i))
		if (km_ctx_host(i)) {
			int line = km_scenario_ctx_line(sc, i);
			if (line > 0)
				return line;
		}
	return fn_line(sc, (int)(intptr_t)src->host);
}

static const struct km_host_ops lua_host = {
	.resume = host_resume,
	.irq_prepare = host_irq_prepare,
	.ctx_release = host_release,
};

/* ---------------------------------------------------------- instantiate -- */

struct km_sim *km_scenario_instantiate(struct km_scenario *sc, const struct km_era *era,
				       const struct km_config *cfg, char *err, size_t errlen)
{
	km_sim_free(sc->sim);
	struct km_config run_cfg = *cfg;
	if (!run_cfg.wall_origin)
		run_cfg.wall_origin = sc->sb.wall_start;	/* one clock for load and run */
	struct km_era run_era = *era;
	if (sc->meta.bkl_given)
		run_era.bkl_lock = sc->meta.bkl_lock;	/* the scenario's what-if */
	sc->sim = km_sim_new(&run_era, &run_cfg, &lua_host, sc);
	struct km_sim *sim = sc->sim;
	if (!sim) {
		snprintf(err, errlen, "out of memory creating the machine");
		return NULL;
	}
	for (int i = 0; i < sc->ndecls; i++) {
		struct km_decl *d = &sc->decls[i];
		void *o = NULL;
		switch (d->type) {
		case KM_H_LOCK:
			o = km_lock_new(sim, d->name, d->u.lock.kind, d->u.lock.count,
					d->u.lock.pinned);
			if (o)
				((struct km_lock *)o)->spin = d->u.lock.spin;
			if (o && d->u.lock.line && !km_lock_embed(sim, o, d->u.lock.line))
				o = NULL;
			break;
		case KM_H_VAR:
			o = km_var_new(sim, d->name, d->u.var.value);
			if (o && d->u.var.line &&
			    !(((struct km_var *)o)->shared = km_data_line(sim, d->u.var.line)))
				o = NULL;
			if (o && d->u.var.line)
				((struct km_var *)o)->lock = km_data_line_lock(sim, d->u.var.line);
			break;
		case KM_H_ATOMIC:
			o = km_atomic_new(sim, d->name, d->u.var.value);
			if (o && d->u.var.line &&
			    !(((struct km_atomic *)o)->shared = km_data_line(sim, d->u.var.line)))
				o = NULL;
			if (o && d->u.var.line)
				((struct km_atomic *)o)->lock = km_data_line_lock(sim, d->u.var.line);
			break;
		case KM_H_COUNTER:
			o = km_counter_new(sim, d->name, d->u.counter.unit);
			break;
		case KM_H_WAITQ:
			o = km_waitq_new(sim, d->name);
			break;
		case KM_H_COMPLETION:
			o = km_completion_new(sim, d->name);
			break;
		case KM_H_TASK: {
			struct km_ctx *c = km_task_new(sim, d->name, d->u.task.cpu,
						       d->u.task.start);
			if (c && km_host_reserve(sc, km_ctx_id(c)) == 0)
				sc->task_fn[km_ctx_id(c)] = d->fnref;
			else if (c)
				c = NULL;
			o = c;
			break;
		}
		case KM_H_IRQ: {
			struct km_irqsrc *s = km_irqsrc_new(sim, d->name, d->u.irq.cpu,
							    d->u.irq.every, d->u.irq.jitter,
							    d->u.irq.start);
			if (s)
				s->host = (void *)(intptr_t)d->fnref;
			o = s;
			break;
		}
		default:
			break;
		}
		if (!o) {
			snprintf(err, errlen, "%s: %s", sc->path,
				 sim->errmsg[0] ? sim->errmsg : "out of memory");
			return NULL;
		}
	}
	/* math.random now draws from the run's own generator. */
	sc->sb.rng = &sim->rng;
	return sim;
}

int km_scenario_run(struct km_scenario *sc, char *err, size_t errlen)
{
	struct km_sim *sim = sc->sim;
	int rc = km_sim_start(sim);
	if (rc == KM_ENOTAPPLICABLE)
		return 0;
	if (rc < 0) {
		snprintf(err, errlen, "%s: %s", sc->path, sim->errmsg);
		return -1;
	}
	sc->phase = KM_PHASE_RUN;
	sc->note_lines = sim->trace.store;
	km_sim_run(sim);
	sc->phase = KM_PHASE_CHECK;
	if (sim->error) {
		const char *m = sim->errmsg;
		if (!strncmp(m, sc->path, strlen(sc->path)))
			snprintf(err, errlen, "%s", m);
		else
			snprintf(err, errlen, "%s: %s", sc->path, m);
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------- checks -- */

static void push_json(lua_State *L, const json_t *j)
{
	luaL_checkstack(L, 4, "report too deep");
	switch (json_typeof(j)) {
	case JSON_OBJECT: {
		lua_createtable(L, 0, (int)json_object_size(j));
		const char *k;
		json_t *v;
		json_object_foreach((json_t *)j, k, v) {
			push_json(L, v);
			lua_setfield(L, -2, k);
		}
		break;
	}
	case JSON_ARRAY: {
		lua_createtable(L, (int)json_array_size(j), 0);
		size_t i;
		json_t *v;
		json_array_foreach(j, i, v) {
			push_json(L, v);
			lua_rawseti(L, -2, (lua_Integer)i + 1);
		}
		break;
	}
	case JSON_STRING:
		lua_pushlstring(L, json_string_value(j), json_string_length(j));
		break;
	case JSON_INTEGER:
		lua_pushinteger(L, (lua_Integer)json_integer_value(j));
		break;
	case JSON_REAL:
		lua_pushnumber(L, json_real_value(j));
		break;
	case JSON_TRUE:
		lua_pushboolean(L, 1);
		break;
	case JSON_FALSE:
		lua_pushboolean(L, 0);
		break;
	default:
		lua_pushnil(L);
		break;
	}
}

static int push_json_protected(lua_State *L)
{
	push_json(L, lua_touserdata(L, 1));
	return 1;
}

/*
 * The lazy keys' closures reach the report through a box (a userdata
 * holding the pointer) that km_scenario_checks empties when it returns:
 * a report table a check kept somewhere then finds nothing, instead of
 * a dangling pointer.
 */
static const struct km_check_report *report_of(lua_State *L)
{
	const struct km_check_report *const *box = lua_touserdata(L, lua_upvalueindex(1));
	return *box;
}

/* __index of the report: make a lazy key's value once, keep it. */
static int report_index(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TTABLE);	/* a check can call it with anything */
	const struct km_check_report *rep = report_of(L);
	if (!rep)
		return 0;
	const char *k = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
	bool lazy = false;
	for (int i = 0; k && rep->lazy[i] && !lazy; i++)
		lazy = !strcmp(rep->lazy[i], k);
	if (!lazy)
		return 0;
	json_t *j = rep->part(rep->ud, k);
	if (!j)
		return luaL_error(L, "out of memory building the report");
	/* the conversion may raise (memory budget): do not leak j */
	lua_pushcfunction(L, push_json_protected);
	lua_pushlightuserdata(L, j);
	int st = lua_pcall(L, 1, 1, 0);
	json_decref(j);
	if (st != LUA_OK)
		return lua_error(L);
	lua_pushvalue(L, 2);
	lua_pushvalue(L, -2);
	lua_rawset(L, 1);
	return 1;
}

/* __pairs: make every lazy key, drop the metatable, then the usual
 * (sorted) pairs. */
static int report_pairs(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TTABLE);	/* else it would clear a type's metatable */
	const struct km_check_report *rep = report_of(L);
	for (int i = 0; rep && rep->lazy[i]; i++) {
		lua_getfield(L, 1, rep->lazy[i]);
		lua_pop(L, 1);
	}
	lua_pushnil(L);
	lua_setmetatable(L, 1);
	km_sandbox_push_pairs(L);	/* as built: the scenario may have replaced it */
	lua_pushvalue(L, 1);
	lua_call(L, 1, 3);
	return 3;
}

/* The report table, and the box its lazy keys read through (or nil). */
static int push_report_protected(lua_State *L)
{
	const struct km_check_report *rep = lua_touserdata(L, 1);
	push_json(L, rep->small);
	if (!rep->lazy || !rep->lazy[0] || !rep->part) {
		lua_pushnil(L);
		return 2;
	}
	const struct km_check_report **box = lua_newuserdatauv(L, sizeof(*box), 0);
	*box = rep;
	lua_createtable(L, 0, 2);
	lua_pushvalue(L, -2);
	lua_pushcclosure(L, report_index, 1);
	lua_setfield(L, -2, "__index");
	lua_pushvalue(L, -2);
	lua_pushcclosure(L, report_pairs, 1);
	lua_setfield(L, -2, "__pairs");
	lua_setmetatable(L, -3);
	return 2;
}

int km_scenario_check_count(const struct km_scenario *sc)
{
	return sc->nchecks;
}

int km_scenario_checks(struct km_scenario *sc, const struct km_check_report *report,
		       const struct km_check_result **out, int *n, char *err, size_t errlen)
{
	lua_State *L = sc->sb.L;
	*out = NULL;
	*n = 0;
	for (int i = 0; i < sc->nresults; i++)
		free(sc->results[i].message);
	free(sc->results);
	sc->results = NULL;
	sc->nresults = 0;
	if (!sc->nchecks)
		return 0;
	sc->results = calloc((size_t)sc->nchecks, sizeof(*sc->results));
	if (!sc->results) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	lua_pushcfunction(L, push_report_protected);
	lua_pushlightuserdata(L, (void *)report);
	if (lua_pcall(L, 1, 2, 0) != LUA_OK) {
		snprintf(err, errlen, "%s: %s", sc->path,
			 sc->sb.fatal ? sc->sb.fatal_msg : "out of memory building the report");
		lua_pop(L, 1);
		return -1;
	}
	int report_idx = lua_gettop(L) - 1;
	int rc = 0;
	for (int i = 0; i < sc->nchecks; i++) {
		lua_rawgeti(L, LUA_REGISTRYINDEX, sc->checks[i]);
		lua_pushvalue(L, report_idx);
		int st = km_sandbox_pcall(L, 1, 2);
		if (sc->sb.fatal || st != LUA_OK) {
			if (sc->sb.fatal)
				snprintf(err, errlen, "%s: check(): %s", sc->path, sc->sb.fatal_msg);
			else
				km_sandbox_errmsg(L, -1, err, errlen);
			rc = -1;
			break;
		}
		struct km_check_result *r = &sc->results[sc->nresults++];
		r->ok = lua_toboolean(L, -2);
		const char *m = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
		char def[64];
		snprintf(def, sizeof(def), "check %d", i + 1);
		r->message = strdup(m && km_utf8_valid(m, strlen(m)) ? m : def);
		lua_pop(L, 2);
	}
	if (lua_type(L, report_idx + 1) == LUA_TUSERDATA)
		*(const struct km_check_report **)lua_touserdata(L, report_idx + 1) = NULL;
	lua_settop(L, report_idx - 1);
	if (rc < 0)
		return -1;
	*out = sc->results;
	*n = sc->nresults;
	return 0;
}
