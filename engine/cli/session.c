/*
 * session.c - one run of one scenario.  See session.h.
 */
#include "session.h"
#include "../report/out_file.h"
#include "../report/trace_export.h"
#include "../lua/sandbox.h"
#include "../lua/fields.h"
#include "out.h"

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <time.h>
#include <sys/time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef KM_DATADIR
#define KM_DATADIR "/usr/local/share/lockmuseum"
#endif

volatile int km_interrupted;
volatile sig_atomic_t km_writing_output;

/* "interrupted" was said on stderr (km_session_say_interrupted). */
static volatile sig_atomic_t interrupted_said;

void km_session_say_interrupted(void)
{
	if (interrupted_said)
		return;
	interrupted_said = 1;	/* first: the alarm's handler then says nothing */
	static const char msg[] = "lockmuseum: interrupted\n";
	ssize_t w = write(STDERR_FILENO, msg, sizeof(msg) - 1);
	(void)w;
}

static void on_signal(int sig)
{
	/* A second Ctrl-C does not wait for the run to notice the first:
	 * a library call (a pattern match, say) may not come back soon. */
	if (km_interrupted) {
		km_out_remove_pending();	/* no half-written temporary left */
		_exit(130);
	}
	km_interrupted = sig;
	/* Nor does the first wait long: whatever phase is running (an era
	 * file, `list`, the tour, a run), the checks that read the flag end
	 * it well within a second, and if none comes -- one library call that
	 * never returns to Lua -- the alarm ends the process (on_watchdog). */
	alarm(1);
}

/*
 * The watchdog.  Budgets are checked between Lua instructions and between
 * events; a single library call -- a string pattern that backtracks for
 * hours -- runs no instruction and no event.  So a timer outside Lua ends
 * the process once the wall-clock budget is past by a grace period: the
 * one-line message (and, for --report json, a JSON object) is prepared
 * before the timer is armed, and the handler only writes and exits.
 *
 * A run arms and disarms it by writing its deadline (wd_deadline), not
 * the timer: the explorer makes tens of thousands of runs a second, and
 * two setitimer calls a run were a tenth of its time.  The timer is set
 * only when it is not running or would fire after the new deadline; when
 * it fires before the deadline (a later run pushed it) the handler sets
 * it again for what is left, and when the watchdog is disarmed it stops.
 * A forked worker has no timer (fork does not copy it): wd_child says so.
 */
static _Atomic int64_t wd_deadline;	/* CLOCK_MONOTONIC ns; 0: disarmed */
static _Atomic int64_t wd_timer_at;	/* when the timer fires; 0: not running */

static int64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The timer, to fire at @at, @left ns from now. */
static void wd_timer_set(int64_t at, int64_t left)
{
	if (left < 1000)
		left = 1000;
	atomic_store(&wd_timer_at, at);
	struct itimerval it = { .it_value = { .tv_sec = (time_t)(left / 1000000000),
					      .tv_usec = (suseconds_t)(left % 1000000000 / 1000) } };
	setitimer(ITIMER_REAL, &it, NULL);
}

static void wd_child(void)
{
	atomic_store(&wd_timer_at, 0);
}

static bool watchdog_json_wanted;
static char watchdog_msg[1024], watchdog_json[1400];
static size_t watchdog_msg_len, watchdog_json_len;

static void on_watchdog(int sig)
{
	(void)sig;
	if (km_interrupted && km_writing_output) {
		/* an output file is being written: its writer sees the flag and
		 * removes its temporary; an exit here would leave it behind */
		alarm(1);
		return;
	}
	if (km_interrupted) {
		static const char json[] = "{\"outcome\": \"error\", \"reason\": \"interrupted\"}\n";
		static const char msg[] = "lockmuseum: interrupted\n";
		if (km_out_json && !km_out_json_was_sent()) {
			ssize_t w = write(STDOUT_FILENO, json, sizeof(json) - 1);
			(void)w;
		}
		if (!interrupted_said) {	/* the program may have said it already,
						 * then taken a second to tidy up */
			ssize_t w = write(STDERR_FILENO, msg, sizeof(msg) - 1);
			(void)w;
		}
		_exit(130);
	}
	int64_t dl = atomic_load(&wd_deadline);
	if (!dl) {			/* disarmed since the timer was set */
		atomic_store(&wd_timer_at, 0);
		return;
	}
	int64_t now = mono_ns();
	if (now < dl) {			/* armed again later: not yet */
		wd_timer_set(dl, dl - now);
		return;
	}
	if (watchdog_json_wanted && watchdog_json_len) {
		ssize_t w = write(STDOUT_FILENO, watchdog_json, watchdog_json_len);
		(void)w;
	}
	ssize_t w = write(STDERR_FILENO, watchdog_msg, watchdog_msg_len);
	(void)w;
	_exit(2);
}

