/*
 * options.c - the command line's options: one table, and what is derived
 * from it.
 *
 * Each option is a row of km_cli_options[], in the manner of git's
 * parse-options (an array of OPT_STRING/OPT_BOOL/OPT_CALLBACK) and of
 * Redis's config table: the name, the value's name, the commands that
 * take it, its --help entry, and where its value goes.  getopt_long's
 * array is built from the rows on first use; the parse walks the rows;
 * the refusal of an option a command does not take reads .cmds; --help's
 * "options:" prints .usage and .help.  The rows are in --help's order,
 * the options it does not list (.help NULL) beside their kin.
 *
 * To add an option: its field in struct options (options.h), its row
 * here -- a setter if its value needs checking -- and its entry under
 * OPTIONS in docs/lockmuseum.1 (tests/unit/test_cli_options.c fails
 * until the man page has it).  The command that runs with it reads the
 * field.
 *
 * Every value is hostile: a number starts with a digit (no blanks, no
 * sign, no hex, no "inf"), is range-checked before it is stored, and a
 * bad one is a one-line error naming the option, exit 2.
 */
#include "options.h"
#include "out.h"
#include "schedule.h"
#include "../defaults.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ numbers -- */

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

int km_cli_parse_duration(const char *s, km_time *out)
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

int km_cli_bad_option(const char *opt, const char *val, const char *why)
{
	km_out_fail("%s%s%s: %s", opt, val ? " " : "", val ? val : "", why);
	return 2;
}

/* ------------------------------------------------------------ setters -- */

static int set_mode(struct options *o, const char *arg, bool lists)
{
	o->rq.mode = km_mode_parse(arg);
	if (o->rq.mode == -2)
		return km_cli_bad_option("--mode", arg, "unknown mode (modes: native, "
				  "cli, bkl, spinlock, semaphore, mutex)");
	return 0;
}

static int set_cpus(struct options *o, const char *arg, bool lists)
{
	uint64_t u;
	if (lists) {
		o->cpus_list = arg;
		return 0;
	}
	if (parse_u64(arg, &u) < 0 || u < 1 || u > KM_MAX_CPUS) {
		char why[64];
		snprintf(why, sizeof(why), "must be a whole number from 1 to %d", KM_MAX_CPUS);
		return km_cli_bad_option("--cpus", arg, why);
	}
	o->rq.cpus = (int)u;
	return 0;
}

static int set_seed(struct options *o, const char *arg, bool lists)
{
	if (parse_u64(arg, &o->rq.seed) < 0 || o->rq.seed > INT64_MAX)
		return km_cli_bad_option("--seed", arg, KM_SEED_RANGE_SAYS);
	o->rq.has_seed = true;
	return 0;
}

static int set_duration(struct options *o, const char *arg, bool lists)
{
	if (km_cli_parse_duration(arg, &o->rq.duration) < 0)
		return km_cli_bad_option("--duration", arg, "must be a positive duration: "
				  "ns, or 500us, 10ms, 2s");
	return 0;
}

static int set_set(struct options *o, const char *arg, bool lists)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg)
		return km_cli_bad_option("--set", arg, "must be NAME=VALUE");
	if (o->rq.nsets == (int)(sizeof(o->sets) / sizeof(o->sets[0])))
		return km_cli_bad_option("--set", arg, "too many --set options");
	if ((size_t)(eq - arg) >= sizeof(o->set_names[0]))
		return km_cli_bad_option("--set", arg, "the name is too long");
	memcpy(o->set_names[o->rq.nsets], arg, (size_t)(eq - arg));
	o->set_names[o->rq.nsets][eq - arg] = 0;
	o->sets[o->rq.nsets].name = o->set_names[o->rq.nsets];
	o->sets[o->rq.nsets].value = eq + 1;
	o->rq.nsets++;
	return 0;
}

