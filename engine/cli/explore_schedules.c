/*
 * explore_schedules.c - `explore --strategy`: search the schedules, not
 * only the seeds.
 *
 * A scenario whose timing is fixed has one interleaving per seed.  Under
 * a strategy every run has choice points (engine/choice.h): a task about
 * to step may be held back until another task has stepped, as a stalled
 * CPU would be.  The strategies, after CHESS, PCT and Loom:
 *
 *   random         at each choice point, each task or interrupt that can
 *                  go (the task asking included) is as likely to go first.
 *   pct:D          PCT (Burckhardt et al., ASPLOS 2010): random priorities,
 *                  D-1 change points drawn over the k choice points of a
 *                  first run; the highest-priority task that can step goes.
 *   exhaustive:K   every decision sequence with at most K holds (CHESS's
 *                  preemption bound), depth first.  It says whether it
 *                  covered that bounded space and how many distinct
 *                  interleavings (trace hashes) it ran.  With --por,
 *                  partial-order reduction (hold_commutes): a last hold
 *                  (the K-th) whose task's steps commute with every step
 *                  it would let pass -- they touch other shared objects,
 *                  or only read the same -- orders the steps as the run
 *                  already made, and is skipped; but it would also have
 *                  made the held task step later, a race the later clock
 *                  decides can go the other way, so a search that skipped
 *                  any says "covered: no".
 *
 * --seeds A..B are the strategy's random draws (random, pct: one run per
 * seed); the scenario's own seed stays the run's, as in `run`.
 *
 * A run is a session (load, instantiate, run) with a chooser, and runs
 * that share a prefix resume a snapshot of it (snapshot.h) rather than
 * start again.  With one job every run is in this process, one after the
 * other, the era loaded once.  With --jobs N (search_all) the process
 * forks N workers after the era is loaded and after what every worker
 * needs first is made (the exhaustive search's root run, PCT's first
 * run): each worker runs its share -- a fixed deal of the first-level
 * subtrees, or every N-th seed -- and sends back through a pipe what it
 * found and counted by key; the parent merges them so that the hit and
 * the figures printed are the one-job search's.  The rest is the
 * parent's alone: when a run reached the goal, the decisions are shrunk
 * (decisions are dropped or moved to other choice points of their task
 * while the goal is still reached: fewest holds, then the shortest run),
 * the last run is replayed to print its interleaving as a table, and
 * the schedule is saved for `run --schedule`.
 */
#include "explore_schedules.h"
#include "out.h"
#include "runner.h"
#include "schedule.h"
#include "snapshot.h"
#include "../report/play_state.h"

#include "../rng.h"

#include <errno.h>
#include <signal.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

/* Bounds: exhaustive stops (and says it did not cover its space) here;
 * shrinking tries at most this many runs. */
#define EXHAUSTIVE_MAX_RUNS 1000000
#define SHRINK_MAX_RUNS 5000
#define MAX_DEPTH 10

/* The run bound of exhaustive: EXHAUSTIVE_MAX_RUNS, or for the tests a
 * smaller one from LOCKMUSEUM_EXPLORE_MAX_RUNS. */
static long max_runs(void)
{
	const char *e = getenv("LOCKMUSEUM_EXPLORE_MAX_RUNS");
	char *end;
	long v = e && *e >= '0' && *e <= '9' ? strtol(e, &end, 10) : 0;
	return v > 0 && v < EXHAUSTIVE_MAX_RUNS && !*end ? v : EXHAUSTIVE_MAX_RUNS;
}

int km_strategy_parse(const char *s, struct km_strategy *st, char *err, size_t errlen)
{
	memset(st, 0, sizeof(*st));
	const char *colon = strchr(s, ':');
	size_t len = colon ? (size_t)(colon - s) : strlen(s);
	if (!colon && !strcmp(s, "random")) {
		st->kind = KM_STRAT_RANDOM;
		return 0;
	}
	if (colon && len == 3 && !strncmp(s, "pct", 3))
		st->kind = KM_STRAT_PCT;
	else if (colon && len == 10 && !strncmp(s, "exhaustive", 10))
		st->kind = KM_STRAT_EXHAUSTIVE;
	else
		goto bad;
	const char *n = colon + 1;
	char *end;
	if (*n < '0' || *n > '9')
		goto bad;
	long v = strtol(n, &end, 10);
	if (*end || v > MAX_DEPTH || (st->kind == KM_STRAT_PCT && v < 1))
		goto bad;
	st->depth = (int)v;
	return 0;
bad:
	snprintf(err, errlen, "must be random, pct:D (D from 1 to %d) or exhaustive:K (K from "
		 "0 to %d)", MAX_DEPTH, MAX_DEPTH);
	return -1;
}

/* ---------------------------------------------------------- the probe -- */

/* One choice point of a run, as recorded. */
struct cp_rec {
	uint32_t ctx;
	/* Who may go first: at others_at in probe.others, a list of ids
	 * (tasks, then sources | KM_CHOICE_IRQ), or -- when width is not 0,
	 * as it takes less room with many -- a map of width bits, a task's
	 * id its bit, a source's ntask + its id.  Read with cp_next. */
	uint32_t others_at;
	int nothers;			/* how many: tasks and interrupt sources */
	uint32_t width, ntask;
	bool shared;			/* the step after it touched a shared object */
	/* that step's footprint (all bits until known), the part of it after
	 * its operations' costs, and the handlers' since the point before */
	struct km_footprint fp, late, irq;
	int line, line_after;		/* where the task stood; where its step stopped */
	int cpu;			/* the CPU the task was on */
	km_time time;
};

/*
 * The chooser of every run here: it follows a script of decisions (the
 * exhaustive search, shrinking, the final replay) or draws them (random,
 * pct), and records what it saw.
 */
struct probe {
	enum { BY_SCRIPT, BY_RANDOM, BY_PCT } how;
	const struct km_decision *script;
	int nscript, next;
	struct km_rng rng;
	int depth;
	uint32_t change_at[MAX_DEPTH];
	uint64_t *prio;			/* by task id; 0: not drawn yet */
	uint32_t nprio;
	uint64_t *irq_prio;		/* by interrupt source id; likewise */
	uint32_t nirq_prio;
	bool lines;			/* ask the scenario for lines (slower) */
	struct km_session *s;
	struct cp_rec *cps;
	uint32_t ncps, capcps;
	uint32_t *others;
	uint32_t nothers, capothers;
	struct km_schedule applied;	/* the holds this run made */
	bool oom;
	uint32_t *stamp, nstamp, gen;	/* tasks seen, by id (hold_commutes) */
	/* Prefix sharing (snapshot.h): the run resumes @from (NULL: from
	 * its start), whose records before it are @prefix's (NULL: none);
	 * it saves itself into @take at choice point take_at (NULL: never). */
	struct km_snap *from, *take;
	const struct probe *prefix;
	uint32_t take_at;
	bool by_level;			/* the exhaustive search sets the three */
	uint32_t *last, nlast;		/* by task id: its last record + 1 (probe_adopt) */
};

/* The probe of the run in progress: the chooser of every run asks it,
 * so that a run resumed from a snapshot taken under another probe (its
 * configuration points at this chooser, which never moves) answers to
 * the probe of the run it now is. */
static struct probe *cur_probe;

/*
 * The next of those @r says may go first, from position *@pos on (an
 * index into its list, or a bit of its map): its id in *@id, and *@pos
 * past it; false when there is none.  In the order the choice point
 * offered them (tasks by id, then sources by id).
 */
static bool cp_next(const struct cp_rec *r, const uint32_t *pool, uint32_t *pos, uint32_t *id)
{
	const uint32_t *w = pool + r->others_at;
	if (!r->width) {
		if (*pos >= (uint32_t)r->nothers)
			return false;
		*id = w[(*pos)++];
		return true;
	}
	for (uint32_t b = *pos; b < r->width;) {
		uint32_t word = w[b / 32] >> (b % 32);
		if (!word) {
			b = (b / 32 + 1) * 32;
			continue;
		}
		b += (uint32_t)__builtin_ctz(word);
		if (b >= r->width)
			return false;
		*id = b < r->ntask ? b : (b - r->ntask) | KM_CHOICE_IRQ;
		*pos = b + 1;
		return true;
	}
	return false;
}

/* May @other go first at @r? */
static bool cp_offers(const struct cp_rec *r, const uint32_t *pool, uint32_t other)
{
	uint32_t pos = 0, id;
	while (cp_next(r, pool, &pos, &id))
		if (id == other)
			return true;
	return false;
}

static bool grow(void **v, uint32_t *cap, uint32_t need, size_t el)
{
	if (need <= *cap)
		return true;
	uint32_t c = *cap ? *cap : 64;
	while (c < need)
		c *= 2;
	void *n = realloc(*v, (size_t)c * el);
	if (!n)
		return false;
	*v = n;
	*cap = c;
	return true;
}

/* The priority of task @id, or of interrupt source id | KM_CHOICE_IRQ:
 * an interrupt is one more thread that PCT orders. */
static uint64_t *pct_slot(struct probe *p, uint32_t id)
{
	bool irq = id & KM_CHOICE_IRQ;
	uint64_t **v = irq ? &p->irq_prio : &p->prio;
	uint32_t *nv = irq ? &p->nirq_prio : &p->nprio;
	id &= ~KM_CHOICE_IRQ;
	if (id >= *nv) {
		uint32_t n = *nv;
		if (!grow((void **)v, nv, id + 1, sizeof(**v)))
			return NULL;
		memset(*v + n, 0, (size_t)(*nv - n) * sizeof(**v));
	}
	return *v + id;
}

static uint64_t pct_prio(struct probe *p, uint32_t id)
{
	uint64_t *slot = pct_slot(p, id);
	if (!slot)
		return 0;
	/* the initial priorities are above every change point's (1..D-1) */
	if (!*slot)
		*slot = (uint64_t)MAX_DEPTH + 1 + (km_rng_next(&p->rng) >> 8);
	return *slot;
}

/* The id of answer @i to @cp: a task's, or a source's | KM_CHOICE_IRQ. */
static uint32_t answer_id(const struct km_choice_point *cp, int i)
{
	return i < cp->nothers ? km_ctx_id(cp->others[i]) :
				 cp->irqs[i - cp->nothers]->id | KM_CHOICE_IRQ;
}

