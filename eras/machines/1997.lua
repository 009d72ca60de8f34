-- The machine of the 1997 era: the Pentium II 300-450 row (docs/sources.md).
-- Front-side-bus SMP: every CPU snoops one shared bus (MESI, R: Intel SDM vol. 3,
-- "MESI cache protocol"); every miss, cache-to-cache transfer or invalidation is a
-- bus transaction, one at a time machine-wide (links = "bus", engine/cache.c).
-- Its costs in nanoseconds, each with its source (tags as in docs/sources.md).
machine{
  name = "1997",
  topology = {
    sockets = 2, dies = 1, cores = 1, threads = 1, -- E: the era's two-way Pentium II (cpus = 2)
    protocol = "MESI",                             -- R: Intel SDM vol. 3 (P6 family)
    links = "bus",                                 -- R: the P6 system bus, shared by both CPUs
  },
  costs = {
    cli       = 30,     -- E: ~30 ns estimate
    atomic    = 60,     -- E: ~60 ns estimate
    cacheline = 200,    -- E: top of the 150-200 ns estimate (still close to the 1996 machine)
    hit       = 8,      -- E: an L1 hit, 3 cycles at 300-450 MHz (R: P6 L1 latency)
    same_die  = 200,    -- never used: one core a socket
    hop1      = 200,    -- E: the other CPU's cache across the bus, as cacheline
    invalidate = 70,    -- E: an address-only bus transaction, about 7 clocks at 100 MHz
    bus       = 40,     -- E from R: a 32-byte line, 4 transfers of the 64-bit bus at
                        --    100 MHz (the 350-450 MHz parts; 66 MHz below)
    ctxsw     = 6000,   -- E: middle of a 5-7 us estimate (lmbench3 era)
    wakeup    = 12000,  -- E: half the lmbench pipe round trip, two processors (23.3 us, R [LMB3])
    irq_entry = 4450,   -- P: Aron & Druschel, SOSP'99, Pentium II 300 MHz
  },
}