static void watchdog_arm_hint(const char *file, double wall, bool json, const char *hint)
{
	if (wall <= 0)
		return;
	/* armed again for the same run (a resumed one: km_session_resumed):
	 * the messages and the handler are ready, only the timer restarts */
	static char armed_file[1024];
	static const char *armed_hint;
	static double armed_wall;
	static bool armed_json;
	if (hint == armed_hint && wall == armed_wall && json == armed_json && watchdog_msg_len &&
	    !strcmp(file, armed_file))
		goto timer;
	size_t flen = strlen(file);
	if (flen < sizeof(armed_file))
		memcpy(armed_file, file, flen + 1);
	else
		armed_file[0] = 0;	/* too long to keep: built again next time */
	armed_hint = flen < sizeof(armed_file) ? hint : NULL;
	armed_wall = wall;
	armed_json = json;
	watchdog_json_wanted = json;
	snprintf(watchdog_msg, sizeof(watchdog_msg), "lockmuseum: %s: wall-clock budget of %g s "
		 "exceeded inside one library call that the budget cannot interrupt (%s)\n", file,
		 wall, hint);
	watchdog_msg_len = strlen(watchdog_msg);
	char reason[1100];
	size_t k = 0;
	for (const char *p = watchdog_msg + 12; *p && *p != '\n' && k + 2 < sizeof(reason); p++) {
		if (*p == '"' || *p == '\\')
			reason[k++] = '\\';
		reason[k++] = (*p >= 0 && *p < 32) ? ' ' : *p;
	}
	reason[k] = 0;
	snprintf(watchdog_json, sizeof(watchdog_json), "{\"outcome\": \"error\", \"reason\": \"%s\"}\n",
		 reason);
	watchdog_json_len = strlen(watchdog_json);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_watchdog;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	static bool atfork;
	if (!atfork)
		atfork = pthread_atfork(NULL, NULL, wd_child) == 0;
timer:;
	double grace = wall + 3.0;
	int64_t left = grace < 1e9 ? (int64_t)(grace * 1e9) : (int64_t)1e18;
	int64_t now = mono_ns(), dl = now + left;
	atomic_store(&wd_deadline, dl);
	int64_t at = atomic_load(&wd_timer_at);
	if (!at || at > dl || !atfork)
		wd_timer_set(dl, left);
}

static void watchdog_arm(const char *file, double wall, bool json)
{
	watchdog_arm_hint(file, wall, json, "raise it with --max-wall");
}

static void watchdog_disarm(void)
{
	if (km_interrupted)
		return;		/* the alarm of on_signal is running */
	atomic_store(&wd_deadline, 0);	/* the timer, if it fires, stops */
}

bool km_watchdog_arm(const char *file, double wall, bool settable)
{
	/* a run's own watchdog, already armed, stays in charge */
	if (atomic_load(&wd_deadline))
		return false;
	watchdog_arm_hint(file, wall, false, settable ? "raise it with --max-wall" :
			  "the budget of era files and the tour is fixed");
	return true;
}

void km_watchdog_disarm(bool armed)
{
	if (armed && !km_interrupted)
		watchdog_disarm();
}

void km_session_catch_signals(void)
{
	km_trace_export_cancel(&km_interrupted);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* the alarm of on_signal, before any watchdog is armed */
	sa.sa_handler = on_watchdog;
	sigaction(SIGALRM, &sa, NULL);
	/* A file-size limit (or a full disk) must be a write error we report,
	 * with the previous file left intact, not a signal that kills us. */
	signal(SIGXFSZ, SIG_IGN);
}