static int decide(struct probe *p, const struct km_choice_point *cp)
{
	switch (p->how) {
	case BY_SCRIPT:
		while (p->next < p->nscript && p->script[p->next].index < cp->index)
			p->next++;
		if (p->next >= p->nscript || p->script[p->next].index != cp->index)
			return KM_CHOOSE_GO;
		if (p->script[p->next].ctx != km_ctx_id(cp->ctx))
			return KM_CHOOSE_GO;	/* no longer fits (shrinking): dropped */
		int at = km_choice_answer_for(cp, p->script[p->next].other);
		return at >= 0 ? at : KM_CHOOSE_GO;
	case BY_RANDOM: {
		int n = cp->nothers + cp->nirqs;
		int pick = (int)km_rng_range(&p->rng, 0, n);
		return pick == n ? KM_CHOOSE_GO : pick;
	}
	case BY_PCT: {
		for (int i = 0; i < p->depth - 1; i++)
			if (p->change_at[i] == cp->index) {
				uint64_t *slot = pct_slot(p, km_ctx_id(cp->ctx));
				if (slot)
					*slot = (uint64_t)(p->depth - 1 - i);
			}
		uint64_t best = pct_prio(p, km_ctx_id(cp->ctx));
		int pick = KM_CHOOSE_GO;
		for (int i = 0; i < cp->nothers + cp->nirqs; i++) {
			uint64_t q = pct_prio(p, answer_id(cp, i));
			if (q > best) {
				best = q;
				pick = i;
			}
		}
		return pick;
	}
	}
	return KM_CHOOSE_GO;
}

static int choose(struct probe *p, const struct km_sim *sim, const struct km_choice_point *cp,
		  char *err, size_t errlen)
{
	int line = p->lines && p->s->sc ? km_scenario_ctx_line(p->s->sc, cp->ctx) : 0;
	if (cp->prev_index >= 0 && (uint64_t)cp->prev_index < p->ncps) {
		p->cps[cp->prev_index].shared = cp->prev_shared;
		p->cps[cp->prev_index].line_after = line;
		p->cps[cp->prev_index].fp = cp->prev;
		p->cps[cp->prev_index].late = cp->prev_late;
	}
	/* a list of ids, or a map of bits when that is smaller */
	uint32_t m = (uint32_t)(cp->nothers + cp->nirqs);
	uint64_t wbits = (uint64_t)sim->ctxs.n + sim->irqsrcs.n;
	bool map = (uint64_t)m * 32 > wbits && wbits < UINT32_MAX / 2;
	uint32_t words = map ? (uint32_t)((wbits + 31) / 32) : m;
	if (!grow((void **)&p->cps, &p->capcps, p->ncps + 1, sizeof(*p->cps)) ||
	    p->nothers > UINT32_MAX / 2 - words ||
	    !grow((void **)&p->others, &p->capothers, p->nothers + words + 1, sizeof(*p->others))) {
		snprintf(err, errlen, "out of memory recording choice points");
		p->oom = true;
		return KM_CHOOSE_FAIL;
	}
	struct cp_rec *r = &p->cps[p->ncps++];
	*r = (struct cp_rec){ .ctx = km_ctx_id(cp->ctx), .others_at = p->nothers,
			      .nothers = (int)m, .shared = true, .line = line,
			      .width = map ? (uint32_t)wbits : 0, .ntask = sim->ctxs.n,
			      .time = sim->now, .fp = { ~0ULL, ~0ULL }, .late = { ~0ULL, ~0ULL },
			      .cpu = km_ctx_cpu(cp->ctx),
			      .irq = cp->irq };
	uint32_t *w = p->others + p->nothers;
	if (map)
		memset(w, 0, (size_t)words * sizeof(*w));
	for (int i = 0; i < cp->nothers + cp->nirqs; i++) {
		uint32_t id = answer_id(cp, i);
		uint32_t b = id & KM_CHOICE_IRQ ? r->ntask + (id & ~KM_CHOICE_IRQ) : id;
		if (map)
			w[b / 32] |= 1u << (b % 32);
		else
			w[i] = id;
	}
	p->nothers += words;
	int pick = decide(p, cp);
	if (pick >= 0) {
		struct km_decision d = { cp->index, km_ctx_id(cp->ctx), answer_id(cp, pick) };
		if (km_schedule_push(&p->applied, &d) < 0) {
			snprintf(err, errlen, "out of memory recording decisions");
			return KM_CHOOSE_FAIL;
		}
	}
	return pick;
}

/*
 * A run resumed at choice point @j from a snapshot: its records before j
 * are those of p->prefix, a whole run that agreed with the snapshot's up
 * to j, as they stood at j -- each task's last step before j not yet
 * known (its footprint is filled in when the task next asks).  False on
 * ENOMEM.
 */
static bool probe_adopt(struct probe *p, uint32_t j)
{
	const struct probe *src = p->prefix;
	p->ncps = p->nothers = 0;
	p->applied.n = 0;
	p->next = 0;
	if (!src || !j)
		return true;
	if (j > src->ncps)
		return false;
	uint32_t pool = j < src->ncps ? src->cps[j].others_at : src->nothers;
	if (!grow((void **)&p->cps, &p->capcps, j + 1, sizeof(*p->cps)) ||
	    !grow((void **)&p->others, &p->capothers, pool + 1, sizeof(*p->others)))
		return false;
	memcpy(p->cps, src->cps, (size_t)j * sizeof(*p->cps));
	memcpy(p->others, src->others, (size_t)pool * sizeof(*p->others));
	p->ncps = j;
	p->nothers = pool;
	for (int i = 0; i < src->applied.n && src->applied.d[i].index < j; i++)
		if (km_schedule_push(&p->applied, &src->applied.d[i]) < 0)
			return false;
	if (p->nlast)
		memset(p->last, 0, (size_t)p->nlast * sizeof(*p->last));
	for (uint32_t i = 0; i < j; i++) {
		uint32_t t = p->cps[i].ctx;
		if (t >= p->nlast) {
			uint32_t n = p->nlast;
			if (!grow((void **)&p->last, &p->nlast, t + 1, sizeof(*p->last)))
				return false;
			memset(p->last + n, 0, (size_t)(p->nlast - n) * sizeof(*p->last));
		}
		p->last[t] = i + 1;
	}
	for (uint32_t t = 0; t < p->nlast; t++) {
		if (!p->last[t])
			continue;
		struct cp_rec *r = &p->cps[p->last[t] - 1];
		r->shared = true;
		r->line_after = 0;
		r->fp = r->late = (struct km_footprint){ ~0ULL, ~0ULL };
	}
	return true;
}

static struct {
	struct km_era_shelf *eras;
	struct km_run_request *rq;
	struct km_session *s;		/* on the session stack (snapshot.h) */
	int status;
} job;

static int probe_choose(void *ud, const struct km_sim *sim, const struct km_choice_point *cp,
			char *err, size_t errlen)
{
	/* the records are the explorer's: they outlive the run's arena */
	bool arena = km_snap_pause();
	struct probe *p = cur_probe;
	while (p->take && cp->index == p->take_at) {
		struct km_snap *t = p->take;
		p->take = NULL;		/* once a run */
		if (km_snap_take(t, cp->index) != 1)
			break;
		p = cur_probe;		/* the run that resumed here */
		km_session_resumed(job.s, job.rq);
		if (!probe_adopt(p, cp->index)) {
			snprintf(err, errlen, "out of memory recording choice points");
			p->oom = true;
			km_snap_unpause(arena);
			return KM_CHOOSE_FAIL;
		}
	}
	int pick = choose(p, sim, cp, err, errlen);
	km_snap_unpause(arena);
	return pick;
}

static const struct km_chooser chooser = { probe_choose, NULL };

static void probe_init(struct probe *p)
{
	memset(p, 0, sizeof(*p));
}

/* Ready for a new run (the records of the last one are dropped). */
static void probe_reset(struct probe *p)
{
	p->next = 0;
	p->ncps = p->nothers = 0;
	p->applied.n = 0;
	if (p->prio)
		memset(p->prio, 0, (size_t)p->nprio * sizeof(*p->prio));
	if (p->irq_prio)
		memset(p->irq_prio, 0, (size_t)p->nirq_prio * sizeof(*p->irq_prio));
}

static void probe_free(struct probe *p)
{
	free(p->prio);
	free(p->irq_prio);
	free(p->stamp);
	free(p->last);
	free(p->cps);
	free(p->others);
	km_schedule_free(&p->applied);
}

/* ------------------------------------------------------------ one run -- */

struct run_out {
	int status;			/* of the run: 0..3 */
	bool goal;
	uint64_t hash;
	uint32_t holds_cut;		/* holds --hold-max ended before their other went */
	uint64_t sig;			/* its Mazurkiewicz trace (sim->trace_sig) */
	bool resumed;			/* from a snapshot of an earlier run */
	char reason[600];
	/* from the last run that kept them (want_names) */
	char era[32];
	uint64_t scenario_hash, seed;
	char scenario[129];
	int cpus;
	char **names;
	int nnames;
	char **irq_names;		/* by interrupt source id */
	int nirq_names;
	struct km_schedule params;	/* only its parameters (sets) are used */
};

static void names_free(struct run_out *r)
{
	for (int i = 0; i < r->nnames; i++)
		free(r->names[i]);
	free(r->names);
	r->names = NULL;
	r->nnames = 0;
	for (int i = 0; i < r->nirq_names; i++)
		free(r->irq_names[i]);
	free(r->irq_names);
	r->irq_names = NULL;
	r->nirq_names = 0;
	km_schedule_free(&r->params);
}

static bool goal_reached(const struct km_run_info *ri, const char *goal)
{
	const struct km_sim *sim = ri->sim;
	if (!strcmp(goal, "check")) {
		for (int i = 0; i < ri->nchecks; i++)
			if (!ri->checks[i].ok)
				return true;
		return false;
	}
	if (!strcmp(goal, "deadlock"))
		return sim->outcome == KM_OUT_DEADLOCK;
	if (!strcmp(goal, "violation"))
		for (int k = 0; k < KM_V_KINDS; k++)
			if (sim->violation_count[k])
				return true;
	return false;
}

/* LOCKMUSEUM_EXPLORE_NO_SHARE=1: every run from its start, as before
 * snapshots.  Not an option: it lets a test show that sharing changes
 * nothing but the time. */
static bool sharing(void)
{
	static int on = -1;
	if (on < 0) {
		const char *v = getenv("LOCKMUSEUM_EXPLORE_NO_SHARE");
		on = !(v && *v && strcmp(v, "0")) && km_snap_usable();
	}
	return on;
}

