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
  o1_balance = true,              -- find_busiest_group()/move_tasks() from CPUs going idle and idle ([O1SCHED15], [TOPO15])
  cache_hot_ns = 2500000,         -- E: measured at boot from 2.6.16; 2.6.15's fixed 2.5 ms ([TOPO15]); 1-10 ms give the same figures
  semaphores = -1,                -- not counted; conversions to mutexes begin
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
  placard = "docs/eras/2006.md",
}
