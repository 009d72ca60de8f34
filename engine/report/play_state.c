/*
 * play_state.c - the game's loop without its screen: decisions replayed,
 * the next question found, answers and undo.  See play_state.h.
 *
 * The chooser below sees every choice point of a run.  Those below @upto
 * are decided: a recorded decision holds the task for the other it names,
 * the others let the task go, as the player answered.  The first point
 * at or past @upto with somebody who could go first -- a task, or an
 * interrupt whose handler could run before the task's step -- is the
 * question: it is noted, with the lines of the task, of each other and of
 * each handler, and the run is stopped there.  Points where nothing else
 * could happen first are no questions.
 */
#include "play_state.h"

#include "../defaults.h"
#include "../sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The decision among the first @n at choice point @index, or NULL. */
static struct km_play_decision *decision_at(struct km_play *p, int n, int64_t index)
{
	int lo = 0, hi = n;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if ((int64_t)p->d[mid].index < index)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && (int64_t)p->d[lo].index == index ? &p->d[lo] : NULL;
}

/*
 * A decision's line, for the schedule file's comment, is the explorer's:
 * the line of the step the held task took after it, known at the task's
 * next choice point (@cp), or, for a task that blocked for good, where it
 * waits at the end of the run.  The decisions are in the order of the run.
 */
static void note_line_after(struct km_play *p, const struct km_ctx *ctx, int64_t index)
{
	struct km_play_decision *d = decision_at(p, p->next, index);
	bool started;
	if (d && d->ctx == km_ctx_id(ctx))
		d->line = p->lines && p->lines->task ? p->lines->task(p->line_ud, ctx, &started) : 0;
}

static void note_irq(struct km_play *p, const struct km_sim *sim, const struct km_choice_point *cp,
		     const struct km_irqsrc *src, struct km_play_irq *o)
{
	memset(o, 0, sizeof(*o));
	o->src = src->id;
	snprintf(o->name, sizeof(o->name), "%s", src->name ? src->name : "?");
	o->cpu = src->cpu;
	o->own_cpu = src->cpu == km_ctx_cpu(cp->ctx);
	o->why = km_irqsrc_handler(sim, src, NULL) ? KM_PLAY_IRQ_RUNNING :
		 src->pending ? KM_PLAY_IRQ_LATCHED : KM_PLAY_IRQ_DUE;
	o->due = src->next_at;
	o->line = p->lines && p->lines->irq ? p->lines->irq(p->line_ud, sim, src) : 0;
}

static int play_choose(void *ud, const struct km_sim *sim, const struct km_choice_point *cp,
		       char *err, size_t errlen)
{
	struct km_play *p = ud;
	if (cp->index + 1 > p->last_index)
		p->last_index = cp->index + 1;
	if (cp->prev_index >= 0)
		note_line_after(p, cp->ctx, cp->prev_index);
	if (cp->index < p->upto) {
		if (p->next < p->n && p->d[p->next].index == cp->index) {
			const struct km_play_decision *d = &p->d[p->next++];
			int pick = km_choice_answer_for(cp, d->other);
			if (pick >= 0)
				return pick;
			snprintf(err, errlen, "play: the decision at choice point %u no longer fits",
				 cp->index);
			return KM_CHOOSE_FAIL;
		}
		return KM_CHOOSE_GO;
	}
	if (cp->nothers + cp->nirqs == 0 || p->to_end)
		return KM_CHOOSE_GO;	/* nothing could come first: no question */
	struct km_play_question *q = &p->q;
	p->paused = true;
	q->index = cp->index;
	q->now = sim->now;
	q->ctx = km_ctx_id(cp->ctx);
	int (*line_of)(void *, const struct km_ctx *, bool *) = p->lines ? p->lines->task : NULL;
	q->started = false;
	q->line = line_of ? line_of(p->line_ud, cp->ctx, &q->started) : 0;
	q->nothers = cp->nothers < KM_PLAY_MAX_OTHERS ? cp->nothers : KM_PLAY_MAX_OTHERS;
	q->more_others = cp->nothers - q->nothers;
	for (int i = 0; i < q->nothers; i++) {
		q->others[i] = km_ctx_id(cp->others[i]);
		q->other_started[i] = false;
		q->other_lines[i] = line_of ? line_of(p->line_ud, cp->others[i],
						      &q->other_started[i]) : 0;
	}
	q->nirqs = cp->nirqs < KM_PLAY_MAX_IRQS ? cp->nirqs : KM_PLAY_MAX_IRQS;
	q->more_irqs = cp->nirqs - q->nirqs;
	for (int i = 0; i < q->nirqs; i++)
		note_irq(p, sim, cp, cp->irqs[i], &q->irqs[i]);
	snprintf(err, errlen, KM_PLAY_PAUSED);
	return KM_CHOOSE_FAIL;
}

void km_play_init(struct km_play *p)
{
	memset(p, 0, sizeof(*p));
	p->chooser.choose = play_choose;
	p->chooser.ud = p;
}

void km_play_free(struct km_play *p)
{
	free(p->d);
	free(p->hist);
	km_play_init(p);
}

