-- The machine of the 1992 and 1994 eras: the 486DX2-66 row of the calibration
-- table (docs/sources.md).
-- One CPU: the eras refuse --cpus above 1; the 486's on-chip cache is write-through
-- and has no second cache to be coherent with, so the topology says so and nothing more.
-- Its costs in nanoseconds, each with its source (tags as in docs/sources.md).
machine{
  name = "1992-1994",
  topology = {
    sockets = 1, dies = 1, cores = 1, threads = 1, -- E: one 486DX2-66 (the eras' cpus = 1)
    protocol = "none",                             -- one CPU: nothing to keep coherent
  },
  costs = {
    cli       = 76,     -- R: i486 CLI = 5 clocks at 66 MHz (cycle tables, not re-read)
    atomic    = 76,     -- P: i486 XCHG with memory = 5 clocks at 66 MHz (HelpPC tables)
    cacheline = 336,    -- P: lmbench 1996 memory latency, used as a stand-in on one CPU
    ctxsw     = 11000,  -- P: lmbench 1996, "Linux i486", 2 processes, 0 KB
    wakeup    = 28000,  -- E: half the lmbench 1996 pipe round trip (56 us, P)
    irq_entry = 5000,   -- E: ~5 us estimate for a 486
  },
}
