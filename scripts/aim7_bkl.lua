-- 2008: the AIM7 regression, when the BKL became a fair semaphore.
--
-- In 2.6.26-rc1 lock_kernel() was down() on a semaphore, and the new
-- generic semaphore (commit 64ac24e73882) handed it to the first waiter.
-- Yanmin Zhang's AIM7 runs (tmpfs; an 8-core Stoakley, a 16-core Tigerton,
-- an Itanium Montecito) lost much of their throughput against 2.6.25,
-- whose semaphore let a running task take a unit a woken sleeper had not
-- yet come back for.  Linus Torvalds made the BKL a spinlock again
-- (8e3e076c5a78, 2.6.26-rc2), which Yanmin reported fixed it completely.
--
-- The machine and the load are Ingo Molnar's rerun, the only run whose
-- figures were published in full (commit bf726eab3711, [SEMFIX]): AIM7 on
-- his "quad testbox", 2000 tasks, 2.6.25 against 2.6.26-rc1 (56,096 and
-- 33,231 jobs/min) -- the same CPU time each, the difference idle CPUs.
-- So: the 2008 machine's costs on 4 CPUs, 2000 users, jobs counted over
-- a window after a warm-up in which every user has run several jobs
-- (AIM7 timed over three minutes of jobs; their start is lost in it).
--
-- Each user runs AIM7-like jobs: user work, system calls whose kernel
-- part runs outside the BKL, and one call that takes it for a short
-- section (a POSIX lock in fs/locks.c, fcntl(F_SETFL), a character
-- device's open: 2.6.26-rc1 took lock_kernel() in each, read in its
-- tree).  One section in `sleep_every` (drawn) sleeps with the BKL held:
-- schedule() drops it, and takes it back when the task runs again.  The
-- lengths are estimates of the shape of such a job, chosen before the
-- first run and not moved since (docs/research/bkl-2008.md: which calls
-- of AIM7 took the BKL, and how often, was not found); the costs of
-- every lock step are the 2008 machine's.  On the era's 8 CPUs (`--cpus
-- 8`, Yanmin Zhang's 8-core box) the same jobs lose more: the reproduction
-- shows both.
--
-- The three BKLs of 2008, the same jobs (docs/reproductions.md):
--   --set bkl=spinlock            2.6.26: kernel_flag, a ticket spinlock
--   --set bkl=legacy-semaphore    2.6.25: kernel_sem, woken sleepers retry
--                                 and a running task may take it first
--   --set bkl=generic-semaphore   2.6.26-rc1: kernel_sem hands the BKL to
--                                 the first sleeper, who must be woken,
--                                 wait for a CPU and switch in first

local bkl = param("bkl", "generic-semaphore")

scenario{
  name = "aim7_bkl",
  title = "2008: AIM7, and a Big Kernel Lock that was fair",
  era = "2008",
  seed = 2008,
  cpus = 4,                       -- Molnar's quad [SEMFIX]
  duration = 300000000,           -- 100 ms of warm-up, 200 ms counted
  bkl = bkl,
}

local users       = param("users", 2000)       -- AIM7 tasks: Molnar's 2000
local warmup_ms   = param("warmup_ms", 100)    -- jobs ended before this not counted
local user_us     = param("user_us", 20)       -- user-space work between calls
local kernel_us   = param("kernel_us", 10)     -- a call's kernel work outside the BKL
local bkl_us      = param("bkl_us", 3)         -- a call's section under the BKL
local sleep_every = param("sleep_every", 8)    -- one BKL section in N sleeps ...
local sleep_us    = param("sleep_us", 100)     -- ... this long, with the BKL held

-- In 2.6.26-rc1 these all took the one BKL: lock_kernel() in each
-- (__posix_lock_file(), setfl(), chrdev_open() around the driver's open).
local fcntl = lock{ name = "fcntl_setlk", kind = "bkl" }
local setfl = lock{ name = "fcntl_setfl", kind = "bkl" }
local open  = lock{ name = "chrdev_open", kind = "bkl" }
local jobs  = atomic{ name = "jobs" }
local calls = atomic{ name = "bkl_calls" }

local sections = { fcntl, setfl, open }
local warmup = ms(warmup_ms)

for i = 1, users do
  task{
    name = "aim7/" .. i,
    run = function()
      while true do
        compute(us(user_us))                      -- the job's own work
        compute(us(kernel_us))                    -- read/write on tmpfs: no BKL
        -- AIM7 runs each user's tests in an order of its own: which call
        -- comes next, and whether its section sleeps, are drawn
        local l = sections[rand(1, #sections)]
        down(l)                                   -- lock_kernel()
        compute(us(bkl_us))
        if sleep_every > 0 and rand(1, sleep_every) == 1 then
          sleep(us(sleep_us))                     -- schedule(): the BKL is dropped
          compute(us(bkl_us))                     -- and retaken before this runs
        end
        up(l)                                     -- unlock_kernel()
        atomic_inc(calls)
        if now() >= warmup then atomic_inc(jobs) end
      end
    end,
  }
end

check(function(r)
  return #r.violations == 0, string.format("no violations (%d)", #r.violations)
end)

-- The figures: jobs per second of the window after the warm-up, and the
-- CPUs' time over the whole run.
check(function(r)
  local busy, spin, idle = 0, 0, 0
  for _, c in ipairs(r.cpus_util) do
    busy = busy + c.busy_ns + c.irq_ns
    spin = spin + c.spin_ns
    idle = idle + c.idle_ns
  end
  local all = busy + spin + idle
  local t = r.sim_time_ns - math.max(warmup, 0)
  local rate = t > 0 and r.atomics.jobs / (t / 1e9) or 0
  return true, string.format("BKL %s: %d jobs in %.1f ms after the warm-up, %.0f jobs/s; "
    .. "CPUs %.0f%% busy, %.0f%% spinning, %.0f%% idle", bkl, r.atomics.jobs,
    math.max(t, 0) / 1e6, rate,
    all > 0 and 100 * busy / all or 0, all > 0 and 100 * spin / all or 0,
    all > 0 and 100 * idle / all or 0)
end)
