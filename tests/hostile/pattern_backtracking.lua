-- expect-exit: 2
-- args: --max-wall 1
-- expect-stderr: pattern_backtracking\.lua: wall-clock budget of 1 s exceeded inside one library call
-- One string.find whose pattern backtracks exponentially runs for hours
-- inside one C call, where no instruction hook runs: the wall-clock
-- budget still ends it, with exit 2 and the message.
scenario{ name = "pattern_backtracking" }
local s = ("a"):rep(40)
string.find(s, ("a*"):rep(40) .. "b")
