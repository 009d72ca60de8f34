/*
 * tour.c - reading scripts/tour.lua.  See tour.h.
 */
#include "tour.h"
#include "fields.h"
#include "sandbox.h"
#include "../sim.h"

#include <lauxlib.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tour_load {
	struct km_tour *tour;
	const char *scripts;
};

static int l_exhibit(lua_State *L)
{
	static const char *const fields[] = {
		"scenario", "era", "cpus", "anachronism", "modes", "fails", "set", "title",
		"text", "look", NULL,
	};
	struct tour_load *tl = lua_touserdata(L, lua_upvalueindex(1));
	luaL_checktype(L, 1, LUA_TTABLE);
	km_fields_only(L, 1, "exhibit", fields);
	if (tl->tour->n >= 256)
		return luaL_error(L, "exhibit{}: more than 256 exhibits");
	struct km_exhibit *nv = realloc(tl->tour->v, (size_t)(tl->tour->n + 1) * sizeof(*nv));
	if (!nv)
		return luaL_error(L, "out of memory");
	tl->tour->v = nv;
	struct km_exhibit *e = &nv[tl->tour->n];
	memset(e, 0, sizeof(*e));
	const char *sc = km_field_string(L, 1, "exhibit", "scenario", NULL, true);
	if (strchr(sc, '/') || strstr(sc, ".."))
		return luaL_error(L, "exhibit{}: 'scenario' is a file name in scripts/, got '%s'", sc);
	snprintf(e->file, sizeof(e->file), "%s/%s", tl->scripts, sc);
	snprintf(e->era, sizeof(e->era), "%s", km_field_string(L, 1, "exhibit", "era", NULL, true));
	e->cpus = (int)km_field_int(L, 1, "exhibit", "cpus", 0, 1, KM_MAX_CPUS);
	e->anachronism = km_field_bool(L, 1, "exhibit", "anachronism", false);
	snprintf(e->title, sizeof(e->title), "%s",
		 km_field_string(L, 1, "exhibit", "title", NULL, true));
	snprintf(e->text, sizeof(e->text), "%s", km_field_string(L, 1, "exhibit", "text", "", false));
	snprintf(e->look, sizeof(e->look), "%s", km_field_string(L, 1, "exhibit", "look", "", false));

	lua_getfield(L, 1, "modes");
	if (lua_isnil(L, -1)) {
		e->modes[0] = KM_MODE_NATIVE;
		e->nmodes = 1;
	} else {
		luaL_checktype(L, -1, LUA_TTABLE);
		int n = (int)luaL_len(L, -1);
		if (n < 1 || n > KM_TOUR_MODES)
			return luaL_error(L, "exhibit{}: 'modes' lists 1 to %d modes", KM_TOUR_MODES);
		for (int i = 1; i <= n; i++) {
			lua_geti(L, -1, i);
			const char *m = lua_tostring(L, -1);
			int mode = m ? km_mode_parse(m) : -2;
			if (mode == -2)
				return luaL_error(L, "exhibit{}: unknown mode '%s'", m ? m : "?");
			e->modes[e->nmodes++] = mode;
			lua_pop(L, 1);
		}
	}
	lua_pop(L, 1);

	/* fails = { "mutex" }: the modes whose run fails a check or finds a
	 * violation on purpose -- the exhibit's lesson, not a bug */
	lua_getfield(L, 1, "fails");
	if (!lua_isnil(L, -1)) {
		luaL_checktype(L, -1, LUA_TTABLE);
		int n = (int)luaL_len(L, -1);
		for (int i = 1; i <= n && i <= KM_TOUR_MODES; i++) {
			lua_geti(L, -1, i);
			const char *m = lua_tostring(L, -1);
			int mode = m ? km_mode_parse(m) : -2;
			bool found = false;
			for (int k = 0; k < e->nmodes; k++)
				if (e->modes[k] == mode)
					found = e->fails[k] = true;
			if (!found)
				return luaL_error(L, "exhibit{}: 'fails' names '%s', not one of its modes",
						  m ? m : "?");
			lua_pop(L, 1);
		}
	}
	lua_pop(L, 1);

	lua_getfield(L, 1, "set");
	if (!lua_isnil(L, -1)) {
		luaL_checktype(L, -1, LUA_TTABLE);
		lua_pushnil(L);
		while (lua_next(L, -2)) {
			if (e->nsets == KM_TOUR_SETS)
				return luaL_error(L, "exhibit{}: at most %d parameters", KM_TOUR_SETS);
			if (lua_type(L, -2) != LUA_TSTRING)
				return luaL_error(L, "exhibit{}: 'set' keys are parameter names");
			snprintf(e->set_name[e->nsets], sizeof(e->set_name[0]), "%s",
				 lua_tostring(L, -2));
			snprintf(e->set_value[e->nsets], sizeof(e->set_value[0]), "%s",
				 luaL_tolstring(L, -1, NULL));
			lua_pop(L, 2);
			e->nsets++;
		}
		/* sort by name: lua_next's order is not fixed */
		for (int i = 1; i < e->nsets; i++)
			for (int j = i; j > 0 && strcmp(e->set_name[j - 1], e->set_name[j]) > 0; j--) {
				char tn[64], tv[128];
				memcpy(tn, e->set_name[j], sizeof(tn));
				memcpy(tv, e->set_value[j], sizeof(tv));
				memcpy(e->set_name[j], e->set_name[j - 1], sizeof(tn));
				memcpy(e->set_value[j], e->set_value[j - 1], sizeof(tv));
				memcpy(e->set_name[j - 1], tn, sizeof(tn));
				memcpy(e->set_value[j - 1], tv, sizeof(tv));
			}
	}
	lua_pop(L, 1);
	tl->tour->n++;
	return 0;
}

int km_tour_load(const char *path, const char *scripts_dir, struct km_tour *tour,
		 char *err, size_t errlen)
{
	struct km_sandbox sb;
	tour->v = NULL;
	tour->n = 0;
	if (km_sandbox_open(&sb, 10000000, 16u << 20, 10.0, 0) < 0) {
		snprintf(err, errlen, "%s: cannot start Lua", path);
		return -1;
	}
	struct tour_load tl = { tour, scripts_dir };
	lua_pushlightuserdata(sb.L, &tl);
	lua_pushcclosure(sb.L, l_exhibit, 1);
	lua_setglobal(sb.L, "exhibit");
	int st = km_sandbox_loadfile(&sb, path);
	if (st == LUA_OK)
		st = km_sandbox_pcall(sb.L, 0, 0);
	int rc = 0;
	if (st != LUA_OK) {
		km_sandbox_errmsg(sb.L, -1, err, errlen);
		rc = -1;
	} else if (tour->n == 0) {
		snprintf(err, errlen, "%s: no exhibit{} in the tour", path);
		rc = -1;
	}
	km_sandbox_close(&sb);
	if (rc < 0)
		km_tour_free(tour);
	return rc;
}

void km_tour_free(struct km_tour *tour)
{
	free(tour->v);
	tour->v = NULL;
	tour->n = 0;
}
