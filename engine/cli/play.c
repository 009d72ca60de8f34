/*
 * play.c - `lockmuseum play FILE`: you are the scheduler, at a terminal.
 *
 * The explorer's choice points (../choice.h) are where a kernel could
 * have switched: a task about to take its next step, with the other
 * tasks that could go first and the interrupts that could come first.
 * play stops at each one that offers a choice, shows the task and the
 * line it would run next, each task that could go first with its own
 * line, then each interrupt, numbered on from the tasks, with its CPU,
 * why it can come (due, latched, running) and its handler's next line,
 * and asks.  Enter lets the task go (what real timing does); a number
 * holds it and lets that task, or a handler of that interrupt, go first.
 * Numbers of any length are typed whole (then Enter), so every option of
 * a crowded question is reachable.  When the run ends it says whether the scenario's goal was
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
 * The loop itself (the decisions, the chooser that replays them and
 * stops at the next question, undo, the goal rule) is the window's too:
 * it lives in ../report/play_state.c; this file is its terminal.
 */
#include "play.h"
#include "out.h"
#include "schedule.h"
#include "session.h"

#include "../lua/scenario.h"
#include "../report/play_state.h"

#include "../defaults.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The longest answer: "s " and a file name of PATH_MAX (4096) bytes. */
#define KM_PLAY_MAX_ANSWER 4098

/* Where the task of @ctx stands in the session's scenario. */
static int task_line(void *ud, const struct km_ctx *ctx, bool *started)
{
	const struct km_session *s = ud;
	return s && s->sc ? km_scenario_ctx_where(s->sc, ctx, started) : 0;
}

/* The line a handler of @src would run next, likewise. */
static int irq_line(void *ud, const struct km_sim *sim, const struct km_irqsrc *src)
{
	const struct km_session *s = ud;
	return s && s->sc ? km_scenario_irq_line(s->sc, sim, src) : 0;
}

const struct km_play_lines km_play_session_lines = { .task = task_line, .irq = irq_line };

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

