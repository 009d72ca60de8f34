/*
 * main.c - the lockmuseum command line.
 *
 *   lockmuseum                        the museum: the window on the tour, or
 *                                     the headless tour where there is no display
 *   lockmuseum run FILE [options]     replay one scenario, print its report
 *   lockmuseum check FILE [options]   load and validate only
 *   lockmuseum list [--max-wall S]    scenarios, eras, modes
 *   lockmuseum tour [options]         every exhibit of scripts/tour.lua
 *   lockmuseum compare FILE [options] one run per combination, one table
 *   lockmuseum compare --from DIR...  the same table, of reports run anywhere
 *   lockmuseum explore FILE [options] the first seed that reaches a goal
 *   lockmuseum play FILE [options]    the player chooses the interleaving
 *   lockmuseum --help | --version
 *
 * The commands are a table, as a luaL_Reg is: each entry names the
 * command, its handler, its bit among the options' commands (KM_CMD_*)
 * and its help line.  The options are another table, options.c's: each
 * row says which commands take it, and the parse, the refusal of an
 * option a command does not take and --help's list of options all come
 * from it.  An option the command does not accept is an error, not
 * silently dropped.  A handler copies the options it runs with into a
 * km_run_request in one place (request_from).  Every default is in
 * ../defaults.h.  To give a command a new option: a field in struct
 * options and a row in options.c (which says how).  run and check are
 * run.c's.
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
#include "options.h"
#include "run.h"
#include "../defaults.h"
#include "../lua/sandbox.h"
#include "session.h"
#include "play.h"
#include "tour_cmd.h"
#include "view_cli.h"
#include "view_lib.h"
#include "../lua/tour.h"
#include "compare.h"
#include "schedule.h"
#include "runner.h"
#include "run_out.h"
#include "out.h"

#include <dirent.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef KM_VERSION
#define KM_VERSION "0.1.0"
#endif

static const char *prog = "lockmuseum";

struct command;
static void usage(FILE *out);

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

static int cmd_run(const struct invocation *inv)
{
	return km_cli_run(inv->o, inv->file, false);
}

static int cmd_check(const struct invocation *inv)
{
	return km_cli_run(inv->o, inv->file, true);
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
			return km_cli_bad_option("--set", ps->name, "at most 8 swept parameters");
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
		return km_cli_bad_option("--print-jobs", NULL, "or --slurm-array, not both");
	if ((o->print_jobs || o->slurm) && (o->from || o->plot || o->markov ||
					    km_cli_option_given(o, "report")))
		return km_cli_bad_option(jobs, NULL, "prints jobs: --from, --plot, --markov and "
				  "--report do not apply");
	if ((o->skip_done || o->out_dir) && !o->print_jobs && !o->slurm)
		return km_cli_bad_option(o->skip_done ? "--skip-done" : "--out", NULL, "applies to "
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
			return km_cli_bad_option("--cpus", o->cpus_list, "explore takes one CPU count");
		base.cpus = (int)v;
	}
	if (base.hold_max && !o->strategy)
		return km_cli_bad_option("--hold-max", NULL, "bounds the holds of a --strategy: give one");
	if ((o->por || o->no_por) && (!o->strategy || strncmp(o->strategy, "exhaustive:", 11)))
		return km_cli_bad_option(o->por ? "--por" : "--no-por", NULL,
					 "applies to --strategy exhaustive:K only");
	if (o->por && o->no_por)
		return km_cli_bad_option("--por", NULL, "and --no-por: give one");
	struct km_explore_opts eo = { .file = inv->file, .goal = o->goal, .base = &base,
				      .jobs = o->jobs ? o->jobs : km_online_cpus(),
				      .argc = inv->argc, .argv = inv->argv,
				      .strategy = o->strategy, .out = o->out_dir,
				      .por = o->por };
	const char *seeds = o->seeds ? o->seeds : KM_DEFAULT_SEEDS;
	unsigned long long lo, hi;
	char dots[3];
	if (strspn(seeds, "0123456789.") != strlen(seeds) ||
	    sscanf(seeds, "%llu%2[.]%llu", &lo, dots, &hi) != 3 || strcmp(dots, ".."))
		return km_cli_bad_option("--seeds", seeds, "must be a range A..B, e.g. 1..100");
	/* one seed range everywhere (a count too large is said later) */
	if (hi >= lo && hi - lo < 1000000 && hi > INT64_MAX)
		return km_cli_bad_option("--seeds", seeds, KM_SEED_RANGE_SAYS);
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
	return km_cli_window_exit(rc, err);
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
	/* each file's wall-clock budget: 10 s, or --max-wall's (a script
	 * of list reading a folder of strangers' scenarios wants less) */
	double wall = km_cli_option_given(inv->o, "max-wall") ? inv->o->rq.max_wall :
			KM_LIST_MAX_WALL;
	if (km_load_eras_within(&eras, wall, err, sizeof(err)) < 0) {
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
					   .max_wall = wall, .seed = 1, .eras = &shelf };
		bool armed = km_watchdog_arm(path, lo.max_wall, true);
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
		if (km_tour_open(&eras, &tour, err, sizeof(err)) < 0) {
			fprintf(stderr, "%s: %s\n", prog, err);
			return 2;
		}
		int rc = km_cli_window_tour(&eras, &tour, 0, base, err, sizeof(err));
		km_tour_close(&eras, &tour);
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

