/*
 * sandbox.c - the reduced, budgeted Lua state.  See sandbox.h.
 */
#include "sandbox.h"
#include "sandbox_order.h"
#include "../input.h"

#include <lauxlib.h>
#include <lualib.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sb_hook(lua_State *L, lua_Debug *ar);

/*
 * "file:line: " of the innermost frame of @T that is the scenario's, into
 * @buf: the sandbox's own Lua (next() and pairs(), chunk "=prelude") is
 * passed over, so that a budget spent inside a next() names the line that
 * called it, not "prelude:N".  Reading frames allocates nothing ("S" and
 * "l" only copy into the lua_Debug), so the allocator may call it.
 * Returns false (@buf as it was) if no frame has a line.
 */
static bool scenario_where(lua_State *T, char *buf, size_t len)
{
	lua_Debug ar;
	for (int lv = 0; T && lv < 64 && lua_getstack(T, lv, &ar); lv++) {
		if (!lua_getinfo(T, "Sl", &ar) || ar.currentline <= 0 ||
		    !strcmp(ar.source, "=prelude"))
			continue;
		snprintf(buf, len, "%s:%d: ", ar.short_src, ar.currentline);
		return true;
	}
	return false;
}

/* The capped allocator: refuses growth past the limit. */
static void *sb_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	struct km_sandbox *sb = ud;
	if (!ptr)
		osize = 0;
	if (nsize == 0) {
		free(ptr);
		sb->mem_used -= osize;
		return NULL;
	}
	if (nsize > osize && sb->mem_used + (nsize - osize) > sb->mem_limit) {
		if (!sb->fatal) {
			/* Where?  Reading the running thread's top frame allocates
			 * nothing ("S" and "l" only copy into the lua_Debug). */
			lua_State *T = sb->running ? sb->running : sb->L;
			scenario_where(T, sb->where, sizeof(sb->where));
			char msg[512];
			snprintf(msg, sizeof(msg), "%smemory budget of %zu bytes exceeded "
				 "(raise it with --max-memory)", sb->where, sb->mem_limit);
			km_sandbox_set_fatal(sb, msg);
		}
		return NULL;
	}
	void *n = realloc(ptr, nsize);
	if (n)
		sb->mem_used = sb->mem_used - osize + nsize;
	return n;
}

void km_sandbox_set_fatal(struct km_sandbox *sb, const char *msg)
{
	if (sb->fatal)
		return;
	sb->fatal = true;
	snprintf(sb->fatal_msg, sizeof(sb->fatal_msg), "%s", msg);
	/*
	 * Stop the running thread at its next instruction, not at the end of
	 * its hook period: a scenario that pcalls a failed 4 MiB string.rep
	 * and retries would otherwise copy 4 MiB up to a thousand times more.
	 * lua_sethook only stores fields, so this is safe from inside the
	 * allocator.
	 */
	lua_State *T = sb->running ? sb->running : sb->L;
	if (T)
		lua_sethook(T, sb_hook, LUA_MASKCOUNT, 1);
}


/*
 * Charge @n instructions run (or as good as run) at @where ("file:line: "),
 * making the sandbox fatal past the budget.  Returns true if it is now.
 */
static bool charge_instructions(struct km_sandbox *sb, uint64_t n, const char *where)
{
	if (sb->fatal)
		return true;
	sb->instr += n;
	if (sb->instr_limit && sb->instr > sb->instr_limit) {
		char msg[512];
		snprintf(msg, sizeof(msg), "%sinstruction budget of %llu exceeded "
			 "(raise it with --max-instructions)", where,
			 (unsigned long long)sb->instr_limit);
		km_sandbox_set_fatal(sb, msg);
	}
	return sb->fatal;
}

