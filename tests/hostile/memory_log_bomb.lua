-- expect-exit: 2
-- args: --max-wall 2
-- expect-stderr: memory_log_bomb\.lua:[0-9]+: wall-clock budget of 2 s exceeded
-- log() in a loop: the simulator keeps a bounded copy of the log, so the
-- run's memory stays flat and the wall clock ends it (the same loop under
-- --max-memory is memory_log_bomb_budget.lua).
scenario{ name = "memory_log_bomb" }
local s = ("x"):rep(500)
task{ name = "t", run = function() while true do log(s) end end }
