-- expect-exit: 2
-- args: --max-wall 1
-- expect-stderr: pattern_backtracking\.lua: wall-clock budget of 1 s exceeded inside one library call
-- FIXED: the engine bug described below no longer happens; this test keeps it so.
-- HANG (engine bug), immune to SIGTERM and SIGINT.  One string.find with a
-- pattern that backtracks exponentially (40 "a*" items against 40 "a"s,
-- then a "b" that never matches) runs for hours inside one C call: no Lua
-- instruction, so no hook, so no budget, and the SIGINT/SIGTERM handler
-- only sets a flag the hook would read.
-- Fix: a watchdog outside Lua (a timer or thread that ends the process
-- with exit 2 and the wall-clock message once the budget is past plus a
-- grace), and/or string.find/match/gmatch/gsub wrappers that bound the
-- pattern (e.g. refuse more than a few quantified items).
scenario{ name = "pattern_backtracking" }
local s = ("a"):rep(40)
string.find(s, ("a*"):rep(40) .. "b")
