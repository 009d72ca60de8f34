-- The machine of the 2009 era: the Nehalem row (docs/sources.md).
-- Two Nehalem-EP sockets, one QuickPath link apart, 4 cores x 2 threads each (MESIF, R).
-- Its costs in nanoseconds, each with its source (tags as in docs/sources.md).
machine{
  name = "2009",
  topology = {
    sockets = 2, dies = 1, cores = 4, threads = 2, -- E: the era's 2-socket Nehalem-EP (cpus = 16)
    protocol = "MESIF",                            -- R: Nehalem's Forward state
    links = "full",                                -- R: two sockets, one QPI link between them
  },
  costs = {
    cli       = 3,      -- E: low end of a 3-5 ns estimate
    atomic    = 7,      -- E: ~7 ns estimate
    cacheline = 70,     -- P: Intel Nehalem performance guide, cross socket 36-107 ns (middle)
    hit       = 2,      -- E: an L1 hit, 4 cycles at ~2.5 GHz
    same_core = 2,      -- E: the sibling thread shares the L1
    same_die  = 27,     -- P: [NHM], a line another core of the socket holds, 26-28 ns (middle)
    hop1      = 70,     -- P: [NHM], the other socket, 36-107 ns (middle; as cacheline)
    invalidate = 70,    -- E: an upgrade snoops the other socket and waits for its answer
    ctxsw     = 3500,   -- R: within 3-4.5 us unpinned, most likely [TSU10], not re-read
    wakeup    = 5000,   -- E: ~5 us estimate
    irq_entry = 1000,   -- E: ~1 us estimate
  },
}
