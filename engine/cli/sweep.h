/*
 * sweep.h - a sweep defined once: the combinations of compare, run here,
 * printed as jobs for GNU parallel or Slurm, or merged back from the
 * reports such jobs wrote.
 *
 * A sweep is eras x CPU counts x the values of each --sets parameter x
 * modes, each combination (a "cell", one row of compare's table) run
 * under every seed of --seeds.  Runs are numbered with the seed
 * innermost, then the mode, the parameters (the last given innermost),
 * the CPU count and the era: run r is seed r % nseeds of cell
 * r / nseeds, and a cell's number follows the order of the table.  The
 * numbering is the contract between `compare --print-jobs` (line r+1),
 * `compare --slurm-array` (task id r) and `compare --from`.
 *
 * sweep_plan.c parses and numbers the sweep, sweep_table.c turns runs
 * into the table's rows (seeds of one cell grouped), sweep_jobs.c prints
 * the jobs, sweep_merge.c reads reports back.
 */
#ifndef KM_CLI_SWEEP_H
#define KM_CLI_SWEEP_H

#include "session.h"

#define KM_SWEEP_MAX_PARAMS 8		/* --sets options */
#define KM_SWEEP_MAX_VALUES 64		/* values of one --sets */
#define KM_SWEEP_MAX_RUNS 1000000L

/* What the command line said; NULL or 0: not given. */
struct km_sweep_spec {
	const char *file;
	const char *modes;		/* "a,b": NULL: all six */
	const char *eras;		/* NULL: the scenario's */
	const char *cpus;		/* NULL: the scenario's */
	const char *seeds;		/* "A..B"; NULL: the base request's seed */
	const char *sets[KM_SWEEP_MAX_PARAMS];	/* "NAME=a,b,c" */
	int nsets;
	const struct km_run_request *base;
};

struct km_sweep_param {
	const char *name;
	const char *values[KM_SWEEP_MAX_VALUES];
	int nv;
};

struct km_sweep_plan {
	const char *file;
	const struct km_run_request *base;
	const char *eras[64];		/* era ids; ne == 0: the scenario's */
	int ne;
	int cpus[64];			/* nc == 0: the scenario's */
	int nc;
	int modes[16];
	int nm;
	bool modes_given;
	struct km_sweep_param params[KM_SWEEP_MAX_PARAMS];
	int np;
	uint64_t seed_lo, seed_hi;
	bool seeds_given;
	long ncells, nseeds, nruns;
	char *strings;			/* the copies the pointers above point into */
};

/* One run of the sweep. */
struct km_sweep_cell {
	const char *era;		/* NULL: the scenario's */
	int cpus;			/* 0: the scenario's */
	int mode;
	const char *values[KM_SWEEP_MAX_PARAMS];	/* of plan->params[i] */
	uint64_t seed;
	bool has_seed;
};

/**
 * km_sweep_plan_init - parse @s against the eras of @eras into @p.
 * Returns 0, or -1 with a one-line message (naming the option) in @err.
 * On success free @p with km_sweep_plan_free().
 */
int km_sweep_plan_init(struct km_sweep_plan *p, const struct km_sweep_spec *s,
		       const struct km_era_list *eras, char *err, size_t errlen);
void km_sweep_plan_free(struct km_sweep_plan *p);

/* Run @run (0 <= run < p->nruns) of the sweep. */
void km_sweep_cell_of(const struct km_sweep_plan *p, long run, struct km_sweep_cell *c);

/*
 * The request of run @run: the base request with the cell's era, CPUs,
 * mode, seed and parameters.  @sets must have room for base->nsets +
 * p->np entries; a swept parameter replaces a --set of the same name.
 */
void km_sweep_request(const struct km_sweep_plan *p, long run, struct km_run_request *rq,
		      struct km_param_set *sets);

/* The rank of mode @mode in "native,cli,bkl,spinlock,semaphore,mutex". */
int km_sweep_mode_rank(int mode);
/* Parse "A..B" (at most KM_SWEEP_MAX_RUNS seeds).  Returns 0 or -1. */
int km_sweep_parse_seeds(const char *s, uint64_t *lo, uint64_t *hi);
/* Two parameter values are the same: equal strings, or equal numbers. */
bool km_sweep_value_eq(const char *a, const char *b);
/* Order of two parameter values: numbers by value, before strings. */
int km_sweep_value_cmp(const char *a, const char *b);

/* ------------------------------------------------ rows: sweep_table.c -- */

/*
 * km_sweep_summarise - the table's figures of one run from its JSON
 * report @rep (NULL: the run crashed), as compare has always shown them,
 * plus the report's "params".  New reference.
 */
json_t *km_sweep_summarise(const json_t *rep, int status, const char *mode, const char *era,
			   int cpus);
/*
 * km_sweep_group - one row from the summaries @rows[0..n) of one cell's
 * seeds: means, with "seeds", "outcomes" and "spread" (min and max) at
 * the end.  New reference.
 */
json_t *km_sweep_group(json_t *const *rows, int n);
/*
 * km_sweep_table - the table compare prints, from grouped @rows (stolen):
 * "params" kept only for the parameters that differ between rows, and
 * "seeds", "outcomes", "spread" only when some row has several seeds.
 */
json_t *km_sweep_table(const char *scenario, const char *file, json_t *rows);
/* The contract's exit status of a report (0..3), for reports read back. */
int km_sweep_report_status(const json_t *rep);
/*
 * km_sweep_sat_round - @d rounded to a whole number, saturated to the
 * range of json_int_t (NaN: 0).  A mean of reports' figures is summed in
 * double, and two seeds of INT64_MAX average to 2^63, which llround()
 * cannot return.
 */
json_int_t km_sweep_sat_round(double d);

/* ------------------------------------------------- jobs: sweep_jobs.c -- */

struct km_sweep_jobs_opts {
	const char *out_dir;		/* where each job writes its report */
	const char *skip_done;		/* leave out the jobs whose report is there */
	bool slurm;			/* a job-array script, not one line a job */
};

/* Print the jobs of @p to stdout.  Returns 0, or 2 with a line on stderr. */
int km_sweep_print_jobs(const struct km_sweep_plan *p, const struct km_sweep_jobs_opts *o);

/* ----------------------------------------------- merge: sweep_merge.c -- */

struct km_sweep_merge_opts {
	char **paths;			/* report files or folders of them */
	int npaths;
	const struct km_sweep_spec *select;	/* modes, eras...: select and order */
	bool select_seed;		/* --seed S: only that seed */
	uint64_t seed;
};

/**
 * km_sweep_merge - the table of reports written anywhere.
 * Returns the table (new reference) with *@nruns the number of runs in
 * it, or NULL with a one-line message in @err (a file that cannot be
 * read, is not a report, or disagrees with another: both named).
 */
json_t *km_sweep_merge(const struct km_sweep_merge_opts *o, const struct km_era_list *eras,
		       int *nruns, char *err, size_t errlen);

#endif /* KM_CLI_SWEEP_H */
