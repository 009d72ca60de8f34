-- Linux 2.6.16 (March 2006): Ingo Molnar's mutex subsystem; i_sem becomes
-- i_mutex.  Same machine row as 2005; 8 CPUs to match Molnar's 8-way test box.
era{
  id = "2006", year = 2006, version = "2.6.16",
  title = "2.6.16: mutexes",
  cpus = 8, smp = true,           -- P: Molnar's test-mutex numbers were taken on an 8-way x86
  hz = 250,                       -- R: Kconfig default since 2.6.13
  preempt = "full",               -- the museum's choice from 2.6.0 on (see 2003.lua)
  global_cli = false,
  bkl = true,
  spinlock = "tas",
  semaphore = "legacy",
  mutex = true, mutex_spin = false, mutex_handoff = false,
  sleep_check = true,
  semaphores = -1,                -- not counted; conversions to mutexes begin
  costs = {
    cli       = 5,      -- E: ~5 ns estimate
    atomic    = 15,     -- E: middle of the 10-20 ns estimate
    cacheline = 125,    -- E: cross-socket 100-150 ns
    ctxsw     = 4300,   -- P: Sigoure ("Tsuna") 2010, unpinned
    wakeup    = 7000,   -- E: within the 5-10 us estimate
    irq_entry = 1500,   -- E: ~1.5 us estimate
  },
  placard = "docs/eras/2006.md",
}
