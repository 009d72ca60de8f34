/*
 * cli.h - the command line as a function.
 *
 * km_cli_main() is the whole of lockmuseum's command line: it parses
 * argv, runs the command and returns the process's exit status (0, 1, 2,
 * 3 or 130, see lockmuseum(1)) instead of exiting, so that a test or a
 * fuzzer can call it again and again in one process.  It installs the
 * session's signal handlers, prints to stdout and stderr, and writes the
 * files the options name (--trace, --png, --plot, tour --out), relative
 * to the working directory.
 */
#ifndef KM_CLI_CLI_H
#define KM_CLI_CLI_H

int km_cli_main(int argc, char **argv);

#endif
