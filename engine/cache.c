/*
 * cache.c - the machine's caches (cache.h): a line's coherence state,
 * the home that serves its misses one at a time, and the topology that
 * prices a transfer between two CPUs.
 *
 * The model is the one the spinlock papers reason with, no finer:
 *
 *  - a miss (a load of a line the CPU holds no copy of, or a store or an
 *    atomic to a line it does not hold alone) is a request to the line's
 *    home.  The home takes one request at a time, each for one transfer
 *    from whoever supplies the line: the owner's cache when one holds it
 *    Modified, Exclusive or Owned, else the home's memory.  So k CPUs that
 *    miss together wait one, two, ... k transfers (c.k/2 on average), the
 *    mechanism section 3 of Boyd-Wickizer et al. 2012 models;
 *  - a store's invalidation of the other copies is one round of probes
 *    (costs.invalidate) when the CPU has the line already and only needs
 *    it exclusive (an upgrade); when it fetches the line the probes go
 *    with the fetch;
 *  - MESI: a read of a Modified line writes it back, and owner and reader
 *    share it clean.  MOESI: the owner keeps it Owned -- dirty, still the
 *    one that supplies readers -- which is why, on an Opteron, the CPU that
 *    released a test-and-set lock still holds the freshest copy when its
 *    next `lock; decb` comes, and needs only to invalidate the others.
 *
 * A flat machine (no topology in its file) prices every transfer at
 * costs.cacheline and a line held already at nothing, as the model did
 * before it had caches; its home serialises misses all the same.
 *
 * Costs: a read or write that hits is a bit test; a miss is O(1) but an
 * invalidation clears the sharer set, KM_MAX_CPUS / 64 words.
 */
#include "cache.h"
#include "machine.h"

#include <string.h>

bool km_machine_has_caches(const struct km_sim *sim)
{
	return sim->era.topo.protocol != KM_COH_FLAT;
}

void km_line_init(struct km_line *line, int home_cpu)
{
	memset(line, 0, sizeof(*line));
	line->owner = -1;
	line->home = home_cpu < 0 ? 0 : home_cpu;
}

/* Where @cpu sits: its socket, its die (numbered across the machine) and
 * its core (numbered across the machine). */
struct place {
	int socket, die, core;
};

static struct place place_of(const struct km_topology *t, int cpu)
{
	int per_die = t->cores * t->threads;
	int per_socket = t->dies * per_die;
	struct place p = { cpu / per_socket, cpu / per_die, cpu / t->threads };
	return p;
}

/* Links between two sockets: one when fully connected, else the shorter
 * way round the ring of the run's sockets. */
static int hops(const struct km_sim *sim, int a, int b)
{
	const struct km_topology *t = &sim->era.topo;
	if (t->links == KM_LINKS_FULL)
		return 1;
	int per_socket = t->dies * t->cores * t->threads;
	int n = (sim->ncpus + per_socket - 1) / per_socket;
	if (n < t->sockets)
		n = t->sockets;
	int d = a > b ? a - b : b - a;
	return d < n - d ? d : n - d;
}

km_time km_cpu_distance_cost(const struct km_sim *sim, int from_cpu, int to_cpu)
{
	const struct km_costs *c = km_cost(sim);
	if (!km_machine_has_caches(sim))
		return from_cpu == to_cpu ? 0 : c->cacheline;
	if (from_cpu == to_cpu)
		return c->hit;
	const struct km_topology *t = &sim->era.topo;
	struct place a = place_of(t, from_cpu), b = place_of(t, to_cpu);
	if (a.core == b.core)
		return c->same_core;
	if (a.die == b.die)
		return c->same_die;
	if (a.socket == b.socket)
		return c->same_socket;
	int h = hops(sim, a.socket, b.socket);
	if (h <= 1)
		return c->hop1;
	/* beyond two hops, each extra link costs what the second did */
	return km_sat_add(c->hop2, km_sat_mul(h - 2, c->hop2 - c->hop1));
}

/* A transfer of @line to @cpu: from its owner's cache, else from the
 * home's memory (never cheaper than a neighbour's cache: the memory
 * controller is not a cache hit).  A line in no cache yet is the first
 * toucher's as if it had set it up before the run: a hit. */
static km_time transfer(const struct km_sim *sim, const struct km_line *line, int cpu)
{
	if (line->owner >= 0)
		return km_cpu_distance_cost(sim, line->owner, cpu);
	if (!line->nsharers)
		return km_machine_has_caches(sim) ? km_cost(sim)->hit : 0;
	km_time mem = km_cpu_distance_cost(sim, line->home, cpu);
	km_time floor = km_machine_has_caches(sim) ? km_cost(sim)->same_die : km_cost(sim)->cacheline;
	return mem > floor ? mem : floor;
}

/* The home takes the request arriving at @at, serves it for @service:
 * the latency, queueing included. */
static km_time at_home(struct km_line *line, km_time at, km_time service)
{
	km_time start = line->home_free > at ? line->home_free : at;
	line->home_free = km_sat_add(start, service);
	return km_sat_add(start - at, service);
}

static void share(struct km_line *line, int cpu)
{
	if (!km_line_holds(line, cpu)) {
		line->sharers[cpu / 64] |= (uint64_t)1 << (cpu % 64);
		line->nsharers++;
	}
}

static bool cpu_ok(const struct km_sim *sim, int cpu)
{
	return cpu >= 0 && cpu < KM_MAX_CPUS && cpu < sim->ncpus;
}

km_time km_line_read(struct km_sim *sim, struct km_line *line, int cpu, km_time at)
{
	if (!cpu_ok(sim, cpu))
		return 0;
	if (km_line_holds(line, cpu))
		return km_machine_has_caches(sim) ? km_cost(sim)->hit : 0;
	km_time lat = at_home(line, at, transfer(sim, line, cpu));
	if (line->owner >= 0 &&
	    !(line->dirty && sim->era.topo.protocol == KM_COH_MOESI)) {
		/* MESI (or a clean Exclusive): the owner's copy becomes one
		 * of the shared, clean ones */
		line->owner = -1;
		line->dirty = false;
	}
	share(line, cpu);
	return lat;
}

km_time km_line_write(struct km_sim *sim, struct km_line *line, int cpu, km_time at)
{
	if (!cpu_ok(sim, cpu))
		return 0;
	bool held = km_line_holds(line, cpu);
	uint32_t others = line->nsharers - (held ? 1u : 0u);
	km_time lat;
	if (held && !others) {
		lat = km_machine_has_caches(sim) ? km_cost(sim)->hit : 0;
	} else {
		/* an upgrade is the probes' round; a fetch carries them */
		km_time inval = km_machine_has_caches(sim) ? km_cost(sim)->invalidate
							   : km_cost(sim)->cacheline;
		km_time service = held ? inval : transfer(sim, line, cpu);
		lat = at_home(line, at, service);
		memset(line->sharers, 0, sizeof(line->sharers));
		line->nsharers = 0;
		share(line, cpu);
	}
	line->owner = cpu;
	line->dirty = true;
	return lat;
}

km_time km_line_rmw(struct km_sim *sim, struct km_line *line, int cpu, km_time at)
{
	return km_sat_add(km_line_write(sim, line, cpu, at), km_cost(sim)->atomic);
}
