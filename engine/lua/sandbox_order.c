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

/* next() and pairs(), in Lua: see the top of the file. */
static const char order_lua[] =
	"local rawnext, type, tsort, rawget, error, getmetatable, hless = ...\n"
	"local rank = { number = 1, string = 2, boolean = 3, userdata = 4 }\n"
	"local function keyless(a, b)\n"
	"  local ta, tb = type(a), type(b)\n"
	"  if ta ~= tb then return rank[ta] < rank[tb] end\n"
	"  if ta == 'number' or ta == 'string' then return a < b end\n"
	"  if ta == 'boolean' then return (not a) and b end\n"
	"  return hless(a, b)\n"
	"end\n"
	"local walks = setmetatable({}, { __mode = 'k' })\n"
	"local function walk(t)\n"
	"  local keys, n = {}, 0\n"
	"  for k in rawnext, t do\n"
	"    if not rank[type(k)] then\n"
	"      error('next(): this table has a key that is a ' .. type(k) .. ', and the order '\n"
	"            .. 'of such keys changes from run to run (key the table by a name or a '\n"
	"            .. 'number, or keep the values in a list)', 3)\n"
	"    end\n"
	"    n = n + 1; keys[n] = k\n"
	"  end\n"
	"  tsort(keys, keyless)\n"
	"  local pos = {}\n"
	"  for i = 1, n do pos[keys[i]] = i end\n"
	"  local w = { keys = keys, pos = pos }\n"
	"  walks[t] = w\n"
	"  return w\n"
	"end\n"
	"-- the first key alone, in one pass: next(t) == nil, the usual test\n"
	"-- of emptiness, sorts nothing (a traversal sorts at its second step)\n"
	"local function first(t)\n"
	"  local best, bt, br\n"
	"  for k in rawnext, t do\n"
	"    local tk = type(k)\n"
	"    local r = rank[tk]\n"
	"    if not r then\n"
	"      error('next(): this table has a key that is a ' .. tk .. ', and the order '\n"
	"            .. 'of such keys changes from run to run (key the table by a name or a '\n"
	"            .. 'number, or keep the values in a list)', 3)\n"
	"    end\n"
	"    if best == nil or r < br then best, bt, br = k, tk, r\n"
	"    elseif r == br then\n"
	"      if tk == 'number' or tk == 'string' then\n"
	"        if k < best then best = k end\n"
	"      elseif keyless(k, best) then best = k end\n"
	"    end\n"
	"  end\n"
	"  return best\n"
	"end\n"
	"function next(t, k)\n"
	"  if type(t) ~= 'table' then return rawnext(t, k) end\n"
	"  local w, i\n"
	"  if k == nil then\n"
	"    walks[t] = nil -- a new traversal: the table may have changed\n"
	"    local key = first(t)\n"
	"    if key == nil then return nil end\n"
	"    return key, rawget(t, key)\n"
	"  else\n"
	"    w = walks[t]\n"
	"    i = w and w.pos[k]\n"
	"    if not i then\n"
	"      w = walk(t)\n"
	"      i = w.pos[k]\n"
	"      if not i then return rawnext(t, k) end\n"
	"    end\n"
	"  end\n"
	"  local keys = w.keys\n"
	"  while true do\n"
	"    i = i + 1\n"
	"    local key = keys[i]\n"
	"    if key == nil then walks[t] = nil; return nil end\n"
	"    local v = rawget(t, key)\n"
	"    if v ~= nil then return key, v end\n"
	"  end\n"
	"end\n"
	"local next = next\n"
	"function pairs(t)\n"
	"  local mt = getmetatable(t)\n"
	"  if type(mt) == 'table' and mt.__pairs then return mt.__pairs(t) end\n"
	"  if type(t) ~= 'table' then\n"
	"    error(\"bad argument #1 to 'pairs' (table expected, got \" .. type(t) .. ')', 2)\n"
	"  end\n"
	"  return next, t, nil\n"
	"end\n";

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

	static struct km_chunk_cache prelude_cache = { .eager = true };
	if (km_sandbox_load_cached(L, &prelude_cache, order_lua, sizeof(order_lua) - 1,
				   "=prelude") != LUA_OK)
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
