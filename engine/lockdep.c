/*
 * lockdep.c - a lock validator in the manner of the kernel's lockdep.
 *
 * A deadlock that did not happen in this run can happen in the next one.
 * Like kernel/locking/lockdep.c, this file does not wait for it: it
 * watches every acquisition and proves the possibility.
 *
 *  - lock-order: each lock taken while another is held adds an edge
 *    held --> taken to a graph of the run's locks; an edge that closes a
 *    cycle (A --> B now, B --> A earlier, or longer chains) is a possible
 *    deadlock, reported with the chain and lockdep's CPU0/CPU1 scenario,
 *    however lucky the timing was.
 *  - irq-unsafe: a spinlock taken in an interrupt handler and also by a
 *    task with interrupts enabled (the interrupt can arrive while the task
 *    holds it, on the same CPU); and a lock taken in interrupt context
 *    held while an irq-unsafe one is taken (the kernel's "HARDIRQ-safe ->
 *    HARDIRQ-unsafe lock order").
 *  - recursive-lock: a lock that is not recursive taken again by its holder.
 *  - held-at-exit: a task (or handler) that ends holding a lock.
 *
 * What it tracks: spinlocks, mutexes and binary semaphores (count 1) --
 * the locks with an owner.  Counting semaphores and locks declared locked
 * (count 0, the "wait for this" pattern, in any mode) have no owner and are
 * left out,
 * as the kernel's semaphores were never lockdep-annotated; cli() and the
 * BKL are one global thing each and cannot be taken in the wrong order
 * (a BKL held at exit is still reported).
 *
 * Cost: O(held locks) per acquisition, plus a graph search only when an
 * edge is new, which happens a few times per pair of locks in a run.
 */
#include "core.h"
#include "lock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool tracked(const struct km_lock *l)
{
	/* A lock declared locked (count 0) is a "wait for this" flag, not a
	 * lock with an owner, whatever the mode makes of it. */
	return l->count != 0 && km_lock_one_owner(l);
}

static bool has_edge(const struct km_lock *from, uint32_t to)
{
	for (uint32_t i = 0; i < from->nafter; i++)
		if (from->after[i] == to)
			return true;
	return false;
}

static int add_edge(struct km_lock *from, uint32_t to)
{
	if (from->nafter == from->capafter) {
		uint32_t ncap = from->capafter ? from->capafter * 2 : 4;
		uint32_t *n = realloc(from->after, ncap * sizeof(*n));
		if (!n)
			return KM_ENOMEM;
		from->after = n;
		from->capafter = ncap;
	}
	from->after[from->nafter++] = to;
	return KM_OK;
}

/*
 * Is there a path start -->* goal?  If so, fill @path (ids, start first)
 * and return its length; else 0.  Breadth-first, so the chain reported is
 * a shortest one.
 */
static uint32_t find_path(struct km_sim *sim, uint32_t start, uint32_t goal, uint32_t *path,
			  uint32_t maxlen)
{
	uint32_t n = sim->locks.n;
	int32_t *parent = malloc(n * sizeof(*parent));
	uint32_t *queue = malloc(n * sizeof(*queue));
	uint32_t len = 0;
	if (!parent || !queue)
		goto out;
	for (uint32_t i = 0; i < n; i++)
		parent[i] = -2;
	uint32_t qh = 0, qt = 0;
	queue[qt++] = start;
	parent[start] = -1;
	while (qh < qt) {
		uint32_t u = queue[qh++];
		if (u == goal) {
			uint32_t rev[64], k = 0;
			for (int32_t v = (int32_t)u; v >= 0 && k < 64; v = parent[v])
				rev[k++] = (uint32_t)v;
			for (uint32_t i = 0; i < k && i < maxlen; i++)
				path[i] = rev[k - 1 - i];
			len = k < maxlen ? k : maxlen;
			goto out;
		}
		const struct km_lock *l = sim->locks.v[u];
		for (uint32_t i = 0; i < l->nafter; i++) {
			uint32_t w = l->after[i];
			if (parent[w] == -2) {
				parent[w] = (int32_t)u;
				queue[qt++] = w;
			}
		}
	}
out:
	free(parent);
	free(queue);
	return len;
}

static void report_cycle(struct km_sim *sim, struct km_ctx *ctx, struct km_lock *held,
			 struct km_lock *next, const uint32_t *path, uint32_t len)
{
	/* path: next -->* held, found before adding held --> next */
	char chain[512];
	size_t off = (size_t)snprintf(chain, sizeof(chain), "%s", held->name);
	for (uint32_t i = 0; i < len && off < sizeof(chain); i++)
		off += (size_t)snprintf(chain + off, sizeof(chain) - off, " --> %s",
					sim->locks.v[path[i]]->name);
	const struct km_lock *parent = len >= 2 ? sim->locks.v[path[len - 2]] : next;

	char splat[2048];
	snprintf(splat, sizeof(splat),
		 "======================================================\n"
		 "WARNING: possible circular locking dependency detected\n"
		 "------------------------------------------------------\n"
		 "%s is trying to acquire lock:\n"
		 " (%s)\n"
		 "but task is already holding lock:\n"
		 " (%s)\n"
		 "which lock already depends on the new lock.\n"
		 "the existing dependency chain is:\n"
		 " %s\n"
		 "\n"
		 " Possible unsafe locking scenario:\n"
		 "\n"
		 "       CPU0                    CPU1\n"
		 "       ----                    ----\n"
		 "  lock(%s);\n"
		 "                               lock(%s);\n"
		 "                               lock(%s);\n"
		 "  lock(%s);\n"
		 "\n"
		 " *** DEADLOCK ***",
		 ctx->name, next->name, held->name, chain, held->name, parent->name,
		 held->name, next->name);
	km_violation_splat(sim, KM_V_LOCK_ORDER, ctx, next, splat,
			   "possible circular locking: '%s' takes '%s' while holding '%s' (%s)",
			   ctx->name, next->name, held->name, chain);
}