struct command {
	const char *name;
	int (*handler)(const struct invocation *inv);
	unsigned options;		/* KM_CMD_*: which of options.c's rows it takes */
	bool file;			/* takes one scenario FILE.lua */
	bool lists;			/* --cpus is a list, --report may be csv */
	const char *synopsis;		/* after "lockmuseum NAME " in --help */
	const char *help;		/* what it does; more lines after '\n' */
};

static const struct command commands[] = {
	{"run", cmd_run, KM_CMD_RUN, true, false, "FILE.lua [options]",
	 "replay one scenario and report on it"},
	{"check", cmd_check, KM_CMD_RUN, true, false, "FILE.lua [options]",
	 "load and validate only"},
	{"list", cmd_list, KM_CMD_LIST, false, false, "[--max-wall S]",
	 "the scenarios, eras and modes"},
	{"tour", cmd_tour, KM_CMD_TOUR, false, false, "[--out DIR]",
	 "every exhibit, 1991 to 2023, with its lesson"},
	{"compare", cmd_compare, KM_CMD_COMPARE, true, true,
	 "FILE.lua [--modes a,b] [--eras x,y] [--cpus 1,2,4] [--jobs N]",
	 "one run per combination, one table\n(--report text|json|csv, --plot OUT.png)\n"
	 "[--markov A,S,C]: a ticket lock's Markov model\n(ns: work, serial section, line "
	 "transfer)\n"
	 "[--seeds A..B] [--sets NAME=V1,V2]: seeds of each\ncombination (mean, min, max), "
	 "and a parameter's\nvalues, as more combinations\n"
	 "[--print-jobs | --slurm-array] [--out DIR]\n[--skip-done DIR]: the sweep as one "
	 "command a\nrun (GNU parallel) or a Slurm job array\n"
	 "--from DIR|FILE...: the table of reports run\nanywhere (no FILE.lua needed)"},
	{"play", cmd_play, KM_CMD_PLAY, true, false, "FILE.lua [options]",
	 "you are the scheduler: choose who goes next\nat each point the kernel could switch\n"
	 "(--gui: in the window; G there too)"},
	{"explore", cmd_explore, KM_CMD_EXPLORE, true, true,
	 "FILE.lua --seeds 1..N [--goal violation|deadlock|check|max:ops.NAME.p99]",
	 "the first seed that reaches the goal\n"
	 "--strategy random|pct:D|exhaustive:K: search\nthe schedules instead; --out S saves the\n"
	 "one found for run --schedule S"},
	{NULL, NULL, 0, false, false, NULL, NULL},
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
"options:\n");
	km_cli_options_usage(out);
	fprintf(out, "\n"
		"exit status: 0 clean run, 1 a check failed or a violation was found,\n"
		"2 bad usage or scenario, 3 deadlock, 130 interrupted (Ctrl-C).\n");
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

