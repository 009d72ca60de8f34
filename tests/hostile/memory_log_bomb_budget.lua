-- expect-exit: 2
-- args: --max-memory 16M --max-wall 2
-- expect-stderr: memory_log_bomb_budget\.lua:[0-9]+: wall-clock budget of 2 s exceeded
-- FIXED: the engine bug described below no longer happens; this test keeps it so.
-- UNBOUNDED MEMORY (engine bug).  Every log() line is copied into the
-- simulator's log (km_op_log: a strdup and a vector push, in C), which the
-- Lua memory budget does not count: this loop grows the process by about
-- 100 MB/s, 1 GB by the 10 s wall budget here, and ~12 GB by the default
-- 120 s -- enough to push a small machine into the OOM killer before any
-- budget fires.  Fix: bound the log (keep the first N lines and count the
-- rest, as violations do), or charge it to the memory budget.
scenario{ name = "memory_log_bomb_budget" }
local s = ("x"):rep(500)
task{ name = "t", run = function() while true do log(s) end end }
