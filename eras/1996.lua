-- Linux 2.0 (June 1996): SMP, with one Big Kernel Lock around the whole kernel.
-- The BKL here is cli() plus a spin on a bit: there is no spinlock API yet.
-- Costs: the dual Pentium Pro 200 row (docs/sources.md).
era{
  id = "1996", year = 1996, version = "2.0",
  title = "SMP arrives: the Big Kernel Lock",
  cpus = 2, smp = true,           -- E: a dual Pentium Pro was the typical SMP box
  hz = 100,                       -- R: x86 HZ 100 in 2.0
  preempt = "none",
  global_cli = true,              -- on SMP, cli() is the global irq lock
  bkl = true,
  spinlock = false,               -- the BKL spins on a bit; no spinlock_t yet
  semaphore = "legacy",
  mutex = false, mutex_spin = false, mutex_handoff = false,
  sleep_check = false,
  semaphores = -1,                -- "slow growth", no count published
  machine = "1996",               -- its costs: eras/machines/1996.lua
  placard = "docs/eras/1996.md",
}
