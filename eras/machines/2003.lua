-- The machine of the 2003 era: the P4 Xeon 2.8 GHz HT row (docs/sources.md).
-- Its costs in nanoseconds, each with its source (tags as in docs/sources.md).
machine{
  name = "2003",
  costs = {
    cli       = 10,     -- E: ~10 ns estimate
    atomic    = 40,     -- E: within the 35-50 ns estimate (Pentium 4 locked ops were slow)
    cacheline = 250,    -- E: middle of the 200-300 ns estimate
    ctxsw     = 4000,   -- E: middle of a 3-5 us estimate
    wakeup    = 8000,   -- E: ~8 us estimate
    irq_entry = 2000,   -- E: within the 1.5-3 us estimate
  },
}
