-- The machine of the 2002 era: between the 2001 and 2003 rows of the
-- calibration table (docs/sources.md).
-- Its costs in nanoseconds, each with its source (tags as in docs/sources.md).
machine{
  name = "2002",
  costs = {
    cli       = 10,     -- E: ~10 ns in both neighbouring rows
    atomic    = 35,     -- E: between 25 ns (2001) and 35-50 ns (P4, 2003)
    cacheline = 200,    -- E: between 150 ns (2001) and 200-300 ns (2003)
    ctxsw     = 3500,   -- E: between 3-4 us (2001) and 3-5 us (2003)
    wakeup    = 8000,   -- E: ~8 us in both neighbouring rows
    irq_entry = 2000,   -- E: ~2 us (2001) and 1.5-3 us (2003)
  },
}
