/*
 * eras.c - era files to struct km_era, and the shelf that loads a
 * folder's eras as they are asked for.  See eras.h.
 *
 * Costs: an era file is about 1.4 KB of Lua; compiling and running one is
 * about 0.2 M instructions, the sandbox it runs in 0.1 M more.  The shelf's
 * index is one readdir() and a sort of about twenty names.
 */
#include "eras.h"
#include "fields.h"
#include "sandbox.h"

#include <lauxlib.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const era_fields[] = {
	"id", "year", "version", "title", "cpus", "smp", "hz", "preempt",
	"global_cli", "bkl", "bkl_lock", "spinlock", "semaphore", "mutex", "mutex_spin",
	"mutex_handoff", "sleep_check", "wake_prev_cpu", "wake_affine", "o1_balance", "prio_bias", "rq_lock", "newidle_balance", "ttwu_lines", "cache_hot_ns", "scheduler", "cfs_latency_ns", "cfs_min_granularity_ns", "cfs_wakeup_granularity_ns", "semaphores", "costs", "machine", "placard", NULL,
};

static const char *const cost_fields[] = {
	"cli", "atomic", "cacheline", "ctxsw", "wakeup", "irq_entry", "ipi",
	"hit", "same_core", "same_die", "same_socket", "hop1", "hop2", "invalidate", "bus", "llc", NULL,
};

static const char *const machine_fields[] = { "name", "topology", "costs", NULL };

static const char *const topology_fields[] = {
	"sockets", "dies", "cores", "threads", "protocol", "links", "llc",
	"store_buffer", NULL,
};

static void copy_str(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* A machine's name is a file name of its own folder: no path, nothing
 * hidden, no character a shell or a report would have to quote. */
static bool machine_name_ok(const char *s)
{
	size_t n = 0;
	for (; s && s[n]; n++) {
		char c = s[n];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || (c == '-' && n > 0)))
			return false;
	}
	return n > 0 && n < sizeof(((struct km_era *)0)->machine);
}

/* The table of nanoseconds at stack @c, into @cost; @decl ("era{}",
 * "machine{}") names the table's owner in errors. */
static void read_costs(lua_State *L, int c, const char *decl, struct km_costs *cost)
{
	km_fields_only(L, c, "costs", cost_fields);
	cost->cli = km_field_time(L, c, "costs", "cli", 1);
	cost->atomic = km_field_time(L, c, "costs", "atomic", 1);
	cost->cacheline = km_field_time(L, c, "costs", "cacheline", 1);
	cost->ctxsw = km_field_time(L, c, "costs", "ctxsw", 1000);
	cost->wakeup = km_field_time(L, c, "costs", "wakeup", 1000);
	cost->irq_entry = km_field_time(L, c, "costs", "irq_entry", 1000);
	cost->ipi = km_field_time(L, c, "costs", "ipi", 0);
	/* the caches' costs (cache.h): a flat machine moves any line between
	 * any two CPUs for `cacheline`, and a line held already is free */
	cost->hit = km_field_time(L, c, "costs", "hit", 0);
	cost->same_core = km_field_time(L, c, "costs", "same_core", cost->cacheline);
	cost->same_die = km_field_time(L, c, "costs", "same_die", cost->cacheline);
	cost->same_socket = km_field_time(L, c, "costs", "same_socket", cost->same_die);
	cost->hop1 = km_field_time(L, c, "costs", "hop1", cost->cacheline);
	cost->hop2 = km_field_time(L, c, "costs", "hop2", cost->hop1);
	cost->invalidate = km_field_time(L, c, "costs", "invalidate", cost->cacheline);
	cost->bus = km_field_time(L, c, "costs", "bus", 0);
	cost->llc = km_field_time(L, c, "costs", "llc", cost->same_die);
	/* One step of a machine longer than 2^40 ns (about 18 minutes) is no
	 * machine; bounding each cost there keeps every sum of them the floors
	 * make (a hop per link, a hand-off's several transfers, now + delay)
	 * far inside the clock's 2^62 ns, where 2^62 each would overflow. */
	const struct { const char *name; km_time v; } bounded[] = {
		{ "cli", cost->cli }, { "atomic", cost->atomic }, { "cacheline", cost->cacheline },
		{ "ctxsw", cost->ctxsw }, { "wakeup", cost->wakeup }, { "irq_entry", cost->irq_entry },
		{ "ipi", cost->ipi }, { "hit", cost->hit }, { "same_core", cost->same_core },
		{ "same_die", cost->same_die }, { "same_socket", cost->same_socket },
		{ "hop1", cost->hop1 }, { "hop2", cost->hop2 }, { "invalidate", cost->invalidate },
		{ "bus", cost->bus }, { "llc", cost->llc },
	};
	for (size_t i = 0; i < sizeof(bounded) / sizeof(bounded[0]); i++)
		if (bounded[i].v > KM_COST_MAX)
			luaL_error(L, "%s: costs.%s (%I ns) is more than 2^40 ns (about 18 minutes), "
				   "the most one step of a machine may cost", decl, bounded[i].name,
				   (lua_Integer)bounded[i].v);
	if (cost->hop2 < cost->hop1)
		luaL_error(L, "%s: costs.hop2 (%I ns) is less than costs.hop1 (%I ns): two "
			   "hops cannot be nearer than one", decl, (lua_Integer)cost->hop2,
			   (lua_Integer)cost->hop1);
	/* the costs against each other: the IPI's flight is part of the
	 * wake-up, and the woken CPU's switch is the rest (wakeup - ipi) */
	if (cost->ipi > cost->wakeup)
		luaL_error(L, "%s: costs.ipi (%I ns) is more than costs.wakeup (%I ns), "
			   "which includes it", decl, (lua_Integer)cost->ipi,
			   (lua_Integer)cost->wakeup);
}