void km_run_request_init(struct km_run_request *rq)
{
	memset(rq, 0, sizeof(*rq));
	rq->mode = KM_MODE_NATIVE;
	rq->max_instructions = KM_DEFAULT_MAX_INSTRUCTIONS;
	rq->max_memory = KM_DEFAULT_MAX_MEMORY;
	rq->max_wall = KM_DEFAULT_MAX_WALL;
	rq->max_events = KM_DEFAULT_MAX_EVENTS;
}

/* LOCKMUSEUM_NO_RUN_AHEAD=1: every operation yields to the event loop, as
 * before the run-ahead.  Not an option: it exists so that a test can show
 * the two paths give the same runs, byte for byte. */
static bool no_run_ahead(void)
{
	const char *v = getenv("LOCKMUSEUM_NO_RUN_AHEAD");
	return v && *v && strcmp(v, "0") != 0;
}

/* ---------------------------------------------------------- data folder -- */

static bool has_eras(const char *dir)
{
	char p[PATH_MAX + 64];
	struct stat st;
	snprintf(p, sizeof(p), "%s/eras", dir);
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *km_datadir(void)
{
	static char dir[PATH_MAX + 64];
	if (dir[0])
		return dir;
	const char *env = getenv("LOCKMUSEUM_DATA");
	if (env && *env) {
		snprintf(dir, sizeof(dir), "%s", env);
		return dir;
	}
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = 0;
		char *slash = strrchr(exe, '/');
		if (slash)
			*slash = 0;
		static const char *const tries[] = { "%s/..", "%s/../share/lockmuseum", "%s" };
		for (size_t i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
			char cand[PATH_MAX + 32];
			snprintf(cand, sizeof(cand), tries[i], exe);
			if (has_eras(cand)) {
				char *r = realpath(cand, NULL);
				snprintf(dir, sizeof(dir), "%.*s", PATH_MAX, r ? r : cand);
				free(r);
				return dir;
			}
		}
	}
	snprintf(dir, sizeof(dir), "%s", KM_DATADIR);
	return dir;
}

const char *km_scenario_path(const char *arg, char *buf, size_t len)
{
	struct stat st;
	if (!arg || !*arg || arg[0] == '/' || stat(arg, &st) == 0)
		return arg;
	static const char *const under[] = { "%s/scripts/%s", "%s/%s" };
	for (size_t i = 0; i < sizeof(under) / sizeof(under[0]); i++) {
		int n = snprintf(buf, len, under[i], km_datadir(), arg);
		if (n > 0 && (size_t)n < len && stat(buf, &st) == 0 && S_ISREG(st.st_mode))
			return buf;
	}
	return arg;
}

int km_open_eras(struct km_era_shelf *shelf, char *err, size_t errlen)
{
	char dir[PATH_MAX + 128];
	snprintf(dir, sizeof(dir), "%s/eras", km_datadir());
	return km_era_shelf_open(shelf, dir, err, errlen);
}

const struct km_era_list *km_all_eras(struct km_era_shelf *shelf, char *err, size_t errlen)
{
	bool armed = km_watchdog_arm(shelf->dir ? shelf->dir : "eras", 10.0, false);
	const struct km_era_list *all = km_era_shelf_all(shelf, err, errlen);
	km_watchdog_disarm(armed);
	return all;
}

static int load_eras(struct km_era_list *eras, double wall, bool settable, char *err,
		     size_t errlen)
{
	char dir[PATH_MAX + 128];
	snprintf(dir, sizeof(dir), "%s/eras", km_datadir());
	/* era files are Lua too: the watchdog ends one library call that
	 * would outlast their budget (10 s, or list's --max-wall) */
	bool armed = km_watchdog_arm(dir, wall, settable);
	int rc = km_eras_load(dir, wall, eras, err, errlen);
	km_watchdog_disarm(armed);
	return rc;
}

int km_load_eras(struct km_era_list *eras, char *err, size_t errlen)
{
	return load_eras(eras, 10.0, false, err, errlen);
}

int km_load_eras_within(struct km_era_list *eras, double wall, char *err, size_t errlen)
{
	return load_eras(eras, wall, true, err, errlen);
}

