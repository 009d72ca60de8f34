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
 *    mechanism section 3 of Boyd-Wickizer et al. 2012 models.  It serves
 *    them in the order they reach it, which is not the order the model
 *    asks (it prices a CPU's whole sequence at once): an earlier request
 *    asked later fills a gap before the later ones (book());
 *  - a store's invalidation of the other copies is one round of probes
 *    (costs.invalidate) when the CPU has the line already and only needs
 *    it exclusive (an upgrade); when it fetches the line the probes go
 *    with the fetch;
 *  - on a front-side bus (the P6 and Pentium 4 SMPs) the serialising
 *    point is the bus, not a home: one transaction at a time across all
 *    lines, each holding the bus for costs.bus, however long its data
 *    takes to come back (costs by distance, as everywhere);
 *  - MESI: a read of a Modified line writes it back, and owner and reader
 *    share it clean.  MOESI: the owner keeps it Owned -- dirty, still the
 *    one that supplies readers -- which is why, on an Opteron, the CPU that
 *    released a test-and-set lock still holds the freshest copy when its
 *    next `lock; decb` comes, and needs only to invalidate the others.
 *
 *  - a socket's shared, inclusive last-level cache (topology.llc =
 *    "socket": Nehalem and its successors, Westmere-EX among them) answers
 *    its own cores: a load of a line a core of the socket holds clean is a
 *    hit in that cache (costs.llc), one a core of the socket holds
 *    Modified a snoop on the die, and neither goes to the line's home; a
 *    core that misses while its socket's first fetch of the line is on the
 *    way waits for that fetch.  Its tags know which cores hold the line,
 *    so a store to a line held shared costs the round to the farthest
 *    other copy -- on the die when every copy is in the socket -- where a
 *    machine without it pays costs.invalidate, and only a round that
 *    leaves the socket is a request at the home.  [SOSP13] Table 2
 *    measured exactly these on the 80-core Westmere-EX: a load on a Shared
 *    line 44 cycles on the die, 223 one hop away; a store on one 116, 318.
 *
 * A flat machine (no topology in its file) prices every transfer at
 * costs.cacheline and a line held already at nothing, as the model did
 * before it had caches; its home serialises misses all the same.
 *
 * Costs: a read or write that hits is a bit test; a miss is
 * O(KM_HOME_BOOKINGS) at the home, and an invalidation clears the sharer
 * set, KM_MAX_CPUS / 64 words; with a
 * socket's cache, a miss also tests the socket's CPUs' bits and an upgrade
 * walks the sharers to find the farthest.
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

void km_cache_setup(struct km_sim *sim)
{
	const struct km_topology *t = &sim->era.topo;
	sim->nsockets = 1;
	if (!km_machine_has_caches(sim))
		return;
	int per_core = t->threads > 0 ? t->threads : 1;
	int per_die = (t->cores > 0 ? t->cores : 1) * per_core;
	int per_socket = (t->dies > 0 ? t->dies : 1) * per_die;
	for (int i = 0; i < sim->ncpus; i++) {
		struct km_cpu *c = &sim->cpus[i];
		c->socket = i / per_socket;
		c->die = i / per_die;
		c->core = i / per_core;
	}
	int n = (sim->ncpus + per_socket - 1) / per_socket;
	sim->nsockets = n > t->sockets ? n : t->sockets;
}

/* Links between two sockets: one when fully connected (or on a shared
 * bus), the shorter way round the ring of the run's sockets, or the
 * board's shortest path when the file lists its links.  A run with more
 * CPUs than the board adds boards of the same wiring: a socket of
 * another board is its twin's distance away plus one link (E). */
