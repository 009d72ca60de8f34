/*
 * sandbox.h - a Lua state that can compute and nothing else.
 *
 * Scenario and era files come from strangers.  The sandbox opens only
 * base (without dofile, loadfile, warn; load restricted to text),
 * string (without dump), table, math (random drawn from the run's seeded
 * generator) and utf8 -- the list linit.c says to copy and edit -- and
 * bounds three things no scenario can lift from inside:
 *   - instructions, counted by a hook every KM_HOOK_EVERY instructions;
 *   - memory, through a capped lua_Alloc;
 *   - wall-clock time, checked from the same hook.
 * Once a budget is exceeded the sandbox is "fatal": the hook raises an
 * error at every further instruction, so pcall cannot swallow it, and the
 * host checks its flag (sb->fatal) after every resume and ends the run.
 *
 * next() and pairs() visit keys in a defined order, tostring() and
 * string.format() name tables by number rather than address, because
 * Lua's hash order and addresses change from run to run and a run must
 * not (sandbox_order.c).
 */
#ifndef KM_LUA_SANDBOX_H
#define KM_LUA_SANDBOX_H

#include "../defaults.h"
#include <lua.h>

#include "../rng.h"

#define KM_HOOK_EVERY 1000
#define KM_HOOK_FIRST 64	/* a thread's first period; it doubles up to KM_HOOK_EVERY */

struct km_sandbox {
	lua_State *L;
	size_t mem_used, mem_limit;
	uint64_t instr, instr_limit;
	double wall_start, wall_limit;
	bool fatal;
	char fatal_msg[640];
	char where[320];		/* "file:line: " of the last hook, or "" */
	lua_State *running;		/* the coroutine being resumed, or NULL (main) */
	volatile const int *stop;	/* set from outside to interrupt (Ctrl-C) */
	struct km_rng *rng;		/* math.random draws from it */
	struct km_rng own_rng;
	uint64_t source_hash;		/* of the last file loaded: see km_sandbox_loadfile */
};

/**
 * km_sandbox_open - a fresh state with the reduced libraries and budgets.
 * Returns 0, or -1 if Lua could not even start (out of memory).
 */
int km_sandbox_open(struct km_sandbox *sb, uint64_t max_instructions,
		    size_t max_memory, double max_wall, uint64_t seed);
void km_sandbox_close(struct km_sandbox *sb);

/* Install the budget hook on a thread (coroutines inherit it anyway). */
void km_sandbox_hook(struct km_sandbox *sb, lua_State *co);
/* A thread finished: charge what it ran since its last hook (at most a
 * period too much, never too little) and restart its count. */
void km_sandbox_thread_done(struct km_sandbox *sb, lua_State *co);

/**
 * km_sandbox_anchor_function - give a C function at @idx a declaration line.
 * Replaces a C function by a Lua function that calls it, compiled on the
 * line of the Lua code calling the current C function (the declaration),
 * so errors raised by the C function name that file and line.  Lua
 * functions and other values are left alone.  May raise (memory).
 */
void km_sandbox_anchor_function(lua_State *L, int idx);

/* The sandbox of a state (stored in its extra space).  In line: every
 * operation of the scenario API asks it, several times a call. */
static inline struct km_sandbox *km_sandbox_of(lua_State *L)
{
	return *(struct km_sandbox **)lua_getextraspace(L);
}

/* Mark the run fatal with a message; later instructions raise it. */
void km_sandbox_set_fatal(struct km_sandbox *sb, const char *msg);

/**
 * km_sandbox_loadfile - load a file as a text chunk named after its path.
 * On failure returns the Lua status and leaves the message on the stack.
 * Refuses binary chunks.
 *
 * NOTE: it also sets sb->source_hash, the 64-bit FNV-1a
 * of the file's bytes exactly as read (a #! line included).  It is the
 * report's "scenario_hash": merged sweeps use it to refuse reports of one
 * scenario from different file contents.  FNV-1a is enough for that (an
 * accident, not an adversary) and needs no library.
 */
int km_sandbox_loadfile(struct km_sandbox *sb, const char *path);
/*
 * The compile cache: a chunk compiled from the same text under the same
 * name is loaded from its bytecode, dumped (not stripped) by this process
 * -- the same function, lines and names, for a fraction of the parse.
 * One entry per cache; explore's thousands of runs of one scenario
 * rebuild their state from it.  The dump is made when the text is
 * compiled a second time (a process that loads a scenario once, a plain
 * run, does not pay for it), or at once for an @eager cache (the prelude:
 * every run opens two states).  Loads @len bytes of @text as lua_load
 * would in text mode: returns its status.
 */
struct km_chunk_cache {
	char *text, *name, *code;
	size_t len, code_len, code_cap;
	bool eager;
};
int km_sandbox_load_cached(lua_State *L, struct km_chunk_cache *cache, const char *text,
			   size_t len, const char *name);

/* The source hash of @len bytes of @text, as km_sandbox_loadfile sets it. */
uint64_t km_sandbox_source_hash(const char *text, size_t len);

/* "file:line: message" for an error object left by a failed call or
 * resume on @co (a string, or a description of a non-string object with
 * the position of the innermost Lua frame). */
void km_sandbox_errmsg(lua_State *co, int idx, char *buf, size_t len);

/* A message handler for lua_pcall that gives every error a position:
 * strings without one get the innermost Lua frame's, and non-string
 * error objects (tables, nil) become a positioned description. */
int km_sandbox_msgh(lua_State *L);

/* lua_pcall with km_sandbox_msgh. */
int km_sandbox_pcall(lua_State *L, int nargs, int nresults);

#endif /* KM_LUA_SANDBOX_H */
