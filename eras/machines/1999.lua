-- The machine of the 1999 era: the Pentium II/III 2-4 way row
-- (docs/sources.md).
-- Front-side-bus SMP: every CPU snoops one shared bus (MESI, R: Intel SDM vol. 3,
-- "MESI cache protocol"); every miss, cache-to-cache transfer or invalidation is a
-- bus transaction, one at a time machine-wide (links = "bus", engine/cache.c).
-- Its costs in nanoseconds, each with its source (tags as in docs/sources.md).
machine{
  name = "1999",
  topology = {
    sockets = 4, dies = 1, cores = 1, threads = 1, -- E: the era's four-way PII/PIII Xeon (cpus = 4)
    protocol = "MESI",                             -- R: Intel SDM vol. 3 (P6 family)
    links = "bus",                                 -- R: four P6 CPUs on one system bus
  },
  costs = {
    cli       = 30,     -- E: ~30 ns estimate
    atomic    = 60,     -- E: ~60 ns estimate
    cacheline = 150,    -- E: bottom of the 150-200 ns estimate
    hit       = 7,      -- E: an L1 hit, 3 cycles at 450 MHz (R: P6 L1 latency)
    same_die  = 150,    -- never used: one core a socket
    hop1      = 150,    -- E: another CPU's cache across the bus, as cacheline
    invalidate = 70,    -- E: an address-only bus transaction, about 7 clocks at 100 MHz
    bus       = 40,     -- E from R: a 32-byte line, 4 transfers of the 64-bit bus at 100 MHz
    ctxsw     = 5000,   -- E: low end of a 5-7 us estimate
    wakeup    = 10000,  -- E: between 12 us (1997) and 8 us (2001); pipe rt 17.7 us one CPU is R [LMB3]
    irq_entry = 3000,   -- E: 4.45 us at 300 MHz (P, Aron & Druschel) scaled to 450 MHz
  },
}
