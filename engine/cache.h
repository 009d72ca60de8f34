/*
 * cache.h - the machine's caches: cache lines the model tracks, their
 * coherence state, and what a load, a store or a locked read-modify-write
 * costs the CPU that issues it (cache.c), on the machine floor of the core.
 *
 * The spinlock's history from 2005 to 2015 is a history of cache lines:
 * who holds the line when the lock is released, how many copies a release
 * invalidates, whether a waiter spins on a shared line or on its own.  So a
 * primitive says which lines it touches and when; this file says what that
 * costs on the era's machine (era.h, struct km_topology and the transfer
 * costs of struct km_costs, given by eras/machines/NAME.lua):
 *
 *  - a line has at most one owner holding it Modified or Exclusive -- or,
 *    under MOESI (AMD), Owned: dirty, yet shared with readers it supplies
 *    without writing back -- and a set of sharers;
 *  - a miss goes to the line's home, which serves one request at a time,
 *    each for one transfer (from the owner's cache, or from the home's
 *    memory), in the order the requests reach it: k CPUs missing together
 *    wait 1, 2, ... k transfers, c.k/2 on average (Boyd-Wickizer et al.
 *    2012, section 3);
 *  - a transfer costs what the topology says between the two CPUs: same
 *    core (SMT siblings), same die, same socket, one hop, two hops;
 *  - a store or a read-modify-write needs the line exclusive: it fetches the
 *    line if it does not hold it and invalidates every other copy.
 *
 * A machine file without a topology is a flat machine: every pair of CPUs
 * is one `cacheline` apart, a line held already is free, and nothing
 * queues at the home -- what the model charged before it had caches.
 *
 * The lines live in the objects that have them (a lock's word, a
 * variable, an atomic, the per-CPU queue nodes); this floor knows none of
 * those objects, only lines and CPUs.
 */
#ifndef KM_ENGINE_CACHE_H
#define KM_ENGINE_CACHE_H

#include "km.h"

struct km_sim;

#define KM_LINE_WORDS (KM_MAX_CPUS / 64)

/* Sockets whose shared cache's fill time a line remembers (socket % this:
 * a board of more sockets shares the slots, which only makes a later
 * socket's fill look as late as an earlier one's) */
#define KM_LINE_SOCKETS 8

/* Requests a home (or a front-side bus) has taken and not yet served
 * that it remembers one by one; more are joined to a neighbour. */
#define KM_HOME_BOOKINGS 16

/*
 * struct km_booking - one request a home has taken: when it reached the
 * home (@arrival), when the home serves it ([@start, @end)), whose it is
 * (@cpu, -1 for none known) and whether it is a spinner's re-read
 * (@spin: km_line_spin_read(), which nobody waits for).
 */
struct km_booking {
	km_time arrival, start, end;
	int32_t cpu;
	bool spin;
};

/*
 * struct km_bookings - when a home is busy: the requests it has taken and
 * not finished serving, stretches of time that do not overlap, by start.
 * The model prices a CPU's whole sequence of misses when the sequence
 * starts, so a home learns of a request stamped later before one stamped
 * earlier; cache.c's book() serves them as a home serving requests in
 * the order they reach it would.
 * @b:		the bookings
 * @n:		how many
 * @contig:	where the last run of back-to-back bookings begins: a request
 *		from its start on can only go after the last (cache.c keeps it,
 *		so that a busy home does not search its bookings for a gap)
 */
struct km_bookings {
	struct km_booking b[KM_HOME_BOOKINGS];
	uint32_t n, contig;
};

/*
 * struct km_line - one cache line as the machine sees it.
 * @owner:	the CPU holding it Modified, Exclusive or (MOESI) Owned, or -1
 *		when no cache holds it exclusively or dirty
 * @dirty:	the owner's copy is newer than memory (M, or O under MOESI)
 * @nsharers:	how many CPUs hold a valid copy (the owner included)
 * @sharers:	which: one bit a CPU
 * @home:	the CPU whose node's memory (and directory) is the line's home
 * @booked:	when the home is busy: one request at a time, each served
 *		for one transfer
 * @filled:	topology.llc = "socket": when the line's copy in each socket's
 *		shared cache is (or was) valid, by socket % KM_LINE_SOCKETS: a
 *		core that misses while the socket's first fetch is on its way
 *		waits for it, then reads the socket's copy
 */