/* One socket number of the pair at stack @p, element @i (1 or 2), of
 * link @n: an integer in 0 .. @sockets - 1. */
static int link_end(lua_State *L, int p, int i, lua_Integer n, int sockets)
{
	lua_rawgeti(L, p, i);
	int isnum = 0;
	lua_Integer v = lua_tointegerx(L, -1, &isnum);
	if (!isnum)
		luaL_error(L, "machine{}: topology.links[%I][%d] must be a socket number (an "
			   "integer), got %s", n, i, lua_type(L, -1) == LUA_TNUMBER ?
			   lua_tostring(L, -1) : luaL_typename(L, -1));
	if (v < 0 || v >= sockets)
		luaL_error(L, "machine{}: topology.links[%I][%d] is socket %I: the machine's "
			   "sockets are 0 to %d", n, i, v, sockets - 1);
	lua_pop(L, 1);
	return (int)v;
}

/* How many entries the table at @t has, of any key, up to @cap + 1. */
static lua_Integer entries(lua_State *L, int t, lua_Integer cap)
{
	lua_Integer n = 0;
	lua_pushnil(L);
	while (n <= cap && lua_next(L, t)) {
		lua_pop(L, 1);
		n++;
	}
	if (n > cap)
		lua_pop(L, 1);	/* the key lua_next left */
	return n;
}

/*
 * topology.links as the board's own wiring, at field "links" of stack @t:
 * a list of {a, b} pairs, each a HyperTransport (or QPI) link between
 * sockets a and b.  Every socket is reachable, no link is listed twice or
 * joins a socket to itself, at most KM_TOPO_MAX_LINKED sockets; the hop
 * table is the shortest paths (breadth first from each socket).
 */