/*
 * Will the command draw: a window, a PNG, a plot?  In a program linked
 * statically the view cannot be opened, so such a command is handed to
 * lockmuseum-draw before it does anything (km_view_lib_exec); a command
 * that asks for one without drawing it (check --gui) is handed on too,
 * and says the same there.
 */
static bool draws(const struct command *cmd, const struct options *o)
{
	return o->gui || o->png || o->plot || (cmd->handler == cmd_tour && o->out_dir);
}

/* Hand a drawing command on (see draws()); 0 if this program draws. */
static int draw_elsewhere(char **argv)
{
	char err[1024];
	if (km_view_lib_exec(argv, err, sizeof(err)) == 0)
		return 0;
	km_out_fail("%s", err);
	return 2;
}

static int cli_main(int argc, char **argv)
{
	km_session_catch_signals();
	if (argc < 2) {
		int rc = draw_elsewhere(argv);
		if (rc)
			return rc;
		struct km_run_request base;
		km_run_request_init(&base);
		rc = cmd_museum(&base, false);
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
	int rc = km_cli_options_parse(argc - 1, argv + 1, &o, cmd->lists);
	if (rc < 0)
		usage(stdout);	/* --help: done, exit 0 */
	if (rc)
		return rc < 0 ? 0 : rc;
	if ((rc = km_cli_options_only(&o, cmd->name, cmd->options)))
		return rc;
	if (o.answers && o.report != REPORT_INTERLEAVING)
		return km_cli_bad_option("--answers", NULL, "shows the answers of --report interleaving; "
				  "add --report interleaving");
	o.sheet.answers = o.answers;
	if ((cmd->handler == cmd_run || cmd->handler == cmd_check) &&
	    (o.from || o.sheet.to || o.sheet.steps)) {
		/* the homework sheet's window */
		const char *which = o.from ? "--from" : o.sheet.to ? "--to" : "--steps";
		if (o.report != REPORT_INTERLEAVING)
			return km_cli_bad_option(which, NULL, "chooses the lines of --report interleaving; "
					  "add --report interleaving");
		if (o.from && !strcmp(o.from, "lost"))
			o.sheet.from_lost = true;
		else if (o.from && km_cli_parse_duration(o.from, &o.sheet.from) < 0)
			return km_cli_bad_option("--from", o.from, "must be a time in the run (500us, 10ms, "
					  "2s) or lost: the first lost update");
		if (o.sheet.to && o.sheet.to < o.sheet.from)
			return km_cli_bad_option("--to", NULL, "must not be before --from");
		if (o.sheet.from_lost && o.sheet.to)
			return km_cli_bad_option("--to", NULL, "--from lost chooses its own window; give "
					  "--steps instead");
	}
	if (o.scale > 0 && cmd->handler != cmd_tour && !o.gui && !o.png)
		return km_cli_bad_option("--scale", NULL, "sizes the window and pictures; add --gui or --png");
	if (o.scale > 0)
		km_view_lib_set_scale(o.scale);
	if (draws(cmd, &o) && (rc = draw_elsewhere(argv)))
		return rc;
	/* getopt_long has moved the operands to the end: argv[1 + optind ..] */
	int nargs = argc - 1 - optind;
	if (cmd->handler == cmd_compare && (rc = compare_conflicts(&o)))
		return rc;
	if (cmd->handler == cmd_compare && o.from) {
		/* the operands are more reports: --from DIR a.json b.json */
		char **paths = malloc((size_t)(nargs + 1) * sizeof(*paths));
		if (!paths)
			return km_cli_bad_option("--from", o.from, "out of memory");
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
			return km_cli_bad_option("--out", o.out_dir, err);
		rc = cmd->handler(&inv);
		if (km_run_out_end(&ro, rc >= 0 && rc <= 3 && !km_interrupted, err,
				   sizeof(err)) < 0)
			rc = km_cli_bad_option("--out", o.out_dir, err);
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
