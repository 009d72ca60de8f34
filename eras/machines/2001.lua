-- The machine of the 2001 era: the PIII / Athlon MP ~1 GHz row
-- (docs/sources.md).
-- Front-side-bus SMP: every CPU snoops one shared bus (MESI, R: Intel SDM vol. 3,
-- "MESI cache protocol"); every miss, cache-to-cache transfer or invalidation is a
-- bus transaction, one at a time machine-wide (links = "bus", engine/cache.c).
-- Its costs in nanoseconds, each with its source (tags as in docs/sources.md).
machine{
  name = "2001",
  topology = {
    sockets = 2, dies = 1, cores = 1, threads = 1, -- E: the era's dual PIII (cpus = 2); the Athlon
                                                   --    MP's point-to-point EV6 links are not modelled
    protocol = "MESI",                             -- R: Intel SDM vol. 3 (P6 family)
    links = "bus",                                 -- R: the P6 system bus, shared by both CPUs
  },
  costs = {
    cli       = 10,     -- E: ~10 ns estimate
    atomic    = 25,     -- E: ~25 ns estimate
    cacheline = 150,    -- E: ~150 ns estimate
    hit       = 3,      -- E: an L1 hit, 3 cycles at ~1 GHz (R: P6 L1 latency)
    same_die  = 150,    -- never used: one core a socket
    hop1      = 150,    -- E: the other CPU's cache across the bus, as cacheline
    invalidate = 50,    -- E: an address-only bus transaction, about 7 clocks at 133 MHz
    bus       = 30,     -- E from R: a 32-byte line, 4 transfers of the 64-bit bus at 133 MHz
    ctxsw     = 3500,   -- E: middle of a 3-4 us estimate
    wakeup    = 8000,   -- E: ~8 us estimate
    irq_entry = 2000,   -- E: ~2 us estimate
  },
}
