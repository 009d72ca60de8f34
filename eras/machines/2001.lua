-- The machine of the 2001 era: the PIII / Athlon MP ~1 GHz row
-- (docs/sources.md).
-- Its costs in nanoseconds, each with its source (tags as in docs/sources.md).
machine{
  name = "2001",
  costs = {
    cli       = 10,     -- E: ~10 ns estimate
    atomic    = 25,     -- E: ~25 ns estimate
    cacheline = 150,    -- E: ~150 ns estimate
    ctxsw     = 3500,   -- E: middle of a 3-4 us estimate
    wakeup    = 8000,   -- E: ~8 us estimate
    irq_entry = 2000,   -- E: ~2 us estimate
  },
}
