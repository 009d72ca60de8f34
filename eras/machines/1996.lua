-- The machine of the 1996 era: the dual Pentium Pro 200 row (docs/sources.md).
-- Front-side-bus SMP: every CPU snoops one shared bus (MESI, R: Intel SDM vol. 3,
-- "MESI cache protocol"); every miss, cache-to-cache transfer or invalidation is a
-- bus transaction, one at a time machine-wide (links = "bus", engine/cache.c).
-- Its costs in nanoseconds, each with its source (tags as in docs/sources.md).
machine{
  name = "1996",
  topology = {
    sockets = 2, dies = 1, cores = 1, threads = 1, -- E: the era's dual Pentium Pro (cpus = 2)
    protocol = "MESI",                             -- R: Intel SDM vol. 3 (P6 family)
    links = "bus",                                 -- R: the P6 system bus, shared by both CPUs
  },
  costs = {
    cli       = 50,     -- E: ~50 ns estimate, Pentium Pro 200
    atomic    = 110,    -- E: within the 100-125 ns estimate
    cacheline = 200,    -- E: ~200 ns (lmbench 1996 L2 90 ns and memory 194 ns are P)
    hit       = 15,     -- E: an L1 hit, 3 cycles at 200 MHz (R: P6 L1 latency)
    same_die  = 200,    -- never used: one core a socket
    hop1      = 200,    -- E: the other CPU's cache across the bus, as cacheline
    invalidate = 100,   -- E: an upgrade is an address-only bus transaction, about 6-7
                        --    clocks of the 66 MHz bus (request, snoop, response phases)
    bus       = 60,     -- E from R: a 32-byte line is 4 transfers of the 64-bit bus at
                        --    66 MHz (15 ns each); the P6 bus is pipelined (up to 8
                        --    transactions outstanding, R), so a transaction holds it
                        --    for its data, not its latency
    ctxsw     = 6000,   -- P: lmbench 1996, 2 processes, 0 KB (22 us with 32 KB)
    wakeup    = 15000,  -- E: about half the lmbench 1996 pipe round trip (31 us, P)
    irq_entry = 6000,   -- E: ~6 us estimate
  },
}