/* ------------------------------------------------------------------ run -- */

static int fail(struct km_session *s, enum km_outcome outcome, const char *msg)
{
	snprintf(s->reason, sizeof(s->reason), "%s", msg);
	/* One line on stderr and a valid JSON string, whatever the scenario
	 * put in its error: control characters become spaces, and bytes that
	 * are not UTF-8 become '?'. */
	size_t n = strlen(s->reason);
	bool utf8 = km_utf8_valid(s->reason, n);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s->reason[i];
		if (c < 32 || c == 127)
			s->reason[i] = ' ';
		else if (!utf8 && c >= 0x80)
			s->reason[i] = '?';
	}
	s->ri.outcome = outcome;
	s->ri.reason = s->reason;
	return 2;
}

/* Every era, for a message that names others: loaded only on the paths
 * that print one.  NULL with @msg set when an era file does not load. */
static const struct km_era_list *every_era(struct km_era_shelf *eras, char *msg, size_t len)
{
	return km_era_shelf_all(eras, msg, len);
}

/* Refuse a primitive (or SMP) the era did not have, naming when it came:
 * -1 with @msg.  -2 with @msg when an era file the message needs does not
 * load (an error, not a refusal). */
static int era_allows(struct km_session *s, struct km_era_shelf *shelf,
		      const struct km_run_request *rq, const struct km_era *era, int cpus,
		      char *msg, size_t len)
{
	if (rq->anachronism)
		return 0;
	const struct km_era_list *eras;
	const char *said = rq->cpus_said ? rq->cpus_said : "--cpus";
	if (cpus > 1 && !era->smp) {
		if (!(eras = every_era(shelf, msg, len)))
			return -2;
		const struct km_era *smp = NULL;
		for (int i = 0; i < eras->n && !smp; i++)
			if (eras->v[i].smp)
				smp = &eras->v[i];
		if (smp)
			snprintf(msg, len, "%s %d: Linux %s (%s) ran on one CPU; SMP arrived in "
				 "%s (%s); use --anachronism to run it on %d anyway", said, cpus,
				 era->version, era->id, smp->version, smp->id, cpus);
		else
			snprintf(msg, len, "%s %d: Linux %s (%s) ran on one CPU; use "
				 "--anachronism to run it on %d anyway", said, cpus, era->version,
				 era->id, cpus);
		return -1;
	}
	enum { MAXL = 4096 };
	static enum km_prim kinds[MAXL];
	static bool pinned[MAXL];
	int n = km_scenario_lock_kinds(s->sc, kinds, pinned, MAXL);
	for (int i = 0; i < n; i++) {
		bool own = rq->mode == KM_MODE_NATIVE || pinned[i];
		enum km_prim p = own ? kinds[i] : (enum km_prim)rq->mode;
		if (km_era_has(era, p))
			continue;
		if (!(eras = every_era(shelf, msg, len)))
			return -2;
		const struct km_era *arr = km_eras_arrival(eras, p);
		const struct km_era *gone = km_eras_removal(eras, p);
		const char *what = own ? "a lock of kind" : "--mode";
		if (arr && arr->year > era->year)
			snprintf(msg, len, "%s %s: Linux %s (%s) had no %s yet; it arrived in %s (%s). "
				 "Use --anachronism to run it anyway", what, km_prim_name(p),
				 era->version, era->id, km_prim_name(p), arr->version, arr->id);
		else if (gone && gone->year <= era->year)
			snprintf(msg, len, "%s %s: Linux %s (%s) no longer had it; it was gone "
				 "by %s (%s). Use --anachronism to run it anyway", what,
				 km_prim_name(p), era->version, era->id, gone->version, gone->id);
		else
			snprintf(msg, len, "%s %s: Linux %s (%s) had no %s. Use --anachronism to "
				 "run it anyway", what, km_prim_name(p), era->version, era->id,
				 km_prim_name(p));
		return -1;
	}
	return 0;
}

static int session_run(struct km_session *s, struct km_era_shelf *eras,
		       const struct km_run_request *rq);

static void *report_part(void *ud, const char *key)
{
	return km_report_json_part(ud, key);
}

