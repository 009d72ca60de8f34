/*
 * run.c - lockmuseum run and check: one scenario.
 *
 * A run loads the one era it runs in (the shelf, lua/eras.h); check, the
 * window and --png read them all, so that check reports any era file
 * that does not load, as list does.  Then, in this order: the schedule
 * that --schedule replays (refused for another scenario's bytes, or for
 * options that contradict it), the window if --gui asks for it, the
 * trace's spool if --trace does, the run, its report, the trace file and
 * the PNG.
 *
 * What is written is whole or not at all: the trace goes to a spool on
 * disk as the run makes it and is written out through km_out_open() (a
 * temporary file renamed into place); a Ctrl-C leaves no half file and
 * says "interrupted" once.  With --report json, stdout is one JSON
 * object whatever happens, and the report comes last, so that a --trace
 * or --png that failed is its outcome ("error"), as it is the exit
 * status's; the text reports come first.
 *
 * It was the bottom half of main.c; main.c now only parses and
 * dispatches.
 */
#include "run.h"
#include "options.h"
#include "../defaults.h"
#include "session.h"
#include "view_cli.h"
#include "../report/out_file.h"
#include "../report/trace_export.h"
#include "../report/trace_spool.h"
#include "schedule.h"
#include "out.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *prog = "lockmuseum";

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

int km_cli_window_exit(int rc, const char *err)
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
	else if (km_cli_option_given(o, "mode") && rq->mode != mode)
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

int km_cli_run(const struct options *o, const char *file, bool check_only)
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
	struct km_run_request rq = o->rq;
	rq.file = file;
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
		return km_cli_window_exit(rc, err);
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
			nt += km_ctx_kind(sim->ctxs.v[i]) == KM_CTX_TASK;
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
