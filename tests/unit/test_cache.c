/*
 * test_cache.c - the machine's shapes (cache.c): a board wired link by
 * link prices a transfer by its shortest path, and a front-side bus
 * serialises every line's misses machine-wide, not each line at its home.
 *
 * A line's home serves its requests in the order they reach it, a
 * spinner's unwaited re-read included (test_cache_home_*,
 * test_cache_spin_read_waits_its_turn).
 *
 * Both run on the museum's own machine files (eras/machines/): the 2012
 * Opteron, wired as AMD's twisted ladder, and the 1999 four-way P6 on its
 * shared bus.  A machine without a topology keeps the flat behaviour:
 * two lines missing together do not wait for each other.
 */
#include "test.h"

#include "cache.h"
#include "script_host.h"
#include "unit_eras.h"

static struct km_era_list ERAS;

static int group_setup(void **state)
{
	return unit_load_eras(&ERAS) < 0 ? -1 : 0;
}

static int group_teardown(void **state)
{
	km_eras_free(&ERAS);
	return 0;
}

static void new_run(struct sh_host *h, const char *era_id, int cpus)
{
	const struct km_era *e = km_eras_find(&ERAS, era_id);
	assert_non_null(e);
	struct km_era era = *e;
	struct km_config cfg = sh_cfg(cpus, 1);
	assert_non_null(sh_new(h, &era, &cfg));
}

/* A run of @era on @cpus CPUs with one line, homed on CPU 0's node and
 * Modified in CPU 0 since time 0: the machine's costs. */
static const struct km_costs *line_in_cpu0(struct sh_host *h, const char *era, int cpus,
					   struct km_line *l)
{
	new_run(h, era, cpus);
	km_line_init(l, 0);
	km_line_write(h->sim, l, 0, 0);
	return &h->sim->era.cost;
}

/* CPU c of the 2012 machine sits on socket c / 6.  The twisted ladder:
 * 0-1, 0-2, 1-3, 2-4, 2-5, 3-4, 3-5, 4-6, 5-7, 6-7. */
static void test_cache_linked_hops(void **state)
{
	struct sh_host h;
	new_run(&h, "2012", 48);
	const struct km_costs *c = &h.sim->era.cost;
	km_time three = c->hop2 + (c->hop2 - c->hop1);
	assert_int_equal(km_cpu_distance_cost(h.sim, 0, 5), c->same_die);
	assert_int_equal(km_cpu_distance_cost(h.sim, 0, 6), c->hop1);	/* 0-1 */
	assert_int_equal(km_cpu_distance_cost(h.sim, 12, 30), c->hop1);	/* 2-5 */
	assert_int_equal(km_cpu_distance_cost(h.sim, 0, 18), c->hop2);	/* 0-1-3 */
	assert_int_equal(km_cpu_distance_cost(h.sim, 0, 24), c->hop2);	/* 0-2-4 */
	assert_int_equal(km_cpu_distance_cost(h.sim, 0, 36), three);	/* 0-2-4-6 */
	assert_int_equal(km_cpu_distance_cost(h.sim, 47, 0), three);	/* 7-5-2-0 */
	assert_int_equal(km_cpu_distance_cost(h.sim, 36, 42), c->hop1);	/* 6-7 */
	/* the ladder is not a ring: 1 and 7 are three links apart, and 0
	 * and 4 two, where a ring of 8 would say 2 and 4 */
	assert_int_equal(km_cpu_distance_cost(h.sim, 6, 42), three);
	sh_free(&h);
}

/* Two lines, each Modified in one CPU, read at the same moment by two
 * others: on the bus the second read waits for the first's data. */
static km_time second_of_two_reads(const char *era_id, km_time *first)
{
	struct sh_host h;
	new_run(&h, era_id, 4);
	struct km_line a, b;
	km_line_init(&a, 0);
	km_line_init(&b, 3);
	km_line_write(h.sim, &a, 0, 0);
	km_line_write(h.sim, &b, 3, 0);
	*first = km_line_read(h.sim, &a, 1, 10000);
	km_time second = km_line_read(h.sim, &b, 2, 10000);
	sh_free(&h);
	return second;
}

