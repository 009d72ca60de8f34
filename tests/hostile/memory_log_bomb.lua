-- expect-exit: 2
-- args: --max-wall 2
-- expect-stderr: memory_log_bomb\.lua:[0-9]+: wall-clock budget of 2 s exceeded
-- log() in a loop: every line is kept for the report, in C memory that
-- the Lua budget does not see (about 100 MB per second here, so up to
-- ~12 GB in the default 120 s).  Only the wall clock ends it today: see
-- pending/memory_log_bomb_budget.lua for what it should be.
scenario{ name = "memory_log_bomb" }
local s = ("x"):rep(500)
task{ name = "t", run = function() while true do log(s) end end }