struct km_line {
	int owner;
	bool dirty;
	uint32_t nsharers;
	int home;
	struct km_bookings booked;
	uint64_t sharers[KM_LINE_WORDS];
	km_time filled[KM_LINE_SOCKETS];
};

/* A line homed on @home_cpu's node, in no cache yet. */
void km_line_init(struct km_line *line, int home_cpu);

/*
 * km_line_read - a load of @line by @cpu, issued at @at: the latency the
 * CPU waits, queueing at the home included.  Afterwards @cpu shares the
 * line; a Modified owner keeps it Owned (MOESI) or writes it back and
 * shares it (MESI).
 * Context: any; changes the line's state and its home's queue.
 */
km_time km_line_read(struct km_sim *sim, struct km_line *line, int cpu, km_time at);

/*
 * km_line_spin_read - the load of a CPU spinning on @line, issued at @at,
 * that only brings its copy back after a store took it: km_line_read()
 * whose latency nobody waits for.  The line's home serves it in arrival
 * order among the requests it has: one asked later but stamped earlier
 * (a store that ends the wait) goes first, and this request then returns
 * the new value -- so a later read of @line by the same CPU, made while
 * this one is not yet served, is this one (a core has one miss of a
 * line outstanding), and costs what is left of it.
 * Context: any; changes the line's state and its home's queue.
 */
void km_line_spin_read(struct km_sim *sim, struct km_line *line, int cpu, km_time at);

/*
 * km_line_write - a plain store to @line by @cpu at @at: the line
 * exclusive (fetched if @cpu holds no copy, every other copy
 * invalidated), then Modified in @cpu.  Returns the latency.
 */
km_time km_line_write(struct km_sim *sim, struct km_line *line, int cpu, km_time at);

/*
 * km_line_store - a plain store (mov) to @line by @cpu at @at, as the CPU
 * sees it: on a machine with store buffers (topology.store_buffer, every
 * x86 since the P6) the store waits in the buffer and the CPU goes on, so
 * it stalls for a hit, not the line's request; elsewhere it is
 * km_line_write().  The line's request is made all the same, at @at;
 * *@done (if not NULL) gets how long after @at the store is visible to
 * the other CPUs when the CPU did not wait for it (its latency, or later:
 * the buffer drains in order, so no sooner than the CPU's previous
 * store), else 0: a CPU that stalled goes on when its store is visible.
 * Context: any; changes the line's state and its home's queue.
 */
km_time km_line_store(struct km_sim *sim, struct km_line *line, int cpu, km_time at,
		      km_time *done);

/*
 * km_line_rmw - a locked read-modify-write (lock; decb, xadd, cmpxchg,
 * xchg) of @line by @cpu at @at: km_line_write() plus the atomic's own
 * cost (costs.atomic), after the CPU's buffered stores have drained on a
 * machine with store buffers (the wait is part of the latency).
 */
km_time km_line_rmw(struct km_sim *sim, struct km_line *line, int cpu, km_time at);

/*
 * km_cpu_distance_cost - moving one line from @from_cpu's cache to
 * @to_cpu's, by topology: the hit cost when they are the same CPU, then
 * same core (SMT), same die, same socket, one hop, two hops (more hops:
 * two hops plus a hop's difference for each extra).  A flat machine:
 * 0 for the same CPU, costs.cacheline for any other.
 */
km_time km_cpu_distance_cost(const struct km_sim *sim, int from_cpu, int to_cpu);

/* Does @cpu hold a valid copy of @line? */
static inline bool km_line_holds(const struct km_line *line, int cpu)
{
	return cpu >= 0 && cpu < KM_MAX_CPUS &&
	       (line->sharers[cpu / 64] >> (cpu % 64) & 1);
}

/* Place every CPU of @sim in the era machine's topology, once, before
 * the run (km_sim_new): what km_cpu_distance_cost() then compares. */
void km_cache_setup(struct km_sim *sim);

/* The machine has a topology (and so caches to model), not one flat cost. */
bool km_machine_has_caches(const struct km_sim *sim);

#endif /* KM_ENGINE_CACHE_H */
