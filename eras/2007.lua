-- Linux 2.6.23 (October 2007): the last x86 test-and-set spinlocks before the
-- ticket lock of 2.6.25 (Piggin measured the unfairness on the dec-based locks
-- of these kernels, 314cdbefd1fd; the release month is R).  The era exists for
-- the 2008 exhibit's "before": the same machine as 2008, Piggin's 2-socket
-- Opteron, with the spinlock of the kernels he compared against.
era{
  id = "2007", year = 2007, version = "2.6.23",
  title = "2.6.23: the last test-and-set spinlocks, on Piggin's Opteron",
  cpus = 8, smp = true,           -- P: Piggin's "8 core, 2 socket" Opteron ([PIG08])
  hz = 250,                       -- R: Kconfig default
  preempt = "full",               -- the museum's choice from 2.6.0 on (see 2003.lua)
  global_cli = false,
  bkl = true,
  scheduler = "cfs",              -- 2.6.23 is CFS's first release; 2.6.26's model stands in (docs/sources.md, [CFS23])
  spinlock = "tas",               -- i386/x86-64 "lock; decb" until 2.6.24 ([PIG08]: "dec based locks")
  semaphore = "legacy",           -- per-architecture semaphores until 2.6.26 (commit 64ac24e73882)
  mutex = true, mutex_spin = false, mutex_handoff = false,
  sleep_check = true,
  rq_lock = true,                 -- per-CPU run-queue locks, held across the switch (docs/sources.md, [RQLOCK])
  newidle_balance = true,         -- schedule() scans the other run queues before idling (docs/sources.md, [NEWIDLE])
  semaphores = -1,
  machine = "2007-2008",          -- its costs: eras/machines/2007-2008.lua (Piggin's 2-socket Opteron)
  placard = "docs/eras/2007.md",
}
