/*
 * options.h - the command line's options, one table.
 *
 * Every option is one row of km_cli_options[] (options.c): its name, the
 * name of its value (none for a flag), the commands that take it, its
 * lines in --help, and where its value goes -- a field of struct options
 * for a plain flag or string, else a setter that checks the value.  From
 * that row come getopt_long's entry, the parse, the refusal of an option
 * a command does not take, and its lines in `lockmuseum --help`; the unit
 * test test_cli_options.c holds the man page's OPTIONS to the same table.
 * So an option is one row (and its field in struct options), as a
 * git builtin's is one OPT_*() line of its parse-options array.
 *
 * The options are parsed once, for all commands, into struct options;
 * a command then takes what it runs with from there.
 */
#ifndef KM_CLI_OPTIONS_H
#define KM_CLI_OPTIONS_H

#include "session.h"
#include "sweep.h"
#include "../report/report.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum report_kind { REPORT_TEXT, REPORT_JSON, REPORT_LOCKSTAT, REPORT_INTERLEAVING };

/* Which commands take an option: a command names one of these
 * (run and check take the same options). */
enum {
	KM_CMD_RUN = 1 << 0,		/* run, check */
	KM_CMD_TOUR = 1 << 1,
	KM_CMD_COMPARE = 1 << 2,
	KM_CMD_EXPLORE = 1 << 3,
	KM_CMD_PLAY = 1 << 4,
	KM_CMD_LIST = 1 << 5,
};

struct options {
	/* What a run is asked for: --era, --mode, --cpus, --seed,
	 * --duration, --anachronism, --set, the budgets, --trace-limit.
	 * Parsed straight into a request, so that its defaults are the
	 * session's (km_run_request_init) and nothing copies it field by
	 * field; rq.sets points into sets[]. */
	struct km_run_request rq;
	struct km_param_set sets[64];
	char set_names[64][130];	/* argv stays untouched: explore replays it */
	enum report_kind report;
	bool answers;			/* --report interleaving --answers */
	struct km_sheet_opts sheet;	/* its --answers, --from, --to, --steps */
	float scale;			/* --scale: type size in the window and PNGs */
	bool csv;
	const char *out_dir;
	const char *png;		/* run --png FILE */
	const char *trace;		/* run --trace FILE */
	bool ftrace;			/* --trace-format ftrace */
	int width, height;		/* --size WxH */
	bool gui;
	/* compare and explore */
	const char *modes, *eras, *cpus_list, *seeds, *goal, *plot, *markov;
	int jobs;
	/* compare's sweeps: --sets, --print-jobs, --slurm-array, --skip-done, --from */
	const char *sweep_sets[KM_SWEEP_MAX_PARAMS];
	int nsweep_sets;
	bool print_jobs, slurm;
	const char *skip_done, *from;
	const char *columns;		/* compare --columns */
	const char *strategy;		/* explore --strategy */
	const char *schedule;		/* run --schedule FILE */
	bool por, no_por;		/* explore --por, --no-por (the default) */
	const char *save;		/* play --gui --save FILE */
	uint64_t given;			/* bit i: km_cli_options[i] is on the line */
};

/* Where a row's value goes. */
enum km_cli_opt_kind {
	KM_OPT_FLAG,			/* no value: the bool at .field becomes true */
	KM_OPT_STRING,			/* the value, as is, into the const char * at .field */
	KM_OPT_CALLBACK,		/* .set checks the value and stores it */
};

struct km_cli_option {
	const char *name;		/* without its "--" */
	const char *arg;		/* its value's name in --help; NULL: a flag */
	unsigned cmds;			/* KM_CMD_*: the commands that take it */
	enum km_cli_opt_kind kind;
	size_t field;			/* KM_OPT_FLAG, KM_OPT_STRING: offsetof(struct options, ...) */
	/* KM_OPT_CALLBACK: 0, or an exit status with the error said.
	 * @lists: the command takes lists (compare, explore). */
	int (*set)(struct options *o, const char *arg, bool lists);
	/* Its entry under "options:" in --help: the left column (NULL:
	 * "--NAME ARG") and the text, lines split at '\n', where a "%s" is
	 * what .dflt writes.  .help NULL: not listed there (its command's
	 * line or another option's entry says it). */
	const char *usage;
	const char *help;
	void (*dflt)(char *buf, size_t len);
};

extern const struct km_cli_option km_cli_options[];
extern const int km_cli_noptions;

/*
 * km_cli_options_parse - parse @argv (the command's name first) into @o.
 * @lists: the command takes lists (--cpus 1,2,4; --report csv).
 *
 * Returns 0 to go on, -1 when --help was printed (exit 0), or an exit
 * status with its one-line error said.  optind is left after the last
 * option: getopt_long has moved the operands behind it.
 * Context: not reentrant (getopt's state is global).
 */
int km_cli_options_parse(int argc, char **argv, struct options *o, bool lists);

/* Was the option called @name given?  (@name must be in the table.) */
bool km_cli_option_given(const struct options *o, const char *name);

/*
 * km_cli_options_only - refuse an option that the command @cmd (a
 * KM_CMD_* bit) does not take: a teacher who types `tour --mode mutex`
 * or `compare --png x.png` must learn that nothing of the kind happened.
 * Returns 0, or 2 with the error said (the first such option in table
 * order, as --help lists them).
 */
int km_cli_options_only(const struct options *o, const char *name, unsigned cmd);

/* The "options:" part of --help, from the table. */
void km_cli_options_usage(FILE *out);

/* Printed, from the given order, as "--NAME VALUE: why" (exit 2). */
int km_cli_bad_option(const char *opt, const char *val, const char *why);

/* "1500", "10ms", "2s", "1.5us", "250ns" -> nanoseconds; 0 or -1. */
int km_cli_parse_duration(const char *s, km_time *out);

#endif
