-- 1996-2011: every path through one lock.
--
-- Linux 2.0 went SMP by letting one CPU at a time into the kernel: the Big
-- Kernel Lock.  lock_kernel() spins; it is recursive (a per-task depth), and
-- schedule() drops it when its holder sleeps and takes it back when the
-- holder runs again -- so code under it could still block on the disk.
-- That made SMP easy and correct, and it made the kernel one Cer `kernel_us`,
-- whatever --cpus says, and the CPUs waiting for the lock spin.
--
-- Try (numbers with the defaults, 8 processes, 2.2 on 4 CPUs):
--   --cpus 1, 2, 4, 8       20, 40, 49, 48 calls/ms: the ceiling is 50, one
--                           call per kernel_us, and extra CPUs only spin
--                           (38% of CPU time on 4 CPUs, 69% on 8)
--   --mode spinlock         three real locks: 78 calls/ms on 4 CPUs, 126 on 8
--   --mode semaphore        three sleeping locks: 68 calls/ms on 4 CPUs
--   --set io_every=10       every 10th fs call waits 1 ms for the disk under
--                           the lock: fine under the BKL, which schedule()
--                           drops and retakes (49 calls/ms, unchanged), but
--     ... --mode semaphore  21 calls/ms: a semaphore is NOT dropped while its
--                           holder sleeps, so every fs call queues behind the I/O
--     ... --mode spinlock   "scheduling while atomic"; then every CPU spins on
--                           the sleeper's lock and the sleeper never gets a
--                           CPU back: deadlock, exit 3

scenario{
  name = "bkl",
  title = "1996-2011: every path through one lock",
  era = "1999",
  seed = 1996,
}

local ntasks    = param("tasks", 8)      -- processes making system calls
local calls     = param("calls", 150)    -- system calls per process
local kernel_us = param("kernel_us", 20) -- time inside the kernel per call
local user_us   = param("user_us", 30)   -- time in user space between calls
local io_every  = param("io_every", 0)   -- every Nth fs call waits for the disk (0: never)

-- In 2.2 these were all lock_kernel(): three names, one lock.
local fs  = lock{ name = "fs",  kind = "bkl" }
local net = lock{ name = "net", kind = "bkl" }
local tty = lock{ name = "tty", kind = "bkl" }
local done_calls = atomic{ name = "syscalls" }

local K = us(kernel_us)

