-- expect-exit: 2
-- args: --max-events 100000
-- expect-stderr: loop_wake_up_events\.lua: event budget of 100000 events exceeded
-- wake_up_all() on an empty queue costs simulated time and one event each:
-- few Lua instructions per event, so the event budget is the one that
-- ends it (the message names the file; events have no line).
scenario{ name = "loop_wake_up_events" }
local wq = waitqueue{ name = "wq" }
task{ name = "t", run = function() while true do wake_up_all(wq) end end }
