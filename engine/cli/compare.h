/*
 * compare.h - `lockmuseum compare` and `lockmuseum explore`.
 */
#ifndef KM_CLI_COMPARE_H
#define KM_CLI_COMPARE_H

#include "session.h"
#include "sweep.h"

enum km_table_format { KM_TABLE_TEXT, KM_TABLE_JSON, KM_TABLE_CSV };

struct km_compare_opts {
	const struct km_sweep_spec *spec;	/* the sweep: file, modes, eras, ... */
	enum km_table_format format;
	int jobs;
	const char *plot;		/* PNG path, or NULL */
	const char *markov;		/* --markov A,S,C: the model beside the table, or NULL */
	const char *columns;		/* --columns: the text table's, in order; NULL: all
					 * that fit $COLUMNS (else 100) */
	/* --print-jobs / --slurm-array: print the sweep's jobs, run nothing */
	const struct km_sweep_jobs_opts *jobs_out;
	/* --from: the table of reports written elsewhere, run nothing */
	const struct km_sweep_merge_opts *from;
};

/* Returns 0 when every combination ran (whatever it found), 2 on bad
 * usage or when a run could not start. */
int km_compare_command(const struct km_compare_opts *o);

/*
 * km_compare_print - print @table (rows of km_sweep_table) as @format,
 * the text table's @columns (NULL: all that fit), and draw it into @plot
 * if not NULL.  @merged: the rows are reports read with --from, shown
 * as they are even when every one is the same error.  Returns 0, or 2
 * when a write failed or a row is an error (said on stderr).
 */
int km_compare_print(json_t *table, enum km_table_format format, int nruns,
		     const char *plot, const char *columns, bool merged);

/*
 * km_compare_markov - add to @table, as "model", the Markov model of a
 * ticket spinlock (report/markov.h) at each of its CPU counts, from
 * @spec, "A,S,C" in ns: the mean work outside the lock, the serial
 * section, one line transfer.  The text table prints it under the rows,
 * the JSON form holds it, --plot draws it beside the runs.  Returns 0, or
 * -1 with @err when @spec is not three such numbers.
 */
int km_compare_markov(json_t *table, const char *spec, char *err, size_t errlen);

struct km_explore_opts {
	const char *file;
	uint64_t seed_lo, seed_hi;
	const char *goal;		/* "violation", "deadlock", "max:ops.NAME.p99" */
	const struct km_run_request *base;
	int jobs;
	int argc;			/* the original command line, to build the replay */
	char **argv;
	/* --strategy: search schedules (explore_schedules.c), not seeds */
	const char *strategy;
	const char *out;		/* the schedule file to save; NULL: NAME.schedule */
	bool por;			/* exhaustive: --por, skip commuting last holds */
};

/* Returns 0 when a seed hits the goal (or, for max:, always), 1 when none
 * does, 2 on bad usage. */
int km_explore_command(const struct km_explore_opts *o);

#endif /* KM_CLI_COMPARE_H */
