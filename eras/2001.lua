-- Linux 2.4.0 (January 2001): finer locking, 138 semaphores; the global cli()
-- still exists on SMP.  Costs: the PIII / Athlon MP ~1 GHz row (docs/sources.md).
era{
  id = "2001", year = 2001, version = "2.4.0",
  title = "2.4.0: finer locks, 138 semaphores",
  cpus = 2, smp = true,           -- E: dual PIII / Athlon MP
  hz = 100,                       -- R: x86 HZ stayed 100 through 2.4
  preempt = "none",
  global_cli = true,
  bkl = true,
  spinlock = "tas",
  semaphore = "legacy",
  mutex = false, mutex_spin = false, mutex_handoff = false,
  sleep_check = false,
  semaphores = 138,               -- P: seed article
  machine = "2001",               -- its costs: eras/machines/2001.lua
  placard = "docs/eras/2001.md",
}