static void report_irq_inconsistent(struct km_sim *sim, struct km_ctx *ctx, struct km_lock *l)
{
	char splat[1024];
	snprintf(splat, sizeof(splat),
		 "================================\n"
		 "WARNING: inconsistent lock state\n"
		 "--------------------------------\n"
		 "inconsistent {IN-HARDIRQ-W} -> {HARDIRQ-ON-W} usage.\n"
		 "%s takes:\n"
		 " (%s)\n"
		 "\n"
		 " Possible unsafe locking scenario:\n"
		 "\n"
		 "       CPU0\n"
		 "       ----\n"
		 "  lock(%s);\n"
		 "  <Interrupt>\n"
		 "    lock(%s);\n"
		 "\n"
		 " *** DEADLOCK ***",
		 ctx->name, l->name, l->name, l->name);
	km_violation_splat(sim, KM_V_IRQ_UNSAFE, ctx, l, splat,
			   "spinlock '%s' is taken in interrupt context and with interrupts "
			   "enabled: an interrupt on the holder's CPU deadlocks (use "
			   "spin_lock_irqsave)", l->name);
}

static void report_safe_unsafe(struct km_sim *sim, struct km_ctx *ctx, struct km_lock *safe,
			       struct km_lock *unsafe)
{
	char splat[1024];
	snprintf(splat, sizeof(splat),
		 "=====================================================\n"
		 "WARNING: HARDIRQ-safe -> HARDIRQ-unsafe lock order detected\n"
		 "-----------------------------------------------------\n"
		 "%s is trying to acquire:\n"
		 " (%s)\n"
		 "and this task is already holding:\n"
		 " (%s)\n"
		 "which would create a new lock dependency:\n"
		 " (%s) --> (%s)\n"
		 "\n"
		 " Possible interrupt unsafe locking scenario:\n"
		 "\n"
		 "       CPU0                    CPU1\n"
		 "       ----                    ----\n"
		 "  lock(%s);\n"
		 "                               local_irq_disable();\n"
		 "                               lock(%s);\n"
		 "                               lock(%s);\n"
		 "  <Interrupt>\n"
		 "    lock(%s);\n"
		 "\n"
		 " *** DEADLOCK ***",
		 ctx->name, unsafe->name, safe->name, safe->name, unsafe->name, unsafe->name,
		 safe->name, unsafe->name, safe->name);
	km_violation_splat(sim, KM_V_IRQ_UNSAFE, ctx, unsafe, splat,
			   "'%s' (taken in interrupts) is held while '%s' (taken with "
			   "interrupts on) is taken", safe->name, unsafe->name);
}

/*
 * km_lockdep_acquire - validate @ctx about to take @l.
 * Context: any; called before the primitive runs, whatever its outcome.
 */
void km_lockdep_acquire(struct km_sim *sim, struct km_ctx *ctx, struct km_lock *l,
			bool trylock)
{
	if (l->id == UINT32_MAX || !tracked(l))
		return;
	if (l->ops->irq_safety) {
		if (ctx->kind == KM_CTX_IRQ)
			l->used_in_irq = true;
		else if (ctx->irqoff == 0)
			l->used_irqs_on = true;
		if (l->used_in_irq && l->used_irqs_on && !l->irq_reported) {
			l->irq_reported = true;
			report_irq_inconsistent(sim, ctx, l);
		}
	}
	if (km_hold_find(ctx, l)) {
		if (!trylock)
			km_violation(sim, KM_V_RECURSIVE_LOCK, ctx, l, NULL,
				     "'%s' takes %s '%s' again while holding it: it is not "
				     "recursive (possible recursive locking detected)",
				     ctx->name, km_prim_name(l->prim), l->name);
		return;
	}
	if (trylock)
		return;		/* a trylock cannot wait, so it adds no dependency */
	for (struct km_hold *h = ctx->held; h; h = h->cnext) {
		struct km_lock *held = h->lock;
		if (held == l || held->id == UINT32_MAX || !tracked(held))
			continue;
		if (held->used_in_irq && l->ops->irq_safety && l->used_irqs_on &&
		    !l->irq_reported) {
			l->irq_reported = true;
			report_safe_unsafe(sim, ctx, held, l);
		}
		if (has_edge(held, l->id))
			continue;
		uint32_t path[64];
		uint32_t len = find_path(sim, l->id, held->id, path, 64);
		if (add_edge(held, l->id) < 0) {
			km_fail(sim, KM_ENOMEM, "out of memory in the lock validator");
			return;
		}
		if (len)
			report_cycle(sim, ctx, held, l, path, len);
	}
}

/*
 * km_lockdep_exit - @ctx ends: report what it still holds.
 */
void km_lockdep_exit(struct km_sim *sim, struct km_ctx *ctx)
{
	for (struct km_hold *h = ctx->held; h; h = h->cnext) {
		struct km_lock *l = h->lock;
		if (l->id == UINT32_MAX || !(tracked(l) || l->ops->exit_report))
			continue;
		char splat[512];
		snprintf(splat, sizeof(splat),
			 "=====================================\n"
			 "WARNING: %s is exiting with locks still held!\n"
			 "-------------------------------------\n"
			 "1 lock held by %s:\n"
			 " #0: (%s)", ctx->name, ctx->name, l->name);
		km_violation_splat(sim, KM_V_HELD_AT_EXIT, ctx, l, splat,
				   "%s '%s' ends holding %s '%s'",
				   ctx->kind == KM_CTX_IRQ ? "interrupt handler" : "task",
				   ctx->name, km_prim_name(l->prim), l->name);
	}
}
