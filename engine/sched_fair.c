/*
 * sched_fair.c - CFS, as kernel/sched_fair.c of 2.6.26 decided who runs
 * next (era.scheduler = "cfs", docs/sources.md, [CFS26]).
 *
 * The eras before 2.6.23 keep a FIFO run queue per CPU and round robin at
 * the tick (sched.c).  From 2.6.23 the Completely Fair Scheduler ordered
 * each CPU's runnable tasks by their virtual run time, and this file
 * follows its decisions, for tasks of one weight (nice 0, all the engine
 * runs), so that vruntime advances as the task's own run time:
 *  - update_curr(): the task current on a CPU -- running, or being
 *    switched in, as rq->curr is from the pick -- adds the time since its
 *    exec_start to its sum_exec_runtime and its vruntime;
 *  - __enqueue_entity(): the run queue is ordered by vruntime, a task
 *    going after those of equal key (the rb-tree's ties go right); a task
 *    that becomes the leftmost lifts the queue's min_vruntime to its own,
 *    and __dequeue_entity() of the leftmost lifts it to the next one's
 *    (min_vruntime only ever grows, and in 2.6.26 only there; the
 *    dequeue half is km_rq_unlink(), rq.c);
 *  - place_entity(): a woken task gets the smaller of min_vruntime and
 *    the leftmost's vruntime, less one sched_latency (NEW_FAIR_SLEEPERS),
 *    but never less than its own vruntime; a new one gets that base plus
 *    the slice of a queue one longer (START_DEBIT);
 *  - check_preempt_wakeup(): the woken task becomes the queue's next
 *    buddy, and preempts the current task if that task's vruntime is
 *    larger than its own by more than the wake-up granularity;
 *  - pick_next_entity(): the leftmost, unless the next buddy's vruntime is
 *    within the wake-up granularity of it: then the buddy;
 *  - check_preempt_tick(): at a tick, with another task queued, the
 *    current task is rescheduled once it has run longer than its slice,
 *    sched_latency shared among the queue's tasks (min_granularity each
 *    beyond sched_nr_latency of them); schedule() picks it again if it
 *    is still the leftmost, and then nothing is switched;
 *  - set_task_cpu(): a task moved to another CPU keeps its distance from
 *    the min_vruntime of the queue it leaves.
 * The tunables are the era's (cfs_latency_ns, cfs_min_granularity_ns,
 * cfs_wakeup_granularity_ns) scaled at boot by 1 + ilog2(CPUs), as
 * sched_init_granularity() did, latency and minimum granularity capped at
 * 200 ms; sched_nr_latency stays 5 (the sysctl handler alone recomputed
 * it).
 *
 * Not modelled: the high-resolution tick that could end a slice between
 * ticks (HRTICK), fork's child-runs-first swap (the engine's tasks are
 * not forked by the task running there), group scheduling, and CFS's
 * load balancing: where a task goes is still select_cpu()'s (sched.c)
 * and km_balance_steal()'s (balance.c) choice.
 *
 * The run queue stays the singly linked list of rq.c, kept in vruntime
 * order: an insertion walks it, O(tasks queued on that CPU).
 *
 * On the sched floor (sched_floor.h).
 */
#include "sched_floor.h"

/* sched_nr_latency: sysctl_sched_latency / sysctl_sched_min_granularity */
#define KM_CFS_NR_LATENCY	5
/* sched_init_granularity()'s cap */
#define KM_CFS_GRAN_LIMIT	200000000LL

static int ilog2_int(int n)
{
	int l = 0;
	while (n > 1) {
		n >>= 1;
		l++;
	}
	return l;
}

static km_time scaled(const struct km_sim *sim, km_time v, bool capped)
{
	km_time f = 1 + ilog2_int(sim->ncpus > 0 ? sim->ncpus : 1);
	km_time s = km_sat_mul(v, f);
	return capped && s > KM_CFS_GRAN_LIMIT ? KM_CFS_GRAN_LIMIT : s;
}

km_time km_fair_latency(const struct km_sim *sim)
{
	return scaled(sim, sim->era.cfs_latency, true);
}

km_time km_fair_wakeup_gran(const struct km_sim *sim)
{
	return scaled(sim, sim->era.cfs_wakeup_gran, false);
}

/* The task that is rq->curr on @cpu: running, or being switched in. */
static struct km_ctx *fair_curr(const struct km_cpu *cpu)
{
	return cpu->curr ? cpu->curr : cpu->switch_to;
}

/* cfs_rq->nr_running: the queued tasks and the current one. */
static int nr_running(const struct km_cpu *cpu)
{
	return cpu->rq_len + (fair_curr(cpu) ? 1 : 0);
}

/* __sched_period(): the time in which each of @nr tasks runs once. */
static km_time sched_period(const struct km_sim *sim, int nr)
{
	if (nr > KM_CFS_NR_LATENCY)
		return km_sat_mul(scaled(sim, sim->era.cfs_min_gran, true), nr);
	return km_fair_latency(sim);
}

