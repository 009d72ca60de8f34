-- Linux 2.2 (January 1999): the BKL is now a spinlock, dropped by schedule()
-- when its holder sleeps.  71 struct semaphore declarations.
-- Costs: the Pentium II/III 2-4 way row (docs/sources.md).
era{
  id = "1999", year = 1999, version = "2.2",
  title = "2.2: the BKL becomes a spinlock; 71 semaphores",
  cpus = 4, smp = true,           -- E: a four-way Pentium II/III Xeon server
  hz = 100,                       -- R: x86 HZ stayed 100 through 2.4
  preempt = "none",
  global_cli = true,
  bkl = true,
  spinlock = "tas",
  semaphore = "legacy",
  mutex = false, mutex_spin = false, mutex_handoff = false,
  sleep_check = false,
  semaphores = 71,                -- P: seed article (Corbet, LWN 2023)
  costs = {
    cli       = 30,     -- E: ~30 ns estimate
    atomic    = 60,     -- E: ~60 ns estimate
    cacheline = 150,    -- E: bottom of the 150-200 ns estimate
    ctxsw     = 5000,   -- E: low end of a 5-7 us estimate
    wakeup    = 10000,  -- E: between 12 us (1997) and 8 us (2001); pipe rt 17.7 us one CPU is R [LMB3]
    irq_entry = 3000,   -- E: 4.45 us at 300 MHz (P, Aron & Druschel) scaled to 450 MHz
  },
  placard = "docs/eras/1999.md",
}
