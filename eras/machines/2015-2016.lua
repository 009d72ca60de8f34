-- The machine of the 2015 and 2016 eras: the Haswell/Broadwell-EP row
-- (docs/sources.md).
-- Its costs in nanoseconds, each with its source (tags as in docs/sources.md).
machine{
  name = "2015-2016",
  costs = {
    cli       = 3,      -- E: within a 2-5 ns estimate
    atomic    = 7,      -- E: middle of a 6-8 ns estimate
    cacheline = 110,    -- E: ~110 ns across sockets (same socket 40-42 ns, R [MCC])
    ctxsw     = 2000,   -- E: within a 1.5-3 us estimate
    wakeup    = 4000,   -- E: middle of a 3-5 us estimate
    irq_entry = 700,    -- E: ~0.7 us estimate
  },
}