static void sb_hook(lua_State *L, lua_Debug *ar)
{
	struct km_sandbox *sb = km_sandbox_of(L);
	scenario_where(L, sb->where, sizeof(sb->where));
	/* the period that just ended; a thread's first periods are short
	 * and double up to KM_HOOK_EVERY (see km_sandbox_thread_done) */
	int period = lua_gethookcount(L);
	if (!sb->fatal && period < KM_HOOK_EVERY)
		lua_sethook(L, sb_hook, LUA_MASKCOUNT,
			    period * 2 < KM_HOOK_EVERY ? period * 2 : KM_HOOK_EVERY);
	if (!sb->fatal && !charge_instructions(sb, (uint64_t)(period > 0 ? period : 1),
					       sb->where)) {
		if (sb->stop && *sb->stop) {
			km_sandbox_set_fatal(sb, "interrupted");
		} else if (sb->wall_limit > 0 && wall_now() - sb->wall_start > sb->wall_limit) {
			char msg[512];
			snprintf(msg, sizeof(msg), "%swall-clock budget of %g s exceeded "
				 "(raise it with --max-wall)", sb->where, sb->wall_limit);
			km_sandbox_set_fatal(sb, msg);
		}
	}
	if (sb->fatal) {
		/* Every instruction from now on fails: pcall cannot keep going. */
		lua_sethook(L, sb_hook, LUA_MASKCOUNT, 1);
		lua_pushstring(L, sb->fatal_msg);
		lua_error(L);
	}
}

void km_sandbox_hook(struct km_sandbox *sb, lua_State *co)
{
	lua_sethook(co, sb_hook, LUA_MASKCOUNT, sb->fatal ? 1 : KM_HOOK_FIRST);
}

void km_sandbox_thread_done(struct km_sandbox *sb, lua_State *co)
{
	if (sb->fatal)
		return;
	/* What ran since the hook last fired is less than one period, and
	 * Lua does not say how much: charge the whole period (never less
	 * than what ran, at most KM_HOOK_EVERY more) and start the thread's
	 * count again from a short one, so that a stream of short tasks or
	 * handlers is charged all its instructions. */
	int period = lua_gethookcount(co);
	charge_instructions(sb, (uint64_t)(period > 0 ? period : 1), sb->where);
	lua_sethook(co, sb_hook, LUA_MASKCOUNT, sb->fatal ? 1 : KM_HOOK_FIRST);
}

/* ------------------------------------------------------ replacements -- */

/*
 * The name a load()ed chunk gets: "=file:line: load" after the call that
 * loaded it, so that an error inside the chunk reads
 * "file:line: load:3: message".  The scenario's own chunkname is not
 * used: it would let a downloaded scenario report its errors as coming
 * from any file it likes ("@/etc/passwd").  Lua keeps at most
 * LUA_IDSIZE - 1 bytes of a "=" name and cuts the end, so a long file
 * name loses its head instead ("...tail:line: load").
 */
static void push_load_chunkname(lua_State *L)
{
	lua_Debug ar;
	char where[LUA_IDSIZE + 64];
	if (lua_getstack(L, 1, &ar) && lua_getinfo(L, "Sl", &ar) && ar.currentline > 0)
		snprintf(where, sizeof(where), "%s:%d: load", ar.short_src, ar.currentline);
	else
		snprintf(where, sizeof(where), "load");
	size_t len = strlen(where), room = LUA_IDSIZE - 1;
	if (len > room)
		lua_pushfstring(L, "=...%s", where + len - (room - 3));
	else
		lua_pushfstring(L, "=%s", where);
}

/* load(chunk [, chunkname [, mode [, env]]]): text only, named by its caller. */
static int sb_load(lua_State *L)
{
	int nargs = lua_gettop(L);
	if (nargs >= 3 && !lua_isnil(L, 3)) {
		const char *mode = luaL_checkstring(L, 3);
		if (strchr(mode, 'b') && !strchr(mode, 't'))
			return luaL_error(L, "load: binary chunks are not allowed in a scenario");
	}
	if (nargs >= 2 && !lua_isnil(L, 2))
		luaL_checkstring(L, 2);		/* the original's check, kept */
	lua_pushvalue(L, lua_upvalueindex(1));	/* the original load */
	lua_pushvalue(L, 1);
	push_load_chunkname(L);
	lua_pushliteral(L, "t");
	if (nargs >= 4)
		lua_pushvalue(L, 4);
	lua_call(L, nargs >= 4 ? 4 : 3, 2);
	return 2;
}

/*
 * A C function given where the scenario declares code to run later
 * (task{run = compute}, check(compute), irq{handler = ...}) has no Lua
 * frame when it runs, so its errors would carry no position at all.
 * Wrap it in a Lua function compiled as if written on the declaring line
 * of the declaring chunk: its errors then name that line.  The padding
 * of newlines costs one byte per line of the file, counted against the
 * memory budget like any string, and its compilation is charged to the
 * instruction budget, a byte an instruction: a declaration at line two
 * million is no longer a free way to burn seconds.  The compiled factory
 * is kept per (chunk, line), so a loop declaring many tasks pays once.
 */
