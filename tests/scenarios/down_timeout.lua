-- expect-exit: 0
-- args: --era 2023 --cpus 2
-- expect-stdout: ok +the first down_timeout returned false
-- down_timeout() gives up (false) when the holder keeps the lock too long,
-- and succeeds (true) once it is free.
scenario{ name = "down_timeout" }
local s = lock{ name = "kmod_concurrent_max", kind = "semaphore" }
local result = var{ name = "first_try" }
local waited = var{ name = "waited_ns" }
local second = var{ name = "second_try" }
task{ name = "holder", run = function() down(s); sleep(ms(3)); up(s) end }
task{ name = "waiter", start = us(10), run = function()
  local t0 = now()
  local ok = down_timeout(s, ms(1))
  write(waited, now() - t0)
  write(result, ok and 1 or 0)
  ok = down_timeout(s, ms(10))
  write(second, ok and 1 or 0)
  if ok then up(s) end
end }
check(function(r) return r.vars.first_try == 0, "the first down_timeout returned false" end)
check(function(r)
  return r.vars.waited_ns >= ms(1) and r.vars.waited_ns < ms(1) + us(100),
    "timed out after " .. (r.vars.waited_ns // 1000 * 1000) .. " ns"
end)
check(function(r) return r.vars.second_try == 1, "the second down_timeout returned true" end)