int km_session_run_shelf(struct km_session *s, struct km_era_shelf *eras,
			 const struct km_run_request *rq)
{
	watchdog_arm(rq->file, rq->max_wall, rq->json_errors);
	int rc = session_run(s, eras, rq);
	watchdog_disarm();
	return rc;
}

int km_session_run(struct km_session *s, const struct km_era_list *eras,
		   const struct km_run_request *rq)
{
	struct km_era_shelf shelf;
	km_era_shelf_wrap(&shelf, eras);
	int rc = km_session_run_shelf(s, &shelf, rq);
	km_era_shelf_close(&shelf);
	return rc;
}

/* The message for an era key that names no era, with the nearest and
 * every era there is. */
static void unknown_era(struct km_era_shelf *shelf, const struct km_run_request *rq,
			const char *key, char *err, size_t errlen)
{
	const struct km_era_list *eras = every_era(shelf, err, errlen);
	if (!eras)
		return;
	char near[64] = "";
	char *end;
	long year = strtol(key, &end, 10);
	if (!*end && year > 0 && eras->n > 0) {
		const struct km_era *best = &eras->v[0];
		for (int i = 1; i < eras->n; i++)
			if (labs(eras->v[i].year - year) < labs(best->year - year))
				best = &eras->v[i];
		/* a year between two eras: name the nearest, as a person would */
		snprintf(near, sizeof(near), "; the nearest is %s", best->id);
	}
	size_t off = (size_t)snprintf(err, errlen, "%s%s%s '%s': unknown era%s (eras:",
				      rq->era ? "" : rq->file, rq->era ? "" : ": ",
				      rq->era ? (rq->era_said ? rq->era_said : "--era") :
				      "scenario{ era }", key, near);
	for (int i = 0; i < eras->n && off < errlen; i++)
		off += (size_t)snprintf(err + off, errlen - off, "%s %s", i ? "," : "",
					eras->v[i].id);
	if (off < errlen)
		snprintf(err + off, errlen - off, ")");
}