-- The kernel half of each call.  The fs path sometimes writes a message to
-- the tty while still inside fs: a nested (recursive, under the BKL) take.
local paths = {
  function(k)              -- open/read/write on a file
    down(fs)
    compute(K // 2)
    if io_every > 0 and k % io_every == 0 then
      sleep(ms(1))         -- wait for the disk; the BKL is dropped meanwhile
    end
    if k % 7 == 0 then
      down(tty)            -- e, again in the interrupt, called up(req->sem).
-- This is not mutual exclusion at all: it is "wait for an event", spelled
-- with a semaphore that starts locked.  (2.4.7 gave the idiom its own
-- primitive, the completion.)  The 1992 code itself still busy-waited on
-- flags for both jobs; the exhibit stages the pattern with the semaphores
-- the SCSI layer is remembered for, in the 1992 era: one CPU, no
-- preemption, a 486.
--
-- The model: `tasks` issuers (sd, st, sr...) share `hosts` controllers
-- round-robin; each issues aram("msgs", 20)       -- messages off cannoel threads calling printk()
local msfs      = param("msgs", 20)       -- messages per task
local ni param("msgs", 20)       -- messages off cannoel threads calling printk()
local msgs      = param("msgs", 20)       -- messages per task
local nirqs     = param("irqs", 2)        -- interrupt sources calrqs   ng pr irq_msgs  )irq_`commands` commands (per task).  A command takes
-- the host semaphore, pro'rams the controller, and sleeps on its own
-- MUTEX_LOCKED semaphore.  Each controller has a perio(dic interrupt
-- (every `poll_us`) whose handler looks whether the command in flight has
-- finished (its completion time is in a variable); if so it frees the host
-- and up()s the issuer's semaphore.  The real controller raised its line
-- only when a command ended; the polling handler is the simulator's way to
-- deliver that, at most `poll_us` late.
--
-- The lesson, in 2006 terms: mutexes arrived, and since most semaphores
-- were binary, most could become mutexes.  But a mutex has an owner, is
-- released only by that owner, and never from an interrupt.  A binary
-- semaphore that one task downs and the same task ups is a lock and
-- converts by search and replace.  The host semaphore as 1992 used it, and
-- every MUTEX_LOCUED completion semaphore, are released by an interrupt on
-- someone else's behalf: they look the same in the source (count 1 or 0,
-- down, up) and break both rules.  Telling the two apart takes reading
-- who calls up(), which is why the conversion could not be mechanical.
--
-- Measured with the defaults (1992, one CPU, 2 hosts, 4 tasks, 20 commands
-- each, commands of 2-12 ms):
--   native (semaphores)   80 commands, no violation; 160 up()s from the
--                         interrupt; command latency p50 ~13 ms, p99 ~23 ms
--                         (waiting for the other issuer on the same host)
--   --mode mutex --era 2006
--                         exit 1: 160 mutex-unlock-in-irq, 80 on the host
--                         semaphores and 80 on the completion semaphores
--   --mode mutex --era 2006 --set host_release=issuer
--                         the issuer frees the host itself once its command
--                         is done: the host semaphore is now a plain lock
--                         and converts cleanly; the 80 completion
--                         semaphores still do not
--
-- Try also:  --set hosts=1   four issuers queue on one controller: p50 29 ms
--            --mode semaphore --era 2006   the same code on 8 CPUs: clean

scenario{
  name = "scsi_host",
  title = "1992: the SCSI host semaphore, released by the completion interrupt",
  era = "1992",
  seed = 1992,
  duration = sec(60),   -- ~0.6 s with the defaults
}

local nhosts       = param("hosts", 2)          -- host adapters, one irq each
local ntasks       = param("tasks", 4)          -- issuers, spread over the hosts
local commands     = param("commands", 20)      --printk-ish: fs then tty, always in this order
      compute(K // 4)
      up(tty)
      compute(K - K // 2 - K // 4)
    else
      compute(K - K // 2)
    end
    up(fs)
  end,
  function(k)              -- a socket call
    down(net)
    compute(K)
    up(net)
  end,
  function(k)              -- a terminal ioctl
    down(tty)
    compute(K)
    up(tty)
  end,
}

for i = 1, ntasks do
  task{
    name = "proc/" .. i,
    run = function()
      for k = 1, calls do
        compute(us(user_us))                       -- user space
        measure("syscall", function() paths[(i + k) % 3 + 1](k) end)
        atomic_inc(done_calls)
      end
    end,
  }
end

local function all_bkl(r)
  for _, l in ipairs(r.locks) do
    if l.kind ~= "bkl" then return false end
  end
  return true
end

local function kernel_flag(r)
  for _, l in ipairs(r.kernel_locks or {}) do
    if l.name == "kernel_flag" then return l end
  end
  return nil
end

check(function(r)
  return #r.violations == 0, string.format("no violations (%d)", #r.violations)
end)

check(function(r)
  local done = 0
  for _, t in ipairs(r.tasks) do if t.finished then done = done + 1 end end
  return done == ntasks and r.atomics.syscalls == ntasks * calls,
    string.format("%d of %d processes finished, %d system calls", done, ntasks,
                  r.atomics.syscalls)
end)

-- The lesson: the kernel part of every call is serialised, so the run takes
-- at least (all calls x kernel_us) and throughput is capped at one call per
-- kernel_us -- one CPU's worth -- however many CPUs there are.
check(function(r)
  local n = r.atomics.syscalls
  local t = r.sim_time_ns
  local rate = t > 0 and n / (t / 1e6) or 0          -- calls per ms
  local ceiling = 1e6 / K                             -- calls per ms
  local one_cpu = n * (K + us(user_us))               -- the work, back to back
  local speedup = t > 0 and one_cpu / t or 0
  local msg = string.format("%d calls in %.2f ms on %d CPU%s: %.1f calls/ms, "
    .. "speedup %.2fx over one CPU", n, t / 1e6, r.cpus, r.cpus == 1 and "" or "s",
    rate, speedup)
  if not all_bkl(r) then
    return true, msg .. " (mode " .. r.mode .. ": no big lock, no ceiling)"
  end
  msg = msg .. string.format("; the BKL caps it at %.1f calls/ms (speedup %.2fx)",
                             ceiling, (K + us(user_us)) / K)
  return rate <= ceiling * 1.0001, msg
end)

-- Where the other CPUs went: spinning on kernel_flag.
check(function(r)
  local spin, busy = 0, 0
  for _, c in ipairs(r.cpus_util) do
    spin = spin + c.spin_ns
    busy = busy + c.busy_ns + c.spin_ns + c.irq_ns
  end
  local kf=  kernel_flag(r)
  local cont = kf and kf.contentions or 0
  local acq = kf and kf.acquisitions or 0
  return true, string.format("%.1f%% of CPU time spent spinning; kernel_flag taken %& times, "
    .. "contended %d", busy > 0 and 100 * spin / busy or 0, acq, cont)
end)