/* A run on the session stack (snapshot.h): its session lives in this
 * frame, which every snapshot of the run holds. */
static void session_entry(void)
{
	struct km_session s;
	job.s = &s;
	cur_probe->s = &s;
	job.status = km_session_run_shelf(&s, job.eras, job.rq);
	km_snap_leave();
}

/* The snapshot every run can start from: the first choice point, before
 * any decision (the same for every script), of this process's runs of
 * start_rq. */
static struct km_snap start_snap;
static const struct km_run_request *start_rq;

/* @p's run from the start snapshot when there is one, else saving it. */
static void from_start(struct probe *p, const struct km_run_request *rq)
{
	p->from = p->take = NULL;
	p->prefix = NULL;
	if (!sharing())
		return;
	if (start_snap.valid && start_rq == rq) {
		p->from = &start_snap;
	} else if (!start_snap.valid) {
		p->take = &start_snap;
		p->take_at = 0;
		start_rq = rq;
	}
}

/*
 * One run of @rq under @p; 0, or -1 when it could not run (out->reason).
 * With sharing, it runs on the session stack, resumed from p->from when
 * that is set; out->resumed says whether it was.
 */
static int one_run(struct km_era_shelf *eras, struct km_run_request *rq, struct probe *p,
		   const char *goal, bool want_names, struct run_out *out)
{
	struct km_session local, *sp = &local;
	probe_reset(p);
	cur_probe = p;
	rq->chooser = &chooser;
	if (!p->by_level)
		from_start(p, rq);
	out->resumed = false;
	bool shared = sharing() && (p->from || p->take);
	const struct km_snap *want = p->take;
	if (shared) {
		job.eras = eras;
		job.rq = rq;
		if (p->from && p->from->valid) {
			p->s = job.s;
			out->resumed = true;
		}
		km_snap_run(p->from, session_entry);
		sp = job.s;
		out->status = job.status;
	} else {
		p->s = &local;
		out->status = km_session_run_shelf(&local, eras, rq);
	}
	struct km_session *s = sp;
	/* a run resumed, or saved: the next resume overwrites its arena */
	bool keep = shared && (out->resumed || (want && !p->take));
	p->s = NULL;
	p->take = NULL;
	const struct km_sim *sim = s->ri.sim;
	int rc = 0;
	if (out->status == 2 || !sim) {
		snprintf(out->reason, sizeof(out->reason), "%s", s->ri.reason ? s->ri.reason :
			 "the run failed");
		rc = -1;
		goto out;
	}
	out->hash = sim->trace.hash;
	out->holds_cut = sim->holds_cut;
	out->sig = sim->trace_sig;
	/* a task that blocked for good stopped its last step in a wait */
	struct km_choice_last last;
	for (uint32_t i = 0; p->lines && i < sim->ctxs.n; i++) {
		const struct km_ctx *c = sim->ctxs.v[i];
		if (km_choice_last_step(c, &last) && last.blocked && last.index < p->ncps &&
		    !p->cps[last.index].line_after)
			p->cps[last.index].line_after = km_scenario_ctx_line(s->sc, c);
	}
	/* a task that ended: its last step is known whole */
	for (uint32_t i = 0; i < sim->ctxs.n; i++) {
		if (km_choice_last_step(sim->ctxs.v[i], &last) && last.finished &&
		    last.index < p->ncps) {
			p->cps[last.index].fp = last.fp;
			p->cps[last.index].late = last.late;
		}
	}
	out->goal = goal_reached(&s->ri, goal);
	if (want_names) {
		names_free(out);
		snprintf(out->era, sizeof(out->era), "%s", s->ri.era ? s->ri.era->id : "");
		snprintf(out->scenario, sizeof(out->scenario), "%s", s->ri.scenario);
		out->scenario_hash = s->ri.scenario_hash;
		out->seed = s->ri.seed;
		out->cpus = s->ri.cpus;
		out->names = calloc(sim->ctxs.n + 1, sizeof(*out->names));
		for (uint32_t i = 0; out->names && i < sim->ctxs.n; i++) {
			const struct km_ctx *c = sim->ctxs.v[i];
			out->names[i] = strdup(km_ctx_kind(c) == KM_CTX_TASK && km_ctx_name(c) ?
					       km_ctx_name(c) : "irq");
			out->nnames = (int)i + 1;
		}
		out->irq_names = calloc(sim->irqsrcs.n + 1, sizeof(*out->irq_names));
		for (uint32_t i = 0; out->irq_names && i < sim->irqsrcs.n; i++) {
			out->irq_names[i] = strdup(sim->irqsrcs.v[i]->name);
			out->nirq_names = (int)i + 1;
		}
		char perr[300];
		if (km_schedule_keep_params(&out->params, s->ri.params, s->ri.nparams, perr,
					    sizeof(perr)) < 0) {
			snprintf(out->reason, sizeof(out->reason), "%s", perr);
			rc = -1;
		}
	}
out:
	if (!keep)
		km_session_free(s);
	return rc;
}

/* ------------------------------------------------- distinct interleavings -- */

struct hashset {
	uint64_t *v;
	uint32_t cap, n;
};

/* Add @x to @h; true when it was not in it. */
static bool hashset_add(struct hashset *h, uint64_t x)
{
	x |= 1;		/* 0 marks an empty slot */
	if ((h->n + 1) * 2 > h->cap) {
		uint32_t cap = h->cap ? h->cap * 2 : 1024;
		uint64_t *v = calloc(cap, sizeof(*v));
		if (!v)
			return false;
		for (uint32_t i = 0; i < h->cap; i++)
			if (h->v[i])
				for (uint32_t j = (uint32_t)(h->v[i] % cap);; j = (j + 1) % cap)
					if (!v[j]) {
						v[j] = h->v[i];
						break;
					}
		free(h->v);
		h->v = v;
		h->cap = cap;
	}
	for (uint32_t j = (uint32_t)(x % h->cap);; j = (j + 1) % h->cap) {
		if (h->v[j] == x)
			return false;
		if (!h->v[j]) {
			h->v[j] = x;
			h->n++;
			return true;
		}
	}
}

/* ----------------------------------------------------------- shrinking -- */

/*
 * The order of schedules that shrinking minimises: fewer holds first
 * (CHESS's preemptions), then a shorter run (fewer steps).
 */
static bool smaller(int holds, uint32_t steps, int best_holds, uint32_t best_steps)
{
	return holds < best_holds || (holds == best_holds && steps < best_steps);
}

/* What shrinking keeps of the smallest failing run so far. */
struct shrunk {
	struct km_schedule *best;	/* its decisions, as made */
	struct cp_rec *cps;		/* its choice points */
	uint32_t *others;
	uint32_t ncps, capcps, capothers;
};

/* @p's run (which reached the goal) becomes the smallest; false on ENOMEM. */
static bool adopt(struct shrunk *k, const struct probe *p)
{
	if (!grow((void **)&k->cps, &k->capcps, p->ncps + 1, sizeof(*k->cps)) ||
	    !grow((void **)&k->others, &k->capothers, p->nothers + 1, sizeof(*k->others)))
		return false;
	memcpy(k->cps, p->cps, (size_t)p->ncps * sizeof(*k->cps));
	memcpy(k->others, p->others, (size_t)p->nothers * sizeof(*k->others));
	k->ncps = p->ncps;
	k->best->n = 0;
	for (int i = 0; i < p->applied.n; i++)
		if (km_schedule_push(k->best, &p->applied.d[i]) < 0)
			return false;
	return true;
}

/*
 * Shrinking's first two passes try one decision alone: run @p with @d as
 * its only decision, and adopt that run into @k when it reaches the goal
 * and is smaller than the best so far (@n holds, k->ncps steps).  1 when
 * adopted, 0 when not, -1 when the run failed (@ro->reason), -2 on ENOMEM.
 */
static int try_alone(struct km_era_shelf *eras, struct km_run_request *rq, const char *goal,
		     struct probe *p, struct shrunk *k, struct km_decision d, int n, long *runs,
		     struct run_out *ro)
{
	p->script = &d;
	p->nscript = 1;
	++*runs;
	int rc = one_run(eras, rq, p, goal, false, ro);
	p->script = NULL;
	p->nscript = 0;
	if (rc < 0)
		return -1;
	if (!ro->goal || !smaller(p->applied.n, p->ncps, n, k->ncps))
		return 0;
	return adopt(k, p) ? 1 : -2;
}

/*
 * Shrink @best, a failing schedule, as property-based testing shrinks a
 * counterexample.  First each decision alone is tried (one hold is often
 * enough, whatever else the search did), then each alone letting another
 * task go first at its choice point (a chain of holds -- A waits for B, B
 * for C -- is often one: A waits for C); then two kinds of steps, tried
 * in turn until neither helps:
 *
 *   drop   one decision goes, the last first: fewer holds;
 *   move   one decision is made at another choice point of the same task
 *          (earlier ones first) between its neighbours, letting the same
 *          one go first: the run it makes is shorter.
 *
 * A trial is kept when the goal is still reached and the run is smaller
 * (fewer holds, then fewer steps); then both kinds start over, as a move
 * can make a drop possible (a hold made earlier does the work of two).
 * @best then holds the decisions that run actually made.  Returns the
 * runs it took, or -1 on an error (@ro->reason); @steps_before is the
 * length of the run it started from.
 *
 * Cost: each round is at most (holds + the choice points of the run)
 * runs; SHRINK_MAX_RUNS bounds the whole.
 */
static long shrink(struct km_era_shelf *eras, struct km_run_request *rq, const char *goal,
		   struct km_schedule *best, struct run_out *ro, uint32_t *steps_before)
{
	struct probe p;
	probe_init(&p);
	p.how = BY_SCRIPT;
	struct shrunk k = { .best = best };
	long runs = 0;
	/* a trial never has more decisions than best has now */
	struct km_decision *trial = malloc(((size_t)best->n + 1) * sizeof(*trial));
	if (!trial)
		goto oom;

