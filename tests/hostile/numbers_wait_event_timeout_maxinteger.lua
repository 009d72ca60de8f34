-- expect-exit: 2
-- expect-stderr: numbers_wait_event_timeout_maxinteger\.lua:8: wait_event_timeout\(\): the timeout is too large
-- wait_event_timeout(wq, f, math.maxinteger): now + timeout would overflow.
scenario{ name = "numbers_wait_event_timeout_maxinteger" }
local wq = waitqueue{ name = "wq" }
task{ name = "t", run = function()
  compute(us(1))
  wait_event_timeout(wq, function() return false end, math.maxinteger)
end }
