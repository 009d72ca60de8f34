/*
 * main.c - the lockmuseum command line.
 *
 *   lockmuseum                        the museum: the window on the tour, or
 *                                     the headless tour where there is no display
 *   lockmuseum run FILE [options]     replay one scenario, print its report
 *   lockmuseum check FILE [options]   load and validate only
 *   lockmuseum list                   scenarios, eras, modes
 *   lockmuseum tour [options]         every exhibit of scripts/tour.lua
 *   lockmuseum compare FILE [options] one run per combination, one table
 *   lockmuseum compare --from DIR...  the same table, of reports run anywhere
 *   lockmuseum explore FILE [options] the first seed that reaches a goal
 *   lockmuseum play FILE [options]    the player chooses the interleaving
 *   lockmuseum --help | --version
 *
 * The commands are a table, as a luaL_Reg is: each entry names the
 * command, its handler, the options it accepts and its help line.  The
 * options are parsed once, for all commands, into struct options; an
 * option the command does not accept is an error, not silently dropped.
 * A handler copies the options it runs with into a km_run_request in one
 * place (request_from).  Every default is in ../defaults.h.  To give a
 * command a new option: a field in struct options, an OPT_ value, a line
 * in long_opts and parse_options, and the OPT_ in the command's list.
 *
 * Everything a run needs is decided in the session, in this order, each
 * with a one-line error and exit 2 when it cannot be: the data folder
 * (eras, scripts), the scenario's top level (declarations, --set), the
 * era (--era, else the scenario's, else the newest), the CPU count, the
 * mode and whether the era had that primitive.  Then the run, the
 * report, the checks, and the exit status of the contract: 0 clean, 1 a
 * check failed or a violation was found, 2 bad input, 3 deadlock.
 *
 * With --report json, stdout is one JSON object whatever happens: an
 * error is reported as {"outcome": "error", "reason": ...}.
 *
 * Everything is in km_cli_main(), which returns the exit status and never
 * calls exit(): main() is only its caller, and the command-line fuzzer
 * calls it directly, many times in one process (build with
 * -DKM_CLI_NO_MAIN to leave main() out).
 */
#include "cli.h"
#include "../defaults.h"
#include "../lua/sandbox.h"
#include "session.h"
#include "play.h"
#include "tour_cmd.h"
#include "view_cli.h"
#include "view_lib.h"
#include "../report/out_file.h"
#include "../report/trace_export.h"
#include "../report/trace_spool.h"
#include "../lua/tour.h"
#include "compare.h"
#include "schedule.h"
#include "runner.h"
#include "run_out.h"
#include "out.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef KM_VERSION
#define KM_VERSION "0.1.0"
#endif

enum report_kind { REPORT_TEXT, REPORT_JSON, REPORT_LOCKSTAT, REPORT_INTERLEAVING };

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
	bool no_por;			/* explore --no-por */
	const char *save;		/* play --gui --save FILE */
	uint64_t given;			/* bit (OPT_x - OPT_FIRST): options present */
};

static const char *prog = "lockmuseum";

struct command;
static void usage(FILE *out);

/* ------------------------------------------------------------- parsing -- */

/* A number starts with a digit: strtoull and strtod would also take
 * leading blanks, a sign (' -1' is 2^64 - 1 to strtoull), "inf" and hex. */
