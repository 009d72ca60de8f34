-- One era for 2008: Linux 2.6.25 (April) brought FIFO ticket spinlocks and
-- 2.6.26 (July) the generic C semaphore whose up() hands the unit to the first
-- waiter.  Its machine: Piggin's 2-socket Opteron (docs/sources.md).
era{
  id = "2008", year = 2008, version = "2.6.26",
  title = "2.6.25/26: ticket spinlocks, generic semaphores",
  cpus = 8, smp = true,           -- E: 2 sockets x 4 cores, like Piggin's 8-core Opteron test box
  hz = 250,                       -- R: Kconfig default
  preempt = "full",               -- the museum's choice from 2.6.0 on (see 2003.lua)
  global_cli = false,
  bkl = true,
  bkl_lock = "spinlock",          -- 2.6.26-rc2, commit 8e3e076c5a78 (rc1: "generic-semaphore")
  spinlock = "ticket",            -- 2.6.25, commit 314cdbefd1fd
  semaphore = "generic",          -- 2.6.26, commit 64ac24e73882
  mutex = true, mutex_spin = false, mutex_handoff = false,
  sleep_check = true,
  rq_lock = true,                 -- per-CPU run-queue locks, held across the switch (docs/sources.md, [RQLOCK])
  newidle_balance = true,         -- schedule() scans the other run queues before idling (docs/sources.md, [NEWIDLE])
  scheduler = "cfs",              -- CFS since 2.6.23: vruntime order, wake-up preemption (docs/sources.md, [CFS26])
  cfs_latency_ns = 20000000,      -- P: sysctl_sched_latency, 2.6.26's kernel/sched_fair.c ([CFS26]);
  cfs_min_granularity_ns = 4000000,     -- P: sysctl_sched_min_granularity;
  cfs_wakeup_granularity_ns = 10000000, -- P: sysctl_sched_wakeup_granularity (each x 1 + ilog2(CPUs) at boot)
  semaphores = -1,
  machine = "2007-2008",          -- its costs: eras/machines/2007-2008.lua (Piggin's 2-socket Opteron)
  placard = "docs/eras/2008.md",
}
