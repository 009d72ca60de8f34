-- The machine of the 2011 era: the Westmere / Sandy Bridge row
-- (docs/sources.md).
-- Two Westmere-EP sockets, one QuickPath link apart, 6 cores x 2 threads each (MESIF, R).
-- Its costs in nanoseconds, each with its source (tags as in docs/sources.md).
machine{
  name = "2011",
  topology = {
    sockets = 2, dies = 1, cores = 6, threads = 2, -- E: the era's 2-socket Westmere-EP (cpus = 24)
    protocol = "MESIF",                            -- R: Nehalem's Forward state, kept by Westmere
    links = "full",                                -- R: two sockets, one QPI link between them
  },
  costs = {
    cli       = 3,      -- E: ~3 ns estimate
    atomic    = 8,      -- E: between 7 ns (2009) and 6-8 ns (2015).  The table's 56 ns (R,
                        --    SOSP'13) is a CAS on a line last written by another core: it
                        --    includes a line transfer, which 'cacheline' already models
    cacheline = 152,    -- R: SOSP'13 (David et al.), one hop between sockets; 56 ns same die.
                        --    A stand-in: their machine was an 8-socket Xeon E7
    hit       = 2,      -- E: an L1 hit, 4 cycles at ~2.5 GHz
    same_core = 2,      -- E: the sibling thread shares the L1
    same_die  = 56,     -- R: [SOSP13], same die on their Westmere-EX (a stand-in, as cacheline)
    hop1      = 152,    -- R: [SOSP13], one hop (as cacheline)
    invalidate = 152,   -- E: an upgrade snoops the other socket: about one hop
    ctxsw     = 3000,   -- R: ~3 us, most likely [TSU10], not re-read
    wakeup    = 5000,   -- E: ~5 us estimate
    irq_entry = 1000,   -- E: ~1 us estimate
  },
}
