-- expect-exit: 2
-- expect-stderr: numbers_wait_event_timeout_nan\.lua:7: wait_event_timeout\(\): the timeout must be a whole number of nanoseconds, got -?nan
-- wait_event_timeout(wq, f, 0/0).
scenario{ name = "numbers_wait_event_timeout_nan" }
local wq = waitqueue{ name = "wq" }
task{ name = "t", run = function()
  wait_event_timeout(wq, function() return false end, 0/0)
end }