static const char anchor_code[] =
	"local f = ... return function(...) local a, b = f(...) return a, b end";

/* Compile the wrapper factory for @ar's line and push it. */
static void push_anchor_factory(lua_State *L, const lua_Debug *ar)
{
	char where[LUA_IDSIZE + 32];
	snprintf(where, sizeof(where), "%s:%d: ", ar->short_src, ar->currentline);
	if (charge_instructions(km_sandbox_of(L), (uint64_t)ar->currentline, where)) {
		lua_pushstring(L, km_sandbox_of(L)->fatal_msg);
		lua_error(L);
	}
	luaL_Buffer b;
	luaL_buffinit(L, &b);
	for (int line = 1; line < ar->currentline; line++)
		luaL_addchar(&b, '\n');
	luaL_addlstring(&b, anchor_code, sizeof(anchor_code) - 1);
	luaL_pushresult(&b);
	size_t len;
	const char *code = lua_tolstring(L, -1, &len);
	if (luaL_loadbufferx(L, code, len, ar->source, "t") != LUA_OK)
		lua_error(L);
	lua_remove(L, -2);			/* the code */
}

void km_sandbox_anchor_function(lua_State *L, int idx)
{
	idx = lua_absindex(L, idx);
	if (!lua_iscfunction(L, idx))
		return;
	lua_Debug ar;
	if (!lua_getstack(L, 1, &ar) || !lua_getinfo(L, "Sl", &ar) || ar.currentline <= 0)
		return;
	/* the cache: registry["km.anchors"][source .. ":" .. line] = factory */
	if (lua_getfield(L, LUA_REGISTRYINDEX, "km.anchors") != LUA_TTABLE) {
		lua_pop(L, 1);
		lua_newtable(L);
		lua_pushvalue(L, -1);
		lua_setfield(L, LUA_REGISTRYINDEX, "km.anchors");
	}
	lua_pushfstring(L, "%s:%d", ar.source, ar.currentline);
	lua_pushvalue(L, -1);
	if (lua_rawget(L, -3) != LUA_TFUNCTION) {
		lua_pop(L, 1);
		push_anchor_factory(L, &ar);
		lua_pushvalue(L, -2);
		lua_pushvalue(L, -2);
		lua_rawset(L, -5);		/* cache[key] = factory */
	}
	/* stack: cache, key, factory */
	lua_remove(L, -2);
	lua_remove(L, -2);
	lua_pushvalue(L, idx);
	lua_call(L, 1, 1);
	lua_replace(L, idx);
}

/* setmetatable(t, mt) without finalizers: Lua runs __gc with hooks off,
 * where no budget can reach a finalizer that loops, and at moments no
 * scenario can predict.  A table is only marked for finalization when its
 * metatable has __gc at the time of this call. */
static int sb_setmetatable(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TTABLE);	/* the original's message, first */
	if (lua_type(L, 2) == LUA_TTABLE) {
		lua_pushliteral(L, "__gc");
		if (lua_rawget(L, 2) != LUA_TNIL)
			return luaL_error(L, "setmetatable: finalizers (__gc) are not available in "
					  "a scenario");
		lua_pop(L, 1);
	}
	lua_pushvalue(L, lua_upvalueindex(1));	/* the original */
	lua_insert(L, 1);
	lua_call(L, lua_gettop(L) - 1, 1);
	return 1;
}

/*
 * xpcall(f, handler, ...) with the handler guarded: once a budget is
 * exceeded, Lua calls the message handler from inside the hook, where
 * hooks are off, and a handler that loops would never be stopped.  The
 * guard returns the message untouched as soon as the run is fatal.
 */
static int guarded_handler(lua_State *L)
{
	if (km_sandbox_of(L)->fatal)
		return 1;
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, lua_gettop(L) - 1, 1);
	return 1;
}

static int sb_xpcall(lua_State *L)
{
	luaL_checktype(L, 2, LUA_TFUNCTION);
	lua_pushvalue(L, 2);
	lua_pushcclosure(L, guarded_handler, 1);
	lua_replace(L, 2);
	lua_pushvalue(L, lua_upvalueindex(1));	/* the original xpcall */
	lua_insert(L, 1);
	lua_callk(L, lua_gettop(L) - 1, LUA_MULTRET, 0, NULL);
	return lua_gettop(L);
}

