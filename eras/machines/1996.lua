-- The machine of the 1996 era: the dual Pentium Pro 200 row (docs/sources.md).
-- Its costs in nanoseconds, each with its source (tags as in docs/sources.md).
machine{
  name = "1996",
  costs = {
    cli       = 50,     -- E: ~50 ns estimate, Pentium Pro 200
    atomic    = 110,    -- E: within the 100-125 ns estimate
    cacheline = 200,    -- E: ~200 ns (lmbench 1996 L2 90 ns and memory 194 ns are P)
    ctxsw     = 6000,   -- P: lmbench 1996, 2 processes, 0 KB (22 us with 32 KB)
    wakeup    = 15000,  -- E: about half the lmbench 1996 pipe round trip (31 us, P)
    irq_entry = 6000,   -- E: ~6 us estimate
  },
}
