/*
 * runner.h - many runs, in parallel processes, results in order.
 *
 * compare and explore need dozens or hundreds of independent runs.  Each
 * runs in a child process (fork), which sends its JSON report back over a
 * pipe; the parent keeps up to @jobs children going and files each result
 * under its index, so the output order never depends on which child
 * finished first.  A crash or budget overrun in one run is that run's
 * result, not the sweep's end.
 */
#ifndef KM_CLI_RUNNER_H
#define KM_CLI_RUNNER_H

#include "session.h"

struct km_run_result {
	int status;		/* exit status of the run: 0..3, or 2 if it crashed */
	json_t *report;		/* its JSON report (NULL if none came back) */
};

typedef void (*km_progress_fn)(int done, int total, void *ud);

/**
 * km_run_parallel - run @rqs[0..n) with at most @jobs at once (1: in this
 * process, one after the other).  Fills @out[i] for each i.
 * Returns 0, or -1 if the runs could not be started at all.
 */
int km_run_parallel(const struct km_era_list *eras, const struct km_run_request *rqs, int n,
		    int jobs, struct km_run_result *out, km_progress_fn progress, void *ud);

void km_run_results_free(struct km_run_result *r, int n);

/* The number of CPUs this machine has (the default for --jobs). */
int km_online_cpus(void);

/* In a worker just forked by @parent: die with it (see runner.c). */
void km_run_child_dies_with_parent(pid_t parent);

#endif /* KM_CLI_RUNNER_H */