static int set_report(struct options *o, const char *arg, bool lists)
{
	if (!strcmp(arg, "text"))
		o->report = REPORT_TEXT;
	else if (!strcmp(arg, "json"))
		o->report = REPORT_JSON;
	else if (!strcmp(arg, "lockstat") && !lists)
		o->report = REPORT_LOCKSTAT;
	else if (!strcmp(arg, "interleaving") && !lists)
		o->report = REPORT_INTERLEAVING;
	else if (!strcmp(arg, "csv") && lists)
		o->csv = true;
	else
		return km_cli_bad_option("--report", arg, lists ? "must be text, json or csv" :
				  "must be text, json, lockstat or interleaving");
	return 0;
}

static int set_to(struct options *o, const char *arg, bool lists)
{
	if (km_cli_parse_duration(arg, &o->sheet.to) < 0)
		return km_cli_bad_option("--to", arg, "must be a time in the run: ns, or "
				  "with a unit: 500us, 10ms, 2s");
	return 0;
}

static int set_steps(struct options *o, const char *arg, bool lists)
{
	uint64_t v;
	if (parse_u64(arg, &v) < 0 || v < 1 || v > 100000000)
		return km_cli_bad_option("--steps", arg, "must be a number of lines "
				  "from 1 to 100000000");
	o->sheet.steps = (size_t)v;
	return 0;
}

static int set_columns(struct options *o, const char *arg, bool lists)
{
	if (!*arg || strlen(arg) > 500)
		return km_cli_bad_option("--columns", arg, "must name columns, e.g. "
				  "mode,cpus,outcome,time,acq/s");
	o->columns = arg;
	return 0;
}

static int set_trace_format(struct options *o, const char *arg, bool lists)
{
	if (!strcmp(arg, "chrome") || !strcmp(arg, "json"))
		o->ftrace = false;
	else if (!strcmp(arg, "ftrace"))
		o->ftrace = true;
	else
		return km_cli_bad_option("--trace-format", arg, "must be chrome or ftrace");
	return 0;
}

static int set_trace_limit(struct options *o, const char *arg, bool lists)
{
	uint64_t u;
	if (parse_u64(arg, &u) < 0 || u < 1 || u > KM_TRACE_LIMIT_MAX)
		return km_cli_bad_option("--trace-limit", arg, "must be a whole number of "
				  "records from 1 to 1000000000000");
	o->rq.trace_limit = (size_t)u;
	return 0;
}

static int set_size(struct options *o, const char *arg, bool lists)
{
	unsigned w, h;
	char x;
	if (strspn(arg, "0123456789xX") != strlen(arg) ||
	    sscanf(arg, "%u%c%u", &w, &x, &h) != 3 || (x != 'x' && x != 'X') ||
	    w < 320 || h < 240 || w > 8192 || h > 8192)
		return km_cli_bad_option("--size", arg, "must be WIDTHxHEIGHT, from 320x240 "
				  "to 8192x8192");
	o->width = (int)w;
	o->height = (int)h;
	return 0;
}

static int set_scale(struct options *o, const char *arg, bool lists)
{
	char *end;
	double v = starts_number(arg) ? strtod(arg, &end) : 0;
	if (!starts_number(arg) || *end || !(v >= 0.5 && v <= 4))
		return km_cli_bad_option("--scale", arg, "must be a number from 0.5 to 4");
	o->scale = (float)v;
	return 0;
}

static int set_hold_max(struct options *o, const char *arg, bool lists)
{
	if (km_cli_parse_duration(arg, &o->rq.hold_max) < 0 ||
	    o->rq.hold_max > KM_SCHEDULE_HOLD_LIMIT)
		return km_cli_bad_option("--hold-max", arg, "must be a duration from 1 ns "
				  "to 60s: ns, or 500us, 10ms, 2s");
	return 0;
}

static int set_max_instructions(struct options *o, const char *arg, bool lists)
{
	if (parse_u64(arg, &o->rq.max_instructions) < 0 || o->rq.max_instructions < 1000)
		return km_cli_bad_option("--max-instructions", arg,
				  "must be a whole number, at least 1000");
	return 0;
}

