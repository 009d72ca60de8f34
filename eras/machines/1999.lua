-- The machine of the 1999 era: the Pentium II/III 2-4 way row
-- (docs/sources.md).
-- Its costs in nanoseconds, each with its source (tags as in docs/sources.md).
machine{
  name = "1999",
  costs = {
    cli       = 30,     -- E: ~30 ns estimate
    atomic    = 60,     -- E: ~60 ns estimate
    cacheline = 150,    -- E: bottom of the 150-200 ns estimate
    ctxsw     = 5000,   -- E: low end of a 5-7 us estimate
    wakeup    = 10000,  -- E: between 12 us (1997) and 8 us (2001); pipe rt 17.7 us one CPU is R [LMB3]
    irq_entry = 3000,   -- E: 4.45 us at 300 MHz (P, Aron & Druschel) scaled to 450 MHz
  },
}
