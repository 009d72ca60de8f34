-- Linux 2.6.0 (December 2003): the preemptible kernel in a stable release;
-- 332 semaphores.  Costs: the P4 Xeon 2.8 GHz HT row (docs/sources.md).
era{
  id = "2003", year = 2003, version = "2.6.0",
  title = "2.6.0: a preemptible kernel, 332 semaphores",
  cpus = 4, smp = true,           -- E: dual P4 Xeon with HT = 4 logical CPUs (table: 4-8)
  hz = 1000,                      -- R: i386 default HZ 1000 in 2.6.0
  preempt = "full",               -- CONFIG_PREEMPT is this era's news; distributions often
                                  -- left it off, but the museum shows what became possible
  global_cli = false,
  bkl = true,
  scheduler = "o1",               -- the O(1) scheduler of 2.5.2-2.6.22; 2.6.15's rules stand in for 2.6.0's (docs/sources.md, [O1SCHED03])
  spinlock = "tas",
  semaphore = "legacy",
  mutex = false, mutex_spin = false, mutex_handoff = false,
  sleep_check = true,             -- might_sleep(): "sleeping function called from invalid context"
  rq_lock = true,                 -- per-CPU run-queue locks, held across the switch (docs/sources.md, [RQLOCK])
  newidle_balance = true,         -- schedule() scans the other run queues before idling (docs/sources.md, [NEWIDLE])
  semaphores = 332,               -- P: seed article
  machine = "2003",               -- its costs: eras/machines/2003.lua
  placard = "docs/eras/2003.md",
}
