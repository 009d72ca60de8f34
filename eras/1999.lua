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
  machine = "1999",               -- its costs: eras/machines/1999.lua
  placard = "docs/eras/1999.md",
}
