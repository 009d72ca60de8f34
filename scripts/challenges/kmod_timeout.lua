-- Challenge 6 -- the kmod limiter's timeout (4.13 to 6.3).
--
-- GOAL: make request_module() fail with -ETIME, "kmod busy".  Make the
-- requests pile up so that one of them waits more than 5 s for a free
-- modprobe slot (the goal check fails).
--
-- request_module() runs modprobe in user space, and the kernel bounds how
-- many run at once (MAX_KMOD_CONCURRENT, 50).  Before 4.13 the caller
-- over the limit failed at once with -ENOMEM; from 4.13 it waits:
--
--     if (atomic_dec_if_positive(&kmod_concurrent_max) < 0) {
--             ret = wait_event_killable_timeout(kmod_wq,
--                     atomic_dec_if_positive(&kmod_concurrent_max) >= 0,
--                     MAX_KMOD_ALL_BUSY_TIMEOUT * HZ);        /* 5 s */
--             if (!ret)       /* "kmod busy with %d threads for more
--                                 than %d seconds now" */
--                     return -ETIME;
--     }
--
-- and each finished modprobe does atomic_inc() + wake_up(&kmod_wq), which
-- wakes every waiter (the wait is not exclusive).  6.4 made the limiter a
-- semaphore with down_timeout(), same limit, same 5 s, same -ETIME.
--
-- Scaled down: `limit` slots (2, not 50), `requests` callers (5), each
-- modprobe takes `modprobe_ms` (3000: a module whose init waits for its
-- hardware).  The timing is fixed: a request arrives every `spacing` ns
-- (1.5 s), so a slot is always free within 5 s.
-- Solution:  --set spacing=0  (all five at once: the fifth waits 6 s)
scenario{
  name = "challenge_kmod_timeout",
  title = "Challenge: pile up request_module() until one gets -ETIME (4.13)",
  description = "Goal: make the module requests pile up so that one waits more than 5 s for a modprobe slot and fails with -ETIME.",
  era = "2017",
  cpus = 4,
}

local limit       = param("limit", 2)
local requests    = param("requests", 5)
local spacing     = param("spacing", 1500000000)  -- ns between two requests
local modprobe_ms = param("modprobe_ms", 3000)

local kmod_concurrent_max = atomic{ name = "kmod_concurrent_max", value = limit }
local kmod_wq = waitqueue{ name = "kmod_wq" }
local etime   = atomic{ name = "etime" }
local running = counter{ name = "modprobe_running", unit = "threads" }

for i = 1, requests do
  task{ name = "request_module/" .. i, start = (i - 1) * spacing, run = function()
    local got = wait_event_timeout(kmod_wq, function()
      return atomic_dec_if_positive(kmod_concurrent_max) >= 0
    end, sec(5))
    if not got then
      atomic_inc(etime)                -- -ETIME: "kmod busy"
      return
    end
    counter_add(running, 1)
    sleep(ms(modprobe_ms))             -- call_modprobe(): modprobe runs
    counter_add(running, -1)
    atomic_inc(kmod_concurrent_max)
    wake_up(kmod_wq)                   -- every waiter re-checks
  end }
end

-- The goal check: it FAILS when the goal is reached.
check(function(r)
  local n = r.atomics.etime
  if n > 0 then
    return false, string.format("goal reached: %d request(s) failed with -ETIME (kmod busy for more than 5 s)", n)
  end
  return true, string.format("goal not reached: all %d requests got a slot within 5 s (at most %d modprobe at once)",
                             requests, r.counters.modprobe_running.peak)
end)
