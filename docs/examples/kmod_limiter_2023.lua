-- kmod_limiter_2023.lua: Linux 6.4's request_module() limiter, scaled down.
-- The kernel has DEFINE_SEMAPHORE(kmod_concurrent_max, 50) and gives up
-- after down_timeout(..., 5 * HZ) with "kmod busy with 50 threads for more
-- than 5 seconds now".  Here the limit is 2 (--set limit=N), ten requests
-- arrive at once and each modprobe takes 3 s, so the last ones time out.
scenario{
  name = "kmod_limiter_2023",
  title = "A counting semaphore as a concurrency limiter, with down_timeout",
  era = "6.4",
  cpus = 4,
}

local limit    = param("limit", 2)
local requests = param("requests", 10)

local kmod_max = lock{ name = "kmod_concurrent_max", count = limit }
local running  = counter{ name = "modprobe_running", unit = "threads" }
local busy     = atomic{ name = "kmod_busy_errors" }

for i = 1, requests do
  task{ name = "request_module/" .. i, start = us(i), run = function()
    measure("request_module", function()
      if not down_timeout(kmod_max, sec(5)) then
        log("kmod busy with %d threads for more than 5 seconds now", limit)
        atomic_inc(busy)                   -- return -ETIME
        return
      end
      counter_add(running, 1)
      sleep(sec(3))                        -- call_usermodehelper: modprobe runs
      counter_add(running, -1)
      up(kmod_max)
    end)
  end }
end

check(function(r)
  local peak = r.counters.modprobe_running.peak
  return peak <= limit, string.format("at most %d modprobe at once (peak %d)", limit, peak)
end)
check(function(r)
  -- 'limit' start at once and 'limit' more at t = 3 s; the rest have waited
  -- 5 s by then and give up
  local expected = math.max(0, requests - 2 * limit)
  return r.atomics.kmod_busy_errors == expected,
         string.format("%d of %d requests gave up (expected %d)",
                       r.atomics.kmod_busy_errors, requests, expected)
end)
