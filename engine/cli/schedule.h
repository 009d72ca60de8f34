/*
 * schedule.h - a schedule file: the decisions of one run, to replay it.
 *
 * `explore --strategy` saves the decisions of the run that reached its
 * goal; `run FILE --schedule S` replays them, byte for byte.  The format
 * (docs/scenarios.md, "Schedule files") is versioned text, one decision
 * a line, under a header that names the scenario (with the hash of its
 * bytes, so that a schedule is never applied to an edited file), the era,
 * mode, CPU count and seed of the run, the scenario parameters it was
 * run with (each `set NAME=VALUE` that differs from the default), and the
 * strategy that found it.
 *
 * A decision is (choice point, task, task it let go first), by index and
 * task id: choice points are numbered in the order of the run, and task
 * ids are the declaration order (spawned tasks after, in spawn order), so
 * both are the same in every replay of the same file and options.
 */
#ifndef KM_CLI_SCHEDULE_H
#define KM_CLI_SCHEDULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../choice.h"
#include "../km.h"
#include "../lua/scenario.h"	/* struct km_param_set */
#include "../report/records.h"	/* struct km_param_info */

#define KM_SCHEDULE_VERSION 1
/* More decisions than any shrunk schedule needs, few enough to read. */
#define KM_SCHEDULE_MAX 100000
/* The longest hold bound a schedule (and --hold-max) may give: 60 s. */
#define KM_SCHEDULE_HOLD_LIMIT 60000000000LL
/* Parameters a schedule keeps at most: as many as --set takes. */
#define KM_SCHEDULE_MAX_SETS 64

struct km_decision {
	uint32_t index;			/* the choice point */
	uint32_t ctx;			/* the task held there */
	uint32_t other;			/* the task it let go first, or an
					 * interrupt source's id | KM_CHOICE_IRQ */
};

struct km_schedule {
	char scenario[129];
	uint64_t scenario_hash;
	char era[32];
	char mode[16];
	int cpus;
	uint64_t seed;			/* 0 to INT64_MAX, as everywhere */
	char strategy[96];		/* "pct:2 seed 17", informative */
	int era_line, cpus_line;	/* where the file said them (read files) */
	km_time hold_max;		/* the holds' bound (explore --hold-max);
					 * 0: none ("hold-max none"); a file with
					 * no such line: KM_HOLD_MAX, as then */
	/* for the comments km_schedule_write adds: source id -> name */
	const char *const *irq_names;
	int nirq_names;
	/* the parameters the run was made with (owned: name and value
	 * allocated), in the file's order; a replay runs with them */
	struct km_param_set *sets;
	int nsets;
	struct km_decision *d;
	int n, cap;
};

int km_schedule_push(struct km_schedule *s, const struct km_decision *d);

/**
 * km_schedule_keep_params - keep in @s each of the @n parameters @p of a
 * run whose value is not its default, as "set NAME=VALUE".
 * Returns 0, or -1 with a one-line reason in @err: out of memory, too
 * many, or a name or value a schedule line cannot hold (blanks, control
 * bytes).
 */
int km_schedule_keep_params(struct km_schedule *s, const struct km_param_info *p, int n,
			    char *err, size_t errlen);
void km_schedule_free(struct km_schedule *s);

/**
 * km_schedule_read - parse the schedule file @path into @s.
 * Returns 0, or -1 with "path:line: what is wrong" in @err (one line).
 * Safe on any input: sizes, numbers and order are checked.
 */
int km_schedule_read(const char *path, struct km_schedule *s, char *err, size_t errlen);

/*
 * km_schedule_write - save @s as @path (through out_file.c: atomically,
 * never through a planted link).  @names gives each task id's name and
 * @lines the scenario line of each decision (0: none) for the comments;
 * either may be NULL.  Returns 0, or -1 with @err.
 */
int km_schedule_write(const char *path, const struct km_schedule *s,
		      const char *const *names, int nnames, const int *lines,
		      char *err, size_t errlen);

/*
 * A replay: the chooser that applies @s's decisions, strictly -- a
 * decision that does not fit the run (another task steps at its choice
 * point, the task to let go cannot) ends the run with an error.  It
 * starts over at choice point 0, so one replay serves several runs.
 */
struct km_replay {
	const struct km_schedule *s;
	const char *path;
	int next;			/* the next decision to apply */
	uint32_t points;		/* choice points seen */
	struct km_chooser chooser;
};

void km_replay_init(struct km_replay *r, const struct km_schedule *s, const char *path);

/* After the run: did it reach every decision?  0, or -1 with @err. */
int km_replay_finished(const struct km_replay *r, char *err, size_t errlen);

#endif /* KM_CLI_SCHEDULE_H */