static int session_run(struct km_session *s, struct km_era_shelf *eras,
		       const struct km_run_request *rq)
{
	char err[1024];
	memset(s, 0, sizeof(*s));
	s->ri.mode = rq->mode;
	s->ri.file = rq->file;
	s->ri.scenario = rq->file;
	s->ri.seed = rq->seed;
	s->ri.era_key = rq->era;
	s->ri.schedule = rq->schedule_name;

	struct km_load_opts lo = {
		.sets = rq->sets, .nsets = rq->nsets,
		.max_instructions = rq->max_instructions, .max_memory = rq->max_memory,
		.max_wall = rq->max_wall, .seed = rq->has_seed ? rq->seed : 1,
		.seed_given = rq->has_seed, .stop = &km_interrupted,
		.cpus = rq->cpus, .era = rq->era, .eras = eras,
	};
	for (int i = 0; i < rq->nsets; i++)
		rq->sets[i].used = false;
	s->sc = km_scenario_load(rq->file, &lo, err, sizeof(err));
	if (!s->sc)
		return fail(s, KM_OUT_ERROR, err);
	const struct km_scenario_meta *m = km_scenario_meta(s->sc);
	s->ri.scenario = m->name;
	s->ri.title = m->title;
	s->ri.scenario_hash = km_scenario_source_hash(s->sc);
	s->ri.has_scenario_hash = true;
	s->ri.nparams = km_scenario_params(s->sc, &s->ri.params);

	const char *key = rq->era ? rq->era : m->era[0] ? m->era : NULL;
	const struct km_era *era;
	s->ri.era_key = key;
	if (km_era_shelf_find(eras, key, &era, err, sizeof(err)) < 0)
		return fail(s, KM_OUT_ERROR, err);
	if (!era) {
		if (key)
			unknown_era(eras, rq, key, err, sizeof(err));
		else
			snprintf(err, sizeof(err), "%s: no era to run in", rq->file);
		return fail(s, KM_OUT_ERROR, err);
	}
	s->ri.era = era;
	int cpus = rq->cpus ? rq->cpus : m->cpus ? m->cpus : era->cpus;
	uint64_t seed = rq->has_seed ? rq->seed : m->has_seed ? m->seed : 1;
	km_time duration = rq->duration ? rq->duration : m->duration ? m->duration :
			   (km_time)60 * 1000000000LL;
	s->ri.cpus = cpus;
	s->ri.seed = seed;
	s->ri.duration = duration;
	/* A combination that cannot run, as a counting lock as a mutex is. */
	int allowed = era_allows(s, eras, rq, era, cpus, err, sizeof(err));
	if (allowed < 0)
		return fail(s, allowed == -2 ? KM_OUT_ERROR : KM_OUT_NOT_APPLICABLE, err);

	struct km_config cfg = {
		.cpus = cpus, .seed = seed, .duration = duration, .mode = rq->mode,
		.anachronism = rq->anachronism, .store_trace = rq->store_trace,
		.trace_limit = rq->trace_limit, .trace_sink = rq->trace_sink,
		.max_events = rq->max_events,
		.max_wall = rq->max_wall, .stop = &km_interrupted,
		.no_run_ahead = no_run_ahead(),
		.chooser = rq->chooser, .hold_max = rq->hold_max,
	};
	struct km_sim *sim = km_scenario_instantiate(s->sc, era, &cfg, err, sizeof(err));
	if (!sim)
		return fail(s, KM_OUT_ERROR, err);
	s->ri.sim = sim;
	if (rq->check_only) {
		/* Resolve the primitives as a run would, without running. */
		int rc = km_sim_start(sim);
		if (rc == KM_ENOTAPPLICABLE)
			return fail(s, KM_OUT_NOT_APPLICABLE, sim->reason);
		if (rc < 0) {
			snprintf(err, sizeof(err), "%s: %s", rq->file, sim->errmsg);
			return fail(s, KM_OUT_ERROR, err);
		}
		return 0;
	}

	int rc = km_scenario_run(s->sc, err, sizeof(err));
	if (rc < 0) {
		/* A task that never ends spends the instruction budget while
		 * simulated time goes on (events keep coming; a Lua loop that
		 * never yields makes none): a newcomer wants --duration, not a
		 * bigger budget, so say both. */
		size_t len = strlen(err);
		if (strstr(err, "instruction budget") && sim->events >= 1000 && !rq->duration &&
		    !m->duration && len + 100 < sizeof(err)) {
			char t[32];
			snprintf(err + len, sizeof(err) - len, "; a task that never ends wants "
				 "--duration (it had simulated %s)", km_fmt_ns(sim->now, t, sizeof(t)));
		}
		return fail(s, KM_OUT_ERROR, err);
	}
	if (sim->outcome == KM_OUT_NOT_APPLICABLE)
		return fail(s, KM_OUT_NOT_APPLICABLE, sim->reason);
	s->ri.outcome = sim->outcome;
	s->ri.reason = sim->reason;
	s->ri.lines = km_scenario_lines(s->sc, &s->ri.nlines);

	/* The checks read the report as Lua tables: the small part at once,
	 * the parts that grow with the machine only if a check asks; with no
	 * check, nothing reads it. */
	if (!km_scenario_check_count(s->sc))
		return km_report_exit_status(&s->ri);
	json_t *j = km_report_json_small(&s->ri);
	if (!j)
		return fail(s, KM_OUT_ERROR, "out of memory building the report");
	const struct km_check_report rep = {
		.small = j, .lazy = km_report_grown_keys, .part = report_part, .ud = &s->ri,
	};
	const struct km_check_result *checks;
	int nchecks;
	rc = km_scenario_checks(s->sc, &rep, &checks, &nchecks, err, sizeof(err));
	json_decref(j);
	if (rc < 0)
		return fail(s, KM_OUT_ERROR, err);
	s->ri.checks = checks;
	s->ri.nchecks = nchecks;
	return km_report_exit_status(&s->ri);
}

void km_session_resumed(struct km_session *s, const struct km_run_request *rq)
{
	watchdog_arm(rq->file, rq->max_wall, rq->json_errors);
	if (s->sc)
		km_scenario_wall_restart(s->sc);
}

void km_session_free(struct km_session *s)
{
	km_scenario_free(s->sc);
	s->sc = NULL;
	s->ri.sim = NULL;
}