void km_fair_update_curr(struct km_sim *sim, struct km_cpu *cpu)
{
	struct km_ctx *curr = fair_curr(cpu);
	if (!curr)
		return;
	km_time d = sim->now - curr->exec_start;
	if (d > 0) {
		curr->sum_exec = km_sat_add(curr->sum_exec, d);
		curr->vruntime = km_sat_add(curr->vruntime, d);
	}
	curr->exec_start = sim->now;
}

void km_fair_place(struct km_sim *sim, struct km_cpu *cpu, struct km_ctx *ctx, bool initial)
{
	km_fair_update_curr(sim, cpu);	/* enqueue_entity(): update_curr() first */
	int64_t v = cpu->min_vruntime;
	if (cpu->rq_head && cpu->rq_head->vruntime < v)
		v = cpu->rq_head->vruntime;
	if (initial) {
		/* START_DEBIT: sched_vslice_add(), a slice of a queue one
		 * longer, in virtual time (equal weights) */
		int nr = nr_running(cpu) + 1;
		v = km_sat_add(v, sched_period(sim, nr) / nr);
	} else {
		/* NEW_FAIR_SLEEPERS: sleeps up to a latency don't count */
		v -= km_fair_latency(sim);
		if (ctx->vruntime > v)
			v = ctx->vruntime;	/* never gain by being placed backwards */
	}
	ctx->vruntime = v;
}

void km_fair_link(struct km_cpu *cpu, struct km_ctx *ctx)
{
	struct km_ctx *prev = NULL;
	for (struct km_ctx *t = cpu->rq_head; t && t->vruntime <= ctx->vruntime; t = t->rq_next)
		prev = t;
	km_rq_link_after(cpu, prev, ctx);
	if (!prev && ctx->vruntime > cpu->min_vruntime)	/* the leftmost */
		cpu->min_vruntime = ctx->vruntime;
}

/*
 * wakeup_preempt_entity(): should @se preempt @curr?  1 if @curr's
 * vruntime is larger by more than the wake-up granularity, -1 if it is
 * smaller, 0 in between.
 */
int km_fair_wakeup_preempt(const struct km_sim *sim, const struct km_ctx *curr,
			   const struct km_ctx *se)
{
	int64_t vdiff = curr->vruntime - se->vruntime;
	if (vdiff < 0)
		return -1;
	return vdiff > km_fair_wakeup_gran(sim) ? 1 : 0;
}

struct km_ctx *km_fair_pick(struct km_sim *sim, struct km_cpu *cpu)
{
	struct km_ctx *se = cpu->rq_head;
	if (!se)
		return NULL;
	struct km_ctx *n = cpu->cfs_next;
	if (n && km_fair_wakeup_preempt(sim, n, se) == 0)
		se = n;
	struct km_ctx *prev = NULL;
	for (struct km_ctx *t = cpu->rq_head; t != se; t = t->rq_next)
		prev = t;
	km_rq_unlink(sim, cpu, se, prev);
	/* set_next_entity() */
	se->prev_sum_exec = se->sum_exec;
	se->exec_start = sim->now;
	return se;
}

bool km_fair_check_preempt_wakeup(struct km_sim *sim, struct km_cpu *cpu, struct km_ctx *p)
{
	struct km_ctx *curr = fair_curr(cpu);
	if (!curr || curr == p)
		return false;
	cpu->cfs_next = p;
	return km_fair_wakeup_preempt(sim, curr, p) == 1;
}

bool km_fair_tick(struct km_sim *sim, struct km_cpu *cpu)
{
	km_fair_update_curr(sim, cpu);
	struct km_ctx *curr = fair_curr(cpu);
	int nr = nr_running(cpu);
	if (!curr || nr <= 1)
		return false;
	/* check_preempt_tick(): sched_slice(), the period shared equally */
	km_time ideal = sched_period(sim, nr) / nr;
	if (curr->sum_exec - curr->prev_sum_exec <= ideal)
		return false;
	/* schedule() then puts it back in the tree and picks: if that is
	 * itself again (prev == next), there is no switch, only a new slice */
	const struct km_ctx *head = cpu->rq_head, *n = cpu->cfs_next;
	if (head && head->vruntime <= curr->vruntime)
		return true;	/* a queued task is left of it */
	if (n && km_fair_wakeup_preempt(sim, n, curr) == 0)
		return true;	/* the next buddy, close enough to it */
	curr->prev_sum_exec = curr->sum_exec;	/* set_next_entity() */
	return false;
}

void km_fair_migrate(const struct km_cpu *from, const struct km_cpu *to, struct km_ctx *ctx)
{
	ctx->vruntime -= from->min_vruntime - to->min_vruntime;
}
