-- extremes.lua: every number at the end of the range the contract allows,
-- for test_extremes.c.  Two CPUs busy for almost 2^62 ns each (their sum
-- does not fit in an int64_t), a counter that goes INT64_MIN -> INT64_MAX
-- -> 0 (its range does not either), variables at INT64_MIN and INT64_MAX,
-- a measure of almost 2^62 ns and one of 0, waits of 2^62 ns, and an
-- interrupt whose period and jitter are the largest allowed.
scenario{ name = "view_extremes", era = "2023", cpus = 2, seed = 1, duration = 1 << 62 }

local big = 1 << 62
local l = lock{ name = "l", kind = "semaphore" }
local c = counter{ name = "swing", unit = "bytes" }
local top = counter{ name = "top", unit = "x" }
local v = var{ name = "v", value = math.mininteger }
local a = atomic{ name = "a", value = math.maxinteger }
local wq = waitqueue{ name = "wq" }

task{ name = "long", cpu = 0, run = function()
  counter_add(c, math.mininteger)
  counter_add(top, math.maxinteger)
  compute(us(1))
  counter_add(c, -1)			-- wraps to INT64_MAX
  compute(us(1))
  counter_add(c, 1)			-- back to INT64_MIN
  compute(us(1))
  counter_add(c, math.maxinteger)	-- -1
  counter_add(c, 1)			-- 0
  add(v, -1)
  atomic_inc(a)
  measure("huge", function() down(l); compute(big - ms(1)); up(l) end)
  sleep(big)
end }

task{ name = "other", cpu = 1, run = function()
  compute(us(2))
  measure("wait", function() down(l); up(l) end)
  measure("none", function() end)
  compute(big - ms(2))
  wait_event_timeout(wq, function() return false end, big)
end }

irq{ name = "rare", cpu = 0, every = big, jitter = big, handler = function() compute(us(1)) end }
