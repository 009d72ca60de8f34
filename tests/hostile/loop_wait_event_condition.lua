-- expect-exit: 2
-- args: --max-instructions 1000000
-- expect-stderr: loop_wait_event_condition\.lua:9: instruction budget of 1000000 exceeded
-- The condition of wait_event() runs inside the task (called from C with a
-- continuation): a condition that never returns meets the same budget.
scenario{ name = "loop_wait_event_condition" }
local wq = waitqueue{ name = "wq" }
task{ name = "t", run = function()
  wait_event(wq, function() while true do end end)
end }
