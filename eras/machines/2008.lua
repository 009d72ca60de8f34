-- The machine of the 2008 era: the 2-socket Nehalem / Barcelona row
-- (docs/sources.md).
-- Its costs in nanoseconds, each with its source (tags as in docs/sources.md).
machine{
  name = "2008",
  costs = {
    cli       = 4,      -- E: middle of a 3-5 ns estimate
    atomic    = 7,      -- E: ~7 ns estimate
    cacheline = 70,     -- P: Intel Nehalem performance guide, cross socket 36-107 ns (middle);
                        --    same socket 26-28 ns.  A stand-in: Nehalem is 2009's machine
    ctxsw     = 4000,   -- R: 3-4.5 us unpinned (1.1-1.4 us pinned), most likely [TSU10], not re-read
    wakeup    = 5000,   -- E: ~5 us estimate
    irq_entry = 1000,   -- E: ~1 us estimate
  },
}
