-- The machine of the 2017 era: between the 2015 and 2022 rows of the
-- calibration table (docs/sources.md).
-- Two Skylake-SP sockets, one UPI hop apart, 12 cores x 2 threads each (MESIF, R).
-- Its costs in nanoseconds, each with its source (tags as in docs/sources.md).
machine{
  name = "2017",
  topology = {
    sockets = 2, dies = 1, cores = 12, threads = 2, -- E: the era's 2-socket Skylake-SP (cpus = 48)
    protocol = "MESIF",                             -- R: Intel's Forward state
    links = "full",                                 -- R: two sockets, linked directly by UPI
  },
  costs = {
    cli       = 3,      -- E: 2-5 ns in both neighbouring rows
    atomic    = 5,      -- E: between 6-8 ns (2015) and 2.8 ns (M, 2026 VM)
    cacheline = 120,    -- E: between ~110 ns (2015) and 126-129 ns (2022)
    hit       = 2,      -- E: an L1 hit, 4-5 cycles at ~2.5 GHz
    same_core = 2,      -- E: the sibling thread shares the L1
    same_die  = 50,     -- E: between [MCC]'s 40-42 ns (2015) and [ICX]'s 60 ns (2022)
    hop1      = 120,    -- E: the other socket, as cacheline
    invalidate = 120,   -- E: an upgrade snoops the other socket: about one hop
    ctxsw     = 2500,   -- E: between 1.5-3 us (2015) and ~3 us (2022); before the 2018
                        --    Meltdown page-table isolation (4.15, January 2018, R) made switches dearer
    wakeup    = 4000,   -- E: 3-5 us in both neighbouring rows
    irq_entry = 700,    -- E: between 0.7 us (2015) and 0.5-1 us (2022)
  },
}
