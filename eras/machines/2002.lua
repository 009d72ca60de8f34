-- The machine of the 2002 era: between the 2001 and 2003 rows of the
-- calibration table (docs/sources.md).
-- Front-side-bus SMP of Hyper-Threaded Xeons: two sockets on one shared, quad-pumped
-- bus (MESI, R: Intel SDM vol. 3), two threads a core sharing its caches; every miss
-- is a bus transaction, one at a time machine-wide (links = "bus", engine/cache.c).
-- Its costs in nanoseconds, each with its source (tags as in docs/sources.md).
machine{
  name = "2002",
  topology = {
    sockets = 2, dies = 1, cores = 1, threads = 2, -- E: the era's dual Xeon with HT (cpus = 4)
    protocol = "MESI",                             -- R: Intel SDM vol. 3 (Pentium 4 / Xeon)
    links = "bus",                                 -- R: both Xeons on one 400 MT/s system bus
  },
  costs = {
    cli       = 10,     -- E: ~10 ns in both neighbouring rows
    atomic    = 35,     -- E: between 25 ns (2001) and 35-50 ns (P4, 2003)
    cacheline = 200,    -- E: between 150 ns (2001) and 200-300 ns (2003)
    hit       = 1,      -- E: an L1 hit, 2 cycles at ~2 GHz
    same_core = 5,      -- E: the sibling thread's line is in the core's own L1/L2
    same_die  = 200,    -- never used: one core a socket
    hop1      = 200,    -- E: the other socket's cache across the bus, as cacheline
    invalidate = 60,    -- E: an address-only bus transaction, about 6 clocks at 100 MHz
    bus       = 20,     -- E from R: a 64-byte line, 8 transfers of the 64-bit bus at 400 MT/s
    ctxsw     = 3500,   -- E: between 3-4 us (2001) and 3-5 us (2003)
    wakeup    = 8000,   -- E: ~8 us in both neighbouring rows
    irq_entry = 2000,   -- E: ~2 us (2001) and 1.5-3 us (2003)
  },
}