static void test_cache_bus_serialises_lines(void **state)
{
	const struct km_era *e = km_eras_find(&ERAS, "1999");
	assert_non_null(e);
	assert_int_equal(e->topo.links, KM_LINKS_BUS);
	km_time first;
	km_time second = second_of_two_reads("1999", &first);
	assert_int_equal(first, e->cost.hop1);
	assert_int_equal(second, e->cost.bus + e->cost.hop1);
	/* the 2005-2006 machine has no topology: flat, each line its own home */
	const struct km_era *flat = km_eras_find(&ERAS, "2005");
	assert_non_null(flat);
	assert_int_equal(flat->topo.protocol, KM_COH_FLAT);
	second = second_of_two_reads("2005", &first);
	assert_int_equal(first, flat->cost.cacheline);
	assert_int_equal(second, flat->cost.cacheline);
}

/* A machine of one CPU says so and stays flat: a held line is free. */
static void test_cache_one_cpu_machine(void **state)
{
	const struct km_era *e = km_eras_find(&ERAS, "1991");
	assert_non_null(e);
	assert_int_equal(e->topo.sockets * e->topo.dies * e->topo.cores * e->topo.threads, 1);
	assert_int_equal(e->topo.protocol, KM_COH_FLAT);
}

/* The 2015 Westmere-EX (4 sockets x 10 cores, llc = "socket"): ten
 * spinners of one socket re-reading a line the releaser on another
 * socket wrote.  The first goes to the home, one hop; the other nine wait
 * for that fill and read the socket's L3, and none of them queues at the
 * home -- where without the shared cache each waits for the one before. */
static void test_cache_socket_llc_answers_rereads(void **state)
{
	struct sh_host h;
	new_run(&h, "2015", 40);
	const struct km_costs *c = &h.sim->era.cost;
	assert_true(h.sim->era.topo.socket_llc);
	struct km_line l;
	km_line_init(&l, 0);
	km_line_write(h.sim, &l, 0, 0);			/* the releaser, socket 0 */
	km_time first = km_line_read(h.sim, &l, 10, 1000);	/* socket 1 */
	assert_int_equal(first, c->hop1);
	for (int cpu = 11; cpu < 20; cpu++)
		assert_int_equal(km_line_read(h.sim, &l, cpu, 1000), c->hop1 + c->llc);
	/* another socket's first reader queued behind one transfer only */
	assert_int_equal(km_line_read(h.sim, &l, 20, 1000), 2 * c->hop1);
	/* an upgrade by a CPU of socket 1 must reach sockets 0 and 2: one
	 * hop, at the home; with every copy in its socket, the die's cost */
	assert_int_equal(km_line_write(h.sim, &l, 11, 5000), c->hop1);
	for (int cpu = 12; cpu < 20; cpu++)
		km_line_read(h.sim, &l, cpu, 6000);
	assert_int_equal(km_line_write(h.sim, &l, 11, 7000), c->same_die);
	sh_free(&h);
}

/* A plain store on a machine with store buffers stalls its CPU for a hit;
 * the store is visible after the line's request, which is made all the
 * same.  Without them (the 2012 Opteron's file says none) it stalls. */
static void test_cache_store_buffer(void **state)
{
	struct sh_host h;
	struct km_line l;
	const struct km_costs *c = line_in_cpu0(&h, "2015", 40, &l);
	km_time done = -1;
	assert_int_equal(km_line_store(h.sim, &l, 20, 100, &done), c->hit);
	assert_int_equal(done, c->hop1);
	assert_true(km_line_holds(&l, 20) && l.owner == 20);
	sh_free(&h);
	new_run(&h, "2012", 48);
	c = &h.sim->era.cost;
	km_line_init(&l, 0);
	km_line_write(h.sim, &l, 0, 0);
	assert_int_equal(km_line_store(h.sim, &l, 6, 100, &done), c->hop1);
	assert_int_equal(done, 0);
	sh_free(&h);
}

/* x86's TSO on the 2015 machine: the buffer drains in order, so a store
 * is visible no sooner than the CPU's store before it, and a locked
 * instruction waits for the buffer to drain before its own request --
 * the releaser of a spinlock that comes straight back for it waits for
 * its unlock to be seen. */
