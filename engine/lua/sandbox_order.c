/*
 * sandbox_order.c - the sandbox's answers that must not depend on where
 * things happen to lie in memory: next(), pairs(), tostring() and
 * string.format().
 *
 * A run is a function of its file, era, mode, CPUs, seed and duration:
 * the same inputs give the same trace on any machine, every time.  Four
 * corners of Lua's base library break that: next() (and so pairs())
 * walks a table in hash order, which for strings depends on a seed Lua
 * draws per process and for tables, functions and handles on their
 * addresses; tostring() and string.format("%s") name a table by its
 * address ("table: 0x55d0c4a3e2a0"); and string.format("%p") prints one.
 * Six runs of one scenario with --seed 7 once gave five trace hashes.
 *
 * So, in the sandbox:
 *   - next(t, k) visits the keys in a defined order: numbers, then
 *     strings (each sorted), false before true, then handles (by kind,
 *     then declaration order).  A key that is a table, a function or a
 *     coroutine has no order that would hold from one run to the next:
 *     next() refuses it, naming the caller's file:line.  pairs(t) is
 *     next, t, nil (after __pairs, as in Lua).  The sorted keys of a
 *     traversal are kept (weakly, per table) from its second step to the
 *     end of the walk, so a whole traversal costs one sort; next(t, nil)
 *     itself finds the first key in one pass, so that `next(t) == nil`
 *     sorts nothing; as in Lua, keys may be cleared during a traversal
 *     and keys added are not visited.  It is
 *     written in Lua, so its work is charged to the instruction budget.
 *   - tostring(x), for a table, function or coroutine without
 *     __tostring, says "table: #3": the third such value the run turned
 *     into text.  The numbers follow the order of the calls, which is
 *     itself defined.
 *   - string.format turns such values given to %s into the same text,
 *     and refuses %p.
 * print() and log() use the same tostring and format (bound here, when
 * the sandbox is built, so that a scenario replacing string.format
 * cannot change what the engine calls).
 *
 * Cost: next(t, nil) O(n); a traversal of n keys O(n log n) in all, O(1)
 * a step after the second; tostring() O(1); string.format O(length of
 * the format).  Budget errors inside them name the scenario's line that
 * called them (sandbox.c passes over the "prelude" chunk's frames).
 */
#include "sandbox_order.h"

#include "prelude.h"
#include "sandbox.h"

#include <lauxlib.h>

#include <string.h>

/* Registry keys. */
static const char idents_key[] = "km.idents";	/* value -> its number, weak keys */
static const char format_key[] = "km.format";	/* the sandbox's string.format */
static const char tostring_key[] = "km.tostring";
static const char pairs_key[] = "km.pairs";	/* the sandbox's pairs() */

/* Does @idx print as an address unless a metamethod says otherwise? */
static bool named_by_address(lua_State *L, int idx)
{
	switch (lua_type(L, idx)) {
	case LUA_TTABLE:
	case LUA_TFUNCTION:
	case LUA_TTHREAD:
	case LUA_TUSERDATA:
	case LUA_TLIGHTUSERDATA:
		return true;
	default:
		return false;
	}
}

void km_sandbox_tolstring(lua_State *L, int idx)
{
	idx = lua_absindex(L, idx);
	if (!named_by_address(L, idx)) {
		luaL_tolstring(L, idx, NULL);
		return;
	}
	if (luaL_getmetafield(L, idx, "__tostring") != LUA_TNIL) {
		lua_pop(L, 1);
		luaL_tolstring(L, idx, NULL);
		return;
	}
	int top = lua_gettop(L);
	const char *kind = luaL_typename(L, idx);
	if (luaL_getmetafield(L, idx, "__name") == LUA_TSTRING)
		kind = lua_tostring(L, -1);	/* on the stack until the end */
	lua_getfield(L, LUA_REGISTRYINDEX, idents_key);
	lua_pushvalue(L, idx);
	lua_rawget(L, -2);
	lua_Integer n = lua_tointeger(L, -1);
	lua_pop(L, 1);
	if (!n) {
		/* how many values have been named so far is kept at [0] */
		lua_rawgeti(L, -1, 0);
		n = lua_tointeger(L, -1) + 1;
		lua_pop(L, 1);
		lua_pushinteger(L, n);
		lua_rawseti(L, -2, 0);
		lua_pushvalue(L, idx);
		lua_pushinteger(L, n);
		lua_rawset(L, -3);
	}
	lua_pushfstring(L, "%s: #%I", kind, n);
	lua_replace(L, top + 1);
	lua_settop(L, top + 1);
}

static int sb_tostring(lua_State *L)
{
	luaL_checkany(L, 1);
	lua_settop(L, 1);
	km_sandbox_tolstring(L, 1);
	return 1;
}

/*
 * string.format, with %s of an address-named value as tostring() says
 * and %p refused.  The original (upvalue 1) does the formatting and
 * every other check.
 */