int km_play_save(const struct km_play *p, const struct km_run_info *ri, int mode,
		 const char *path, char *err, size_t errlen)
{
	/* the default folder (km_play_default_path) is made on the first save */
	const char *dir = KM_DEFAULT_OUT_DIR "/";
	if (!strncmp(path, dir, strlen(dir)) && !strchr(path + strlen(dir), '/') &&
	    mkdir(KM_DEFAULT_OUT_DIR, 0777) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "%s: %s", KM_DEFAULT_OUT_DIR, strerror(errno));
		return -1;
	}
	struct km_schedule sch;
	memset(&sch, 0, sizeof(sch));
	int *lines = calloc((size_t)p->n + 1, sizeof(*lines));
	if (!lines) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int i = 0; i < p->n; i++) {
		struct km_decision d = { p->d[i].index, p->d[i].ctx, p->d[i].other };
		lines[i] = p->d[i].line;
		if (km_schedule_push(&sch, &d) < 0) {
			km_schedule_free(&sch);
			free(lines);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	snprintf(sch.scenario, sizeof(sch.scenario), "%s", ri->scenario ? ri->scenario : "");
	sch.scenario_hash = ri->scenario_hash;
	snprintf(sch.era, sizeof(sch.era), "%s", ri->era ? ri->era->id : "");
	snprintf(sch.mode, sizeof(sch.mode), "%s", km_mode_name(mode));
	sch.cpus = ri->cpus;
	sch.seed = ri->seed;
	snprintf(sch.strategy, sizeof(sch.strategy), "play");
	if (km_schedule_keep_params(&sch, ri->params, ri->nparams, err, errlen) < 0) {
		km_schedule_free(&sch);
		free(lines);
		return -1;
	}
	const struct km_sim *sim = ri->sim;
	int n = sim ? (int)sim->ctxs.n : 0;
	int nirq = sim ? (int)sim->irqsrcs.n : 0;
	const char **names = calloc((size_t)n + 1, sizeof(*names));
	const char **irq_names = calloc((size_t)nirq + 1, sizeof(*irq_names));
	for (int i = 0; names && i < n; i++)
		names[i] = km_play_task_name(sim, (uint32_t)i);
	for (int i = 0; irq_names && i < nirq; i++)
		irq_names[i] = sim->irqsrcs.v[i]->name;
	sch.irq_names = irq_names;
	sch.nirq_names = irq_names ? nirq : 0;
	int rc = km_schedule_write(path, &sch, names, names ? n : 0, lines, err, errlen);
	free(names);
	free(irq_names);
	free(lines);
	km_schedule_free(&sch);
	return rc;
}

/* Where "s" saves: --save FILE, else out/<scenario>.schedule as the window. */
static const char *save_path(const struct km_play_opts *o, const struct km_session *s,
			     char *buf, size_t len)
{
	if (o->save)
		snprintf(buf, len, "%s", o->save);
	else
		km_play_default_path(s->ri.scenario, buf, len);
	return buf;
}

static void save(const struct km_play *p, const struct km_session *s,
		 const struct km_play_opts *o, const char *path)
{
	char err[600];
	if (km_play_save(p, &s->ri, o->rq->mode, path, err, sizeof(err)) < 0)
		printf("could not save: %s\n", err);
	else
		printf("saved %s: lockmuseum run %s --schedule %s\n", path, o->file, path);
}

int km_play_command(const struct km_play_opts *o)
{
	struct km_era_shelf eras;
	char err[1024];
	if (km_open_eras(&eras, err, sizeof(err)) < 0) {
		km_out_fail("%s", err);
		return 2;
	}
	struct km_play p;
	km_play_init(&p);
	int status = 0;
	char *in = NULL;
	size_t inlen = 0;
	struct km_run_request rq = *o->rq;
	rq.file = o->file;

	printf("lockmuseum play: you are the scheduler.  At each point where the kernel\n"
	       "could switch: Enter lets the task go, a number lets that task (or that\n"
	       "interrupt) go first; u undoes, r lets everything go to the end, s saves\n"
	       "(s FILE: to FILE), q quits.\n");
	for (;;) {
		struct km_session s;
		rq.chooser = km_play_begin(&p, &km_play_session_lines, &s);
		int rc = km_session_run_shelf(&s, &eras, &rq);
		bool paused = km_play_end(&p, s.ri.sim, rc);
		if (!paused && rc == 2) {
			km_out_fail("%s", s.ri.reason ? s.ri.reason : "the run failed");
			km_session_free(&s);
			status = 2;
			break;
		}
		const struct km_sim *sim = s.ri.sim;
		const struct km_play_question *q = &p.q;
		char text[300];
		if (paused) {
			/* A choice point comes before a task's code runs on: what
			 * is known is the line it stands at, not the next one. */
			printf("\n[%u] t=%.3f us  %s %s line %d: %s\n", q->index,
			       (double)q->now / 1000.0, km_play_task_name(sim, q->ctx),
			       q->started ? "has run" : "starts with", q->line,
			       source_line(o->file, q->line, text, sizeof(text)));
			printf("   Enter  let %s go\n", km_play_task_name(sim, q->ctx));
			for (int i = 0; i < q->nothers; i++)
				printf("   %-5d  hold it: %s goes first (%s line %d: %s)\n", i + 1,
				       km_play_task_name(sim, q->others[i]),
				       q->other_started[i] ? "has run" : "starts with", q->other_lines[i],
				       source_line(o->file, q->other_lines[i], text, sizeof(text)));
			for (int i = 0; i < q->nirqs; i++) {
				char says[400];
				km_play_irq_says(q, i, km_play_task_name(sim, q->ctx), says, sizeof(says));
				if (q->irqs[i].line > 0)
					printf("   %-5d  hold it: %s (handler %s line %d: %s)\n",
					       q->nothers + i + 1, says,
					       q->irqs[i].why == KM_PLAY_IRQ_RUNNING ? "has run" : "starts with",
					       q->irqs[i].line, source_line(o->file, q->irqs[i].line,
									    text, sizeof(text)));
				else
					printf("   %-5d  hold it: %s (its handler's line is not known)\n",
					       q->nothers + i + 1, says);
			}
			if (q->more_others || q->more_irqs)
				printf("   (and %d more task%s, %d more interrupt%s, that could go first: "
				       "play offers the first %d of each)\n", q->more_others,
				       q->more_others == 1 ? "" : "s", q->more_irqs,
				       q->more_irqs == 1 ? "" : "s", KM_PLAY_MAX_OTHERS);
		} else {
			char why[600];
			printf("\nThe run ended: %s at %.3f us, after %d hold%s.\n",
			       km_outcome_name(s.ri.outcome), sim ? (double)sim->now / 1000.0 : 0.0,
			       p.n, p.n == 1 ? "" : "s");
			char path[400];
			if (km_play_goal(&s.ri, why, sizeof(why)))
				printf("GOAL REACHED, you win: %s.\ns saves this schedule as %s (s FILE: "
				       "elsewhere); u undoes; q quits.\n", why,
				       save_path(o, &s, path, sizeof(path)));
			else
				printf("The goal was not reached.  u undoes the last decision.\n");
			status = rc;
		}
		fputs("> ", stdout);
		fflush(stdout);
		/* a whole line, however long: the tail of a long one must not
		 * be taken for the next answer (a trailing "q" quitting) */
		ssize_t got = getline(&in, &inlen, stdin);
		if (got < 0) {
			km_session_free(&s);
			putchar('\n');
			break;
		}
		in[strcspn(in, "\r\n")] = 0;
		if (strlen(in) > KM_PLAY_MAX_ANSWER) {
			printf("that line is %zu bytes long, more than an answer can be (%d); "
			       "ignored\n", strlen(in), KM_PLAY_MAX_ANSWER);
			km_session_free(&s);
			continue;
		}
		if (!strcmp(in, "q")) {
			km_session_free(&s);
			break;
		} else if (!strcmp(in, "u")) {
			if (!km_play_undo(&p))
				printf("nothing to undo\n");
		} else if (!strncmp(in, "s ", 2) && in[2]) {
			save(&p, &s, o, in + 2);
		} else if (!strcmp(in, "s")) {
			char path[400];
			save(&p, &s, o, save_path(o, &s, path, sizeof(path)));
		} else if (paused && (!strcmp(in, "r") || in[0] == 0 ||
				      (strspn(in, "0123456789") == strlen(in) && strlen(in) < 4))) {
			int k = in[0] && in[0] != 'r' ? atoi(in) : 0;
			int arc = km_play_answer(&p, k, !strcmp(in, "r"));
			if (arc == -1)
				printf("no option %d here: Enter, or 1 to %d\n", k,
				       km_play_options(&p.q) - 1);
			else if (arc < 0)
				printf("out of memory\n");
		} else {
			printf(paused ? "Enter, a number, u, r, s FILE or q\n" : "u, s FILE or q\n");
		}
		km_session_free(&s);
	}
	free(in);
	km_play_free(&p);
	km_era_shelf_close(&eras);
	return status;
}