	/* best's own run, for its size and its choice points */
	p.script = best->d;
	p.nscript = best->n;
	runs++;
	if (one_run(eras, rq, &p, goal, false, ro) < 0)
		goto fail;
	if (!ro->goal) {
		snprintf(ro->reason, sizeof(ro->reason), "internal: the schedule found no longer "
			 "reaches the goal");
		goto fail;
	}
	if (!adopt(&k, &p))
		goto oom;
	*steps_before = k.ncps;
	/* one decision alone, the first first: the quickest way to one hold */
	int alone = 0;
	for (int i = 0, n = best->n; n > 1 && !alone && i < n && runs < SHRINK_MAX_RUNS; i++)
		alone = try_alone(eras, rq, goal, &p, &k, best->d[i], n, &runs, ro);
	/* one decision alone, letting another go first there: a chain of
	 * holds (A waits for B, B for C) is often one (A waits for C) */
	for (int i = 0, n = best->n; n > 1 && !alone && i < n && runs < SHRINK_MAX_RUNS; i++) {
		const struct km_decision d = best->d[i];
		if (d.index >= k.ncps)
			continue;
		const struct cp_rec *r = &k.cps[d.index];
		uint32_t pos = 0, other;
		while (!alone && runs < SHRINK_MAX_RUNS && cp_next(r, k.others, &pos, &other))
			if (other != d.other)
				alone = try_alone(eras, rq, goal, &p, &k,
						  (struct km_decision){ d.index, d.ctx, other }, n,
						  &runs, ro);
	}
	if (alone == -1)
		goto fail;
	if (alone == -2)
		goto oom;
	bool again = true;
	while (again && runs < SHRINK_MAX_RUNS) {
		again = false;
		int n = best->n;
		/* drop: the last first */
		for (int drop = n - 1; drop >= 0 && !again && runs < SHRINK_MAX_RUNS; drop--) {
			int m = 0;
			for (int i = 0; i < n; i++)
				if (i != drop)
					trial[m++] = best->d[i];
			p.script = trial;
			p.nscript = m;
			runs++;
			if (one_run(eras, rq, &p, goal, false, ro) < 0)
				goto fail;
			again = ro->goal && smaller(p.applied.n, p.ncps, n, k.ncps);
		}
		/* move: each decision to another choice point of its task */
		for (int i = 0; i < n && !again && runs < SHRINK_MAX_RUNS; i++) {
			const struct km_decision *d = &best->d[i];
			uint32_t lo = i ? best->d[i - 1].index + 1 : 0;
			uint32_t hi = i + 1 < n ? best->d[i + 1].index : k.ncps;
			for (uint32_t j = lo; j < hi && !again && runs < SHRINK_MAX_RUNS; j++) {
				const struct cp_rec *r = &k.cps[j];
				if (j == d->index || r->ctx != d->ctx || !cp_offers(r, k.others, d->other))
					continue;
				memcpy(trial, best->d, (size_t)n * sizeof(*trial));
				trial[i].index = j;
				p.script = trial;
				p.nscript = n;
				runs++;
				if (one_run(eras, rq, &p, goal, false, ro) < 0)
					goto fail;
				again = ro->goal && smaller(p.applied.n, p.ncps, n, k.ncps);
			}
		}
		if (again && !adopt(&k, &p))
			goto oom;
	}
	goto out;
oom:
	snprintf(ro->reason, sizeof(ro->reason), "out of memory while shrinking");
fail:
	runs = -1;
out:
	free(trial);
	free(k.cps);
	free(k.others);
	probe_free(&p);
	return runs;
}

/* ------------------------------------------------------------- the table -- */