static int sb_format(lua_State *L)
{
	size_t len;
	const char *f = luaL_checklstring(L, 1, &len), *end = f + len;
	int arg = 1, top = lua_gettop(L);
	for (const char *p = f; p < end; p++) {
		if (*p != '%')
			continue;
		if (++p < end && *p == '%')
			continue;
		while (p < end && strchr("-+ #0123456789.", *p))
			p++;
		if (p >= end)
			break;
		arg++;
		if (*p == 'p')
			return luaL_error(L, "string.format: '%%p' prints an address, which changes "
					  "from run to run");
		if (*p == 's' && arg <= top && named_by_address(L, arg)) {
			km_sandbox_tolstring(L, arg);
			lua_replace(L, arg);
		}
	}
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, top, 1);
	return 1;
}

/* hrank(a, b): a < b for two handles, by kind, then declaration. */
static int sb_handle_less(lua_State *L)
{
	const char *ka = NULL, *kb = NULL;
	if (luaL_getmetafield(L, 1, "__name") == LUA_TSTRING)
		ka = lua_tostring(L, -1);
	if (luaL_getmetafield(L, 2, "__name") == LUA_TSTRING)
		kb = lua_tostring(L, -1);
	if (!ka || !kb)
		return luaL_error(L, "a key of this table has no defined order");
	int c = strcmp(ka, kb);
	if (c) {
		lua_pushboolean(L, c < 0);
		return 1;
	}
	lua_getfield(L, 1, "id");
	lua_getfield(L, 2, "id");
	lua_pushboolean(L, lua_tointeger(L, -2) < lua_tointeger(L, -1));
	return 1;
}

/*
 * next() and pairs(), in Lua: the text is in prelude.h.  Built by the
 * Makefile, the program also carries that text compiled
 * (gen/prelude_dump.c, KM_PRELUDE_BC) and loads the bytecode when the Lua
 * library it runs with is the release that compiled it; otherwise (a
 * library upgraded under the program, or a build without the step, as
 * the fuzzers') it compiles the text, dumping it once for the second
 * state of the run.  Both give the same function.
 */
#ifdef KM_PRELUDE_BC
#include "prelude_bc.h"
#endif

bool km_sandbox_prelude_bytecode(const void **code, size_t *len)
{
#ifdef KM_PRELUDE_BC
	if (!strcmp(lua_ident, km_prelude_ident)) {
		*code = km_prelude_bc;
		*len = sizeof(km_prelude_bc);
		return true;
	}
#endif
	*code = NULL;
	*len = 0;
	return false;
}

static int load_prelude(lua_State *L)
{
	const void *code;
	size_t len;
	if (km_sandbox_prelude_bytecode(&code, &len)) {
		if (luaL_loadbufferx(L, code, len, "=prelude", "b") == LUA_OK)
			return LUA_OK;
		lua_pop(L, 1);		/* refused: the text, below */
	}
	static struct km_chunk_cache prelude_cache = { .eager = true };
	return km_sandbox_load_cached(L, &prelude_cache, km_prelude_lua,
				      sizeof(km_prelude_lua) - 1, "=prelude");
}

int km_sandbox_open_order(lua_State *L)
{
	/* the numbers of address-named values, weakly held */
	lua_newtable(L);
	lua_newtable(L);
	lua_pushliteral(L, "k");
	lua_setfield(L, -2, "__mode");
	lua_setmetatable(L, -2);
	lua_setfield(L, LUA_REGISTRYINDEX, idents_key);

	lua_pushcfunction(L, sb_tostring);
	lua_pushvalue(L, -1);
	lua_setfield(L, LUA_REGISTRYINDEX, tostring_key);
	lua_setglobal(L, "tostring");

	lua_getglobal(L, "string");
	lua_getfield(L, -1, "format");
	lua_pushcclosure(L, sb_format, 1);
	lua_pushvalue(L, -1);
	lua_setfield(L, LUA_REGISTRYINDEX, format_key);
	lua_setfield(L, -2, "format");
	lua_pop(L, 1);

	if (load_prelude(L) != LUA_OK)
		return -1;
	lua_getglobal(L, "next");
	lua_getglobal(L, "type");
	lua_getglobal(L, "table");
	lua_getfield(L, -1, "sort");
	lua_remove(L, -2);
	lua_getglobal(L, "rawget");
	lua_getglobal(L, "error");
	lua_getglobal(L, "getmetatable");
	lua_pushcfunction(L, sb_handle_less);
	if (lua_pcall(L, 7, 0, 0) != LUA_OK)
		return -1;
	lua_getglobal(L, "pairs");
	lua_setfield(L, LUA_REGISTRYINDEX, pairs_key);
	return 0;
}

void km_sandbox_push_pairs(lua_State *L)
{
	lua_getfield(L, LUA_REGISTRYINDEX, pairs_key);
}

void km_sandbox_push_format(lua_State *L)
{
	lua_getfield(L, LUA_REGISTRYINDEX, format_key);
}
