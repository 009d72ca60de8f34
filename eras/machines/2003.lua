-- The machine of the 2003 era: the P4 Xeon 2.8 GHz HT row (docs/sources.md).
-- Front-side-bus SMP of Hyper-Threaded Xeons: two sockets on one shared, quad-pumped
-- bus (MESI, R: Intel SDM vol. 3), two threads a core sharing its caches; every miss
-- is a bus transaction, one at a time machine-wide (links = "bus", engine/cache.c).
-- Its costs in nanoseconds, each with its source (tags as in docs/sources.md).
machine{
  name = "2003",
  topology = {
    sockets = 2, dies = 1, cores = 1, threads = 2, -- E: the era's dual P4 Xeon with HT (cpus = 4)
    protocol = "MESI",                             -- R: Intel SDM vol. 3 (Pentium 4 / Xeon)
    links = "bus",                                 -- R: both Xeons on one 533 MT/s system bus
  },
  costs = {
    cli       = 10,     -- E: ~10 ns estimate
    atomic    = 40,     -- E: within the 35-50 ns estimate (Pentium 4 locked ops were slow)
    cacheline = 250,    -- E: middle of the 200-300 ns estimate
    hit       = 1,      -- E: an L1 hit, 2 cycles at 2.8 GHz
    same_core = 5,      -- E: the sibling thread's line is in the core's own L1/L2
    same_die  = 250,    -- never used: one core a socket
    hop1      = 250,    -- E: the other socket's cache across the bus, as cacheline
    invalidate = 45,    -- E: an address-only bus transaction, about 6 clocks at 133 MHz
    bus       = 15,     -- E from R: a 64-byte line, 8 transfers of the 64-bit bus at 533 MT/s
    ctxsw     = 4000,   -- E: middle of a 3-5 us estimate
    wakeup    = 8000,   -- E: ~8 us estimate
    irq_entry = 2000,   -- E: within the 1.5-3 us estimate
  },
}
