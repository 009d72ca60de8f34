/*
 * sandbox_order.h - next(), pairs(), tostring() and string.format() that
 * do not depend on addresses or Lua's hash seed.  See sandbox_order.c.
 */
#ifndef KM_LUA_SANDBOX_ORDER_H
#define KM_LUA_SANDBOX_ORDER_H

#include <lua.h>

#include <stdbool.h>
#include <stddef.h>

/**
 * km_sandbox_open_order - install them in a fresh sandbox state (after
 * the base, string and table libraries are open).
 * Returns 0, or -1 if Lua ran out of memory.
 */
int km_sandbox_open_order(lua_State *L);

/**
 * km_sandbox_prelude_bytecode - the prelude (prelude.h) as compiled at
 * build time, if this program carries it and the Lua library it runs
 * with is the release that compiled it.
 * @code, @len: set to the bytecode (NULL, 0 if none).
 *
 * Context: any; reads only constants.
 * Return: true if there is bytecode to load instead of the text.
 */
bool km_sandbox_prelude_bytecode(const void **code, size_t *len);

/* Push tostring(@idx) as the sandbox says it: "table: #3", not an address. */
void km_sandbox_tolstring(lua_State *L, int idx);

/* Push the sandbox's string.format, as built (whatever the scenario did
 * to the global since). */
void km_sandbox_push_format(lua_State *L);

/* Push the sandbox's pairs(), as built. */
void km_sandbox_push_pairs(lua_State *L);

#endif /* KM_LUA_SANDBOX_ORDER_H */
