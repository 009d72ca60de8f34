-- Linux 2.6.16 (March 2006): Ingo Molnar's mutex subsystem; i_sem becomes
-- i_mutex.  Same machine row as 2005: Molnar's 8-way test box of December 2005.
era{
  id = "2006", year = 2006, version = "2.6.16",
  title = "2.6.16: mutexes",
  cpus = 8, smp = true,           -- P: Molnar's test-mutex numbers were taken on an 8-way x86
  hz = 250,                       -- R: Kconfig default since 2.6.13
  preempt = "full",               -- the museum's choice from 2.6.0 on (see 2003.lua)
  global_cli = false,
  bkl = true,
  spinlock = "tas",
  semaphore = "legacy",
  mutex = true, mutex_spin = false, mutex_handoff = false,
  sleep_check = true,
  rq_lock = true,                 -- per-CPU run-queue locks, held across the switch (docs/sources.md, [RQLOCK])
  newidle_balance = true,         -- schedule() scans the other run queues before idling (docs/sources.md, [NEWIDLE])
  ttwu_lines = 9,                 -- try_to_wake_up() fetches 9 lines the wakee's CPU wrote (P6: 32-byte lines; [TTWU15])
  wake_prev_cpu = true,           -- no SD_WAKE_IDLE in SD_CPU_INIT (2.6.13-2.6.17): a woken task goes back to its previous CPU ([TOPO15])
  wake_affine = true,             -- try_to_wake_up()'s two wake-affine tests on tick-sampled loads ([O1SCHED15], docs/design-o1-wakeup.md)
  scheduler = "o1",               -- the O(1) scheduler: sleep_avg priorities, 100 ms slices, two arrays ([O1SCHED15], engine/sched_o1.c)
  o1_balance = true,              -- find_busiest_group()/move_tasks() from CPUs going idle and idle ([O1SCHED15], [TOPO15])
  cache_hot_ns = 2500000,         -- E: measured at boot from 2.6.16; 2.6.15's fixed 2.5 ms ([TOPO15]); 1-10 ms give the same figures
  semaphores = -1,                -- not counted; conversions to mutexes begin
  machine = "2005-2006",          -- its costs: eras/machines/2005-2006.lua
  placard = "docs/eras/2006.md",
}