/* The lines of the scenario file, for the table (NULL when unreadable). */
static char **read_lines(const char *path, int *n)
{
	*n = 0;
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char **v = NULL, buf[4096];
	int cap = 0;
	while (fgets(buf, sizeof(buf), f) && *n < 1000000) {
		if (!strchr(buf, '\n') && !feof(f)) {
			int c;
			while ((c = fgetc(f)) != EOF && c != '\n')
				;
		}
		buf[strcspn(buf, "\r\n")] = 0;
		const char *t = buf + strspn(buf, " \t");
		if (*n == cap) {
			cap = cap ? cap * 2 : 256;
			char **nv = realloc(v, (size_t)cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		v[(*n)++] = strdup(t);
	}
	fclose(f);
	return v;
}

static const char *source_at(char **lines, int n, int line)
{
	return lines && line > 0 && line <= n && lines[line - 1] ? lines[line - 1] : "";
}

/*
 * The interleaving of the run @p recorded: one row per step (who, when,
 * the scenario line its step stopped at), and each hold marked.  A long
 * run shows the rows near the holds and its end.
 */
static void print_table(const struct probe *p, const struct run_out *ro, const char *file)
{
	int nl;
	char **lines = read_lines(file, &nl);
	bool *show = calloc(p->ncps ? p->ncps : 1, sizeof(*show));
	int hold = 0;
	for (uint32_t i = 0; show && i < p->ncps; i++) {
		bool near = p->ncps <= 40 || i + 3 >= p->ncps;
		for (int k = 0; k < p->applied.n && !near; k++)
			near = i + 3 >= p->applied.d[k].index && i <= p->applied.d[k].index + 3;
		show[i] = near;
	}
	printf("\n  %5s %12s  %-12s %5s  %s\n", "step", "time", "task", "line", "what it runs");
	bool gap = false;
	for (uint32_t i = 0; show && i < p->ncps; i++) {
		const struct cp_rec *r = &p->cps[i];
		if (!show[i]) {
			if (!gap)
				printf("  %5s\n", "...");
			gap = true;
			continue;
		}
		gap = false;
		char t[32];
		const char *who = r->ctx < (uint32_t)ro->nnames ? ro->names[r->ctx] : "?";
		bool held = hold < p->applied.n && p->applied.d[hold].index == i;
		int line = r->line_after;
		printf("  %5u %12s  %-12.12s ", i, km_fmt_ns(r->time, t, sizeof(t)), who);
		if (line > 0)
			printf("%5d  %.50s", line, source_at(lines, nl, line));
		else
			printf("%5s  (to its end)", "-");
		if (held) {
			uint32_t o = p->applied.d[hold].other;
			if (o & KM_CHOICE_IRQ) {
				o &= ~KM_CHOICE_IRQ;
				printf("   <- held here: irq %s comes first",
				       o < (uint32_t)ro->nirq_names && ro->irq_names[o] ?
				       ro->irq_names[o] : "?");
			} else {
				printf("   <- held here: %s goes first",
				       o < (uint32_t)ro->nnames ? ro->names[o] : "?");
			}
			hold++;
		}
		putchar('\n');
	}
	for (int i = 0; lines && i < nl; i++)
		free(lines[i]);
	free(lines);
	free(show);
}

/* ------------------------------------------------ partial-order reduction -- */

/*
 * Is holding the task A of choice point @j of @p's run, to let task
 * @other (B) go first, a reordering of steps that commute?  Held, A's
 * step a -- and A's own steps after it, up to there -- come after every
 * other task's step that starts in the run from j up to B's next step
 * (B's included), after what the handlers did meanwhile, and after the
 * end (the work after their costs) of the steps in flight at j.  If A's
 * steps conflict with none of them, the held run orders every shared
 * object's steps as this run does up to there -- the same interleaving
 * (Mazurkiewicz trace) of that prefix.  False when B does not step
 * again in this run, or is an interrupt (its handler's steps are not
 * recorded one by one).
 *
 * The search asks only for the holds of its last level (the K-th), whose
 * runs have no children: the held run still differs from this one in
 * time -- A steps later and keeps its CPU meanwhile -- and a child of the
 * held run can see that (a task that would have taken that CPU, a race
 * the later clock decides), so its subtree is not this run's.  Skipped at
 * every level, 3 tasks with 3 holds reached 26 of their 27 traces
 * (tests/run_explore.sh).  Even at the last level the held run's later
 * clock can decide a race otherwise (tests/explore/shifted_abba.lua
 * deadlocks only so): the skip is --por's, and a search that made one
 * does not claim its space covered.
 *
 * Cost: O(choice points of the run).
 */
static bool hold_commutes(struct probe *p, uint32_t j, uint32_t other)
{
	if (other & KM_CHOICE_IRQ)
		return false;
	const struct cp_rec *r = &p->cps[j];
	struct km_footprint held = r->fp, passed = { 0, 0 };
	uint32_t k;
	for (k = j + 1; k < p->ncps; k++) {
		const struct cp_rec *q = &p->cps[k];
		passed.rd |= q->irq.rd;
		passed.wr |= q->irq.wr;
		if (q->ctx == r->ctx) {
			/* A's own later steps: pushed past the others' too */
			held.rd |= q->fp.rd;
			held.wr |= q->fp.wr;
			continue;
		}
		passed.rd |= q->fp.rd;
		passed.wr |= q->fp.wr;
		if (q->ctx == other)
			break;
	}
	if (k >= p->ncps || km_choice_conflict(held, passed))
		return false;
	/* A held keeps its CPU, which is shared too: the reordering is one
	 * only if no other task had that CPU in this run until A stepped
	 * again after B's step (or, if A did not, for the rest of the run) */
	uint32_t ka;
	for (ka = k + 1; ka < p->ncps && p->cps[ka].ctx != r->ctx; ka++)
		;
	for (uint32_t q = j + 1; q < ka; q++)
		if (p->cps[q].ctx != r->ctx && p->cps[q].cpu == r->cpu)
			return false;
	/* the steps in flight at j: each other task's last before j (a
	 * stamp grown is zero: no task seen, whatever the memory held) */
	uint32_t had = p->nstamp;
	if (!grow((void **)&p->stamp, &p->nstamp, (uint32_t)p->ncps + 1, sizeof(*p->stamp)))
		return false;
	memset(p->stamp + had, 0, (size_t)(p->nstamp - had) * sizeof(*p->stamp));
	if (++p->gen == 0) {
		memset(p->stamp, 0, (size_t)p->nstamp * sizeof(*p->stamp));
		p->gen = 1;
	}
	for (uint32_t i = j; i-- > 0;) {
		uint32_t t = p->cps[i].ctx;
		if (t == r->ctx)
			continue;
		if (t >= p->nstamp) {
			uint32_t n = p->nstamp;
			if (!grow((void **)&p->stamp, &p->nstamp, t + 1, sizeof(*p->stamp)))
				return false;
			memset(p->stamp + n, 0, (size_t)(p->nstamp - n) * sizeof(*p->stamp));
		}
		if (p->stamp[t] == p->gen)
			continue;
		p->stamp[t] = p->gen;
		passed.rd |= p->cps[i].late.rd;
		passed.wr |= p->cps[i].late.wr;
	}
	return !km_choice_conflict(held, passed);
}

/* ------------------------------------------------------------- the search -- */

/* The replay command: explore's options but its own, then --schedule. */
static void replay_cmd(const struct km_explore_opts *o, const char *path)
{
	printf("replay: lockmuseum run %s", o->file);
	static const char *const skip[] = { "--seeds", "--goal", "--jobs", "--strategy", "--out",
					    "--report", "--hold-max" };
	for (int i = 2; i < o->argc; i++) {
		const char *a = o->argv[i];
		if (!strcmp(a, o->file))
			continue;
		bool drop = false;
		for (size_t k = 0; k < sizeof(skip) / sizeof(skip[0]) && !drop; k++) {
			size_t n = strlen(skip[k]);
			if (!strcmp(a, skip[k])) {
				i++;
				drop = true;
			} else if (!strncmp(a, skip[k], n) && a[n] == '=') {
				drop = true;
			}
		}
		if (!drop)
			printf(" %s", a);
	}
	printf(" --schedule %s\n", path);
}

/* Why a search stopped before it had run its whole space. */
enum stop { STOP_NONE, STOP_INTERRUPTED, STOP_RUNS, STOP_MEMORY };

/*
 * What a worker counted, by the key of the runs -- the first-level
 * subtree (exhaustive) or the seed (random, pct) -- in the order it ran
 * them: the parent sums only the keys up to the hit's, which are what
 * the one-process search made before it stopped there (search_all).  So
 * every figure a search prints is the one-job search's, whatever --jobs.
 */
struct key_count {
	int64_t key;			/* the first key of the record */
	int64_t last;			/* its last: key, key + step, ..., last */
	uint32_t step, reps;		/* reps keys, each counted as below */
	uint32_t runs, holds_cut, pruned, resumed;	/* a key's counts */
};

/* A trace hash (which 0) or Mazurkiewicz trace (1) a worker saw first in
 * a run of @key. */
struct key_hash {
	uint64_t hash;
	int64_t key;
};

struct keyed {
	struct key_count *c;
	uint32_t n, cap;
	struct key_hash *h[2];
	uint32_t nh[2], caph[2];
	bool oom;
};

struct search {
	const struct km_explore_opts *o;
	const struct km_strategy *st;
	const char *goal;
	struct km_era_shelf *eras;
	struct km_run_request rq;
	struct hashset seen;
	struct hashset traces;		/* exhaustive: the Mazurkiewicz traces run */
	long runs;
	bool por;			/* exhaustive: partial-order reduction */
	long pruned;			/* holds it skipped as commuting */
	long resumed;			/* runs resumed from a snapshot (prefix shared) */
	bool found, covered;
	long holds_cut;			/* holds cut by --hold-max, over all runs */
	enum stop stop;
	size_t stop_bytes;		/* STOP_MEMORY: the records' size then */
	long max_runs;			/* exhaustive: the bound on runs, */
	long *shared_runs;		/* counted over every worker (NULL: one) */
	/* exhaustive with workers: the root run alone, made before they
	 * fork, whose records each of them adopts */
	bool root_only;
	struct probe *root;
	/* pct with workers: the first run (its choice points, k) made and
	 * counted before they fork */
	bool pct_first_made;
	uint32_t pct_k;
	/* which hit comes first, whatever the --jobs: the lowest seed
	 * (random, pct), the earliest subtree in depth-first order
	 * (exhaustive; -1 the run with no decision) */
	int64_t found_key;
	struct km_schedule best;	/* the decisions of the hit */
	bool by_key;			/* a worker: count by key too (S->k) */
	struct keyed k;
	char reason[600];		/* when a search fails */
};

/* Count @runs runs (and what they cut, skipped, resumed) under @key. */
static void count_key(struct search *S, int64_t key, uint32_t runs, uint32_t holds_cut,
		      uint32_t pruned, uint32_t resumed)
{
	S->runs += runs;
	S->holds_cut += holds_cut;
	S->pruned += pruned;
	S->resumed += resumed;
	struct keyed *k = &S->k;
	if (!S->by_key || k->oom)
		return;
	struct key_count *c = k->n ? &k->c[k->n - 1] : NULL;
	/*
	 * A worker's keys come in ascending order, most of them with the same
	 * counts (a random search's seeds: one run each), so a record stands
	 * for a run of keys at one step with equal counts: a search of a
	 * million seeds sends a few records, not a million, and no page of
	 * them is faulted in (part_merge() takes a record apart at the cut).
	 */
	if (c && c->last == key && c->reps == 1)
		goto add;		/* more of the same key */
	if (c && c->last == key) {	/* more of a record's last key: split it */
		c->reps--;
		c->last -= c->step;
		struct key_count tail = *c;
		c = NULL;
		if (!grow((void **)&k->c, &k->cap, k->n + 1, sizeof(*k->c))) {
			k->oom = true;
			return;
		}
		tail.key = tail.last = key;
		tail.step = 0;
		tail.reps = 1;
		k->c[k->n++] = tail;
		c = &k->c[k->n - 1];
		goto add;
	}
	/* the gap in unsigned arithmetic: the root's key is INT64_MIN */
	uint64_t gap = (uint64_t)key - (uint64_t)(c ? c->last : key);
	if (c && key > c->last && c->runs == runs && c->holds_cut == holds_cut &&
	    c->pruned == pruned && c->resumed == resumed &&
	    (c->reps == 1 ? gap <= UINT32_MAX : gap == c->step)) {
		if (c->reps == 1)
			c->step = (uint32_t)gap;
		c->last = key;
		c->reps++;
		return;
	}
	if (!grow((void **)&k->c, &k->cap, k->n + 1, sizeof(*k->c))) {
		k->oom = true;
		return;
	}
	k->c[k->n++] = (struct key_count){ .key = key, .last = key, .reps = 1 };
	c = &k->c[k->n - 1];
add:
	c->runs += runs;
	c->holds_cut += holds_cut;
	c->pruned += pruned;
	c->resumed += resumed;
}

static uint32_t sat32(uint64_t x)
{
	return x > UINT32_MAX ? UINT32_MAX : (uint32_t)x;
}

/* How many of record @c's keys are at most @cut. */
static uint64_t keys_upto(const struct key_count *c, int64_t cut)
{
	if (cut < c->key)
		return 0;
	if (cut >= c->last || c->reps == 1)
		return c->reps;
	return ((uint64_t)cut - (uint64_t)c->key) / c->step + 1;
}

/* A run of @key gave trace hash (@which 0) or trace (1) @x. */
static void count_hash(struct search *S, int which, int64_t key, uint64_t x)
{
	struct keyed *k = &S->k;
	if (!hashset_add(which ? &S->traces : &S->seen, x) || !S->by_key || k->oom)
		return;
	if (!grow((void **)&k->h[which], &k->caph[which], k->nh[which] + 1, sizeof(*k->h[which]))) {
		k->oom = true;
		return;
	}
	k->h[which][k->nh[which]++] = (struct key_hash){ x, key };
}

static void keyed_free(struct keyed *k)
{
	free(k->c);
	free(k->h[0]);
	free(k->h[1]);
	memset(k, 0, sizeof(*k));
}

static int found_run(struct search *S, const struct probe *p, int64_t key)
{
	S->found = true;
	S->found_key = key;
	S->best.n = 0;
	for (int i = 0; i < p->applied.n; i++)
		if (km_schedule_push(&S->best, &p->applied.d[i]) < 0)
			return -1;
	return 0;
}

/*
 * PCT's first run: no hold, from the start; its choice points are k.
 * Counted as a run of the search.  Returns 0 or -1 (S->reason).
 */
static int plain_run(struct search *S, uint32_t *k)
{
	struct probe first;
	probe_init(&first);
	first.how = BY_SCRIPT;
	struct run_out ro = { 0 };
	int rc = one_run(S->eras, &S->rq, &first, S->goal, false, &ro);
	*k = first.ncps;
	probe_free(&first);
	if (rc < 0)
		snprintf(S->reason, sizeof(S->reason), "%s", ro.reason[0] ? ro.reason : "out of memory");
	else
		count_hash(S, 0, INT64_MIN, ro.hash);
	count_key(S, INT64_MIN, 1, 0, 0, 0);
	names_free(&ro);
	return rc;
}

/* Worker @w of @jobs draws the seeds lo + w, lo + w + jobs, ... */
static int search_random(struct search *S, int w, int jobs)
{
	struct probe p;
	probe_init(&p);
	p.how = S->st->kind == KM_STRAT_PCT ? BY_PCT : BY_RANDOM;
	p.depth = S->st->depth;
	struct run_out ro = { 0 };
	int rc = 0;
	uint32_t k = S->pct_k;
	/* PCT's k: the choice points of a run with the real timing */
	if (p.how == BY_PCT && !S->pct_first_made && plain_run(S, &k) < 0) {
		probe_free(&p);
		return -1;
	}
	if ((uint64_t)w > S->o->seed_hi - S->o->seed_lo)
		goto out;	/* fewer seeds than workers: none for this one */
	for (uint64_t seed = S->o->seed_lo + (uint64_t)w; seed <= S->o->seed_hi;
	     seed += (uint64_t)jobs) {
		if (km_interrupted)
			break;
		km_rng_seed(&p.rng, seed);
		for (int i = 0; i < p.depth - 1; i++)
			p.change_at[i] = k ? (uint32_t)km_rng_range(&p.rng, 0, k - 1) : 0;
		rc = one_run(S->eras, &S->rq, &p, S->goal, false, &ro);
		/* resumed as in one process: there every seed after the first
		 * resumes the start snapshot; a worker's first seed, made from
		 * its start, is counted as the one process would */
		bool resumed = ro.resumed || (seed != S->o->seed_lo && sharing() &&
					      start_snap.valid && start_rq == &S->rq);
		count_key(S, (int64_t)seed, 1, rc < 0 ? 0 : ro.holds_cut, 0, resumed);
		if (rc < 0)
			break;
		count_hash(S, 0, (int64_t)seed, ro.hash);
		if (ro.goal) {
			rc = found_run(S, &p, (int64_t)seed);
			break;
		}
		if (S->o->seed_hi - seed < (uint64_t)jobs)
			break;	/* the next would wrap */
	}
out:
	if (rc < 0)
		snprintf(S->reason, sizeof(S->reason), "%s", ro.reason[0] ? ro.reason : "out of memory");
	probe_free(&p);
	names_free(&ro);
	return rc;
}

/* The bytes @p's records of its run take (the search's memory). */
static size_t probe_bytes(const struct probe *p)
{
	return (size_t)p->capcps * sizeof(*p->cps) + (size_t)p->capothers * sizeof(*p->others) +
	       (size_t)p->nstamp * sizeof(*p->stamp) + (size_t)p->applied.cap * sizeof(*p->applied.d);
}

/*
 * One level of the exhaustive search's path: the run with the decisions
 * of the path up to here, as its probe recorded it, and where the walk
 * over its children stands.  The children of a run are the holds at its
 * later choice points, so they are enumerated from these records when
 * their turn comes: the pending part of the tree is never stored, only
 * the K + 1 runs of the current path (shared prefixes, as a trie's
 * path).  Memory: O(K x the records of one run), whatever the space.
 */
struct level {
	struct probe p;
	uint32_t j;			/* the next child: at choice point j, */
	uint32_t o;			/* letting answer o go first (cp_next) */
	int64_t rank;			/* the first-level subtree (-1: the root) */
	int64_t nkids;			/* at the root: first-level children so far */
};

/*
 * The next child of @L (at depth @d: its run made d decisions), in the
 * order the search runs them -- earliest choice point first, then the
 * order its others were offered -- skipping the holds partial-order
 * reduction prunes and, at the root, the subtrees of other workers.
 * Worker @w of @jobs takes the first-level subtrees dealt to it in a
 * snake (0 1 1 0 0 1 ... for two): the subtrees shrink from the first to
 * the last (an earlier hold has more choice points after it), and dealt
 * round robin the first worker always drew the bigger of each pair --
 * same_order n=10, exhaustive:2: 6,597 and 7,783 runs; snaked 7,265 and
 * 7,115.  A fixed deal, not a queue the workers take from, so which
 * worker runs what -- and the count of runs a search with a hit prints
 * -- does not depend on timing.
 */
static bool next_child(struct search *S, struct level *L, int d, int w, int jobs,
		       struct km_decision *dec, int64_t *rank)
{
	struct probe *p = &L->p;
	for (; L->j < p->ncps; L->j++, L->o = 0) {
		const struct cp_rec *r = &p->cps[L->j];
		if (!r->shared)
			continue;
		uint32_t other;
		while (cp_next(r, p->others, &L->o, &other)) {
			if (S->por && d + 1 == S->st->depth && hold_commutes(p, L->j, other)) {
				/* counted once, whatever the --jobs: at the root by
				 * worker 0, under the rank of the next subtree (the
				 * one-job search counts it before that subtree) */
				if (d || w == 0)
					count_key(S, d ? L->rank : L->nkids, 0, 0, 1, 0);
				continue;
			}
			int64_t rk = d ? L->rank : L->nkids++;
			if (d == 0 && ((rk / jobs) % 2 ? jobs - 1 - rk % jobs : rk % jobs) != w)
				continue;
			*dec = (struct km_decision){ L->j, r->ctx, other };
			*rank = rk;
			return true;
		}
	}
	return false;
}

/*
 * Where the run of level @d (decisions cur[0..d)) starts and what it
 * saves.  It agrees with its parent, the run of level d-1, up to its own
 * decision's choice point j, and with every ancestor up to theirs: so it
 * resumes the deepest snapshot of an ancestor taken at or before j (the
 * start snapshot, at the first choice point, else), and saves itself at
 * j as its parent's snapshot -- the next child of the parent, at j or
 * later, resumes there.  A level's children come in the order of their
 * choice points, so each level's snapshot only moves forward, and a run
 * costs what it does after j.  The snapshots of level d and deeper were
 * of the previous run of level d: dropped.
 */
static void share_prefix(struct search *S, struct level *L, struct km_snap *snap, int d,
			 const struct km_decision *cur)
{
	struct probe *p = &L[d].p;
	p->from = p->take = NULL;
	p->prefix = NULL;
	for (int e = d; e <= S->st->depth; e++)
		snap[e].valid = false;
	if (!sharing())
		return;
	if (d == 0) {
		from_start(p, &S->rq);
		return;
	}
	uint32_t j = cur[d - 1].index;
	for (int e = d - 1; e >= 0 && !p->from; e--)
		if (snap[e].valid && snap[e].at <= j) {
			p->from = &snap[e];
			p->prefix = &L[e].p;
		}
	if (!p->from && start_snap.valid && start_rq == &S->rq)
		p->from = &start_snap;
	if (!(p->from == &snap[d - 1] && snap[d - 1].at == j)) {
		p->take = &snap[d - 1];
		p->take_at = j;
	}
}

/* Count one more run against the global bound; false when it is reached. */
static bool take_run(struct search *S)
{
	if (S->shared_runs)
		return __atomic_fetch_add(S->shared_runs, 1, __ATOMIC_RELAXED) < S->max_runs;
	return S->runs < S->max_runs;
}

/*
 * The exhaustive search: a run is named by its decisions (at most K),
 * each at a choice point after the previous one's.  From each run, the
 * children add one hold at a later choice point of that run -- the runs
 * agree up to it -- where the step that followed touched a shared object.
 * So each decision sequence runs once, depth first.  With workers, the
 * parent makes the root run alone (S->root_only) and each worker adopts
 * it (S->root) and searches the first-level subtrees dealt to it
 * (next_child).  It stops at the run bound (global over the workers) and
 * at --max-memory, with S->stop saying which.
 */
static int search_exhaustive(struct search *S, int w, int jobs)
{
	int K = S->st->depth;
	struct level *L = calloc((size_t)K + 1, sizeof(*L));
	/* snap[e]: the run of level e saved at the choice point of the last
	 * of its children run (snapshot.h); they never move (uc) */
	struct km_snap *snap = calloc((size_t)K + 1, sizeof(*snap));
	struct km_decision cur[MAX_DEPTH + 1];
	struct run_out ro = { 0 };
	int rc = 0;
	S->covered = false;
	if (!L || !snap) {
		free(L);
		free(snap);
		snprintf(S->reason, sizeof(S->reason), "out of memory");
		return -1;
	}
	for (int i = 0; i <= K; i++) {
		probe_init(&L[i].p);
		L[i].p.how = BY_SCRIPT;
		L[i].p.script = cur;
		L[i].p.by_level = true;
	}
	/* the root: no decision */
	int d = 0;
	struct km_decision dec = { 0 };
	int64_t rk = -1;
	for (;;) {
		if (km_interrupted) {
			S->stop = STOP_INTERRUPTED;
			goto out;
		}
		struct level *N = &L[d];
		if (d == 0 && S->root) {
			/* a worker: the parent made the root run (search_all),
			 * counted it and kept its records for us */
			probe_free(&N->p);
			N->p = *S->root;
			N->p.script = cur;
			S->root = NULL;
		} else {
			if (!take_run(S)) {
				S->stop = STOP_RUNS;
				goto out;
			}
			N->p.nscript = d;
			share_prefix(S, L, snap, d, cur);
			rc = one_run(S->eras, &S->rq, &N->p, S->goal, false, &ro);
			count_key(S, rk, 1, rc < 0 ? 0 : ro.holds_cut, 0, ro.resumed);
			if (rc < 0) {
				snprintf(S->reason, sizeof(S->reason), "%s", ro.reason);
				goto out;
			}
			count_hash(S, 0, rk, ro.hash);
			count_hash(S, 1, rk, ro.sig);
			if (ro.goal) {
				rc = found_run(S, &N->p, rk);
				goto out;
			}
		}
		N->j = d ? dec.index + 1 : 0;
		N->o = 0;
		N->rank = rk;
		N->nkids = 0;
		size_t bytes = ((size_t)S->seen.cap + S->traces.cap) * sizeof(*S->seen.v) +
			       (size_t)(K + 1) * sizeof(*L) + (size_t)S->k.cap * sizeof(*S->k.c) +
			       ((size_t)S->k.caph[0] + S->k.caph[1]) * sizeof(*S->k.h[0]);
		for (int i = 0; i <= K; i++)
			bytes += probe_bytes(&L[i].p) + km_snap_bytes(&snap[i]);
		bytes += km_snap_bytes(&start_snap);
		if (S->rq.max_memory && bytes > S->rq.max_memory) {
			S->stop = STOP_MEMORY;
			S->stop_bytes = bytes;
			goto out;
		}
		if (S->root_only && K > 0) {
			/* the root made, for the workers to fork from */
			S->root = malloc(sizeof(*S->root));
			if (!S->root) {
				snprintf(S->reason, sizeof(S->reason), "out of memory");
				rc = -1;
				goto out;
			}
			*S->root = N->p;
			probe_init(&N->p);
			goto out;
		}
		/* the next run: the next child of the deepest level that has one */
		bool more = false;
		for (int at = d < K ? d : K - 1; at >= 0 && !more; at--) {
			more = next_child(S, &L[at], at, w, jobs, &dec, &rk);
			if (more) {
				cur[at] = dec;
				d = at + 1;
			}
		}
		if (!more)
			break;
	}
	S->covered = true;
out:
	for (int i = 0; i <= K; i++) {
		probe_free(&L[i].p);
		km_snap_free(&snap[i]);
	}
	free(L);
	free(snap);
	names_free(&ro);
	return rc;
}

/* ------------------------------------------------------------ the workers -- */

static int search_part(struct search *S, int w, int jobs)
{
	return S->st->kind == KM_STRAT_EXHAUSTIVE ? search_exhaustive(S, w, jobs) :
						    search_random(S, w, jobs);
}

/* What a worker sends back: this, then the decisions, then its counts
 * by key, then the hashes and the traces it saw, each with its key. */
struct part_result {
	int rc;
	bool found, covered;
	int64_t key;
	int stop;
	size_t stop_bytes;
	int ndec;
	uint32_t ncounts, nhash, ntraces;
	char reason[600];
};

static bool write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		p += w;
		len -= (size_t)w;
	}
	return true;
}

