/*
 * eras.c - era files to struct km_era.  See eras.h.
 */
#include "eras.h"
#include "fields.h"
#include "sandbox.h"

#include <lauxlib.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const era_fields[] = {
	"id", "year", "version", "title", "cpus", "smp", "hz", "preempt",
	"global_cli", "bkl", "spinlock", "semaphore", "mutex", "mutex_spin",
	"mutex_handoff", "sleep_check", "semaphores", "costs", "placard", NULL,
};

static const char *const cost_fields[] = {
	"cli", "atomic", "cacheline", "ctxsw", "wakeup", "irq_entry", "ipi", NULL,
};

static void copy_str(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

/* era{ ... }: parse into the struct passed as upvalue. */
static int l_era(lua_State *L)
{
	struct km_era *e = lua_touserdata(L, lua_upvalueindex(1));
	int *calls = lua_touserdata(L, lua_upvalueindex(2));
	if (++*calls > 1)
		return luaL_error(L, "era{} may be called only once per file");
	luaL_checktype(L, 1, LUA_TTABLE);
	km_fields_only(L, 1, "era", era_fields);

	memset(e, 0, sizeof(*e));
	copy_str(e->id, sizeof(e->id), km_field_string(L, 1, "era", "id", NULL, true));
	copy_str(e->version, sizeof(e->version),
		 km_field_string(L, 1, "era", "version", NULL, true));
	/* both name the era in every report and in --era: never empty */
	if (!e->id[0] || !e->version[0])
		return luaL_error(L, "era{}: '%s' must not be empty", e->id[0] ? "version" : "id");
	copy_str(e->title, sizeof(e->title), km_field_string(L, 1, "era", "title", "", false));
	copy_str(e->placard, sizeof(e->placard),
		 km_field_string(L, 1, "era", "placard", "", false));
	e->year = (int)km_field_int(L, 1, "era", "year", 0, 1991, 2100);
	if (!e->year)
		return luaL_error(L, "era{}: field 'year' is required");
	e->cpus = (int)km_field_int(L, 1, "era", "cpus", 1, 1, KM_MAX_CPUS);
	e->smp = km_field_bool(L, 1, "era", "smp", e->cpus > 1);
	e->hz = (int)km_field_int(L, 1, "era", "hz", 100, 1, 100000);

	const char *p = km_field_string(L, 1, "era", "preempt", "none", false);
	if (!strcmp(p, "none"))
		e->preempt = KM_PREEMPT_NONE;
	else if (!strcmp(p, "voluntary"))
		e->preempt = KM_PREEMPT_VOLUNTARY;
	else if (!strcmp(p, "full"))
		e->preempt = KM_PREEMPT_FULL;
	else
		return luaL_error(L, "era{}: 'preempt' must be \"none\", \"voluntary\" or "
				  "\"full\", got \"%s\"", p);

	e->global_cli = km_field_bool(L, 1, "era", "global_cli", false);
	e->bkl = km_field_bool(L, 1, "era", "bkl", false);

	lua_getfield(L, 1, "spinlock");
	if (lua_isnil(L, -1) || (lua_isboolean(L, -1) && !lua_toboolean(L, -1))) {
		e->spinlock = KM_SPIN_NONE;
	} else {
		const char *s = lua_tostring(L, -1);
		if (s && !strcmp(s, "tas"))
			e->spinlock = KM_SPIN_TAS;
		else if (s && !strcmp(s, "ticket"))
			e->spinlock = KM_SPIN_TICKET;
		else if (s && !strcmp(s, "queued"))
			e->spinlock = KM_SPIN_QUEUED;
		else
			return luaL_error(L, "era{}: 'spinlock' must be false, \"tas\", "
					  "\"ticket\" or \"queued\"");
	}
	lua_pop(L, 1);

	lua_getfield(L, 1, "semaphore");
	if (lua_isnil(L, -1)) {
		e->semaphore = KM_SEM_LEGACY;
	} else if (lua_isboolean(L, -1)) {
		e->semaphore = lua_toboolean(L, -1) ? KM_SEM_LEGACY : KM_SEM_NONE;
	} else {
		const char *s = lua_tostring(L, -1);
		if (s && !strcmp(s, "legacy"))
			e->semaphore = KM_SEM_LEGACY;
		else if (s && !strcmp(s, "generic"))
			e->semaphore = KM_SEM_GENERIC;
		else
			return luaL_error(L, "era{}: 'semaphore' must be false, \"legacy\" or "
					  "\"generic\"");
	}
	lua_pop(L, 1);

	e->mutex = km_field_bool(L, 1, "era", "mutex", false);
	e->mutex_spin = km_field_bool(L, 1, "era", "mutex_spin", false);
	e->mutex_handoff = km_field_bool(L, 1, "era", "mutex_handoff", false);
	e->sleep_check = km_field_bool(L, 1, "era", "sleep_check", false);
	e->semaphores = (int)km_field_int(L, 1, "era", "semaphores", -1, -1, 1000000);

	lua_getfield(L, 1, "costs");
	if (!lua_istable(L, -1))
		return luaL_error(L, "era{}: 'costs' must be a table of nanoseconds");
	int c = lua_gettop(L);
	km_fields_only(L, c, "costs", cost_fields);
	e->cost.cli = km_field_time(L, c, "costs", "cli", 1);
	e->cost.atomic = km_field_time(L, c, "costs", "atomic", 1);
	e->cost.cacheline = km_field_time(L, c, "costs", "cacheline", 1);
	e->cost.ctxsw = km_field_time(L, c, "costs", "ctxsw", 1000);
	e->cost.wakeup = km_field_time(L, c, "costs", "wakeup", 1000);
	e->cost.irq_entry = km_field_time(L, c, "costs", "irq_entry", 1000);
	e->cost.ipi = km_field_time(L, c, "costs", "ipi", 0);
	lua_pop(L, 1);
	if (!e->smp && e->cpus > 1)
		return luaL_error(L, "era{}: a uniprocessor era (smp = false) has 1 CPU");
	return 0;
}

/* Budgets of one era file: it is data, and small. */
#define ERA_MAX_INSTRUCTIONS 10000000ULL
#define ERA_MAX_MEMORY (16u << 20)
#define ERA_MAX_WALL 10.0

/*
 * Run era file @path in @sb, filling @era.  The file gets an environment
 * of its own (its globals land there; it reads the sandbox's through
 * __index) and a generator seeded as a fresh sandbox's, so what one era
 * file does is not seen by the next.
 */
static int load_into(struct km_sandbox *sb, const char *path, struct km_era *era, char *err,
		     size_t errlen)
{
	lua_State *L = sb->L;
	int top = lua_gettop(L);
	int calls = 0;
	km_rng_seed(&sb->own_rng, 0);
	int rc = -1;
	int st = km_sandbox_loadfile(sb, path);
	if (st == LUA_OK) {
		lua_newtable(L);			/* the file's _ENV */
		lua_newtable(L);
		lua_pushglobaltable(L);
		lua_setfield(L, -2, "__index");
		lua_setmetatable(L, -2);
		lua_pushlightuserdata(L, era);
		lua_pushlightuserdata(L, &calls);
		lua_pushcclosure(L, l_era, 2);
		lua_setfield(L, -2, "era");
		if (!lua_setupvalue(L, -2, 1))		/* a main chunk's only upvalue */
			lua_pop(L, 1);
		st = km_sandbox_pcall(L, 0, 0);
	}
	if (st != LUA_OK) {
		if (sb->fatal)
			snprintf(err, errlen, "%s: %s", path, sb->fatal_msg);
		else
			km_sandbox_errmsg(L, -1, err, errlen);
	} else if (calls != 1) {
		snprintf(err, errlen, "%s: the file never calls era{ ... }", path);
	} else {
		rc = 0;
	}
	lua_settop(L, top);
	return rc;
}

int km_era_load_file(const char *path, struct km_era *era, char *err, size_t errlen)
{
	struct km_sandbox sb;
	if (km_sandbox_open(&sb, ERA_MAX_INSTRUCTIONS, ERA_MAX_MEMORY, ERA_MAX_WALL, 0) < 0) {
		snprintf(err, errlen, "%s: cannot start Lua", path);
		return -1;
	}
	int rc = load_into(&sb, path, era, err, errlen);
	km_sandbox_close(&sb);
	return rc;
}

static int by_year(const void *a, const void *b)
{
	const struct km_era *x = a, *y = b;
	if (x->year != y->year)
		return x->year - y->year;
	return strcmp(x->id, y->id);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int km_eras_load(const char *dir, struct km_era_list *out, char *err, size_t errlen)
{
	out->v = NULL;
	out->n = 0;
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(err, errlen, "%s: cannot open the eras folder", dir);
		return -1;
	}
	char **names = NULL;
	int n = 0, cap = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		if (len < 5 || strcmp(de->d_name + len - 4, ".lua") || de->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			char **nn = realloc(names, (size_t)cap * sizeof(*nn));
			if (!nn)
				break;
			names = nn;
		}
		names[n] = malloc(strlen(dir) + len + 2);
		if (!names[n])
			break;
		sprintf(names[n], "%s/%s", dir, de->d_name);
		n++;
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof(*names), by_name);
	int rc = 0;
	out->v = calloc((size_t)(n ? n : 1), sizeof(*out->v));
	if (!out->v) {
		snprintf(err, errlen, "out of memory loading eras");
		rc = -1;
	}
	/* One sandbox for the whole folder, each file in an environment of
	 * its own: starting Lua once rather than once a file is most of what
	 * every invocation of the program costs before its own work. */
	struct km_sandbox sb;
	bool open = false;
	if (rc == 0 && n > 0) {
		open = km_sandbox_open(&sb, ERA_MAX_INSTRUCTIONS * (uint64_t)n, ERA_MAX_MEMORY,
				       ERA_MAX_WALL, 0) == 0;
		if (!open) {
			snprintf(err, errlen, "%s: cannot start Lua", dir);
			rc = -1;
		}
	}
	for (int i = 0; rc == 0 && i < n; i++) {
		if (load_into(&sb, names[i], &out->v[out->n], err, errlen) < 0) {
			rc = -1;
			break;
		}
		for (int j = 0; j < out->n; j++) {
			if (!strcmp(out->v[j].id, out->v[out->n].id)) {
				snprintf(err, errlen, "%s: era id '%s' is used twice", names[i],
					 out->v[j].id);
				rc = -1;
			}
		}
		out->n++;
	}
	if (open)
		km_sandbox_close(&sb);
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (rc == 0 && out->n == 0) {
		snprintf(err, errlen, "%s: no era files found", dir);
		rc = -1;
	}
	if (rc < 0) {
		km_eras_free(out);
		return -1;
	}
	qsort(out->v, (size_t)out->n, sizeof(*out->v), by_year);
	return 0;
}
