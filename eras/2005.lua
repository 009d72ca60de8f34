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
  o1_balance = true,              -- find_busiest_group()/move_tasks() from CPUs going idle and idle ([O1SCHED15], [TOPO15])
  cache_hot_ns = 2500000,         -- SD_CPU_INIT's cache_hot_time, 2.5 ms ([TOPO15])
  semaphores = 483,               -- P: seed article
  costs = {
    -- The 8-way of Molnar's December 2005 benchmarks, most likely a ~700 MHz
    -- Pentium III Xeon box (an inference: docs/sources.md, "The 2005-2006 machine"):
    -- each cost interpolated by clock between the 1999 (450 MHz) and 2001
    -- (~1 GHz) rows, except the IPI.
    cli       = 20,     -- E: between 30 (1999) and 10 (2001)
    atomic    = 40,     -- E: between 60 (1999) and 25 (2001)
    cacheline = 150,    -- E: 150 in both rows (a shared P6 front-side bus)
    ctxsw     = 4300,   -- E: between 5000 (1999) and 3500 (2001)
    wakeup    = 9100,   -- E: between 10000 (1999) and 8000 (2001)
    irq_entry = 2500,   -- E: between 3000 (1999) and 2000 (2001)
    ipi       = 2500,   -- P: 2-3 us per APIC message on the P6's serial APIC bus
                        --    (Lundell, LKML, 8 Oct 2001); a sender waits only
                        --    for its own previous IPI (docs/sources.md, [IPI26])
  },
  placard = "docs/eras/2005.md",
}