static bool starts_number(const char *s)
{
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return false;	/* no hex floats */
	return (*s >= '0' && *s <= '9') || (*s == '.' && s[1] >= '0' && s[1] <= '9');
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	if (!(*s >= '0' && *s <= '9'))
		return -1;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

/* "1500", "10ms", "2s", "1.5us", "250ns" -> nanoseconds */
static int parse_duration(const char *s, km_time *out)
{
	char *end;
	errno = 0;
	if (!starts_number(s))
		return -1;
	double v = strtod(s, &end);
	if (end == s || errno || !isfinite(v) || v < 0)
		return -1;
	double mult = 1;
	if (!strcmp(end, "") || !strcmp(end, "ns"))
		mult = 1;
	else if (!strcmp(end, "us"))
		mult = 1e3;
	else if (!strcmp(end, "ms"))
		mult = 1e6;
	else if (!strcmp(end, "s"))
		mult = 1e9;
	else
		return -1;
	v *= mult;
	if (v > (double)KM_TIME_MAX || v < 1)
		return -1;
	*out = (km_time)llround(v);
	return 0;
}

static int parse_bytes(const char *s, size_t *out)
{
	char *end;
	errno = 0;
	if (!(*s >= '0' && *s <= '9'))
		return -1;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	unsigned long long mult = 1;
	if (!strcmp(end, "K") || !strcmp(end, "KiB"))
		mult = 1ULL << 10;
	else if (!strcmp(end, "M") || !strcmp(end, "MiB"))
		mult = 1ULL << 20;
	else if (!strcmp(end, "G") || !strcmp(end, "GiB"))
		mult = 1ULL << 30;
	else if (*end)
		return -1;
	if (v > (1ULL << 40) / mult)
		return -1;
	*out = (size_t)(v * mult);
	return 0;
}

static int bad_option(const char *opt, const char *val, const char *why)
{
	km_out_fail("%s%s%s: %s", opt, val ? " " : "", val ? val : "", why);
	return 2;
}

enum {
	OPT_FIRST = 256, OPT_ERA = OPT_FIRST, OPT_MODE, OPT_CPUS, OPT_SEED, OPT_DURATION, OPT_ANACHRONISM,
	OPT_SET, OPT_MAXI, OPT_MAXM, OPT_MAXW, OPT_MAXE, OPT_REPORT, OPT_TRACE, OPT_PNG,
	OPT_GUI, OPT_OUT, OPT_SIZE, OPT_TRACE_FORMAT, OPT_MODES, OPT_ERAS, OPT_SEEDS, OPT_GOAL, OPT_JOBS, OPT_PLOT, OPT_MARKOV,
	OPT_TRACE_LIMIT, OPT_SETS, OPT_PRINT_JOBS, OPT_SLURM, OPT_SKIP_DONE, OPT_FROM,
	OPT_ANSWERS, OPT_SCALE, OPT_STRATEGY, OPT_SCHEDULE, OPT_HOLD_MAX, OPT_NO_POR, OPT_SAVE,
	OPT_TO, OPT_STEPS, OPT_COLUMNS,
};

static const struct option long_opts[] = {
	{"era", required_argument, NULL, OPT_ERA},
	{"mode", required_argument, NULL, OPT_MODE},
	{"cpus", required_argument, NULL, OPT_CPUS},
	{"seed", required_argument, NULL, OPT_SEED},
	{"duration", required_argument, NULL, OPT_DURATION},
	{"anachronism", no_argument, NULL, OPT_ANACHRONISM},
	{"set", required_argument, NULL, OPT_SET},
	{"max-instructions", required_argument, NULL, OPT_MAXI},
	{"max-memory", required_argument, NULL, OPT_MAXM},
	{"max-wall", required_argument, NULL, OPT_MAXW},
	{"max-events", required_argument, NULL, OPT_MAXE},
	{"report", required_argument, NULL, OPT_REPORT},
	{"trace", required_argument, NULL, OPT_TRACE},
	{"png", required_argument, NULL, OPT_PNG},
	{"gui", no_argument, NULL, OPT_GUI},
	{"out", required_argument, NULL, OPT_OUT},
	{"size", required_argument, NULL, OPT_SIZE},
	{"trace-format", required_argument, NULL, OPT_TRACE_FORMAT},
	{"trace-limit", required_argument, NULL, OPT_TRACE_LIMIT},
	{"modes", required_argument, NULL, OPT_MODES},
	{"eras", required_argument, NULL, OPT_ERAS},
	{"seeds", required_argument, NULL, OPT_SEEDS},
	{"goal", required_argument, NULL, OPT_GOAL},
	{"jobs", required_argument, NULL, OPT_JOBS},
	{"plot", required_argument, NULL, OPT_PLOT},
	{"markov", required_argument, NULL, OPT_MARKOV},
	{"sets", required_argument, NULL, OPT_SETS},
	{"print-jobs", no_argument, NULL, OPT_PRINT_JOBS},
	{"slurm-array", no_argument, NULL, OPT_SLURM},
	{"skip-done", required_argument, NULL, OPT_SKIP_DONE},
	{"from", required_argument, NULL, OPT_FROM},
	{"answers", no_argument, NULL, OPT_ANSWERS},
	{"scale", required_argument, NULL, OPT_SCALE},
	{"strategy", required_argument, NULL, OPT_STRATEGY},
	{"schedule", required_argument, NULL, OPT_SCHEDULE},
	{"hold-max", required_argument, NULL, OPT_HOLD_MAX},
	{"no-por", no_argument, NULL, OPT_NO_POR},
	{"save", required_argument, NULL, OPT_SAVE},
	{"to", required_argument, NULL, OPT_TO},
	{"steps", required_argument, NULL, OPT_STEPS},
	{"columns", required_argument, NULL, OPT_COLUMNS},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

/* Returns 0 to go on, -1 when done (--help printed), or an exit status. */
static int parse_options(int argc, char **argv, struct options *o, bool lists)
{
	memset(o, 0, sizeof(*o));
	km_run_request_init(&o->rq);
	o->rq.sets = o->sets;
	opterr = 0;
	/* 0, not 1: glibc (and musl) then start getopt afresh.  With 1 it
	 * goes on inside the word it stopped in last time -- after "-xy" its
	 * "y", in an argv that may be gone: the state one km_cli_main call
	 * left for the next (found by fuzz_cli, which calls it over and over). */
	optind = 0;
	int c;
	while ((c = getopt_long(argc, argv, "h", long_opts, NULL)) != -1) {
		uint64_t u;
		if (c >= OPT_FIRST && c - OPT_FIRST < 64)
			o->given |= 1ULL << (c - OPT_FIRST);
		switch (c) {
		case OPT_ERA:
			o->rq.era = optarg;
			break;
		case OPT_MODE:
			o->rq.mode = km_mode_parse(optarg);
			if (o->rq.mode == -2)
				return bad_option("--mode", optarg, "unknown mode (modes: native, "
						  "cli, bkl, spinlock, semaphore, mutex)");
			break;
		case OPT_CPUS:
			if (lists) {
				o->cpus_list = optarg;
				break;
			}
			if (parse_u64(optarg, &u) < 0 || u < 1 || u > KM_MAX_CPUS) {
				char why[64];
				snprintf(why, sizeof(why), "must be a whole number from 1 to %d",
					 KM_MAX_CPUS);
				return bad_option("--cpus", optarg, why);
			}
			o->rq.cpus = (int)u;
			break;
		case OPT_SEED:
			if (parse_u64(optarg, &o->rq.seed) < 0 || o->rq.seed > INT64_MAX)
				return bad_option("--seed", optarg, KM_SEED_RANGE_SAYS);
			o->rq.has_seed = true;
			break;
		case OPT_DURATION:
			if (parse_duration(optarg, &o->rq.duration) < 0)
				return bad_option("--duration", optarg, "must be a positive duration: "
						  "ns, or 500us, 10ms, 2s");
			break;
		case OPT_ANACHRONISM:
			o->rq.anachronism = true;
			break;
		case OPT_SET: {
			char *eq = strchr(optarg, '=');
			if (!eq || eq == optarg)
				return bad_option("--set", optarg, "must be NAME=VALUE");
			if (o->rq.nsets == (int)(sizeof(o->sets) / sizeof(o->sets[0])))
				return bad_option("--set", optarg, "too many --set options");
			if ((size_t)(eq - optarg) >= sizeof(o->set_names[0]))
				return bad_option("--set", optarg, "the name is too long");
			memcpy(o->set_names[o->rq.nsets], optarg, (size_t)(eq - optarg));
			o->set_names[o->rq.nsets][eq - optarg] = 0;
			o->sets[o->rq.nsets].name = o->set_names[o->rq.nsets];
			o->sets[o->rq.nsets].value = eq + 1;
			o->rq.nsets++;
			break;
		}
		case OPT_MAXI:
			if (parse_u64(optarg, &o->rq.max_instructions) < 0 ||
			    o->rq.max_instructions < 1000)
				return bad_option("--max-instructions", optarg,
						  "must be a whole number, at least 1000");
			break;
		case OPT_MAXM:
			if (parse_bytes(optarg, &o->rq.max_memory) < 0 || o->rq.max_memory < (64u << 10))
				return bad_option("--max-memory", optarg,
						  "must be a size of at least 64K (K, M, G suffixes)");
			break;
		case OPT_MAXW: {
			char *end;
			o->rq.max_wall = starts_number(optarg) ? strtod(optarg, &end) : 0;
			if (!starts_number(optarg) || *end || !isfinite(o->rq.max_wall) ||
			    o->rq.max_wall <= 0)
				return bad_option("--max-wall", optarg, "must be a positive number of seconds");
			break;
		}
		case OPT_MAXE:
			if (parse_u64(optarg, &o->rq.max_events) < 0 || o->rq.max_events < 1)
				return bad_option("--max-events", optarg, "must be a positive whole number");
			break;
		case OPT_REPORT:
			if (!strcmp(optarg, "text"))
				o->report = REPORT_TEXT;
			else if (!strcmp(optarg, "json"))
				o->report = REPORT_JSON;
			else if (!strcmp(optarg, "lockstat") && !lists)
				o->report = REPORT_LOCKSTAT;
			else if (!strcmp(optarg, "interleaving") && !lists)
				o->report = REPORT_INTERLEAVING;
			else if (!strcmp(optarg, "csv") && lists)
				o->csv = true;
			else
				return bad_option("--report", optarg, lists ?
						  "must be text, json or csv" :
						  "must be text, json, lockstat or interleaving");
			break;
		case OPT_TRACE:
			o->trace = optarg;
			break;
		case OPT_TRACE_FORMAT:
			if (!strcmp(optarg, "chrome") || !strcmp(optarg, "json"))
				o->ftrace = false;
			else if (!strcmp(optarg, "ftrace"))
				o->ftrace = true;
			else
				return bad_option("--trace-format", optarg, "must be chrome or ftrace");
			break;
		case OPT_TRACE_LIMIT:
			if (parse_u64(optarg, &u) < 0 || u < 1 || u > KM_TRACE_LIMIT_MAX)
				return bad_option("--trace-limit", optarg, "must be a whole number of "
						  "records from 1 to 1000000000000");
			o->rq.trace_limit = (size_t)u;
			break;
		case OPT_PNG:
			o->png = optarg;
			break;
		case OPT_SIZE: {
			unsigned w, h;
			char x;
			if (strspn(optarg, "0123456789xX") != strlen(optarg) ||
			    sscanf(optarg, "%u%c%u", &w, &x, &h) != 3 || (x != 'x' && x != 'X') ||
			    w < 320 || h < 240 || w > 8192 || h > 8192)
				return bad_option("--size", optarg, "must be WIDTHxHEIGHT, from 320x240 "
						  "to 8192x8192");
			o->width = (int)w;
			o->height = (int)h;
			break;
		}
		case OPT_OUT:
			o->out_dir = optarg;
			break;
		case OPT_MODES:
			o->modes = optarg;
			break;
		case OPT_ERAS:
			o->eras = optarg;
			break;
		case OPT_SEEDS:
			o->seeds = optarg;
			break;
		case OPT_GOAL:
			o->goal = optarg;
			break;
		case OPT_PLOT:
			o->plot = optarg;
			break;
		case OPT_MARKOV:
			o->markov = optarg;
			break;
		case OPT_SETS:
			if (o->nsweep_sets == KM_SWEEP_MAX_PARAMS)
				return bad_option("--sets", optarg, "at most 8 swept parameters");
			o->sweep_sets[o->nsweep_sets++] = optarg;
			break;
		case OPT_PRINT_JOBS:
			o->print_jobs = true;
			break;
		case OPT_SLURM:
			o->slurm = true;
			break;
		case OPT_SKIP_DONE:
			o->skip_done = optarg;
			break;
		case OPT_FROM:
			o->from = optarg;
			break;
		case OPT_STRATEGY:
			o->strategy = optarg;
			break;
		case OPT_SCHEDULE:
			o->schedule = optarg;
			break;
		case OPT_NO_POR:
			o->no_por = true;
			break;
		case OPT_HOLD_MAX:
			if (parse_duration(optarg, &o->rq.hold_max) < 0 ||
			    o->rq.hold_max > KM_SCHEDULE_HOLD_LIMIT)
				return bad_option("--hold-max", optarg, "must be a duration from 1 ns "
						  "to 60s: ns, or 500us, 10ms, 2s");
			break;
		case OPT_SAVE:
			o->save = optarg;
			break;
		case OPT_JOBS:
			if (parse_u64(optarg, &u) < 0 || u < 1 || u > 256)
				return bad_option("--jobs", optarg, "must be a whole number from 1 to 256");
			o->jobs = (int)u;
			break;
		case OPT_GUI:
			o->gui = true;
			break;
		case OPT_ANSWERS:
			o->answers = true;
			break;
		case OPT_COLUMNS:
			if (!*optarg || strlen(optarg) > 500)
				return bad_option("--columns", optarg, "must name columns, e.g. "
						  "mode,cpus,outcome,time,acq/s");
			o->columns = optarg;
			break;
		case OPT_TO:
			if (parse_duration(optarg, &o->sheet.to) < 0)
				return bad_option("--to", optarg, "must be a time in the run: ns, or "
						  "with a unit: 500us, 10ms, 2s");
			break;
		case OPT_STEPS: {
			uint64_t v;
			if (parse_u64(optarg, &v) < 0 || v < 1 || v > 100000000)
				return bad_option("--steps", optarg, "must be a number of lines "
						  "from 1 to 100000000");
			o->sheet.steps = (size_t)v;
			break;
		}
		case OPT_SCALE: {
			char *end;
			double v = starts_number(optarg) ? strtod(optarg, &end) : 0;
			if (!starts_number(optarg) || *end || !(v >= 0.5 && v <= 4))
				return bad_option("--scale", optarg, "must be a number from 0.5 to 4");
			o->scale = (float)v;
			break;
		}
		case 'h':
			usage(stdout);
			return -1;	/* done: exit 0 */
		case '?':
		default: {
			/* optopt: a short option's letter, a long option's code
			 * (it lacks its value), or 0 (an unknown long option,
			 * the word just passed).  A short option may sit inside
			 * a word ("-xy"): name the letter, not a word. */
			const char *w = optind > 0 && optind <= argc ? argv[optind - 1] : "";
			if (optopt > 0 && optopt < OPT_FIRST)
				km_out_fail("unknown option '-%c' (see lockmuseum --help)", optopt);
			else if (optopt && w[0] == '-' && w[1] == '-')
				km_out_fail("option %s needs a value or is unknown (see "
					    "lockmuseum --help)", w);
			else
				km_out_fail("unknown option '%s' (see lockmuseum --help)", w);
			return 2;
		}
		}
	}
	return 0;
}

/*
 * An option a command does not use is an error, not silently dropped: a
 * teacher who types `tour --mode mutex` or `compare --png x.png` must
 * learn that nothing of the kind happened.  @allowed ends with 0.
 */
static int only_options(const struct options *o, const char *cmd, const int *allowed)
{
	for (const struct option *lo = long_opts; lo->name; lo++) {
		int c = lo->val;
		if (c < OPT_FIRST || !(o->given & (1ULL << (c - OPT_FIRST))))
			continue;
		bool ok = false;
		for (const int *a = allowed; *a && !ok; a++)
			ok = *a == c;
		if (!ok) {
			km_out_fail("%s: --%s does not apply to %s (see lockmuseum --help)", cmd,
				    lo->name, cmd);
			return 2;
		}
	}
	return 0;
}

/* ------------------------------------------------------------ requests -- */

/* What a command is given: its options and its operand. */
struct invocation {
	const struct options *o;
	const char *file;		/* the scenario, for commands that take one */
	int argc;			/* the whole command line (explore replays it) */
	char **argv;
	char **paths;			/* compare --from: the reports, and more operands */
	int npaths;
};

/* The request the options make, for @file. */
static void request_from(const struct options *o, const char *file, struct km_run_request *rq)
{
	*rq = o->rq;
	rq->file = file;
}

/* ----------------------------------------------------------------- run -- */

/* Print a finished (or failed) session the way --report asks. */
static int report_session(struct km_session *s, enum report_kind report,
			  const struct km_sheet_opts *sheet, int status)
{
	if (status == 2) {
		if (s->ri.outcome == KM_OUT_NOT_APPLICABLE)
			fprintf(stderr, "%s: not applicable: %s\n", prog, s->ri.reason);
		else
			fprintf(stderr, "%s: %s\n", prog, s->ri.reason);
		if (report == REPORT_TEXT && s->ri.outcome == KM_OUT_NOT_APPLICABLE)
			km_report_text(stdout, &s->ri);
		if (report != REPORT_JSON)
			return status;
	}
	switch (report) {
	case REPORT_JSON:
		if (km_report_print_json(stdout, &s->ri) < 0) {
			fprintf(stderr, "%s: cannot write the JSON report\n", prog);
			status = 2;
		}
		km_out_json_sent();
		break;
	case REPORT_LOCKSTAT:
		km_report_lockstat(stdout, &s->ri);
		break;
	case REPORT_TEXT:
		km_report_text(stdout, &s->ri);
		break;
	case REPORT_INTERLEAVING:
		if (km_report_interleaving(stdout, &s->ri, sheet) < 0 && !ferror(stdout)) {
			fprintf(stderr, "%s: --report interleaving: the run kept no trace "
				"(out of memory?)\n", prog);
			status = 2;
		}
		break;
	}
	if (status == 3)
		fprintf(stderr, "%s: %s\n", prog, s->ri.reason);
	return status;
}

/* Write the trace from its spool (@spool_err says why there is none)
 * through km_out_open(): an error or an interruption leaves the previous
 * file as it was, and a device is written in place. */
static int write_trace(struct km_session *s, const char *path, bool ftrace,
		       struct km_trace_spool *spool, const char *spool_err, char *err,
		       size_t errlen)
{
	if (!spool) {
		snprintf(err, errlen, "%s", spool_err);
		return -1;
	}
	struct km_out_file out;
	if (km_out_open(&out, path, err, errlen) < 0)
		return -1;
	int rc = ftrace ? km_trace_write_ftrace(&s->ri, spool, out.f, err, errlen)
			: km_trace_write_chrome(&s->ri, spool, out.f, err, errlen);
	if (rc == 0 && km_interrupted) {
		snprintf(err, errlen, "interrupted");
		rc = -1;
	}
	if (rc < 0) {
		km_out_abort(&out);
		return -1;
	}
	return km_out_commit(&out, err, errlen);
}

/* How a window's command ends: 130 on a signal, 2 (with the reason) if
 * the window could not run, else 0. */
static int window_exit(int rc, const char *err)
{
	if (km_interrupted) {
		km_session_say_interrupted();
		return 130;
	}
	if (rc < 0) {
		fprintf(stderr, "%s: --gui: %s\n", prog, err);
		return 2;
	}
	return 0;
}

/*
 * run --schedule FILE: read the schedule, refuse it for another scenario
 * (its bytes' hash, found by loading the scenario without running it) or
 * for options that contradict it, and ask for its era, mode, CPUs and
 * seed.  Returns 0, 2 with @err, or another exit status already reported.
 */
static int schedule_request(const struct options *o, struct km_era_shelf *eras,
			    struct km_schedule *sch, struct km_run_request *rq, char *err,
			    size_t errlen)
{
	if (km_schedule_read(o->schedule, sch, err, errlen) < 0)
		return 2;
	int mode = km_mode_parse(sch->mode);
	const char *clash = NULL;
	if (rq->era && strcmp(rq->era, sch->era))
		clash = "--era";
	else if ((o->given & (1ULL << (OPT_MODE - OPT_FIRST))) && rq->mode != mode)
		clash = "--mode";
	else if (rq->cpus && rq->cpus != sch->cpus)
		clash = "--cpus";
	else if (rq->has_seed && rq->seed != sch->seed)
		clash = "--seed";
	if (clash) {
		snprintf(err, errlen, "%s: the schedule %s was made with era %s, mode %s, %d CPU%s, "
			 "seed %" PRIu64, clash, o->schedule, sch->era, sch->mode, sch->cpus,
			 sch->cpus == 1 ? "" : "s", sch->seed);
		km_schedule_free(sch);
		return 2;
	}
	/* its parameters: a --set may only say again what the file says */
	for (int i = 0; i < rq->nsets; i++) {
		const struct km_param_set *c = &rq->sets[i];
		int k = 0;
		while (k < sch->nsets && strcmp(sch->sets[k].name, c->name))
			k++;
		if (k == sch->nsets || strcmp(sch->sets[k].value, c->value)) {
			snprintf(err, errlen, "--set %.64s=%.64s: the schedule %s was made with %s%.64s%s",
				 c->name, c->value, o->schedule, k == sch->nsets ? "the default " : "",
				 c->name, k == sch->nsets ? "" : "=");
			if (k < sch->nsets) {
				size_t n = strlen(err);
				snprintf(err + n, errlen > n ? errlen - n : 0, "%.64s", sch->sets[k].value);
			}
			km_schedule_free(sch);
			return 2;
		}
	}
	rq->sets = sch->sets;
	rq->nsets = sch->nsets;
	rq->era = sch->era;
	rq->mode = mode;
	rq->cpus = sch->cpus;
	rq->seed = sch->seed;
	rq->has_seed = true;
	rq->hold_max = sch->hold_max;
	/* the file's own values are the file's fault, not the options' */
	static char era_said[PATH_MAX + 32], cpus_said[PATH_MAX + 32];
	snprintf(era_said, sizeof(era_said), "%s:%d: era", o->schedule, sch->era_line);
	snprintf(cpus_said, sizeof(cpus_said), "%s:%d: cpus", o->schedule, sch->cpus_line);
	rq->era_said = era_said;
	rq->cpus_said = cpus_said;
	/* the scenario's bytes must be those the schedule was made for */
	struct km_run_request probe = *rq;
	probe.check_only = true;
	probe.store_trace = false;
	struct km_session s;
	int st = km_session_run_shelf(&s, eras, &probe);
	if (st == 0 && s.ri.scenario_hash != sch->scenario_hash) {
		snprintf(err, errlen, "%s: made for another version of the scenario (hash %016"
			 PRIx64 ", %s has %016" PRIx64 ")", o->schedule, sch->scenario_hash,
			 rq->file, s.ri.scenario_hash);
		st = 2;
	} else if (st != 0) {
		snprintf(err, errlen, "%s", s.ri.reason ? s.ri.reason : "the scenario does not load");
		st = 2;
	}
	km_session_free(&s);
	if (st)
		km_schedule_free(sch);
	return st;
}

static int run_or_check(const struct options *o, const char *file, bool check_only)
{
	/* A run loads the one era it runs in (the shelf, lua/eras.h); check,
	 * the window and --png read them all, so check reports any era file
	 * that does not load, as list does. */
	struct km_era_shelf eras;
	char err[1024];
	struct km_session s;
	memset(&s, 0, sizeof(s));
	int erc = km_open_eras(&eras, err, sizeof(err));
	if (erc == 0 && (check_only || o->gui) && !km_all_eras(&eras, err, sizeof(err))) {
		km_era_shelf_close(&eras);
		erc = -1;
	}
	if (erc < 0) {
		snprintf(s.reason, sizeof(s.reason), "%.900s (set LOCKMUSEUM_DATA?)", err);
		s.ri.outcome = KM_OUT_ERROR;
		s.ri.reason = s.reason;
		s.ri.file = s.ri.scenario = file;
		return report_session(&s, o->report, &o->sheet, 2);
	}
	struct km_run_request rq;
	request_from(o, file, &rq);
	rq.check_only = check_only;
	/* --trace does not keep the trace in memory: its records go to a
	 * spool on disk as the run makes them (report/trace_spool.h), all of
	 * them unless --trace-limit is given.  What draws from memory (the
	 * window, --png, the interleaving sheet) keeps it, bounded by default. */
	rq.store_trace = o->png || o->gui || o->report == REPORT_INTERLEAVING;
	rq.json_errors = o->report == REPORT_JSON;
	size_t spool_limit = rq.trace_limit;
	bool default_limit = !rq.trace_limit && !o->gui;
	if (default_limit)
		rq.trace_limit = KM_DEFAULT_TRACE_LIMIT;

	/* --schedule: the run makes the schedule's decisions, in its era,
	 * mode, CPU count and seed */
	struct km_schedule sched = { 0 };
	struct km_replay replay;
	if (o->schedule) {
		int rc = schedule_request(o, &eras, &sched, &rq, err, sizeof(err));
		if (rc) {
			km_era_shelf_close(&eras);
			if (rc == 2)
				km_out_fail("%s", err);
			return rc;
		}
		km_replay_init(&replay, &sched, o->schedule);
		rq.chooser = &replay.chooser;
		rq.schedule_name = o->schedule;
	}

	if (o->gui && !check_only) {
		/* The window's first run is its one exhibit's, in the exhibit's
		 * era and first mode: those are the options, so that --mode and
		 * --era mean in the window what they mean everywhere else. */
		int mode = rq.mode;
		struct km_view_exhibit solo = { .file = file, .era = rq.era, .modes = &mode,
						.nmodes = 1 };
		int rc = km_cli_window(&eras.all, &solo, 1, 0, &rq, err, sizeof(err));
		km_era_shelf_close(&eras);
		km_schedule_free(&sched);
		return window_exit(rc, err);
	}

	/* no spool, no run: a name where nothing can be written fails after
	 * the run, as a trace that cannot be written always did */
	struct km_trace_spool spool_store, *spool = NULL;
	char spool_err[300] = "";
	if (o->trace && !check_only) {
		if (km_trace_spool_open(&spool_store, o->trace, spool_limit, spool_err,
					sizeof(spool_err)) == 0) {
			spool = &spool_store;
			rq.trace_sink = &spool->sink;
		}
	}

	int status = km_session_run_shelf(&s, &eras, &rq);
	if (o->schedule && !check_only && status != 2 &&
	    km_replay_finished(&replay, err, sizeof(err)) < 0) {
		/* it ended before its decisions: not the run that was saved */
		s.ri.outcome = KM_OUT_ERROR;
		snprintf(s.reason, sizeof(s.reason), "%s", err);
		s.ri.reason = s.reason;
		status = 2;
	}
	km_schedule_free(&sched);
	if (km_interrupted) {
		km_session_say_interrupted();
		if (o->report == REPORT_JSON) {
			printf("{\"outcome\": \"error\", \"reason\": \"interrupted\"}\n");
			km_out_json_sent();
		}
		if (spool)
			km_trace_spool_close(spool);
		km_session_free(&s);
		km_era_shelf_close(&eras);
		return 130;
	}
	if (check_only && status == 0 && o->report == REPORT_JSON) {
		/* the report of the loaded scenario, run for no time: its
		 * outcome is one of the contract's, as exit 0 says */
		s.ri.outcome = KM_OUT_COMPLETED;
		s.ri.reason = "check: the scenario loads and is valid; it was not run";
		status = report_session(&s, o->report, &o->sheet, status);
	} else if (check_only && status == 0) {
		const struct km_sim *sim = s.ri.sim;
		int nt = 0;
		for (uint32_t i = 0; i < sim->ctxs.n; i++)
			nt += sim->ctxs.v[i]->kind == KM_CTX_TASK;
		printf("%s: ok: scenario '%s', era %s (%s), %d CPU%s: %u lock%s, %d task%s, "
		       "%u irq%s, %u var%s\n", file, s.ri.scenario, s.ri.era->id,
		       s.ri.era->version, s.ri.cpus, s.ri.cpus == 1 ? "" : "s", sim->locks.n,
		       sim->locks.n == 1 ? "" : "s", nt, nt == 1 ? "" : "s", sim->irqsrcs.n,
		       sim->irqsrcs.n == 1 ? "" : "s", sim->vars.n, sim->vars.n == 1 ? "" : "s");
		for (int i = 0; i < s.ri.nparams; i++)
			printf("  parameter %s = %s (default %s)\n", s.ri.params[i].name,
			       s.ri.params[i].value, s.ri.params[i].def);
	} else {
		/* With --report json the report comes last, so that a --trace or
		 * --png that failed is its outcome ("error"), as it is the exit
		 * status's; the text reports come first, as they always did. */
		bool json = o->report == REPORT_JSON;
		static char why[1400];
		why[0] = 0;
		if (!json)
			status = report_session(&s, o->report, &o->sheet, status);
		if (default_limit && s.ri.sim && s.ri.sim->trace.truncated && o->png)
			fprintf(stderr, "%s: note: the trace keeps the first %zu of the run's %" PRIu64
				" records (the default bound of its memory); give --trace-limit N "
				"for more\n", prog, rq.trace_limit, s.ri.sim->trace.count);
		km_writing_output++;
		if (o->trace && s.ri.sim && s.ri.outcome != KM_OUT_ERROR &&
		    s.ri.outcome != KM_OUT_NOT_APPLICABLE &&
		    write_trace(&s, o->trace, o->ftrace, spool, spool_err, err, sizeof(err)) < 0) {
			snprintf(why, sizeof(why), "--trace %s: %s", o->trace, err);
			status = 2;
		}
		if (!why[0] && o->png && s.ri.sim && s.ri.outcome != KM_OUT_ERROR &&
		    s.ri.outcome != KM_OUT_NOT_APPLICABLE) {
			int w = o->width ? o->width : KM_DEFAULT_PNG_WIDTH;
			int h = o->height ? o->height : KM_DEFAULT_PNG_HEIGHT;
			const struct km_era_list *all = km_all_eras(&eras, err, sizeof(err));
			if (!all || km_cli_png(all, &s, o->png, w, h, err, sizeof(err)) < 0) {
				snprintf(why, sizeof(why), "--png %s: %s", o->png, err);
				status = 2;
			}
		}
		km_writing_output--;
		if (km_interrupted) {
			/* a Ctrl-C stopped an export: no report, as for a run
			 * that was stopped; with --report json, the short
			 * object, in one write, before a second Ctrl-C can cut
			 * anything longer; "interrupted" once on stderr, as
			 * for a run that was stopped */
			km_session_say_interrupted();
			if (json && !km_out_json_was_sent()) {
				static const char obj[] =
					"{\"outcome\": \"error\", \"reason\": \"interrupted\"}\n";
				fflush(stdout);
				ssize_t w = write(STDOUT_FILENO, obj, sizeof(obj) - 1);
				(void)w;
				km_out_json_sent();
			}
			if (spool)
				km_trace_spool_close(spool);
			km_session_free(&s);
			km_era_shelf_close(&eras);
			return 130;
		}
		if (why[0] && !json)
			fprintf(stderr, "%s: %s\n", prog, why);
		if (json) {
			if (why[0]) {
				s.ri.outcome = KM_OUT_ERROR;
				s.ri.reason = why;
			}
			status = report_session(&s, o->report, &o->sheet, status);
		}
	}
	fflush(stdout);
	if (spool)
		km_trace_spool_close(spool);
	km_session_free(&s);
	km_era_shelf_close(&eras);
	return status;
}

static int cmd_run(const struct invocation *inv)
{
	return run_or_check(inv->o, inv->file, false);
}

static int cmd_check(const struct invocation *inv)
{
	return run_or_check(inv->o, inv->file, true);
}

/* ------------------------------------------------------ compare/explore -- */

static int cmd_compare(const struct invocation *inv)
{
	const struct options *o = inv->o;
	struct km_run_request base;
	request_from(o, NULL, &base);
	struct km_sweep_spec spec = {
		.file = inv->file, .modes = o->modes, .eras = o->eras ? o->eras : o->rq.era,
		.cpus = o->cpus_list, .seeds = o->seeds, .base = &base,
		.nsets = o->nsweep_sets,
	};
	memcpy(spec.sets, o->sweep_sets, sizeof(spec.sets));
	/* In compare, --set NAME=V1,V2 sweeps NAME over its values, as --sets
	 * does: one table for "what if the limit were 8, or 50?". */
	static char swept[KM_SWEEP_MAX_PARAMS][300];
	static struct km_param_set fixed[64];
	int nfixed = 0;
	for (int i = 0; i < o->rq.nsets; i++) {
		const struct km_param_set *ps = &o->rq.sets[i];
		if (!strchr(ps->value, ',') || nfixed >= 64) {
			fixed[nfixed++] = *ps;
			continue;
		}
		if (spec.nsets == KM_SWEEP_MAX_PARAMS)
			return bad_option("--set", ps->name, "at most 8 swept parameters");
		int k = spec.nsets++;
		snprintf(swept[k], sizeof(swept[0]), "%s=%s", ps->name, ps->value);
		spec.sets[k] = swept[k];
	}
	base.sets = fixed;
	base.nsets = nfixed;
	struct km_sweep_jobs_opts jo = { .out_dir = o->out_dir, .skip_done = o->skip_done,
					 .slurm = o->slurm };
	struct km_sweep_merge_opts mo = { .paths = inv->paths, .npaths = inv->npaths,
					  .select = &spec, .select_seed = o->rq.has_seed,
					  .seed = o->rq.seed };
	struct km_compare_opts co = {
		.spec = &spec, .jobs = o->jobs ? o->jobs : km_online_cpus(), .plot = o->plot,
		.markov = o->markov,
		.columns = o->columns,
		.format = o->csv ? KM_TABLE_CSV : o->report == REPORT_JSON ? KM_TABLE_JSON
									  : KM_TABLE_TEXT,
		.jobs_out = o->print_jobs || o->slurm ? &jo : NULL,
		.from = o->from ? &mo : NULL,
	};
	base.era = NULL;	/* --era is one of the --eras */
	if (o->from)		/* a seed selects reports; it is not a run's */
		base.has_seed = false;
	return km_compare_command(&co);
}

/* Options of compare that go only with some others. */
static int compare_conflicts(const struct options *o)
{
	const char *jobs = o->slurm ? "--slurm-array" : "--print-jobs";
	if (o->print_jobs && o->slurm)
		return bad_option("--print-jobs", NULL, "or --slurm-array, not both");
	if ((o->print_jobs || o->slurm) && (o->from || o->plot || o->markov || o->given &
					    (1ULL << (OPT_REPORT - OPT_FIRST))))
		return bad_option(jobs, NULL, "prints jobs: --from, --plot, --markov and --report "
				  "do not apply");
	if ((o->skip_done || o->out_dir) && !o->print_jobs && !o->slurm)
		return bad_option(o->skip_done ? "--skip-done" : "--out", NULL, "applies to "
				  "--print-jobs and --slurm-array only");
	return 0;
}

static int cmd_explore(const struct invocation *inv)
{
	const struct options *o = inv->o;
	struct km_run_request base;
	request_from(o, NULL, &base);
	if (o->cpus_list) {
		char *end;
		long v = strtol(o->cpus_list, &end, 10);
		if (!(o->cpus_list[0] >= '0' && o->cpus_list[0] <= '9') || *end || v < 1 ||
		    v > KM_MAX_CPUS)
			return bad_option("--cpus", o->cpus_list, "explore takes one CPU count");
		base.cpus = (int)v;
	}
	if (base.hold_max && !o->strategy)
		return bad_option("--hold-max", NULL, "bounds the holds of a --strategy: give one");
	if (o->no_por && (!o->strategy || strncmp(o->strategy, "exhaustive:", 11)))
		return bad_option("--no-por", NULL, "applies to --strategy exhaustive:K only");
	struct km_explore_opts eo = { .file = inv->file, .goal = o->goal, .base = &base,
				      .jobs = o->jobs ? o->jobs : km_online_cpus(),
				      .argc = inv->argc, .argv = inv->argv,
				      .strategy = o->strategy, .out = o->out_dir,
				      .no_por = o->no_por };
	const char *seeds = o->seeds ? o->seeds : KM_DEFAULT_SEEDS;
	unsigned long long lo, hi;
	char dots[3];
	if (strspn(seeds, "0123456789.") != strlen(seeds) ||
	    sscanf(seeds, "%llu%2[.]%llu", &lo, dots, &hi) != 3 || strcmp(dots, ".."))
		return bad_option("--seeds", seeds, "must be a range A..B, e.g. 1..100");
	/* one seed range everywhere (a count too large is said later) */
	if (hi >= lo && hi - lo < 1000000 && hi > INT64_MAX)
		return bad_option("--seeds", seeds, KM_SEED_RANGE_SAYS);
	eo.seed_lo = lo;
	eo.seed_hi = hi;
	return km_explore_command(&eo);
}

/* ---------------------------------------------------------------- play -- */

static int cmd_play(const struct invocation *inv)
{
	char err[1024];
	struct km_run_request rq;
	request_from(inv->o, inv->file, &rq);
	const struct options *o = inv->o;
	if (!o->gui) {
		struct km_play_opts po = { .file = inv->file, .rq = &rq, .save = o->save };
		return km_play_command(&po);
	}
	/* the window, in play mode from the start */
	const struct km_view_api *view = km_view_lib(err, sizeof(err));
	if (!view) {
		fprintf(stderr, "%s: --gui: %s\n", prog, err);
		return 2;
	}
	if (!view->have_display()) {
		fprintf(stderr, "%s: --gui: no display (neither DISPLAY nor WAYLAND_DISPLAY is "
			"set)\n", prog);
		return 2;
	}
	struct km_era_shelf eras;
	const struct km_era_list *all;
	if (km_open_eras(&eras, err, sizeof(err)) < 0 ||
	    !(all = km_all_eras(&eras, err, sizeof(err)))) {
		km_out_fail("%s", err);
		return 2;
	}
	rq.store_trace = true;
	int rc = km_cli_window_play(all, &rq, o->save, err, sizeof(err));
	km_era_shelf_close(&eras);
	return window_exit(rc, err);
}

/* ---------------------------------------------------------------- list -- */

static int by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmd_list(const struct invocation *inv)
{
	struct km_era_list eras;
	char err[1024];
	if (km_load_eras(&eras, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s (set LOCKMUSEUM_DATA?)\n", prog, err);
		return 2;
	}
	struct km_era_shelf shelf;
	km_era_shelf_wrap(&shelf, &eras);
	printf("eras (%d):\n", eras.n);
	for (int i = 0; i < eras.n; i++) {
		const struct km_era *e = &eras.v[i];
		char sems[32] = "", mach[80] = "";
		if (e->semaphores >= 0)
			snprintf(sems, sizeof(sems), ", %d semaphores", e->semaphores);
		if (e->machine[0])
			snprintf(mach, sizeof(mach), ", machine %s", e->machine);
		printf("  %-6s %-10s %-58s %3d CPU%s, %s%s%s\n", e->id, e->version, e->title,
		       e->cpus, e->cpus == 1 ? " " : "s", e->preempt == KM_PREEMPT_NONE ?
		       "no preemption" : e->preempt == KM_PREEMPT_FULL ? "preemptible" :
		       "voluntary preemption", sems, mach);
	}
	printf("\nmodes: native, cli, bkl, spinlock, semaphore, mutex\n"
	       "  (native keeps each lock the kind its scenario declares; any other mode\n"
	       "  makes every lock that primitive, where the era had it)\n");

	char dir[PATH_MAX + 16];
	snprintf(dir, sizeof(dir), "%s/scripts", km_datadir());
	DIR *d = opendir(dir);
	char *names[512];
	int n = 0;
	if (d) {
		struct dirent *de;
		while ((de = readdir(d)) && n < 512) {
			size_t len = strlen(de->d_name);
			/* tour.lua is the route through the scenarios, not one */
			if (len > 4 && !strcmp(de->d_name + len - 4, ".lua") && de->d_name[0] != '.' &&
			    strcmp(de->d_name, "tour.lua"))
				names[n++] = strdup(de->d_name);
		}
		closedir(d);
	}
	qsort(names, (size_t)n, sizeof(*names), by_str);
	printf("\nscenarios (%d, in %s):\n", n, dir);
	for (int i = 0; i < n; i++) {
		char path[PATH_MAX + 300], lerr[512];
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		struct km_load_opts lo = { .max_instructions = KM_LIST_MAX_INSTRUCTIONS,
					   .max_memory = KM_LIST_MAX_MEMORY,
					   .max_wall = KM_LIST_MAX_WALL, .seed = 1, .eras = &shelf };
		bool armed = km_watchdog_arm(path, lo.max_wall);
		struct km_scenario *sc = km_scenario_load(path, &lo, lerr, sizeof(lerr));
		km_watchdog_disarm(armed);
		if (sc) {
			const struct km_scenario_meta *m = km_scenario_meta(sc);
			printf("  %-20s %-6s %s\n", names[i], m->era[0] ? m->era : "-", m->title);
			km_scenario_free(sc);
		} else {
			printf("  %-20s (does not load: %s)\n", names[i], lerr);
		}
		free(names[i]);
	}
	km_eras_free(&eras);
	return 0;
}

/* ---------------------------------------------------------------- main -- */

/*
 * The museum: the window on the first exhibit of the tour where there is
 * a display; elsewhere (or if the window cannot open) the headless tour,
 * its report on stdout and one PNG per exhibit under out/.
 */
static int cmd_museum(const struct km_run_request *base, bool window_only)
{
	char err[1024];
	const struct km_view_api *view = km_view_lib(err, sizeof(err));
	if (!view) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return 2;
	}
	if (view->have_display()) {
		struct km_era_list eras;
		struct km_tour tour;
		char scripts[PATH_MAX + 64], path[PATH_MAX + 128];
		if (km_load_eras(&eras, err, sizeof(err)) < 0) {
			fprintf(stderr, "%s: %s\n", prog, err);
			return 2;
		}
		snprintf(scripts, sizeof(scripts), "%s/scripts", km_datadir());
		snprintf(path, sizeof(path), "%s/tour.lua", scripts);
		bool armed = km_watchdog_arm(path, 10.0);
		int trc = km_tour_load(path, scripts, &tour, err, sizeof(err));
		km_watchdog_disarm(armed);
		if (trc < 0) {
			fprintf(stderr, "%s: %s\n", prog, err);
			km_eras_free(&eras);
			return 2;
		}
		int rc = km_cli_window_tour(&eras, &tour, 0, base, err, sizeof(err));
		km_tour_free(&tour);
		km_eras_free(&eras);
		if (km_interrupted) {
			km_session_say_interrupted();
			return 130;
		}
		if (rc == 0)
			return 0;
		if (window_only) {
			fprintf(stderr, "%s: the window did not open (%s)\n", prog, err);
			return 2;
		}
		fprintf(stderr, "%s: the window did not open (%s): the headless tour instead, "
			"its report below and one PNG per exhibit in " KM_DEFAULT_OUT_DIR "/\n",
			prog, err);
	} else if (window_only) {
		fprintf(stderr, "%s: --gui: no display (neither DISPLAY nor WAYLAND_DISPLAY is "
			"set)\n", prog);
		return 2;
	} else {
		fprintf(stderr, "%s: no display: the headless tour, its report below and one "
			"PNG per exhibit in " KM_DEFAULT_OUT_DIR "/\n", prog);
	}
	struct km_tour_opts to = { .out_dir = KM_DEFAULT_OUT_DIR, .png_w = KM_DEFAULT_PNG_WIDTH,
				   .png_h = KM_DEFAULT_PNG_HEIGHT, .base = base };
	return km_tour_command(&to);
}

static int cmd_tour(const struct invocation *inv)
{
	const struct options *o = inv->o;
	struct km_run_request base;
	request_from(o, NULL, &base);
	if (o->gui)
		return cmd_museum(&base, true);
	struct km_tour_opts to = {
		.out_dir = o->out_dir, .base = &base,
		.png_w = o->width ? o->width : KM_DEFAULT_PNG_WIDTH,
		.png_h = o->height ? o->height : KM_DEFAULT_PNG_HEIGHT,
	};
	return km_tour_command(&to);
}

/* -------------------------------------------------------------- commands -- */

#define BUDGET_OPTS OPT_MAXI, OPT_MAXM, OPT_MAXW, OPT_MAXE
#define SCENARIO_OPTS OPT_ERA, OPT_CPUS, OPT_SEED, OPT_DURATION, OPT_ANACHRONISM, OPT_SET

static const int run_opts[] = {
	SCENARIO_OPTS, BUDGET_OPTS, OPT_MODE, OPT_REPORT, OPT_TRACE, OPT_TRACE_FORMAT,
	OPT_TRACE_LIMIT, OPT_PNG, OPT_SIZE, OPT_GUI, OPT_OUT, OPT_ANSWERS, OPT_SCALE,
	OPT_SCHEDULE, OPT_FROM, OPT_TO, OPT_STEPS, 0,
};
static const int compare_opts[] = {
	SCENARIO_OPTS, BUDGET_OPTS, OPT_MODE, OPT_MODES, OPT_ERAS, OPT_REPORT, OPT_JOBS,
	OPT_PLOT, OPT_MARKOV, OPT_SEEDS, OPT_SETS, OPT_PRINT_JOBS, OPT_SLURM, OPT_SKIP_DONE,
	OPT_FROM, OPT_OUT, OPT_COLUMNS, 0,
};
static const int explore_opts[] = {
	SCENARIO_OPTS, BUDGET_OPTS, OPT_MODE, OPT_SEEDS, OPT_GOAL, OPT_REPORT, OPT_JOBS,
	OPT_STRATEGY, OPT_OUT, OPT_HOLD_MAX, OPT_NO_POR, 0,
};
static const int play_opts[] = {
	SCENARIO_OPTS, BUDGET_OPTS, OPT_MODE, OPT_GUI, OPT_SCALE, OPT_SAVE, 0,
};
static const int tour_opts[] = {
	OPT_SEED, BUDGET_OPTS, OPT_TRACE_LIMIT, OPT_OUT, OPT_SIZE, OPT_GUI, OPT_SCALE, 0,
};
static const int no_opts[] = { 0 };

struct command {
	const char *name;
	int (*handler)(const struct invocation *inv);
	const int *options;		/* the options it accepts, 0-terminated */
	bool file;			/* takes one scenario FILE.lua */
	bool lists;			/* --cpus is a list, --report may be csv */
	const char *synopsis;		/* after "lockmuseum NAME " in --help */
	const char *help;		/* what it does; more lines after '\n' */
};

static const struct command commands[] = {
	{"run", cmd_run, run_opts, true, false, "FILE.lua [options]",
	 "replay one scenario and report on it"},
	{"check", cmd_check, run_opts, true, false, "FILE.lua [options]",
	 "load and validate only"},
	{"list", cmd_list, no_opts, false, false, "",
	 "the scenarios, eras and modes"},
	{"tour", cmd_tour, tour_opts, false, false, "[--out DIR]",
	 "every exhibit, 1991 to 2023, with its lesson"},
	{"compare", cmd_compare, compare_opts, true, true,
	 "FILE.lua [--modes a,b] [--eras x,y] [--cpus 1,2,4] [--jobs N]",
	 "one run per combination, one table\n(--report text|json|csv, --plot OUT.png)\n"
	 "[--markov A,S,C]: a ticket lock's Markov model\n(ns: work, serial section, line "
	 "transfer)\n"
	 "[--seeds A..B] [--sets NAME=V1,V2]: seeds of each\ncombination (mean, min, max), "
	 "and a parameter's\nvalues, as more combinations\n"
	 "[--print-jobs | --slurm-array] [--out DIR]\n[--skip-done DIR]: the sweep as one "
	 "command a\nrun (GNU parallel) or a Slurm job array\n"
	 "--from DIR|FILE...: the table of reports run\nanywhere (no FILE.lua needed)"},
	{"play", cmd_play, play_opts, true, false, "FILE.lua [options]",
	 "you are the scheduler: choose who goes next\nat each point the kernel could switch\n"
	 "(--gui: in the window; G there too)"},
	{"explore", cmd_explore, explore_opts, true, true,
	 "FILE.lua --seeds 1..N [--goal violation|deadlock|check|max:ops.NAME.p99]",
	 "the first seed that reaches the goal\n"
	 "--strategy random|pct:D|exhaustive:K: search\nthe schedules instead; --out S saves the\n"
	 "one found for run --schedule S"},
	{NULL, NULL, NULL, false, false, NULL, NULL},
};

static const struct command *find_command(const char *name)
{
	for (const struct command *c = commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

/* "  lockmuseum WHAT" in a column, then @help's lines beside it. */
static void usage_line(FILE *out, const char *what, const char *help)
{
	enum { COLUMN = 40 };
	int n = fprintf(out, "  lockmuseum %s", what);
	for (const char *line = help; line; ) {
		const char *nl = strchr(line, '\n');
		int len = nl ? (int)(nl - line) : (int)strlen(line);
		if (n >= COLUMN) {
			fputc('\n', out);
			n = 0;
		}
		fprintf(out, "%*s%.*s", COLUMN - n, "", len, line);
		n = COLUMN + len;
		line = nl ? nl + 1 : NULL;
	}
	fputc('\n', out);
}

static void usage(FILE *out)
{
	fprintf(out, "usage: lockmuseum [<command> [arguments]]\n\n");
	usage_line(out, "", "the museum: the window on the tour where there\n"
		   "is a display, else the headless tour into " KM_DEFAULT_OUT_DIR "/");
	for (const struct command *c = commands; c->name; c++) {
		char what[160];
		snprintf(what, sizeof(what), "%s%s%s", c->name, *c->synopsis ? " " : "",
			 c->synopsis);
		usage_line(out, what, c->help);
	}
	fprintf(out,
"  lockmuseum --help | --version\n"
"\n"
"options:\n"
"  --era ID            an era: its year (1996), id or version (2.0)\n"
"  --mode M            native (default), cli, bkl, spinlock, semaphore, mutex;\n"
"                      native keeps each lock the kind the scenario declares,\n"
"                      the others make every lock that primitive\n"
"  --cpus N            number of CPUs, 1 to %d\n"
"  --seed S            the run's seed (a non-negative integer)\n"
"  --duration T        simulated-time bound: ns, or with a unit: 500us, 10ms, 2s\n"
"  --anachronism       allow a primitive (or SMP) the era did not have yet\n"
"  --set NAME=VALUE    a scenario parameter (repeatable)\n"
"  --report KIND       text (default), json, lockstat, or interleaving: one\n"
"                      line per operation, a homework sheet whose outcome\n"
"                      shows only with --answers\n"
"  --from T|lost, --to T, --steps N\n"
"                      the sheet's window: the operations from T to T (500us,\n"
"                      3ms), at most N lines; lost: the first lost update\n"
"  --columns LIST      compare: the table's columns, in this order (mode,era,\n"
"                      cpus,outcome,time,acq/s,...); without it, those that fit\n"
"                      $COLUMNS (else 100), and a note names any left out\n"
"  --out FILE          run: write the report into FILE, whole or not at all\n"
"  --trace FILE        also write the run's trace: Chrome trace-event JSON that\n"
"                      Perfetto and chrome://tracing open\n"
"  --trace-format F    chrome (default) or ftrace (text, per-CPU tracks in Perfetto)\n"
"  --trace-limit N     keep at most the first N trace records (default %zu, 32\n"
"                      bytes each); statistics, checks and the trace hash\n"
"                      stay exact\n"
"  --png FILE          also draw the run, as the museum shows it, into a PNG\n"
"  --size WxH          the PNG's size (default %dx%d)\n"
"  --scale N           type (and all) N times larger in the window and PNGs,\n"
"                      0.5 to 4; above 1, projector mode: high contrast, text\n"
"                      that wraps (L toggles it in the window)\n"
"  --gui               open the run in the museum's window\n"
"  --schedule S        run: replay a schedule file that explore --strategy saved\n"
"  --hold-max T        explore --strategy: the longest a task is held (default:\n"
"                      until the one it let go has stepped; at most 60s)\n"
"  --no-por            explore --strategy exhaustive:K: run every decision\n"
"                      sequence, without partial-order reduction\n"
"  --save S            play: where s (W in the window) saves the schedule (default\n"
"                      " KM_DEFAULT_OUT_DIR "/<scenario>.schedule)\n"
"  --max-instructions N  Lua instruction budget (default %llu)\n"
"  --max-memory BYTES  Lua memory budget (default %u MiB; K, M, G suffixes)\n"
"  --max-wall SECONDS  wall-clock budget (default %g)\n"
"  --max-events N      simulator event budget (default %llu)\n"
"\n"
"exit status: 0 clean run, 1 a check failed or a violation was found,\n"
"2 bad usage or scenario, 3 deadlock, 130 interrupted (Ctrl-C).\n",
		KM_MAX_CPUS, KM_DEFAULT_TRACE_LIMIT, KM_DEFAULT_PNG_WIDTH,
		KM_DEFAULT_PNG_HEIGHT, (unsigned long long)KM_DEFAULT_MAX_INSTRUCTIONS,
		KM_DEFAULT_MAX_MEMORY >> 20, KM_DEFAULT_MAX_WALL,
		(unsigned long long)KM_DEFAULT_MAX_EVENTS);
}

/* ---------------------------------------------------------------- main -- */

/* Does the command line ask for --report json (or an abbreviation that
 * getopt_long would take for it)?  Asked before the options are parsed,
 * so that an option error gets its JSON object too. */
static bool wants_json(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strncmp(a, "--r", 3))
			continue;
		const char *eq = strchr(a, '=');
		size_t n = eq ? (size_t)(eq - a) : strlen(a);
		if (n > strlen("--report") || strncmp(a, "--report", n))
			continue;
		const char *v = eq ? eq + 1 : i + 1 < argc ? argv[i + 1] : "";
		if (!strcmp(v, "json"))
			return true;
	}
	return false;
}

static int cli_main(int argc, char **argv);

int km_cli_main(int argc, char **argv)
{
	km_out_json_reset(wants_json(argc, argv));
	km_out_protect_clear();
	return km_out_json_fallback(cli_main(argc, argv));
}

static int cli_main(int argc, char **argv)
{
	km_session_catch_signals();
	if (argc < 2) {
		struct km_run_request base;
		km_run_request_init(&base);
		int rc = cmd_museum(&base, false);
		return km_interrupted ? 130 : rc;
	}
	const char *name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(name, "--version")) {
		printf("lockmuseum %s\n", KM_VERSION);
		return 0;
	}
	const struct command *cmd = find_command(name);
	if (!cmd) {
		char list[256];
		size_t k = 0;
		for (const struct command *c = commands; c->name && k < sizeof(list); c++)
			k += (size_t)snprintf(list + k, sizeof(list) - k, "%s%s",
					      c == commands ? "" : ", ", c->name);
		km_out_fail("unknown command '%s' (commands: %s; see lockmuseum --help)", name,
			    list);
		return 2;
	}
	static struct options o;
	int rc = parse_options(argc - 1, argv + 1, &o, cmd->lists);
	if (rc)
		return rc < 0 ? 0 : rc;
	if ((rc = only_options(&o, cmd->name, cmd->options)))
		return rc;
	if (o.answers && o.report != REPORT_INTERLEAVING)
		return bad_option("--answers", NULL, "shows the answers of --report interleaving; "
				  "add --report interleaving");
	o.sheet.answers = o.answers;
	if ((cmd->handler == cmd_run || cmd->handler == cmd_check) &&
	    (o.from || o.sheet.to || o.sheet.steps)) {
		/* the homework sheet's window */
		const char *which = o.from ? "--from" : o.sheet.to ? "--to" : "--steps";
		if (o.report != REPORT_INTERLEAVING)
			return bad_option(which, NULL, "chooses the lines of --report interleaving; "
					  "add --report interleaving");
		if (o.from && !strcmp(o.from, "lost"))
			o.sheet.from_lost = true;
		else if (o.from && parse_duration(o.from, &o.sheet.from) < 0)
			return bad_option("--from", o.from, "must be a time in the run (500us, 10ms, "
					  "2s) or lost: the first lost update");
		if (o.sheet.to && o.sheet.to < o.sheet.from)
			return bad_option("--to", NULL, "must not be before --from");
		if (o.sheet.from_lost && o.sheet.to)
			return bad_option("--to", NULL, "--from lost chooses its own window; give "
					  "--steps instead");
	}
	if (o.scale > 0 && cmd->handler != cmd_tour && !o.gui && !o.png)
		return bad_option("--scale", NULL, "sizes the window and pictures; add --gui or --png");
	if (o.scale > 0)
		km_view_lib_set_scale(o.scale);
	/* getopt_long has moved the operands to the end: argv[1 + optind ..] */
	int nargs = argc - 1 - optind;
	if (cmd->handler == cmd_compare && (rc = compare_conflicts(&o)))
		return rc;
	if (cmd->handler == cmd_compare && o.from) {
		/* the operands are more reports: --from DIR a.json b.json */
		char **paths = malloc((size_t)(nargs + 1) * sizeof(*paths));
		if (!paths)
			return bad_option("--from", o.from, "out of memory");
		paths[0] = (char *)o.from;
		for (int i = 0; i < nargs; i++)
			paths[1 + i] = argv[1 + optind + i];
		for (int i = 0; i <= nargs; i++)
			km_out_protect(paths[i], "a report read by --from");
		struct invocation inv = { .o = &o, .argc = argc, .argv = argv, .paths = paths,
					  .npaths = nargs + 1 };
		rc = cmd_compare(&inv);
		free(paths);
		return km_interrupted ? 130 : rc;
	}
	if (!cmd->file && nargs > 0) {
		km_out_fail("%s: unexpected argument '%s'", cmd->name, argv[1 + optind]);
		return 2;
	}
	if (cmd->file && nargs < 1) {
		km_out_fail("%s: which scenario? (lockmuseum %s FILE.lua)", cmd->name, cmd->name);
		return 2;
	}
	if (cmd->file && nargs > 1) {
		km_out_fail("%s: one scenario at a time (got '%s' and '%s')", cmd->name,
			    argv[1 + optind], argv[2 + optind]);
		return 2;
	}
	/* a scenario's name as `list` prints it works from any directory */
	char found[PATH_MAX + 128];
	struct invocation inv = { .o = &o,
				  .file = cmd->file ? km_scenario_path(argv[1 + optind], found,
								       sizeof(found)) : NULL,
				  .argc = argc, .argv = argv };
	/* no output of the command may replace its inputs (out_file.c) */
	km_out_protect(inv.file, "the scenario");
	km_out_protect(o.schedule, "the schedule file");
	if (o.out_dir && (cmd->handler == cmd_run || cmd->handler == cmd_check)) {
		/* run --out FILE: the report into FILE, whole or not at all */
		struct km_run_out ro;
		char err[1024];
		if (km_run_out_begin(&ro, o.out_dir, err, sizeof(err)) < 0)
			return bad_option("--out", o.out_dir, err);
		rc = cmd->handler(&inv);
		if (km_run_out_end(&ro, rc >= 0 && rc <= 3 && !km_interrupted, err,
				   sizeof(err)) < 0)
			rc = bad_option("--out", o.out_dir, err);
	} else {
		rc = cmd->handler(&inv);
	}
	if (km_interrupted && rc != 130) {
		km_session_say_interrupted();
		return 130;
	}
	return rc;
}

#ifndef KM_CLI_NO_MAIN
int main(int argc, char **argv)
{
	km_out_guard_std_fds();
	return km_out_finish(km_cli_main(argc, argv));
}
#endif