static int hops(const struct km_sim *sim, int a, int b)
{
	const struct km_topology *t = &sim->era.topo;
	if (t->links == KM_LINKS_FULL || t->links == KM_LINKS_BUS)
		return 1;
	if (t->links == KM_LINKS_LIST && t->sockets > 0 && t->sockets <= KM_TOPO_MAX_LINKED) {
		int h = t->hops[a % t->sockets][b % t->sockets];
		return a / t->sockets == b / t->sockets ? h : h + 1;
	}
	int n = sim->nsockets;
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
	if (from_cpu < 0 || to_cpu < 0 || from_cpu >= sim->ncpus || to_cpu >= sim->ncpus)
		return c->hop1;		/* no such CPU: as far as a neighbour socket */
	const struct km_cpu *a = &sim->cpus[from_cpu], *b = &sim->cpus[to_cpu];
	if (a->core == b->core)
		return c->same_core;
	if (a->die == b->die)
		return c->same_die;
	if (a->socket == b->socket)
		return c->same_socket;
	int h = hops(sim, a->socket, b->socket);
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

/* What a request is to a home (book()). */
enum request { READ, SPIN_READ, WRITE };

/* Place a request of @service arriving at @at in the first stretch
 * from @at on that no booking of @b covers: its slot's index, *@start.
 * From the last run of back-to-back bookings on there is no gap, so a
 * request in it goes after the last without a search. */
static uint32_t first_fit(const struct km_bookings *b, km_time at, km_time service,
			  km_time *start)
{
	if (b->n && service > 0 && at >= b->b[b->contig].start) {
		km_time last = b->b[b->n - 1].end;
		*start = at > last ? at : last;
		return b->n;
	}
	km_time t = at;
	uint32_t i = 0;
	for (; i < b->n; i++) {
		if (b->b[i].start - t >= service)	/* times are not negative */
			break;
		if (b->b[i].end > t)
			t = b->b[i].end;
	}
	*start = t;
	return i;
}

/* Find again where @b's last run of back-to-back bookings begins. */
static void find_contig(struct km_bookings *b)
{
	uint32_t c = b->n ? b->n - 1 : 0;
	while (c > 0 && b->b[c - 1].end >= b->b[c].start)
		c--;
	b->contig = c;
}

/* Insert @k into @b at @i, by its start; when @b is full, join it to its
 * neighbour (the gap between them lost: the home looks, if anything,
 * busier, and the joined stretch is nobody's re-read). */
static inline void insert(struct km_bookings *b, uint32_t i, struct km_booking k)
{
	if (k.end <= k.start)
		return;
	if (b->n == KM_HOME_BOOKINGS) {
		struct km_booking *m = i == b->n ? &b->b[i - 1] : &b->b[i];
		if (i == b->n) {
			m->end = k.end;			/* the last run goes on */
		} else {
			m->start = k.start;
			find_contig(b);
		}
		m->spin = false;
		m->cpu = -1;
		return;
	}
	if (i < b->n) {
		for (uint32_t j = b->n; j > i; j--)	/* a handful: no call */
			b->b[j] = b->b[j - 1];
		b->b[i] = k;
		b->n++;
		find_contig(b);
		return;
	}
	if (!b->n || k.start > b->b[b->n - 1].end)
		b->contig = b->n;			/* a gap before it */
	b->b[b->n++] = k;
}

/*
 * book - @b takes @cpu's request arriving at @at, to be served for
 * @service: when it is served from.  The model asks in the order it
 * prices sequences, not in time order: a CPU's whole hand-off is priced
 * when it starts, so its later misses are booked before another CPU's
 * earlier one is asked for.  A home serves requests as they reach it:
 *  - the earlier request goes into a free stretch before the later
 *    bookings if it fits, and waits for them if it does not: their
 *    CPUs were told their latencies, which cannot be taken back;
 *  - but a spinner's re-read (@spin, km_line_spin_read()) that arrives
 *    after it was told nothing: it is served after the new request, its
 *    place found again in arrival order;
 *  - and a read by a CPU whose re-read of the line is not yet served at
 *    @at is that re-read (a core has one miss of a line outstanding):
 *    nothing new is booked, and a read someone waits for makes it one.
 * Bookings over by @now are forgotten.  O(KM_HOME_BOOKINGS); when
 * re-reads move, O(KM_HOME_BOOKINGS^2).
 */
static km_time book(struct km_bookings *b, km_time now, km_time at, km_time service,
		    int cpu, enum request kind, km_time *end)
{
	bool spin = kind == SPIN_READ;
	if (b->n && b->b[b->n - 1].end <= now) {
		b->n = 0;				/* all over: the common case */
		b->contig = 0;
	} else {
		uint32_t over = 0;
		while (over < b->n && b->b[over].end <= now)
			over++;
		if (over) {
			b->n -= over;
			for (uint32_t j = 0; j < b->n; j++)
				b->b[j] = b->b[j + over];
			b->contig = b->contig > over ? b->contig - over : 0;
		}
	}
	/* a request after every booking: nothing to fill, merge or move (a
	 * booking that ends by @at arrived before it) */
	*end = km_sat_add(at, service);
	if (!b->n || at >= b->b[b->n - 1].end) {
		if (*end <= at)
			return at;
		insert(b, b->n, (struct km_booking){ at, at, *end, cpu, spin });
		return at;
	}
	/* one pass: @cpu's unanswered re-read to merge with, and whether any
	 * re-read reached the home after this request */
	bool moved = false;
	for (uint32_t i = 0; i < b->n; i++) {
		struct km_booking *k = &b->b[i];
		if (!k->spin)
			continue;
		if (k->cpu == cpu && cpu >= 0 && kind != WRITE && k->end > at) {
			k->spin = spin;
			*end = k->end;
			return k->start;
		}
		moved |= k->arrival > at;
	}
	/* the re-reads that reached the home after this request step aside */
	struct km_booking later[KM_HOME_BOOKINGS];
	uint32_t nlater = 0;
	if (moved) {
		uint32_t kept = 0;
		for (uint32_t i = 0; i < b->n; i++) {
			if (b->b[i].spin && b->b[i].arrival > at)
				later[nlater++] = b->b[i];
			else if (kept++ != i)
				b->b[kept - 1] = b->b[i];
		}
		b->n = kept;
		find_contig(b);
	}
	km_time start;
	uint32_t slot = first_fit(b, at, service, &start);
	*end = km_sat_add(start, service);
	insert(b, slot, (struct km_booking){ at, start, *end, cpu, spin });
	/* then take their places again, in arrival order (insertion sort: a
	 * handful) */
	for (uint32_t i = 1; i < nlater; i++)
		for (uint32_t j = i; j > 0 && later[j].arrival < later[j - 1].arrival; j--) {
			struct km_booking t = later[j];
			later[j] = later[j - 1];
			later[j - 1] = t;
		}
	for (uint32_t i = 0; i < nlater; i++) {
		struct km_booking k = later[i];
		km_time len = k.end - k.start, s;
		uint32_t at_slot = first_fit(b, k.arrival, len, &s);
		k.start = s;
		k.end = km_sat_add(s, len);
		insert(b, at_slot, k);
	}
	return start;
}

/* The home takes @cpu's request arriving at @at, serves it for @service:
 * the latency, queueing included.  On a front-side bus (links = "bus")
 * there is no home: every request is a transaction on the one bus,
 * which it holds for costs.bus, on any line -- the P6 bus is pipelined,
 * the line's latency is not its occupancy of the bus. */
static km_time at_home(struct km_sim *sim, struct km_line *line, km_time at, km_time service,
		       int cpu, enum request kind)
{
	km_time end;
	if (sim->era.topo.links == KM_LINKS_BUS && km_machine_has_caches(sim)) {
		km_time start = book(&sim->fsb, sim->now, at, km_cost(sim)->bus, cpu, kind, &end);
		return km_sat_add(start - at, service);
	}
	book(&line->booked, sim->now, at, service, cpu, kind, &end);
	return end - at;
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

/* ------------------------------------ a socket's shared last-level cache -- */

static bool llc(const struct km_sim *sim)
{
	return sim->era.topo.socket_llc && km_machine_has_caches(sim);
}

/* Does a CPU of @cpu's socket other than @cpu hold @line?  The CPUs of a
 * socket are numbered together (km_cache_setup). */
static bool socket_holds(const struct km_sim *sim, const struct km_line *line, int cpu)
{
	const struct km_topology *t = &sim->era.topo;
	int per = (t->dies > 0 ? t->dies : 1) * (t->cores > 0 ? t->cores : 1) *
		  (t->threads > 0 ? t->threads : 1);
	int first = cpu - cpu % per;
	for (int c = first; c < first + per && c < sim->ncpus; c++)
		if (c != cpu && km_line_holds(line, c))
			return true;
	return false;
}

/* The farthest copy of @line from @cpu other than its own: what an
 * upgrade's invalidation waits for; *@remote: one is in another socket. */
static km_time farthest_copy(const struct km_sim *sim, const struct km_line *line, int cpu,
			     bool *remote)
{
	km_time far = 0;
	*remote = false;
	for (int w = 0; w < KM_LINE_WORDS; w++)
		for (uint64_t bits = line->sharers[w]; bits; bits &= bits - 1) {
			int c = w * 64 + __builtin_ctzll(bits);
			if (c == cpu || c >= sim->ncpus)
				continue;
			km_time d = km_cpu_distance_cost(sim, cpu, c);
			far = d > far ? d : far;
			if (sim->cpus[c].socket != sim->cpus[cpu].socket)
				*remote = true;
		}
	return far;
}

static km_time *filled(const struct km_sim *sim, struct km_line *line, int cpu)
{
	return &line->filled[sim->cpus[cpu].socket % KM_LINE_SOCKETS];
}

/* A load by @cpu that its socket answers, or -1: the line Modified in a
 * core of the socket (a snoop on the die), or clean in one (the shared
 * cache's hit), after the socket's own fetch of it has arrived. */
static km_time socket_read(struct km_sim *sim, struct km_line *line, int cpu, km_time at)
{
	km_time answer;
	if (line->owner >= 0 && sim->cpus[line->owner].socket == sim->cpus[cpu].socket)
		answer = km_cpu_distance_cost(sim, line->owner, cpu);
	else if (line->owner < 0 && socket_holds(sim, line, cpu))
		answer = km_cost(sim)->llc;
	else
		return -1;
	km_time ready = *filled(sim, line, cpu);
	return km_sat_add(ready > at ? ready - at : 0, answer);
}

static km_time line_read(struct km_sim *sim, struct km_line *line, int cpu, km_time at,
			 bool spin)
{
	if (!cpu_ok(sim, cpu))
		return 0;
	if (km_line_holds(line, cpu))
		return km_machine_has_caches(sim) ? km_cost(sim)->hit : 0;
	km_time lat = llc(sim) ? socket_read(sim, line, cpu, at) : -1;
	if (lat < 0) {
		lat = at_home(sim, line, at, transfer(sim, line, cpu), cpu,
			      spin ? SPIN_READ : READ);
		if (llc(sim))
			*filled(sim, line, cpu) = km_sat_add(at, lat);
	}
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

km_time km_line_read(struct km_sim *sim, struct km_line *line, int cpu, km_time at)
{
	return line_read(sim, line, cpu, at, false);
}

void km_line_spin_read(struct km_sim *sim, struct km_line *line, int cpu, km_time at)
{
	line_read(sim, line, cpu, at, true);
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
	} else if (llc(sim)) {
		/* the socket's cache knows the copies: the round reaches the
		 * farthest, and one that stays in the socket is not the home's */
		bool remote = false;
		km_time far = farthest_copy(sim, line, cpu, &remote);
		km_time fetch = held ? 0 : socket_read(sim, line, cpu, at);
		if (!remote && fetch >= 0) {
			lat = fetch > far ? fetch : far;
		} else {
			km_time service = held ? far : transfer(sim, line, cpu);
			lat = at_home(sim, line, at, service, cpu, WRITE);
		}
		memset(line->sharers, 0, sizeof(line->sharers));
		line->nsharers = 0;
		share(line, cpu);
		*filled(sim, line, cpu) = km_sat_add(at, lat);
	} else {
		/* an upgrade is the probes' round; a fetch carries them */
		km_time inval = km_machine_has_caches(sim) ? km_cost(sim)->invalidate
							   : km_cost(sim)->cacheline;
		km_time service = held ? inval : transfer(sim, line, cpu);
		lat = at_home(sim, line, at, service, cpu, WRITE);
		memset(line->sharers, 0, sizeof(line->sharers));
		line->nsharers = 0;
		share(line, cpu);
	}
	line->owner = cpu;
	line->dirty = true;
	return lat;
}

static bool buffered(const struct km_sim *sim)
{
	return sim->era.topo.store_buffer && km_machine_has_caches(sim);
}

/* A locked instruction first waits for the CPU's buffered stores to be
 * visible (x86: "reads or writes cannot be reordered with ... locked
 * instructions", Intel SDM vol. 3A, 8.2.2): a CPU that has just released
 * a lock with a plain store and comes straight back to take one waits
 * for its release to drain. */
km_time km_line_rmw(struct km_sim *sim, struct km_line *line, int cpu, km_time at)
{
	km_time wait = 0;
	if (buffered(sim) && cpu_ok(sim, cpu) && sim->cpus[cpu].sb_drained > at)
		wait = sim->cpus[cpu].sb_drained - at;
	/* km_line_write()'s first case, asked first: @cpu holds the only
	 * copy (a lock word one CPU takes and gives back), a hit */
	if (wait == 0 && line->nsharers == 1 && cpu_ok(sim, cpu) &&
	    km_line_holds(line, cpu)) {
		line->owner = cpu;
		line->dirty = true;
		return km_sat_add(km_machine_has_caches(sim) ? km_cost(sim)->hit : 0,
				  km_cost(sim)->atomic);
	}
	km_time w = km_line_write(sim, line, cpu, km_sat_add(at, wait));
	return km_sat_add(km_sat_add(wait, w), km_cost(sim)->atomic);
}

/* A plain store through the store buffer (topology.store_buffer): the
 * CPU goes on at once, the line's request runs behind it; the buffer
 * drains in order ("writes to memory are not reordered with other
 * writes", ibid.), so a store is visible no sooner than the one before. */
km_time km_line_store(struct km_sim *sim, struct km_line *line, int cpu, km_time at,
		      km_time *done)
{
	km_time lat = km_line_write(sim, line, cpu, at);
	if (!buffered(sim)) {
		if (done)
			*done = 0;
		return lat;
	}
	if (!cpu_ok(sim, cpu)) {
		if (done)
			*done = lat;
		return km_cost(sim)->hit;
	}
	km_time visible = km_sat_add(at, lat);
	if (sim->cpus[cpu].sb_drained > visible)
		visible = sim->cpus[cpu].sb_drained;
	sim->cpus[cpu].sb_drained = visible;
	if (done)
		*done = visible - at;
	return km_cost(sim)->hit;
}
