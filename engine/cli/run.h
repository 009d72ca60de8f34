/*
 * run.h - the commands run and check: one scenario, one run (or none),
 * reported the way --report asks, with the files --trace, --png and
 * --schedule name.
 */
#ifndef KM_CLI_RUN_H
#define KM_CLI_RUN_H

#include <stdbool.h>

struct options;

/*
 * km_cli_run - run (or, @check_only, load and validate) the scenario
 * @file with the options @o, print its report, write what --trace and
 * --png ask for.
 * Returns the exit status of the contract: 0 clean, 1 a check failed or
 * a violation was found, 2 bad input (said on stderr), 3 deadlock, 130
 * interrupted.
 * Context: the command line's thread; installs nothing (the caller has
 * caught the signals).
 */
int km_cli_run(const struct options *o, const char *file, bool check_only);

/* How a window's command ends: 130 on a signal, 2 (with the reason
 * @err) if the window could not run, else 0. */
int km_cli_window_exit(int rc, const char *err);

#endif