static int set_max_memory(struct options *o, const char *arg, bool lists)
{
	if (parse_bytes(arg, &o->rq.max_memory) < 0 || o->rq.max_memory < (64u << 10))
		return km_cli_bad_option("--max-memory", arg,
				  "must be a size of at least 64K (K, M, G suffixes)");
	return 0;
}

static int set_max_wall(struct options *o, const char *arg, bool lists)
{
	char *end;
	o->rq.max_wall = starts_number(arg) ? strtod(arg, &end) : 0;
	if (!starts_number(arg) || *end || !isfinite(o->rq.max_wall) || o->rq.max_wall <= 0)
		return km_cli_bad_option("--max-wall", arg, "must be a positive number of seconds");
	return 0;
}

static int set_max_events(struct options *o, const char *arg, bool lists)
{
	if (parse_u64(arg, &o->rq.max_events) < 0 || o->rq.max_events < 1)
		return km_cli_bad_option("--max-events", arg, "must be a positive whole number");
	return 0;
}

static int set_jobs(struct options *o, const char *arg, bool lists)
{
	uint64_t u;
	if (parse_u64(arg, &u) < 0 || u < 1 || u > 256)
		return km_cli_bad_option("--jobs", arg, "must be a whole number from 1 to 256");
	o->jobs = (int)u;
	return 0;
}

static int set_sets(struct options *o, const char *arg, bool lists)
{
	if (o->nsweep_sets == KM_SWEEP_MAX_PARAMS)
		return km_cli_bad_option("--sets", arg, "at most 8 swept parameters");
	o->sweep_sets[o->nsweep_sets++] = arg;
	return 0;
}

/* ----------------------------------------------------- --help's values -- */

static void dflt_cpus(char *b, size_t n) { snprintf(b, n, "%d", KM_MAX_CPUS); }
static void dflt_trace_limit(char *b, size_t n) { snprintf(b, n, "%zu", (size_t)KM_DEFAULT_TRACE_LIMIT); }
static void dflt_size(char *b, size_t n)
{
	snprintf(b, n, "%dx%d", KM_DEFAULT_PNG_WIDTH, KM_DEFAULT_PNG_HEIGHT);
}
static void dflt_instructions(char *b, size_t n)
{
	snprintf(b, n, "%llu", (unsigned long long)KM_DEFAULT_MAX_INSTRUCTIONS);
}
static void dflt_memory(char *b, size_t n) { snprintf(b, n, "%u", KM_DEFAULT_MAX_MEMORY >> 20); }
static void dflt_wall(char *b, size_t n)
{
	snprintf(b, n, "%g; list: %g a file", KM_DEFAULT_MAX_WALL, KM_LIST_MAX_WALL);
}
static void dflt_events(char *b, size_t n)
{
	snprintf(b, n, "%llu", (unsigned long long)KM_DEFAULT_MAX_EVENTS);
}

/* -------------------------------------------------------------- table -- */

#define SCENARIO (KM_CMD_RUN | KM_CMD_COMPARE | KM_CMD_EXPLORE | KM_CMD_PLAY)
#define FLAG(f) KM_OPT_FLAG, offsetof(struct options, f), NULL
#define STRING(f) KM_OPT_STRING, offsetof(struct options, f), NULL
#define CALL(fn) KM_OPT_CALLBACK, 0, fn