static bool read_all(int fd, void *buf, size_t len)
{
	char *p = buf;
	while (len) {
		ssize_t r = read(fd, p, len);
		if (r < 0 && errno == EINTR && !km_interrupted)
			continue;
		if (r <= 0)
			return false;
		p += r;
		len -= (size_t)r;
	}
	return true;
}

/* Each array in one write: one system call a hash was a third of the
 * parent's time and a tenth of a worker's. */
static void part_send(int fd, const struct search *S, int rc)
{
	const struct keyed *k = &S->k;
	struct part_result h = { .rc = rc, .found = S->found, .covered = S->covered,
				 .key = S->found_key, .stop = (int)S->stop,
				 .stop_bytes = S->stop_bytes, .ndec = S->best.n,
				 .ncounts = k->n, .nhash = k->nh[0], .ntraces = k->nh[1] };
	snprintf(h.reason, sizeof(h.reason), "%s", S->reason);
	if (k->oom) {
		h.rc = -1;
		h.ncounts = h.nhash = h.ntraces = 0;
		snprintf(h.reason, sizeof(h.reason), "out of memory counting the search's runs");
	}
	if (write_all(fd, &h, sizeof(h)) &&
	    write_all(fd, S->best.d, (size_t)S->best.n * sizeof(*S->best.d)) &&
	    write_all(fd, k->c, (size_t)h.ncounts * sizeof(*k->c)) &&
	    write_all(fd, k->h[0], (size_t)h.nhash * sizeof(*k->h[0])))
		write_all(fd, k->h[1], (size_t)h.ntraces * sizeof(*k->h[1]));
}

