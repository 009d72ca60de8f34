/*
 * session.h - one run of one scenario, from a request to a finished report.
 *
 * The command line, the tour and the view all need the same sequence:
 * load the scenario's top level, choose the era (the request's, else the
 * scenario's, else the newest) and the CPU count, refuse what the era did
 * not have, build the machine, run it, evaluate the checks.  A session
 * does exactly that and nothing else: it prints nothing, so its callers
 * decide how to show success and failure.
 */
#ifndef KM_CLI_SESSION_H
#define KM_CLI_SESSION_H

#include <signal.h>

#include "../lua/eras.h"
#include "../lua/scenario.h"
#include "../report/report.h"

struct km_run_request {
	const char *file;
	const char *era;		/* NULL: the scenario's, else the newest */
	int mode;			/* KM_MODE_NATIVE or enum km_prim */
	int cpus;			/* 0: the scenario's, else the era's */
	uint64_t seed;
	bool has_seed;
	km_time duration;		/* 0: the scenario's, else 60 s */
	bool anachronism;
	struct km_param_set *sets;
	int nsets;
	uint64_t max_instructions;
	size_t max_memory;
	double max_wall;
	uint64_t max_events;
	bool store_trace;
	size_t trace_limit;		/* records kept at most; 0: all (the window: 8 Mi) */
	struct km_trace_sink *trace_sink;	/* every record, as emitted (--trace's spool) */
	bool check_only;		/* stop after building the machine */
	bool json_errors;		/* --report json: the watchdog's error is
					 * also a JSON object on stdout */
	/* A decision source at the run's choice points (engine/choice.h):
	 * a strategy of explore, a schedule file; NULL for the run's timing. */
	const struct km_chooser *chooser;
	km_time hold_max;		/* the chooser's hold bound; 0: none */
	const char *schedule_name;	/* the chooser's schedule file, for titles */
	/* Who chose the era and the CPU count, for messages: NULL, the
	 * options (--era, --cpus); else e.g. "FILE:LINE: era" of a schedule
	 * file, so that its own bad values are not blamed on options never
	 * given. */
	const char *era_said, *cpus_said;
};

/*
 * The largest --trace-limit: a bound on memory (32 bytes a record), not
 * on the run, which always goes on to its end with exact statistics and
 * trace hash; past the limit records are counted and hashed, not kept.
 */
#define KM_TRACE_LIMIT_MAX 1000000000000ULL

/* Set by the SIGINT/SIGTERM handler km_session_catch_signals installs;
 * runs stop at the next event or Lua hook, as errors "interrupted". */
extern volatile int km_interrupted;
/* Non-zero while an output file (a temporary to rename into place) is
 * being written: the one-second alarm after a first Ctrl-C then waits
 * for its writer, which reads km_interrupted and removes the temporary. */
extern volatile sig_atomic_t km_writing_output;
void km_session_catch_signals(void);
/* "lockmuseum: interrupted" on stderr, once per process, whoever says it
 * (the program on its way out, or the alarm after a Ctrl-C). */
void km_session_say_interrupted(void);
/*
 * The watchdog around Lua that is not a run (era files, `list`, the
 * tour's route): one library call outlasting @wall seconds, plus a grace,
 * ends the process with a message naming @file, and saying that --max-wall
 * sets @wall if @settable (`list`), else that it is fixed.  Returns whether
 * it was armed (not when a run's watchdog already is); pass that to disarm.
 */
bool km_watchdog_arm(const char *file, double wall, bool settable);
void km_watchdog_disarm(bool armed);

/* Defaults for every budget and bound. */
void km_run_request_init(struct km_run_request *rq);

struct km_session {
	struct km_scenario *sc;
	struct km_run_info ri;		/* what the reports read */
	char reason[1024];
};

/**
 * km_session_run - run @rq against the eras in @eras.
 * Returns the contract's exit status (0, 1, 2 or 3).  On 2, s->ri.outcome
 * is KM_OUT_ERROR or KM_OUT_NOT_APPLICABLE and s->ri.reason says why in
 * one line (file:line, or the option).  With check_only, returns 0 once
 * the machine is built, with s->ri.sim set and not run.
 */
int km_session_run(struct km_session *s, const struct km_era_list *eras,
		   const struct km_run_request *rq);
/* The same, with the eras on a shelf (lua/eras.h): only the era the run
 * needs is loaded, and every era only for a message that names others. */
int km_session_run_shelf(struct km_session *s, struct km_era_shelf *eras,
			 const struct km_run_request *rq);
void km_session_free(struct km_session *s);
/*
 * km_session_resumed - @s is about to go on from a snapshot of its run
 * (snapshot.h): its watchdog is armed again and its wall-clock budget
 * counts from now, as when a run starts.  The run then ends as any does.
 * Context: the explorer, before it resumes the run.
 */
void km_session_resumed(struct km_session *s, const struct km_run_request *rq);

/* The folder holding eras/, scripts/ and docs/: LOCKMUSEUM_DATA, else
 * next to the binary (a source tree or an install), else the configured
 * share folder. */
const char *km_datadir(void);

/*
 * km_scenario_path - the scenario a visitor named: @arg itself when it
 * exists, else the same name under the data folder's scripts/ (`run
 * inode.lua`, as `list` prints it; `run challenges/cli_smp.lua`), else
 * under the data folder (`run scripts/inode.lua` from any directory).
 * Returns @arg when none exists, so that the error names what was typed;
 * else the path found, in @buf.
 */
const char *km_scenario_path(const char *arg, char *buf, size_t len);
/* Every era of the data folder, loaded now (under the watchdog of era
 * files).  Returns 0, or -1 with "file:line: message" in @err. */
int km_load_eras(struct km_era_list *eras, char *err, size_t errlen);
/* The same, each file within @wall seconds instead of 10 (`list
 * --max-wall`). */
int km_load_eras_within(struct km_era_list *eras, double wall, char *err, size_t errlen);
/* The data folder's eras on a shelf, none loaded yet (lua/eras.h); and
 * every era of a shelf, loaded under the same watchdog. */
int km_open_eras(struct km_era_shelf *shelf, char *err, size_t errlen);
const struct km_era_list *km_all_eras(struct km_era_shelf *shelf, char *err, size_t errlen);

#endif /* KM_CLI_SESSION_H */
