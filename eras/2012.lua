-- 2012: Linux 3.5 (July 2012), the month Boyd-Wickizer, Kaashoek, Morris and
-- Zeldovich showed at the Linux Symposium that the kernel's ticket spinlocks
-- make real workloads collapse on 48 cores ([BW12]).  The kernel is the
-- 2011 era's but for the machine: the paper's 48-core Opteron.
era{
  id = "2012", year = 2012, version = "3.5",
  title = "3.5: ticket spinlocks collapse on 48 cores",
  cpus = 48, smp = true,          -- R: eight six-core Opterons (docs/research/coherence.md)
  hz = 250,                       -- R: Kconfig default HZ_250 (distributions also used 1000)
  preempt = "full",               -- the museum's choice from 2.6.0 on (see 2003.lua)
  global_cli = false,
  bkl = false,
  spinlock = "ticket",            -- 2.6.25 (314cdbefd1fd) until 4.2 (a33fda35e3a7)
  semaphore = "generic",
  mutex = true, mutex_spin = true, mutex_handoff = false,
  sleep_check = true,
  rq_lock = true,                 -- as 2011.lua
  semaphores = -1,
  machine = "2012",               -- its costs: eras/machines/2012.lua
  placard = "docs/eras/2012.md",
}
