-- The machine of the 2007 and 2008 eras: Nick Piggin's test box for the ticket spinlock
-- (314cdbefd1fd, January 2008), an 8-core, 2-socket Opteron -- 2 sockets x 4
-- cores, so quad-core "Barcelona" (K10) parts (docs/sources.md, "The 2008
-- machine").  MOESI, each socket one HyperTransport hop from the other.
-- Its costs in nanoseconds, each with its source (tags as in docs/sources.md).
machine{
  name = "2007-2008",
  topology = {
    sockets = 2, dies = 1, cores = 4, threads = 1, -- P: "8 core, 2 socket" [PIG08]; E: Barcelona
    protocol = "MOESI",         -- R: AMD64 APM vol. 2, section 7.3 (K8 and K10 have the Owned state)
    links = "full",             -- P: two sockets, one link between them
  },
  costs = {
    cli       = 4,      -- E: middle of a 3-5 ns estimate
    atomic    = 8,      -- E: a locked op on a line held, ~20 cycles at 2-2.5 GHz
    cacheline = 70,     -- P: Intel Nehalem guide [NHM], cross socket 36-107 ns (middle); the flat
                        --    stand-in this file gave before it had a topology (not read with one)
    hit       = 2,      -- E: an L1 hit, a few cycles
    same_core = 2,      -- E: no SMT on Barcelona; never used
    same_die  = 50,     -- E: a line another core of the die holds Modified, through the shared L3
                        --    (no Barcelona cache-to-cache figure found: docs/sources.md)
    hop1      = 110,    -- E: the other socket; AMD 40555 gives a 1-hop read 1.08x a local one
                        --    (P, relative, memory reads); the absolute figure is ours
    hop2      = 110,    -- never used: two sockets are one hop apart
    invalidate = 110,   -- E: an upgrade's probe round reaches the other socket and waits for
                        --    its answer: about one hop
    ctxsw     = 1250,   -- R: [TSU10] pinned, 1.1-1.4 us (middle): two processes on one CPU, one
                        --    switch and its futex or sched_yield() call (docs/sources.md)
    wakeup    = 6750,   -- E, derived: [TSU10] unpinned, 4 us, is a quarter of an iteration of two
                        --    cross-CPU futex wake-ups (P: timectxsw.c counts 4 a loop), so a wake-up
                        --    to the wakee running is 8 us; less the switch in (ctxsw) on its CPU
    irq_entry = 1000,   -- E: ~1 us estimate
  },
}
