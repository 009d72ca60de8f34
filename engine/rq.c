/*
 * rq.c - the run queues: one FIFO of runnable tasks per CPU, and the two
 * tournament trees that find the shortest and the longest of them.
 *
 * The queue operations on every wake-up and preemption are inline
 * (rq.h); here are the trees, the unlinking of a task from the middle of
 * a queue (stealing and balancing), the migration record, and the arming
 * of the O(1) scheduler's balance at the next tick.
 *
 * On the sched floor (sched_floor.h), at its bottom: sched.c and balance.c
 * both queue and dequeue through it.
 */
#include "sched_floor.h"
#include "machine.h"

#include <stdlib.h>


/*
 * Run-queue lengths as two tournament trees, so that a new task placed
 * while every CPU is busy (select_cpu) and an idle CPU looking for work
 * (steal) find the shortest or the longest queue in O(1), where a scan
 * costs O(CPUs): 100,000 tasks started at once on 1024 busy CPUs spent
 * 1.2 G instructions scanning.  Queues change far more often than they
 * are searched, so a change only marks its CPU dirty (O(1)), and a search
 * first replays the dirty CPUs' paths (O(log CPUs) each).  Below
 * KM_RQ_TREE_MIN CPUs the plain scans stay.  The trees choose exactly
 * what the scans choose (the lowest id on a tie), so a run is the same
 * either way.
 */
static inline int rq_pick(const struct km_sim *sim, int a, int b, bool shortest)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	int la = sim->cpus[a].rq_len, lb = sim->cpus[b].rq_len;
	if (la == lb)
		return a < b ? a : b;
	return (shortest ? la < lb : la > lb) ? a : b;
}

int km_rq_trees_init(struct km_sim *sim)
{
	if (sim->ncpus <= KM_RQ_TREE_MIN)
		return 0;
	int size = 1;
	while (size < sim->ncpus)
		size <<= 1;
	sim->rq_short = malloc(2 * (size_t)size * sizeof(int));
	sim->rq_long = malloc(2 * (size_t)size * sizeof(int));
	sim->rq_dirty = malloc((size_t)sim->ncpus * sizeof(int));
	sim->rq_is_dirty = calloc((size_t)sim->ncpus, 1);
	if (!sim->rq_short || !sim->rq_long || !sim->rq_dirty || !sim->rq_is_dirty)
		return -1;
	sim->rq_tree_size = size;
	for (int i = 0; i < size; i++)
		sim->rq_short[size + i] = sim->rq_long[size + i] = i < sim->ncpus ? i : -1;
	for (int n = size - 1; n >= 1; n--) {
		sim->rq_short[n] = rq_pick(sim, sim->rq_short[2 * n], sim->rq_short[2 * n + 1], true);
		sim->rq_long[n] = rq_pick(sim, sim->rq_long[2 * n], sim->rq_long[2 * n + 1], false);
	}
	return 0;
}

/*
 * Before a search: replay each dirty CPU's matches up to the root.  One
 * path after another is enough: each replay recomputes its nodes from
 * their children, and a node shared with a later path is recomputed
 * again by it.
 */
void km_rq_trees_refresh(struct km_sim *sim)
{
	for (int i = 0; i < sim->rq_ndirty; i++) {
		int id = sim->rq_dirty[i];
		sim->rq_is_dirty[id] = 0;
		for (int n = (sim->rq_tree_size + id) >> 1; n >= 1; n >>= 1) {
			sim->rq_short[n] = rq_pick(sim, sim->rq_short[2 * n],
						   sim->rq_short[2 * n + 1], true);
			sim->rq_long[n] = rq_pick(sim, sim->rq_long[2 * n],
						  sim->rq_long[2 * n + 1], false);
		}
	}
	sim->rq_ndirty = 0;
}

void km_balance_arm(struct km_sim *sim)
{
	if (sim->balance_armed || !sim->queued || sim->era.hz <= 0)
		return;
	sim->balance_armed = true;
	km_push(sim, km_next_tick(sim), KM_EV_BALANCE, 0, 0);
}

/* @ctx moves to @to from the CPU it last ran on: traced and counted. */
void km_cpu_migrated(struct km_sim *sim, struct km_cpu *to, const struct km_ctx *ctx)
{
	to->migrations++;
	km_emit(sim, KM_TR_MIGRATE, to->id, ctx, KM_TR_NONE, (uint32_t)to->id, 0);
}

/* Take @ctx off @cpu's queue; @prev is the task before it, or NULL. */
void km_rq_unlink(struct km_sim *sim, struct km_cpu *cpu, struct km_ctx *ctx,
		  struct km_ctx *prev)
{
	if (prev)
		prev->rq_next = ctx->rq_next;
	else
		cpu->rq_head = ctx->rq_next;
	if (cpu->rq_tail == ctx)
		cpu->rq_tail = prev;
	cpu->rq_len--;
	km_rq_tree_update(sim, cpu);
	sim->queued--;
	ctx->rq_next = NULL;
	if (!km_cfs(sim))
		return;
	/* CFS (sched_fair.c), __dequeue_entity(): the leftmost leaving lifts
	 * min_vruntime to the next one's; the next buddy is forgotten */
	if (!prev && cpu->rq_head && cpu->rq_head->vruntime > cpu->min_vruntime)
		cpu->min_vruntime = cpu->rq_head->vruntime;
	if (cpu->cfs_next == ctx)
		cpu->cfs_next = NULL;
}
