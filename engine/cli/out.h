/*
 * out.h - stdout that cannot lose output silently.  See out.c.
 */
#ifndef KM_CLI_OUT_H
#define KM_CLI_OUT_H

/* At start-up: give closed standard descriptors a stand-in, so that no
 * file the program opens becomes its stdout. */
void km_out_guard_std_fds(void);

/**
 * km_out_finish - flush and close stdout and say whether all of it got
 * out.  Returns @status, or 2 (after a one-line message on stderr) if a
 * write to stdout failed at any time, its final flush or close failed, or
 * stdout was closed from the start.  An interrupted run keeps 130.
 */
int km_out_finish(int status);

#endif /* KM_CLI_OUT_H */