static void test_cache_store_buffer_tso(void **state)
{
	struct sh_host h;
	new_run(&h, "2015", 40);
	const struct km_costs *c = &h.sim->era.cost;
	struct km_line a, b, fresh;
	km_line_init(&a, 0);
	km_line_init(&b, 0);
	km_line_init(&fresh, 0);
	km_line_write(h.sim, &a, 0, 0);		/* a: Modified a socket away */
	km_line_write(h.sim, &b, 21, 0);	/* b: Modified on CPU 20's die */
	km_time done = -1;
	assert_int_equal(km_line_store(h.sim, &a, 20, 100, &done), c->hit);
	assert_int_equal(done, c->hop1);			/* visible at 100 + 152 */
	km_time first = 100 + c->hop1;
	assert_true(c->same_die < c->hop1);
	assert_int_equal(km_line_store(h.sim, &b, 20, 110, &done), c->hit);
	assert_int_equal(done, first - 110);			/* not at 110 + 56 */
	/* a locked RMW at 120 starts when both have drained */
	assert_int_equal(km_line_rmw(h.sim, &fresh, 20, 120), first - 120 + c->hit + c->atomic);
	/* drained: the next one does not wait */
	assert_int_equal(km_line_rmw(h.sim, &fresh, 20, first + 10), c->hit + c->atomic);
	/* another CPU's buffer is its own: CPU 22's store to a line CPU 23
	 * holds is visible after that transfer alone */
	struct km_line e;
	km_line_init(&e, 0);
	km_line_write(h.sim, &e, 23, 0);
	assert_int_equal(km_line_store(h.sim, &e, 22, 130, &done), c->hit);
	assert_int_equal(done, c->same_die);
	sh_free(&h);
}

/* A line's home serves requests in the order they reach it, not the
 * order the model asks for them (it prices a CPU's whole sequence at
 * once): on the 2012 Opteron (no shared L3, no store buffer, MOESI), an
 * earlier read asked later goes into the gap before a booked one; one
 * that does not fit waits for it. */
static void test_cache_home_serves_in_arrival_order(void **state)
{
	struct sh_host h;
	struct km_line l;
	const struct km_costs *c = line_in_cpu0(&h, "2012", 48, &l);
	assert_int_equal(km_line_read(h.sim, &l, 6, 10000), c->hop1);	/* socket 1 */
	/* asked later, stamped earlier: before it, not behind it */
	assert_int_equal(km_line_read(h.sim, &l, 12, 5000), c->hop1);	/* socket 2 */
	/* 50 ns before it cannot fit a transfer: it waits for it */
	assert_int_equal(km_line_read(h.sim, &l, 18, 9950), 10000 + c->hop1 - 9950 + c->hop2);
	sh_free(&h);
}

/* A spinner's re-read (km_line_spin_read) that nobody waits for is served
 * in arrival order too: a store stamped before it goes first even when
 * asked after it, and the re-read, still outstanding, is the one the
 * spinner's next read waits for -- nothing is booked twice.  One that
 * arrived first keeps its place. */
static void test_cache_spin_read_waits_its_turn(void **state)
{
	struct sh_host h;
	struct km_line l;
	const struct km_costs *c = line_in_cpu0(&h, "2012", 48, &l);
	km_line_spin_read(h.sim, &l, 6, 1010);		/* booked [1010, 1130) */
	/* CPU 12's store reached the home at 1000: served first, where a
	 * home serving in the order asked would make it wait till 1130 */
	assert_int_equal(km_line_write(h.sim, &l, 12, 1000), c->hop1);
	/* the re-read, moved to [1120, 1240), is CPU 6's read at 1050 */
	km_time reread_end = 1000 + 2 * c->hop1;
	assert_true(km_cpu_distance_cost(h.sim, 12, 6) != reread_end - 1050);
	assert_int_equal(km_line_read(h.sim, &l, 6, 1050), reread_end - 1050);
	/* one request, not two: CPU 18 waits for it alone */
	assert_int_equal(km_line_read(h.sim, &l, 18, 1050),
			 reread_end - 1050 + km_cpu_distance_cost(h.sim, 12, 18));
	/* a re-read that arrived first is served first */
	struct km_line m;
	km_line_init(&m, 0);
	km_line_write(h.sim, &m, 0, 0);
	km_line_spin_read(h.sim, &m, 6, 2000);		/* [2000, 2120) */
	assert_int_equal(km_line_write(h.sim, &m, 12, 2050), 2000 + c->hop1 - 2050 + c->hop1);
	sh_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cache_linked_hops),
		cmocka_unit_test(test_cache_bus_serialises_lines),
		cmocka_unit_test(test_cache_one_cpu_machine),
		cmocka_unit_test(test_cache_socket_llc_answers_rereads),
		cmocka_unit_test(test_cache_store_buffer),
		cmocka_unit_test(test_cache_store_buffer_tso),
		cmocka_unit_test(test_cache_home_serves_in_arrival_order),
		cmocka_unit_test(test_cache_spin_read_waits_its_turn),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