const struct km_chooser *km_play_begin(struct km_play *p, const struct km_play_lines *lines,
				       void *ud)
{
	p->next = 0;
	p->paused = false;
	p->last_index = 0;
	p->lines = lines;
	p->line_ud = ud;
	p->chooser.choose = play_choose;
	p->chooser.ud = p;
	return &p->chooser;
}

bool km_play_end(struct km_play *p, const struct km_sim *sim, int rc)
{
	p->paused = p->paused && rc == 2;
	for (uint32_t i = 0; sim && i < sim->ctxs.n; i++) {
		const struct km_ctx *c = sim->ctxs.v[i];
		struct km_choice_last last;
		if (km_choice_last_step(c, &last) && last.blocked) {
			struct km_play_decision *d = decision_at(p, p->next, last.index);
			if (d && !d->line)
				note_line_after(p, c, last.index);
		}
	}
	if (p->to_end) {
		/* every later point was let go: they are decided now */
		if (p->last_index > p->upto)
			p->upto = p->last_index;
		p->to_end = false;
	}
	return p->paused;
}

static bool grow(void **v, int *cap, int need, size_t size)
{
	if (need <= *cap)
		return true;
	int ncap = *cap ? 2 * *cap : 64;
	void *n = realloc(*v, (size_t)ncap * size);
	if (!n)
		return false;
	*v = n;
	*cap = ncap;
	return true;
}

int km_play_answer(struct km_play *p, int k, bool to_end)
{
	if (!p->paused || k < 0 || k >= km_play_options(&p->q))
		return -1;
	if (!grow((void **)&p->hist, &p->caphist, p->nhist + 1, sizeof(*p->hist)) ||
	    (k > 0 && !grow((void **)&p->d, &p->cap, p->n + 1, sizeof(*p->d))))
		return -2;
	p->hist[p->nhist++] = (struct km_play_undo){ p->upto, p->n };
	if (k > 0 && k <= p->q.nothers)
		p->d[p->n++] = (struct km_play_decision){ p->q.index, p->q.ctx,
							  p->q.others[k - 1], 0 };
	else if (k > 0)
		p->d[p->n++] = (struct km_play_decision){
			p->q.index, p->q.ctx, p->q.irqs[k - 1 - p->q.nothers].src | KM_CHOICE_IRQ, 0 };
	p->upto = p->q.index + 1;
	p->to_end = to_end;
	return 0;
}

bool km_play_undo(struct km_play *p)
{
	if (!p->nhist)
		return false;
	p->nhist--;
	p->upto = p->hist[p->nhist].upto;
	p->n = p->hist[p->nhist].ndecisions;
	p->to_end = false;
	return true;
}

bool km_play_goal(const struct km_run_info *ri, char *why, size_t len)
{
	for (int i = 0; i < ri->nchecks; i++)
		if (!ri->checks[i].ok) {
		{
			/* a challenge's goal check says "goal reached: ..." */
			const char *msg = ri->checks[i].message ? ri->checks[i].message : "";
			static const char gr[] = "goal reached: ";
			if (!strncmp(msg, gr, sizeof(gr) - 1))
				snprintf(why, len, "%s", msg + sizeof(gr) - 1);
			else
				snprintf(why, len, "the check failed: %s", *msg ? msg : "(no message)");
			return true;
		}
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

const char *km_play_irq_says(const struct km_play_question *q, int i, const char *task,
			     char *buf, size_t len)
{
	const struct km_play_irq *o = &q->irqs[i];
	char t[64], on[200] = "";
	/* what decides first, so that a cut row still says it */
	if (o->own_cpu)
		snprintf(on, sizeof(on), ", interrupting %s (interrupts on)", task);
	if (o->why == KM_PLAY_IRQ_RUNNING)
		snprintf(buf, len, "irq %s -> cpu%d finishes first%s, its handler running", o->name,
			 o->cpu, on);
	else if (o->why == KM_PLAY_IRQ_LATCHED)
		snprintf(buf, len, "irq %s -> cpu%d goes first%s, latched", o->name, o->cpu, on);
	else
		snprintf(buf, len, "irq %s -> cpu%d goes first%s, due at %s", o->name, o->cpu, on,
			 km_fmt_ns(o->due, t, sizeof(t)));
	return buf;
}

const char *km_play_task_name(const struct km_sim *sim, uint32_t id)
{
	return sim && id < sim->ctxs.n && km_ctx_name(sim->ctxs.v[id]) ? km_ctx_name(sim->ctxs.v[id]) : "?";
}

void km_safe_file_name(const char *name, const char *def, char *buf, size_t len)
{
	if (!len)
		return;
	snprintf(buf, len, "%s", name && *name ? name : def);
	for (char *c = buf; *c; c++)
		if (*c == '/' || *c == '\\' || (unsigned char)*c < 0x20 || *c == 0x7f ||
		    (c == buf && *c == '.'))
			*c = '_';
}

void km_play_default_path(const char *scenario, char *buf, size_t len)
{
	char name[200];
	km_safe_file_name(scenario, "play", name, sizeof(name));
	snprintf(buf, len, "%s/%s.schedule", KM_DEFAULT_OUT_DIR, name);
}