const struct km_cli_option km_cli_options[] = {
	{"era", "ID", SCENARIO, STRING(rq.era), NULL,
	 "an era: its year (1996), id or version (2.0)", NULL},
	{"mode", "M", SCENARIO, CALL(set_mode), NULL,
	 "native (default), cli, bkl, spinlock, semaphore, mutex;\n"
	 "native keeps each lock the kind the scenario declares,\n"
	 "the others make every lock that primitive", NULL},
	{"cpus", "N", SCENARIO, CALL(set_cpus), NULL, "number of CPUs, 1 to %s", dflt_cpus},
	{"seed", "S", SCENARIO | KM_CMD_TOUR, CALL(set_seed), NULL,
	 "the run's seed (a non-negative integer)", NULL},
	{"duration", "T", SCENARIO, CALL(set_duration), NULL,
	 "simulated-time bound: ns, or with a unit: 500us, 10ms, 2s", NULL},
	{"anachronism", NULL, SCENARIO, FLAG(rq.anachronism), NULL,
	 "allow a primitive (or SMP) the era did not have yet", NULL},
	{"set", "NAME=VALUE", SCENARIO, CALL(set_set), NULL,
	 "a scenario parameter (repeatable)", NULL},
	{"report", "KIND", KM_CMD_RUN | KM_CMD_COMPARE | KM_CMD_EXPLORE, CALL(set_report), NULL,
	 "text (default), json, lockstat, or interleaving: one\n"
	 "line per operation, a homework sheet whose outcome\n"
	 "shows only with --answers", NULL},
	{"answers", NULL, KM_CMD_RUN, FLAG(answers), NULL, NULL, NULL},
	{"from", "T|lost", KM_CMD_RUN | KM_CMD_COMPARE, STRING(from),
	 "--from T|lost, --to T, --steps N",
	 "the sheet's window: the operations from T to T (500us,\n"
	 "3ms), at most N lines; lost: the first lost update", NULL},
	{"to", "T", KM_CMD_RUN, CALL(set_to), NULL, NULL, NULL},
	{"steps", "N", KM_CMD_RUN, CALL(set_steps), NULL, NULL, NULL},
	{"columns", "LIST", KM_CMD_COMPARE, CALL(set_columns), NULL,
	 "compare: the table's columns, in this order (mode,era,\n"
	 "cpus,outcome,time,acq/s,...); without it, those that fit\n"
	 "$COLUMNS (else 100), and a note names any left out", NULL},
	{"out", "FILE", KM_CMD_RUN | KM_CMD_TOUR | KM_CMD_COMPARE | KM_CMD_EXPLORE,
	 STRING(out_dir), NULL, "run: write the report into FILE, whole or not at all", NULL},
	{"trace", "FILE", KM_CMD_RUN, STRING(trace), NULL,
	 "also write the run's trace: Chrome trace-event JSON that\n"
	 "Perfetto and chrome://tracing open", NULL},
	{"trace-format", "F", KM_CMD_RUN, CALL(set_trace_format), NULL,
	 "chrome (default) or ftrace (text, per-CPU tracks in Perfetto)", NULL},
	{"trace-limit", "N", KM_CMD_RUN | KM_CMD_TOUR, CALL(set_trace_limit), NULL,
	 "keep at most the first N trace records (default %s, 32\n"
	 "bytes each); statistics, checks and the trace hash\n"
	 "stay exact", dflt_trace_limit},
	{"png", "FILE", KM_CMD_RUN, STRING(png), NULL,
	 "also draw the run, as the museum shows it, into a PNG", NULL},
	{"size", "WxH", KM_CMD_RUN | KM_CMD_TOUR, CALL(set_size), NULL,
	 "the PNG's size (default %s)", dflt_size},
	{"scale", "N", KM_CMD_RUN | KM_CMD_TOUR | KM_CMD_PLAY, CALL(set_scale), NULL,
	 "type (and all) N times larger in the window and PNGs,\n"
	 "0.5 to 4; above 1, projector mode: high contrast, text\n"
	 "that wraps (L toggles it in the window)", NULL},
	{"gui", NULL, KM_CMD_RUN | KM_CMD_TOUR | KM_CMD_PLAY, FLAG(gui), NULL,
	 "open the run in the museum's window", NULL},
	{"schedule", "S", KM_CMD_RUN, STRING(schedule), NULL,
	 "run: replay a schedule file that explore --strategy saved", NULL},
	/* compare's and explore's: their lines in --help say them */
	{"modes", "a,b", KM_CMD_COMPARE, STRING(modes), NULL, NULL, NULL},
	{"eras", "x,y", KM_CMD_COMPARE, STRING(eras), NULL, NULL, NULL},
	{"seeds", "A..B", KM_CMD_COMPARE | KM_CMD_EXPLORE, STRING(seeds), NULL, NULL, NULL},
	{"jobs", "N", KM_CMD_COMPARE | KM_CMD_EXPLORE, CALL(set_jobs), NULL, NULL, NULL},
	{"plot", "OUT.png", KM_CMD_COMPARE, STRING(plot), NULL, NULL, NULL},
	{"markov", "A,S,C", KM_CMD_COMPARE, STRING(markov), NULL, NULL, NULL},
	{"sets", "NAME=V1,V2", KM_CMD_COMPARE, CALL(set_sets), NULL, NULL, NULL},
	{"print-jobs", NULL, KM_CMD_COMPARE, FLAG(print_jobs), NULL, NULL, NULL},
	{"slurm-array", NULL, KM_CMD_COMPARE, FLAG(slurm), NULL, NULL, NULL},
	{"skip-done", "DIR", KM_CMD_COMPARE, STRING(skip_done), NULL, NULL, NULL},
	{"goal", "G", KM_CMD_EXPLORE, STRING(goal), NULL, NULL, NULL},
	{"strategy", "STRATEGY", KM_CMD_EXPLORE, STRING(strategy), NULL, NULL, NULL},
	{"hold-max", "T", KM_CMD_EXPLORE, CALL(set_hold_max), NULL,
	 "explore --strategy: the longest a task is held (default:\n"
	 "until the one it let go has stepped; at most 60s)", NULL},
	{"por", NULL, KM_CMD_EXPLORE, FLAG(por), NULL,
	 "explore --strategy exhaustive:K: skip the last hold when it\n"
	 "only reorders commuting steps (fewer runs; \"covered: no\"\n"
	 "if it skipped any: their later clock is not run)", NULL},
	{"no-por", NULL, KM_CMD_EXPLORE, FLAG(no_por), NULL,
	 "explore --strategy exhaustive:K: run every hold (the default)", NULL},
	{"save", "S", KM_CMD_PLAY, STRING(save), NULL,
	 "play: where s (W in the window) saves the schedule (default\n"
	 KM_DEFAULT_OUT_DIR "/<scenario>.schedule)", NULL},
	{"max-instructions", "N", SCENARIO | KM_CMD_TOUR, CALL(set_max_instructions), NULL,
	 "Lua instruction budget (default %s)", dflt_instructions},
	{"max-memory", "BYTES", SCENARIO | KM_CMD_TOUR, CALL(set_max_memory), NULL,
	 "Lua memory budget (default %s MiB; K, M, G suffixes)", dflt_memory},
	{"max-wall", "SECONDS", SCENARIO | KM_CMD_TOUR | KM_CMD_LIST, CALL(set_max_wall), NULL,
	 "wall-clock budget (default %s)", dflt_wall},
	{"max-events", "N", SCENARIO | KM_CMD_TOUR, CALL(set_max_events), NULL,
	 "simulator event budget (default %s)", dflt_events},
};

