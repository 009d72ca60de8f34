/*
 * host.h - private to the Lua layer: the scenario struct and handles,
 * shared by scenario.c (declarations, the host) and api.c (operations).
 */
#ifndef KM_LUA_HOST_H
#define KM_LUA_HOST_H

#include "sandbox.h"
#include "scenario.h"

#include <lauxlib.h>

enum km_htype {
	KM_H_LOCK, KM_H_VAR, KM_H_ATOMIC, KM_H_COUNTER, KM_H_WAITQ,
	KM_H_COMPLETION, KM_H_TASK, KM_H_IRQ, KM_H_TYPES
};

/* Metatable names double as the type names in argument errors:
 * "bad argument #1 to 'down' (lock expected, got number)". */
extern const char *const km_htype_name[KM_H_TYPES];

struct km_handle {
	enum km_htype type;
	uint32_t index;
};

/*
 * A declaration recorded at the top level, built at instantiation: what
 * its constructor (km_lock_new, km_task_new, ...) will be given.  @type
 * is the tag of the union, as a TValue's is in lobject.h; waitqueues and
 * completions have a name only.
 */
struct km_decl {
	enum km_htype type;
	char *name;
	int fnref;			/* task run / irq handler, or LUA_NOREF */
	union {
		struct {
			int count;
			enum km_prim kind;
			bool pinned;
			int spin;	/* enum km_spin_flavour, or 0: the era's */
			char *line;	/* lock{ line = } (malloc'd), or NULL */
		} lock;
		struct {
			int64_t value;
			char *line;	/* var{ line = } (malloc'd), or NULL */
		} var;			/* KM_H_VAR and KM_H_ATOMIC */
		struct {
			char *unit;	/* malloc'd */
		} counter;
		struct {
			int cpu;	/* -1: any */
			km_time start;
		} task;
		struct {
			int cpu;
			km_time every, jitter, start;
		} irq;
	} u;
};

enum km_phase { KM_PHASE_LOAD, KM_PHASE_READY, KM_PHASE_RUN, KM_PHASE_CHECK };

struct km_scenario {
	struct km_sandbox sb;		/* first: km_sandbox_of() is the scenario */
	char *path;
	enum km_phase phase;
	struct km_scenario_meta meta;
	bool declared;
	bool seed_given;

	struct km_decl *decls;
	int ndecls, capdecls;
	int count[KM_H_TYPES];

	struct km_param_set *sets;
	int nsets;
	struct km_param_info *params;
	int nparams;

	int *checks;			/* function refs */
	int nchecks;
	struct km_check_result *results;
	int nresults;

	struct km_sim *sim;
	struct km_ctx *current;		/* whose code runs now */
	lua_State *current_co;
	int *task_fn;			/* per ctx id: function ref of a task */
	int *thread_ref;		/* per ctx id: registry ref of its thread */
	uint32_t cap_ctx;
	int cpus_opt;			/* --cpus, 0: not given */
	const char *era_opt;		/* --era, or NULL */
	struct km_era_shelf *eras;	/* or NULL */
	int top_ncpus;			/* what ncpus() said at the top level, or 0 */
	int *idle_threads;		/* refs of finished threads, kept for reuse */
	int nidle, capidle;

	/* the line each operation was called from, when the trace is
	 * stored (for the view); a context's line is noted when it changes */
	bool note_lines;
	struct km_srcline *lines;
	size_t nlines, caplines;
	int32_t *last_line;		/* per ctx id: last line noted, or 0 */
};

/* ncpus() at the top level (scenario.c): the count the run will have. */
int km_top_ncpus(lua_State *L);

static inline struct km_scenario *km_scen(lua_State *L)
{
	return (struct km_scenario *)km_sandbox_of(L);
}

/* api.c */
void km_api_register(lua_State *L);
void *km_check_handle(lua_State *L, int idx, enum km_htype type);
void km_push_handle(lua_State *L, enum km_htype type, uint32_t index);
void km_handles_register(lua_State *L);

/* scenario.c: make room for per-context host data up to ctx id */
int km_host_reserve(struct km_scenario *sc, uint32_t id);

#endif /* KM_LUA_HOST_H */
