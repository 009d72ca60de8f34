-- Linux 0.01 (September 1991): one CPU, no preemption, no locks at all.
-- Kernel code owns the CPU until it sleeps; only interrupts can cut in, and
-- cli()/sti() keep them out.  Every number is cited in docs/sources.md.
era{
  id = "1991", year = 1991, version = "0.01",
  title = "Uniprocessor Linux: cli() and sleep_on()",
  cpus = 1, smp = false,          -- E: the 386 PCs Linux was written on had one CPU
  hz = 100,                       -- P: #define HZ 100 in 0.01's include/linux/sched.h
  preempt = "none",
  global_cli = false,             -- one CPU: cli() is only the local flag
  bkl = false,
  spinlock = false,
  semaphore = false,              -- 0.01 had none (seed article)
  mutex = false, mutex_spin = false, mutex_handoff = false,
  sleep_check = false,
  semaphores = -1,
  machine = "1991",               -- its costs: eras/machines/1991.lua
  placard = "docs/eras/1991.md",
}
