/*
 * play.c - `lockmuseum play FILE`: you are the scheduler, at a terminal.
 *
 * The explorer's choice points (../choice.h) are where a kernel could
 * have switched: a task about to take its next step, with the other
 * tasks that could go first.  play stops at each one that offers a
 * choice, shows the task and the line it would run next, and each task
 * that could go first with its own line, and asks.  Enter lets the task
 * go (what real timing does); a number holds it and lets that task go
 * first.  When the run ends it says whether the scenario's goal was
 * reached (a failed check(), a violation, a deadlock), and `s FILE`
 * saves the decisions as a schedule file that `run --schedule` replays.
 *
 * How: a run takes microseconds, so play keeps only the decisions and
 * runs the scenario again from its start for each question: the
 * decisions so far are replayed, and the run stops (the chooser fails
 * it on purpose) at the first choice point past them.  Undo is dropping
 * the last decision; nothing of a run is kept between two questions.
 * The same decisions give the same run, so what the player saw is what
 * the schedule file replays.
 *
 * The window's play mode (issue 14) is to be built on the same loop.
 */
#include "play.h"
#include "out.h"
#include "schedule.h"
#include "session.h"

#include "../lua/scenario.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* At most this many tasks are offered at one choice point. */
#define PLAY_MAX_OTHERS 64

struct play {
	struct km_schedule holds;	/* the decisions that held a task */
	uint32_t upto;			/* choice points below this are decided */
	int next;			/* the next hold to replay */
	struct km_session *s;		/* the run being made */
	/* where the run stopped for a question */
	bool paused;
	uint32_t index;
	km_time now;
	uint32_t ctx;
	int line;
	int nothers;
	uint32_t others[PLAY_MAX_OTHERS];
	int other_lines[PLAY_MAX_OTHERS];
	struct km_chooser chooser;
};

#define PAUSED "play: paused at a choice point"

static int play_choose(void *ud, const struct km_sim *sim, const struct km_choice_point *cp,
		       char *err, size_t errlen)
{
	struct play *p = ud;
	if (cp->index < p->upto) {
		if (p->next < p->holds.n && p->holds.d[p->next].index == cp->index) {
			const struct km_decision *d = &p->holds.d[p->next++];
			for (int i = 0; i < cp->nothers; i++)
				if (cp->others[i]->id == d->other)
					return i;
			snprintf(err, errlen, "play: the decision at choice point %u no longer fits",
				 cp->index);
			return KM_CHOOSE_FAIL;
		}
		return KM_CHOOSE_GO;
	}
	if (cp->nothers == 0)
		return KM_CHOOSE_GO;	/* nobody could go first: no question */
	const struct km_scenario *sc = p->s->sc;
	p->paused = true;
	p->index = cp->index;
	p->now = sim->now;
	p->ctx = cp->ctx->id;
	p->line = sc ? km_scenario_ctx_line(sc, cp->ctx) : 0;
	p->nothers = cp->nothers < PLAY_MAX_OTHERS ? cp->nothers : PLAY_MAX_OTHERS;
	for (int i = 0; i < p->nothers; i++) {
		p->others[i] = cp->others[i]->id;
		p->other_lines[i] = sc ? km_scenario_ctx_line(sc, cp->others[i]) : 0;
	}
	snprintf(err, errlen, PAUSED);
	return KM_CHOOSE_FAIL;
}

