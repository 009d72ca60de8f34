-- Linux 2.6.14 (October 2005): 483 semaphores, the peak before mutexes; the BKL
-- and disabling interrupts are now seen as scalability problems.
-- Costs: the 8-way Pentium III Xeon of the 2005 benchmarks (docs/sources.md).
era{
  id = "2005", year = 2005, version = "2.6.14",
  title = "2.6.14: 483 semaphores and a costly BKL",
  cpus = 8, smp = true,           -- P: Molnar's 2005 test machine was 8-way ([MOL05]); its kind is E
  hz = 250,                       -- R: HZ became configurable in 2.6.13, default 250
  preempt = "full",               -- as from 2.6.0 (the museum's choice, see 2003.lua)
  global_cli = false,
  bkl = true,
  spinlock = "tas",
  semaphore = "legacy",
  mutex = false, mutex_spin = false, mutex_handoff = false,
  sleep_check = true,
  rq_lock = true,                 -- per-CPU run-queue locks, held across the switch (docs/sources.md, [RQLOCK])
  newidle_balance = true,         -- schedule() scans the other run queues before idling (docs/sources.md, [NEWIDLE])
  ttwu_lines = 9,                 -- try_to_wake_up() fetches 9 lines the wakee's CPU wrote (P6: 32-byte lines; [TTWU15])
  wake_prev_cpu = true,           -- no SD_WAKE_IDLE in SD_CPU_INIT (2.6.13-2.6.17): a woken task goes back to its previous CPU ([TOPO15])
  wake_affine = true,             -- try_to_wake_up()'s two wake-affine tests on tick-sampled loads ([O1SCHED15], docs/design-o1-wakeup.md)
  scheduler = "o1",               -- the O(1) scheduler: sleep_avg priorities, 100 ms slices, two arrays ([O1SCHED15], engine/sched_o1.c)
  o1_balance = true,              -- find_busiest_group()/move_tasks() from CPUs going idle and idle ([O1SCHED15], [TOPO15])
  cache_hot_ns = 2500000,         -- SD_CPU_INIT's cache_hot_time, 2.5 ms ([TOPO15])
  semaphores = 483,               -- P: seed article
  machine = "2005-2006",          -- its costs: eras/machines/2005-2006.lua
  placard = "docs/eras/2005.md",
}
