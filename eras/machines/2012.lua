-- The machine of the 2012 era: the 48-core AMD Opteron on which Boyd-Wickizer,
-- Kaashoek, Morris and Zeldovich measured ticket locks collapse ([BW12],
-- docs/research/coherence.md section 1).  The paper's own description of it
-- was not read (R): eight six-core 2.4 GHz Opteron chips is the machine of the
-- same group's 2010 paper, which this one is taken to be.
-- Its costs in nanoseconds, each with its source (tags as in docs/sources.md).
machine{
  name = "2012",
  topology = {
    sockets = 8, dies = 1, cores = 6, threads = 1,   -- R: 8 x 6-core Opteron 8431 ("Istanbul")
    protocol = "MOESI",                              -- R: AMD K10 (AMD64 APM vol. 2, 7.3)
    links = "ring",                                  -- E: an 8-socket HyperTransport board is
                                                     --    neither fully connected nor a ring;
                                                     --    up to 3 hops (R), the ring's up to 4
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
    hop2       = 170,   -- E: two hops
    invalidate = 60,    -- E: the probe filter sends directed probes to the sharers
    ctxsw      = 3000,  -- E: as the 2011 machine
    wakeup     = 5000,  -- E: as the 2011 machine
    irq_entry  = 1000,  -- E: as the 2011 machine
  },
}
