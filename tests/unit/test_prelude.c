/*
 * test_prelude.c - the prelude's bytecode is the prelude.
 *
 * The sandbox's deterministic next() and pairs() are Lua text
 * (engine/lua/prelude.h) that the build compiles once into bytecode
 * (engine/lua/gen/prelude_dump.c), and a run loads the bytecode.  That
 * is only right if the bytes are exactly what compiling the text now,
 * with the library this program runs with, gives: a stale header (the
 * text edited, the header not remade) or a header from another Lua
 * would run a different next() than the source says.  So: the program
 * carries bytecode, it is byte for byte lua_dump() of the text, and a
 * sandbox's next() and pairs() come from it, still named "=prelude"
 * with the text's lines (the budget messages pass over that chunk by
 * name) and still walking keys in the defined order.
 */
#include "test.h"

#include "lua/prelude.h"
#include "lua/sandbox.h"
#include "lua/sandbox_order.h"

#include <lauxlib.h>

#include <stdlib.h>
#include <string.h>

struct buf {
	char *p;
	size_t len;
};

static int collect(lua_State *L, const void *p, size_t sz, void *ud)
{
	struct buf *b = ud;
	char *more = realloc(b->p, b->len + sz);
	if (!more)
		return 1;
	memcpy(more + b->len, p, sz);
	b->p = more;
	b->len += sz;
	return 0;
}

static void test_prelude_bytecode_is_the_text_compiled(void **state)
{
	const void *code;
	size_t len;
	assert_true(km_sandbox_prelude_bytecode(&code, &len));
	lua_State *L = luaL_newstate();
	assert_non_null(L);
	assert_int_equal(luaL_loadbufferx(L, km_prelude_lua, sizeof(km_prelude_lua) - 1,
					  "=prelude", "t"), LUA_OK);
	struct buf b = { 0 };
	assert_int_equal(lua_dump(L, collect, &b, 0), 0);
	assert_int_equal(b.len, len);
	assert_memory_equal(b.p, code, len);
	free(b.p);
	lua_close(L);
}

static void test_prelude_sandbox_next_comes_from_it(void **state)
{
	struct km_sandbox sb;
	assert_int_equal(km_sandbox_open(&sb, 0, 0, 0, 1), 0);
	lua_State *L = sb.L;
	lua_Debug ar;
	lua_getglobal(L, "next");
	assert_true(lua_getinfo(L, ">S", &ar));
	assert_string_equal(ar.source, "=prelude");
	/* "function next(t, k)" is on the text's line that says so */
	const char *at = strstr(km_prelude_lua, "function next(t, k)");
	assert_non_null(at);
	int line = 1;
	for (const char *p = km_prelude_lua; p < at; p++)
		line += *p == '\n';
	assert_int_equal(ar.linedefined, line);
	/* and it walks in the defined order: numbers, then sorted strings */
	assert_int_equal(luaL_loadstring(L, "local t, s = { z = 1, a = 2, [3] = 0, m = 4 }, ''\n"
					 "for k in pairs(t) do s = s .. k .. ' ' end\n"
					 "return s"), LUA_OK);
	assert_int_equal(lua_pcall(L, 0, 1, 0), LUA_OK);
	assert_string_equal(lua_tostring(L, -1), "3 a m z ");
	km_sandbox_close(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prelude_bytecode_is_the_text_compiled),
		cmocka_unit_test(test_prelude_sandbox_next_comes_from_it),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