static int sb_collectgarbage(lua_State *L)
{
	const char *opt = luaL_optstring(L, 1, "collect");
	if (strcmp(opt, "count") && strcmp(opt, "collect") && strcmp(opt, "step") &&
	    strcmp(opt, "isrunning"))
		return luaL_error(L, "collectgarbage('%s') is not available in a scenario", opt);
	lua_pushvalue(L, lua_upvalueindex(1));	/* the original */
	lua_insert(L, 1);
	lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
	return lua_gettop(L);
}

/* lua_dump writes a chunk in many small pieces: the buffer grows by
 * doubling, not by a realloc() a piece. */
static int dump_writer(lua_State *L, const void *p, size_t sz, void *ud)
{
	struct km_chunk_cache *c = ud;
	if (sz > c->code_cap - c->code_len) {
		size_t cap = c->code_cap ? c->code_cap : 4096;
		while (cap - c->code_len < sz) {
			if (cap > SIZE_MAX / 2)
				return 1;
			cap *= 2;
		}
		char *more = realloc(c->code, cap);
		if (!more)
			return 1;
		c->code = more;
		c->code_cap = cap;
	}
	memcpy(c->code + c->code_len, p, sz);
	c->code_len += sz;
	return 0;
}

static void cache_clear(struct km_chunk_cache *c)
{
	bool eager = c->eager;
	free(c->text);
	free(c->name);
	free(c->code);
	memset(c, 0, sizeof(*c));
	c->eager = eager;
}

/* The bytecode of the function on top of @L's stack into @c (none, if
 * that fails: the next load parses again). */
static void cache_dump(lua_State *L, struct km_chunk_cache *c)
{
	c->code_len = 0;
	if (lua_dump(L, dump_writer, c, 0) != 0) {
		free(c->code);
		c->code = NULL;
		c->code_len = c->code_cap = 0;
	}
}

int km_sandbox_load_cached(lua_State *L, struct km_chunk_cache *cache, const char *text,
			   size_t len, const char *name)
{
	bool seen = cache->text && cache->len == len && !strcmp(cache->name, name) &&
		    !memcmp(cache->text, text, len);
	if (seen && cache->code)
		return luaL_loadbufferx(L, cache->code, cache->code_len, name, "b");
	int st = luaL_loadbufferx(L, text, len, name, "t");
	if (st != LUA_OK)
		return st;
	if (seen) {
		/* the second time: worth the dump */
		cache_dump(L, cache);
		return LUA_OK;
	}
	/* remember it; a failure here only costs the next load a parse */
	cache_clear(cache);
	cache->text = malloc(len ? len : 1);
	cache->name = strdup(name);
	if (!cache->text || !cache->name) {
		cache_clear(cache);
		return LUA_OK;
	}
	memcpy(cache->text, text, len);
	cache->len = len;
	if (cache->eager)
		cache_dump(L, cache);
	return LUA_OK;
}

/* math.random([m [, n]]) from the run's seeded generator. */
static int sb_random(lua_State *L)
{
	struct km_sandbox *sb = km_sandbox_of(L);
	lua_Integer lo, hi;
	switch (lua_gettop(L)) {
	case 0:
		lua_pushnumber(L, km_rng_unit(sb->rng));
		return 1;
	case 1:
		lo = 1;
		hi = luaL_checkinteger(L, 1);
		if (hi == 0) {
			lua_pushinteger(L, (lua_Integer)km_rng_next(sb->rng));
			return 1;
		}
		break;
	case 2:
		lo = luaL_checkinteger(L, 1);
		hi = luaL_checkinteger(L, 2);
		break;
	default:
		return luaL_error(L, "wrong number of arguments");
	}
	luaL_argcheck(L, lo <= hi, lua_gettop(L), "interval is empty");
	lua_pushinteger(L, km_rng_range(sb->rng, lo, hi));
	return 1;
}

static int sb_randomseed(lua_State *L)
{
	return luaL_error(L, "math.randomseed is not available: the run's seed "
			  "(--seed) decides every random draw");
}

static void remove_field(lua_State *L, const char *table, const char *field)
{
	if (table) {
		lua_getglobal(L, table);
		lua_pushnil(L);
		lua_setfield(L, -2, field);
		lua_pop(L, 1);
	} else {
		lua_pushnil(L);
		lua_setglobal(L, field);
	}
}