const int km_cli_noptions = (int)(sizeof(km_cli_options) / sizeof(km_cli_options[0]));

/* o->given has a bit per row */
_Static_assert(sizeof(km_cli_options) / sizeof(km_cli_options[0]) <= 64,
	       "struct options' given has 64 bits");

/* ------------------------------------------------------------ parsing -- */

/* getopt_long's val for row i; 'h' is --help's (it is the program's, not
 * a command's: it is in no row) */
enum { OPT_FIRST = 256 };

static const struct option *long_options(void)
{
	static struct option lo[sizeof(km_cli_options) / sizeof(km_cli_options[0]) + 2];
	if (!lo[0].name) {
		int i;
		for (i = 0; i < km_cli_noptions; i++)
			lo[i] = (struct option){ km_cli_options[i].name,
						 km_cli_options[i].kind == KM_OPT_FLAG ||
						 !km_cli_options[i].arg ? no_argument
									: required_argument,
						 NULL, OPT_FIRST + i };
		lo[i] = (struct option){ "help", no_argument, NULL, 'h' };
	}
	return lo;
}

/* The error of a word getopt_long did not take. */
static int unknown_option(int argc, char **argv)
{
	/* optopt: a short option's letter, a long option's code (it lacks
	 * its value), or 0 (an unknown long option, the word just passed).
	 * A short option may sit inside a word ("-xy"): name the letter,
	 * not a word. */
	const char *w = optind > 0 && optind <= argc ? argv[optind - 1] : "";
	if (optopt > 0 && optopt < OPT_FIRST)
		km_out_fail("unknown option '-%c' (see lockmuseum --help)", optopt);
	else if (optopt && w[0] == '-' && w[1] == '-')
		km_out_fail("option %s needs a value or is unknown (see lockmuseum --help)", w);
	else
		km_out_fail("unknown option '%s' (see lockmuseum --help)", w);
	return 2;
}

