-- expect-exit: 0
-- args: --era 2009 --cpus 2
-- expect-stdout: ok +wait_event_timeout: false then true
-- wait_for_completion()/complete(), and wait_event_timeout() both ways.
scenario{ name = "completion_wait_timeout" }
local c = completion{ name = "probe_done" }
local wq = waitqueue{ name = "wq" }
local flag = atomic{ name = "flag" }
local r1 = var{ name = "timeout_result" }
local r2 = var{ name = "ready_result" }
local got = var{ name = "completed" }
task{ name = "prober", run = function()
  compute(us(200))
  complete(c)
  sleep(ms(2))
  atomic_set(flag, 1)
  wake_up(wq)
end }
task{ name = "waiter", run = function()
  wait_for_completion(c)
  write(got, 1)
  local ok = wait_event_timeout(wq, function() return atomic_read(flag) == 1 end, us(500))
  write(r1, ok and 1 or 0)
  ok = wait_event_timeout(wq, function() return atomic_read(flag) == 1 end, ms(10))
  write(r2, ok and 1 or 0)
end }
check(function(r) return r.vars.completed == 1, "the completion was delivered" end)
check(function(r)
  return r.vars.timeout_result == 0 and r.vars.ready_result == 1,
    string.format("wait_event_timeout: %s then %s", r.vars.timeout_result == 1, r.vars.ready_result == 1)
end)
