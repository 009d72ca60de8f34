-- expect-exit: 2
-- args: --max-memory 16M --max-wall 2
-- expect-stderr: memory_log_bomb_budget\.lua:[0-9]+: wall-clock budget of 2 s exceeded
-- log() in a loop: the simulator's copy of the log is bounded, so the
-- run ends on its wall-clock budget instead of growing without limit
-- outside the Lua memory budget.
scenario{ name = "memory_log_bomb_budget" }
local s = ("x"):rep(500)
task{ name = "t", run = function() while true do log(s) end end }
