/*
 * out.h - stdout that cannot lose output silently.  See out.c.
 */
#ifndef KM_CLI_OUT_H
#define KM_CLI_OUT_H

#include <stdbool.h>

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

/*
 * km_out_stdout_failed - a command found that its output (@what: "the
 * jobs", "the table") did not get to stdout (@err: the errno, 0 if not
 * known): one line on stderr, and km_out_finish() then says no more.
 */
void km_out_stdout_failed(const char *what, int err);

#endif /* KM_CLI_OUT_H */

/*
 * The JSON contract: with --report json, stdout is one JSON object for
 * every outcome.  km_cli_main sets km_out_json from the command line
 * before parsing it; whoever prints the object calls km_out_json_sent();
 * errors go through km_out_fail(), which prints the message on stderr
 * and keeps it; and km_out_json_fallback() prints
 * {"outcome": "error", "reason": that message} if nothing was sent.
 */
extern bool km_out_json;
void km_out_json_reset(bool json);
void km_out_json_sent(void);
bool km_out_json_was_sent(void);	/* async-signal-safe */
void km_out_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int km_out_json_fallback(int status);