/* A worker's result, as read. */
struct part {
	struct part_result h;
	struct km_decision *d;
	struct key_count *c;
	struct key_hash *kh;		/* its hashes, then its traces */
	bool ok;
};

static void *read_array(int fd, size_t n, size_t el)
{
	void *v = malloc((n ? n : 1) * el);
	if (v && !read_all(fd, v, n * el)) {
		free(v);
		v = NULL;
	}
	return v;
}

static bool part_read(int fd, struct part *P)
{
	memset(P, 0, sizeof(*P));
	if (!read_all(fd, &P->h, sizeof(P->h)) || P->h.ndec < 0 || P->h.ndec > KM_SCHEDULE_MAX)
		return false;
	P->h.reason[sizeof(P->h.reason) - 1] = 0;
	P->d = read_array(fd, (size_t)P->h.ndec, sizeof(*P->d));
	P->c = P->d ? read_array(fd, P->h.ncounts, sizeof(*P->c)) : NULL;
	P->kh = P->c ? read_array(fd, (size_t)P->h.nhash + P->h.ntraces, sizeof(*P->kh)) : NULL;
	P->ok = P->kh != NULL;
	return P->ok;
}

static void part_free(struct part *P)
{
	free(P->d);
	free(P->c);
	free(P->kh);
}

/*
 * Take the workers' results into @S.  The hit with the lowest key wins
 * (the first in the one-process search's order), and only the keys up to
 * it are counted: the subtrees or seeds before it, all run whole, since
 * each worker runs its keys in ascending order and stops only at its own
 * hit, and the hit's own key up to the hit.  So the runs, the holds cut
 * and skipped, the runs resumed, the interleavings and the traces are
 * those the one-process search reports.  Without a hit every key counts.
 */
static int part_merge(struct search *S, struct part *P, int n, bool *covered)
{
	int rc = 0;
	int64_t cut = INT64_MAX;
	int win = -1;
	for (int w = 0; w < n; w++) {
		if (!P[w].ok) {
			snprintf(S->reason, sizeof(S->reason), "a worker of the search ended "
				 "without its result");
			rc = -1;
			continue;
		}
		if (P[w].h.found && P[w].h.key < cut) {
			cut = P[w].h.key;
			win = w;
		}
	}
	if (rc < 0)
		return rc;
	for (int w = 0; w < n; w++) {
		const struct part_result *h = &P[w].h;
		if (h->stop > (int)S->stop && h->stop <= STOP_MEMORY) {
			S->stop = (enum stop)h->stop;
			S->stop_bytes = h->stop_bytes;
		}
		*covered &= h->covered;
		if (h->rc < 0) {
			snprintf(S->reason, sizeof(S->reason), "%s", h->reason);
			rc = -1;
		}
		for (uint32_t i = 0; i < h->ncounts; i++) {
			const struct key_count *c = &P[w].c[i];
			uint64_t nk = keys_upto(c, cut);
			if (nk)	/* a key's counts times its keys, each at most the runs' bound */
				count_key(S, c->key, sat32((uint64_t)c->runs * nk),
					  sat32((uint64_t)c->holds_cut * nk),
					  sat32((uint64_t)c->pruned * nk), sat32((uint64_t)c->resumed * nk));
		}
		for (uint32_t i = 0; i < h->nhash + h->ntraces; i++)
			if (P[w].kh[i].key <= cut)
				hashset_add(i < h->nhash ? &S->seen : &S->traces, P[w].kh[i].hash);
	}
	if (win >= 0) {
		S->found = true;
		S->found_key = cut;
		S->best.n = 0;
		for (int i = 0; i < P[win].h.ndec; i++)
			if (km_schedule_push(&S->best, &P[win].d[i]) < 0) {
				snprintf(S->reason, sizeof(S->reason), "out of memory");
				return -1;
			}
	}
	return rc;
}

/*
 * The search in @jobs processes, one per worker, each with its share
 * (search_random, search_exhaustive): the result is the one a single
 * process finds, as the hit with the lowest key wins.  A run every
 * worker needs first -- the exhaustive search's root, PCT's first run
 * (its k) -- is made here, once, before they fork: no worker makes it
 * again from scratch (some 6 ms of CPU each: a fresh Lua state, the
 * chunk, its top level), and the runs counted do not depend on --jobs.
 * Random's workers make their first seeds from scratch, in parallel: a
 * run made here for its start snapshot alone would come before them, a
 * whole run's wall time (a long scenario's, tests/run_cli.sh).
 */
static int search_all(struct search *S, int jobs)
{
	if (jobs <= 1)
		return search_part(S, 0, 1);
	int rc = 0;
	if (S->st->kind == KM_STRAT_EXHAUSTIVE) {
		S->root_only = true;
		rc = search_exhaustive(S, 0, 1);
		S->root_only = false;
		if (S->root && km_interrupted) {	/* no workers to start */
			probe_free(S->root);
			free(S->root);
			S->root = NULL;
		}
		if (!S->root)	/* found, stopped, failed, interrupted, or K = 0 */
			return rc;
	} else if (S->st->kind == KM_STRAT_PCT) {
		if (plain_run(S, &S->pct_k) < 0)
			return -1;
		S->pct_first_made = true;
	}
	fflush(stdout);
	fflush(stderr);
	pid_t pid[256], self = getpid();
	int fd[256], started = 0;
	for (int w = 0; w < jobs; w++) {
		int p[2];
		if (pipe(p) < 0)
			break;
		pid[w] = fork();
		if (pid[w] < 0) {
			close(p[0]);
			close(p[1]);
			break;
		}
		if (pid[w] == 0) {
			km_run_child_dies_with_parent(self);
			close(p[0]);
			for (int i = 0; i < started; i++)
				close(fd[i]);
			/* this process's own copy of @S, at the same address
			 * (the start snapshot names its request): what the
			 * parent counted is not this worker's */
			S->runs = S->resumed = S->holds_cut = S->pruned = 0;
			memset(&S->seen, 0, sizeof(S->seen));
			memset(&S->traces, 0, sizeof(S->traces));
			memset(&S->best, 0, sizeof(S->best));
			S->by_key = true;
			int r = search_part(S, w, jobs);
			part_send(p[1], S, r);
			_exit(0);
		}
		close(p[1]);
		fd[started++] = p[0];
	}
	if (S->root) {
		probe_free(S->root);
		free(S->root);
		S->root = NULL;
	}
	if (started < jobs) {
		snprintf(S->reason, sizeof(S->reason), "cannot start %d workers: %s", jobs,
			 strerror(errno));
		rc = -1;
	}
	bool covered = true;
	struct part *P = calloc((size_t)started + 1, sizeof(*P));
	if (!P) {
		snprintf(S->reason, sizeof(S->reason), "out of memory");
		rc = -1;
	}
	for (int w = 0; w < started; w++) {
		if (P && !km_interrupted)
			part_read(fd[w], &P[w]);
		if (km_interrupted)	/* stopping: the workers stop now */
			for (int k = w; k < started; k++)
				kill(pid[k], SIGKILL);
		close(fd[w]);
		waitpid(pid[w], NULL, 0);
	}
	if (P && !km_interrupted && part_merge(S, P, started, &covered) < 0)
		rc = -1;
	for (int w = 0; P && w < started; w++)
		part_free(&P[w]);
	free(P);
	S->covered = covered && rc == 0;
	return rc;
}

/* Does "covered: yes" hold: the whole space run, no branch cut, no hold
 * skipped by --por (a skipped hold's later clock is not run)? */
static bool covered(const struct search *S)
{
	return S->covered && !S->found && S->stop == STOP_NONE && S->holds_cut == 0 &&
	       S->pruned == 0;
}

/*
 * The coverage line's text, after "covered: ": "yes" only when every
 * branch of the bounded space was run; else "no", and every bound that
 * cut one and every hold --por skipped, with how many.  The JSON's
 * "coverage" is the same text.
 */
static void coverage_text(const struct search *S, char *buf, size_t size)
{
	int K = S->st->depth;
	if (covered(S)) {
		snprintf(buf, size, "yes (every schedule with at most %d preemption%s)", K,
			 K == 1 ? "" : "s");
		return;
	}
	size_t n = 0;
	n += (size_t)snprintf(buf + n, size - n, "no --");
	const char *sep = " ";
	if (S->pruned && n < size) {
		n += (size_t)snprintf(buf + n, size - n, "%s%ld hold%s skipped as reorderings of "
				      "commuting steps; their later clock is not run (without "
				      "--por they are)", sep, S->pruned, S->pruned == 1 ? "" : "s");
		sep = "; ";
	}
	if (S->holds_cut && n < size) {
		char t[32];
		n += (size_t)snprintf(buf + n, size - n, "%s%ld hold%s cut at %s by --hold-max "
				      "(without it, holds wait as long as it takes)", sep,
				      S->holds_cut, S->holds_cut == 1 ? "" : "s",
				      km_fmt_ns(S->rq.hold_max, t, sizeof(t)));
		sep = "; ";
	}
	if (n >= size)
		return;
	if (S->stop == STOP_RUNS)
		snprintf(buf + n, size - n, "%sstopped at the bound of %ld runs", sep, S->max_runs);
	else if (S->stop == STOP_MEMORY)
		snprintf(buf + n, size - n, "%sstopped at --max-memory (%zu bytes)", sep,
			 S->rq.max_memory);
	else if (S->stop == STOP_INTERRUPTED || (!S->covered && !S->found))
		snprintf(buf + n, size - n, "%sinterrupted", sep);
	else if (S->found)
		snprintf(buf + n, size - n, "%sthe search stopped at its first hit", sep);
}

static void print_coverage(const struct search *S)
{
	char t[600];
	coverage_text(S, t, sizeof(t));
	printf("covered: %s\n", t);
}

