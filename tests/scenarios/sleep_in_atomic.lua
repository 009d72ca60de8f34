-- expect-exit: 1
-- args: --era 2008 --cpus 2
-- expect-stdout: sleep-in-atomic
-- Sleeping while holding a spinlock: "scheduling while atomic".
scenario{ name = "sleep_in_atomic" }
local l = lock{ name = "sl", kind = "spinlock" }
task{ name = "sleeper", run = function()
  down(l)
  sleep(us(100))
  up(l)
end }
check(function(r)
  return r.violation_counts["sleep-in-atomic"] == 1, "one sleep-in-atomic"
end)