static void read_links(lua_State *L, int t, struct km_topology *topo)
{
	int s = topo->sockets;
	if (s > KM_TOPO_MAX_LINKED)
		luaL_error(L, "machine{}: topology.links lists links between %d sockets; a "
			   "list wires at most %d (else \"full\" or \"ring\")", s, KM_TOPO_MAX_LINKED);
	lua_getfield(L, t, "links");
	int l = lua_gettop(L);
	lua_Integer most = (lua_Integer)s * (s - 1) / 2;
	lua_Integer n = (lua_Integer)lua_rawlen(L, l);
	if (n < 1 || entries(L, l, most) != n)
		luaL_error(L, "machine{}: topology.links must be a list of 1 to %I {a, b} socket "
			   "pairs (each pair of the %d sockets at most once)", most > 0 ? most : 1, s);
	bool adj[KM_TOPO_MAX_LINKED][KM_TOPO_MAX_LINKED] = { { false } };
	for (lua_Integer i = 1; i <= n; i++) {
		lua_rawgeti(L, l, i);
		int p = lua_gettop(L);
		if (!lua_istable(L, p) || lua_rawlen(L, p) != 2 || entries(L, p, 2) != 2)
			luaL_error(L, "machine{}: topology.links[%I] must be a pair {a, b} of "
				   "socket numbers", i);
		int a = link_end(L, p, 1, i, s), b = link_end(L, p, 2, i, s);
		if (a == b)
			luaL_error(L, "machine{}: topology.links[%I] joins socket %d to itself", i, a);
		if (adj[a][b])
			luaL_error(L, "machine{}: topology.links[%I] joins sockets %d and %d again",
				   i, a, b);
		adj[a][b] = adj[b][a] = true;
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	for (int from = 0; from < s; from++) {
		int queue[KM_TOPO_MAX_LINKED], head = 0, tail = 0;
		bool seen[KM_TOPO_MAX_LINKED] = { false };
		seen[from] = true;
		topo->hops[from][from] = 0;
		queue[tail++] = from;
		while (head < tail) {
			int u = queue[head++];
			for (int v = 0; v < s; v++)
				if (adj[u][v] && !seen[v]) {
					seen[v] = true;
					topo->hops[from][v] = (uint8_t)(topo->hops[from][u] + 1);
					queue[tail++] = v;
				}
		}
		if (tail != s)
			for (int v = 0; v < s; v++)
				if (!seen[v])
					luaL_error(L, "machine{}: topology.links reach no socket %d "
						   "from socket %d: every socket must be linked", v, from);
	}
	topo->links = KM_LINKS_LIST;
}

/*
 * The machine's shape (era.h, struct km_topology) at stack @t: sockets x
 * dies x cores x threads, at most KM_MAX_CPUS CPUs, and its protocol.  With
 * a topology the costs of the caches must be given, not defaulted from
 * `cacheline`: a machine with caches says what each distance costs.
 */
static void read_topology(lua_State *L, int t, struct km_era *e)
{
	if (!lua_istable(L, t))
		luaL_error(L, "machine{}: 'topology' must be a table (sockets, dies, cores, "
			   "threads, protocol, links)");
	km_fields_only(L, t, "topology", topology_fields);
	struct km_topology *topo = &e->topo;
	topo->sockets = (int)km_field_int(L, t, "topology", "sockets", 1, 1, KM_MAX_CPUS);
	topo->dies = (int)km_field_int(L, t, "topology", "dies", 1, 1, KM_MAX_CPUS);
	topo->cores = (int)km_field_int(L, t, "topology", "cores", 1, 1, KM_MAX_CPUS);
	topo->threads = (int)km_field_int(L, t, "topology", "threads", 1, 1, KM_MAX_CPUS);
	int64_t n = (int64_t)topo->sockets * topo->dies * topo->cores * topo->threads;
	if (n > KM_MAX_CPUS)
		luaL_error(L, "machine{}: topology of %I CPUs (sockets x dies x cores x threads); "
			   "at most %d", (lua_Integer)n, KM_MAX_CPUS);
	const char *p = km_field_string(L, t, "topology", "protocol", NULL, true);
	if (!strcmp(p, "none")) {
		/* one CPU: no line ever moves between caches, the flat
		 * machine's free held line is exact; nothing else to give */
		if (n != 1)
			luaL_error(L, "machine{}: topology.protocol \"none\" is for a machine of one "
				   "CPU; this one has %I", (lua_Integer)n);
		lua_getfield(L, t, "links");
		if (!lua_isnil(L, -1))
			luaL_error(L, "machine{}: a machine of one CPU has no topology.links");
		lua_pop(L, 1);
		topo->protocol = KM_COH_FLAT;
		return;
	}
	if (!strcmp(p, "MESI") || !strcmp(p, "MESIF"))
		topo->protocol = KM_COH_MESI;
	else if (!strcmp(p, "MOESI"))
		topo->protocol = KM_COH_MOESI;
	else
		luaL_error(L, "machine{}: topology.protocol must be \"MESI\", \"MESIF\", "
			   "\"MOESI\" or (one CPU) \"none\", got \"%s\"", p);
	lua_getfield(L, t, "links");
	bool listed = lua_istable(L, -1);
	lua_pop(L, 1);
	const char *links = listed ? "list" :
		km_field_string(L, t, "topology", "links", "full", false);
	if (listed)
		read_links(L, t, topo);
	else if (!strcmp(links, "full"))
		topo->links = KM_LINKS_FULL;
	else if (!strcmp(links, "ring"))
		topo->links = KM_LINKS_RING;
	else if (!strcmp(links, "bus"))
		topo->links = KM_LINKS_BUS;
	else
		luaL_error(L, "machine{}: topology.links must be \"full\", \"ring\", \"bus\" or "
			   "a list of {a, b} socket pairs, got \"%s\"", links);
	/* the caches' costs, each said by the file */
	static const char *const needed[] = { "hit", "same_die", "hop1", "invalidate", NULL };
	lua_getfield(L, 1, "costs");
	for (int i = 0; needed[i]; i++) {
		lua_getfield(L, -1, needed[i]);
		if (lua_isnil(L, -1))
			luaL_error(L, "machine{}: a machine with a topology gives costs.%s "
				   "(cache.h: what each distance costs)", needed[i]);
		lua_pop(L, 1);
	}
	if (topo->links == KM_LINKS_BUS) {
		lua_getfield(L, -1, "bus");
		bool given = !lua_isnil(L, -1);
		lua_pop(L, 1);
		if (!given || e->cost.bus <= 0)
			luaL_error(L, "machine{}: a machine on a front-side bus (links = \"bus\") "
				   "gives costs.bus, how long one transaction holds the bus (ns, > 0)");
	}
	/* a socket's shared last-level cache, and the CPUs' store buffers */
	const char *llc = km_field_string(L, t, "topology", "llc", "none", false);
	if (!strcmp(llc, "socket"))
		topo->socket_llc = true;
	else if (strcmp(llc, "none"))
		luaL_error(L, "machine{}: topology.llc must be \"socket\" (an inclusive cache "
			   "shared by a socket's cores) or \"none\", got \"%s\"", llc);
	if (topo->socket_llc) {
		if (topo->links == KM_LINKS_BUS)
			luaL_error(L, "machine{}: topology.llc = \"socket\" is a socket's own "
				   "cache; a machine on a front-side bus (links = \"bus\") has none");
		lua_getfield(L, -1, "llc");
		bool given = !lua_isnil(L, -1);
		lua_pop(L, 1);
		if (!given)
			luaL_error(L, "machine{}: a machine with topology.llc = \"socket\" gives "
				   "costs.llc, what a load its socket's cache answers costs");
	}
	topo->store_buffer = km_field_bool(L, t, "topology", "store_buffer", false);
	/* a machine whose sockets are two links apart says what that costs */
	int far = 1;
	if (topo->links == KM_LINKS_RING)
		far = topo->sockets > 2 ? 2 : 1;
	for (int a = 0; topo->links == KM_LINKS_LIST && a < topo->sockets; a++)
		for (int b = 0; b < topo->sockets; b++)
			far = topo->hops[a][b] > far ? topo->hops[a][b] : far;
	if (far > 1) {
		lua_getfield(L, -1, "hop2");
		if (lua_isnil(L, -1))
			luaL_error(L, "machine{}: its sockets are up to %d links apart: it gives "
				   "costs.hop2 (cache.h: what each distance costs)", far);
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
}

/* machine{ ... }: the costs into the era passed as upvalue, whose
 * machine field is the name the file must give. */
static int l_machine(lua_State *L)
{
	struct km_era *e = lua_touserdata(L, lua_upvalueindex(1));
	int *calls = lua_touserdata(L, lua_upvalueindex(2));
	if (++*calls > 1)
		return luaL_error(L, "machine{} may be called only once per file");
	luaL_checktype(L, 1, LUA_TTABLE);
	km_fields_only(L, 1, "machine", machine_fields);
	const char *name = km_field_string(L, 1, "machine", "name", NULL, true);
	if (strcmp(name, e->machine))
		return luaL_error(L, "machine{}: name '%s' must be the file's name, '%s' (a "
				  "machine file is named after its machine)", name, e->machine);
	lua_getfield(L, 1, "costs");
	if (!lua_istable(L, -1))
		return luaL_error(L, "machine{}: 'costs' must be a table of nanoseconds");
	read_costs(L, lua_gettop(L), "machine{}", &e->cost);
	lua_pop(L, 1);
	e->topo = (struct km_topology){ 0 };
	lua_getfield(L, 1, "topology");
	if (!lua_isnil(L, -1))
		read_topology(L, lua_gettop(L), e);
	lua_pop(L, 1);
	return 0;
}

/* era{ ... }: parse into the struct passed as upvalue; the third, when a
 * string, is the name the file has in its folder. */
static int l_era(lua_State *L)
{
	struct km_era *e = lua_touserdata(L, lua_upvalueindex(1));
	int *calls = lua_touserdata(L, lua_upvalueindex(2));
	const char *name = lua_tostring(L, lua_upvalueindex(3));	/* or NULL */
	if (++*calls > 1)
		return luaL_error(L, "era{} may be called only once per file");
	luaL_checktype(L, 1, LUA_TTABLE);
	km_fields_only(L, 1, "era", era_fields);

	memset(e, 0, sizeof(*e));
	copy_str(e->id, sizeof(e->id), km_field_string(L, 1, "era", "id", NULL, true));
	copy_str(e->version, sizeof(e->version),
		 km_field_string(L, 1, "era", "version", NULL, true));
	/* both name the era in every report and in --era: never empty */
	if (!e->id[0] || !e->version[0])
		return luaL_error(L, "era{}: '%s' must not be empty", e->id[0] ? "version" : "id");
	copy_str(e->title, sizeof(e->title), km_field_string(L, 1, "era", "title", "", false));
	copy_str(e->placard, sizeof(e->placard),
		 km_field_string(L, 1, "era", "placard", "", false));
	e->year = (int)km_field_int(L, 1, "era", "year", 0, 1991, 2100);
	if (!e->year)
		return luaL_error(L, "era{}: field 'year' is required");
	e->cpus = (int)km_field_int(L, 1, "era", "cpus", 1, 1, KM_MAX_CPUS);
	e->smp = km_field_bool(L, 1, "era", "smp", e->cpus > 1);
	e->hz = (int)km_field_int(L, 1, "era", "hz", 100, 1, 100000);

	const char *p = km_field_string(L, 1, "era", "preempt", "none", false);
	if (!strcmp(p, "none"))
		e->preempt = KM_PREEMPT_NONE;
	else if (!strcmp(p, "voluntary"))
		e->preempt = KM_PREEMPT_VOLUNTARY;
	else if (!strcmp(p, "full"))
		e->preempt = KM_PREEMPT_FULL;
	else
		return luaL_error(L, "era{}: 'preempt' must be \"none\", \"voluntary\" or "
				  "\"full\", got \"%s\"", p);

	e->global_cli = km_field_bool(L, 1, "era", "global_cli", false);
	e->bkl = km_field_bool(L, 1, "era", "bkl", false);
	const char *bl = km_field_string(L, 1, "era", "bkl_lock", "spinlock", false);
	if (km_bkl_flavour_parse(bl, &e->bkl_lock) < 0)
		return luaL_error(L, "era{}: 'bkl_lock' must be \"spinlock\", \"legacy-semaphore\" "
				  "or \"generic-semaphore\", got \"%s\"", bl);

	lua_getfield(L, 1, "spinlock");
	if (lua_isnil(L, -1) || (lua_isboolean(L, -1) && !lua_toboolean(L, -1))) {
		e->spinlock = KM_SPIN_NONE;
	} else {
		const char *s = lua_tostring(L, -1);
		if (s && !strcmp(s, "tas"))
			e->spinlock = KM_SPIN_TAS;
		else if (s && !strcmp(s, "ticket"))
			e->spinlock = KM_SPIN_TICKET;
		else if (s && !strcmp(s, "queued"))
			e->spinlock = KM_SPIN_QUEUED;
		else
			return luaL_error(L, "era{}: 'spinlock' must be false, \"tas\", "
					  "\"ticket\" or \"queued\"");
	}
	lua_pop(L, 1);

	lua_getfield(L, 1, "semaphore");
	if (lua_isnil(L, -1)) {
		e->semaphore = KM_SEM_LEGACY;
	} else if (lua_isboolean(L, -1)) {
		e->semaphore = lua_toboolean(L, -1) ? KM_SEM_LEGACY : KM_SEM_NONE;
	} else {
		const char *s = lua_tostring(L, -1);
		if (s && !strcmp(s, "legacy"))
			e->semaphore = KM_SEM_LEGACY;
		else if (s && !strcmp(s, "generic"))
			e->semaphore = KM_SEM_GENERIC;
		else
			return luaL_error(L, "era{}: 'semaphore' must be false, \"legacy\" or "
					  "\"generic\"");
	}
	lua_pop(L, 1);

	e->mutex = km_field_bool(L, 1, "era", "mutex", false);
	e->mutex_spin = km_field_bool(L, 1, "era", "mutex_spin", false);
	e->mutex_handoff = km_field_bool(L, 1, "era", "mutex_handoff", false);
	e->sleep_check = km_field_bool(L, 1, "era", "sleep_check", false);
	e->wake_prev_cpu = km_field_bool(L, 1, "era", "wake_prev_cpu", false);
	e->rq_lock = km_field_bool(L, 1, "era", "rq_lock", false);
	e->wake_affine = km_field_bool(L, 1, "era", "wake_affine", false);
	e->o1_balance = km_field_bool(L, 1, "era", "o1_balance", false);
	e->prio_bias = km_field_bool(L, 1, "era", "prio_bias", false);
	e->newidle_balance = km_field_bool(L, 1, "era", "newidle_balance", false);
	e->ttwu_lines = (int)km_field_int(L, 1, "era", "ttwu_lines", 0, 0, 64);
	e->cache_hot = (km_time)km_field_int(L, 1, "era", "cache_hot_ns", 0, 0, 1000000000LL);
	e->semaphores = (int)km_field_int(L, 1, "era", "semaphores", -1, -1, 1000000);
	lua_getfield(L, 1, "scheduler");
	if (lua_isnil(L, -1)) {
		e->scheduler = KM_SCHEDULER_FIFO;
	} else {
		const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
		if (s && !strcmp(s, "fifo"))
			e->scheduler = KM_SCHEDULER_FIFO;
		else if (s && !strcmp(s, "cfs"))
			e->scheduler = KM_SCHEDULER_CFS;
		else if (s && !strcmp(s, "o1"))
			e->scheduler = KM_SCHEDULER_O1;
		else
			return luaL_error(L, "era{}: 'scheduler' must be \"fifo\", \"o1\" or \"cfs\"");
	}
	lua_pop(L, 1);
	/* 2.6.23 - 2.6.26's defaults (kernel/sched_fair.c) */
	e->cfs_latency = (km_time)km_field_int(L, 1, "era", "cfs_latency_ns", 20000000LL, 1,
					       1000000000LL);
	e->cfs_min_gran = (km_time)km_field_int(L, 1, "era", "cfs_min_granularity_ns", 4000000LL,
						1, 1000000000LL);
	e->cfs_wakeup_gran = (km_time)km_field_int(L, 1, "era", "cfs_wakeup_granularity_ns",
						   10000000LL, 0, 1000000000LL);

	/* the costs are the era's own, or its machine's (load_machine) */
	lua_getfield(L, 1, "machine");
	bool named = !lua_isnil(L, -1);
	if (named) {
		const char *m = lua_tostring(L, -1);
		if (!lua_isstring(L, -1) || !machine_name_ok(m))
			return luaL_error(L, "era{}: 'machine' must name a file of machines/ "
					  "(letters, digits, '-' and '_', at most %d)",
					  (int)sizeof(e->machine) - 1);
		copy_str(e->machine, sizeof(e->machine), m);
	}
	lua_pop(L, 1);
	lua_getfield(L, 1, "costs");
	if (named && !lua_isnil(L, -1))
		return luaL_error(L, "era{}: 'costs' and 'machine' both give the costs: keep one");
	if (!named) {
		if (!lua_istable(L, -1))
			return luaL_error(L, "era{}: 'costs' must be a table of nanoseconds "
					  "(or 'machine' the name of a file of machines/)");
		read_costs(L, lua_gettop(L), "era{}", &e->cost);
	}
	lua_pop(L, 1);
	if (!e->smp && e->cpus > 1)
		return luaL_error(L, "era{}: a uniprocessor era (smp = false) has 1 CPU");
	/* The folder's index is its file names (the shelf, eras.h): what
	 * it answers without loading a file must be what the file says. */
	if (name && strcmp(e->id, name))
		return luaL_error(L, "era{}: id '%s' must be the file's name, '%s' (an era file "
				  "is named after its id)", e->id, name);
	if (all_digits(e->id) && strtol(e->id, NULL, 10) != e->year)
		return luaL_error(L, "era{}: id '%s' is a number, so it must be the year, not %d",
				  e->id, e->year);
	return 0;
}

/* Budgets of one era file: it is data, and small. */
#define ERA_MAX_INSTRUCTIONS 10000000ULL
#define ERA_MAX_MEMORY (16u << 20)
#define ERA_MAX_WALL 10.0

/*
 * Run data file @path in @sb, with @fn (an upvalue-closure over @era, a
 * call count and @name) as its global @fname; how many times the file
 * called it in *@calls.  The file gets an environment of its own (its
 * globals land there; it reads the sandbox's through __index) and a
 * generator seeded as a fresh sandbox's, so what one file does is not
 * seen by the next.  Returns 0, or -1 with "file:line: message" in @err.
 */
static int run_file(struct km_sandbox *sb, const char *path, const char *fname,
		    lua_CFunction fn, struct km_era *era, const char *name, int *calls,
		    char *err, size_t errlen)
{
	lua_State *L = sb->L;
	int top = lua_gettop(L);
	*calls = 0;
	km_rng_seed(&sb->own_rng, 0);
	int st = km_sandbox_loadfile(sb, path);
	if (st == LUA_OK) {
		lua_newtable(L);			/* the file's _ENV */
		lua_newtable(L);
		lua_pushglobaltable(L);
		lua_setfield(L, -2, "__index");
		lua_setmetatable(L, -2);
		lua_pushlightuserdata(L, era);
		lua_pushlightuserdata(L, calls);
		if (name)
			lua_pushstring(L, name);
		else
			lua_pushnil(L);
		lua_pushcclosure(L, fn, 3);
		lua_setfield(L, -2, fname);
		if (!lua_setupvalue(L, -2, 1))		/* a main chunk's only upvalue */
			lua_pop(L, 1);
		st = km_sandbox_pcall(L, 0, 0);
	}
	int rc = 0;
	if (st != LUA_OK) {
		if (sb->fatal)
			snprintf(err, errlen, "%s: %s", path, sb->fatal_msg);
		else
			km_sandbox_errmsg(L, -1, err, errlen);
		rc = -1;
	}
	lua_settop(L, top);
	return rc;
}

/*
 * The costs of @era's machine, from the file of that name in machines/
 * beside @path, the era's file.  Machines are data as eras are, loaded
 * in the same sandbox.
 */
static int load_machine(struct km_sandbox *sb, const char *path, struct km_era *era, char *err,
			size_t errlen)
{
	const char *slash = strrchr(path, '/');
	int dirlen = slash ? (int)(slash - path) : 1;
	const char *dir = slash ? path : ".";
	size_t len = (size_t)dirlen + strlen(era->machine) + sizeof("/machines/.lua");
	char *mpath = malloc(len);
	if (!mpath) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	snprintf(mpath, len, "%.*s/machines/%s.lua", dirlen, dir, era->machine);
	int calls = 0;
	int rc = run_file(sb, mpath, "machine", l_machine, era, NULL, &calls, err, errlen);
	if (rc < 0 && access(mpath, F_OK) != 0)
		snprintf(err, errlen, "%s: era{}: machine '%s': there is no %s", path, era->machine,
			 mpath);
	else if (rc == 0 && calls != 1)
		snprintf(err, errlen, "%s: the file never calls machine{ ... }", mpath);
	free(mpath);
	return rc == 0 && calls == 1 ? 0 : -1;
}

/*
 * Run era file @path in @sb, filling @era, and its machine's file if it
 * names one; @name is the file's name less ".lua" when it is loaded from
 * a folder (its id must be that), else NULL.
 */
static int load_into(struct km_sandbox *sb, const char *path, const char *name,
		     struct km_era *era, char *err, size_t errlen)
{
	int calls = 0;
	if (run_file(sb, path, "era", l_era, era, name, &calls, err, errlen) < 0)
		return -1;
	if (calls != 1) {
		snprintf(err, errlen, "%s: the file never calls era{ ... }", path);
		return -1;
	}
	return era->machine[0] ? load_machine(sb, path, era, err, errlen) : 0;
}

int km_era_load_file(const char *path, struct km_era *era, char *err, size_t errlen)
{
	struct km_sandbox sb;
	if (km_sandbox_open(&sb, ERA_MAX_INSTRUCTIONS, ERA_MAX_MEMORY, ERA_MAX_WALL, 0) < 0) {
		snprintf(err, errlen, "%s: cannot start Lua", path);
		return -1;
	}
	int rc = load_into(&sb, path, NULL, era, err, errlen);
	km_sandbox_close(&sb);
	return rc;
}

/* ----------------------------------------------------------- the shelf -- */

static int by_year(const void *a, const void *b)
{
	const struct km_era *x = a, *y = b;
	if (x->year != y->year)
		return x->year - y->year;
	return strcmp(x->id, y->id);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int km_era_shelf_open(struct km_era_shelf *shelf, const char *dir, char *err, size_t errlen)
{
	memset(shelf, 0, sizeof(*shelf));
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(err, errlen, "%s: cannot open the eras folder", dir);
		return -1;
	}
	int cap = 0;
	bool nomem = !(shelf->dir = strdup(dir));
	struct dirent *de;
	while (!nomem && (de = readdir(d))) {
		size_t len = strlen(de->d_name);
		if (len < 5 || strcmp(de->d_name + len - 4, ".lua") || de->d_name[0] == '.')
			continue;
		if (shelf->n == cap) {
			cap = cap ? cap * 2 : 32;
			char **nn = realloc(shelf->names, (size_t)cap * sizeof(*nn));
			if (!nn) {
				nomem = true;
				break;
			}
			shelf->names = nn;
		}
		if (!(shelf->names[shelf->n] = strndup(de->d_name, len - 4))) {
			nomem = true;
			break;
		}
		shelf->n++;
	}
	closedir(d);
	if (!nomem && shelf->n) {
		shelf->slot = calloc((size_t)shelf->n, sizeof(*shelf->slot));
		shelf->loaded = calloc((size_t)shelf->n, sizeof(*shelf->loaded));
		nomem = !shelf->slot || !shelf->loaded;
	}
	if (nomem || !shelf->n) {
		if (nomem)
			snprintf(err, errlen, "out of memory reading the eras folder");
		else
			snprintf(err, errlen, "%s: no era files found", dir);
		km_era_shelf_close(shelf);
		return -1;
	}
	qsort(shelf->names, (size_t)shelf->n, sizeof(*shelf->names), by_name);
	return 0;
}

void km_era_shelf_wrap(struct km_era_shelf *shelf, const struct km_era_list *list)
{
	memset(shelf, 0, sizeof(*shelf));
	shelf->all = *list;
	shelf->complete = true;
	shelf->borrowed = true;
}

void km_era_shelf_close(struct km_era_shelf *shelf)
{
	for (int i = 0; i < shelf->n; i++)
		free(shelf->names[i]);
	free(shelf->names);
	free(shelf->slot);
	free(shelf->loaded);
	free(shelf->dir);
	if (!shelf->borrowed)
		km_eras_free(&shelf->all);
	memset(shelf, 0, sizeof(*shelf));
}

/*
 * Load the slots @which[0..k) that are not loaded yet, in one sandbox:
 * starting Lua once rather than once a file is a good part of what
 * loading every era costs.
 */
static int load_slots(struct km_era_shelf *shelf, const int *which, int k, char *err,
		      size_t errlen)
{
	struct km_sandbox sb;
	if (km_sandbox_open(&sb, ERA_MAX_INSTRUCTIONS * (uint64_t)k, ERA_MAX_MEMORY,
			    shelf->max_wall > 0 ? shelf->max_wall : ERA_MAX_WALL, 0) < 0) {
		snprintf(err, errlen, "%s: cannot start Lua", shelf->dir);
		return -1;
	}
	int rc = 0;
	for (int j = 0; j < k && rc == 0; j++) {
		int i = which[j];
		if (shelf->loaded[i])
			continue;
		size_t len = strlen(shelf->dir) + strlen(shelf->names[i]) + 6;
		char *path = malloc(len);
		if (!path) {
			snprintf(err, errlen, "out of memory loading eras");
			rc = -1;
			break;
		}
		snprintf(path, len, "%s/%s.lua", shelf->dir, shelf->names[i]);
		rc = load_into(&sb, path, shelf->names[i], &shelf->slot[i], err, errlen);
		shelf->loaded[i] = rc == 0;
		free(path);
	}
	km_sandbox_close(&sb);
	return rc;
}

static const struct km_era_list *shelf_all(struct km_era_shelf *shelf, char *err, size_t errlen)
{
	if (shelf->complete)
		return &shelf->all;
	int *which = malloc((size_t)shelf->n * sizeof(*which));
	struct km_era *v = malloc((size_t)shelf->n * sizeof(*v));
	if (!which || !v) {
		free(which);
		free(v);
		snprintf(err, errlen, "out of memory loading eras");
		return NULL;
	}
	int k = 0;
	for (int i = 0; i < shelf->n; i++)
		if (!shelf->loaded[i])
			which[k++] = i;
	int rc = k ? load_slots(shelf, which, k, err, errlen) : 0;
	free(which);
	if (rc < 0) {
		free(v);
		return NULL;
	}
	/* Names are unique in a folder and every id is its file's name, so
	 * no id can be used twice: nothing to check here. */
	memcpy(v, shelf->slot, (size_t)shelf->n * sizeof(*v));
	qsort(v, (size_t)shelf->n, sizeof(*v), by_year);
	shelf->all.v = v;
	shelf->all.n = shelf->n;
	shelf->complete = true;
	return &shelf->all;
}

/* The slot whose name is @key, or -1. */
static int slot_named(const struct km_era_shelf *shelf, const char *key)
{
	int lo = 0, hi = shelf->n - 1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		int c = strcmp(key, shelf->names[mid]);
		if (!c)
			return mid;
		if (c < 0)
			hi = mid - 1;
		else
			lo = mid + 1;
	}
	return -1;
}

/* The slot of the newest era when every name is a year (so, by the rule
 * l_era checks, is its era's year), or -1.  Ties as by_year breaks them. */
static int slot_newest(const struct km_era_shelf *shelf)
{
	int best = -1;
	long best_year = 0;
	for (int i = 0; i < shelf->n; i++) {
		if (!all_digits(shelf->names[i]) || strlen(shelf->names[i]) > 9)
			return -1;
		long y = strtol(shelf->names[i], NULL, 10);
		if (best < 0 || y > best_year ||
		    (y == best_year && strcmp(shelf->names[i], shelf->names[best]) > 0)) {
			best = i;
			best_year = y;
		}
	}
	return best;
}

static int shelf_find(struct km_era_shelf *shelf, const char *key, const struct km_era **out,
		      char *err, size_t errlen)
{
	*out = NULL;
	if (!shelf->complete) {
		/* An id is the name of its file, and ids are looked up
		 * first: the file of that name is the answer, alone. */
		int i = key ? slot_named(shelf, key) : slot_newest(shelf);
		if (i >= 0) {
			/* loaded already: no sandbox started for nothing */
			if (!shelf->loaded[i] && load_slots(shelf, &i, 1, err, errlen) < 0)
				return -1;
			*out = &shelf->slot[i];
			return 0;
		}
	}
	const struct km_era_list *all = shelf_all(shelf, err, errlen);
	if (!all)
		return -1;
	if (key)
		*out = km_eras_find(all, key);
	else if (all->n)
		*out = &all->v[all->n - 1];
	return 0;
}

const struct km_era_list *km_era_shelf_all(struct km_era_shelf *shelf, char *err, size_t errlen)
{
	if (shelf->complete || !shelf->pause)
		return shelf_all(shelf, err, errlen);
	bool was = shelf->pause();
	const struct km_era_list *all = shelf_all(shelf, err, errlen);
	shelf->unpause(was);
	return all;
}

int km_era_shelf_find(struct km_era_shelf *shelf, const char *key, const struct km_era **out,
		      char *err, size_t errlen)
{
	if (shelf->complete || !shelf->pause)
		return shelf_find(shelf, key, out, err, errlen);
	bool was = shelf->pause();
	int rc = shelf_find(shelf, key, out, err, errlen);
	shelf->unpause(was);
	return rc;
}

int km_eras_load(const char *dir, double max_wall, struct km_era_list *out, char *err,
		 size_t errlen)
{
	out->v = NULL;
	out->n = 0;
	struct km_era_shelf shelf;
	if (km_era_shelf_open(&shelf, dir, err, errlen) < 0)
		return -1;
	shelf.max_wall = max_wall;
	if (!km_era_shelf_all(&shelf, err, errlen)) {
		km_era_shelf_close(&shelf);
		return -1;
	}
	*out = shelf.all;		/* the list is the caller's now */
	shelf.all.v = NULL;
	shelf.all.n = 0;
	km_era_shelf_close(&shelf);
	return 0;
}
