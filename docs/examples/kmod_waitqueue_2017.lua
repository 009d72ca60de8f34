-- kmod_waitqueue_2017.lua: Linux 4.13's request_module() limiter, scaled
-- down.  Instead of a semaphore, an atomic_t counts free slots; a caller
-- that finds none sleeps on kmod_wq for up to 5 s:
--   wait_event_killable_timeout(kmod_wq,
--       atomic_dec_if_positive(&kmod_concurrent_max) >= 0, 5 * HZ)
-- and each finished modprobe does atomic_inc() + wake_up(&kmod_wq).
-- wake_up() wakes every waiter; all but one find no slot and sleep again.
scenario{
  name = "kmod_waitqueue_2017",
  title = "An atomic counter and a wait queue as a concurrency limiter",
  era = "4.13",
  cpus = 4,
}

local limit    = param("limit", 2)
local requests = param("requests", 6)

local slots   = atomic{ name = "kmod_concurrent_max", value = limit }
local kmod_wq = waitqueue{ name = "kmod_wq" }
local running = counter{ name = "modprobe_running", unit = "threads" }
local timeouts = atomic{ name = "etime" }
local rechecks = atomic{ name = "condition_checks" }

for i = 1, requests do
  task{ name = "request_module/" .. i, start = us(i), run = function()
    local got = wait_event_timeout(kmod_wq, function()
      atomic_inc(rechecks)
      return atomic_dec_if_positive(slots) >= 0
    end, sec(5))
    if not got then
      atomic_inc(timeouts)             -- -ETIME: "kmod busy"
      return
    end
    counter_add(running, 1)
    sleep(sec(1))                      -- modprobe runs
    counter_add(running, -1)
    atomic_inc(slots)
    wake_up(kmod_wq)
  end }
end

check(function(r)
  return r.counters.modprobe_running.peak <= limit,
         string.format("peak %d modprobe at once, limit %d",
                       r.counters.modprobe_running.peak, limit)
end)
check(function(r)
  return r.atomics.kmod_concurrent_max == limit,
         string.format("%d of %d slots free at the end; %d request(s) timed out",
                       r.atomics.kmod_concurrent_max, limit, r.atomics.etime)
end)
