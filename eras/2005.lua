-- Linux 2.6.14 (October 2005): 483 semaphores, the peak before mutexes; the BKL
-- and disabling interrupts are now seen as scalability problems.
-- Costs: the 8-way Opteron / Woodcrest row (docs/sources.md).
era{
  id = "2005", year = 2005, version = "2.6.14",
  title = "2.6.14: 483 semaphores and a costly BKL",
  cpus = 8, smp = true,           -- E: an 8-way Opteron server
  hz = 250,                       -- R: HZ became configurable in 2.6.13, default 250
  preempt = "full",               -- as from 2.6.0 (the museum's choice, see 2003.lua)
  global_cli = false,
  bkl = true,
  spinlock = "tas",
  semaphore = "legacy",
  mutex = false, mutex_spin = false, mutex_handoff = false,
  sleep_check = true,
  semaphores = 483,               -- P: seed article
  costs = {
    cli       = 5,      -- E: ~5 ns estimate
    atomic    = 15,     -- E: middle of the 10-20 ns estimate
    cacheline = 125,    -- E: cross-socket 100-150 ns (same socket 50-70 ns, E)
    ctxsw     = 4300,   -- P: Sigoure ("Tsuna") 2010, unpinned; syscall 105 ns
    wakeup    = 7000,   -- E: within the 5-10 us estimate
    irq_entry = 1500,   -- E: ~1.5 us estimate
  },
  placard = "docs/eras/2005.md",
}
