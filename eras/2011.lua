-- Linux 2.6.39 (May 2011): the Big Kernel Lock is gone.
-- Costs: the Westmere / Sandy Bridge row (docs/sources.md).
era{
  id = "2011", year = 2011, version = "2.6.39",
  title = "2.6.39: the Big Kernel Lock is removed",
  cpus = 24, smp = true,          -- E: 2-socket Westmere-EP, 12 cores, 24 threads
                                  --    (8-socket, 80-core machines existed but were rare)
  hz = 250,                       -- R: Kconfig default HZ_250 (distributions also used 1000)
  preempt = "full",               -- the museum's choice from 2.6.0 on (see 2003.lua)
  global_cli = false,
  bkl = false,                    -- commit 4ba8216cd905, "BKL: That's all, folks"
  spinlock = "ticket",
  semaphore = "generic",
  mutex = true, mutex_spin = true, mutex_handoff = false,
  sleep_check = true,
  rq_lock = true,                 -- per-CPU run-queue locks, held across the switch (docs/sources.md, [RQLOCK])
  semaphores = -1,
  machine = "2011",               -- its costs: eras/machines/2011.lua
  placard = "docs/eras/2011.md",
}
