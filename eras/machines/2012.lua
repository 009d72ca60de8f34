-- The machine of the 2012 era: the 48-core AMD Opteron on which Boyd-Wickizer,
-- Kaashoek, Morris and Zeldovich measured ticket locks collapse ([BW12],
-- docs/research/coherence.md section 1).  The paper's own description of it
-- was not read (R): eight six-core 2.4 GHz Opteron chips is the machine of the
-- same group's 2010 paper, which this one is taken to be.  Its sockets are wired
-- as AMD's twisted ladder (below): one to three HyperTransport hops apart.
-- Its costs in nanoseconds, each with its source (tags as in docs/sources.md).
machine{
  name = "2012",
  topology = {
    sockets = 8, dies = 1, cores = 6, threads = 1,   -- R: 8 x 6-core Opteron 8431 ("Istanbul")
    protocol = "MOESI",                              -- R: AMD K10 (AMD64 APM vol. 2, 7.3)
    -- P [AMDHT]: AMD's "eight twisted ladder", one of the three 8-socket wirings
    -- AMD's Family 10h HyperTransport set-up code knows (with the straight ladder,
    -- 4 hops across, and full connection, which the chips' links cannot make).
    -- The board's own wiring (Tyan S4985 + M4985) was not found; the twisted
    -- ladder is the one of the three that is 3 hops across, as the board is (R).
    --   6---7
    --   |   |
    --   4   5
    --   |\ /|
    --   |/ \|
    --   2   3
    --   |   |
    --   0---1
    links = { {0, 1}, {0, 2}, {1, 3}, {2, 4}, {2, 5}, {3, 4}, {3, 5}, {4, 6}, {5, 7}, {6, 7} },
  },
  costs = {
    cli        = 3,     -- E: as the 2011 machine
    atomic     = 8,     -- E: a locked RMW on a line already held, as the 2011 machine
    cacheline  = 120,   -- E: a line one HyperTransport hop away, the figure a machine
                        --    without caches charges for every transfer (research table, 5)
    hit        = 2,     -- E
    same_die   = 60,    -- E: through the shared L3 and the chip's own probe filter
    hop1       = 120,   -- E: one hop; AMD 40555 gives 1.08x local for memory reads (P,
                        --    relative), no cache-to-cache figure for this chip was found
    hop2       = 170,   -- E: two hops (three: 220, each further link as the second)
    invalidate = 60,    -- E: the probe filter sends directed probes to the sharers
    ctxsw      = 3000,  -- E: as the 2011 machine
    wakeup     = 5000,  -- E: as the 2011 machine
    irq_entry  = 1000,  -- E: as the 2011 machine
  },
}
