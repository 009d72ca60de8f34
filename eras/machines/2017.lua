-- The machine of the 2017 era: between the 2015 and 2022 rows of the
-- calibration table (docs/sources.md).
-- Its costs in nanoseconds, each with its source (tags as in docs/sources.md).
machine{
  name = "2017",
  costs = {
    cli       = 3,      -- E: 2-5 ns in both neighbouring rows
    atomic    = 5,      -- E: between 6-8 ns (2015) and 2.8 ns (M, 2026 VM)
    cacheline = 120,    -- E: between ~110 ns (2015) and 126-129 ns (2022)
    ctxsw     = 2500,   -- E: between 1.5-3 us (2015) and ~3 us (2022); before the 2018
                        --    Meltdown page-table isolation (4.15, January 2018, R) made switches dearer
    wakeup    = 4000,   -- E: 3-5 us in both neighbouring rows
    irq_entry = 700,    -- E: between 0.7 us (2015) and 0.5-1 us (2022)
  },
}
