-- expect-exit: 0
-- args: --era 2003 --cpus 1
-- expect-stdout: outcome: completed
-- PENDING (engine): in a preemptible era the holder of the BKL can be
-- preempted by the tick, and the task that gets its CPU then spins on the
-- BKL forever, non-preemptible: the run ends as a "deadlock" (exit 3).  In
-- 2.6.0-2.6.10 lock_kernel() was spin_lock(&kernel_flag), which disables
-- preemption (and from 2.6.11 the preemptible BKL was a semaphore, which
-- sleeps): a real kernel does not hang here.  scripts/bkl.lua hits it
-- with --era 2003.
scenario{ name = "bkl_preempted_holder" }
local k = lock{ name = "k", kind = "bkl" }
task{ name = "holder", run = function() down(k); compute(ms(20)); up(k) end }
task{ name = "other", run = function() down(k); compute(us(10)); up(k) end }
