-- Linux 0.01 (September 1991): one CPU, no preemption, no locks at all.
-- Kernel code owns the CPU until it sleeps; only interrupts can cut in, and
-- cli()/sti() keep them out.  Every number is cited in docs/sources.md.
era{
  id = "1991", year = 1991, version = "0.01",
  title = "Uniprocessor Linux: cli() and sleep_on()",
  cpus = 1, smp = false,          -- E: the 386 PCs Linux was written on had one CPU
  hz = 100,                       -- P: #define HZ 100 in 0.01's include/linux/sched.h
  preempt = "none",
  global_cli = false,             -- one CPU: cli() is only the local flag
  bkl = false,
  spinlock = false,
  semaphore = false,              -- 0.01 had none (seed article)
  mutex = false, mutex_spin = false, mutex_handoff = false,
  sleep_check = false,
  semaphores = -1,
  costs = {
    cli       = 91,     -- P: Intel 80386 Programmer's Reference Manual, CLI = 3 clocks at 33 MHz
                        --    (the calibration table's 8 clocks / 242 ns does not match the manual)
    atomic    = 152,    -- P: 80386 manual, XCHG with memory = 5 clocks at 33 MHz (bus locked)
    cacheline = 300,    -- E: no second CPU to move a line to; a memory access as a stand-in
    ctxsw     = 40000,  -- E: middle of a 30-50 us estimate for a 386DX-33
    wakeup    = 50000,  -- E: ~50 us estimate for a 386DX-33
    irq_entry = 7500,   -- E: middle of a 5-10 us estimate
  },
  placard = "docs/eras/1991.md",
}