/* Line @n of @path, trimmed, into @buf ("" when there is none). */
static const char *source_line(const char *path, int n, char *buf, size_t len)
{
	buf[0] = 0;
	FILE *f = n > 0 ? fopen(path, "r") : NULL;
	if (!f)
		return buf;
	char tmp[512];
	for (int i = 1; fgets(tmp, sizeof(tmp), f); i++) {
		size_t l = strlen(tmp);
		bool whole = l && tmp[l - 1] == '\n';
		if (i == n) {
			const char *t = tmp + strspn(tmp, " \t");
			snprintf(buf, len, "%.*s", (int)strcspn(t, "\r\n"), t);
			break;
		}
		while (!whole && fgets(tmp, sizeof(tmp), f)) {	/* the rest of a long line */
			l = strlen(tmp);
			whole = l && tmp[l - 1] == '\n';
		}
	}
	fclose(f);
	/* what is shown is text: control bytes become '?' */
	for (char *c = buf; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	return buf;
}

static const char *task_name(const struct km_sim *sim, uint32_t id)
{
	return sim && id < sim->ctxs.n && sim->ctxs.v[id]->name ? sim->ctxs.v[id]->name : "?";
}

/*
 * Did the finished run reach the goal?  A scenario with checks states its
 * goal in them (a challenge's goal check fails when it is reached); one
 * without, a deadlock or any violation.  The reason in @why.
 */
static bool goal_reached(const struct km_session *s, char *why, size_t len)
{
	const struct km_run_info *ri = &s->ri;
	for (int i = 0; i < ri->nchecks; i++)
		if (!ri->checks[i].ok) {
			snprintf(why, len, "a check failed: %s", ri->checks[i].message ?
				 ri->checks[i].message : "(no message)");
			return true;
		}
	if (ri->nchecks)
		return false;
	if (ri->sim && ri->sim->outcome == KM_OUT_DEADLOCK) {
		snprintf(why, len, "deadlock");
		return true;
	}
	for (int k = 0; ri->sim && k < KM_V_KINDS; k++)
		if (ri->sim->violation_count[k]) {
			snprintf(why, len, "%s", km_violation_name((enum km_violation_kind)k));
			return true;
		}
	return false;
}

/* One answer, to undo it: where the decided points ended, how many holds. */
struct step {
	uint32_t upto;
	int nholds;
};

static bool grow_hist(struct step **h, int *cap, int need)
{
	if (need <= *cap)
		return true;
	int ncap = *cap ? 2 * *cap : 64;
	struct step *n = realloc(*h, (size_t)ncap * sizeof(*n));
	if (!n) {
		printf("out of memory\n");
		return false;
	}
	*h = n;
	*cap = ncap;
	return true;
}

static int save(const struct play *p, const struct km_session *s, const struct km_play_opts *o,
		const char *path)
{
	struct km_schedule sch = p->holds;
	const struct km_run_info *ri = &s->ri;
	snprintf(sch.scenario, sizeof(sch.scenario), "%s", ri->scenario ? ri->scenario : "");
	sch.scenario_hash = ri->scenario_hash;
	snprintf(sch.era, sizeof(sch.era), "%s", ri->era ? ri->era->id : "");
	snprintf(sch.mode, sizeof(sch.mode), "%s", km_mode_name(o->rq->mode));
	sch.cpus = ri->cpus;
	sch.seed = ri->seed;
	snprintf(sch.strategy, sizeof(sch.strategy), "play");
	const struct km_sim *sim = ri->sim;
	int n = sim ? (int)sim->ctxs.n : 0;
	const char **names = calloc((size_t)n + 1, sizeof(*names));
	for (int i = 0; names && i < n; i++)
		names[i] = task_name(sim, (uint32_t)i);
	char err[600];
	int rc = km_schedule_write(path, &sch, names, names ? n : 0, NULL, err, sizeof(err));
	free(names);
	if (rc < 0) {
		printf("could not save: %s\n", err);
		return -1;
	}
	printf("saved %s: lockmuseum run %s --schedule %s\n", path, o->file, path);
	return 0;
}

int km_play_command(const struct km_play_opts *o)
{
	struct km_era_shelf eras;
	char err[1024];
	if (km_open_eras(&eras, err, sizeof(err)) < 0) {
		km_out_fail("%s", err);
		return 2;
	}
	struct play p;
	memset(&p, 0, sizeof(p));
	p.chooser.choose = play_choose;
	p.chooser.ud = &p;
	struct step *hist = NULL;
	int nhist = 0, caphist = 0;
	int status = 0;
	struct km_run_request rq = *o->rq;
	rq.chooser = &p.chooser;
	rq.file = o->file;

	printf("lockmuseum play: you are the scheduler.  At each point where the kernel\n"
	       "could switch: Enter lets the task go, a number lets that task go first;\n"
	       "u undoes, r lets everything go to the end, s FILE saves, q quits.\n");
	bool to_end = false;
	for (;;) {
		struct km_session s;
		p.s = &s;
		p.paused = false;
		p.next = 0;
		int rc = km_session_run_shelf(&s, &eras, &rq);
		p.s = NULL;
		bool paused = p.paused && rc == 2;
		if (!paused && rc == 2) {
			km_out_fail("%s", s.ri.reason ? s.ri.reason : "the run failed");
			km_session_free(&s);
			status = 2;
			break;
		}
		if (paused && to_end) {		/* r: every task goes, to the end */
			km_session_free(&s);
			p.upto = p.index + 1;
			continue;
		}
		to_end = false;
		const struct km_sim *sim = s.ri.sim;
		char text[300];
		if (paused) {
			printf("\n[%u] t=%.3f us  %s is about to run line %d: %s\n", p.index,
			       (double)p.now / 1000.0, task_name(sim, p.ctx), p.line,
			       source_line(o->file, p.line, text, sizeof(text)));
			printf("   Enter  let %s go\n", task_name(sim, p.ctx));
			for (int i = 0; i < p.nothers; i++)
				printf("   %-5d  hold it: %s goes first (line %d: %s)\n", i + 1,
				       task_name(sim, p.others[i]), p.other_lines[i],
				       source_line(o->file, p.other_lines[i], text, sizeof(text)));
		} else {
			char why[600];
			printf("\nThe run ended: %s at %.3f us, after %d hold%s.\n",
			       km_outcome_name(s.ri.outcome), sim ? (double)sim->now / 1000.0 : 0.0,
			       p.holds.n, p.holds.n == 1 ? "" : "s");
			if (goal_reached(&s, why, sizeof(why)))
				printf("GOAL REACHED (%s).\ns FILE saves this schedule; u undoes; q quits.\n", why);
			else
				printf("The goal was not reached.  u undoes the last decision.\n");
			status = rc;
		}
		fputs("> ", stdout);
		fflush(stdout);
		char in[1100];
		if (!fgets(in, sizeof(in), stdin)) {
			km_session_free(&s);
			putchar('\n');
			break;
		}
		in[strcspn(in, "\r\n")] = 0;
		if (!strcmp(in, "q")) {
			km_session_free(&s);
			break;
		} else if (!strcmp(in, "u")) {
			if (nhist) {
				nhist--;
				p.upto = hist[nhist].upto;
				p.holds.n = hist[nhist].nholds;
			} else {
				printf("nothing to undo\n");
			}
		} else if (!strncmp(in, "s ", 2) && in[2]) {
			save(&p, &s, o, in + 2);
		} else if (paused && (!strcmp(in, "r") || in[0] == 0 ||
				      (strspn(in, "0123456789") == strlen(in) && strlen(in) < 4))) {
			int k = in[0] && in[0] != 'r' ? atoi(in) : 0;
			if (k > p.nothers) {
				printf("no task %d here\n", k);
			} else if (grow_hist(&hist, &caphist, nhist + 1)) {
				hist[nhist++] = (struct step){ p.upto, p.holds.n };
				if (k > 0) {
					struct km_decision d = { p.index, p.ctx, p.others[k - 1] };
					if (km_schedule_push(&p.holds, &d) < 0)
						printf("out of memory\n");
				}
				p.upto = p.index + 1;
				to_end = !strcmp(in, "r");
			}
		} else {
			printf(paused ? "Enter, a number, u, r, s FILE or q\n" : "u, s FILE or q\n");
		}
		km_session_free(&s);
	}
	free(hist);
	km_schedule_free(&p.holds);
	km_era_shelf_close(&eras);
	return status;
}