int km_cli_options_parse(int argc, char **argv, struct options *o, bool lists)
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
	const struct option *lo = long_options();
	int c;
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		if (c == 'h') {
			/* the whole --help: its caller's (main.c) */
			return -1;
		}
		if (c < OPT_FIRST || c - OPT_FIRST >= km_cli_noptions)
			return unknown_option(argc, argv);
		const struct km_cli_option *opt = &km_cli_options[c - OPT_FIRST];
		o->given |= 1ULL << (c - OPT_FIRST);
		switch (opt->kind) {
		case KM_OPT_FLAG:
			*(bool *)((char *)o + opt->field) = true;
			break;
		case KM_OPT_STRING:
			*(const char **)((char *)o + opt->field) = optarg;
			break;
		case KM_OPT_CALLBACK: {
			int rc = opt->set(o, optarg, lists);
			if (rc)
				return rc;
			break;
		}
		}
	}
	return 0;
}

bool km_cli_option_given(const struct options *o, const char *name)
{
	for (int i = 0; i < km_cli_noptions; i++)
		if (!strcmp(km_cli_options[i].name, name))
			return o->given & (1ULL << i);
	return false;
}

int km_cli_options_only(const struct options *o, const char *name, unsigned cmd)
{
	for (int i = 0; i < km_cli_noptions; i++) {
		if (!(o->given & (1ULL << i)) || (km_cli_options[i].cmds & cmd))
			continue;
		km_out_fail("%s: --%s does not apply to %s (see lockmuseum --help)", name,
			    km_cli_options[i].name, name);
		return 2;
	}
	return 0;
}

/* ------------------------------------------------------------- --help -- */

/*
 * "  --NAME ARG" and the help's first line at column 22, its other lines
 * under it.  A left column too wide for two blanks before 22 gets its
 * two blanks anyway; one wider than 22 has a line of its own.
 */
void km_cli_options_usage(FILE *out)
{
	enum { COLUMN = 22 };
	for (int i = 0; i < km_cli_noptions; i++) {
		const struct km_cli_option *opt = &km_cli_options[i];
		if (!opt->help)
			continue;
		char left[80], value[64] = "";
		if (opt->usage)
			snprintf(left, sizeof(left), "%s", opt->usage);
		else
			snprintf(left, sizeof(left), "--%s%s%s", opt->name, opt->arg ? " " : "",
				 opt->arg ? opt->arg : "");
		if (opt->dflt)
			opt->dflt(value, sizeof(value));
		int n = fprintf(out, "  %s", left);
		if (n > COLUMN) {
			fputc('\n', out);
			n = 0;
		}
		fprintf(out, "%*s", n + 2 > COLUMN ? 2 : COLUMN - n, "");
		for (const char *p = opt->help; *p; p++) {
			if (p[0] == '%' && p[1] == 's') {
				fputs(value, out);
				p++;
			} else if (*p == '\n') {
				fprintf(out, "\n%*s", COLUMN, "");
			} else {
				fputc(*p, out);
			}
		}
		fputc('\n', out);
	}
}
