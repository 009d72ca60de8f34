/*
 * scenario.h - a scenario file, loaded, instantiated and run.
 *
 * Three phases, each a function here:
 *  1. km_scenario_load: run the file's top level in the sandbox.  The
 *     declarations (scenario{}, lock{}, task{}, ...) are recorded, not yet
 *     built: the era, CPU count and mode come from the file *and* the
 *     command line, and are only known once the top level has run.
 *  2. km_scenario_instantiate: build the simulator for a chosen era and
 *     configuration, creating the objects in declaration order (so a
 *     handle's index is its object's index).
 *  3. km_scenario_run, then km_scenario_checks with the report.
 * The scenario is the simulator's host: it implements struct
 * km_host_ops, one Lua coroutine per task and per interrupt-handler
 * invocation.
 */
#ifndef KM_LUA_SCENARIO_H
#define KM_LUA_SCENARIO_H

#include "../report/records.h"
#include "../sim.h"

struct km_scenario;

struct km_param_set {
	const char *name;
	const char *value;
	bool used;
};

struct km_era_shelf;

struct km_load_opts {
	struct km_param_set *sets;	/* --set NAME=VALUE */
	int nsets;
	uint64_t max_instructions;
	size_t max_memory;
	double max_wall;
	uint64_t seed;			/* for math.random at the top level */
	bool seed_given;		/* --seed: scenario{ seed } does not override */
	volatile const int *stop;	/* interrupt flag, or NULL */
	/* What decides the CPU count, for ncpus() at the top level: --cpus
	 * (0: not given), --era (NULL: not given) and the eras to look the
	 * scenario's era up in (NULL: ncpus() needs --cpus or scenario{cpus};
	 * a shelf loads the one era ncpus() asks for, lua/eras.h). */
	int cpus;
	const char *era;
	struct km_era_shelf *eras;
};

struct km_scenario_meta {
	char name[129];
	char title[256];
	char era[32];
	char description[1024];
	int cpus;			/* 0: not given */
	km_time duration;		/* 0: not given */
	uint64_t seed;
	bool has_seed;
	/* scenario{ bkl = ... }: what the BKL is made of in this run, a
	 * what-if over the era's own (era.bkl_lock); "era" or absent: the
	 * era's. */
	bool bkl_given;
	enum km_bkl_flavour bkl_lock;
};

/**
 * km_scenario_load - read and run the top level of @path.
 * Returns NULL with a one-line "file:line: message" in @err.
 */
struct km_scenario *km_scenario_load(const char *path, const struct km_load_opts *o,
				     char *err, size_t errlen);
void km_scenario_free(struct km_scenario *sc);
/*
 * km_scenario_wall_restart - the wall-clock budget of @sc (its load and
 * its run) counts from now: for a run resumed from a snapshot, whose
 * clock started when the snapshot's run did.
 * Context: between two runs of the explorer (cli/snapshot.h).
 */
void km_scenario_wall_restart(struct km_scenario *sc);
/* How many check{}s @sc declared (none: km_scenario_checks has nothing
 * to read, and its report need not be built). */
int km_scenario_check_count(const struct km_scenario *sc);

const struct km_scenario_meta *km_scenario_meta(const struct km_scenario *sc);
int km_scenario_params(const struct km_scenario *sc, const struct km_param_info **out);
/* The FNV-1a 64 of the scenario file's bytes (see km_sandbox_loadfile). */
uint64_t km_scenario_source_hash(const struct km_scenario *sc);

/* Kinds of the declared locks (to check an era before instantiating). */
int km_scenario_lock_kinds(const struct km_scenario *sc, enum km_prim *kinds,
			   bool *pinned, int max);

/**
 * km_scenario_instantiate - build the run.  Returns the simulator (owned
 * by the scenario) or NULL with @err.
 */
struct km_sim *km_scenario_instantiate(struct km_scenario *sc, const struct km_era *era,
				       const struct km_config *cfg, char *err, size_t errlen);

/*
 * The line of the scenario file where task @ctx stands: the line of the
 * operation it is waiting in (its next step starts right after it), the
 * first line of its body before it started; 0 when unknown.
 * Context: the host, between two steps of the run (a chooser may ask).
 */
int km_scenario_ctx_line(const struct km_scenario *sc, const struct km_ctx *ctx);

/*
 * As km_scenario_ctx_line, and whether the task has started: true when
 * the line is that of an operation it has done (its next step runs the
 * code after it), false when it is the first line of its body.
 * Context: as km_scenario_ctx_line.
 */
int km_scenario_ctx_where(const struct km_scenario *sc, const struct km_ctx *ctx, bool *started);

/*
 * The line where a handler of interrupt source @src of @sim stands: the
 * line of the operation a running handler waits in, else the first line
 * of the handler function; 0 when unknown.
 * Context: as km_scenario_ctx_line.
 */
int km_scenario_irq_line(const struct km_scenario *sc, const struct km_sim *sim,
			 const struct km_irqsrc *src);

/* Run to the end.  Returns 0 or -1 with @err ("file:line: ..." where known). */
int km_scenario_run(struct km_scenario *sc, char *err, size_t errlen);

/* The lines of the scenario file its contexts called operations from,
 * in time order (noted only when the run stored its trace; else none).
 * Valid until the scenario is freed. */
const struct km_srcline *km_scenario_lines(const struct km_scenario *sc, size_t *n);

/*
 * The report as the checks see it: @small, a jansson object (json_t *,
 * passed as void * to keep jansson out of this header), and the top-level
 * keys @lazy (NULL-terminated, or NULL) that are made by @part -- a new
 * json_t reference, NULL if memory ran out -- only when a check reads
 * them.  A report of 100,000 tasks then costs nothing to a check that
 * reads r.counters.
 */
struct km_check_report {
	const void *small;
	const char *const *lazy;
	void *(*part)(void *ud, const char *key);
	void *ud;
};

/**
 * km_scenario_checks - evaluate the check()s against @report.
 * Returns 0 with the results, or -1 with @err if a check itself failed to
 * run (an error, not a failed check).
 *
 * NOTE: a lazy key is in the table once a check has read it through
 * r.KEY (or iterated r with pairs()); before that, next() and rawget()
 * do not see it.
 */
int km_scenario_checks(struct km_scenario *sc, const struct km_check_report *report,
		       const struct km_check_result **out, int *n, char *err, size_t errlen);

#endif /* KM_LUA_SCENARIO_H */