int km_sandbox_open(struct km_sandbox *sb, uint64_t max_instructions,
		    size_t max_memory, double max_wall, uint64_t seed)
{
	memset(sb, 0, sizeof(*sb));
	sb->mem_limit = max_memory ? max_memory : KM_DEFAULT_MAX_MEMORY;
	sb->instr_limit = max_instructions;
	sb->wall_limit = max_wall;
	sb->wall_start = wall_now();
	km_rng_seed(&sb->own_rng, seed);
	sb->rng = &sb->own_rng;

	/* Lua itself needs a little room to start even under a tiny budget. */
	size_t limit = sb->mem_limit;
	sb->mem_limit = limit < (1u << 20) ? (1u << 20) : limit;
	lua_State *L = lua_newstate(sb_alloc, sb);
	if (!L)
		return -1;
	sb->L = L;
	*(struct km_sandbox **)lua_getextraspace(L) = sb;

	static const luaL_Reg libs[] = {
		{LUA_GNAME, luaopen_base},
		{LUA_STRLIBNAME, luaopen_string},
		{LUA_TABLIBNAME, luaopen_table},
		{LUA_MATHLIBNAME, luaopen_math},
		{LUA_UTF8LIBNAME, luaopen_utf8},
		{NULL, NULL},
	};
	for (const luaL_Reg *lib = libs; lib->func; lib++) {
		luaL_requiref(L, lib->name, lib->func, 1);
		lua_pop(L, 1);
	}
	remove_field(L, NULL, "dofile");
	remove_field(L, NULL, "loadfile");
	remove_field(L, NULL, "warn");
	remove_field(L, NULL, "require");
	remove_field(L, "string", "dump");

	/* The wrappers hold the originals as upvalues, out of reach. */
	lua_getglobal(L, "load");
	lua_pushcclosure(L, sb_load, 1);
	lua_setglobal(L, "load");
	lua_getglobal(L, "collectgarbage");
	lua_pushcclosure(L, sb_collectgarbage, 1);
	lua_setglobal(L, "collectgarbage");
	lua_getglobal(L, "setmetatable");
	lua_pushcclosure(L, sb_setmetatable, 1);
	lua_setglobal(L, "setmetatable");
	lua_getglobal(L, "xpcall");
	lua_pushcclosure(L, sb_xpcall, 1);
	lua_setglobal(L, "xpcall");

	lua_getglobal(L, "math");
	lua_pushcfunction(L, sb_random);
	lua_setfield(L, -2, "random");
	lua_pushcfunction(L, sb_randomseed);
	lua_setfield(L, -2, "randomseed");
	lua_pop(L, 1);

	if (km_sandbox_open_order(L) < 0) {
		lua_close(L);
		sb->L = NULL;
		return -1;
	}
	sb->mem_limit = limit;
	km_sandbox_hook(sb, L);
	return 0;
}

void km_sandbox_close(struct km_sandbox *sb)
{
	if (sb->L)
		lua_close(sb->L);
	sb->L = NULL;
}

uint64_t km_sandbox_source_hash(const char *text, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a 64, see sandbox.h */
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)text[i]) * 0x100000001b3ULL;
	return h;
}

int km_sandbox_loadfile(struct km_sandbox *sb, const char *path)
{
	lua_State *L = sb->L;
	/*
	 * The file is read with malloc, outside Lua's allocator: a file
	 * larger than the memory budget must be an error returned here, not a
	 * memory error raised outside any protected call (a panic).  And
	 * through km_input_read(): a FIFO or a device is refused before it
	 * can block (a scenario is read more than once: no pipes).
	 */
	char *text;
	size_t len;
	char ierr[1024];
	if (km_input_read(path, false, 16u << 20, &text, &len, ierr, sizeof(ierr)) < 0) {
		lua_pushstring(L, ierr);
		return LUA_ERRFILE;
	}
	sb->source_hash = km_sandbox_source_hash(text, len);
	if (len && text[0] == LUA_SIGNATURE[0]) {
		free(text);
		lua_pushfstring(L, "%s: is a precompiled (binary) chunk; only Lua source is "
				"accepted", path);
		return LUA_ERRSYNTAX;
	}
	/* Skip a #! first line, as lua(1) does. */
	const char *start = text;
	if (len && text[0] == '#') {
		while (start < text + len && *start != '\n')
			start++;
	}
	char name[1024];
	snprintf(name, sizeof(name), "@%s", path);
	/* lua_load is protected: a memory error while parsing comes back as a
	 * status with its message */
	static struct km_chunk_cache scenario_cache;
	int st = km_sandbox_load_cached(L, &scenario_cache, start, len - (size_t)(start - text),
					name);
	free(text);
	if (st == LUA_ERRMEM && sb->fatal) {
		lua_pop(L, 1);
		lua_pushfstring(L, "%s: %s", path, sb->fatal_msg);
	} else if (st != LUA_OK) {
		/* The parser's own limits ("C stack overflow" when 100,000 "{"
		 * nest) come without the chunk's name: give them the file. */
		const char *m = lua_tostring(L, -1);
		const char *colon = m ? strchr(m, ':') : NULL;
		const char *d = colon ? colon + 1 : NULL;
		while (d && *d >= '0' && *d <= '9')
			d++;
		if (m && (!d || d == colon + 1 || *d != ':')) {
			lua_pushfstring(L, "%s: %s (while parsing: the file nests too deeply "
					"or is too complex)", path, m);
			lua_remove(L, -2);
		}
	}
	return st;
}

