/*
 * report.h - what a run is reported as: JSON (section 4 of the scenario
 * contract, exactly), readable text, and /proc/lock_stat.
 *
 * Reports read the simulator through a const pointer after the run; they
 * never run anything.  The JSON report is described once (report_json.c)
 * in the order of the contract and either printed as it is described or
 * built as a jansson tree: the same bytes either way, so two runs with
 * the same inputs are byte-identical.
 */
#ifndef KM_REPORT_REPORT_H
#define KM_REPORT_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "../sim.h"
#include "records.h"

struct km_run_info {
	const char *scenario;		/* name, or the file when unknown */
	const char *title;
	const char *file;
	const struct km_era *era;	/* NULL when the run never got that far */
	const char *era_key;		/* what was asked for */
	int mode;
	int cpus;
	uint64_t seed;
	km_time duration;
	const struct km_sim *sim;	/* NULL when the run never started */
	enum km_outcome outcome;
	const char *reason;
	const struct km_check_result *checks;
	int nchecks;
	const struct km_param_info *params;
	int nparams;
	const struct km_srcline *lines;	/* the lines operations were called from */
	size_t nlines;			/* (when the trace was stored), time order */
	uint64_t scenario_hash;		/* of the file's bytes; valid if has_scenario_hash */
	bool has_scenario_hash;
	const char *schedule;		/* the schedule file replayed (run --schedule), or NULL */
};

/* The whole report as a jansson tree (NULL if memory ran out). */
json_t *km_report_json(const struct km_run_info *ri);
/**
 * km_report_print_json - write the report to @out, newline-terminated,
 * without building it: byte for byte km_report_write_json() of
 * km_report_json(), in a fraction of the time and memory.
 * Returns 0, or -1 if memory ran out or a write failed.
 */
int km_report_print_json(FILE *out, const struct km_run_info *ri);
/* Write @j as the report (one object, newline-terminated). */
int km_report_write_json(FILE *out, const json_t *j);

/*
 * The report for the checks, in two steps: km_report_json_small() is
 * the report without the top-level keys of km_report_grown_keys (locks,
 * cpus_util, tasks: the parts that grow with the machine), and
 * km_report_json_part() makes the value of one top-level key on its own
 * (NULL for an unknown key or when memory ran out).
 */
extern const char *const km_report_grown_keys[];
json_t *km_report_json_small(const struct km_run_info *ri);
json_t *km_report_json_part(const struct km_run_info *ri, const char *key);
void km_report_text(FILE *out, const struct km_run_info *ri);
void km_report_lockstat(FILE *out, const struct km_run_info *ri);
/* What of the run a homework sheet shows. */
struct km_sheet_opts {
	bool answers;			/* the values, the violations, the end */
	km_time from, to;		/* the operations in [from, to]; to 0: the end */
	bool from_lost;			/* the first lost update and around it */
	size_t steps;			/* at most this many lines; 0: all */
};

/* The lines a sheet around the first lost update shows when no --steps
 * is given: with its heading and questions, a printed page. */
#define KM_SHEET_LOST_STEPS 40

/**
 * km_report_interleaving() - the run as a homework sheet: one line per
 * operation (time, CPU, who, operation, the locks' state), the outcome
 * hidden unless @o->answers, in the window @o chooses
 * (report_interleaving.c).
 *
 * Return: 0, or -1 if the run kept no trace, memory ran out or a write
 * failed.
 */
int km_report_interleaving(FILE *out, const struct km_run_info *ri, const struct km_sheet_opts *o);

/* "1.23 us", "456 ns", "7.89 ms", "1.50 s" */
const char *km_fmt_ns(km_time ns, char *buf, size_t len);

/*
 * km_report_obj_name - the name of what @r's obj indexes, found in the
 * array its kind's namespace names (trace_kinds.h): a lock's, an
 * interrupt source's, a variable's, an atomic's, a counter's name, or a
 * log record's text.  NULL when the kind's obj names none of those, or
 * the index is out of range.
 */
const char *km_report_obj_name(const struct km_sim *sim, const struct km_trace_rec *r);

/* Who took @l how often: total, and the most and least among the tasks
 * that took it at all.  Returns the number of such tasks. */
uint32_t km_lock_fairness(const struct km_lock *l, uint64_t *total, uint64_t *max,
			  uint64_t *min);

/* Exit status of a finished run, by the contract: 0, 1, 2 or 3. */
int km_report_exit_status(const struct km_run_info *ri);

#endif /* KM_REPORT_REPORT_H */
