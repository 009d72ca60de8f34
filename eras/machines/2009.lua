-- The machine of the 2009 era: the Nehalem row (docs/sources.md).
-- Its costs in nanoseconds, each with its source (tags as in docs/sources.md).
machine{
  name = "2009",
  costs = {
    cli       = 3,      -- E: low end of a 3-5 ns estimate
    atomic    = 7,      -- E: ~7 ns estimate
    cacheline = 70,     -- P: Intel Nehalem performance guide, cross socket 36-107 ns (middle)
    ctxsw     = 3500,   -- R: within 3-4.5 us unpinned, most likely [TSU10], not re-read
    wakeup    = 5000,   -- E: ~5 us estimate
    irq_entry = 1000,   -- E: ~1 us estimate
  },
}