/*
 * Does @s begin with a position ("chunk:digits:") naming a chunk that is
 * running on @co's stack -- the scenario's file, or a chunk it load()ed?
 * A message that names any other file, `error("/etc/passwd:1: syntax
 * error", 0)`, does not count: it gets the real position in front.
 */
static bool has_position(lua_State *co, const char *s)
{
	lua_Debug ar;
	for (int level = 0; lua_getstack(co, level, &ar); level++) {
		if (!lua_getinfo(co, "S", &ar) || ar.what[0] == 'C')
			continue;
		size_t n = strlen(ar.short_src);
		if (!n || strncmp(s, ar.short_src, n) || s[n] != ':' || s[n + 1] < '0' ||
		    s[n + 1] > '9')
			continue;
		const char *p = s + n + 1;
		while (*p >= '0' && *p <= '9')
			p++;
		if (*p == ':')
			return true;
	}
	return false;
}

/* "file:line: " of the innermost Lua frame of @co, from level @from. */
static void where_of(lua_State *co, int from, char *buf, size_t len)
{
	lua_Debug ar;
	buf[0] = 0;
	for (int level = from; lua_getstack(co, level, &ar); level++) {
		if (lua_getinfo(co, "Sl", &ar) && ar.currentline > 0) {
			snprintf(buf, len, "%s:%d: ", ar.short_src, ar.currentline);
			return;
		}
	}
}

/* An error is one line: Lua quotes the source near a syntax error, and an
 * unfinished string may carry a newline (or a NUL) from the file into
 * the message; every control character becomes a space. */
static void one_line(char *buf)
{
	for (unsigned char *p = (unsigned char *)buf; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			*p = ' ';
}

void km_sandbox_errmsg(lua_State *co, int idx, char *buf, size_t len)
{
	char where[300];
	where_of(co, 0, where, sizeof(where));
	int ty = lua_type(co, idx);
	const char *s = ty == LUA_TSTRING || ty == LUA_TNUMBER ? lua_tostring(co, idx) : NULL;
	if (s) {
		/* "C stack overflow" and errors raised with level 0 carry no
		 * position: give them the innermost Lua frame's */
		snprintf(buf, len, "%s%s", has_position(co, s) ? "" : where, s);
	} else {
		snprintf(buf, len, "%serror raised with a %s value instead of a message", where,
			 luaL_typename(co, idx));
	}
	one_line(buf);
}

int km_sandbox_msgh(lua_State *L)
{
	char where[300];
	where_of(L, 1, where, sizeof(where));
	int ty = lua_type(L, 1);
	const char *s = ty == LUA_TSTRING || ty == LUA_TNUMBER ? lua_tostring(L, 1) : NULL;
	if (s) {
		if (!has_position(L, s))
			lua_pushfstring(L, "%s%s", where, s);
		else
			lua_pushvalue(L, 1);
	} else {
		lua_pushfstring(L, "%serror raised with a %s value instead of a message", where,
				luaL_typename(L, 1));
	}
	return 1;
}

int km_sandbox_pcall(lua_State *L, int nargs, int nresults)
{
	int base = lua_gettop(L) - nargs;
	lua_pushcfunction(L, km_sandbox_msgh);
	lua_insert(L, base);
	int st = lua_pcall(L, nargs, nresults, base);
	lua_remove(L, base);
	return st;
}