static void print_reduction(const struct search *S)
{
	if (S->por)
		printf("reduction: %ld hold%s skipped as reorderings of commuting steps\n",
		       S->pruned, S->pruned == 1 ? "" : "s");
	else
		printf("reduction: none (--no-por, the default: every hold is run)\n");
}

int km_explore_schedules(const struct km_explore_opts *o, const struct km_strategy *st)
{
	const char *goal = o->goal ? o->goal : "violation";
	if (!strncmp(goal, "max:", 4)) {
		km_out_fail("--goal %s: a strategy looks for a failure: use violation, deadlock or check "
			    "(max: goals explore seeds, without --strategy)", goal);
		return 2;
	}
	if (strcmp(goal, "violation") && strcmp(goal, "deadlock") && strcmp(goal, "check")) {
		km_out_fail("--goal %s: must be violation, deadlock, check or max:ops.NAME.p99", goal);
		return 2;
	}
	if (o->seed_hi < o->seed_lo || o->seed_hi - o->seed_lo >= 1000000) {
		km_out_fail("--seeds: give a range A..B of at most 1,000,000 seeds");
		return 2;
	}
	/* the eras on a shelf, as `run` has them: a search loads the one it
	 * runs in (2-3 ms of a small search's start-up to load them all),
	 * with the snapshot arena paused (the shelf's hooks), so that it
	 * outlives the run that loaded it */
	struct km_era_shelf eras;
	char err[1024];
	if (km_open_eras(&eras, err, sizeof(err)) < 0) {
		km_out_fail("%s", err);
		return 2;
	}
	eras.pause = km_snap_pause;
	eras.unpause = km_snap_unpause;
	struct search S = { .o = o, .st = st, .goal = goal, .eras = &eras,
			    .por = st->kind == KM_STRAT_EXHAUSTIVE && o->por };
	S.rq = *o->base;
	S.rq.file = o->file;
	S.max_runs = max_runs();
	/* the run bound is over all the workers: one counter they share */
	long *shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED) {
		km_out_fail("cannot map the search's run counter: %s", strerror(errno));
		km_era_shelf_close(&eras);
		return 2;
	}
	*shared = 0;
	S.shared_runs = shared;
	int rc = search_all(&S, o->jobs > 256 ? 256 : o->jobs);
	munmap(shared, sizeof(*shared));
	S.shared_runs = NULL;
	/* stopped at --max-memory: what was done is reported, then exit 2 */
	bool mem_stop = rc == 0 && !S.found && S.stop == STOP_MEMORY;
	int status = rc < 0 || mem_stop ? 2 : S.found ? 0 : 1;
	char strat[32];
	snprintf(strat, sizeof(strat), "%s", st->kind == KM_STRAT_RANDOM ? "random" :
		 st->kind == KM_STRAT_PCT ? "pct" : "exhaustive");
	if (st->kind != KM_STRAT_RANDOM)
		snprintf(strat + strlen(strat), sizeof(strat) - strlen(strat), ":%d", st->depth);
	long found_after = S.runs;
	char mem_reason[200] = "";
	if (mem_stop)
		snprintf(mem_reason, sizeof(mem_reason), "the search's records reached --max-memory "
			 "(%zu bytes) after %ld runs: stopped, not covered", S.rq.max_memory, S.runs);
	struct run_out ro = { 0 };
	char path[4096] = "";
	long shrink_runs = 0;
	uint32_t steps_before = 0;
	int holds_before = S.best.n;
	struct probe last;
	probe_init(&last);
	if (km_interrupted) {
		status = 130;	/* no result to claim: "interrupted", once */
		km_session_say_interrupted();
		goto out;
	}
	if (rc < 0) {
		km_out_fail("%s", S.reason[0] ? S.reason : "the search failed");
		goto out;
	}
	if (status == 0) {
		shrink_runs = shrink(&eras, &S.rq, goal, &S.best, &ro, &steps_before);
		if (shrink_runs < 0) {
			km_out_fail("%s", ro.reason);
			status = 2;
			goto out;
		}
		/* the shrunk run once more, recorded with its lines */
		last.how = BY_SCRIPT;
		last.script = S.best.d;
		last.nscript = S.best.n;
		last.lines = true;
		if (one_run(&eras, &S.rq, &last, goal, true, &ro) < 0 || !ro.goal) {
			km_out_fail("%s", ro.reason[0] ? ro.reason :
				    "internal: the shrunk schedule no longer reaches the goal");
			status = 2;
			goto out;
		}
		struct km_schedule sch = last.applied;
		snprintf(sch.scenario, sizeof(sch.scenario), "%s", ro.scenario);
		sch.scenario_hash = ro.scenario_hash;
		snprintf(sch.era, sizeof(sch.era), "%s", ro.era);
		snprintf(sch.mode, sizeof(sch.mode), "%s", km_mode_name(S.rq.mode));
		sch.cpus = ro.cpus;
		sch.seed = ro.seed;
		sch.hold_max = S.rq.hold_max;
		if (st->kind == KM_STRAT_EXHAUSTIVE)
			snprintf(sch.strategy, sizeof(sch.strategy), "%s", strat);
		else
			snprintf(sch.strategy, sizeof(sch.strategy), "%s seed %" PRIu64, strat,
				 (uint64_t)S.found_key);	/* a seed: 0 to INT64_MAX */
		if (o->out) {
			snprintf(path, sizeof(path), "%s", o->out);
		} else {
			/* the scenario's name is the file's, but only as a name in
			 * the current folder: a scenario is somebody else's text */
			char safe[200];
			km_safe_file_name(ro.scenario, "explore", safe, sizeof(safe));
			snprintf(path, sizeof(path), "%s.schedule", safe);
		}
		sch.irq_names = (const char *const *)ro.irq_names;
		sch.nirq_names = ro.nirq_names;
		sch.sets = ro.params.sets;	/* ro keeps them */
		sch.nsets = ro.params.nsets;
		int *lines = calloc((size_t)sch.n + 1, sizeof(*lines));
		for (int i = 0; lines && i < sch.n; i++)
			lines[i] = sch.d[i].index < last.ncps ? last.cps[sch.d[i].index].line_after : 0;
		km_writing_output++;
		int wr = km_schedule_write(path, &sch, (const char *const *)ro.names, ro.nnames,
					   lines, err, sizeof(err));
		km_writing_output--;
		free(lines);
		if (wr < 0) {
			km_out_fail("%s%s: %s", o->out ? "--out " : "", path, err);
			status = 2;
			goto out;
		}
	}
	if (km_out_json) {
		json_t *j = json_object();
		json_object_set_new(j, "command", json_string("explore"));
		json_object_set_new(j, "strategy", json_string(strat));
		json_object_set_new(j, "goal", json_string(goal));
		json_object_set_new(j, "seed_lo", json_integer((json_int_t)o->seed_lo));
		json_object_set_new(j, "seed_hi", json_integer((json_int_t)o->seed_hi));
		json_object_set_new(j, "runs", json_integer(S.runs));
		json_object_set_new(j, "interleavings", json_integer(S.seen.n));
		json_object_set_new(j, "sharing", json_boolean(sharing()));
		json_object_set_new(j, "resumed", json_integer(S.resumed));
		if (st->kind == KM_STRAT_EXHAUSTIVE) {
			char cov[600];
			coverage_text(&S, cov, sizeof(cov));
			json_object_set_new(j, "covered", json_boolean(covered(&S)));
			json_object_set_new(j, "coverage", json_string(cov));
			json_object_set_new(j, "holds_cut", json_integer(S.holds_cut));
			json_object_set_new(j, "traces", json_integer(S.traces.n));
			json_object_set_new(j, "stopped", S.stop == STOP_NONE ? json_null() :
					    json_string(S.stop == STOP_RUNS ? "runs" :
							S.stop == STOP_MEMORY ? "memory" :
							"interrupted"));
			json_object_set_new(j, "por", json_boolean(S.por));
			json_object_set_new(j, "pruned", json_integer(S.pruned));
		}
		json_object_set_new(j, "outcome", json_string(status == 2 ? "error" : "completed"));
		json_object_set_new(j, "reason", mem_stop ? json_string(mem_reason) : json_null());
		json_object_set_new(j, "found", json_boolean(status == 0));
		json_object_set_new(j, "schedule", status == 0 ? json_string(path) : json_null());
		json_object_set_new(j, "preemptions", status == 0 ? json_integer(last.applied.n) :
				    json_null());
		if (status != 2 || mem_stop) {
			km_report_write_json(stdout, j);
			km_out_json_sent();
		}
		json_decref(j);
		goto out;
	}
	if (status == 1 || mem_stop) {
		printf("%s: no schedule in %ld run%s reaches the goal (%s); %u distinct "
		       "interleaving%s\n", strat, S.runs, S.runs == 1 ? "" : "s", goal, S.seen.n,
		       S.seen.n == 1 ? "" : "s");
		if (st->kind == KM_STRAT_EXHAUSTIVE) {
			print_coverage(&S);
			print_reduction(&S);
		} else if (S.holds_cut) {
			printf("holds: %ld cut at %s by --hold-max\n", S.holds_cut,
			       km_fmt_ns(S.rq.hold_max, err, sizeof(err)));
		}
		if (mem_stop)
			km_out_fail("%s", mem_reason);
	} else if (status == 0) {
		printf("%s", strat);
		if (st->kind != KM_STRAT_EXHAUSTIVE)
			printf(" seed %" PRIu64, (uint64_t)S.found_key);
		printf(" reaches the goal (%s) after %ld run%s (%u distinct interleaving%s)\n", goal,
		       found_after, found_after == 1 ? "" : "s", S.seen.n, S.seen.n == 1 ? "" : "s");
		if (st->kind == KM_STRAT_EXHAUSTIVE)
			print_reduction(&S);
		printf("shrunk from %d to %d preemption%s and from %u to %u steps in %ld run%s:\n",
		       holds_before, last.applied.n, last.applied.n == 1 ? "" : "s", steps_before,
		       last.ncps, shrink_runs, shrink_runs == 1 ? "" : "s");
		print_table(&last, &ro, o->file);
		printf("\nschedule: %s\n", path);
		replay_cmd(o, path);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		km_out_stdout_failed("the result", errno);
		status = 2;
	}
out:
	names_free(&ro);
	probe_free(&last);
	km_schedule_free(&S.best);
	keyed_free(&S.k);
	free(S.seen.v);
	free(S.traces.v);
	km_era_shelf_close(&eras);
	return status;
}
