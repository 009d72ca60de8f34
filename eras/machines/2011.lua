-- The machine of the 2011 era: the Westmere / Sandy Bridge row
-- (docs/sources.md).
-- Its costs in nanoseconds, each with its source (tags as in docs/sources.md).
machine{
  name = "2011",
  costs = {
    cli       = 3,      -- E: ~3 ns estimate
    atomic    = 8,      -- E: between 7 ns (2009) and 6-8 ns (2015).  The table's 56 ns (R,
                        --    SOSP'13) is a CAS on a line last written by another core: it
                        --    includes a line transfer, which 'cacheline' already models
    cacheline = 152,    -- R: SOSP'13 (David et al.), one hop between sockets; 56 ns same die.
                        --    A stand-in: their machine was an 8-socket Xeon E7
    ctxsw     = 3000,   -- R: ~3 us, most likely [TSU10], not re-read
    wakeup    = 5000,   -- E: ~5 us estimate
    irq_entry = 1000,   -- E: ~1 us estimate
  },
}
