-- The machine of the 1997 era: the Pentium II 300-450 row (docs/sources.md).
-- Its costs in nanoseconds, each with its source (tags as in docs/sources.md).
machine{
  name = "1997",
  costs = {
    cli       = 30,     -- E: ~30 ns estimate
    atomic    = 60,     -- E: ~60 ns estimate
    cacheline = 200,    -- E: top of the 150-200 ns estimate (still close to the 1996 machine)
    ctxsw     = 6000,   -- E: middle of a 5-7 us estimate (lmbench3 era)
    wakeup    = 12000,  -- E: half the lmbench pipe round trip, two processors (23.3 us, R [LMB3])
    irq_entry = 4450,   -- P: Aron & Druschel, SOSP'99, Pentium II 300 MHz
  },
}
