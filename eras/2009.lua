-- Linux 2.6.30 (June 2009): a mutex waiter spins while the owner is running on
-- another CPU (adaptive spinning).  Costs: the Nehalem row (docs/sources.md).
era{
  id = "2009", year = 2009, version = "2.6.30",
  title = "2.6.30: mutexes spin while the owner runs",
  cpus = 16, smp = true,          -- E: 2-socket Nehalem-EP, 8 cores, 16 threads
  hz = 250,                       -- R: Kconfig default HZ_250 (distributions also used 1000)
  preempt = "full",               -- the museum's choice from 2.6.0 on (see 2003.lua)
  global_cli = false,
  bkl = true,
  spinlock = "ticket",
  semaphore = "generic",
  mutex = true, mutex_spin = true, mutex_handoff = false,
  sleep_check = true,
  rq_lock = true,                 -- per-CPU run-queue locks, held across the switch (docs/sources.md, [RQLOCK])
  newidle_balance = true,         -- schedule() scans the other run queues before idling (docs/sources.md, [NEWIDLE])
  semaphores = -1,
  machine = "2009",               -- its costs: eras/machines/2009.lua
  placard = "docs/eras/2009.md",
}
